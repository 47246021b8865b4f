// hodyn/control/feedback_linearization.hpp — exact feedback linearization of
// any fully actuated aerial manipulator (models/robot.hpp) on second-order
// inverse dynamics (../shared/DESIGN.md §5; De Luca's elastic-joint
// linearization with the propulsion wrench and the rigid joints' torques
// dynamically extended; docs/controller.md).
//
// The robot: link side ID(Q, ν, ν̇) = (W_prop, τ), W_prop = A ω² in the base
// frame (N ≥ 6 rotors, rank-6 A). Joint j is
//   elastic  τ_j = K (θ − q), motor side B θ̈ + F θ̇ + τ_j = u_j;
//   rigid    τ_j = u_j, the torque itself commanded.
// The propulsion wrench and every rigid joint's torque get two integrators
// (W, Ẇ and τ_j, τ̇_j are controller states, Ẅ and τ̈_j new inputs), so every
// output — base position, base attitude, every joint — has relative degree 4
// and obeys one linear error dynamics. One control step is:
//
//   1. τ, τ̇: elastic joints K (θ − q), K (θ̇ − q̇) from the motor and link
//      encoders; rigid joints their extension states.
//   2. Forward dynamics with (W_prop, Ẇ_prop) and (τ, τ̇): V̇, V̈ and q̈, q⃛
//      (the state's acceleration and jerk).
//   3. Commanded snaps: y⁗ = y⁗_d + k3 e⃛ + k2 ë + k1 ė + k0 e + ki ∫e per
//      output (tracking_gains.hpp); the attitude error is the world-frame
//      rotation vector e_R = log(R_d Rᵀ) (SO(3) logarithm, no Euler angles),
//      with ė_R ≈ ω_d − ω, ë_R ≈ ω̇_d − ω̇, e⃛_R ≈ ω̈_d − ω̈ (exact to first order
//      in the error). The base position's snap becomes V⃛ (base_output.hpp).
//   4. Inverse dynamics of order 2 with (V, V̇, V̈, V⃛) and (q, q̇, q̈, q⃛, q⁗):
//      its base row is Ẅ_prop (base frame), its joint rows τ̈.
//   Steps 2–4 are one forward_inverse_dynamics call (forward_dynamics.hpp):
//   the law of step 3 runs between the forward orders and the inverse top
//   order, which reuses their joint frames, sines, biases and wrenches.
//   5. Joint commands. Elastic, from differentiating τ = K (θ − q) twice:
//      u = B (q̈ + K⁻¹ τ̈) + F θ̇ + τ. Rigid: the mean of the extended torque
//      over the step, u = τ + Δt/2 τ̇ + Δt²/6 τ̈ (exact for a held τ̈; a torque
//      held over the step delivers that mean), then τ, τ̇ integrate τ̈.
//   6. W_prop and Ẇ_prop integrate Ẅ_prop over the step (exact for a held
//      Ẅ_prop). The propeller speeds that produce W_prop(t) are
//      ω_d = sqrt(A⁺ W_prop) (rotor_allocation.hpp: minimum-norm ω² for
//      N > 6, limits applied), and each rotor's speed lag
//      ω̇_i = (ω_cmd,i − ω_i)/T_i is inverted over the step:
//      ω_cmd = ω_d(t) + (ω_d(t+Δt) − ω_d(t)) / (1 − e^(−Δt/T_i)), which is
//      ω_d + T_i ω̇_d as Δt → 0 — the lag compensated with the wrench derivative.
//
// Safety: measurements and references are checked before use; bad input
// (non-finite, out of physical range or the joint limits, stale) yields its
// Status and a safe command — the last good propeller command (mode kHold),
// then after hold_timeout the hover speeds (kHover, computed from the model:
// any centre of mass) — with joint torques limited to safe_torque_fraction ·
// u_max (before any good step: the static holding torques at home). A
// reference that jumps is reported (kReferenceJump) and its error clamped;
// limits of the rotors or motors are reported (kActuatorSaturated) with the
// command still valid. When good data returns, W_prop is re-synchronised to
// the measured propeller speeds and each rigid joint's torque to the one
// last commanded (at the first step: the static torque of the measured
// configuration).
//
// Payload estimation (config.payload_estimation, off by default;
// payload_estimator.hpp, docs/payload-estimation.md): each good step, before
// 2., a point-mass payload on one body is estimated from the measured state
// and generalized force (W_prop = A ω² of the measured rotor speeds; elastic
// joints K (θ − q), rigid ones the torque last commanded) and the model(s)
// of the step get that body's nominal inertia ⊕ the point mass. Bad input
// (kHold, kHover) skips it and restarts its filters. Off, the step is the
// same apart from one branch. The estimator's scratch (the motion at its
// filtered state and one inverse dynamics of order 0, whose kinematics also
// give its regressor columns) is the workspace of the rest torques, which
// only the synchronisation after it uses: the estimator adds ~0.7 KB of
// state (double) and fits the Cortex-M7 image. HODYN_PAYLOAD_ESTIMATION = 0 leaves it out
// altogether, and configure() then refuses payload_estimation with kInvalidArgument.
//
// Fixed size, no heap, no exceptions; Scalar = double or float.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hodyn/control/base_output.hpp"
#include "hodyn/control/payload_estimator.hpp"
#include "hodyn/control/rotor_allocation.hpp"
#include "hodyn/control/tracking_gains.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/forward_dynamics.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/logarithm.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"
#include "hodyn/models/robot.hpp"

/// Whether FeedbackLinearization carries the payload estimator: 1 by default
/// (bare metal too: its scratch is a workspace the controller already has);
/// define it 0 to leave it out.
#ifndef HODYN_PAYLOAD_ESTIMATION
#define HODYN_PAYLOAD_ESTIMATION 1
#endif

