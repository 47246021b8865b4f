// hodyn/plugin/plugin_instance.hpp — a host's handle on one plugin instance,
// in fixed storage of Capacity bytes (a static object on a flight controller).
//
//   PluginInstance<4096> controller;
//   Status s = controller.open(plugin_registry().find("feedback_linearization",
//                                                     MyRobot::kId),
//                              robot_identity<MyRobot>());    // the robot the host flies
//   s = controller.configure(parameters, count);
//   s = controller.update(sensors, reference, command);   // every step
//
// open() checks the ABI version, then (given the expected robot) that the
// plugin is built for that robot — same robot id, joint and rotor counts, or
// kRobotMismatch and the instance stays closed — then that the plugin fits.
// open(api) without a robot accepts any robot (for tools that list plugins;
// a host that flies should always say which robot it flies). The destructor
// (or close()) destroys the instance.
#pragma once

#include <cstddef>

#include "hodyn/plugin/controller_plugin.hpp"
#include "hodyn/plugin/robot_identity.hpp"

namespace hodyn {
namespace plugin {

template <std::size_t Capacity>
class PluginInstance {
 public:
  static constexpr std::size_t kCapacity = Capacity;
  static constexpr std::size_t kAlignment = 64;

  PluginInstance() = default;
  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;
  ~PluginInstance() { close(); }

  /// Opens `api` for the `expected` robot: kInvalidArgument (null, does not
  /// fit), kAbiMismatch, kRobotMismatch, or init's status; closed unless kOk.
  Status open(const hodyn_plugin_api* api, const RobotIdentity& expected) noexcept {
    return open_checked(api, &expected);
  }
  /// Opens `api` whatever robot it is built for (robot() says which).
  Status open(const hodyn_plugin_api* api) noexcept { return open_checked(api, nullptr); }

  /// The robot of the open plugin (all zero when closed).
  RobotIdentity robot() const noexcept {
    return api_ == nullptr ? RobotIdentity{} : robot_of(*api_);
  }

  void close() noexcept {
    if (api_ != nullptr) api_->fini(storage_);
    api_ = nullptr;
  }

  bool is_open() const noexcept { return api_ != nullptr; }
  const hodyn_plugin_api* api() const noexcept { return api_; }

  Status configure(const Parameter* parameters, std::size_t count) noexcept {
    if (api_ == nullptr) return Status::kNotConfigured;
    return static_cast<Status>(
        api_->configure(storage_, parameters, static_cast<std::uint32_t>(count)));
  }
  void reset() noexcept {
    if (api_ != nullptr) api_->reset(storage_);
  }
  /// One step; without an open plugin the command is "disarmed" (all zero).
  Status update(const Sensors& sensors, const Reference& reference, Command& command) noexcept {
    if (api_ == nullptr) {
      command = Command{};
      command.status = static_cast<std::int32_t>(Status::kNotConfigured);
      return Status::kNotConfigured;
    }
    return static_cast<Status>(api_->update(storage_, &sensors, &reference, &command));
  }
  /// The open plugin's instance (null when closed), for a host that knows
  /// the plugin's type (the closed-loop runner reads the feedback-linearization
  /// controller's payload estimate, which the ABI does not carry).
  const void* instance() const noexcept { return api_ == nullptr ? nullptr : storage_; }
  void* instance() noexcept { return api_ == nullptr ? nullptr : storage_; }
  std::size_t parameter_count() const noexcept {
    return api_ == nullptr ? 0 : api_->parameter_count(storage_);
  }
  Status parameter_info(std::size_t index, ParameterInfo& info) const noexcept {
    if (api_ == nullptr) return Status::kNotConfigured;
    return static_cast<Status>(
        api_->parameter_info(storage_, static_cast<std::uint32_t>(index), &info));
  }

 private:
  Status open_checked(const hodyn_plugin_api* api, const RobotIdentity* expected) noexcept {
    close();
    if (api == nullptr) return Status::kInvalidArgument;
    // abi_version first: an older table ends before the robot fields.
    if (api->abi_version != HODYN_PLUGIN_ABI_VERSION) return Status::kAbiMismatch;
    if (expected != nullptr && compare_robots(*expected, robot_of(*api)) != Status::kOk)
      return Status::kRobotMismatch;
    if (api->instance_size > Capacity || api->instance_align > kAlignment)
      return Status::kInvalidArgument;
    const auto s = static_cast<Status>(api->init(storage_, Capacity));
    if (s != Status::kOk) return s;
    api_ = api;
    return Status::kOk;
  }

  alignas(kAlignment) unsigned char storage_[Capacity]{};
  const hodyn_plugin_api* api_ = nullptr;
};

}  // namespace plugin
}  // namespace hodyn
