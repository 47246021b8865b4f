// The plugin interface: static registry, C ABI, shared-library loading, and
// the feedback-linearization plugin's parameters and frame conversion.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstddef>
#include <cstring>
#include <limits>
#include <set>
#include <string>

#include <hodyn/control/feedback_linearization_plugin.hpp>
#include <hodyn/models/aerial_manipulator_robot.hpp>
#include <hodyn/plugin/frames.hpp>
#include <hodyn/plugin/plugin_instance.hpp>
#include <hodyn/plugin/registry.hpp>
#include <hodyn/plugin/robot_identity.hpp>

#include "support/heap_counter.hpp"

extern "C" size_t hodyn_test_c_sizeof(int which);
extern "C" const hodyn_plugin_api* hodyn_test_c_table(void);

namespace {

using namespace hodyn;
using plugin::plugin_registry;
using plugin::PluginInstance;

const hodyn_plugin_api* registered() { return plugin_registry().find("feedback_linearization"); }

// Robot hovering at the start of the Table 3 reference.
void table3_frames(double t, hodyn_sensors& s, hodyn_reference& r) {
  plugin::table3_reference(Table3Trajectory{}, t, r);
  s = hodyn_sensors{};
  s.time = t;
  s.num_joints = 6;
  s.num_rotors = 6;
  for (int i = 0; i < 3; ++i) s.base_position[i] = r.base_position[0][i];
  for (int i = 0; i < 4; ++i) s.base_orientation[i] = r.base_orientation[i];
  for (int j = 0; j < 6; ++j) {
    s.joint_position[j] = r.joint_position[0][j];
    s.motor_position[j] = r.joint_position[0][j];
    s.rotor_speed[j] = 801.5;
  }
}

TEST(PluginAbi, LayoutsAreTheSameInCAndCxx) {
  EXPECT_EQ(hodyn_test_c_sizeof(0), sizeof(hodyn_sensors));
  EXPECT_EQ(hodyn_test_c_sizeof(1), sizeof(hodyn_reference));
  EXPECT_EQ(hodyn_test_c_sizeof(2), sizeof(hodyn_command));
  EXPECT_EQ(hodyn_test_c_sizeof(3), sizeof(hodyn_parameter));
  EXPECT_EQ(hodyn_test_c_sizeof(4), sizeof(hodyn_parameter_info));
  EXPECT_EQ(hodyn_test_c_sizeof(5), sizeof(hodyn_plugin_api));
  EXPECT_EQ(hodyn_test_c_sizeof(6), offsetof(hodyn_sensors, rotor_speed));
  EXPECT_EQ(hodyn_test_c_sizeof(7), offsetof(hodyn_reference, joint_position));
  EXPECT_EQ(hodyn_test_c_sizeof(8), offsetof(hodyn_command, motor_torque));
  // ABI 2: the robot fields sit after the function table, where C puts them.
  EXPECT_EQ(hodyn_test_c_sizeof(9), offsetof(hodyn_plugin_api, parameter_info));
  EXPECT_EQ(hodyn_test_c_sizeof(10), offsetof(hodyn_plugin_api, robot_name));
  EXPECT_EQ(hodyn_test_c_sizeof(11), offsetof(hodyn_plugin_api, robot_id));
  EXPECT_EQ(hodyn_test_c_sizeof(12), offsetof(hodyn_plugin_api, num_joints));
  EXPECT_EQ(hodyn_test_c_sizeof(13), offsetof(hodyn_plugin_api, num_rotors));
  EXPECT_GT(offsetof(hodyn_plugin_api, robot_name), offsetof(hodyn_plugin_api, parameter_info));
}

TEST(PluginAbi, AVersion2TableWrittenInCCarriesItsRobot) {
  EXPECT_EQ(HODYN_PLUGIN_ABI_VERSION, 2u);
  const hodyn_plugin_api* c = hodyn_test_c_table();
  ASSERT_NE(c, nullptr);
  const plugin::RobotIdentity robot = plugin::robot_of(*c);
  EXPECT_STREQ(robot.name, "c_robot");
  EXPECT_EQ(robot.id, 0xC0FFEEu);
  EXPECT_EQ(robot.num_joints, 3u);
  EXPECT_EQ(robot.num_rotors, 8u);
}

TEST(PluginRegistry, FeedbackLinearizationIsRegisteredStatically) {
  const hodyn_plugin_api* api = registered();
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, HODYN_PLUGIN_ABI_VERSION);
  EXPECT_STREQ(api->name, "feedback_linearization");
  EXPECT_EQ(api->instance_size, sizeof(control::FeedbackLinearizationPlugin));
  // Built for the 12-DoF robot: its name, id and counts are in the table.
  EXPECT_STREQ(api->robot_name, "aerial_manipulator");
  EXPECT_EQ(api->robot_id, AerialManipulatorRobot::kId);
  EXPECT_EQ(api->num_joints, 6u);
  EXPECT_EQ(api->num_rotors, 6u);
  EXPECT_EQ(plugin_registry().find("feedback_linearization", AerialManipulatorRobot::kId), api);
  EXPECT_EQ(plugin_registry().find("feedback_linearization", AerialManipulatorRobot::kId + 1),
            nullptr);
  EXPECT_EQ(plugin_registry().find("no_such_plugin"), nullptr);
  // The same table twice is refused ((name, robot id) is unique).
  EXPECT_EQ(plugin_registry().add(api), Status::kInvalidArgument);
  hodyn_plugin_api other = *api;
  other.abi_version = 999;
  other.name = "future";
  EXPECT_EQ(plugin_registry().add(&other), Status::kAbiMismatch);
  std::printf("plugin instance: %zu bytes\n", api->instance_size);
}

