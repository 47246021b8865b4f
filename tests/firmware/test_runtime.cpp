// tests/firmware/test_runtime.cpp — the runtime itself: no allocator in the
// image (the link already fails on malloc/_sbrk/operator new; here weak
// references prove at run time that none of them was linked), the SysTick
// time base advances, and the stack region is painted.
#include <cstddef>

#include "hodyn/baremetal/runtime.hpp"

#include "self_test.hpp"

// Weak references: null when the symbol is not in the image.
extern "C" void* malloc(std::size_t) __attribute__((weak));
extern "C" void* _sbrk(int) __attribute__((weak));
extern "C" void* _malloc_r(void*, std::size_t) __attribute__((weak));
void* operator new(std::size_t) __attribute__((weak));

namespace hodyn {
namespace firmware_test {

void run_runtime_checks(Checks& checks) noexcept {
  namespace bm = baremetal;
  checks.group("runtime");
  checks.expect(&malloc == nullptr, "no malloc in the image");
  checks.expect(&_malloc_r == nullptr, "no _malloc_r in the image");
  checks.expect(&_sbrk == nullptr, "no _sbrk in the image");
  void* (*new_operator)(std::size_t) = &::operator new;
  checks.expect(new_operator == nullptr, "no operator new in the image");
  const std::uint64_t c0 = bm::cycles();
  const std::uint32_t t0 = bm::millis();
  while (bm::millis() - t0 < 2u) {
  }
  checks.expect(bm::cycles() > c0, "SysTick cycles advance");
  checks.expect(bm::stack_high_water_bytes() < bm::stack_size_bytes(),
                "stack painted, not exhausted");
  checks.measure_count("stack region", bm::stack_size_bytes(), " bytes");
}

}  // namespace firmware_test
}  // namespace hodyn
