// Reading, checking and writing rotors.json (rotor_file.hpp; the format is in
// docs/state-format.md, "Rotor description").
#include "hodyn/robot_description/rotor_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/SVD>
#include <nlohmann/json.hpp>

#include <hodyn/robot_description/json_paths.hpp>

namespace hodyn {
namespace robot_description {
namespace {

using json = nlohmann::json;

constexpr const char* kTopKeys[] = {"version", "rotors", "comment"};
constexpr const char* kRotorKeys[] = {
    "position",  "axis",          "spin",   "thrust_coefficient", "drag_coefficient", "min_speed",
    "max_speed", "time_constant", "comment"};
constexpr RotorField kRequiredFields[] = {RotorField::kPosition,
                                          RotorField::kAxis,
                                          RotorField::kSpin,
                                          RotorField::kThrustCoefficient,
                                          RotorField::kDragCoefficient,
                                          RotorField::kMinSpeed,
                                          RotorField::kMaxSpeed,
                                          RotorField::kTimeConstant};

// A failed check: thrown inside this file only, caught in parse_rotor_json.
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

/// "string \"x\"", "null", "a list of 2", "number 3" — for messages (one line).
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

/// v is a JSON integer equal to `value` (1.0 is not an integer here).
bool is_integer(const json& v, long long value) {
  if (v.is_number_unsigned())
    return value >= 0 && v.get<unsigned long long>() == static_cast<unsigned long long>(value);
  return v.is_number_integer() && v.get<long long>() == value;
}

double read_number(const json& v, const std::string& where) {
  if (!v.is_number()) fail(where + ": expected a number, got " + describe(v));
  return v.get<double>();  // JSON cannot hold NaN/Inf; overflow fails in the parser
}

Vector3<double> read_vector3(const json& v, const std::string& where) {
  if (!v.is_array() || v.size() != 3)
    fail(where + ": expected a list of 3 numbers, got " + describe(v));
  Vector3<double> x;
  for (std::size_t k = 0; k < 3; ++k)
    x(static_cast<int>(k)) = read_number(v[k], where + "[" + std::to_string(k) + "]");
  return x;
}

std::string vector_text(const Vector3<double>& x) {
  return "[" + round_trip_number(x(0)) + ", " + round_trip_number(x(1)) + ", " +
         round_trip_number(x(2)) + "]";
}

std::string field_value_text(const Rotor<double>& r, RotorField field) {
  switch (field) {
    case RotorField::kPosition:
      return vector_text(r.position);
    case RotorField::kAxis: {
      std::ostringstream s;
      s.precision(3);
      s << vector_text(r.axis) << " (|a|^2 - 1 = " << r.axis.squaredNorm() - 1.0 << ")";
      return s.str();
    }
    case RotorField::kSpin:
      return std::to_string(r.spin);
    case RotorField::kThrustCoefficient:
      return round_trip_number(r.thrust_coefficient);
    case RotorField::kDragCoefficient:
      return round_trip_number(r.drag_coefficient);
    case RotorField::kMinSpeed:
      return round_trip_number(r.min_speed);
    case RotorField::kMaxSpeed:
      return round_trip_number(r.max_speed) + " (min_speed " + round_trip_number(r.min_speed) + ")";
    case RotorField::kTimeConstant:
      return round_trip_number(r.time_constant);
    case RotorField::kNone:
      break;
  }
  return "";
}

Rotor<double> read_rotor(const json& v, const std::string& where) {
  if (!v.is_object()) fail(where + ": expected an object, got " + describe(v));
  for (const auto& item : v.items())
    if (!is_one_of(item.key(), kRotorKeys))
      fail(where + ": unknown key " + json_quoted(item.key()) +
           " (allowed: " + key_list(kRotorKeys) + ")");
  for (const RotorField f : kRequiredFields)
    if (!v.contains(rotor_field_name(f))) fail(where + "." + rotor_field_name(f) + ": missing key");
  const auto at = [&](RotorField f) -> const json& { return v.at(rotor_field_name(f)); };
  const auto path = [&](RotorField f) { return where + "." + rotor_field_name(f); };
  Rotor<double> r;
  r.position = read_vector3(at(RotorField::kPosition), path(RotorField::kPosition));
  r.axis = read_vector3(at(RotorField::kAxis), path(RotorField::kAxis));
  const json& spin = at(RotorField::kSpin);
  if (!is_integer(spin, 1) && !is_integer(spin, -1))
    fail(path(RotorField::kSpin) + ": must be " + rotor_field_requirement(RotorField::kSpin) +
         "; got " + describe(spin));
  r.spin = spin.get<int>();
  r.thrust_coefficient =
      read_number(at(RotorField::kThrustCoefficient), path(RotorField::kThrustCoefficient));
  r.drag_coefficient =
      read_number(at(RotorField::kDragCoefficient), path(RotorField::kDragCoefficient));
  r.min_speed = read_number(at(RotorField::kMinSpeed), path(RotorField::kMinSpeed));
  r.max_speed = read_number(at(RotorField::kMaxSpeed), path(RotorField::kMaxSpeed));
  r.time_constant = read_number(at(RotorField::kTimeConstant), path(RotorField::kTimeConstant));
  if (v.contains("comment") && !v.at("comment").is_string())
    fail(where + ".comment: expected a string, got " + describe(v.at("comment")));
  return r;
}

Rotors read_document(const json& doc) {
  if (!doc.is_object()) fail("expected a JSON object, got " + describe(doc));
  for (const auto& item : doc.items())
    if (!is_one_of(item.key(), kTopKeys))
      fail("unknown key " + json_quoted(item.key()) + " (allowed: " + key_list(kTopKeys) + ")");
  if (!doc.contains("version")) fail("version: missing key");
  const json& version = doc.at("version");
  if (!is_integer(version, kRotorFileVersion))
    fail("version: expected " + std::to_string(kRotorFileVersion) + ", got " + describe(version));
  if (doc.contains("comment") && !doc.at("comment").is_string())
    fail("comment: expected a string, got " + describe(doc.at("comment")));
  if (!doc.contains("rotors")) fail("rotors: missing key");
  const json& list = doc.at("rotors");
  if (!list.is_array()) fail("rotors: expected a list of rotors, got " + describe(list));
  Rotors rotors;
  for (std::size_t i = 0; i < list.size(); ++i)
    rotors.push_back(read_rotor(list[i], "rotors[" + std::to_string(i) + "]"));
  return rotors;
}

Eigen::Matrix<double, 6, Eigen::Dynamic> allocation(const Rotors& rotors) {
  Eigen::Matrix<double, 6, Eigen::Dynamic> a(6, static_cast<Eigen::Index>(rotors.size()));
  for (std::size_t i = 0; i < rotors.size(); ++i)
    a.col(static_cast<Eigen::Index>(i)) = rotor_wrench_per_speed_squared(rotors[i]);
  return a;
}

}  // namespace

std::string round_trip_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return json(x).dump();  // nlohmann: shortest text that reads back exactly, ".0" on integers
}

std::vector<double> allocation_singular_values(const Rotors& rotors) {
  if (rotors.empty()) return {};
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(allocation(rotors));
  const Eigen::VectorXd s = svd.singularValues();
  return std::vector<double>(s.data(), s.data() + s.size());
}

std::string check_rotors(const Rotors& rotors, const std::string& origin) {
  const std::string prefix = origin + ": ";
  if (rotors.size() < static_cast<std::size_t>(kMinRotors))
    return prefix + "rotors: " + std::to_string(rotors.size()) + " rotor(s), at least " +
           std::to_string(kMinRotors) + " needed for a 6-DoF wrench";
  for (std::size_t i = 0; i < rotors.size(); ++i) {
    RotorField field = RotorField::kNone;
    const Status s = check_rotor(rotors[i], &field);
    if (s == Status::kOk) continue;
    const std::string what = s == Status::kNonFiniteInput
                                 ? "must be finite"
                                 : std::string("must be ") + rotor_field_requirement(field);
    return prefix + "rotors[" + std::to_string(i) + "]." + rotor_field_name(field) + ": " + what +
           "; got " + field_value_text(rotors[i], field);
  }
  const std::vector<double> sigma = allocation_singular_values(rotors);
  int rank = 0;
  for (const double s : sigma)
    if (s > kMinSingularValueRatio * sigma[0]) ++rank;
  if (rank < 6) {
    std::ostringstream text;
    text.precision(3);
    text << prefix << "rotors: the allocation matrix has rank " << rank << " < 6 (singular values";
    for (const double s : sigma) text << ' ' << s;
    text << "): these rotors cannot produce every wrench";
    return text.str();
  }
  return "";
}

RotorFile parse_rotor_json(const std::string& text, const std::string& origin) {
  RotorFile result;
  JsonParse parsed = parse_json_with_paths(text);
  if (!parsed.error.empty()) {
    result.error = origin + ": " + parsed.error;
    return result;
  }
  try {
    result.rotors = read_document(parsed.value);
  } catch (const Failure& f) {
    result.rotors.clear();
    result.error = origin + ": " + f.message;
    return result;
  }
  result.error = check_rotors(result.rotors, origin);
  if (!result.ok()) result.rotors.clear();
  return result;
}

RotorFile parse_rotor_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    RotorFile result;
    result.error = path + ": cannot open: " + std::strerror(errno);
    return result;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    RotorFile result;
    result.error = path + ": read error";
    return result;
  }
  return parse_rotor_json(text.str(), path);
}

