// Reading and checking actuators.json (actuator_file.hpp; the format is in
// docs/state-format.md, "Joint actuators").
#include "hodyn/robot_description/actuator_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <hodyn/robot_description/json_paths.hpp>
#include "hodyn/robot_description/rotor_file.hpp"

namespace hodyn {
namespace robot_description {
namespace {

using json = nlohmann::json;

constexpr const char* kTopKeys[] = {"version", "comment", "joints"};
constexpr const char* kRigidKeys[] = {"drive", "torque_limit", "comment"};
constexpr const char* kElasticKeys[] = {"drive",          "motor_inertia", "stiffness", "damping",
                                        "motor_friction", "torque_limit",  "comment"};

// A failed check: thrown inside this file only, caught in parse_actuator_json.
struct Failure {
  std::string message;
};
[[noreturn]] void fail(const std::string& message) { throw Failure{message}; }

template <std::size_t N>
std::string key_list(const char* const (&keys)[N]) {
  std::string s;
  for (const char* k : keys) s += (s.empty() ? "" : ", ") + std::string(k);
  return s;
}

template <std::size_t N>
bool is_one_of(const std::string& key, const char* const (&keys)[N]) {
  for (const char* k : keys)
    if (key == k) return true;
  return false;
}

std::string describe(const json& v) {
  if (v.is_string()) {
    std::string s = json_quoted(v.get<std::string>());  // no control character
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return "string " + s;
  }
  if (v.is_array()) return "a list of " + std::to_string(v.size());
  if (v.is_number()) return "number " + v.dump();
  return v.type_name();
}

bool is_integer(const json& v, long long value) {
  if (v.is_number_unsigned())
    return value >= 0 && v.get<unsigned long long>() == static_cast<unsigned long long>(value);
  return v.is_number_integer() && v.get<long long>() == value;
}

bool finite_positive(double x) { return std::isfinite(x) && x > 0.0; }

enum class Range { kPositive, kNonNegative };

/// The number at `key` of `joint`: present, a number, in range.
double read_value(const json& joint, const std::string& where, const char* key, Range range) {
  const std::string path = where + "." + key;
  if (!joint.contains(key)) fail(path + ": missing key");
  const json& v = joint.at(key);
  if (!v.is_number()) fail(path + ": expected a number, got " + describe(v));
  const double x = v.get<double>();  // JSON cannot hold NaN/Inf; overflow fails in the parser
  const bool ok = range == Range::kPositive ? finite_positive(x) : (std::isfinite(x) && x >= 0.0);
  if (!ok)
    fail(path + ": must be finite and " + (range == Range::kPositive ? "> 0" : ">= 0") +
         " (link-side units); got " + round_trip_number(x));
  return x;
}

std::string movable_names(const JointList& joints) {
  std::string s;
  for (const ActuatedJoint& j : joints.movable) s += (s.empty() ? "" : ", ") + j.name;
  return s.empty() ? "none" : s;
}

std::string no_effort_limit(const ActuatedJoint& j) {
  return "the URDF gives no finite positive effort limit (<limit effort>; got " +
         round_trip_number(j.effort_limit) + ")";
}

JointActuator read_joint(const json& v, const std::string& where, const ActuatedJoint& urdf) {
  if (!v.is_object()) fail(where + ": expected an object, got " + describe(v));
  if (!v.contains("drive")) fail(where + ".drive: missing key");
  const json& drive = v.at("drive");
  const bool elastic = drive.is_string() && drive.get<std::string>() == "elastic";
  const bool rigid = drive.is_string() && drive.get<std::string>() == "rigid";
  if (!elastic && !rigid)
    fail(where + ".drive: must be \"rigid\" or \"elastic\"; got " + describe(drive));
  for (const auto& item : v.items()) {
    if (elastic ? is_one_of(item.key(), kElasticKeys) : is_one_of(item.key(), kRigidKeys)) continue;
    fail(where + ": unknown key " + json_quoted(item.key()) + " for a" +
         (elastic ? "n elastic joint (allowed: " + key_list(kElasticKeys)
                  : " rigid joint (allowed: " + key_list(kRigidKeys)) +
         ")");
  }
  if (v.contains("comment") && !v.at("comment").is_string())
    fail(where + ".comment: expected a string, got " + describe(v.at("comment")));
  if (elastic) {
    const double b = read_value(v, where, "motor_inertia", Range::kPositive);
    const double k = read_value(v, where, "stiffness", Range::kPositive);
    const double d = read_value(v, where, "damping", Range::kNonNegative);
    const double f = read_value(v, where, "motor_friction", Range::kNonNegative);
    const double u = read_value(v, where, "torque_limit", Range::kPositive);
    return elastic_joint(b, k, d, f, u);
  }
  if (v.contains("torque_limit"))
    return rigid_joint(read_value(v, where, "torque_limit", Range::kPositive));
  if (!finite_positive(urdf.effort_limit))
    fail(where + ": rigid without \"torque_limit\", and " + no_effort_limit(urdf));
  return rigid_joint(urdf.effort_limit);
}

JointActuators read_document(const json& doc, const JointList& joints) {
  if (!doc.is_object()) fail("expected a JSON object, got " + describe(doc));
  for (const auto& item : doc.items())
    if (!is_one_of(item.key(), kTopKeys))
      fail("unknown key " + json_quoted(item.key()) + " (allowed: " + key_list(kTopKeys) + ")");
  if (!doc.contains("version")) fail("version: missing key");
  const json& version = doc.at("version");
  if (!is_integer(version, kActuatorFileVersion))
    fail("version: expected " + std::to_string(kActuatorFileVersion) + ", got " +
         describe(version));
  if (doc.contains("comment") && !doc.at("comment").is_string())
    fail("comment: expected a string, got " + describe(doc.at("comment")));
  if (!doc.contains("joints")) fail("joints: missing key");
  const json& listed = doc.at("joints");
  if (!listed.is_object())
    fail("joints: expected an object {\"joint name\": {...}}, got " + describe(listed));
  for (const auto& item : listed.items()) {
    bool known = false;
    for (const ActuatedJoint& j : joints.movable) known = known || j.name == item.key();
    if (known) continue;
    for (const std::string& f : joints.fixed)
      if (f == item.key())
        fail("joints." + key_text(item.key()) +
             ": a fixed joint (lumped into its parent body) has no actuator");
    fail("joints." + key_text(item.key()) +
         ": no movable joint of that name in the URDF (joints: " + movable_names(joints) + ")");
  }
  JointActuators actuators;
  for (const ActuatedJoint& j : joints.movable) {
    if (listed.contains(j.name)) {
      actuators.push_back(read_joint(listed.at(j.name), "joints." + key_text(j.name), j));
    } else {
      if (!finite_positive(j.effort_limit))
        fail("joint '" + key_text(j.name) + "': not listed, so rigid, and " + no_effort_limit(j) +
             "; list it with a \"torque_limit\"");
      actuators.push_back(rigid_joint(j.effort_limit));
    }
  }
  return actuators;
}

}  // namespace

const char* drive_name(JointDrive drive) {
  return drive == JointDrive::kElastic ? "elastic" : "rigid";
}

ActuatorFile parse_actuator_json(const std::string& text, const std::string& origin,
                                 const JointList& joints) {
  ActuatorFile result;
  JsonParse parsed = parse_json_with_paths(text);
  if (!parsed.error.empty()) {
    result.error = origin + ": " + parsed.error;
    return result;
  }
  try {
    result.actuators = read_document(parsed.value, joints);
  } catch (const Failure& f) {
    result.actuators.clear();
    result.error = origin + ": " + f.message;
  }
  return result;
}

ActuatorFile parse_actuator_file(const std::string& path, const JointList& joints) {
  ActuatorFile result;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    result.error = path + ": cannot open: " + std::strerror(errno);
    return result;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    result.error = path + ": read error";
    return result;
  }
  return parse_actuator_json(text.str(), path, joints);
}

ActuatorFile default_actuators(const JointList& joints, const std::string& origin) {
  ActuatorFile result;
  for (const ActuatedJoint& j : joints.movable) {
    if (!finite_positive(j.effort_limit)) {
      result.actuators.clear();
      result.error = origin + ": joint '" + key_text(j.name) +
                     "': rigid (no actuators file), and " + no_effort_limit(j) +
                     "; give <limit effort> or an actuators file";
      return result;
    }
    result.actuators.push_back(rigid_joint(j.effort_limit));
  }
  return result;
}

}  // namespace robot_description
}  // namespace hodyn
