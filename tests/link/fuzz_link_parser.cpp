// libFuzzer target for the link parser (optional, clang only; not in CI):
//   cmake -DCMAKE_CXX_COMPILER=clang++ -DHODYN_LINK_LIBFUZZER=ON ...
//   build/.../tests/fuzz_link_parser -max_total_time=60
// The input is fed to a FrameParser in chunks whose sizes come from the input
// itself; every delivered message must re-encode and decode to itself, and
// whatever COBS-decodes must COBS-encode back to something that decodes equal.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "hodyn/link/link.hpp"

namespace {

hodyn::link::FrameParser g_parser;
std::uint8_t g_wire[hodyn::link::kMaxWireSize];
std::uint8_t g_frame[hodyn::link::kMaxWireSize];
std::uint8_t g_cobs[2 * 4096 + 16];
std::uint8_t g_back[2 * 4096 + 16];

bool same_message(const hodyn::link::Message& a, const hodyn::link::Message& b) {
  using hodyn::link::MessageType;
  if (a.type != b.type || a.link_sequence != b.link_sequence || a.status_bits != b.status_bits ||
      a.answered_sequence != b.answered_sequence) {
    return false;
  }
  switch (a.type) {
    case MessageType::kSensors:
      return std::memcmp(&a.sensors, &b.sensors, sizeof a.sensors) == 0;
    case MessageType::kCommand:
      return std::memcmp(&a.command, &b.command, sizeof a.command) == 0;
    case MessageType::kReference:
      return std::memcmp(&a.reference, &b.reference, sizeof a.reference) == 0;
    case MessageType::kHello:
      return std::memcmp(&a.hello, &b.hello, sizeof a.hello) == 0;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hodyn::link;
  std::size_t offset = 0;
  while (offset < size) {
    std::size_t chunk = 1 + data[offset] % 97;
    if (chunk > size - offset) chunk = size - offset;
    g_parser.push(data + offset, chunk);
    offset += chunk;
    Message m{};
    while (g_parser.next(m)) {
      std::size_t wire_size = 0, frame_size = 0;
      if (encode(m, g_wire, sizeof g_wire, wire_size) != hodyn::Status::kOk) std::abort();
      if (cobs_decode(g_wire, wire_size - 1, g_frame, sizeof g_frame, frame_size) !=
          hodyn::Status::kOk) {
        std::abort();
      }
      Message again{};
      RejectReason reason{};
      if (decode_frame(g_frame, frame_size, again, reason) != hodyn::Status::kOk) std::abort();
      if (!same_message(m, again)) std::abort();
    }
  }
  const LinkCounters& c = g_parser.counters();
  if (c.frames_ok + c.total_rejected() + c.empty_segments !=
      c.delimiters + (g_parser.overflowing() ? 1u : 0u)) {
    std::abort();
  }
  // COBS: decode(x) == y implies decode(encode(y)) == y.
  if (size <= 4096) {
    std::size_t decoded = 0, encoded = 0, back = 0;
    if (cobs_decode(data, size, g_cobs, sizeof g_cobs, decoded) == hodyn::Status::kOk) {
      if (cobs_encode(g_cobs, decoded, g_back, sizeof g_back, encoded) != hodyn::Status::kOk) {
        std::abort();
      }
      std::uint8_t* again = g_back + encoded;  // room after the encoding
      if (encoded > size || encoded + decoded > sizeof g_back) std::abort();
      if (cobs_decode(g_back, encoded, again, sizeof g_back - encoded, back) !=
              hodyn::Status::kOk ||
          back != decoded || std::memcmp(again, g_cobs, decoded) != 0) {
        std::abort();
      }
    }
  }
  return 0;
}
