// boards/stm32/timer_pwm_outputs.cpp — see timer_pwm_outputs.hpp.
#include "timer_pwm_outputs.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32 {
namespace {

void start_timer(GeneralPurposeTimerRegisters& t, std::uint32_t prescaler,
                 std::uint32_t period_us) noexcept {
  t.cr1 = 0u;
  t.psc = prescaler;
  t.arr = period_us - 1u;
  t.ccmr1 = TimerPwmOutputs::kCcmrPwm1Preload;
  t.ccmr2 = TimerPwmOutputs::kCcmrPwm1Preload;
  for (volatile std::uint32_t& c : t.ccr) c = TimerPwmOutputs::kStopPulseUs;
  t.ccer = TimerPwmOutputs::kCcerAllEnabled;
  t.egr = TimerPwmOutputs::kEgrUg;  // load PSC, ARR and the compare preloads now
  t.cr1 = TimerPwmOutputs::kCr1Arpe | TimerPwmOutputs::kCr1Cen;
}

}  // namespace

GeneralPurposeTimerRegisters& TimerPwmOutputs::timer_of(std::size_t rotor) const noexcept {
  return *reinterpret_cast<GeneralPurposeTimerRegisters*>(timer_base_[rotor < 4u ? 0 : 1]);
}

volatile std::uint32_t& TimerPwmOutputs::compare_register(std::size_t rotor) const noexcept {
  return timer_of(rotor).ccr[rotor % 4u];
}

bool TimerPwmOutputs::start(std::uint32_t timer_clock_hz, std::uint32_t rate_hz,
                            double full_scale_rad_s) noexcept {
  if (rate_hz < 50u || rate_hz > 2000u || timer_clock_hz < kCountHz ||
      timer_clock_hz % kCountHz != 0u || timer_clock_hz / kCountHz > 65536u ||
      !(full_scale_rad_s > 0.0) || !(full_scale_rad_s < 1e30) || enable_ == nullptr)
    return false;
  enable_();
  const std::uint32_t prescaler = timer_clock_hz / kCountHz - 1u;
  const std::uint32_t period_us = kCountHz / rate_hz;
  start_timer(timer_of(0), prescaler, period_us);
  start_timer(timer_of(4), prescaler, period_us);
  full_scale_rad_s_ = static_cast<float>(full_scale_rad_s);
  microseconds_per_rad_s_ = static_cast<float>(kFullPulseUs - kStopPulseUs) / full_scale_rad_s_;
  started_ = true;
  return true;
}

std::uint32_t TimerPwmOutputs::pulse_us(double speed_rad_s) const noexcept {
  // In float: the Cortex-M4F has a single-precision FPU (double is software).
  return pulse_us(static_cast<float>(speed_rad_s));
}

std::uint32_t TimerPwmOutputs::pulse_us(float speed) const noexcept {
  if (!(speed - speed == 0.0f) || !(speed > 0.0f)) return kStopPulseUs;  // NaN, inf, <= 0
  if (!(speed < full_scale_rad_s_)) return kFullPulseUs;
  return kStopPulseUs + static_cast<std::uint32_t>(speed * microseconds_per_rad_s_ + 0.5f);
}

void TimerPwmOutputs::command(const double* speed_rad_s, std::size_t count) noexcept {
  if (!started_) return;
  for (std::size_t i = 0; i < kChannels; ++i) {
    compare_register(i) =
        (speed_rad_s != nullptr && i < count) ? pulse_us(speed_rad_s[i]) : kStopPulseUs;
  }
}

void TimerPwmOutputs::command(const float* speed_rad_s, std::size_t count) noexcept {
  if (!started_) return;
  for (std::size_t i = 0; i < kChannels; ++i) {
    compare_register(i) =
        (speed_rad_s != nullptr && i < count) ? pulse_us(speed_rad_s[i]) : kStopPulseUs;
  }
}

void TimerPwmOutputs::stop() noexcept { command(static_cast<const float*>(nullptr), 0); }

}  // namespace stm32
}  // namespace baremetal
}  // namespace hodyn
