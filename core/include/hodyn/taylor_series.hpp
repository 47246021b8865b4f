// hodyn/taylor_series.hpp — a truncated TaylorSeries-series scalar: exact time
// derivatives of any hodyn quantity through the algorithms' templated code.
//
// `TaylorSeries<T, Degree>` holds the TaylorSeries coefficients c[0..Degree] of a
// function of one variable t (time):  x(t) = Σ_k c_k t^k + O(t^{Degree+1}).
// Arithmetic, sin/cos/sqrt/exp act on the whole series, truncated at Degree, so
// running an algorithm with this scalar along a trajectory gives every time
// derivative of its output: x^(k)(0) = k! c_k = derivative_value(k). hodyn's
// tests use it as their oracle (DESIGN.md §6: the order-0 code run on series
// must agree with the higher-order recursions); a user can do the same for a
// quantity hodyn has no derivative call for (docs/taylor-series.md):
//
//   using S = hodyn::TaylorSeries<double, 4>;
//   hodyn::Model<Tree, S> m = model.cast<S>();           // constant series
//   motion.q[0](j) = S::from_derivatives(q_j_derivatives); // q_j(t)
//   ... any hodyn call on m and motion; then out.derivative_value(k).
//
// It plugs into Eigen (NumTraits, ScalarBinaryOpTraits for mixing with T) and
// into the core (ScalarTraits). Fixed size, no heap, no exceptions; the cost
// of a product is O(Degree²), so it is for analysis and tests, not for the
// real-time loop (the recursions are). Comparisons look at the constant term.
#pragma once

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "hodyn/scalar_traits.hpp"

namespace hodyn {
// In a namespace of its own, so that argument-dependent lookup on a
// TaylorSeries (or an Eigen matrix of them) finds its own functions only
// (sin, cos, …), not every hodyn function of the same name.
namespace series {

template <class T, int Degree>
class TaylorSeries {
  static_assert(std::is_floating_point<T>::value,
                "TaylorSeries<T, D>: T must be a floating-point type");
  static_assert(Degree >= 0, "TaylorSeries<T, D>: Degree must be >= 0");

 public:
  using value_type = T;
  static constexpr int degree = Degree;
  static constexpr int size = Degree + 1;
  using Coefficients = std::array<T, Degree + 1>;

