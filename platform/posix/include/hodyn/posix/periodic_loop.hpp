// hodyn/posix/periodic_loop.hpp — a periodic real-time loop on absolute
// deadlines of CLOCK_MONOTONIC, with deadline-miss counting and timing
// statistics.
//
//   PeriodicLoop loop(1'000'000);               // 1 kHz
//   StopFlag stop;
//   install_stop_signal_handlers(stop);         // Ctrl-C ends the loop
//   loop.run(controller_step, 0, &stop);        // 0 iterations: until stopped
//   loop.print_summary(stdout);
//
// Deadlines are absolute: deadline[k+1] = deadline[k] + period, so the loop
// does not drift. The thread sleeps in clock_nanosleep(TIMER_ABSTIME) until a
// deadline, wakes, and calls the step. If the step finishes after the next
// deadline, that is a deadline miss: the loop skips to the first deadline that
// is still in the future and counts the periods it skipped (it never runs the
// step back to back to catch up).
//
// The step is a template parameter (no std::function, no heap): any object
// callable as `step(const LoopTick&)`. If it returns bool, `false` stops the
// loop after that iteration. run() allocates nothing; the statistics are
// fixed-size histograms inside the loop object (~27 KiB).
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "hodyn/posix/duration_histogram.hpp"
#include "hodyn/posix/stop_signal.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace posix {

/// CLOCK_MONOTONIC in nanoseconds.
std::int64_t monotonic_now_ns() noexcept;

/// Sleeps until the absolute CLOCK_MONOTONIC time `deadline_ns`. Returns early
/// (false) only when a signal interrupted the sleep and `stop` is set.
bool sleep_until_ns(std::int64_t deadline_ns, const StopFlag* stop) noexcept;

/// What the step is told each iteration.
struct LoopTick {
  std::uint64_t iteration = 0;   ///< 0, 1, 2, ... (calls of the step)
  std::int64_t deadline_ns = 0;  ///< the deadline this wake-up was scheduled for (CLOCK_MONOTONIC)
  std::int64_t wake_ns = 0;      ///< when the thread actually woke (CLOCK_MONOTONIC)
  std::int64_t period_ns = 0;
};

/// Timing of a run. All durations in ns.
struct LoopStatistics {
  std::uint64_t iterations = 0;       ///< calls of the step
  std::uint64_t deadline_misses = 0;  ///< iterations whose step ended after the next deadline
  std::uint64_t skipped_periods = 0;  ///< deadlines dropped because of those misses
  DurationHistogram period;           ///< wake-up to wake-up (iterations − 1 samples)
  DurationHistogram compute;          ///< duration of the step
  DurationHistogram wake_latency;     ///< wake-up minus its deadline (scheduling latency)

  void reset() noexcept;
};

class PeriodicLoop {
 public:
  /// `period_ns` must be positive; otherwise run() returns kInvalidArgument.
  explicit PeriodicLoop(std::int64_t period_ns) noexcept : period_ns_(period_ns) {}

  std::int64_t period_ns() const noexcept { return period_ns_; }

  /// Runs `step` once per period: `iterations` times (0: no limit), or until
  /// `stop` is set (checked before every sleep and when a signal interrupts
  /// it) or the step returns false. The first deadline is one period after the
  /// call. Statistics are reset at the start. kOk, or kInvalidArgument for a
  /// non-positive period or for 0 iterations without a stop flag.
  template <typename Step>
  Status run(Step& step, std::uint64_t iterations, const StopFlag* stop = nullptr) noexcept;

  const LoopStatistics& statistics() const noexcept { return statistics_; }

  /// A few lines for the end of a program: iterations, misses, and median,
  /// p99 and max of the period, the compute time and the wake-up latency.
  void print_summary(std::FILE* out) const noexcept;

 private:
  std::int64_t period_ns_;
  LoopStatistics statistics_;
};

// ---------------------------------------------------------------------------

template <typename Step>
Status PeriodicLoop::run(Step& step, std::uint64_t iterations, const StopFlag* stop) noexcept {
  statistics_.reset();
  if (period_ns_ <= 0 || (iterations == 0 && stop == nullptr)) return Status::kInvalidArgument;

  LoopTick tick;
  tick.period_ns = period_ns_;
  std::int64_t deadline = monotonic_now_ns() + period_ns_;
  std::int64_t previous_wake = 0;

  for (std::uint64_t k = 0; iterations == 0 || k < iterations; ++k) {
    if (stop != nullptr && stop->stop_requested()) break;
    if (!sleep_until_ns(deadline, stop)) break;
    const std::int64_t wake = monotonic_now_ns();
    if (k > 0) statistics_.period.add(wake - previous_wake);
    statistics_.wake_latency.add(wake - deadline);
    previous_wake = wake;

    tick.iteration = k;
    tick.deadline_ns = deadline;
    tick.wake_ns = wake;
    bool keep_going = true;
    if constexpr (std::is_same_v<decltype(step(std::as_const(tick))), bool>) {
      keep_going = step(std::as_const(tick));
    } else {
      step(std::as_const(tick));
    }
    const std::int64_t done = monotonic_now_ns();
    statistics_.compute.add(done - wake);
    ++statistics_.iterations;

    deadline += period_ns_;
    if (done > deadline) {  // missed: skip to the first deadline still ahead
      const std::int64_t skipped = (done - deadline) / period_ns_ + 1;
      deadline += skipped * period_ns_;
      ++statistics_.deadline_misses;
      statistics_.skipped_periods += static_cast<std::uint64_t>(skipped);
    }
    if (!keep_going) break;
  }
  return Status::kOk;
}

}  // namespace posix
}  // namespace hodyn
