// tools/urdf/src/main.cpp — hodyn-urdf: a URDF → hodyn's compile-time tree,
// a C++ header with make_model(), a parameters JSON and a report (docs/urdf.md).
//
// Exit status 0 on success; 2 with one line on stderr naming the culprit on
// bad usage or bad input, and then no output file is written or replaced.
#include "atomic_files.hpp"
#include "robot_model.hpp"
#include "tool_error.hpp"
#include "urdf_document.hpp"
#include "writers.hpp"

#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace hodyn_urdf {
namespace {

constexpr const char* kUsage =
    "usage: hodyn-urdf [--root LINK] [--name NAME] [--header OUT.hpp] [--parameters OUT.json]\n"
    "                  [--report] URDF\n"
    "  --name NAME          C++ namespace of the header and name in the files (an identifier;\n"
    "                       required with --header or --parameters)\n"
    "  --header OUT.hpp     write the C++ header: Tree, names, limits, make_model<Scalar>()\n"
    "  --parameters OUT.json  write the same parameters as JSON (hodyn/urdf/robot_json.hpp)\n"
    "  --report             print a JSON report on stdout (bodies, joints, dof, mass, lumping)\n"
    "  --root LINK          the floating base; must be the URDF's root link (no re-rooting)\n"
    "Bad input: one line on stderr, exit status 2, no output file written.\n"
    "Conventions: docs/urdf.md.\n";

struct Options {
  std::string name, header, parameters, root, urdf;
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
  if (o.header.empty() && o.parameters.empty() && !o.report)
    throw ToolError("nothing to do: give --header, --parameters or --report (see --help)");
  if ((!o.header.empty() || !o.parameters.empty()) && o.name.empty())
    throw ToolError("--name is required with --header and --parameters");
  if (!o.name.empty() && !is_identifier(o.name))
    throw ToolError("--name " + quoted(o.name) + " is not a C++ identifier");
  if (!o.header.empty() && o.header == o.parameters)
    throw ToolError("--header and --parameters name the same file");
  return o;
}

std::string file_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const UrdfDocument doc = read_urdf(o.urdf);
  const RobotModel model = build_robot(doc, o.root);
  const Provenance from{o.name.empty() ? model.robot_name : o.name, file_name(o.urdf)};
  std::vector<std::pair<std::string, std::string>> files;
  if (!o.header.empty()) files.emplace_back(o.header, generated_header(model, from));
  if (!o.parameters.empty()) files.emplace_back(o.parameters, parameters_json(model, from));
  const std::string report = o.report ? report_json(model, from) : std::string();
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
