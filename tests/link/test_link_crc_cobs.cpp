// CRC-32 and COBS of the link protocol: check values, the published COBS
// examples (Cheshire & Baker; Wikipedia's table), long runs, all-zero input,
// random round trips and malformed input.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "hodyn/link/cobs.hpp"
#include "hodyn/link/crc32.hpp"
#include "link/link_test_support.hpp"

namespace hodyn {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::uint32_t crc_of(const char* text) {
  return link::crc32(reinterpret_cast<const std::uint8_t*>(text), std::strlen(text));
}

Bytes encode(const Bytes& in) {
  Bytes out(link::cobs_max_encoded_size(in.size()));
  std::size_t written = 0;
  EXPECT_EQ(link::cobs_encode(in.data(), in.size(), out.data(), out.size(), written), Status::kOk);
  out.resize(written);
  return out;
}

Bytes decode(const Bytes& in, Status expected = Status::kOk) {
  Bytes out(in.size() + 1);
  std::size_t written = 0;
  EXPECT_EQ(link::cobs_decode(in.data(), in.size(), out.data(), out.size(), written), expected);
  out.resize(written);
  return out;
}

Bytes iota(std::uint8_t first, std::size_t count) {
  Bytes b(count);
  for (std::size_t k = 0; k < count; ++k) b[k] = static_cast<std::uint8_t>(first + k);
  return b;
}

Bytes cat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(LinkCrc32, CheckValue) {
  EXPECT_EQ(crc_of("123456789"), link::kCrc32CheckValue);
  EXPECT_EQ(crc_of("123456789"), 0xCBF43926u);
  EXPECT_EQ(crc_of("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
  EXPECT_EQ(crc_of(""), 0u);
  EXPECT_EQ(link::crc32(nullptr, 5), 0u);
}

TEST(LinkCrc32, IncrementalEqualsOneShot) {
  const char* text = "123456789";
  link::Crc32 crc;
  for (const char* p = text; *p != '\0'; ++p) crc.update(static_cast<std::uint8_t>(*p));
  EXPECT_EQ(crc.value(), 0xCBF43926u);
  crc.reset();
  crc.update(reinterpret_cast<const std::uint8_t*>(text), 4);
  crc.update(reinterpret_cast<const std::uint8_t*>(text) + 4, 5);
  EXPECT_EQ(crc.value(), 0xCBF43926u);
}

// Against the definition, one bit at a time (reflected 0xEDB88320, register
// and result XORed with 0xFFFFFFFF), at every length 0..64 and every start
// offset 0..3: the four-byte steps, the byte tail and unaligned starts.
TEST(LinkCrc32, MatchesTheBitwiseDefinitionAtEveryLengthAndOffset) {
  const auto bitwise = [](const std::uint8_t* p, std::size_t n) {
    std::uint32_t r = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
      r ^= p[i];
      for (int bit = 0; bit < 8; ++bit) r = (r & 1u) ? (r >> 1) ^ 0xEDB88320u : r >> 1;
    }
    return r ^ 0xFFFFFFFFu;
  };
  test::LinkRng rng(0xC3C3);
  Bytes data(70);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng.below(256));
  for (std::size_t offset = 0; offset < 4; ++offset)
    for (std::size_t n = 0; n + offset <= 68; ++n) {
      ASSERT_EQ(link::crc32(data.data() + offset, n), bitwise(data.data() + offset, n))
          << offset << " " << n;
      link::Crc32 split;  // two chunks, the first of odd length
      split.update(data.data() + offset, n / 3);
      split.update(data.data() + offset + n / 3, n - n / 3);
      ASSERT_EQ(split.value(), bitwise(data.data() + offset, n)) << offset << " " << n;
    }
}

struct CobsVector {
  Bytes decoded;
  Bytes encoded;  // without the 0x00 delimiter
};

TEST(LinkCobs, KnownVectors) {
  const CobsVector vectors[] = {
      {{}, {0x01}},
      {{0x00}, {0x01, 0x01}},
      {{0x00, 0x00}, {0x01, 0x01, 0x01}},
      {{0x00, 0x11, 0x00}, {0x01, 0x02, 0x11, 0x01}},
      {{0x11, 0x22, 0x00, 0x33}, {0x03, 0x11, 0x22, 0x02, 0x33}},
      {{0x11, 0x22, 0x33, 0x44}, {0x05, 0x11, 0x22, 0x33, 0x44}},
      {{0x11, 0x00, 0x00, 0x00}, {0x02, 0x11, 0x01, 0x01, 0x01}},
      // 254 non-zero bytes fill exactly one block: no trailing empty block.
      {iota(0x01, 254), cat({0xFF}, iota(0x01, 254))},
      // 0x00 then 254 non-zero bytes.
      {cat({0x00}, iota(0x01, 254)), cat({0x01, 0xFF}, iota(0x01, 254))},
      // 255 non-zero bytes: a full block, then a block of one.
      {iota(0x01, 255), cat(cat({0xFF}, iota(0x01, 254)), {0x02, 0xFF})},
      // 254 non-zero bytes then 0x00: the zero closes an empty block.
      {cat(iota(0x02, 254), {0x00}), cat(cat({0xFF}, iota(0x02, 254)), {0x01, 0x01})},
      // 253 non-zero, 0x00, 0x01.
      {cat(iota(0x03, 253), {0x00, 0x01}), cat(cat({0xFE}, iota(0x03, 253)), {0x02, 0x01})},
  };
  for (const CobsVector& v : vectors) {
    EXPECT_EQ(encode(v.decoded), v.encoded) << "size " << v.decoded.size();
    EXPECT_EQ(decode(v.encoded), v.decoded) << "size " << v.decoded.size();
  }
}

TEST(LinkCobs, LongNonZeroRuns) {
  for (std::size_t n : {253u, 254u, 255u, 508u, 509u, 762u, 1000u, 2000u}) {
    Bytes data(n);
    for (std::size_t k = 0; k < n; ++k) data[k] = static_cast<std::uint8_t>(1 + k % 255);
    const Bytes enc = encode(data);
    EXPECT_EQ(enc.size(), link::cobs_max_encoded_size(n)) << n;  // the worst case
    std::size_t position = 0, blocks = 0;
    while (position < enc.size()) {  // every block but the last is full
      const std::size_t code = enc[position];
      ++blocks;
      if (position + code < enc.size()) {
        EXPECT_EQ(code, 0xFFu) << n;
      }
      position += code;
    }
    EXPECT_EQ(position, enc.size());
    EXPECT_EQ(blocks, (n + 253) / 254);
    EXPECT_EQ(decode(enc), data) << n;
  }
}

TEST(LinkCobs, AllZeroInput) {
  for (std::size_t n = 1; n <= 600; ++n) {
    const Bytes data(n, 0x00);
    const Bytes enc = encode(data);
    EXPECT_EQ(enc, Bytes(n + 1, 0x01)) << n;
    EXPECT_EQ(decode(enc), data) << n;
  }
}

TEST(LinkCobs, RandomRoundTrips) {
  test::LinkRng rng(0xC0B5);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t n = rng.below(trial < 2000 ? 300 : 2100);
    const std::size_t zero_one_in = 1 + rng.below(300);  // zero density varies
    Bytes data(n);
    for (auto& b : data)
      b = rng.below(zero_one_in) == 0 ? 0 : static_cast<std::uint8_t>(1 + rng.below(255));
    const Bytes enc = encode(data);
    ASSERT_LE(enc.size(), link::cobs_max_encoded_size(n));
    for (std::uint8_t b : enc) ASSERT_NE(b, 0);
    ASSERT_EQ(decode(enc), data);
    // In place.
    Bytes buffer = enc;
    std::size_t written = 0;
    ASSERT_EQ(
        link::cobs_decode(buffer.data(), buffer.size(), buffer.data(), buffer.size(), written),
        Status::kOk);
    ASSERT_EQ(Bytes(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(written)), data);
  }
}

