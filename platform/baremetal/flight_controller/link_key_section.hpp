// link_key_section.hpp — the controller firmware's copy of the link's shared
// key (docs/link-security.md, "Provisioning"): 32 bytes in their own flash
// section, .hodyn_link_key (linker/sections.ld keeps it a separate output
// section), all zeros as built, i.e. unprovisioned: an unsigned link as
// before. provision_link_key.sh writes a key into a copy of the image
// (objcopy --update-section); the firmware then signs and checks every frame.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {
/// Volatile: the compiler must read the flash, not the zeros it was built with.
extern const volatile std::uint8_t hodyn_link_key[32];
}

namespace hodyn {
namespace firmware {

/// Copies the key section into `key` (32 bytes); false when it holds only
/// zeros (not provisioned).
inline bool read_link_key(std::uint8_t key[32]) noexcept {
  std::uint8_t any = 0;
  for (std::size_t k = 0; k < 32; ++k) {
    key[k] = hodyn_link_key[k];
    any = static_cast<std::uint8_t>(any | key[k]);
  }
  return any != 0;
}

/// Overwrites `size` bytes with zeros in a way the compiler keeps.
inline void wipe(std::uint8_t* data, std::size_t size) noexcept {
  volatile std::uint8_t* p = data;
  for (std::size_t k = 0; k < size; ++k) p[k] = 0;
}

}  // namespace firmware
}  // namespace hodyn
