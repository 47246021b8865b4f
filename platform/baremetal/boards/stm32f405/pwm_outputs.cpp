// boards/stm32f405/pwm_outputs.cpp — see pwm_outputs.hpp.
#include "pwm_outputs.hpp"

#include "gpio.hpp"
#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {

void enable_tim3_tim4() noexcept {
  namespace cm = cortex_m;
  cm::reg32(kRccAhb1enr) |= kRccAhb1enrGpioa | kRccAhb1enrGpiob;
  cm::reg32(kRccApb1enr) |= kRccApb1enrTim3 | kRccApb1enrTim4;
  read_back(kRccApb1enr);  // clocks running before the accesses below
  constexpr std::uint32_t kTim3PinsA[] = {6u, 7u};
  constexpr std::uint32_t kTim3PinsB[] = {0u, 1u};
  constexpr std::uint32_t kTim4PinsB[] = {6u, 7u, 8u, 9u};
  for (std::uint32_t pin : kTim3PinsA) gpio_alternate_function(kGpioaBase, pin, kAfTim3Tim4);
  for (std::uint32_t pin : kTim3PinsB) gpio_alternate_function(kGpiobBase, pin, kAfTim3Tim4);
  for (std::uint32_t pin : kTim4PinsB) gpio_alternate_function(kGpiobBase, pin, kAfTim3Tim4);
}

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn
