// hodyn/detail/validation.hpp — input checks shared by the algorithms.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "hodyn/detail/isa.hpp"

#include <Eigen/Core>

#include "hodyn/pose.hpp"
#include "hodyn/scalar_traits.hpp"
#include "hodyn/status.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

/// Every entry is finite. For IEEE types x − x is 0 for a finite x and NaN for
/// NaN or ±Inf, so one branch-free sum decides (no -ffast-math in hodyn).
template <class Derived>
bool all_finite(const Eigen::MatrixBase<Derived>& x) {
  using Scalar = typename Derived::Scalar;
  if constexpr (std::is_floating_point<Scalar>::value) {
    Scalar zero(0);
    for (Eigen::Index i = 0; i < x.size(); ++i) zero += x(i) - x(i);
    return zero == Scalar(0);
  } else {
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (!ScalarTraits<Scalar>::is_finite(x(i))) return false;
    return true;
  }
}

/// Every entry of every argument is finite: for IEEE types one sum of x − x
/// over all of them and one comparison (the per-step result checks), else
/// all_finite of each.
template <class... Derived>
bool all_finite_together(const Eigen::MatrixBase<Derived>&... x) {
  using Scalar = typename std::common_type<typename Derived::Scalar...>::type;
  if constexpr (std::is_floating_point<Scalar>::value) {
    Scalar zero(0);
    const auto add = [&zero](const auto& v) {
      for (Eigen::Index i = 0; i < v.size(); ++i) zero += v(i) - v(i);
    };
    (add(x), ...);
    return zero == Scalar(0);
  } else {
    return (all_finite(x) && ...);
  }
}

/// True when none of p[0..n) (double or float) is NaN or ±Inf: a value is
/// not finite when its exponent bits are all ones. The flags are combined
/// with OR, which the compiler may regroup and so vectorizes at any width
/// (a sum of x·0, which it may not reorder, was a serial chain of dependent
/// additions: 5 % of forward kinematics r = 2).
template <class S>
bool finite_lanes(const S* p, int n) {
  static_assert(std::is_same<S, double>::value || std::is_same<S, float>::value,
                "IEEE double or float");
  using Bits = std::conditional_t<sizeof(S) == 8, std::uint64_t, std::uint32_t>;
  constexpr Bits kExponent = sizeof(S) == 8 ? Bits(0x7ff0000000000000ull) : Bits(0x7f800000u);
  Bits not_finite = 0;
  for (int i = 0; i < n; ++i) {
    Bits bits;
    std::memcpy(&bits, p + i, sizeof bits);
    not_finite |= Bits((bits & kExponent) == kExponent);
  }
  return not_finite == 0;
}

/// all_finite for large outputs (dense matrices of the derivative and
/// inverse-mass-matrix calls): double and float by their exponent bits
/// (finite_lanes), vectorized, instead of one add chain of x − x through
/// every entry (eight lanes of it were still a chain: 4 % of M̄⁻¹, measured
/// with perf). A separate name, so the small checks of the
/// firmware's step keep their exact instruction sequence. (Not Eigen's
/// `.sum()`: with AVX-512, g++ 12 reports a false "may be used uninitialized"
/// inside Eigen's 8-double packet reduction, an error in the -Werror builds.)
template <class Derived>
bool all_finite_wide(const Eigen::MatrixBase<Derived>& x) {
  using Scalar = typename Derived::Scalar;
  if constexpr (std::is_same<Scalar, double>::value || std::is_same<Scalar, float>::value) {
    const typename Derived::PlainObject& plain = x.derived();  // contiguous storage
    return finite_lanes(plain.data(), static_cast<int>(plain.size()));
  } else {
    return all_finite(x);
  }
}

/// ||RᵀR − I||_max within tolerance and det R > 0 (columns orthonormal and
/// right-handed).
template <class Scalar>
bool is_rotation(const Matrix3<Scalar>& r) {
  using std::abs;
  using Traits = ScalarTraits<Scalar>;
  const auto tol = Traits::orthonormality_tolerance();
  const auto off = [&](int a, int b, double target) {
    const Scalar d = r.col(a).dot(r.col(b)) - Scalar(target);
    return !(abs(Traits::primal(d)) <= tol);
  };
  if (off(0, 0, 1.0) || off(1, 1, 1.0) || off(2, 2, 1.0) || off(0, 1, 0.0) || off(0, 2, 0.0) ||
      off(1, 2, 0.0))
    return false;
  return Traits::primal(r.col(0).dot(r.col(1).cross(r.col(2)))) > 0;
}

/// Finite pose with an orthonormal, right-handed rotation; the status says which check failed.
template <class Scalar>
Status check_pose(const Pose<Scalar>& c) {
  if (!all_finite(c.rotation) || !all_finite(c.translation)) return Status::kNonFiniteInput;
  if (!is_rotation(c.rotation)) return Status::kNonOrthonormalRotation;
  return Status::kOk;
}

/// Every ball joint's R_j (MotionDerivatives / ForwardDynamicsInput::joint_rotation)
/// finite and a rotation; kOk for an empty list (a tree without a ball).
template <class Rotations>
Status check_joint_rotations(const Rotations& rotations) {
  for (const auto& r : rotations) {
    if (!all_finite(r)) return Status::kNonFiniteInput;
    if (!is_rotation(r)) return Status::kNonOrthonormalRotation;
  }
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