  // ---- construction ---------------------------------------------------------
  /// Zero series.
  TaylorSeries() noexcept { c_.fill(T(0)); }
  /// Constant series x(t) = x0 (implicit: lets `TaylorSeries x = 1.0;` and Eigen's
  /// `Scalar(0)` work; ints convert through T).
  TaylorSeries(const T& x0) noexcept {  // NOLINT(google-explicit-constructor)
    c_.fill(T(0));
    c_[0] = x0;
  }
  /// From TaylorSeries coefficients c[0..Degree].
  explicit TaylorSeries(const Coefficients& coefficients) noexcept : c_(coefficients) {}
  /// The independent variable around x0: x(t) = x0 + rate * t.
  static TaylorSeries variable(const T& x0, const T& rate = T(1)) noexcept {
    TaylorSeries r(x0);
    if (Degree >= 1) r.c_[1] = rate;
    return r;
  }
  /// The series whose k-th derivative at 0 is derivatives[k] (c_k = d_k / k!).
  /// Missing derivatives (past the end of the list) are zero.
  template <class Container>
  static TaylorSeries from_derivatives(const Container& derivatives) {
    TaylorSeries r;
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
  /// TaylorSeries coefficient c_k (k in 0..Degree).
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
  TaylorSeries derivative() const noexcept {
    TaylorSeries r;
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
  TaylorSeries& operator+=(const TaylorSeries& b) noexcept {
    for (int k = 0; k <= Degree; ++k) coeff(k) += b.coeff(k);
    return *this;
  }
  TaylorSeries& operator-=(const TaylorSeries& b) noexcept {
    for (int k = 0; k <= Degree; ++k) coeff(k) -= b.coeff(k);
    return *this;
  }
  TaylorSeries& operator*=(const TaylorSeries& b) noexcept { return *this = *this * b; }
  TaylorSeries& operator/=(const TaylorSeries& b) noexcept { return *this = *this / b; }
  TaylorSeries& operator+=(const T& b) noexcept {
    c_[0] += b;
    return *this;
  }
  TaylorSeries& operator-=(const T& b) noexcept {
    c_[0] -= b;
    return *this;
  }
  TaylorSeries& operator*=(const T& b) noexcept {
    for (auto& x : c_) x *= b;
    return *this;
  }
  TaylorSeries& operator/=(const T& b) noexcept {
    for (auto& x : c_) x /= b;
    return *this;
  }

  // ---- arithmetic (hidden friends: non-templates, so int/double convert) -----
  friend TaylorSeries operator+(const TaylorSeries& a) noexcept { return a; }
  friend TaylorSeries operator-(const TaylorSeries& a) noexcept {
    TaylorSeries r;
    for (int k = 0; k <= Degree; ++k) r.coeff(k) = -a.coeff(k);
    return r;
  }
  friend TaylorSeries operator+(TaylorSeries a, const TaylorSeries& b) noexcept { return a += b; }
  friend TaylorSeries operator+(TaylorSeries a, const T& b) noexcept { return a += b; }
  friend TaylorSeries operator+(const T& a, TaylorSeries b) noexcept { return b += a; }
  friend TaylorSeries operator-(TaylorSeries a, const TaylorSeries& b) noexcept { return a -= b; }
  friend TaylorSeries operator-(TaylorSeries a, const T& b) noexcept { return a -= b; }
  friend TaylorSeries operator-(const T& a, const TaylorSeries& b) noexcept {
    TaylorSeries r = -b;
    return r += a;
  }
  /// Cauchy product, truncated.
  friend TaylorSeries operator*(const TaylorSeries& a, const TaylorSeries& b) noexcept {
    TaylorSeries r;
    for (int k = 0; k <= Degree; ++k) {
      T s(0);
      for (int i = 0; i <= k; ++i) s += a.coeff(i) * b.coeff(k - i);
      r.coeff(k) = s;
    }
    return r;
  }
  friend TaylorSeries operator*(TaylorSeries a, const T& b) noexcept { return a *= b; }
  friend TaylorSeries operator*(const T& a, TaylorSeries b) noexcept { return b *= a; }
  /// Series division q = a / b:  q_k = (a_k - sum_{i=1..k} b_i q_{k-i}) / b_0.
  friend TaylorSeries operator/(const TaylorSeries& a, const TaylorSeries& b) noexcept {
    TaylorSeries q;
    for (int k = 0; k <= Degree; ++k) {
      T s = a.coeff(k);
      for (int i = 1; i <= k; ++i) s -= b.coeff(i) * q.coeff(k - i);
      q.coeff(k) = s / b.coeff(0);
    }
    return q;
  }
  friend TaylorSeries operator/(TaylorSeries a, const T& b) noexcept { return a /= b; }
  friend TaylorSeries operator/(const T& a, const TaylorSeries& b) noexcept {
    return TaylorSeries(a) / b;
  }

  // ---- comparisons: constant terms only (what Eigen's pivoting etc. need) ----
  friend bool operator==(const TaylorSeries& a, const TaylorSeries& b) noexcept {
    return a.c_[0] == b.c_[0];
  }
  friend bool operator!=(const TaylorSeries& a, const TaylorSeries& b) noexcept {
    return a.c_[0] != b.c_[0];
  }
  friend bool operator<(const TaylorSeries& a, const TaylorSeries& b) noexcept {
    return a.c_[0] < b.c_[0];
  }
  friend bool operator<=(const TaylorSeries& a, const TaylorSeries& b) noexcept {
    return a.c_[0] <= b.c_[0];
  }
  friend bool operator>(const TaylorSeries& a, const TaylorSeries& b) noexcept {
    return a.c_[0] > b.c_[0];
  }
  friend bool operator>=(const TaylorSeries& a, const TaylorSeries& b) noexcept {
    return a.c_[0] >= b.c_[0];
  }
  friend bool operator==(const TaylorSeries& a, const T& b) noexcept { return a.c_[0] == b; }
  friend bool operator!=(const TaylorSeries& a, const T& b) noexcept { return a.c_[0] != b; }
  friend bool operator<(const TaylorSeries& a, const T& b) noexcept { return a.c_[0] < b; }
  friend bool operator<=(const TaylorSeries& a, const T& b) noexcept { return a.c_[0] <= b; }
  friend bool operator>(const TaylorSeries& a, const T& b) noexcept { return a.c_[0] > b; }
  friend bool operator>=(const TaylorSeries& a, const T& b) noexcept { return a.c_[0] >= b; }
  friend bool operator==(const T& a, const TaylorSeries& b) noexcept { return a == b.c_[0]; }
  friend bool operator!=(const T& a, const TaylorSeries& b) noexcept { return a != b.c_[0]; }
  friend bool operator<(const T& a, const TaylorSeries& b) noexcept { return a < b.c_[0]; }
  friend bool operator<=(const T& a, const TaylorSeries& b) noexcept { return a <= b.c_[0]; }
  friend bool operator>(const T& a, const TaylorSeries& b) noexcept { return a > b.c_[0]; }
  friend bool operator>=(const T& a, const TaylorSeries& b) noexcept { return a >= b.c_[0]; }

  // ---- elementary functions (found by ADL) ----------------------------------
  /// sin and cos together:  s' = c x',  c' = -s x'  =>
  /// k s_k = sum_{i=1..k} i x_i c_{k-i},  k c_k = -sum_{i=1..k} i x_i s_{k-i}.
  friend void sincos(const TaylorSeries& x, TaylorSeries& s, TaylorSeries& c) noexcept {
    TaylorSeries ss, cc;
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
  friend TaylorSeries sin(const TaylorSeries& x) noexcept {
    TaylorSeries s, c;
    sincos(x, s, c);
    return s;
  }
  friend TaylorSeries cos(const TaylorSeries& x) noexcept {
    TaylorSeries s, c;
    sincos(x, s, c);
    return c;
  }
  /// e' = x' e  =>  k e_k = sum_{i=1..k} i x_i e_{k-i}.
  friend TaylorSeries exp(const TaylorSeries& x) noexcept {
    TaylorSeries e;
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
  friend TaylorSeries sqrt(const TaylorSeries& x) noexcept {
    TaylorSeries s;
    s.coeff(0) = std::sqrt(x.coeff(0));
    for (int k = 1; k <= Degree; ++k) {
      T a = x.coeff(k);
      for (int i = 1; i < k; ++i) a -= s.coeff(i) * s.coeff(k - i);
      s.coeff(k) = a / (T(2) * s.coeff(0));
    }
    return s;
  }
  /// |x| by the sign of the constant term (not differentiable at c_0 = 0).
  friend TaylorSeries abs(const TaylorSeries& x) noexcept { return x.coeff(0) < T(0) ? -x : x; }
  friend TaylorSeries fabs(const TaylorSeries& x) noexcept { return abs(x); }
  /// True when every coefficient is finite.
  friend bool isfinite(const TaylorSeries& x) noexcept {
    for (const auto& v : x.c_)
      if (!std::isfinite(v)) return false;
    return true;
  }
  friend bool isnan(const TaylorSeries& x) noexcept {
    for (const auto& v : x.c_)
      if (std::isnan(v)) return true;
    return false;
  }
  friend bool isinf(const TaylorSeries& x) noexcept {
    for (const auto& v : x.c_)
      if (std::isinf(v)) return true;
    return false;
  }

 private:
  Coefficients c_;
};

}  // namespace series

using series::TaylorSeries;

/// Core trait for the series scalar: finiteness of every coefficient; the
/// plain value is the constant term.
template <class T, int D>
struct ScalarTraits<TaylorSeries<T, D>, void> {
  static bool is_finite(const TaylorSeries<T, D>& x) noexcept { return isfinite(x); }
  static T primal(const TaylorSeries<T, D>& x) noexcept { return x.value(); }
  static constexpr T orthonormality_tolerance() noexcept { return T(1e-9); }
};

}  // namespace hodyn

namespace Eigen {

template <class T, int D>
struct NumTraits<hodyn::series::TaylorSeries<T, D>> {
  using Self = hodyn::series::TaylorSeries<T, D>;
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

/// Mixed expressions (Matrix<TaylorSeries> op T) return TaylorSeries.
template <class T, int D, class BinaryOp>
struct ScalarBinaryOpTraits<hodyn::series::TaylorSeries<T, D>, T, BinaryOp> {
  using ReturnType = hodyn::series::TaylorSeries<T, D>;
};
template <class T, int D, class BinaryOp>
struct ScalarBinaryOpTraits<T, hodyn::series::TaylorSeries<T, D>, BinaryOp> {
  using ReturnType = hodyn::series::TaylorSeries<T, D>;
};

}  // namespace Eigen
