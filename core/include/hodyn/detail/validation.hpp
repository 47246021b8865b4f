// hodyn/detail/validation.hpp — input checks shared by the algorithms.
#pragma once

#include <cmath>
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

/// all_finite for large outputs (dense matrices of the derivative,
/// inverse-mass-matrix and regressor calls): the same x − x test summed in
/// eight independent lanes that the compiler vectorizes, instead of one add
/// chain through every entry. A separate name, so the small checks of the
/// firmware's step keep their exact instruction sequence. (Not Eigen's
/// `.sum()`: with AVX-512, g++ 12 reports a false "may be used uninitialized"
/// inside Eigen's 8-double packet reduction, an error in the -Werror builds.)
template <class Derived>
bool all_finite_wide(const Eigen::MatrixBase<Derived>& x) {
  using Scalar = typename Derived::Scalar;
  if constexpr (std::is_floating_point<Scalar>::value) {
    const typename Derived::PlainObject& plain = x.derived();  // contiguous storage
    const Scalar* p = plain.data();
    const Eigen::Index n = plain.size();
    Scalar lane[8] = {};
    const Eigen::Index whole = n / 8 * 8;
    for (Eigen::Index i = 0; i < whole; i += 8)
      for (int l = 0; l < 8; ++l) lane[l] += p[i + l] - p[i + l];
    for (Eigen::Index i = whole; i < n; ++i) lane[0] += p[i] - p[i];
    return ((lane[0] + lane[1]) + (lane[2] + lane[3])) +
               ((lane[4] + lane[5]) + (lane[6] + lane[7])) ==
           Scalar(0);
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
