// hodyn/link/crc32.hpp — CRC-32 as in IEEE 802.3 (Ethernet, zlib, PNG):
// reflected, polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF.
// crc32("123456789") == 0xCBF43926. Table driven: a buffer 4 bytes per step
// (four 1 KiB constant tables, "slicing-by-4"), single bytes one lookup each.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hodyn {
namespace link {

/// The CRC-32 of the nine ASCII bytes "123456789" (the standard check value).
constexpr std::uint32_t kCrc32CheckValue = 0xCBF43926u;

/// Incremental CRC-32: feed bytes in any chunks, read `value()` at the end.
class Crc32 {
 public:
  void update(std::uint8_t byte) noexcept;
  void update(const std::uint8_t* data, std::size_t size) noexcept;
  /// The CRC of everything fed so far (the register XORed with 0xFFFFFFFF).
  std::uint32_t value() const noexcept { return register_ ^ 0xFFFFFFFFu; }
  void reset() noexcept { register_ = 0xFFFFFFFFu; }

 private:
  std::uint32_t register_ = 0xFFFFFFFFu;
};

/// The CRC-32 of `size` bytes at `data` (0 for an empty or null buffer).
std::uint32_t crc32(const std::uint8_t* data, std::size_t size) noexcept;

}  // namespace link
}  // namespace hodyn
