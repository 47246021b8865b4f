// The link stream parser: frames split at every byte boundary, garbage and
// resynchronization, every single-bit flip rejected and counted, truncated
// frames, overflow without a delimiter, the fixed queue, counters that add up
// and no heap use.
#include "support/heap_counter.hpp"  // counts allocations (this TU only)

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "hodyn/link/cobs.hpp"
#include "link/link_test_support.hpp"

namespace hodyn {
namespace {

using link::FrameParser;
using link::LinkCounters;
using link::Message;
using link::MessageType;
using link::RejectReason;
using Bytes = std::vector<std::uint8_t>;

Bytes wire_of(const Message& m) {
  Bytes wire(link::kMaxWireSize);
  std::size_t size = 0;
  EXPECT_EQ(link::encode(m, wire.data(), wire.size(), size), Status::kOk);
  wire.resize(size);
  return wire;
}

Bytes frame_of(const Message& m) {
  const Bytes wire = wire_of(m);
  Bytes frame(link::kMaxFrameSize + 16);
  frame.resize(test::unwrap(wire.data(), wire.size(), frame.data()));
  return frame;
}

Bytes wrap(const Bytes& frame) {
  Bytes wire(link::wire_size(frame.size()));
  wire.resize(test::wrap(frame.data(), frame.size(), wire.data()));
  return wire;
}

void push(FrameParser& parser, const Bytes& bytes) {
  ASSERT_EQ(parser.push(bytes.data(), bytes.size()), Status::kOk);
}

std::vector<Message> drain(FrameParser& parser) {
  std::vector<Message> out;
  Message m{};
  while (parser.next(m)) out.push_back(m);
  return out;
}

void expect_counters_add_up(const FrameParser& parser) {
  const LinkCounters& c = parser.counters();
  EXPECT_EQ(c.frames_ok + c.total_rejected() + c.empty_segments,
            c.delimiters + (parser.overflowing() ? 1u : 0u));
  EXPECT_EQ(c.messages_delivered + c.messages_dropped + parser.queued(), c.frames_ok);
}

std::vector<Message> three_messages(std::uint64_t seed) {
  test::LinkRng rng(seed);
  return {test::random_message(rng, MessageType::kSensors),
          test::random_message(rng, MessageType::kCommand),
          test::random_message(rng, MessageType::kReference)};
}

TEST(LinkFrameParser, DecodesAStreamSplitAtEveryByteBoundary) {
  const std::vector<Message> messages = three_messages(1);
  Bytes stream;
  for (const Message& m : messages) {
    const Bytes w = wire_of(m);
    stream.insert(stream.end(), w.begin(), w.end());
  }
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    FrameParser parser;
    ASSERT_EQ(parser.push(stream.data(), cut), Status::kOk);
    ASSERT_EQ(parser.push(stream.data() + cut, stream.size() - cut), Status::kOk);
    const std::vector<Message> got = drain(parser);
    ASSERT_EQ(got.size(), 3u) << "cut " << cut;
    for (std::size_t k = 0; k < 3; ++k) ASSERT_TRUE(test::bit_equal(got[k], messages[k])) << cut;
    ASSERT_EQ(parser.counters().bytes, stream.size());
    ASSERT_EQ(parser.counters().total_rejected(), 0u);
  }
  // Byte by byte, draining after every byte.
  FrameParser parser;
  std::size_t delivered = 0;
  for (std::uint8_t b : stream) {
    parser.push(b);
    Message m{};
    while (parser.next(m)) ASSERT_TRUE(test::bit_equal(m, messages[delivered++]));
  }
  EXPECT_EQ(delivered, 3u);
  expect_counters_add_up(parser);
}

TEST(LinkFrameParser, HelloFramesStreamLikeTheOthers) {
  // The handshake's HELLO in a stream with the other three types, split at
  // every byte boundary; then a HELLO with a bad name field among good frames.
  test::LinkRng rng(11);
  const std::vector<Message> messages = {test::random_message(rng, MessageType::kHello),
                                         test::random_message(rng, MessageType::kSensors),
                                         test::random_message(rng, MessageType::kHello),
                                         test::random_message(rng, MessageType::kCommand)};
  Bytes stream;
  for (const Message& m : messages) {
    const Bytes w = wire_of(m);
    stream.insert(stream.end(), w.begin(), w.end());
  }
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    FrameParser parser;
    ASSERT_EQ(parser.push(stream.data(), cut), Status::kOk);
    ASSERT_EQ(parser.push(stream.data() + cut, stream.size() - cut), Status::kOk);
    const std::vector<Message> got = drain(parser);
    ASSERT_EQ(got.size(), 4u) << "cut " << cut;
    for (std::size_t k = 0; k < 4; ++k) ASSERT_TRUE(test::bit_equal(got[k], messages[k])) << cut;
  }
  const Bytes good = wire_of(messages[0]);
  Bytes bad_frame = frame_of(messages[0]);
  ASSERT_EQ(bad_frame.size(), link::kHelloFrameSize);
  std::memset(bad_frame.data() + link::kHeaderSize + 20, 'x', HODYN_NAME_LENGTH);  // no NUL
  test::reseal(bad_frame.data(), bad_frame.size());
  const Bytes bad = wrap(bad_frame);
  FrameParser parser;
  parser.push(good.data(), good.size());
  parser.push(bad.data(), bad.size());
  parser.push(good.data(), good.size());
  EXPECT_EQ(drain(parser).size(), 2u);
  EXPECT_EQ(parser.counters().rejected_count(RejectReason::kBadValue), 1u);
  expect_counters_add_up(parser);
}

