// boards/stm32f405/pwm_outputs.cpp — see pwm_outputs.hpp.
#include "pwm_outputs.hpp"

#include "gpio.hpp"
#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {
namespace {

namespace cm = cortex_m;

GeneralPurposeTimerRegisters& tim(std::uintptr_t base) noexcept {
  return *reinterpret_cast<GeneralPurposeTimerRegisters*>(base);
}

void start_timer(GeneralPurposeTimerRegisters& t, std::uint32_t prescaler,
                 std::uint32_t period_us) noexcept {
  t.cr1 = 0u;
  t.psc = prescaler;
  t.arr = period_us - 1u;
  t.ccmr1 = PwmOutputs::kCcmrPwm1Preload;
  t.ccmr2 = PwmOutputs::kCcmrPwm1Preload;
  for (volatile std::uint32_t& c : t.ccr) c = PwmOutputs::kStopPulseUs;
  t.ccer = PwmOutputs::kCcerAllEnabled;
  t.egr = PwmOutputs::kEgrUg;  // load PSC, ARR and the compare preloads now
  t.cr1 = PwmOutputs::kCr1Arpe | PwmOutputs::kCr1Cen;
}

}  // namespace

GeneralPurposeTimerRegisters& PwmOutputs::timer_of(std::size_t rotor) noexcept {
  return tim(rotor < 4u ? kTim3Base : kTim4Base);
}

volatile std::uint32_t& PwmOutputs::compare_register(std::size_t rotor) noexcept {
  return timer_of(rotor).ccr[rotor % 4u];
}

bool PwmOutputs::start(std::uint32_t apb1_timer_hz, std::uint32_t rate_hz,
                       double full_scale_rad_s) noexcept {
  if (rate_hz < 50u || rate_hz > 2000u || apb1_timer_hz < kCountHz ||
      apb1_timer_hz % kCountHz != 0u || !(full_scale_rad_s > 0.0))
    return false;
  cm::reg32(kRccAhb1enr) |= kRccAhb1enrGpioa | kRccAhb1enrGpiob;
  cm::reg32(kRccApb1enr) |= kRccApb1enrTim3 | kRccApb1enrTim4;
  read_back(kRccApb1enr);  // clocks running before the accesses below
  constexpr std::uint32_t kTim3PinsA[] = {6u, 7u};
  constexpr std::uint32_t kTim3PinsB[] = {0u, 1u};
  constexpr std::uint32_t kTim4PinsB[] = {6u, 7u, 8u, 9u};
  for (std::uint32_t pin : kTim3PinsA) gpio_alternate_function(kGpioaBase, pin, kAfTim3Tim4);
  for (std::uint32_t pin : kTim3PinsB) gpio_alternate_function(kGpiobBase, pin, kAfTim3Tim4);
  for (std::uint32_t pin : kTim4PinsB) gpio_alternate_function(kGpiobBase, pin, kAfTim3Tim4);
  const std::uint32_t prescaler = apb1_timer_hz / kCountHz - 1u;
  const std::uint32_t period_us = kCountHz / rate_hz;
  start_timer(tim(kTim3Base), prescaler, period_us);
  start_timer(tim(kTim4Base), prescaler, period_us);
  full_scale_rad_s_ = static_cast<float>(full_scale_rad_s);
  microseconds_per_rad_s_ =
      static_cast<float>(kFullPulseUs - kStopPulseUs) / full_scale_rad_s_;
  started_ = true;
  return true;
}

std::uint32_t PwmOutputs::pulse_us(double speed_rad_s) const noexcept {
  // In float: the Cortex-M4F has a single-precision FPU (double is software).
  const float speed = static_cast<float>(speed_rad_s);
  if (!(speed - speed == 0.0f) || !(speed > 0.0f)) return kStopPulseUs;  // NaN, inf, <= 0
  if (!(speed < full_scale_rad_s_)) return kFullPulseUs;
  return kStopPulseUs + static_cast<std::uint32_t>(speed * microseconds_per_rad_s_ + 0.5f);
}

void PwmOutputs::command(const double* speed_rad_s, std::size_t count) noexcept {
  if (!started_) return;
  for (std::size_t i = 0; i < kChannels; ++i) {
    compare_register(i) =
        (speed_rad_s != nullptr && i < count) ? pulse_us(speed_rad_s[i]) : kStopPulseUs;
  }
}

void PwmOutputs::stop() noexcept { command(nullptr, 0); }

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn
