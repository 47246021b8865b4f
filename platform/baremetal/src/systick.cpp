// platform/baremetal/src/systick.cpp — SysTick time base (ARMv7-M ARM,
// DDI 0403E, B3.3): reload = core_clock_hz / tick_hz − 1, processor clock,
// interrupt on every wrap; the handler counts ticks.
#include "hodyn/baremetal/systick.hpp"

#include "hodyn/baremetal/cortex_m_registers.hpp"

namespace hodyn {
namespace baremetal {
namespace {

namespace cm = cortex_m;

volatile std::uint32_t g_ticks = 0;
std::uint32_t g_cycles_per_tick = 0;
std::uint32_t g_tick_hz = 0;
std::uint32_t g_core_clock_hz = 0;

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
  st.rvr = cycles_per_tick - 1u;
  st.cvr = 0u;  // any write clears the counter and COUNTFLAG
  st.csr = cm::kSysTickEnable | cm::kSysTickInterrupt | cm::kSysTickProcessorClock;
  return true;
}

std::uint32_t ticks() noexcept { return g_ticks; }

std::uint32_t millis() noexcept {
  if (g_tick_hz == 0u) return 0u;
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(g_ticks) * 1000u / g_tick_hz);
}

std::uint64_t cycles() noexcept {
  if (g_cycles_per_tick == 0u) return 0u;
  const cm::SysTickRegisters& st = cm::systick_registers();
  std::uint32_t before, value, after;
  // Re-read when the tick interrupt ran in between (value and tick count
  // must belong to the same period).
  do {
    before = g_ticks;
    value = st.cvr;
    after = g_ticks;
  } while (before != after);
  return static_cast<std::uint64_t>(before) * g_cycles_per_tick + (g_cycles_per_tick - 1u - value);
}

std::uint64_t micros() noexcept {
  if (g_core_clock_hz == 0u) return 0u;
  return cycles() * 1000000u / g_core_clock_hz;
}

extern "C" void SysTick_Handler() noexcept { g_ticks = g_ticks + 1u; }

}  // namespace baremetal
}  // namespace hodyn
