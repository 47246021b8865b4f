// tools/urdf/src/main.cpp — hodyn-urdf: a URDF → hodyn's compile-time tree,
// a C++ header with make_model(), a parameters JSON and a report (docs/urdf.md);
// with a rotor file and an actuators file also the robot type header
// (docs/robot-description.md).
//
// Exit status 0 on success; 2 with one line on stderr naming the culprit on
// bad usage or bad input (the URDF, the rotor or the actuators file), and then
// no output file is written or replaced.
#include "atomic_files.hpp"
#include "robot_header.hpp"
#include "robot_model.hpp"
#include "tool_error.hpp"
#include "urdf_document.hpp"
#include "writers.hpp"

#include <hodyn/robot_description/actuator_file.hpp>
#include <hodyn/robot_description/rotor_file.hpp>
#include <hodyn/robot_description/rotor_header.hpp>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hodyn_urdf {
namespace {

constexpr const char* kUsage =
    "usage: hodyn-urdf [--root LINK] [--fixed-base] [--helical JOINT=PITCH]...\n"
    "                  [--spherical J1,J2,J3]... [--universal J1,J2]...\n"
    "                  [--name NAME] [--header OUT.hpp]\n"
    "                  [--parameters OUT.json]\n"
    "                  [--rotors ROTORS.json --rotor-header OUT_ROTORS.hpp]\n"
    "                  [--actuators ACTUATORS.json] [--robot-header OUT_ROBOT.hpp] [--report] "
    "URDF\n"
    "  --name NAME          C++ namespace of the header and name in the files (an identifier;\n"
    "                       required with --header, --parameters or --rotor-header)\n"
    "  --header OUT.hpp     write the C++ header: Tree, names, limits, make_model<Scalar>()\n"
    "  --parameters OUT.json  write the same parameters as JSON (hodyn/urdf/robot_json.hpp)\n"
    "  --rotors ROTORS.json read and check a rotor description (docs/rotors.md); needs\n"
    "                       --rotor-header and --name\n"
    "  --rotor-header OUT_ROTORS.hpp  write the rotors' C++ header in namespace NAME:\n"
    "                       kNumRotors, kRotors, make_rotors<Scalar>() (independent of OUT.hpp)\n"
    "  --actuators ACTUATORS.json  how each joint is driven (elastic or rigid; unlisted\n"
    "                       joints rigid with the URDF effort limit; docs/robot-description.md)\n"
    "  --robot-header OUT_ROBOT.hpp  write the robot type NAME::Robot (model, actuators,\n"
    "                       limits, rotors, name, id); needs --header and --rotor-header in\n"
    "                       the same directory (it includes them by file name)\n"
    "  --report             print a JSON report on stdout (bodies, joints, dof, mass, lumping,\n"
    "                       rotors, actuators)\n"
    "  --root LINK          the floating base; must be the URDF's root link (no re-rooting)\n"
    "  --fixed-base         weld the root link to the world at its URDF pose (a fixed-base\n"
    "                       arm: JointKind::kFixedBase, ν = q̇); not with --rotors or\n"
    "                       --robot-header (a flying robot's base floats)\n"
    "  --helical JOINT=PITCH  make the revolute or continuous URDF joint JOINT a helical\n"
    "                       joint (JointKind::kHelical, a screw; URDF has none): it turns\n"
    "                       about its URDF axis through its origin and advances PITCH metres\n"
    "                       along that axis per radian (finite, non-zero; a negative pitch\n"
    "                       is a left-handed screw). Repeat for more joints, each once\n"
    "  --spherical J1,J2,J3  make the chain of revolute or continuous URDF joints\n"
    "                       J1 -> J2 -> J3, whose axes meet in one point and whose two links\n"
    "                       between them are massless and carry nothing else, one ball joint\n"
    "                       (JointKind::kSpherical; URDF has none) about that point, moving\n"
    "                       J3's child link. Repeat for more balls. Not with --rotors,\n"
    "                       --actuators or --robot-header (the flying runtime does not take\n"
    "                       ball joints yet)\n"
    "  --universal J1,J2    make the revolute or continuous URDF joints J1 -> J2, whose axes\n"
    "                       meet in one point and are not parallel and whose link between\n"
    "                       them is massless and carries nothing else, one universal\n"
    "                       (Cardan) joint (JointKind::kUniversal; URDF has none) about J1's\n"
    "                       axis then J2's through that point, moving J2's child link.\n"
    "                       Repeat for more. Not with --rotors, --actuators or --robot-header\n"
    "                       (the flying runtime does not take universal joints yet)\n"
    "Bad input (URDF, rotor or actuators file): one line on stderr, exit status 2, no output file\n"
    "written or replaced.\n"
    "Conventions: docs/urdf.md.\n";

struct Options {
  std::string name, header, parameters, root, urdf, rotors, rotor_header, actuators, robot_header;
  bool report = false;
  bool fixed_base = false;
  std::vector<HelicalJoint> helical;      ///< --helical, in the order given
  std::vector<SphericalJoint> spherical;  ///< --spherical, in the order given
  std::vector<UniversalJoint> universal;  ///< --universal, in the order given
};

/// "JOINT=PITCH" of --helical; the pitch is any number text (strtod, all of
/// it). Whether the joint exists, its type, a finite non-zero pitch and
/// repeats are checked by build_robot.
HelicalJoint helical_joint(const std::string& value) {
  const std::size_t eq = value.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
    throw ToolError("--helical " + hodyn_urdf::quoted(value) +
                    ": expected JOINT=PITCH (see --help)");
  HelicalJoint h;
  h.joint = value.substr(0, eq);
  const std::string number = value.substr(eq + 1);
  char* end = nullptr;
  h.pitch = std::strtod(number.c_str(), &end);
  if (end == number.c_str() || *end != '\0' || std::isspace(static_cast<unsigned char>(number[0])))
    throw ToolError("--helical " + hodyn_urdf::quoted(h.joint) + ": the pitch " +
                    hodyn_urdf::quoted(number) + " is not a number (metres per radian)");
  return h;
}

/// "J1,J2,J3" of --spherical: three non-empty joint names. Whether they are
/// joints, a chain, and so on is checked by build_robot.
SphericalJoint spherical_joint(const std::string& value) {
  SphericalJoint s;
  std::size_t start = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t comma = value.find(',', start);
    const bool last = i == 2;
    if (last != (comma == std::string::npos) || (last ? value.size() : comma) == start)
      throw ToolError("--spherical " + hodyn_urdf::quoted(value) +
                      ": expected J1,J2,J3, three joint names (see --help)");
    s.joints[i] = value.substr(start, last ? std::string::npos : comma - start);
    start = comma + 1;
  }
  return s;
}