TEST(PluginInstance, RefusesTooSmallStorageAndAbiMismatch) {
  PluginInstance<64> tiny;
  EXPECT_EQ(tiny.open(registered()), Status::kInvalidArgument);
  EXPECT_FALSE(tiny.is_open());
  hodyn_command cmd;
  EXPECT_EQ(tiny.update(hodyn_sensors{}, hodyn_reference{}, cmd), Status::kNotConfigured);
  EXPECT_EQ(cmd.mode, static_cast<std::uint32_t>(HODYN_MODE_DISARMED));
  // init itself checks the buffer.
  alignas(64) static unsigned char small[16];
  EXPECT_EQ(registered()->init(small, sizeof(small)),
            static_cast<std::int32_t>(Status::kInvalidArgument));
}

// ---- robot identity (ABI 2) --------------------------------------------------

// A minimal plugin built for robot (Id, Joints, Rotors); counts its constructions.
template <std::uint32_t Id, int Joints, int Rotors>
class RobotBoundPlugin final : public plugin::ControllerPlugin {
 public:
  static constexpr const char* kRobotName = "test_robot";
  static constexpr std::uint32_t kRobotId = Id;
  static constexpr int kNumJoints = Joints;
  static constexpr int kNumRotors = Rotors;
  static int constructed;

  RobotBoundPlugin() noexcept { ++constructed; }
  Status configure(const plugin::Parameter*, std::size_t) noexcept override { return Status::kOk; }
  void reset() noexcept override {}
  Status update(const plugin::Sensors& sensors, const plugin::Reference&,
                plugin::Command& command) noexcept override {
    command = plugin::Command{};
    command.time = sensors.time;
    return Status::kOk;
  }
  std::size_t parameter_count() const noexcept override { return 0; }
  Status parameter_info(std::size_t, plugin::ParameterInfo&) const noexcept override {
    return Status::kInvalidArgument;
  }
};
template <std::uint32_t Id, int Joints, int Rotors>
int RobotBoundPlugin<Id, Joints, Rotors>::constructed = 0;

using RobotA = RobotBoundPlugin<0x1234u, 4, 8>;
using RobotB = RobotBoundPlugin<0x5678u, 4, 8>;

