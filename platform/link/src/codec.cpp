// The frame encoder and decoder: header + payload + CRC, little-endian byte
// by byte, in exactly the field order of docs/link-protocol.md; arrays for
// the entries in use only (their counts come first in every payload).
#include <cstring>

#include "byte_order.hpp"
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
constexpr std::uint8_t kTypeMask = 0x3F;  // bits 0-5: the message type

// A double's bytes in memory are its wire bytes (the IEEE-754 pattern,
// little-endian) on a little-endian host: arrays are then copied whole
// instead of assembled byte by byte (the wire format is the same).
#if defined(__BYTE_ORDER__) && defined(__FLOAT_WORD_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && __FLOAT_WORD_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr bool kWireOrderDoubles = true;
#else
constexpr bool kWireOrderDoubles = false;
#endif

std::uint16_t load_u16(const std::uint8_t* p) noexcept {
  return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

// One (unaligned) access on a little-endian host (byte_order.hpp).
std::uint32_t load_u32(const std::uint8_t* p) noexcept { return detail::load_le32(p); }

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

// Writes a frame's bytes into a buffer, then signs (MAC), seals (CRC) and
// COBS-encodes it in bulk: a store per byte while writing, instead of a call
// into the MAC, the CRC and the COBS writer for every byte (docs/firmware.md,
// "Budgets").
class FrameWriter {
 public:
  FrameWriter(std::uint8_t* out, const Signature& signature,
              ValueFormat format = ValueFormat::kFloat64) noexcept
      : out_(out), signature_(signature), float32_(format == ValueFormat::kFloat32) {}

  void u8(std::uint8_t value) noexcept { frame_[size_++] = value; }
  void u16(std::uint16_t value) noexcept {
    u8(static_cast<std::uint8_t>(value & 0xFFu));
    u8(static_cast<std::uint8_t>(value >> 8));
  }
  void u32(std::uint32_t value) noexcept {
    detail::store_le32(value, frame_ + size_);
    size_ += sizeof value;
  }
  void i32(std::int32_t value) noexcept { u32(static_cast<std::uint32_t>(value)); }
  // Reads the double from memory as its bit pattern (NaN payloads, -0 kept).
  void f64(const double& value) noexcept {
    if (kWireOrderDoubles) {
      std::memcpy(frame_ + size_, &value, sizeof value);
      size_ += sizeof value;
      return;
    }
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    for (int shift = 0; shift < 64; shift += 8) u8(static_cast<std::uint8_t>(bits >> shift));
  }
  void f64s(const double* values, std::size_t count) noexcept {
    if (kWireOrderDoubles) {
      std::memcpy(frame_ + size_, values, 8 * count);
      size_ += 8 * count;
      return;
    }
    for (std::size_t k = 0; k < count; ++k) f64(values[k]);
  }
  // Real values in the frame's format: binary64, or binary32 rounded to nearest.
  void values(const double* v, std::size_t count) noexcept {
    if (!float32_) {
      f64s(v, count);
      return;
    }
    for (std::size_t k = 0; k < count; ++k) {
      const float f = static_cast<float>(v[k]);
      std::uint32_t bits = 0;
      std::memcpy(&bits, &f, sizeof bits);
      u32(bits);
    }
  }
  // Float values (plugin/float_frames.hpp): binary32 as they are, or
  // widened exactly to binary64.
  void values(const float* v, std::size_t count) noexcept {
    if (!float32_) {
      for (std::size_t k = 0; k < count; ++k) f64(static_cast<double>(v[k]));
      return;
    }
    // A word store each (the arrays are short: a memcpy call cost more).
    for (std::size_t k = 0; k < count; ++k) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &v[k], sizeof bits);
      u32(bits);
    }
  }
  void header(MessageType type, std::size_t payload_size, std::uint32_t link_sequence) noexcept {
    u8(kMagic0);
    u8(kMagic1);
    u8(kProtocolVersion);
    std::uint8_t flag = signature_.key != nullptr ? kSignedFlag : std::uint8_t{0};
    if (float32_) flag = static_cast<std::uint8_t>(flag | kFloat32Flag);
    u8(static_cast<std::uint8_t>(static_cast<std::uint8_t>(type) | flag));
    u16(static_cast<std::uint16_t>(payload_size));
    u32(link_sequence);
  }

  // Appends the signature (when signing: counter, then the tag over
  // everything before it) and the CRC, COBS-encodes the frame into `out`
  // with its delimiter; returns the wire size.
  std::size_t finish() noexcept {
    if (signature_.key != nullptr) {
      for (int shift = 0; shift < 64; shift += 8)
        u8(static_cast<std::uint8_t>(signature_.counter >> shift));
      std::uint8_t tag[kTagSize];
      siphash128(signature_.key, frame_, size_, tag);
      for (std::uint8_t byte : tag) u8(byte);
    }
    u32(crc32(frame_, size_));
    std::size_t encoded = 0;
    // Cannot fail: the encoders checked the room for wire_size(size_).
    (void)cobs_encode(frame_, size_, out_, cobs_max_encoded_size(size_), encoded);
    out_[encoded] = 0x00;
    return encoded + 1;
  }

 private:
  std::uint8_t frame_[kMaxFrameSize];
  std::size_t size_ = 0;
  std::uint8_t* out_;
  Signature signature_;
  bool float32_;
};

