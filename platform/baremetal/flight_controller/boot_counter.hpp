// boot_counter.hpp — the controller firmware's boot counter: a number that
// grows by one on every start and is never the same twice for a provisioned
// key (docs/link-security.md, "Freshness"). It is the controller's
// contribution to each session's keys; the firmware has no entropy source
// under QEMU, so this is what makes a recorded session useless after a
// restart.
//
// It lives in non-volatile storage and is written (the new value) before it
// is used. Under QEMU the emulated MPS2 flash is reloaded from the image on
// every start, so the store is a host file reached through semihosting
// (SYS_OPEN/READ/WRITE/CLOSE, "Semihosting for AArch32 and AArch64", Arm,
// 2.0, section 6): `hodyn-fc-boot-counter.bin` in QEMU's working directory,
// 16 bytes = the counter and its complement, little-endian. A real board would
// keep it in a flash page or a backup register; the STM32H743 port has no such
// store yet, and a signed image refuses to fly there (next_boot_counter fails).
#pragma once

#include <cstdint>

namespace hodyn {
namespace firmware {

/// Why next_boot_counter() failed.
enum class BootCounterError : std::uint8_t {
  kNone = 0,
  kNoStore,  ///< no non-volatile store on this board (no semihosting)
  kCorrupt,  ///< the stored value fails its check: not trusted, not reset
  kWriteFailed,
  kExhausted,  ///< 2^32 - 1 boots
};

/// Reads the stored counter (0 when there is none yet), stores counter + 1
/// and returns it (>= 1). False when it cannot: then a signed link must not
/// start.
bool next_boot_counter(std::uint32_t& counter, BootCounterError& error) noexcept;

const char* to_string(BootCounterError error) noexcept;

}  // namespace firmware
}  // namespace hodyn
