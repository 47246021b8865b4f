// The joint angles' cos and sin in one vectorized batch
// (detail/sine_cosine.hpp) against libm: within 1 ulp over the angles a
// robot meets and far beyond, exact hand-over to libm above |x| = 1e5, and
// the scalar types without a batch (long double) still calling their own.
#include <hodyn/detail/sine_cosine.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

namespace {

/// Distance in units in the last place between two finite floats or doubles.
template <class F>
std::int64_t ulps(F a, F b) {
  using Bits = std::conditional_t<sizeof(F) == 8, std::int64_t, std::int32_t>;
  static_assert(sizeof(Bits) == sizeof(F), "float or double");
  if (a == b) return 0;
  Bits ia, ib;
  std::memcpy(&ia, &a, sizeof ia);
  std::memcpy(&ib, &b, sizeof ib);
  if ((ia < 0) != (ib < 0)) return std::numeric_limits<std::int64_t>::max();
  return ia > ib ? std::int64_t{ia} - ib : std::int64_t{ib} - ia;
}

TEST(SineCosine, DoubleWithinOneUlpOfLibm) {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> angle(-40.0, 40.0);
  constexpr std::size_t kN = 16;
  std::array<double, kN> x{}, c{}, s{};
  std::int64_t worst_c = 0, worst_s = 0;
  for (int batch = 0; batch < 200000; ++batch) {
    for (std::size_t i = 0; i < kN; ++i) {
      double v = angle(gen);
      if (i % 4 == 1) v = std::ldexp(v, -static_cast<int>(gen() % 60));  // tiny angles
      if (i % 4 == 2) v = static_cast<double>(static_cast<int>(gen() % 2001) - 1000) * (M_PI / 2);
      x[i] = v;
    }
    hodyn::detail::sine_cosine(x, c, s, static_cast<int>(kN));
    for (std::size_t i = 0; i < kN; ++i) {
      worst_c = std::max(worst_c, ulps(c[i], std::cos(x[i])));
      worst_s = std::max(worst_s, ulps(s[i], std::sin(x[i])));
    }
  }
  std::printf("[ sincos   ] double: worst %lld ulp (cos), %lld ulp (sin)\n",
              static_cast<long long>(worst_c), static_cast<long long>(worst_s));
  EXPECT_LE(worst_c, 1);
  EXPECT_LE(worst_s, 1);
}

TEST(SineCosine, FloatWithinOneUlpOfRoundedLibm) {
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> angle(-40.0f, 40.0f);
  std::array<float, 8> x{}, c{}, s{};
  std::int64_t worst = 0;
  for (int batch = 0; batch < 200000; ++batch) {
    for (float& v : x) v = angle(gen);
    hodyn::detail::sine_cosine(x, c, s, 8);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double xi = static_cast<double>(x[i]);
      worst = std::max(worst, ulps(c[i], static_cast<float>(std::cos(xi))));
      worst = std::max(worst, ulps(s[i], static_cast<float>(std::sin(xi))));
    }
  }
  EXPECT_LE(worst, 1);
}

TEST(SineCosine, LargeAndNonFiniteArgumentsGoToLibm) {
  std::array<double, 6> x{1e5 + 0.5,
                          -3e7,
                          1e300,
                          std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN(),
                          0.25};
  std::array<double, 6> c{}, s{};
  hodyn::detail::sine_cosine(x, c, s, 6);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(c[i], std::cos(x[i])) << x[i];
    EXPECT_EQ(s[i], std::sin(x[i])) << x[i];
  }
  EXPECT_TRUE(std::isnan(c[3]) && std::isnan(s[3]));
  EXPECT_TRUE(std::isnan(c[4]) && std::isnan(s[4]));
  EXPECT_LE(ulps(c[5], std::cos(0.25)), 1);
}

TEST(SineCosine, JointAnglesOfATree) {
  hodyn::detail::JointSineCosine<double, 4> d;
  d.compute([](int j) { return 0.5 * j; });
  hodyn::detail::JointSineCosine<long double, 4> l;  // no batch: its own cos, sin
  l.compute([](int j) { return 0.5L * j; });
  for (int j = 0; j < 4; ++j) {
    const auto J = static_cast<std::size_t>(j);
    EXPECT_LE(ulps(d.cosine[J], std::cos(0.5 * j)), 1) << j;
    EXPECT_LE(ulps(d.sine[J], std::sin(0.5 * j)), 1) << j;
    // Long double's own cos and sin (a double result would be ~1e-17 off).
    // Not exact equality: at -O3 the compiler folds std::cos(0.5L * j) with
    // correct rounding, where the library's cosl may differ by an ulp.
    const long double tolerance = 4 * std::numeric_limits<long double>::epsilon();
    EXPECT_LE(std::fabs(l.cosine[J] - std::cos(0.5L * j)), tolerance) << j;
    EXPECT_LE(std::fabs(l.sine[J] - std::sin(0.5L * j)), tolerance) << j;
  }
}

// The single-angle form of place_body: the polynomial's ulp on a SIMD build
// (libm's own cos, sin without one), libm beyond 1e5 and for non-finite
// angles, and a scalar type of its own (long double) through its cos, sin.
TEST(SineCosine, OneAngle) {
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> angle(-40.0, 40.0);
  std::int64_t worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = angle(gen);
    double c, s;
    hodyn::detail::sine_cosine_one(x, c, s);
    worst = std::max({worst, ulps(c, std::cos(x)), ulps(s, std::sin(x))});
    float cf, sf;
    const float xf = static_cast<float>(x);
    hodyn::detail::sine_cosine_one(xf, cf, sf);
    worst = std::max({worst, ulps(cf, static_cast<float>(std::cos(static_cast<double>(xf)))),
                      ulps(sf, static_cast<float>(std::sin(static_cast<double>(xf))))});
  }
  EXPECT_LE(worst, 1);
  for (const double x : {1e5 + 0.5, -3e7, 1e300}) {
    double c, s;
    hodyn::detail::sine_cosine_one(x, c, s);
    EXPECT_EQ(c, std::cos(x)) << x;
    EXPECT_EQ(s, std::sin(x)) << x;
  }
  for (const double x :
       {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    double c = 0, s = 0;
    hodyn::detail::sine_cosine_one(x, c, s);
    EXPECT_TRUE(std::isnan(c) && std::isnan(s)) << x;
  }
  long double cl, sl;
  hodyn::detail::sine_cosine_one(0.75L, cl, sl);
  const long double tolerance = 4 * std::numeric_limits<long double>::epsilon();
  EXPECT_LE(std::fabs(cl - std::cos(0.75L)), tolerance);
  EXPECT_LE(std::fabs(sl - std::sin(0.75L)), tolerance);
}

}  // namespace
