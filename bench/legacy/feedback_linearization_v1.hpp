// bench/legacy/feedback_linearization_v1.hpp — the 12-DoF-only controller as it was
// before issue 15 made it generic (commit e22f505), kept ONLY so that
// bench_controller can time old and new in one run (issue 15 target: ratio
// ≤ 1.03). Namespace hodyn::control::v1. Delete once the ratio is recorded.
#pragma once
// hodyn/control/rotor_allocation.hpp — propeller speeds for a desired base
// wrench on the fully actuated TiltHex (seed 000 eq. 28), within motor limits.
//
// The base-frame propulsion wrench is W = A x with x = (ω_1², …, ω_6²) and the
// 6x6 allocation matrix A (models/tilthex.hpp). A is square and invertible, so
// inside the limits x = A⁻¹ W exactly. When some x_i leaves
// [ω_min², ω_max²] no speed vector produces W; the allocator then solves
//     min ‖S (A x − W)‖²   subject to  ω_min² ≤ x_i ≤ ω_max²
// by clamp-and-resolve (fix the violating speeds at their bound, re-solve the
// weighted least squares for the others, repeat; at most six rounds). The
// weights S put the moments (attitude) and the vertical force (altitude)
// before the lateral forces: S = diag(2/a, 2/a, 2/a, 1, 1, 2), a the arm
// length, so a moment error counts like the force at the arm's tip.
//
// Fixed size, no heap; the inverse is computed once in configure().

#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "hodyn/models/actuation.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace control {
namespace v1 {

template <class Scalar = double>
class RotorAllocation {
 public:
  static constexpr int kNumRotors = 6;
  using RotorVector = Eigen::Matrix<Scalar, kNumRotors, 1>;

  /// Largest condition number of A accepted by configure().
  static constexpr double kMaxCondition = 1.0e6;

  /// Builds A and A⁻¹. A singular or badly conditioned geometry (e.g. the
  /// literal eq. 28 with equal tilts, rank 3) gives kSingularAllocation and
  /// leaves the allocator as it was.
  Status configure(const TiltHexParameters& geometry, const RotorParameters& limits) noexcept {
    if (!(limits.min_speed >= 0.0) || !(limits.max_speed > limits.min_speed) ||
        !std::isfinite(limits.max_speed) || !(geometry.arm_length > 0.0))
      return Status::kInvalidArgument;
    const Matrix6<double> a = tilthex_allocation<double>(geometry);
    if (!a.allFinite()) return Status::kInvalidArgument;
    const Eigen::JacobiSVD<Matrix6<double>> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const auto& sigma = svd.singularValues();
    if (!(sigma(5) > 0.0) || sigma(0) / sigma(5) > kMaxCondition)
      return Status::kSingularAllocation;
    allocation_ = a.cast<Scalar>();
    // A⁻¹ = V Σ⁻¹ Uᵀ from the SVD above, in fixed-size products: a.inverse()
    // (partial-pivoting LU) instantiates Eigen's blocked triangular solves,
    // whose heap fallback a bare-metal link must not contain.
    const Matrix6<double> a_inverse =
        svd.matrixV() * sigma.cwiseInverse().asDiagonal() * svd.matrixU().transpose();
    inverse_ = a_inverse.cast<Scalar>();
    const double s_moment = 2.0 / geometry.arm_length;
    weights_ << Scalar(s_moment), Scalar(s_moment), Scalar(s_moment), Scalar(1), Scalar(1),
        Scalar(2);
    min_squared_ = Scalar(limits.min_speed * limits.min_speed);
    max_squared_ = Scalar(limits.max_speed * limits.max_speed);
    condition_ = sigma(0) / sigma(5);
    configured_ = true;
    return Status::kOk;
  }

  bool configured() const noexcept { return configured_; }
  const Matrix6<Scalar>& matrix() const noexcept { return allocation_; }
  const Matrix6<Scalar>& inverse() const noexcept { return inverse_; }
  double condition_number() const noexcept { return condition_; }

  /// x = A⁻¹ W without limits (what the speeds would have to be).
  RotorVector unconstrained(const Wrench<Scalar>& wrench) const noexcept {
    return inverse_ * wrench;
  }

  /// Squared speeds within the limits for the wrench `wrench`; kActuatorSaturated
  /// when a limit is active (x is then the weighted least-squares compromise).
  Status speeds_squared(const Wrench<Scalar>& wrench, RotorVector& x) const noexcept {
    x = inverse_ * wrench;
    if (within_limits(x)) return Status::kOk;
    std::array<bool, kNumRotors> fixed{};
    for (int round = 0; round < kNumRotors; ++round) {
      bool newly_fixed = false;
      for (int i = 0; i < kNumRotors; ++i) {
        if (fixed[i]) continue;
        if (x(i) < min_squared_ || x(i) > max_squared_) {
          x(i) = x(i) < min_squared_ ? min_squared_ : max_squared_;
          fixed[i] = true;
          newly_fixed = true;
        }
      }
      if (!newly_fixed) break;
      solve_free(wrench, fixed, x);
    }
    for (int i = 0; i < kNumRotors; ++i) x(i) = clamp(x(i));
    return Status::kActuatorSaturated;
  }

