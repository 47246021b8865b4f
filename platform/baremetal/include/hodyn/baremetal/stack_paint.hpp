// hodyn/baremetal/stack_paint.hpp — stack painting: fill the unused stack with
// a pattern, later find the deepest word that was overwritten (the high-water
// mark). The stack is the linker script's .stack region [__stack_bottom,
// __stack_top) at the bottom of RAM (an overflow faults instead of
// overwriting .data/.bss).
//
//   const std::size_t before = stack_depth_bytes();
//   paint_unused_stack();
//   controller.update(...);
//   const std::size_t used_by_update = stack_high_water_bytes() - before;
#pragma once

#include <cstddef>
#include <cstdint>

namespace hodyn {
namespace baremetal {

inline constexpr std::uint32_t kStackPaintPattern = 0xC0DEFACEu;

/// Bytes of the stack region.
std::size_t stack_size_bytes() noexcept;

/// Bytes between the top of the stack and the current stack pointer.
std::size_t stack_depth_bytes() noexcept;

/// Paints the region below the current stack pointer (minus a small guard for
/// this call's own frame). startup.cpp does it once before main().
void paint_unused_stack() noexcept;

/// Deepest use since the last painting, in bytes from the top of the stack:
/// scans up from the bottom for the first word that lost the pattern.
std::size_t stack_high_water_bytes() noexcept;

}  // namespace baremetal
}  // namespace hodyn
