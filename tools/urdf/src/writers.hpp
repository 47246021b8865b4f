// tools/urdf/src/writers.hpp — the three outputs of hodyn-urdf, as text.
#pragma once

#include "robot_model.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace hodyn_urdf {

/// What the outputs say about where they come from.
struct Provenance {
  std::string name;       ///< --name: the C++ namespace / robot name in the files
  std::string urdf_file;  ///< the URDF's file name (no directories)
};

/// The C++ header: namespace `name` with Tree, names, limits, index lookups and
/// make_model<Scalar>() (docs/urdf.md). Numbers printed round-trip exact (%.17g).
std::string generated_header(const RobotModel& model, const Provenance& from);

/// The parameters JSON (docs/state-format.md, "Robot parameters JSON").
std::string parameters_json(const RobotModel& model, const Provenance& from);

/// The --report JSON (docs/state-format.md, "hodyn-urdf --report"); with
/// `num_rotors` (--rotors given) it has "rotors": that count, then with
/// `drives` (--actuators or --robot-header given: "rigid"/"elastic" per joint,
/// order of q) "actuators": {joint: drive}.
std::string report_json(const RobotModel& model, const Provenance& from,
                        std::optional<std::size_t> num_rotors = std::nullopt,
                        const std::optional<std::vector<std::string>>& drives = std::nullopt);

/// "%.17g" with a decimal point or exponent kept, so it reads back as the same double.
std::string exact_double(double x);

}  // namespace hodyn_urdf