  Scalar clamp(Scalar x) const noexcept {
    return x < min_squared_ ? min_squared_ : (x > max_squared_ ? max_squared_ : x);
  }

 private:
  bool within_limits(const RotorVector& x) const noexcept {
    for (int i = 0; i < kNumRotors; ++i)
      if (!(x(i) >= min_squared_ && x(i) <= max_squared_)) return false;
    return true;
  }

  // Weighted least squares over the free speeds, the fixed ones held:
  // (A_Fᵀ S² A_F) x_F = A_Fᵀ S² (W − A_B x_B); fixed rows become identity rows.
  void solve_free(const Wrench<Scalar>& wrench, const std::array<bool, kNumRotors>& fixed,
                  RotorVector& x) const noexcept {
    Wrench<Scalar> residual = wrench;
    for (int i = 0; i < kNumRotors; ++i)
      if (fixed[i]) residual -= allocation_.col(i) * x(i);
    const Matrix6<Scalar> weighted = weights_.asDiagonal() * allocation_;
    Matrix6<Scalar> normal = weighted.transpose().lazyProduct(weighted);
    Vector6<Scalar> rhs = weighted.transpose() * (weights_.asDiagonal() * residual);
    for (int i = 0; i < kNumRotors; ++i) {
      if (!fixed[i]) continue;
      normal.row(i).setZero();
      normal.col(i).setZero();
      normal(i, i) = Scalar(1);
      rhs(i) = x(i);
    }
    const Eigen::LDLT<Matrix6<Scalar>> ldlt(normal);
    const RotorVector solution = ldlt.solve(rhs);
    for (int i = 0; i < kNumRotors; ++i)
      if (!fixed[i]) x(i) = solution(i);
  }

  Matrix6<Scalar> allocation_ = Matrix6<Scalar>::Zero();
  Matrix6<Scalar> inverse_ = Matrix6<Scalar>::Zero();
  Vector6<Scalar> weights_ = Vector6<Scalar>::Ones();
  Scalar min_squared_ = Scalar(0);
  Scalar max_squared_ = Scalar(0);
  double condition_ = 0.0;
  bool configured_ = false;
};

}  // namespace v1
}  // namespace control
}  // namespace hodyn
// hodyn/control/feedback_linearization.hpp — exact feedback linearization of
// the aerial manipulator with elastic arm joints, on second-order inverse
// dynamics (../shared/DESIGN.md §5; De Luca's elastic-joint linearization with
// the propulsion wrench dynamically extended).
//
// The robot (models/actuation.hpp): link side ID(Q, ν, ν̇) = (W_prop, τ_el),
// τ_el = K (θ − q); motor side B θ̈ + F θ̇ + τ_el = u; W_prop = A ω² in the base
// frame. The propulsion wrench gets two integrators, W_prop and Ẇ_prop are
// controller states and Ẅ_prop is the new input. Then every output — base
// position, base attitude, the six joint angles — has relative degree 4 and
// one control step is:
//
//   1. τ_el = K (θ − q), τ̇_el = K (θ̇ − q̇) from the motor and link encoders.
//   2. Forward dynamics with (W_prop, Ẇ_prop) and (τ_el, τ̇_el): V̇, V̈ and
//      q̈, q⃛ (the state's acceleration and jerk; computed with order 2, whose
//      last order is the snap ν⃛₀ at Ẅ_prop = 0, τ̈_el = 0, used in 4).
//   3. Commanded snaps: y⁗ = y⁗_d + k3 e⃛ + k2 ë + k1 ė + k0 e + ki ∫e per
//      output (tracking_gains.hpp); the attitude error is the world-frame
//      rotation vector e_R = log(R_d Rᵀ) (SO(3) logarithm, no Euler angles),
//      with ė_R ≈ ω_d − ω, ë_R ≈ ω̇_d − ω̇, e⃛_R ≈ ω̈_d − ω̈ (exact to first order
//      in the error). The base position's snap becomes V⃛ (base_output.hpp).
//   4. Inverse dynamics of order 2 with (V, V̇, V̈, V⃛) and (q, q̇, q̈, q⃛, q⁗):
//      its base row is Ẅ_prop (base frame), its joint rows τ̈_el. Being affine
//      in the snap, it equals M̄ (ν⃛ − ν⃛₀), which one inverse-dynamics call of
//      order 0 (no gravity, zero velocity) evaluates — cheaper than order 2.
//   5. Motor torques from differentiating τ_el = K (θ − q) twice:
//      u = B (q̈ + K⁻¹ τ̈_el) + F θ̇ + τ_el.
//   6. W_prop and Ẇ_prop integrate Ẅ_prop over the step (exact for a held
//      Ẅ_prop). The propeller speeds that produce W_prop(t) are
//      ω_d = sqrt(A⁻¹ W_prop) (rotor_allocation.hpp, limits applied), and the
//      speed lag ω̇ = (ω_cmd − ω)/T_r is inverted over the step:
//      ω_cmd = ω_d(t) + (ω_d(t+Δt) − ω_d(t)) / (1 − e^(−Δt/T_r)), which is
//      ω_d + T_r ω̇_d as Δt → 0 — the lag compensated with the wrench derivative.
//
// Safety: measurements and references are checked before use; bad input
// (non-finite, out of physical range, stale) yields its Status and a safe
// command — the last good propeller command (mode kHold), then after
// hold_timeout the hover speeds (kHover) — with motor torques limited to
// safe_torque_fraction · u_max. A reference that jumps is reported
// (kReferenceJump) and its error clamped; limits of the rotors or motors are
// reported (kActuatorSaturated) with the command still valid. When good data
// returns, W_prop is re-synchronised to the measured propeller speeds.
//
// Fixed size, no heap, no exceptions; Scalar = double or float.

