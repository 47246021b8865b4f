// tools/urdf/src/atomic_files.hpp — write several files all or nothing.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hodyn_urdf {

/// Writes each (path, text) to a temporary file in the path's directory, then
/// renames them all into place; if any write fails, no temporary is left and
/// no output is replaced. Throws ToolError.
void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace hodyn_urdf
