// hodyn/link/protocol.hpp — the hardware-in-the-loop link protocol between a
// plant simulator and a controller (specification: docs/link-protocol.md).
//
// Three messages carry the plugin ABI structs (hodyn/plugin/abi.h):
//   SENSORS    simulator → controller: hodyn_sensors + 32 plant status bits
//   COMMAND    controller → simulator: hodyn_command + the answered sensor
//              sequence + 32 controller status bits
//   REFERENCE  simulator → controller: hodyn_reference
// and one the handshake that starts every run (version 2):
//   HELLO      simulator → controller, answered controller → simulator: the
//              robot the sender flies (id, name, joint and rotor counts) and
//              the session nonces of signed links (version 3)
//
// A frame is header (10 bytes) + payload [+ signature: 64-bit
// counter and 16-byte tag, when the type byte's bit 7 says signed;
// hodyn/link/security.hpp] + CRC-32 (4 bytes) over everything before it,
// every field little-endian and written byte by byte (doubles as their
// IEEE-754 bit pattern). On the wire a frame is
// COBS-encoded and followed by one 0x00 delimiter, so the same bytes work on
// a serial stream and in a UDP datagram.
//
// Arrays are sent for the entries in use only (version 4): `num_joints`
// joint entries, `num_rotors` rotor entries, each before the arrays in its
// payload, so a payload's size follows from its type and counts (largest at
// HODYN_MAX_JOINTS / HODYN_MAX_ROTORS) and the entries past the counts decode
// as 0. The `reserved` fields of the ABI structs are not sent and decode as 0. Values
// are passed through unchanged, NaN and Inf included (the controller checks
// them); only counts and the mode, which a receiver would use as indices or
// switch on, are validated.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/link/cobs.hpp"
#include "hodyn/plugin/abi.h"
#include "hodyn/plugin/float_frames.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace link {

// ---- frame layout ----------------------------------------------------------

constexpr std::uint8_t kMagic0 = 0x48;  ///< 'H', first header byte
constexpr std::uint8_t kMagic1 = 0x4C;  ///< 'L', second header byte
/// 2: the HELLO handshake (a version-1 peer never answers it; its frames are
/// rejected as "bad version" at once instead of a silent start timeout).
/// 3: signed frames (the signature between payload and CRC, bit 7 of the type
/// byte) and the HELLO's session nonces (docs/link-security.md).
/// 4: arrays sized to the counts (frames sized to the robot, not the ABI's
/// capacity; docs/hil.md "Bit rate"): a version-3 peer's frames are rejected
/// as "bad version" instead of as bad lengths.
constexpr std::uint8_t kProtocolVersion = 4;
/// Bit 7 of the type byte: the frame carries a signature.
constexpr std::uint8_t kSignedFlag = 0x80;
/// Bit 6 of the type byte (SENSORS, COMMAND, REFERENCE): the payload's real
/// values other than `time` are IEEE-754 binary32 (4 bytes), not binary64.
constexpr std::uint8_t kFloat32Flag = 0x40;

/// How a frame's real values (all but `time`, always binary64) are sent.
enum class ValueFormat : std::uint8_t {
  kFloat64 = 0,  ///< binary64, bit for bit (the default)
  kFloat32 = 1,  ///< binary32, rounded to nearest (kFloat32Flag); lossless for a float controller
};

enum class MessageType : std::uint8_t {
  kSensors = 1,    ///< simulator → controller
  kCommand = 2,    ///< controller → simulator
  kReference = 3,  ///< simulator → controller
  kHello = 4,      ///< simulator → controller, then the controller's answer
};

/// magic (2) + version (1) + type (1) + payload length (u16) + link sequence (u32).
constexpr std::size_t kHeaderSize = 10;
constexpr std::size_t kCrcSize = 4;
/// A signed frame's signature: counter (u64) + tag (SipHash-2-4-128).
constexpr std::size_t kCounterSize = 8;
constexpr std::size_t kTagSize = 16;
constexpr std::size_t kSignatureSize = kCounterSize + kTagSize;
/// A HELLO's session nonce (and the nonce its answer echoes).
constexpr std::size_t kNonceSize = 16;

