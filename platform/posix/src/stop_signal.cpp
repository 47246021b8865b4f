// SIGINT/SIGTERM -> StopFlag (see hodyn/posix/stop_signal.hpp).
#include "hodyn/posix/stop_signal.hpp"

#include <signal.h>

namespace hodyn {
namespace posix {

namespace {
std::atomic<StopFlag*> g_stop_flag{nullptr};
static_assert(std::atomic<StopFlag*>::is_always_lock_free,
              "signal handler needs a lock-free pointer");

extern "C" void hodyn_posix_stop_handler(int /*signal*/) {
  StopFlag* flag = g_stop_flag.load(std::memory_order_relaxed);
  if (flag != nullptr) flag->request_stop();
}

bool set_action(int signal_number, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: interrupted sleeps return at once
  return sigaction(signal_number, &action, nullptr) == 0;
}
}  // namespace

Status install_stop_signal_handlers(StopFlag& flag) noexcept {
  g_stop_flag.store(&flag, std::memory_order_relaxed);
  if (!set_action(SIGINT, hodyn_posix_stop_handler) ||
      !set_action(SIGTERM, hodyn_posix_stop_handler)) {
    return Status::kInvalidArgument;
  }
  return Status::kOk;
}

void restore_default_signal_handlers() noexcept {
  set_action(SIGINT, SIG_DFL);
  set_action(SIGTERM, SIG_DFL);
  g_stop_flag.store(nullptr, std::memory_order_relaxed);
}

}  // namespace posix
}  // namespace hodyn
