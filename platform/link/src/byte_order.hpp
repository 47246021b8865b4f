// Little-endian loads and stores of wire integers (private to the link).
// On a little-endian target a field's wire bytes are its bytes in memory, so
// each is one (unaligned) memcpy access, which compilers turn into a single
// load or store; elsewhere the bytes are assembled one by one.
#pragma once

#include <cstdint>
#include <cstring>

namespace hodyn {
namespace link {
namespace detail {

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
inline constexpr bool kLittleEndianHost = true;
#else
inline constexpr bool kLittleEndianHost = false;
#endif

inline std::uint32_t load_le32(const std::uint8_t* p) noexcept {
  if constexpr (kLittleEndianHost) {
    std::uint32_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else {
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
  }
}

inline std::uint64_t load_le64(const std::uint8_t* p) noexcept {
  if constexpr (kLittleEndianHost) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else {
    return static_cast<std::uint64_t>(load_le32(p)) |
           (static_cast<std::uint64_t>(load_le32(p + 4)) << 32);
  }
}

inline void store_le32(std::uint32_t v, std::uint8_t* p) noexcept {
  if constexpr (kLittleEndianHost) {
    std::memcpy(p, &v, sizeof v);
  } else {
    for (int k = 0; k < 4; ++k) p[k] = static_cast<std::uint8_t>(v >> (8 * k));
  }
}

}  // namespace detail
}  // namespace link
}  // namespace hodyn
