// platform/baremetal/src/runtime.cpp — between Reset_Handler and main(): board
// init, static constructors (.preinit_array, .init_array: the ELF
// initialisation arrays of linker/sections.ld); the console and exit().
#include "hodyn/baremetal/runtime.hpp"

#include "hodyn/baremetal/cortex_m_registers.hpp"

extern "C" {
using hodyn_init_function = void (*)();
extern hodyn_init_function __preinit_array_start[];
extern hodyn_init_function __preinit_array_end[];
extern hodyn_init_function __init_array_start[];
extern hodyn_init_function __init_array_end[];
}

namespace hodyn {
namespace baremetal {

Console& console() noexcept {
  if (board::has_semihosting()) return semihosting_console();
  static ConsoleOnSerial serial(board::serial_port());
  return serial.console();
}

void exit(int code) noexcept {
  console().flush();
  if (board::has_semihosting()) semihosting::exit(code);
  cortex_m::disable_interrupts();
  for (;;) cortex_m::wait_for_interrupt();
}

}  // namespace baremetal
}  // namespace hodyn

// Called by Reset_Handler (startup.c) right before main().
extern "C" void hodyn_baremetal_init() {
  hodyn::baremetal::board::init();
  for (hodyn_init_function* f = __preinit_array_start; f < __preinit_array_end; ++f) (*f)();
  for (hodyn_init_function* f = __init_array_start; f < __init_array_end; ++f) (*f)();
}

extern "C" [[noreturn]] void hodyn_baremetal_exit(int code) { hodyn::baremetal::exit(code); }

extern "C" void hodyn_baremetal_report(const char* a, const char* b, const char* c, int line) {
  hodyn::baremetal::Console& out = hodyn::baremetal::console();
  out.print("\n*** ").print(a).print(b);
  if (line > 0) out.print(" at ").print(c).print(":").print(line);
  out.print("\n");
}
