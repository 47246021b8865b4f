// hodyn/robot_description/rotor_header.hpp — C++ code for a rotor description:
// a header that defines the rotors as constexpr data and a RotorSet factory
// (docs/rotors.md). Called by hodyn-rotors and by hodyn-urdf --rotors.
#pragma once

#include <string>

#include "hodyn/robot_description/rotor_file.hpp"

namespace hodyn {
namespace robot_description {

/// The header text. In namespace `name_space` ("a" or "a::b") it defines
///   inline constexpr int kNumRotors;
///   inline constexpr std::array<hodyn::RotorData, kNumRotors> kRotors;
///   template <class Scalar> hodyn::RotorSet<kNumRotors, Scalar> make_rotors();
/// and includes only <array> and <hodyn/models/rotor_set.hpp>. `source` is
/// named in the header's first comment (give a file name, not a machine path).
/// The rotors are not checked here (write_rotor_header does).
std::string rotor_header_text(const Rotors& rotors, const std::string& name_space,
                              const std::string& source);

/// "" when `name_space` is one or more C++ identifiers joined by "::", else why not.
std::string check_namespace(const std::string& name_space);

/// Checks the rotors (check_rotors) and the namespace, then writes the header
/// to `path` atomically (write_file_atomically). "" on success, else a one-line error.
std::string write_rotor_header(const std::string& path, const Rotors& rotors,
                               const std::string& name_space, const std::string& source);

}  // namespace robot_description
}  // namespace hodyn
