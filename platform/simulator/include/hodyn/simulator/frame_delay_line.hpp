// hodyn/simulator/frame_delay_line.hpp — a fixed-capacity ring buffer that
// returns what was pushed `delay` pushes ago (a transport delay in samples).
//
// It keeps the newest kMaxDelay + 1 items; delay 0 returns the item just
// pushed. Until `delay` items have been pushed it returns the oldest one it
// has (the signal is held at its first value, as a real delayed link shows
// its first frame).
#pragma once

#include <array>
#include <cstddef>

namespace hodyn::sim {

template <class T, int MaxDelay>
class FrameDelayLine {
 public:
  static_assert(MaxDelay >= 0, "MaxDelay must be non-negative");
  static constexpr int kMaxDelay = MaxDelay;

  /// Sets the delay (0..MaxDelay samples) and empties the line; false and
  /// unchanged for a delay out of range.
  bool reset(int delay) {
    if (delay < 0 || delay > MaxDelay) return false;
    delay_ = delay;
    count_ = 0;
    newest_ = kSlots - 1;
    return true;
  }
  int delay() const { return delay_; }
  int size() const { return count_; }

  /// Stores `item` and returns the item from `delay` pushes ago.
  const T& push(const T& item) {
    newest_ = (newest_ + 1) % kSlots;
    items_[static_cast<std::size_t>(newest_)] = item;
    if (count_ < kSlots) ++count_;
    const int back = delay_ < count_ ? delay_ : count_ - 1;
    return items_[static_cast<std::size_t>((newest_ - back + kSlots) % kSlots)];
  }

 private:
  static constexpr int kSlots = MaxDelay + 1;
  std::array<T, kSlots> items_{};
  int delay_ = 0;
  int count_ = 0;
  int newest_ = kSlots - 1;
};

}  // namespace hodyn::sim
