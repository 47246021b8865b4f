// platform/baremetal/src/cmsdk_uart.cpp — CMSDK APB UART (register map in
// cmsdk_uart.hpp; Arm DDI 0479 "APB UART").
#include "hodyn/baremetal/cmsdk_uart.hpp"

namespace hodyn {
namespace baremetal {

bool CmsdkUart::init(std::uint32_t pclk_hz, std::uint32_t baud) noexcept {
  if (baud == 0u) return false;
  const std::uint32_t divider = pclk_hz / baud;
  if (divider < kMinBaudDivider) return false;
  CmsdkUartRegisters& r = regs();
  r.ctrl = 0u;
  r.bauddiv = divider;
  r.state = kStateTxOverrun | kStateRxOverrun;  // write 1 to clear
  r.intstatus = 0xFu;                           // clear anything pending
  r.ctrl = kCtrlTxEnable | kCtrlRxEnable;
  return true;
}

void CmsdkUart::write(const std::uint8_t* data, std::size_t size) noexcept {
  CmsdkUartRegisters& r = regs();
  for (std::size_t i = 0; i < size; ++i) {
    while ((r.state & kStateTxFull) != 0u) {
    }
    r.data = data[i];
  }
}

std::size_t CmsdkUart::read_available(std::uint8_t* buffer, std::size_t capacity) noexcept {
  CmsdkUartRegisters& r = regs();
  std::size_t n = 0;
  while (n < capacity) {
    const std::uint32_t state = r.state;
    if ((state & kStateRxOverrun) != 0u) {
      ++overruns_;
      r.state = kStateRxOverrun;
    }
    if ((state & kStateRxFull) == 0u) break;
    buffer[n++] = static_cast<std::uint8_t>(r.data & 0xFFu);
  }
  return n;
}

std::uint32_t CmsdkUart::take_overrun_count() noexcept {
  const std::uint32_t n = overruns_;
  overruns_ = 0;
  return n;
}

}  // namespace baremetal
}  // namespace hodyn
