// boards/stm32h743/pwm_outputs.cpp — see pwm_outputs.hpp. RM0433 rev 7: RCC
// 8.7.40 (RCC_AHB4ENR at 0x0E0), 8.7.42 (RCC_APB1LENR at 0x0E8); GPIO
// ports at 0x58020000 + 0x400 x (table 8).
#include "pwm_outputs.hpp"

#include "gpio_alternate_function.hpp"
#include "hodyn/baremetal/cortex_m_registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32h743 {
namespace {

constexpr std::uintptr_t kRccBase = 0x58024400;
constexpr std::uintptr_t kRccAhb4Enr = kRccBase + 0x0E0;
constexpr std::uintptr_t kRccApb1lEnr = kRccBase + 0x0E8;
constexpr std::uint32_t kRccAhb4EnrGpioc = 1u << 2;
constexpr std::uint32_t kRccAhb4EnrGpiod = 1u << 3;
constexpr std::uint32_t kRccApb1lEnrTim3 = 1u << 1;
constexpr std::uint32_t kRccApb1lEnrTim4 = 1u << 2;

constexpr std::uintptr_t kGpiocBase = 0x58020800;
constexpr std::uintptr_t kGpiodBase = 0x58020C00;
constexpr std::uint32_t kAfTim3Tim4 = 2;

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
