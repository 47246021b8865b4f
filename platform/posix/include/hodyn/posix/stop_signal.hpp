// hodyn/posix/stop_signal.hpp — a stop request that a signal handler, another
// thread or the loop's own callback can raise, and SIGINT/SIGTERM helpers.
#pragma once

#include <atomic>

#include "hodyn/status.hpp"

namespace hodyn {
namespace posix {

/// A flag that is safe to set from a signal handler (lock-free atomic).
class StopFlag {
 public:
  static_assert(std::atomic<bool>::is_always_lock_free,
                "StopFlag must be async-signal-safe (lock-free std::atomic<bool>)");

  void request_stop() noexcept { stop_.store(true, std::memory_order_relaxed); }
  bool stop_requested() const noexcept { return stop_.load(std::memory_order_relaxed); }
  void clear() noexcept { stop_.store(false, std::memory_order_relaxed); }

 private:
  std::atomic<bool> stop_{false};
};

/// Installs handlers for SIGINT and SIGTERM that call `flag.request_stop()`.
/// The handlers do not restart interrupted calls, so a loop sleeping in
/// clock_nanosleep wakes up at once. One flag at a time (a later call replaces
/// the earlier one). kInvalidArgument if sigaction fails.
Status install_stop_signal_handlers(StopFlag& flag) noexcept;

/// Restores the default actions of SIGINT and SIGTERM and forgets the flag.
void restore_default_signal_handlers() noexcept;

}  // namespace posix
}  // namespace hodyn
