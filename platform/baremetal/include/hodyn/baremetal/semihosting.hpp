// hodyn/baremetal/semihosting.hpp — raw Arm semihosting: text to the host's
// console and the exit code back to the host (QEMU with
// `-semihosting-config enable=on,target=native`, or a debug probe).
//
// Operation numbers and the BKPT 0xAB convention for M-profile: "Semihosting
// for AArch32 and AArch64" (Arm, 2.0), sections 5 and 6.
//
// Every call traps into the debugger: without one attached (a real board on
// its own) BKPT escalates to a HardFault. Use a board's serial port there.
#pragma once

#include <cstddef>

namespace hodyn {
namespace baremetal {
namespace semihosting {

/// Writes a NUL-terminated string to the host console (SYS_WRITE0).
void write0(const char* text) noexcept;

/// Writes `size` bytes (copied through a bounded buffer, SYS_WRITE0).
void write(const char* data, std::size_t size) noexcept;

/// Ends the program with `code` as the host's exit status: SYS_EXIT_EXTENDED
/// (any code), falling back to SYS_EXIT (0 or 1) when the host lacks it.
[[noreturn]] void exit(int code) noexcept;

}  // namespace semihosting
}  // namespace baremetal
}  // namespace hodyn