TEST(PluginRobot, TheTableCarriesThePluginClassRobot) {
  const hodyn_plugin_api* a = plugin::plugin_api<RobotA>("bound");
  EXPECT_STREQ(a->robot_name, "test_robot");
  EXPECT_EQ(a->robot_id, 0x1234u);
  EXPECT_EQ(a->num_joints, 4u);
  EXPECT_EQ(a->num_rotors, 8u);
  // A robot type gives the same identity as a plugin built for it.
  constexpr plugin::RobotIdentity am = plugin::robot_identity<AerialManipulatorRobot>();
  EXPECT_EQ(am.id, AerialManipulatorRobot::kId);
  EXPECT_EQ(am.num_joints, 6u);
  EXPECT_EQ(am.num_rotors, 6u);
  EXPECT_EQ(plugin::compare_robots(am, plugin::robot_of(*registered())), Status::kOk);
}

TEST(PluginRobot, MatchingRobotOpens) {
  static PluginInstance<65536> inst;
  ASSERT_EQ(inst.open(registered(), plugin::robot_identity<AerialManipulatorRobot>()), Status::kOk);
  EXPECT_TRUE(inst.is_open());
  EXPECT_EQ(inst.robot().id, AerialManipulatorRobot::kId);
  EXPECT_STREQ(inst.robot().name, "aerial_manipulator");
  inst.close();
  EXPECT_EQ(inst.robot().id, 0u);
}

TEST(PluginRobot, AnotherRobotIsAMismatchAndNoInstance) {
  static PluginInstance<4096> inst;
  const hodyn_plugin_api* api = plugin::plugin_api<RobotA>("bound");
  const plugin::RobotIdentity good{"test_robot", 0x1234u, 4, 8};
  plugin::RobotIdentity wrong_id = good, wrong_joints = good, wrong_rotors = good;
  wrong_id.id = 0x1235u;
  wrong_joints.num_joints = 5;
  wrong_rotors.num_rotors = 6;
  plugin::RobotIdentity renamed = good;
  renamed.name = "same robot, another label";  // the name is not compared

  const int before = RobotA::constructed;
  for (const plugin::RobotIdentity& expected : {wrong_id, wrong_joints, wrong_rotors}) {
    EXPECT_EQ(inst.open(api, expected), Status::kRobotMismatch);
    EXPECT_FALSE(inst.is_open());
    hodyn_command cmd;
    cmd.mode = 77;
    EXPECT_EQ(inst.update(hodyn_sensors{}, hodyn_reference{}, cmd), Status::kNotConfigured);
    EXPECT_EQ(cmd.mode, static_cast<std::uint32_t>(HODYN_MODE_DISARMED));
  }
  EXPECT_EQ(RobotA::constructed, before);  // init never ran

  ASSERT_EQ(inst.open(api, renamed), Status::kOk);
  EXPECT_EQ(RobotA::constructed, before + 1);
  // A failed open of another robot closes the instance that was open.
  EXPECT_EQ(inst.open(api, wrong_id), Status::kRobotMismatch);
  EXPECT_FALSE(inst.is_open());

  // The feedback-linearization plugin refuses another robot the same way.
  static PluginInstance<65536> fl;
  plugin::RobotIdentity octo{"octo_arm", AerialManipulatorRobot::kId ^ 1u, 4, 8};
  EXPECT_EQ(fl.open(registered(), octo), Status::kRobotMismatch);
  EXPECT_FALSE(fl.is_open());
}

TEST(PluginRobot, AbiVersionMismatchComesFirst) {
  // An ABI-1 table ends before the robot fields: the version is checked first,
  // whatever the robot fields of this copy say.
  hodyn_plugin_api old = *registered();
  old.abi_version = 1;
  static PluginInstance<65536> inst;
  EXPECT_EQ(inst.open(&old, plugin::robot_identity<AerialManipulatorRobot>()),
            Status::kAbiMismatch);
  old.robot_id ^= 1u;
  EXPECT_EQ(inst.open(&old, plugin::robot_identity<AerialManipulatorRobot>()),
            Status::kAbiMismatch);
  EXPECT_EQ(inst.open(&old), Status::kAbiMismatch);
  EXPECT_FALSE(inst.is_open());
}

