// Unit tests of the truncated-Taylor-series scalar used by the test oracles.
#include "support/long_double.hpp"
#include "support/taylor.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>

namespace {

using hodyn::test::Taylor;
constexpr int kD = 8;
using Td = Taylor<double, kD>;
using Tl = Taylor<long double, kD>;

template <class T, int D>
T max_abs_coeff(const Taylor<T, D>& x) {
  T m(0);
  for (int k = 0; k <= D; ++k) m = std::max(m, std::fabs(x.coeff(k)));
  return m;
}

template <class T, int D>
Taylor<T, D> some_series() {
  typename Taylor<T, D>::Coefficients c{};
  for (int k = 0; k <= D; ++k)
    c[static_cast<std::size_t>(k)] = T(0.3) + T(0.7) * std::sin(T(k + 1));
  return Taylor<T, D>(c);
}

TEST(Taylor, ConstructionAndAccess) {
  const Td a(2.5);
  EXPECT_EQ(a.coeff(0), 2.5);
  for (int k = 1; k <= kD; ++k) EXPECT_EQ(a.coeff(k), 0.0);
  const Td t = Td::variable(1.0, 3.0);
  EXPECT_EQ(t.coeff(0), 1.0);
  EXPECT_EQ(t.coeff(1), 3.0);
  EXPECT_EQ(t.coeff(2), 0.0);
  const Td d = Td::from_derivatives(std::vector<double>{1.0, 2.0, 6.0, 24.0});
  EXPECT_DOUBLE_EQ(d.coeff(2), 3.0);
  EXPECT_DOUBLE_EQ(d.coeff(3), 4.0);
  EXPECT_DOUBLE_EQ(d.derivative_value(3), 24.0);
  EXPECT_DOUBLE_EQ(d.evaluate(2.0), 1.0 + 2.0 * 2 + 3.0 * 4 + 4.0 * 8);
  const Td dd = d.derivative();
  EXPECT_DOUBLE_EQ(dd.coeff(0), 2.0);
  EXPECT_DOUBLE_EQ(dd.coeff(1), 6.0);
  EXPECT_DOUBLE_EQ(dd.coeff(2), 12.0);
  EXPECT_EQ(dd.coeff(kD), 0.0);
}

TEST(Taylor, MixedArithmeticWithScalarsAndInts) {
  const Td x = some_series<double, kD>();
  const Td a = 2 * x + 1;
  const Td b = x * 2.0 - 1.0;
  const Td c = 3.0 - x;
  const Td d = 1 / x;
  const Td e = x / 4;
  EXPECT_DOUBLE_EQ(a.coeff(0), 2 * x.coeff(0) + 1);
  EXPECT_DOUBLE_EQ(a.coeff(3), 2 * x.coeff(3));
  EXPECT_DOUBLE_EQ(b.coeff(0), 2 * x.coeff(0) - 1);
  EXPECT_DOUBLE_EQ(c.coeff(0), 3 - x.coeff(0));
  EXPECT_DOUBLE_EQ(c.coeff(2), -x.coeff(2));
  EXPECT_NEAR(max_abs_coeff(d * x - Td(1.0)), 0.0, 1e-14);
  EXPECT_DOUBLE_EQ(e.coeff(5), x.coeff(5) / 4);
  Td f = x;
  f += 1;
  f -= x;
  f *= 3;
  f /= 2;
  EXPECT_NEAR(max_abs_coeff(f - Td(1.5)), 0.0, 1e-15);
  Td g = x;
  g *= x;
  g /= x;
  EXPECT_NEAR(max_abs_coeff(g - x), 0.0, 1e-14);
  // Comparisons look at the constant term only.
  Td h = Td::variable(1.0, -100.0);
  EXPECT_TRUE(h > 0);
  EXPECT_TRUE(0.5 < h);
  EXPECT_TRUE(h == 1);
  EXPECT_TRUE(h <= Td(1.0));
  EXPECT_FALSE(h != 1.0);
}

TEST(Taylor, ProductAndQuotientHandComputed) {
  // a = 1 + 2t + 3t^2, b = 2 - t  (degree 3)
  using T3 = Taylor<double, 3>;
  const T3 a(T3::Coefficients{1, 2, 3, 0});
  const T3 b(T3::Coefficients{2, -1, 0, 0});
  const T3 p = a * b;  // 2 + 3t + 4t^2 - 3t^3
  EXPECT_DOUBLE_EQ(p.coeff(0), 2);
  EXPECT_DOUBLE_EQ(p.coeff(1), 3);
  EXPECT_DOUBLE_EQ(p.coeff(2), 4);
  EXPECT_DOUBLE_EQ(p.coeff(3), -3);
  // a / b = (1 + 2t + 3t^2) * (1/2)(1 + t/2 + t^2/4 + t^3/8)
  //       = 1/2 + 5/4 t + 17/8 t^2 + 17/16 t^3
  const T3 q = a / b;
  EXPECT_DOUBLE_EQ(q.coeff(0), 0.5);
  EXPECT_DOUBLE_EQ(q.coeff(1), 1.25);
  EXPECT_DOUBLE_EQ(q.coeff(2), 17.0 / 8);
  EXPECT_DOUBLE_EQ(q.coeff(3), 17.0 / 16);
  // Product and quotient rules on derivatives.
  const Td x = some_series<double, kD>();
  const Td y = sin(x) + 2.0;
  const Td lhs = (x * y).derivative();
  const Td rhs = x.derivative() * y + x * y.derivative();
  const Td lq = (x / y).derivative();
  const Td rq = (x.derivative() * y - x * y.derivative()) / (y * y);
  for (int k = 0; k < kD; ++k) {  // top coefficient of a derivative is unknown
    EXPECT_NEAR(lhs.coeff(k), rhs.coeff(k), 1e-12 * (1 + std::fabs(lhs.coeff(k)))) << k;
    EXPECT_NEAR(lq.coeff(k), rq.coeff(k), 1e-12 * (1 + std::fabs(lq.coeff(k)))) << k;
  }
}

template <class T>
void check_pythagoras(T tol) {
  const auto x = some_series<T, kD>();
  auto s = sin(x), c = cos(x);
  auto one = s * s + c * c;
  EXPECT_NEAR(static_cast<double>(std::fabs(one.coeff(0) - T(1))), 0.0, static_cast<double>(tol));
  for (int k = 1; k <= kD; ++k)
    EXPECT_NEAR(static_cast<double>(one.coeff(k)), 0.0, static_cast<double>(tol)) << k;
}

TEST(Taylor, SinSquaredPlusCosSquaredIsOne) {
  check_pythagoras<double>(1e-13);
  // Where long double is double (32-bit ARM), the double tolerance.
  check_pythagoras<long double>(hodyn::test::kLongDoubleIsExtended ? 1e-16L : 1e-13L);
}

TEST(Taylor, ExpDerivativeIsExpAndExpOfSumIsProduct) {
  const Td x = Td::variable(0.3);
  const Td e = exp(x);
  const Td de = e.derivative();
  for (int k = 0; k < kD; ++k) EXPECT_NEAR(de.coeff(k), e.coeff(k), 1e-15) << k;
  for (int k = 0; k <= kD; ++k) EXPECT_NEAR(e.derivative_value(k), std::exp(0.3), 1e-14) << k;
  const Td a = some_series<double, kD>();
  const Td b = sin(a);
  const Td lhs = exp(a + b), rhs = exp(a) * exp(b);
  for (int k = 0; k <= kD; ++k)
    EXPECT_NEAR(lhs.coeff(k), rhs.coeff(k), 1e-12 * (1 + std::fabs(lhs.coeff(k)))) << k;
  // General chain rule: d/dt exp(a) = a' exp(a).
  const Td chain = exp(a).derivative() - a.derivative() * exp(a);
  for (int k = 0; k < kD; ++k) EXPECT_NEAR(chain.coeff(k), 0.0, 1e-11) << k;
}

TEST(Taylor, SqrtSquaredAndAbs) {
  const Td x = some_series<double, kD>() + 2.0;
  const Td s = sqrt(x);
  const Td back = s * s;
  for (int k = 0; k <= kD; ++k) EXPECT_NEAR(back.coeff(k), x.coeff(k), 1e-14) << k;
  const Td n = -x;
  EXPECT_NEAR(max_abs_coeff(abs(n) - x), 0.0, 0.0);
  EXPECT_NEAR(max_abs_coeff(abs(x) - x), 0.0, 0.0);
  EXPECT_TRUE(isfinite(x));
  Td bad = x;
  bad.coeff(kD) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(isfinite(bad));
  EXPECT_FALSE(hodyn::ScalarTraits<Td>::is_finite(bad));
  EXPECT_TRUE(hodyn::ScalarTraits<Td>::is_finite(x));
  EXPECT_EQ(hodyn::ScalarTraits<Td>::primal(x), x.coeff(0));
  EXPECT_EQ(hodyn::ScalarTraits<Tl>::orthonormality_tolerance(), static_cast<long double>(1e-9));
  static_assert(std::is_same<decltype(hodyn::ScalarTraits<Tl>::primal(Tl())), long double>::value,
                "primal of Taylor<long double> is long double");
}

TEST(Taylor, DerivativeValuesOfSinOmegaT) {
  const double w = 1.7, t0 = 0.4;
  const Td t = Td::variable(t0);
  const Td s = sin(w * t);
  // d^k/dt^k sin(w t) = w^k sin(w t + k pi/2)
  for (int k = 0; k <= kD; ++k) {
    const double expect = std::pow(w, k) * std::sin(w * t0 + k * M_PI / 2);
    EXPECT_NEAR(s.derivative_value(k), expect, 1e-13 * std::pow(w, k)) << k;
  }
  // long double (where it is double, on 32-bit ARM: the double tolerance)
  const double tol_l = hodyn::test::kLongDoubleIsExtended ? 1e-16 : 1e-13;
  const Tl tl = Tl::variable(0.4L);
  const Tl sl = sin(1.7L * tl);
  for (int k = 0; k <= kD; ++k) {
    const long double expect =
        std::pow(1.7L, k) * std::sin(1.7L * 0.4L + k * 3.14159265358979323846264338327950288L / 2);
    EXPECT_NEAR(static_cast<double>(sl.derivative_value(k) - expect), 0.0, tol_l * std::pow(w, k));
  }
}

TEST(Taylor, EigenMatrixProductAndMixing) {
  using M3 = Eigen::Matrix<Td, 3, 3>;
  using V3 = Eigen::Matrix<Td, 3, 1>;
  const Td t = Td::variable(0.0);
  M3 A, B;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      A(i, j) = Td(1.0 + i) + double(j) * t;          // A(t) = A0 + A1 t
      B(i, j) = Td(2.0 - j) + double(i + j) * t * t;  // B(t) = B0 + B2 t^2
    }
  const M3 C = A * B;
  Eigen::Matrix3d A0, A1, B0, B2;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      A0(i, j) = A(i, j).coeff(0);
      A1(i, j) = A(i, j).coeff(1);
      B0(i, j) = B(i, j).coeff(0);
      B2(i, j) = B(i, j).coeff(2);
    }
  const Eigen::Matrix3d c0 = A0 * B0, c1 = A1 * B0, c2 = A0 * B2, c3 = A1 * B2;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_DOUBLE_EQ(C(i, j).coeff(0), c0(i, j));
      EXPECT_DOUBLE_EQ(C(i, j).coeff(1), c1(i, j));
      EXPECT_DOUBLE_EQ(C(i, j).coeff(2), c2(i, j));
      EXPECT_DOUBLE_EQ(C(i, j).coeff(3), c3(i, j));
      EXPECT_EQ(C(i, j).coeff(4), 0.0);
    }
  // Mixed scalar expressions, reductions, norms, inverse.
  const M3 D = 2.0 * A + M3::Identity() * 3.0;
  EXPECT_DOUBLE_EQ(D(0, 0).coeff(0), 5.0);
  const V3 v(Td::variable(1.0), Td(2.0), Td(2.0));
  const Td nrm = v.norm();
  EXPECT_DOUBLE_EQ(nrm.coeff(0), 3.0);
  EXPECT_DOUBLE_EQ(nrm.coeff(1), 1.0 / 3.0);
  const Td tr = C.trace();
  EXPECT_DOUBLE_EQ(tr.coeff(0), c0.trace());
  M3 R;
  R << cos(t), -sin(t), Td(0.0), sin(t), cos(t), Td(0.0), Td(0.0), Td(0.0), Td(1.0);
  const M3 RtR = R.transpose() * R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(max_abs_coeff(RtR(i, j) - Td(i == j ? 1.0 : 0.0)), 0.0, 1e-15);
  const M3 Ainv = (A + 5.0 * M3::Identity()).inverse();
  const M3 I = Ainv * (A + 5.0 * M3::Identity());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(max_abs_coeff(I(i, j) - Td(i == j ? 1.0 : 0.0)), 0.0, 1e-13);
}

}  // namespace
