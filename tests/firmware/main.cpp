// tests/firmware/main.cpp — the on-target self-test image: the core's Taylor
// oracles and round trips, the Lie-group maps, the controller's safety checks,
// the runtime (no heap, stack high-water mark). Prints "N passed, M failed"
// over semihosting and exits non-zero on any failure (docs/firmware.md).
#include "hodyn/baremetal/runtime.hpp"

#include "self_test.hpp"

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
  ft::run_lie_group_checks(checks);
  ft::run_dynamics_checks(checks);
  checks.measure_count("stack high-water mark (Taylor oracle)", bm::stack_high_water_bytes(),
                       " bytes");
  ft::run_controller_checks(checks);
  checks.measure_count("emulated run time",
                       (bm::cycles() - start) / (bm::board::core_clock_hz() / 1000u),
                       " ms (SysTick)");
  return checks.summary();
}
