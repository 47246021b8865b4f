// hodyn/plugin/registry.hpp — static registration of plugins for firmware
// (no dynamic loader on a flight controller).
//
//   HODYN_REGISTER_STATIC_PLUGIN(MyController, "my_controller")
//
// at namespace scope in one .cpp adds the plugin's function table to the
// registry before main() runs (a static initializer; on bare metal the
// startup code's __libc_init_array runs it). Link the .cpp as an object file
// (a CMake OBJECT library or whole-archive), or the linker may drop it. The
// registry is a fixed array of kCapacity entries; nothing allocates.
#pragma once

#include <array>
#include <cstddef>

#include "hodyn/plugin/c_adapter.hpp"

namespace hodyn {
namespace plugin {

class PluginRegistry {
 public:
  static constexpr std::size_t kCapacity = 8;

  /// Adds a plugin; kInvalidArgument when full, null, or the name is taken;
  /// kAbiMismatch when built against another ABI.
  Status add(const hodyn_plugin_api* api) noexcept {
    if (api == nullptr || api->name == nullptr) return Status::kInvalidArgument;
    if (api->abi_version != HODYN_PLUGIN_ABI_VERSION) return Status::kAbiMismatch;
    if (find(api->name) != nullptr || count_ == kCapacity) return Status::kInvalidArgument;
    entries_[count_++] = api;
    return Status::kOk;
  }

  /// The plugin registered under `name`, or null.
  const hodyn_plugin_api* find(const char* name) const noexcept {
    for (std::size_t i = 0; i < count_; ++i)
      if (same(entries_[i]->name, name)) return entries_[i];
    return nullptr;
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
