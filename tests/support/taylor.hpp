// tests/support/taylor.hpp — truncated Taylor series scalar for test oracles.
//
// `Taylor<T, Degree>` holds the Taylor coefficients c[0..Degree] of a function
// of one variable t (time):  x(t) = sum_k c_k t^k + O(t^{Degree+1}).
// Arithmetic, sin/cos/sqrt/exp act on the whole series, truncated at Degree, so
// running an order-0 algorithm with this scalar along a trajectory gives every
// time derivative of its output:  x^(k)(0) = k! c_k = derivative_value(k).
//
// It plugs into Eigen (NumTraits, ScalarBinaryOpTraits for mixing with T) and
// into the core (hodyn::ScalarTraits). Test code only: not for real-time use.
#pragma once

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <limits>
#include <ostream>
#include <type_traits>

#include "hodyn/scalar_traits.hpp"

namespace hodyn {
namespace test {

template <class T, int Degree>
class Taylor {
  static_assert(std::is_floating_point<T>::value, "Taylor<T, D>: T must be a floating-point type");
  static_assert(Degree >= 0, "Taylor<T, D>: Degree must be >= 0");

 public:
  using value_type = T;
  static constexpr int degree = Degree;
  static constexpr int size = Degree + 1;
  using Coefficients = std::array<T, Degree + 1>;

  // ---- construction ---------------------------------------------------------
  /// Zero series.
  Taylor() noexcept { c_.fill(T(0)); }
  /// Constant series x(t) = x0 (implicit: lets `Taylor x = 1.0;` and Eigen's
  /// `Scalar(0)` work; ints convert through T).
  Taylor(const T& x0) noexcept {  // NOLINT(google-explicit-constructor)
    c_.fill(T(0));
    c_[0] = x0;
  }
  /// From Taylor coefficients c[0..Degree].
  explicit Taylor(const Coefficients& coefficients) noexcept : c_(coefficients) {}
  /// The independent variable around x0: x(t) = x0 + rate * t.
  static Taylor variable(const T& x0, const T& rate = T(1)) noexcept {
    Taylor r(x0);
    if (Degree >= 1) r.c_[1] = rate;
    return r;
  }
  /// The series whose k-th derivative at 0 is derivatives[k] (c_k = d_k / k!).
  /// Missing derivatives (past the end of the list) are zero.
  template <class Container>
  static Taylor from_derivatives(const Container& derivatives) {
    Taylor r;
    T factorial(1);
    int k = 0;
    for (const auto& d : derivatives) {
      if (k > Degree) break;
      if (k > 0) factorial *= T(k);
      r.c_[static_cast<std::size_t>(k)] = T(d) / factorial;
      ++k;
    }
    return r;
  }

  // ---- access ----------------------------------------------------------------
  /// Taylor coefficient c_k (k in 0..Degree).
  const T& coeff(int k) const noexcept { return c_[static_cast<std::size_t>(k)]; }
  T& coeff(int k) noexcept { return c_[static_cast<std::size_t>(k)]; }
  const Coefficients& coefficients() const noexcept { return c_; }
  /// Constant term c_0 = x(0).
  const T& value() const noexcept { return c_[0]; }
  /// k-th time derivative at 0: k! c_k.
  T derivative_value(int k) const noexcept {
    T f(1);
    for (int i = 2; i <= k; ++i) f *= T(i);
    return f * coeff(k);
  }
  /// Series of dx/dt, truncated: coefficient k is (k+1) c_{k+1}, the top
  /// coefficient becomes 0 (it is unknown at this truncation degree).
  Taylor derivative() const noexcept {
    Taylor r;
    for (int k = 0; k < Degree; ++k) r.coeff(k) = T(k + 1) * coeff(k + 1);
    return r;
  }
  /// Polynomial value sum_k c_k t^k (Horner).
  T evaluate(const T& t) const noexcept {
    T s = c_[Degree];
    for (int k = Degree - 1; k >= 0; --k) s = s * t + coeff(k);
    return s;
  }

  // ---- compound assignment ---------------------------------------------------
  Taylor& operator+=(const Taylor& b) noexcept {
    for (int k = 0; k <= Degree; ++k) coeff(k) += b.coeff(k);
    return *this;
  }
  Taylor& operator-=(const Taylor& b) noexcept {
    for (int k = 0; k <= Degree; ++k) coeff(k) -= b.coeff(k);
    return *this;
  }
  Taylor& operator*=(const Taylor& b) noexcept { return *this = *this * b; }
  Taylor& operator/=(const Taylor& b) noexcept { return *this = *this / b; }
  Taylor& operator+=(const T& b) noexcept {
    c_[0] += b;
    return *this;
  }
  Taylor& operator-=(const T& b) noexcept {
    c_[0] -= b;
    return *this;
  }
  Taylor& operator*=(const T& b) noexcept {
    for (auto& x : c_) x *= b;
    return *this;
  }
  Taylor& operator/=(const T& b) noexcept {
    for (auto& x : c_) x /= b;
    return *this;
  }

