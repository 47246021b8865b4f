// hodyn/link/receive.hpp — the receive step shared by every end of the link
// (hodyn-fc, hodyn-sim, the controller firmware): one transport receive into
// a static buffer, and bytes into a FrameParser one frame at a time. Heap-free,
// exception-free.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/link/frame_parser.hpp"
#include "hodyn/link/transport.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace link {

/// Receives once (waiting at most `timeout_us`) and feeds the bytes to
/// `on_bytes(data, size)`. Returns the bytes received (0 on a timeout);
/// `link_error` set when the transport reported an error. The buffer is a
/// static one per instantiation (not reentrant).
template <typename OnBytes>
std::size_t receive_once(Transport& transport, std::int64_t timeout_us, OnBytes&& on_bytes,
                         bool* link_error = nullptr) noexcept {
  static std::uint8_t buffer[2048];
  std::size_t received = 0;
  const Status s = transport.receive(buffer, sizeof buffer, received, timeout_us);
  if (s != Status::kOk && link_error != nullptr) *link_error = true;
  if (received > 0) on_bytes(static_cast<const std::uint8_t*>(buffer), received);
  return received;
}

/// Pushes `size` bytes into `parser` one frame at a time (each push ends at a
/// delimiter), calling `on_message(message)` for each message before the
/// next frame is checked: the queue never overflows, and a HELLO that starts
/// a session on a signed link takes effect for the very next frame.
template <typename OnMessage>
void parse_bytes(FrameParser& parser, const std::uint8_t* data, std::size_t size,
                 OnMessage&& on_message) noexcept {
  if (data == nullptr) return;
  for (std::size_t at = 0; at < size;) {
    at += parser.push_frame(data + at, size - at);  // completes at most one frame
    // In the parser's queue, not copied (valid until the next push).
    while (const Message* message = parser.take()) on_message(*message);
  }
}

}  // namespace link
}  // namespace hodyn