#include <array>
#include <cmath>

#include "hodyn/control/base_output.hpp"
#include "hodyn/control/tracking_gains.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/forward_dynamics.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/logarithm.hpp"
#include "hodyn/models/actuation.hpp"
#include "hodyn/models/aerial_manipulator.hpp"

namespace hodyn {
namespace control {
namespace v1 {

/// How a command was produced (the values of hodyn_mode in plugin/abi.h).
enum class CommandModeV1 : std::uint8_t {
  kDisarmed = 0,   ///< not configured: rotors stopped, motor torques zero
  kTracking = 1,   ///< the control law, no limit active
  kSaturated = 2,  ///< the control law with rotor or motor limits active
  kHold = 3,       ///< bad input: last good rotor speeds, limited torques
  kHover = 4,      ///< bad input beyond hold_timeout: hover speeds, limited torques
};

/// Everything the controller can be configured with (SI units).
struct FeedbackLinearizationConfig {
  AerialManipulatorParameters body{};      ///< the controller's model of the robot
  AerialManipulatorActuation actuation{};  ///< joints' B, K, F, limits; rotors; TiltHex
  double rate_hz = 1000.0;                 ///< control rate, 500..4000 Hz
  TrackingGains position = TrackingGains::from_bandwidth(8.0, true);
  TrackingGains attitude = TrackingGains::from_bandwidth(20.0, true);
  TrackingGains joints = TrackingGains::from_bandwidth(25.0, true);
  // Clamps of the tracking errors (a far or jumping reference stays bounded).
  double max_position_error = 0.25;  ///< m
  double max_attitude_error = 0.5;   ///< rad
  double max_joint_error = 0.5;      ///< rad
  double max_integral = 0.05;        ///< bound of each ∫e component (m s or rad s)
  /// A reference that moves by more than this from where its derivatives
  /// predicted one step earlier is a jump (m for the position, rad otherwise).
  double reference_jump = 0.02;
  // Physical ranges of the measurements.
  double max_base_speed = 20.0;  ///< m/s
  double max_base_rate = 20.0;   ///< rad/s
  double joint_limit = 3.2;      ///< |q|, |θ| (rad)
  double max_joint_rate = 30.0;  ///< |q̇|, |θ̇| (rad/s)
  double max_deflection = 0.5;   ///< |θ − q| (rad)
  // Safe command.
  double hold_timeout = 0.1;          ///< s of bad input before kHold becomes kHover
  double safe_torque_fraction = 0.5;  ///< |u| ≤ fraction · u_max while input is bad
};

template <class Scalar = double>
class FeedbackLinearization {
 public:
  using Tree = AerialManipulatorTree;
  static constexpr int kNumJoints = 6;
  static constexpr int kNumRotors = 6;
  using JointVector = Eigen::Matrix<Scalar, kNumJoints, 1>;
  using RotorVector = Eigen::Matrix<Scalar, kNumRotors, 1>;
  using V3 = Vector3<Scalar>;

  /// The measured state (the plugin converts sensor frames into this).
  struct Measurement {
    double time = 0.0;                                 ///< s
    Pose<Scalar> base_pose{};                          ///< C₁
    Twist<Scalar> base_twist = Twist<Scalar>::Zero();  ///< V₁ (spatial)
    JointVector q = JointVector::Zero();               ///< link side
    JointVector q_dot = JointVector::Zero();
    JointVector motor_position = JointVector::Zero();  ///< θ
    JointVector motor_velocity = JointVector::Zero();  ///< θ̇
    RotorVector rotor_speed = RotorVector::Zero();     ///< ω (rad/s)
  };

