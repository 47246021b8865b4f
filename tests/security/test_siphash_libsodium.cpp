// hodyn's SipHash-2-4-128 against libsodium's (crypto_shorthash_siphashx24,
// the 128-bit SipHash-2-4 of a well-kept library; a test-only dependency):
// the reference vectors' inputs (key 00..0f, messages 00..(n-1), n = 0..63)
// and 2000 random keys and messages of 0..1500 bytes (every frame size of the
// link and more), one-shot and incremental in random chunks.
#include <gtest/gtest.h>
#include <sodium.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "hodyn/link/siphash.hpp"

namespace hodyn {
namespace {

static_assert(crypto_shorthash_siphashx24_BYTES == 16 && crypto_shorthash_siphashx24_KEYBYTES == 16,
              "libsodium's siphashx24 is the 128-bit SipHash-2-4 with a 16-byte key");

void sodium_tag(const std::uint8_t* key, const std::uint8_t* data, std::size_t size,
                std::uint8_t* out) {
  ASSERT_EQ(crypto_shorthash_siphashx24(out, data, size, key), 0);
}

TEST(SipHash128Libsodium, ReferenceInputsAgree) {
  ASSERT_GE(sodium_init(), 0);
  std::uint8_t key[16], message[64];
  for (int k = 0; k < 16; ++k) key[k] = static_cast<std::uint8_t>(k);
  for (int k = 0; k < 64; ++k) message[k] = static_cast<std::uint8_t>(k);
  for (std::size_t n = 0; n < 64; ++n) {
    std::uint8_t ours[16], theirs[16];
    link::siphash128(key, message, n, ours);
    sodium_tag(key, message, n, theirs);
    EXPECT_EQ(std::memcmp(ours, theirs, 16), 0) << "length " << n;
  }
}

TEST(SipHash128Libsodium, RandomKeysAndMessagesAgree) {
  ASSERT_GE(sodium_init(), 0);
  std::mt19937_64 rng(20261126);
  std::vector<std::uint8_t> message(1500);
  int compared = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::uint8_t key[16];
    for (std::uint8_t& b : key) b = static_cast<std::uint8_t>(rng());
    const std::size_t size = trial < 1501 ? static_cast<std::size_t>(trial) : rng() % 1501;
    for (std::size_t k = 0; k < size; ++k) message[k] = static_cast<std::uint8_t>(rng());
    std::uint8_t ours[16], incremental[16], theirs[16];
    link::siphash128(key, message.data(), size, ours);
    link::SipHash128 mac(key);
    for (std::size_t at = 0; at < size;) {  // random chunks, sometimes single bytes
      const std::size_t chunk = std::min<std::size_t>(size - at, rng() % 40);
      if (chunk == 0) {
        mac.update(message[at++]);
      } else {
        mac.update(message.data() + at, chunk);
        at += chunk;
      }
    }
    mac.finish(incremental);
    sodium_tag(key, message.data(), size, theirs);
    ASSERT_EQ(std::memcmp(ours, theirs, 16), 0) << "trial " << trial << " size " << size;
    ASSERT_EQ(std::memcmp(incremental, theirs, 16), 0) << "trial " << trial << " size " << size;
    ++compared;
  }
  EXPECT_EQ(compared, 2000);
}

}  // namespace
}  // namespace hodyn
