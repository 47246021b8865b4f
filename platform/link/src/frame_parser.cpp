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
    end_of_block();
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

void FrameParser::end_of_block() noexcept {
  std::size_t frame_size = 0;
  if (cobs_decode(buffer_, fill_, buffer_, kBufferSize, frame_size) != Status::kOk) {
    reject(RejectReason::kCobsError);
    return;
  }
  const RejectReason reason = validate_frame(buffer_, frame_size, verifier_);
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
  detail::decode_validated_frame(buffer_, frame_size, queue_[(head_ + queued_) % kQueueDepth]);
  ++queued_;
}

void FrameParser::reject(RejectReason reason) noexcept {
  ++counters_.rejected[static_cast<std::size_t>(reason)];
  last_reject_ = reason;
}

bool FrameParser::next(Message& message) noexcept {
  if (queued_ == 0) return false;
  message = queue_[head_];
  head_ = (head_ + 1) % kQueueDepth;
  --queued_;
  ++counters_.messages_delivered;
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