namespace hodyn {
namespace control {

/// True when the payload estimator is compiled in (HODYN_PAYLOAD_ESTIMATION).
inline constexpr bool kPayloadEstimationBuilt = HODYN_PAYLOAD_ESTIMATION != 0;

/// Stands in for PayloadEstimator where it is not compiled in.
struct NoPayloadEstimator {};

/// How a command was produced (the values of hodyn_mode in plugin/abi.h).
enum class CommandMode : std::uint8_t {
  kDisarmed = 0,   ///< not configured: rotors stopped, motor torques zero
  kTracking = 1,   ///< the control law, no limit active
  kSaturated = 2,  ///< the control law with rotor or motor limits active
  kHold = 3,       ///< bad input: last good rotor speeds, limited torques
  kHover = 4,      ///< bad input beyond hold_timeout: hover speeds, limited torques
};

/// The controller's settings (SI units); the robot itself is a
/// RobotDescription given to configure() beside them. Joint quantities are
/// in the joint's unit: rad for a revolute joint, m for a prismatic one.
struct FeedbackLinearizationConfig {
  double rate_hz = 1000.0;  ///< control rate, 500..4000 Hz
  TrackingGains position = TrackingGains::from_bandwidth(8.0, true);
  TrackingGains attitude = TrackingGains::from_bandwidth(20.0, true);
  TrackingGains joints = TrackingGains::from_bandwidth(25.0, true);
  // Clamps of the tracking errors (a far or jumping reference stays bounded).
  double max_position_error = 0.25;  ///< m
  double max_attitude_error = 0.5;   ///< rad
  double max_joint_error = 0.5;      ///< rad or m
  double max_integral = 0.05;        ///< bound of each ∫e component (m s or rad s)
  /// A reference that moves by more than this from where its derivatives
  /// predicted one step earlier is a jump (m for the position, rad otherwise).
  double reference_jump = 0.02;
  // Physical ranges of the measurements.
  double max_base_speed = 20.0;  ///< m/s
  double max_base_rate = 20.0;   ///< rad/s
  double joint_limit = 3.2;      ///< |q|, |θ| (rad or m)
  /// q outside a bounded joint's [lower − margin, upper + margin] is out of range.
  double joint_limit_margin = 0.2;
  double max_joint_rate = 30.0;  ///< |q̇|, |θ̇| (rad/s or m/s)
  double max_deflection = 0.5;   ///< |θ − q| of an elastic joint (rad or m)
  // Safe command.
  double hold_timeout = 0.1;          ///< s of bad input before kHold becomes kHover
  double safe_torque_fraction = 0.5;  ///< |u| ≤ fraction · u_max while input is bad
  // Online payload estimation (payload_estimator.hpp).
  bool payload_estimation = false;   ///< estimate a payload and feed it back
  PayloadEstimatorConfig payload{};  ///< its settings (body 0: the last body)
};

/// The settings the control step reads, converted to the controller's scalar
/// once by configure() (the same names as in FeedbackLinearizationConfig).
/// Only a float controller keeps them: on a Cortex-M4F every double → float
/// conversion is a library call (`__aeabi_d2f`), ~30 of them a step before
/// (docs/firmware.md, "STM32F405"); a double controller reads config_.
template <class Scalar>
struct StepSettings {
  struct Gains {
    Scalar k0, k1, k2, k3, ki;
  };
  Gains position, attitude, joints;
  Scalar max_position_error, max_attitude_error, max_joint_error, max_integral;
  Scalar reference_jump, max_base_speed, max_base_rate, joint_limit, max_joint_rate;
  Scalar max_deflection, safe_torque_fraction;
};
struct NoStepSettings {};

/// The feedback-linearizing controller of the robot type `Robot`
/// (models/robot.hpp), e.g. FeedbackLinearization<AerialManipulatorRobot>.
template <class Robot, class Scalar = double>
class FeedbackLinearization {
  static_assert(std::is_floating_point<Scalar>::value, "Scalar = double or float");

 public:
  using Description = DescriptionOf<Robot, Scalar>;
  using Tree = typename Robot::Tree;
  static constexpr int kNumJoints = Description::kNumJoints;
  static constexpr int kNumRotors = Description::kNumRotors;
  using JointVector = Eigen::Matrix<Scalar, kNumJoints, 1>;
  using RotorVector = Eigen::Matrix<Scalar, kNumRotors, 1>;
  using Allocation = RotorAllocation<Scalar, kNumRotors>;
  using V3 = Vector3<Scalar>;

  /// The measured state (the plugin converts sensor frames into this). The
  /// motor entries of rigid joints are not read.
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
    JointVector motor_torque = JointVector::Zero();  ///< u: motor (elastic) or joint (rigid) torque
    CommandMode mode = CommandMode::kDisarmed;
  };

  /// Internals of the last step, for logs and tests.
  struct Diagnostics {
    V3 position_error = V3::Zero();  ///< x_d − x (after clamping)
    V3 attitude_error = V3::Zero();  ///< log(R_d Rᵀ) (after clamping)
    JointVector joint_error = JointVector::Zero();
    Wrench<Scalar> propulsion_wrench = Wrench<Scalar>::Zero();         ///< W_prop (base frame)
    Wrench<Scalar> propulsion_wrench_rate = Wrench<Scalar>::Zero();    ///< Ẇ_prop
    Wrench<Scalar> propulsion_wrench_second = Wrench<Scalar>::Zero();  ///< Ẅ_prop
    JointVector elastic_torque = JointVector::Zero();  ///< τ (elastic: K(θ−q); rigid: state)
    JointVector elastic_torque_second = JointVector::Zero();  ///< τ̈
    bool rotors_saturated = false;
    bool motors_saturated = false;
    bool reference_jumped = false;
    // Payload estimation (zero while it is off).
    Scalar payload_mass = Scalar(0);  ///< m̂ (kg)
    V3 payload_offset = V3::Zero();   ///< ĉ in the payload body's frame (m)
    long payload_rejected_steps = 0;  ///< steps the estimator skipped (gate, non-finite)
  };

  FeedbackLinearization() noexcept = default;

  /// Validates and applies `robot` and `config`; a rejected pair leaves the
  /// controller as it was (configured or not). Resets the internal state.
  Status configure(const Description& robot, const FeedbackLinearizationConfig& config) noexcept;
  /// configure() with Robot::describe()'s default robot.
  Status configure(const FeedbackLinearizationConfig& config) noexcept {
    Description robot;
    const Status s = describe_default(robot);
    if (s != Status::kOk) return s;
    return configure(robot, config);
  }

  /// Forgets integrators, the extension states, the last good command and
  /// the payload estimate.
  void reset() noexcept;
  /// Forgets the payload estimate: the model is the nominal one again.
  void reset_payload_estimate() noexcept;
  /// The payload estimator (its body, estimate, covariance).
  const auto& payload_estimator() const noexcept { return payload_; }

  /// One control step; `out` is always finite and within the actuator limits.
  Status update(const Measurement& measurement, const Reference& reference, Output& out) noexcept;

