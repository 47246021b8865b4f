// boards/stm32h743/pwm_outputs.hpp — the H743's eight ESC outputs: the STM32
// timer PWM shared with the F405 (../stm32/timer_pwm_outputs.hpp) on TIM3
// and TIM4, laid out for a NUCLEO-H743ZI(2).
//
// Rotor 0..3: TIM3 CH1..CH4 (PC6, PC7, PC8, PC9); rotor 4..7: TIM4 CH1..CH4
// (PD12..PD15), alternate function 2 (DS12110 rev 8, table 10: port C and
// D alternate functions). On the NUCLEO these are free (USART3 is PD8/PD9).
// Change the pins for your board in pwm_outputs.cpp.
//
// NOT TESTED ON HARDWARE, NOT EMULATED (no H7 machine in QEMU): the shared
// timer code runs under QEMU on the F405 (its compare registers are read
// back by firmware_selftest_stm32f405); this file's clocks and pins compile
// and link (ctest baremetal_stm32h743_link).
#pragma once

#include <cstdint>

#include "timer_pwm_outputs.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32h743 {

using PwmOutputs = stm32::TimerPwmOutputs;

inline constexpr std::uintptr_t kTim3Base = 0x40000400;  // APB1 (RM0433 table 8)
inline constexpr std::uintptr_t kTim4Base = 0x40000800;

#ifndef HODYN_STM32H743_ROTOR_FULL_SCALE_RAD_S
#define HODYN_STM32H743_ROTOR_FULL_SCALE_RAD_S 1200.0
#endif
/// The speed that gets the full ESC pulse (2000 us).
inline constexpr double kRotorFullScaleRadS = HODYN_STM32H743_ROTOR_FULL_SCALE_RAD_S;
/// ESC update rate of the motor outputs started by board::init().
inline constexpr std::uint32_t kMotorPwmHz = 400;

/// Turns on TIM3's and TIM4's clocks (RCC_APB1LENR) and GPIOC/GPIOD's
/// (RCC_AHB4ENR), and routes PC6..PC9 and PD12..PD15 to them (AF2): what
/// PwmOutputs::start() calls first.
void enable_tim3_tim4() noexcept;

}  // namespace stm32h743
}  // namespace baremetal
}  // namespace hodyn
