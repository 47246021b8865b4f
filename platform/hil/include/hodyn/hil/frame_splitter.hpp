// hodyn/hil/frame_splitter.hpp — cuts a byte stream into raw wire frames
// (everything up to and including a 0x00 delimiter) without decoding them,
// so that a fault injector can act on whole frames of a serial stream as it
// does on UDP datagrams. Fixed size, no heap.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/link/protocol.hpp"

namespace hodyn {
namespace hil {

class FrameSplitter {
 public:
  static constexpr std::size_t kCapacity = link::kMaxWireSize;

  /// Feeds one byte; true when it completed a frame (then frame()/size()
  /// hold it until the next push). A block longer than kCapacity is cut
  /// into kCapacity pieces (the receiver's parser rejects them).
  bool push(std::uint8_t byte) noexcept {
    if (complete_) {
      fill_ = 0;
      complete_ = false;
    }
    buffer_[fill_++] = byte;
    if (byte == 0 || fill_ == kCapacity) {
      complete_ = true;
      ++frames_;
    }
    return complete_;
  }
  const std::uint8_t* frame() const noexcept { return buffer_; }
  std::size_t size() const noexcept { return complete_ ? fill_ : 0; }
  std::uint64_t frames() const noexcept { return frames_; }

 private:
  std::uint8_t buffer_[kCapacity] = {};
  std::size_t fill_ = 0;
  bool complete_ = false;
  std::uint64_t frames_ = 0;
};

}  // namespace hil
}  // namespace hodyn
