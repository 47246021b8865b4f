// hodyn/posix/udp_transport.hpp — the HIL link over UDP/IPv4.
//
//   UdpTransport link;
//   link.open(9000, "192.168.1.20", 9001);   // bind local port, send to the peer
//   link.send(frame, size);                  // non-blocking; never waits
//   link.receive(buffer, sizeof buffer, n, 500);  // waits at most 500 µs
//
// One send() is one datagram, one receive() returns one datagram. The socket
// is not connected: it accepts datagrams from any sender (last_sender_port()
// tells who sent the last one). No SO_REUSEADDR, so a port that is already in
// use is reported by open(). After open() nothing allocates.
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

  /// Binds `local_address`:`local_port` (port 0: any free port, see
  /// local_port()) and sets the peer to `remote_host`:`remote_port`
  /// (a dotted IPv4 address or a host name resolved once here; port 0: no peer
  /// yet, set it with set_remote()). kInvalidArgument on a bad address or a
  /// failed socket/bind (errno in last_errno(), e.g. EADDRINUSE).
  Status open(std::uint16_t local_port, const char* remote_host, std::uint16_t remote_port,
              const char* local_address = "0.0.0.0") noexcept;
  /// Changes the peer. kInvalidArgument on a bad address.
  Status set_remote(const char* remote_host, std::uint16_t remote_port) noexcept;
  /// Closes the socket (also done by the destructor).
  void close() noexcept;

  bool is_open() const noexcept { return socket_ >= 0; }
  /// The bound local port (useful after open() with port 0); 0 when closed.
  std::uint16_t local_port() const noexcept { return local_port_; }
  /// Source port of the last datagram received.
  std::uint16_t last_sender_port() const noexcept { return last_sender_port_; }
  /// errno of the last failed system call (0: none yet).
  int last_errno() const noexcept { return last_errno_; }

  /// Sends one datagram without waiting. kOk; kInvalidArgument for null data,
  /// size 0 or above kMaxDatagramSize; kNotConfigured when not open or no
  /// peer; kStaleInput when the socket cannot take it now (EAGAIN, a refused
  /// or unreachable peer — the datagram is dropped, errno in last_errno()).
  Status send(const std::uint8_t* data, std::size_t size) noexcept override;

  /// Receives one datagram, waiting at most `timeout_us` (0: just poll).
  /// `received` is 0 on a timeout (kOk). kCorruptInput when the datagram was
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
  std::uint16_t last_sender_port_ = 0;
  int last_errno_ = 0;
};

}  // namespace posix
}  // namespace hodyn
