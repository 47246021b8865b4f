// boards/stm32h743/pwm_outputs.cpp — see pwm_outputs.hpp.
#include "pwm_outputs.hpp"

#include "gpio_alternate_function.hpp"
#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32h743 {
namespace {

constexpr std::uint32_t kAfTim3Tim4 = 2;  // DS12110 table 10

}  // namespace

void enable_tim3_tim4() noexcept {
  namespace cm = cortex_m;
  cm::reg32(kRccAhb4Enr) |= kRccAhb4EnrGpioc | kRccAhb4EnrGpiod;
  cm::reg32(kRccApb1lEnr) |= kRccApb1lEnrTim3 | kRccApb1lEnrTim4;
  stm32::read_back(kRccApb1lEnr);  // clocks running before the accesses below
  for (std::uint32_t pin = 6u; pin <= 9u; ++pin)
    stm32::gpio_alternate_function(kGpiocBase, pin, kAfTim3Tim4);
  for (std::uint32_t pin = 12u; pin <= 15u; ++pin)
    stm32::gpio_alternate_function(kGpiodBase, pin, kAfTim3Tim4);
}

}  // namespace stm32h743
}  // namespace baremetal
}  // namespace hodyn