  bool configured() const noexcept { return configured_; }
  const FeedbackLinearizationConfig& config() const noexcept { return config_; }
  /// The gains and limits update() reads, in Scalar: a float controller's
  /// StepSettings<float>, converted from config() once at configure(); a
  /// double controller's config() itself. (Same member names in both.)
  const auto& settings() const noexcept {
    if constexpr (kConvertSettings)
      return settings_;
    else
      return config_;
  }
  /// The robot the controller was configured with.
  const Description& robot() const noexcept { return robot_; }
  const Diagnostics& diagnostics() const noexcept { return diagnostics_; }
  /// The integrals ∫e of the position, attitude and joint errors (with
  /// integral action; zero after reset()).
  const V3& position_integral() const noexcept { return position_integral_; }
  const V3& attitude_integral() const noexcept { return attitude_integral_; }
  const JointVector& joint_integral() const noexcept { return joint_integral_; }
  const Allocation& allocation() const noexcept { return allocation_; }
  const Model<Tree, Scalar>& model() const noexcept { return robot_.model; }
  /// The safe command for input the caller found bad before update() (e.g. a
  /// corrupt frame): kHold with the last good rotor speeds, then kHover.
  void safe_command(Output& out) noexcept;

  /// Propeller speeds that hold the nominal robot level at rest at home
  /// (q = 0, or the nearest limit); any centre of mass.
  const RotorVector& hover_speed() const noexcept { return hover_speed_; }
  /// Joint torques (motor torques at rest) that hold the arm at home.
  const JointVector& holding_torque() const noexcept { return holding_torque_; }

 private:
  Status check_measurement(const Measurement& m) const noexcept;
  Status check_reference(const Reference& r) const noexcept;
  bool reference_jumped(const Reference& r) const noexcept;
  void synchronise_extension(const Measurement& m) noexcept;
  void remember_reference(const Reference& r) noexcept;
  HODYN_NOINLINE void update_payload(const Measurement& m, bool restarted) noexcept;
  void convert_settings() noexcept;

  static constexpr bool kConvertSettings = !std::is_same<Scalar, double>::value;

  FeedbackLinearizationConfig config_{};
  Description robot_{};
  Allocation allocation_{};
  // Per joint: 1 for elastic, 0 for rigid, and the complement (masks keep
  // the step branch-free).
  JointVector elastic_ = JointVector::Ones(), rigid_ = JointVector::Zero();
  bool has_rigid_ = false;  ///< any rigid joint (else the rigid-joint terms are skipped)
  JointVector stiffness_ = JointVector::Ones(), motor_inertia_ = JointVector::Zero(),
              motor_friction_ = JointVector::Zero(), torque_limit_ = JointVector::Zero();
  /// Measured q in range: |q| ≤ joint_limit and, for a bounded joint, within
  /// [lower − margin, upper + margin] — one interval per joint, from configure().
  JointVector q_lowest_ = JointVector::Zero(), q_highest_ = JointVector::Zero();
  RotorVector min_speed_ = RotorVector::Zero(), max_speed_ = RotorVector::Zero();
  RotorVector max_measured_speed_ = RotorVector::Zero();  ///< 2 ω_max: a sensible measurement
  RotorVector hover_speed_ = RotorVector::Zero();
  JointVector holding_torque_ = JointVector::Zero();
  Scalar dt_ = Scalar(1e-3);
  RotorVector lag_gain_ = RotorVector::Ones();  ///< 1 / (1 − e^(−Δt/T_i))
  long hold_steps_ = 100;                       ///< hold_timeout in steps
  bool configured_ = false;

  // ---- state ----
  bool synchronised_ = false;  ///< the extension states match the actuators
  /// Work before the step's dynamics, one byte for the step to test: kResync
  /// (not synchronised_) | kEstimate (payload estimation on).
  static constexpr std::uint8_t kResync = 1, kEstimate = 2;
  std::uint8_t step_extras_ = kResync;
  bool have_last_good_ = false;
  bool have_last_reference_ = false;
  double last_time_ = 0.0;
  long bad_steps_ = 0;                                   ///< consecutive steps with bad input
  Wrench<Scalar> wrench_ = Wrench<Scalar>::Zero();       ///< W_prop
  Wrench<Scalar> wrench_rate_ = Wrench<Scalar>::Zero();  ///< Ẇ_prop
  JointVector torque_ = JointVector::Zero();             ///< τ of the rigid joints (0 for elastic)
  JointVector torque_rate_ = JointVector::Zero();        ///< τ̇ of the rigid joints
  JointVector commanded_torque_ = JointVector::Zero();   ///< u last sent
  bool have_commanded_torque_ = false;
  RotorVector speed_ = RotorVector::Zero();  ///< ω_d = sqrt(A⁺ W_prop), within the limits
  bool speed_saturated_ = false;             ///< ω_d needed a limit
  V3 position_integral_ = V3::Zero(), attitude_integral_ = V3::Zero();
  JointVector joint_integral_ = JointVector::Zero();
  Output last_good_{};
  // Where the last reference's derivatives put this step's (reference_jumped).
  V3 predicted_position_ = V3::Zero();
  Matrix3<Scalar> predicted_orientation_ = Matrix3<Scalar>::Identity();
  JointVector predicted_joints_ = JointVector::Zero();
  Diagnostics diagnostics_{};
  SpatialInertia<Scalar> payload_nominal_{};  ///< the payload body's nominal inertia

  /// Robot::describe() kept out of line: inlined, its temporaries (a model
  /// and more, ~4.4 KiB for octo_arm in double) stayed in the caller's frame
  /// under the whole configure() chain and overflowed the M7 firmware's
  /// 16 KiB stack at start (2026-11-27).
  HODYN_NOINLINE static Status describe_default(Description& robot) noexcept {
    return Robot::template describe<Scalar>(robot);
  }

  // ---- workspaces (fixed size, reused every step; the entries that are
  // zero in every step are set once in configure()) ----
  ForwardDynamicsInput<Tree, 2, Scalar> forward_input_{};
  using ForwardData = ForwardDynamicsData<Tree, 2, Scalar>;
  /// Forward dynamics' workspace and results (`forward`). (The payload
  /// estimator's scratch is rest_motion_ and rest_wrench_ below.) Aligned to
  /// 64 bytes as when the estimator's old scratch shared this storage: the
  /// members the step reads keep their offsets (the Cortex-M7 step's
  /// instructions).
  static constexpr std::size_t kScratchAlignment =
      kPayloadEstimationBuilt && alignof(ForwardData) < 64 ? 64 : alignof(ForwardData);
  struct alignas(kScratchAlignment) Scratch {
    ForwardData forward{};
  };
  Scratch scratch_{};
  /// The commanded snap (V⃛, q⁗) and what it takes: Ẅ_prop (base frame), τ̈.
  InverseTopOrder<Tree, Scalar> snap_{};
  /// Inverse dynamics at rest, for the rigid joints' holding torque when the
  /// controller synchronises (not every step); also the payload estimator's
  /// scratch (update_payload(), which runs before and leaves rest_motion_'s
  /// rates zero again).
  MotionDerivatives<Tree, 0, Scalar> rest_motion_{};
  InverseDynamicsData<Tree, 0, Scalar> rest_wrench_{};

