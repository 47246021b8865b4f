// tools/urdf/src/main.cpp — hodyn-urdf: a URDF → hodyn's compile-time tree,
// a C++ header with make_model(), a parameters JSON and a report (docs/urdf.md).
//
// Exit status 0 on success; 2 with one line on stderr naming the culprit on
// bad usage or bad input (the URDF or the rotor file), and then no output file
// is written or replaced.
#include "atomic_files.hpp"
#include "robot_model.hpp"
#include "tool_error.hpp"
#include "urdf_document.hpp"
#include "writers.hpp"

#include <hodyn/robot_description/rotor_file.hpp>
#include <hodyn/robot_description/rotor_header.hpp>

#include <cctype>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hodyn_urdf {
namespace {

constexpr const char* kUsage =
    "usage: hodyn-urdf [--root LINK] [--name NAME] [--header OUT.hpp] [--parameters OUT.json]\n"
    "                  [--rotors ROTORS.json --rotor-header OUT_ROTORS.hpp] [--report] URDF\n"
    "  --name NAME          C++ namespace of the header and name in the files (an identifier;\n"
    "                       required with --header, --parameters or --rotor-header)\n"
    "  --header OUT.hpp     write the C++ header: Tree, names, limits, make_model<Scalar>()\n"
    "  --parameters OUT.json  write the same parameters as JSON (hodyn/urdf/robot_json.hpp)\n"
    "  --rotors ROTORS.json read and check a rotor description (docs/rotors.md); needs\n"
    "                       --rotor-header and --name\n"
    "  --rotor-header OUT_ROTORS.hpp  write the rotors' C++ header in namespace NAME:\n"
    "                       kNumRotors, kRotors, make_rotors<Scalar>() (independent of OUT.hpp)\n"
    "  --report             print a JSON report on stdout (bodies, joints, dof, mass, lumping,\n"
    "                       rotors)\n"
    "  --root LINK          the floating base; must be the URDF's root link (no re-rooting)\n"
    "Bad input (URDF or rotor file): one line on stderr, exit status 2, no output file\n"
    "written or replaced.\n"
    "Conventions: docs/urdf.md.\n";

struct Options {
  std::string name, header, parameters, root, urdf, rotors, rotor_header;
  bool report = false;
};

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (const char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

Options parse(int argc, char** argv) {
  Options o;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&](std::string& out) {
      if (i + 1 >= argc) throw ToolError(a + " needs a value (see --help)");
      out = argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (a == "--name")
      value(o.name);
    else if (a == "--header")
      value(o.header);
    else if (a == "--parameters")
      value(o.parameters);
    else if (a == "--root")
      value(o.root);
    else if (a == "--rotors")
      value(o.rotors);
    else if (a == "--rotor-header")
      value(o.rotor_header);
    else if (a == "--report")
      o.report = true;
    else if (a.size() > 1 && a[0] == '-')
      throw ToolError("unknown option " + quoted(a) + " (see --help)");
    else
      positional.push_back(a);
  }
  if (positional.size() != 1)
    throw ToolError(positional.empty() ? "no URDF file given (see --help)"
                                       : "more than one URDF file given (see --help)");
  o.urdf = positional[0];
  if (o.rotors.empty() != o.rotor_header.empty())
    throw ToolError(o.rotors.empty() ? "--rotor-header needs --rotors (see --help)"
                                     : "--rotors needs --rotor-header (see --help)");
  if (o.header.empty() && o.parameters.empty() && o.rotor_header.empty() && !o.report)
    throw ToolError(
        "nothing to do: give --header, --parameters, --rotors or --report (see --help)");
  if ((!o.header.empty() || !o.parameters.empty() || !o.rotor_header.empty()) && o.name.empty())
    throw ToolError("--name is required with --header, --parameters and --rotor-header");
  if (!o.name.empty() && !is_identifier(o.name))
    throw ToolError("--name " + quoted(o.name) + " is not a C++ identifier");
  const std::vector<std::pair<const char*, const std::string*>> outputs = {
      {"--header", &o.header},
      {"--parameters", &o.parameters},
      {"--rotor-header", &o.rotor_header}};
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t k = i + 1; k < outputs.size(); ++k)
      if (!outputs[i].second->empty() && *outputs[i].second == *outputs[k].second)
        throw ToolError(std::string(outputs[i].first) + " and " + outputs[k].first +
                        " name the same file");
  return o;
}

std::string file_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// The rotor description `path`, parsed and checked by hodyn_robot_description
/// (keys, every rotor, at least 6, allocation of rank 6); its error, one line
/// naming the file, rotor and key, becomes a ToolError.
hodyn::robot_description::Rotors read_rotors(const std::string& path) {
  hodyn::robot_description::RotorFile file = hodyn::robot_description::parse_rotor_file(path);
  if (!file.ok()) throw ToolError(file.error);
  return std::move(file.rotors);
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const UrdfDocument doc = read_urdf(o.urdf);
  const RobotModel model = build_robot(doc, o.root);
  const Provenance from{o.name.empty() ? model.robot_name : o.name, file_name(o.urdf)};
  std::vector<std::pair<std::string, std::string>> files;
  if (!o.header.empty()) files.emplace_back(o.header, generated_header(model, from));
  if (!o.parameters.empty()) files.emplace_back(o.parameters, parameters_json(model, from));
  std::optional<std::size_t> num_rotors;
  if (!o.rotors.empty()) {
    // The same emitter as hodyn-rotors (write_rotor_header without its own
    // write: the rotors are checked by parse_rotor_file, the namespace is an
    // identifier), so that the header joins the all-or-nothing write below.
    const hodyn::robot_description::Rotors rotors = read_rotors(o.rotors);
    num_rotors = rotors.size();
    files.emplace_back(o.rotor_header, hodyn::robot_description::rotor_header_text(
                                           rotors, o.name, file_name(o.rotors)));
  }
  const std::string report = o.report ? report_json(model, from, num_rotors) : std::string();
  write_files_atomically(files);
  std::cout << report << std::flush;
  return 0;
}

}  // namespace

/// A message on one line whatever the names in it hold.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace hodyn_urdf

int main(int argc, char** argv) {
  try {
    return hodyn_urdf::run(argc, argv);
  } catch (const hodyn_urdf::ToolError& e) {
    std::cerr << "hodyn-urdf: " << hodyn_urdf::one_line(e.what()) << std::endl;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hodyn-urdf: internal error: " << hodyn_urdf::one_line(e.what()) << std::endl;
    return 2;
  }
}
