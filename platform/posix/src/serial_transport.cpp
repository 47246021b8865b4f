// Serial-line transport in raw 8N1 mode (see hodyn/posix/serial_transport.hpp).
#include "hodyn/posix/serial_transport.hpp"

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "hodyn/posix/periodic_loop.hpp"
#include "poll_wait.hpp"

namespace hodyn {
namespace posix {

namespace {

struct BaudRate {
  std::uint32_t baud;
  speed_t speed;
};

// 9600 baud and up, as far as this termios defines them.
constexpr BaudRate kBaudRates[] = {
    {9600, B9600},       {19200, B19200},   {38400, B38400},
    {57600, B57600},     {115200, B115200}, {230400, B230400},
#ifdef B460800
    {460800, B460800},
#endif
#ifdef B500000
    {500000, B500000},
#endif
#ifdef B576000
    {576000, B576000},
#endif
#ifdef B921600
    {921600, B921600},
#endif
#ifdef B1000000
    {1000000, B1000000},
#endif
#ifdef B1152000
    {1152000, B1152000},
#endif
#ifdef B1500000
    {1500000, B1500000},
#endif
#ifdef B2000000
    {2000000, B2000000},
#endif
#ifdef B2500000
    {2500000, B2500000},
#endif
#ifdef B3000000
    {3000000, B3000000},
#endif
#ifdef B3500000
    {3500000, B3500000},
#endif
#ifdef B4000000
    {4000000, B4000000},
#endif
};

bool speed_of(std::uint32_t baud, speed_t& speed) {
  for (const BaudRate& rate : kBaudRates) {
    if (rate.baud == baud) {
      speed = rate.speed;
      return true;
    }
  }
  return false;
}

// cfmakeraw, spelled out (it is not POSIX): 8N1, receiver on, modem lines
// ignored, no flow control, no input/output processing, no echo, no signals.
void make_raw(termios& t) {
  t.c_iflag &= ~static_cast<tcflag_t>(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL |
                                      IXON | IXOFF | IXANY);
  t.c_oflag &= ~static_cast<tcflag_t>(OPOST);
  t.c_lflag &= ~static_cast<tcflag_t>(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
  t.c_cflag &= ~static_cast<tcflag_t>(CSIZE | PARENB | CSTOPB);
#ifdef CRTSCTS
  t.c_cflag &= ~static_cast<tcflag_t>(CRTSCTS);
#endif
  t.c_cflag |= CS8 | CREAD | CLOCAL;
  t.c_cc[VMIN] = 1;
  t.c_cc[VTIME] = 0;
}

}  // namespace

bool SerialTransport::is_supported_baud(std::uint32_t baud) noexcept {
  speed_t speed{};
  return speed_of(baud, speed);
}

SerialTransport::~SerialTransport() { close(); }

void SerialTransport::close() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  baud_ = 0;
}

Status SerialTransport::open(const char* path, std::uint32_t baud) noexcept {
  close();
  if (path == nullptr || !is_supported_baud(baud)) return Status::kInvalidArgument;
  const int fd = ::open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    last_errno_ = errno;
    return Status::kInvalidArgument;
  }
  return configure(fd, baud);
}

Status SerialTransport::configure(int fd, std::uint32_t baud) noexcept {
  close();
  speed_t speed{};
  termios settings{};
  if (!speed_of(baud, speed)) {
    ::close(fd);
    return Status::kInvalidArgument;
  }
  if (tcgetattr(fd, &settings) != 0) {  // ENOTTY: not a terminal
    last_errno_ = errno;
    ::close(fd);
    return Status::kInvalidArgument;
  }
  make_raw(settings);
  if (cfsetispeed(&settings, speed) != 0 || cfsetospeed(&settings, speed) != 0 ||
      tcsetattr(fd, TCSANOW, &settings) != 0) {
    last_errno_ = errno;
    ::close(fd);
    return Status::kInvalidArgument;
  }
  tcflush(fd, TCIOFLUSH);
  fd_ = fd;
  baud_ = baud;
  return Status::kOk;
}

Status SerialTransport::send(const std::uint8_t* data, std::size_t size) noexcept {
  if (data == nullptr || size == 0) return Status::kInvalidArgument;
  if (fd_ < 0) return Status::kNotConfigured;
  std::size_t done = 0;
  std::int64_t deadline_ns = -1;  // set at the first full queue
  while (done < size) {
    const ssize_t written = ::write(fd_, data + done, size - done);
    if (written > 0) {
      done += static_cast<std::size_t>(written);
      continue;
    }
    if (written < 0 && errno == EINTR) continue;
    if (written < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
      last_errno_ = errno;
      return Status::kStaleInput;
    }
    const std::int64_t now = monotonic_now_ns();
    if (deadline_ns < 0) deadline_ns = now + send_timeout_us_ * 1000;
    if (now >= deadline_ns) {
      last_errno_ = EAGAIN;
      return Status::kStaleInput;
    }
    if (detail::wait_for(fd_, POLLOUT, std::max<std::int64_t>(1, (deadline_ns - now) / 1000)) < 0) {
      last_errno_ = errno;
      return Status::kStaleInput;
    }
  }
  return Status::kOk;
}

Status SerialTransport::receive(std::uint8_t* buffer, std::size_t capacity, std::size_t& received,
                                std::int64_t timeout_us) noexcept {
  received = 0;
  if (buffer == nullptr || capacity == 0) return Status::kInvalidArgument;
  if (fd_ < 0) return Status::kNotConfigured;

  const int events = detail::wait_for(fd_, POLLIN, timeout_us);
  if (events == 0) return Status::kOk;
  if (events < 0) {
    last_errno_ = errno;
    return Status::kStaleInput;
  }
  ssize_t got = 0;
  do {
    got = ::read(fd_, buffer, capacity);
  } while (got < 0 && errno == EINTR);
  if (got > 0) {
    received = static_cast<std::size_t>(got);
    return Status::kOk;
  }
  if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return Status::kOk;
  last_errno_ = got < 0 ? errno : EIO;  // 0 bytes after POLLIN, or EIO: hung up
  return Status::kStaleInput;
}

}  // namespace posix
}  // namespace hodyn
