// Closed-loop run statistics (see tracking.hpp).
#include "hodyn/closed_loop/tracking.hpp"

#include <algorithm>
#include <cmath>

#include "hodyn/logarithm.hpp"

namespace hodyn {
namespace closed_loop {
namespace {

// Payload recovery: the last time after the step at which any error is above
// its band (position 5 mm, attitude 0.25°, each joint 0.25°), minus the step
// time; 0 if it never left the band.
constexpr double kRecoveryPosition = 0.005;
constexpr double kRecoveryAngle = 0.25 * 3.14159265358979323846 / 180.0;

}  // namespace

void RunStatistics::Accumulator::add(double e) noexcept {
  sum_squares += e * e;
  max = std::max(max, e);
  ++n;
}

ErrorStats RunStatistics::Accumulator::stats() const noexcept {
  return ErrorStats{n > 0 ? std::sqrt(sum_squares / static_cast<double>(n)) : 0.0, max};
}

TrackingErrors RunStatistics::add_state(const Table3Trajectory& trajectory, double t,
                                        const sim::PlantState& x) noexcept {
  TrackingErrors e;
  e.reference_pose = trajectory.base_pose(t);
  e.position = e.reference_pose.translation - x.base_pose.translation;
  e.attitude =
      so3_log(Matrix3<double>(e.reference_pose.rotation * x.base_pose.rotation.transpose()));
  e.q_reference = trajectory.joints(t, 0);
  e.joints = e.q_reference - x.q;
  finite_ = finite_ && e.position.allFinite() && e.attitude.allFinite() && e.joints.allFinite();
  if (t >= settle_time_) {
    position_.add(e.position.norm());
    attitude_.add(e.attitude.norm());
    for (int j = 0; j < 6; ++j) joints_[j].add(std::abs(e.joints(j)));
  }
  if (payload_time_ >= 0.0 && t >= payload_time_ &&
      (e.position.norm() > kRecoveryPosition || e.attitude.norm() > kRecoveryAngle ||
       e.joints.cwiseAbs().maxCoeff() > kRecoveryAngle))
    last_out_of_band_ = t;
  return e;
}

void RunStatistics::add_command(const hodyn_command& command) noexcept {
  const bool saturated = command.mode == HODYN_MODE_SATURATED;
  saturated_ += saturated ? 1 : 0;
  switches_ += (commands_ > 0 && saturated != was_saturated_) ? 1 : 0;
  was_saturated_ = saturated;
  safe_mode_ += (command.mode == HODYN_MODE_HOLD || command.mode == HODYN_MODE_HOVER) ? 1 : 0;
  ++commands_;
}

void RunStatistics::finish(double dt, RunSummary& summary) const noexcept {
  summary.position = position_.stats();
  summary.attitude = attitude_.stats();
  for (int j = 0; j < 6; ++j) summary.joints[j] = joints_[j].stats();
  summary.saturated_steps = saturated_;
  summary.saturation_switches = switches_;
  summary.safe_mode_steps = safe_mode_;
  summary.plant_saturated_steps = plant_saturated_;
  summary.payload_recovery_time = -1.0;
  if (payload_time_ >= 0.0)
    summary.payload_recovery_time =
        last_out_of_band_ < 0.0 ? 0.0 : last_out_of_band_ + dt - payload_time_;
  summary.stable = finite_ && summary.position.max < 0.5 && safe_mode_ == 0;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(std::min<double>(
      static_cast<double>(v.size() - 1), std::ceil(p * static_cast<double>(v.size())) - 1.0));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace closed_loop
}  // namespace hodyn
