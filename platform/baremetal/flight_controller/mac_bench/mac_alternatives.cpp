// HMAC-SHA-256 and keyed BLAKE2s-128 (mac_alternatives.hpp), from their
// specifications: FIPS 180-4 sections 4.2.2 (constants), 5.3.3 (initial
// value), 6.2.2 (compression); RFC 2104 (HMAC); RFC 7693 sections 2.7 (G),
// 3.2 (F), 3.3 (keyed hashing: the key padded to one block, parameter block
// 0x0101kknn). Word loads by memcpy (little-endian targets), as SipHash's, so
// that the comparison is of the algorithms.
#include "mac_alternatives.hpp"

#include <cstring>

namespace hodyn {
namespace mac_bench {
namespace {

// ---- SHA-256 -----------------------------------------------------------------
constexpr std::uint32_t kK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
constexpr std::uint32_t kSha256Iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

inline std::uint32_t rotr(std::uint32_t x, unsigned n) noexcept {
  return (x >> n) | (x << (32u - n));
}

void sha256_compress(std::uint32_t h[8], const std::uint8_t block[64]) noexcept {
  std::uint32_t w[64];
  std::memcpy(w, block, 64);  // big-endian words: one load and one byte reversal each
  for (int t = 0; t < 16; ++t) w[t] = __builtin_bswap32(w[t]);
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
#pragma GCC unroll 64
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t t1 =
        k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[t] + w[t];
    const std::uint32_t t2 =
        (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    k = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += k;
}

// SHA-256 continued from state `h` after `prefix_bytes` already hashed (whole blocks).
void sha256_finish(std::uint32_t h[8], std::uint64_t prefix_bytes, const std::uint8_t* data,
                   std::size_t size, std::uint8_t out[32]) noexcept {
  std::size_t at = 0;
  for (; at + 64 <= size; at += 64) sha256_compress(h, data + at);
  std::uint8_t block[128] = {};
  const std::size_t rest = size - at;
  for (std::size_t k = 0; k < rest; ++k) block[k] = data[at + k];
  block[rest] = 0x80;
  const std::size_t blocks = rest + 9 <= 64 ? 1 : 2;
  const std::uint64_t bits = (prefix_bytes + size) * 8;
  for (int k = 0; k < 8; ++k)
    block[64 * blocks - 1 - k] = static_cast<std::uint8_t>(bits >> (8 * k));
  for (std::size_t b = 0; b < blocks; ++b) sha256_compress(h, block + 64 * b);
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 4; ++k) out[4 * i + k] = static_cast<std::uint8_t>(h[i] >> (24 - 8 * k));
}

// ---- BLAKE2s -----------------------------------------------------------------
constexpr std::uint32_t kBlakeIv[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                       0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
constexpr std::uint8_t kSigma[10][16] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                         {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
                                         {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
                                         {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
                                         {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
                                         {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
                                         {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
                                         {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
                                         {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
                                         {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0}};

inline void g(std::uint32_t* v, int a, int b, int c, int d, std::uint32_t x,
              std::uint32_t y) noexcept {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 12);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr(v[d] ^ v[a], 8);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 7);
}

void blake2s_compress(std::uint32_t h[8], const std::uint8_t block[64], std::uint64_t t,
                      bool last) noexcept {
  std::uint32_t m[16], v[16];
  std::memcpy(m, block, 64);  // little-endian words (both targets are little-endian)
  for (int i = 0; i < 8; ++i) {
    v[i] = h[i];
    v[i + 8] = kBlakeIv[i];
  }
  v[12] ^= static_cast<std::uint32_t>(t);
  v[13] ^= static_cast<std::uint32_t>(t >> 32);
  if (last) v[14] = ~v[14];
#pragma GCC unroll 10  // constant message indices, the state in registers where it fits
  for (const auto& s : kSigma) {
    g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
}

// BLAKE2s from state `h` after `prefix_bytes` (whole blocks), `out_size` bytes out.
void blake2s_finish(std::uint32_t h[8], std::uint64_t prefix_bytes, const std::uint8_t* data,
                    std::size_t size, std::uint8_t* out, std::size_t out_size) noexcept {
  std::size_t at = 0;
  while (size - at > 64) {  // the last block (even a full one) is compressed as last
    blake2s_compress(h, data + at, prefix_bytes + at + 64, false);
    at += 64;
  }
  std::uint8_t block[64] = {};
  for (std::size_t k = 0; k < size - at; ++k) block[k] = data[at + k];
  if (size > 0 || prefix_bytes == 0) blake2s_compress(h, block, prefix_bytes + size, true);
  for (std::size_t k = 0; k < out_size; ++k)
    out[k] = static_cast<std::uint8_t>(h[k / 4] >> (8 * (k % 4)));
}

}  // namespace

void HmacSha256::set_key(const std::uint8_t* key, std::size_t size) noexcept {
  std::uint8_t pad[64];
  for (int p = 0; p < 2; ++p) {
    const std::uint8_t fill = p == 0 ? 0x36 : 0x5c;
    for (std::size_t k = 0; k < 64; ++k)
      pad[k] = static_cast<std::uint8_t>((k < size ? key[k] : 0) ^ fill);
    std::uint32_t* h = p == 0 ? inner_ : outer_;
    for (int i = 0; i < 8; ++i) h[i] = kSha256Iv[i];
    sha256_compress(h, pad);
  }
}

void HmacSha256::mac(const std::uint8_t* data, std::size_t size,
                     std::uint8_t out[32]) const noexcept {
  std::uint32_t h[8];
  std::uint8_t inner[32];
  for (int i = 0; i < 8; ++i) h[i] = inner_[i];
  sha256_finish(h, 64, data, size, inner);
  for (int i = 0; i < 8; ++i) h[i] = outer_[i];
  sha256_finish(h, 64, inner, sizeof inner, out);
}

void Blake2s128::set_key(const std::uint8_t* key, std::size_t size) noexcept {
  for (int i = 0; i < 8; ++i) keyed_[i] = kBlakeIv[i];
  keyed_[0] ^=
      0x01010000u ^ (static_cast<std::uint32_t>(size) << 8) ^ 16u;  // depth, fanout, kk, nn
  std::uint8_t block[64] = {};
  for (std::size_t k = 0; k < size && k < 32; ++k) block[k] = key[k];
  // The key block is the first of every message; it is the last one only for
  // an empty message, which the link never MACs.
  blake2s_compress(keyed_, block, 64, false);
}

void Blake2s128::mac(const std::uint8_t* data, std::size_t size,
                     std::uint8_t out[16]) const noexcept {
  std::uint32_t h[8];
  for (int i = 0; i < 8; ++i) h[i] = keyed_[i];
  blake2s_finish(h, 64, data, size, out, 16);
}

void Blake2s128::hash256(const std::uint8_t* data, std::size_t size,
                         std::uint8_t out[32]) noexcept {
  std::uint32_t h[8];
  for (int i = 0; i < 8; ++i) h[i] = kBlakeIv[i];
  h[0] ^= 0x01010000u ^ 32u;
  blake2s_finish(h, 0, data, size, out, 32);
}

}  // namespace mac_bench
}  // namespace hodyn