/// "J1,J2" of --universal: two non-empty joint names. Whether they are joints,
/// a chain, and so on is checked by build_robot.
UniversalJoint universal_joint(const std::string& value) {
  const std::size_t comma = value.find(',');
  if (comma == std::string::npos || comma == 0 || comma + 1 == value.size() ||
      value.find(',', comma + 1) != std::string::npos)
    throw ToolError("--universal " + hodyn_urdf::quoted(value) +
                    ": expected J1,J2, two joint names (see --help)");
  UniversalJoint u;
  u.joints[0] = value.substr(0, comma);
  u.joints[1] = value.substr(comma + 1);
  return u;
}

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
    else if (a == "--actuators")
      value(o.actuators);
    else if (a == "--robot-header")
      value(o.robot_header);
    else if (a == "--fixed-base")
      o.fixed_base = true;
    else if (a == "--helical") {
      std::string v;
      value(v);
      o.helical.push_back(helical_joint(v));
    } else if (a == "--spherical") {
      std::string v;
      value(v);
      o.spherical.push_back(spherical_joint(v));
    } else if (a == "--universal") {
      std::string v;
      value(v);
      o.universal.push_back(universal_joint(v));
    } else if (a == "--report")
      o.report = true;
    else if (a.size() > 1 && a[0] == '-')
      throw ToolError("unknown option " + hodyn_urdf::quoted(a) + " (see --help)");
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
  if (o.fixed_base && (!o.rotors.empty() || !o.robot_header.empty()))
    throw ToolError(
        "--fixed-base is for arms welded to the world: not with --rotors or --robot-header "
        "(the flying runtime needs a floating base)");
  if (!o.spherical.empty() &&
      (!o.rotors.empty() || !o.actuators.empty() || !o.robot_header.empty()))
    throw ToolError(
        "--spherical: the flying runtime does not take ball joints yet (its payload estimator "
        "and identification refuse them): not with --rotors, --actuators or --robot-header");
  if (!o.universal.empty() &&
      (!o.rotors.empty() || !o.actuators.empty() || !o.robot_header.empty()))
    throw ToolError(
        "--universal: the flying runtime does not take universal joints yet (its payload "
        "estimator and identification refuse them): not with --rotors, --actuators or "
        "--robot-header");
  if (!o.robot_header.empty() && (o.header.empty() || o.rotor_header.empty()))
    throw ToolError("--robot-header needs --header and --rotors/--rotor-header (see --help)");
  if (o.header.empty() && o.parameters.empty() && o.rotor_header.empty() && !o.report)
    throw ToolError(
        "nothing to do: give --header, --parameters, --rotors or --report (see --help)");
  if ((!o.header.empty() || !o.parameters.empty() || !o.rotor_header.empty()) && o.name.empty())
    throw ToolError(
        "--name is required with --header, --parameters, --rotor-header and --robot-header");
  if (!o.name.empty() && !is_identifier(o.name))
    throw ToolError("--name " + hodyn_urdf::quoted(o.name) + " is not a C++ identifier");
  const std::vector<std::pair<const char*, const std::string*>> outputs = {
      {"--header", &o.header},
      {"--parameters", &o.parameters},
      {"--rotor-header", &o.rotor_header},
      {"--robot-header", &o.robot_header}};
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t k = i + 1; k < outputs.size(); ++k)
      if (!outputs[i].second->empty() && *outputs[i].second == *outputs[k].second)
        throw ToolError(std::string(outputs[i].first) + " and " + outputs[k].first +
                        " name the same file");
  if (!o.robot_header.empty()) {
    // The robot header includes the other two by file name.
    namespace fs = std::filesystem;
    const auto directory = [](const std::string& p) {
      return fs::weakly_canonical(fs::absolute(fs::path(p)).parent_path());
    };
    const fs::path robot_dir = directory(o.robot_header);
    if (directory(o.header) != robot_dir || directory(o.rotor_header) != robot_dir)
      throw ToolError(
          "--robot-header, --header and --rotor-header must be in the same directory (the "
          "robot header includes the other two by file name)");
  }
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

