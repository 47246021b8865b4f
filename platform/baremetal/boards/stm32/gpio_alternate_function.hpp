// boards/stm32/gpio_alternate_function.hpp — a pin to one of its alternate
// functions. The GPIO block is the same IP on the STM32F4 and STM32H7
// (RM0090 rev 19 8.4, RM0433 rev 7 11.4: MODER 0x00, OSPEEDR 0x08, AFRL 0x20,
// AFRH 0x24); only the port addresses and the RCC enable registers differ,
// which the boards keep. The port's clock must be on.
#pragma once

#include <cstdint>

#include "hodyn/baremetal/cortex_m_registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32 {

inline constexpr std::uintptr_t kGpioModer = 0x00;
inline constexpr std::uintptr_t kGpioOspeedr = 0x08;
inline constexpr std::uintptr_t kGpioAfrl = 0x20;  ///< pins 0..7, 4 bits each
inline constexpr std::uintptr_t kGpioAfrh = 0x24;  ///< pins 8..15

/// OSPEEDR values (the edge rate the pin's driver is set for).
inline constexpr std::uint32_t kGpioSpeedMedium = 1u;
inline constexpr std::uint32_t kGpioSpeedFast = 2u;

/// Pin `pin` (0..15) of the port at `port` to alternate function `function`
/// (0..15) at output speed `speed`: AFR first, then MODER = 10, so the pin
/// never drives the wrong function.
inline void gpio_alternate_function(std::uintptr_t port, std::uint32_t pin, std::uint32_t function,
                                    std::uint32_t speed = kGpioSpeedFast) noexcept {
  namespace cm = cortex_m;
  volatile std::uint32_t& moder = cm::reg32(port + kGpioModer);
  volatile std::uint32_t& ospeedr = cm::reg32(port + kGpioOspeedr);
  volatile std::uint32_t& afr = cm::reg32(port + (pin < 8u ? kGpioAfrl : kGpioAfrh));
  const std::uint32_t shift = 4u * (pin % 8u);
  afr = (afr & ~(0xFu << shift)) | (function << shift);
  ospeedr = (ospeedr & ~(3u << (2u * pin))) | (speed << (2u * pin));
  moder = (moder & ~(3u << (2u * pin))) | (2u << (2u * pin));  // alternate function
}

/// Reads a register back after a write, e.g. an RCC enable register, so that
/// the peripheral's clock runs before its first access (RM0090 7.3.10 note,
/// RM0433 8.5.10).
inline void read_back(std::uintptr_t address) noexcept {
  const std::uint32_t value = cortex_m::reg32(address);
  __asm__ volatile("" : : "r"(value));
}

}  // namespace stm32
}  // namespace baremetal
}  // namespace hodyn
