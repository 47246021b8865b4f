// SipHash-2-4-128 (hodyn/link/siphash.hpp). The algorithm of the paper
// (section 2): initialization with the four constants, c = 2 SipRounds per
// 8-byte little-endian block, the length byte in the last block, d = 4
// finalization rounds; the 128-bit mode XORs 0xee into v1 at the start and
// v2 before the first output word, 0xdd into v1 before the second.
#include "hodyn/link/siphash.hpp"

#include "byte_order.hpp"

#include <cstring>

namespace hodyn {
namespace link {
namespace {

inline std::uint64_t rotl(std::uint64_t x, unsigned b) noexcept {
  return (x << b) | (x >> (64u - b));
}

inline void store_le64(std::uint64_t v, std::uint8_t* p) noexcept {
  for (int k = 0; k < 8; ++k) p[k] = static_cast<std::uint8_t>(v >> (8 * k));
}

struct State {
  std::uint64_t v0, v1, v2, v3;

  void round() noexcept {  // one SipRound (paper, Figure 2.1)
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
  }
  void block(std::uint64_t m) noexcept {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  void start(const std::uint8_t* key) noexcept {
    const std::uint64_t k0 = detail::load_le64(key), k1 = detail::load_le64(key + 8);
    v0 = k0 ^ 0x736f6d6570736575ull;  // "somepseu"
    v1 = k1 ^ 0x646f72616e646f6dull;  // "dorandom"
    v2 = k0 ^ 0x6c7967656e657261ull;  // "lygenera"
    v3 = k1 ^ 0x7465646279746573ull;  // "tedbytes"
    v1 ^= 0xee;                       // 128-bit output
  }
  // The last block (remaining bytes + length byte), then the two output words.
  void finish(std::uint64_t last, std::uint8_t* out) noexcept {
    block(last);
    v2 ^= 0xee;
    for (int i = 0; i < 4; ++i) round();
    store_le64(v0 ^ v1 ^ v2 ^ v3, out);
    v1 ^= 0xdd;
    for (int i = 0; i < 4; ++i) round();
    store_le64(v0 ^ v1 ^ v2 ^ v3, out + 8);
  }
};

// The final block: the 0..7 remaining bytes and the length's low byte on top.
inline std::uint64_t last_block(const std::uint8_t* tail, std::size_t count,
                                std::uint64_t length) noexcept {
  std::uint64_t b = (length & 0xFFu) << 56;
  for (std::size_t k = 0; k < count; ++k) b |= static_cast<std::uint64_t>(tail[k]) << (8 * k);
  return b;
}

}  // namespace

void siphash128(const std::uint8_t key[kSipHashKeySize], const std::uint8_t* data, std::size_t size,
                std::uint8_t out[kSipHashTagSize]) noexcept {
  State s{};
  s.start(key);
  const std::size_t whole = size - size % 8;
  for (std::size_t at = 0; at < whole; at += 8) s.block(detail::load_le64(data + at));
  s.finish(last_block(data + whole, size - whole, size), out);
}

void SipHash128::reset(const std::uint8_t key[kSipHashKeySize]) noexcept {
  State s{};
  s.start(key);
  v_[0] = s.v0;
  v_[1] = s.v1;
  v_[2] = s.v2;
  v_[3] = s.v3;
  fill_ = 0;
  blocks_ = 0;
}

void SipHash128::compress_tail() noexcept {
  State s{v_[0], v_[1], v_[2], v_[3]};
  s.block(detail::load_le64(tail_));
  v_[0] = s.v0;
  v_[1] = s.v1;
  v_[2] = s.v2;
  v_[3] = s.v3;
  fill_ = 0;
  ++blocks_;
}

void SipHash128::update(const std::uint8_t* data, std::size_t size) noexcept {
  std::size_t at = 0;
  while (fill_ != 0 && at < size) update(data[at++]);
  if (size - at >= 8) {
    State s{v_[0], v_[1], v_[2], v_[3]};
    for (; at + 8 <= size; at += 8) {
      s.block(detail::load_le64(data + at));
      ++blocks_;
    }
    v_[0] = s.v0;
    v_[1] = s.v1;
    v_[2] = s.v2;
    v_[3] = s.v3;
  }
  while (at < size) update(data[at++]);
}

void SipHash128::finish(std::uint8_t out[kSipHashTagSize]) noexcept {
  State s{v_[0], v_[1], v_[2], v_[3]};
  // Only the length's low byte enters the last block: 8 * blocks_ mod 256 suffices.
  s.finish(last_block(tail_, fill_, 8u * blocks_ + fill_), out);
  v_[0] = v_[1] = v_[2] = v_[3] = 0;
  fill_ = 0;
  blocks_ = 0;
}

}  // namespace link
}  // namespace hodyn
