// Connected pseudo-terminal pair (see hodyn/posix/serial_transport.hpp).
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "hodyn/posix/serial_transport.hpp"

namespace hodyn {
namespace posix {

void PtyPair::close() noexcept {
  slave_.close();
  master_.close();
  slave_path_[0] = '\0';
}

Status PtyPair::open(std::uint32_t baud) noexcept {
  close();
  if (!SerialTransport::is_supported_baud(baud)) return Status::kInvalidArgument;
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) {
    last_errno_ = errno;
    return Status::kInvalidArgument;
  }
  const int flags = fcntl(master, F_GETFL);
  bool ok = grantpt(master) == 0 && unlockpt(master) == 0 && flags >= 0 &&
            fcntl(master, F_SETFL, flags | O_NONBLOCK) == 0 &&
            fcntl(master, F_SETFD, FD_CLOEXEC) == 0;
#if defined(__linux__)
  ok = ok && ptsname_r(master, slave_path_, sizeof slave_path_) == 0;
#else
  const char* name = ok ? ptsname(master) : nullptr;
  ok = name != nullptr && std::strlen(name) < sizeof slave_path_;
  if (ok) std::strcpy(slave_path_, name);
#endif
  if (!ok) {
    last_errno_ = errno;
    ::close(master);
    slave_path_[0] = '\0';
    return Status::kInvalidArgument;
  }
  // The slave first, through the ordinary path, then the master.
  if (slave_.open(slave_path_, baud) != Status::kOk) {
    last_errno_ = slave_.last_errno();
    ::close(master);
    slave_path_[0] = '\0';
    return Status::kInvalidArgument;
  }
  if (master_.configure(master, baud) != Status::kOk) {
    last_errno_ = master_.last_errno();
    close();
    return Status::kInvalidArgument;
  }
  return Status::kOk;
}

}  // namespace posix
}  // namespace hodyn
