// boards/stm32f405/gpio.hpp — a pin to one of its alternate functions
// (RM0090 rev 19, 8.4: MODER 10 = alternate function, OSPEEDR, AFRL/AFRH).
// The port's clock (RCC_AHB1ENR) must be on.
#pragma once

#include <cstdint>

#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {

inline void gpio_alternate_function(std::uintptr_t port, std::uint32_t pin,
                                    std::uint32_t function) noexcept {
  namespace cm = cortex_m;
  volatile std::uint32_t& moder = cm::reg32(port + kGpioModer);
  volatile std::uint32_t& ospeedr = cm::reg32(port + kGpioOspeedr);
  volatile std::uint32_t& afr = cm::reg32(port + (pin < 8u ? kGpioAfrl : kGpioAfrh));
  const std::uint32_t shift = 4u * (pin % 8u);
  afr = (afr & ~(0xFu << shift)) | (function << shift);
  ospeedr = (ospeedr & ~(3u << (2u * pin))) | (2u << (2u * pin));  // fast
  moder = (moder & ~(3u << (2u * pin))) | (2u << (2u * pin));      // alternate function
}

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn
