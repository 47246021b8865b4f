// Bounded, seeded mutation fuzzing of the link parser: valid frames of all
// four types (SENSORS, COMMAND, REFERENCE, HELLO) mutated by bit flips, byte overwrites, insertions
// (also of 0x00), deletions, truncations, duplications and splices with other frames, plus random
// byte streams, all fed into one long-lived parser. Checks: no crash or out-of-bounds access (run
// it under ASan/UBSan or valgrind for the proof), every delivered message is bit-identical to a
// message the encoder produced for that input, random streams deliver nothing, the parser recovers
// after every case, the counters add up, and nothing allocates. Runs 200k mutated frames + 20k
// streams or until the time budget. A second test mutates frames before COBS and re-seals their
// CRC, so the checks behind the CRC (magic, version, type, length, values) are fuzzed too: whatever
// is accepted must re-encode to exactly the bytes received.
#include "support/heap_counter.hpp"  // counts allocations (this TU only)

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "link/link_test_support.hpp"

namespace hodyn {
namespace {

using link::FrameParser;
using link::Message;

constexpr long kMutatedFrames = 200000;
constexpr long kRandomStreams = 20000;
constexpr double kBudgetSeconds = 5.0;  // guard for slow (sanitizer, valgrind) builds
constexpr std::size_t kPoolSize = 48;
constexpr std::size_t kCaseCapacity = 3 * link::kMaxWireSize;
constexpr std::size_t kMaxSources = 4;

struct Source {
  Message message;
  std::uint8_t wire[link::kMaxWireSize];
  std::size_t size;
};

struct Case {
  std::uint8_t bytes[kCaseCapacity];
  std::size_t size = 0;
  std::size_t sources[kMaxSources];  // pool indices whose frames may survive
  std::size_t source_count = 0;
};

Source g_pool[kPoolSize];
Case g_case;
std::uint8_t g_stream[4096];
FrameParser g_parser;

void insert_at(Case& c, std::size_t at, const std::uint8_t* data, std::size_t count) {
  if (count > kCaseCapacity - c.size) count = kCaseCapacity - c.size;
  std::memmove(c.bytes + at + count, c.bytes + at, c.size - at);
  std::memcpy(c.bytes + at, data, count);
  c.size += count;
}

void mutate(test::LinkRng& rng, Case& c) {
  const std::size_t at = rng.below(c.size + 1);  // may be the end
  switch (rng.below(8)) {
    case 0:  // flip one bit
      if (c.size > 0) c.bytes[rng.below(c.size)] ^= static_cast<std::uint8_t>(1u << rng.below(8));
      break;
    case 1:  // overwrite a byte
      if (c.size > 0) c.bytes[rng.below(c.size)] = rng.byte();
      break;
    case 2: {  // insert a byte
      const std::uint8_t b = rng.byte();
      insert_at(c, at, &b, 1);
      break;
    }
    case 3: {  // insert a delimiter
      const std::uint8_t zero = 0;
      insert_at(c, at, &zero, 1);
      break;
    }
    case 4:  // delete a run of 1..16 bytes
      if (at < c.size) {
        std::size_t count = 1 + rng.below(16);
        if (count > c.size - at) count = c.size - at;
        std::memmove(c.bytes + at, c.bytes + at + count, c.size - at - count);
        c.size -= count;
      }
      break;
    case 5:  // truncate
      c.size = rng.below(c.size + 1);
      break;
    case 6:  // duplicate a chunk (copied out first: the source moves)
      if (c.size > 0) {
        std::uint8_t chunk[64];
        const std::size_t from = rng.below(c.size);
        std::size_t count = 1 + rng.below(sizeof chunk);
        if (count > c.size - from) count = c.size - from;
        std::memcpy(chunk, c.bytes + from, count);
        insert_at(c, at, chunk, count);
      }
      break;
    default: {  // splice: our prefix, another frame's suffix
      if (c.source_count == kMaxSources) break;
      const std::size_t other = rng.below(kPoolSize);
      const Source& s = g_pool[other];
      const std::size_t from = rng.below(s.size + 1);
      c.size = at;
      insert_at(c, at, s.wire + from, s.size - from);
      c.sources[c.source_count++] = other;
      break;
    }
  }
}

bool from_sources(const Message& m, const Case& c) {
  for (std::size_t k = 0; k < c.source_count; ++k) {
    if (test::bit_equal(m, g_pool[c.sources[k]].message)) return true;
  }
  return false;
}

TEST(LinkFuzz, MutatedFramesAndRandomStreams) {
  test::LinkRng rng(0x5EED1);
  int of_type[5] = {};
  for (Source& s : g_pool) {
    s.message = test::random_message(rng);
    ++of_type[static_cast<int>(s.message.type)];
    ASSERT_EQ(link::encode(s.message, s.wire, sizeof s.wire, s.size), Status::kOk);
  }
  for (int type = 1; type <= 4; ++type) ASSERT_GT(of_type[type], 0) << "no frame of type " << type;

  long mutated = 0, streams = 0, cases_delivering = 0, foreign = 0, stream_messages = 0;
  long recovery_failures = 0, recoveries = 0;
  std::uint64_t bytes_pushed = 0, delivered = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0.0;
  Message m{};

  test::HeapProbe probe;
  while (mutated < kMutatedFrames || streams < kRandomStreams) {
    if ((mutated + streams) % 256 == 0) {
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (elapsed > kBudgetSeconds) break;
    }
    const bool do_stream =
        streams < kRandomStreams && (mutated >= kMutatedFrames || rng.below(11) == 0);
    if (do_stream) {  // random bytes, random density of 0x00
      const std::size_t size = rng.below(sizeof g_stream);
      const std::size_t zero_one_in = 1 + rng.below(1000);
      for (std::size_t k = 0; k < size; ++k) {
        g_stream[k] =
            rng.below(zero_one_in) == 0 ? 0 : static_cast<std::uint8_t>(1 + rng.below(255));
      }
      g_parser.push(g_stream, size);
      g_parser.push(std::uint8_t{0});
      bytes_pushed += size + 1;
      while (g_parser.next(m)) ++stream_messages;
      ++streams;
    } else {
      Case& c = g_case;
      const std::size_t a = rng.below(kPoolSize);
      std::memcpy(c.bytes, g_pool[a].wire, g_pool[a].size);
      c.size = g_pool[a].size;
      c.sources[0] = a;
      c.source_count = 1;
      const std::size_t mutations = 1 + rng.below(3);
      for (std::size_t k = 0; k < mutations; ++k) mutate(rng, c);
      g_parser.push(c.bytes, c.size);
      g_parser.push(std::uint8_t{0});  // end the case: the next starts clean
      bytes_pushed += c.size + 1;
      bool any = false;
      while (g_parser.next(m)) {
        any = true;
        ++delivered;
        if (!from_sources(m, c)) ++foreign;
      }
      cases_delivering += any;
      ++mutated;
    }
    if ((mutated + streams) % 64 == 0) {  // a clean frame always gets through
      const Source& s = g_pool[rng.below(kPoolSize)];
      g_parser.push(s.wire, s.size);
      bytes_pushed += s.size;
      bool got = false;
      while (g_parser.next(m)) {
        got = test::bit_equal(m, s.message);
        ++delivered;
      }
      recovery_failures += !got;
      ++recoveries;
    }
  }
  const long allocations = probe.count();
  elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const link::LinkCounters& n = g_parser.counters();
  std::printf(
      "[ link fuzz ] %ld mutated frames, %ld random streams, %llu bytes in %.2f s; "
      "%ld cases still delivered a source frame; rejected %llu "
      "(overflow %llu, COBS %llu, short %llu, CRC %llu, magic %llu, version %llu, type %llu, "
      "length %llu, value %llu), empty %llu\n",
      mutated, streams, static_cast<unsigned long long>(bytes_pushed), elapsed, cases_delivering,
      static_cast<unsigned long long>(n.total_rejected()),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kOverflow)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kCobsError)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kTooShort)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadCrc)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadMagic)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadVersion)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kUnknownType)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadLength)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadValue)),
      static_cast<unsigned long long>(n.empty_segments));
  RecordProperty("mutated_frames", static_cast<int>(mutated));
  RecordProperty("random_streams", static_cast<int>(streams));

  EXPECT_EQ(allocations, 0);
  EXPECT_GE(mutated, 1000);  // even the slowest instrumented build gets this far
  EXPECT_EQ(foreign, 0) << "a delivered message the encoder never produced (CRC collision?)";
  EXPECT_EQ(stream_messages, 0) << "random bytes decoded as a message";
  EXPECT_EQ(recovery_failures, 0) << "of " << recoveries;
  EXPECT_EQ(n.bytes, bytes_pushed);
  EXPECT_FALSE(g_parser.overflowing());  // every case ended with a delimiter
  EXPECT_EQ(n.frames_ok + n.total_rejected() + n.empty_segments, n.delimiters);
  EXPECT_EQ(n.messages_delivered + n.messages_dropped, n.frames_ok);
  EXPECT_EQ(n.messages_delivered, delivered);
  EXPECT_GT(n.rejected_count(link::RejectReason::kBadCrc), 0u);
  EXPECT_GT(n.rejected_count(link::RejectReason::kCobsError), 0u);
  EXPECT_GT(n.rejected_count(link::RejectReason::kOverflow), 0u);
}

