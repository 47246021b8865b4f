// tests/firmware/main_octo_arm.cpp — the on-target self-test image of the
// second robot, octo_arm (test_controller_octo_arm.cpp): its controller in
// this build's scalar, linked with its statically registered plugin. Prints
// "N passed, M failed" over semihosting and exits non-zero on any failure
// (docs/firmware.md, "Self-tests").
#include "hodyn/baremetal/runtime.hpp"

#include "self_test.hpp"

namespace bm = hodyn::baremetal;
namespace ft = hodyn::firmware_test;

int main() {
  (void)bm::systick_init(bm::board::core_clock_hz(), 1000);
  bm::Console& out = bm::console();
  out.print("hodyn firmware self-test (octo_arm) on ")
      .print(bm::board::name())
      .print(", scalar ")
      .print(sizeof(ft::Scalar) == 8 ? "double" : "float")
      .print("\n");
  ft::Checks checks(out);
  const std::uint64_t start = bm::cycles();
  ft::run_octo_arm_controller_checks(checks);
  checks.measure_count("emulated run time",
                       (bm::cycles() - start) / (bm::board::core_clock_hz() / 1000u),
                       " ms (SysTick)");
  return checks.summary();
}