  /// Configured iff config_.payload_estimation (absent without
  /// kPayloadEstimationBuilt). Last: the members the step reads keep the
  /// offsets they have without it (the Cortex-M7 step's instructions).
  std::conditional_t<kPayloadEstimationBuilt, PayloadEstimator<Tree, Scalar>, NoPayloadEstimator>
      payload_{};
  /// settings() of a float controller (after the payload estimator: the
  /// double controller's members keep their offsets, and it reads config_).
  std::conditional_t<kConvertSettings, StepSettings<Scalar>, NoStepSettings> settings_{};
};

// ===========================================================================
// Implementation
// ===========================================================================

namespace detail_fl {

/// v scaled to norm `limit` when longer; `clamped` says whether it was.
template <class Derived, class Limit>
auto clamp_norm(const Eigen::MatrixBase<Derived>& v, Limit limit, bool& clamped) {
  using S = typename Derived::Scalar;
  typename Derived::PlainObject out = v;
  const S n = v.norm();
  clamped = n > S(limit);
  if (clamped) out *= S(limit) / n;
  return out;
}

template <class Derived, class Limit>
void clamp_each(Eigen::MatrixBase<Derived>& v, Limit limit) {
  using S = typename Derived::Scalar;
  const S high = S(limit), low = -high;  // (converted once: float builds)
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const S x = v(i);
    v(i) = x > high ? high : (x < low ? low : x);
  }
}

/// std::isfinite of a time (double) from its bit pattern: exponent not all ones.
inline bool finite_time_bits(double t) noexcept {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &t, sizeof bits);
  return (bits & 0x7FF0000000000000u) != 0x7FF0000000000000u;
}
/// A non-NaN time's bit pattern as an integer ordered as the values are
/// (sign-magnitude to two's complement, −0 and +0 both 0): a <= b of two
/// non-NaN times is ordered_time_bits(a) <= ordered_time_bits(b).
inline std::int64_t ordered_time_bits(double t) noexcept {
  std::int64_t bits = 0;
  std::memcpy(&bits, &t, sizeof bits);
  return bits < 0 ? -(bits & INT64_MAX) : bits;
}

/// Adds x − x over the entries of `v` to `sum`, which stays exactly 0 while
/// every entry is finite and turns NaN at a NaN or ±∞ (detail::all_finite's
/// test; one sum and one comparison for many vectors). Always inlined: a
/// call per vector (~20 a step) cost the F405's step ~100 instructions.
template <class S, class Derived>
HODYN_ALWAYS_INLINE void add_finiteness(S& sum, const Eigen::MatrixBase<Derived>& v) {
  sum += (v - v).sum();
}

/// Snap command of one output group (tracking_gains.hpp; the gains in double
/// or, converted once, in the controller's scalar).
template <class Vec, class Gains>
Vec snap_command(const Gains& g, const Vec& snap_ref, const Vec& e0, const Vec& e1, const Vec& e2,
                 const Vec& e3, const Vec& integral) {
  using S = typename Vec::Scalar;
  return snap_ref + S(g.k3) * e3 + S(g.k2) * e2 + S(g.k1) * e1 + S(g.k0) * e0 + S(g.ki) * integral;
}

inline bool positive_finite(double x) { return x > 0.0 && std::isfinite(x); }

/// Home: q = 0, moved onto the nearest limit of a bounded joint that excludes it.
template <class Vector, std::size_t N>
Vector home_configuration(const std::array<JointLimits, N>& limits) {
  using S = typename Vector::Scalar;
  Vector q = Vector::Zero();
  for (std::size_t j = 0; j < N; ++j) {
    const JointLimits& l = limits[j];
    if (!l.bounded) continue;
    if (l.lower > 0.0) q(static_cast<Eigen::Index>(j)) = S(l.lower);
    if (l.upper < 0.0) q(static_cast<Eigen::Index>(j)) = S(l.upper);
  }
  return q;
}

}  // namespace detail_fl

