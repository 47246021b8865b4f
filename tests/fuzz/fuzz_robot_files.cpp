// tests/fuzz/fuzz_robot_files.cpp — libFuzzer target of the robot
// description files hodyn-urdf and hodyn-rotors read: rotors.json
// (docs/rotors.md) and actuators.json (docs/robot-description.md), through
// hodyn_robot_description's text readers (docs/fuzzing.md).
//
// Byte 0 picks the file (even: rotors.json, odd: actuators.json for a fixed
// robot of four movable joints and one fixed joint); the rest is its text.
// Checked: no crash, no UB, nothing thrown; a rejected file has a one-line
// error starting with its name; accepted rotors pass the core's check
// (check_rotors: every rotor, at least 6, allocation of rank 6) and, written
// back (rotor_json_text) and read again, are the same numbers bit for bit,
// and their header text is generated; accepted actuators are one per
// movable joint, each as the core's check_robot requires (rigid: finite
// torque limit > 0; elastic: B, K, u_max > 0, D, F >= 0, finite), and an
// unlisted joint is rigid with its URDF effort limit.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include <hodyn/robot_description/actuator_file.hpp>
#include <hodyn/robot_description/rotor_file.hpp>
#include <hodyn/robot_description/rotor_header.hpp>
#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"

namespace {

namespace rd = hodyn::robot_description;

/// "<origin>: ..." on one line, no control character.
bool one_line_from(const std::string& error, const std::string& origin) {
  for (const char c : error)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  return error.rfind(origin + ": ", 0) == 0;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same_rotor(const hodyn::Rotor<double>& a, const hodyn::Rotor<double>& b) {
  for (int k = 0; k < 3; ++k)
    if (!same_bits(a.position(k), b.position(k)) || !same_bits(a.axis(k), b.axis(k))) return false;
  return a.spin == b.spin && same_bits(a.thrust_coefficient, b.thrust_coefficient) &&
         same_bits(a.drag_coefficient, b.drag_coefficient) && same_bits(a.min_speed, b.min_speed) &&
         same_bits(a.max_speed, b.max_speed) && same_bits(a.time_constant, b.time_constant);
}

void rotors(const std::string& text) {
  const rd::RotorFile file = rd::parse_rotor_json(text, "rotors.json");
  if (!file.ok()) {
    HODYN_FUZZ_CHECK(file.rotors.empty() && one_line_from(file.error, "rotors.json"));
    return;
  }
  HODYN_FUZZ_CHECK(file.rotors.size() >= static_cast<std::size_t>(rd::kMinRotors));
  HODYN_FUZZ_CHECK(rd::check_rotors(file.rotors, "rotors.json").empty());
  const rd::RotorFile again = rd::parse_rotor_json(rd::rotor_json_text(file.rotors), "again");
  HODYN_FUZZ_CHECK(again.ok() && again.rotors.size() == file.rotors.size());
  for (std::size_t i = 0; i < file.rotors.size(); ++i)
    HODYN_FUZZ_CHECK(same_rotor(file.rotors[i], again.rotors[i]));
  HODYN_FUZZ_CHECK(!rd::rotor_header_text(file.rotors, "fuzz_robot", "rotors.json").empty());
}

void actuators(const std::string& text) {
  rd::JointList joints;
  joints.movable = {{"shoulder", 12.5},
                    {"elbow", 0.0},  // no URDF effort limit: must be listed
                    {"wrist", std::numeric_limits<double>::infinity()},
                    {"slide", 40.0}};
  joints.fixed = {"camera_mount"};
  const rd::ActuatorFile file = rd::parse_actuator_json(text, "actuators.json", joints);
  if (!file.ok()) {
    HODYN_FUZZ_CHECK(file.actuators.empty() && one_line_from(file.error, "actuators.json"));
    return;
  }
  HODYN_FUZZ_CHECK(file.actuators.size() == joints.movable.size());
  const auto positive = [](double x) { return std::isfinite(x) && x > 0; };
  const auto non_negative = [](double x) { return std::isfinite(x) && x >= 0; };
  for (const hodyn::JointActuator& a : file.actuators) {
    HODYN_FUZZ_CHECK(positive(a.torque_limit));
    if (a.drive == hodyn::JointDrive::kElastic) {
      HODYN_FUZZ_CHECK(positive(a.motor_inertia) && positive(a.stiffness) &&
                       non_negative(a.damping) && non_negative(a.motor_friction));
    } else {
      HODYN_FUZZ_CHECK(a.drive == hodyn::JointDrive::kRigid);
    }
  }
  // An unlisted joint is rigid with its URDF limit.
  const nlohmann::json doc = nlohmann::json::parse(text);  // accepted: valid JSON
  for (std::size_t j = 0; j < joints.movable.size(); ++j) {
    if (doc.at("joints").contains(joints.movable[j].name)) continue;
    HODYN_FUZZ_CHECK(file.actuators[j].drive == hodyn::JointDrive::kRigid &&
                     file.actuators[j].torque_limit == joints.movable[j].effort_limit);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] % 2 == 0) {
    rotors(text);
  } else {
    actuators(text);
  }
  return 0;
}
