// hodyn/posix/serial_transport.hpp — the HIL link over a serial line (a UART
// tty such as /dev/ttyAMA0 or /dev/ttyUSB0, or a pseudo-terminal), and
// PtyPair, a connected pseudo-terminal pair for running the link without
// hardware.
//
// The line is put in raw mode, 8N1: no echo, no canonical (line) input, no
// signals, no CR/LF translation, no software or hardware flow control; every
// byte 0x00..0xFF passes unchanged. A serial line is a byte stream: receive()
// returns whatever bytes have arrived (frame boundaries are the protocol
// layer's job). After open() nothing allocates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/link/transport.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace posix {

class SerialTransport final : public link::Transport {
 public:
  /// send() waits for room in the output queue at most this long in all, by
  /// default (set_send_timeout_us()).
  static constexpr std::int64_t kDefaultSendTimeoutUs = 10'000;

  SerialTransport() noexcept = default;
  ~SerialTransport();
  SerialTransport(const SerialTransport&) = delete;
  SerialTransport& operator=(const SerialTransport&) = delete;

  /// True for the rates this build of termios supports from 9600 baud up:
  /// 9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000,
  /// 921600 and, where defined, 1000000 .. 4000000.
  static bool is_supported_baud(std::uint32_t baud) noexcept;

  /// Opens `path` (non-blocking, not as controlling terminal), sets raw 8N1 at
  /// `baud` and flushes both queues. kInvalidArgument for an unsupported baud,
  /// a path that cannot be opened or is not a terminal (errno in last_errno()).
  Status open(const char* path, std::uint32_t baud) noexcept;
  /// Closes the line (also done by the destructor).
  void close() noexcept;

  bool is_open() const noexcept { return fd_ >= 0; }
  int file_descriptor() const noexcept { return fd_; }
  std::uint32_t baud() const noexcept { return baud_; }
  /// errno of the last failed system call (0: none yet).
  int last_errno() const noexcept { return last_errno_; }

  /// How long send() may wait in all for room in the output queue (a slow
  /// reader on the far end: a pty's reader descheduled on a busy machine).
  /// Values below 0 count as 0. A lockstep HIL run, where every frame is
  /// awaited, gives the reader up to a second instead of losing the frame.
  void set_send_timeout_us(std::int64_t timeout_us) noexcept {
    send_timeout_us_ = timeout_us < 0 ? 0 : timeout_us;
  }
  std::int64_t send_timeout_us() const noexcept { return send_timeout_us_; }

  /// Writes all `size` bytes; on a full output queue waits (poll) for room,
  /// at most send_timeout_us() in all. kOk; kInvalidArgument for null
  /// data or size 0; kNotConfigured when not open; kStaleInput when the bytes
  /// could not all be written in that time (a partial write is possible —
  /// the framing layer resynchronises) or the line is gone.
  Status send(const std::uint8_t* data, std::size_t size) noexcept override;

  /// Reads the bytes available (up to `capacity`), waiting at most
  /// `timeout_us` (0: just poll) for the first one. `received` is 0 on a
  /// timeout (kOk). kInvalidArgument for a null buffer or capacity 0;
  /// kNotConfigured when not open; kStaleInput when the line hung up (e.g.
  /// the other end of a pty was closed).
  Status receive(std::uint8_t* buffer, std::size_t capacity, std::size_t& received,
                 std::int64_t timeout_us) noexcept override;

 private:
  friend class PtyPair;
  Status configure(int fd, std::uint32_t baud) noexcept;  // takes ownership of fd

  int fd_ = -1;
  std::uint32_t baud_ = 0;
  int last_errno_ = 0;
  std::int64_t send_timeout_us_ = kDefaultSendTimeoutUs;
};

/// A connected pseudo-terminal pair, both ends raw: bytes sent on
/// master_end() arrive on slave_end() and the other way round.
///
/// For two processes (e.g. the HIL pair without hardware): the first creates
/// the pair, uses master_end() and publishes slave_path(); the second opens
/// that path with SerialTransport::open(). slave_end() stays open here so the
/// master never sees a hang-up while the second process is not (yet)
/// attached — do not read from it in that setup, or the two readers split
/// the bytes.
class PtyPair {
 public:
  PtyPair() noexcept = default;
  PtyPair(const PtyPair&) = delete;
  PtyPair& operator=(const PtyPair&) = delete;

  /// posix_openpt, grantpt, unlockpt, ptsname; opens the slave; both ends raw
  /// at `baud` (a pty ignores the rate, but it is validated). kInvalidArgument
  /// on failure (errno in last_errno()).
  Status open(std::uint32_t baud = 115200) noexcept;
  void close() noexcept;

  bool is_open() const noexcept { return master_.is_open(); }
  SerialTransport& master_end() noexcept { return master_; }
  SerialTransport& slave_end() noexcept { return slave_; }
  /// The slave's device path (e.g. "/dev/pts/3"); "" when closed.
  const char* slave_path() const noexcept { return slave_path_; }
  int last_errno() const noexcept { return last_errno_; }

 private:
  SerialTransport master_;
  SerialTransport slave_;
  char slave_path_[64] = {};
  int last_errno_ = 0;
};

}  // namespace posix
}  // namespace hodyn