template <class Robot, class Scalar>
Status FeedbackLinearization<Robot, Scalar>::configure(
    const Description& robot, const FeedbackLinearizationConfig& c) noexcept {
  using detail_fl::positive_finite;
  if (!(c.rate_hz >= 500.0 && c.rate_hz <= 4000.0)) return Status::kInvalidArgument;
  if (!c.position.valid() || !c.attitude.valid() || !c.joints.valid())
    return Status::kInvalidArgument;
  const double limits[] = {c.max_position_error, c.max_attitude_error, c.max_joint_error,
                           c.max_integral,       c.reference_jump,     c.max_base_speed,
                           c.max_base_rate,      c.joint_limit,        c.max_joint_rate,
                           c.max_deflection,     c.hold_timeout,       c.safe_torque_fraction,
                           c.joint_limit_margin};
  for (double v : limits)
    if (!positive_finite(v)) return Status::kInvalidArgument;
  if (c.safe_torque_fraction > 1.0) return Status::kInvalidArgument;
  const Status valid = check_robot(robot);
  if (valid != Status::kOk) return valid;
  Allocation allocation;
  const Status alloc = allocation.configure(robot.rotors);
  if (alloc != Status::kOk) return alloc;
  // The estimator's settings are checked here and applied in place below (no
  // copy of its ~5 KB (float) on the stack).
  const int payload_body = c.payload.body == 0 ? kNumJoints : c.payload.body;
  if (c.payload_estimation && (!kPayloadEstimationBuilt || payload_body < 1 ||
                               payload_body > kNumJoints || !c.payload.valid()))
    return Status::kInvalidArgument;

  // Hover and holding torques: inverse dynamics at rest at home, level — the
  // wrench and joint torques that balance gravity (moments from an
  // off-centre mass included).
  MotionDerivatives<Tree, 0, Scalar> rest;
  rest.base_pose = Pose<Scalar>::identity();
  rest.q[0] = detail_fl::home_configuration<JointVector>(robot.limits);
  InverseDynamicsData<Tree, 0, Scalar> statics;
  const Status held = inverse_dynamics(robot.model, statics, rest, 0);
  if (held != Status::kOk) return held;
  RotorVector hover_squared;
  (void)allocation.speeds_squared(statics.base_wrench_body[0], hover_squared);

  config_ = c;
  convert_settings();
  robot_ = robot;
  allocation_ = allocation;
  if constexpr (kPayloadEstimationBuilt) {
    if (c.payload_estimation) {
      payload_nominal_ = robot.model.body_inertia(payload_body);
      (void)payload_.configure(c.payload, payload_body, payload_nominal_, 1.0 / c.rate_hz);
    }
  }
  const double dt = 1.0 / c.rate_hz;
  has_rigid_ = false;
  for (int j = 0; j < kNumJoints; ++j) {
    const JointActuator& a = robot.actuator(j);
    const bool elastic = a.drive == JointDrive::kElastic;
    has_rigid_ = has_rigid_ || !elastic;
    elastic_(j) = elastic ? Scalar(1) : Scalar(0);
    rigid_(j) = elastic ? Scalar(0) : Scalar(1);
    // |q| ≤ joint_limit ∧ (bounded ⇒ lower − margin ≤ q ≤ upper + margin), as one interval.
    Scalar lowest = -Scalar(c.joint_limit), highest = Scalar(c.joint_limit);
    const JointLimits& l = robot.limit(j);
    if (l.bounded) {
      const Scalar lower = Scalar(l.lower - c.joint_limit_margin);
      const Scalar upper = Scalar(l.upper + c.joint_limit_margin);
      if (lower > lowest) lowest = lower;
      if (upper < highest) highest = upper;
    }
    q_lowest_(j) = lowest;
    q_highest_(j) = highest;
    stiffness_(j) = elastic ? Scalar(a.stiffness) : Scalar(1);
    motor_inertia_(j) = elastic ? Scalar(a.motor_inertia) : Scalar(0);
    motor_friction_(j) = elastic ? Scalar(a.motor_friction) : Scalar(0);
    torque_limit_(j) = Scalar(a.torque_limit);
  }
  for (int i = 0; i < kNumRotors; ++i) {
    const Rotor<Scalar>& r = robot.rotors[i];
    min_speed_(i) = r.min_speed;
    max_speed_(i) = r.max_speed;
    max_measured_speed_(i) = Scalar(2) * r.max_speed;
    lag_gain_(i) = Scalar(1.0 / (1.0 - std::exp(-dt / static_cast<double>(r.time_constant))));
  }
  hover_speed_ = hover_squared.cwiseSqrt();
  holding_torque_ = statics.joint_torque[0].cwiseMin(torque_limit_).cwiseMax(-torque_limit_);
  dt_ = Scalar(dt);
  hold_steps_ = std::lround(c.hold_timeout * c.rate_hz);
  // What never changes in the step's dynamics (steps 2–4): the propulsion
  // wrench is in the base frame, in and out, so no world-frame wrench is
  // formed; the input is built from the measurement check_measurement()
  // vouches for (finite, a rotation, within range) and from the extension's
  // states (finite, checked every step), so forward dynamics does not check
  // it again. Its results are still checked.
  forward_input_.base_wrench_frame = WrenchFrame::kBase;
  snap_.world_base_wrench = false;
  snap_.check_input = false;
  configured_ = true;
  reset();
  return Status::kOk;
}

template <class Robot, class Scalar>
void FeedbackLinearization<Robot, Scalar>::convert_settings() noexcept {
  if constexpr (kConvertSettings) {
    const FeedbackLinearizationConfig& c = config_;
    StepSettings<Scalar>& s = settings_;
    const auto gains = [](const TrackingGains& g) {
      return typename StepSettings<Scalar>::Gains{Scalar(g.k0), Scalar(g.k1), Scalar(g.k2),
                                                  Scalar(g.k3), Scalar(g.ki)};
    };
    s.position = gains(c.position);
    s.attitude = gains(c.attitude);
    s.joints = gains(c.joints);
    s.max_position_error = Scalar(c.max_position_error);
    s.max_attitude_error = Scalar(c.max_attitude_error);
    s.max_joint_error = Scalar(c.max_joint_error);
    s.max_integral = Scalar(c.max_integral);
    s.reference_jump = Scalar(c.reference_jump);
    s.max_base_speed = Scalar(c.max_base_speed);
    s.max_base_rate = Scalar(c.max_base_rate);
    s.joint_limit = Scalar(c.joint_limit);
    s.max_joint_rate = Scalar(c.max_joint_rate);
    s.max_deflection = Scalar(c.max_deflection);
    s.safe_torque_fraction = Scalar(c.safe_torque_fraction);
  }
}

template <class Robot, class Scalar>
void FeedbackLinearization<Robot, Scalar>::reset() noexcept {
  synchronised_ = false;
  step_extras_ = static_cast<std::uint8_t>(
      kResync | (kPayloadEstimationBuilt && config_.payload_estimation ? kEstimate : 0));
  have_last_good_ = false;
  have_last_reference_ = false;
  have_commanded_torque_ = false;
  last_time_ = -1.0e300;
  bad_steps_ = 0;
  wrench_.setZero();
  wrench_rate_.setZero();
  torque_.setZero();
  torque_rate_.setZero();
  commanded_torque_.setZero();
  position_integral_.setZero();
  attitude_integral_.setZero();
  joint_integral_.setZero();
  last_good_ = Output{};
  diagnostics_ = Diagnostics{};
  reset_payload_estimate();
}

template <class Robot, class Scalar>
void FeedbackLinearization<Robot, Scalar>::reset_payload_estimate() noexcept {
  if constexpr (kPayloadEstimationBuilt) {
    if (!config_.payload_estimation) return;
    payload_.reset();
    const int body = payload_.body();
    (void)robot_.model.set_body(body, robot_.model.home_pose(body), payload_nominal_);
    diagnostics_.payload_mass = Scalar(0);
    diagnostics_.payload_offset.setZero();
  }
}

