// hodyn/baremetal/runtime.hpp — the bare-metal runtime in one include: the
// board interface, the console, the time base, the UART and stack painting,
// and the way out.
#pragma once

#include "hodyn/baremetal/board.hpp"
#include "hodyn/baremetal/console.hpp"
#include "hodyn/baremetal/semihosting.hpp"
#include "hodyn/baremetal/serial_port.hpp"
#include "hodyn/baremetal/stack_paint.hpp"
#include "hodyn/baremetal/systick.hpp"

namespace hodyn {
namespace baremetal {

/// The console of this board: semihosting where the board has it, else its
/// serial port.
Console& console() noexcept;

/// Ends the program: flushes the console, then reports `code` to the host by
/// semihosting (QEMU exits with it); on a board without semihosting, disables
/// interrupts and sleeps forever. Returning from main() ends up here too.
[[noreturn]] void exit(int code) noexcept;

}  // namespace baremetal
}  // namespace hodyn
