// hodyn/plugin/robot_identity.hpp — which robot a plugin, a host or an end of
// the HIL link flies, and the one rule by which two of them agree
// (docs/plugins.md, "Robot identity").
//
// A robot is identified by its id (hodyn::robot_id(), FNV-1a of its whole
// description: models/robot.hpp) and by its joint and rotor counts; two ends
// agree when all three are equal. The name is for messages only. A mismatch
// is Status::kRobotMismatch, never a flight with the wrong model.
//
//   plugin_robot<MyPlugin>()          // from the plugin class's static members
//   robot_identity<MyRobot>()         // from a robot type (models/robot.hpp)
//   robot_of(*api)                    // from a plugin's C table (ABI ≥ 2)
//   compare_robots(expected, actual)  // kOk or kRobotMismatch
#pragma once

#include <cstdint>
#include <type_traits>

#include "hodyn/plugin/abi.h"
#include "hodyn/status.hpp"

namespace hodyn {
namespace plugin {

struct RobotIdentity {
  const char* name = nullptr;  ///< for messages; not compared
  std::uint32_t id = 0;        ///< hodyn::robot_id() of the description
  std::uint32_t num_joints = 0;
  std::uint32_t num_rotors = 0;
};

/// kOk when `actual` is the `expected` robot (same id, joint and rotor
/// counts), kRobotMismatch otherwise.
constexpr Status compare_robots(const RobotIdentity& expected,
                                const RobotIdentity& actual) noexcept {
  return expected.id == actual.id && expected.num_joints == actual.num_joints &&
                 expected.num_rotors == actual.num_rotors
             ? Status::kOk
             : Status::kRobotMismatch;
}

/// The robot of a plugin table. Only for abi_version == HODYN_PLUGIN_ABI_VERSION
/// (an ABI-1 table ends before these fields).
inline RobotIdentity robot_of(const hodyn_plugin_api& api) noexcept {
  return RobotIdentity{api.robot_name, api.robot_id, api.num_joints, api.num_rotors};
}

/// Whether plugin class T names its robot: static members kRobotName
/// (const char*), kRobotId (std::uint32_t), kNumJoints and kNumRotors (integers).
template <class T, class = void>
struct HasRobotMembers : std::false_type {};
template <class T>
struct HasRobotMembers<T, std::void_t<decltype(T::kRobotName), decltype(T::kRobotId),
                                      decltype(T::kNumJoints), decltype(T::kNumRotors)>>
    : std::integral_constant<
          bool, std::is_convertible<decltype(T::kRobotName), const char*>::value &&
                    std::is_same<std::remove_cv_t<decltype(T::kRobotId)>, std::uint32_t>::value &&
                    std::is_integral<std::remove_cv_t<decltype(T::kNumJoints)>>::value &&
                    std::is_integral<std::remove_cv_t<decltype(T::kNumRotors)>>::value> {};

/// The robot plugin class T is built for, from its static members.
template <class T>
constexpr RobotIdentity plugin_robot() noexcept {
  static_assert(HasRobotMembers<T>::value,
                "a hodyn plugin class must name the robot it is built for: static constexpr "
                "members kRobotName (const char*), kRobotId (std::uint32_t, hodyn::robot_id), "
                "kNumJoints and kNumRotors (docs/plugins.md, \"Robot identity\")");
  if constexpr (HasRobotMembers<T>::value) {
    static_assert(T::kNumJoints >= 0 && T::kNumJoints <= HODYN_MAX_JOINTS,
                  "kNumJoints must be within 0..HODYN_MAX_JOINTS");
    static_assert(T::kNumRotors >= 0 && T::kNumRotors <= HODYN_MAX_ROTORS,
                  "kNumRotors must be within 0..HODYN_MAX_ROTORS");
    return RobotIdentity{T::kRobotName, T::kRobotId, static_cast<std::uint32_t>(T::kNumJoints),
                         static_cast<std::uint32_t>(T::kNumRotors)};
  } else {
    return RobotIdentity{};
  }
}

/// The identity of a robot type (models/robot.hpp: Tree, kNumRotors, kName, kId).
template <class Robot>
constexpr RobotIdentity robot_identity() noexcept {
  static_assert(
      Robot::Tree::kNumBodies - 1 <= HODYN_MAX_JOINTS && Robot::kNumRotors <= HODYN_MAX_ROTORS,
      "the robot does not fit the plugin ABI's capacities");
  return RobotIdentity{Robot::kName, Robot::kId,
                       static_cast<std::uint32_t>(Robot::Tree::kNumBodies - 1),
                       static_cast<std::uint32_t>(Robot::kNumRotors)};
}

}  // namespace plugin
}  // namespace hodyn
