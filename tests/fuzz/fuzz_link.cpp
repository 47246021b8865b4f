// tests/fuzz/fuzz_link.cpp — libFuzzer target of the link's receive path:
// the frame parser, COBS and the codec of every message type, unsigned and
// signed (protocol v3, SipHash-2-4-128; docs/link-protocol.md,
// docs/link-security.md). How to run it: docs/fuzzing.md.
//
// Byte 0 of the input picks a mode; the rest is that mode's data:
//   0 stream   bytes as a socket or a UART delivers them, to a FrameParser
//              (unsigned, or checking signatures), in input-chosen chunks
//              through push(), push_frame() / parse_bytes() or byte by byte;
//   1 sealed   the bytes as one unstuffed frame that the harness completes
//              with a valid tag (when asked) and CRC, so that every check
//              behind the CRC and the MAC is reached; decode_frame() and the
//              stream parser must agree on it;
//   2 session  a signed session: messages built from the input are signed by
//              the simulator end and delivered, held back and replayed,
//              altered, truncated, mixed with garbage or re-keyed; the
//              controller end must accept exactly the fresh, unaltered frames
//              (the replay window of link-security.md), each equal to what
//              was sent, and reject the rest for the right reason;
//   3 cobs     COBS round trips of arbitrary bytes.
// Everywhere: no crash, no read or write out of bounds, no UB (ASan, UBSan),
// every delivered message has the values a receiver relies on and re-encodes
// to the bytes it came from, and the parser's counters add up.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "fuzz_input.hpp"
#include "hodyn/link/receive.hpp"
#include "hodyn/link/siphash.hpp"
#include "link_fuzz_support.hpp"

