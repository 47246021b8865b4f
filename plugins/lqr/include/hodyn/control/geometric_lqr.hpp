// hodyn/control/geometric_lqr.hpp — a gain-scheduled discrete LQR on SE(3) for
// the 12-DoF aerial manipulator (rigid-joint model; docs/lqr.md), built on the
// geometric linearization of hodyn/linearization.hpp.
//
// Error state, exactly as `linearize` defines it, about the reference x_ref:
//   z = (ξ, δq, δV, δq̇),  C₁ = C₁_ref exp([ξ]) → ξ = se3_log(C₁_ref⁻¹ C₁) (base frame),
//   δq = q − q_ref,  δV = V₁ − V₁_ref (spatial twists),  δq̇ = q̇ − q̇_ref,
// extended by the propeller-wrench lag: the rotors follow their speed command
// with ω̇ = (ω_cmd − ω)/T, to first order Ẇ = (W_cmd − W)/T for the base-frame
// wrench W = A ω², so δW = A ω_meas² − W_ref is a 25th..30th state and the
// input is δu = (δW_cmd, δτ). Continuous model (blocks 24 + 6 states):
//   d/dt (z, δW) = [A  B_W; 0  −I/T] (z, δW) + [0  B_τ; I/T  0] δu,
// A, B = (B_W, B_τ) from linearize at the reference with its feedforward; the
// zero-order-hold pair at the control rate by Van Loan's exponential. Integral
// action: 12 more states, the sums ι_[k+1] = ι_[k] + Δt e_[k] of the errors
// e = (ξ angular, ξ linear, δq), clamped to ±max_integral (anti-windup), so a
// constant disturbance — a wrong mass, a payload — leaves no steady offset.
//
// u_ref = inverse dynamics of the reference (hodyn's base-frame wrench
// Ad_C₁ᵀ Q₁ and τ); u = u_ref + δu, δu = −K(t) (z, δW) with K(t) linearly
// interpolated in the reference time between the gains designed at
// configure() at N points of the Table 3 reference (t_k = k T/(N − 1)), or the
// hover gain (rest at the reference's start) when scheduling is off. The
// wrench command becomes rotor speeds through RotorAllocation; each elastic
// joint gets a torque loop that makes its spring torque follow τ_cmd
// (u_m = τ_cmd + k_τ (τ_cmd − τ_s) − d_τ τ̇_s + F θ̇ + B q̈_ref, τ_s = K(θ − q)).
//
// Fixed size, no heap, no exceptions. configure() designs the gains (one
// linearization, a 42×42 exponential and a 42×42 Riccati solve per point) with
// ~250 KB of stack (GainDesign 219 KB, the new gains 32 KB); update() is a
// fixed-cost step.
#pragma once

#include <array>
#include <cstdint>

#include <Eigen/Core>

#include "hodyn/control/discrete_riccati.hpp"
#include "hodyn/control/feedback_linearization.hpp"
#include "hodyn/control/rotor_allocation.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/linearization.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"
#include "hodyn/reference/table3_trajectory.hpp"

namespace hodyn {
namespace control {

/// Diagonal weights of the LQR cost Σ zᵀ Q z + δuᵀ R δu (SI units: a weight
/// 1/e² penalises an error e like one unit of cost, Bryson's rule).
struct LqrWeights {
  double position = 4.0e3;           ///< ξ linear (1/m²)
  double attitude = 2.0e3;           ///< ξ angular (1/rad²)
  double joint = 1.0e3;              ///< δq (1/rad²)
  double base_velocity = 1.0e2;      ///< δV linear (s²/m²)
  double base_rate = 50.0;           ///< δV angular (s²/rad²)
  double joint_rate = 1.0;           ///< δq̇ (s²/rad²)
  double wrench = 0.0;               ///< δW state, moments and forces (1/N², 1/(N m)²)
  double attitude_integral = 2.0e4;  ///< ∫ξ angular (1/(rad s)²); 0: no integral action
  double position_integral = 2.0e4;  ///< ∫ξ linear (1/(m s)²)
  double joint_integral = 2.0e3;     ///< ∫δq (1/(rad s)²)
  double force_effort = 0.05;        ///< R of δW_cmd forces (1/N²)
  double moment_effort = 1.0;        ///< R of δW_cmd moments (1/(N m)²)
  /// R of δτ_j as an acceleration: R_j = this / M_jj² (s⁴/rad², M̄'s joint
  /// diagonal at hover), so every joint gets the same bandwidth
  /// ≈ (joint / this)^¼ whatever its inertia (a wrist's is 37× below a shoulder's).
  double joint_acceleration_effort = 0.02;

