// Temporary file + rename, so that a generated file is either the old one or
// the complete new one (atomic_file.hpp).
#include "hodyn/robot_description/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hodyn {
namespace robot_description {

std::string write_file_atomically(const std::string& path, const std::string& text) {
  std::vector<char> temp(path.begin(), path.end());
  const char suffix[] = ".tmp-XXXXXX";
  temp.insert(temp.end(), suffix, suffix + sizeof suffix);  // with the terminating '\0'
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return path + ": cannot create a temporary file: " + std::strerror(errno);
  const std::string temp_path(temp.data());
  const auto fail = [&](const char* what) {
    const std::string message = path + ": " + what + ": " + std::strerror(errno);
    ::close(fd);
    ::unlink(temp_path.c_str());
    return message;
  };
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail("write failed");
    written += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0) return fail("chmod failed");
  if (::fsync(fd) != 0) return fail("fsync failed");
  if (::close(fd) != 0) {
    const std::string message = path + ": close failed: " + std::strerror(errno);
    ::unlink(temp_path.c_str());
    return message;
  }
  if (std::rename(temp_path.c_str(), path.c_str()) != 0) {
    const std::string message = path + ": rename failed: " + std::strerror(errno);
    ::unlink(temp_path.c_str());
    return message;
  }
  return "";
}

}  // namespace robot_description
}  // namespace hodyn