namespace {

using namespace hodyn_fuzz;
using hodyn::Status;

constexpr std::size_t kFrameRoom = hl::kMaxFrameSize + 64;  // frames the harness builds
constexpr std::size_t kWireRoom = 2 * kFrameRoom + 16;

std::uint32_t load_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
std::uint64_t load_u64(const std::uint8_t* p) {
  return static_cast<std::uint64_t>(load_u32(p)) | (static_cast<std::uint64_t>(load_u32(p + 4)))
                                                       << 32;
}
void store_u32(std::uint32_t v, std::uint8_t* p) {
  for (int k = 0; k < 4; ++k) p[k] = static_cast<std::uint8_t>(v >> (8 * k));
}

/// The unstuffed frame of an encoder's wire bytes (COBS block + delimiter).
std::size_t unstuff(const std::uint8_t* wire, std::size_t wire_size, std::uint8_t* frame) {
  std::size_t size = 0;
  HODYN_FUZZ_CHECK(wire_size >= 2 && wire[wire_size - 1] == 0);
  HODYN_FUZZ_CHECK(hl::cobs_decode(wire, wire_size - 1, frame, kFrameRoom, size) == Status::kOk);
  return size;
}

/// The checks on every message a receiver hands out: its values are in
/// range, and encoded again (unsigned) and decoded it is the same message.
void check_delivered(const hl::Message& m, bool keyed) {
  HODYN_FUZZ_CHECK(values_valid(m));
  HODYN_FUZZ_CHECK(keyed ? m.counter != 0 : m.counter == 0);
  std::uint8_t wire[hl::kMaxWireSize];
  std::uint8_t frame[kFrameRoom];
  std::size_t wire_size = 0;
  HODYN_FUZZ_CHECK(hl::encode(m, wire, sizeof wire, wire_size) == Status::kOk);
  const std::size_t frame_size = unstuff(wire, wire_size, frame);
  hl::Message again{};
  hl::RejectReason reason{};
  HODYN_FUZZ_CHECK(hl::decode_frame(frame, frame_size, again, reason) == Status::kOk);
  HODYN_FUZZ_CHECK(same_message(m, again, /*ignore_counter=*/true));
}

void check_counters(const hl::FrameParser& parser) {
  const hl::LinkCounters& c = parser.counters();
  HODYN_FUZZ_CHECK(c.frames_ok + c.total_rejected() + c.empty_segments ==
                   c.delimiters + (parser.overflowing() ? 1u : 0u));
  HODYN_FUZZ_CHECK(c.messages_delivered + c.messages_dropped + parser.queued() == c.frames_ok);
  HODYN_FUZZ_CHECK(c.rejected_count(hl::RejectReason::kNone) == 0);
}

// ---- mode 0: a byte stream --------------------------------------------------------

void stream(FuzzInput& in) {
  const std::uint8_t flags = in.byte();
  const bool keyed = (flags & 1u) != 0;
  const int feeding = (flags >> 1) % 3;
  LinkEnds ends(keyed);
  if ((flags & 8u) != 0) {
    std::uint8_t nonces[2][hl::kNonceSize];
    in.bytes(nonces, sizeof nonces);
    ends.start_session(nonces[0], nonces[1]);
  }
  hl::FrameVerifier verifier(ends.controller);
  hl::FrameParser parser;
  if (keyed) parser.set_verifier(&verifier);
  hl::Message m{};
  while (in.remaining() > 0) {
    // Each chunk's first byte sets its length and is part of the stream.
    std::size_t chunk = 1 + *in.here() % 97;
    const std::uint8_t* bytes = nullptr;
    chunk = in.take(chunk, bytes);
    switch (feeding) {
      case 0:
        HODYN_FUZZ_CHECK(parser.push(bytes, chunk) == Status::kOk);
        break;
      case 1:
        hl::parse_bytes(parser, bytes, chunk,
                        [&](const hl::Message& message) { check_delivered(message, keyed); });
        break;
      default:
        for (std::size_t k = 0; k < chunk; ++k) parser.push(bytes[k]);
        break;
    }
    while (parser.next(m)) check_delivered(m, keyed);
  }
  check_counters(parser);
}

// ---- mode 1: one frame, completed by the harness ------------------------------------

void sealed(FuzzInput& in) {
  const std::uint8_t flags = in.byte();
  const bool keyed = (flags & 1u) != 0;   // the receiver checks signatures
  const bool tag = (flags & 2u) != 0;     // append a valid tag over the bytes
  const bool header = (flags & 8u) != 0;  // magic, version, length made right
  LinkEnds ends(keyed);
  if ((flags & 4u) != 0) {
    std::uint8_t nonces[2][hl::kNonceSize];
    in.bytes(nonces, sizeof nonces);
    ends.start_session(nonces[0], nonces[1]);
  }
  std::uint8_t frame[kFrameRoom] = {};
  const std::uint8_t* body = nullptr;
  std::size_t size = in.take(hl::kMaxFrameSize, body);
  std::memcpy(frame, body, size);
  const bool signed_frame = size > 3 && (frame[3] & hl::kSignedFlag) != 0;
  if (header && size >= hl::kHeaderSize) {
    frame[0] = hl::kMagic0;
    frame[1] = hl::kMagic1;
    frame[2] = hl::kProtocolVersion;
    const std::size_t extra = tag ? hl::kCounterSize : 0;  // the counter is part of the body
    const std::size_t payload =
        size - hl::kHeaderSize >= extra ? size - hl::kHeaderSize - extra : 0;
    frame[4] = static_cast<std::uint8_t>(payload);
    frame[5] = static_cast<std::uint8_t>(payload >> 8);
  }
  const std::uint8_t* key = nullptr;
  if (tag && size > 3) {
    key = ends.simulator.key(static_cast<hl::MessageType>(frame[3] & 0x7Fu), /*transmit=*/true);
    if (key != nullptr) hl::siphash128(key, frame, size, frame + size);
    size += hl::kTagSize;  // zeros without a key
  }
  store_u32(hl::crc32(frame, size), frame + size);
  size += hl::kCrcSize;

  hl::FrameVerifier direct(ends.controller);
  hl::Message m{};
  hl::RejectReason reason = hl::RejectReason::kNone;
  const Status decoded = hl::decode_frame(frame, size, m, reason, keyed ? &direct : nullptr);
  HODYN_FUZZ_CHECK((decoded == Status::kOk) == (reason == hl::RejectReason::kNone));

  // The stream parser, with a verifier of its own in the same state, agrees.
  std::uint8_t wire[kWireRoom];
  std::size_t wire_size = 0;
  HODYN_FUZZ_CHECK(hl::cobs_encode(frame, size, wire, sizeof wire, wire_size) == Status::kOk);
  if (wire_size <= hl::FrameParser::kBufferSize) {
    wire[wire_size++] = 0;
    hl::FrameVerifier streamed(ends.controller);
    hl::FrameParser parser;
    if (keyed) parser.set_verifier(&streamed);
    HODYN_FUZZ_CHECK(parser.push(wire, wire_size) == Status::kOk);
    hl::Message from_stream{};
    const bool delivered = parser.next(from_stream);
    HODYN_FUZZ_CHECK(delivered == (decoded == Status::kOk));
    if (delivered) {
      HODYN_FUZZ_CHECK(same_message(m, from_stream));
    } else {
      HODYN_FUZZ_CHECK(parser.last_reject() == reason);
    }
    check_counters(parser);
  }
  if (decoded != Status::kOk) return;

  // Accepted: a signed frame only with a true tag, and only when this end checks.
  check_delivered(m, keyed);
  if (signed_frame) HODYN_FUZZ_CHECK(keyed && key != nullptr);
  // It re-encodes to the bytes it came from (a signed one: up to its signature).
  std::uint8_t again[hl::kMaxWireSize];
  std::uint8_t again_frame[kFrameRoom];
  std::size_t again_size = 0;
  HODYN_FUZZ_CHECK(hl::encode(m, again, sizeof again, again_size) == Status::kOk);
  const std::size_t again_frame_size = unstuff(again, again_size, again_frame);
  if (signed_frame) {
    // The same frame a second time is a replay.
    hl::Message twice{};
    HODYN_FUZZ_CHECK(hl::decode_frame(frame, size, twice, reason, &direct) ==
                     Status::kCorruptInput);
    HODYN_FUZZ_CHECK(reason == hl::RejectReason::kReplay);
    const std::size_t body_size = size - hl::kCrcSize - hl::kSignatureSize;
    HODYN_FUZZ_CHECK(m.counter == load_u64(frame + body_size));
    frame[3] = static_cast<std::uint8_t>(frame[3] & ~hl::kSignedFlag);
    HODYN_FUZZ_CHECK(again_frame_size == body_size + hl::kCrcSize);
    HODYN_FUZZ_CHECK(std::memcmp(again_frame, frame, body_size) == 0);
  } else {
    HODYN_FUZZ_CHECK(again_frame_size == size);
    HODYN_FUZZ_CHECK(std::memcmp(again_frame, frame, size) == 0);
  }
}

// ---- mode 2: a signed session ---------------------------------------------------

/// A frame the simulator end signed, as sent.
struct Sent {
  std::vector<std::uint8_t> wire;  // COBS block + delimiter
  hl::Message message;             // what it carries, its counter included
  std::uint32_t session;           // the keys' session when it was signed
};

/// The controller end as link-security.md specifies it: HELLO counters rise
/// strictly; a session frame's counter is fresh when above the highest one
/// accepted, or less than 64 below it and not accepted yet; a frame of
/// another session fails its MAC.
struct ReceiverModel {
  std::uint32_t session = 0;
  std::uint64_t last_hello = 0;
  std::uint64_t highest = 0;
  std::set<std::uint64_t> accepted;

