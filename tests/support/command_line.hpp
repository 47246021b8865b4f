// Running a command-line tool from a test: its exit status, stdout and
// stderr, in a directory of its own, and reading and writing the files it
// works on. Desktop tests only (POSIX shell, std::system).
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace hodyn {
namespace test {

struct CommandResult {
  int status = -1;  ///< exit status, −1 if the tool did not exit normally
  std::string out, err;
};

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

/// `root`/`name`, emptied and created: a fresh directory for one test.
inline std::filesystem::path fresh_directory(const std::filesystem::path& root,
                                             const std::string& name) {
  const std::filesystem::path d = root / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

/// `p` in single quotes, for a shell command line (not std::quoted's escaping).
inline std::string shell_quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

/// Runs `tool args` (args already quoted where needed) with `dir` as the
/// working directory. stdout and stderr go through files next to `dir`, not in
/// it, so that `dir` holds only what the tool wrote.
inline CommandResult run_tool(const std::string& tool, const std::filesystem::path& dir,
                              const std::string& args) {
  const std::filesystem::path out = dir.string() + ".stdout", err = dir.string() + ".stderr";
  const std::string cmd = "cd " + shell_quoted(dir) + " && " +
                          shell_quoted(std::filesystem::path(tool)) + " " + args + " > " +
                          shell_quoted(out) + " 2> " + shell_quoted(err);
  CommandResult r;
  const int raw = std::system(cmd.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

}  // namespace test
}  // namespace hodyn