/// Payload bytes of a SENSORS frame with `joints` joints and `rotors` rotors
/// (`value_bytes`: 8, or 4 for a kFloat32Flag frame).
constexpr std::size_t sensors_payload_size(std::size_t joints, std::size_t rotors,
                                           std::size_t value_bytes = 8) noexcept {
  return 8 + 4 * 4 + value_bytes * (3 + 4 + 3 + 3 + 4 * joints + rotors);
}
/// Payload bytes of a COMMAND frame with `joints` joints and `rotors` rotors.
constexpr std::size_t command_payload_size(std::size_t joints, std::size_t rotors,
                                           std::size_t value_bytes = 8) noexcept {
  return 8 + 6 * 4 + value_bytes * (rotors + joints);
}
/// Payload bytes of a REFERENCE frame with `joints` joints.
constexpr std::size_t reference_payload_size(std::size_t joints,
                                             std::size_t value_bytes = 8) noexcept {
  return 8 + 4 +
         value_bytes * (3 * (HODYN_REFERENCE_ORDER + 1) + 4 + 3 * HODYN_REFERENCE_ORDER +
                        (HODYN_REFERENCE_ORDER + 1) * joints);
}

/// The largest payload of each type (all joints and rotors of the ABI in use).
constexpr std::size_t kSensorsPayloadSize =
    sensors_payload_size(HODYN_MAX_JOINTS, HODYN_MAX_ROTORS);
constexpr std::size_t kCommandPayloadSize =
    command_payload_size(HODYN_MAX_JOINTS, HODYN_MAX_ROTORS);
constexpr std::size_t kReferencePayloadSize = reference_payload_size(HODYN_MAX_JOINTS);
/// HELLO has one size.
constexpr std::size_t kHelloPayloadSize = 5 * 4 + HODYN_NAME_LENGTH + 2 * kNonceSize;

/// Bytes of a frame before COBS: header + payload + CRC.
constexpr std::size_t frame_size(std::size_t payload_size) noexcept {
  return kHeaderSize + payload_size + kCrcSize;
}
constexpr std::size_t kSensorsFrameSize = frame_size(kSensorsPayloadSize);
constexpr std::size_t kCommandFrameSize = frame_size(kCommandPayloadSize);
constexpr std::size_t kReferenceFrameSize = frame_size(kReferencePayloadSize);
constexpr std::size_t kHelloFrameSize = frame_size(kHelloPayloadSize);
/// Bytes of a signed frame of `payload_size` before COBS.
constexpr std::size_t signed_frame_size(std::size_t payload_size) noexcept {
  return frame_size(payload_size) + kSignatureSize;
}

/// Largest size on the wire of a frame of `frame_bytes`: COBS + delimiter.
constexpr std::size_t wire_size(std::size_t frame_bytes) noexcept {
  return cobs_max_encoded_size(frame_bytes) + 1;
}
constexpr std::size_t kSensorsWireSize = wire_size(kSensorsFrameSize);
constexpr std::size_t kCommandWireSize = wire_size(kCommandFrameSize);
constexpr std::size_t kReferenceWireSize = wire_size(kReferenceFrameSize);
constexpr std::size_t kHelloWireSize = wire_size(kHelloFrameSize);

/// The largest frame: a signed REFERENCE.
constexpr std::size_t kMaxFrameSize = signed_frame_size(kReferencePayloadSize);
/// Room an encode() output buffer needs for any message type, signed or not.
constexpr std::size_t kMaxWireSize = wire_size(kMaxFrameSize);

// The numbers docs/link-protocol.md documents (for the ABI capacities 12 / 8 / 4).
static_assert(HODYN_MAX_JOINTS != 12 || HODYN_MAX_ROTORS != 8 || HODYN_REFERENCE_ORDER != 4 ||
                  (kSensorsFrameSize == 590 && kCommandFrameSize == 206 &&
                   kReferenceFrameSize == 754 && kReferenceWireSize == 758 &&
                   kMaxFrameSize == 778 && kMaxWireSize == 783),
              "frame sizes differ from docs/link-protocol.md");
static_assert(HODYN_NAME_LENGTH != 40 || (kHelloFrameSize == 106 && kHelloWireSize == 108),
              "frame sizes differ from docs/link-protocol.md");

// ---- status bits -------------------------------------------------------------

/// Bits of a SENSORS message's `status_bits` (set by the simulator). Bits not
/// listed are reserved: senders set them to 0, receivers ignore them.
namespace sensor_status {
constexpr std::uint32_t kPlantSaturated = 1u << 0;   ///< a rotor or motor hit its limit
constexpr std::uint32_t kPayloadAttached = 1u << 1;  ///< the payload is being carried
constexpr std::uint32_t kSimulatorPaused = 1u << 2;  ///< simulated time is not advancing
}  // namespace sensor_status

