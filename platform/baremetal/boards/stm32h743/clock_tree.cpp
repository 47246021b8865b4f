// boards/stm32h743/clock_tree.cpp — see clock_tree.hpp. Register addresses and
// fields: RM0433 rev 7 — PWR (base 0x5802 4800) 6.8.4 CSR1, 6.8.5 CR3,
// 6.8.6 D3CR; RCC (base 0x5802 4400) 8.7.2 CR, 8.7.7 CFGR, 8.7.8-8.7.10
// D1/D2/D3CFGR, 8.7.11 PLLCKSELR, 8.7.12 PLLCFGR, 8.7.13 PLL1DIVR; FLASH
// (base 0x5200 2000) 4.9.1 ACR. NOT RUN ANYWHERE.
#include "clock_tree.hpp"

#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32h743 {
namespace {

namespace cm = cortex_m;

constexpr std::uintptr_t kPwrBase = 0x58024800;
constexpr std::uintptr_t kPwrCsr1 = kPwrBase + 0x04;
constexpr std::uintptr_t kPwrCr3 = kPwrBase + 0x0C;
constexpr std::uintptr_t kPwrD3cr = kPwrBase + 0x18;
constexpr std::uint32_t kPwrCsr1Actvosrdy = 1u << 13;
constexpr std::uint32_t kPwrCr3Bypass = 1u << 0;
constexpr std::uint32_t kPwrCr3Ldoen = 1u << 1;
constexpr std::uint32_t kPwrCr3Scuen = 1u << 2;
constexpr std::uint32_t kPwrD3crVosMask = 3u << 14;
constexpr std::uint32_t kPwrD3crVos1 = 3u << 14;
constexpr std::uint32_t kPwrD3crVosrdy = 1u << 13;

constexpr std::uintptr_t kRccCr = kRccBase + 0x00;
constexpr std::uintptr_t kRccCfgr = kRccBase + 0x10;
constexpr std::uintptr_t kRccD1cfgr = kRccBase + 0x18;
constexpr std::uintptr_t kRccD2cfgr = kRccBase + 0x1C;
constexpr std::uintptr_t kRccD3cfgr = kRccBase + 0x20;
constexpr std::uintptr_t kRccPllckselr = kRccBase + 0x28;
constexpr std::uintptr_t kRccPllcfgr = kRccBase + 0x2C;
constexpr std::uintptr_t kRccPll1divr = kRccBase + 0x30;
constexpr std::uint32_t kRccCrHseon = 1u << 16;
constexpr std::uint32_t kRccCrHserdy = 1u << 17;
constexpr std::uint32_t kRccCrHsebyp = 1u << 18;
constexpr std::uint32_t kRccCrPll1on = 1u << 24;
constexpr std::uint32_t kRccCrPll1rdy = 1u << 25;
constexpr std::uint32_t kRccCfgrSwMask = 7u << 0;
constexpr std::uint32_t kRccCfgrSwPll1 = 3u << 0;
constexpr std::uint32_t kRccCfgrSwsMask = 7u << 3;
constexpr std::uint32_t kRccCfgrSwsPll1 = 3u << 3;
constexpr std::uint32_t kPrescalerDiv2 = 4u;  // 3-bit APB prescaler fields: 100 = /2
constexpr std::uint32_t kHpreDiv2 = 8u;       // 4-bit HPRE: 1000 = /2
constexpr std::uint32_t kPllsrcHse = 2u;      // PLLCKSELR.PLLSRC
constexpr std::uint32_t kPll1Rge2To4 = 1u << 2;  // PLLCFGR.PLL1RGE, VCOSEL 0 (wide), FRACEN 0
constexpr std::uint32_t kPllcfgrPll1Mask = 0xFu | (7u << 16);  // PLL1's own fields
constexpr std::uint32_t kDivp1en = 1u << 16, kDivq1en = 1u << 17, kDivr1en = 1u << 18;

constexpr std::uintptr_t kFlashAcr = 0x52002000;
constexpr std::uint32_t kFlashAcrLatencyMask = 0xFu;
constexpr std::uint32_t kFlashAcrWrhighfreqMask = 3u << 4;
constexpr std::uint32_t kFlashAcrValue = 4u | (2u << 4);  // 4 wait states, WRHIGHFREQ 2

bool wait_for(std::uintptr_t address, std::uint32_t mask, std::uint32_t value) noexcept {
  for (std::uint32_t polls = kReadyPolls; polls > 0u; --polls) {
    if ((cm::reg32(address) & mask) == value) return true;
  }
  return false;
}

/// The reset clock: HSI 64 MHz, every prescaler /1, PLL1 and HSE off.
ClockTree back_to_hsi(ClockStatus status) noexcept {
  cm::reg32(kRccCfgr) &= ~kRccCfgrSwMask;  // SW = HSI
  (void)wait_for(kRccCfgr, kRccCfgrSwsMask, 0u);
  cm::reg32(kRccD1cfgr) = 0u;
  cm::reg32(kRccD2cfgr) = 0u;
  cm::reg32(kRccD3cfgr) = 0u;
  cm::reg32(kRccCr) &= ~(kRccCrPll1on | kRccCrHseon);
  ClockTree t;
  t.status = status;
  t.sysclk_hz = kHsiHz;
  t.apb1_hz = kHsiHz;
  t.apb1_timer_hz = kHsiHz;
  return t;
}

}  // namespace