  hl::RejectReason verdict(const Sent& f) const {
    const std::uint64_t c = f.message.counter;
    if (f.message.type == hl::MessageType::kHello)
      return c > last_hello ? hl::RejectReason::kNone : hl::RejectReason::kReplay;
    if (f.session != session) return hl::RejectReason::kBadMac;
    const bool fresh = c != 0 && accepted.count(c) == 0 && (c > highest || highest - c < 64);
    return fresh ? hl::RejectReason::kNone : hl::RejectReason::kReplay;
  }
  void accept(const Sent& f) {
    const std::uint64_t c = f.message.counter;
    if (f.message.type == hl::MessageType::kHello) {
      last_hello = c;
      return;
    }
    accepted.insert(c);
    if (c > highest) highest = c;
  }
  void new_session(std::uint32_t s) {
    session = s;
    highest = 0;
    accepted.clear();
  }
};

class Session {
 public:
  explicit Session(FuzzInput& in)
      : in_(in), ends_(true), signer_(ends_.simulator), verifier_(ends_.controller) {
    parser_.set_verifier(&verifier_);
    signer_.set_hello_counter(std::uint64_t{1} + in.u32());
    if ((in.byte() & 1u) != 0) rekey();
  }

  void run() {
    while (in_.remaining() > 0) {
      switch (in_.byte() % 8) {
        case 0:
        case 1:
          if (send()) deliver(held_.back());
          break;
        case 2:
          send();  // held back: may come later, reordered
          break;
        case 3:
          if (!held_.empty()) deliver(held_[in_.byte() % held_.size()]);
          break;
        case 4:
          if (send()) alter(held_.back());
          break;
        case 5:
          rekey();
          break;
        case 6:
          garbage();
          break;
        default:
          if (send()) truncate(held_.back());
          break;
      }
    }
    check_counters(parser_);
  }

