// hodyn::hil::FaultInjector: rates within statistical bounds for a seed, the
// outage window exact, delays released in order, counters that add up, and
// corrupted frames always rejected by the link parser.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "hodyn/hil/fault_injector.hpp"
#include "hodyn/hil/frame_splitter.hpp"
#include "hodyn/link/frame_parser.hpp"

namespace {

using hodyn::Status;
using hodyn::hil::FaultConfig;
using hodyn::hil::FaultInjector;
using Injector = FaultInjector<64>;

std::size_t command_frame(std::uint32_t k, std::uint8_t* out) {
  hodyn_command c{};
  c.num_joints = 6;
  c.num_rotors = 6;
  c.mode = HODYN_MODE_TRACKING;
  c.time = 1e-3 * k;
  std::size_t n = 0;
  EXPECT_EQ(hodyn::link::encode(c, k, 0, k, out, hodyn::link::kMaxWireSize, n), Status::kOk);
  return n;
}

void expect_counters_add_up(const Injector& f) {
  const auto& c = f.counters();
  EXPECT_EQ(c.submitted + c.duplicated,
            c.outage_lost + c.dropped + c.overflow + c.released + f.queued() + f.held());
}

// Binomial bound: |count − n p| ≤ 5 σ.
void expect_rate(std::uint64_t count, double n, double p) {
  const double sigma = std::sqrt(n * p * (1.0 - p));
  EXPECT_NEAR(static_cast<double>(count), n * p, 5.0 * sigma + 1.0);
}

TEST(FaultInjector, RejectsBadConfigurations) {
  static Injector f;
  FaultConfig c;
  c.drop = 1.5;
  EXPECT_EQ(f.configure(c, 1), Status::kInvalidArgument);
  c = FaultConfig{};
  c.delay_min = 2e-3;
  c.delay_max = 1e-3;
  EXPECT_EQ(f.configure(c, 1), Status::kInvalidArgument);
  c = FaultConfig{};
  c.outage_duration = -1.0;
  EXPECT_EQ(f.configure(c, 1), Status::kInvalidArgument);
}

TEST(FaultInjector, RatesWithinBoundsAndCountersAddUp) {
  static Injector f;
  FaultConfig c;
  c.drop = 0.05;
  c.duplicate = 0.01;
  c.corrupt = 0.01;
  c.reorder = 0.01;
  ASSERT_EQ(f.configure(c, 42), Status::kOk);
  std::uint8_t frame[hodyn::link::kMaxWireSize], out[hodyn::link::kMaxWireSize];
  constexpr int kFrames = 100000;
  Injector::Released r;
  for (int k = 0; k < kFrames; ++k) {
    const std::size_t n = command_frame(static_cast<std::uint32_t>(k), frame);
    ASSERT_EQ(f.submit(frame, n, 1e-3 * k, static_cast<std::uint32_t>(k)), Status::kOk);
    while (f.pop(1e-3 * k, out, sizeof out, r)) {
    }
  }
  const auto& s = f.counters();
  EXPECT_EQ(s.submitted, static_cast<std::uint64_t>(kFrames));
  expect_rate(s.dropped, kFrames, 0.05);
  expect_rate(s.duplicated, kFrames * 0.95, 0.01);
  expect_rate(s.corrupted, kFrames * 0.95, 0.01);
  expect_rate(s.reordered, kFrames * 0.95, 0.01);
  EXPECT_EQ(s.overflow, 0u);
  expect_counters_add_up(f);
}

TEST(FaultInjector, SameSeedSameFaults) {
  static Injector a, b;
  FaultConfig c;
  c.drop = 0.2;
  c.corrupt = 0.2;
  c.delay_max = 3e-3;
  ASSERT_EQ(a.configure(c, 9), Status::kOk);
  ASSERT_EQ(b.configure(c, 9), Status::kOk);
  std::uint8_t frame[hodyn::link::kMaxWireSize], x[hodyn::link::kMaxWireSize],
      y[hodyn::link::kMaxWireSize];
  Injector::Released ra, rb;
  for (int k = 0; k < 2000; ++k) {
    const std::size_t n = command_frame(static_cast<std::uint32_t>(k), frame);
    a.submit(frame, n, 1e-3 * k);
    b.submit(frame, n, 1e-3 * k);
    for (;;) {
      const bool pa = a.pop(1e-3 * k, x, sizeof x, ra), pb = b.pop(1e-3 * k, y, sizeof y, rb);
      ASSERT_EQ(pa, pb);
      if (!pa) break;
      ASSERT_EQ(ra.size, rb.size);
      EXPECT_EQ(std::memcmp(x, y, ra.size), 0);
    }
  }
}

TEST(FaultInjector, OutageWindowIsExact) {
  static Injector f;
  FaultConfig c;
  c.outage_start = 3.0;
  c.outage_duration = 0.2;
  ASSERT_EQ(f.configure(c, 1), Status::kOk);
  std::uint8_t frame[hodyn::link::kMaxWireSize], out[hodyn::link::kMaxWireSize];
  Injector::Released r;
  int lost = 0;
  for (int k = 0; k < 5000; ++k) {
    const double t = 1e-3 * k;
    const std::size_t n = command_frame(static_cast<std::uint32_t>(k), frame);
    f.submit(frame, n, t);
    const bool passed = f.pop(t, out, sizeof out, r);
    EXPECT_EQ(passed, !(k >= 3000 && k < 3200)) << "k = " << k;
    lost += passed ? 0 : 1;
  }
  EXPECT_EQ(lost, 200);
  EXPECT_EQ(f.counters().outage_lost, 200u);
  expect_counters_add_up(f);
}

// --corrupt-burst: inside [start, start + duration) its own rate (30 %),
// outside the base rate (0 here): no corrupted copy outside the window.
TEST(FaultInjector, CorruptionBurstOnlyInsideItsWindow) {
  static Injector f;
  FaultConfig c;
  c.burst_start = 2.0;
  c.burst_duration = 1.0;
  c.burst_corrupt = 0.3;
  ASSERT_EQ(f.configure(c, 5), Status::kOk);
  std::uint8_t frame[hodyn::link::kMaxWireSize], out[hodyn::link::kMaxWireSize];
  Injector::Released r;
  int inside = 0, outside = 0;
  for (int k = 0; k < 5000; ++k) {
    const double t = 1e-3 * k;
    const std::size_t n = command_frame(static_cast<std::uint32_t>(k), frame);
    ASSERT_EQ(f.submit(frame, n, t), Status::kOk);
    EXPECT_EQ(f.in_burst(t), k >= 2000 && k < 3000) << "k = " << k;
    while (f.pop(t, out, sizeof out, r)) {  // no delays: released at t
      if (!r.corrupted) continue;
      if (f.in_burst(t)) {
        ++inside;
      } else {
        ++outside;
      }
    }
  }
  EXPECT_EQ(outside, 0);
  expect_rate(static_cast<std::uint64_t>(inside), 1000, 0.3);
  EXPECT_EQ(f.counters().corrupted, static_cast<std::uint64_t>(inside));
  c.burst_corrupt = 1.5;
  EXPECT_EQ(f.configure(c, 5), Status::kInvalidArgument);
  c.burst_corrupt = 0.3;
  c.burst_duration = -1.0;
  EXPECT_EQ(f.configure(c, 5), Status::kInvalidArgument);
}

TEST(FaultInjector, DelaysWithinBoundsAndReleasedInOrder) {
  static Injector f;
  FaultConfig c;
  c.delay_min = 1e-3;
  c.delay_max = 3e-3;
  c.reorder = 0.05;
  ASSERT_EQ(f.configure(c, 5), Status::kOk);
  std::uint8_t frame[hodyn::link::kMaxWireSize], out[hodyn::link::kMaxWireSize];
  Injector::Released r;
  double last_release = -1.0;
  for (int k = 0; k < 20000; ++k) {
    const double t = 1e-4 * k;  // several frames per delay
    const std::size_t n = command_frame(static_cast<std::uint32_t>(k), frame);
    f.submit(frame, n, t, static_cast<std::uint32_t>(k));
    while (f.pop(t, out, sizeof out, r)) {
      EXPECT_GE(r.release_time, last_release);
      EXPECT_LE(r.release_time, t);
      const double submitted = 1e-4 * r.tag;
      EXPECT_GE(r.release_time - submitted, 1e-3 - 1e-12);
      last_release = r.release_time;
    }
  }
  EXPECT_EQ(f.counters().delayed, f.counters().submitted);
  EXPECT_GT(f.counters().reordered, 0u);
  expect_counters_add_up(f);
}

TEST(FaultInjector, EveryCorruptedFrameIsRejectedExactlyOnce) {
  static Injector f;
  FaultConfig c;
  c.corrupt = 0.5;
  ASSERT_EQ(f.configure(c, 3), Status::kOk);
  static hodyn::link::FrameParser parser;
  std::uint8_t frame[hodyn::link::kMaxWireSize], out[hodyn::link::kMaxWireSize];
  Injector::Released r;
  std::uint64_t corrupted = 0, clean = 0;
  hodyn::link::Message m{};
  for (int k = 0; k < 20000; ++k) {
    const std::size_t n = command_frame(static_cast<std::uint32_t>(k), frame);
    f.submit(frame, n, 0.0);
    while (f.pop(0.0, out, sizeof out, r)) {
      (r.corrupted ? corrupted : clean) += 1;
      parser.push(out, r.size);  // one stream: a bad frame must not spoil the next
      while (parser.next(m)) {
      }
    }
  }
  EXPECT_GT(corrupted, 9000u);
  EXPECT_EQ(parser.counters().total_rejected(), corrupted);
  EXPECT_EQ(parser.counters().frames_ok, clean);
}

TEST(FrameSplitter, CutsAStreamAtDelimiters) {
  hodyn::hil::FrameSplitter s;
  const std::uint8_t bytes[] = {1, 2, 0, 3, 0, 0};
  int frames = 0;
  for (std::uint8_t b : bytes) frames += s.push(b) ? 1 : 0;
  EXPECT_EQ(frames, 3);
  EXPECT_EQ(s.size(), 1u);
}

}  // namespace
