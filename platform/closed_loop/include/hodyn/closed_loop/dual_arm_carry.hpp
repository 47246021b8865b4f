// hodyn/closed_loop/dual_arm_carry.hpp — the closed-chain scenario of issue
// 19: both arms of the 12-DoF aerial manipulator hold one rigid bar and carry
// it along the Table 3 base path (docs/dual-arm-carry.md).
//
// The bar: a uniform thin rod of mass m_bar between the two grippers (6 cm
// below the centres of mass of bodies 3 and 6, the arm tips at x = ±c/2), in
// the grasp q_g = (30, 30, 0, −30, 30, 0)° (shoulders inwards, both elbows
// towards +y; Table 3's start q0 is nearly singular for a weld). It is cut
// at its midpoint: each half is merged into the inertia of the tip that holds
// it, and a weld closure joins the two halves' midpoint frames (frame a on
// body 3, frame b on body 6, x along the bar from arm 1's gripper to arm 2's,
// z as near the world's z as x allows). The closure holds exactly (f = 0) at
// q_g with any base pose. λ is then the bar's internal wrench at its midpoint
// section, in the bar frame: λ_f,x > 0 compresses the bar (a squeeze).
//
// The closed chain has 12 − 6 = 6 degrees of freedom: at q_g the six arm
// columns of A are independent, so the arms are locked to the base and the
// base pose is the chain's configuration; the bar follows the base.
//
// The plant (sim::RobotConstrainedPlant): the robot's elastic joints and
// rotor speed loops, constrained forward dynamics, Baumgarte gains
// (k_v, k_p) = (2α, α²). The controller (desktop, exact state, every control
// period): the base's computed-torque law
//   p̈_c = p̈_d + k_d,p (ṗ_d − ṗ) + k_p,p (p_d − p),
//   ω̇_c = ω̇_d + k_d,R (ω_d − ω) + k_p,R log(R_d Rᵀ),
// the joint accelerations the closure dictates (A q̈_c = −Ȧ ν − k_v A ν − k_p f,
// least squares), constrained inverse dynamics for (Q₁, τ) with the least
// ‖λ − λ_c‖ (λ_c = (0, 0, 0, squeeze, 0, 0): zero squeeze by default), the
// rotor speeds of W_prop = Ad_C₁ᵀ Q₁ with the speed lag inverted over one
// period, and each elastic joint's motor driven to θ_d = q + τ_d / K.
//
// Desktop only (std::vector, std::string).
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "hodyn/closed_loop/runner.hpp"
#include "hodyn/constrained_dynamics.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"
#include "hodyn/simulator/simulator.hpp"

namespace hodyn {
namespace closed_loop {

/// The bar and the closed chain built from it.
struct DualArmCarrySetup {
  DescriptionOf<AerialManipulatorRobot, double> robot{};  ///< with the bar's halves on bodies 3, 6
  std::array<LoopClosure<double>, 1> closures{};          ///< the weld at the bar's midpoint
  Eigen::Matrix<double, 6, 1> q_grasp = Eigen::Matrix<double, 6, 1>::Zero();  ///< q_g (rad)
  double bar_mass = 0.0;                                                      ///< kg
  double bar_length = 0.0;  ///< m, gripper to gripper
};

/// The set-up for a bar of `bar_mass` kg (> 0 and ≤ 2 kg); kInvalidArgument otherwise.
Status make_dual_arm_carry(double bar_mass, DualArmCarrySetup& out);

struct DualArmCarryOptions {
  double duration = 30.0;  ///< s (Table 3)
  double control_rate_hz = 1000.0;
  double plant_rate_hz = 8000.0;  ///< a multiple of the control rate
  double settle_time = 1.0;       ///< s excluded from the error statistics
  double bar_mass = 0.25;         ///< kg
  /// The plant's bar (kg) when it differs from the controller's `bar_mass`
  /// (a model mismatch the controller is not told of); 0: the same.
  double plant_bar_mass = 0.0;
  /// Commanded squeeze (N): the compressive axial force at the bar's midpoint
  /// section, λ_c = (0, 0, 0, squeeze, 0, 0); 0: zero squeeze. |squeeze| ≤ 20 N.
  double squeeze = 0.0;
  /// The plant's Baumgarte rate α (1/s): k_v = 2α, k_p = α².
  double stabilization_rate = 20.0;
  int record_every = 10;  ///< one Sample every this many control steps (0: none)
};

/// What a dual-arm carry run measured (SI units).
struct DualArmCarrySummary {
  /// Base, attitude and joint errors (joints against q_g, which the closure
  /// holds), controller timing, stability; scenario = kDualArmCarry.
  RunSummary run;
  /// max over the control instants of |p_b − p_a| of the weld (m) and of
  /// |log(R_aᵀ R_b)| (rad), the whole run.
  double constraint_violation_max_m = 0.0;
  double constraint_violation_max_rad = 0.0;
  /// The bar's pose (frame a: its midpoint, x along it) against the reference
  /// (the Table 3 base pose composed with the bar's pose in the base frame at
  /// q_g): max |p_d − p| (m), max |log(R_d Rᵀ)| (rad), RMS |p_d − p|; after
  /// the settle time.
  double object_pose_error_max_m = 0.0;
  double object_pose_error_max_rad = 0.0;
  double object_position_error_rms_m = 0.0;
  /// The squeeze commanded and the plant's measured internal force: the mean
  /// of its λ_f,x after the settle time, and the largest |λ_f − (s, 0, 0)| (N)
  /// and |λ_n| (N m) there.
  double squeeze_commanded_n = 0.0;
  double squeeze_measured_mean_n = 0.0;
  double internal_force_error_max_n = 0.0;
  double internal_moment_max_nm = 0.0;
  /// max |λ − λ_c| of the controller's constrained inverse dynamics (N, N m).
  double controller_multiplier_error_max = 0.0;
  double bar_mass_kg = 0.0, bar_length_m = 0.0;  ///< the controller's bar
  double plant_bar_mass_kg = 0.0;                ///< the plant's bar
  double stabilization_velocity_gain = 0.0, stabilization_position_gain = 0.0;
  double wall_time_s = 0.0;  ///< the run's wall-clock time
};

/// Runs the scenario. kOk, kInvalidArgument for bad options (rates, duration,
/// bar mass, squeeze), or the first Status that stopped the run.
Status run_dual_arm_carry(const DualArmCarryOptions& options, DualArmCarrySummary& summary,
                          std::vector<Sample>* samples);

/// print_run_summary's block plus the closed chain's lines.
void print_dual_arm_carry_summary(const DualArmCarrySummary& s, std::FILE* out);

/// run_summary_json_members plus the closed chain's members (docs/state-format.md).
std::string dual_arm_carry_json_members(const DualArmCarrySummary& s, const std::string& indent);

}  // namespace closed_loop
}  // namespace hodyn