  // ---- arithmetic (hidden friends: non-templates, so int/double convert) -----
  friend Taylor operator+(const Taylor& a) noexcept { return a; }
  friend Taylor operator-(const Taylor& a) noexcept {
    Taylor r;
    for (int k = 0; k <= Degree; ++k) r.coeff(k) = -a.coeff(k);
    return r;
  }
  friend Taylor operator+(Taylor a, const Taylor& b) noexcept { return a += b; }
  friend Taylor operator+(Taylor a, const T& b) noexcept { return a += b; }
  friend Taylor operator+(const T& a, Taylor b) noexcept { return b += a; }
  friend Taylor operator-(Taylor a, const Taylor& b) noexcept { return a -= b; }
  friend Taylor operator-(Taylor a, const T& b) noexcept { return a -= b; }
  friend Taylor operator-(const T& a, const Taylor& b) noexcept {
    Taylor r = -b;
    return r += a;
  }
  /// Cauchy product, truncated.
  friend Taylor operator*(const Taylor& a, const Taylor& b) noexcept {
    Taylor r;
    for (int k = 0; k <= Degree; ++k) {
      T s(0);
      for (int i = 0; i <= k; ++i) s += a.coeff(i) * b.coeff(k - i);
      r.coeff(k) = s;
    }
    return r;
  }
  friend Taylor operator*(Taylor a, const T& b) noexcept { return a *= b; }
  friend Taylor operator*(const T& a, Taylor b) noexcept { return b *= a; }
  /// Series division q = a / b:  q_k = (a_k - sum_{i=1..k} b_i q_{k-i}) / b_0.
  friend Taylor operator/(const Taylor& a, const Taylor& b) noexcept {
    Taylor q;
    for (int k = 0; k <= Degree; ++k) {
      T s = a.coeff(k);
      for (int i = 1; i <= k; ++i) s -= b.coeff(i) * q.coeff(k - i);
      q.coeff(k) = s / b.coeff(0);
    }
    return q;
  }
  friend Taylor operator/(Taylor a, const T& b) noexcept { return a /= b; }
  friend Taylor operator/(const T& a, const Taylor& b) noexcept { return Taylor(a) / b; }

  // ---- comparisons: constant terms only (what Eigen's pivoting etc. need) ----
  friend bool operator==(const Taylor& a, const Taylor& b) noexcept { return a.c_[0] == b.c_[0]; }
  friend bool operator!=(const Taylor& a, const Taylor& b) noexcept { return a.c_[0] != b.c_[0]; }
  friend bool operator<(const Taylor& a, const Taylor& b) noexcept { return a.c_[0] < b.c_[0]; }
  friend bool operator<=(const Taylor& a, const Taylor& b) noexcept { return a.c_[0] <= b.c_[0]; }
  friend bool operator>(const Taylor& a, const Taylor& b) noexcept { return a.c_[0] > b.c_[0]; }
  friend bool operator>=(const Taylor& a, const Taylor& b) noexcept { return a.c_[0] >= b.c_[0]; }
  friend bool operator==(const Taylor& a, const T& b) noexcept { return a.c_[0] == b; }
  friend bool operator!=(const Taylor& a, const T& b) noexcept { return a.c_[0] != b; }
  friend bool operator<(const Taylor& a, const T& b) noexcept { return a.c_[0] < b; }
  friend bool operator<=(const Taylor& a, const T& b) noexcept { return a.c_[0] <= b; }
  friend bool operator>(const Taylor& a, const T& b) noexcept { return a.c_[0] > b; }
  friend bool operator>=(const Taylor& a, const T& b) noexcept { return a.c_[0] >= b; }
  friend bool operator==(const T& a, const Taylor& b) noexcept { return a == b.c_[0]; }
  friend bool operator!=(const T& a, const Taylor& b) noexcept { return a != b.c_[0]; }
  friend bool operator<(const T& a, const Taylor& b) noexcept { return a < b.c_[0]; }
  friend bool operator<=(const T& a, const Taylor& b) noexcept { return a <= b.c_[0]; }
  friend bool operator>(const T& a, const Taylor& b) noexcept { return a > b.c_[0]; }
  friend bool operator>=(const T& a, const Taylor& b) noexcept { return a >= b.c_[0]; }

