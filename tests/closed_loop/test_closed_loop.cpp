// Closed-loop acceptance: the feedback-linearization plugin flies the plant
// simulator along the Table 3 reference (30 s) in every scenario and meets the
// accuracy targets of the product (docs/controller.md). Errors are those of the
// true plant state, after the first second.
#include <gtest/gtest.h>

#include <hodyn/closed_loop/runner.hpp>

#include <cstdio>

namespace {

using namespace hodyn;
using namespace hodyn::closed_loop;

constexpr double kDegree = 3.14159265358979323846 / 180.0;

RunSummary run(Scenario s, double rate_hz = 1000.0, double duration = 30.0) {
  RunOptions o;
  o.scenario = s;
  o.control_rate_hz = rate_hz;
  o.plant_rate_hz = rate_hz >= 2000.0 ? 2.0 * rate_hz : 8000.0;
  o.duration = duration;
  o.record_every = 0;
  RunSummary summary;
  EXPECT_EQ(run_closed_loop(o, summary, nullptr), Status::kOk);
  std::printf(
      "[%s @ %.0f Hz] position RMS %.3g m max %.3g m, attitude RMS %.3g deg, "
      "worst joint RMS %.3g deg, saturated %ld, switches %ld, recovery %.3f s\n",
      scenario_name(s), rate_hz, summary.position.rms, summary.position.max,
      summary.attitude.rms / kDegree,
      [&] {
        double worst = 0.0;
        for (const auto& j : summary.joints) worst = std::max(worst, j.rms);
        return worst / kDegree;
      }(),
      summary.saturated_steps, summary.saturation_switches, summary.payload_recovery_time);
  return summary;
}

void expect_nominal_accuracy(const RunSummary& s) {
  EXPECT_TRUE(s.stable);
  EXPECT_LE(s.position.rms, 1e-3);
  EXPECT_LE(s.attitude.rms, 0.05 * kDegree);
  for (const auto& j : s.joints) EXPECT_LE(j.rms, 0.05 * kDegree);
  EXPECT_EQ(s.saturated_steps, 0);
  EXPECT_EQ(s.safe_mode_steps, 0);
}

void expect_robust(const RunSummary& s) {
  EXPECT_TRUE(s.stable);
  EXPECT_LE(s.position.rms, 0.02);
  EXPECT_EQ(s.saturation_switches, 0) << "saturation chatter";
  EXPECT_EQ(s.safe_mode_steps, 0);
}

TEST(ClosedLoop, NominalTracksTable3WithinTargets) {
  expect_nominal_accuracy(run(Scenario::kNominal));
}

TEST(ClosedLoop, ParameterMismatchStaysStable) { expect_robust(run(Scenario::kMismatch)); }

TEST(ClosedLoop, GustIsRejected) { expect_robust(run(Scenario::kGust)); }

TEST(ClosedLoop, NoiseAndDelayStayStable) { expect_robust(run(Scenario::kNoiseDelay)); }

TEST(ClosedLoop, PayloadStepIsRecoveredWithinTwoSeconds) {
  const RunSummary s = run(Scenario::kPayload);
  expect_robust(s);
  EXPECT_GE(s.payload_recovery_time, 0.0);
  EXPECT_LE(s.payload_recovery_time, 2.0);
}

TEST(ClosedLoop, CorrectAt500HzAnd4kHz) {
  expect_nominal_accuracy(run(Scenario::kNominal, 500.0, 10.0));
  expect_nominal_accuracy(run(Scenario::kNominal, 4000.0, 10.0));
}

}  // namespace