 private:
  /// Signs a new message from the input; false when the signer may not (a
  /// session frame before any session: nothing is sent, not even unsigned).
  bool send() {
    Sent f{};
    f.message = message_from(in_);
    f.session = ends_.simulator.session();
    f.wire.resize(hl::kMaxWireSize);
    std::size_t size = 0;
    const Status s = hl::encode(f.message, f.wire.data(), f.wire.size(), size, &signer_);
    if (f.message.type != hl::MessageType::kHello && f.session == 0) {
      HODYN_FUZZ_CHECK(s == Status::kNotConfigured && size == 0);
      return false;
    }
    HODYN_FUZZ_CHECK(s == Status::kOk);
    f.wire.resize(size);
    std::uint8_t frame[kFrameRoom];
    const std::size_t frame_size = unstuff(f.wire.data(), size, frame);
    f.message.counter = load_u64(frame + frame_size - hl::kCrcSize - hl::kSignatureSize);
    if (held_.size() == kHeld) held_.erase(held_.begin());
    held_.push_back(f);
    return true;
  }

  /// Feeds `wire` and returns the messages the parser hands out (at most one).
  int feed(const std::uint8_t* wire, std::size_t size, hl::Message& out) {
    int delivered = 0;
    hl::parse_bytes(parser_, wire, size, [&](const hl::Message& m) {
      out = m;
      ++delivered;
    });
    return delivered;
  }

  void deliver(const Sent& f) {
    const hl::RejectReason expected = model_.verdict(f);
    hl::Message got{};
    const int delivered = feed(f.wire.data(), f.wire.size(), got);
    if (expected == hl::RejectReason::kNone) {
      HODYN_FUZZ_CHECK(delivered == 1);
      HODYN_FUZZ_CHECK(same_message(got, f.message));
      check_delivered(got, true);
      model_.accept(f);
    } else {
      HODYN_FUZZ_CHECK(delivered == 0);
      HODYN_FUZZ_CHECK(parser_.last_reject() == expected);
    }
  }

  /// One bit of the frame flipped, the CRC made right again or not: never
  /// accepted. The original stays held (it was never received).
  void alter(const Sent& f) {
    std::uint8_t frame[kFrameRoom];
    std::size_t size = unstuff(f.wire.data(), f.wire.size(), frame);
    const bool reseal = (in_.byte() & 1u) != 0;
    const std::size_t covered = reseal ? size - hl::kCrcSize : size;
    const std::size_t at = in_.u32() % covered;
    frame[at] = static_cast<std::uint8_t>(frame[at] ^ (1u << (in_.byte() % 8)));
    if (reseal) store_u32(hl::crc32(frame, size - hl::kCrcSize), frame + size - hl::kCrcSize);
    expect_rejected(frame, size);
  }

  /// The frame cut short (a lost tail): never accepted.
  void truncate(const Sent& f) {
    std::uint8_t frame[kFrameRoom];
    const std::size_t size = unstuff(f.wire.data(), f.wire.size(), frame);
    expect_rejected(frame, in_.u32() % size);
  }

