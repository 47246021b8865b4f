// hodyn/link/frame_parser.hpp — the receive side of the link protocol: turns
// a byte stream (or datagrams) into decoded messages.
//
//   hodyn::link::FrameParser parser;               // ~4 KiB, static storage on a MCU
//   parser.push(bytes, count);                     // any chunking, 1 byte or a datagram
//   hodyn::link::Message message{};
//   while (parser.next(message)) { /* message.type, message.sensors, ... */ }
//   // or without the copy: while (const Message* m = parser.take()) { ... }
//
// Bytes accumulate in a fixed buffer until a 0x00 delimiter; then the block
// is COBS-decoded in place and checked (validate_frame, with the verifier of
// set_verifier() on a signed link: hodyn/link/security.hpp). A good frame is
// decoded into a fixed queue of kQueueDepth messages (when the queue is full
// the oldest message is dropped and counted). Anything else is counted by
// reason and forgotten; the next delimiter starts afresh, so the parser
// resynchronizes after garbage, truncation or a lost byte. More than
// kBufferSize bytes without a delimiter count one overflow, and the bytes up
// to the next delimiter are discarded. No allocation, no callbacks, no reads
// outside the buffers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/link/protocol.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace link {

/// What a parser has seen since construction or reset_counters(). With
/// `overflowing` the parser's discarding state, these hold (the first one
/// unless reset() cut off an overflow):
///   frames_ok + total_rejected() + empty_segments == delimiters + (overflowing ? 1 : 0)
///   messages_delivered + messages_dropped + (messages queued) == frames_ok
struct LinkCounters {
  std::uint64_t bytes = 0;               ///< every byte pushed
  std::uint64_t delimiters = 0;          ///< 0x00 bytes seen
  std::uint64_t empty_segments = 0;      ///< delimiters with nothing before them (ignored)
  std::uint64_t frames_ok = 0;           ///< frames that passed every check
  std::uint64_t messages_delivered = 0;  ///< handed out by next()
  std::uint64_t messages_dropped = 0;    ///< overwritten in a full queue or cleared by reset()
  std::uint64_t rejected[kRejectReasonCount] = {};  ///< by RejectReason (index kNone unused)

  std::uint64_t rejected_count(RejectReason reason) const noexcept {
    return rejected[static_cast<std::size_t>(reason)];
  }
  std::uint64_t total_rejected() const noexcept {
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < kRejectReasonCount; ++k) total += rejected[k];
    return total;
  }
};

class FrameParser {
 public:
  /// Messages held between push() and next().
  static constexpr std::size_t kQueueDepth = 4;
  /// Longest COBS block accepted: the largest frame's encoding.
  static constexpr std::size_t kBufferSize = kMaxWireSize - 1;

  FrameParser() noexcept = default;

  /// Checks signatures with `verifier` (its keys decide whether frames must
  /// be signed); null: an unsigned link (signed frames are kNoKey).
  void set_verifier(FrameVerifier* verifier) noexcept { verifier_ = verifier; }
  FrameVerifier* verifier() const noexcept { return verifier_; }
  /// Decodes SENSORS and REFERENCE into Message::sensors_f32 / reference_f32
  /// (plugin/float_frames.hpp) from now on: for a host whose controller is
  /// float (no double conversions on a single-precision FPU).
  void set_float_frames(bool on) noexcept { float_frames_ = on; }
  bool float_frames() const noexcept { return float_frames_; }

  /// Feeds one byte.
  void push(std::uint8_t byte) noexcept;
  /// Feeds `size` bytes. kOk; kInvalidArgument (nothing fed) for a null
  /// `data` with `size` > 0.
  Status push(const std::uint8_t* data, std::size_t size) noexcept;
  /// Feeds bytes up to and including the first 0x00 delimiter (or all of
  /// them) and returns how many it took (0 for a null `data`): at most one
  /// frame completes, so a caller draining next() after each call handles
  /// every message before the next frame is checked (receive.hpp).
  std::size_t push_frame(const std::uint8_t* data, std::size_t size) noexcept;
  /// Feeds a COBS block whose delimiter the caller has found: the same as
  /// push_frame() of `block[0 .. size)` followed by one 0x00 (the same
  /// messages, rejections and counters), for a block holding no 0x00. When
  /// no partial block is pending the block is decoded where it lies (it is
  /// overwritten: COBS decoding in place), without the search for the
  /// delimiter and the copy into the parser's buffer; the decoded message is
  /// copied out of it into the queue. A null `block` feeds nothing.
  void push_block(std::uint8_t* block, std::size_t size) noexcept;

  /// Takes the oldest decoded message; false when there is none.
  bool next(Message& message) noexcept;
  /// Takes the oldest decoded message without copying it (~800 bytes): null
  /// when there is none. The message stays valid until the next push (its
  /// queue slot is free again; counted as delivered, as by next()).
  const Message* take() noexcept;
  /// Decoded messages waiting for next().
  std::size_t queued() const noexcept { return queued_; }

  const LinkCounters& counters() const noexcept { return counters_; }
  /// Why the most recent rejected frame was rejected (kNone if none yet).
  RejectReason last_reject() const noexcept { return last_reject_; }
  /// True while discarding an overlong block, until the next delimiter.
  bool overflowing() const noexcept { return overflowing_; }

  /// Forgets the partial frame and the queued messages (counters stay).
  void reset() noexcept;
  void reset_counters() noexcept { counters_ = LinkCounters{}; }

 private:
  void delimiter() noexcept;
  void end_of_block(std::uint8_t* block, std::size_t size) noexcept;
  const std::uint8_t* decode_block(std::uint8_t* block, std::size_t size,
                                   std::size_t& frame_size) noexcept;
  static constexpr std::uint8_t kDelimiter = 0x00;
  void reject(RejectReason reason) noexcept;

  std::uint8_t buffer_[kBufferSize] = {};
  std::size_t fill_ = 0;
  bool overflowing_ = false;
  Message queue_[kQueueDepth] = {};
  std::size_t head_ = 0;    // oldest queued message
  std::size_t queued_ = 0;  // messages in the queue
  RejectReason last_reject_ = RejectReason::kNone;
  LinkCounters counters_;
  FrameVerifier* verifier_ = nullptr;
  bool float_frames_ = false;
};

}  // namespace link
}  // namespace hodyn
