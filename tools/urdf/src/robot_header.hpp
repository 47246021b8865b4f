// tools/urdf/src/robot_header.hpp — the robot type header of hodyn-urdf
// --robot-header and the robot id (docs/robot-description.md).
#pragma once

#include "robot_model.hpp"

#include <hodyn/robot_description/actuator_file.hpp>
#include <hodyn/robot_description/rotor_file.hpp>

#include <cstdint>
#include <string>

namespace hodyn_urdf {

/// The canonical text the robot id is computed from: the name, then every
/// number of the model (body parents, joint kinds, home poses, masses, centres
/// of mass, inertias, axes, points, gravity), the joint limits, the rotors and
/// the actuators, each printed with %.17g, one line per body, rotor and
/// actuator. Any change of the robot changes the text.
std::string robot_identity_text(const std::string& name, const RobotModel& model,
                                const hodyn::robot_description::Rotors& rotors,
                                const hodyn::robot_description::JointActuators& actuators);

/// hodyn::robot_id (FNV-1a 32) of that text.
std::uint32_t robot_identity(const std::string& identity_text);

struct RobotHeaderInputs {
  std::string name;               ///< --name: the namespace and Robot::kName
  std::string model_header_file;  ///< file names (no directories): #include "..."
  std::string rotor_header_file;
  std::string robot_header_file;
  std::string urdf_file, rotor_file, actuator_file;  ///< for the first comment; actuator may be ""
  hodyn::robot_description::JointActuators actuators;  ///< one per joint, order of q
  std::uint32_t id = 0;
};

/// The header text: kJointActuators and struct Robot in namespace `name`,
/// including the model and rotor headers by file name (same directory).
std::string robot_header(const RobotModel& model, const RobotHeaderInputs& in);

}  // namespace hodyn_urdf
