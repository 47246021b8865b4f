// hodyn/status.hpp — error values of the core and of the controller runtime.
// Nothing in hodyn throws.
#pragma once

#include <cstdint>

namespace hodyn {

/// Result of every public algorithm. On anything but `kOk` the outputs of the
/// call are set to zero (finite and defined), never left half-written.
enum class Status : std::uint8_t {
  kOk = 0,
  kOrderOutOfRange,         ///< requested derivative order < 0 or > the compiled maximum
  kNonFiniteInput,          ///< a NaN or Inf in an input the call reads
  kNonOrthonormalRotation,  ///< a rotation matrix with ||RᵀR − I|| above tolerance or det < 0
  kNonFiniteResult,         ///< finite inputs produced a non-finite result (overflow)
  kInvalidModel,            ///< a model parameter is inconsistent (axis not unit, negative mass…)
  kSingularInertia,         ///< an articulated or joint-space inertia is not positive definite
  kInvalidArgument,         ///< an index or selector outside its range
  // ---- controller runtime (plugins/, platform/) ----
  kNotConfigured,           ///< a controller was asked to run before a valid configure()
  kSensorOutOfRange,        ///< a finite sensor value outside its physical range
  kReferenceJump,           ///< the reference jumped; tracking errors were clamped
  kActuatorSaturated,       ///< a rotor speed or motor torque hit its limit (command still valid)
  kSingularAllocation,      ///< the propeller allocation matrix is (near) singular
  kStaleInput,              ///< a sensor frame or link message is older than allowed
  kCorruptInput,            ///< a frame failed its integrity check (checksum, length, version)
  kAbiMismatch,             ///< a plugin was built against another ABI version
  kRobotMismatch,           ///< the two ends (plugin/host, controller/simulator) fly other robots
  // ---- core, added later: new values go last, as the values above cross the
  // link and the plugin ABI as numbers ----
  kNotPhysicallyConsistent,  ///< inertial parameters no mass distribution has (J ⪰ 0 fails)
  kSingularConstraint,       ///< loop-closure constraints rank-deficient (redundant or singular)
  kNotDifferentiable,        ///< a time derivative asked for does not exist there (sign at 0)
};

/// Stable, human-readable name of a status (for logs and tools).
constexpr const char* to_string(Status status) noexcept {
  switch (status) {
    case Status::kOk: return "ok";
    case Status::kOrderOutOfRange: return "order out of range";
    case Status::kNonFiniteInput: return "non-finite input";
    case Status::kNonOrthonormalRotation: return "rotation not orthonormal";
    case Status::kNonFiniteResult: return "non-finite result";
    case Status::kInvalidModel: return "invalid model";
    case Status::kSingularInertia: return "singular inertia";
    case Status::kInvalidArgument: return "invalid argument";
    case Status::kNotConfigured: return "not configured";
    case Status::kSensorOutOfRange: return "sensor out of range";
    case Status::kReferenceJump: return "reference jump";
    case Status::kActuatorSaturated: return "actuator saturated";
    case Status::kSingularAllocation: return "singular allocation";
    case Status::kStaleInput: return "stale input";
    case Status::kCorruptInput: return "corrupt input";
    case Status::kAbiMismatch: return "plugin ABI mismatch";
    case Status::kRobotMismatch: return "robot mismatch";
    case Status::kNotPhysicallyConsistent: return "not physically consistent";
    case Status::kSingularConstraint: return "singular constraint";
    case Status::kNotDifferentiable: return "not differentiable";
  }
  return "unknown status";
}

}  // namespace hodyn
