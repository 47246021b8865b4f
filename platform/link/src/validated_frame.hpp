// Internal to hodyn_link: the decoding half of decode_frame, for the stream
// parser, which validates first and decodes only into a free queue slot.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/link/protocol.hpp"

namespace hodyn {
namespace link {
namespace detail {

/// Decodes a frame of `size` bytes that validate_frame() accepted (no checks
/// repeated); SENSORS and REFERENCE into the float frames with `float_frames`.
void decode_validated_frame(const std::uint8_t* frame, std::size_t size, Message& message,
                            bool float_frames = false) noexcept;

}  // namespace detail
}  // namespace link
}  // namespace hodyn
