// boards/stm32h743/registers.hpp — the STM32H743 peripheral addresses and
// enable bits that more than one file of this port touches, from RM0433 rev 7:
// memory map 2.3.2 (table 8), RCC 8.7 (base 0x5802 4400; AHB4ENR 8.7.40,
// APB1LENR 8.7.42), GPIO ports at 0x5802 0000 + 0x400 x (11.4). The clock
// tree's own registers are in clock_tree.cpp. NOT RUN ANYWHERE.
#pragma once

#include <cstdint>

namespace hodyn {
namespace baremetal {
namespace stm32h743 {

inline constexpr std::uintptr_t kRccBase = 0x58024400;
inline constexpr std::uintptr_t kRccAhb4Enr = kRccBase + 0x0E0;   // GPIOxEN
inline constexpr std::uintptr_t kRccApb1lEnr = kRccBase + 0x0E8;  // TIM2..7, USART2/3, ...
inline constexpr std::uint32_t kRccAhb4EnrGpioc = 1u << 2;
inline constexpr std::uint32_t kRccAhb4EnrGpiod = 1u << 3;
inline constexpr std::uint32_t kRccApb1lEnrTim3 = 1u << 1;
inline constexpr std::uint32_t kRccApb1lEnrTim4 = 1u << 2;
inline constexpr std::uint32_t kRccApb1lEnrUsart3 = 1u << 18;

inline constexpr std::uintptr_t kGpiocBase = 0x58020800;
inline constexpr std::uintptr_t kGpiodBase = 0x58020C00;

}  // namespace stm32h743
}  // namespace baremetal
}  // namespace hodyn
