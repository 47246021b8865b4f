// SipHash-2-4-128 (hodyn/link/siphash.hpp) against the published test
// vectors: the reference implementation's vectors_sip128 (Aumasson &
// Bernstein, github.com/veorq/SipHash, vectors.h), key 00 01 .. 0f and
// message 00 01 .. (n-1) for n = 0..63; a selection of them is typed in here,
// the whole table is compared with libsodium in test_siphash_libsodium.cpp.
// Also: the incremental form equals the one-shot form for every split.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "hodyn/link/siphash.hpp"

namespace hodyn {
namespace {

struct Vector {
  std::size_t length;
  std::uint8_t tag[16];
};

// vectors_sip128[n] of the reference implementation.
const Vector kPublished[] = {
    {0,
     {0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6, 0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55, 0x02,
      0x93}},
    {1,
     {0xda, 0x87, 0xc1, 0xd8, 0x6b, 0x99, 0xaf, 0x44, 0x34, 0x76, 0x59, 0x11, 0x9b, 0x22, 0xfc,
      0x45}},
    {7,
     {0xa1, 0xf1, 0xeb, 0xbe, 0xd8, 0xdb, 0xc1, 0x53, 0xc0, 0xb8, 0x4a, 0xa6, 0x1f, 0xf0, 0x82,
      0x39}},
    {8,
     {0x3b, 0x62, 0xa9, 0xba, 0x62, 0x58, 0xf5, 0x61, 0x0f, 0x83, 0xe2, 0x64, 0xf3, 0x14, 0x97,
      0xb4}},
    {15,
     {0x54, 0x93, 0xe9, 0x99, 0x33, 0xb0, 0xa8, 0x11, 0x7e, 0x08, 0xec, 0x0f, 0x97, 0xcf, 0xc3,
      0xd9}},
    {16,
     {0x6e, 0xe2, 0xa4, 0xca, 0x67, 0xb0, 0x54, 0xbb, 0xfd, 0x33, 0x15, 0xbf, 0x85, 0x23, 0x05,
      0x77}},
    {63,
     {0x51, 0x50, 0xd1, 0x77, 0x2f, 0x50, 0x83, 0x4a, 0x50, 0x3e, 0x06, 0x9a, 0x97, 0x3f, 0xbd,
      0x7c}},
};

void reference_inputs(std::uint8_t key[16], std::uint8_t message[64]) {
  for (int k = 0; k < 16; ++k) key[k] = static_cast<std::uint8_t>(k);
  for (int k = 0; k < 64; ++k) message[k] = static_cast<std::uint8_t>(k);
}

TEST(SipHash128, MatchesThePublishedVectors) {
  std::uint8_t key[16], message[64];
  reference_inputs(key, message);
  for (const Vector& v : kPublished) {
    std::uint8_t tag[16] = {};
    link::siphash128(key, message, v.length, tag);
    EXPECT_EQ(std::memcmp(tag, v.tag, 16), 0) << "length " << v.length;
    link::SipHash128 mac(key);
    mac.update(message, v.length);
    std::uint8_t incremental[16] = {};
    mac.finish(incremental);
    EXPECT_EQ(std::memcmp(incremental, v.tag, 16), 0) << "length " << v.length;
  }
}

TEST(SipHash128, IncrementalEqualsOneShotForEverySplit) {
  std::uint8_t key[16];
  std::uint8_t message[300];
  for (int k = 0; k < 16; ++k) key[k] = static_cast<std::uint8_t>(0xF0 ^ (k * 37));
  for (int k = 0; k < 300; ++k) message[k] = static_cast<std::uint8_t>(k * 131 + 7);
  for (std::size_t length : {0u, 1u, 8u, 9u, 63u, 64u, 65u, 299u, 300u}) {
    std::uint8_t expected[16];
    link::siphash128(key, message, length, expected);
    for (std::size_t split = 0; split <= length; ++split) {
      link::SipHash128 mac(key);
      mac.update(message, split);
      for (std::size_t k = split; k < length; ++k) mac.update(message[k]);  // byte by byte
      std::uint8_t tag[16];
      mac.finish(tag);
      ASSERT_EQ(std::memcmp(tag, expected, 16), 0) << "length " << length << " split " << split;
    }
  }
}

TEST(SipHash128, EveryKeyAndMessageBitChangesTheTag) {
  std::uint8_t key[16], message[64];
  reference_inputs(key, message);
  std::uint8_t base[16];
  link::siphash128(key, message, 40, base);
  for (int bit = 0; bit < 128; ++bit) {
    key[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    std::uint8_t tag[16];
    link::siphash128(key, message, 40, tag);
    EXPECT_NE(std::memcmp(tag, base, 16), 0) << "key bit " << bit;
    key[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
  }
  for (int bit = 0; bit < 40 * 8; ++bit) {
    message[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    std::uint8_t tag[16];
    link::siphash128(key, message, 40, tag);
    EXPECT_NE(std::memcmp(tag, base, 16), 0) << "message bit " << bit;
    message[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
  }
}

}  // namespace
}  // namespace hodyn
