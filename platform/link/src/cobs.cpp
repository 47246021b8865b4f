// COBS encoding and decoding (canonical form, no delimiter).
#include "hodyn/link/cobs.hpp"

#include <cstring>

namespace hodyn {
namespace link {

void CobsWriter::put(std::uint8_t byte) noexcept {
  if (block_full_) {  // the previous block closed at 254 bytes: open the next one
    code_index_ = position_++;
    code_ = 1;
    block_full_ = false;
  }
  if (byte == 0) {
    out_[code_index_] = code_;
    code_index_ = position_++;
    code_ = 1;
    return;
  }
  out_[position_++] = byte;
  if (++code_ == 0xFF) {
    out_[code_index_] = code_;
    block_full_ = true;
  }
}

std::size_t CobsWriter::finish() noexcept {
  if (!block_full_) out_[code_index_] = code_;
  return position_;
}

namespace {

/// Copies the run of non-zero bytes at p (up to `limit`) to o, four bytes at a
/// time while none of the four is zero ((v − 0x01010101) & ~v & 0x80808080 is
/// non-zero exactly when a byte of v is), then byte by byte up to the zero or
/// the limit; p is left at the zero (or the limit), o after the copy. Reads
/// nothing at or beyond `limit`. (~2.5 instructions a byte on the Cortex-M4,
/// whose word loads and stores may be unaligned, against ~8 byte by byte.)
inline void copy_run(const std::uint8_t*& p, const std::uint8_t* limit, std::uint8_t*& o) noexcept {
  // The first byte alone: runs of no byte at all (zeros in a row, as in
  // small integers) end here without a word load and test.
  if (p == limit || *p == 0) return;
  *o++ = *p++;
  while (limit - p >= 4) {
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    if (((v - 0x01010101u) & ~v & 0x80808080u) != 0u) break;
    std::memcpy(o, &v, sizeof v);
    p += 4;
    o += 4;
  }
  while (p != limit && *p != 0) *o++ = *p++;
}

}  // namespace

Status cobs_encode(const std::uint8_t* in, std::size_t size, std::uint8_t* out,
                   std::size_t capacity, std::size_t& written) noexcept {
  written = 0;
  if ((in == nullptr && size > 0) || out == nullptr || capacity < cobs_max_encoded_size(size)) {
    return Status::kInvalidArgument;
  }
  // Block by block: each run of non-zero bytes is copied in a tight loop
  // and its code written once, where a byte loop with CobsWriter's state
  // decided per byte (~14 instructions a byte on the Cortex-M4;
  // docs/firmware.md). A block's code is the distance from its code byte to
  // the output's end.
  const std::uint8_t* p = in;
  const std::uint8_t* const end = in + size;
  std::uint8_t* code = out;
  std::uint8_t* o = out + 1;
  // While 254 or more bytes are left a block may fill up (at most 254 bytes).
  while (end - p >= 254) {
    const std::uint8_t* const block_end = p + 254;
    copy_run(p, block_end, o);
    const bool full = p == block_end;
    *code = static_cast<std::uint8_t>(o - code);
    if (p == end) {  // a full block at the very end: no empty block after it
      written = static_cast<std::size_t>(o - out);
      return Status::kOk;
    }
    if (!full) ++p;  // ended by a zero byte, which the next code stands for
    code = o++;
  }
  // Fewer than 254 left: no block can fill up, only zeros and the end close one.
  for (;;) {
    copy_run(p, end, o);
    *code = static_cast<std::uint8_t>(o - code);
    if (p == end) break;
    ++p;
    code = o++;
  }
  written = static_cast<std::size_t>(o - out);
  return Status::kOk;
}

namespace {

/// The common case in two bulk steps: when no block is full (no code 0xFF),
/// the input holds no zero byte, the code chain ends exactly at the end and
/// the result fits, the decoding is the input shifted down by one byte with a
/// zero where every code byte after the first was: out[p − 1] = 0 for each
/// such code position p. After the shift, out[p − 1] holds that code, which
/// gives the next position, so one memmove and a walk of the chain (a few
/// instructions per block) replace the byte loop (its per-block work
/// dominated: the link's frames average 1.6 bytes per block, callgrind).
/// Works in place. Returns false, having written nothing, when any condition
/// fails; the byte loop then decodes (and reports) as before.
bool decode_without_full_blocks(const std::uint8_t* in, std::size_t size, std::uint8_t* out,
                                std::size_t capacity) noexcept {
  if (capacity < size - 1 || std::memchr(in, 0x00, size) != nullptr) return false;
  std::size_t position = 0;  // every code is ≥ 1 here, so the walk ends
  while (position < size) {
    const std::uint8_t code = in[position];
    if (code == 0xFF) return false;
    position += code;
  }
  if (position != size) return false;  // the last block runs past the end
  const std::size_t first = in[0];     // read before the shift: in place it overwrites in[0]
  std::memmove(out, in + 1, size - 1);
  for (std::size_t at = first - 1; at < size - 1;) {
    const std::uint8_t code = out[at];
    out[at] = 0;
    at += code;
  }
  return true;
}

}  // namespace

Status cobs_decode(const std::uint8_t* in, std::size_t size, std::uint8_t* out,
                   std::size_t capacity, std::size_t& written) noexcept {
  written = 0;
  if ((in == nullptr && size > 0) || out == nullptr) return Status::kInvalidArgument;
  if (size == 0) return Status::kCorruptInput;
  if (decode_without_full_blocks(in, size, out, capacity)) {
    written = size - 1;
    return Status::kOk;
  }
  // In place works: the write index never passes the read index.
  std::size_t read = 0;
  std::size_t count = 0;
  while (read < size) {
    const std::uint8_t code = in[read++];
    if (code == 0) return Status::kCorruptInput;
    const std::size_t run = static_cast<std::size_t>(code) - 1;
    if (run > size - read) return Status::kCorruptInput;  // block runs past the end
    if (run > capacity - count) return Status::kInvalidArgument;
    for (std::size_t k = 0; k < run; ++k) {
      const std::uint8_t byte = in[read++];
      if (byte == 0) return Status::kCorruptInput;
      out[count++] = byte;
    }
    if (code != 0xFF && read < size) {  // a short block ends with an encoded zero
      if (count == capacity) return Status::kInvalidArgument;
      out[count++] = 0;
    }
  }
  written = count;
  return Status::kOk;
}

}  // namespace link
}  // namespace hodyn
