// boards/stm32f405/clock_tree.cpp — see clock_tree.hpp. Sequence: RM0090 rev 19,
// 6.2.2 (HSE), 6.2.3 (PLL), 3.5.1 "Relation between CPU clock frequency and
// flash memory read time" (raise the latency BEFORE raising the clock, and
// read it back), 6.3.3 RCC_CFGR (SW/SWS).
#include "clock_tree.hpp"

#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "registers.hpp"

namespace hodyn {
namespace baremetal {
namespace stm32f405 {
namespace {

namespace cm = cortex_m;

/// Polls until (register & mask) == value, at most `polls` times. Returns the
/// polls left (0: timed out).
std::uint32_t wait_for(std::uintptr_t address, std::uint32_t mask, std::uint32_t value,
                       std::uint32_t polls) noexcept {
  for (; polls > 0u; --polls) {
    if ((cm::reg32(address) & mask) == value) return polls;
  }
  return 0u;
}

ClockTree hsi_clocks(ClockStatus status, std::uint32_t failed_polls) noexcept {
  ClockTree t;
  t.status = status;
  t.rcc_responds = true;
  t.sysclk_hz = t.apb1_hz = t.apb2_hz = t.apb1_timer_hz = kHsiHz;
  t.failed_wait_polls = failed_polls;
  return t;
}

/// Back to the reset clock: SYSCLK = HSI, every prescaler /1, PLL and HSE off.
void back_to_hsi() noexcept {
  std::uint32_t cfgr = cm::reg32(kRccCfgr);
  cfgr &= ~(kRccCfgrSwMask | kRccCfgrHpreMask | kRccCfgrPpre1Mask | kRccCfgrPpre2Mask);
  cm::reg32(kRccCfgr) = cfgr;  // SW = 00: HSI
  (void)wait_for(kRccCfgr, kRccCfgrSwsMask, 0u, kSwitchPolls);
  cm::reg32(kRccCr) &= ~(kRccCrPllon | kRccCrHseon);
}

}  // namespace

const char* to_string(ClockStatus status) noexcept {
  switch (status) {
    case ClockStatus::kPllFromHse: return "168 MHz from the HSE";
    case ClockStatus::kHseTimeout: return "HSE not ready";
    case ClockStatus::kFlashLatencyRejected: return "flash latency not taken";
    case ClockStatus::kPllTimeout: return "PLL not locked";
    case ClockStatus::kSwitchTimeout: return "switch to the PLL not seen";
  }
  return "?";
}

std::uint32_t pll_configuration_register() noexcept {
  return kPll.m | (kPll.n << kRccPllcfgrNShift) | (((kPll.p / 2u) - 1u) << kRccPllcfgrPShift) |
         kRccPllcfgrSrcHse | (kPll.q << kRccPllcfgrQShift);
}

ClockTree configure_clock_tree() noexcept {
  // 1. HSE on (a crystal; HSEBYP for an external clock), bounded wait.
  cm::reg32(kRccCr) = (cm::reg32(kRccCr) & ~kRccCrHsebyp) | kRccCrHseon;
  if (wait_for(kRccCr, kRccCrHserdy, kRccCrHserdy, kHseReadyPolls) == 0u) {
    if ((cm::reg32(kRccCr) & kRccCrHsirdy) == 0u) {
      // No RCC answers: an emulator (QEMU netduinoplus2). Its SYSCLK is fixed.
      ClockTree t;
      t.status = ClockStatus::kHseTimeout;
      t.rcc_responds = false;
      t.sysclk_hz = kEmulatorSysclkHz;
      t.apb1_hz = kEmulatorSysclkHz / 4u;
      t.apb2_hz = kEmulatorSysclkHz / 2u;
      t.apb1_timer_hz = kEmulatorSysclkHz / 2u;
      t.failed_wait_polls = kHseReadyPolls;
      return t;
    }
    back_to_hsi();
    return hsi_clocks(ClockStatus::kHseTimeout, kHseReadyPolls);
  }
  // 2. Regulator scale 1 (needed above 144 MHz): PWR clock on, VOS = 1.
  cm::reg32(kRccApb1enr) |= kRccApb1enrPwr;
  read_back(kRccApb1enr);  // the clock runs before the PWR access
  cm::reg32(kPwrCr) |= kPwrCrVos;
  // 3. Flash: 5 wait states, prefetch and caches, read back before going faster.
  const std::uint32_t acr = 5u | kFlashAcrPrften | kFlashAcrIcen | kFlashAcrDcen;
  cm::reg32(kFlashAcr) = acr;
  if ((cm::reg32(kFlashAcr) & (kFlashAcrLatencyMask | kFlashAcrPrften | kFlashAcrIcen |
                               kFlashAcrDcen)) != acr) {
    back_to_hsi();
    return hsi_clocks(ClockStatus::kFlashLatencyRejected, 1u);
  }
  // 4. PLL from the HSE, bounded wait for the lock.
  cm::reg32(kRccCr) &= ~kRccCrPllon;
  cm::reg32(kRccPllcfgr) = pll_configuration_register();
  cm::reg32(kRccCr) |= kRccCrPllon;
  if (wait_for(kRccCr, kRccCrPllrdy, kRccCrPllrdy, kPllReadyPolls) == 0u) {
    back_to_hsi();
    return hsi_clocks(ClockStatus::kPllTimeout, kPllReadyPolls);
  }
  // 5. Bus prescalers (AHB /1, APB1 /4, APB2 /2), then SYSCLK = PLL.
  std::uint32_t cfgr = cm::reg32(kRccCfgr);
  cfgr &= ~(kRccCfgrHpreMask | kRccCfgrPpre1Mask | kRccCfgrPpre2Mask);
  cfgr |= kRccCfgrPpre1Div4 | kRccCfgrPpre2Div2;
  cm::reg32(kRccCfgr) = cfgr;
  cm::reg32(kRccCfgr) = (cfgr & ~kRccCfgrSwMask) | kRccCfgrSwPll;
  if (wait_for(kRccCfgr, kRccCfgrSwsMask, kRccCfgrSwsPll, kSwitchPolls) == 0u) {
    back_to_hsi();
    return hsi_clocks(ClockStatus::kSwitchTimeout, kSwitchPolls);
  }
  ClockTree t;
  t.status = ClockStatus::kPllFromHse;
  t.rcc_responds = true;
  t.sysclk_hz = kTargetSysclkHz;
  t.apb1_hz = kTargetSysclkHz / 4u;
  t.apb2_hz = kTargetSysclkHz / 2u;
  t.apb1_timer_hz = kTargetSysclkHz / 2u;  // APB1 prescaler != 1: timers at 2 x APB1
  return t;
}

}  // namespace stm32f405
}  // namespace baremetal
}  // namespace hodyn
