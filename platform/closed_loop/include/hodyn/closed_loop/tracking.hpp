// hodyn/closed_loop/tracking.hpp — the statistics of a closed-loop run of any
// robot, shared by the in-process runner (robot_runner.hpp) and the
// hardware-in-the-loop simulator (tools/hil/hodyn_sim.cpp): tracking errors of
// the TRUE plant state against the reference (after the settle time), the
// payload recovery time, and the saturation / safe-mode counts of the applied
// commands. Joint errors are in rad, a prismatic joint's in m.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "hodyn/closed_loop/robot_reference.hpp"
#include "hodyn/closed_loop/runner.hpp"
#include "hodyn/logarithm.hpp"
#include "hodyn/reference/table3_trajectory.hpp"
#include "hodyn/simulator/simulator.hpp"

namespace hodyn {
namespace closed_loop {

/// Payload recovery: the last time after the step at which any error is above
/// its band, minus the step time; 0 if it never left the band. Bands: base
/// position 5 mm, attitude and each revolute joint 0.25°, each prismatic joint
/// 0.5 mm (a 0.25° error of a 0.1 m link moves its tip 0.44 mm).
inline constexpr double kRecoveryPosition = 0.005;
inline constexpr double kRecoveryAngle = 0.25 * 3.14159265358979323846 / 180.0;
inline constexpr double kRecoveryPrismatic = 0.0005;

/// The errors of one state against the reference at its time.
template <int NumJoints>
struct BasicTrackingErrors {
  using JointVector = Eigen::Matrix<double, NumJoints, 1>;
  Pose<double> reference_pose;
  Vector3<double> position;  ///< x_d − x (world)
  Vector3<double> attitude;  ///< log(R_d Rᵀ) (world)
  JointVector q_reference;
  JointVector joints;  ///< q_d − q
};

/// Accumulates a run of robot `Robot` into the fields of a RunSummary.
template <class Robot>
class RobotRunStatistics {
 public:
  static constexpr int kNumJoints = Robot::Tree::kNumBodies - 1;
  using TrackingErrors = BasicTrackingErrors<kNumJoints>;

  /// Without a payload step, the position RMS "after the event" starts here (s).
  static constexpr double kEventTime = 1.0;

  /// `payload_time` < 0: no payload step (no recovery time).
  RobotRunStatistics(double settle_time, double payload_time) noexcept
      : settle_time_(settle_time), payload_time_(payload_time) {}

  /// The true state `x` at time `t`: its errors against `reference`
  /// (Table3Trajectory or CircleReference: base_pose(t), joints(t, 0)).
  template <class Reference, class State>
  TrackingErrors add_state(const Reference& reference, double t, const State& x) noexcept {
    TrackingErrors e;
    e.reference_pose = reference.base_pose(t);
    e.position = e.reference_pose.translation - x.base_pose.translation;
    e.attitude =
        so3_log(Matrix3<double>(e.reference_pose.rotation * x.base_pose.rotation.transpose()));
    e.q_reference = reference.joints(t, 0);
    e.joints = e.q_reference - x.q;
    finite_ = finite_ && e.position.allFinite() && e.attitude.allFinite() && e.joints.allFinite();
    if (t >= settle_time_) {
      position_.add(e.position.norm());
      attitude_.add(e.attitude.norm());
      for (int j = 0; j < kNumJoints; ++j)
        joints_[static_cast<std::size_t>(j)].add(std::abs(e.joints(j)));
    }
    if (payload_time_ >= 0.0 && t >= payload_time_ && out_of_band(e)) last_out_of_band_ = t;
    if (t >= (payload_time_ >= 0.0 ? payload_time_ : kEventTime))
      position_after_event_.add(e.position.norm());
    return e;
  }

  /// The command applied over one control period (mode counts).
  void add_command(const hodyn_command& command) noexcept {
    const bool saturated = command.mode == HODYN_MODE_SATURATED;
    saturated_ += saturated ? 1 : 0;
    switches_ += (commands_ > 0 && saturated != was_saturated_) ? 1 : 0;
    was_saturated_ = saturated;
    safe_mode_ += (command.mode == HODYN_MODE_HOLD || command.mode == HODYN_MODE_HOVER) ? 1 : 0;
    ++commands_;
  }
  /// Whether the plant saturated over the period.
  void add_plant_step(bool saturated) noexcept { plant_saturated_ += saturated ? 1 : 0; }

  /// Writes robot, position, attitude, joints, joint_prismatic,
  /// saturated_steps, saturation_switches, safe_mode_steps,
  /// plant_saturated_steps, payload_recovery_time, position_rms_after_event
  /// and stable (`dt`: the
  /// control period).
  void finish(double dt, RunSummary& summary) const {
    summary.robot = Robot::kName;
    summary.position = position_.stats();
    summary.attitude = attitude_.stats();
    summary.joints.clear();
    summary.joint_prismatic.clear();
    for (int j = 0; j < kNumJoints; ++j) {
      summary.joints.push_back(joints_[static_cast<std::size_t>(j)].stats());
      summary.joint_prismatic.push_back(joint_is_prismatic<Robot>(j));
    }
    summary.saturated_steps = saturated_;
    summary.saturation_switches = switches_;
    summary.safe_mode_steps = safe_mode_;
    summary.plant_saturated_steps = plant_saturated_;
    summary.payload_recovery_time = -1.0;
    if (payload_time_ >= 0.0)
      summary.payload_recovery_time =
          last_out_of_band_ < 0.0 ? 0.0 : last_out_of_band_ + dt - payload_time_;
    summary.position_rms_after_event = position_after_event_.stats().rms;
    summary.stable = finite_ && summary.position.max < 0.5 && safe_mode_ == 0;
  }

 private:
  struct Accumulator {
    double sum_squares = 0.0;
    double max = 0.0;
    long n = 0;
    void add(double e) noexcept {
      sum_squares += e * e;
      max = std::max(max, e);
      ++n;
    }
    ErrorStats stats() const noexcept {
      return ErrorStats{n > 0 ? std::sqrt(sum_squares / static_cast<double>(n)) : 0.0, max};
    }
  };

  static bool out_of_band(const TrackingErrors& e) noexcept {
    if (e.position.norm() > kRecoveryPosition || e.attitude.norm() > kRecoveryAngle) return true;
    for (int j = 0; j < kNumJoints; ++j) {
      const double band = joint_is_prismatic<Robot>(j) ? kRecoveryPrismatic : kRecoveryAngle;
      if (std::abs(e.joints(j)) > band) return true;
    }
    return false;
  }

  double settle_time_;
  double payload_time_;
  Accumulator position_, attitude_, position_after_event_;
  std::array<Accumulator, kNumJoints> joints_{};
  bool finite_ = true;
  double last_out_of_band_ = -1.0;
  long commands_ = 0, saturated_ = 0, switches_ = 0, safe_mode_ = 0, plant_saturated_ = 0;
  bool was_saturated_ = false;
};

/// The 12-DoF robot's statistics (Table 3 reference).
using RunStatistics = RobotRunStatistics<AerialManipulatorRobot>;
using TrackingErrors = RunStatistics::TrackingErrors;

/// The p-quantile (0..1) of `v` (nearest rank); 0 when empty.
double percentile(std::vector<double> v, double p);

}  // namespace closed_loop
}  // namespace hodyn