  // ---- elementary functions (found by ADL) ----------------------------------
  /// sin and cos together:  s' = c x',  c' = -s x'  =>
  /// k s_k = sum_{i=1..k} i x_i c_{k-i},  k c_k = -sum_{i=1..k} i x_i s_{k-i}.
  friend void sincos(const Taylor& x, Taylor& s, Taylor& c) noexcept {
    Taylor ss, cc;
    ss.coeff(0) = std::sin(x.coeff(0));
    cc.coeff(0) = std::cos(x.coeff(0));
    for (int k = 1; k <= Degree; ++k) {
      T as(0), ac(0);
      for (int i = 1; i <= k; ++i) {
        const T ix = T(i) * x.coeff(i);
        as += ix * cc.coeff(k - i);
        ac += ix * ss.coeff(k - i);
      }
      ss.coeff(k) = as / T(k);
      cc.coeff(k) = -ac / T(k);
    }
    s = ss;
    c = cc;
  }
  friend Taylor sin(const Taylor& x) noexcept {
    Taylor s, c;
    sincos(x, s, c);
    return s;
  }
  friend Taylor cos(const Taylor& x) noexcept {
    Taylor s, c;
    sincos(x, s, c);
    return c;
  }
  /// e' = x' e  =>  k e_k = sum_{i=1..k} i x_i e_{k-i}.
  friend Taylor exp(const Taylor& x) noexcept {
    Taylor e;
    e.coeff(0) = std::exp(x.coeff(0));
    for (int k = 1; k <= Degree; ++k) {
      T a(0);
      for (int i = 1; i <= k; ++i) a += T(i) * x.coeff(i) * e.coeff(k - i);
      e.coeff(k) = a / T(k);
    }
    return e;
  }
  /// s^2 = x  =>  s_k = (x_k - sum_{i=1..k-1} s_i s_{k-i}) / (2 s_0).
  /// Only defined for x_0 > 0 beyond the constant term.
  friend Taylor sqrt(const Taylor& x) noexcept {
    Taylor s;
    s.coeff(0) = std::sqrt(x.coeff(0));
    for (int k = 1; k <= Degree; ++k) {
      T a = x.coeff(k);
      for (int i = 1; i < k; ++i) a -= s.coeff(i) * s.coeff(k - i);
      s.coeff(k) = a / (T(2) * s.coeff(0));
    }
    return s;
  }
  /// |x| by the sign of the constant term (not differentiable at c_0 = 0).
  friend Taylor abs(const Taylor& x) noexcept { return x.coeff(0) < T(0) ? -x : x; }
  friend Taylor fabs(const Taylor& x) noexcept { return abs(x); }
  /// True when every coefficient is finite.
  friend bool isfinite(const Taylor& x) noexcept {
    for (const auto& v : x.c_)
      if (!std::isfinite(v)) return false;
    return true;
  }
  friend bool isnan(const Taylor& x) noexcept {
    for (const auto& v : x.c_)
      if (std::isnan(v)) return true;
    return false;
  }
  friend bool isinf(const Taylor& x) noexcept {
    for (const auto& v : x.c_)
      if (std::isinf(v)) return true;
    return false;
  }

  friend std::ostream& operator<<(std::ostream& os, const Taylor& x) {
    os << "[";
    for (int k = 0; k <= Degree; ++k) os << (k ? ", " : "") << x.coeff(k);
    return os << "]";
  }

 private:
  Coefficients c_;
};

}  // namespace test

/// Core trait for the series scalar: finiteness of every coefficient; the
/// plain value is the constant term.
template <class T, int D>
struct ScalarTraits<test::Taylor<T, D>, void> {
  static bool is_finite(const test::Taylor<T, D>& x) noexcept { return isfinite(x); }
  static T primal(const test::Taylor<T, D>& x) noexcept { return x.value(); }
  static constexpr T orthonormality_tolerance() noexcept { return T(1e-9); }
};

}  // namespace hodyn

namespace Eigen {

template <class T, int D>
struct NumTraits<hodyn::test::Taylor<T, D>> {
  using Self = hodyn::test::Taylor<T, D>;
  using Real = Self;
  using NonInteger = Self;
  using Literal = Self;
  using Nested = Self;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = (D + 1) * NumTraits<T>::ReadCost,
    AddCost = (D + 1) * NumTraits<T>::AddCost,
    MulCost = ((D + 1) * (D + 2) / 2) * (NumTraits<T>::MulCost + NumTraits<T>::AddCost)
  };
  static inline Real epsilon() { return Real(NumTraits<T>::epsilon()); }
  static inline Real dummy_precision() { return Real(NumTraits<T>::dummy_precision()); }
  static inline Real highest() { return Real(NumTraits<T>::highest()); }
  static inline Real lowest() { return Real(NumTraits<T>::lowest()); }
  static inline Real infinity() { return Real(NumTraits<T>::infinity()); }
  static inline Real quiet_NaN() { return Real(NumTraits<T>::quiet_NaN()); }
  static inline int digits10() { return NumTraits<T>::digits10(); }
  static inline int digits() { return NumTraits<T>::digits(); }
  static inline int min_exponent() { return NumTraits<T>::min_exponent(); }
  static inline int max_exponent() { return NumTraits<T>::max_exponent(); }
};

/// Mixed expressions (Matrix<Taylor> op T) return Taylor.
template <class T, int D, class BinaryOp>
struct ScalarBinaryOpTraits<hodyn::test::Taylor<T, D>, T, BinaryOp> {
  using ReturnType = hodyn::test::Taylor<T, D>;
};
template <class T, int D, class BinaryOp>
struct ScalarBinaryOpTraits<T, hodyn::test::Taylor<T, D>, BinaryOp> {
  using ReturnType = hodyn::test::Taylor<T, D>;
};

}  // namespace Eigen
