// The stream parser: accumulate to a delimiter, COBS-decode in place,
// validate, decode into the queue.
#include "hodyn/link/frame_parser.hpp"

#include <cstring>

#include "hodyn/link/cobs.hpp"
#include "validated_frame.hpp"

namespace hodyn {
namespace link {

void FrameParser::delimiter() noexcept {
  ++counters_.delimiters;
  if (overflowing_) {
    overflowing_ = false;  // already counted when it overflowed
  } else if (fill_ == 0) {
    ++counters_.empty_segments;
  } else {
    end_of_block(buffer_, fill_);
  }
  fill_ = 0;
}

void FrameParser::push(std::uint8_t byte) noexcept { (void)push_frame(&byte, 1); }

Status FrameParser::push(const std::uint8_t* data, std::size_t size) noexcept {
  if (data == nullptr) return size == 0 ? Status::kOk : Status::kInvalidArgument;
  for (std::size_t at = 0; at < size;) at += push_frame(data + at, size - at);
  return Status::kOk;
}

std::size_t FrameParser::push_frame(const std::uint8_t* data, std::size_t size) noexcept {
  if (data == nullptr) return 0;
  // Whole runs at once (memchr, memcpy): a byte loop reloaded fill_ after every
  // store into the byte buffer (a char store may alias it), ~15 instructions a
  // byte and a third of the link's cost per control period (callgrind).
  const void* zero = std::memchr(data, 0x00, size);
  const std::size_t run =
      zero == nullptr ? size
                      : static_cast<std::size_t>(static_cast<const std::uint8_t*>(zero) - data);
  if (!overflowing_) {
    if (run > kBufferSize - fill_) {  // a byte arrived with the buffer full
      reject(RejectReason::kOverflow);
      overflowing_ = true;
      fill_ = 0;
    } else {
      std::memcpy(buffer_ + fill_, data, run);
      fill_ += run;
    }
  }
  if (zero == nullptr) {
    counters_.bytes += size;
    return size;
  }
  counters_.bytes += run + 1;
  delimiter();
  return run + 1;
}

void FrameParser::push_block(std::uint8_t* block, std::size_t size) noexcept {
  if (block == nullptr) return;
  if (fill_ != 0 || overflowing_ || size > kBufferSize) {
    // A block continuing bytes pushed before it, or too long: as push_frame()
    // of the block and its delimiter (a copy).
    const std::size_t taken = push_frame(block, size);
    if (taken == size) (void)push_frame(&kDelimiter, 1);
    return;
  }
  // Decoded where it lies: no search for the delimiter, no copy.
  counters_.bytes += size + 1;
  ++counters_.delimiters;
  if (size == 0) {
    ++counters_.empty_segments;
    return;
  }
  end_of_block(block, size);
}

// COBS-decodes block[0 .. size) in place; returns where the frame starts
// (null for invalid COBS). The block holds no 0x00 (push_frame split the
// stream at them; push_block's caller did; a 0x00 code ends the walk below
// all the same, and cobs_decode() rejects it). Common case, no full block (no code 0xFF) and a
// code chain ending exactly at the end: the frame is the block from its
// second byte on with a zero where each later code byte was, so zeroing those
// (a few instructions a block) decodes it where it lies, without the shift
// down by one byte (a byte-wise memmove of the whole frame: ~900
// instructions a control period on the F405) and without the zero search
// cobs_decode() makes. Anything else: cobs_decode(), which shifts (a full
// block's code byte decodes to nothing) and reports errors.
const std::uint8_t* FrameParser::decode_block(std::uint8_t* block, std::size_t size,
                                              std::size_t& frame_size) noexcept {
  if (size <= 254) {
    // No block can be full (a code 0xFF needs 254 bytes after it), so one
    // walk decides and decodes: valid COBS is a chain of codes 1..254 that
    // ends exactly at the end (cobs_decode() finds every other block
    // corrupt: a code 0x00, or one whose block runs past the end, 0xFF
    // among them). Each code after the first becomes the zero it stands
    // for; a block found corrupt on the way is discarded, zeros and all.
    std::size_t at = block[0];
    while (at < size) {
      const std::uint8_t code = block[at];
      if (code == 0x00) return nullptr;
      block[at] = 0;
      at += code;
    }
    if (at != size) return nullptr;
    frame_size = size - 1;
    return block + 1;
  }
  std::size_t at = 0;
  while (at < size) {
    const std::uint8_t code = block[at];
    if (code == 0xFF || code == 0x00) break;
    at += code;
  }
  if (at == size) {
    for (at = block[0]; at < size;) {
      const std::uint8_t code = block[at];
      block[at] = 0;
      at += code;
    }
    frame_size = size - 1;
    return block + 1;
  }
  if (cobs_decode(block, size, buffer_, kBufferSize, frame_size) != Status::kOk) return nullptr;
  return buffer_;
}

void FrameParser::end_of_block(std::uint8_t* block, std::size_t size) noexcept {
  std::size_t frame_size = 0;
  const std::uint8_t* frame = decode_block(block, size, frame_size);
  if (frame == nullptr) {
    reject(RejectReason::kCobsError);
    return;
  }
  const RejectReason reason = validate_frame(frame, frame_size, verifier_);
  if (reason != RejectReason::kNone) {
    reject(reason);
    return;
  }
  ++counters_.frames_ok;
  if (queued_ == kQueueDepth) {  // full: the oldest message gives way
    head_ = (head_ + 1) % kQueueDepth;
    --queued_;
    ++counters_.messages_dropped;
  }
  detail::decode_validated_frame(frame, frame_size, queue_[(head_ + queued_) % kQueueDepth],
                                 float_frames_);
  ++queued_;
}

void FrameParser::reject(RejectReason reason) noexcept {
  ++counters_.rejected[static_cast<std::size_t>(reason)];
  last_reject_ = reason;
}

const Message* FrameParser::take() noexcept {
  if (queued_ == 0) return nullptr;
  const Message* message = &queue_[head_];
  head_ = (head_ + 1) % kQueueDepth;
  --queued_;
  ++counters_.messages_delivered;
  return message;
}

bool FrameParser::next(Message& message) noexcept {
  const Message* taken = take();
  if (taken == nullptr) return false;
  message = *taken;
  return true;
}

void FrameParser::reset() noexcept {
  counters_.messages_dropped += queued_;
  fill_ = 0;
  overflowing_ = false;
  head_ = 0;
  queued_ = 0;
}

}  // namespace link
}  // namespace hodyn
