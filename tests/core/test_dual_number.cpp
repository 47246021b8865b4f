// hodyn::DualNumber (hodyn/dual_number.hpp): every operation's value and
// partials against derivatives derived by hand at several points, the
// documented behaviour at the edges of sqrt/asin/acos/atan2/abs, Eigen
// fixed-size products of dual matrices against the product rule, and the
// core trait (ScalarTraits).
#include <hodyn/dual_number.hpp>

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/LU>

#include <cmath>
#include <limits>
#include <type_traits>

namespace {

using D2 = hodyn::DualNumber<double, 2>;
using D1 = hodyn::DualNumber<double, 1>;

constexpr double kTol = 1e-14;
const double kInf = std::numeric_limits<double>::infinity();

// Points (a, b) away from every edge; x = a seeded as variable 0, y = b as 1.
constexpr double kPoints[][2] = {{0.7, -1.3}, {-2.1, 0.45}, {3.2, 5.0}, {-0.05, -0.9}};

void expect_dual(const D2& z, double value, double d0, double d1, const char* what) {
  EXPECT_NEAR(z.value(), value, kTol * (1 + std::abs(value))) << what;
  EXPECT_NEAR(z.derivative(0), d0, kTol * (1 + std::abs(d0))) << what << " d/dx";
  EXPECT_NEAR(z.derivative(1), d1, kTol * (1 + std::abs(d1))) << what << " d/dy";
}

TEST(DualNumber, SeedingAndAccess) {
  const D2 x = D2::variable(1.5, 0);
  EXPECT_EQ(x.value(), 1.5);
  EXPECT_EQ(x.derivative(0), 1.0);
  EXPECT_EQ(x.derivative(1), 0.0);
  const D2 y = D2::variable(-2.0, 1);
  EXPECT_EQ(y.gradient()[0], 0.0);
  EXPECT_EQ(y.gradient()[1], 1.0);
  const D2 c = 4.0;  // a constant
  EXPECT_EQ(c.value(), 4.0);
  EXPECT_EQ(c.derivative(0), 0.0);
  EXPECT_EQ(c.derivative(1), 0.0);
  const D2 out_of_range = D2::variable(3.0, 2);  // a constant, not a write past the end
  EXPECT_EQ(out_of_range.derivative(0), 0.0);
  EXPECT_EQ(out_of_range.derivative(1), 0.0);
  D2 z;
  EXPECT_EQ(z.value(), 0.0);
  EXPECT_EQ(z.derivative(1), 0.0);
  z.derivative(1) = 2.5;  // manual seeding
  EXPECT_EQ(z.gradient()[1], 2.5);
  // No overhead beyond the N + 1 numbers, and nothrow.
  static_assert(sizeof(hodyn::DualNumber<double, 30>) == 31 * sizeof(double), "no padding");
  static_assert(std::is_nothrow_copy_constructible<D2>::value, "");
  static_assert(noexcept(x * y)&& noexcept(sin(x))&& noexcept(x / 2.0), "");
}

TEST(DualNumber, ArithmeticMatchesHandDerivedPartials) {
  for (const auto& p : kPoints) {
    const double a = p[0], b = p[1];
    const D2 x = D2::variable(a, 0), y = D2::variable(b, 1);
    expect_dual(x + y, a + b, 1, 1, "x+y");
    expect_dual(x - y, a - b, 1, -1, "x-y");
    expect_dual(-x, -a, -1, 0, "-x");
    expect_dual(+y, b, 0, 1, "+y");
    expect_dual(x * y, a * b, b, a, "x*y");
    expect_dual(x / y, a / b, 1 / b, -a / (b * b), "x/y");
    // With constants of T and with ints.
    expect_dual(x + 2.5, a + 2.5, 1, 0, "x+c");
    expect_dual(2.5 + y, 2.5 + b, 0, 1, "c+y");
    expect_dual(x - 3, a - 3, 1, 0, "x-3");
    expect_dual(3 - y, 3 - b, 0, -1, "3-y");
    expect_dual(x * 4, 4 * a, 4, 0, "x*4");
    expect_dual(-1.5 * y, -1.5 * b, 0, -1.5, "c*y");
    expect_dual(x / 8.0, a / 8, 1.0 / 8, 0, "x/c");
    expect_dual(2 / y, 2 / b, 0, -2 / (b * b), "2/y");
    // Compound assignment, in place: ((x + y) * y − x) / y = x + y − x/y.
    D2 z = x;
    z += y;
    z *= y;
    z -= x;
    z /= y;
    expect_dual(z, a + b - a / b, 1 - 1 / b, 1 + a / (b * b), "compound");
    D2 w = x;
    w += 1.0;
    w -= 3.0;
    w *= 2.0;
    w /= 4.0;
    expect_dual(w, (a - 2) / 2, 0.5, 0, "compound with T");
    // A composite: f = x² y − 3 x / (1 + y²).
    const D2 f = x * x * y - 3 * x / (1 + y * y);
    const double q = 1 + b * b;
    expect_dual(f, a * a * b - 3 * a / q, 2 * a * b - 3 / q, a * a + 6 * a * b / (q * q), "f");
  }
}

TEST(DualNumber, ElementaryFunctionsMatchHandDerivedPartials) {
  for (const auto& p : kPoints) {
    const double a = p[0], b = p[1];
    const D2 x = D2::variable(a, 0), y = D2::variable(b, 1);
    expect_dual(sin(x), std::sin(a), std::cos(a), 0, "sin");
    expect_dual(cos(y), std::cos(b), 0, -std::sin(b), "cos");
    expect_dual(tan(x), std::tan(a), 1 / (std::cos(a) * std::cos(a)), 0, "tan");
    expect_dual(exp(y), std::exp(b), 0, std::exp(b), "exp");
    expect_dual(log(x * x), std::log(a * a), 2 / a, 0, "log");
    expect_dual(sqrt(x * x + y * y), std::hypot(a, b), a / std::hypot(a, b), b / std::hypot(a, b),
                "sqrt");
    const double s = std::sin(a);  // in (−1, 1)
    expect_dual(asin(sin(x)), std::asin(s), std::cos(a) / std::sqrt(1 - s * s), 0, "asin");
    expect_dual(acos(sin(x)), std::acos(s), -std::cos(a) / std::sqrt(1 - s * s), 0, "acos");
    const double r2 = a * a + b * b;
    expect_dual(atan2(y, x), std::atan2(b, a), -b / r2, a / r2, "atan2");
    expect_dual(pow(x, 3.0), a * a * a, 3 * a * a, 0, "pow 3");
    expect_dual(pow(y * y, 1.5), std::pow(b * b, 1.5), 0, 3 * b * std::abs(b), "pow 1.5");
    const double sign = a < 0 ? -1.0 : 1.0;
    expect_dual(abs(x), std::abs(a), sign, 0, "abs");
    expect_dual(fabs(x), std::abs(a), sign, 0, "fabs");
    // Chain of functions: g = exp(sin(x y)) → g' = g cos(x y) (y, x).
    const double g = std::exp(std::sin(a * b)), c = std::cos(a * b);
    expect_dual(exp(sin(x * y)), g, g * c * b, g * c * a, "exp(sin(xy))");
  }
}

TEST(DualNumber, EdgesGiveTheDocumentedBehaviour) {
  // sqrt at 0: a zero partial stays 0, a nonzero one is ±inf (no 0·inf NaN).
  const D2 zero(0.0, {1.0, 0.0});
  const D2 r = sqrt(zero);
  EXPECT_EQ(r.value(), 0.0);
  EXPECT_EQ(r.derivative(0), kInf);
  EXPECT_EQ(r.derivative(1), 0.0);
  EXPECT_EQ(sqrt(D2(0.0, {-2.0, 0.0})).derivative(0), -kInf);
  // Slightly inside the domain the slope is large and finite, 1 / (2 sqrt(a)).
  EXPECT_NEAR(sqrt(D2::variable(1e-12, 0)).derivative(0), 0.5e6, 1e-6);
  // acos / asin at ±1: same rule, with the sign of −1/sqrt(1 − a²) resp. +.
  const D2 one(1.0, {1.0, 0.0});
  EXPECT_EQ(acos(one).value(), 0.0);
  EXPECT_EQ(acos(one).derivative(0), -kInf);
  EXPECT_EQ(acos(one).derivative(1), 0.0);
  const D2 minus_one(-1.0, {0.0, 3.0});
  EXPECT_EQ(acos(minus_one).value(), std::acos(-1.0));
  EXPECT_EQ(acos(minus_one).derivative(1), -kInf);
  EXPECT_EQ(asin(minus_one).derivative(0), 0.0);
  EXPECT_EQ(asin(minus_one).derivative(1), kInf);
  // Outside the domain: NaN like T's functions (so the core reports it).
  EXPECT_TRUE(std::isnan(acos(D2::variable(1.5, 0)).value()));
  EXPECT_TRUE(std::isnan(sqrt(D2::variable(-1.0, 0)).value()));
  EXPECT_TRUE(std::isnan(log(D2::variable(-1.0, 0)).value()));
  EXPECT_FALSE(hodyn::ScalarTraits<D2>::is_finite(acos(D2::variable(1.5, 0))));
  // atan2 at (0, 0): std::atan2's value, NaN partials (the angle is undefined).
  const D2 a = atan2(D2::variable(0.0, 0), D2::variable(0.0, 1));
  EXPECT_EQ(a.value(), 0.0);
  EXPECT_TRUE(std::isnan(a.derivative(0)));
  EXPECT_TRUE(std::isnan(a.derivative(1)));
  EXPECT_FALSE(isfinite(a));
  // Near (0, 0) it is finite: (x y' − y x') / r² with r = 1e-8.
  const D2 near = atan2(D2::variable(1e-8, 0), D2::variable(0.0, 1));
  EXPECT_NEAR(near.derivative(0), 0.0, 1e-30);
  EXPECT_NEAR(near.derivative(1), -1e8, 1e-6);
  // abs at 0 takes the derivative of +x.
  EXPECT_EQ(abs(D2(0.0, {-2.0, 3.0})).derivative(0), -2.0);
  EXPECT_EQ(abs(D2(0.0, {-2.0, 3.0})).derivative(1), 3.0);
}

TEST(DualNumber, ComparisonsLookAtTheValue) {
  const D2 x(1.0, {5.0, -5.0}), y(1.0, {0.0, 0.0}), z = D2::variable(2.0, 0);
  EXPECT_TRUE(x == y);  // equal values, different partials
  EXPECT_FALSE(x != y);
  EXPECT_TRUE(x < z && z > x && x <= y && x >= y);
  EXPECT_TRUE(x == 1.0 && 1.0 == x && x < 2 && 0 < x && x <= 1.0 && x >= 1 && 2.0 > x);
  EXPECT_TRUE(z != 1.0 && 1.0 != z && z >= 2.0 && 3.0 >= z && z <= 2 && 0.0 <= z);
}

TEST(DualNumber, ScalarTraitsAndFiniteness) {
  using Traits = hodyn::ScalarTraits<D2>;
  const D2 x = D2::variable(-0.25, 1);
  EXPECT_TRUE(Traits::is_finite(x));
  EXPECT_EQ(Traits::primal(x), -0.25);
  static_assert(std::is_same<decltype(Traits::primal(x)), double>::value, "primal is T");
  EXPECT_EQ(Traits::orthonormality_tolerance(),
            hodyn::ScalarTraits<double>::orthonormality_tolerance());
  using FloatTraits = hodyn::ScalarTraits<hodyn::DualNumber<float, 3>>;
  EXPECT_EQ(FloatTraits::orthonormality_tolerance(),
            hodyn::ScalarTraits<float>::orthonormality_tolerance());
  // Not finite when the value or ANY partial is not.
  EXPECT_FALSE(Traits::is_finite(D2(kInf, {0.0, 0.0})));
  EXPECT_FALSE(Traits::is_finite(D2(1.0, {0.0, std::nan("")})));
  EXPECT_FALSE(Traits::is_finite(D2(1.0, {-kInf, 0.0})));
  EXPECT_TRUE(isinf(D2(1.0, {-kInf, 0.0})));
  EXPECT_FALSE(isnan(D2(1.0, {-kInf, 0.0})));
  EXPECT_TRUE(isnan(D2(1.0, {0.0, std::nan("")})));
  // An overflowing partial turns the number non-finite.
  EXPECT_FALSE(Traits::is_finite(D2(1.0, {1e308, 0.0}) * 1e10));
  EXPECT_TRUE(Traits::is_finite(D2(1.0, {1e308, 0.0}) * 1e-10));
}

TEST(DualNumber, FloatScalar) {
  using F = hodyn::DualNumber<float, 3>;
  const F x = F::variable(0.5f, 2);
  const F y = sin(x) * 2.0f + x * x;
  EXPECT_NEAR(y.value(), 2 * std::sin(0.5f) + 0.25f, 1e-6f);
  EXPECT_EQ(y.derivative(0), 0.0f);
  EXPECT_NEAR(y.derivative(2), 2 * std::cos(0.5f) + 1.0f, 1e-6f);
}

// ---- Eigen ------------------------------------------------------------------

// A(p) = A0 + p A1 and B(p) = B0 + p² B1 as dual matrices at p = p0:
// (A B)' = A1 B + A (2 p0 B1) (product rule, in double).
template <int R, int K, int C>
void check_product(double p0) {
  using MD = Eigen::Matrix<D1, R, K>;
  using ND = Eigen::Matrix<D1, K, C>;
  Eigen::Matrix<double, R, K> a0, a1;
  Eigen::Matrix<double, K, C> b0, b1;
  for (int i = 0; i < a0.size(); ++i) {
    a0(i) = std::sin(1.0 + i);
    a1(i) = std::cos(2.0 * i);
  }
  for (int i = 0; i < b0.size(); ++i) {
    b0(i) = 0.5 - 0.1 * i;
    b1(i) = std::sin(0.3 * i * i);
  }
  const D1 p = D1::variable(p0, 0);
  const MD a = a0.template cast<D1>() + a1.template cast<D1>() * p;
  const ND b = b0.template cast<D1>() + b1.template cast<D1>() * (p * p);
  const Eigen::Matrix<D1, R, C> ab = a * b;
  const Eigen::Matrix<double, R, K> av = a0 + p0 * a1;
  const Eigen::Matrix<double, K, C> bv = b0 + p0 * p0 * b1;
  const Eigen::Matrix<double, R, C> value = av * bv;
  const Eigen::Matrix<double, R, C> slope = a1 * bv + av * (2 * p0 * b1);
  for (int i = 0; i < value.size(); ++i) {
    EXPECT_NEAR(ab(i).value(), value(i), 1e-13) << R << "x" << K << "x" << C << " entry " << i;
    EXPECT_NEAR(ab(i).derivative(0), slope(i), 1e-13) << R << "x" << K << "x" << C << " d " << i;
  }
}

TEST(DualNumber, EigenFixedSizeProductsFollowTheProductRule) {
  for (double p0 : {0.0, 0.8, -1.7}) {
    check_product<3, 3, 3>(p0);
    check_product<6, 6, 6>(p0);
    check_product<6, 6, 1>(p0);
    check_product<8, 12, 8>(p0);  // large enough for Eigen's blocked product kernel
  }
}

TEST(DualNumber, EigenMixedScalarsInverseAndDeterminant) {
  // Matrix<Dual> times Matrix<double>: mixed products return dual matrices.
  Eigen::Matrix3d a0, a1;
  a0 << 2, 0.3, -0.1, 0.2, 1.5, 0.4, -0.3, 0.1, 3.0;
  a1 << 0.1, -0.2, 0.0, 0.5, 0.3, -0.4, 0.2, 0.0, 0.6;
  const Eigen::Vector3d v(1.0, -2.0, 0.5);
  const double p0 = 0.3;
  const D1 p = D1::variable(p0, 0);
  const Eigen::Matrix<D1, 3, 3> a = a0.cast<D1>() + a1.cast<D1>() * p;
  const Eigen::Matrix<D1, 3, 1> av = a * v;
  const Eigen::Matrix<D1, 3, 1> va = (v.transpose() * a).transpose();
  const Eigen::Matrix<D1, 3, 1> scaled = a.col(0) * 2.0;
  const Eigen::Vector3d av_slope = a1 * v, va_slope = a1.transpose() * v;
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(av(i).derivative(0), av_slope(i), 1e-14);
    EXPECT_NEAR(va(i).derivative(0), va_slope(i), 1e-14);
    EXPECT_EQ(scaled(i).derivative(0), 2 * a1(i, 0));
  }
  // Jacobi: det(A)' = det(A) tr(A⁻¹ A');  (A⁻¹)' = −A⁻¹ A' A⁻¹.
  const Eigen::Matrix3d av0 = a0 + p0 * a1;
  const D1 det = a.determinant();
  EXPECT_NEAR(det.value(), av0.determinant(), 1e-13);
  EXPECT_NEAR(det.derivative(0), av0.determinant() * (av0.inverse() * a1).trace(), 1e-13);
  const Eigen::Matrix<D1, 3, 3> inv = a.inverse();
  const Eigen::Matrix3d inv_slope = -av0.inverse() * a1 * av0.inverse();
  for (int i = 0; i < 9; ++i) {
    EXPECT_NEAR(inv(i).value(), av0.inverse()(i), 1e-14);
    EXPECT_NEAR(inv(i).derivative(0), inv_slope(i), 1e-14);
  }
  // Norms go through the dual sqrt: |x|' = x·x' / |x|.
  const Eigen::Matrix<D1, 3, 1> x = a.col(1);
  const D1 n = x.norm();
  const Eigen::Vector3d x0 = av0.col(1), x1 = a1.col(1);
  EXPECT_NEAR(n.value(), x0.norm(), 1e-15);
  EXPECT_NEAR(n.derivative(0), x0.dot(x1) / x0.norm(), 1e-15);
  EXPECT_TRUE(a.allFinite());
}

}  // namespace
