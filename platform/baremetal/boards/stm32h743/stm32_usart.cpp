// boards/stm32h743/stm32_usart.cpp — see stm32_usart.hpp (RM0433 chapter 48).
#include "stm32_usart.hpp"

namespace hodyn {
namespace baremetal {

bool Stm32Usart::init(std::uint32_t kernel_clock_hz, std::uint32_t baud) noexcept {
  if (baud == 0u) return false;
  // Oversampling by 16: BRR = usart_ker_ck / baud, at least 16 (RM0433 48.5.7).
  const std::uint32_t divider = (kernel_clock_hz + baud / 2u) / baud;
  if (divider < 16u || divider > 0xFFFFu) return false;
  Stm32UsartRegisters& r = regs();
  r.cr1 = 0u;  // disabled while configuring; 8 data bits, no parity, FIFO off
  r.cr2 = 0u;  // 1 stop bit
  r.cr3 = 0u;
  r.presc = 0u;
  r.brr = divider;
  r.cr1 = kCr1Te | kCr1Re | kCr1Ue;
  return true;
}

void Stm32Usart::write(const std::uint8_t* data, std::size_t size) noexcept {
  Stm32UsartRegisters& r = regs();
  for (std::size_t i = 0; i < size; ++i) {
    while ((r.isr & kIsrTxe) == 0u) {
    }
    r.tdr = data[i];
  }
}

std::size_t Stm32Usart::read_available(std::uint8_t* buffer, std::size_t capacity) noexcept {
  Stm32UsartRegisters& r = regs();
  std::size_t n = 0;
  while (n < capacity) {
    const std::uint32_t isr = r.isr;
    if ((isr & kIsrOre) != 0u) {
      ++overruns_;
      r.icr = kIcrOrecf;
    }
    if ((isr & kIsrRxne) == 0u) break;
    buffer[n++] = static_cast<std::uint8_t>(r.rdr & 0xFFu);
  }
  return n;
}

std::uint32_t Stm32Usart::take_overrun_count() noexcept {
  const std::uint32_t n = overruns_;
  overruns_ = 0;
  return n;
}

}  // namespace baremetal
}  // namespace hodyn
