// hodyn/plugin/c_adapter.hpp — the C function table (abi.h) of a C++ plugin class.
//
// plugin_api<T>(name) returns a static hodyn_plugin_api whose functions
// construct T in host-provided storage (placement new; nothing allocates) and
// forward every call to it, and whose robot fields (ABI 2) come from T's
// static members kRobotName, kRobotId, kNumJoints, kNumRotors (a class
// without them does not compile: robot_identity.hpp). export.hpp and
// registry.hpp build on this.
#pragma once

#include <cstdint>
#include <limits>
#include <new>

#include "hodyn/plugin/controller_plugin.hpp"
#include "hodyn/plugin/float_frames.hpp"
#include "hodyn/plugin/robot_identity.hpp"

namespace hodyn {
namespace plugin {

template <class T>
struct CAdapter {
  static T& self(void* p) noexcept { return *static_cast<T*>(p); }
  static const T& self(const void* p) noexcept { return *static_cast<const T*>(p); }

  static std::int32_t init(void* storage, std::size_t size) noexcept {
    if (storage == nullptr || size < sizeof(T) ||
        reinterpret_cast<std::uintptr_t>(storage) % alignof(T) != 0)
      return static_cast<std::int32_t>(Status::kInvalidArgument);
    ::new (storage) T();
    return static_cast<std::int32_t>(Status::kOk);
  }
  static void fini(void* p) noexcept {
    if (p != nullptr) self(p).~T();
  }
  static std::int32_t configure(void* p, const hodyn_parameter* parameters,
                                std::uint32_t count) noexcept {
    if (p == nullptr || (parameters == nullptr && count != 0))
      return static_cast<std::int32_t>(Status::kInvalidArgument);
    return static_cast<std::int32_t>(self(p).configure(parameters, count));
  }
  static void reset(void* p) noexcept {
    if (p != nullptr) self(p).reset();
  }
  static std::int32_t update(void* p, const hodyn_sensors* sensors,
                             const hodyn_reference* reference, hodyn_command* command) noexcept {
    if (p == nullptr || command == nullptr)
      return static_cast<std::int32_t>(Status::kInvalidArgument);
    if (sensors == nullptr || reference == nullptr) {
      // No data at all: the same safe path as a frame full of NaN.
      hodyn_sensors bad{};
      bad.base_position[0] = std::numeric_limits<double>::quiet_NaN();
      hodyn_reference none{};
      return static_cast<std::int32_t>(self(p).update(bad, none, *command));
    }
    return static_cast<std::int32_t>(self(p).update(*sensors, *reference, *command));
  }
  static std::uint32_t parameter_count(const void* p) noexcept {
    return p == nullptr ? 0u : static_cast<std::uint32_t>(self(p).parameter_count());
  }
  static std::int32_t parameter_info(const void* p, std::uint32_t index,
                                     hodyn_parameter_info* info) noexcept {
    if (p == nullptr || info == nullptr) return static_cast<std::int32_t>(Status::kInvalidArgument);
    return static_cast<std::int32_t>(self(p).parameter_info(index, *info));
  }
};

/// The C function table of plugin class T, registered under `name`, for the
/// robot T names (plugin_robot<T>()).
template <class T>
const hodyn_plugin_api* plugin_api(const char* name) noexcept {
  constexpr RobotIdentity robot = plugin_robot<T>();
  static const hodyn_plugin_api api{HODYN_PLUGIN_ABI_VERSION,
                                    name,
                                    sizeof(T),
                                    alignof(T),
                                    &CAdapter<T>::init,
                                    &CAdapter<T>::fini,
                                    &CAdapter<T>::configure,
                                    &CAdapter<T>::reset,
                                    &CAdapter<T>::update,
                                    &CAdapter<T>::parameter_count,
                                    &CAdapter<T>::parameter_info,
                                    robot.name,
                                    robot.id,
                                    robot.num_joints,
                                    robot.num_rotors};
  return &api;
}

/// A statically linked plugin's step on float frames (float_frames.hpp):
/// `update` is T::float_update on the instance `api` constructs. Only for a
/// host linked with the plugin (ControllerHost<Capacity, float>); the C
/// function table, and every shared-library plugin, keep the double frames.
struct FloatFramePlugin {
  using Update = std::int32_t (*)(void* self, const SensorsF32* sensors,
                                  const ReferenceF32* reference, CommandF32* command) noexcept;
  const hodyn_plugin_api* api;
  Update update;
};

template <class T>
struct FloatFrameAdapter {
  static std::int32_t update(void* p, const SensorsF32* sensors, const ReferenceF32* reference,
                             CommandF32* command) noexcept {
    if (p == nullptr || command == nullptr)
      return static_cast<std::int32_t>(Status::kInvalidArgument);
    if (sensors == nullptr || reference == nullptr) {  // as CAdapter::update
      SensorsF32 bad{};
      bad.base_position[0] = std::numeric_limits<float>::quiet_NaN();
      ReferenceF32 none{};
      return static_cast<std::int32_t>(static_cast<T*>(p)->float_update(bad, none, *command));
    }
    return static_cast<std::int32_t>(
        static_cast<T*>(p)->float_update(*sensors, *reference, *command));
  }
};

/// Plugin class T's C table (plugin_api<T>(name): the registered one when T
/// is registered) with its float-frame step.
template <class T>
FloatFramePlugin float_frame_plugin(const char* name) noexcept {
  return FloatFramePlugin{plugin_api<T>(name), &FloatFrameAdapter<T>::update};
}

}  // namespace plugin
}  // namespace hodyn
