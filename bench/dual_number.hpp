// dual_number.hpp — minimal forward-mode dual number for the baseline benchmarks.
//
// `Dual<T>` is value + derivative·ε with ε² = 0. Nesting it r times,
// Dual<Dual<…<double>>>, gives 2^r components; seeding every input as
// x(t + ε₁ + … + ε_r) puts x^(|S|) on the component of each subset S of the
// ε's, so the ε₁…ε_r component of an output is its r-th time derivative.
// This is the classic "nested duals" way of getting higher derivatives through
// an order-0 algorithm; it is here only as a baseline for hodyn's analytic
// higher-order recursions (bench_baselines*.cpp). Benchmark code: no attempt at
// being complete beyond what the core needs (arithmetic, comparisons on the
// primal value, sin/cos/sqrt/abs/atan2, hodyn::ScalarTraits, Eigen NumTraits).
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <type_traits>

#include "hodyn/scalar_traits.hpp"

namespace hodyn_bench {

template <class T>
class Dual {
 public:
  using value_type = T;

  Dual() noexcept : value_(0.0), derivative_(0.0) {}
  /// A constant of the inner type (implicit, so `T → Dual<T>` mixes freely).
  Dual(const T& value) noexcept
      : value_(value), derivative_(0.0) {}  // NOLINT(google-explicit-constructor)
  /// A constant from a built-in number (implicit: Eigen's `Scalar(0)`, `Dual x = 1.0`).
  template <class U, std::enable_if_t<std::is_arithmetic<U>::value && !std::is_same<U, T>::value,
                                      int> = 0>
  Dual(U value) noexcept  // NOLINT(google-explicit-constructor)
      : value_(static_cast<double>(value)), derivative_(0.0) {}
  Dual(const T& value, const T& derivative) noexcept : value_(value), derivative_(derivative) {}

  const T& value() const noexcept { return value_; }
  const T& derivative() const noexcept { return derivative_; }

  Dual& operator+=(const Dual& b) noexcept {
    value_ += b.value_;
    derivative_ += b.derivative_;
    return *this;
  }
  Dual& operator-=(const Dual& b) noexcept {
    value_ -= b.value_;
    derivative_ -= b.derivative_;
    return *this;
  }
  Dual& operator*=(const Dual& b) noexcept { return *this = *this * b; }
  Dual& operator/=(const Dual& b) noexcept { return *this = *this / b; }

  friend Dual operator+(const Dual& a) noexcept { return a; }
  friend Dual operator-(const Dual& a) noexcept { return Dual(-a.value_, -a.derivative_); }
  friend Dual operator+(Dual a, const Dual& b) noexcept { return a += b; }
  friend Dual operator-(Dual a, const Dual& b) noexcept { return a -= b; }
  friend Dual operator*(const Dual& a, const Dual& b) noexcept {
    return Dual(a.value_ * b.value_, a.value_ * b.derivative_ + a.derivative_ * b.value_);
  }
  friend Dual operator/(const Dual& a, const Dual& b) noexcept {
    const T inverse = T(1.0) / b.value_;
    const T quotient = a.value_ * inverse;
    return Dual(quotient, (a.derivative_ - quotient * b.derivative_) * inverse);
  }
  // Exact-match overloads for plain doubles (cheaper than promoting to Dual).
  friend Dual operator+(Dual a, double b) noexcept {
    a.value_ += b;
    return a;
  }
  friend Dual operator+(double a, Dual b) noexcept { return b + a; }
  friend Dual operator-(Dual a, double b) noexcept {
    a.value_ -= b;
    return a;
  }
  friend Dual operator-(double a, const Dual& b) noexcept { return -b + a; }
  friend Dual operator*(const Dual& a, double b) noexcept {
    return Dual(a.value_ * b, a.derivative_ * b);
  }
  friend Dual operator*(double a, const Dual& b) noexcept { return b * a; }
  friend Dual operator/(const Dual& a, double b) noexcept { return a * (1.0 / b); }
  friend Dual operator/(double a, const Dual& b) noexcept { return Dual(a) / b; }

