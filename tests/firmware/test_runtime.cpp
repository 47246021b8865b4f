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
  // cycles() is read against the tick interrupt: across 30 wraps (and the
  // reads that land between a wrap and its exception entry) it must never run
  // backwards, and it must agree with the tick count.
  std::uint64_t previous = bm::cycles();
  std::uint32_t backwards = 0;
  std::uint64_t worst_step_back = 0;
  const std::uint32_t t1 = bm::ticks();
  while (bm::ticks() - t1 < 30u) {
    const std::uint64_t now = bm::cycles();
    if (now < previous) {
      ++backwards;
      if (previous - now > worst_step_back) worst_step_back = previous - now;
    }
    previous = now;
  }
  checks.expect(backwards == 0u, "SysTick cycles never run backwards across tick wraps");
  checks.measure_count("cycles() reads that ran backwards", backwards);
  checks.measure_count("largest step back", worst_step_back, " cycles");
  // cycles() = (ticks, plus one for a wrap whose exception is pending) ·
  // cycles per tick + the elapsed part of the period, so a reading taken
  // between two tick counts t_a ≤ t_b lies in [t_a, t_b + 2) periods. The
  // tick counts bracket the reading: without -icount QEMU's clock follows the
  // host, and a host that descheduled the emulator between two reads (CI runs
  // two emulators on two cores) once moved a tick between them.
  const std::uint64_t per_tick = bm::board::core_clock_hz() / 1000u;
  const std::uint64_t ticks_before = bm::ticks();
  const std::uint64_t reading = bm::cycles();
  const std::uint64_t ticks_after = bm::ticks();
  checks.expect(reading >= ticks_before * per_tick && reading < (ticks_after + 2u) * per_tick,
                "cycles() between the tick counts read before and after it");
  checks.measure_count("ticks between the bracketing reads", ticks_after - ticks_before);
  checks.expect(bm::stack_high_water_bytes() < bm::stack_size_bytes(),
                "stack painted, not exhausted");
  checks.measure_count("stack region", bm::stack_size_bytes(), " bytes");
}

}  // namespace firmware_test
}  // namespace hodyn
