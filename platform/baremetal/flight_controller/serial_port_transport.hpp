// serial_port_transport.hpp — the HIL link's Transport (hodyn/link/transport.hpp)
// over a bare-metal SerialPort (the CMSDK UART on MPS2, the USART on STM32).
//
// Polling: receive() drains what the UART holds and returns at once when
// something arrived; with nothing it polls until the timeout (SysTick time).
// A receive overrun (a byte lost because the CPU did not read it in time) is
// counted; the frame it cut is then rejected by the parser (CRC/COBS) and the
// next delimiter resynchronizes, as on any lossy link.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/baremetal/serial_port.hpp"
#include "hodyn/baremetal/systick.hpp"
#include "hodyn/link/transport.hpp"

namespace hodyn {
namespace firmware {

class SerialPortTransport final : public link::Transport {
 public:
  explicit SerialPortTransport(baremetal::SerialPort& port) noexcept : port_(port) {}

  Status send(const std::uint8_t* data, std::size_t size) noexcept override {
    if (data == nullptr && size > 0) return Status::kInvalidArgument;
    port_.write(data, size);
    bytes_sent_ += size;
    return Status::kOk;
  }

  Status receive(std::uint8_t* buffer, std::size_t capacity, std::size_t& received,
                 std::int64_t timeout_us) noexcept override {
    received = 0;
    if (buffer == nullptr || capacity == 0) return Status::kInvalidArgument;
    const std::uint64_t start = timeout_us > 0 ? baremetal::micros() : 0u;
    for (;;) {
      received += port_.read_available(buffer + received, capacity - received);
      overruns_ += port_.take_overrun_count();
      if (received > 0 || timeout_us <= 0) break;
      if (baremetal::micros() - start >= static_cast<std::uint64_t>(timeout_us)) break;
    }
    bytes_received_ += received;
    return Status::kOk;
  }

  std::uint64_t bytes_sent() const noexcept { return bytes_sent_; }
  std::uint64_t bytes_received() const noexcept { return bytes_received_; }
  std::uint64_t overruns() const noexcept { return overruns_; }

 private:
  baremetal::SerialPort& port_;
  std::uint64_t bytes_sent_ = 0;
  std::uint64_t bytes_received_ = 0;
  std::uint64_t overruns_ = 0;
};

}  // namespace firmware
}  // namespace hodyn