// Reads payload fields in order from a frame that validate_frame accepted.
class FrameReader {
 public:
  FrameReader(const std::uint8_t* payload, bool float32) noexcept
      : p_(payload), float32_(float32) {}

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
    if (kWireOrderDoubles) {
      std::memcpy(&value, p_, sizeof value);
      p_ += sizeof value;
      return;
    }
    std::uint64_t bits = 0;
    for (int k = 7; k >= 0; --k) bits = (bits << 8) | p_[k];
    p_ += 8;
    std::memcpy(&value, &bits, sizeof bits);
  }
  void f64s(double* values, std::size_t count) noexcept {
    if (kWireOrderDoubles) {
      std::memcpy(values, p_, 8 * count);
      p_ += 8 * count;
      return;
    }
    for (std::size_t k = 0; k < count; ++k) f64(values[k]);
  }
  // Real values in the frame's format (binary32 widened exactly to double).
  void values(double* v, std::size_t count) noexcept {
    if (!float32_) {
      f64s(v, count);
      return;
    }
    for (std::size_t k = 0; k < count; ++k) v[k] = next_float();
  }
  // The next binary32 value, widened exactly to double. (Widened in integer
  // instructions instead of the Cortex-M4F's library call, the F405's link
  // part grew by ~500 instructions a period: the call is as short.)
  double next_float() noexcept {
    const std::uint32_t bits = u32();
    float f = 0.0f;
    std::memcpy(&f, &bits, sizeof f);
    return static_cast<double>(f);
  }
  // `count` values from the frame, zeros for the rest of the `capacity`.
  void values(double* v, std::size_t count, std::size_t capacity) noexcept {
    if (!float32_) {
      values(v, count);
      for (std::size_t k = count; k < capacity; ++k) v[k] = 0.0;
      return;
    }
    // One loop for both (the zeros in a loop of their own became a memset
    // call per array: ~48 instructions each on the Cortex-M4).
    for (std::size_t k = 0; k < capacity; ++k) v[k] = k < count ? next_float() : 0.0;
  }
  // Into float values (plugin/float_frames.hpp): binary32 as they came,
  // binary64 rounded to nearest; zeros for the rest of the `capacity`.
  void values(float* v, std::size_t count, std::size_t capacity) noexcept {
    if (!float32_) {  // rounded to nearest; the zeros without a conversion
      for (std::size_t k = 0; k < capacity; ++k) {
        float f = 0.0f;
        if (k < count) {
          double d = 0.0;
          f64(d);
          f = static_cast<float>(d);
        }
        v[k] = f;
      }
      return;
    }
    // A word load and store each, the zeros in the same loop: a memcpy and
    // a memset call per array instead cost the F405's link part ~450
    // instructions a period (the arrays are short).
    // Through a local float: g++ 12 at -O3 took the memcpy straight into
    // v[k] for an overflow of the destination (-Wstringop-overflow, a false
    // positive that failed the Release -Werror build).
    for (std::size_t k = 0; k < capacity; ++k) {
      const std::uint32_t bits = k < count ? u32() : 0u;
      float f;
      std::memcpy(&f, &bits, sizeof f);
      v[k] = f;
    }
  }
  void values(float* v, std::size_t count) noexcept { values(v, count, count); }
  void chars(char* text, std::size_t count) noexcept {
    for (std::size_t k = 0; k < count; ++k) text[k] = static_cast<char>(*p_++);
  }
  void bytes(std::uint8_t* data, std::size_t count) noexcept {
    for (std::size_t k = 0; k < count; ++k) data[k] = *p_++;
  }

 private:
  const std::uint8_t* p_;
  bool float32_;
};

bool counts_valid(std::uint32_t joints, std::uint32_t rotors) noexcept {
  return joints <= HODYN_MAX_JOINTS && rotors <= HODYN_MAX_ROTORS;
}

