// boards/stm32f405/clock_tree.hpp — the STM32F405's clock tree: 168 MHz from
// the HSE crystal through the main PLL (RM0090 rev 19, 6.2 and 7.3), with a
// bounded wait on every ready flag.
//
//   HSE (HODYN_STM32F405_HSE_HZ, default 8 MHz) / M -> 2 MHz (1 MHz for an HSE
//   that is not a multiple of 2 MHz) x N -> VCO 336 MHz / P (2) -> SYSCLK
//   168 MHz, / Q (7) -> 48 MHz (USB, SDIO); AHB /1 = 168 MHz, APB1 /4 =
//   42 MHz (its timers x2 = 84 MHz), APB2 /2 = 84 MHz (USART1); flash 5 wait
//   states (RM0090 table 10, 2.7-3.6 V), voltage scale 1.
//
// A flag that never rises is a status, never a hang:
//   * on a real part the clock stays (or goes back to) the 16 MHz HSI with
//     every prescaler at /1, which is what the part runs on after reset;
//   * when the RCC does not respond at all (RCC_CR reads 0 — impossible on a
//     running part, whose clock source's ready flag is set — as under QEMU's
//     netduinoplus2, where the RCC is not emulated), the clock is the
//     emulator's fixed SYSCLK of 168 MHz (QEMU hw/arm/netduino_plus2.c),
//     which is what its SysTick counts.
#pragma once

#include <cstdint>

namespace hodyn {
namespace baremetal {
namespace stm32f405 {

enum class ClockStatus : std::uint8_t {
  kPllFromHse,             ///< 168 MHz from the HSE through the PLL
  kHseTimeout,             ///< HSERDY never rose (no crystal, or no RCC)
  kFlashLatencyRejected,   ///< FLASH_ACR did not take 5 wait states: not switched
  kPllTimeout,             ///< PLLRDY never rose
  kSwitchTimeout,          ///< SWS never showed the PLL
};

const char* to_string(ClockStatus status) noexcept;

struct ClockTree {
  ClockStatus status = ClockStatus::kHseTimeout;
  /// False when RCC_CR read 0 (no RCC: an emulator); the clocks below are
  /// then the emulator's nominal ones.
  bool rcc_responds = false;
  std::uint32_t sysclk_hz = 0;     ///< core and SysTick (AHB /1)
  std::uint32_t apb1_hz = 0;       ///< USART2/3, UART4/5
  std::uint32_t apb2_hz = 0;       ///< USART1/6
  std::uint32_t apb1_timer_hz = 0; ///< TIM2..TIM7, TIM12..14
  std::uint32_t failed_wait_polls = 0;  ///< polls of the wait that timed out (0: none)
};

/// Polls of each ready flag before giving up. At 16 MHz (HSI) one poll of an
/// RCC register takes at least 6 cycles, so the HSE bound is >= 75 ms (the
/// HSE start-up time is ~2 ms, DS8626 table 35); under QEMU the whole wait is
/// ~1 M instructions.
inline constexpr std::uint32_t kHseReadyPolls = 200'000;
inline constexpr std::uint32_t kPllReadyPolls = 20'000;
inline constexpr std::uint32_t kSwitchPolls = 20'000;

inline constexpr std::uint32_t kHsiHz = 16'000'000;
inline constexpr std::uint32_t kTargetSysclkHz = 168'000'000;
/// QEMU's netduinoplus2 SYSCLK (the documented fallback without an RCC).
inline constexpr std::uint32_t kEmulatorSysclkHz = 168'000'000;

#ifndef HODYN_STM32F405_HSE_HZ
#define HODYN_STM32F405_HSE_HZ 8000000u
#endif
inline constexpr std::uint32_t kHseHz = HODYN_STM32F405_HSE_HZ;

/// Main PLL factors for kHseHz (RM0090 7.3.2): VCO input 1-2 MHz, VCO output
/// 100-432 MHz, P output <= 168 MHz, Q output 48 MHz.
struct PllFactors {
  std::uint32_t m, n, p, q;
};
constexpr PllFactors pll_factors(std::uint32_t hse_hz) noexcept {
  return hse_hz % 2'000'000u == 0u ? PllFactors{hse_hz / 2'000'000u, 168u, 2u, 7u}
                                   : PllFactors{hse_hz / 1'000'000u, 336u, 2u, 7u};
}
inline constexpr PllFactors kPll = pll_factors(kHseHz);
static_assert(kHseHz >= 4'000'000u && kHseHz <= 26'000'000u && kHseHz % 1'000'000u == 0u,
              "HSE: 4-26 MHz (DS8626 table 35), whole MHz");
static_assert(kPll.m >= 2u && kPll.m <= 63u, "PLLM 2..63");
static_assert(kPll.n >= 50u && kPll.n <= 432u, "PLLN 50..432");
static_assert(kHseHz / kPll.m * kPll.n >= 100'000'000u && kHseHz / kPll.m * kPll.n <= 432'000'000u,
              "VCO 100..432 MHz");
static_assert(kHseHz / kPll.m * kPll.n / kPll.p == kTargetSysclkHz, "SYSCLK 168 MHz");
static_assert(kHseHz / kPll.m * kPll.n / kPll.q == 48'000'000u, "48 MHz for USB");

/// RCC_PLLCFGR for kPll from the HSE.
std::uint32_t pll_configuration_register() noexcept;

/// Runs the sequence once (board::init); safe to call again (it returns the
/// new outcome and leaves a working clock either way).
ClockTree configure_clock_tree() noexcept;

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn
