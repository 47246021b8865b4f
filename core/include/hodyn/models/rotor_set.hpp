// hodyn/models/rotor_set.hpp — a robot's rotors (propellers) as data, and the
// allocation matrix they give (docs/rotors.md).
//
// Rotor i sits at p_i with unit thrust axis a_i (both in the base frame) and
// turns at ω_i ≥ 0 rad/s. Its spin s_i = +1 means counter-clockwise seen from
// the tip of a_i (propeller angular velocity +ω_i a_i), s_i = −1 clockwise.
// It pushes the base with
//     f_i = c_f ω_i² a_i                       (thrust along the axis)
//     n_i = p_i × f_i − s_i c_d ω_i² a_i       (moment about the base origin)
// — the drag reaction torque opposes the spin. Stacked as wrenches (moment;
// force), W = A (ω_1², …, ω_N²) with the 6xN allocation matrix
//     A_i = (p_i × c_f a_i − s_i c_d a_i ;  c_f a_i).
// This is Ad_{C_i}⁻ᵀ (0, 0, −s_i c_d, 0, 0, c_f) for any rotor frame C_i at p_i
// whose z axis is a_i (seed 000 eq. 28 with c_{d,i} = −s_i c_d).
//
// Fixed size (N at compile time, N ≥ 6 for a 6-DoF wrench), no heap, no
// exceptions; every function is noexcept and templated on the scalar.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <Eigen/Core>
#include <Eigen/SVD>

#include "hodyn/scalar_traits.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"

namespace hodyn {

/// One rotor: geometry in the base frame, aerodynamic coefficients, speed loop.
template <class Scalar = double>
struct Rotor {
  Vector3<Scalar> position = Vector3<Scalar>::Zero();  ///< p (m), base frame
  Vector3<Scalar> axis = Vector3<Scalar>::UnitZ();     ///< a, unit thrust direction, base frame
  int spin = 1;  ///< s: +1 counter-clockwise seen from the tip of a, −1 clockwise
  Scalar thrust_coefficient = Scalar(0);  ///< c_f (N s²): thrust c_f ω²
  Scalar drag_coefficient = Scalar(0);    ///< c_d (N m s²): drag torque c_d ω², against the spin
  Scalar min_speed = Scalar(0);           ///< ω_min (rad/s)
  Scalar max_speed = Scalar(0);           ///< ω_max (rad/s)
  Scalar time_constant = Scalar(0);       ///< T (s): first-order speed lag ω̇ = (ω_cmd − ω)/T
};

/// N rotors; rotor i is column i of the allocation matrix and entry i of ω.
template <int N, class Scalar = double>
struct RotorSet {
  static_assert(N >= 6, "a rotor set must be able to produce a 6-DoF wrench: N >= 6");
  static constexpr int kNumRotors = N;
  std::array<Rotor<Scalar>, N> rotors{};

