// platform/baremetal/src/systick.cpp — SysTick time base (ARMv7-M ARM,
// DDI 0403E, B3.3): reload = core_clock_hz / tick_hz − 1, processor clock,
// interrupt on every wrap; the handler counts ticks.
#include "hodyn/baremetal/systick.hpp"

#include "hodyn/baremetal/cortex_m_registers.hpp"

namespace hodyn {
namespace baremetal {
namespace {

namespace cm = cortex_m;

// 64 bits: cycles() stays monotonic past 2^32 ticks (49 days at 1 kHz).
// Written by the handler only, read with interrupts masked where both halves
// must match.
volatile std::uint64_t g_ticks = 0;
std::uint32_t g_cycles_per_tick = 0;
std::uint32_t g_tick_hz = 0;
std::uint32_t g_core_clock_hz = 0;
// The last reading cycles() returned: its period and counter value.
std::uint64_t g_last_period = 0;
std::uint32_t g_last_value = 0;

/// The tick count, both halves from the same moment.
std::uint64_t tick_count() noexcept {
  const std::uint32_t primask = cm::save_and_disable_interrupts();
  const std::uint64_t t = g_ticks;
  cm::restore_interrupts(primask);
  return t;
}

}  // namespace

bool systick_init(std::uint32_t core_clock_hz, std::uint32_t tick_hz) noexcept {
  if (tick_hz == 0u || core_clock_hz < tick_hz) return false;
  const std::uint32_t cycles_per_tick = core_clock_hz / tick_hz;
  if (cycles_per_tick - 1u > cm::kSysTickMaxReload || cycles_per_tick < 2u) return false;
  cm::SysTickRegisters& st = cm::systick_registers();
  st.csr = 0u;
  g_ticks = 0u;
  g_cycles_per_tick = cycles_per_tick;
  g_tick_hz = tick_hz;
  g_core_clock_hz = core_clock_hz;
  g_last_period = 0;
  g_last_value = cycles_per_tick - 1u;
  st.rvr = cycles_per_tick - 1u;
  st.cvr = 0u;  // any write clears the counter and COUNTFLAG
  st.csr = cm::kSysTickEnable | cm::kSysTickInterrupt | cm::kSysTickProcessorClock;
  // The cleared counter loads the reload value on the next clock (without an
  // exception). Wait for it, so that cycles() never sees that first load as
  // a wrap (it reads the counter going up as a reload).
  for (std::uint32_t spin = 0; st.cvr == 0u && spin < cycles_per_tick; ++spin) {
  }
  return true;
}

std::uint32_t ticks() noexcept { return static_cast<std::uint32_t>(tick_count()); }

std::uint32_t millis() noexcept {
  if (g_tick_hz == 0u) return 0u;
  return static_cast<std::uint32_t>(tick_count() * 1000u / g_tick_hz);
}

std::uint64_t cycles() noexcept {
  if (g_cycles_per_tick == 0u) return 0u;
  const cm::SysTickRegisters& st = cm::systick_registers();
  const volatile std::uint32_t& icsr = cm::reg32(cm::kIcsr);
  // SysTick counts reload..0 and raises its exception on the 1 -> 0 step
  // (DDI 0403E B3.3.1). Interrupts are masked for the few reads below, so the
  // tick count is stable; a wrap whose exception has not run yet shows as
  // ICSR.PENDSTSET, and a counter value other than 0 then belongs to the next
  // period. The counter is read again after the pending bit: a larger second
  // value means it reloaded in between, and the reads are repeated.
  const std::uint32_t primask = cm::save_and_disable_interrupts();
  const std::uint64_t ticks = g_ticks;
  std::uint32_t value, pending, value_again;
  do {
    value = st.cvr;
    pending = icsr & cm::kIcsrSysTickPending;
    value_again = st.cvr;
  } while (value_again > value);
  std::uint64_t period = ticks + ((pending != 0u && value != 0u) ? 1u : 0u);
  // Never behind the last reading, and a counter that went up within the same
  // period reloaded: QEMU under -icount reloads the counter a few instructions
  // before it raises the exception (real SysTick sets PENDSTSET with the
  // reload), which made time run back by one period at most wraps.
  if (period < g_last_period) period = g_last_period;
  if (period == g_last_period && value > g_last_value) ++period;
  g_last_period = period;
  g_last_value = value;
  cm::restore_interrupts(primask);
  return period * g_cycles_per_tick + (g_cycles_per_tick - 1u - value);
}

std::uint64_t micros() noexcept {
  if (g_core_clock_hz == 0u) return 0u;
  return cycles() * 1000000u / g_core_clock_hz;
}

extern "C" void SysTick_Handler() noexcept { g_ticks = g_ticks + 1u; }

}  // namespace baremetal
}  // namespace hodyn
