// hodyn/link/transport.hpp — the one small interface every byte link
// implements: UDP and serial on POSIX (platform/posix), a UART on bare metal.
//
// A transport moves bytes; framing (COBS, CRC) lives in the protocol layer
// (hodyn/link/*), so a datagram transport that delivers whole frames and a
// stream transport that delivers arbitrary chunks look the same to it.
// Implementations never allocate after construction and never throw.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hodyn/status.hpp"

namespace hodyn {
namespace link {

class Transport {
 public:
  /// Sends `size` bytes. kOk, kInvalidArgument (null/oversized), or
  /// kStaleInput when the link is down (the caller counts and carries on).
  virtual Status send(const std::uint8_t* data, std::size_t size) noexcept = 0;

  /// Receives up to `capacity` bytes into `buffer`, waiting at most
  /// `timeout_us` microseconds (0: poll). `received` is 0 on a timeout
  /// (still kOk); an error of the link gives its Status.
  virtual Status receive(std::uint8_t* buffer, std::size_t capacity, std::size_t& received,
                         std::int64_t timeout_us) noexcept = 0;

 protected:
  Transport() = default;
  Transport(const Transport&) = default;
  Transport& operator=(const Transport&) = default;
  ~Transport() = default;  // never deleted through the interface
};

}  // namespace link
}  // namespace hodyn
