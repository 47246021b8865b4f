// PeriodicLoop: iteration count, sane period statistics, deadline-miss
// counting, stop flag (from the step, a signal, another thread), best-effort
// real-time setup, the histogram, and no heap use inside the loop.
//
// These are functional checks on a possibly loaded shared VM, not speed
// claims: timing bounds are loose.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>

#include "hodyn/posix/duration_histogram.hpp"
#include "hodyn/posix/periodic_loop.hpp"
#include "hodyn/posix/realtime_setup.hpp"
#include "hodyn/posix/stop_signal.hpp"
#include "support/heap_counter.hpp"

namespace {

using hodyn::Status;
using hodyn::posix::DurationHistogram;
using hodyn::posix::LoopTick;
using hodyn::posix::PeriodicLoop;
using hodyn::posix::StopFlag;

constexpr std::int64_t kMillisecond = 1'000'000;

void busy_sleep_ns(std::int64_t duration) {
  const std::int64_t end = hodyn::posix::monotonic_now_ns() + duration;
  timespec t{};
  t.tv_nsec = static_cast<long>(duration);
  while (hodyn::posix::monotonic_now_ns() < end) nanosleep(&t, nullptr);
}

struct CountingStep {
  std::uint64_t calls = 0;
  std::uint64_t last_iteration = 0;
  bool deadlines_increase = true;
  std::int64_t last_deadline = 0;
  void operator()(const LoopTick& tick) {
    if (calls > 0 && tick.deadline_ns <= last_deadline) deadlines_increase = false;
    last_deadline = tick.deadline_ns;
    last_iteration = tick.iteration;
    ++calls;
  }
};

TEST(PeriodicLoop, RunsExactIterationsWithSanePeriod) {
  PeriodicLoop loop(kMillisecond);  // 1 kHz
  CountingStep step;
  hodyn::test::HeapProbe probe;
  ASSERT_EQ(loop.run(step, 200), Status::kOk);
  const long allocations = probe.count();
  loop.print_summary(stdout);

  const auto& s = loop.statistics();
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(step.calls, 200u);
  EXPECT_EQ(step.last_iteration, 199u);
  EXPECT_TRUE(step.deadlines_increase);
  EXPECT_EQ(s.iterations, 200u);
  EXPECT_EQ(s.period.count(), 199u);
  EXPECT_EQ(s.compute.count(), 200u);
  EXPECT_GE(s.period.median(), kMillisecond / 2);
  EXPECT_LE(s.period.median(), 2 * kMillisecond);
  EXPECT_LE(s.period.median(), s.period.p99());
  EXPECT_LE(s.period.p99(), s.period.max());
  EXPECT_GE(s.wake_latency.min(), 0);
  // Absolute deadlines: misses skip whole periods, so iterations + skipped
  // periods cover the run and the loop never runs ahead of its schedule.
  EXPECT_LE(s.deadline_misses, s.skipped_periods);
}

TEST(PeriodicLoop, CountsMissAndSkipsPeriodsWhenStepOverruns) {
  const std::int64_t period = 2 * kMillisecond;
  PeriodicLoop loop(period);
  std::uint64_t calls = 0;
  auto step = [&](const LoopTick& tick) {
    ++calls;
    if (tick.iteration == 10) busy_sleep_ns(3 * period);
  };
  ASSERT_EQ(loop.run(step, 30), Status::kOk);
  loop.print_summary(stdout);

  const auto& s = loop.statistics();
  EXPECT_EQ(calls, 30u);
  EXPECT_EQ(s.iterations, 30u);
  EXPECT_GE(s.deadline_misses, 1u);
  EXPECT_GE(s.skipped_periods, 2u);  // 3 periods of work: at least 2 deadlines passed
  EXPECT_GE(s.compute.max(), 3 * period);
  EXPECT_GE(s.period.max(), 3 * period);  // the wake-up after the overrun
}

TEST(PeriodicLoop, StepReturningFalseOrStopFlagEndsTheLoop) {
  PeriodicLoop loop(kMillisecond);
  std::uint64_t calls = 0;
  auto stop_after_five = [&](const LoopTick& tick) {
    ++calls;
    return tick.iteration < 4;  // false on the 5th call
  };
  ASSERT_EQ(loop.run(stop_after_five, 1000), Status::kOk);
  EXPECT_EQ(calls, 5u);
  EXPECT_EQ(loop.statistics().iterations, 5u);

  StopFlag stop;
  calls = 0;
  auto raise_stop = [&](const LoopTick& tick) {
    ++calls;
    if (tick.iteration == 6) stop.request_stop();
  };
  ASSERT_EQ(loop.run(raise_stop, 0, &stop), Status::kOk);  // 0: until stopped
  EXPECT_EQ(calls, 7u);
}

TEST(PeriodicLoop, SignalHandlerStopsTheLoop) {
  StopFlag stop;
  ASSERT_EQ(hodyn::posix::install_stop_signal_handlers(stop), Status::kOk);
  PeriodicLoop loop(kMillisecond);
  std::uint64_t calls = 0;
  auto step = [&](const LoopTick& tick) {
    ++calls;
    if (tick.iteration == 3) raise(SIGTERM);
  };
  EXPECT_EQ(loop.run(step, 0, &stop), Status::kOk);
  hodyn::posix::restore_default_signal_handlers();
  EXPECT_TRUE(stop.stop_requested());
  EXPECT_EQ(calls, 4u);
}

TEST(PeriodicLoop, OtherThreadStopsALongSleep) {
  StopFlag stop;
  PeriodicLoop loop(50 * kMillisecond);
  std::uint64_t calls = 0;
  auto step = [&](const LoopTick&) { ++calls; };
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    stop.request_stop();
  });
  EXPECT_EQ(loop.run(step, 0, &stop), Status::kOk);
  stopper.join();
  EXPECT_GE(calls, 1u);
  EXPECT_LE(calls, 10u);
}