/// Bits of a COMMAND message's `status_bits` (set by the controller host).
namespace controller_status {
constexpr std::uint32_t kWatchdogEngaged = 1u << 0;      ///< no fresh sensors: safe command
constexpr std::uint32_t kSensorFrameRejected = 1u << 1;  ///< the last sensor frame was bad
constexpr std::uint32_t kReferenceStale = 1u << 2;       ///< no fresh reference
/// Disarmed by the handshake: no HELLO of the controller's robot (yet, or a
/// mismatch; then the COMMAND's status is kRobotMismatch).
constexpr std::uint32_t kHandshakeRefused = 1u << 3;
}  // namespace controller_status

/// Who sent a HELLO (its `role`).
namespace hello_role {
constexpr std::uint32_t kSimulator = 1;   ///< the simulator's HELLO, which starts a run
constexpr std::uint32_t kController = 2;  ///< the controller's answer
}  // namespace hello_role

/// HELLO: the robot an end of the link flies (docs/link-protocol.md,
/// "Handshake"). Robots agree when id, joint and rotor counts are equal
/// (plugin::compare_robots); the name is for messages.
struct Hello {
  std::uint32_t robot_id;              ///< hodyn::robot_id() of the description
  std::uint32_t num_joints;            ///< ≤ HODYN_MAX_JOINTS
  std::uint32_t num_rotors;            ///< ≤ HODYN_MAX_ROTORS
  std::uint32_t role;                  ///< a hello_role
  std::int32_t status;                 ///< the sender's verdict on the peer's robot (Status)
  char robot_name[HODYN_NAME_LENGTH];  ///< NUL-terminated, zero after the NUL
  /// The sender's session nonce: the simulator's is random, new every run
  /// (signed or not: a new nonce is a new run to the controller); the
  /// controller's never repeats (boot id + session index), zeros unsigned.
  std::uint8_t nonce[kNonceSize];
  /// The controller's answer: the simulator nonce it answers (zeros from the simulator).
  std::uint8_t peer_nonce[kNonceSize];
};

// ---- messages ------------------------------------------------------------------

/// One decoded message: `type` says which member of the union is valid
/// (SENSORS and REFERENCE: `sensors` / `reference`, or `sensors_f32` /
/// `reference_f32` when `float_frames`). Value-initialize it (`Message message{};`).
struct Message {
  MessageType type;
  std::uint32_t link_sequence;      ///< the sender's frame counter (wraps)
  std::uint32_t status_bits;        ///< sensor_status (SENSORS), controller_status (COMMAND), 0
  std::uint32_t answered_sequence;  ///< COMMAND: hodyn_sensors::sequence it answers, else 0
  std::uint64_t counter;            ///< a signed frame's counter; 0 for an unsigned one
  /// SENSORS, COMMAND, REFERENCE: how its values came (decode) or go
  /// (encode(const Message&)); kFloat64 for a HELLO.
  ValueFormat format;
  /// SENSORS and REFERENCE decoded into the float frames (FrameParser::
  /// set_float_frames, for a float controller host): binary32 values as they
  /// came, binary64 ones rounded to nearest.
  bool float_frames;
  union {
    hodyn_sensors sensors;               ///< type == kSensors, !float_frames
    hodyn_command command;               ///< type == kCommand
    hodyn_reference reference;           ///< type == kReference, !float_frames
    Hello hello;                         ///< type == kHello
    plugin::SensorsF32 sensors_f32;      ///< type == kSensors, float_frames
    plugin::ReferenceF32 reference_f32;  ///< type == kReference, float_frames
  };
};

/// Why a received frame was rejected (one counter each in LinkCounters).
enum class RejectReason : std::uint8_t {
  kNone = 0,     ///< accepted
  kOverflow,     ///< more than kMaxWireSize - 1 bytes without a delimiter
  kCobsError,    ///< the bytes between two delimiters are not valid COBS
  kTooShort,     ///< shorter than header + CRC
  kBadCrc,       ///< CRC-32 mismatch
  kBadMagic,     ///< first two bytes are not 'H' 'L'
  kBadVersion,   ///< version byte is not kProtocolVersion
  kUnknownType,  ///< type byte is not a MessageType
  kBadLength,    ///< payload length field ≠ bytes received or ≠ the size of the type and counts
  kBadValue,     ///< a count above its capacity, an unknown mode or role, a bad name field
  // Signed links (docs/link-security.md); checked after the version.
  kUnsigned,  ///< no signature, and this end has a key
  kBadMac,    ///< the tag does not match (a forgery, another key, an old session's key)
  kReplay,    ///< a good tag, but the counter was seen already or is too old
  kNoKey,     ///< signed, and this end has no key to check it
};
constexpr std::size_t kRejectReasonCount = 14;

