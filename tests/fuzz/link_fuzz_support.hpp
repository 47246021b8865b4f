// tests/fuzz/link_fuzz_support.hpp — what the link fuzz target checks a
// received message against (docs/fuzzing.md): equality of two messages, the
// values a receiver relies on (docs/link-protocol.md, "Receiving"), and the
// two ends of a signed link under one test key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz_input.hpp"
#include "hodyn/link/link.hpp"
#include "hodyn/link/security.hpp"

namespace hodyn_fuzz {

namespace hl = hodyn::link;

/// Equal type, header fields, counter (unless `ignore_counter`) and payload,
/// bit for bit (NaN payloads and -0 included).
inline bool same_message(const hl::Message& a, const hl::Message& b, bool ignore_counter = false) {
  if (a.type != b.type || a.link_sequence != b.link_sequence || a.status_bits != b.status_bits ||
      a.answered_sequence != b.answered_sequence || (!ignore_counter && a.counter != b.counter)) {
    return false;
  }
  switch (a.type) {
    case hl::MessageType::kSensors:
      return std::memcmp(&a.sensors, &b.sensors, sizeof a.sensors) == 0;
    case hl::MessageType::kCommand:
      return std::memcmp(&a.command, &b.command, sizeof a.command) == 0;
    case hl::MessageType::kReference:
      return std::memcmp(&a.reference, &b.reference, sizeof a.reference) == 0;
    case hl::MessageType::kHello:
      return std::memcmp(&a.hello, &b.hello, sizeof a.hello) == 0;
  }
  return false;
}

/// What a receiver uses as an index, switches on or prints is in range
/// (docs/link-protocol.md, "Receiving": counts, mode, role, the name's NUL).
inline bool values_valid(const hl::Message& m) {
  switch (m.type) {
    case hl::MessageType::kSensors:
      return m.sensors.num_joints <= HODYN_MAX_JOINTS && m.sensors.num_rotors <= HODYN_MAX_ROTORS &&
             m.sensors.reserved == 0;
    case hl::MessageType::kCommand:
      return m.command.num_joints <= HODYN_MAX_JOINTS && m.command.num_rotors <= HODYN_MAX_ROTORS &&
             m.command.mode <= HODYN_MODE_HOVER;
    case hl::MessageType::kReference:
      return m.reference.num_joints <= HODYN_MAX_JOINTS && m.reference.reserved == 0;
    case hl::MessageType::kHello: {
      const hl::Hello& h = m.hello;
      if (h.num_joints > HODYN_MAX_JOINTS || h.num_rotors > HODYN_MAX_ROTORS) return false;
      if (h.role != hl::hello_role::kSimulator && h.role != hl::hello_role::kController)
        return false;
      std::size_t n = 0;
      while (n < HODYN_NAME_LENGTH && h.robot_name[n] != '\0') ++n;
      if (n == HODYN_NAME_LENGTH) return false;
      for (; n < HODYN_NAME_LENGTH; ++n)
        if (h.robot_name[n] != '\0') return false;
      return true;
    }
  }
  return false;
}

/// Entries [count, size) of `a` set to 0.
inline void zero_past(double* a, std::uint32_t count, std::uint32_t size) {
  for (std::uint32_t k = count; k < size; ++k) a[k] = 0.0;
}

/// A message an encoder accepts, from the input: type, header fields, and
/// `n` input bytes at an input-chosen offset of the payload (zeros elsewhere);
/// then made what a receiver would decode (counts and mode in range, a valid
/// role and name, reserved fields and the fields the type does not carry
/// zero, and, since protocol 4 sends arrays for the counts in use only, the
/// entries past the counts zero).

inline hl::Message message_from(FuzzInput& in) {
  hl::Message m{};
  m.type = static_cast<hl::MessageType>(1 + in.byte() % 4);
  m.link_sequence = in.u32();
  m.status_bits = in.u32();
  m.answered_sequence = in.u32();
  std::uint8_t* payload = nullptr;
  std::size_t size = 0;
  switch (m.type) {
    case hl::MessageType::kSensors:
      payload = reinterpret_cast<std::uint8_t*>(&m.sensors);
      size = sizeof m.sensors;
      break;
    case hl::MessageType::kCommand:
      payload = reinterpret_cast<std::uint8_t*>(&m.command);
      size = sizeof m.command;
      break;
    case hl::MessageType::kReference:
      payload = reinterpret_cast<std::uint8_t*>(&m.reference);
      size = sizeof m.reference;
      break;
    case hl::MessageType::kHello:
      payload = reinterpret_cast<std::uint8_t*>(&m.hello);
      size = sizeof m.hello;
      break;
  }
  const std::size_t offset = (4u * in.byte()) % size;
  std::size_t n = in.byte();
  if (n > size - offset) n = size - offset;
  in.bytes(payload + offset, n);
  switch (m.type) {
    case hl::MessageType::kSensors: {
      hodyn_sensors& x = m.sensors;
      x.num_joints %= HODYN_MAX_JOINTS + 1;
      x.num_rotors %= HODYN_MAX_ROTORS + 1;
      x.reserved = 0;
      for (double* a : {x.joint_position, x.joint_velocity, x.motor_position, x.motor_velocity})
        zero_past(a, x.num_joints, HODYN_MAX_JOINTS);
      zero_past(x.rotor_speed, x.num_rotors, HODYN_MAX_ROTORS);
      m.answered_sequence = 0;
      break;
    }
    case hl::MessageType::kCommand:
      m.command.num_joints %= HODYN_MAX_JOINTS + 1;
      m.command.num_rotors %= HODYN_MAX_ROTORS + 1;
      m.command.mode %= HODYN_MODE_HOVER + 1;
      zero_past(m.command.motor_torque, m.command.num_joints, HODYN_MAX_JOINTS);
      zero_past(m.command.rotor_speed, m.command.num_rotors, HODYN_MAX_ROTORS);
      break;
    case hl::MessageType::kReference:
      m.reference.num_joints %= HODYN_MAX_JOINTS + 1;
      m.reference.reserved = 0;
      for (auto& row : m.reference.joint_position)
        zero_past(row, m.reference.num_joints, HODYN_MAX_JOINTS);
      m.status_bits = 0;
      m.answered_sequence = 0;
      break;
    case hl::MessageType::kHello: {
      hl::Hello& h = m.hello;
      h.num_joints %= HODYN_MAX_JOINTS + 1;
      h.num_rotors %= HODYN_MAX_ROTORS + 1;
      h.role = 1 + h.role % 2;
      bool ended = false;
      for (std::size_t k = 0; k < HODYN_NAME_LENGTH; ++k) {
        if (k + 1 == HODYN_NAME_LENGTH) h.robot_name[k] = '\0';
        if (ended) h.robot_name[k] = '\0';
        ended = ended || h.robot_name[k] == '\0';
      }
      m.status_bits = 0;
      m.answered_sequence = 0;
      break;
    }
  }
  return m;
}

/// The test key of both ends (any 32 bytes but all zero would do).
inline const std::uint8_t* test_key() {
  static const std::uint8_t key[hl::kLinkKeySize] = {
      0x1f, 0x8b, 0x3c, 0x55, 0x02, 0xe7, 0x9a, 0x41, 0x6d, 0xc0, 0x13,
      0x77, 0xb2, 0x28, 0xfe, 0x0a, 0x91, 0x4e, 0x35, 0xd8, 0x60, 0x0f,
      0xa3, 0x7c, 0xee, 0x19, 0x82, 0x5b, 0xc4, 0x3d, 0x06, 0xb9};
  return key;
}

/// The simulator end (it signs) and the controller end (it checks) of a
/// signed link, with a session started from the nonces when asked.
struct LinkEnds {
  hl::LinkKeys simulator, controller;

  explicit LinkEnds(bool keyed) {
    if (!keyed) return;
    HODYN_FUZZ_CHECK(simulator.set_master_key(test_key(), hl::kLinkKeySize,
                                              hl::LinkEnd::kSimulator) == hodyn::Status::kOk);
    HODYN_FUZZ_CHECK(controller.set_master_key(test_key(), hl::kLinkKeySize,
                                               hl::LinkEnd::kController) == hodyn::Status::kOk);
  }
  void start_session(const std::uint8_t* simulator_nonce, const std::uint8_t* controller_nonce) {
    simulator.start_session(simulator_nonce, controller_nonce);
    controller.start_session(simulator_nonce, controller_nonce);
  }
};

}  // namespace hodyn_fuzz
