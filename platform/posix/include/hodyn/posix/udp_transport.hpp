// hodyn/posix/udp_transport.hpp — the HIL link over UDP/IPv4.
//
//   UdpTransport link;
//   link.open(9000, "192.168.1.20", 9001);   // bind local port, send to the peer
//   link.send(frame, size);                  // non-blocking; never waits
//   link.receive(buffer, sizeof buffer, n, 500);  // waits at most 500 µs
//
// One send() is one datagram, one receive() returns one datagram. Only the
// peer may talk to us: a datagram from any other address or port is dropped
// and counted (rejected_foreign()), never returned. By default the socket is
// bound to the local address the peer is reached through (the kernel's route
// to it: 127.0.0.1 for a loopback peer), so it is not even reachable from
// other interfaces; open()'s `local_address` overrides that ("0.0.0.0": every
// interface). No SO_REUSEADDR, so a port that is already in use is reported
// by open(). After open() nothing allocates. docs/link-security.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/link/transport.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace posix {

class UdpTransport final : public link::Transport {
 public:
  /// Largest datagram sent or received: an Ethernet MTU of 1500 bytes minus
  /// the IPv4 and UDP headers, so a datagram is never fragmented.
  static constexpr std::size_t kMaxDatagramSize = 1472;

  UdpTransport() noexcept = default;
  ~UdpTransport();
  UdpTransport(const UdpTransport&) = delete;
  UdpTransport& operator=(const UdpTransport&) = delete;

  /// Most datagrams from others one receive() drops before it returns (with
  /// nothing, as a timeout): a flood cannot keep it from returning.
  static constexpr int kMaxForeignPerReceive = 64;

  /// Binds `local_address`:`local_port` (port 0: any free port, see
  /// local_port()) and sets the peer to `remote_host`:`remote_port`
  /// (a dotted IPv4 address or a host name resolved once here; port 0: no peer
  /// yet, set it with set_remote()). `local_address` null: the address the
  /// peer is reached through (0.0.0.0 without a peer). kInvalidArgument on a
  /// bad address, no route to the peer or a failed socket/bind (errno in
  /// last_errno(), e.g. EADDRINUSE, ENETUNREACH).
  Status open(std::uint16_t local_port, const char* remote_host, std::uint16_t remote_port,
              const char* local_address = nullptr) noexcept;
  /// Changes the peer (datagrams of the old one are foreign from now on).
  /// kInvalidArgument on a bad address.
  Status set_remote(const char* remote_host, std::uint16_t remote_port) noexcept;
  /// Closes the socket (also done by the destructor).
  void close() noexcept;

  bool is_open() const noexcept { return socket_ >= 0; }
  /// The bound local port (useful after open() with port 0); 0 when closed.
  std::uint16_t local_port() const noexcept { return local_port_; }
  /// The bound local IPv4 address (network byte order); 0 for 0.0.0.0 or closed.
  std::uint32_t local_address() const noexcept { return local_address_; }
  /// Source port of the last datagram received from the peer.
  std::uint16_t last_sender_port() const noexcept { return last_sender_port_; }
  /// Datagrams dropped because they came from another address or port than
  /// the peer's (or before a peer was set).
  std::uint64_t rejected_foreign() const noexcept { return rejected_foreign_; }
  /// errno of the last failed system call (0: none yet).
  int last_errno() const noexcept { return last_errno_; }

  /// Sends one datagram without waiting. kOk; kInvalidArgument for null data,
  /// size 0 or above kMaxDatagramSize; kNotConfigured when not open or no
  /// peer; kStaleInput when the socket cannot take it now (EAGAIN, a refused
  /// or unreachable peer — the datagram is dropped, errno in last_errno()).
  Status send(const std::uint8_t* data, std::size_t size) noexcept override;

  /// Receives one datagram of the peer, waiting at most `timeout_us` (0: just
  /// poll); others' are dropped and counted meanwhile (at most
  /// kMaxForeignPerReceive per call). `received` is 0 on a timeout (kOk).
  /// kCorruptInput when the datagram was
  /// longer than `capacity` (its tail is lost, `received` = capacity);
  /// kInvalidArgument for a null buffer or capacity 0; kNotConfigured when
  /// not open; kStaleInput on a socket error.
  Status receive(std::uint8_t* buffer, std::size_t capacity, std::size_t& received,
                 std::int64_t timeout_us) noexcept override;

 private:
  int socket_ = -1;
  std::uint32_t remote_address_ = 0;  // network byte order
  std::uint16_t remote_port_ = 0;     // host byte order, 0: none
  std::uint16_t local_port_ = 0;
  std::uint32_t local_address_ = 0;  // network byte order
  std::uint16_t last_sender_port_ = 0;
  std::uint64_t rejected_foreign_ = 0;
  int last_errno_ = 0;
};

}  // namespace posix
}  // namespace hodyn
