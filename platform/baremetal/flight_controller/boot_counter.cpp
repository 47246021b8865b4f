// The boot counter in a semihosting file (boot_counter.hpp). Semihosting
// calls on M-profile: operation in r0, parameter block in r1, BKPT 0xAB,
// result in r0 ("Semihosting for AArch32 and AArch64", Arm, 2.0): SYS_OPEN
// 0x01 {name, mode, length} -> handle or -1 (mode 1 "rb", 5 "wb"); SYS_CLOSE
// 0x02 {handle}; SYS_WRITE 0x05 / SYS_READ 0x06 {handle, buffer, length} ->
// bytes NOT transferred.
#include "boot_counter.hpp"

#include <cstddef>

#include "hodyn/baremetal/board.hpp"

namespace hodyn {
namespace firmware {
namespace {

constexpr std::uintptr_t kSysOpen = 0x01, kSysClose = 0x02, kSysWrite = 0x05, kSysRead = 0x06;
constexpr std::uintptr_t kModeReadBinary = 1, kModeWriteBinary = 5;
constexpr char kFileName[] = "hodyn-fc-boot-counter.bin";
constexpr std::size_t kRecordSize = 16;  // counter (u64) + its complement (u64)

std::intptr_t call(std::uintptr_t operation, const void* block) noexcept {
  register std::uintptr_t r0 __asm__("r0") = operation;
  register const void* r1 __asm__("r1") = block;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return static_cast<std::intptr_t>(r0);
}

std::intptr_t open_file(std::uintptr_t mode) noexcept {
  const std::uintptr_t block[3] = {reinterpret_cast<std::uintptr_t>(kFileName), mode,
                                   sizeof kFileName - 1};
  return call(kSysOpen, block);
}

void close_file(std::intptr_t handle) noexcept {
  const std::uintptr_t block[1] = {static_cast<std::uintptr_t>(handle)};
  (void)call(kSysClose, block);
}

// Bytes NOT transferred (0: all).
std::intptr_t transfer(std::uintptr_t operation, std::intptr_t handle, std::uint8_t* data,
                       std::size_t size) noexcept {
  const std::uintptr_t block[3] = {static_cast<std::uintptr_t>(handle),
                                   reinterpret_cast<std::uintptr_t>(data), size};
  return call(operation, block);
}

std::uint64_t load_le64(const std::uint8_t* p) noexcept {
  std::uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | p[k];
  return v;
}

void store_le64(std::uint64_t v, std::uint8_t* p) noexcept {
  for (int k = 0; k < 8; ++k) p[k] = static_cast<std::uint8_t>(v >> (8 * k));
}

}  // namespace

bool next_boot_counter(std::uint32_t& counter, BootCounterError& error) noexcept {
  counter = 0;
  error = BootCounterError::kNone;
  if (!baremetal::board::has_semihosting()) {
    error = BootCounterError::kNoStore;
    return false;
  }
  std::uint8_t record[kRecordSize] = {};
  std::uint64_t stored = 0;
  const std::intptr_t in = open_file(kModeReadBinary);
  if (in != -1) {  // none yet: the first boot with this store
    const std::intptr_t missing = transfer(kSysRead, in, record, sizeof record);
    close_file(in);
    stored = load_le64(record);
    if (missing != 0 || load_le64(record + 8) != ~stored || stored >= 0xFFFFFFFFu) {
      error = stored >= 0xFFFFFFFFu && missing == 0 && load_le64(record + 8) == ~stored
                  ? BootCounterError::kExhausted
                  : BootCounterError::kCorrupt;
      return false;
    }
  }
  const std::uint64_t next = stored + 1;
  store_le64(next, record);
  store_le64(~next, record + 8);
  const std::intptr_t out = open_file(kModeWriteBinary);
  if (out == -1) {
    error = BootCounterError::kWriteFailed;
    return false;
  }
  const std::intptr_t unwritten = transfer(kSysWrite, out, record, sizeof record);
  close_file(out);
  if (unwritten != 0) {
    error = BootCounterError::kWriteFailed;
    return false;
  }
  counter = static_cast<std::uint32_t>(next);
  return true;
}

const char* to_string(BootCounterError error) noexcept {
  switch (error) {
    case BootCounterError::kNone:
      return "none";
    case BootCounterError::kNoStore:
      return "no non-volatile store on this board";
    case BootCounterError::kCorrupt:
      return "the stored boot counter is corrupt";
    case BootCounterError::kWriteFailed:
      return "the boot counter could not be written";
    case BootCounterError::kExhausted:
      return "the boot counter is exhausted";
  }
  return "unknown";
}

}  // namespace firmware
}  // namespace hodyn