  /// All finite, the Q weights ≥ 0, the R weights > 0.
  bool valid() const noexcept;
};

/// The controller's settings (SI units).
struct GeometricLqrConfig {
  double rate_hz = 1000.0;    ///< control rate = the LQR's sampling rate, 500..4000 Hz
  int schedule_points = 8;    ///< N gains along the Table 3 reference, 2..kMaxSchedulePoints
  bool gain_schedule = true;  ///< false: the hover gain at every time
  LqrWeights weights{};
  double torque_loop_gain = 3.0;     ///< k_τ of the elastic joints' torque loop, 0..50
  double torque_loop_damping = 0.7;  ///< its damping ratio ζ: d_τ = 2ζ √((1 + k_τ) B/K)
  // Clamps of the error state (a far reference stays bounded).
  double max_position_error = 0.25;  ///< |ξ linear| (m)
  double max_attitude_error = 0.5;   ///< |ξ angular| (rad)
  double max_joint_error = 0.5;      ///< |δq_j| (rad)
  double max_integral = 0.05;        ///< |ι_i| of every integral state (m s or rad s)
  /// Integrate an error group only while it is within this fraction of its
  /// clamp (position 0.25 m → 1 cm at 0.04), 0..1.
  double integration_zone = 0.04;
  // Physical ranges of the measurements.
  double max_base_speed = 20.0;  ///< m/s
  double max_base_rate = 20.0;   ///< rad/s
  double max_joint_rate = 30.0;  ///< rad/s
  // Safe command.
  double hold_timeout = 0.1;          ///< s of bad input before kHold becomes kHover
  double safe_torque_fraction = 0.5;  ///< |u| ≤ fraction · u_max while input is bad
};

/// The geometric LQR of the 12-DoF aerial manipulator (AerialManipulatorRobot).
class GeometricLqr {
 public:
  using Robot = AerialManipulatorRobot;
  using Tree = Robot::Tree;
  using Description = DescriptionOf<Robot, double>;
  using Fl = FeedbackLinearization<Robot, double>;
  static constexpr int kNumJoints = Fl::kNumJoints;
  static constexpr int kNumRotors = Fl::kNumRotors;
  static constexpr int kDofs = 6 + kNumJoints;
  static constexpr int kPlant = 2 * kDofs + 6;       ///< z (24) and δW (6)
  static constexpr int kIntegral = 6 + kNumJoints;   ///< ι: ∫ξ (6), ∫δq (6)
  static constexpr int kState = kPlant + kIntegral;  ///< (z, δW, ι)
  static constexpr int kInput = kDofs;               ///< δW_cmd (6), δτ (6)
  /// 8 gains of 12 × 42: 32 KB (16 points track no better, docs/lqr.md).
  static constexpr int kMaxSchedulePoints = 8;
  using JointVector = Fl::JointVector;
  using RotorVector = Fl::RotorVector;
  using StateVector = Eigen::Matrix<double, kState, 1>;
  using InputVector = Eigen::Matrix<double, kInput, 1>;
  using Gain = Eigen::Matrix<double, kInput, kState>;
  using StateMatrix = Eigen::Matrix<double, kState, kState>;
  using InputMatrix = Eigen::Matrix<double, kState, kInput>;
  using Measurement = Fl::Measurement;  ///< the plugin's sensor conversion is shared
  using Reference = Fl::Reference;
  using Output = Fl::Output;
  using Allocation = RotorAllocation<double, kNumRotors>;

  /// A point of the reference: pose, spatial twist and its derivative, joints.
  struct ReferenceState {
    Pose<double> pose{};
    Twist<double> twist = Twist<double>::Zero(), twist_dot = Twist<double>::Zero();
    JointVector q = JointVector::Zero(), q_dot = JointVector::Zero(), q_ddot = JointVector::Zero();
  };

  /// One gain design and its workspace (large: keep off small stacks).
  struct GainDesign {
    StateMatrix a = StateMatrix::Zero();            ///< A_d (with the wrench lag)
    InputMatrix b = InputMatrix::Zero();            ///< B_d
    StateMatrix q = StateMatrix::Zero();            ///< Q (diagonal)
    Eigen::Matrix<double, kInput, kInput> r{};      ///< R (diagonal)
    DiscreteRiccati<kState, kInput> riccati{};      ///< P, K, iterations
    InputVector feedforward = InputVector::Zero();  ///< u_ref (W body frame, τ)
    // workspace
    LinearizationData<Tree> linearization{};
    MotionDerivatives<Tree, 0> motion{};
    InverseDynamicsData<Tree, 0> inverse{};
    ForwardDynamicsInput<Tree, 0> point{};
    Eigen::Matrix<double, kPlant + kInput, kPlant + kInput> augmented{}, exponential{}, term{};
  };