std::string rotor_json_text(const Rotors& rotors, const std::string& comment) {
  std::string s = "{\n  \"version\": " + std::to_string(kRotorFileVersion) + ",\n";
  if (!comment.empty()) s += "  \"comment\": " + json(comment).dump() + ",\n";
  s += "  \"rotors\": [";
  for (std::size_t i = 0; i < rotors.size(); ++i) {
    const Rotor<double>& r = rotors[i];
    s += i == 0 ? "\n" : ",\n";
    s += "    {\n";
    s += "      \"position\": " + vector_text(r.position) + ",\n";
    s += "      \"axis\": " + vector_text(r.axis) + ",\n";
    s += "      \"spin\": " + std::to_string(r.spin) + ",\n";
    s += "      \"thrust_coefficient\": " + round_trip_number(r.thrust_coefficient) + ",\n";
    s += "      \"drag_coefficient\": " + round_trip_number(r.drag_coefficient) + ",\n";
    s += "      \"min_speed\": " + round_trip_number(r.min_speed) + ",\n";
    s += "      \"max_speed\": " + round_trip_number(r.max_speed) + ",\n";
    s += "      \"time_constant\": " + round_trip_number(r.time_constant) + "\n";
    s += "    }";
  }
  s += "\n  ]\n}\n";
  return s;
}

}  // namespace robot_description
}  // namespace hodyn
