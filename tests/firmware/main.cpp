// tests/firmware/main.cpp — the on-target self-test image: the core's Taylor
// oracles and round trips, the Lie-group maps, the controller's safety checks,
// the runtime (no heap, stack high-water mark). Prints "N passed, M failed"
// over semihosting and exits non-zero on any failure (docs/firmware.md).
#include "hodyn/baremetal/runtime.hpp"

#include "self_test.hpp"

#ifndef HODYN_SELFTEST_PART
#define HODYN_SELFTEST_PART 0
#endif

namespace bm = hodyn::baremetal;
namespace ft = hodyn::firmware_test;

int main() {
  (void)bm::systick_init(bm::board::core_clock_hz(), 1000);
  bm::Console& out = bm::console();
  out.print("hodyn firmware self-test on ")
      .print(bm::board::name())
      .print(", scalar ")
      .print(sizeof(ft::Scalar) == 8 ? "double" : "float")
      .print("\n");
  ft::Checks checks(out);
  const std::uint64_t start = bm::cycles();
  ft::run_runtime_checks(checks);
#if defined(HODYN_SELFTEST_STM32F405)
  ft::run_stm32f405_checks(checks);
#endif
  // HODYN_SELFTEST_PART: 0 every group; a board too small for one image
  // (the STM32F405) runs 1 (all but the dynamics) and 2 (the dynamics).
#if HODYN_SELFTEST_PART != 2
  ft::run_lie_group_checks(checks);
#endif
#if HODYN_SELFTEST_PART != 1
  ft::run_dynamics_checks(checks);
  checks.measure_count("stack high-water mark (Taylor oracle)", bm::stack_high_water_bytes(),
                       " bytes");
#endif
#if HODYN_SELFTEST_PART != 2
  ft::run_controller_checks(checks);
#endif
  checks.measure_count("emulated run time",
                       (bm::cycles() - start) / (bm::board::core_clock_hz() / 1000u),
                       " ms (SysTick)");
  return checks.summary();
}
