// hodyn/closed_loop/tracking.hpp — the statistics of a closed-loop run,
// shared by the in-process runner (runner.cpp) and the hardware-in-the-loop
// simulator (tools/hil/hodyn_sim.cpp): tracking errors of the TRUE plant
// state against the Table 3 reference (after the settle time), the payload
// recovery time, and the saturation / safe-mode counts of the applied
// commands.
#pragma once

#include <vector>

#include "hodyn/closed_loop/runner.hpp"
#include "hodyn/reference/table3_trajectory.hpp"
#include "hodyn/simulator/simulator.hpp"

namespace hodyn {
namespace closed_loop {

/// The errors of one state against the reference at its time.
struct TrackingErrors {
  Pose<double> reference_pose;
  Vector3<double> position;  ///< x_d − x (world)
  Vector3<double> attitude;  ///< log(R_d Rᵀ) (world)
  Vector6<double> q_reference;
  Vector6<double> joints;  ///< q_d − q
};

/// Accumulates a run into the fields of a RunSummary.
class RunStatistics {
 public:
  /// `payload_time` < 0: no payload step (no recovery time).
  RunStatistics(double settle_time, double payload_time) noexcept
      : settle_time_(settle_time), payload_time_(payload_time) {}

  /// The true state `x` at time `t`: its errors against `trajectory`.
  TrackingErrors add_state(const Table3Trajectory& trajectory, double t,
                           const sim::PlantState& x) noexcept;
  /// The command applied over one control period (mode counts).
  void add_command(const hodyn_command& command) noexcept;
  /// Whether the plant saturated over the period.
  void add_plant_step(bool saturated) noexcept { plant_saturated_ += saturated ? 1 : 0; }

  /// Writes position, attitude, joints, saturated_steps, saturation_switches,
  /// safe_mode_steps, plant_saturated_steps, payload_recovery_time and
  /// stable (`dt`: the control period).
  void finish(double dt, RunSummary& summary) const noexcept;

 private:
  struct Accumulator {
    double sum_squares = 0.0;
    double max = 0.0;
    long n = 0;
    void add(double e) noexcept;
    ErrorStats stats() const noexcept;
  };
  double settle_time_;
  double payload_time_;
  Accumulator position_, attitude_;
  Accumulator joints_[6];
  bool finite_ = true;
  double last_out_of_band_ = -1.0;
  long commands_ = 0, saturated_ = 0, switches_ = 0, safe_mode_ = 0, plant_saturated_ = 0;
  bool was_saturated_ = false;
};

/// The p-quantile (0..1) of `v` (nearest rank); 0 when empty.
double percentile(std::vector<double> v, double p);

}  // namespace closed_loop
}  // namespace hodyn
