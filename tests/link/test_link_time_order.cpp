// The integer comparisons of frame times (hodyn/link/time_order.hpp) that a
// single-precision core runs instead of software double comparisons: every
// pair from a set of doubles with the awkward ones (±0, ±∞, NaNs of both
// signs, subnormals, neighbours one ulp apart) and random ones must answer
// exactly as the FPU's <, <=, ==; and the host's time_less & co. are the
// operators themselves. Also plugin::finite_bits against std::isfinite.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "hodyn/link/time_order.hpp"
#include "hodyn/plugin/frames.hpp"

namespace hodyn {
namespace {

double from_bits(std::uint64_t bits) {
  double x = 0.0;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

std::vector<double> awkward_and_random_doubles() {
  using limits = std::numeric_limits<double>;
  std::vector<double> v = {0.0,
                           -0.0,
                           limits::infinity(),
                           -limits::infinity(),
                           limits::quiet_NaN(),
                           -limits::quiet_NaN(),
                           from_bits(0x7FF0000000000001u),  // signalling NaN
                           from_bits(0xFFF8000000000001u),
                           limits::denorm_min(),
                           -limits::denorm_min(),
                           limits::min(),
                           -limits::min(),
                           limits::max(),
                           -limits::max(),
                           1.0,
                           std::nextafter(1.0, 2.0),
                           std::nextafter(1.0, 0.0),
                           -1.0,
                           std::nextafter(-1.0, -2.0),
                           0.001,
                           12.345,
                           -12.345};
  std::mt19937_64 random(22);
  std::uniform_real_distribution<double> times(-100.0, 100.0);
  for (int k = 0; k < 200; ++k) v.push_back(times(random));
  // Random bit patterns: every exponent, NaNs and infinities included.
  for (int k = 0; k < 200; ++k) v.push_back(from_bits(random()));
  return v;
}

TEST(TimeOrder, IntegerComparisonsAnswerAsTheFpu) {
  const std::vector<double> values = awkward_and_random_doubles();
  for (double a : values) {
    for (double b : values) {
      ASSERT_EQ(link::detail::less_bits(a, b), a < b) << a << " < " << b;
      ASSERT_EQ(link::detail::less_equal_bits(a, b), a <= b) << a << " <= " << b;
      ASSERT_EQ(link::detail::equal_bits(a, b), a == b) << a << " == " << b;
    }
  }
}

TEST(TimeOrder, TheSelectedComparisonsAnswerAsTheFpu) {
  const std::vector<double> values = awkward_and_random_doubles();
  for (double a : values) {
    for (double b : values) {
      ASSERT_EQ(link::time_less(a, b), a < b);
      ASSERT_EQ(link::time_less_equal(a, b), a <= b);
      ASSERT_EQ(link::time_equal(a, b), a == b);
    }
  }
}

// Prepared times (TimeKey): both the integer keys a single-precision core
// uses and the plain ones answer as the FPU.
TEST(TimeOrder, PreparedTimesAnswerAsTheFpu) {
  const std::vector<double> values = awkward_and_random_doubles();
  for (double a : values) {
    const link::TimeKey soft_a = link::time_key<true>(a), plain_a = link::time_key<false>(a);
    for (double b : values) {
      const link::TimeKey soft_b = link::time_key<true>(b), plain_b = link::time_key<false>(b);
      ASSERT_EQ(link::time_less<true>(soft_a, soft_b), a < b) << a << " < " << b;
      ASSERT_EQ(link::time_less_equal<true>(soft_a, soft_b), a <= b) << a << " <= " << b;
      ASSERT_EQ(link::time_equal<true>(soft_a, soft_b), a == b) << a << " == " << b;
      ASSERT_EQ(link::time_less<false>(plain_a, plain_b), a < b);
      ASSERT_EQ(link::time_less_equal<false>(plain_a, plain_b), a <= b);
      ASSERT_EQ(link::time_equal<false>(plain_a, plain_b), a == b);
      ASSERT_EQ(link::time_less(link::time_key(a), link::time_key(b)), a < b);
    }
  }
}

TEST(TimeOrder, FiniteBitsIsIsfinite) {
  for (double x : awkward_and_random_doubles()) ASSERT_EQ(plugin::finite_bits(x), std::isfinite(x));
}

}  // namespace
}  // namespace hodyn