TEST(LinkFrameParser, ResynchronizesAfterGarbage) {
  test::LinkRng rng(2);
  FrameParser parser;
  std::vector<Message> sent;
  std::size_t received = 0;
  for (int round = 0; round < 300; ++round) {
    Bytes garbage(rng.below(1500));
    const std::size_t zero_one_in = 1 + rng.below(50);
    for (auto& b : garbage)
      b = rng.below(zero_one_in) == 0 ? 0 : static_cast<std::uint8_t>(1 + rng.below(255));
    if (round % 3 == 1 && !sent.empty()) {  // a piece of a real frame as garbage
      const Bytes w = wire_of(sent.back());
      const std::size_t start = 1 + rng.below(w.size() - 2);  // never the whole frame
      garbage.insert(garbage.end(), w.begin() + static_cast<std::ptrdiff_t>(start), w.end() - 1);
    }
    push(parser, garbage);
    // Garbage without a final delimiter swallows the next frame; a sender's
    // leading 0x00 (allowed, ignored when empty) ends it.
    parser.push(std::uint8_t{0});
    sent.push_back(test::random_message(rng));
    push(parser, wire_of(sent.back()));
    Message m{};
    bool got_it = false;
    while (parser.next(m)) got_it = test::bit_equal(m, sent.back());
    ASSERT_TRUE(got_it) << "round " << round;
    ++received;
  }
  EXPECT_EQ(received, sent.size());
  EXPECT_GT(parser.counters().total_rejected(), 300u);
  EXPECT_EQ(parser.counters().frames_ok, sent.size());  // garbage never decoded
  expect_counters_add_up(parser);
}