// The payload size of the type byte `type` (its kFloat32Flag too) with the
// counts (valid ones); 0 for an unknown type and for a HELLO with the flag.
std::size_t payload_size_of(std::uint8_t type, std::size_t joints, std::size_t rotors) noexcept {
  const std::size_t value_bytes = (type & kFloat32Flag) != 0 ? 4 : 8;
  switch (static_cast<MessageType>(type & kTypeMask)) {
    case MessageType::kSensors:
      return sensors_payload_size(joints, rotors, value_bytes);
    case MessageType::kCommand:
      return command_payload_size(joints, rotors, value_bytes);
    case MessageType::kReference:
      return reference_payload_size(joints, value_bytes);
    case MessageType::kHello:
      return value_bytes == 8 ? kHelloPayloadSize : 0;
  }
  return 0;  // unknown type
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

// A SENSORS payload's fields after its status bits, into the double or
// the float frame.
// Decodes a frame validate_frame() accepted (`size`: the whole frame).
void decode_payload(const std::uint8_t* frame, std::size_t size, Message& m) noexcept {
  m.type = static_cast<MessageType>(frame[kTypeOffset] & kTypeMask);
  const bool float32 = (frame[kTypeOffset] & kFloat32Flag) != 0;
  m.format = float32 ? ValueFormat::kFloat32 : ValueFormat::kFloat64;
  m.float_frames = false;
  m.link_sequence = load_u32(frame + kSequenceOffset);
  m.status_bits = 0;
  m.answered_sequence = 0;
  m.counter = (frame[kTypeOffset] & kSignedFlag) != 0
                  ? load_u64(frame + size - kCrcSize - kTagSize - kCounterSize)
                  : 0u;
  FrameReader r(frame + kHeaderSize, float32);
  switch (m.type) {
    case MessageType::kSensors: {
      hodyn_sensors& s = m.sensors;
      r.f64(s.time);
      s.sequence = r.u32();
      s.num_joints = r.u32();
      s.num_rotors = r.u32();
      m.status_bits = r.u32();
      s.reserved = 0;
      r.values(s.base_position, 3);
      r.values(s.base_orientation, 4);
      r.values(s.base_linear_velocity, 3);
      r.values(s.base_angular_velocity, 3);
      r.values(s.joint_position, s.num_joints, HODYN_MAX_JOINTS);
      r.values(s.joint_velocity, s.num_joints, HODYN_MAX_JOINTS);
      r.values(s.motor_position, s.num_joints, HODYN_MAX_JOINTS);
      r.values(s.motor_velocity, s.num_joints, HODYN_MAX_JOINTS);
      r.values(s.rotor_speed, s.num_rotors, HODYN_MAX_ROTORS);
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
      r.values(c.rotor_speed, c.num_rotors, HODYN_MAX_ROTORS);
      r.values(c.motor_torque, c.num_joints, HODYN_MAX_JOINTS);
      break;
    }
    case MessageType::kReference: {
      hodyn_reference& ref = m.reference;
      r.f64(ref.time);
      ref.num_joints = r.u32();
      ref.reserved = 0;
      for (auto& row : ref.base_position) r.values(row, 3);
      r.values(ref.base_orientation, 4);
      for (auto& row : ref.base_angular_velocity) r.values(row, 3);
      for (auto& row : ref.joint_position) r.values(row, ref.num_joints, HODYN_MAX_JOINTS);
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

// The same into the float frames (SENSORS, REFERENCE; the other types as
// decode_payload). A function of its own, so that decode_payload, the double
// images' decoder, compiles as before (Cortex-M7: the link part grew by ~100
// instructions a period with both in one function).
__attribute__((noinline)) void decode_payload_float(const std::uint8_t* frame, std::size_t size,
                                                    Message& m) noexcept {
  const auto type = static_cast<MessageType>(frame[kTypeOffset] & kTypeMask);
  if (type != MessageType::kSensors && type != MessageType::kReference) {
    decode_payload(frame, size, m);
    return;
  }
  m.type = type;
  const bool float32 = (frame[kTypeOffset] & kFloat32Flag) != 0;
  m.format = float32 ? ValueFormat::kFloat32 : ValueFormat::kFloat64;
  m.float_frames = true;
  m.link_sequence = load_u32(frame + kSequenceOffset);
  m.status_bits = 0;
  m.answered_sequence = 0;
  m.counter = (frame[kTypeOffset] & kSignedFlag) != 0
                  ? load_u64(frame + size - kCrcSize - kTagSize - kCounterSize)
                  : 0u;
  FrameReader r(frame + kHeaderSize, float32);
  if (type == MessageType::kSensors) {
    plugin::SensorsF32& s = m.sensors_f32;
    r.f64(s.time);
    s.sequence = r.u32();
    s.num_joints = r.u32();
    s.num_rotors = r.u32();
    m.status_bits = r.u32();
    s.reserved = 0;
    r.values(s.base_position, 3);
    r.values(s.base_orientation, 4);
    r.values(s.base_linear_velocity, 3);
    r.values(s.base_angular_velocity, 3);
    r.values(s.joint_position, s.num_joints, HODYN_MAX_JOINTS);
    r.values(s.joint_velocity, s.num_joints, HODYN_MAX_JOINTS);
    r.values(s.motor_position, s.num_joints, HODYN_MAX_JOINTS);
    r.values(s.motor_velocity, s.num_joints, HODYN_MAX_JOINTS);
    r.values(s.rotor_speed, s.num_rotors, HODYN_MAX_ROTORS);
    return;
  }
  plugin::ReferenceF32& ref = m.reference_f32;
  r.f64(ref.time);
  ref.num_joints = r.u32();
  ref.reserved = 0;
  for (auto& row : ref.base_position) r.values(row, 3);
  r.values(ref.base_orientation, 4);
  for (auto& row : ref.base_angular_velocity) r.values(row, 3);
  for (auto& row : ref.joint_position) r.values(row, ref.num_joints, HODYN_MAX_JOINTS);
}

void zero(Message& message) noexcept { message = Message{}; }

}  // namespace

// ---- encoder -----------------------------------------------------------------

namespace {

std::size_t value_bytes_of(ValueFormat format) noexcept {
  return format == ValueFormat::kFloat32 ? 4 : 8;
}

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
              std::uint8_t* out, std::size_t capacity, std::size_t& written, FrameSigner* signer,
              ValueFormat format) noexcept {
  written = 0;
  if (out == nullptr || !counts_valid(s.num_joints, s.num_rotors)) return Status::kInvalidArgument;
  const std::size_t payload =
      sensors_payload_size(s.num_joints, s.num_rotors, value_bytes_of(format));
  Signature sig;
  const Status ready = begin(signer, MessageType::kSensors, payload, capacity, sig);
  if (ready != Status::kOk) return ready;
  FrameWriter w(out, sig, format);
  w.header(MessageType::kSensors, payload, link_sequence);
  w.f64(s.time);
  w.u32(s.sequence);
  w.u32(s.num_joints);
  w.u32(s.num_rotors);
  w.u32(status_bits);
  w.values(s.base_position, 3);
  w.values(s.base_orientation, 4);
  w.values(s.base_linear_velocity, 3);
  w.values(s.base_angular_velocity, 3);
  w.values(s.joint_position, s.num_joints);
  w.values(s.joint_velocity, s.num_joints);
  w.values(s.motor_position, s.num_joints);
  w.values(s.motor_velocity, s.num_joints);
  w.values(s.rotor_speed, s.num_rotors);
  written = w.finish();
  return Status::kOk;
}

namespace {
template <class Command>
Status encode_command(const Command& c, std::uint32_t answered_sequence, std::uint32_t status_bits,
                      std::uint32_t link_sequence, std::uint8_t* out, std::size_t capacity,
                      std::size_t& written, FrameSigner* signer, ValueFormat format) noexcept {
  written = 0;
  if (out == nullptr || !counts_valid(c.num_joints, c.num_rotors) || c.mode > HODYN_MODE_HOVER) {
    return Status::kInvalidArgument;
  }
  const std::size_t payload =
      command_payload_size(c.num_joints, c.num_rotors, value_bytes_of(format));
  Signature sig;
  const Status ready = begin(signer, MessageType::kCommand, payload, capacity, sig);
  if (ready != Status::kOk) return ready;
  FrameWriter w(out, sig, format);
  w.header(MessageType::kCommand, payload, link_sequence);
  w.f64(c.time);
  w.u32(answered_sequence);
  w.u32(c.num_joints);
  w.u32(c.num_rotors);
  w.u32(c.mode);
  w.i32(c.status);
  w.u32(status_bits);
  w.values(c.rotor_speed, c.num_rotors);
  w.values(c.motor_torque, c.num_joints);
  written = w.finish();
  return Status::kOk;
}
}  // namespace

Status encode(const hodyn_command& c, std::uint32_t answered_sequence, std::uint32_t status_bits,
              std::uint32_t link_sequence, std::uint8_t* out, std::size_t capacity,
              std::size_t& written, FrameSigner* signer, ValueFormat format) noexcept {
  return encode_command(c, answered_sequence, status_bits, link_sequence, out, capacity, written,
                        signer, format);
}

Status encode(const plugin::CommandF32& c, std::uint32_t answered_sequence,
              std::uint32_t status_bits, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written, FrameSigner* signer,
              ValueFormat format) noexcept {
  return encode_command(c, answered_sequence, status_bits, link_sequence, out, capacity, written,
                        signer, format);
}

Status encode(const hodyn_reference& ref, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written, FrameSigner* signer,
              ValueFormat format) noexcept {
  written = 0;
  if (out == nullptr || ref.num_joints > HODYN_MAX_JOINTS) return Status::kInvalidArgument;
  const std::size_t payload = reference_payload_size(ref.num_joints, value_bytes_of(format));
  Signature sig;
  const Status ready = begin(signer, MessageType::kReference, payload, capacity, sig);
  if (ready != Status::kOk) return ready;
  FrameWriter w(out, sig, format);
  w.header(MessageType::kReference, payload, link_sequence);
  w.f64(ref.time);
  w.u32(ref.num_joints);
  for (auto& row : ref.base_position) w.values(row, 3);
  w.values(ref.base_orientation, 4);
  for (auto& row : ref.base_angular_velocity) w.values(row, 3);
  for (auto& row : ref.joint_position) w.values(row, ref.num_joints);
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
                    written, signer, message.format);
    case MessageType::kCommand:
      return encode(message.command, message.answered_sequence, message.status_bits,
                    message.link_sequence, out, capacity, written, signer, message.format);
    case MessageType::kReference:
      return encode(message.reference, message.link_sequence, out, capacity, written, signer,
                    message.format);
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

// The type, length and value checks; `body`: header + payload (no signature,
// no CRC), in this order (docs/link-protocol.md, "Receiving"):
//   kBadLength  the declared length is not the received one, or too short for
//               the payload's fixed fields (its size with no joints, no rotors);
//   kBadValue   a count the size depends on is above its capacity;
//   kBadLength  the length is not the size of the type with those counts;
//   kBadValue   the other values: a COMMAND's mode, a HELLO's counts, role, name.
RejectReason check_content(const std::uint8_t* frame, std::size_t body) noexcept {
  const std::uint8_t type = frame[kTypeOffset];
  const std::size_t smallest = payload_size_of(type, 0, 0);
  if (smallest == 0) return RejectReason::kUnknownType;
  const std::size_t declared = load_u16(frame + kLengthOffset);
  if (declared != body - kHeaderSize || declared < smallest) return RejectReason::kBadLength;

  const std::uint8_t* payload = frame + kHeaderSize;
  std::uint32_t joints = 0, rotors = 0;
  switch (static_cast<MessageType>(type & kTypeMask)) {
    case MessageType::kSensors:
      joints = load_u32(payload + kSensorsJointsOffset);
      rotors = load_u32(payload + kSensorsRotorsOffset);
      break;
    case MessageType::kCommand:
      joints = load_u32(payload + kCommandJointsOffset);
      rotors = load_u32(payload + kCommandRotorsOffset);
      break;
    case MessageType::kReference:
      joints = load_u32(payload + kReferenceJointsOffset);
      break;
    case MessageType::kHello:
      break;  // one size; its counts are values (below)
  }
  if (!counts_valid(joints, rotors)) return RejectReason::kBadValue;
  if (declared != payload_size_of(type, joints, rotors)) return RejectReason::kBadLength;

  switch (static_cast<MessageType>(type & kTypeMask)) {
    case MessageType::kCommand:
      if (load_u32(payload + kCommandModeOffset) > HODYN_MODE_HOVER) return RejectReason::kBadValue;
      break;
    case MessageType::kHello:
      if (!counts_valid(load_u32(payload + kHelloJointsOffset),
                        load_u32(payload + kHelloRotorsOffset)) ||
          !role_valid(load_u32(payload + kHelloRoleOffset)) ||
          !wire_name_valid(payload + kHelloNameOffset)) {
        return RejectReason::kBadValue;
      }
      break;
    case MessageType::kSensors:
    case MessageType::kReference:
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
void decode_validated_frame(const std::uint8_t* frame, std::size_t size, Message& message,
                            bool float_frames) noexcept {
  if (float_frames) {
    decode_payload_float(frame, size, message);
  } else {
    decode_payload(frame, size, message);
  }
}
}  // namespace detail

}  // namespace link
}  // namespace hodyn