  /// The motion to track with derivatives up to snap.
  struct Reference {
    std::array<V3, 5> position{};                               ///< x_d^(k), world
    Matrix3<Scalar> orientation = Matrix3<Scalar>::Identity();  ///< R_d
    std::array<V3, 4> angular_velocity{};                       ///< ω_d^(k), world
    std::array<JointVector, 5> joints{};                        ///< q_d^(k)
    Reference() {
      for (auto& v : position) v.setZero();
      for (auto& v : angular_velocity) v.setZero();
      for (auto& v : joints) v.setZero();
    }
  };

  struct Output {
    RotorVector rotor_speed = RotorVector::Zero();   ///< ω_cmd (rad/s)
    JointVector motor_torque = JointVector::Zero();  ///< u (N m)
    CommandModeV1 mode = CommandModeV1::kDisarmed;
  };

  /// Internals of the last step, for logs and tests.
  struct Diagnostics {
    V3 position_error = V3::Zero();  ///< x_d − x (after clamping)
    V3 attitude_error = V3::Zero();  ///< log(R_d Rᵀ) (after clamping)
    JointVector joint_error = JointVector::Zero();
    Wrench<Scalar> propulsion_wrench = Wrench<Scalar>::Zero();         ///< W_prop (base frame)
    Wrench<Scalar> propulsion_wrench_rate = Wrench<Scalar>::Zero();    ///< Ẇ_prop
    Wrench<Scalar> propulsion_wrench_second = Wrench<Scalar>::Zero();  ///< Ẅ_prop
    JointVector elastic_torque = JointVector::Zero();                  ///< τ_el
    JointVector elastic_torque_second = JointVector::Zero();           ///< τ̈_el
    bool rotors_saturated = false;
    bool motors_saturated = false;
    bool reference_jumped = false;
  };

  FeedbackLinearization() noexcept = default;

  /// Validates and applies `config`; a rejected configuration leaves the
  /// controller as it was (configured or not). Resets the internal state.
  Status configure(const FeedbackLinearizationConfig& config) noexcept;

  /// Forgets integrators, the extension states and the last good command.
  void reset() noexcept;

  /// One control step; `out` is always finite and within the actuator limits.
  Status update(const Measurement& measurement, const Reference& reference, Output& out) noexcept;

  bool configured() const noexcept { return configured_; }
  const FeedbackLinearizationConfig& config() const noexcept { return config_; }
  const Diagnostics& diagnostics() const noexcept { return diagnostics_; }
  const RotorAllocation<Scalar>& allocation() const noexcept { return allocation_; }
  const Model<Tree, Scalar>& model() const noexcept { return model_; }
  /// The safe command for input the caller found bad before update() (e.g. a
  /// corrupt frame): kHold with the last good rotor speeds, then kHover.
  void safe_command(Output& out) noexcept;

  /// Propeller speeds that hold the nominal robot level at rest.
  const RotorVector& hover_speed() const noexcept { return hover_speed_; }

 private:
  Status check_measurement(const Measurement& m) const noexcept;
  Status check_reference(const Reference& r) const noexcept;
  bool reference_jumped(const Reference& r) const noexcept;
  void synchronise_extension(const Measurement& m) noexcept;
  void remember_reference(const Reference& r) noexcept;

  FeedbackLinearizationConfig config_{};
  Model<Tree, Scalar> model_{};
  RotorAllocation<Scalar> allocation_{};
  JointVector stiffness_ = JointVector::Ones(), motor_inertia_ = JointVector::Zero(),
              motor_friction_ = JointVector::Zero(), torque_limit_ = JointVector::Zero();
  RotorVector hover_speed_ = RotorVector::Zero();
  Scalar dt_ = Scalar(1e-3);
  Scalar lag_gain_ = Scalar(1);  ///< 1 / (1 − e^(−Δt/T_r))
  long hold_steps_ = 100;        ///< hold_timeout in steps
  bool configured_ = false;

  // ---- state ----
  bool synchronised_ = false;  ///< the extension states match the propellers
  bool have_last_good_ = false;
  bool have_last_reference_ = false;
  double last_time_ = 0.0;
  long bad_steps_ = 0;                                   ///< consecutive steps with bad input
  Wrench<Scalar> wrench_ = Wrench<Scalar>::Zero();       ///< W_prop
  Wrench<Scalar> wrench_rate_ = Wrench<Scalar>::Zero();  ///< Ẇ_prop
  RotorVector speed_ = RotorVector::Zero();  ///< ω_d = sqrt(A⁻¹ W_prop), within the limits
  bool speed_saturated_ = false;             ///< ω_d needed a limit
  V3 position_integral_ = V3::Zero(), attitude_integral_ = V3::Zero();
  JointVector joint_integral_ = JointVector::Zero();
  Output last_good_{};
  Reference last_reference_{};
  Diagnostics diagnostics_{};