template <class Robot, class Scalar>
Status FeedbackLinearization<Robot, Scalar>::check_measurement(
    const Measurement& m) const noexcept {
  using std::abs;
  // A float controller (a single-precision core: double comparisons are
  // library calls) tests the times in integers, with the same answers: the
  // time finite, then m.time <= last_time_ (never NaN: finite times and its
  // initial −1e300 only).
  if constexpr (kConvertSettings) {
    if (!detail_fl::finite_time_bits(m.time)) return Status::kNonFiniteInput;
  } else {
    if (!std::isfinite(m.time)) return Status::kNonFiniteInput;
  }
  const Status pose = hodyn::detail::check_pose(m.base_pose);
  if (pose != Status::kOk) return pose;
  Scalar finite(0);
  detail_fl::add_finiteness(finite, m.base_twist);
  detail_fl::add_finiteness(finite, m.q);
  detail_fl::add_finiteness(finite, m.q_dot);
  detail_fl::add_finiteness(finite, m.motor_position);
  detail_fl::add_finiteness(finite, m.motor_velocity);
  detail_fl::add_finiteness(finite, m.rotor_speed);
  if (finite != Scalar(0)) return Status::kNonFiniteInput;
  if constexpr (kConvertSettings) {
    if (detail_fl::ordered_time_bits(m.time) <= detail_fl::ordered_time_bits(last_time_))
      return Status::kStaleInput;
  } else {
    if (m.time <= last_time_) return Status::kStaleInput;
  }
  const V3 w = angular(m.base_twist);
  const V3 velocity = linear(m.base_twist) + w.cross(m.base_pose.translation);
  const auto c = [](auto x) { return Scalar(x); };
  const auto& s = settings();
  if (w.norm() > c(s.max_base_rate) || velocity.norm() > c(s.max_base_speed))
    return Status::kSensorOutOfRange;
  const Scalar joint_limit = c(s.joint_limit), joint_rate = c(s.max_joint_rate);
  const Scalar deflection = c(s.max_deflection);
  for (int j = 0; j < kNumJoints; ++j) {
    // q within its interval (range and limits, configure()); the motor side of elastic joints.
    if (m.q(j) < q_lowest_(j) || m.q(j) > q_highest_(j) || abs(m.q_dot(j)) > joint_rate)
      return Status::kSensorOutOfRange;
    if (elastic_(j) != Scalar(0) &&
        (abs(m.motor_position(j)) > joint_limit || abs(m.motor_velocity(j)) > joint_rate ||
         abs(m.motor_position(j) - m.q(j)) > deflection))
      return Status::kSensorOutOfRange;
  }
  for (int i = 0; i < kNumRotors; ++i)
    if (m.rotor_speed(i) < Scalar(0) || m.rotor_speed(i) > max_measured_speed_(i))
      return Status::kSensorOutOfRange;
  return Status::kOk;
}

template <class Robot, class Scalar>
Status FeedbackLinearization<Robot, Scalar>::check_reference(const Reference& r) const noexcept {
  Scalar finite(0);
  for (const auto& v : r.position) detail_fl::add_finiteness(finite, v);
  for (const auto& v : r.angular_velocity) detail_fl::add_finiteness(finite, v);
  for (const auto& v : r.joints) detail_fl::add_finiteness(finite, v);
  detail_fl::add_finiteness(finite, r.orientation);
  if (finite != Scalar(0)) return Status::kNonFiniteInput;
  if (!hodyn::detail::is_rotation(r.orientation)) return Status::kNonOrthonormalRotation;
  return Status::kOk;
}

template <class Robot, class Scalar>
bool FeedbackLinearization<Robot, Scalar>::reference_jumped(const Reference& r) const noexcept {
  if (!have_last_reference_) return false;
  const Scalar limit = Scalar(settings().reference_jump);
  if ((r.position[0] - predicted_position_).norm() > limit) return true;
  // ‖R − R_pred‖_F ≈ √2 · angle (remember_reference).
  if ((r.orientation - predicted_orientation_).norm() > Scalar(1.41421356) * limit) return true;
  return (r.joints[0] - predicted_joints_).cwiseAbs().maxCoeff() > limit;
}

template <class Robot, class Scalar>
void FeedbackLinearization<Robot, Scalar>::remember_reference(const Reference& p) noexcept {
  // What p's derivatives predict one step on (only this is kept, not p).
  // The rotation by its rate: R_pred = (I + h[ω]) R_prev (first order;
  // h²|ω|² is far below the jump threshold).
  const Scalar h = dt_, h2 = Scalar(0.5) * dt_ * dt_;
  predicted_position_ = p.position[0] + h * p.position[1] + h2 * p.position[2];
  const V3 hw = h * p.angular_velocity[0];  // [hω] R, column by column
  for (int c = 0; c < 3; ++c)
    predicted_orientation_.col(c) = p.orientation.col(c) + hw.cross(p.orientation.col(c));
  predicted_joints_ = p.joints[0] + h * p.joints[1] + h2 * p.joints[2];
  have_last_reference_ = true;
}

template <class Robot, class Scalar>
void FeedbackLinearization<Robot, Scalar>::synchronise_extension(const Measurement& m) noexcept {
  // W_prop from the measured propeller speeds; Ẇ_prop unknown → 0.
  RotorVector squared = m.rotor_speed.cwiseProduct(m.rotor_speed);
  wrench_ = allocation_.matrix() * squared;
  wrench_rate_.setZero();
  RotorVector now_squared;
  speed_saturated_ = allocation_.speeds_squared(wrench_, now_squared) != Status::kOk;
  speed_ = now_squared.cwiseSqrt();
  // Rigid joints: the torque last sent; before any, the static torque that
  // holds the measured configuration (inverse dynamics at rest); τ̇ → 0.
  JointVector sent = commanded_torque_;
  if (!have_commanded_torque_ && has_rigid_) {
    rest_motion_.base_pose = m.base_pose;  // every other entry stays zero
    rest_motion_.q[0] = m.q;
    const bool held = inverse_dynamics(robot_.model, rest_wrench_, rest_motion_, 0) == Status::kOk;
    sent = held ? JointVector(rest_wrench_.joint_torque[0]) : holding_torque_;
    sent = sent.cwiseMin(torque_limit_).cwiseMax(-torque_limit_);
  }
  torque_ = rigid_.cwiseProduct(sent);
  torque_rate_.setZero();
  synchronised_ = true;
  step_extras_ = static_cast<std::uint8_t>(step_extras_ & ~kResync);
}

