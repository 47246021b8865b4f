// UDP/IPv4 transport (see hodyn/posix/udp_transport.hpp).
#include "hodyn/posix/udp_transport.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "poll_wait.hpp"

namespace hodyn {
namespace posix {

namespace {

// Resolves a dotted IPv4 address or a host name to an address in network
// byte order. getaddrinfo allocates, which is fine here: only open() and
// set_remote() call this.
bool resolve_ipv4(const char* host, std::uint32_t& address) {
  if (host == nullptr) return false;
  in_addr parsed{};
  if (inet_pton(AF_INET, host, &parsed) == 1) {
    address = parsed.s_addr;
    return true;
  }
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* result = nullptr;
  if (getaddrinfo(host, nullptr, &hints, &result) != 0 || result == nullptr) return false;
  address = reinterpret_cast<const sockaddr_in*>(result->ai_addr)->sin_addr.s_addr;
  freeaddrinfo(result);
  return true;
}

// The local address the kernel would send to `remote`:`port` from (its route
// lookup): connect() on a UDP socket sends nothing, getsockname() tells.
bool route_source(std::uint32_t remote, std::uint16_t port, std::uint32_t& source, int& error) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = errno;
    return false;
  }
  sockaddr_in peer{};
  peer.sin_family = AF_INET;
  peer.sin_port = htons(port);
  peer.sin_addr.s_addr = remote;
  sockaddr_in local{};
  socklen_t length = sizeof local;
  const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&peer), sizeof peer) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0;
  if (!ok) error = errno;
  ::close(fd);
  if (ok) source = local.sin_addr.s_addr;
  return ok;
}

std::int64_t now_us() noexcept {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000 + t.tv_nsec / 1000;
}

}  // namespace

UdpTransport::~UdpTransport() { close(); }

void UdpTransport::close() noexcept {
  if (socket_ >= 0) ::close(socket_);
  socket_ = -1;
  local_port_ = 0;
  local_address_ = 0;
  remote_port_ = 0;
  remote_address_ = 0;
}

Status UdpTransport::set_remote(const char* remote_host, std::uint16_t remote_port) noexcept {
  std::uint32_t address = 0;
  if (remote_port != 0 && !resolve_ipv4(remote_host, address)) return Status::kInvalidArgument;
  remote_address_ = address;
  remote_port_ = remote_port;
  return Status::kOk;
}

Status UdpTransport::open(std::uint16_t local_port, const char* remote_host,
                          std::uint16_t remote_port, const char* local_address) noexcept {
  close();
  if (set_remote(remote_host, remote_port) != Status::kOk) return Status::kInvalidArgument;
  std::uint32_t bind_address = 0;  // 0.0.0.0
  if (local_address != nullptr) {
    if (!resolve_ipv4(local_address, bind_address)) {
      remote_port_ = 0;
      return Status::kInvalidArgument;
    }
  } else if (remote_port_ != 0 &&
             !route_source(remote_address_, remote_port_, bind_address, last_errno_)) {
    remote_port_ = 0;  // no route to the peer
    return Status::kInvalidArgument;
  }

  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    last_errno_ = errno;
    return Status::kInvalidArgument;
  }
  sockaddr_in local{};
  local.sin_family = AF_INET;
  local.sin_port = htons(local_port);
  local.sin_addr.s_addr = bind_address;
  socklen_t length = sizeof local;
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&local), sizeof local) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) != 0) {
    last_errno_ = errno;
    ::close(fd);
    remote_port_ = 0;
    return Status::kInvalidArgument;
  }
  socket_ = fd;
  local_port_ = ntohs(local.sin_port);
  local_address_ = local.sin_addr.s_addr;
  return Status::kOk;
}

Status UdpTransport::send(const std::uint8_t* data, std::size_t size) noexcept {
  if (data == nullptr || size == 0 || size > kMaxDatagramSize) return Status::kInvalidArgument;
  if (socket_ < 0 || remote_port_ == 0) return Status::kNotConfigured;
  sockaddr_in remote{};
  remote.sin_family = AF_INET;
  remote.sin_port = htons(remote_port_);
  remote.sin_addr.s_addr = remote_address_;
  ssize_t sent = 0;
  do {
    sent = ::sendto(socket_, data, size, MSG_DONTWAIT, reinterpret_cast<const sockaddr*>(&remote),
                    sizeof remote);
  } while (sent < 0 && errno == EINTR);
  if (sent < 0) {
    last_errno_ = errno;
    return Status::kStaleInput;
  }
  return static_cast<std::size_t>(sent) == size ? Status::kOk : Status::kStaleInput;
}

Status UdpTransport::receive(std::uint8_t* buffer, std::size_t capacity, std::size_t& received,
                             std::int64_t timeout_us) noexcept {
  received = 0;
  if (buffer == nullptr || capacity == 0) return Status::kInvalidArgument;
  if (socket_ < 0) return Status::kNotConfigured;

  const std::int64_t deadline = timeout_us > 0 ? now_us() + timeout_us : 0;
  for (int foreign = 0; foreign < kMaxForeignPerReceive;) {
    const std::int64_t wait = timeout_us > 0 ? deadline - now_us() : 0;
    const int events = detail::wait_for(socket_, POLLIN, wait);
    if (events == 0) return Status::kOk;
    if (events < 0) {
      last_errno_ = errno;
      return Status::kStaleInput;
    }

    sockaddr_in sender{};
    iovec chunk{buffer, capacity};
    msghdr message{};
    message.msg_name = &sender;
    message.msg_namelen = sizeof sender;
    message.msg_iov = &chunk;
    message.msg_iovlen = 1;
    ssize_t got = 0;
    do {
      got = ::recvmsg(socket_, &message, MSG_DONTWAIT);
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return Status::kOk;  // raced away: a timeout
      last_errno_ = errno;
      return Status::kStaleInput;
    }
    const bool from_peer = remote_port_ != 0 && sender.sin_family == AF_INET &&
                           sender.sin_addr.s_addr == remote_address_ &&
                           ntohs(sender.sin_port) == remote_port_;
    if (!from_peer) {  // dropped unseen: only the peer talks to us
      ++rejected_foreign_;
      ++foreign;
      continue;
    }
    received = static_cast<std::size_t>(got);
    last_sender_port_ = ntohs(sender.sin_port);
    return (message.msg_flags & MSG_TRUNC) != 0 ? Status::kCorruptInput : Status::kOk;
  }
  return Status::kOk;  // a burst of others' datagrams: nothing of the peer's yet
}

}  // namespace posix
}  // namespace hodyn
