// The frame encoder and decoder: header + payload + CRC, little-endian byte
// by byte, in exactly the field order of docs/link-protocol.md.
#include <cstring>

#include "hodyn/link/crc32.hpp"
#include "hodyn/link/protocol.hpp"
#include "hodyn/link/security.hpp"
#include "hodyn/link/siphash.hpp"
#include "validated_frame.hpp"

namespace hodyn {
namespace link {
namespace {

// Header field offsets.
constexpr std::size_t kVersionOffset = 2;
constexpr std::size_t kTypeOffset = 3;
constexpr std::size_t kLengthOffset = 4;
constexpr std::size_t kSequenceOffset = 6;

// Payload offsets of the fields the decoder validates.
constexpr std::size_t kSensorsJointsOffset = 12;
constexpr std::size_t kSensorsRotorsOffset = 16;
constexpr std::size_t kCommandJointsOffset = 12;
constexpr std::size_t kCommandRotorsOffset = 16;
constexpr std::size_t kCommandModeOffset = 20;
constexpr std::size_t kReferenceJointsOffset = 8;
constexpr std::size_t kHelloJointsOffset = 4;
constexpr std::size_t kHelloRotorsOffset = 8;
constexpr std::size_t kHelloRoleOffset = 12;
constexpr std::size_t kHelloNameOffset = 20;
constexpr std::uint8_t kTypeMask = 0x7F;

std::uint16_t load_u16(const std::uint8_t* p) noexcept {
  return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

std::uint32_t load_u32(const std::uint8_t* p) noexcept {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

std::uint64_t load_u64(const std::uint8_t* p) noexcept {
  return static_cast<std::uint64_t>(load_u32(p)) |
         (static_cast<std::uint64_t>(load_u32(p + 4)) << 32);
}

// What signs one frame: its key (null: unsigned) and counter.
struct Signature {
  const std::uint8_t* key = nullptr;
  std::uint64_t counter = 0;
};

// The signature of the next frame of `type` (unsigned without a signer or
// key); false when the signer has a key but cannot sign it.
bool take_signature(FrameSigner* signer, MessageType type, Signature& signature) noexcept {
  signature = Signature{};
  if (signer == nullptr) return true;
  return signer->next(type, signature.counter, signature.key) == Status::kOk;
}

// Writes a frame through the MAC, CRC and COBS at once: no intermediate buffer.
class FrameWriter {
 public:
  FrameWriter(std::uint8_t* out, const Signature& signature) noexcept
      : cobs_(out), out_(out), signature_(signature) {
    if (signature_.key != nullptr) mac_.reset(signature_.key);
  }

  void u8(std::uint8_t value) noexcept {
    if (signature_.key != nullptr) mac_.update(value);
    crc_.update(value);
    cobs_.put(value);
  }
  void u16(std::uint16_t value) noexcept {
    u8(static_cast<std::uint8_t>(value & 0xFFu));
    u8(static_cast<std::uint8_t>(value >> 8));
  }
  void u32(std::uint32_t value) noexcept {
    for (int shift = 0; shift < 32; shift += 8) u8(static_cast<std::uint8_t>(value >> shift));
  }
  void i32(std::int32_t value) noexcept { u32(static_cast<std::uint32_t>(value)); }
  // Reads the double from memory as its bit pattern (NaN payloads, -0 kept).
  void f64(const double& value) noexcept {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    for (int shift = 0; shift < 64; shift += 8) u8(static_cast<std::uint8_t>(bits >> shift));
  }
  void f64s(const double* values, std::size_t count) noexcept {
    for (std::size_t k = 0; k < count; ++k) f64(values[k]);
  }
  void header(MessageType type, std::size_t payload_size, std::uint32_t link_sequence) noexcept {
    u8(kMagic0);
    u8(kMagic1);
    u8(kProtocolVersion);
    const std::uint8_t flag = signature_.key != nullptr ? kSignedFlag : std::uint8_t{0};
    u8(static_cast<std::uint8_t>(static_cast<std::uint8_t>(type) | flag));
    u16(static_cast<std::uint16_t>(payload_size));
    u32(link_sequence);
  }
  // Appends the signature (counter, then the tag over everything before it),
  // the CRC (not itself checksummed) and the delimiter; returns the wire size.
  std::size_t finish() noexcept {
    if (signature_.key != nullptr) {
      for (int shift = 0; shift < 64; shift += 8)
        u8(static_cast<std::uint8_t>(signature_.counter >> shift));
      std::uint8_t tag[kTagSize];
      mac_.finish(tag);
      for (std::uint8_t byte : tag) {
        crc_.update(byte);
        cobs_.put(byte);
      }
    }
    const std::uint32_t crc = crc_.value();
    for (int shift = 0; shift < 32; shift += 8) cobs_.put(static_cast<std::uint8_t>(crc >> shift));
    const std::size_t encoded = cobs_.finish();
    out_[encoded] = 0x00;
    return encoded + 1;
  }

 private:
  Crc32 crc_;
  CobsWriter cobs_;
  std::uint8_t* out_;
  Signature signature_;
  SipHash128 mac_;
};

// Reads payload fields in order from a frame that validate_frame accepted.
class FrameReader {
 public:
  explicit FrameReader(const std::uint8_t* payload) noexcept : p_(payload) {}

  std::uint32_t u32() noexcept {
    const std::uint32_t value = load_u32(p_);
    p_ += 4;
    return value;
  }
  std::int32_t i32() noexcept {
    const std::uint32_t bits = u32();
    std::int32_t value = 0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  // Writes the bit pattern straight into the destination's memory.
  void f64(double& value) noexcept {
    std::uint64_t bits = 0;
    for (int k = 7; k >= 0; --k) bits = (bits << 8) | p_[k];
    p_ += 8;
    std::memcpy(&value, &bits, sizeof bits);
  }
  void f64s(double* values, std::size_t count) noexcept {
    for (std::size_t k = 0; k < count; ++k) f64(values[k]);
  }
  void chars(char* text, std::size_t count) noexcept {
    for (std::size_t k = 0; k < count; ++k) text[k] = static_cast<char>(*p_++);
  }
  void bytes(std::uint8_t* data, std::size_t count) noexcept {
    for (std::size_t k = 0; k < count; ++k) data[k] = *p_++;
  }

 private:
  const std::uint8_t* p_;
};

std::size_t payload_size_of(std::uint8_t type) noexcept {
  switch (static_cast<MessageType>(type & kTypeMask)) {
    case MessageType::kSensors:
      return kSensorsPayloadSize;
    case MessageType::kCommand:
      return kCommandPayloadSize;
    case MessageType::kReference:
      return kReferencePayloadSize;
    case MessageType::kHello:
      return kHelloPayloadSize;
  }
  return 0;  // unknown type
}

bool counts_valid(std::uint32_t joints, std::uint32_t rotors) noexcept {
  return joints <= HODYN_MAX_JOINTS && rotors <= HODYN_MAX_ROTORS;
}

bool role_valid(std::uint32_t role) noexcept {
  return role == hello_role::kSimulator || role == hello_role::kController;
}

// Length of a name field up to its first NUL; HODYN_NAME_LENGTH when it has none.
std::size_t name_length(const char* name) noexcept {
  std::size_t n = 0;
  while (n < HODYN_NAME_LENGTH && name[n] != '\0') ++n;
  return n;
}

// A name on the wire: a NUL within the field and only zeros after it.
bool wire_name_valid(const std::uint8_t* name) noexcept {
  std::size_t n = 0;
  while (n < HODYN_NAME_LENGTH && name[n] != 0) ++n;
  if (n == HODYN_NAME_LENGTH) return false;
  for (; n < HODYN_NAME_LENGTH; ++n)
    if (name[n] != 0) return false;
  return true;
}

// Decodes a frame validate_frame() accepted (`size`: the whole frame).
void decode_payload(const std::uint8_t* frame, std::size_t size, Message& m) noexcept {
  m.type = static_cast<MessageType>(frame[kTypeOffset] & kTypeMask);
  m.link_sequence = load_u32(frame + kSequenceOffset);
  m.status_bits = 0;
  m.answered_sequence = 0;
  m.counter = (frame[kTypeOffset] & kSignedFlag) != 0
                  ? load_u64(frame + size - kCrcSize - kTagSize - kCounterSize)
                  : 0u;
  FrameReader r(frame + kHeaderSize);
  switch (m.type) {
    case MessageType::kSensors: {
      hodyn_sensors& s = m.sensors;
      r.f64(s.time);
      s.sequence = r.u32();
      s.num_joints = r.u32();
      s.num_rotors = r.u32();
      m.status_bits = r.u32();
      s.reserved = 0;
      r.f64s(s.base_position, 3);
      r.f64s(s.base_orientation, 4);
      r.f64s(s.base_linear_velocity, 3);
      r.f64s(s.base_angular_velocity, 3);
      r.f64s(s.joint_position, HODYN_MAX_JOINTS);
      r.f64s(s.joint_velocity, HODYN_MAX_JOINTS);
      r.f64s(s.motor_position, HODYN_MAX_JOINTS);
      r.f64s(s.motor_velocity, HODYN_MAX_JOINTS);
      r.f64s(s.rotor_speed, HODYN_MAX_ROTORS);
      break;
    }
    case MessageType::kCommand: {
      hodyn_command& c = m.command;
      r.f64(c.time);
      m.answered_sequence = r.u32();
      c.num_joints = r.u32();
      c.num_rotors = r.u32();
      c.mode = r.u32();
      c.status = r.i32();
      m.status_bits = r.u32();
      r.f64s(c.rotor_speed, HODYN_MAX_ROTORS);
      r.f64s(c.motor_torque, HODYN_MAX_JOINTS);
      break;
    }
    case MessageType::kReference: {
      hodyn_reference& ref = m.reference;
      r.f64(ref.time);
      ref.num_joints = r.u32();
      ref.reserved = 0;
      for (auto& row : ref.base_position) r.f64s(row, 3);
      r.f64s(ref.base_orientation, 4);
      for (auto& row : ref.base_angular_velocity) r.f64s(row, 3);
      for (auto& row : ref.joint_position) r.f64s(row, HODYN_MAX_JOINTS);
      break;
    }
    case MessageType::kHello: {
      Hello& h = m.hello;
      h.robot_id = r.u32();
      h.num_joints = r.u32();
      h.num_rotors = r.u32();
      h.role = r.u32();
      h.status = r.i32();
      r.chars(h.robot_name, HODYN_NAME_LENGTH);
      r.bytes(h.nonce, kNonceSize);
      r.bytes(h.peer_nonce, kNonceSize);
      break;
    }
  }
}

void zero(Message& message) noexcept { message = Message{}; }

}  // namespace

// ---- encoder -----------------------------------------------------------------

namespace {

// The checks every encoder makes after its own argument checks: room for the
// frame (signed when the signer has a key), then the signature (a counter is
// spent only when the frame is written).
Status begin(FrameSigner* signer, MessageType type, std::size_t payload, std::size_t capacity,
             Signature& signature) noexcept {
  const bool signing = signer != nullptr && signer->enabled();
  const std::size_t room = wire_size(signing ? signed_frame_size(payload) : frame_size(payload));
  if (capacity < room) return Status::kInvalidArgument;
  return take_signature(signer, type, signature) ? Status::kOk : Status::kNotConfigured;
}

}  // namespace

Status encode(const hodyn_sensors& s, std::uint32_t status_bits, std::uint32_t link_sequence,
              std::uint8_t* out, std::size_t capacity, std::size_t& written,
              FrameSigner* signer) noexcept {
  written = 0;
  if (out == nullptr || !counts_valid(s.num_joints, s.num_rotors)) return Status::kInvalidArgument;
  Signature sig;
  const Status ready = begin(signer, MessageType::kSensors, kSensorsPayloadSize, capacity, sig);
  if (ready != Status::kOk) return ready;
  FrameWriter w(out, sig);
  w.header(MessageType::kSensors, kSensorsPayloadSize, link_sequence);
  w.f64(s.time);
  w.u32(s.sequence);
  w.u32(s.num_joints);
  w.u32(s.num_rotors);
  w.u32(status_bits);
  w.f64s(s.base_position, 3);
  w.f64s(s.base_orientation, 4);
  w.f64s(s.base_linear_velocity, 3);
  w.f64s(s.base_angular_velocity, 3);
  w.f64s(s.joint_position, HODYN_MAX_JOINTS);
  w.f64s(s.joint_velocity, HODYN_MAX_JOINTS);
  w.f64s(s.motor_position, HODYN_MAX_JOINTS);
  w.f64s(s.motor_velocity, HODYN_MAX_JOINTS);
  w.f64s(s.rotor_speed, HODYN_MAX_ROTORS);
  written = w.finish();
  return Status::kOk;
}

Status encode(const hodyn_command& c, std::uint32_t answered_sequence, std::uint32_t status_bits,
              std::uint32_t link_sequence, std::uint8_t* out, std::size_t capacity,
              std::size_t& written, FrameSigner* signer) noexcept {
  written = 0;
  if (out == nullptr || !counts_valid(c.num_joints, c.num_rotors) || c.mode > HODYN_MODE_HOVER) {
    return Status::kInvalidArgument;
  }
  Signature sig;
  const Status ready = begin(signer, MessageType::kCommand, kCommandPayloadSize, capacity, sig);
  if (ready != Status::kOk) return ready;
  FrameWriter w(out, sig);
  w.header(MessageType::kCommand, kCommandPayloadSize, link_sequence);
  w.f64(c.time);
  w.u32(answered_sequence);
  w.u32(c.num_joints);
  w.u32(c.num_rotors);
  w.u32(c.mode);
  w.i32(c.status);
  w.u32(status_bits);
  w.f64s(c.rotor_speed, HODYN_MAX_ROTORS);
  w.f64s(c.motor_torque, HODYN_MAX_JOINTS);
  written = w.finish();
  return Status::kOk;
}

Status encode(const hodyn_reference& ref, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written, FrameSigner* signer) noexcept {
  written = 0;
  if (out == nullptr || ref.num_joints > HODYN_MAX_JOINTS) return Status::kInvalidArgument;
  Signature sig;
  const Status ready = begin(signer, MessageType::kReference, kReferencePayloadSize, capacity, sig);
  if (ready != Status::kOk) return ready;
  FrameWriter w(out, sig);
  w.header(MessageType::kReference, kReferencePayloadSize, link_sequence);
  w.f64(ref.time);
  w.u32(ref.num_joints);
  for (auto& row : ref.base_position) w.f64s(row, 3);
  w.f64s(ref.base_orientation, 4);
  for (auto& row : ref.base_angular_velocity) w.f64s(row, 3);
  for (auto& row : ref.joint_position) w.f64s(row, HODYN_MAX_JOINTS);
  written = w.finish();
  return Status::kOk;
}

Status encode(const Hello& h, std::uint32_t link_sequence, std::uint8_t* out, std::size_t capacity,
              std::size_t& written, FrameSigner* signer) noexcept {
  written = 0;
  const std::size_t name = name_length(h.robot_name);
  if (out == nullptr || !counts_valid(h.num_joints, h.num_rotors) || !role_valid(h.role) ||
      name == HODYN_NAME_LENGTH) {
    return Status::kInvalidArgument;
  }
  Signature sig;
  const Status ready = begin(signer, MessageType::kHello, kHelloPayloadSize, capacity, sig);
  if (ready != Status::kOk) return ready;
  FrameWriter w(out, sig);
  w.header(MessageType::kHello, kHelloPayloadSize, link_sequence);
  w.u32(h.robot_id);
  w.u32(h.num_joints);
  w.u32(h.num_rotors);
  w.u32(h.role);
  w.i32(h.status);
  for (std::size_t k = 0; k < HODYN_NAME_LENGTH; ++k)
    w.u8(k < name ? static_cast<std::uint8_t>(h.robot_name[k]) : std::uint8_t{0});
  for (std::uint8_t byte : h.nonce) w.u8(byte);
  for (std::uint8_t byte : h.peer_nonce) w.u8(byte);
  written = w.finish();
  return Status::kOk;
}

Status encode(const Message& message, std::uint8_t* out, std::size_t capacity, std::size_t& written,
              FrameSigner* signer) noexcept {
  switch (message.type) {
    case MessageType::kSensors:
      return encode(message.sensors, message.status_bits, message.link_sequence, out, capacity,
                    written, signer);
    case MessageType::kCommand:
      return encode(message.command, message.answered_sequence, message.status_bits,
                    message.link_sequence, out, capacity, written, signer);
    case MessageType::kReference:
      return encode(message.reference, message.link_sequence, out, capacity, written, signer);
    case MessageType::kHello:
      return encode(message.hello, message.link_sequence, out, capacity, written, signer);
  }
  written = 0;
  return Status::kInvalidArgument;
}

// ---- decoder -----------------------------------------------------------------

namespace {

// Every check but the signature's (validate_frame runs that in between).
RejectReason check_structure(const std::uint8_t* frame, std::size_t size) noexcept {
  if (frame == nullptr || size < kHeaderSize + kCrcSize) return RejectReason::kTooShort;
  const std::size_t checked = size - kCrcSize;
  if (crc32(frame, checked) != load_u32(frame + checked)) return RejectReason::kBadCrc;
  if (frame[0] != kMagic0 || frame[1] != kMagic1) return RejectReason::kBadMagic;
  if (frame[kVersionOffset] != kProtocolVersion) return RejectReason::kBadVersion;
  return RejectReason::kNone;
}

// The type, length and value checks; `body`: header + payload (no signature, no CRC).
RejectReason check_content(const std::uint8_t* frame, std::size_t body) noexcept {
  const std::size_t expected = payload_size_of(frame[kTypeOffset]);
  if (expected == 0) return RejectReason::kUnknownType;
  const std::size_t declared = load_u16(frame + kLengthOffset);
  if (declared != body - kHeaderSize || declared != expected) return RejectReason::kBadLength;

  const std::uint8_t* payload = frame + kHeaderSize;
  switch (static_cast<MessageType>(frame[kTypeOffset] & kTypeMask)) {
    case MessageType::kSensors:
      if (!counts_valid(load_u32(payload + kSensorsJointsOffset),
                        load_u32(payload + kSensorsRotorsOffset))) {
        return RejectReason::kBadValue;
      }
      break;
    case MessageType::kCommand:
      if (!counts_valid(load_u32(payload + kCommandJointsOffset),
                        load_u32(payload + kCommandRotorsOffset)) ||
          load_u32(payload + kCommandModeOffset) > HODYN_MODE_HOVER) {
        return RejectReason::kBadValue;
      }
      break;
    case MessageType::kReference:
      if (load_u32(payload + kReferenceJointsOffset) > HODYN_MAX_JOINTS) {
        return RejectReason::kBadValue;
      }
      break;
    case MessageType::kHello:
      if (!counts_valid(load_u32(payload + kHelloJointsOffset),
                        load_u32(payload + kHelloRotorsOffset)) ||
          !role_valid(load_u32(payload + kHelloRoleOffset)) ||
          !wire_name_valid(payload + kHelloNameOffset)) {
        return RejectReason::kBadValue;
      }
      break;
  }
  return RejectReason::kNone;
}

}  // namespace

RejectReason validate_frame(const std::uint8_t* frame, std::size_t size,
                            FrameVerifier* verifier) noexcept {
  RejectReason reason = check_structure(frame, size);
  if (reason != RejectReason::kNone) return reason;
  const bool keyed = verifier != nullptr && verifier->enabled();
  std::size_t body = size - kCrcSize;
  if ((frame[kTypeOffset] & kSignedFlag) != 0) {
    if (!keyed) return RejectReason::kNoKey;
    reason = verifier->check(frame, size);
    if (reason != RejectReason::kNone) return reason;
    body -= kSignatureSize;
  } else if (keyed) {
    return RejectReason::kUnsigned;
  }
  reason = check_content(frame, body);
  if (reason == RejectReason::kNone && keyed) verifier->commit();
  return reason;
}

Status decode_frame(const std::uint8_t* frame, std::size_t size, Message& message,
                    RejectReason& reason, FrameVerifier* verifier) noexcept {
  if (frame == nullptr) {
    reason = RejectReason::kNone;
    zero(message);
    return Status::kInvalidArgument;
  }
  reason = validate_frame(frame, size, verifier);
  if (reason != RejectReason::kNone) {
    zero(message);
    return Status::kCorruptInput;
  }
  decode_payload(frame, size, message);
  return Status::kOk;
}

namespace detail {
void decode_validated_frame(const std::uint8_t* frame, std::size_t size,
                            Message& message) noexcept {
  decode_payload(frame, size, message);
}
}  // namespace detail

}  // namespace link
}  // namespace hodyn
