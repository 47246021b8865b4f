// hodyn/posix/realtime_setup.hpp — best-effort real-time setup of the calling
// thread: SCHED_FIFO priority, locked memory, CPU affinity.
//
// Each step is attempted only when requested. A step that fails (usually EPERM
// without CAP_SYS_NICE / CAP_IPC_LOCK, or EINVAL for a core that does not
// exist) prints one warning line and the setup carries on; the report says
// what was applied. Call it once before the loop, not inside it.
#pragma once

#include <cstdio>

namespace hodyn {
namespace posix {

struct RealtimeOptions {
  int fifo_priority = 0;  ///< 1..99: run the calling thread SCHED_FIFO at it; 0: leave the policy
  bool lock_memory = false;  ///< mlockall(MCL_CURRENT | MCL_FUTURE) and pre-fault 64 KiB of stack
  int cpu_core = -1;         ///< >= 0: pin the calling thread to this core; -1: leave the affinity
};

/// What one step did: not requested, applied, or failed with `error` (errno).
struct RealtimeStep {
  bool requested = false;
  bool applied = false;
  int error = 0;  ///< errno of the failed call; 0 when applied or not requested
};

struct RealtimeReport {
  RealtimeStep fifo;      ///< SCHED_FIFO at RealtimeOptions::fifo_priority
  RealtimeStep lock;      ///< mlockall
  RealtimeStep affinity;  ///< CPU affinity to RealtimeOptions::cpu_core

  /// True when every requested step was applied.
  bool all_applied() const noexcept {
    return (!fifo.requested || fifo.applied) && (!lock.requested || lock.applied) &&
           (!affinity.requested || affinity.applied);
  }
};

/// Applies the requested steps to the calling thread. Warnings for failed
/// steps go to `warnings` (one line each; nullptr: silent).
RealtimeReport apply_realtime_setup(const RealtimeOptions& options,
                                    std::FILE* warnings = stderr) noexcept;

/// One line such as "realtime: SCHED_FIFO 80 yes, mlockall no (EPERM), affinity cpu 1 yes".
void print_realtime_report(const RealtimeReport& report, const RealtimeOptions& options,
                           std::FILE* out) noexcept;

}  // namespace posix
}  // namespace hodyn