constexpr const char* to_string(RejectReason reason) noexcept {
  switch (reason) {
    case RejectReason::kNone:
      return "none";
    case RejectReason::kOverflow:
      return "overflow";
    case RejectReason::kCobsError:
      return "COBS error";
    case RejectReason::kTooShort:
      return "too short";
    case RejectReason::kBadCrc:
      return "bad CRC";
    case RejectReason::kBadMagic:
      return "bad magic";
    case RejectReason::kBadVersion:
      return "bad version";
    case RejectReason::kUnknownType:
      return "unknown type";
    case RejectReason::kBadLength:
      return "bad length";
    case RejectReason::kBadValue:
      return "bad value";
    case RejectReason::kUnsigned:
      return "unsigned";
    case RejectReason::kBadMac:
      return "MAC";
    case RejectReason::kReplay:
      return "replay";
    case RejectReason::kNoKey:
      return "no key";
  }
  return "unknown reason";
}

class FrameSigner;
class FrameVerifier;

// ---- encoder -------------------------------------------------------------------
//
// Each writes one complete wire frame (COBS + 0x00 delimiter) into `out` and
// its size into `written`. `capacity` must be at least the frame's largest
// wire size (wire_size(frame_size(payload)) unsigned,
// wire_size(signed_frame_size(payload)) signed, with the payload size of the
// type and counts; k*WireSize fits the type at any counts, kMaxWireSize
// every frame). With a `signer` whose keys hold a shared key the
// frame is signed (its next counter and key, hodyn/link/security.hpp);
// without one, or without a key, it is not. Errors, with `written` = 0 and
// `out` untouched: kInvalidArgument for a null `out`, a too small
// `capacity`, a count above HODYN_MAX_JOINTS / HODYN_MAX_ROTORS or a mode
// that is not a hodyn_mode — the decoder would reject such a frame;
// kNotConfigured when the signer has a key but no session for a session
// frame (nothing is sent unsigned in its place).

// `format`: the values as binary64 (default) or binary32 (kFloat32Flag).

Status encode(const hodyn_sensors& sensors, std::uint32_t status_bits, std::uint32_t link_sequence,
              std::uint8_t* out, std::size_t capacity, std::size_t& written,
              FrameSigner* signer = nullptr, ValueFormat format = ValueFormat::kFloat64) noexcept;

Status encode(const hodyn_command& command, std::uint32_t answered_sequence,
              std::uint32_t status_bits, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written, FrameSigner* signer = nullptr,
              ValueFormat format = ValueFormat::kFloat64) noexcept;

/// The same from float values (plugin/float_frames.hpp): the bytes of
/// encode(hodyn_command) with each value widened to double.
Status encode(const plugin::CommandF32& command, std::uint32_t answered_sequence,
              std::uint32_t status_bits, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written, FrameSigner* signer = nullptr,
              ValueFormat format = ValueFormat::kFloat64) noexcept;

Status encode(const hodyn_reference& reference, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written, FrameSigner* signer = nullptr,
              ValueFormat format = ValueFormat::kFloat64) noexcept;

/// HELLO. Also kInvalidArgument for a role that is not a hello_role or a
/// robot_name without a NUL in its HODYN_NAME_LENGTH bytes; the bytes after
/// the first NUL are sent as zeros.
Status encode(const Hello& hello, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written, FrameSigner* signer = nullptr) noexcept;

/// Encodes whichever message `message.type` says, in `message.format`
/// (kInvalidArgument for an unknown type).
Status encode(const Message& message, std::uint8_t* out, std::size_t capacity, std::size_t& written,
              FrameSigner* signer = nullptr) noexcept;

// ---- frame decoder ---------------------------------------------------------------

/// Checks one frame after COBS decoding (header + payload [+ signature] +
/// CRC, no delimiter) in the order of docs/link-protocol.md and returns the
/// first failed check, or kNone. Reads only `frame[0 .. size)`. With a
/// `verifier` whose keys hold a shared key, an unsigned frame is kUnsigned
/// and a signed one must pass its MAC and replay checks; without one (or
/// without a key) a signed frame is kNoKey. An accepted frame's counter is
/// committed to the verifier.
RejectReason validate_frame(const std::uint8_t* frame, std::size_t size,
                            FrameVerifier* verifier = nullptr) noexcept;

/// Validates and decodes one frame (as validate_frame). kOk; kCorruptInput
/// when rejected (`reason` says why; `message` is zeroed); kInvalidArgument
/// for a null `frame`. The stream parser (frame_parser.hpp) uses this after
/// COBS decoding; call it directly only for already unstuffed frames.
Status decode_frame(const std::uint8_t* frame, std::size_t size, Message& message,
                    RejectReason& reason, FrameVerifier* verifier = nullptr) noexcept;

}  // namespace link
}  // namespace hodyn
