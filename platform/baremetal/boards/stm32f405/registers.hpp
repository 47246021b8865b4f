// boards/stm32f405/registers.hpp — the STM32F405 peripheral addresses and bits
// this port touches, from RM0090 rev 19 (STM32F405/415/407/417/427/437/429/439
// reference manual): memory map 2.3 (table 1), RCC 7.3 (register map 7.3.24),
// FLASH_ACR 3.9.1, PWR_CR 5.4.1, GPIO 8.4, general-purpose timers TIM2–TIM5
// 18.4, USART 30.6. Alternate functions: DS8626 (STM32F405xx datasheet),
// table 9.
#pragma once

#include <cstdint>

#include "gpio_alternate_function.hpp"
#include "hodyn/baremetal/cortex_m_registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {

/// Reads a register back after a write (RCC enables; shared with the H743).
using stm32::read_back;

// ---- RCC (base 0x4002 3800) --------------------------------------------------
inline constexpr std::uintptr_t kRccBase = 0x40023800;
inline constexpr std::uintptr_t kRccCr = kRccBase + 0x00;
inline constexpr std::uintptr_t kRccPllcfgr = kRccBase + 0x04;
inline constexpr std::uintptr_t kRccCfgr = kRccBase + 0x08;
inline constexpr std::uintptr_t kRccAhb1enr = kRccBase + 0x30;
inline constexpr std::uintptr_t kRccApb1enr = kRccBase + 0x40;
inline constexpr std::uintptr_t kRccApb2enr = kRccBase + 0x44;

inline constexpr std::uint32_t kRccCrHsion = 1u << 0;
inline constexpr std::uint32_t kRccCrHsirdy = 1u << 1;
inline constexpr std::uint32_t kRccCrHseon = 1u << 16;
inline constexpr std::uint32_t kRccCrHserdy = 1u << 17;
inline constexpr std::uint32_t kRccCrHsebyp = 1u << 18;
inline constexpr std::uint32_t kRccCrPllon = 1u << 24;
inline constexpr std::uint32_t kRccCrPllrdy = 1u << 25;

inline constexpr std::uint32_t kRccPllcfgrSrcHse = 1u << 22;  // PLLSRC
inline constexpr unsigned kRccPllcfgrNShift = 6;              // PLLN [14:6]
inline constexpr unsigned kRccPllcfgrPShift = 16;             // PLLP [17:16]: 0 = /2
inline constexpr unsigned kRccPllcfgrQShift = 24;             // PLLQ [27:24]

inline constexpr std::uint32_t kRccCfgrSwMask = 3u << 0;   // SW
inline constexpr std::uint32_t kRccCfgrSwPll = 2u << 0;
inline constexpr std::uint32_t kRccCfgrSwsMask = 3u << 2;  // SWS
inline constexpr std::uint32_t kRccCfgrSwsPll = 2u << 2;
inline constexpr std::uint32_t kRccCfgrHpreMask = 0xFu << 4;    // AHB: 0xxx = /1
inline constexpr std::uint32_t kRccCfgrPpre1Mask = 7u << 10;    // APB1
inline constexpr std::uint32_t kRccCfgrPpre1Div4 = 5u << 10;    // 101 = /4
inline constexpr std::uint32_t kRccCfgrPpre2Mask = 7u << 13;    // APB2
inline constexpr std::uint32_t kRccCfgrPpre2Div2 = 4u << 13;    // 100 = /2

inline constexpr std::uint32_t kRccAhb1enrGpioa = 1u << 0;
inline constexpr std::uint32_t kRccAhb1enrGpiob = 1u << 1;
inline constexpr std::uint32_t kRccApb1enrTim3 = 1u << 1;
inline constexpr std::uint32_t kRccApb1enrTim4 = 1u << 2;
inline constexpr std::uint32_t kRccApb1enrPwr = 1u << 28;
inline constexpr std::uint32_t kRccApb2enrUsart1 = 1u << 4;

// ---- FLASH interface (base 0x4002 3C00), PWR (base 0x4000 7000) --------------
inline constexpr std::uintptr_t kFlashAcr = 0x40023C00;
inline constexpr std::uint32_t kFlashAcrLatencyMask = 7u << 0;
inline constexpr std::uint32_t kFlashAcrPrften = 1u << 8;
inline constexpr std::uint32_t kFlashAcrIcen = 1u << 9;
inline constexpr std::uint32_t kFlashAcrDcen = 1u << 10;

inline constexpr std::uintptr_t kPwrCr = 0x40007000;
inline constexpr std::uint32_t kPwrCrVos = 1u << 14;  // F405/F407: scale 1 (up to 168 MHz)

// ---- GPIO (port x at 0x4002 0000 + 0x400 x) -------------------------------------
inline constexpr std::uintptr_t kGpioaBase = 0x40020000;
inline constexpr std::uintptr_t kGpiobBase = 0x40020400;
// MODER, OSPEEDR, AFRL, AFRH: ../stm32/gpio_alternate_function.hpp

// ---- USART1 (APB2, 0x4001 1000), NVIC position 37 --------------------------------
inline constexpr std::uintptr_t kUsart1Base = 0x40011000;
inline constexpr std::uint32_t kUsart1Irq = 37;
inline constexpr std::uint32_t kAfUsart1 = 7;  // PA9 TX, PA10 RX (DS8626 table 9)

// ---- TIM3 (0x4000 0400), TIM4 (0x4000 0800): APB1 timers ------------------------
inline constexpr std::uintptr_t kTim3Base = 0x40000400;
inline constexpr std::uintptr_t kTim4Base = 0x40000800;
inline constexpr std::uint32_t kAfTim3Tim4 = 2;  // TIM3 CH1..4 PA6 PA7 PB0 PB1, TIM4 PB6..PB9

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn
