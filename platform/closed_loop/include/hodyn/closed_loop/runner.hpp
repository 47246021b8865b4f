// hodyn/closed_loop/runner.hpp — the controller plugin against the simulated
// plant of any robot type, tracking the robot's reference (the 12-DoF robot:
// Table 3; any other: robot_reference.hpp); the closed-loop demo and the
// closed-loop tests both run this.
//
// Every control period: the sensor model measures the plant (noise, delay),
// the reference is sampled with derivatives up to snap, the plugin's
// update() runs through the C ABI (timed with steady_clock), and the plant
// integrates the held command over the period. Tracking errors are those of
// the TRUE plant state against the reference at the same time.
//
// run_closed_loop<Robot> is defined in robot_runner.hpp (include it in one
// .cpp per robot); the 12-DoF robot's is compiled into the library.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "hodyn/closed_loop/scenario.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"
#include "hodyn/plugin/abi.h"

namespace hodyn {
namespace closed_loop {

template <class Robot>
struct RobotRunOptions {
  Scenario scenario = Scenario::kNominal;
  double duration = 30.0;  ///< s (Table 3: 30 s)
  double control_rate_hz = 1000.0;
  double plant_rate_hz = 8000.0;  ///< integration rate, a multiple of the control rate
  double settle_time = 1.0;       ///< s excluded from the error statistics
  std::uint64_t seed = 1;         ///< sensor noise seed
  /// The controller; null: "feedback_linearization" for Robot::kId from the
  /// static registry. Either way it is opened only for this robot (identity
  /// checked: kRobotMismatch otherwise).
  const hodyn_plugin_api* plugin = nullptr;
  /// Record one Sample every this many control steps (0: none).
  int record_every = 10;
  /// Extra controller parameters applied after rate_hz (may be null).
  const hodyn_parameter* parameters = nullptr;
  std::size_t num_parameters = 0;
  /// Replaces make_scenario(scenario, …) when set (plant_step and
  /// sample_period are still taken from the rates above).
  const RobotScenarioSetup<Robot>* custom_setup = nullptr;
};

/// The 12-DoF robot's options.
using RunOptions = RobotRunOptions<AerialManipulatorRobot>;

/// One row of the log (SI units; angles in rad, prismatic joints in m).
/// Entries [0, num_joints) and [0, num_rotors) are used.
struct Sample {
  double time = 0.0;
  std::array<double, 3> position{}, position_reference{};
  std::array<double, 3> attitude_error{};  ///< log(R_d Rᵀ), world
  double yaw = 0.0, yaw_reference = 0.0;
  int num_joints = 0, num_rotors = 0;
  std::array<double, HODYN_MAX_JOINTS> q{}, q_reference{}, motor_torque{};
  std::array<double, HODYN_MAX_ROTORS> rotor_speed{}, rotor_command{};
  int status = 0;
  int mode = 0;
  // The plant's true state and the loads it applies, for identification
  // (hodyn-identify, docs/identification.md; CSV columns appended last):
  std::array<double, 4> base_quaternion{};  ///< C₁'s rotation (w, x, y, z), w ≥ 0
  std::array<double, 6> base_twist{};       ///< V₁ spatial (ω; ṗ − ω × p), world axes
  std::array<double, HODYN_MAX_JOINTS> q_dot{};
  /// τ on the links: τ_el = K(θ − q) + D(θ̇ − q̇) (elastic), the clamped u (rigid).
  std::array<double, HODYN_MAX_JOINTS> joint_torque{};
  std::array<double, 6> propulsion_wrench{};  ///< A ω² (n; f), base frame
};

struct ErrorStats {
  double rms = 0.0;
  double max = 0.0;
};

struct RunSummary {
  const char* robot = AerialManipulatorRobot::kName;  ///< Robot::kName
  Scenario scenario = Scenario::kNominal;
  double duration = 0.0, control_rate_hz = 0.0, plant_rate_hz = 0.0, settle_time = 0.0;
  ErrorStats position;                ///< |x_d − x| (m)
  ErrorStats attitude;                ///< |log(R_d Rᵀ)| (rad)
  std::vector<ErrorStats> joints;     ///< |q_d − q| per joint (rad, or m if prismatic)
  std::vector<bool> joint_prismatic;  ///< per joint: errors in m (else rad)
  double step_median = 0.0, step_p99 = 0.0, step_max = 0.0;  ///< controller update() (s)
  long steps = 0;
  long saturated_steps = 0;      ///< commands in mode "saturated"
  long saturation_switches = 0;  ///< saturated ↔ not transitions (chatter)
  long safe_mode_steps = 0;      ///< commands in hold or hover
  long plant_saturated_steps = 0;
  double payload_recovery_time = -1.0;  ///< s after the payload step; −1: none/never
  /// RMS of |x_d − x| from the payload step (from 1 s without one) to the end (m).
  double position_rms_after_event = 0.0;
  /// The controller's final payload mass estimate (kg); NaN when estimation
  /// is off or the controller is not the in-process feedback-linearization
  /// plugin.
  double payload_mass_estimate = std::numeric_limits<double>::quiet_NaN();
  bool stable = false;                  ///< finite, position error < 0.5 m, never in a safe mode
  std::size_t controller_workspace_bytes = 0;
};

/// Runs one scenario. kOk, or the first Status that stopped the run (plugin
/// missing: kInvalidArgument; built for another robot: kRobotMismatch;
/// simulator error).
template <class Robot>
Status run_closed_loop(const RobotRunOptions<Robot>& options, RunSummary& summary,
                       std::vector<Sample>* samples);

extern template Status run_closed_loop<AerialManipulatorRobot>(const RunOptions&, RunSummary&,
                                                               std::vector<Sample>*);

}  // namespace closed_loop
}  // namespace hodyn
