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
#include <hodyn/plugin/frames.hpp>
#include <hodyn/plugin/plugin_instance.hpp>
#include <hodyn/plugin/registry.hpp>

#include "support/heap_counter.hpp"

extern "C" size_t hodyn_test_c_sizeof(int which);

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
}

TEST(PluginRegistry, FeedbackLinearizationIsRegisteredStatically) {
  const hodyn_plugin_api* api = registered();
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, HODYN_PLUGIN_ABI_VERSION);
  EXPECT_STREQ(api->name, "feedback_linearization");
  EXPECT_EQ(api->instance_size, sizeof(control::FeedbackLinearizationPlugin));
  EXPECT_EQ(plugin_registry().find("no_such_plugin"), nullptr);
  // The same table twice is refused (names are unique).
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

TEST(FeedbackLinearizationPlugin, ParametersAreListedWithDefaultsInRange) {
  static PluginInstance<65536> inst;
  ASSERT_EQ(inst.open(registered()), Status::kOk);
  const std::size_t n = inst.parameter_count();
  EXPECT_GE(n, 30u);
  std::set<std::string> names;
  for (std::size_t i = 0; i < n; ++i) {
    plugin::ParameterInfo info;
    ASSERT_EQ(inst.parameter_info(i, info), Status::kOk);
    names.insert(info.name);
    EXPECT_GE(info.default_value, info.min_value) << info.name;
    EXPECT_LE(info.default_value, info.max_value) << info.name;
  }
  EXPECT_EQ(names.size(), n);
  EXPECT_TRUE(names.count("rate_hz") && names.count("joint_stiffness") &&
              names.count("position_bandwidth") && names.count("rotor_max_speed"));
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
  plugin::copy_name(p[1].name, "joint_stiffness");
  p[1].value = -5.0;  // below its range
  EXPECT_EQ(inst.configure(p, 2), Status::kInvalidArgument);
  p[1].value = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(inst.configure(p, 2), Status::kNonFiniteInput);
  // Literal eq. 28 (equal tilts) cannot be reached by name, but a zero tilt can.
  plugin::copy_name(p[1].name, "tilthex_tilt_alpha");
  p[1].value = 0.0;
  plugin::copy_name(p[1].name, "tilthex_tilt_beta");
  EXPECT_EQ(inst.configure(p, 2), Status::kOk);  // β = 0 alone still has alternating α
  const auto* fl = reinterpret_cast<const control::FeedbackLinearizationPlugin*>(
      static_cast<const void*>(&inst));
  (void)fl;
  p[1].value = 0.3;
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
