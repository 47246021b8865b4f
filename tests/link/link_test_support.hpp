// Test helpers for the link protocol: a seeded generator of message contents
// (including NaN payloads, infinities, subnormals and negative zeros),
// bit-exact comparison, and frame surgery (unwrap a wire frame, edit it,
// re-seal its CRC, wrap it again) through the public API only. No heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hodyn/link/link.hpp"

namespace hodyn {
namespace test {

// SplitMix64: tiny, seeded, identical on every platform.
class LinkRng {
 public:
  explicit LinkRng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (n > 0; the tiny modulo bias does not matter here).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  std::uint8_t byte() { return static_cast<std::uint8_t>(next()); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(next()); }

  /// A double that is often ordinary and sometimes special: any bit
  /// pattern (NaNs with payloads, ±Inf, subnormals), ±0, or a modest value.
  double value() {
    double d = 0.0;
    std::uint64_t bits = 0;
    switch (below(8)) {
      case 0:
        bits = next();
        break;  // any pattern
      case 1:
        bits = 0x7FF0000000000000ull | (next() & 0x000FFFFFFFFFFFFFull) | 1u;
        break;  // NaN
      case 2:
        bits = 0x8000000000000000ull;
        break;  // -0
      case 3:
        bits = next() & 0x800FFFFFFFFFFFFFull;
        break;  // subnormal / ±0
      default: {
        d = static_cast<double>(static_cast<std::int64_t>(next() % 2000001) - 1000000) / 1024.0;
        return d;
      }
    }
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  void values(double* out, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) out[k] = value();
  }