  // ---- workspaces (fixed size, reused every step) ----
  Model<Tree, Scalar> inertia_model_{};  ///< model_ without gravity: ID of order 0 = M̄ a
  ForwardDynamicsInput<Tree, 2, Scalar> forward_input_{};
  ForwardDynamicsData<Tree, 2, Scalar> forward_{};
  MotionDerivatives<Tree, 0, Scalar> snap_motion_{};
  InverseDynamicsData<Tree, 0, Scalar> snap_wrench_{};
};

// ===========================================================================
// Implementation
// ===========================================================================

namespace detail_fl_v1 {

template <class Derived>
auto clamp_norm(const Eigen::MatrixBase<Derived>& v, double limit) {
  using S = typename Derived::Scalar;
  typename Derived::PlainObject out = v;
  const S n = v.norm();
  if (n > S(limit)) out *= S(limit) / n;
  return out;
}

template <class Derived>
void clamp_each(Eigen::MatrixBase<Derived>& v, double limit) {
  using S = typename Derived::Scalar;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (v(i) > S(limit)) v(i) = S(limit);
    if (v(i) < S(-limit)) v(i) = S(-limit);
  }
}

/// Snap command of one output group (tracking_gains.hpp).
template <class Vec>
Vec snap_command(const TrackingGains& g, const Vec& snap_ref, const Vec& e0, const Vec& e1,
                 const Vec& e2, const Vec& e3, const Vec& integral) {
  using S = typename Vec::Scalar;
  return snap_ref + S(g.k3) * e3 + S(g.k2) * e2 + S(g.k1) * e1 + S(g.k0) * e0 + S(g.ki) * integral;
}

inline bool positive_finite(double x) { return x > 0.0 && std::isfinite(x); }

}  // namespace detail_fl_v1

template <class Scalar>
Status FeedbackLinearization<Scalar>::configure(const FeedbackLinearizationConfig& c) noexcept {
  using detail_fl_v1::positive_finite;
  if (!(c.rate_hz >= 500.0 && c.rate_hz <= 4000.0)) return Status::kInvalidArgument;
  if (!c.position.valid() || !c.attitude.valid() || !c.joints.valid())
    return Status::kInvalidArgument;
  const double limits[] = {c.max_position_error, c.max_attitude_error, c.max_joint_error,
                           c.max_integral,       c.reference_jump,     c.max_base_speed,
                           c.max_base_rate,      c.joint_limit,        c.max_joint_rate,
                           c.max_deflection,     c.hold_timeout,       c.safe_torque_fraction};
  for (double v : limits)
    if (!positive_finite(v)) return Status::kInvalidArgument;
  if (c.safe_torque_fraction > 1.0) return Status::kInvalidArgument;
  for (const auto& j : c.actuation.joints)
    if (!positive_finite(j.motor_inertia) || !positive_finite(j.stiffness) ||
        !positive_finite(j.torque_limit) || !(j.motor_friction >= 0.0) ||
        !std::isfinite(j.motor_friction))
      return Status::kInvalidModel;
  if (!positive_finite(c.actuation.rotors.time_constant)) return Status::kInvalidModel;

  Model<Tree, Scalar> model;
  const Status built = make_aerial_manipulator<Scalar>(model, c.body);
  if (built != Status::kOk) return built;
  RotorAllocation<Scalar> allocation;
  const Status alloc = allocation.configure(c.actuation.tilthex, c.actuation.rotors);
  if (alloc != Status::kOk) return alloc;

  // Hover: the nominal robot level at rest needs W = (0, 0, 0, 0, 0, m g).
  Wrench<Scalar> hover = Wrench<Scalar>::Zero();
  hover(5) = model.total_mass() * Scalar(c.body.gravity);
  RotorVector hover_squared;
  (void)allocation.speeds_squared(hover, hover_squared);

  config_ = c;
  model_ = model;
  inertia_model_ = model;
  (void)inertia_model_.set_gravity(Vector3<Scalar>::Zero());
  allocation_ = allocation;
  for (int j = 0; j < kNumJoints; ++j) {
    const auto& p = c.actuation.joints[static_cast<std::size_t>(j)];
    stiffness_(j) = Scalar(p.stiffness);
    motor_inertia_(j) = Scalar(p.motor_inertia);
    motor_friction_(j) = Scalar(p.motor_friction);
    torque_limit_(j) = Scalar(p.torque_limit);
  }
  hover_speed_ = hover_squared.cwiseSqrt();
  const double dt = 1.0 / c.rate_hz;
  dt_ = Scalar(dt);
  hold_steps_ = std::lround(c.hold_timeout * c.rate_hz);
  lag_gain_ = Scalar(1.0 / (1.0 - std::exp(-dt / c.actuation.rotors.time_constant)));
  configured_ = true;
  reset();
  return Status::kOk;
}

template <class Scalar>
void FeedbackLinearization<Scalar>::reset() noexcept {
  synchronised_ = false;
  have_last_good_ = false;
  have_last_reference_ = false;
  last_time_ = -1.0e300;
  bad_steps_ = 0;
  wrench_.setZero();
  wrench_rate_.setZero();
  position_integral_.setZero();
  attitude_integral_.setZero();
  joint_integral_.setZero();
  last_good_ = Output{};
  diagnostics_ = Diagnostics{};
}

template <class Scalar>
Status FeedbackLinearization<Scalar>::check_measurement(const Measurement& m) const noexcept {
  using hodyn::detail::all_finite;
  using std::abs;
  if (!std::isfinite(m.time)) return Status::kNonFiniteInput;
  const Status pose = hodyn::detail::check_pose(m.base_pose);
  if (pose != Status::kOk) return pose;
  if (!all_finite(m.base_twist) || !all_finite(m.q) || !all_finite(m.q_dot) ||
      !all_finite(m.motor_position) || !all_finite(m.motor_velocity) || !all_finite(m.rotor_speed))
    return Status::kNonFiniteInput;
  if (m.time <= last_time_) return Status::kStaleInput;
  const V3 w = angular(m.base_twist);
  const V3 velocity = linear(m.base_twist) + w.cross(m.base_pose.translation);
  const auto c = [](double x) { return Scalar(x); };
  if (w.norm() > c(config_.max_base_rate) || velocity.norm() > c(config_.max_base_speed))
    return Status::kSensorOutOfRange;
  for (int j = 0; j < kNumJoints; ++j) {
    if (abs(m.q(j)) > c(config_.joint_limit) || abs(m.motor_position(j)) > c(config_.joint_limit) ||
        abs(m.q_dot(j)) > c(config_.max_joint_rate) ||
        abs(m.motor_velocity(j)) > c(config_.max_joint_rate) ||
        abs(m.motor_position(j) - m.q(j)) > c(config_.max_deflection))
      return Status::kSensorOutOfRange;
  }
  for (int i = 0; i < kNumRotors; ++i)
    if (m.rotor_speed(i) < Scalar(0) ||
        m.rotor_speed(i) > c(2.0 * config_.actuation.rotors.max_speed))
      return Status::kSensorOutOfRange;
  return Status::kOk;
}

template <class Scalar>
Status FeedbackLinearization<Scalar>::check_reference(const Reference& r) const noexcept {
  using hodyn::detail::all_finite;
  for (const auto& v : r.position)
    if (!all_finite(v)) return Status::kNonFiniteInput;
  for (const auto& v : r.angular_velocity)
    if (!all_finite(v)) return Status::kNonFiniteInput;
  for (const auto& v : r.joints)
    if (!all_finite(v)) return Status::kNonFiniteInput;
  if (!all_finite(r.orientation)) return Status::kNonFiniteInput;
  if (!hodyn::detail::is_rotation(r.orientation)) return Status::kNonOrthonormalRotation;
  return Status::kOk;
}

template <class Scalar>
bool FeedbackLinearization<Scalar>::reference_jumped(const Reference& r) const noexcept {
  if (!have_last_reference_) return false;
  const Reference& p = last_reference_;
  const Scalar h = dt_, h2 = Scalar(0.5) * dt_ * dt_;
  const Scalar limit = Scalar(config_.reference_jump);
  const V3 predicted = p.position[0] + h * p.position[1] + h2 * p.position[2];
  if ((r.position[0] - predicted).norm() > limit) return true;
  // The rotation against the one its rate predicts, R_pred = (I + h[ω]) R_prev
  // (first order; h²|ω|² is far below the threshold): ‖R − R_pred‖_F ≈ √2 · angle.
  const Matrix3<Scalar> predicted_r =
      p.orientation + h * skew<Scalar>(p.angular_velocity[0]) * p.orientation;
  if ((r.orientation - predicted_r).norm() > Scalar(1.41421356) * limit) return true;
  const JointVector predicted_q = p.joints[0] + h * p.joints[1] + h2 * p.joints[2];
  return (r.joints[0] - predicted_q).cwiseAbs().maxCoeff() > limit;
}

template <class Scalar>
void FeedbackLinearization<Scalar>::remember_reference(const Reference& r) noexcept {
  last_reference_ = r;
  have_last_reference_ = true;
}

template <class Scalar>
void FeedbackLinearization<Scalar>::synchronise_extension(const Measurement& m) noexcept {
  // W_prop from the measured propeller speeds; Ẇ_prop unknown → 0.
  RotorVector squared = m.rotor_speed.cwiseProduct(m.rotor_speed);
  wrench_ = allocation_.matrix() * squared;
  wrench_rate_.setZero();
  RotorVector now_squared;
  speed_saturated_ = allocation_.speeds_squared(wrench_, now_squared) != Status::kOk;
  speed_ = now_squared.cwiseSqrt();
  synchronised_ = true;
}

template <class Scalar>
void FeedbackLinearization<Scalar>::safe_command(Output& out) noexcept {
  if (!configured_) {
    out = Output{};
    return;
  }
  synchronised_ = false;
  ++bad_steps_;
  const bool hold = have_last_good_ && bad_steps_ <= hold_steps_;
  out.mode = hold ? CommandModeV1::kHold : CommandModeV1::kHover;
  out.rotor_speed = hold ? last_good_.rotor_speed : hover_speed_;
  const JointVector limit = torque_limit_ * Scalar(config_.safe_torque_fraction);
  out.motor_torque = have_last_good_ ? last_good_.motor_torque : JointVector::Zero();
  out.motor_torque = out.motor_torque.cwiseMin(limit).cwiseMax(-limit);
}

template <class Scalar>
Status FeedbackLinearization<Scalar>::update(const Measurement& m, const Reference& ref,
                                             Output& out) noexcept {
  using hodyn::detail::all_finite;
  if (!configured_) {
    out = Output{};
    return Status::kNotConfigured;
  }
  Status input = check_measurement(m);
  if (input == Status::kOk) input = check_reference(ref);
  if (input != Status::kOk) {
    safe_command(out);
    return input;
  }
  last_time_ = m.time;
  const bool jumped = reference_jumped(ref);
  remember_reference(ref);
  if (!synchronised_) synchronise_extension(m);

  const Scalar dt = dt_;
  // 1. Elastic torques and their rate (the controller's model has no D).
  const JointVector deflection = m.motor_position - m.q;
  const JointVector tau = stiffness_.cwiseProduct(deflection);
  const JointVector tau_rate = stiffness_.cwiseProduct(m.motor_velocity - m.q_dot);

  // 2. Acceleration, jerk and the snap the state would have with Ẅ_prop = 0,
  // τ̈_el = 0: forward dynamics of order 2 (its order-2 part is the "drift"
  // snap ν⃛₀ used in step 4).
  forward_input_.base_pose = m.base_pose;
  forward_input_.base_twist = m.base_twist;
  forward_input_.q = m.q;
  forward_input_.q_dot = m.q_dot;
  forward_input_.base_wrench_frame = WrenchFrame::kBase;
  forward_input_.base_wrench[0] = wrench_;
  forward_input_.base_wrench[1] = wrench_rate_;
  forward_input_.base_wrench[2].setZero();
  forward_input_.joint_torque[0] = tau;
  forward_input_.joint_torque[1] = tau_rate;
  forward_input_.joint_torque[2].setZero();
  Status step = forward_dynamics(model_, forward_, forward_input_, 2);
  if (step != Status::kOk) {
    safe_command(out);
    return step;
  }
  const auto& fm = forward_.motion;

  // 3. Output derivatives, errors, commanded snaps.
  const std::array<Twist<Scalar>, 3> twist{fm.base_twist[0], fm.base_twist[1], fm.base_twist[2]};
  const std::array<V3, 4> x = base_position_derivatives(m.base_pose.translation, twist);
  std::array<V3, 4> w{angular(twist[0]), angular(twist[1]), angular(twist[2]), V3::Zero()};
  const auto& xd = ref.position;
  const auto& wd = ref.angular_velocity;
  const auto& qd = ref.joints;

  const V3 e_x = detail_fl_v1::clamp_norm(xd[0] - x[0], config_.max_position_error);
  const V3 e_r = detail_fl_v1::clamp_norm(
      so3_log(Matrix3<Scalar>(ref.orientation * m.base_pose.rotation.transpose())),
      config_.max_attitude_error);
  JointVector e_q = qd[0] - m.q;
  detail_fl_v1::clamp_each(e_q, config_.max_joint_error);

  const V3 snap = detail_fl_v1::snap_command(config_.position, xd[4], e_x, V3(xd[1] - x[1]),
                                          V3(xd[2] - x[2]), V3(xd[3] - x[3]), position_integral_);
  w[3] = detail_fl_v1::snap_command(config_.attitude, wd[3], e_r, V3(wd[0] - w[0]), V3(wd[1] - w[1]),
                                 V3(wd[2] - w[2]), attitude_integral_);
  const JointVector q_snap = detail_fl_v1::snap_command(
      config_.joints, qd[4], e_q, JointVector(qd[1] - m.q_dot), JointVector(qd[2] - fm.q[2]),
      JointVector(qd[3] - fm.q[3]), joint_integral_);

  // 4. Second-order inverse dynamics: Ẅ_prop and τ̈_el. They are affine in
  // the snap, (Ẅ; τ̈) = M̄ ν⃛ + b₂, and forward dynamics gave ν⃛₀ with
  // M̄ ν⃛₀ + b₂ = 0, so (Ẅ; τ̈) = M̄ (ν⃛ − ν⃛₀): inverse dynamics of order 0
  // without gravity and at zero velocity, on the snap difference (the same
  // numbers as the order-2 call on (V, V̇, V̈, V⃛), q^(0..4), at a third of
  // its cost).
  const V3 linear_third = linear_twist_third_derivative(x, w, snap);
  snap_motion_.base_pose = m.base_pose;
  snap_motion_.base_twist[0].setZero();
  snap_motion_.base_twist[1].template head<3>() = w[3] - fm.base_twist[3].template head<3>();
  snap_motion_.base_twist[1].template tail<3>() =
      linear_third - fm.base_twist[3].template tail<3>();
  snap_motion_.q[0] = m.q;
  snap_motion_.q[1].setZero();
  snap_motion_.q[2] = q_snap - fm.q[4];
  step = inverse_dynamics(inertia_model_, snap_wrench_, snap_motion_, 0);
  if (step != Status::kOk) {
    safe_command(out);
    return step;
  }
  const Wrench<Scalar>& wrench_second = snap_wrench_.base_wrench_body[0];
  const JointVector& tau_second = snap_wrench_.joint_torque[0];

  // 5. Motor torques: u = B (q̈ + K⁻¹ τ̈_el) + F θ̇ + τ_el.
  JointVector u = motor_inertia_.cwiseProduct(fm.q[2] + tau_second.cwiseQuotient(stiffness_)) +
                  motor_friction_.cwiseProduct(m.motor_velocity) + tau;
  bool motors_saturated = false;
  for (int j = 0; j < kNumJoints; ++j) {
    if (u(j) > torque_limit_(j) || u(j) < -torque_limit_(j)) {
      u(j) = u(j) > Scalar(0) ? torque_limit_(j) : -torque_limit_(j);
      motors_saturated = true;
    }
  }

  // 6. Integrate the extension over the step; propeller speeds at the end of
  // the step (those now are kept from the last step); invert the speed lag.
  RotorVector next_squared;
  const Wrench<Scalar> next_wrench =
      wrench_ + dt * wrench_rate_ + Scalar(0.5) * dt * dt * wrench_second;
  const Wrench<Scalar> next_rate = wrench_rate_ + dt * wrench_second;
  const Status rotors_next = allocation_.speeds_squared(next_wrench, next_squared);
  const RotorVector speed_next = next_squared.cwiseSqrt();
  RotorVector command = speed_ + lag_gain_ * (speed_next - speed_);
  const Scalar lo = Scalar(config_.actuation.rotors.min_speed);
  const Scalar hi = Scalar(config_.actuation.rotors.max_speed);
  bool rotors_saturated = speed_saturated_ || rotors_next != Status::kOk;
  for (int i = 0; i < kNumRotors; ++i) {
    if (command(i) < lo || command(i) > hi) {
      command(i) = command(i) < lo ? lo : hi;
      rotors_saturated = true;
    }
  }
  if (rotors_next != Status::kOk) {
    // The wrench cannot be produced: continue from what the speeds give
    // (anti-windup of the extension), its rate from the last change.
    wrench_rate_ = (allocation_.matrix() * next_squared - wrench_) / dt;
    wrench_ = allocation_.matrix() * next_squared;
  } else {
    wrench_ = next_wrench;
    wrench_rate_ = next_rate;
  }
  speed_ = speed_next;
  speed_saturated_ = rotors_next != Status::kOk;
  if (!all_finite(command) || !all_finite(u) || !all_finite(wrench_) || !all_finite(wrench_rate_)) {
    safe_command(out);
    return Status::kNonFiniteResult;
  }

  // Integrators with anti-windup: frozen while a limit is active.
  const bool saturated = rotors_saturated || motors_saturated;
  if (!saturated) {
    position_integral_ += dt * e_x;
    attitude_integral_ += dt * e_r;
    joint_integral_ += dt * e_q;
    detail_fl_v1::clamp_each(position_integral_, config_.max_integral);
    detail_fl_v1::clamp_each(attitude_integral_, config_.max_integral);
    detail_fl_v1::clamp_each(joint_integral_, config_.max_integral);
  }

  out.rotor_speed = command;
  out.motor_torque = u;
  out.mode = saturated ? CommandModeV1::kSaturated : CommandModeV1::kTracking;
  last_good_ = out;
  have_last_good_ = true;
  bad_steps_ = 0;

  diagnostics_.position_error = e_x;
  diagnostics_.attitude_error = e_r;
  diagnostics_.joint_error = e_q;
  diagnostics_.propulsion_wrench = wrench_;
  diagnostics_.propulsion_wrench_rate = wrench_rate_;
  diagnostics_.propulsion_wrench_second = wrench_second;
  diagnostics_.elastic_torque = tau;
  diagnostics_.elastic_torque_second = tau_second;
  diagnostics_.rotors_saturated = rotors_saturated;
  diagnostics_.motors_saturated = motors_saturated;
  diagnostics_.reference_jumped = jumped;
  if (jumped) return Status::kReferenceJump;
  return saturated ? Status::kActuatorSaturated : Status::kOk;
}

}  // namespace v1
}  // namespace control
}  // namespace hodyn
