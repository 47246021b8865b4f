// hodyn/link/cobs.hpp — Consistent Overhead Byte Stuffing (Cheshire & Baker,
// 1999): rewrites a block of bytes so it contains no 0x00, at a cost of at
// most one byte per 254 (plus one), so 0x00 can delimit frames on a byte
// stream. The encoding is the canonical one (a block of 254 non-zero bytes at
// the very end is not followed by an empty block). The delimiter itself is
// not part of what these functions produce or accept.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/status.hpp"

namespace hodyn {
namespace link {

/// Largest COBS encoding of `size` bytes (without the delimiter):
/// size + ceil(size / 254), and 1 for an empty block.
constexpr std::size_t cobs_max_encoded_size(std::size_t size) noexcept {
  return size == 0 ? 1 : size + (size + 253) / 254;
}

/// Streaming COBS encoder writing into a caller-provided buffer, one byte at a
/// time. The caller guarantees room for cobs_max_encoded_size(n) bytes, where
/// n is the number of bytes it will put (it does not check capacity).
class CobsWriter {
 public:
  explicit CobsWriter(std::uint8_t* out) noexcept : out_(out) {}
  void put(std::uint8_t byte) noexcept;
  /// Closes the last block; returns the encoded size (without delimiter).
  std::size_t finish() noexcept;

 private:
  std::uint8_t* out_;
  std::size_t position_ = 1;    // next free byte
  std::size_t code_index_ = 0;  // where the current block's code byte goes
  std::uint8_t code_ = 1;       // 1 + non-zero bytes in the current block
  bool block_full_ = false;     // a 254-byte block was just closed
};

/// Encodes `size` bytes (no delimiter appended). kOk; kInvalidArgument when a
/// pointer is null or `capacity` < cobs_max_encoded_size(size) (`written` = 0).
/// `in` and `out` must not overlap.
Status cobs_encode(const std::uint8_t* in, std::size_t size, std::uint8_t* out,
                   std::size_t capacity, std::size_t& written) noexcept;

/// Decodes one COBS block sequence (without its delimiter). kOk;
/// kCorruptInput for an empty input, a 0x00 byte, or a code byte that points
/// past the end; kInvalidArgument for a null `out`, a null `in` with `size` >
/// 0, or a result that does not fit in `capacity` (never for capacity >=
/// size). Decoding in place (`out == in`) is allowed. On an error `written`
/// is 0.
Status cobs_decode(const std::uint8_t* in, std::size_t size, std::uint8_t* out,
                   std::size_t capacity, std::size_t& written) noexcept;

}  // namespace link
}  // namespace hodyn
