// Signed frames (hodyn/link/security.hpp, docs/link-security.md): the keys
// each end derives, signed round trips, every altered byte rejected by the
// MAC, another key's frames, unsigned frames on a signed link and signed
// ones on an unsigned link, the replay window (duplicates, reordering, too
// old), the HELLO counter, sessions; and on the controller host: a signed
// run, a whole recorded session replayed to a controller started again (it
// must not arm), a replayed HELLO in the middle of a run, unsigned sensors.
#include "support/heap_counter.hpp"  // counts allocations (this TU only)

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "hodyn/link/controller_host.hpp"
#include "hodyn/link/handshake.hpp"
#include "hodyn/link/link.hpp"
#include "hodyn/link/security.hpp"
#include "hodyn/plugin/c_adapter.hpp"
#include "link/link_test_support.hpp"

namespace hodyn {
namespace {

using link::LinkEnd;
using link::LinkKeys;
using link::Message;
using link::MessageType;
using link::RejectReason;
using Bytes = std::vector<std::uint8_t>;

std::uint8_t kKey[32], kOtherKey[32];
struct KeysInit {
  KeysInit() {
    for (int k = 0; k < 32; ++k) {
      kKey[k] = static_cast<std::uint8_t>(k + 1);
      kOtherKey[k] = static_cast<std::uint8_t>(k + 1);
    }
    kOtherKey[31] ^= 0x80;  // one bit apart
  }
} keys_init;

const std::uint8_t kSimNonce[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const std::uint8_t kFcNonce[16] = {0xB0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};

// A signed frame (unstuffed: header .. CRC) of `m`, signed by `signer`.
Bytes sign(const Message& m, link::FrameSigner& signer) {
  std::uint8_t wire[link::kMaxWireSize];
  std::size_t size = 0;
  EXPECT_EQ(link::encode(m, wire, sizeof wire, size, &signer), Status::kOk);
  Bytes frame(link::kMaxFrameSize + 16);
  frame.resize(test::unwrap(wire, size, frame.data()));
  return frame;
}

RejectReason check(Bytes frame, link::FrameVerifier* verifier) {
  return link::validate_frame(frame.data(), frame.size(), verifier);
}

Message sensors_message(std::uint32_t sequence) {
  Message m{};
  m.type = MessageType::kSensors;
  m.sensors.time = 1e-3 * sequence;
  m.sensors.sequence = sequence;
  m.sensors.num_joints = 4;
  m.sensors.num_rotors = 8;
  return m;
}

// Both ends of one session.
struct Pair {
  LinkKeys sim, fc;
  link::FrameSigner sim_signer{sim}, fc_signer{fc};
  link::FrameVerifier at_fc{fc}, at_sim{sim};
  explicit Pair(const std::uint8_t* key = kKey, const std::uint8_t* other = nullptr) {
    EXPECT_EQ(sim.set_master_key(key, 32, LinkEnd::kSimulator), Status::kOk);
    EXPECT_EQ(fc.set_master_key(other != nullptr ? other : key, 32, LinkEnd::kController),
              Status::kOk);
    sim.start_session(kSimNonce, kFcNonce);
    fc.start_session(kSimNonce, kFcNonce);
  }
};

TEST(LinkKeys, EachDirectionHasItsOwnKeyAndBothEndsAgree) {
  Pair p;
  const auto s = MessageType::kSensors, h = MessageType::kHello;
  // simulator -> controller: what the simulator signs, the controller checks.
  EXPECT_EQ(std::memcmp(p.sim.key(s, true), p.fc.key(s, false), 16), 0);
  EXPECT_EQ(std::memcmp(p.fc.key(s, true), p.sim.key(s, false), 16), 0);
  EXPECT_EQ(std::memcmp(p.sim.key(h, true), p.fc.key(h, false), 16), 0);
  EXPECT_NE(std::memcmp(p.sim.key(s, true), p.sim.key(s, false), 16), 0);  // directions differ
  EXPECT_NE(std::memcmp(p.sim.key(h, true), p.sim.key(h, false), 16), 0);
  EXPECT_NE(std::memcmp(p.sim.key(h, true), p.sim.key(s, true), 16), 0);  // HELLO vs session
  // Another nonce, another session key; the HELLO keys stay.
  std::uint8_t hello_key[16], session_key[16];
  std::memcpy(hello_key, p.sim.key(h, true), 16);
  std::memcpy(session_key, p.sim.key(s, true), 16);
  std::uint8_t fc_nonce[16];
  std::memcpy(fc_nonce, kFcNonce, 16);
  fc_nonce[8] = 2;  // the controller's next session
  p.sim.start_session(kSimNonce, fc_nonce);
  EXPECT_EQ(p.sim.session(), 2u);
  EXPECT_NE(std::memcmp(p.sim.key(s, true), session_key, 16), 0);
  EXPECT_EQ(std::memcmp(p.sim.key(h, true), hello_key, 16), 0);
}

TEST(LinkKeys, RefusesAMissingShortOrZeroKey) {
  LinkKeys keys;
  const std::uint8_t zeros[32] = {};
  EXPECT_EQ(keys.set_master_key(nullptr, 32, LinkEnd::kController), Status::kInvalidArgument);
  EXPECT_EQ(keys.set_master_key(kKey, 31, LinkEnd::kController), Status::kInvalidArgument);
  EXPECT_EQ(keys.set_master_key(kKey, 33, LinkEnd::kController), Status::kInvalidArgument);
  EXPECT_EQ(keys.set_master_key(zeros, 32, LinkEnd::kController), Status::kInvalidArgument);
  EXPECT_FALSE(keys.enabled());
  ASSERT_EQ(keys.set_master_key(kKey, 32, LinkEnd::kController), Status::kOk);
  EXPECT_TRUE(keys.enabled());
  EXPECT_EQ(keys.key(MessageType::kCommand, true), nullptr);  // no session yet
  EXPECT_NE(keys.key(MessageType::kHello, true), nullptr);
  keys.clear();
  EXPECT_FALSE(keys.enabled());
  EXPECT_EQ(keys.key(MessageType::kHello, true), nullptr);
}

TEST(SignedFrames, RoundTripBitExactWithTheirCounters) {
  Pair p;
  p.sim_signer.set_hello_counter(1000);
  test::LinkRng rng(5);
  for (int round = 0; round < 50; ++round) {
    for (MessageType type : {MessageType::kSensors, MessageType::kReference, MessageType::kHello}) {
      const Message original = test::random_message(rng, type);
      const Bytes frame = sign(original, p.sim_signer);
      // Arrays for the counts in use (version 4).
      std::size_t payload =
          type == MessageType::kSensors
              ? link::sensors_payload_size(original.sensors.num_joints, original.sensors.num_rotors)
          : type == MessageType::kReference
              ? link::reference_payload_size(original.reference.num_joints)
              : link::kHelloPayloadSize;
      ASSERT_EQ(frame.size(), link::signed_frame_size(payload));
      EXPECT_EQ(frame[2], link::kProtocolVersion);
      EXPECT_EQ(frame[3], static_cast<std::uint8_t>(type) | link::kSignedFlag);
      Message decoded{};
      RejectReason reason{};
      ASSERT_EQ(link::decode_frame(frame.data(), frame.size(), decoded, reason, &p.at_fc),
                Status::kOk)
          << link::to_string(reason);
      Message expected = original;
      expected.counter = type == MessageType::kHello ? 1000u + static_cast<std::uint64_t>(round)
                                                     : 1u + 2u * static_cast<std::uint64_t>(round) +
                                                           (type == MessageType::kReference);
      EXPECT_TRUE(test::bit_equal(expected, decoded)) << "round " << round << " type " << int(type);
    }
  }
  // The other direction: commands the controller signs, the simulator checks.
  const Message c = test::random_message(rng, MessageType::kCommand);
  Message decoded{};
  RejectReason reason{};
  const Bytes frame = sign(c, p.fc_signer);
  ASSERT_EQ(link::decode_frame(frame.data(), frame.size(), decoded, reason, &p.at_sim),
            Status::kOk);
  EXPECT_EQ(decoded.counter, 1u);
  // A frame is never accepted in the direction it was not signed for.
  EXPECT_EQ(check(frame, &p.at_fc), RejectReason::kBadMac);
}

TEST(SignedFrames, EveryAlteredByteIsCaughtByTheMac) {
  Pair p;
  const Bytes frame = sign(sensors_message(7), p.sim_signer);
  std::size_t mac_rejections = 0;
  // Each byte after magic and version changed (CRC resealed, as an attacker would).
  for (std::size_t at = 3; at + link::kCrcSize < frame.size(); ++at) {
    Bytes forged = frame;
    forged[at] ^= 0x01;
    test::reseal(forged.data(), forged.size());
    const RejectReason r = check(forged, &p.at_fc);
    EXPECT_EQ(r, RejectReason::kBadMac) << "byte " << at << ": " << link::to_string(r);
    mac_rejections += r == RejectReason::kBadMac;
  }
  EXPECT_EQ(mac_rejections, frame.size() - 3 - link::kCrcSize);
  // Clearing the signed flag makes it an unsigned frame: refused on a signed link.
  Bytes stripped = frame;
  stripped[3] &= 0x7F;
  test::reseal(stripped.data(), stripped.size());
  EXPECT_EQ(check(stripped, &p.at_fc), RejectReason::kUnsigned);
  // The original still passes afterwards (no rejection moved the window).
  EXPECT_EQ(check(frame, &p.at_fc), RejectReason::kNone);
}

TEST(SignedFrames, Binary32FramesAreSignedAndTheirFormatBitIsCovered) {
  // A --wire-float 32 frame (kFloat32Flag, bit 6 of the type byte) is signed
  // like any other; flipping the bit (the payload then read as the other
  // width) is caught by the MAC before any length check.
  Pair p;
  Message m = sensors_message(9);
  m.format = link::ValueFormat::kFloat32;
  m.sensors.base_position[2] = 1.25;
  const Bytes frame = sign(m, p.sim_signer);
  EXPECT_EQ(frame[3], static_cast<std::uint8_t>(0x01 | link::kFloat32Flag | link::kSignedFlag));
  EXPECT_EQ(frame.size(), link::signed_frame_size(link::sensors_payload_size(4, 8, 4)));
  Bytes flipped = frame;
  flipped[3] ^= link::kFloat32Flag;
  test::reseal(flipped.data(), flipped.size());
  EXPECT_EQ(check(flipped, &p.at_fc), RejectReason::kBadMac);
  Message decoded{};
  RejectReason reason{};
  ASSERT_EQ(link::decode_frame(frame.data(), frame.size(), decoded, reason, &p.at_fc), Status::kOk)
      << link::to_string(reason);
  EXPECT_EQ(decoded.format, link::ValueFormat::kFloat32);
  EXPECT_EQ(decoded.sensors.base_position[2], 1.25);
  EXPECT_EQ(decoded.sensors.time, m.sensors.time);  // binary64 in every format
}

TEST(SignedFrames, AnotherKeyIsRejected) {
  Pair p(kKey, kOtherKey);  // the controller holds a key one bit apart
  EXPECT_EQ(check(sign(sensors_message(1), p.sim_signer), &p.at_fc), RejectReason::kBadMac);
  Message h{};
  h.type = MessageType::kHello;
  h.hello = link::make_hello(plugin::RobotIdentity{"r", 1, 0, 0}, link::hello_role::kSimulator,
                             Status::kOk);
  EXPECT_EQ(check(sign(h, p.sim_signer), &p.at_fc), RejectReason::kBadMac);
  test::LinkRng rng(1);
  EXPECT_EQ(check(sign(test::random_message(rng, MessageType::kCommand), p.fc_signer), &p.at_sim),
            RejectReason::kBadMac);
}

TEST(SignedFrames, UnsignedOnASignedLinkAndSignedOnAnUnsignedOne) {
  Pair p;
  std::uint8_t wire[link::kMaxWireSize], frame[link::kMaxWireSize];
  std::size_t size = 0;
  ASSERT_EQ(link::encode(sensors_message(1), wire, sizeof wire, size), Status::kOk);  // unsigned
  const std::size_t n = test::unwrap(wire, size, frame);
  EXPECT_EQ(link::validate_frame(frame, n, &p.at_fc), RejectReason::kUnsigned);
  EXPECT_EQ(link::validate_frame(frame, n), RejectReason::kNone);
  const Bytes signed_frame = sign(sensors_message(1), p.sim_signer);
  EXPECT_EQ(check(signed_frame, nullptr), RejectReason::kNoKey);
  LinkKeys none;
  link::FrameVerifier keyless(none);
  EXPECT_EQ(check(signed_frame, &keyless), RejectReason::kNoKey);
  // A frame claiming a signature too short to hold one.
  Bytes stub(frame, frame + 20);
  stub[3] |= link::kSignedFlag;
  test::reseal(stub.data(), stub.size());
  EXPECT_EQ(check(stub, &p.at_fc), RejectReason::kTooShort);
}

TEST(SignedFrames, ReplayWindowTakesReorderingRefusesDuplicatesAndOldCounters) {
  Pair p;
  std::vector<Bytes> frames;  // counters 1..200
  for (std::uint32_t k = 1; k <= 200; ++k) frames.push_back(sign(sensors_message(k), p.sim_signer));
  const auto at = [&](std::uint64_t counter) { return check(frames[counter - 1], &p.at_fc); };
  for (std::uint64_t c = 1; c <= 10; ++c) EXPECT_EQ(at(c), RejectReason::kNone) << c;
  EXPECT_EQ(at(10), RejectReason::kReplay);  // duplicate
  EXPECT_EQ(at(12), RejectReason::kNone);    // 11 skipped
  EXPECT_EQ(at(11), RejectReason::kNone);    // late, within the window
  EXPECT_EQ(at(11), RejectReason::kReplay);
  EXPECT_EQ(at(1), RejectReason::kReplay);
  EXPECT_EQ(at(200), RejectReason::kNone);    // a jump ahead
  EXPECT_EQ(at(137), RejectReason::kNone);    // 63 behind, never seen
  EXPECT_EQ(at(136), RejectReason::kReplay);  // 64 behind: too old to tell
  EXPECT_EQ(at(150), RejectReason::kNone);
  EXPECT_EQ(at(150), RejectReason::kReplay);
  EXPECT_EQ(at(200), RejectReason::kReplay);
  EXPECT_EQ(p.at_fc.window().highest(), 200u);
}

TEST(ReplayWindow, Edges) {
  link::ReplayWindow w;
  EXPECT_FALSE(w.fresh(0));  // 0 is never a counter
  EXPECT_TRUE(w.fresh(1));
  w.accept(1);
  EXPECT_FALSE(w.fresh(1));
  w.accept(1000);  // a jump beyond the window forgets everything below it
  EXPECT_TRUE(w.fresh(1000 - 63));
  EXPECT_FALSE(w.fresh(1000 - 64));
  EXPECT_FALSE(w.fresh(1000));
  w.accept(1000 - 63);
  EXPECT_FALSE(w.fresh(1000 - 63));
  w.accept(1001);  // 937 slides out
  EXPECT_FALSE(w.fresh(937));
  EXPECT_TRUE(w.fresh(0xFFFFFFFFFFFFFFFFull));
  w.accept(0xFFFFFFFFFFFFFFFFull);
  EXPECT_FALSE(w.fresh(0xFFFFFFFFFFFFFFFFull));
  EXPECT_FALSE(w.fresh(1001));
  w.reset();
  EXPECT_TRUE(w.fresh(5));
}

TEST(SignedFrames, HelloCountersMustRise) {
  Pair p;
  Message h{};
  h.type = MessageType::kHello;
  h.hello = link::make_hello(plugin::RobotIdentity{"r", 1, 0, 0}, link::hello_role::kSimulator,
                             Status::kOk);
  p.sim_signer.set_hello_counter(500);
  const Bytes first = sign(h, p.sim_signer);   // 500
  const Bytes second = sign(h, p.sim_signer);  // 501
  EXPECT_EQ(check(second, &p.at_fc), RejectReason::kNone);
  EXPECT_EQ(check(first, &p.at_fc), RejectReason::kReplay);   // lower
  EXPECT_EQ(check(second, &p.at_fc), RejectReason::kReplay);  // equal
  EXPECT_EQ(p.at_fc.last_hello_counter(), 501u);
}

TEST(SignedFrames, ANewSessionRefusesTheOldSessionsFrames) {
  Pair p;
  const Bytes old_frame = sign(sensors_message(1), p.sim_signer);
  const Bytes old_frame2 = sign(sensors_message(2), p.sim_signer);
  EXPECT_EQ(check(old_frame, &p.at_fc), RejectReason::kNone);
  std::uint8_t next_nonce[16];
  std::memcpy(next_nonce, kFcNonce, 16);
  next_nonce[8] = 2;
  p.sim.start_session(kSimNonce, next_nonce);
  p.fc.start_session(kSimNonce, next_nonce);
  EXPECT_EQ(check(old_frame2, &p.at_fc), RejectReason::kBadMac);
  const Bytes fresh = sign(sensors_message(3), p.sim_signer);  // counter 1 again, new key
  Message decoded{};
  RejectReason reason{};
  ASSERT_EQ(link::decode_frame(fresh.data(), fresh.size(), decoded, reason, &p.at_fc), Status::kOk);
  EXPECT_EQ(decoded.counter, 1u);
}

TEST(SignedFrames, NoSessionFrameIsSentUnsignedBeforeASession) {
  LinkKeys keys;
  ASSERT_EQ(keys.set_master_key(kKey, 32, LinkEnd::kSimulator), Status::kOk);
  link::FrameSigner signer(keys);
  std::uint8_t wire[link::kMaxWireSize];
  std::size_t size = 99;
  EXPECT_EQ(link::encode(sensors_message(1), wire, sizeof wire, size, &signer),
            Status::kNotConfigured);
  EXPECT_EQ(size, 0u);
  // Room for a signed frame is needed: the unsigned size is too small.
  keys.start_session(kSimNonce, kFcNonce);
  const std::size_t unsigned_room =
      link::wire_size(link::frame_size(link::sensors_payload_size(4, 8)));
  EXPECT_EQ(link::encode(sensors_message(1), wire, unsigned_room, size, &signer),
            Status::kInvalidArgument);
  EXPECT_EQ(link::encode(sensors_message(1), wire, sizeof wire, size, &signer), Status::kOk);
  Message m{};
  std::uint8_t frame[link::kMaxWireSize];
  const std::size_t n = test::unwrap(wire, size, frame);
  link::FrameVerifier verifier(keys);  // the simulator's own verifier checks the other direction
  RejectReason reason{};
  EXPECT_EQ(link::decode_frame(frame, n, m, reason, &verifier), Status::kCorruptInput);
  EXPECT_EQ(reason, RejectReason::kBadMac);
}

TEST(SignedFrames, TheParserCountsEachReason) {
  Pair p;
  link::FrameParser parser;
  parser.set_verifier(&p.at_fc);
  std::uint8_t wire[link::kMaxWireSize];
  std::size_t size = 0;
  const auto push_frame = [&](const Bytes& frame) {
    std::uint8_t out[link::kMaxWireSize + 8];
    parser.push(out, test::wrap(frame.data(), frame.size(), out));
  };
  const Bytes good = sign(sensors_message(1), p.sim_signer);
  push_frame(good);
  push_frame(good);  // replay
  Bytes forged = sign(sensors_message(2), p.sim_signer);
  forged[30] ^= 0x40;
  test::reseal(forged.data(), forged.size());
  push_frame(forged);  // MAC
  ASSERT_EQ(link::encode(sensors_message(3), wire, sizeof wire, size), Status::kOk);
  parser.push(wire, size);  // unsigned
  const auto& c = parser.counters();
  EXPECT_EQ(c.frames_ok, 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kReplay), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kBadMac), 1u);
  EXPECT_EQ(c.rejected_count(RejectReason::kUnsigned), 1u);
  EXPECT_EQ(c.total_rejected(), 3u);
}

TEST(SignedFrames, SigningAndCheckingDoNotAllocate) {
  Pair p;
  static std::uint8_t wire[link::kMaxWireSize], frame[link::kMaxWireSize];
  static Message decoded{};
  const Message m = sensors_message(3);
  int failures = 0;
  test::HeapProbe probe;
  for (int k = 0; k < 200; ++k) {
    std::size_t size = 0, n = 0;
    RejectReason reason{};
    failures += link::encode(m, wire, sizeof wire, size, &p.sim_signer) != Status::kOk;
    failures += link::cobs_decode(wire, size - 1, frame, sizeof frame, n) != Status::kOk;
    failures += link::decode_frame(frame, n, decoded, reason, &p.at_fc) != Status::kOk;
    p.fc.start_session(kSimNonce, kFcNonce);  // key derivation too
    p.sim.start_session(kSimNonce, kFcNonce);
  }
  const long allocations = probe.count();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(allocations, 0);
}

// ---- the controller host ------------------------------------------------------

class FlyingPlugin final : public plugin::ControllerPlugin {
 public:
  static constexpr const char* kRobotName = "test_robot";
  static constexpr std::uint32_t kRobotId = 0x1234u;
  static constexpr int kNumJoints = 4;
  static constexpr int kNumRotors = 8;
  static int updates;

