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
//              robot the sender flies (id, name, joint and rotor counts)
//
// A frame is header (10 bytes) + fixed-size payload + CRC-32 (4 bytes) over
// header and payload, every field little-endian and written byte by byte
// (doubles as their IEEE-754 bit pattern). On the wire a frame is
// COBS-encoded and followed by one 0x00 delimiter, so the same bytes work on
// a serial stream and in a UDP datagram.
//
// Arrays are always sent at their full capacity (HODYN_MAX_JOINTS,
// HODYN_MAX_ROTORS), so each message type has one payload size. The
// `reserved` fields of the ABI structs are not sent and decode as 0. Values
// are passed through unchanged, NaN and Inf included (the controller checks
// them); only counts and the mode, which a receiver would use as indices or
// switch on, are validated.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/link/cobs.hpp"
#include "hodyn/plugin/abi.h"
#include "hodyn/status.hpp"

namespace hodyn {
namespace link {

// ---- frame layout ----------------------------------------------------------

constexpr std::uint8_t kMagic0 = 0x48;  ///< 'H', first header byte
constexpr std::uint8_t kMagic1 = 0x4C;  ///< 'L', second header byte
/// 2: the HELLO handshake (a version-1 peer never answers it; its frames are
/// rejected as "bad version" at once instead of a silent start timeout).
constexpr std::uint8_t kProtocolVersion = 2;

enum class MessageType : std::uint8_t {
  kSensors = 1,    ///< simulator → controller
  kCommand = 2,    ///< controller → simulator
  kReference = 3,  ///< simulator → controller
  kHello = 4,      ///< simulator → controller, then the controller's answer
};

/// magic (2) + version (1) + type (1) + payload length (u16) + link sequence (u32).
constexpr std::size_t kHeaderSize = 10;
constexpr std::size_t kCrcSize = 4;

constexpr std::size_t kSensorsPayloadSize =
    8 + 4 * 4 + 8 * (3 + 4 + 3 + 3 + 4 * HODYN_MAX_JOINTS + HODYN_MAX_ROTORS);
constexpr std::size_t kCommandPayloadSize = 8 + 6 * 4 + 8 * (HODYN_MAX_ROTORS + HODYN_MAX_JOINTS);
constexpr std::size_t kReferencePayloadSize =
    8 + 4 +
    8 * (3 * (HODYN_REFERENCE_ORDER + 1) + 4 + 3 * HODYN_REFERENCE_ORDER +
         (HODYN_REFERENCE_ORDER + 1) * HODYN_MAX_JOINTS);
constexpr std::size_t kHelloPayloadSize = 5 * 4 + HODYN_NAME_LENGTH;

/// Bytes of a frame before COBS: header + payload + CRC.
constexpr std::size_t frame_size(std::size_t payload_size) noexcept {
  return kHeaderSize + payload_size + kCrcSize;
}
constexpr std::size_t kSensorsFrameSize = frame_size(kSensorsPayloadSize);
constexpr std::size_t kCommandFrameSize = frame_size(kCommandPayloadSize);
constexpr std::size_t kReferenceFrameSize = frame_size(kReferencePayloadSize);
constexpr std::size_t kHelloFrameSize = frame_size(kHelloPayloadSize);

/// Largest size on the wire of a frame of `frame_bytes`: COBS + delimiter.
constexpr std::size_t wire_size(std::size_t frame_bytes) noexcept {
  return cobs_max_encoded_size(frame_bytes) + 1;
}
constexpr std::size_t kSensorsWireSize = wire_size(kSensorsFrameSize);
constexpr std::size_t kCommandWireSize = wire_size(kCommandFrameSize);
constexpr std::size_t kReferenceWireSize = wire_size(kReferenceFrameSize);
constexpr std::size_t kHelloWireSize = wire_size(kHelloFrameSize);

constexpr std::size_t kMaxFrameSize = kReferenceFrameSize;
/// Room an encode() output buffer needs for any message type.
constexpr std::size_t kMaxWireSize = kReferenceWireSize;

// The numbers docs/link-protocol.md documents (for the ABI capacities 12 / 8 / 4).
static_assert(HODYN_MAX_JOINTS != 12 || HODYN_MAX_ROTORS != 8 || HODYN_REFERENCE_ORDER != 4 ||
                  (kSensorsFrameSize == 590 && kCommandFrameSize == 206 &&
                   kReferenceFrameSize == 754 && kMaxWireSize == 758),
              "frame sizes differ from docs/link-protocol.md");
static_assert(HODYN_NAME_LENGTH != 40 || (kHelloFrameSize == 74 && kHelloWireSize == 76),
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
};

// ---- messages ------------------------------------------------------------------

/// One decoded message: `type` says which member of the union is valid.
/// Value-initialize it (`Message message{};`).
struct Message {
  MessageType type;
  std::uint32_t link_sequence;      ///< the sender's frame counter (wraps)
  std::uint32_t status_bits;        ///< sensor_status (SENSORS), controller_status (COMMAND), 0
  std::uint32_t answered_sequence;  ///< COMMAND: hodyn_sensors::sequence it answers, else 0
  union {
    hodyn_sensors sensors;      ///< type == kSensors
    hodyn_command command;      ///< type == kCommand
    hodyn_reference reference;  ///< type == kReference
    Hello hello;                ///< type == kHello
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
  kBadLength,    ///< payload length field ≠ bytes received or ≠ the type's size
  kBadValue,     ///< a count above its capacity, an unknown mode or role, a bad name field
};
constexpr std::size_t kRejectReasonCount = 10;

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
  }
  return "unknown reason";
}

// ---- encoder -------------------------------------------------------------------
//
// Each writes one complete wire frame (COBS + 0x00 delimiter) into `out` and
// its size into `written`. `capacity` must be at least the type's wire size
// (k*WireSize; kMaxWireSize fits all). Errors, with `written` = 0 and `out`
// untouched: kInvalidArgument for a null `out`, a too small `capacity`, a
// count above HODYN_MAX_JOINTS / HODYN_MAX_ROTORS or a mode that is not a
// hodyn_mode — the decoder would reject such a frame.

Status encode(const hodyn_sensors& sensors, std::uint32_t status_bits, std::uint32_t link_sequence,
              std::uint8_t* out, std::size_t capacity, std::size_t& written) noexcept;

Status encode(const hodyn_command& command, std::uint32_t answered_sequence,
              std::uint32_t status_bits, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written) noexcept;

Status encode(const hodyn_reference& reference, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written) noexcept;

/// HELLO. Also kInvalidArgument for a role that is not a hello_role or a
/// robot_name without a NUL in its HODYN_NAME_LENGTH bytes; the bytes after
/// the first NUL are sent as zeros.
Status encode(const Hello& hello, std::uint32_t link_sequence, std::uint8_t* out,
              std::size_t capacity, std::size_t& written) noexcept;

/// Encodes whichever message `message.type` says (kInvalidArgument for an
/// unknown type).
Status encode(const Message& message, std::uint8_t* out, std::size_t capacity,
              std::size_t& written) noexcept;

// ---- frame decoder ---------------------------------------------------------------

/// Checks one frame after COBS decoding (header + payload + CRC, no
/// delimiter) in the order of docs/link-protocol.md and returns the first
/// failed check, or kNone. Reads only `frame[0 .. size)`.
RejectReason validate_frame(const std::uint8_t* frame, std::size_t size) noexcept;

/// Validates and decodes one frame (as validate_frame). kOk; kCorruptInput
/// when rejected (`reason` says why; `message` is zeroed); kInvalidArgument
/// for a null `frame`. The stream parser (frame_parser.hpp) uses this after
/// COBS decoding; call it directly only for already unstuffed frames.
Status decode_frame(const std::uint8_t* frame, std::size_t size, Message& message,
                    RejectReason& reason) noexcept;

}  // namespace link
}  // namespace hodyn
