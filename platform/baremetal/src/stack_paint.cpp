// platform/baremetal/src/stack_paint.cpp — stack painting over the linker
// script's .stack region [__stack_bottom, __stack_top).
#include "hodyn/baremetal/stack_paint.hpp"

#include "hodyn/baremetal/cortex_m_registers.hpp"

extern "C" std::uint32_t __stack_bottom;
extern "C" std::uint32_t __stack_top;

namespace hodyn {
namespace baremetal {
namespace {

// Words left unpainted below the stack pointer: room for the painting loop's
// own frame (it never calls anything).
constexpr std::size_t kGuardWords = 16;

std::uintptr_t bottom() noexcept { return reinterpret_cast<std::uintptr_t>(&__stack_bottom); }
std::uintptr_t top() noexcept { return reinterpret_cast<std::uintptr_t>(&__stack_top); }

}  // namespace

std::size_t stack_size_bytes() noexcept { return top() - bottom(); }

std::size_t stack_depth_bytes() noexcept { return top() - cortex_m::stack_pointer(); }

void paint_unused_stack() noexcept {
  volatile std::uint32_t* word = &__stack_bottom;
  volatile std::uint32_t* const end =
      reinterpret_cast<volatile std::uint32_t*>(cortex_m::stack_pointer()) - kGuardWords;
  for (; word < end; ++word) *word = kStackPaintPattern;
}

std::size_t stack_high_water_bytes() noexcept {
  const volatile std::uint32_t* word = &__stack_bottom;
  const volatile std::uint32_t* const end = &__stack_top;
  while (word < end && *word == kStackPaintPattern) ++word;
  return top() - reinterpret_cast<std::uintptr_t>(word);
}

}  // namespace baremetal
}  // namespace hodyn

extern "C" void hodyn_baremetal_paint_unused_stack() { hodyn::baremetal::paint_unused_stack(); }
