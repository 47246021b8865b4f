// Clock helpers and the summary of the periodic loop
// (see hodyn/posix/periodic_loop.hpp).
#include "hodyn/posix/periodic_loop.hpp"

#include <cerrno>
#include <ctime>

namespace hodyn {
namespace posix {

namespace {
constexpr std::int64_t kNsPerSecond = 1'000'000'000;

void print_histogram_line(std::FILE* out, const char* name, const DurationHistogram& h) {
  const auto us = [](std::int64_t ns) { return static_cast<double>(ns) * 1e-3; };
  std::fprintf(out, "  %-15s median %9.1f  p99 %9.1f  max %9.1f  min %9.1f  (n %llu)\n", name,
               us(h.median()), us(h.p99()), us(h.max()), us(h.min()),
               static_cast<unsigned long long>(h.count()));
}
}  // namespace

std::int64_t monotonic_now_ns() noexcept {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * kNsPerSecond + now.tv_nsec;
}

bool sleep_until_ns(std::int64_t deadline_ns, const StopFlag* stop) noexcept {
  timespec deadline{};
  deadline.tv_sec = static_cast<time_t>(deadline_ns / kNsPerSecond);
  deadline.tv_nsec = static_cast<long>(deadline_ns % kNsPerSecond);
  for (;;) {
    const int error = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr);
    if (error == 0) return true;
    if (error != EINTR) return true;  // EINVAL cannot happen for a valid time: do not spin
    if (stop != nullptr && stop->stop_requested()) return false;
  }
}

void LoopStatistics::reset() noexcept {
  iterations = 0;
  deadline_misses = 0;
  skipped_periods = 0;
  period.reset();
  compute.reset();
  wake_latency.reset();
}

void PeriodicLoop::print_summary(std::FILE* out) const noexcept {
  if (out == nullptr) return;
  const LoopStatistics& s = statistics_;
  std::fprintf(out,
               "periodic loop: %llu iterations at %.1f Hz (period %.1f us), %llu deadline misses "
               "(%llu periods skipped)\n",
               static_cast<unsigned long long>(s.iterations), 1e9 / static_cast<double>(period_ns_),
               static_cast<double>(period_ns_) * 1e-3,
               static_cast<unsigned long long>(s.deadline_misses),
               static_cast<unsigned long long>(s.skipped_periods));
  std::fprintf(out, "  times in us\n");
  print_histogram_line(out, "period", s.period);
  print_histogram_line(out, "compute", s.compute);
  print_histogram_line(out, "wake latency", s.wake_latency);
}

}  // namespace posix
}  // namespace hodyn
