// Log-linear duration histogram (see hodyn/posix/duration_histogram.hpp).
#include "hodyn/posix/duration_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace hodyn {
namespace posix {

namespace {
constexpr std::size_t kBinsPerOctave = std::size_t{1} << DurationHistogram::kSubBinBits;
constexpr int kFirstExponent = DurationHistogram::kSubBinBits + 1;  // 2^7 = kExactLimit

int floor_log2(std::uint64_t value) { return 63 - __builtin_clzll(value); }
}  // namespace

std::size_t DurationHistogram::bin_of(std::int64_t value) noexcept {
  if (value < kExactLimit) return static_cast<std::size_t>(value < 0 ? 0 : value);
  const int exponent = floor_log2(static_cast<std::uint64_t>(value));
  if (exponent >= kMaxExponent) return kNumBins - 1;
  const std::size_t sub =
      static_cast<std::size_t>(value >> (exponent - kSubBinBits)) & (kBinsPerOctave - 1);
  return static_cast<std::size_t>(kExactLimit) +
         static_cast<std::size_t>(exponent - kFirstExponent) * kBinsPerOctave + sub;
}

std::int64_t DurationHistogram::bin_lower(std::size_t bin) noexcept {
  if (bin < static_cast<std::size_t>(kExactLimit)) return static_cast<std::int64_t>(bin);
  const std::size_t offset = bin - static_cast<std::size_t>(kExactLimit);
  const int exponent = kFirstExponent + static_cast<int>(offset / kBinsPerOctave);
  const std::int64_t sub = static_cast<std::int64_t>(offset % kBinsPerOctave);
  return (static_cast<std::int64_t>(kBinsPerOctave) + sub) << (exponent - kSubBinBits);
}

std::int64_t DurationHistogram::bin_width(std::size_t bin) noexcept {
  if (bin < static_cast<std::size_t>(kExactLimit)) return 1;
  const std::size_t offset = bin - static_cast<std::size_t>(kExactLimit);
  const int exponent = kFirstExponent + static_cast<int>(offset / kBinsPerOctave);
  return std::int64_t{1} << (exponent - kSubBinBits);
}

void DurationHistogram::add(std::int64_t duration_ns) noexcept {
  const std::int64_t value = duration_ns < 0 ? 0 : duration_ns;
  std::uint32_t& bin = bins_[bin_of(value)];
  if (bin != UINT32_MAX) ++bin;
  if (count_ == 0 || value < min_) min_ = value;
  if (value > max_) max_ = value;
  sum_ += static_cast<double>(value);
  ++count_;
}

void DurationHistogram::reset() noexcept {
  bins_.fill(0);
  count_ = 0;
  min_ = 0;
  max_ = 0;
  sum_ = 0.0;
}

double DurationHistogram::mean() const noexcept {
  return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_);
}

std::int64_t DurationHistogram::percentile(double fraction) const noexcept {
  if (count_ == 0) return 0;
  const double clamped = std::min(1.0, std::max(0.0, fraction));
  std::uint64_t rank = static_cast<std::uint64_t>(std::ceil(clamped * static_cast<double>(count_)));
  if (rank <= 1) return min_;  // the extremes are kept exactly
  if (rank >= count_) return max_;
  std::uint64_t seen = 0;
  for (std::size_t bin = 0; bin < kNumBins; ++bin) {
    seen += bins_[bin];
    if (seen >= rank) {
      const std::int64_t middle = bin_lower(bin) + bin_width(bin) / 2;
      return std::min(max_, std::max(min_, middle));
    }
  }
  return max_;
}

}  // namespace posix
}  // namespace hodyn
