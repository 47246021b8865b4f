// hodyn/plugin/registry.hpp — static registration of plugins for firmware
// (no dynamic loader on a flight controller).
//
//   HODYN_REGISTER_STATIC_PLUGIN(MyController, "my_controller")
//
// at namespace scope in one .cpp adds the plugin's function table to the
// registry before main() runs (a static initializer; on bare metal the
// startup code's __libc_init_array runs it). Link the .cpp as an object file
// (a CMake OBJECT library or whole-archive), or the linker may drop it. The
// registry is a fixed array of kCapacity entries; nothing allocates. The
// same name may be registered once per robot (the table's robot_id, ABI 2):
// find(name, robot_id) picks one, find(name) only an unambiguous name.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "hodyn/plugin/c_adapter.hpp"

namespace hodyn {
namespace plugin {

class PluginRegistry {
 public:
  static constexpr std::size_t kCapacity = 8;

  /// Adds a plugin; kInvalidArgument when full, null, or a plugin of the
  /// same name for the same robot id is already there; kAbiMismatch when
  /// built against another ABI. One name may be registered for several
  /// robots (a plugin built per robot type).
  Status add(const hodyn_plugin_api* api) noexcept {
    if (api == nullptr || api->name == nullptr) return Status::kInvalidArgument;
    if (api->abi_version != HODYN_PLUGIN_ABI_VERSION) return Status::kAbiMismatch;
    if (find(api->name, api->robot_id) != nullptr || count_ == kCapacity)
      return Status::kInvalidArgument;
    entries_[count_++] = api;
    return Status::kOk;
  }

  /// The plugin registered under `name` for robot `robot_id`, or null.
  const hodyn_plugin_api* find(const char* name, std::uint32_t robot_id) const noexcept {
    for (std::size_t i = 0; i < count_; ++i)
      if (entries_[i]->robot_id == robot_id && same(entries_[i]->name, name)) return entries_[i];
    return nullptr;
  }

  /// The plugin registered under `name` when exactly one robot has it; null
  /// when none or several do (then say which robot: find(name, robot_id)).
  const hodyn_plugin_api* find(const char* name) const noexcept {
    const hodyn_plugin_api* found = nullptr;
    for (std::size_t i = 0; i < count_; ++i) {
      if (!same(entries_[i]->name, name)) continue;
      if (found != nullptr) return nullptr;  // ambiguous: never guess the robot
      found = entries_[i];
    }
    return found;
  }

  std::size_t size() const noexcept { return count_; }
  const hodyn_plugin_api* at(std::size_t i) const noexcept {
    return i < count_ ? entries_[i] : nullptr;
  }

 private:
  static bool same(const char* a, const char* b) noexcept {
    if (a == nullptr || b == nullptr) return false;
    for (; *a != '\0' && *a == *b; ++a, ++b) {
    }
    return *a == *b;
  }
  std::array<const hodyn_plugin_api*, kCapacity> entries_{};
  std::size_t count_ = 0;
};

/// The process-wide registry (constant-initialized: safe to use from static
/// initializers in any order).
inline PluginRegistry& plugin_registry() noexcept {
  static PluginRegistry registry;
  return registry;
}

/// Registers at static-initialization time; see the file comment.
struct StaticPluginRegistration {
  explicit StaticPluginRegistration(const hodyn_plugin_api* api) noexcept
      : status(plugin_registry().add(api)) {}
  Status status;
};

}  // namespace plugin
}  // namespace hodyn

#define HODYN_PLUGIN_CONCAT_INNER(a, b) a##b
#define HODYN_PLUGIN_CONCAT(a, b) HODYN_PLUGIN_CONCAT_INNER(a, b)
#define HODYN_REGISTER_STATIC_PLUGIN(Type, name_literal)                                           \
  static const ::hodyn::plugin::StaticPluginRegistration HODYN_PLUGIN_CONCAT(hodyn_static_plugin_, \
                                                                             __LINE__) {           \
    ::hodyn::plugin::plugin_api<Type>(name_literal)                                                \
  }
