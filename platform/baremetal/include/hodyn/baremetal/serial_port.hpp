// hodyn/baremetal/serial_port.hpp — the byte interface every UART driver of
// the runtime implements (CMSDK APB UART on MPS2, USART on STM32).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hodyn {
namespace baremetal {

class SerialPort {
 public:
  /// Sends all `size` bytes; blocks while the transmitter is full.
  virtual void write(const std::uint8_t* data, std::size_t size) noexcept = 0;
  /// Moves the bytes already received (at most `capacity`) into `buffer`
  /// without waiting; returns how many.
  virtual std::size_t read_available(std::uint8_t* buffer, std::size_t capacity) noexcept = 0;
  /// Receive overruns seen since the last call (bytes were lost), cleared.
  virtual std::uint32_t take_overrun_count() noexcept = 0;

  void write(const char* text) noexcept;

 protected:
  SerialPort() = default;
  SerialPort(const SerialPort&) = default;
  SerialPort& operator=(const SerialPort&) = default;
  ~SerialPort() = default;  // never deleted through the interface
};

}  // namespace baremetal
}  // namespace hodyn
