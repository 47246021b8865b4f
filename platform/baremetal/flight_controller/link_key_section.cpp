// The link key's flash section (link_key_section.hpp): zeros until provisioned.
#include "link_key_section.hpp"

extern "C" {
__attribute__((section(".hodyn_link_key"), used, aligned(4)))
const volatile std::uint8_t hodyn_link_key[32] = {};
}