TEST(PeriodicLoop, RejectsBadArguments) {
  CountingStep step;
  PeriodicLoop zero(0);
  EXPECT_EQ(zero.run(step, 10), Status::kInvalidArgument);
  PeriodicLoop loop(kMillisecond);
  EXPECT_EQ(loop.run(step, 0, nullptr), Status::kInvalidArgument);  // would never end
  EXPECT_EQ(step.calls, 0u);
}

TEST(RealtimeSetup, BestEffortReportIsConsistent) {
  // Restore afterwards: the other tests should run as a normal thread.
  int old_policy = 0;
  sched_param old_param{};
  ASSERT_EQ(pthread_getschedparam(pthread_self(), &old_policy, &old_param), 0);
  cpu_set_t old_cpus;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof old_cpus, &old_cpus), 0);

  hodyn::posix::RealtimeOptions options;
  options.fifo_priority = 10;
  options.lock_memory = true;
  options.cpu_core = 0;
  const hodyn::posix::RealtimeReport report = hodyn::posix::apply_realtime_setup(options);
  hodyn::posix::print_realtime_report(report, options, stdout);

  for (const auto* step : {&report.fifo, &report.lock, &report.affinity}) {
    EXPECT_TRUE(step->requested);
    EXPECT_EQ(step->applied, step->error == 0);
  }
  int policy = 0;
  sched_param param{};
  ASSERT_EQ(pthread_getschedparam(pthread_self(), &policy, &param), 0);
  EXPECT_EQ(report.fifo.applied, policy == SCHED_FIFO && param.sched_priority == 10);
  if (report.affinity.applied) {
    cpu_set_t cpus;
    ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof cpus, &cpus), 0);
    EXPECT_EQ(CPU_COUNT(&cpus), 1);
    EXPECT_TRUE(CPU_ISSET(0, &cpus));
  }
  EXPECT_EQ(report.all_applied(),
            report.fifo.applied && report.lock.applied && report.affinity.applied);

  // The loop runs either way.
  PeriodicLoop loop(kMillisecond);
  CountingStep step;
  EXPECT_EQ(loop.run(step, 20), Status::kOk);
  EXPECT_EQ(step.calls, 20u);

  pthread_setschedparam(pthread_self(), old_policy, &old_param);
  pthread_setaffinity_np(pthread_self(), sizeof old_cpus, &old_cpus);
  if (report.lock.applied) munlockall();

  // Nothing requested: nothing attempted, nothing printed.
  const auto nothing = hodyn::posix::apply_realtime_setup({}, nullptr);
  EXPECT_FALSE(nothing.fifo.requested || nothing.lock.requested || nothing.affinity.requested);
  EXPECT_TRUE(nothing.all_applied());

  // A core that does not exist fails cleanly.
  hodyn::posix::RealtimeOptions bad;
  bad.cpu_core = 100000;
  const auto failed = hodyn::posix::apply_realtime_setup(bad, nullptr);
  EXPECT_TRUE(failed.affinity.requested);
  EXPECT_FALSE(failed.affinity.applied);
  EXPECT_NE(failed.affinity.error, 0);
}

TEST(DurationHistogram, PercentilesWithinOneBin) {
  DurationHistogram h;
  EXPECT_EQ(h.median(), 0);
  for (std::int64_t v = 1; v <= 1000; ++v) h.add(v * 1000);  // 1 us .. 1 ms
  EXPECT_EQ(h.count(), 1000u);
  EXPECT_EQ(h.min(), 1000);
  EXPECT_EQ(h.max(), 1'000'000);
  EXPECT_NEAR(h.mean(), 500'500.0, 1e-6);
  EXPECT_NEAR(static_cast<double>(h.median()), 500'000.0, 500'000.0 / 64);
  EXPECT_NEAR(static_cast<double>(h.p99()), 990'000.0, 990'000.0 / 64);
  EXPECT_EQ(h.percentile(1.0), 1'000'000);
  EXPECT_EQ(h.percentile(0.0), 1000);

  DurationHistogram small;
  for (int v : {5, 7, 7, 100}) small.add(v);  // exact below 128 ns
  EXPECT_EQ(small.median(), 7);
  EXPECT_EQ(small.max(), 100);
  small.add(-3);  // counts as 0
  EXPECT_EQ(small.min(), 0);
  small.add(std::int64_t{1} << 50);  // beyond the range: last bin, exact max
  EXPECT_EQ(small.max(), std::int64_t{1} << 50);
  small.reset();
  EXPECT_EQ(small.count(), 0u);
}

}  // namespace
