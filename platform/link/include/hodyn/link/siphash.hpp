// hodyn/link/siphash.hpp — SipHash-2-4 with its 128-bit output (Aumasson &
// Bernstein, "SipHash: a fast short-input PRF", INDOCRYPT 2012; the 128-bit
// mode of the reference implementation, libsodium's
// crypto_shorthash_siphashx24): the keyed MAC of the link's signed frames
// (docs/link-security.md says why this primitive).
//
// Key 16 bytes, output 16 bytes, both read and written little-endian as the
// reference does. Heap-free, exception-free; nothing but 64-bit adds, XORs
// and rotations (on a 32-bit Cortex-M each is two or three instructions).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hodyn {
namespace link {

constexpr std::size_t kSipHashKeySize = 16;
constexpr std::size_t kSipHashTagSize = 16;

/// SipHash-2-4-128 of `size` bytes at `data` (null only with size 0).
void siphash128(const std::uint8_t key[kSipHashKeySize], const std::uint8_t* data, std::size_t size,
                std::uint8_t out[kSipHashTagSize]) noexcept;

/// The same, fed in any chunks (a frame is signed while it is written).
class SipHash128 {
 public:
  SipHash128() noexcept = default;
  explicit SipHash128(const std::uint8_t key[kSipHashKeySize]) noexcept { reset(key); }

  /// Starts over with `key`.
  void reset(const std::uint8_t key[kSipHashKeySize]) noexcept;
  /// One byte (inline: a frame being written feeds its bytes one at a time).
  void update(std::uint8_t byte) noexcept {
    tail_[fill_++] = byte;
    if (fill_ == 8) compress_tail();
  }
  void update(const std::uint8_t* data, std::size_t size) noexcept;
  /// The tag of everything fed since reset(); the state is then spent.
  void finish(std::uint8_t out[kSipHashTagSize]) noexcept;

 private:
  void compress_tail() noexcept;  // the 8 bytes of tail_, then fill_ = 0

  std::uint64_t v_[4] = {};
  std::uint8_t tail_[8] = {};  // bytes of the block not yet complete
  std::size_t fill_ = 0;       // bytes in tail_
  std::size_t blocks_ = 0;     // whole blocks compressed (8 * blocks_ + fill_ bytes fed)
};

}  // namespace link
}  // namespace hodyn
