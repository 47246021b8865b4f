// platform/baremetal/examples/hello.cpp — the smallest hodyn firmware: a line
// over semihosting, a line over the board's UART, the SysTick time base
// running, the stack high-water mark; exit code 0.
#include <cstdint>

#include "hodyn/baremetal/runtime.hpp"

namespace bm = hodyn::baremetal;

int main() {
  bm::semihosting_console()
      .print("hello from ")
      .print(bm::board::name())
      .print(" over semihosting\n");
  bm::board::serial_port().write("hello over the UART\r\n");

  if (!bm::systick_init(bm::board::core_clock_hz(), 1000)) {
    bm::console().print("systick_init failed\n");
    return 1;
  }
  const std::uint64_t c0 = bm::cycles();
  const std::uint32_t t0 = bm::millis();
  while (bm::millis() - t0 < 5u) {
  }
  const std::uint64_t c1 = bm::cycles();
  bm::console()
      .print("systick: 5 ms = ")
      .print(static_cast<unsigned long long>(c1 - c0))
      .print(" cycles at ")
      .print(bm::board::core_clock_hz())
      .print(" Hz; stack high water ")
      .print(static_cast<unsigned long>(bm::stack_high_water_bytes()))
      .print(" of ")
      .print(static_cast<unsigned long>(bm::stack_size_bytes()))
      .print(" bytes\n");
  return c1 > c0 ? 0 : 1;
}