constexpr long kResealedFrames = 50000;
std::uint8_t g_frame[link::kMaxFrameSize + 64];
std::uint8_t g_frame_wire[link::wire_size(link::kMaxFrameSize + 64)];
std::uint8_t g_reencoded[link::kMaxWireSize];
std::uint8_t g_reframe[link::kMaxFrameSize + 64];

TEST(LinkFuzz, ResealedFrameMutationsDecodeToWhatWasSent) {
  test::LinkRng rng(0x5EED2);
  int of_type[5] = {};
  for (Source& s : g_pool) {
    s.message = test::random_message(rng);
    ++of_type[static_cast<int>(s.message.type)];
    ASSERT_EQ(link::encode(s.message, s.wire, sizeof s.wire, s.size), Status::kOk);
  }
  for (int type = 1; type <= 4; ++type) ASSERT_GT(of_type[type], 0) << "no frame of type " << type;
  FrameParser& parser = g_parser;
  parser.reset();
  parser.reset_counters();
  long accepted = 0, mismatches = 0, done = 0;
  Message m{};
  const auto start = std::chrono::steady_clock::now();
  test::HeapProbe probe;
  for (; done < kResealedFrames; ++done) {
    if (done % 256 == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
            kBudgetSeconds) {
      break;
    }
    const Source& s = g_pool[rng.below(kPoolSize)];
    std::size_t size = test::unwrap(s.wire, s.size, g_frame);
    const std::size_t mutations = 1 + rng.below(3);
    for (std::size_t k = 0; k < mutations; ++k) {
      // Mostly the header and the counts/mode near the payload's start.
      const std::size_t at = rng.below(2) == 0 ? rng.below(34) : rng.below(size);
      switch (rng.below(5)) {
        case 0:
          g_frame[at] ^= static_cast<std::uint8_t>(1u << rng.below(8));
          break;
        case 1:
          g_frame[at] = rng.byte();
          break;
        case 2:
          g_frame[at] = static_cast<std::uint8_t>(rng.below(16));
          break;  // small values
        case 3:   // grow or shrink by a few bytes
          if (rng.below(2) == 0 && size > 4) {
            size -= 1 + rng.below(4);
          } else {
            size += 1 + rng.below(4);
          }
          break;
        default:
          break;
      }
    }
    if (size < link::kCrcSize) size = link::kCrcSize;
    test::reseal(g_frame, size);
    const std::size_t wire_size = test::wrap(g_frame, size, g_frame_wire);
    parser.push(g_frame_wire, wire_size);
    while (parser.next(m)) {
      ++accepted;
      std::size_t reencoded = 0;
      const bool ok = link::encode(m, g_reencoded, sizeof g_reencoded, reencoded) == Status::kOk;
      const std::size_t reframe = ok ? test::unwrap(g_reencoded, reencoded, g_reframe) : 0;
      mismatches += !ok || reframe != size || std::memcmp(g_reframe, g_frame, size) != 0;
    }
  }
  const long allocations = probe.count();
  const link::LinkCounters& n = parser.counters();
  std::printf(
      "[ link fuzz ] %ld re-sealed frames: %ld accepted, rejected %llu (CRC %llu, magic %llu, "
      "version %llu, type %llu, length %llu, value %llu)\n",
      done, accepted, static_cast<unsigned long long>(n.total_rejected()),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadCrc)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadMagic)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadVersion)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kUnknownType)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadLength)),
      static_cast<unsigned long long>(n.rejected_count(link::RejectReason::kBadValue)));
  EXPECT_EQ(allocations, 0);
  EXPECT_GE(done, 1000);
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(n.rejected_count(link::RejectReason::kBadCrc), 0u);  // every frame was re-sealed
  EXPECT_GT(n.rejected_count(link::RejectReason::kBadMagic), 0u);
  EXPECT_GT(n.rejected_count(link::RejectReason::kBadVersion), 0u);
  EXPECT_GT(n.rejected_count(link::RejectReason::kUnknownType), 0u);
  EXPECT_GT(n.rejected_count(link::RejectReason::kBadLength), 0u);
  EXPECT_GT(n.rejected_count(link::RejectReason::kBadValue), 0u);
  EXPECT_GT(accepted, 0);
  EXPECT_EQ(static_cast<std::uint64_t>(done), n.frames_ok + n.total_rejected());
}

}  // namespace
}  // namespace hodyn