  // Comparisons look at the primal value only.
  friend bool operator==(const Dual& a, const Dual& b) noexcept { return a.value_ == b.value_; }
  friend bool operator!=(const Dual& a, const Dual& b) noexcept { return a.value_ != b.value_; }
  friend bool operator<(const Dual& a, const Dual& b) noexcept { return a.value_ < b.value_; }
  friend bool operator<=(const Dual& a, const Dual& b) noexcept { return a.value_ <= b.value_; }
  friend bool operator>(const Dual& a, const Dual& b) noexcept { return a.value_ > b.value_; }
  friend bool operator>=(const Dual& a, const Dual& b) noexcept { return a.value_ >= b.value_; }

  // Elementary functions, found by argument-dependent lookup (the inner calls
  // resolve to std:: for double and to these overloads for nested duals).
  friend Dual sin(const Dual& x) noexcept {
    using std::cos;
    using std::sin;
    return Dual(sin(x.value_), cos(x.value_) * x.derivative_);
  }
  friend Dual cos(const Dual& x) noexcept {
    using std::cos;
    using std::sin;
    return Dual(cos(x.value_), -(sin(x.value_) * x.derivative_));
  }
  friend Dual sqrt(const Dual& x) noexcept {
    using std::sqrt;
    const T root = sqrt(x.value_);
    return Dual(root, x.derivative_ / (T(2.0) * root));
  }
  friend Dual atan2(const Dual& y, const Dual& x) noexcept {
    using std::atan2;
    const T norm2 = x.value_ * x.value_ + y.value_ * y.value_;
    return Dual(atan2(y.value_, x.value_),
                (x.value_ * y.derivative_ - y.value_ * x.derivative_) / norm2);
  }
  friend Dual abs(const Dual& x) noexcept { return x.value_ < T(0.0) ? -x : x; }
  friend Dual fabs(const Dual& x) noexcept { return abs(x); }
  friend bool isfinite(const Dual& x) noexcept {
    using std::isfinite;
    return isfinite(x.value_) && isfinite(x.derivative_);
  }

 private:
  T value_;
  T derivative_;
};

/// Dual nested `Levels` times around double (Levels = 0: double itself).
template <int Levels>
struct NestedDualOf {
  using type = Dual<typename NestedDualOf<Levels - 1>::type>;
};
template <>
struct NestedDualOf<0> {
  using type = double;
};
template <int Levels>
using NestedDual = typename NestedDualOf<Levels>::type;

/// The plain number inside a (nested) dual.
inline double primal_value(double x) noexcept { return x; }
template <class T>
double primal_value(const Dual<T>& x) noexcept {
  return primal_value(x.value());
}

}  // namespace hodyn_bench

namespace hodyn {

template <class T>
struct ScalarTraits<hodyn_bench::Dual<T>, void> {
  static bool is_finite(const hodyn_bench::Dual<T>& x) noexcept { return isfinite(x); }
  static double primal(const hodyn_bench::Dual<T>& x) noexcept {
    return hodyn_bench::primal_value(x);
  }
  static constexpr double orthonormality_tolerance() noexcept { return 1e-9; }
};

}  // namespace hodyn

namespace Eigen {

template <class T>
struct NumTraits<hodyn_bench::Dual<T>> : GenericNumTraits<hodyn_bench::Dual<T>> {
  using Self = hodyn_bench::Dual<T>;
  using Real = Self;
  using NonInteger = Self;
  using Literal = Self;
  using Nested = Self;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 2 * NumTraits<T>::ReadCost,
    AddCost = 2 * NumTraits<T>::AddCost,
    MulCost = 3 * NumTraits<T>::MulCost + NumTraits<T>::AddCost
  };
  static inline Real epsilon() { return Real(NumTraits<double>::epsilon()); }
  static inline Real dummy_precision() { return Real(NumTraits<double>::dummy_precision()); }
  static inline Real highest() { return Real(NumTraits<double>::highest()); }
  static inline Real lowest() { return Real(NumTraits<double>::lowest()); }
  static inline int digits10() { return NumTraits<double>::digits10(); }
};

/// Mixed expressions (Matrix<Dual> op double) return Dual.
template <class T, class BinaryOp>
struct ScalarBinaryOpTraits<hodyn_bench::Dual<T>, double, BinaryOp> {
  using ReturnType = hodyn_bench::Dual<T>;
};
template <class T, class BinaryOp>
struct ScalarBinaryOpTraits<double, hodyn_bench::Dual<T>, BinaryOp> {
  using ReturnType = hodyn_bench::Dual<T>;
};

}  // namespace Eigen
