// hodyn/robot_description/atomic_file.hpp — writing generated files so that
// nothing half-written is ever on disk.
#pragma once

#include <string>

namespace hodyn {
namespace robot_description {

/// Writes `text` to a temporary file next to `path` and renames it onto `path`
/// (atomic on POSIX file systems); mode 0644. On any failure the temporary
/// file is removed, `path` is left as it was, and the one-line error is
/// returned; "" on success.
std::string write_file_atomically(const std::string& path, const std::string& text);

}  // namespace robot_description
}  // namespace hodyn
