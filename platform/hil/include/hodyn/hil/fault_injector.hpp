// hodyn/hil/fault_injector.hpp — seeded, deterministic link faults for
// hardware-in-the-loop tests: drops, delays, corrupted bytes, an outage,
// duplicates and reordering, applied to whole wire frames (COBS + 0x00).
//
//   hodyn::hil::FaultInjector<> out;                 // ~25 KiB: static storage
//   out.configure(faults, seed);
//   out.submit(frame, size, now, tag);               // one encoded frame
//   FaultInjector<>::Released r;
//   while (out.pop(now, buffer, sizeof buffer, r)) transport.send(buffer, r.size);
//
// Each submitted frame, in this order:
//   1. inside the outage window [start, start + duration): lost (nothing
//      passes either way);
//   2. dropped with probability `drop`;
//   3. duplicated with probability `duplicate` (two copies; each copy goes
//      through the remaining steps independently);
//   4. corrupted with probability `corrupt` (`burst_corrupt` inside the
//      corruption burst [burst_start, burst_start + burst_duration)): 1–3 distinct bytes, never the
//      trailing delimiter, each replaced by a different NON-zero value — so
//      the frame stays one COBS block and the receiver rejects exactly one
//      frame (COBS error, length or CRC) for every corrupted copy;
//   5. delayed by a uniform draw from [delay_min, delay_max] (release time =
//      now + delay; a delay of 0 releases at `now`);
//   6. reordered with probability `reorder`: held back and released right
//      after the next copy that is queued (its release time becomes the later
//      of the two).
// pop(now) hands out the queued copies whose release time has come, in
// order of release time (ties: order of queueing). Time is whatever the
// caller uses — simulated time keeps the faults reproducible.
//
// Every random draw comes from one splitmix64 stream seeded by configure(),
// so the same seed and the same sequence of submit()/pop() calls give the
// same faults. Fixed capacity, no heap, no exceptions: a full queue drops the
// copy and counts it (`overflow`).
//
// Counters add up: submitted + duplicated ==
//   outage_lost + dropped + overflow + released + queued() + held().
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hodyn/link/protocol.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace hil {

struct FaultConfig {
  double drop = 0.0;             ///< fraction of frames lost
  double duplicate = 0.0;        ///< fraction of frames sent twice
  double corrupt = 0.0;          ///< fraction of frame copies with 1–3 bytes changed
  double reorder = 0.0;          ///< fraction of frame copies swapped with the next one
  double delay_min = 0.0;        ///< s
  double delay_max = 0.0;        ///< s, ≥ delay_min
  double outage_start = 0.0;     ///< s
  double outage_duration = 0.0;  ///< s; 0: no outage
  double burst_start = 0.0;      ///< s: a window with its own corruption rate
  double burst_duration = 0.0;   ///< s; 0: no burst
  double burst_corrupt = 0.0;    ///< fraction of frame copies corrupted inside the burst
};

struct FaultCounters {
  std::uint64_t submitted = 0;    ///< frames given to submit()
  std::uint64_t outage_lost = 0;  ///< lost in the outage window
  std::uint64_t dropped = 0;      ///< lost to `drop`
  std::uint64_t duplicated = 0;   ///< extra copies made
  std::uint64_t corrupted = 0;    ///< copies with changed bytes
  std::uint64_t delayed = 0;      ///< copies with a delay > 0
  std::uint64_t reordered = 0;    ///< copies held back behind the next one
  std::uint64_t overflow = 0;     ///< copies lost to a full queue
  std::uint64_t released = 0;     ///< copies handed out by pop()
};

/// A small deterministic generator (splitmix64).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed = 1) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1).
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [0, n), n > 0.
  std::uint64_t below(std::uint64_t n) noexcept { return next() % n; }

 private:
  std::uint64_t state_;
};

template <std::size_t Capacity = 32, std::size_t MaxFrame = link::kMaxWireSize>
class FaultInjector {
 public:
  static_assert(Capacity > 0 && MaxFrame > 1, "FaultInjector needs room");

  /// One copy handed out by pop().
  struct Released {
    std::size_t size = 0;
    std::uint32_t tag = 0;   ///< what the caller passed to submit()
    bool corrupted = false;  ///< bytes were changed
    bool duplicate = false;  ///< the second copy of a duplicated frame
    double release_time = 0.0;
  };

  FaultInjector() noexcept = default;

  /// kInvalidArgument (nothing changed) for probabilities outside [0, 1],
  /// negative or reversed delays, a negative outage, or NaN. Also empties
  /// the queue and resets the counters.
  Status configure(const FaultConfig& config, std::uint64_t seed) noexcept {
    const auto probability = [](double p) { return p >= 0.0 && p <= 1.0; };
    if (!probability(config.drop) || !probability(config.duplicate) ||
        !probability(config.corrupt) || !probability(config.reorder) ||
        !(config.delay_min >= 0.0) || !(config.delay_max >= config.delay_min) ||
        !(config.outage_duration >= 0.0) || !(config.outage_start == config.outage_start) ||
        !probability(config.burst_corrupt) || !(config.burst_duration >= 0.0) ||
        !(config.burst_start == config.burst_start))
      return Status::kInvalidArgument;
    config_ = config;
    random_ = SplitMix64(seed);
    counters_ = FaultCounters{};
    used_ = 0;
    held_ = false;
    order_ = 0;
    return Status::kOk;
  }

