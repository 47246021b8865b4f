// platform/baremetal/src/fault_handlers.cpp — HardFault and unhandled
// exceptions: report over the console (semihosting under QEMU) and exit with
// a non-zero code, so that a test under emulation fails instead of hanging.
//
// Exception frame (r0-r3, r12, lr, pc, xPSR) and EXC_RETURN bit 2 selecting
// MSP/PSP: ARMv7-M ARM (DDI 0403E) B1.5.6-B1.5.8. Fault status registers:
// B3.2.15-B3.2.18.
#include <cstdint>

#include "hodyn/baremetal/cortex_m_registers.hpp"
#include "hodyn/baremetal/fault.hpp"
#include "hodyn/baremetal/runtime.hpp"

namespace cm = hodyn::baremetal::cortex_m;

extern "C" {

[[noreturn]] void hodyn_baremetal_hard_fault(const std::uint32_t* frame) noexcept {
  hodyn::baremetal::Console& out = hodyn::baremetal::console();
  out.print("\n*** HardFault: pc ")
      .print_hex(frame[6])
      .print(" lr ")
      .print_hex(frame[5])
      .print(" xpsr ")
      .print_hex(frame[7])
      .print("\n    CFSR ")
      .print_hex(cm::reg32(cm::kCfsr))
      .print(" HFSR ")
      .print_hex(cm::reg32(cm::kHfsr))
      .print(" MMFAR ")
      .print_hex(cm::reg32(cm::kMmfar))
      .print(" BFAR ")
      .print_hex(cm::reg32(cm::kBfar))
      .print("\n");
  hodyn::baremetal::exit(hodyn::baremetal::kExitHardFault);
}

// Passes the stacked frame (of whichever stack was active) to the reporter.
__attribute__((naked)) void HardFault_Handler() noexcept {
  __asm__ volatile(
      "tst lr, #4\n\t"
      "ite eq\n\t"
      "mrseq r0, msp\n\t"
      "mrsne r0, psp\n\t"
      "b hodyn_baremetal_hard_fault\n\t");
}

[[noreturn]] void hodyn_baremetal_unhandled_exception() noexcept {
  std::uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  hodyn::baremetal::console()
      .print("\n*** unhandled exception ")
      .print(static_cast<unsigned>(ipsr & 0x1FFu))
      .print("\n");
  hodyn::baremetal::exit(hodyn::baremetal::kExitUnhandledException);
}

}  // extern "C"
