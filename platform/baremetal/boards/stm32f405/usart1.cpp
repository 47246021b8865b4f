// boards/stm32f405/usart1.cpp — USART1 on PA9/PA10 (AF7), interrupt-driven
// (InterruptUsart), NVIC line 37 (RM0090 table 61). The handler measures its
// own cost in SysTick cycles (for the controller firmware's CPU budget).
#include "board_stm32f405.hpp"
#include "gpio.hpp"
#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {
namespace {

namespace cm = cortex_m;

Usart1 g_usart1{Stm32f4Usart{kUsart1Base}};
bool g_usart1_configured = false;

/// Cycles between a SysTick value read at entry and now (one reload at most
/// in between: the handler is far shorter than a tick). The reload register
/// is read only when the counter wrapped (a stopped SysTick reads 0 both
/// times: 0 cycles).
inline std::uint32_t systick_cycles_since(std::uint32_t start) noexcept {
  const cm::SysTickRegisters& st = cm::systick_registers();
  const std::uint32_t now = st.cvr;
  std::uint32_t cycles = start - now;
  if (start < now) cycles += st.rvr + 1u;
  return cycles;
}

}  // namespace

Usart1& usart1() noexcept { return g_usart1; }
bool usart1_configured() noexcept { return g_usart1_configured; }

/// Clocks, pins, 8N1 at kUsart1Baud from the APB2 clock, receive interrupt on.
void start_usart1(std::uint32_t apb2_hz) noexcept {
  cm::reg32(kRccAhb1enr) |= kRccAhb1enrGpioa;
  cm::reg32(kRccApb2enr) |= kRccApb2enrUsart1;
  read_back(kRccApb2enr);  // clocks running before the accesses below
  gpio_alternate_function(kGpioaBase, 9u, kAfUsart1);
  gpio_alternate_function(kGpioaBase, 10u, kAfUsart1);
  g_usart1_configured = g_usart1.hardware().configure(apb2_hz, kUsart1Baud);
  cm::nvic_set_priority(kUsart1Irq, 0x40);  // SysTick (priority 0) may preempt it
  g_usart1.start();
  cm::nvic_enable(kUsart1Irq);
}

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn

extern "C" void USART1_IRQHandler() noexcept {
  namespace f4 = hodyn::baremetal::stm32f405;
  const std::uint32_t start = hodyn::baremetal::cortex_m::systick_registers().cvr;
  f4::Usart1& usart = f4::usart1();
  usart.on_interrupt();
  usart.account_interrupt(f4::systick_cycles_since(start));
}
