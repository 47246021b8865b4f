// The link protocol's encoder and frame decoder: sizes and byte layout of
// docs/link-protocol.md, bit-exact round trips of all four messages (NaN
// payloads, -0, Inf, subnormals), the encoder's argument checks, rejection
// of wrong magic / version / type / length / values, and no heap use.
#include "support/heap_counter.hpp"  // counts allocations (this TU only)

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>

#include "link/link_test_support.hpp"

namespace hodyn {
namespace {

using link::Message;
using link::MessageType;
using link::RejectReason;

// No padding in the ABI structs, so memcmp compares values only.
static_assert(sizeof(hodyn_sensors) == 8 + 16 + 8 * 69, "hodyn_sensors has padding");
static_assert(sizeof(hodyn_command) == 8 + 16 + 8 * 20, "hodyn_command has padding");
static_assert(sizeof(hodyn_reference) == 16 + 8 * 91, "hodyn_reference has padding");
static_assert(sizeof(link::Hello) == 5 * 4 + HODYN_NAME_LENGTH + 2 * link::kNonceSize,
              "link::Hello has padding");

struct Encoded {
  std::uint8_t wire[link::kMaxWireSize];
  std::size_t wire_size = 0;
  std::uint8_t frame[link::kMaxFrameSize + 16];
  std::size_t frame_size = 0;
};

Encoded encode(const Message& m) {
  Encoded e;
  EXPECT_EQ(link::encode(m, e.wire, sizeof e.wire, e.wire_size), Status::kOk);
  e.frame_size = test::unwrap(e.wire, e.wire_size, e.frame);
  return e;
}

std::size_t frame_size_of(MessageType type) {
  switch (type) {
    case MessageType::kSensors:
      return link::kSensorsFrameSize;
    case MessageType::kCommand:
      return link::kCommandFrameSize;
    case MessageType::kReference:
      return link::kReferenceFrameSize;
    case MessageType::kHello:
      return link::kHelloFrameSize;
  }
  return 0;
}

std::size_t wire_size_of(MessageType type) { return link::wire_size(frame_size_of(type)); }

// The frame size of a message: its arrays for its counts only (version 4).
std::size_t frame_size_for(const Message& m) {
  switch (m.type) {
    case MessageType::kSensors:
      return 10 + 24 + 8 * (13 + 4 * m.sensors.num_joints + m.sensors.num_rotors) + 4;
    case MessageType::kCommand:
      return 10 + 32 + 8 * (m.command.num_joints + m.command.num_rotors) + 4;
    case MessageType::kReference:
      return 10 + 12 + 8 * (15 + 4 + 12 + 5 * m.reference.num_joints) + 4;
    case MessageType::kHello:
      return 106;
  }
  return 0;
}

TEST(LinkCodec, FrameSizesMatchTheSpecification) {
  EXPECT_EQ(link::kHeaderSize, 10u);
  EXPECT_EQ(link::kSensorsPayloadSize, 576u);
  EXPECT_EQ(link::kCommandPayloadSize, 192u);
  EXPECT_EQ(link::kReferencePayloadSize, 740u);
  EXPECT_EQ(link::kSensorsFrameSize, 590u);
  EXPECT_EQ(link::kCommandFrameSize, 206u);
  EXPECT_EQ(link::kReferenceFrameSize, 754u);
  EXPECT_EQ(link::kSensorsWireSize, 594u);
  EXPECT_EQ(link::kCommandWireSize, 208u);
  EXPECT_EQ(link::kReferenceWireSize, 758u);
  EXPECT_EQ(link::kHelloPayloadSize, 92u);
  EXPECT_EQ(link::kHelloFrameSize, 106u);
  EXPECT_EQ(link::kHelloWireSize, 108u);
  EXPECT_EQ(link::kProtocolVersion, 4);
  // Sized to the robot: the 12-DoF aerial manipulator (6 joints, 6 rotors),
  // and no joints and rotors at all.
  EXPECT_EQ(link::sensors_payload_size(6, 6), 368u);
  EXPECT_EQ(link::command_payload_size(6, 6), 128u);
  EXPECT_EQ(link::reference_payload_size(6), 500u);
  EXPECT_EQ(link::sensors_payload_size(0, 0), 128u);
  EXPECT_EQ(link::command_payload_size(0, 0), 32u);
  EXPECT_EQ(link::reference_payload_size(0), 260u);
  // Signed frames: + 8-byte counter + 16-byte tag; the largest is a signed REFERENCE.
  EXPECT_EQ(link::kSignatureSize, 24u);
  EXPECT_EQ(link::signed_frame_size(link::kSensorsPayloadSize), 614u);
  EXPECT_EQ(link::signed_frame_size(link::kCommandPayloadSize), 230u);
  EXPECT_EQ(link::signed_frame_size(link::kHelloPayloadSize), 130u);
  EXPECT_EQ(link::kMaxFrameSize, 778u);
  EXPECT_EQ(link::kMaxWireSize, 783u);
}

TEST(LinkCodec, SensorsByteLayout) {
  hodyn_sensors s{};
  s.time = 1.0;  // 0x3FF0000000000000
  s.sequence = 0x04030201u;
  s.num_joints = 6;
  s.num_rotors = 6;
  s.base_position[0] = -0.0;
  s.joint_position[5] = 0.5;  // the last joint in use
  s.joint_position[6] = 7.0;  // past num_joints: not sent
  s.rotor_speed[5] = 2.0;     // 0x4000000000000000, the last field sent
  s.rotor_speed[7] = 3.0;     // past num_rotors: not sent
  Encoded e;
  ASSERT_EQ(link::encode(s, 0xA1B2C3D4u, 0x11223344u, e.wire, sizeof e.wire, e.wire_size),
            Status::kOk);
  e.frame_size = test::unwrap(e.wire, e.wire_size, e.frame);
  ASSERT_EQ(e.frame_size, 382u);  // 10 + 24 + 8 * (13 + 4 * 6 + 6) + 4
  const std::uint8_t header[] = {'H', 'L', 4, 1, 0x70, 0x01, 0x44, 0x33, 0x22, 0x11};
  EXPECT_EQ(std::memcmp(e.frame, header, sizeof header), 0);
  const std::uint8_t* p = e.frame + 10;
  const std::uint8_t time[] = {0, 0, 0, 0, 0, 0, 0xF0, 0x3F};
  EXPECT_EQ(std::memcmp(p, time, 8), 0);
  const std::uint8_t counts[] = {1, 2, 3, 4, 6, 0, 0, 0, 6, 0, 0, 0, 0xD4, 0xC3, 0xB2, 0xA1};
  EXPECT_EQ(std::memcmp(p + 8, counts, sizeof counts), 0);
  const std::uint8_t negative_zero[] = {0, 0, 0, 0, 0, 0, 0, 0x80};
  EXPECT_EQ(std::memcmp(p + 24, negative_zero, 8), 0);
  const std::uint8_t half[] = {0, 0, 0, 0, 0, 0, 0xE0, 0x3F};
  EXPECT_EQ(std::memcmp(p + 128 + 8 * 5, half, 8), 0);  // joint_position[5]
  const std::uint8_t zero_velocity[8] = {};
  EXPECT_EQ(std::memcmp(p + 128 + 8 * 6, zero_velocity, 8), 0);  // joint_velocity[0] follows
  const std::uint8_t two[] = {0, 0, 0, 0, 0, 0, 0, 0x40};
  EXPECT_EQ(std::memcmp(p + 360, two, 8), 0);  // rotor_speed[5]: 128 + 8 * 24 + 8 * 5
  const std::uint32_t crc = link::crc32(e.frame, 378);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(e.frame[378 + k], static_cast<std::uint8_t>(crc >> (8 * k)));
  // The entries past the counts decode as 0.
  Message decoded{};
  RejectReason reason{};
  ASSERT_EQ(link::decode_frame(e.frame, e.frame_size, decoded, reason), Status::kOk);
  EXPECT_EQ(decoded.sensors.joint_position[5], 0.5);
  EXPECT_EQ(decoded.sensors.joint_position[6], 0.0);
  EXPECT_EQ(decoded.sensors.rotor_speed[5], 2.0);
  EXPECT_EQ(decoded.sensors.rotor_speed[7], 0.0);
}

TEST(LinkCodec, CommandAndReferenceByteLayout) {
  hodyn_command c{};
  c.num_joints = 6;
  c.num_rotors = 6;
  c.mode = HODYN_MODE_HOLD;
  c.status = -2;
  c.motor_torque[5] = 2.0;                     // the last joint in use: the last field
  c.motor_torque[HODYN_MAX_JOINTS - 1] = 3.0;  // past num_joints: not sent
  Encoded e;
  ASSERT_EQ(link::encode(c, 0x0A0B0C0Du, 0x5u, 7u, e.wire, sizeof e.wire, e.wire_size),
            Status::kOk);
  e.frame_size = test::unwrap(e.wire, e.wire_size, e.frame);
  ASSERT_EQ(e.frame_size, 142u);  // 10 + 32 + 8 * 12 + 4
  EXPECT_EQ(e.frame[3], 2);
  EXPECT_EQ(e.frame[4], 128);
  const std::uint8_t fields[] = {0x0D, 0x0C, 0x0B, 0x0A, 6,    0,    0,    0,    6, 0, 0, 0,
                                 3,    0,    0,    0,    0xFE, 0xFF, 0xFF, 0xFF, 5, 0, 0, 0};
  EXPECT_EQ(std::memcmp(e.frame + 10 + 8, fields, sizeof fields), 0);
  EXPECT_EQ(e.frame[10 + 127], 0x40);

  hodyn_reference r{};
  r.num_joints = 0x0C;
  r.base_position[1][2] = 2.0;  // x_d^(1), z
  r.joint_position[4][11] = 2.0;
  ASSERT_EQ(link::encode(r, 9u, e.wire, sizeof e.wire, e.wire_size), Status::kOk);
  e.frame_size = test::unwrap(e.wire, e.wire_size, e.frame);
  ASSERT_EQ(e.frame_size, 754u);
  EXPECT_EQ(e.frame[3], 3);
  EXPECT_EQ(e.frame[4] | (e.frame[5] << 8), 740);
  EXPECT_EQ(e.frame[10 + 8], 0x0C);
  EXPECT_EQ(e.frame[10 + 12 + 8 * 5 + 7], 0x40);  // base_position[1][2] is double #5
  EXPECT_EQ(e.frame[10 + 739], 0x40);
}

TEST(LinkCodec, HelloByteLayout) {
  link::Hello h{};
  h.robot_id = 0xA1B2C3D4u;
  h.num_joints = 4;
  h.num_rotors = 8;
  h.role = link::hello_role::kController;
  h.status = -2;
  std::memcpy(h.robot_name, "octo_arm", 9);
  for (std::size_t k = 0; k < link::kNonceSize; ++k) {
    h.nonce[k] = static_cast<std::uint8_t>(0x10 + k);
    h.peer_nonce[k] = static_cast<std::uint8_t>(0xA0 + k);
  }
  Encoded e;
  ASSERT_EQ(link::encode(h, 0x01020304u, e.wire, sizeof e.wire, e.wire_size), Status::kOk);
  e.frame_size = test::unwrap(e.wire, e.wire_size, e.frame);
  ASSERT_EQ(e.frame_size, 106u);
  const std::uint8_t header[] = {'H', 'L', 4, 4, 92, 0, 0x04, 0x03, 0x02, 0x01};
  EXPECT_EQ(std::memcmp(e.frame, header, sizeof header), 0);
  const std::uint8_t fields[] = {0xD4, 0xC3, 0xB2, 0xA1, 4, 0, 0,    0,    8,    0,
                                 0,    0,    2,    0,    0, 0, 0xFE, 0xFF, 0xFF, 0xFF};
  EXPECT_EQ(std::memcmp(e.frame + 10, fields, sizeof fields), 0);
  EXPECT_EQ(std::memcmp(e.frame + 30, "octo_arm", 8), 0);
  for (std::size_t k = 38; k < 70; ++k) EXPECT_EQ(e.frame[k], 0) << k;  // NUL and zero padding
  for (std::size_t k = 0; k < link::kNonceSize; ++k) {  // the nonce, then the peer's
    EXPECT_EQ(e.frame[70 + k], 0x10 + k);
    EXPECT_EQ(e.frame[86 + k], 0xA0 + k);
  }
  const std::uint32_t crc = link::crc32(e.frame, 102);
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(e.frame[102 + k], static_cast<std::uint8_t>(crc >> (8 * k)));

  // Bytes after the first NUL of the name are sent as zeros; 39 characters fit.
  link::Hello junk = h;
  junk.robot_name[20] = 'x';
  Encoded j;
  ASSERT_EQ(link::encode(junk, 0x01020304u, j.wire, sizeof j.wire, j.wire_size), Status::kOk);
  j.frame_size = test::unwrap(j.wire, j.wire_size, j.frame);
  EXPECT_EQ(std::memcmp(j.frame, e.frame, e.frame_size), 0);
  std::memset(h.robot_name, 'n', HODYN_NAME_LENGTH - 1);
  h.robot_name[HODYN_NAME_LENGTH - 1] = '\0';
  ASSERT_EQ(link::encode(h, 0, e.wire, sizeof e.wire, e.wire_size), Status::kOk);
  Message decoded{};
  RejectReason reason{};
  e.frame_size = test::unwrap(e.wire, e.wire_size, e.frame);
  ASSERT_EQ(link::decode_frame(e.frame, e.frame_size, decoded, reason), Status::kOk);
  EXPECT_EQ(decoded.type, MessageType::kHello);
  EXPECT_EQ(std::strlen(decoded.hello.robot_name), HODYN_NAME_LENGTH - 1u);
  EXPECT_EQ(decoded.hello.status, -2);
}

TEST(LinkCodec, HelloCarriesARobotIdentity) {
  const plugin::RobotIdentity robot{"octo_arm", 0x12345678u, 4, 8};
  const link::Hello h = link::make_hello(robot, link::hello_role::kSimulator, Status::kOk);
  Message m{};
  m.type = MessageType::kHello;
  m.hello = h;
  const Encoded e = encode(m);
  Message decoded{};
  RejectReason reason{};
  ASSERT_EQ(link::decode_frame(e.frame, e.frame_size, decoded, reason), Status::kOk);
  const plugin::RobotIdentity back = link::robot_of(decoded.hello);
  EXPECT_STREQ(back.name, "octo_arm");
  EXPECT_EQ(back.id, 0x12345678u);
  EXPECT_EQ(back.num_joints, 4u);
  EXPECT_EQ(back.num_rotors, 8u);
  EXPECT_EQ(decoded.hello.role, link::hello_role::kSimulator);
  EXPECT_EQ(plugin::compare_robots(robot, back), Status::kOk);
  // A name longer than the field is cut to HODYN_NAME_LENGTH - 1 characters.
  const char* long_name = "a_robot_name_much_longer_than_forty_characters_in_all";
  const link::Hello cut = link::make_hello(plugin::RobotIdentity{long_name, 1, 0, 0},
                                           link::hello_role::kController, Status::kRobotMismatch);
  EXPECT_EQ(std::strlen(cut.robot_name), HODYN_NAME_LENGTH - 1u);
  EXPECT_EQ(cut.status, static_cast<std::int32_t>(Status::kRobotMismatch));
}

TEST(LinkCodec, RoundTripsAreBitExact) {
  test::LinkRng rng(2024);
  const MessageType types[] = {MessageType::kSensors, MessageType::kCommand,
                               MessageType::kReference, MessageType::kHello};
  for (MessageType type : types) {
    for (int trial = 0; trial < 500; ++trial) {
      const Message original = test::random_message(rng, type);
      const Encoded e = encode(original);
      ASSERT_GT(e.wire_size, 0u);
      ASSERT_LE(e.wire_size, wire_size_of(type));
      ASSERT_EQ(e.wire[e.wire_size - 1], 0);
      for (std::size_t k = 0; k + 1 < e.wire_size; ++k) ASSERT_NE(e.wire[k], 0);
      ASSERT_EQ(e.frame_size, frame_size_for(original));
      ASSERT_LE(e.frame_size, frame_size_of(type));
      Message decoded{};
      RejectReason reason = RejectReason::kBadCrc;
      ASSERT_EQ(link::decode_frame(e.frame, e.frame_size, decoded, reason), Status::kOk);
      EXPECT_EQ(reason, RejectReason::kNone);
      ASSERT_TRUE(test::bit_equal(original, decoded)) << "type " << int(type) << " trial " << trial;
    }
  }
}

TEST(LinkCodec, SpecialValuesSurviveBitExact) {
  const std::uint64_t patterns[] = {
      0x7FF8000000000000ull,  // quiet NaN
      0xFFF8000000000123ull,  // negative quiet NaN with payload
      0x7FF0000000000001ull,  // signalling NaN
      0x7FF4000000ABCDEFull,  // signalling NaN with payload
      0x8000000000000000ull,  // -0
      0x7FF0000000000000ull,  // +Inf
      0xFFF0000000000000ull,  // -Inf
      0x0000000000000001ull,  // smallest subnormal
      0x800FFFFFFFFFFFFFull,  // largest negative subnormal
      0x7FEFFFFFFFFFFFFFull,  // DBL_MAX
      0x0000000000000000ull,
  };
  for (std::uint64_t bits : patterns) {
    double v = 0.0;
    std::memcpy(&v, &bits, sizeof v);
    Message m{};
    m.type = MessageType::kSensors;
    m.sensors.time = v;
    m.sensors.num_joints = 12;
    m.sensors.num_rotors = 8;
    for (double& q : m.sensors.joint_position) q = v;
    for (double& w : m.sensors.rotor_speed) w = v;
    m.sensors.base_orientation[0] = v;
    const Encoded e = encode(m);
    Message decoded{};
    RejectReason reason{};
    ASSERT_EQ(link::decode_frame(e.frame, e.frame_size, decoded, reason), Status::kOk);
    EXPECT_TRUE(test::bit_equal(m, decoded)) << std::hex << bits;
    std::uint64_t out_bits = 0;
    std::memcpy(&out_bits, &decoded.sensors.joint_position[11], sizeof out_bits);
    EXPECT_EQ(out_bits, bits);

    Message c{};
    c.type = MessageType::kCommand;
    c.command.time = v;
    c.command.num_joints = 12;
    for (double& t : c.command.motor_torque) t = v;
    const Encoded ec = encode(c);
    ASSERT_EQ(link::decode_frame(ec.frame, ec.frame_size, decoded, reason), Status::kOk);
    EXPECT_TRUE(test::bit_equal(c, decoded)) << std::hex << bits;

    Message r{};
    r.type = MessageType::kReference;
    r.reference.num_joints = 12;
    for (auto& row : r.reference.joint_position)
      for (double& q : row) q = v;
    const Encoded er = encode(r);
    ASSERT_EQ(link::decode_frame(er.frame, er.frame_size, decoded, reason), Status::kOk);
    EXPECT_TRUE(test::bit_equal(r, decoded)) << std::hex << bits;
  }
}

TEST(LinkCodec, ReservedFieldsAreNotSent) {
  Message m{};
  m.type = MessageType::kSensors;
  m.sensors.reserved = 0xDEADBEEFu;
  const Encoded e = encode(m);
  Message decoded{};
  RejectReason reason{};
  ASSERT_EQ(link::decode_frame(e.frame, e.frame_size, decoded, reason), Status::kOk);
  EXPECT_EQ(decoded.sensors.reserved, 0u);
}

TEST(LinkCodec, EncoderRejectsWhatTheDecoderWouldReject) {
  std::uint8_t out[link::kMaxWireSize];
  std::size_t written = 123;
  hodyn_sensors s{};
  EXPECT_EQ(link::encode(s, 0, 0, nullptr, sizeof out, written), Status::kInvalidArgument);
  EXPECT_EQ(written, 0u);
  // Room for the frame of these counts (here none: the smallest SENSORS).
  const std::size_t smallest_sensors = link::wire_size(link::frame_size(128));
  EXPECT_EQ(link::encode(s, 0, 0, out, smallest_sensors - 1, written), Status::kInvalidArgument);
  EXPECT_EQ(link::encode(s, 0, 0, out, smallest_sensors, written), Status::kOk);
  s.num_joints = HODYN_MAX_JOINTS;
  s.num_rotors = HODYN_MAX_ROTORS;
  EXPECT_EQ(link::encode(s, 0, 0, out, link::kSensorsWireSize - 1, written),
            Status::kInvalidArgument);
  EXPECT_EQ(link::encode(s, 0, 0, out, link::kSensorsWireSize, written), Status::kOk);
  s.num_rotors = 0;
  s.num_joints = HODYN_MAX_JOINTS + 1;
  EXPECT_EQ(link::encode(s, 0, 0, out, sizeof out, written), Status::kInvalidArgument);
  s.num_joints = 0;
  s.num_rotors = HODYN_MAX_ROTORS + 1;
  EXPECT_EQ(link::encode(s, 0, 0, out, sizeof out, written), Status::kInvalidArgument);
  EXPECT_EQ(written, 0u);

  hodyn_command c{};
  c.num_joints = HODYN_MAX_JOINTS;
  c.num_rotors = HODYN_MAX_ROTORS;
  EXPECT_EQ(link::encode(c, 0, 0, 0, out, link::kCommandWireSize - 1, written),
            Status::kInvalidArgument);
  c.num_joints = 0;
  c.num_rotors = 0;
  EXPECT_EQ(link::encode(c, 0, 0, 0, out, link::wire_size(link::frame_size(32)) - 1, written),
            Status::kInvalidArgument);
  c.mode = HODYN_MODE_HOVER + 1;
  EXPECT_EQ(link::encode(c, 0, 0, 0, out, sizeof out, written), Status::kInvalidArgument);
  c.mode = HODYN_MODE_HOVER;
  c.num_rotors = 9;
  EXPECT_EQ(link::encode(c, 0, 0, 0, out, sizeof out, written), Status::kInvalidArgument);

  hodyn_reference r{};
  r.num_joints = HODYN_MAX_JOINTS;
  EXPECT_EQ(link::encode(r, 0, out, link::kReferenceWireSize - 1, written),
            Status::kInvalidArgument);
  r.num_joints = 13;
  EXPECT_EQ(link::encode(r, 0, out, sizeof out, written), Status::kInvalidArgument);

  link::Hello h{};
  h.role = link::hello_role::kSimulator;
  EXPECT_EQ(link::encode(h, 0, out, link::kHelloWireSize - 1, written), Status::kInvalidArgument);
  EXPECT_EQ(link::encode(h, 0, out, link::kHelloWireSize, written), Status::kOk);
  for (std::uint32_t role : {0u, 3u, 0xFFFFFFFFu}) {
    h.role = role;
    EXPECT_EQ(link::encode(h, 0, out, sizeof out, written), Status::kInvalidArgument) << role;
  }
  h.role = link::hello_role::kController;
  h.num_joints = HODYN_MAX_JOINTS + 1;
  EXPECT_EQ(link::encode(h, 0, out, sizeof out, written), Status::kInvalidArgument);
  h.num_joints = 0;
  h.num_rotors = HODYN_MAX_ROTORS + 1;
  EXPECT_EQ(link::encode(h, 0, out, sizeof out, written), Status::kInvalidArgument);
  h.num_rotors = 0;
  std::memset(h.robot_name, 'x', sizeof h.robot_name);  // no NUL: not a name
  EXPECT_EQ(link::encode(h, 0, out, sizeof out, written), Status::kInvalidArgument);
  EXPECT_EQ(written, 0u);

  Message m{};
  m.type = static_cast<MessageType>(7);
  EXPECT_EQ(link::encode(m, out, sizeof out, written), Status::kInvalidArgument);
}

// Edits a valid frame, re-seals its CRC and expects `reason`.
void expect_rejected(Encoded e, RejectReason reason, void (*edit)(Encoded&)) {
  edit(e);
  test::reseal(e.frame, e.frame_size);
  Message decoded{};
  decoded.link_sequence = 77;
  RejectReason got = RejectReason::kNone;
  EXPECT_EQ(link::decode_frame(e.frame, e.frame_size, decoded, got), Status::kCorruptInput);
  EXPECT_EQ(got, reason) << link::to_string(got);
  EXPECT_EQ(decoded.link_sequence, 0u);  // zeroed on rejection
  EXPECT_EQ(link::validate_frame(e.frame, e.frame_size), reason);
}

TEST(LinkCodec, WrongMagicVersionTypeLengthAndValuesAreRejected) {
  test::LinkRng rng(7);
  const Encoded s = encode(test::random_message(rng, MessageType::kSensors));
  const Encoded c = encode(test::random_message(rng, MessageType::kCommand));
  const Encoded r = encode(test::random_message(rng, MessageType::kReference));
  const Encoded h = encode(test::random_message(rng, MessageType::kHello));

  expect_rejected(s, RejectReason::kBadMagic, [](Encoded& e) { e.frame[0] = 'h'; });
  expect_rejected(c, RejectReason::kBadMagic, [](Encoded& e) { e.frame[1] = 0; });
  expect_rejected(s, RejectReason::kBadVersion, [](Encoded& e) { e.frame[2] = 1; });  // a v1 peer
  expect_rejected(r, RejectReason::kBadVersion, [](Encoded& e) { e.frame[2] = 0; });
  expect_rejected(h, RejectReason::kBadVersion, [](Encoded& e) { e.frame[2] = 2; });  // a v2 peer
  expect_rejected(h, RejectReason::kBadVersion, [](Encoded& e) { e.frame[2] = 3; });  // a v3 peer
  expect_rejected(h, RejectReason::kBadVersion, [](Encoded& e) { e.frame[2] = 5; });
  expect_rejected(s, RejectReason::kUnknownType, [](Encoded& e) { e.frame[3] = 0; });
  expect_rejected(c, RejectReason::kUnknownType, [](Encoded& e) { e.frame[3] = 5; });
  expect_rejected(r, RejectReason::kUnknownType, [](Encoded& e) { e.frame[3] = 0x7F; });
  // The signed flag (bit 7 of the type byte) on a link without a key.
  expect_rejected(r, RejectReason::kNoKey, [](Encoded& e) { e.frame[3] = 0xFF; });
  expect_rejected(c, RejectReason::kNoKey, [](Encoded& e) { e.frame[3] |= link::kSignedFlag; });
  // Length field disagreeing with the bytes received.
  expect_rejected(s, RejectReason::kBadLength, [](Encoded& e) { e.frame[4] ^= 1; });
  expect_rejected(c, RejectReason::kBadLength, [](Encoded& e) { e.frame[5] = 0xFF; });
  // A frame of another type's size (length field consistent with the bytes).
  expect_rejected(s, RejectReason::kBadLength, [](Encoded& e) {
    e.frame[3] = static_cast<std::uint8_t>(MessageType::kCommand);
  });
  expect_rejected(c, RejectReason::kBadLength, [](Encoded& e) {  // one payload byte short
    e.frame_size -= 1;
    e.frame[4] = static_cast<std::uint8_t>(e.frame[4] - 1);  // (no borrow: 32 + 8 n)
  });
  expect_rejected(r, RejectReason::kBadLength, [](Encoded& e) {  // one byte too many
    e.frame_size += 1;
    const std::size_t payload = (e.frame[4] | (e.frame[5] << 8)) + 1u;
    e.frame[4] = static_cast<std::uint8_t>(payload & 0xFF);
    e.frame[5] = static_cast<std::uint8_t>(payload >> 8);
  });
  // Consistent length fields, but not the size of the counts in the payload
  // (one joint more or fewer than the arrays sent).
  expect_rejected(s, RejectReason::kBadLength, [](Encoded& e) {
    const std::uint32_t joints = e.frame[22];
    test::store_u32(e.frame + 22, joints == 0 ? 1u : joints - 1u);
  });
  expect_rejected(r, RejectReason::kBadLength, [](Encoded& e) {
    const std::uint32_t joints = e.frame[18];
    test::store_u32(e.frame + 18, joints == 0 ? 1u : joints - 1u);
  });
  expect_rejected(c, RejectReason::kBadLength, [](Encoded& e) {
    const std::uint32_t rotors = e.frame[26];
    test::store_u32(e.frame + 26, rotors == 0 ? 1u : rotors - 1u);
  });
  // Shorter than the payload's fixed fields: a COMMAND of 31 bytes.
  {
    Encoded tiny = c;
    tiny.frame_size = 10 + 31 + 4;
    tiny.frame[4] = 31;
    tiny.frame[5] = 0;
    expect_rejected(tiny, RejectReason::kBadLength, [](Encoded&) {});
  }
  // Counts and mode a receiver would index with or switch on.
  expect_rejected(s, RejectReason::kBadValue,
                  [](Encoded& e) { test::store_u32(e.frame + 22, 13); });
  expect_rejected(s, RejectReason::kBadValue, [](Encoded& e) { test::store_u32(e.frame + 26, 9); });
  expect_rejected(s, RejectReason::kBadValue,
                  [](Encoded& e) { test::store_u32(e.frame + 22, 0xFFFFFFFFu); });
  expect_rejected(c, RejectReason::kBadValue,
                  [](Encoded& e) { test::store_u32(e.frame + 22, 13); });
  expect_rejected(c, RejectReason::kBadValue, [](Encoded& e) { test::store_u32(e.frame + 26, 9); });
  expect_rejected(c, RejectReason::kBadValue, [](Encoded& e) { test::store_u32(e.frame + 30, 5); });
  expect_rejected(r, RejectReason::kBadValue,
                  [](Encoded& e) { test::store_u32(e.frame + 18, 13); });
  // HELLO: counts, role, and a name field that is not a NUL-terminated, zero-padded string.
  expect_rejected(h, RejectReason::kBadLength, [](Encoded& e) {
    // As a COMMAND its role and status are the counts: valid (role, 0), and
    // 92 bytes are not 32 + 8 (role + 0).
    test::store_u32(e.frame + 26, 0);
    e.frame[3] = static_cast<std::uint8_t>(MessageType::kCommand);
  });
  expect_rejected(h, RejectReason::kBadValue,
                  [](Encoded& e) { test::store_u32(e.frame + 14, 13); });
  expect_rejected(h, RejectReason::kBadValue, [](Encoded& e) { test::store_u32(e.frame + 18, 9); });
  expect_rejected(h, RejectReason::kBadValue, [](Encoded& e) { test::store_u32(e.frame + 22, 0); });
  expect_rejected(h, RejectReason::kBadValue, [](Encoded& e) { test::store_u32(e.frame + 22, 3); });
  expect_rejected(h, RejectReason::kBadValue,
                  [](Encoded& e) { std::memset(e.frame + 30, 'x', HODYN_NAME_LENGTH); });
  expect_rejected(h, RejectReason::kBadValue, [](Encoded& e) {
    std::memset(e.frame + 30, 0, HODYN_NAME_LENGTH);
    e.frame[30 + HODYN_NAME_LENGTH - 1] = 'x';  // a byte after the NUL
  });
  // The largest valid values pass.
  Message largest{};
  largest.type = MessageType::kCommand;
  largest.command.num_joints = HODYN_MAX_JOINTS;
  largest.command.num_rotors = HODYN_MAX_ROTORS;
  largest.command.mode = HODYN_MODE_HOVER;
  const Encoded edge = encode(largest);
  EXPECT_EQ(edge.frame_size, link::kCommandFrameSize);
  EXPECT_EQ(link::validate_frame(edge.frame, edge.frame_size), RejectReason::kNone);
  Encoded hello_edge = h;
  test::store_u32(hello_edge.frame + 14, HODYN_MAX_JOINTS);
  test::store_u32(hello_edge.frame + 18, HODYN_MAX_ROTORS);
  test::store_u32(hello_edge.frame + 22, link::hello_role::kController);
  std::memset(hello_edge.frame + 30, 0, HODYN_NAME_LENGTH);  // the empty name
  test::reseal(hello_edge.frame, hello_edge.frame_size);
  EXPECT_EQ(link::validate_frame(hello_edge.frame, hello_edge.frame_size), RejectReason::kNone);
}

// `m` as a binary32 frame decodes: every real value but `time` rounded to float.
// Each array of reals rounded to binary32 and widened back, member by member,
// through a volatile float. (It walked all of a message's reals from its
// first array's pointer, past that array's end: undefined behaviour. Written
// per array, g++ 12.2's SLP vectorizer at -O2 and above dropped the round
// trip of some elements — two of base_position, two of
// base_angular_velocity: a subnormal stayed a subnormal, 1e187 stayed finite
// — wrong code reproduced in a 20-line program, right at -O0, with
// -fno-tree-slp-vectorize and with clang. The volatile keeps each conversion
// a scalar one; issue 21 item 5, docs/sanitizers.md "Build types".)
template <std::size_t N>
void round_to_float(double (&v)[N]) {
  for (double& x : v) {
    const volatile float f = static_cast<float>(x);
    x = static_cast<double>(f);
  }
}
template <std::size_t R, std::size_t N>
void round_to_float(double (&rows)[R][N]) {
  for (auto& row : rows) round_to_float(row);
}

Message rounded_to_float(Message m) {
  m.format = link::ValueFormat::kFloat32;
  switch (m.type) {
    case MessageType::kSensors: {
      auto& s = m.sensors;
      round_to_float(s.base_position);
      round_to_float(s.base_orientation);
      round_to_float(s.base_linear_velocity);
      round_to_float(s.base_angular_velocity);
      round_to_float(s.joint_position);
      round_to_float(s.joint_velocity);
      round_to_float(s.motor_position);
      round_to_float(s.motor_velocity);
      round_to_float(s.rotor_speed);
      break;
    }
    case MessageType::kCommand:
      round_to_float(m.command.rotor_speed);
      round_to_float(m.command.motor_torque);
      break;
    case MessageType::kReference: {
      auto& r = m.reference;
      round_to_float(r.base_position);
      round_to_float(r.base_orientation);
      round_to_float(r.base_angular_velocity);
      round_to_float(r.joint_position);
      break;
    }
    case MessageType::kHello:
      break;
  }
  return m;
}

TEST(LinkCodec, Float32FramesCarryBinary32ValuesAndDoubleTime) {
  hodyn_sensors s{};
  s.time = 0.1;  // stays binary64
  s.num_joints = 6;
  s.num_rotors = 6;
  s.base_position[0] = 1.5;  // 0x3FC00000 as binary32
  s.base_position[1] = 0.1;  // rounded to the nearest float
  s.rotor_speed[5] = -2.0;   // 0xC0000000, the last value
  Encoded e;
  ASSERT_EQ(link::encode(s, 0, 9, e.wire, sizeof e.wire, e.wire_size, nullptr,
                         link::ValueFormat::kFloat32),
            Status::kOk);
  e.frame_size = test::unwrap(e.wire, e.wire_size, e.frame);
  ASSERT_EQ(e.frame_size, 10u + 24u + 4u * 43u + 4u);  // 210: 13 + 4 * 6 + 6 values
  EXPECT_EQ(link::sensors_payload_size(6, 6, 4), 196u);
  EXPECT_EQ(e.frame[3], 0x41);  // SENSORS | kFloat32Flag
  EXPECT_EQ(e.frame[4] | (e.frame[5] << 8), 196);
  double time = 0.0;
  std::memcpy(&time, e.frame + 10, 8);  // little-endian host (x86, ARM): the wire bytes
  EXPECT_EQ(time, 0.1);
  const std::uint8_t one_and_a_half[] = {0x00, 0x00, 0xC0, 0x3F};
  EXPECT_EQ(std::memcmp(e.frame + 10 + 24, one_and_a_half, 4), 0);
  const std::uint8_t minus_two[] = {0x00, 0x00, 0x00, 0xC0};
  EXPECT_EQ(std::memcmp(e.frame + 10 + 196 - 4, minus_two, 4), 0);
  Message decoded{};
  RejectReason reason{};
  ASSERT_EQ(link::decode_frame(e.frame, e.frame_size, decoded, reason), Status::kOk);
  EXPECT_EQ(decoded.format, link::ValueFormat::kFloat32);
  EXPECT_EQ(decoded.sensors.time, 0.1);
  EXPECT_EQ(decoded.sensors.base_position[0], 1.5);
  EXPECT_EQ(decoded.sensors.base_position[1], static_cast<double>(0.1f));
  EXPECT_NE(decoded.sensors.base_position[1], 0.1);
  EXPECT_EQ(decoded.sensors.rotor_speed[5], -2.0);

  // Random messages of every type but HELLO: the binary32 rounding of each.
  test::LinkRng rng(32);
  for (MessageType type : {MessageType::kSensors, MessageType::kCommand, MessageType::kReference}) {
    for (int trial = 0; trial < 300; ++trial) {
      Message m = test::random_message(rng, type);
      m.format = link::ValueFormat::kFloat32;
      const Encoded f = encode(m);
      ASSERT_EQ(f.frame[3] & link::kFloat32Flag, link::kFloat32Flag);
      Message back{};
      ASSERT_EQ(link::decode_frame(f.frame, f.frame_size, back, reason), Status::kOk)
          << link::to_string(reason);
      ASSERT_TRUE(test::bit_equal(rounded_to_float(m), back))
          << "type " << int(type) << " trial " << trial;
    }
  }
}

TEST(LinkCodec, Float32FlagIsCheckedAgainstTheLengthAndNotForHello) {
  test::LinkRng rng(33);
  // The flag set on a binary64 frame (or cleared on a binary32 one): the
  // length is then not the size of the type, counts and value width.
  Message m = test::random_message(rng, MessageType::kSensors);
  m.sensors.num_joints = 6;
  m.sensors.num_rotors = 6;
  const Encoded f64 = encode(m);
  expect_rejected(f64, RejectReason::kBadLength, [](Encoded& e) { e.frame[3] |= 0x40; });
  m.format = link::ValueFormat::kFloat32;
  const Encoded f32 = encode(m);
  expect_rejected(f32, RejectReason::kBadLength, [](Encoded& e) { e.frame[3] &= 0x3F; });
  // A HELLO has no binary32 form.
  const Encoded h = encode(test::random_message(rng, MessageType::kHello));
  expect_rejected(h, RejectReason::kUnknownType, [](Encoded& e) { e.frame[3] |= 0x40; });
  // Encoding a HELLO ignores the format.
  Message hello = test::random_message(rng, MessageType::kHello);
  hello.format = link::ValueFormat::kFloat32;
  EXPECT_EQ(encode(hello).frame[3], 4);
}

TEST(LinkCodec, ShortFramesAndBadCrcAreRejected) {
  test::LinkRng rng(8);
  const Encoded e = encode(test::random_message(rng, MessageType::kCommand));
  Message decoded{};
  RejectReason reason{};
  for (std::size_t n = 0; n < link::kHeaderSize + link::kCrcSize; ++n) {
    EXPECT_EQ(link::decode_frame(e.frame, n, decoded, reason), Status::kCorruptInput);
    EXPECT_EQ(reason, RejectReason::kTooShort) << n;
  }
  for (std::size_t n = link::kHeaderSize + link::kCrcSize; n < e.frame_size; ++n) {
    EXPECT_EQ(link::decode_frame(e.frame, n, decoded, reason), Status::kCorruptInput);
    EXPECT_EQ(reason, RejectReason::kBadCrc) << n;
  }
  EXPECT_EQ(link::decode_frame(nullptr, 10, decoded, reason), Status::kInvalidArgument);
}

TEST(LinkCodec, EncodeAndDecodeDoNotAllocate) {
  test::LinkRng rng(99);
  Message messages[4] = {test::random_message(rng, MessageType::kSensors),
                         test::random_message(rng, MessageType::kCommand),
                         test::random_message(rng, MessageType::kReference),
                         test::random_message(rng, MessageType::kHello)};
  static std::uint8_t wire[link::kMaxWireSize];
  static std::uint8_t frame[link::kMaxWireSize];
  static Message decoded{};
  int failures = 0;
  test::HeapProbe probe;
  for (int k = 0; k < 100; ++k) {
    for (const Message& m : messages) {
      std::size_t wire_size = 0, frame_size = 0;
      RejectReason reason{};
      failures += link::encode(m, wire, sizeof wire, wire_size) != Status::kOk;
      failures +=
          link::cobs_decode(wire, wire_size - 1, frame, sizeof frame, frame_size) != Status::kOk;
      failures += link::decode_frame(frame, frame_size, decoded, reason) != Status::kOk;
    }
  }
  const long allocations = probe.count();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace hodyn
