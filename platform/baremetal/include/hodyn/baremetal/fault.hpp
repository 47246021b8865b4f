// hodyn/baremetal/fault.hpp — the exit codes with which the runtime ends a
// program that went wrong (seen as QEMU's exit status under semihosting).
#pragma once

namespace hodyn {
namespace baremetal {

inline constexpr int kExitHardFault = 125;           ///< HardFault (report on the console)
inline constexpr int kExitUnhandledException = 126;  ///< an exception without a handler
inline constexpr int kExitAbort = 134;               ///< abort() or a failed assert()

}  // namespace baremetal
}  // namespace hodyn