  Rotor<Scalar>& operator[](int i) noexcept { return rotors[static_cast<std::size_t>(i)]; }
  const Rotor<Scalar>& operator[](int i) const noexcept {
    return rotors[static_cast<std::size_t>(i)];
  }
};

/// A rotor as plain numbers (a literal type): what generated headers keep as
/// `inline constexpr` data (flash on a microcontroller). Same fields and units as Rotor.
struct RotorData {
  double position[3];
  double axis[3];
  int spin;
  double thrust_coefficient;
  double drag_coefficient;
  double min_speed;
  double max_speed;
  double time_constant;
};

template <class Scalar>
Rotor<Scalar> rotor_from_data(const RotorData& d) noexcept {
  Rotor<Scalar> r;
  r.position = Vector3<Scalar>(Scalar(d.position[0]), Scalar(d.position[1]), Scalar(d.position[2]));
  r.axis = Vector3<Scalar>(Scalar(d.axis[0]), Scalar(d.axis[1]), Scalar(d.axis[2]));
  r.spin = d.spin;
  r.thrust_coefficient = Scalar(d.thrust_coefficient);
  r.drag_coefficient = Scalar(d.drag_coefficient);
  r.min_speed = Scalar(d.min_speed);
  r.max_speed = Scalar(d.max_speed);
  r.time_constant = Scalar(d.time_constant);
  return r;
}

template <class Scalar, std::size_t N>
RotorSet<static_cast<int>(N), Scalar> rotor_set_from_data(
    const std::array<RotorData, N>& data) noexcept {
  RotorSet<static_cast<int>(N), Scalar> set;
  for (std::size_t i = 0; i < N; ++i) set.rotors[i] = rotor_from_data<Scalar>(data[i]);
  return set;
}

// ---- validity -------------------------------------------------------------

/// The field of a Rotor a check refers to. rotor_field_name() is its key in
/// rotors.json (docs/state-format.md).
enum class RotorField : std::uint8_t {
  kNone = 0,
  kPosition,
  kAxis,
  kSpin,
  kThrustCoefficient,
  kDragCoefficient,
  kMinSpeed,
  kMaxSpeed,
  kTimeConstant,
};

constexpr const char* rotor_field_name(RotorField field) noexcept {
  switch (field) {
    case RotorField::kNone:
      return "";
    case RotorField::kPosition:
      return "position";
    case RotorField::kAxis:
      return "axis";
    case RotorField::kSpin:
      return "spin";
    case RotorField::kThrustCoefficient:
      return "thrust_coefficient";
    case RotorField::kDragCoefficient:
      return "drag_coefficient";
    case RotorField::kMinSpeed:
      return "min_speed";
    case RotorField::kMaxSpeed:
      return "max_speed";
    case RotorField::kTimeConstant:
      return "time_constant";
  }
  return "";
}

/// What a valid value of the field is (for error messages).
constexpr const char* rotor_field_requirement(RotorField field) noexcept {
  switch (field) {
    case RotorField::kNone:
      return "";
    case RotorField::kPosition:
      return "three finite numbers (m)";
    case RotorField::kAxis:
      return "a unit vector (|a|^2 within 1e-9 of 1; 1e-4 in float)";
    case RotorField::kSpin:
      return "+1 (counter-clockwise seen from the axis tip) or -1";
    case RotorField::kThrustCoefficient:
      return "finite and > 0 (N s^2)";
    case RotorField::kDragCoefficient:
      return "finite and >= 0 (N m s^2)";
    case RotorField::kMinSpeed:
      return "finite and >= 0 (rad/s)";
    case RotorField::kMaxSpeed:
      return "finite and > min_speed (rad/s)";
    case RotorField::kTimeConstant:
      return "finite and > 0 (s)";
  }
  return "";
}

/// kOk, kNonFiniteInput (a NaN or Inf) or kInvalidModel (a finite value out of
/// its range, see rotor_field_requirement); `field` (if given) names the first
/// offending field, kNone when valid. The axis must be unit to
/// ScalarTraits::orthonormality_tolerance() in |a|² (1e-9 in double).
template <class Scalar>
Status check_rotor(const Rotor<Scalar>& r, RotorField* field = nullptr) noexcept {
  using Traits = ScalarTraits<Scalar>;
  const auto fail = [field](Status s, RotorField f) {
    if (field != nullptr) *field = f;
    return s;
  };
  for (int k = 0; k < 3; ++k)
    if (!Traits::is_finite(r.position(k)))
      return fail(Status::kNonFiniteInput, RotorField::kPosition);
  for (int k = 0; k < 3; ++k)
    if (!Traits::is_finite(r.axis(k))) return fail(Status::kNonFiniteInput, RotorField::kAxis);
  const Scalar unit_error = Traits::primal(r.axis.squaredNorm()) - Scalar(1);
  if (!(unit_error <= Traits::orthonormality_tolerance() &&
        -unit_error <= Traits::orthonormality_tolerance()))
    return fail(Status::kInvalidModel, RotorField::kAxis);
  if (r.spin != 1 && r.spin != -1) return fail(Status::kInvalidModel, RotorField::kSpin);
  const struct {
    const Scalar& value;
    RotorField field;
  } scalars[] = {{r.thrust_coefficient, RotorField::kThrustCoefficient},
                 {r.drag_coefficient, RotorField::kDragCoefficient},
                 {r.min_speed, RotorField::kMinSpeed},
                 {r.max_speed, RotorField::kMaxSpeed},
                 {r.time_constant, RotorField::kTimeConstant}};
  for (const auto& s : scalars)
    if (!Traits::is_finite(s.value)) return fail(Status::kNonFiniteInput, s.field);
  if (!(Traits::primal(r.thrust_coefficient) > Scalar(0)))
    return fail(Status::kInvalidModel, RotorField::kThrustCoefficient);
  if (!(Traits::primal(r.drag_coefficient) >= Scalar(0)))
    return fail(Status::kInvalidModel, RotorField::kDragCoefficient);
  if (!(Traits::primal(r.min_speed) >= Scalar(0)))
    return fail(Status::kInvalidModel, RotorField::kMinSpeed);
  if (!(Traits::primal(r.max_speed) > Traits::primal(r.min_speed)))
    return fail(Status::kInvalidModel, RotorField::kMaxSpeed);
  if (!(Traits::primal(r.time_constant) > Scalar(0)))
    return fail(Status::kInvalidModel, RotorField::kTimeConstant);
  if (field != nullptr) *field = RotorField::kNone;
  return Status::kOk;
}

/// check_rotor() for every rotor in order; `rotor` (if given) receives the
/// index of the first invalid one (−1 when all are valid).
template <int N, class Scalar>
Status check_rotor_set(const RotorSet<N, Scalar>& set, int* rotor = nullptr,
                       RotorField* field = nullptr) noexcept {
  for (int i = 0; i < N; ++i) {
    const Status s = check_rotor(set[i], field);
    if (s != Status::kOk) {
      if (rotor != nullptr) *rotor = i;
      return s;
    }
  }
  if (rotor != nullptr) *rotor = -1;
  if (field != nullptr) *field = RotorField::kNone;
  return Status::kOk;
}

// ---- allocation -----------------------------------------------------------

/// Column of the allocation matrix for one rotor: its base-frame wrench per
/// ω², (p × c_f a − s c_d a ; c_f a). No validity check (see check_rotor).
template <class Scalar>
Wrench<Scalar> rotor_wrench_per_speed_squared(const Rotor<Scalar>& r) noexcept {
  const Vector3<Scalar> force = r.axis * r.thrust_coefficient;
  const Scalar drag = -Scalar(r.spin) * r.drag_coefficient;  // reaction: against the spin
  return spatial_vector<Scalar>(r.axis * drag + r.position.cross(force), force);
}

/// The 6xN allocation matrix A: base-frame wrench (moment; force) = A (ω_1², …, ω_N²).
template <int N, class Scalar>
Eigen::Matrix<Scalar, 6, N> rotor_allocation(const RotorSet<N, Scalar>& set) noexcept {
  Eigen::Matrix<Scalar, 6, N> a;
  for (int i = 0; i < N; ++i) a.col(i) = rotor_wrench_per_speed_squared(set[i]);
  return a;
}

/// Singular values σ_1 ≥ … ≥ σ_6 of a 6xN allocation matrix (Jacobi SVD in
/// double whatever the scalar — a configuration-time check, like the
/// controller's; fixed size, no heap; values only). Moments (N m) and forces
/// (N) share A, so σ depends on the length unit; rank checks use σ_6/σ_1.
/// A NaN or Inf entry gives six NaNs (Eigen's SVD then stops with
/// InvalidInput before it writes any singular value).
template <int N, class Scalar>
Vector6<Scalar> allocation_singular_values(const Eigen::Matrix<Scalar, 6, N>& a) noexcept {
  const Scalar kNaN = std::numeric_limits<Scalar>::quiet_NaN();
  if constexpr (N == 6) {
    const Eigen::JacobiSVD<Eigen::Matrix<double, 6, N>> svd(a.template cast<double>());
    if (svd.info() != Eigen::Success) return Vector6<Scalar>::Constant(kNaN);
    return svd.singularValues().template head<6>().template cast<Scalar>();
  } else {
    // N > 6: a square SVD. For 6 x N JacobiSVD runs a QR preconditioner whose
    // blocked Householder kernels reference malloc (no bare-metal link). A
    // padded with N − 6 zero rows has A's singular values, then N − 6 zeros.
    Eigen::Matrix<double, N, N> padded = Eigen::Matrix<double, N, N>::Zero();
    padded.template topRows<6>() = a.template cast<double>();
    const Eigen::JacobiSVD<Eigen::Matrix<double, N, N>, Eigen::NoQRPreconditioner> svd(padded);
    if (svd.info() != Eigen::Success) return Vector6<Scalar>::Constant(kNaN);
    return svd.singularValues().template head<6>().template cast<Scalar>();
  }
}

/// kOk when A has full rank 6 with condition number σ_1/σ_6 ≤ max_condition;
/// kNonFiniteInput for a NaN or Inf entry, kSingularAllocation otherwise.
/// `condition` (if given) receives σ_1/σ_6 (+Inf when σ_6 = 0).
template <int N, class Scalar>
Status check_allocation(const Eigen::Matrix<Scalar, 6, N>& a, Scalar max_condition,
                        Scalar* condition = nullptr) noexcept {
  for (int c = 0; c < N; ++c)
    for (int r = 0; r < 6; ++r)
      if (!ScalarTraits<Scalar>::is_finite(a(r, c))) return Status::kNonFiniteInput;
  const Vector6<Scalar> sigma = allocation_singular_values<N, Scalar>(a);
  const Scalar ratio =
      sigma(5) > Scalar(0) ? sigma(0) / sigma(5) : std::numeric_limits<Scalar>::infinity();
  if (condition != nullptr) *condition = ratio;
  return ratio <= max_condition ? Status::kOk : Status::kSingularAllocation;
}

}  // namespace hodyn