  Status configure(const plugin::Parameter*, std::size_t) noexcept override { return Status::kOk; }
  void reset() noexcept override {}
  Status update(const plugin::Sensors& sensors, const plugin::Reference&,
                plugin::Command& command) noexcept override {
    ++updates;
    command = plugin::Command{};
    command.time = sensors.time;
    command.num_joints = kNumJoints;
    command.num_rotors = kNumRotors;
    command.mode = HODYN_MODE_TRACKING;
    for (int i = 0; i < kNumRotors; ++i) command.rotor_speed[i] = 500.0;
    return Status::kOk;
  }
  std::size_t parameter_count() const noexcept override { return 0; }
  Status parameter_info(std::size_t, plugin::ParameterInfo&) const noexcept override {
    return Status::kInvalidArgument;
  }
};
int FlyingPlugin::updates = 0;

const plugin::RobotIdentity kRobot{"test_robot", 0x1234u, 4, 8};
const hodyn_plugin_api* api() { return plugin::plugin_api<FlyingPlugin>("flying"); }

// Keeps the bytes the host sends.
class WireTransport final : public link::Transport {
 public:
  Status send(const std::uint8_t* data, std::size_t size) noexcept override {
    sent.insert(sent.end(), data, data + size);
    return Status::kOk;
  }
  Status receive(std::uint8_t*, std::size_t, std::size_t& received,
                 std::int64_t) noexcept override {
    received = 0;
    return Status::kOk;
  }
  Bytes sent;
};

using Host = link::ControllerHost<4096>;

// The simulator's end of a signed run, recording every byte it sends.
class SimEnd {
 public:
  explicit SimEnd(std::uint8_t nonce_byte, std::uint64_t hello_counter) {
    EXPECT_EQ(keys_.set_master_key(kKey, 32, LinkEnd::kSimulator), Status::kOk);
    for (int k = 0; k < 16; ++k) nonce_[k] = static_cast<std::uint8_t>(nonce_byte + k);
    signer_.set_hello_counter(hello_counter);
    answers_.set_verifier(&verifier_);
  }
  void hello(Host& host) {
    Message m{};
    m.type = MessageType::kHello;
    m.hello = link::make_hello(kRobot, link::hello_role::kSimulator, Status::kOk);
    std::memcpy(m.hello.nonce, nonce_, 16);
    send(host, m);
  }
  // Reads the host's answers; starts the session at the first HELLO answer to our nonce.
  void read_answers(WireTransport& t) {
    answers_.push(t.sent.data(), t.sent.size());
    t.sent.clear();
    Message m{};
    while (answers_.next(m)) {
      if (m.type == MessageType::kHello && keys_.session() == 0 &&
          std::memcmp(m.hello.peer_nonce, nonce_, 16) == 0) {
        keys_.start_session(nonce_, m.hello.nonce);
      }
      if (m.type == MessageType::kCommand) ++commands;
    }
  }
  void period(Host& host, std::uint32_t k) {
    Message r{};
    r.type = MessageType::kReference;
    r.reference.time = 1e-3 * k;
    r.reference.num_joints = 4;
    r.reference.base_orientation[0] = 1.0;
    send(host, r);
    send(host, sensors_message(k));
    host.period();
  }
  void send(Host& host, const Message& m) {
    std::uint8_t wire[link::kMaxWireSize];
    std::size_t size = 0;
    ASSERT_EQ(link::encode(m, wire, sizeof wire, size, &signer_), Status::kOk);
    recorded.insert(recorded.end(), wire, wire + size);
    host.receive_bytes(wire, size);
  }
  const link::FrameParser& answers() const { return answers_; }

