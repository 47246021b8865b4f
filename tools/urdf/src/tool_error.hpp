// tools/urdf/src/tool_error.hpp — the one error type of hodyn-urdf.
//
// Every rejection of bad input (a malformed or unsupported URDF, a physically
// impossible parameter, a bad command line) is a ToolError whose message is
// one line naming the culprit; main() prints it and exits with status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace hodyn_urdf {

class ToolError : public std::runtime_error {
 public:
  explicit ToolError(const std::string& message) : std::runtime_error(message) {}
};

/// 'name' in single quotes, for messages.
inline std::string quoted(const std::string& name) { return "'" + name + "'"; }

}  // namespace hodyn_urdf
