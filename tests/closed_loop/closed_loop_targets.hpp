// The closed-loop targets of issue 15, for any robot: one scenario run and
// the assertions the closed_loop tests make of it (docs/closed-loop.md).
//
//   nominal                      position RMS ≤ 1 mm, attitude RMS ≤ 0.05°,
//                                every revolute joint RMS ≤ 0.05°, every
//                                prismatic joint RMS ≤ 0.087 mm (0.05° of a
//                                0.1 m lever: the tip displacement the angular
//                                target allows at the arms' link length),
//                                no saturation, no safe mode
//   mismatch, gust, noise_delay  stable, position RMS ≤ 2 cm, no saturation
//                                switching, no safe mode
//   payload                      as above and recovered within 2 s
#pragma once

#include <gtest/gtest.h>

#include <hodyn/closed_loop/runner.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace closed_loop_targets {

constexpr double kDegree = 3.14159265358979323846 / 180.0;
constexpr double kNominalPosition = 1e-3;                   // m
constexpr double kNominalAngle = 0.05 * kDegree;            // rad
constexpr double kNominalPrismatic = 0.05 * kDegree * 0.1;  // m: 0.05° at 0.1 m = 87 µm
constexpr double kRobustPosition = 0.02;                    // m
constexpr double kPayloadRecovery = 2.0;                    // s

template <class Robot>
hodyn::closed_loop::RunSummary run(hodyn::closed_loop::Scenario s, double rate_hz = 1000.0,
                                   double duration = 30.0) {
  using namespace hodyn::closed_loop;
  RobotRunOptions<Robot> o;
  o.scenario = s;
  o.control_rate_hz = rate_hz;
  o.plant_rate_hz = rate_hz >= 2000.0 ? 2.0 * rate_hz : 8000.0;
  o.duration = duration;
  o.record_every = 0;
  RunSummary summary;
  EXPECT_EQ(run_closed_loop(o, summary, nullptr), hodyn::Status::kOk);
  double worst_angle = 0.0, worst_prismatic = 0.0;
  for (std::size_t j = 0; j < summary.joints.size(); ++j)
    (summary.joint_prismatic[j] ? worst_prismatic : worst_angle) =
        std::max(summary.joint_prismatic[j] ? worst_prismatic : worst_angle, summary.joints[j].rms);
  std::printf(
      "[%s %s @ %.0f Hz, %.0f s] position RMS %.3g m max %.3g m, attitude RMS %.3g deg, "
      "worst revolute joint RMS %.3g deg, worst prismatic joint RMS %.3g mm, saturated %ld, "
      "switches %ld, recovery %.3f s\n",
      Robot::kName, scenario_name(s), rate_hz, duration, summary.position.rms, summary.position.max,
      summary.attitude.rms / kDegree, worst_angle / kDegree, worst_prismatic * 1e3,
      summary.saturated_steps, summary.saturation_switches, summary.payload_recovery_time);
  return summary;
}

inline void expect_nominal_accuracy(const hodyn::closed_loop::RunSummary& s) {
  EXPECT_TRUE(s.stable);
  EXPECT_LE(s.position.rms, kNominalPosition);
  EXPECT_LE(s.attitude.rms, kNominalAngle);
  ASSERT_EQ(s.joints.size(), s.joint_prismatic.size());
  for (std::size_t j = 0; j < s.joints.size(); ++j)
    EXPECT_LE(s.joints[j].rms, s.joint_prismatic[j] ? kNominalPrismatic : kNominalAngle)
        << "joint " << j + 1;
  EXPECT_EQ(s.saturated_steps, 0);
  EXPECT_EQ(s.safe_mode_steps, 0);
}

inline void expect_robust(const hodyn::closed_loop::RunSummary& s) {
  EXPECT_TRUE(s.stable);
  EXPECT_LE(s.position.rms, kRobustPosition);
  EXPECT_EQ(s.saturation_switches, 0) << "saturation chatter";
  EXPECT_EQ(s.safe_mode_steps, 0);
}

inline void expect_payload_recovered(const hodyn::closed_loop::RunSummary& s) {
  expect_robust(s);
  EXPECT_GE(s.payload_recovery_time, 0.0);
  EXPECT_LE(s.payload_recovery_time, kPayloadRecovery);
}

}  // namespace closed_loop_targets