const char* to_string(ClockStatus status) noexcept {
  switch (status) {
    case ClockStatus::kPllFromHse: return "400 MHz from the HSE";
    case ClockStatus::kSupplyNotReady: return "supply not ready";
    case ClockStatus::kVoltageScaleTimeout: return "VOS1 not ready";
    case ClockStatus::kHseTimeout: return "HSE not ready";
    case ClockStatus::kFlashLatencyRejected: return "flash latency not taken";
    case ClockStatus::kPllTimeout: return "PLL1 not locked";
    case ClockStatus::kSwitchTimeout: return "switch to PLL1 not seen";
  }
  return "?";
}

ClockTree configure_clock_tree() noexcept {
  // 1. Supply: the LDO (written once after reset: SCUEN then locks it), then
  //    voltage scale 1.
  cm::reg32(kPwrCr3) = (cm::reg32(kPwrCr3) & ~(kPwrCr3Bypass | kPwrCr3Scuen)) | kPwrCr3Ldoen;
  if (!wait_for(kPwrCsr1, kPwrCsr1Actvosrdy, kPwrCsr1Actvosrdy))
    return back_to_hsi(ClockStatus::kSupplyNotReady);
  cm::reg32(kPwrD3cr) = (cm::reg32(kPwrD3cr) & ~kPwrD3crVosMask) | kPwrD3crVos1;
  if (!wait_for(kPwrD3cr, kPwrD3crVosrdy, kPwrD3crVosrdy))
    return back_to_hsi(ClockStatus::kVoltageScaleTimeout);
  // 2. HSE (bypass: an external clock, as the NUCLEO's ST-LINK MCO).
  const std::uint32_t bypass = HODYN_STM32H743_HSE_BYPASS ? kRccCrHsebyp : 0u;
  cm::reg32(kRccCr) = (cm::reg32(kRccCr) & ~kRccCrHsebyp) | bypass;
  cm::reg32(kRccCr) |= kRccCrHseon;
  if (!wait_for(kRccCr, kRccCrHserdy, kRccCrHserdy)) return back_to_hsi(ClockStatus::kHseTimeout);
  // 3. Flash wait states before any faster clock; read back.
  cm::reg32(kFlashAcr) = (cm::reg32(kFlashAcr) & ~(kFlashAcrLatencyMask | kFlashAcrWrhighfreqMask)) |
                         kFlashAcrValue;
  if ((cm::reg32(kFlashAcr) & (kFlashAcrLatencyMask | kFlashAcrWrhighfreqMask)) != kFlashAcrValue)
    return back_to_hsi(ClockStatus::kFlashLatencyRejected);
  // 4. PLL1 from the HSE (configured while off), its P, Q, R outputs on.
  cm::reg32(kRccCr) &= ~kRccCrPll1on;
  if (!wait_for(kRccCr, kRccCrPll1rdy, 0u)) return back_to_hsi(ClockStatus::kPllTimeout);
  cm::reg32(kRccPllckselr) = (cm::reg32(kRccPllckselr) & ~(3u | (0x3Fu << 4))) | kPllsrcHse |
                             (kPll.m << 4);
  cm::reg32(kRccPll1divr) = pll1_divider_register();
  cm::reg32(kRccPllcfgr) = (cm::reg32(kRccPllcfgr) & ~kPllcfgrPll1Mask) | kPll1Rge2To4 | kDivp1en |
                           kDivq1en | kDivr1en;
  cm::reg32(kRccCr) |= kRccCrPll1on;
  if (!wait_for(kRccCr, kRccCrPll1rdy, kRccCrPll1rdy)) return back_to_hsi(ClockStatus::kPllTimeout);
  // 5. Prescalers (the AXI/AHB bus at most 240 MHz) before the switch:
  //    D1CPRE /1, HPRE /2, D1PPRE /2; D2PPRE1, D2PPRE2 /2; D3PPRE /2.
  cm::reg32(kRccD1cfgr) = kHpreDiv2 | (kPrescalerDiv2 << 4);
  cm::reg32(kRccD2cfgr) = (kPrescalerDiv2 << 4) | (kPrescalerDiv2 << 8);
  cm::reg32(kRccD3cfgr) = kPrescalerDiv2 << 4;
  cm::reg32(kRccCfgr) = (cm::reg32(kRccCfgr) & ~kRccCfgrSwMask) | kRccCfgrSwPll1;
  if (!wait_for(kRccCfgr, kRccCfgrSwsMask, kRccCfgrSwsPll1))
    return back_to_hsi(ClockStatus::kSwitchTimeout);
  ClockTree t;
  t.status = ClockStatus::kPllFromHse;
  t.sysclk_hz = kTargetSysclkHz;
  t.apb1_hz = kTargetSysclkHz / 4u;        // AHB /2, APB1 /2
  t.apb1_timer_hz = kTargetSysclkHz / 2u;  // = rcc_hclk1 (D2PPRE1 /2, TIMPRE 0)
  return t;
}

}  // namespace stm32h743
}  // namespace baremetal
}  // namespace hodyn
