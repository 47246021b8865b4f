// Downstream program built against hodyn (tests/consumer/CMakeLists.txt):
// every target the consumer links is reachable and works.
//   hodyn::core     headers + Eigen; ScalarTraits
//   hodyn::plugin   the plugin ABI header
//   hodyn::link     (CONSUMER_HAS_LINK) CRC-32 against the standard check value
//   generated robot (CONSUMER_HAS_ROBOT) hodyn_urdf_generate() of
//                   core/robots/aerial_manipulator/aerial_manipulator.urdf:
//                   names, and the hover wrench at rest
//   hodyn::robot_json (CONSUMER_ROBOT_JSON) the generated parameters JSON
//                   loads into a model with the same hover wrench
//   NAME::controller (CONSUMER_HAS_CONTROLLER) hodyn_add_robot() of the same
//                   URDF: its plugin is registered for the robot's id, opens,
//                   and one step at rest at home is a command within the
//                   rotors' speed range
// Prints one line per check; exit status 0 only when all pass.
#include <hodyn/plugin/abi.h>
#include <hodyn/scalar_traits.hpp>

#include <Eigen/Core>

#include <cmath>
#include <cstdio>
#include <cstring>

#if CONSUMER_HAS_LINK
#include <hodyn/link/crc32.hpp>
#endif
#if CONSUMER_HAS_ROBOT
#include <hodyn/inverse_dynamics.hpp>

#include <aerial_manipulator.hpp>
#endif
#if CONSUMER_HAS_CONTROLLER
#include <aerial_manipulator_robot.hpp>
#include <hodyn/plugin/plugin_instance.hpp>
#include <hodyn/plugin/registry.hpp>
#endif
#ifdef CONSUMER_ROBOT_JSON
#include <hodyn/urdf/robot_json.hpp>

#include <string>
#endif

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}

#if CONSUMER_HAS_ROBOT
// The URDF's masses: base 2.5 kg, six arm links of 0.25 kg; g = 9.81 m/s².
// Both arms hang at x = ±0.09 m, y = 0 with equal masses, so at home and at
// rest the propulsion wrench is the weight, upwards, through the world
// origin: Q₁ = (0, 0, 0; 0, 0, 4.0 · 9.81).
void check_robot() {
  namespace robot = aerial_manipulator;
  static_assert(robot::Tree::kNumBodies == 7, "base + two 3-joint arms");
  check(std::strcmp(robot::kBodyNames[0], "base_link") == 0 &&
            std::strcmp(robot::kJointNames[5], "arm2_joint3") == 0,
        "generated header: URDF link and joint names");

  static hodyn::Model<robot::Tree, double> model;  // static: no large stack frames
  check(robot::make_model(model) == hodyn::Status::kOk, "make_model<double>");

  static hodyn::MotionDerivatives<robot::Tree, 2> motion;
  static hodyn::InverseDynamicsData<robot::Tree, 2> id;
  check(hodyn::inverse_dynamics(model, id, motion, 2) == hodyn::Status::kOk,
        "inverse_dynamics, order 2, at home and at rest");
  const double weight = 4.0 * 9.81;
  Eigen::Matrix<double, 6, 1> expected;
  expected << 0, 0, 0, 0, 0, weight;
  const double error = (id.base_wrench[0] - expected).norm();
  std::printf("      Q1 = (%.6g %.6g %.6g; %.6g %.6g %.6g), |Q1 - weight| = %.3g N\n",
              id.base_wrench[0](0), id.base_wrench[0](1), id.base_wrench[0](2),
              id.base_wrench[0](3), id.base_wrench[0](4), id.base_wrench[0](5), error);
  check(error <= 1e-12 * weight, "hover wrench = total weight of the URDF");
  check(id.base_wrench[1].norm() <= 1e-12 * weight && id.base_wrench[2].norm() <= 1e-12 * weight,
        "its derivatives vanish at rest");

#ifdef CONSUMER_ROBOT_JSON
  // The JSON holds the same parameters as the header: the same wrench.
  static hodyn::Model<robot::Tree, double> loaded;
  std::string message;
  const hodyn::Status s = hodyn::urdf::load_robot_json_file(
      CONSUMER_ROBOT_JSON, loaded, robot::kBodyNames, robot::kJointNames, &message);
  if (s != hodyn::Status::kOk) std::printf("      %s\n", message.c_str());
  check(s == hodyn::Status::kOk, "hodyn::robot_json: the generated parameters JSON loads");
  static hodyn::InverseDynamicsData<robot::Tree, 2> id_loaded;
  check(hodyn::inverse_dynamics(loaded, id_loaded, motion, 2) == hodyn::Status::kOk &&
            (id_loaded.base_wrench[0] - expected).norm() <= 1e-12 * weight,
        "hodyn::robot_json: its model gives the hover wrench too");
#endif
}
#endif