template <class Robot, class Scalar>
void FeedbackLinearization<Robot, Scalar>::update_payload(const Measurement& m,
                                                          bool restarted) noexcept {
  if constexpr (!kPayloadEstimationBuilt) {
    (void)m, (void)restarted;
  } else {
    // Measured generalized force: W_prop = A ω² (base frame); elastic joints
    // K (θ − q), rigid ones the torque last commanded (held over the period).
    if (restarted) payload_.restart_filters();
    typename PayloadEstimator<Tree, Scalar>::Generalized force;
    force.template head<6>() = allocation_.matrix() * m.rotor_speed.cwiseProduct(m.rotor_speed);
    JointVector tau = elastic_.cwiseProduct(stiffness_.cwiseProduct(m.motor_position - m.q));
    if (has_rigid_) tau += rigid_.cwiseProduct(commanded_torque_);
    force.template tail<kNumJoints>() = tau;
    // The scratch: the rest-torque workspaces (their content is not kept);
    // rest_motion_'s rates are zero again after (synchronise_extension()).
    const auto step = payload_.update(robot_.model, m.base_pose, m.base_twist, m.q, m.q_dot, force,
                                      rest_motion_, rest_wrench_);
    rest_motion_.base_twist[0].setZero();
    rest_motion_.base_twist[1].setZero();
    rest_motion_.q[1].setZero();
    rest_motion_.q[2].setZero();
    diagnostics_.payload_rejected_steps = payload_.rejected_steps();
    if (step != PayloadEstimator<Tree, Scalar>::Step::kUpdated) return;
    // (set_body leaves the model unchanged when it refuses)
    if (payload_.apply(robot_.model) != Status::kOk) return;
    diagnostics_.payload_mass = payload_.mass();
    diagnostics_.payload_offset = payload_.offset();
  }
}

template <class Robot, class Scalar>
void FeedbackLinearization<Robot, Scalar>::safe_command(Output& out) noexcept {
  if (!configured_) {
    out = Output{};
    return;
  }
  synchronised_ = false;
  step_extras_ = static_cast<std::uint8_t>(step_extras_ | kResync);
  ++bad_steps_;
  const bool hold = have_last_good_ && bad_steps_ <= hold_steps_;
  out.mode = hold ? CommandMode::kHold : CommandMode::kHover;
  out.rotor_speed = hold ? last_good_.rotor_speed : hover_speed_;
  const JointVector limit = torque_limit_ * Scalar(settings().safe_torque_fraction);
  out.motor_torque = have_last_good_ ? last_good_.motor_torque : holding_torque_;
  out.motor_torque = out.motor_torque.cwiseMin(limit).cwiseMax(-limit);
  commanded_torque_ = out.motor_torque;
  have_commanded_torque_ = true;
}

