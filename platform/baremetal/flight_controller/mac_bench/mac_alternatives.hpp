// mac_alternatives.hpp — the two MACs the link did NOT choose, kept only to
// measure them against SipHash-2-4-128 on the Cortex-M targets
// (docs/link-security.md, "Why SipHash"): HMAC-SHA-256 (RFC 2104 over FIPS
// 180-4 SHA-256; the hash MAVLink 2 signs with) and keyed BLAKE2s with a
// 16-byte output (RFC 7693). Both with their key-dependent first block(s)
// precomputed once per key, as a fast implementation would, so each message
// costs only its own blocks. Heap-free; not used by the link itself.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hodyn {
namespace mac_bench {

/// HMAC-SHA-256 with the inner and outer key blocks hashed once.
class HmacSha256 {
 public:
  /// `key`: up to 64 bytes (the link's 32).
  void set_key(const std::uint8_t* key, std::size_t size) noexcept;
  /// The full 32-byte tag (a link would send a truncation of it).
  void mac(const std::uint8_t* data, std::size_t size, std::uint8_t out[32]) const noexcept;

 private:
  std::uint32_t inner_[8] = {}, outer_[8] = {};
};

/// Keyed BLAKE2s, 16-byte output, the key block compressed once.
class Blake2s128 {
 public:
  /// `key`: 1..32 bytes.
  void set_key(const std::uint8_t* key, std::size_t size) noexcept;
  void mac(const std::uint8_t* data, std::size_t size, std::uint8_t out[16]) const noexcept;
  /// Unkeyed BLAKE2s-256 (for the RFC 7693 check value of "abc").
  static void hash256(const std::uint8_t* data, std::size_t size, std::uint8_t out[32]) noexcept;

 private:
  std::uint32_t keyed_[8] = {};  // the state after the key block
};

}  // namespace mac_bench
}  // namespace hodyn
