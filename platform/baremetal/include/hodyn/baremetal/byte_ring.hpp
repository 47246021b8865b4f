// hodyn/baremetal/byte_ring.hpp — a fixed-capacity byte queue between one
// producer and one consumer on the same core, one of them an interrupt
// handler (a UART's receive or transmit interrupt and the main loop).
//
// Lock-free: the producer writes only `head_`, the consumer only `tail_`
// (free-running 32-bit indices, capacity a power of two). A compiler fence
// orders the byte store before the index that publishes it; on a single-core
// Cortex-M nothing else is needed (ARMv7-M keeps program order for normal
// memory as seen by the same core, including its exception handlers).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace hodyn {
namespace baremetal {

template <std::size_t Capacity>
class ByteRing {
  static_assert(Capacity >= 2 && (Capacity & (Capacity - 1)) == 0,
                "ByteRing: the capacity must be a power of two");
  static_assert(Capacity <= (std::size_t{1} << 31), "ByteRing: capacity too large");

 public:
  static constexpr std::size_t kCapacity = Capacity;

  /// Producer side. False (the byte dropped) when the queue is full.
  bool push(std::uint8_t byte) noexcept { return push_low_byte(byte); }
  /// push() of the low byte of `word` (a data register read whole: no
  /// zero-extension of the byte before its store).
  bool push_low_byte(std::uint32_t word) noexcept {
    const std::uint32_t head = head_;
    // Full as last seen: read the consumer's index again (a receive
    // interrupt's push, one byte an entry, then loads it only then: one
    // instruction an entry fewer on the Cortex-M4).
    if (__builtin_expect(head == limit_, 0)) {
      limit_ = tail_ + static_cast<std::uint32_t>(Capacity);
      if (head == limit_) return false;
    }
    bytes_[head & kMask] = static_cast<std::uint8_t>(word);
    std::atomic_signal_fence(std::memory_order_release);
    head_ = head + 1u;
    return true;
  }

  /// Consumer side. False when the queue is empty.
  bool pop(std::uint8_t& byte) noexcept {
    const std::uint32_t tail = tail_;
    if (head_ == tail) return false;
    std::atomic_signal_fence(std::memory_order_acquire);
    byte = bytes_[tail & kMask];
    std::atomic_signal_fence(std::memory_order_release);
    tail_ = tail + 1u;
    return true;
  }

  /// Consumer side: moves up to `capacity` bytes into `out`; returns how many.
  std::size_t pop(std::uint8_t* out, std::size_t capacity) noexcept {
    const std::uint32_t tail = tail_;
    std::uint32_t available = head_ - tail;
    std::atomic_signal_fence(std::memory_order_acquire);
    if (available > capacity) available = static_cast<std::uint32_t>(capacity);
    for (std::uint32_t k = 0; k < available; ++k) out[k] = bytes_[(tail + k) & kMask];
    std::atomic_signal_fence(std::memory_order_release);
    tail_ = tail + available;
    return available;
  }

  /// Bytes queued (either side; a snapshot).
  std::size_t size() const noexcept { return head_ - tail_; }
  bool empty() const noexcept { return head_ == tail_; }

 private:
  static constexpr std::uint32_t kMask = static_cast<std::uint32_t>(Capacity - 1);
  std::uint8_t bytes_[Capacity] = {};
  volatile std::uint32_t head_ = 0;  ///< written by the producer only
  volatile std::uint32_t tail_ = 0;  ///< written by the consumer only
  /// Producer only: tail_ + Capacity as last read, never past the true limit
  /// (tail_ only grows), so head_ ≤ limit_ and head_ == limit_ may mean full.
  std::uint32_t limit_ = static_cast<std::uint32_t>(Capacity);
};

}  // namespace baremetal
}  // namespace hodyn