  Bytes recorded;  // everything sent, in order
  int commands = 0;

 private:
  LinkKeys keys_;
  link::FrameSigner signer_{keys_};
  link::FrameVerifier verifier_{keys_};
  link::FrameParser answers_;
  std::uint8_t nonce_[16] = {};
};

std::uint8_t kBoot1[8] = {1, 0, 0, 0, 0, 0, 0, 0};
std::uint8_t kBoot2[8] = {2, 0, 0, 0, 0, 0, 0, 0};

// A signed run of `periods` periods against `host`; returns the simulator end.
void signed_run(Host& host, WireTransport& t, SimEnd& sim, std::uint32_t periods) {
  sim.hello(host);
  sim.read_answers(t);
  for (std::uint32_t k = 0; k < periods; ++k) {
    sim.period(host, k);
    sim.read_answers(t);
  }
}

TEST(SignedControllerHost, ASignedRunFliesAndEveryAnswerIsSigned) {
  WireTransport t;
  Host host(t, 20);
  ASSERT_EQ(host.open(api(), kRobot, 1000.0), Status::kOk);
  ASSERT_EQ(host.enable_authentication(kKey, 32, kBoot1, 7000), Status::kOk);
  FlyingPlugin::updates = 0;
  SimEnd sim(0x40, 100);
  signed_run(host, t, sim, 20);
  EXPECT_EQ(host.handshake(), link::HandshakeState::kAgreed);
  EXPECT_TRUE(host.armed());
  EXPECT_EQ(FlyingPlugin::updates, 20);
  EXPECT_EQ(host.counters().control_commands, 20u);
  EXPECT_EQ(host.counters().sessions, 1u);
  EXPECT_EQ(host.parser().counters().total_rejected(), 0u);
  EXPECT_EQ(sim.commands, 20);  // all verified by the simulator's end
  EXPECT_EQ(sim.answers().counters().total_rejected(), 0u);
}

TEST(SignedControllerHost, AWholeRecordedSessionReplayedToARestartedControllerDoesNotArmIt) {
  // Session A: a normal signed run, every byte the simulator sent recorded.
  WireTransport ta;
  Host a(ta, 20);
  ASSERT_EQ(a.open(api(), kRobot, 1000.0), Status::kOk);
  ASSERT_EQ(a.enable_authentication(kKey, 32, kBoot1, 7000), Status::kOk);
  SimEnd sim(0x40, 100);
  signed_run(a, ta, sim, 30);
  ASSERT_TRUE(a.armed());
  const Bytes recording = sim.recorded;

  // The controller restarted (its next boot id): the recording replayed whole.
  WireTransport tb;
  Host b(tb, 20);
  ASSERT_EQ(b.open(api(), kRobot, 1000.0), Status::kOk);
  ASSERT_EQ(b.enable_authentication(kKey, 32, kBoot2, 8000), Status::kOk);
  FlyingPlugin::updates = 0;
  b.receive_bytes(recording.data(), recording.size());
  for (int k = 0; k < 40; ++k) b.period();
  EXPECT_FALSE(b.armed());
  EXPECT_EQ(FlyingPlugin::updates, 0);
  EXPECT_EQ(b.counters().control_commands, 0u);
  EXPECT_EQ(b.counters().sensors_received, 0u);
  // The old HELLO is authentic (it is answered, with a new nonce), every one of
  // the 60 session frames fails its MAC under the new session's keys.
  EXPECT_EQ(b.counters().hellos_received, 1u);
  EXPECT_EQ(b.parser().counters().rejected_count(RejectReason::kBadMac), 60u);
  EXPECT_EQ(b.parser().counters().frames_ok, 1u);

  // Control: a controller that came back with the SAME boot id (no boot
  // counter) is fooled by the very same bytes — the boot id is what protects.
  WireTransport tc;
  Host c(tc, 20);
  ASSERT_EQ(c.open(api(), kRobot, 1000.0), Status::kOk);
  ASSERT_EQ(c.enable_authentication(kKey, 32, kBoot1, 8000), Status::kOk);
  c.receive_bytes(recording.data(), recording.size());
  EXPECT_TRUE(c.armed());
  EXPECT_GT(c.parser().counters().frames_ok, 50u);
}

TEST(SignedControllerHost, AReplayedHelloInTheMiddleOfARunChangesNothing) {
  WireTransport t;
  Host host(t, 20);
  ASSERT_EQ(host.open(api(), kRobot, 1000.0), Status::kOk);
  ASSERT_EQ(host.enable_authentication(kKey, 32, kBoot1, 7000), Status::kOk);
  SimEnd sim(0x40, 100);
  signed_run(host, t, sim, 5);
  Bytes hello_wire;  // the first frame the simulator sent, up to its delimiter
  for (std::uint8_t b : sim.recorded) {
    hello_wire.push_back(b);
    if (b == 0) break;
  }
  FlyingPlugin::updates = 0;
  host.receive_bytes(hello_wire.data(), hello_wire.size());
  EXPECT_EQ(host.parser().counters().rejected_count(RejectReason::kReplay), 1u);
  EXPECT_EQ(host.counters().sessions, 1u);
  EXPECT_EQ(host.counters().hellos_received, 1u);
  for (std::uint32_t k = 5; k < 10; ++k) {  // the run goes on undisturbed
    sim.period(host, k);
    sim.read_answers(t);
  }
  EXPECT_EQ(FlyingPlugin::updates, 5);
  EXPECT_EQ(sim.commands, 10);
}

TEST(SignedControllerHost, UnsignedSensorsAreRejectedAndANewRunStartsANewSession) {
  WireTransport t;
  Host host(t, 20);
  ASSERT_EQ(host.open(api(), kRobot, 1000.0), Status::kOk);
  ASSERT_EQ(host.enable_authentication(kKey, 32, kBoot1, 7000), Status::kOk);
  SimEnd sim(0x40, 100);
  signed_run(host, t, sim, 3);
  FlyingPlugin::updates = 0;
  std::uint8_t wire[link::kMaxWireSize];
  std::size_t size = 0;
  ASSERT_EQ(link::encode(sensors_message(3), wire, sizeof wire, size), Status::kOk);
  host.receive_bytes(wire, size);
  host.period();
  EXPECT_EQ(FlyingPlugin::updates, 0);
  EXPECT_EQ(host.parser().counters().rejected_count(RejectReason::kUnsigned), 1u);
  // A restarted simulator (new nonce, later HELLO counter): a new session.
  SimEnd next(0x80, 200);
  next.hello(host);
  next.read_answers(t);
  EXPECT_EQ(host.counters().sessions, 2u);
  // The first simulator's frames now fail their MAC; the new one's pass.
  sim.period(host, 3);
  EXPECT_EQ(host.parser().counters().rejected_count(RejectReason::kBadMac), 2u);
  next.period(host, 3);
  EXPECT_EQ(FlyingPlugin::updates, 1);
}

}  // namespace
}  // namespace hodyn