#if CONSUMER_HAS_CONTROLLER
// The controller hodyn_add_robot() registered: found by name and robot id,
// opened for the robot, one step at rest at home holding that pose.
void check_controller() {
  using Robot = aerial_manipulator::Robot;
  const hodyn_plugin_api* api =
      hodyn::plugin::plugin_registry().find("feedback_linearization", Robot::kId);
  check(api != nullptr, "NAME::controller: \"feedback_linearization\" registered for the robot id");
  static hodyn::plugin::PluginInstance<64 * 1024> controller;
  check(controller.open(api, hodyn::plugin::robot_identity<Robot>()) == hodyn::Status::kOk,
        "NAME::controller: opens for aerial_manipulator::Robot");
  hodyn_sensors sensors{};
  hodyn_reference reference{};
  hodyn_command command{};
  sensors.num_joints = reference.num_joints = 6;
  sensors.num_rotors = 6;
  sensors.base_orientation[0] = reference.base_orientation[0] = 1.0;
  sensors.base_position[2] = reference.base_position[0][2] = 1.0;
  const auto rotors = aerial_manipulator::make_rotors<double>();
  // Rotors spinning well inside their range: at exactly the minimum speed the
  // first step's command sits on that limit, and whether rounding puts it a
  // hair below (kActuatorSaturated) differed between x86-64 and aarch64 (FMA).
  for (int i = 0; i < Robot::kNumRotors; ++i)
    sensors.rotor_speed[i] = 0.5 * (rotors[i].min_speed + rotors[i].max_speed);
  const hodyn::Status s = controller.update(sensors, reference, command);
  bool in_range = command.num_rotors == 6u;
  for (int i = 0; i < Robot::kNumRotors; ++i)
    in_range = in_range && command.rotor_speed[i] >= rotors[i].min_speed &&
               command.rotor_speed[i] <= rotors[i].max_speed;
  std::printf("      status %d, rotor speed command %.1f ... %.1f rad/s\n", static_cast<int>(s),
              command.rotor_speed[0], command.rotor_speed[5]);
  check(s == hodyn::Status::kOk && in_range, "NAME::controller: one step, rotor speeds in range");
}
#endif

}  // namespace

int main() {
  const Eigen::Vector3d v(1.0, 2.0, 3.0);
  check(hodyn::ScalarTraits<double>::is_finite(v.sum()), "hodyn::core: headers and Eigen");
  check(HODYN_PLUGIN_ABI_VERSION >= 1u && sizeof(hodyn_sensors) > 0,
        "hodyn::plugin: the plugin ABI header");
#if CONSUMER_HAS_LINK
  const char digits[] = "123456789";
  check(hodyn::link::crc32(reinterpret_cast<const std::uint8_t*>(digits), 9) == 0xCBF43926u,
        "hodyn::link: crc32(\"123456789\") = 0xCBF43926");
#endif
#if CONSUMER_HAS_ROBOT
  check_robot();
#endif
#if CONSUMER_HAS_CONTROLLER
  check_controller();
#endif
  std::printf("%d failed\n", failures);
  return failures == 0 ? 0 : 1;
}