TEST(LinkFrameParser, EverySingleBitFlipOfAFrameIsRejectedByItsCrc) {
  for (const Message& m : three_messages(3)) {
    const Bytes frame = frame_of(m);
    FrameParser parser;
    for (std::size_t bit = 0; bit < 8 * frame.size(); ++bit) {
      Bytes flipped = frame;
      flipped[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      push(parser, wrap(flipped));
      ASSERT_EQ(parser.queued(), 0u) << "bit " << bit;
      ASSERT_EQ(parser.last_reject(), RejectReason::kBadCrc) << "bit " << bit;
    }
    EXPECT_EQ(parser.counters().rejected_count(RejectReason::kBadCrc), 8 * frame.size());
    EXPECT_EQ(parser.counters().total_rejected(), 8 * frame.size());
    push(parser, wire_of(m));
    EXPECT_EQ(drain(parser).size(), 1u);
    expect_counters_add_up(parser);
  }
}

TEST(LinkFrameParser, EverySingleBitFlipOnTheWireIsRejected) {
  for (const Message& m : three_messages(4)) {
    const Bytes wire = wire_of(m);
    FrameParser parser;
    std::uint64_t flips = 0;
    for (std::size_t bit = 0; bit < 8 * (wire.size() - 1); ++bit) {  // delimiter kept
      Bytes flipped = wire;
      flipped[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      const std::uint64_t rejected_before = parser.counters().total_rejected();
      push(parser, flipped);
      ++flips;
      ASSERT_EQ(parser.queued(), 0u) << "bit " << bit;
      ASSERT_GE(parser.counters().total_rejected(), rejected_before + 1) << "bit " << bit;
    }
    EXPECT_GE(parser.counters().total_rejected(), flips);
    push(parser, wire);
    const std::vector<Message> got = drain(parser);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(test::bit_equal(got[0], m));
    expect_counters_add_up(parser);
  }
}

TEST(LinkFrameParser, TruncatedFramesAreRejected) {
  for (const Message& m : three_messages(5)) {
    const Bytes wire = wire_of(m);
    FrameParser parser;
    for (std::size_t n = 1; n + 1 < wire.size(); ++n) {
      Bytes cut(wire.begin(), wire.begin() + static_cast<std::ptrdiff_t>(n));
      cut.push_back(0);
      push(parser, cut);
      ASSERT_EQ(parser.queued(), 0u) << n;
    }
    EXPECT_EQ(parser.counters().total_rejected(), wire.size() - 2);
    // A truncated frame without its delimiter swallows the next frame (one
    // loss); the frame after that is received.
    Bytes stream(wire.begin(), wire.begin() + static_cast<std::ptrdiff_t>(wire.size() / 2));
    stream.insert(stream.end(), wire.begin(), wire.end());
    stream.insert(stream.end(), wire.begin(), wire.end());
    push(parser, stream);
    const std::vector<Message> got = drain(parser);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(test::bit_equal(got[0], m));
    expect_counters_add_up(parser);
  }
}

TEST(LinkFrameParser, OverflowWithoutDelimiterIsCountedOnceThenRecovers) {
  test::LinkRng rng(6);
  FrameParser parser;
  Bytes noise(100000);
  for (auto& b : noise) b = static_cast<std::uint8_t>(1 + rng.below(255));
  push(parser, noise);
  EXPECT_TRUE(parser.overflowing());
  EXPECT_EQ(parser.counters().rejected_count(RejectReason::kOverflow), 1u);
  EXPECT_EQ(parser.last_reject(), RejectReason::kOverflow);
  expect_counters_add_up(parser);
  const Message m = test::random_message(rng, MessageType::kReference);
  push(parser, wire_of(m));  // its bytes are discarded up to its delimiter
  EXPECT_FALSE(parser.overflowing());
  EXPECT_EQ(parser.queued(), 0u);
  push(parser, wire_of(m));
  ASSERT_EQ(parser.queued(), 1u);
  EXPECT_EQ(parser.counters().rejected_count(RejectReason::kOverflow), 1u);
  EXPECT_EQ(parser.counters().bytes, noise.size() + 2 * wire_of(m).size());
  expect_counters_add_up(parser);

  // Exactly kBufferSize bytes fit (rejected for their content, not overflow);
  // one more overflows.
  FrameParser edge;
  Bytes block(FrameParser::kBufferSize, 0x01);
  block.push_back(0);
  push(edge, block);
  EXPECT_EQ(edge.counters().rejected_count(RejectReason::kOverflow), 0u);
  EXPECT_EQ(edge.counters().total_rejected(), 1u);
  block.insert(block.begin(), 0x01);
  push(edge, block);
  EXPECT_EQ(edge.counters().rejected_count(RejectReason::kOverflow), 1u);
  expect_counters_add_up(edge);
}

// The parser decodes a block in place without shifting it when no COBS block
// is full, and through cobs_decode() when one is: both give the frame that
// decode_frame() reads from the unwrapped bytes (test::unwrap), in one push
// and byte by byte, and take() hands out the same message as next().
TEST(LinkFrameParser, FramesWithAndWithoutFullCobsBlocks) {
  test::LinkRng rng(21);
  Message plain = test::random_message(rng, MessageType::kReference);
  plain.format = link::ValueFormat::kFloat64;
  plain.reference.num_joints = HODYN_MAX_JOINTS;
  Message full = plain;  // every value 0x4141...41: runs of 254 non-zero bytes and more
  std::uint64_t bits = 0x4141414141414141ull;
  double value = 0.0;
  std::memcpy(&value, &bits, sizeof value);
  for (auto& row : full.reference.base_position)
    for (double& v : row) v = value;
  for (double& v : full.reference.base_orientation) v = value;
  for (auto& row : full.reference.base_angular_velocity)
    for (double& v : row) v = value;
  for (auto& row : full.reference.joint_position)
    for (double& v : row) v = value;
  for (double& v : plain.reference.base_orientation) v = 0.0;  // zeros: short blocks only

  const auto has_full_block = [](const Bytes& wire) {
    for (std::size_t at = 0; at + 1 < wire.size(); at += wire[at])
      if (wire[at] == 0xFF) return true;
    return false;
  };
  const Bytes wire_full = wire_of(full);
  const Bytes wire_plain = wire_of(plain);
  ASSERT_TRUE(has_full_block(wire_full));
  for (const Message* m : {&plain, &full}) {
    const Bytes wire = wire_of(*m);
    if (m == &plain && has_full_block(wire)) continue;  // random values: not guaranteed
    const Bytes frame = frame_of(*m);
    Message expected{};
    RejectReason why = RejectReason::kNone;
    ASSERT_EQ(link::decode_frame(frame.data(), frame.size(), expected, why), Status::kOk);
    ASSERT_TRUE(test::bit_equal(expected, *m));
    FrameParser whole;
    push(whole, wire);
    const Message* taken = whole.take();
    ASSERT_NE(taken, nullptr);
    EXPECT_TRUE(test::bit_equal(*taken, expected));
    EXPECT_EQ(whole.take(), nullptr);
    EXPECT_EQ(whole.counters().messages_delivered, 1u);
    FrameParser bytewise;
    for (std::uint8_t b : wire) bytewise.push(b);
    const std::vector<Message> got = drain(bytewise);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_TRUE(test::bit_equal(got[0], expected));
    expect_counters_add_up(bytewise);
  }
  EXPECT_FALSE(has_full_block(wire_plain));
  // A full block whose chain then runs past the end: a COBS error either way.
  FrameParser parser;
  Bytes bad(255, 0x41);
  bad[0] = 0xFF;
  bad.push_back(0x05);
  bad.push_back(0x41);
  bad.push_back(0x00);
  push(parser, bad);
  push(parser, {0x02, 0x41, 0x05, 0x41, 0x00});
  EXPECT_EQ(parser.counters().rejected_count(RejectReason::kCobsError), 2u);
}

// push_block(block) against push() of the block and a 0x00 (the stream
// parser): the same messages, the same counters and verdicts, for whole
// frames (with and without full COBS blocks), every single-bit flip of them
// that leaves no 0x00 in the block, empty, exactly full and overlong blocks,
// and a block that continues bytes pushed before it.
TEST(LinkFrameParser, PushBlockIsPushOfTheBlockAndItsDelimiter) {
  const auto same = [](const FrameParser& a, const FrameParser& b) {
    const LinkCounters& x = a.counters();
    const LinkCounters& y = b.counters();
    EXPECT_EQ(x.bytes, y.bytes);
    EXPECT_EQ(x.delimiters, y.delimiters);
    EXPECT_EQ(x.empty_segments, y.empty_segments);
    EXPECT_EQ(x.frames_ok, y.frames_ok);
    EXPECT_EQ(x.messages_delivered, y.messages_delivered);
    EXPECT_EQ(x.messages_dropped, y.messages_dropped);
    for (std::size_t k = 0; k < link::kRejectReasonCount; ++k)
      EXPECT_EQ(x.rejected[k], y.rejected[k]) << "reason " << k;
    EXPECT_EQ(a.last_reject(), b.last_reject());
    EXPECT_EQ(a.overflowing(), b.overflowing());
    EXPECT_EQ(a.queued(), b.queued());
  };
  // `before`: bytes pushed (both ways) ahead of the block.
  std::size_t cases = 0, accepted = 0;
  const auto check = [&](const Bytes& before, const Bytes& block) {
    FrameParser stream, blocks;
    push(stream, before);
    push(blocks, before);
    Bytes with_delimiter = block;
    with_delimiter.push_back(0x00);
    push(stream, with_delimiter);
    Bytes mine = block;  // push_block overwrites it
    mine.reserve(1);     // data() not null for an empty block
    blocks.push_block(mine.data(), mine.size());
    same(stream, blocks);
    const std::vector<Message> want = drain(stream), got = drain(blocks);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t k = 0; k < got.size(); ++k) ASSERT_TRUE(test::bit_equal(got[k], want[k]));
    same(stream, blocks);
    expect_counters_add_up(blocks);
    ++cases;
    accepted += got.size();
  };
  std::vector<Message> messages = three_messages(31);
  {
    test::LinkRng rng(32);
    Message full = test::random_message(rng, MessageType::kReference);
    full.format = link::ValueFormat::kFloat64;
    std::uint64_t bits = 0x4141414141414141ull;
    double value = 0.0;
    std::memcpy(&value, &bits, sizeof value);
    for (auto& row : full.reference.joint_position)
      for (double& v : row) v = value;
    messages.push_back(full);
  }
  for (const Message& m : messages) {
    Bytes wire = wire_of(m);
    ASSERT_EQ(wire.back(), 0x00);
    wire.pop_back();
    check({}, wire);
    check({0x00, 0x00}, wire);        // empty segments first
    check({wire[0], wire[1]}, wire);  // a partial block pending: no longer a frame
    check({0x07, 0x41, 0x00}, wire);  // a rejected block first
    for (std::size_t bit = 0; bit < 8 * wire.size(); ++bit) {
      Bytes flipped = wire;
      flipped[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      if (std::memchr(flipped.data(), 0x00, flipped.size()) != nullptr) continue;
      check({}, flipped);
    }
  }
  // Alone, after empty segments, after a rejected block.
  EXPECT_EQ(accepted, 3 * messages.size());
  check({}, {});
  check({0x03, 0x41}, {});  // the delimiter of a pending partial block
  check({}, Bytes(FrameParser::kBufferSize, 0x01));
  check({}, Bytes(FrameParser::kBufferSize + 1, 0x01));
  check({0x01}, Bytes(FrameParser::kBufferSize, 0x01));
  Bytes frame = wire_of(messages[0]);
  frame.pop_back();
  check(Bytes(FrameParser::kBufferSize + 10, 0x01), frame);  // overflowing: discarded
  EXPECT_GT(cases, 1000u);
  // A null block feeds nothing.
  FrameParser parser;
  parser.push_block(nullptr, 5);
  EXPECT_EQ(parser.counters().bytes, 0u);
}

// The parser's COBS verdict on a block (kCobsError or not) is cobs_decode()'s,
// for blocks of every size up to two full blocks: valid code chains, chains
// with one code changed (0xFF, past the end, short of the end), and random
// bytes; with push() and with push_block().
TEST(LinkFrameParser, CobsVerdictIsCobsDecodes) {
  test::LinkRng rng(0xB10C);
  std::size_t corrupt = 0, valid = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const std::size_t n =
        1 + (trial < 5000 ? static_cast<std::size_t>(trial % 300) : rng.below(520));
    Bytes block(n);
    for (auto& b : block) b = static_cast<std::uint8_t>(1 + rng.below(255));
    if (trial % 4 != 3) {  // a chain of codes ending at n; half of them with one code changed
      std::vector<std::size_t> codes;
      for (std::size_t at = 0; at < n;) {
        const std::size_t left = n - at;
        block[at] = static_cast<std::uint8_t>(1 + rng.below(left < 12 ? left : 12));
        codes.push_back(at);
        at += block[at];
      }
      if (rng.below(2) == 0) {
        const std::size_t at = codes[rng.below(codes.size())];
        block[at] = rng.below(3) == 0 ? 0xFF : static_cast<std::uint8_t>(1 + rng.below(254));
      }
    }
    Bytes copy = block;
    std::size_t written = 0;
    const bool decodes = link::cobs_decode(copy.data(), copy.size(), copy.data(), copy.size(),
                                           written) == Status::kOk;
    FrameParser stream, blocks;
    Bytes with_delimiter = block;
    with_delimiter.push_back(0x00);
    push(stream, with_delimiter);
    Bytes mine = block;
    blocks.push_block(mine.data(), mine.size());
    const bool stream_corrupt = stream.counters().rejected_count(RejectReason::kCobsError) == 1;
    const bool block_corrupt = blocks.counters().rejected_count(RejectReason::kCobsError) == 1;
    ASSERT_EQ(stream_corrupt, !decodes) << "trial " << trial << ", " << n << " bytes";
    ASSERT_EQ(block_corrupt, !decodes) << "trial " << trial << ", " << n << " bytes";
    (decodes ? valid : corrupt) += 1;
  }
  EXPECT_GT(valid, 5000u);
  EXPECT_GT(corrupt, 5000u);
}

TEST(LinkFrameParser, EmptySegmentsAreIgnored) {
  const std::vector<Message> messages = three_messages(7);
  FrameParser parser;
  push(parser, {0, 0, 0});
  push(parser, wire_of(messages[0]));
  push(parser, {0});
  push(parser, wire_of(messages[1]));
  const std::vector<Message> got = drain(parser);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(parser.counters().empty_segments, 4u);
  EXPECT_EQ(parser.counters().total_rejected(), 0u);
  expect_counters_add_up(parser);
}

TEST(LinkFrameParser, FullQueueDropsTheOldestMessage) {
  test::LinkRng rng(8);
  FrameParser parser;
  std::vector<Message> sent;
  for (int k = 0; k < 6; ++k) {
    sent.push_back(test::random_message(rng));
    push(parser, wire_of(sent.back()));
  }
  EXPECT_EQ(parser.queued(), FrameParser::kQueueDepth);
  EXPECT_EQ(parser.counters().messages_dropped, 2u);
  const std::vector<Message> got = drain(parser);
  ASSERT_EQ(got.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) EXPECT_TRUE(test::bit_equal(got[k], sent[k + 2]));
  expect_counters_add_up(parser);
  push(parser, wire_of(sent[0]));
  parser.reset();
  EXPECT_EQ(parser.queued(), 0u);
  EXPECT_EQ(parser.counters().messages_dropped, 3u);
  expect_counters_add_up(parser);
}

TEST(LinkFrameParser, CountsEachRejectReason) {
  const std::vector<Message> messages = three_messages(9);
  FrameParser parser;
  auto push_edited = [&](const Message& m, void (*edit)(Bytes&)) {
    Bytes frame = frame_of(m);
    edit(frame);
    test::reseal(frame.data(), frame.size());
    push(parser, wrap(frame));
  };
  push_edited(messages[0], [](Bytes& f) { f[0] = 'X'; });
  push_edited(messages[1], [](Bytes& f) { f[2] = 9; });
  push_edited(messages[2], [](Bytes& f) { f[3] = 42; });
  push_edited(messages[2], [](Bytes& f) { f[4] ^= 0x10; });
  push_edited(messages[1], [](Bytes& f) { test::store_u32(f.data() + 30, 77); });
  push(parser, {0x05, 0x11, 0x00});        // COBS: block past the end
  push(parser, {0x03, 0x11, 0x22, 0x00});  // decodes to 2 bytes: too short
  Bytes bad_crc = frame_of(messages[0]);
  bad_crc[100] ^= 0x01;
  push(parser, wrap(bad_crc));
  const LinkCounters& c = parser.counters();
  EXPECT_EQ(c.rejected_count(RejectReason::kBadMagic), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kBadVersion), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kUnknownType), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kBadLength), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kBadValue), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kCobsError), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kTooShort), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kBadCrc), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kOverflow), 0u);
  EXPECT_EQ(c.total_rejected(), 8u);
  EXPECT_EQ(c.frames_ok, 0u);
  expect_counters_add_up(parser);
  const std::uint64_t bytes = c.bytes;
  EXPECT_EQ(parser.push(nullptr, 3), Status::kInvalidArgument);
  EXPECT_EQ(parser.push(nullptr, 0), Status::kOk);
  EXPECT_EQ(c.bytes, bytes);  // nothing fed
}

TEST(LinkFrameParser, ParsingAndEncodingDoNotAllocate) {
  const std::vector<Message> messages = three_messages(10);
  static FrameParser parser;
  static std::uint8_t wire[link::kMaxWireSize];
  static std::uint8_t garbage[997];
  for (std::size_t k = 0; k < sizeof garbage; ++k)
    garbage[k] = static_cast<std::uint8_t>(k * 7 + 3);
  static Message m{};
  std::size_t delivered = 0;
  int failures = 0;
  test::HeapProbe probe;
  for (int round = 0; round < 200; ++round) {
    for (const Message& message : messages) {
      std::size_t size = 0;
      failures += link::encode(message, wire, sizeof wire, size) != Status::kOk;
      parser.push(garbage, sizeof garbage);
      parser.push(std::uint8_t{0});
      parser.push(wire, size / 2);
      parser.push(wire + size / 2, size - size / 2);
      while (parser.next(m)) ++delivered;
    }
  }
  const long allocations = probe.count();
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(delivered, 600u);
}

}  // namespace
}  // namespace hodyn