 private:
  std::uint64_t state_;
};

inline hodyn_sensors random_sensors(LinkRng& rng) {
  hodyn_sensors s{};
  s.time = rng.value();
  s.sequence = rng.u32();
  s.num_joints = static_cast<std::uint32_t>(rng.below(HODYN_MAX_JOINTS + 1));
  s.num_rotors = static_cast<std::uint32_t>(rng.below(HODYN_MAX_ROTORS + 1));
  s.reserved = 0;  // not sent; decodes as 0
  rng.values(s.base_position, 3);
  rng.values(s.base_orientation, 4);
  rng.values(s.base_linear_velocity, 3);
  rng.values(s.base_angular_velocity, 3);
  // Entries past the counts are not sent and decode as 0: left 0 here.
  rng.values(s.joint_position, s.num_joints);
  rng.values(s.joint_velocity, s.num_joints);
  rng.values(s.motor_position, s.num_joints);
  rng.values(s.motor_velocity, s.num_joints);
  rng.values(s.rotor_speed, s.num_rotors);
  return s;
}

inline hodyn_command random_command(LinkRng& rng) {
  hodyn_command c{};
  c.time = rng.value();
  c.num_joints = static_cast<std::uint32_t>(rng.below(HODYN_MAX_JOINTS + 1));
  c.num_rotors = static_cast<std::uint32_t>(rng.below(HODYN_MAX_ROTORS + 1));
  c.mode = static_cast<std::uint32_t>(rng.below(HODYN_MODE_HOVER + 1));
  c.status = static_cast<std::int32_t>(rng.u32());
  rng.values(c.rotor_speed, c.num_rotors);
  rng.values(c.motor_torque, c.num_joints);
  return c;
}

inline hodyn_reference random_reference(LinkRng& rng) {
  hodyn_reference r{};
  r.time = rng.value();
  r.num_joints = static_cast<std::uint32_t>(rng.below(HODYN_MAX_JOINTS + 1));
  r.reserved = 0;
  for (auto& row : r.base_position) rng.values(row, 3);  // row by row: no pointer past a row
  rng.values(r.base_orientation, 4);
  for (auto& row : r.base_angular_velocity) rng.values(row, 3);
  for (auto& row : r.joint_position) rng.values(row, r.num_joints);
  return r;
}

/// A HELLO with random counts, role and a random name of 0..HODYN_NAME_LENGTH−1
/// printable characters (zero-padded, as the encoder sends it).
inline link::Hello random_hello(LinkRng& rng) {
  link::Hello h{};
  h.robot_id = rng.u32();
  h.num_joints = static_cast<std::uint32_t>(rng.below(HODYN_MAX_JOINTS + 1));
  h.num_rotors = static_cast<std::uint32_t>(rng.below(HODYN_MAX_ROTORS + 1));
  h.role = rng.below(2) == 0 ? link::hello_role::kSimulator : link::hello_role::kController;
  h.status = static_cast<std::int32_t>(rng.u32());
  const std::size_t length = rng.below(HODYN_NAME_LENGTH);
  for (std::size_t k = 0; k < length; ++k) h.robot_name[k] = static_cast<char>(33 + rng.below(94));
  for (std::size_t k = 0; k < link::kNonceSize; ++k) {
    h.nonce[k] = rng.byte();
    h.peer_nonce[k] = rng.byte();
  }
  return h;
}

/// A random valid message of the given type (or a random type).
inline link::Message random_message(LinkRng& rng, link::MessageType type) {
  link::Message m{};
  m.type = type;
  m.link_sequence = rng.u32();
  switch (type) {
    case link::MessageType::kSensors:
      m.sensors = random_sensors(rng);
      m.status_bits = rng.u32();
      break;
    case link::MessageType::kCommand:
      m.command = random_command(rng);
      m.status_bits = rng.u32();
      m.answered_sequence = rng.u32();
      break;
    case link::MessageType::kReference:
      m.reference = random_reference(rng);
      break;
    case link::MessageType::kHello:
      m.hello = random_hello(rng);
      break;
  }
  return m;
}
inline link::Message random_message(LinkRng& rng) {
  return random_message(rng, static_cast<link::MessageType>(1 + rng.below(4)));
}

/// Same type, header fields and every byte of the ABI struct.
inline bool bit_equal(const link::Message& a, const link::Message& b) {
  if (a.type != b.type || a.link_sequence != b.link_sequence || a.status_bits != b.status_bits ||
      a.answered_sequence != b.answered_sequence || a.counter != b.counter ||
      a.format != b.format) {
    return false;
  }
  switch (a.type) {
    case link::MessageType::kSensors:
      return std::memcmp(&a.sensors, &b.sensors, sizeof a.sensors) == 0;
    case link::MessageType::kCommand:
      return std::memcmp(&a.command, &b.command, sizeof a.command) == 0;
    case link::MessageType::kReference:
      return std::memcmp(&a.reference, &b.reference, sizeof a.reference) == 0;
    case link::MessageType::kHello:
      return std::memcmp(&a.hello, &b.hello, sizeof a.hello) == 0;
  }
  return false;
}

/// Wire frame → frame (COBS-decoded, delimiter dropped). Returns its size, 0 on error.
inline std::size_t unwrap(const std::uint8_t* wire, std::size_t wire_size, std::uint8_t* frame) {
  if (wire_size < 2 || wire[wire_size - 1] != 0) return 0;
  std::size_t size = 0;
  if (link::cobs_decode(wire, wire_size - 1, frame, link::kMaxFrameSize + 16, size) !=
      Status::kOk) {
    return 0;
  }
  return size;
}

/// Frame → wire frame (COBS + delimiter). `wire` needs link::wire_size(size) bytes.
inline std::size_t wrap(const std::uint8_t* frame, std::size_t size, std::uint8_t* wire) {
  std::size_t encoded = 0;
  if (link::cobs_encode(frame, size, wire, link::cobs_max_encoded_size(size), encoded) !=
      Status::kOk) {
    return 0;
  }
  wire[encoded] = 0;
  return encoded + 1;
}

/// Rewrites the last four bytes of a frame with the CRC of the others.
inline void reseal(std::uint8_t* frame, std::size_t size) {
  const std::uint32_t crc = link::crc32(frame, size - link::kCrcSize);
  for (std::size_t k = 0; k < 4; ++k) {
    frame[size - 4 + k] = static_cast<std::uint8_t>(crc >> (8 * k));
  }
}

inline void store_u32(std::uint8_t* p, std::uint32_t value) {
  for (std::size_t k = 0; k < 4; ++k) p[k] = static_cast<std::uint8_t>(value >> (8 * k));
}

}  // namespace test
}  // namespace hodyn
