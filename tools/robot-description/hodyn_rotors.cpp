// hodyn-rotors — check a rotors.json and write its C++ header (docs/rotors.md).
// Exit codes: 0 ok, 2 bad usage or input (nothing written).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "hodyn/robot_description/rotor_file.hpp"
#include "hodyn/robot_description/rotor_header.hpp"

namespace {

constexpr int kExitInput = 2;

const char* const kUsage =
    R"(Usage: hodyn-rotors [--name NAMESPACE --header OUT.hpp] ROTORS.json
       hodyn-rotors --help

Reads a rotor description (docs/state-format.md, "Rotor description"), checks it
(keys, units, unit axes, at least 6 rotors, allocation of rank 6) and prints a
summary. With --header, writes a C++ header defining, in NAMESPACE,
kNumRotors, kRotors (constexpr hodyn::RotorData) and
template <class Scalar> hodyn::RotorSet<kNumRotors, Scalar> make_rotors().
The header is written to a temporary file and renamed, never half-written.

Options:
  --name NAMESPACE   C++ namespace of the header (a or a::b); needed with --header
  --header OUT.hpp   write the header
  -h, --help         this text
Exit codes: 0 ok, 2 bad usage or input.
)";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "hodyn-rotors: %s\n(try --help)\n", message.c_str());
  return kExitInput;
}

std::string file_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int main(int argc, char** argv) {
  namespace rd = hodyn::robot_description;
  std::string name_space, header, input;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--name" || arg == "--header") {
      if (i + 1 >= argc) return usage_error(arg + " needs a value");
      (arg == "--name" ? name_space : header) = argv[++i];
    } else if (!arg.empty() && arg[0] == '-') {
      return usage_error("unknown option " + arg);
    } else if (input.empty()) {
      input = arg;
    } else {
      return usage_error("more than one input file");
    }
  }
  if (input.empty()) return usage_error("no rotors.json given");
  if (!header.empty() && name_space.empty()) return usage_error("--header needs --name");
  if (header.empty() && !name_space.empty()) return usage_error("--name needs --header");

  const rd::RotorFile file = rd::parse_rotor_file(input);
  if (!file.ok()) {
    std::fprintf(stderr, "hodyn-rotors: %s\n", file.error.c_str());
    return kExitInput;
  }
  if (!header.empty()) {
    const std::string error =
        rd::write_rotor_header(header, file.rotors, name_space, file_name(input));
    if (!error.empty()) {
      std::fprintf(stderr, "hodyn-rotors: %s\n", error.c_str());
      return kExitInput;
    }
  }
  const std::vector<double> sigma = rd::allocation_singular_values(file.rotors);
  std::printf("%s: %zu rotors, allocation rank 6, singular values", input.c_str(),
              file.rotors.size());
  for (const double s : sigma) std::printf(" %.4g", s);
  std::printf(", sigma_1/sigma_6 = %.4g\n", sigma.front() / sigma[5]);
  if (!header.empty()) std::printf("wrote %s (namespace %s)\n", header.c_str(), name_space.c_str());
  return 0;
}