TEST(PluginRobot, RegistryHoldsOneNameForSeveralRobots) {
  plugin::PluginRegistry registry;  // a local one: the process-wide registry stays as it is
  const hodyn_plugin_api* a = plugin::plugin_api<RobotA>("bound");
  const hodyn_plugin_api* b = plugin::plugin_api<RobotB>("bound");
  ASSERT_EQ(registry.add(a), Status::kOk);
  EXPECT_EQ(registry.find("bound"), a);  // unambiguous while one robot has the name
  ASSERT_EQ(registry.add(b), Status::kOk);
  EXPECT_EQ(registry.add(b), Status::kInvalidArgument);  // same name, same robot
  EXPECT_EQ(registry.size(), 2u);
  EXPECT_EQ(registry.find("bound", 0x1234u), a);
  EXPECT_EQ(registry.find("bound", 0x5678u), b);
  EXPECT_EQ(registry.find("bound", 0x9999u), nullptr);
  EXPECT_EQ(registry.find("other", 0x1234u), nullptr);
  EXPECT_EQ(registry.find("bound"), nullptr);  // two robots: never a guess
}

TEST(FeedbackLinearizationPlugin, ParametersAreListedWithDefaultsInRange) {
  static PluginInstance<65536> inst;
  ASSERT_EQ(inst.open(registered()), Status::kOk);
  const std::size_t n = inst.parameter_count();
  EXPECT_GE(n, 18u);
  std::set<std::string> names;
  for (std::size_t i = 0; i < n; ++i) {
    plugin::ParameterInfo info;
    ASSERT_EQ(inst.parameter_info(i, info), Status::kOk);
    names.insert(info.name);
    EXPECT_GE(info.default_value, info.min_value) << info.name;
    EXPECT_LE(info.default_value, info.max_value) << info.name;
  }
  EXPECT_EQ(names.size(), n);
  EXPECT_TRUE(names.count("rate_hz") && names.count("joint_bandwidth") &&
              names.count("position_bandwidth") && names.count("joint_limit_margin"));
  // The robot is the plugin's build-time description, not a run-time parameter.
  EXPECT_FALSE(names.count("base_mass") || names.count("joint_stiffness") ||
               names.count("rotor_max_speed") || names.count("tilthex_tilt_alpha"));
  plugin::ParameterInfo info;
  EXPECT_EQ(inst.parameter_info(n, info), Status::kInvalidArgument);
}

TEST(FeedbackLinearizationPlugin, ConfigureIsAllOrNothing) {
  static PluginInstance<65536> inst;
  ASSERT_EQ(inst.open(registered()), Status::kOk);
  hodyn_parameter p[2]{};
  plugin::copy_name(p[0].name, "rate_hz");
  p[0].value = 2000.0;
  plugin::copy_name(p[1].name, "no_such_parameter");
  EXPECT_EQ(inst.configure(p, 2), Status::kInvalidArgument);
  plugin::copy_name(p[1].name, "joint_bandwidth");
  p[1].value = -5.0;  // below its range
  EXPECT_EQ(inst.configure(p, 2), Status::kInvalidArgument);
  p[1].value = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(inst.configure(p, 2), Status::kNonFiniteInput);
  p[1].value = 30.0;
  EXPECT_EQ(inst.configure(p, 2), Status::kOk);
}

