// Internal to hodyn_link: the decoding half of decode_frame, for the stream
// parser, which validates first and decodes only into a free queue slot.
#pragma once

#include <cstdint>

#include "hodyn/link/protocol.hpp"

namespace hodyn {
namespace link {
namespace detail {

/// Decodes a frame that validate_frame() accepted (no checks repeated).
void decode_validated_frame(const std::uint8_t* frame, Message& message) noexcept;

}  // namespace detail
}  // namespace link
}  // namespace hodyn
