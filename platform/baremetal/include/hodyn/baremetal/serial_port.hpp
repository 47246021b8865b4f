// hodyn/baremetal/serial_port.hpp — the byte interface every UART driver of
// the runtime implements (CMSDK APB UART on MPS2, USART on STM32: polled on the
// H743, interrupt-driven on the F405).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hodyn {
namespace baremetal {

/// What an interrupt handler cost: core cycles inside it (SysTick time, so
/// not the hardware's entry and exit) and how often it ran.
struct InterruptLoad {
  std::uint64_t cycles = 0;
  std::uint32_t entries = 0;
};

class SerialPort {
 public:
  /// Sends all `size` bytes; blocks while the transmitter is full.
  virtual void write(const std::uint8_t* data, std::size_t size) noexcept = 0;
  /// Moves the bytes already received (at most `capacity`) into `buffer`
  /// without waiting; returns how many.
  virtual std::size_t read_available(std::uint8_t* buffer, std::size_t capacity) noexcept = 0;
  /// Receive overruns seen since the last call (bytes were lost), cleared.
  virtual std::uint32_t take_overrun_count() noexcept = 0;
  /// Core cycles spent in this port's interrupt handler and its entries since
  /// the last call, cleared; zeros for a polled port.
  virtual InterruptLoad take_interrupt_load() noexcept { return {}; }
  /// Core cycles spent in the interrupt handler since the last
  /// take_interrupt_load(), not cleared, modulo 2^32: the difference of two
  /// reads (taken modulo 2^32) is the handler's time between them, which a
  /// caller timing its own work leaves out (it is the interrupt's share).
  /// Zero for a polled port.
  virtual std::uint32_t interrupt_cycles_since_take() const noexcept { return 0; }

  void write(const char* text) noexcept;

 protected:
  SerialPort() = default;
  SerialPort(const SerialPort&) = default;
  SerialPort& operator=(const SerialPort&) = default;
  ~SerialPort() = default;  // never deleted through the interface
};

}  // namespace baremetal
}  // namespace hodyn
