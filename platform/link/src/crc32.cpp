// CRC-32 (IEEE 802.3, reflected): a buffer four bytes at a time through four
// tables ("slicing-by-4", Kounavis & Berry 2005), the rest and single bytes
// one table lookup per byte.
#include "hodyn/link/crc32.hpp"

namespace hodyn {
namespace link {
namespace {

struct Crc32Table {
  std::uint32_t entry[256];
};

constexpr Crc32Table make_table() noexcept {
  Crc32Table table{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1u) ? (0xEDB88320u ^ (c >> 1)) : (c >> 1);
    table.entry[n] = c;
  }
  return table;
}

constexpr Crc32Table kTable = make_table();
static_assert(kTable.entry[1] == 0x77073096u, "CRC-32 table");
static_assert(kTable.entry[255] == 0x2D02EF8Du, "CRC-32 table");

// slice[k][n]: the register after n followed by k zero bytes (slice[0] = kTable).
struct Crc32Slices {
  std::uint32_t slice[4][256];
};

constexpr Crc32Slices make_slices() noexcept {
  Crc32Slices s{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    s.slice[0][n] = kTable.entry[n];
    for (int k = 1; k < 4; ++k)
      s.slice[k][n] = (s.slice[k - 1][n] >> 8) ^ kTable.entry[s.slice[k - 1][n] & 0xFFu];
  }
  return s;
}

constexpr Crc32Slices kSlices = make_slices();

}  // namespace

void Crc32::update(std::uint8_t byte) noexcept {
  register_ = kTable.entry[(register_ ^ byte) & 0xFFu] ^ (register_ >> 8);
}

void Crc32::update(const std::uint8_t* data, std::size_t size) noexcept {
  if (data == nullptr) return;
  std::uint32_t r = register_;
  std::size_t i = 0;
  for (; i + 4 <= size; i += 4) {
    r ^= static_cast<std::uint32_t>(data[i]) | (static_cast<std::uint32_t>(data[i + 1]) << 8) |
         (static_cast<std::uint32_t>(data[i + 2]) << 16) |
         (static_cast<std::uint32_t>(data[i + 3]) << 24);
    r = kSlices.slice[3][r & 0xFFu] ^ kSlices.slice[2][(r >> 8) & 0xFFu] ^
        kSlices.slice[1][(r >> 16) & 0xFFu] ^ kSlices.slice[0][r >> 24];
  }
  for (; i < size; ++i) r = kTable.entry[(r ^ data[i]) & 0xFFu] ^ (r >> 8);
  register_ = r;
}

std::uint32_t crc32(const std::uint8_t* data, std::size_t size) noexcept {
  Crc32 crc;
  crc.update(data, size);
  return crc.value();
}

}  // namespace link
}  // namespace hodyn
