// hodyn/link/link_monitor.hpp — what the receiving side of a link checks
// beyond each frame's own integrity: the order of the frames (duplicates,
// reordering, gaps) and their arrival (a watchdog over control periods).
//
// Sequence numbers are 32-bit and wrap; "newer" is serial-number arithmetic
// (RFC 1982): b is newer than a when 0 < (b − a) mod 2³² < 2³¹. Fixed size,
// no heap, no exceptions — usable on the flight controller as is.
#pragma once

#include <cstdint>

namespace hodyn {
namespace link {

/// Classifies each frame's link sequence number against the newest seen.
class SequenceMonitor {
 public:
  enum class Verdict : std::uint8_t {
    kAccept,      ///< newer than every frame before (possibly after a gap)
    kDuplicate,   ///< the same number as the newest: drop
    kOutOfOrder,  ///< older than the newest (reordered or stale): drop
  };

  struct Counters {
    std::uint64_t accepted = 0;
    std::uint64_t duplicates = 0;
    std::uint64_t out_of_order = 0;
    std::uint64_t gaps = 0;          ///< accepted frames that skipped numbers
    std::uint64_t missing = 0;       ///< numbers skipped in those gaps
  };

  Verdict check(std::uint32_t sequence) noexcept {
    if (!started_) {
      started_ = true;
      newest_ = sequence;
      ++counters_.accepted;
      return Verdict::kAccept;
    }
    const std::uint32_t ahead = sequence - newest_;  // mod 2³²
    if (ahead == 0) {
      ++counters_.duplicates;
      return Verdict::kDuplicate;
    }
    if (ahead >= 0x80000000u) {
      ++counters_.out_of_order;
      return Verdict::kOutOfOrder;
    }
    if (ahead > 1) {
      ++counters_.gaps;
      counters_.missing += ahead - 1;
    }
    newest_ = sequence;
    ++counters_.accepted;
    return Verdict::kAccept;
  }

  /// Forgets the newest number (the next frame is accepted whatever it is).
  void restart() noexcept { started_ = false; }
  const Counters& counters() const noexcept { return counters_; }
  std::uint32_t newest() const noexcept { return newest_; }

 private:
  Counters counters_{};
  std::uint32_t newest_ = 0;
  bool started_ = false;
};

/// Engages after `timeout_periods` control periods without a valid frame and
/// releases on the next valid one. Call frame_received() for every accepted
/// frame and tick() once per control period (after the frames of the period).
class Watchdog {
 public:
  explicit Watchdog(std::uint32_t timeout_periods = 20) noexcept
      : timeout_(timeout_periods == 0 ? 1 : timeout_periods) {}

  void frame_received() noexcept { fresh_ = true; }

  /// One control period; true while the watchdog is engaged.
  bool tick() noexcept {
    if (fresh_) {
      fresh_ = false;
      silent_ = 0;
      if (engaged_) {
        engaged_ = false;
        ++recoveries_;
      }
      return false;
    }
    if (silent_ < timeout_) ++silent_;
    if (!engaged_ && silent_ >= timeout_) {
      engaged_ = true;
      ++engagements_;
    }
    return engaged_;
  }

  bool engaged() const noexcept { return engaged_; }
  std::uint32_t silent_periods() const noexcept { return silent_; }
  std::uint64_t engagements() const noexcept { return engagements_; }
  std::uint64_t recoveries() const noexcept { return recoveries_; }

 private:
  std::uint32_t timeout_;
  std::uint32_t silent_ = 0;
  bool fresh_ = false;
  bool engaged_ = false;
  std::uint64_t engagements_ = 0;
  std::uint64_t recoveries_ = 0;
};

}  // namespace link
}  // namespace hodyn