TEST(FeedbackLinearizationPlugin, TracksAndWritesCompleteCommands) {
  static PluginInstance<65536> inst;
  ASSERT_EQ(inst.open(registered()), Status::kOk);
  hodyn_sensors s;
  hodyn_reference r;
  table3_frames(0.0, s, r);
  hodyn_command cmd;
  const Status st = inst.update(s, r, cmd);
  EXPECT_TRUE(st == Status::kOk || st == Status::kActuatorSaturated) << to_string(st);
  EXPECT_EQ(cmd.num_joints, 6u);
  EXPECT_EQ(cmd.num_rotors, 6u);
  EXPECT_EQ(cmd.time, 0.0);
  EXPECT_EQ(cmd.status, static_cast<std::int32_t>(st));
  for (int i = 0; i < 6; ++i) {
    EXPECT_GE(cmd.rotor_speed[i], 100.0);
    EXPECT_LE(cmd.rotor_speed[i], 1200.0);
  }
  // Heap-free through the C ABI too.
  test::HeapProbe probe;
  for (int i = 1; i <= 50; ++i) {
    table3_frames(1e-3 * i, s, r);
    (void)inst.update(s, r, cmd);
  }
  EXPECT_EQ(probe.count(), 0);
}

TEST(FeedbackLinearizationPlugin, BadFramesGiveSafeCommands) {
  static PluginInstance<65536> inst;
  ASSERT_EQ(inst.open(registered()), Status::kOk);
  hodyn_sensors s;
  hodyn_reference r;
  table3_frames(0.0, s, r);
  hodyn_command cmd;
  (void)inst.update(s, r, cmd);
  // A quaternion of norm 2 is not a measurement.
  table3_frames(0.001, s, r);
  for (double& q : s.base_orientation) q *= 2.0;
  EXPECT_EQ(inst.update(s, r, cmd), Status::kSensorOutOfRange);
  EXPECT_EQ(cmd.mode, static_cast<std::uint32_t>(HODYN_MODE_HOLD));
  // Wrong joint count.
  table3_frames(0.002, s, r);
  s.num_joints = 7;
  EXPECT_EQ(inst.update(s, r, cmd), Status::kInvalidArgument);
  // Null pointers through the C table: safe command, no crash.
  const hodyn_plugin_api* api = inst.api();
  alignas(64) static unsigned char storage[65536];
  ASSERT_EQ(api->init(storage, sizeof(storage)), 0);
  EXPECT_NE(api->update(storage, nullptr, &r, &cmd), 0);
  for (double w : cmd.rotor_speed) EXPECT_TRUE(std::isfinite(w));
  EXPECT_NE(api->update(storage, &s, &r, nullptr), 0);
  api->fini(storage);
}

#ifdef HODYN_FL_PLUGIN_PATH
TEST(FeedbackLinearizationPlugin, SharedLibraryBehavesLikeTheStaticOne) {
  void* handle = dlopen(HODYN_FL_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  auto entry = reinterpret_cast<hodyn_plugin_entry_fn>(dlsym(handle, HODYN_PLUGIN_ENTRY_SYMBOL));
  ASSERT_NE(entry, nullptr);
  const hodyn_plugin_api* api = entry();
  ASSERT_NE(api, nullptr);
  EXPECT_STREQ(api->name, "feedback_linearization");
  EXPECT_NE(api, registered());  // a different copy of the code
  {
    static PluginInstance<65536> shared, linked;
    ASSERT_EQ(shared.open(api), Status::kOk);
    ASSERT_EQ(linked.open(registered()), Status::kOk);
    hodyn_sensors s;
    hodyn_reference r;
    hodyn_command a, b;
    for (int i = 0; i < 20; ++i) {
      table3_frames(1e-3 * i, s, r);
      EXPECT_EQ(shared.update(s, r, a), linked.update(s, r, b));
      EXPECT_EQ(std::memcmp(a.rotor_speed, b.rotor_speed, sizeof(a.rotor_speed)), 0);
      EXPECT_EQ(std::memcmp(a.motor_torque, b.motor_torque, sizeof(a.motor_torque)), 0);
    }
    shared.close();
  }
  dlclose(handle);
}
#endif

}  // namespace
