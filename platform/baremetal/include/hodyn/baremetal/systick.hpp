// hodyn/baremetal/systick.hpp — the time base: the Cortex-M SysTick timer
// clocked by the core, interrupting at tick_hz.
//
//   hodyn::baremetal::systick_init(board::core_clock_hz(), 1000);
//   std::uint32_t t = hodyn::baremetal::millis();
//   std::uint64_t c = hodyn::baremetal::cycles();   // core clock cycles since init
#pragma once

#include <cstdint>

namespace hodyn {
namespace baremetal {

/// Starts SysTick from the processor clock with an interrupt every
/// core_clock_hz / tick_hz cycles. False (timer untouched) when that reload
/// does not fit the 24-bit counter or is zero.
bool systick_init(std::uint32_t core_clock_hz, std::uint32_t tick_hz) noexcept;

/// Ticks since systick_init (wraps after 2^32 ticks).
std::uint32_t ticks() noexcept;

/// Milliseconds since systick_init (from the tick count; wraps like ticks()).
std::uint32_t millis() noexcept;

/// Core clock cycles since systick_init, to one cycle: ticks × reload + the
/// elapsed part of the current period. Monotonic, also across a wrap whose
/// exception has not run yet (interrupts masked, or QEMU -icount, which
/// reloads the counter before it raises the exception); callable from
/// interrupt handlers (it masks interrupts for a few instructions).
std::uint64_t cycles() noexcept;

/// Microseconds since systick_init, from cycles().
std::uint64_t micros() noexcept;

/// The SysTick interrupt (also installed in the vector table by startup.cpp).
extern "C" void SysTick_Handler() noexcept;

}  // namespace baremetal
}  // namespace hodyn
