// hodyn/baremetal/board.hpp — what a board port provides (boards/<name>/board.cpp).
//
// startup.cpp calls board::init() after .data/.bss are set up and before the
// static constructors and main(). A new board: a board.cpp implementing these,
// a memory.ld (MEMORY regions + region aliases, then INCLUDE sections.ld), and
// one hodyn_baremetal_add_board() line in platform/baremetal/CMakeLists.txt.
#pragma once

#include <cstdint>

#include "hodyn/baremetal/serial_port.hpp"

namespace hodyn {
namespace baremetal {
namespace board {

/// Clocks, caches, pins, the console UART. Runs before static constructors.
void init() noexcept;

/// The core clock after init() (SysTick counts it).
std::uint32_t core_clock_hz() noexcept;

/// Human-readable board name, e.g. "mps2-an500".
const char* name() noexcept;

/// The board's main serial port, 8N1, initialised by init(): 115200 baud on
/// the MPS2 boards, 921600 on the STM32 ports (the HIL link's rate).
SerialPort& serial_port() noexcept;

/// True when the board runs under a debugger/emulator that serves semihosting
/// (QEMU boards); false on a free-running board, where BKPT would fault.
bool has_semihosting() noexcept;

}  // namespace board
}  // namespace baremetal
}  // namespace hodyn
