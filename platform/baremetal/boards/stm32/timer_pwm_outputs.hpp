// boards/stm32/timer_pwm_outputs.hpp — eight ESC outputs from the compare
// registers of two general-purpose timers (PWM mode 1), shared by the STM32
// ports: TIM2..TIM5 are the same IP on the F4 (RM0090 rev 19, chapter 18)
// and the H7 (RM0433 rev 7, chapter 39) at the offsets below. A board gives
// the two timers' addresses and a function that turns on their clocks and
// pins (boards/stm32f405/pwm_outputs.cpp, boards/stm32h743/pwm_outputs.cpp).
//
// Rotors 0..3 are the first timer's CH1..CH4, rotors 4..7 the second's. The
// timers count at 1 MHz (PSC from the timer clock), period 1e6 / rate_hz us
// (400 Hz: 2500 us); the pulse is 1000 us + 1000 us x speed / full scale, so
// the compare register holds the pulse in microseconds: 1000 = stop, 2000 =
// full scale — the classic servo-PWM ESC input, with the ESC calibrated (or
// in closed-loop RPM mode) so that its pulse range maps linearly to speed.
// A non-finite speed gives 1000 (stop); outside [0, full scale] it is
// clamped. Computed in float (the M4F's FPU is single precision).
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/baremetal/rotor_outputs.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32 {

/// General-purpose timer registers TIM2..TIM5 (RM0090 18.4.21, RM0433 39.4.29).
struct GeneralPurposeTimerRegisters {
  volatile std::uint32_t cr1;    // 0x00
  volatile std::uint32_t cr2;    // 0x04
  volatile std::uint32_t smcr;   // 0x08
  volatile std::uint32_t dier;   // 0x0C
  volatile std::uint32_t sr;     // 0x10
  volatile std::uint32_t egr;    // 0x14
  volatile std::uint32_t ccmr1;  // 0x18
  volatile std::uint32_t ccmr2;  // 0x1C
  volatile std::uint32_t ccer;   // 0x20
  volatile std::uint32_t cnt;    // 0x24
  volatile std::uint32_t psc;    // 0x28
  volatile std::uint32_t arr;    // 0x2C
  volatile std::uint32_t reserved_30;
  volatile std::uint32_t ccr[4];  // 0x34..0x40
};

class TimerPwmOutputs final : public RotorOutputs {
 public:
  static constexpr std::size_t kChannels = 8;
  static constexpr std::uint32_t kStopPulseUs = 1000;
  static constexpr std::uint32_t kFullPulseUs = 2000;
  static constexpr std::uint32_t kCountHz = 1'000'000;  ///< timer counts in us

  // CR1, CCMR, CCER, EGR bits (RM0090 18.4.1, 18.4.7, 18.4.9, 18.4.6; the
  // same bits in RM0433 39.4).
  static constexpr std::uint32_t kCr1Cen = 1u << 0;
  static constexpr std::uint32_t kCr1Arpe = 1u << 7;
  static constexpr std::uint32_t kEgrUg = 1u << 0;
  /// CCMRx for two channels: OCxM = 110 (PWM mode 1) and OCxPE (preload).
  static constexpr std::uint32_t kCcmrPwm1Preload = (6u << 4) | (1u << 3) | (6u << 12) | (1u << 11);
  static constexpr std::uint32_t kCcerAllEnabled = (1u << 0) | (1u << 4) | (1u << 8) | (1u << 12);

  using EnableClocksAndPins = void (*)() noexcept;

  /// Rotors 0..3 on the timer at `first_timer`, 4..7 on `second_timer`;
  /// `enable` turns on both timers' clocks and routes their 8 pins.
  constexpr TimerPwmOutputs(std::uintptr_t first_timer, std::uintptr_t second_timer,
                            EnableClocksAndPins enable) noexcept
      : timer_base_{first_timer, second_timer}, enable_(enable) {}

  /// Clocks, pins, timers at `rate_hz` (50..2000 Hz) from the timers' kernel
  /// clock `timer_clock_hz` (a multiple of 1 MHz); every output stopped.
  /// False (nothing started) for a bad rate, clock or full scale.
  bool start(std::uint32_t timer_clock_hz, std::uint32_t rate_hz, double full_scale_rad_s) noexcept;

  void command(const double* speed_rad_s, std::size_t count) noexcept override;
  void command(const float* speed_rad_s, std::size_t count) noexcept override;
  void stop() noexcept override;
  std::size_t channels() const noexcept override { return kChannels; }
  double full_scale_rad_s() const noexcept override {
    return static_cast<double>(full_scale_rad_s_);
  }
  std::uint32_t output_value(std::size_t channel) const noexcept override {
    return channel < kChannels ? compare_register(channel) : 0u;
  }

  /// The compare value (us) of a speed: what command() writes.
  std::uint32_t pulse_us(double speed_rad_s) const noexcept;
  std::uint32_t pulse_us(float speed_rad_s) const noexcept;
  /// The timer of a rotor (0..7) and its compare register.
  GeneralPurposeTimerRegisters& timer_of(std::size_t rotor) const noexcept;
  volatile std::uint32_t& compare_register(std::size_t rotor) const noexcept;
  bool started() const noexcept { return started_; }

 private:
  std::uintptr_t timer_base_[2];
  EnableClocksAndPins enable_;
  float full_scale_rad_s_ = 0.0f;
  float microseconds_per_rad_s_ = 0.0f;
  bool started_ = false;
};

}  // namespace stm32
}  // namespace baremetal
}  // namespace hodyn