// Cheshire & Baker's StuffData written out byte by byte (canonical: 254
// non-zero bytes at the very end are not followed by an empty block): the
// encoder's block-wise loop must give exactly these bytes.
Bytes stuff_data(const Bytes& in) {
  Bytes out{0};
  std::size_t code_at = 0;
  std::uint8_t code = 1;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == 0) {
      out[code_at] = code;
      code_at = out.size();
      out.push_back(0);
      code = 1;
      continue;
    }
    out.push_back(in[i]);
    if (++code == 0xFF && i + 1 < in.size()) {
      out[code_at] = code;
      code_at = out.size();
      out.push_back(0);
      code = 1;
    }
  }
  out[code_at] = code;
  return out;
}

TEST(LinkCobs, EncodingEqualsTheByteWiseDefinition) {
  test::LinkRng rng(0x57FF);
  for (int trial = 0; trial < 4000; ++trial) {
    // Lengths around one and two full blocks, zero densities from none to most.
    const std::size_t n = trial < 1000 ? static_cast<std::size_t>(trial % 520) : rng.below(1200);
    const std::size_t zero_one_in = trial % 7 == 0 ? 100000 : 1 + rng.below(400);
    Bytes data(n);
    for (auto& b : data)
      b = rng.below(zero_one_in) == 0 ? 0 : static_cast<std::uint8_t>(1 + rng.below(255));
    // Sometimes a zero exactly after 253, 254 or 255 non-zero bytes.
    if (n > 300 && trial % 3 == 0) {
      for (std::size_t k = 0; k < 256 && k < n; ++k) data[k] = data[k] == 0 ? 0x5A : data[k];
      data[253 + rng.below(3)] = 0;
    }
    ASSERT_EQ(encode(data), stuff_data(data)) << "trial " << trial << ", " << n << " bytes";
  }
}