  const FaultConfig& config() const noexcept { return config_; }
  const FaultCounters& counters() const noexcept { return counters_; }
  std::size_t queued() const noexcept { return used_; }
  std::size_t held() const noexcept { return held_ ? 1 : 0; }

  /// True when `now` is inside the outage window.
  bool in_outage(double now) const noexcept {
    return config_.outage_duration > 0.0 && now >= config_.outage_start &&
           now < config_.outage_start + config_.outage_duration;
  }

  /// True when `now` is inside the corruption burst.
  bool in_burst(double now) const noexcept {
    return config_.burst_duration > 0.0 && now >= config_.burst_start &&
           now < config_.burst_start + config_.burst_duration;
  }

  /// Takes one frame at time `now`. kInvalidArgument (not counted) for null
  /// data, size 0 or a frame longer than MaxFrame.
  Status submit(const std::uint8_t* data, std::size_t size, double now,
                std::uint32_t tag = 0) noexcept {
    if (data == nullptr || size == 0 || size > MaxFrame) return Status::kInvalidArgument;
    ++counters_.submitted;
    if (in_outage(now)) {
      ++counters_.outage_lost;
      return Status::kOk;
    }
    if (draw(config_.drop)) {
      ++counters_.dropped;
      return Status::kOk;
    }
    const bool twice = draw(config_.duplicate);
    counters_.duplicated += twice ? 1 : 0;
    for (int copy = 0; copy < (twice ? 2 : 1); ++copy) {
      Entry e;
      std::memcpy(e.bytes, data, size);
      e.size = size;
      e.info.size = size;
      e.info.tag = tag;
      e.info.duplicate = copy == 1;
      if (draw(in_burst(now) ? config_.burst_corrupt : config_.corrupt)) {
        corrupt(e);
        ++counters_.corrupted;
      }
      double delay = config_.delay_min;
      if (config_.delay_max > config_.delay_min)
        delay += random_.uniform() * (config_.delay_max - config_.delay_min);
      counters_.delayed += delay > 0.0 ? 1 : 0;
      e.info.release_time = now + delay;
      if (!held_ && draw(config_.reorder)) {
        ++counters_.reordered;
        held_entry_ = e;
        held_ = true;
        continue;
      }
      enqueue(e);
      if (held_) {  // the held copy goes right behind this one
        held_ = false;
        if (held_entry_.info.release_time < e.info.release_time)
          held_entry_.info.release_time = e.info.release_time;
        enqueue(held_entry_);
      }
    }
    return Status::kOk;
  }

  /// The next copy due at `now` into `out` (false: none due, or `capacity`
  /// too small — then it stays queued).
  bool pop(double now, std::uint8_t* out, std::size_t capacity, Released& released) noexcept {
    std::size_t best = Capacity;
    for (std::size_t k = 0; k < used_; ++k) {
      if (queue_[k].info.release_time > now) continue;
      if (best == Capacity || earlier(queue_[k], queue_[best])) best = k;
    }
    if (best == Capacity || out == nullptr || capacity < queue_[best].size) return false;
    std::memcpy(out, queue_[best].bytes, queue_[best].size);
    released = queue_[best].info;
    queue_[best] = queue_[used_ - 1];
    --used_;
    ++counters_.released;
    return true;
  }

  /// The earliest release time queued; false when the queue is empty.
  bool next_release(double& time) const noexcept {
    if (used_ == 0) return false;
    time = queue_[0].info.release_time;
    for (std::size_t k = 1; k < used_; ++k)
      if (queue_[k].info.release_time < time) time = queue_[k].info.release_time;
    return true;
  }

 private:
  struct Entry {
    std::uint8_t bytes[MaxFrame];
    std::size_t size;
    std::uint64_t order;
    Released info;
  };

  bool draw(double p) noexcept { return p > 0.0 && random_.uniform() < p; }

  static bool earlier(const Entry& a, const Entry& b) noexcept {
    return a.info.release_time < b.info.release_time ||
           (a.info.release_time == b.info.release_time && a.order < b.order);
  }

  // 1–3 distinct positions before the delimiter, each set to another non-zero value.
  void corrupt(Entry& e) noexcept {
    e.info.corrupted = true;
    const std::size_t body = e.size > 1 ? e.size - 1 : e.size;
    const std::size_t flips = 1 + static_cast<std::size_t>(random_.below(3));
    std::size_t done[3] = {body, body, body};
    for (std::size_t f = 0; f < flips && f < body; ++f) {
      std::size_t at = 0;
      bool fresh = false;
      while (!fresh) {
        at = static_cast<std::size_t>(random_.below(body));
        fresh = at != done[0] && at != done[1] && at != done[2];
      }
      done[f] = at;
      const std::uint8_t old = e.bytes[at];
      std::uint8_t value = old;
      while (value == old || value == 0) value = static_cast<std::uint8_t>(1 + random_.below(255));
      e.bytes[at] = value;
    }
  }

  void enqueue(Entry& e) noexcept {
    if (used_ == Capacity) {
      ++counters_.overflow;
      return;
    }
    e.order = order_++;
    queue_[used_++] = e;
  }

  FaultConfig config_{};
  SplitMix64 random_{1};
  FaultCounters counters_{};
  Entry queue_[Capacity] = {};
  std::size_t used_ = 0;
  Entry held_entry_{};
  bool held_ = false;
  std::uint64_t order_ = 0;
};

}  // namespace hil
}  // namespace hodyn
