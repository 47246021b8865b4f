// hodyn/plugin/controller_plugin.hpp — the C++ side of a controller plugin.
//
// A controller is a class derived from ControllerPlugin: configure it with
// named run-time parameters, reset it, and call update() once per control
// step. Every call is noexcept and returns a Status; update() always writes a
// finite command, a safe one when it returns an error. The class must be
// default-constructible and fixed-size (the host provides its memory), and
// name the robot it is built for with static constexpr members
//   kRobotName (const char*), kRobotId (std::uint32_t, hodyn::robot_id()),
//   kNumJoints, kNumRotors (integers)
// which go into its C table (ABI 2) for hosts to check (robot_identity.hpp).
//
// To make a class available to hosts:
//   - as a shared library: HODYN_EXPORT_PLUGIN(MyController, "my_controller")
//     in one .cpp (hodyn/plugin/export.hpp) — defines hodyn_plugin_entry();
//   - in firmware: HODYN_REGISTER_STATIC_PLUGIN(MyController, "my_controller")
//     (hodyn/plugin/registry.hpp), then
//     plugin_registry().find("my_controller", MyRobot::kId).
// Hosts drive either through PluginInstance (hodyn/plugin/plugin_instance.hpp).
#pragma once

#include <cstddef>
#include <cstring>

#include "hodyn/plugin/abi.h"
#include "hodyn/status.hpp"

namespace hodyn {
namespace plugin {

using Sensors = hodyn_sensors;
using Reference = hodyn_reference;
using Command = hodyn_command;
using Parameter = hodyn_parameter;
using ParameterInfo = hodyn_parameter_info;

class ControllerPlugin {
 public:
  /// Applies `count` named parameters over the current ones. Unknown names,
  /// out-of-range values or an inconsistent set change nothing and give a Status.
  virtual Status configure(const Parameter* parameters, std::size_t count) noexcept = 0;
  /// Forgets the internal state (integrators, last command); keeps the parameters.
  virtual void reset() noexcept = 0;
  /// One control step.
  virtual Status update(const Sensors& sensors, const Reference& reference,
                        Command& command) noexcept = 0;
  /// The parameters this plugin understands, index 0..parameter_count()−1.
  virtual std::size_t parameter_count() const noexcept = 0;
  virtual Status parameter_info(std::size_t index, ParameterInfo& info) const noexcept = 0;

 protected:
  ControllerPlugin() = default;
  ControllerPlugin(const ControllerPlugin&) = default;
  ControllerPlugin& operator=(const ControllerPlugin&) = default;
  // Never deleted through the base (the host owns the memory), so no virtual
  // destructor and no operator delete dragged into firmware.
  ~ControllerPlugin() = default;
};

/// Copies a name into a fixed-size, NUL-terminated field.
template <std::size_t N>
void copy_name(char (&dst)[N], const char* src) noexcept {
  std::size_t i = 0;
  for (; src != nullptr && src[i] != '\0' && i + 1 < N; ++i) dst[i] = src[i];
  for (; i < N; ++i) dst[i] = '\0';
}

/// Name equality for a fixed-size field (which need not be NUL-terminated).
template <std::size_t N>
bool name_equals(const char (&field)[N], const char* name) noexcept {
  for (std::size_t i = 0; i < N; ++i) {
    if (field[i] != name[i]) return false;
    if (field[i] == '\0') return true;
  }
  return name[N] == '\0';
}

}  // namespace plugin
}  // namespace hodyn
