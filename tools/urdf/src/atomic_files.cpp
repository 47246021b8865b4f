// tools/urdf/src/atomic_files.cpp — see atomic_files.hpp (POSIX mkstemp + rename).
#include "atomic_files.hpp"

#include "tool_error.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace hodyn_urdf {

namespace {

std::string write_temporary(const std::string& path, const std::string& text) {
  std::string name = path + ".tmp.XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0) throw ToolError("cannot write " + quoted(path) + ": " + std::strerror(errno));
  const mode_t mask = umask(0);
  umask(mask);
  bool ok = fchmod(fd, 0666 & ~mask) == 0;
  const char* data = text.data();
  std::size_t left = text.size();
  while (ok && left > 0) {
    const ssize_t n = write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) {
      data += n;
      left -= static_cast<std::size_t>(n);
    }
  }
  const int error = errno;
  ok = close(fd) == 0 && ok;
  if (!ok) {
    std::remove(name.c_str());
    throw ToolError("cannot write " + quoted(path) + ": " + std::strerror(error));
  }
  return name;
}

}  // namespace

void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::string> temporaries;
  try {
    for (const auto& [path, text] : files) temporaries.push_back(write_temporary(path, text));
  } catch (...) {
    for (const std::string& t : temporaries) std::remove(t.c_str());
    throw;
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (std::rename(temporaries[i].c_str(), files[i].first.c_str()) != 0) {
      const int error = errno;
      for (std::size_t k = i; k < files.size(); ++k) std::remove(temporaries[k].c_str());
      throw ToolError("cannot write " + quoted(files[i].first) + ": " + std::strerror(error));
    }
  }
}

}  // namespace hodyn_urdf
