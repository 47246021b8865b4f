// platform/baremetal/src/semihosting.cpp — semihosting calls on M-profile:
// operation in r0, argument in r1, BKPT 0xAB; result in r0.
// "Semihosting for AArch32 and AArch64" (Arm, version 2.0): SYS_WRITE0 0x04,
// SYS_EXIT 0x18 (A32: the reason in r1), SYS_EXIT_EXTENDED 0x20 (parameter
// block {reason, subcode}), ADP_Stopped_ApplicationExit 0x20026,
// ADP_Stopped_RunTimeErrorUnknown 0x20023.
#include "hodyn/baremetal/semihosting.hpp"

#include <cstdint>

namespace hodyn {
namespace baremetal {
namespace semihosting {
namespace {

constexpr std::uintptr_t kSysWrite0 = 0x04;
constexpr std::uintptr_t kSysExit = 0x18;
constexpr std::uintptr_t kSysExitExtended = 0x20;
constexpr std::uintptr_t kApplicationExit = 0x20026;
constexpr std::uintptr_t kRunTimeErrorUnknown = 0x20023;

std::uintptr_t call(std::uintptr_t operation, std::uintptr_t argument) noexcept {
  register std::uintptr_t r0 __asm__("r0") = operation;
  register std::uintptr_t r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

}  // namespace

void write0(const char* text) noexcept { call(kSysWrite0, reinterpret_cast<std::uintptr_t>(text)); }

void write(const char* data, std::size_t size) noexcept {
  char chunk[65];
  while (size > 0) {
    std::size_t n = 0;
    for (; n < sizeof chunk - 1 && n < size; ++n) chunk[n] = data[n];
    chunk[n] = '\0';
    write0(chunk);
    data += n;
    size -= n;
  }
}

void exit(int code) noexcept {
  const std::uintptr_t block[2] = {kApplicationExit, static_cast<std::uintptr_t>(code)};
  call(kSysExitExtended, reinterpret_cast<std::uintptr_t>(block));
  // Only reached when the host does not implement SYS_EXIT_EXTENDED.
  call(kSysExit, code == 0 ? kApplicationExit : kRunTimeErrorUnknown);
  for (;;) {
  }
}

}  // namespace semihosting
}  // namespace baremetal
}  // namespace hodyn