  void expect_rejected(const std::uint8_t* frame, std::size_t size) {
    std::uint8_t wire[kWireRoom];
    std::size_t wire_size = 0;
    if (size == 0) {
      wire[wire_size++] = 0;  // an empty block: ignored
    } else {
      HODYN_FUZZ_CHECK(hl::cobs_encode(frame, size, wire, sizeof wire, wire_size) == Status::kOk);
      wire[wire_size++] = 0;
    }
    const std::uint64_t rejected = parser_.counters().total_rejected();
    hl::Message got{};
    HODYN_FUZZ_CHECK(feed(wire, wire_size, got) == 0);
    if (size > 0) HODYN_FUZZ_CHECK(parser_.counters().total_rejected() == rejected + 1);
  }

  /// Bytes that are no frame, ended by a delimiter: never a message.
  void garbage() {
    std::uint8_t wire[kWireRoom];
    const std::uint8_t* bytes = nullptr;
    const std::size_t n = in_.take(in_.byte() * 4u, bytes);
    for (std::size_t k = 0; k < n; ++k) wire[k] = bytes[k];
    wire[n] = 0;
    hl::Message got{};
    HODYN_FUZZ_CHECK(feed(wire, n + 1, got) == 0);
  }

  /// A new session on both ends (the HELLO exchange), its nonces never used before.
  void rekey() {
    std::uint8_t nonces[2][hl::kNonceSize];
    in_.bytes(nonces, sizeof nonces);
    ++rekeys_;
    store_u32(rekeys_, nonces[0]);
    ends_.start_session(nonces[0], nonces[1]);
    model_.new_session(ends_.controller.session());
    HODYN_FUZZ_CHECK(ends_.simulator.session() == ends_.controller.session());
  }

  static constexpr std::size_t kHeld = 8;
  FuzzInput& in_;
  LinkEnds ends_;
  hl::FrameSigner signer_;
  hl::FrameVerifier verifier_;
  hl::FrameParser parser_;
  ReceiverModel model_;
  std::vector<Sent> held_;
  std::uint32_t rekeys_ = 0;
};

// ---- mode 3: COBS -----------------------------------------------------------------

void cobs(FuzzInput& in) {
  const std::uint8_t* data = nullptr;
  const std::size_t size = in.take(4096, data);
  static std::uint8_t encoded[2 * 4096 + 16], decoded[2 * 4096 + 16];
  // encode(x) has no 0x00, fits the bound and decodes to x.
  std::size_t n = 0, back = 0;
  HODYN_FUZZ_CHECK(hl::cobs_encode(data, size, encoded, sizeof encoded, n) == Status::kOk);
  HODYN_FUZZ_CHECK(n <= hl::cobs_max_encoded_size(size));
  HODYN_FUZZ_CHECK(std::memchr(encoded, 0, n) == nullptr);
  HODYN_FUZZ_CHECK(hl::cobs_decode(encoded, n, decoded, sizeof decoded, back) == Status::kOk);
  HODYN_FUZZ_CHECK(back == size && (size == 0 || std::memcmp(decoded, data, size) == 0));
  // decode(x) = y implies encode(y) = x (canonical form), else an error with nothing written.
  if (size > 0 && hl::cobs_decode(data, size, decoded, sizeof decoded, back) == Status::kOk) {
    HODYN_FUZZ_CHECK(back < size);
    HODYN_FUZZ_CHECK(hl::cobs_encode(decoded, back, encoded, sizeof encoded, n) == Status::kOk);
    HODYN_FUZZ_CHECK(n <= size);
    // In place, as the parser decodes its buffer.
    std::memcpy(encoded, data, size);
    std::size_t in_place = 0;
    HODYN_FUZZ_CHECK(hl::cobs_decode(encoded, size, encoded, size, in_place) == Status::kOk);
    HODYN_FUZZ_CHECK(in_place == back && std::memcmp(encoded, decoded, back) == 0);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  FuzzInput in(data + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
      stream(in);
      break;
    case 1:
      sealed(in);
      break;
    case 2:
      Session(in).run();
      break;
    default:
      cobs(in);
      break;
  }
  return 0;
}