/// The movable joints (order of q, with their URDF effort limits) and the
/// fixed joints, for the actuators file.
hodyn::robot_description::JointList joint_list(const UrdfDocument& doc, const RobotModel& model) {
  hodyn::robot_description::JointList joints;
  for (std::size_t j = 1; j < model.bodies.size(); ++j)
    joints.movable.push_back({model.bodies[j].joint, model.bodies[j].limits.effort});
  for (const UrdfJoint& j : doc.joints)
    if (j.type == UrdfJointType::kFixed) joints.fixed.push_back(j.name);
  return joints;
}

/// The actuators: from --actuators, or every joint rigid with its URDF effort
/// limit; the loader's one-line error becomes a ToolError.
hodyn::robot_description::JointActuators read_actuators(const Options& o, const UrdfDocument& doc,
                                                        const RobotModel& model) {
  const hodyn::robot_description::JointList joints = joint_list(doc, model);
  hodyn::robot_description::ActuatorFile file =
      o.actuators.empty() ? hodyn::robot_description::default_actuators(joints, o.urdf)
                          : hodyn::robot_description::parse_actuator_file(o.actuators, joints);
  if (!file.ok()) throw ToolError(file.error);
  return std::move(file.actuators);
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const UrdfDocument doc = read_urdf(o.urdf);
  const RobotModel model =
      build_robot(doc, o.root, o.fixed_base, o.helical, o.spherical, o.universal);
  const Provenance from{o.name.empty() ? model.robot_name : o.name, file_name(o.urdf)};
  std::vector<std::pair<std::string, std::string>> files;
  if (!o.header.empty()) files.emplace_back(o.header, generated_header(model, from));
  if (!o.parameters.empty()) files.emplace_back(o.parameters, parameters_json(model, from));
  std::optional<std::size_t> num_rotors;
  hodyn::robot_description::Rotors rotors;
  if (!o.rotors.empty()) {
    // The same emitter as hodyn-rotors (write_rotor_header without its own
    // write: the rotors are checked by parse_rotor_file, the namespace is an
    // identifier), so that the header joins the all-or-nothing write below.
    rotors = read_rotors(o.rotors);
    num_rotors = rotors.size();
    files.emplace_back(o.rotor_header, hodyn::robot_description::rotor_header_text(
                                           rotors, o.name, file_name(o.rotors)));
  }
  std::optional<std::vector<std::string>> drives;
  if (!o.actuators.empty() || !o.robot_header.empty()) {
    const hodyn::robot_description::JointActuators actuators = read_actuators(o, doc, model);
    drives.emplace();
    for (const hodyn::JointActuator& a : actuators)
      drives->push_back(hodyn::robot_description::drive_name(a.drive));
    if (!o.robot_header.empty()) {
      RobotHeaderInputs in;
      in.name = o.name;
      in.model_header_file = file_name(o.header);
      in.rotor_header_file = file_name(o.rotor_header);
      in.robot_header_file = file_name(o.robot_header);
      in.urdf_file = file_name(o.urdf);
      in.rotor_file = file_name(o.rotors);
      in.actuator_file = o.actuators.empty() ? std::string() : file_name(o.actuators);
      in.actuators = actuators;
      in.id = robot_identity(robot_identity_text(o.name, model, rotors, actuators));
      files.emplace_back(o.robot_header, robot_header(model, in));
    }
  }
  const std::string report =
      o.report ? report_json(model, from, num_rotors, drives) : std::string();
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
