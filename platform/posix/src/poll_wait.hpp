// Internal: waiting on one file descriptor with a microsecond timeout.
#pragma once

#include <poll.h>

#include <cerrno>
#include <cstdint>
#include <ctime>

namespace hodyn {
namespace posix {
namespace detail {

/// Waits until `fd` has one of `events`, at most `timeout_us` (<= 0: just
/// check). Returns the revents (0 on a timeout or when a signal interrupted
/// the wait), or -1 on an error (errno set). ppoll on Linux for microsecond
/// resolution, poll (milliseconds, rounded up) elsewhere.
inline int wait_for(int fd, short events, std::int64_t timeout_us) noexcept {
  pollfd entry{};
  entry.fd = fd;
  entry.events = events;
  const std::int64_t wait_us = timeout_us < 0 ? 0 : timeout_us;
#if defined(__linux__)
  timespec timeout{};
  timeout.tv_sec = static_cast<time_t>(wait_us / 1'000'000);
  timeout.tv_nsec = static_cast<long>((wait_us % 1'000'000) * 1000);
  const int ready = ppoll(&entry, 1, &timeout, nullptr);
#else
  const int ready = poll(&entry, 1, static_cast<int>((wait_us + 999) / 1000));
#endif
  if (ready < 0) return errno == EINTR ? 0 : -1;
  return ready == 0 ? 0 : entry.revents;
}

}  // namespace detail
}  // namespace posix
}  // namespace hodyn
