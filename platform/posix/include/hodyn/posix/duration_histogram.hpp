// hodyn/posix/duration_histogram.hpp — fixed-size histogram of durations in
// nanoseconds, for the statistics of the periodic loop.
//
// Bins are log-linear (like an HDR histogram): values below 128 ns are exact,
// above that every power of two is split into 64 bins, so any bin is at most
// 1/64 (1.6 %) of its value wide. The range is 0 .. 2^40 ns (about 18 min);
// larger values land in the last bin. Count, sum, minimum and maximum are
// exact; percentile(0) and percentile(1) return the exact minimum and maximum,
// other percentiles the midpoint of their bin (clamped to minimum and
// maximum). 2240 counters of 4 bytes, no heap.
#pragma once

#include <array>
#include <cstdint>

namespace hodyn {
namespace posix {

class DurationHistogram {
 public:
  static constexpr int kSubBinBits = 6;                          ///< 64 bins per power of two
  static constexpr int kMaxExponent = 40;                        ///< values up to 2^40 ns
  static constexpr std::int64_t kExactLimit = 2 << kSubBinBits;  ///< 128: exact below this
  static constexpr std::size_t kNumBins =
      static_cast<std::size_t>(kExactLimit) +
      static_cast<std::size_t>(kMaxExponent - kSubBinBits - 1) * (1u << kSubBinBits);

  /// Adds one duration (negative values count as 0). No allocation, O(1).
  void add(std::int64_t duration_ns) noexcept;
  /// Forgets every sample.
  void reset() noexcept;

  std::uint64_t count() const noexcept { return count_; }
  std::int64_t min() const noexcept { return count_ == 0 ? 0 : min_; }
  std::int64_t max() const noexcept { return max_; }
  double mean() const noexcept;

  /// The `fraction`-quantile (0..1) of the samples in ns, within one bin width
  /// (≤ 1.6 %); 0 when empty. percentile(0.5) is the median.
  std::int64_t percentile(double fraction) const noexcept;
  std::int64_t median() const noexcept { return percentile(0.5); }
  std::int64_t p99() const noexcept { return percentile(0.99); }

 private:
  static std::size_t bin_of(std::int64_t value) noexcept;
  static std::int64_t bin_lower(std::size_t bin) noexcept;
  static std::int64_t bin_width(std::size_t bin) noexcept;

  std::array<std::uint32_t, kNumBins> bins_{};
  std::uint64_t count_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
  double sum_ = 0.0;
};

}  // namespace posix
}  // namespace hodyn