  /// Statistics of the last configure()'s designs.
  struct DesignReport {
    int points = 0;          ///< gains designed (schedule + hover)
    int max_iterations = 0;  ///< doublings of the slowest Riccati solve
    double max_step = 0.0;   ///< the largest last relative change of P
  };

  struct Diagnostics {
    StateVector error = StateVector::Zero();        ///< (z, δW, ι) after clamping
    InputVector feedback = InputVector::Zero();     ///< δu = −K z
    InputVector feedforward = InputVector::Zero();  ///< u_ref
    double schedule_position = 0.0;                 ///< s ∈ [0, N − 1]: the gains used
    bool rotors_saturated = false, motors_saturated = false;
  };

  GeometricLqr() noexcept = default;

  /// Validates `config`, designs every gain; a rejected config (or a failed
  /// design) leaves the controller as it was. Resets the state.
  Status configure(const GeometricLqrConfig& config) noexcept;
  void reset() noexcept;
  /// One control step at reference time `reference_time` (s).
  Status update(const Measurement& m, const Reference& r, double reference_time,
                Output& out) noexcept;
  /// The safe command for input found bad before update().
  void safe_command(Output& out) noexcept;

  /// The gain lookup and feedback alone: δu = −K(t) x (the benchmarked kernel).
  void feedback(double reference_time, const StateVector& x, InputVector& du) const noexcept;
  /// (z, δW) of a measurement against a reference state, unclamped.
  void error_state(const Measurement& m, const ReferenceState& ref, const Wrench<double>& w_ref,
                   StateVector& x) const noexcept;
  /// The reference state of a Reference frame (spatial twist and its derivative).
  static ReferenceState reference_state(const Reference& r) noexcept;

  /// Designs the gain at `point` for step dt and rotor lag T, with the
  /// joints' inertias `joint_inertia` (M_jj > 0, scaling R of δτ) (the
  /// workspace's matrices hold A_d, B_d, Q, R, P, K afterwards).
  static Status design_gain(const Model<Tree, double>& model, const ReferenceState& point,
                            double dt, double rotor_time_constant, const LqrWeights& weights,
                            const JointVector& joint_inertia, GainDesign& design) noexcept;

  bool configured() const noexcept { return configured_; }
  const GeometricLqrConfig& config() const noexcept { return config_; }
  const Description& robot() const noexcept { return robot_; }
  const Allocation& allocation() const noexcept { return allocation_; }
  const Diagnostics& diagnostics() const noexcept { return diagnostics_; }
  const DesignReport& design_report() const noexcept { return report_; }
  const Gain& gain(int k) const noexcept { return gains_[static_cast<std::size_t>(k)]; }
  const Gain& hover_gain() const noexcept { return hover_gain_; }
  const RotorVector& hover_speed() const noexcept { return hover_speed_; }
  /// The schedule's times t_k.
  double schedule_time(int k) const noexcept;

 private:
  Status check_measurement(const Measurement& m) const noexcept;

  GeometricLqrConfig config_{};
  Description robot_{};
  Allocation allocation_{};
  Table3Trajectory trajectory_{};
  std::array<Gain, kMaxSchedulePoints> gains_{};
  Gain hover_gain_ = Gain::Zero();
  DesignReport report_{};
  double dt_ = 1e-3;
  int points_ = 0;
  JointVector elastic_ = JointVector::Zero();  ///< 1 for an elastic joint
  JointVector stiffness_ = JointVector::Ones(), motor_inertia_ = JointVector::Zero(),
              motor_friction_ = JointVector::Zero(), torque_damping_ = JointVector::Zero(),
              torque_limit_ = JointVector::Zero();
  RotorVector min_speed_ = RotorVector::Zero(), max_speed_ = RotorVector::Zero();
  RotorVector hover_speed_ = RotorVector::Zero();
  JointVector holding_torque_ = JointVector::Zero();
  long hold_steps_ = 100;
  bool configured_ = false;

  // ---- state ----
  double last_time_ = -1e300;
  Eigen::Matrix<double, kIntegral, 1> integral_ =
      Eigen::Matrix<double, kIntegral, 1>::Zero();  ///< ι
  long bad_steps_ = 0;
  bool have_last_good_ = false;
  Output last_good_{};
  Diagnostics diagnostics_{};

  // ---- workspaces ----
  MotionDerivatives<Tree, 0> motion_{};
  InverseDynamicsData<Tree, 0> inverse_{};
};

}  // namespace control
}  // namespace hodyn
