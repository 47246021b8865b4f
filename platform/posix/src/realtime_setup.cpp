// Best-effort real-time setup (see hodyn/posix/realtime_setup.hpp).
#include "hodyn/posix/realtime_setup.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>

namespace hodyn {
namespace posix {

namespace {

constexpr std::size_t kPrefaultStackBytes = 64 * 1024;

// Touches the stack the loop will use so its pages are mapped (and, after
// mlockall, locked) before the first deadline.
__attribute__((noinline)) void prefault_stack() {
  volatile unsigned char stack[kPrefaultStackBytes];
  for (std::size_t i = 0; i < kPrefaultStackBytes; i += 4096) stack[i] = 0;
  static_cast<void>(stack[0]);
}

void warn(std::FILE* out, const char* what, int error) {
  if (out == nullptr) return;
  std::fprintf(out, "hodyn: warning: %s not applied (%s); continuing without it\n", what,
               std::strerror(error));
}

void print_step(std::FILE* out, const RealtimeStep& step) {
  if (!step.requested) {
    std::fprintf(out, "not requested");
  } else if (step.applied) {
    std::fprintf(out, "yes");
  } else {
    std::fprintf(out, "no (%s)", std::strerror(step.error));
  }
}

}  // namespace

RealtimeReport apply_realtime_setup(const RealtimeOptions& options, std::FILE* warnings) noexcept {
  RealtimeReport report;

  if (options.lock_memory) {
    report.lock.requested = true;
    if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0) {
      report.lock.applied = true;
      prefault_stack();
    } else {
      report.lock.error = errno;
      warn(warnings, "mlockall(MCL_CURRENT|MCL_FUTURE)", report.lock.error);
    }
  }

  if (options.cpu_core >= 0) {
    report.affinity.requested = true;
#if defined(__linux__)
    if (options.cpu_core >= CPU_SETSIZE) {
      report.affinity.error = EINVAL;
    } else {
      cpu_set_t cpus;
      CPU_ZERO(&cpus);
      CPU_SET(static_cast<std::size_t>(options.cpu_core), &cpus);
      report.affinity.error = pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus);
    }
#else
    report.affinity.error = ENOTSUP;
#endif
    report.affinity.applied = report.affinity.error == 0;
    if (!report.affinity.applied) warn(warnings, "CPU affinity", report.affinity.error);
  }

  if (options.fifo_priority > 0) {
    report.fifo.requested = true;
    sched_param parameters{};
    parameters.sched_priority = options.fifo_priority;
    const int low = sched_get_priority_min(SCHED_FIFO);
    const int high = sched_get_priority_max(SCHED_FIFO);
    if (options.fifo_priority < low || options.fifo_priority > high) {
      report.fifo.error = EINVAL;
    } else {
      report.fifo.error = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters);
    }
    report.fifo.applied = report.fifo.error == 0;
    if (!report.fifo.applied) warn(warnings, "SCHED_FIFO", report.fifo.error);
  }

  return report;
}

void print_realtime_report(const RealtimeReport& report, const RealtimeOptions& options,
                           std::FILE* out) noexcept {
  if (out == nullptr) return;
  std::fprintf(out, "realtime: SCHED_FIFO %d ", options.fifo_priority);
  print_step(out, report.fifo);
  std::fprintf(out, ", mlockall ");
  print_step(out, report.lock);
  std::fprintf(out, ", affinity cpu %d ", options.cpu_core);
  print_step(out, report.affinity);
  std::fprintf(out, "\n");
}

}  // namespace posix
}  // namespace hodyn
