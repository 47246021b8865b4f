// hodyn/robot_description/actuator_file.hpp — reading actuators.json, how each
// joint of a robot is driven (docs/robot-description.md, format in
// docs/state-format.md, "Joint actuators"). Desktop library: heap,
// std::string, nlohmann-json inside; the result is the core's
// hodyn::JointActuator (models/robot.hpp), one per joint in the order of q.
#pragma once

#include <string>
#include <vector>

#include <hodyn/models/robot.hpp>

namespace hodyn {
namespace robot_description {

/// The "version" an actuators.json must carry.
inline constexpr int kActuatorFileVersion = 1;

/// A movable joint of the robot as its URDF gives it: entry i of q.
struct ActuatedJoint {
  std::string name;
  double effort_limit = 0.0;  ///< URDF <limit effort> (N m or N); +inf or 0 when not given
};

/// The joints an actuators file may name: the movable joints in the order of
/// q, and the fixed joints (named only to refuse them with a clear message).
struct JointList {
  std::vector<ActuatedJoint> movable;
  std::vector<std::string> fixed;
};

using JointActuators = std::vector<JointActuator>;

/// Either one actuator per movable joint (error empty) or a one-line error
/// naming the file, and where it applies the joint and key, e.g.
///   robot/actuators.json: joints.arm_pitch.stiffness: must be finite and > 0; got -3.0
struct ActuatorFile {
  JointActuators actuators;
  std::string error;
  bool ok() const noexcept { return error.empty(); }
};

/// Reads and checks an actuators.json for `joints`: JSON syntax, keys and
/// types, every value in range; joints the file does not list are rigid with
/// the URDF effort limit, which must then be finite and > 0.
ActuatorFile parse_actuator_file(const std::string& path, const JointList& joints);

/// The same for JSON text; `origin` prefixes the error messages.
ActuatorFile parse_actuator_json(const std::string& text, const std::string& origin,
                                 const JointList& joints);

/// Without a file: every joint rigid with its URDF effort limit; an error
/// ("<origin>: joint 'x': ...") for a joint without a finite positive one.
ActuatorFile default_actuators(const JointList& joints, const std::string& origin);

/// "rigid" or "elastic": the "drive" value in the file and in --report.
const char* drive_name(JointDrive drive);

}  // namespace robot_description
}  // namespace hodyn
