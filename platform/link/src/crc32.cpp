// CRC-32 (IEEE 802.3, reflected), one table lookup per byte.
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

}  // namespace

void Crc32::update(std::uint8_t byte) noexcept {
  register_ = kTable.entry[(register_ ^ byte) & 0xFFu] ^ (register_ >> 8);
}

void Crc32::update(const std::uint8_t* data, std::size_t size) noexcept {
  if (data == nullptr) return;
  std::uint32_t r = register_;
  for (std::size_t i = 0; i < size; ++i) r = kTable.entry[(r ^ data[i]) & 0xFFu] ^ (r >> 8);
  register_ = r;
}

std::uint32_t crc32(const std::uint8_t* data, std::size_t size) noexcept {
  Crc32 crc;
  crc.update(data, size);
  return crc.value();
}

}  // namespace link
}  // namespace hodyn