TEST(LinkCobs, MalformedInputIsRejected) {
  decode({}, Status::kCorruptInput);                        // empty
  decode({0x03, 0x11, 0x00}, Status::kCorruptInput);        // a zero inside
  decode({0x00}, Status::kCorruptInput);                    // a zero code
  decode({0x05, 0x11, 0x22}, Status::kCorruptInput);        // block past the end
  decode({0x02, 0x11, 0x04, 0x22}, Status::kCorruptInput);  // second block past the end
  decode({0xFF, 0x01}, Status::kCorruptInput);
  // A result that does not fit the output.
  const Bytes enc = {0x05, 0x11, 0x22, 0x33, 0x44};
  std::uint8_t out[3];
  std::size_t written = 99;
  EXPECT_EQ(link::cobs_decode(enc.data(), enc.size(), out, sizeof out, written),
            Status::kInvalidArgument);
  EXPECT_EQ(written, 0u);
  EXPECT_EQ(link::cobs_decode(nullptr, 1, out, sizeof out, written), Status::kInvalidArgument);
}

// A result exactly as long as the capacity fits, one byte more does not, in
// place or not (the decoder's bulk path checks the capacity before writing).
TEST(LinkCobs, ResultFillingTheCapacityExactly) {
  const Bytes enc = {0x03, 0x11, 0x22, 0x02, 0x33};
  const Bytes expected = {0x11, 0x22, 0x00, 0x33};
  std::uint8_t out[4] = {};
  std::size_t written = 0;
  ASSERT_EQ(link::cobs_decode(enc.data(), enc.size(), out, 4, written), Status::kOk);
  EXPECT_EQ(Bytes(out, out + written), expected);
  written = 99;
  EXPECT_EQ(link::cobs_decode(enc.data(), enc.size(), out, 3, written), Status::kInvalidArgument);
  EXPECT_EQ(written, 0u);
  Bytes buffer = enc;
  ASSERT_EQ(link::cobs_decode(buffer.data(), buffer.size(), buffer.data(), 4, written),
            Status::kOk);
  EXPECT_EQ(Bytes(buffer.begin(), buffer.begin() + 4), expected);
  // A full block (code 0xFF) followed by a short one: 254 bytes, no zero after them.
  Bytes full = {0xFF};
  for (int i = 0; i < 254; ++i) full.push_back(static_cast<std::uint8_t>(1 + i % 200));
  full.push_back(0x02);
  full.push_back(0x7E);
  Bytes decoded(full.begin() + 1, full.begin() + 255);
  decoded.push_back(0x7E);
  std::vector<std::uint8_t> big(300);
  ASSERT_EQ(link::cobs_decode(full.data(), full.size(), big.data(), big.size(), written),
            Status::kOk);
  EXPECT_EQ(Bytes(big.begin(), big.begin() + static_cast<std::ptrdiff_t>(written)), decoded);
}

TEST(LinkCobs, EncodeNeedsWorstCaseCapacity) {
  const Bytes data(300, 0x5A);
  Bytes out(link::cobs_max_encoded_size(data.size()) - 1);
  std::size_t written = 99;
  EXPECT_EQ(link::cobs_encode(data.data(), data.size(), out.data(), out.size(), written),
            Status::kInvalidArgument);
  EXPECT_EQ(written, 0u);
  EXPECT_EQ(link::cobs_encode(data.data(), data.size(), nullptr, 1000, written),
            Status::kInvalidArgument);
  EXPECT_EQ(link::cobs_max_encoded_size(0), 1u);
  EXPECT_EQ(link::cobs_max_encoded_size(254), 255u);
  EXPECT_EQ(link::cobs_max_encoded_size(255), 257u);
}

}  // namespace
}  // namespace hodyn
