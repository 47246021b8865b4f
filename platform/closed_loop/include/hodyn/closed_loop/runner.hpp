// hodyn/closed_loop/runner.hpp — the controller plugin against the simulated
// plant, tracking the Table 3 reference; the closed-loop demo and the
// closed-loop tests both run this.
//
// Every control period: the sensor model measures the plant (noise, delay),
// the Table 3 reference is sampled with derivatives up to snap, the plugin's
// update() runs through the C ABI (timed with steady_clock), and the plant
// integrates the held command over the period. Tracking errors are those of
// the TRUE plant state against the reference at the same time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hodyn/closed_loop/scenario.hpp"
#include "hodyn/plugin/abi.h"

namespace hodyn {
namespace closed_loop {

struct RunOptions {
  Scenario scenario = Scenario::kNominal;
  double duration = 30.0;  ///< s (Table 3: 30 s)
  double control_rate_hz = 1000.0;
  double plant_rate_hz = 8000.0;  ///< integration rate, a multiple of the control rate
  double settle_time = 1.0;       ///< s excluded from the error statistics
  std::uint64_t seed = 1;         ///< sensor noise seed
  /// The controller; null: "feedback_linearization" from the static registry.
  const hodyn_plugin_api* plugin = nullptr;
  /// Record one Sample every this many control steps (0: none).
  int record_every = 10;
  /// Extra controller parameters applied after rate_hz (may be null).
  const hodyn_parameter* parameters = nullptr;
  std::size_t num_parameters = 0;
  /// Replaces make_scenario(scenario, …) when set (plant_step and
  /// sample_period are still taken from the rates above).
  const ScenarioSetup* custom_setup = nullptr;
};

/// One row of the log (SI units; angles in rad).
struct Sample {
  double time = 0.0;
  std::array<double, 3> position{}, position_reference{};
  std::array<double, 3> attitude_error{};  ///< log(R_d Rᵀ), world
  double yaw = 0.0, yaw_reference = 0.0;
  std::array<double, 6> q{}, q_reference{};
  std::array<double, 6> rotor_speed{}, rotor_command{}, motor_torque{};
  int status = 0;
  int mode = 0;
};

struct ErrorStats {
  double rms = 0.0;
  double max = 0.0;
};

struct RunSummary {
  Scenario scenario = Scenario::kNominal;
  double duration = 0.0, control_rate_hz = 0.0, plant_rate_hz = 0.0, settle_time = 0.0;
  ErrorStats position;                                       ///< |x_d − x| (m)
  ErrorStats attitude;                                       ///< |log(R_d Rᵀ)| (rad)
  std::array<ErrorStats, 6> joints{};                        ///< |q_d − q| (rad)
  double step_median = 0.0, step_p99 = 0.0, step_max = 0.0;  ///< controller update() (s)
  long steps = 0;
  long saturated_steps = 0;      ///< commands in mode "saturated"
  long saturation_switches = 0;  ///< saturated ↔ not transitions (chatter)
  long safe_mode_steps = 0;      ///< commands in hold or hover
  long plant_saturated_steps = 0;
  double payload_recovery_time = -1.0;  ///< s after the payload step; −1: none/never
  bool stable = false;                  ///< finite, position error < 0.5 m, never in a safe mode
  std::size_t controller_workspace_bytes = 0;
};

/// Runs one scenario. kOk, or the first Status that stopped the run (plugin
/// missing, simulator error).
Status run_closed_loop(const RunOptions& options, RunSummary& summary,
                       std::vector<Sample>* samples);

}  // namespace closed_loop
}  // namespace hodyn
