// boards/stm32f405/board.cpp — the STM32F405 port (Cortex-M4F, 168 MHz, 1 MiB
// flash, 128 KiB SRAM + 64 KiB CCM), laid out for a typical F405 flight
// controller: USART1 on PA9/PA10 for the HIL link, motor outputs on TIM3/TIM4.
// Runs under QEMU's netduinoplus2 (the STM32F405 SoC model) and, untested,
// on the chip; README.md says which parts ran where.
//
// init(): the clock tree (clock_tree.hpp; bounded waits, a status), USART1
// at 921600 baud 8N1 with interrupt receive, the motor outputs at 400 Hz with
// every ESC at its stop pulse. Under an emulator (the RCC does
// not respond) the console and exit() use semihosting, which QEMU serves; on
// the chip they use USART1 and the exit sleeps (a BKPT without a debugger
// would fault).
#include "hodyn/baremetal/board.hpp"
#include "hodyn/baremetal/rotor_outputs.hpp"

#include "board_stm32f405.hpp"
#include "registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {

void start_usart1(std::uint32_t apb2_hz) noexcept;  // usart1.cpp

namespace {
ClockTree g_clock_tree;
PwmOutputs g_motor_outputs{kTim3Base, kTim4Base, &enable_tim3_tim4};
}  // namespace

const ClockTree& boot_clock_tree() noexcept { return g_clock_tree; }
PwmOutputs& motor_outputs() noexcept { return g_motor_outputs; }

bool start_motor_outputs(double full_scale_rad_s, std::uint32_t rate_hz) noexcept {
  return g_motor_outputs.start(g_clock_tree.apb1_timer_hz, rate_hz, full_scale_rad_s);
}

}  // namespace stm32f405

namespace board {

void init() noexcept {
  stm32f405::g_clock_tree = stm32f405::configure_clock_tree();
  stm32f405::start_usart1(stm32f405::g_clock_tree.apb2_hz);
  // ESCs see the stop pulse from boot on (they arm on it).
  (void)stm32f405::start_motor_outputs(stm32f405::kRotorFullScaleRadS, stm32f405::kMotorPwmHz);
}

std::uint32_t core_clock_hz() noexcept { return stm32f405::g_clock_tree.sysclk_hz; }

const char* name() noexcept { return "stm32f405"; }

SerialPort& serial_port() noexcept { return stm32f405::usart1(); }

bool has_semihosting() noexcept { return !stm32f405::g_clock_tree.rcc_responds; }

RotorOutputs* rotor_outputs() noexcept {
  return stm32f405::g_motor_outputs.started() ? &stm32f405::g_motor_outputs : nullptr;
}

}  // namespace board
}  // namespace baremetal
}  // namespace hodyn
