// boards/stm32h743/board.cpp — STM32H743 port, laid out for a NUCLEO-H743ZI(2)
// (USART3 on PD8/PD9 = the ST-LINK virtual COM port). See README.md for what
// to change for your board.
//
// USART3 (921600 8N1, HODYN_STM32H743_USART3_BAUD) is interrupt-driven: the
// STM32 driver shared with the F405 (../stm32/interrupt_usart.hpp) over this
// IP's registers (stm32_usart.hpp).
//
// The clock tree (clock_tree.hpp): 400 MHz from the HSE through PLL1 at VOS1,
// every wait bounded; on a timeout the reset clock (HSI 64 MHz) and a status.
//
// Motor outputs (pwm_outputs.hpp): TIM3/TIM4 PWM at 400 Hz, every ESC at its
// stop pulse from init() on — the timer code shared with the F405.
//
// NOT TESTED ON HARDWARE, NOT EMULATED. It compiles and links (ctest
// baremetal_stm32h743_link).
//
// Register addresses: RM0433 rev 7 — RCC enables and GPIO ports in
// registers.hpp, USART3 base 0x40004800 (2.3.2 memory map).
// Cache control: Cortex-M7 TRM / ARMv7-M ARM B2.2.7 (ICIALLU 0xE000EF50,
// CCR.IC bit 17).
#include "hodyn/baremetal/board.hpp"
#include "hodyn/baremetal/cortex_m_registers.hpp"

#include "hodyn/baremetal/rotor_outputs.hpp"

#include "clock_tree.hpp"
#include "gpio_alternate_function.hpp"
#include "interrupt_usart.hpp"
#include "pwm_outputs.hpp"
#include "registers.hpp"
#include "stm32_usart.hpp"

namespace hodyn {
namespace baremetal {
namespace board {
namespace {

namespace cm = cortex_m;

// The clock tree's outcome (clock_tree.hpp): 400 MHz, rcc_pclk1 (USART3's
// default kernel clock) 100 MHz; or the reset clock, HSI 64 MHz everywhere,
// with a status when a wait timed out.
stm32h743::ClockTree g_clock_tree;
// The link's baud rate, as the F405's USART1 (921600: what a 1 kHz HIL link
// needs, docs/firmware.md "HIL wiring"; the NUCLEO's STLINK-V3 virtual COM
// port carries it). BRR 109 at 100 MHz, 69 on the 64 MHz fallback.
#ifndef HODYN_STM32H743_USART3_BAUD
#define HODYN_STM32H743_USART3_BAUD 921600u
#endif
constexpr std::uint32_t kConsoleBaud = HODYN_STM32H743_USART3_BAUD;

using stm32h743::kGpiodBase;
using stm32h743::kRccAhb4Enr;
using stm32h743::kRccAhb4EnrGpiod;
using stm32h743::kRccApb1lEnr;
using stm32h743::kRccApb1lEnrUsart3;
constexpr std::uint32_t kAfUsart3 = 7;  // PD8 = USART3_TX, PD9 = USART3_RX (DS12110 table 9)

constexpr std::uintptr_t kUsart3Base = 0x40004800;
constexpr std::uintptr_t kScbIciallu = 0xE000EF50;
constexpr std::uint32_t kCcrInstructionCache = 1u << 17;

constexpr std::uint32_t kUsart3Irq = 39;  // RM0433 table 147

/// USART3, interrupt-driven: the shared STM32 driver over the H7's registers.
using Usart3 = InterruptUsart<Stm32h7Usart, 2048, 512>;
Usart3 g_usart3{Stm32h7Usart{kUsart3Base}};

stm32h743::PwmOutputs g_motor_outputs{stm32h743::kTim3Base, stm32h743::kTim4Base,
                                      &stm32h743::enable_tim3_tim4};

void enable_instruction_cache() noexcept {
  cm::data_synchronization_barrier();
  cm::instruction_synchronization_barrier();
  cm::reg32(kScbIciallu) = 0u;  // invalidate all
  cm::data_synchronization_barrier();
  cm::instruction_synchronization_barrier();
  cm::reg32(cm::kCcr) |= kCcrInstructionCache;
  cm::data_synchronization_barrier();
  cm::instruction_synchronization_barrier();
  // TODO-for-your-board: the D-cache (invalidate by set/way, CCR.DC) — and
  // then clean/invalidate around every DMA buffer, or keep those in a
  // non-cacheable MPU region.
}

using stm32::read_back;  // RCC enables: the clock runs before the first access

void configure_usart3_pins() noexcept {
  cm::reg32(kRccAhb4Enr) |= kRccAhb4EnrGpiod;
  read_back(kRccAhb4Enr);  // the clock is on before the GPIO accesses below
  stm32::gpio_alternate_function(kGpiodBase, 8u, kAfUsart3, stm32::kGpioSpeedMedium);
  stm32::gpio_alternate_function(kGpiodBase, 9u, kAfUsart3, stm32::kGpioSpeedMedium);
  cm::reg32(kRccApb1lEnr) |= kRccApb1lEnrUsart3;
  read_back(kRccApb1lEnr);
}

}  // namespace

void init() noexcept {
  enable_instruction_cache();
  g_clock_tree = stm32h743::configure_clock_tree();
  configure_usart3_pins();
  (void)g_usart3.hardware().configure(g_clock_tree.apb1_hz, kConsoleBaud);
  cortex_m::nvic_set_priority(kUsart3Irq, 0x40);
  g_usart3.start();
  cortex_m::nvic_enable(kUsart3Irq);
  // ESCs see the stop pulse from boot on (they arm on it).
  (void)g_motor_outputs.start(g_clock_tree.apb1_timer_hz, stm32h743::kMotorPwmHz,
                              stm32h743::kRotorFullScaleRadS);
}

std::uint32_t core_clock_hz() noexcept { return g_clock_tree.sysclk_hz; }

const char* name() noexcept { return "stm32h743"; }

SerialPort& serial_port() noexcept { return g_usart3; }

bool has_semihosting() noexcept { return false; }

RotorOutputs* rotor_outputs() noexcept {
  return g_motor_outputs.started() ? &g_motor_outputs : nullptr;
}

}  // namespace board
}  // namespace baremetal
}  // namespace hodyn

// USART3's interrupt (vector position 39, irq_vectors.h), timed in SysTick
// cycles like the F405's USART1 for the period's CPU budget.
extern "C" void USART3_IRQHandler() noexcept {
  namespace cm = hodyn::baremetal::cortex_m;
  const cm::SysTickRegisters& st = cm::systick_registers();
  const std::uint32_t start = st.cvr;
  hodyn::baremetal::board::g_usart3.on_interrupt();
  const std::uint32_t now = st.cvr;
  const std::uint32_t reload = st.rvr;
  hodyn::baremetal::board::g_usart3.account_interrupt(
      reload == 0u ? 0u : (start >= now ? start - now : start + (reload + 1u) - now));
}
