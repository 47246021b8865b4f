// hodyn/robot_description/rotor_file.hpp — reading and writing rotors.json,
// the rotor description of a robot (docs/rotors.md, format in
// docs/state-format.md). Desktop library: heap, std::string, nlohmann-json
// inside; the result is the core's heap-free hodyn::Rotor.
#pragma once

#include <string>
#include <vector>

#include <hodyn/models/rotor_set.hpp>

namespace hodyn {
namespace robot_description {

using Rotors = std::vector<Rotor<double>>;

/// The "version" a rotors.json must carry.
inline constexpr int kRotorFileVersion = 1;
/// Fewer rotors cannot produce an arbitrary 6-DoF wrench.
inline constexpr int kMinRotors = 6;
/// The allocation counts as rank-deficient when σ_6 ≤ this · σ_1.
inline constexpr double kMinSingularValueRatio = 1e-10;

/// Either the rotors (error empty) or a one-line error naming the file, and
/// where it applies the rotor index and key, e.g.
///   robot/rotors.json: rotors[2].axis: must be a unit vector (...); got [0, 0, 2]
struct RotorFile {
  Rotors rotors;
  std::string error;
  bool ok() const noexcept { return error.empty(); }
};

/// Reads and checks a rotors.json: JSON syntax, keys and types, every rotor
/// (hodyn::check_rotor), at least kMinRotors rotors, allocation of rank 6.
RotorFile parse_rotor_file(const std::string& path);

/// The same for JSON text; `origin` prefixes the error messages.
RotorFile parse_rotor_json(const std::string& text, const std::string& origin);

/// The checks after parsing, for rotors from elsewhere: "" when valid, else
/// "<origin>: <what>" (one line).
std::string check_rotors(const Rotors& rotors, const std::string& origin);

/// Singular values σ_1 ≥ … ≥ σ_6 of the 6xN allocation matrix of `rotors`.
std::vector<double> allocation_singular_values(const Rotors& rotors);

/// rotors.json text for `rotors` (version kRotorFileVersion), every number
/// printed so that it reads back to the same double. `comment` goes into the
/// top-level "comment" key unless empty.
std::string rotor_json_text(const Rotors& rotors, const std::string& comment = "");

/// Shortest decimal text that reads back as exactly `x` (finite x), always
/// with a '.' or an exponent, so it is both a JSON number and a C++ double literal.
std::string round_trip_number(double x);

}  // namespace robot_description
}  // namespace hodyn
