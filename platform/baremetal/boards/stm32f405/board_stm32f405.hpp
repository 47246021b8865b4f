// boards/stm32f405/board_stm32f405.hpp — what the STM32F405 port offers
// beyond hodyn/baremetal/board.hpp: the clock tree's outcome, USART1 (the HIL
// link, interrupt-driven) and the PWM motor outputs. For the self-tests and
// the controller firmware; see README.md.
#pragma once

#include <cstdint>

#include "clock_tree.hpp"
#include "pwm_outputs.hpp"
#include "stm32f4_usart.hpp"
#include "interrupt_usart.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {

#ifndef HODYN_STM32F405_USART1_BAUD
#define HODYN_STM32F405_USART1_BAUD 921600u
#endif
inline constexpr std::uint32_t kUsart1Baud = HODYN_STM32F405_USART1_BAUD;
/// Receive ring: more than one control period's frames (REFERENCE + SENSORS,
/// 1348 bytes at most on the wire, docs/hil.md "Bit rate").
inline constexpr std::size_t kUsart1RxRing = 2048;
/// Transmit ring: two COMMAND frames (208 bytes each) and console lines.
inline constexpr std::size_t kUsart1TxRing = 512;

#ifndef HODYN_STM32F405_ROTOR_FULL_SCALE_RAD_S
#define HODYN_STM32F405_ROTOR_FULL_SCALE_RAD_S 1200.0
#endif
/// The speed that gets the full ESC pulse (2000 us): the rotors' maximum
/// speed (hodyn::RotorParameters::max_speed, 1200 rad/s for the 12-DoF robot).
inline constexpr double kRotorFullScaleRadS = HODYN_STM32F405_ROTOR_FULL_SCALE_RAD_S;
/// ESC update rate of the motor outputs started by board::init().
inline constexpr std::uint32_t kMotorPwmHz = 400;

using Usart1 = InterruptUsart<Stm32f4Usart, kUsart1RxRing, kUsart1TxRing>;

/// The outcome of board::init()'s clock tree.
const ClockTree& boot_clock_tree() noexcept;
/// USART1 (PA9 TX, PA10 RX): board::serial_port().
Usart1& usart1() noexcept;
/// True when USART1's configure() took the baud rate (BRR in range).
bool usart1_configured() noexcept;
/// The motor outputs (TIM3, TIM4): board::rotor_outputs(), started by
/// start_motor_outputs().
PwmOutputs& motor_outputs() noexcept;
/// Starts the motor outputs at `rate_hz` (400 by default) for rotors whose
/// full-scale speed is `full_scale_rad_s`. False on bad arguments.
bool start_motor_outputs(double full_scale_rad_s, std::uint32_t rate_hz = 400) noexcept;

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn
