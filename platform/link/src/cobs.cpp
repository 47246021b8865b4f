// COBS encoding and decoding (canonical form, no delimiter).
#include "hodyn/link/cobs.hpp"

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

Status cobs_encode(const std::uint8_t* in, std::size_t size, std::uint8_t* out,
                   std::size_t capacity, std::size_t& written) noexcept {
  written = 0;
  if ((in == nullptr && size > 0) || out == nullptr || capacity < cobs_max_encoded_size(size)) {
    return Status::kInvalidArgument;
  }
  CobsWriter writer(out);
  for (std::size_t i = 0; i < size; ++i) writer.put(in[i]);
  written = writer.finish();
  return Status::kOk;
}

Status cobs_decode(const std::uint8_t* in, std::size_t size, std::uint8_t* out,
                   std::size_t capacity, std::size_t& written) noexcept {
  written = 0;
  if ((in == nullptr && size > 0) || out == nullptr) return Status::kInvalidArgument;
  if (size == 0) return Status::kCorruptInput;
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