template <class Robot, class Scalar>
Status FeedbackLinearization<Robot, Scalar>::update(const Measurement& m, const Reference& ref,
                                                    Output& out) noexcept {
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
  // One test for the synchronisation and the payload estimation (before the
  // synchronisation: it restarts its filters after bad input, and then
  // changes no model this step); with neither, the step pays one branch.
  if (__builtin_expect(step_extras_ != 0, 0)) {
    if constexpr (kPayloadEstimationBuilt) {
      if (step_extras_ & kEstimate) update_payload(m, !synchronised_);
    }
    if (!synchronised_) synchronise_extension(m);
  }

  const Scalar dt = dt_;
  // 1. Joint torques and their rate: elastic from the encoders (the
  // controller's model has no D), rigid from the extension states. They are
  // forward dynamics' torque inputs, written there.
  JointVector& tau = forward_input_.joint_torque[0];
  JointVector& tau_rate = forward_input_.joint_torque[1];
  tau = stiffness_.cwiseProduct(m.motor_position - m.q);
  tau_rate = stiffness_.cwiseProduct(m.motor_velocity - m.q_dot);
  if (has_rigid_) {
    tau = elastic_.cwiseProduct(tau) + torque_;
    tau_rate = elastic_.cwiseProduct(tau_rate) + torque_rate_;
  }

  // 2.–4. One pass of the dynamics (forward_inverse_dynamics): forward
  // dynamics of orders 0 and 1 give the acceleration and the jerk; the law
  // below reads them and commands the snap; inverse dynamics of order 2 at
  // that snap gives Ẅ_prop and τ̈ — on the same joint frames, sines and
  // biases.
  forward_input_.base_pose = m.base_pose;
  forward_input_.base_twist = m.base_twist;
  forward_input_.q = m.q;
  forward_input_.q_dot = m.q_dot;
  forward_input_.base_wrench[0] = wrench_;
  forward_input_.base_wrench[1] = wrench_rate_;
  V3 e_x = V3::Zero(), e_r = V3::Zero();  // tracking errors (step 3), kept for 7.
  JointVector e_q = JointVector::Zero();
  // Whether the position and attitude errors were clamped (their integrals
  // then stand still; a joint's: its |e_q| at the clamp, below).
  bool x_clamped = false, r_clamped = false;
  const auto snap_law = [&](const MotionDerivatives<Tree, 2, Scalar>& fm,
                            InverseTopOrder<Tree, Scalar>& top) {
    // 3. Output derivatives, errors, commanded snaps (V^(0..2), q^(0..3) solved).
    const auto& twist = fm.base_twist;
    const std::array<V3, 4> x = base_position_derivatives(m.base_pose.translation, twist);
    std::array<V3, 4> w{angular(twist[0]), angular(twist[1]), angular(twist[2]), V3::Zero()};
    const auto& xd = ref.position;
    const auto& wd = ref.angular_velocity;
    const auto& qd = ref.joints;

    const auto& s = settings();
    e_x = detail_fl::clamp_norm(xd[0] - x[0], s.max_position_error, x_clamped);
    e_r = detail_fl::clamp_norm(
        so3_log(Matrix3<Scalar>(ref.orientation * m.base_pose.rotation.transpose())),
        s.max_attitude_error, r_clamped);
    e_q = qd[0] - m.q;
    detail_fl::clamp_each(e_q, s.max_joint_error);

    const V3 snap = detail_fl::snap_command(s.position, xd[4], e_x, V3(xd[1] - x[1]),
                                            V3(xd[2] - x[2]), V3(xd[3] - x[3]), position_integral_);
    w[3] = detail_fl::snap_command(s.attitude, wd[3], e_r, V3(wd[0] - w[0]), V3(wd[1] - w[1]),
                                   V3(wd[2] - w[2]), attitude_integral_);
    // 4. The commanded V⃛ (spatial) and q⁗: inverse dynamics of order 2 at them.
    top.base_acceleration.template head<3>() = w[3];
    top.base_acceleration.template tail<3>() = linear_twist_third_derivative(x, w, snap);
    top.joint_acceleration = detail_fl::snap_command(
        s.joints, qd[4], e_q, JointVector(qd[1] - m.q_dot), JointVector(qd[2] - fm.q[2]),
        JointVector(qd[3] - fm.q[3]), joint_integral_);
  };
  const Status step =
      forward_inverse_dynamics(robot_.model, scratch_.forward, forward_input_, snap_, snap_law, 2);
  if (step != Status::kOk) {
    safe_command(out);
    return step;
  }
  const auto& fm = scratch_.forward.motion;
  const Wrench<Scalar>& wrench_second = snap_.base_wrench_body;
  const JointVector& tau_second = snap_.joint_torque;

  // 5. Joint commands. Elastic: u = B (q̈ + K⁻¹ τ̈) + F θ̇ + τ. Rigid: the
  // mean of τ + s τ̇ + s²/2 τ̈ over the step, τ + Δt/2 τ̇ + Δt²/6 τ̈.
  JointVector u = motor_inertia_.cwiseProduct(fm.q[2] + tau_second.cwiseQuotient(stiffness_)) +
                  motor_friction_.cwiseProduct(m.motor_velocity) + tau;
  if (has_rigid_) {
    const JointVector u_rigid =
        torque_ + (Scalar(0.5) * dt) * torque_rate_ + (dt * dt / Scalar(6)) * tau_second;
    u = elastic_.cwiseProduct(u) + rigid_.cwiseProduct(u_rigid);
  }
  bool motors_saturated = false;
  for (int j = 0; j < kNumJoints; ++j) {
    if (u(j) > torque_limit_(j) || u(j) < -torque_limit_(j)) {
      u(j) = u(j) > Scalar(0) ? torque_limit_(j) : -torque_limit_(j);
      motors_saturated = true;
    }
  }
  // The rigid joints' extension over the step; a saturated joint continues
  // from the torque it got (anti-windup), its rate from that change.
  JointVector next_torque = torque_, next_torque_rate = torque_rate_;  // zero without rigid joints
  if (has_rigid_) {
    next_torque = torque_ + dt * torque_rate_ + (Scalar(0.5) * dt * dt) * tau_second;
    next_torque_rate = torque_rate_ + dt * tau_second;
    for (int j = 0; j < kNumJoints; ++j) {
      if (rigid_(j) == Scalar(0)) continue;
      if (next_torque(j) > torque_limit_(j) || next_torque(j) < -torque_limit_(j)) {
        next_torque(j) = next_torque(j) > Scalar(0) ? torque_limit_(j) : -torque_limit_(j);
        next_torque_rate(j) = (next_torque(j) - torque_(j)) / dt;
      }
    }
    next_torque = rigid_.cwiseProduct(next_torque);
    next_torque_rate = rigid_.cwiseProduct(next_torque_rate);
  }

  // 6. Integrate the extension over the step; propeller speeds at the end of
  // the step (those now are kept from the last step); invert the speed lag.
  RotorVector next_squared;
  const Wrench<Scalar> next_wrench =
      wrench_ + dt * wrench_rate_ + Scalar(0.5) * dt * dt * wrench_second;
  const Wrench<Scalar> next_rate = wrench_rate_ + dt * wrench_second;
  const Status rotors_next = allocation_.speeds_squared(next_wrench, next_squared);
  const RotorVector speed_next = next_squared.cwiseSqrt();
  RotorVector command = speed_ + lag_gain_.cwiseProduct(speed_next - speed_);
  bool rotors_saturated = speed_saturated_ || rotors_next != Status::kOk;
  for (int i = 0; i < kNumRotors; ++i) {
    if (command(i) < min_speed_(i) || command(i) > max_speed_(i)) {
      command(i) = command(i) < min_speed_(i) ? min_speed_(i) : max_speed_(i);
      rotors_saturated = true;
    }
  }
  Wrench<Scalar> new_wrench = next_wrench, new_rate = next_rate;
  if (rotors_next != Status::kOk) {
    // The wrench cannot be produced: continue from what the speeds give
    // (anti-windup of the extension), its rate from the last change.
    new_wrench = allocation_.matrix() * next_squared;
    new_rate = (new_wrench - wrench_) / dt;
  }
  Scalar finite(0);
  detail_fl::add_finiteness(finite, command);
  detail_fl::add_finiteness(finite, u);
  detail_fl::add_finiteness(finite, new_wrench);
  detail_fl::add_finiteness(finite, new_rate);
  if (has_rigid_) {
    detail_fl::add_finiteness(finite, next_torque);
    detail_fl::add_finiteness(finite, next_torque_rate);
  }
  if (finite != Scalar(0)) {
    safe_command(out);
    return Status::kNonFiniteResult;
  }
  wrench_ = new_wrench;
  wrench_rate_ = new_rate;
  torque_ = next_torque;
  torque_rate_ = next_torque_rate;
  speed_ = speed_next;
  speed_saturated_ = rotors_next != Status::kOk;

  // Integrators with anti-windup: frozen while a limit is active, and each
  // while its error is clamped (a far reference: the clamped error is no
  // measure of a steady offset, and integrated it overshoots on arrival).
  const bool saturated = rotors_saturated || motors_saturated;
  if (!saturated) {
    const Scalar dt_x = x_clamped ? Scalar(0) : dt, dt_r = r_clamped ? Scalar(0) : dt;
    position_integral_ += dt_x * e_x;
    attitude_integral_ += dt_r * e_r;
    // (a clamped joint error is exactly ±max_joint_error: clamp_each)
    const Scalar joint_clamp = Scalar(settings().max_joint_error);
    for (int j = 0; j < kNumJoints; ++j)
      joint_integral_(j) += (std::abs(e_q(j)) < joint_clamp ? dt : Scalar(0)) * e_q(j);
    detail_fl::clamp_each(position_integral_, settings().max_integral);
    detail_fl::clamp_each(attitude_integral_, settings().max_integral);
    detail_fl::clamp_each(joint_integral_, settings().max_integral);
  }

  out.rotor_speed = command;
  out.motor_torque = u;
  out.mode = saturated ? CommandMode::kSaturated : CommandMode::kTracking;
  last_good_ = out;
  have_last_good_ = true;
  commanded_torque_ = u;
  have_commanded_torque_ = true;
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

}  // namespace control
}  // namespace hodyn
