// hodyn/posix/link_key.hpp — what a desktop end of a signed HIL link needs
// from the system (docs/link-security.md): the shared key from a key file,
// random session nonces and boot ids, and a never-repeating HELLO counter.
//
//   std::uint8_t key[hodyn::posix::kLinkKeyFileSize];
//   char why[256];
//   if (hodyn::posix::read_link_key(path, key, why, sizeof why) != Status::kOk) {
//     std::fprintf(stderr, "hodyn-fc: %s\n", why);  // e.g. "... mode 0644 ..."
//     return 2;
//   }
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/status.hpp"

namespace hodyn {
namespace posix {

/// A key file holds exactly this many bytes (the link's shared key).
constexpr std::size_t kLinkKeyFileSize = 32;

/// Why a key file was refused.
enum class KeyFileError : std::uint8_t {
  kNone = 0,
  kMissing,     ///< no such file
  kUnreadable,  ///< open() or read() failed (errno in the message)
  kNotRegular,  ///< a directory, a FIFO, a device…
  kBadMode,     ///< group or others may access it (only 0600 or 0400 will do)
  kBadSize,     ///< not exactly kLinkKeyFileSize bytes
  kAllZero,     ///< 32 zero bytes: not a key (an unprovisioned firmware's marker)
};

/// Reads the key file at `path` into `key`. kOk; otherwise kInvalidArgument,
/// `key` zeroed, `error` set and a one-line reason (naming the file, never its
/// bytes) in `message` (`message_size` bytes, may be 0). The file must be a
/// regular file with no access for group or others (mode 0600 or 0400) and
/// exactly kLinkKeyFileSize bytes long, not all zero.
Status read_link_key(const char* path, std::uint8_t key[kLinkKeyFileSize], KeyFileError& error,
                     char* message, std::size_t message_size) noexcept;

/// The same without the error code.
Status read_link_key(const char* path, std::uint8_t key[kLinkKeyFileSize], char* message,
                     std::size_t message_size) noexcept;

/// `size` bytes from the kernel's random generator (getrandom). kOk, or
/// kInvalidArgument when it fails (never returns fewer bytes silently).
Status random_bytes(std::uint8_t* out, std::size_t size) noexcept;

/// The wall clock (CLOCK_REALTIME) in nanoseconds since 1970: the first HELLO
/// counter of a desktop end, above every counter its earlier runs used as
/// long as the clock does not go back.
std::uint64_t wall_clock_ns() noexcept;

/// Overwrites `size` bytes with zeros in a way the compiler keeps.
void wipe(void* data, std::size_t size) noexcept;

}  // namespace posix
}  // namespace hodyn
