// hodyn/status.hpp — error values of the core. Nothing in the core throws.
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
  }
  return "unknown status";
}

}  // namespace hodyn
