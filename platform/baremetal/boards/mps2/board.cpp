// boards/mps2/board.cpp — the MPS2 FPGA images (AN385/AN386/AN500) as QEMU
// models them: 25 MHz system clock (the images' SYSCLK; QEMU hw/arm/mps2.c),
// CMSDK APB UART0 at 0x40004000 (stdio of `qemu-system-arm -nographic`), and
// semihosting served by QEMU (`-semihosting-config enable=on,target=native`).
// HODYN_BOARD_NAME is "mps2-an500" or "mps2-an386" (set by CMake).
#include "hodyn/baremetal/board.hpp"
#include "hodyn/baremetal/cmsdk_uart.hpp"

#ifndef HODYN_BOARD_NAME
#error "HODYN_BOARD_NAME must be defined (CMake)"
#endif

namespace hodyn {
namespace baremetal {
namespace board {
namespace {

constexpr std::uint32_t kSystemClockHz = 25'000'000;
constexpr std::uintptr_t kUart0Base = 0x40004000;
constexpr std::uint32_t kConsoleBaud = 115200;

CmsdkUart g_uart0{kUart0Base};

}  // namespace

void init() noexcept { (void)g_uart0.init(kSystemClockHz, kConsoleBaud); }

std::uint32_t core_clock_hz() noexcept { return kSystemClockHz; }

const char* name() noexcept { return HODYN_BOARD_NAME; }

SerialPort& serial_port() noexcept { return g_uart0; }

bool has_semihosting() noexcept { return true; }

}  // namespace board
}  // namespace baremetal
}  // namespace hodyn
