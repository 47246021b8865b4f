// hodyn/baremetal/console.hpp — heap-free text output without printf (newlib's
// printf family can pull in malloc, which the firmware's link forbids).
//
// A Console formats into a line buffer and hands complete lines (or a full
// buffer) to its sink: semihosting (tests under QEMU, a debug probe) or a
// SerialPort (a real board on its own).
//
//   Console& out = semihosting_console();
//   out.print("error ").print_scientific(1.5e-12).print(" after ").print(n).print("\n");
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/baremetal/serial_port.hpp"

namespace hodyn {
namespace baremetal {

class Console {
 public:
  using Sink = void (*)(void* context, const char* data, std::size_t size);
  static constexpr std::size_t kLineCapacity = 128;

  constexpr Console(Sink sink, void* context) noexcept : sink_(sink), context_(context) {}

  Console& print(const char* text) noexcept;
  Console& print(char c) noexcept;
  Console& print(long long value) noexcept;
  Console& print(unsigned long long value) noexcept;
  Console& print(int value) noexcept { return print(static_cast<long long>(value)); }
  Console& print(long value) noexcept { return print(static_cast<long long>(value)); }
  Console& print(unsigned value) noexcept { return print(static_cast<unsigned long long>(value)); }
  Console& print(unsigned long value) noexcept {
    return print(static_cast<unsigned long long>(value));
  }
  /// 0x-prefixed, `digits` hex digits.
  Console& print_hex(std::uint32_t value, int digits = 8) noexcept;
  /// d.ddde±xx with `significant` digits (1..9); nan, inf, -inf spelled out.
  Console& print_scientific(double value, int significant = 3) noexcept;
  /// Hands what is buffered to the sink.
  void flush() noexcept;

 private:
  void put(char c) noexcept;
  Sink sink_;
  void* context_;
  char line_[kLineCapacity + 1] = {};
  std::size_t used_ = 0;
};

/// The console on semihosting (SYS_WRITE0).
Console& semihosting_console() noexcept;

/// A console on a serial port ("\n" goes out as "\r\n"). One per port; the
/// returned object lives in static storage provided by the caller's
/// ConsoleOnSerial.
class ConsoleOnSerial {
 public:
  explicit ConsoleOnSerial(SerialPort& port) noexcept : console_(&ConsoleOnSerial::emit, &port) {}
  Console& console() noexcept { return console_; }

 private:
  static void emit(void* context, const char* data, std::size_t size) noexcept;
  Console console_;
};

}  // namespace baremetal
}  // namespace hodyn
