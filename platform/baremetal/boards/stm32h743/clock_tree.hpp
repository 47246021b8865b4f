// boards/stm32h743/clock_tree.hpp — the STM32H743's clock tree: 400 MHz from
// the HSE through PLL1 at voltage scale 1 (RM0433 rev 7: PWR 6.8, RCC 8.5 and
// 8.7, FLASH 4.3.8), every wait bounded, as on the F405
// (../stm32f405/clock_tree.hpp).
//
//   supply: LDO (PWR_CR3, the NUCLEO-H743ZI's; check yours: a board wired for
//   the SMPS must not run this), VOS1; HSE (HODYN_STM32H743_HSE_HZ, default
//   8 MHz; HODYN_STM32H743_HSE_BYPASS 1 = the ST-LINK's MCO clock as on the
//   NUCLEO) / DIVM1 -> 2 MHz x DIVN1 400 -> VCO 800 MHz / DIVP1 2 -> SYSCLK
//   400 MHz; D1CPRE /1 (core 400 MHz), HPRE /2 (AXI/AHB 200 MHz), APB1..4 /2
//   (100 MHz; USART3's kernel clock rcc_pclk1; APB timers 200 MHz); flash
//   4 wait states, WRHIGHFREQ 2 (RM0433 table 17, safe at 200 MHz AXI in
//   VOS1). 480 MHz needs VOS0 (SYSCFG_PWRCR.ODEN on revision V): not done.
//
// A flag that never rises gives a status and the reset clock (HSI 64 MHz,
// every prescaler /1). NOT RUN ANYWHERE: no H743 and no emulator of it here.
#pragma once

#include <cstdint>

namespace hodyn {
namespace baremetal {
namespace stm32h743 {

enum class ClockStatus : std::uint8_t {
  kPllFromHse,            ///< 400 MHz from the HSE through PLL1
  kSupplyNotReady,        ///< ACTVOSRDY never rose after the supply configuration
  kVoltageScaleTimeout,   ///< VOSRDY never rose for VOS1
  kHseTimeout,            ///< HSERDY never rose
  kFlashLatencyRejected,  ///< FLASH_ACR did not take the wait states: not switched
  kPllTimeout,            ///< PLL1RDY never rose
  kSwitchTimeout,         ///< SWS never showed PLL1
};

const char* to_string(ClockStatus status) noexcept;

struct ClockTree {
  ClockStatus status = ClockStatus::kHseTimeout;
  std::uint32_t sysclk_hz = 0;  ///< the core (D1CPRE /1) and SysTick
  std::uint32_t apb1_hz = 0;    ///< rcc_pclk1: USART2/3's default kernel clock
  /// The APB1 timers' kernel clock (TIM2..TIM7, TIM12..14; RCC_CFGR.TIMPRE 0:
  /// rcc_hclk1 while D2PPRE1 is /1 or /2, RM0433 8.5.8 and figure 53).
  std::uint32_t apb1_timer_hz = 0;
};

inline constexpr std::uint32_t kReadyPolls = 400'000;  ///< >= 37 ms at 64 MHz
inline constexpr std::uint32_t kHsiHz = 64'000'000;
inline constexpr std::uint32_t kTargetSysclkHz = 400'000'000;

#ifndef HODYN_STM32H743_HSE_HZ
#define HODYN_STM32H743_HSE_HZ 8000000u
#endif
#ifndef HODYN_STM32H743_HSE_BYPASS
#define HODYN_STM32H743_HSE_BYPASS 1
#endif
inline constexpr std::uint32_t kHseHz = HODYN_STM32H743_HSE_HZ;

/// PLL1 (RM0433 8.7.11-8.7.13): reference 2 MHz (PLL1RGE 2-4 MHz, wide VCO),
/// VCO 800 MHz, P /2 = 400 MHz, Q /8 = 100 MHz, R /2.
struct PllFactors {
  std::uint32_t m, n, p, q, r;
};
inline constexpr PllFactors kPll{kHseHz / 2'000'000u, 400u, 2u, 8u, 2u};
static_assert(kHseHz % 2'000'000u == 0u && kHseHz >= 4'000'000u && kHseHz <= 48'000'000u,
              "HSE: 4-48 MHz, a multiple of 2 MHz");
static_assert(kPll.m >= 1u && kPll.m <= 63u, "DIVM1 1..63");
static_assert(kHseHz / kPll.m * kPll.n >= 192'000'000u && kHseHz / kPll.m * kPll.n <= 836'000'000u,
              "wide VCO 192..836 MHz");
static_assert(kHseHz / kPll.m * kPll.n / kPll.p == kTargetSysclkHz, "SYSCLK 400 MHz");

/// RCC_PLL1DIVR for kPll (each field holds its divider minus one).
constexpr std::uint32_t pll1_divider_register() noexcept {
  return (kPll.n - 1u) | ((kPll.p - 1u) << 9) | ((kPll.q - 1u) << 16) | ((kPll.r - 1u) << 24);
}
static_assert(pll1_divider_register() == 0x0107038Fu, "DIVN1 399, DIVP1 1, DIVQ1 7, DIVR1 1");

ClockTree configure_clock_tree() noexcept;

}  // namespace stm32h743
}  // namespace baremetal
}  // namespace hodyn
