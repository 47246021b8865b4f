// Online payload estimation in the closed loop (docs/payload-estimation.md,
// issue 18 item 4): the feedback-linearization plugin with payload_estimation
// on flies the 12-DoF robot's `payload` scenario (0.1 kg at t = 15 s) and
// `unknown_payload` (0.2 kg from t = 0, unannounced). The estimate is read
// from the controller at the end of a run, so a run of 15 + 2 s gives the
// estimate 2 s after the pickup.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include <hodyn/closed_loop/runner.hpp>

#include "hodyn/plugin/controller_plugin.hpp"

namespace {

using namespace hodyn;
using namespace hodyn::closed_loop;

RunSummary run(Scenario s, double duration, bool estimation) {
  RunOptions o;
  o.scenario = s;
  o.duration = duration;
  o.record_every = 0;
  hodyn_parameter p[2]{};
  plugin::copy_name(p[0].name, "payload_estimation");
  p[0].value = estimation ? 1.0 : 0.0;
  plugin::copy_name(p[1].name, "payload_body");
  p[1].value = payload_body<AerialManipulatorRobot>();
  o.parameters = p;
  o.num_parameters = 2;
  RunSummary summary;
  EXPECT_EQ(run_closed_loop(o, summary, nullptr), Status::kOk);
  std::printf("[%s, estimation %s, %.0f s] RMS after the event %.4g mm, estimate %.5g kg\n",
              scenario_name(s), estimation ? "on" : "off", duration,
              summary.position_rms_after_event * 1e3, summary.payload_mass_estimate);
  return summary;
}

TEST(PayloadEstimationClosedLoop, MassWithinFivePercentTwoSecondsAfterThePickup) {
  const RunSummary s = run(Scenario::kPayload, 17.0, true);
  EXPECT_TRUE(s.stable);
  EXPECT_NEAR(s.payload_mass_estimate, 0.1, 0.005);
}

TEST(PayloadEstimationClosedLoop, PositionErrorAfterThePickupFiveTimesSmaller) {
  const RunSummary off = run(Scenario::kPayload, 30.0, false);
  const RunSummary on = run(Scenario::kPayload, 30.0, true);
  EXPECT_TRUE(std::isnan(off.payload_mass_estimate));  // off: no estimate (JSON null)
  EXPECT_TRUE(on.stable);
  EXPECT_NEAR(on.payload_mass_estimate, 0.1, 0.005);
  EXPECT_LE(5.0 * on.position_rms_after_event, off.position_rms_after_event);
}

TEST(PayloadEstimationClosedLoop, UnknownPayloadIsLearned) {
  const RunSummary off = run(Scenario::kUnknownPayload, 10.0, false);
  const RunSummary on = run(Scenario::kUnknownPayload, 10.0, true);
  EXPECT_TRUE(on.stable);
  EXPECT_NEAR(on.payload_mass_estimate, 0.2, 0.01);
  EXPECT_LE(5.0 * on.position_rms_after_event, off.position_rms_after_event);
}

}  // namespace
