// platform/baremetal/src/console.cpp — number formatting by hand (no printf,
// no heap) and the line buffer.
#include "hodyn/baremetal/console.hpp"

#include <cmath>

#include "hodyn/baremetal/semihosting.hpp"

namespace hodyn {
namespace baremetal {

void Console::put(char c) noexcept {
  line_[used_++] = c;
  if (c == '\n' || used_ == kLineCapacity) flush();
}

void Console::flush() noexcept {
  if (used_ == 0) return;
  line_[used_] = '\0';
  sink_(context_, line_, used_);
  used_ = 0;
}

Console& Console::print(const char* text) noexcept {
  if (text == nullptr) text = "(null)";
  for (; *text != '\0'; ++text) put(*text);
  return *this;
}

Console& Console::print(char c) noexcept {
  put(c);
  return *this;
}

Console& Console::print(unsigned long long value) noexcept {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10u);
    value /= 10u;
  } while (value != 0u);
  while (n > 0) put(digits[--n]);
  return *this;
}

Console& Console::print(long long value) noexcept {
  if (value < 0) {
    put('-');
    // Two's complement: the magnitude of LLONG_MIN fits an unsigned long long.
    return print(0ull - static_cast<unsigned long long>(value));
  }
  return print(static_cast<unsigned long long>(value));
}

Console& Console::print_hex(std::uint32_t value, int digits) noexcept {
  static constexpr char kHex[] = "0123456789abcdef";
  if (digits < 1) digits = 1;
  if (digits > 8) digits = 8;
  put('0');
  put('x');
  for (int i = digits - 1; i >= 0; --i) put(kHex[(value >> (4 * i)) & 0xFu]);
  return *this;
}

Console& Console::print_scientific(double value, int significant) noexcept {
  if (std::isnan(value)) return print("nan");
  if (value < 0.0 || (value == 0.0 && std::signbit(value))) {
    put('-');
    value = -value;
  }
  if (std::isinf(value)) return print("inf");
  if (significant < 1) significant = 1;
  if (significant > 9) significant = 9;
  int exponent = 0;
  unsigned long long mantissa = 0;  // `significant` digits
  unsigned long long limit = 1;
  for (int i = 0; i < significant; ++i) limit *= 10u;
  if (value != 0.0) {
    exponent = static_cast<int>(std::floor(std::log10(value)));
    // value / 10^exponent in [1, 10), scaled to `significant` digits, rounded.
    double scaled = value * std::pow(10.0, significant - 1 - exponent);
    mantissa = static_cast<unsigned long long>(std::llround(scaled));
    if (mantissa >= limit) {  // rounding (or log10) carried into one more digit
      mantissa = (mantissa + 5u) / 10u;
      ++exponent;
    } else if (mantissa < limit / 10u) {
      scaled *= 10.0;
      mantissa = static_cast<unsigned long long>(std::llround(scaled));
      --exponent;
    }
  }
  char digits[12];
  for (int i = significant - 1; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + mantissa % 10u);
    mantissa /= 10u;
  }
  put(digits[0]);
  if (significant > 1) {
    put('.');
    for (int i = 1; i < significant; ++i) put(digits[i]);
  }
  put('e');
  put(exponent < 0 ? '-' : '+');
  const int magnitude = exponent < 0 ? -exponent : exponent;
  if (magnitude < 10) put('0');
  return print(magnitude);
}

namespace {
void semihosting_sink(void*, const char* data, std::size_t) noexcept { semihosting::write0(data); }
}  // namespace

Console& semihosting_console() noexcept {
  static Console console(&semihosting_sink, nullptr);
  return console;
}

void ConsoleOnSerial::emit(void* context, const char* data, std::size_t size) noexcept {
  SerialPort& port = *static_cast<SerialPort*>(context);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      static constexpr std::uint8_t kCrLf[2] = {'\r', '\n'};
      port.write(kCrLf, 2);
    } else {
      port.write(reinterpret_cast<const std::uint8_t*>(data + i), 1);
    }
  }
}

void SerialPort::write(const char* text) noexcept {
  std::size_t n = 0;
  while (text[n] != '\0') ++n;
  write(reinterpret_cast<const std::uint8_t*>(text), n);
}

}  // namespace baremetal
}  // namespace hodyn
