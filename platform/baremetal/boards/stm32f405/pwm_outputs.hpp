// boards/stm32f405/pwm_outputs.hpp — the F405's eight ESC outputs: the STM32
// timer PWM shared with the H743 (../stm32/timer_pwm_outputs.hpp) on TIM3
// and TIM4.
//
// Rotor 0..3: TIM3 CH1..CH4 (PA6, PA7, PB0, PB1); rotor 4..7: TIM4 CH1..CH4
// (PB6..PB9), alternate function 2 (DS8626 table 9). Change the pins for
// your board in pwm_outputs.cpp.
#pragma once

#include "timer_pwm_outputs.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {

using stm32::GeneralPurposeTimerRegisters;
using PwmOutputs = stm32::TimerPwmOutputs;

/// Turns on TIM3's and TIM4's clocks and routes PA6 PA7 PB0 PB1 PB6..PB9 to
/// them (AF2): what PwmOutputs::start() calls first.
void enable_tim3_tim4() noexcept;

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn
