// hodyn/models/aerial_manipulator_robot.hpp — the 12-DoF aerial manipulator of
// seed 000 §7 as a robot type (models/robot.hpp): the TiltHex base with two
// 3-joint arms (aerial_manipulator.hpp), six elastic joints and six rotors
// (actuation.hpp, tilthex_rotor_set.hpp), with the parameters the controller
// and the simulator have always used. The same robot as data:
// core/robots/aerial_manipulator/ (URDF, rotors.json).
#pragma once

#include <cstdint>

#include "hodyn/models/actuation.hpp"
#include "hodyn/models/aerial_manipulator.hpp"
#include "hodyn/models/robot.hpp"
#include "hodyn/models/tilthex_rotor_set.hpp"

namespace hodyn {

struct AerialManipulatorRobot {
  using Tree = AerialManipulatorTree;
  static constexpr int kNumRotors = AerialManipulatorActuation::kNumRotors;
  static constexpr const char* kName = "aerial_manipulator";
  /// Hand-written robot: the id names the source of its numbers.
  static constexpr std::uint32_t kId =
      robot_id("aerial_manipulator: models/aerial_manipulator.hpp Table 3 + models/actuation.hpp");

  /// The robot with `body` and `actuation` (Table 3 and the default actuators
  /// when omitted). Joints are unbounded (seed 000 gives no limits); each
  /// joint's effort limit is its motor's torque limit.
  template <class Scalar = double>
  static Status describe(DescriptionOf<AerialManipulatorRobot, Scalar>& out,
                         const AerialManipulatorParameters& body = {},
                         const AerialManipulatorActuation& actuation = {}) noexcept {
    DescriptionOf<AerialManipulatorRobot, Scalar> robot;
    const Status s = make_aerial_manipulator<Scalar>(robot.model, body);
    if (s != Status::kOk) return s;
    for (std::size_t j = 0; j < actuation.joints.size(); ++j) {
      const ElasticJointParameters& p = actuation.joints[j];
      robot.actuators[j] = elastic_joint(p.motor_inertia, p.stiffness, p.damping,
                                         p.motor_friction, p.torque_limit);
      robot.limits[j] = JointLimits{};
      robot.limits[j].effort = p.torque_limit;
    }
    robot.rotors = tilthex_rotor_set<Scalar>(actuation.tilthex, actuation.rotors);
    const Status valid = check_robot(robot);
    if (valid != Status::kOk) return valid;
    out = robot;
    return Status::kOk;
  }
};

}  // namespace hodyn
