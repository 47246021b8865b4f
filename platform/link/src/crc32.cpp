// CRC-32 (IEEE 802.3, reflected): a buffer four bytes at a time through four
// tables ("slicing-by-4", Kounavis & Berry 2005), the rest and single bytes
// one table lookup per byte.
#include "hodyn/link/crc32.hpp"

#include "byte_order.hpp"

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
  const std::uint8_t* p = data;
  const std::uint8_t* const end = data + size;
  // One table pointer each (no index offset to add per lookup), and the four
  // bytes as one (unaligned) little-endian load where the host allows it: 29
  // instructions per four bytes became 17 on the Cortex-M4 (docs/firmware.md).
  const std::uint32_t* const s0 = kSlices.slice[0];
  const std::uint32_t* const s1 = kSlices.slice[1];
  const std::uint32_t* const s2 = kSlices.slice[2];
  const std::uint32_t* const s3 = kSlices.slice[3];
  for (std::size_t words = size / 4; words != 0; --words, p += 4) {
    r ^= detail::load_le32(p);
    r = s3[r & 0xFFu] ^ s2[(r >> 8) & 0xFFu] ^ s1[(r >> 16) & 0xFFu] ^ s0[r >> 24];
  }
  for (; p != end; ++p) r = kTable.entry[(r ^ *p) & 0xFFu] ^ (r >> 8);
  register_ = r;
}

std::uint32_t crc32(const std::uint8_t* data, std::size_t size) noexcept {
  Crc32 crc;
  crc.update(data, size);
  return crc.value();
}

}  // namespace link
}  // namespace hodyn
