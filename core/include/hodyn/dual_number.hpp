// hodyn/dual_number.hpp — a forward-mode dual-number scalar: exact first
// derivatives of any hodyn quantity with respect to N chosen inputs or model
// parameters, through the algorithms' templated code.
//
// `DualNumber<T, N>` is x = a + Σ_i b_i ε_i with ε_i ε_k = 0: a value a and
// N partial derivatives b_i = ∂x/∂p_i. Every operation applies the chain rule
// to the partials (f(x) → f(a) + f'(a) Σ b_i ε_i), so running an algorithm
// with a parameter seeded as `DualNumber::variable(p, i)` gives, in every
// output, its value and its partial derivative with respect to p (exact to
// rounding; no step size). hodyn's tests use it as an oracle for parameter
// and state derivatives; docs/dual-numbers.md has the recipe:
//
//   using D = hodyn::DualNumber<double, 1>;
//   hodyn::Model<Tree, D> m = model.cast<D>();
//   hodyn::SpatialInertia<D> body = model.body_inertia(3).cast<D>();
//   ... set body 3's mass to D::variable(m3, 0) with m.set_body ...
//   ... any order-0 hodyn call on m; then out.value(), out.derivative(0).
//
// Versus TaylorSeries (taylor_series.hpp): that one carries derivatives in
// ONE variable (time) to any degree; this one carries FIRST derivatives in N
// variables at once. Cost: every operation is O(N) (a product 2N + 1
// multiplies, a product with a T constant N + 1), as plain loops over
// fixed-size arrays the compiler vectorizes. Fixed size, no heap, no
// exceptions; it plugs into Eigen (NumTraits, ScalarBinaryOpTraits for mixing
// with T) and into the core (ScalarTraits). Comparisons look at the value.
//
// Edges (where f' is infinite or undefined), documented and tested:
//   sqrt(x) at a = 0, asin/acos at a = ±1: a partial b_i = 0 stays 0 (the
//     input does not move in that direction), b_i ≠ 0 gives ±inf;
//   atan2(y, x) at (0, 0): the value is std::atan2's, the partials NaN (the
//     angle is undefined there), so the core's finiteness checks report it;
//   abs(x) at a = 0 takes the derivative of +x (as TaylorSeries does);
//   outside a function's domain (sqrt, log of a < 0, acos of |a| > 1) value
//     and partials are what the T functions give (NaN).
#pragma once

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "hodyn/scalar_traits.hpp"

namespace hodyn {
// In a namespace of its own, so that argument-dependent lookup on a
// DualNumber (or an Eigen matrix of them) finds its own functions only.
namespace dual {

template <class T, int N>
class DualNumber {
  static_assert(std::is_floating_point<T>::value,
                "DualNumber<T, N>: T must be a floating-point type");
  static_assert(N >= 1, "DualNumber<T, N>: N must be >= 1");
  static constexpr std::size_t kSize = static_cast<std::size_t>(N);

 public:
  using value_type = T;
  static constexpr int size = N;
  using Partials = std::array<T, N>;

  // ---- construction ---------------------------------------------------------
  /// Zero.
  DualNumber() noexcept : v_(0) { d_.fill(T(0)); }
  /// A constant (implicit: lets `DualNumber x = 1.0;` and Eigen's `Scalar(0)`
  /// work; ints convert through T).
  DualNumber(const T& value) noexcept : v_(value) {  // NOLINT(google-explicit-constructor)
    d_.fill(T(0));
  }
  /// A value with the given partials.
  DualNumber(const T& value, const Partials& partials) noexcept : v_(value), d_(partials) {}
  /// The independent variable number `index` (0..N−1): partial 1 there, 0
  /// elsewhere. An index out of range gives a constant.
  static DualNumber variable(const T& value, int index) noexcept {
    DualNumber r(value);
    if (index >= 0 && index < N) r.d_[static_cast<std::size_t>(index)] = T(1);
    return r;
  }

  // ---- access ----------------------------------------------------------------
  const T& value() const noexcept { return v_; }
  T& value() noexcept { return v_; }
  /// ∂x/∂p_i (i in 0..N−1).
  const T& derivative(int i) const noexcept { return d_[static_cast<std::size_t>(i)]; }
  T& derivative(int i) noexcept { return d_[static_cast<std::size_t>(i)]; }
  /// All N partials.
  const Partials& gradient() const noexcept { return d_; }
  Partials& gradient() noexcept { return d_; }

  // ---- compound assignment ---------------------------------------------------
  DualNumber& operator+=(const DualNumber& b) noexcept {
    v_ += b.v_;
    for (std::size_t i = 0; i < kSize; ++i) d_[i] += b.d_[i];
    return *this;
  }
  DualNumber& operator-=(const DualNumber& b) noexcept {
    v_ -= b.v_;
    for (std::size_t i = 0; i < kSize; ++i) d_[i] -= b.d_[i];
    return *this;
  }
  /// (a b)' = a b' + a' b.
  DualNumber& operator*=(const DualNumber& b) noexcept {
    for (std::size_t i = 0; i < kSize; ++i) d_[i] = v_ * b.d_[i] + d_[i] * b.v_;
    v_ *= b.v_;
    return *this;
  }
  /// (a / b)' = (a' − (a/b) b') / b.
  DualNumber& operator/=(const DualNumber& b) noexcept {
    const T inverse = T(1) / b.v_;
    v_ /= b.v_;
    for (std::size_t i = 0; i < kSize; ++i) d_[i] = (d_[i] - v_ * b.d_[i]) * inverse;
    return *this;
  }
  DualNumber& operator+=(const T& b) noexcept {
    v_ += b;
    return *this;
  }
  DualNumber& operator-=(const T& b) noexcept {
    v_ -= b;
    return *this;
  }
  DualNumber& operator*=(const T& b) noexcept {
    v_ *= b;
    for (std::size_t i = 0; i < kSize; ++i) d_[i] *= b;
    return *this;
  }
  /// The value divides exactly (as in T arithmetic); the partials multiply by 1/b.
  DualNumber& operator/=(const T& b) noexcept {
    const T inverse = T(1) / b;
    v_ /= b;
    for (std::size_t i = 0; i < kSize; ++i) d_[i] *= inverse;
    return *this;
  }

  // ---- arithmetic (hidden friends: non-templates, so int/double convert) -----
  friend DualNumber operator+(const DualNumber& a) noexcept { return a; }
  friend DualNumber operator-(const DualNumber& a) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = -a.v_;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = -a.d_[i];
    return r;
  }
  friend DualNumber operator+(const DualNumber& a, const DualNumber& b) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = a.v_ + b.v_;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = a.d_[i] + b.d_[i];
    return r;
  }
  friend DualNumber operator-(const DualNumber& a, const DualNumber& b) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = a.v_ - b.v_;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = a.d_[i] - b.d_[i];
    return r;
  }
  friend DualNumber operator*(const DualNumber& a, const DualNumber& b) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = a.v_ * b.v_;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = a.v_ * b.d_[i] + a.d_[i] * b.v_;
    return r;
  }
  friend DualNumber operator/(const DualNumber& a, const DualNumber& b) noexcept {
    DualNumber r(kUninitialized);
    const T inverse = T(1) / b.v_;
    r.v_ = a.v_ / b.v_;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = (a.d_[i] - r.v_ * b.d_[i]) * inverse;
    return r;
  }
  friend DualNumber operator+(const DualNumber& a, const T& b) noexcept {
    DualNumber r(a);
    r.v_ += b;
    return r;
  }
  friend DualNumber operator+(const T& a, const DualNumber& b) noexcept {
    DualNumber r(b);
    r.v_ = a + b.v_;
    return r;
  }
  friend DualNumber operator-(const DualNumber& a, const T& b) noexcept {
    DualNumber r(a);
    r.v_ -= b;
    return r;
  }
  friend DualNumber operator-(const T& a, const DualNumber& b) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = a - b.v_;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = -b.d_[i];
    return r;
  }
  /// N + 1 multiplies.
  friend DualNumber operator*(const DualNumber& a, const T& b) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = a.v_ * b;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = a.d_[i] * b;
    return r;
  }
  friend DualNumber operator*(const T& a, const DualNumber& b) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = a * b.v_;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = a * b.d_[i];
    return r;
  }
  friend DualNumber operator/(const DualNumber& a, const T& b) noexcept {
    DualNumber r(kUninitialized);
    const T inverse = T(1) / b;
    r.v_ = a.v_ / b;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = a.d_[i] * inverse;
    return r;
  }
  /// (a / b)' = −(a / b) b' / b.
  friend DualNumber operator/(const T& a, const DualNumber& b) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = a / b.v_;
    const T factor = -r.v_ / b.v_;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = factor * b.d_[i];
    return r;
  }

  // ---- comparisons: values only (what pivoting and branches need) ----------
  friend bool operator==(const DualNumber& a, const DualNumber& b) noexcept { return a.v_ == b.v_; }
  friend bool operator!=(const DualNumber& a, const DualNumber& b) noexcept { return a.v_ != b.v_; }
  friend bool operator<(const DualNumber& a, const DualNumber& b) noexcept { return a.v_ < b.v_; }
  friend bool operator<=(const DualNumber& a, const DualNumber& b) noexcept { return a.v_ <= b.v_; }
  friend bool operator>(const DualNumber& a, const DualNumber& b) noexcept { return a.v_ > b.v_; }
  friend bool operator>=(const DualNumber& a, const DualNumber& b) noexcept { return a.v_ >= b.v_; }
  friend bool operator==(const DualNumber& a, const T& b) noexcept { return a.v_ == b; }
  friend bool operator!=(const DualNumber& a, const T& b) noexcept { return a.v_ != b; }
  friend bool operator<(const DualNumber& a, const T& b) noexcept { return a.v_ < b; }
  friend bool operator<=(const DualNumber& a, const T& b) noexcept { return a.v_ <= b; }
  friend bool operator>(const DualNumber& a, const T& b) noexcept { return a.v_ > b; }
  friend bool operator>=(const DualNumber& a, const T& b) noexcept { return a.v_ >= b; }
  friend bool operator==(const T& a, const DualNumber& b) noexcept { return a == b.v_; }
  friend bool operator!=(const T& a, const DualNumber& b) noexcept { return a != b.v_; }
  friend bool operator<(const T& a, const DualNumber& b) noexcept { return a < b.v_; }
  friend bool operator<=(const T& a, const DualNumber& b) noexcept { return a <= b.v_; }
  friend bool operator>(const T& a, const DualNumber& b) noexcept { return a > b.v_; }
  friend bool operator>=(const T& a, const DualNumber& b) noexcept { return a >= b.v_; }

  // ---- elementary functions (found by ADL): f(a) and f'(a) b_i ------------
  friend DualNumber sin(const DualNumber& x) noexcept {
    return chain(x, std::sin(x.v_), std::cos(x.v_));
  }
  friend DualNumber cos(const DualNumber& x) noexcept {
    return chain(x, std::cos(x.v_), -std::sin(x.v_));
  }
  /// tan' = 1 + tan².
  friend DualNumber tan(const DualNumber& x) noexcept {
    const T t = std::tan(x.v_);
    return chain(x, t, T(1) + t * t);
  }
  friend DualNumber exp(const DualNumber& x) noexcept {
    const T e = std::exp(x.v_);
    return chain(x, e, e);
  }
  friend DualNumber log(const DualNumber& x) noexcept {
    return chain(x, std::log(x.v_), T(1) / x.v_);
  }
  /// sqrt' = 1 / (2 sqrt); at 0 see the file comment.
  friend DualNumber sqrt(const DualNumber& x) noexcept {
    const T root = std::sqrt(x.v_);
    if (root == T(0)) return infinite_slope(x, root, T(1));
    return chain(x, root, T(0.5) / root);
  }
  /// asin' = 1 / sqrt(1 − a²); at a = ±1 see the file comment.
  friend DualNumber asin(const DualNumber& x) noexcept {
    const T s = std::sqrt(T(1) - x.v_ * x.v_);
    if (s == T(0)) return infinite_slope(x, std::asin(x.v_), T(1));
    return chain(x, std::asin(x.v_), T(1) / s);
  }
  /// acos' = −1 / sqrt(1 − a²); at a = ±1 see the file comment.
  friend DualNumber acos(const DualNumber& x) noexcept {
    const T s = std::sqrt(T(1) - x.v_ * x.v_);
    if (s == T(0)) return infinite_slope(x, std::acos(x.v_), T(-1));
    return chain(x, std::acos(x.v_), T(-1) / s);
  }
  /// atan2(y, x)' = (x y' − y x') / (x² + y²); NaN partials at (0, 0).
  friend DualNumber atan2(const DualNumber& y, const DualNumber& x) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = std::atan2(y.v_, x.v_);
    const T norm2 = x.v_ * x.v_ + y.v_ * y.v_;
    const T fx = x.v_ / norm2;  // NaN at (0, 0): 0 / 0
    const T fy = y.v_ / norm2;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = fx * y.d_[i] - fy * x.d_[i];
    return r;
  }
  /// x^p for a constant exponent: p a^(p−1) b_i.
  friend DualNumber pow(const DualNumber& x, const T& p) noexcept {
    return chain(x, std::pow(x.v_, p), p * std::pow(x.v_, p - T(1)));
  }
  /// |x| by the sign of the value (the derivative of +x at 0).
  friend DualNumber abs(const DualNumber& x) noexcept { return x.v_ < T(0) ? -x : x; }
  friend DualNumber fabs(const DualNumber& x) noexcept { return abs(x); }
  /// True when the value and every partial are finite.
  friend bool isfinite(const DualNumber& x) noexcept {
    // x − x is 0 for a finite number and NaN otherwise; one branch-free sum.
    T zero = x.v_ - x.v_;
    for (std::size_t i = 0; i < kSize; ++i) zero += x.d_[i] - x.d_[i];
    return zero == T(0);
  }
  friend bool isnan(const DualNumber& x) noexcept {
    bool nan = std::isnan(x.v_);
    for (std::size_t i = 0; i < kSize; ++i) nan = nan || std::isnan(x.d_[i]);
    return nan;
  }
  friend bool isinf(const DualNumber& x) noexcept {
    bool inf = std::isinf(x.v_);
    for (std::size_t i = 0; i < kSize; ++i) inf = inf || std::isinf(x.d_[i]);
    return inf;
  }

 private:
  enum Uninitialized { kUninitialized };
  /// For results every entry of which is written next (no zero fill).
  explicit DualNumber(Uninitialized) noexcept {}

  /// f(x) with value f(a) and slope f'(a): partials f'(a) b_i.
  static DualNumber chain(const DualNumber& x, const T& value, const T& slope) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = value;
    for (std::size_t i = 0; i < kSize; ++i) r.d_[i] = slope * x.d_[i];
    return r;
  }
  /// Where f' is infinite (sign `sign`): partial 0 stays 0, b_i ≠ 0 gives
  /// sign · b_i · ∞ (no 0 · ∞ NaN).
  static DualNumber infinite_slope(const DualNumber& x, const T& value, const T& sign) noexcept {
    DualNumber r(kUninitialized);
    r.v_ = value;
    const T infinity = std::numeric_limits<T>::infinity();
    for (std::size_t i = 0; i < kSize; ++i)
      r.d_[i] = x.d_[i] == T(0) ? T(0) : (x.d_[i] * sign > T(0) ? infinity : -infinity);
    return r;
  }

  T v_;
  Partials d_;
};

}  // namespace dual

using dual::DualNumber;

/// Core trait for the dual scalar: finite when the value and every partial
/// are; the plain value is the value part.
template <class T, int N>
struct ScalarTraits<DualNumber<T, N>, void> {
  static bool is_finite(const DualNumber<T, N>& x) noexcept { return isfinite(x); }
  static T primal(const DualNumber<T, N>& x) noexcept { return x.value(); }
  static constexpr T orthonormality_tolerance() noexcept {
    return ScalarTraits<T>::orthonormality_tolerance();
  }
};

}  // namespace hodyn

namespace Eigen {

template <class T, int N>
struct NumTraits<hodyn::dual::DualNumber<T, N>> {
  using Self = hodyn::dual::DualNumber<T, N>;
  using Real = Self;
  using NonInteger = Self;
  using Literal = Self;
  using Nested = Self;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = (N + 1) * NumTraits<T>::ReadCost,
    AddCost = (N + 1) * NumTraits<T>::AddCost,
    MulCost = (2 * N + 1) * NumTraits<T>::MulCost + N * NumTraits<T>::AddCost
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

/// Mixed expressions (Matrix<DualNumber> op T) return DualNumber.
template <class T, int N, class BinaryOp>
struct ScalarBinaryOpTraits<hodyn::dual::DualNumber<T, N>, T, BinaryOp> {
  using ReturnType = hodyn::dual::DualNumber<T, N>;
};
template <class T, int N, class BinaryOp>
struct ScalarBinaryOpTraits<T, hodyn::dual::DualNumber<T, N>, BinaryOp> {
  using ReturnType = hodyn::dual::DualNumber<T, N>;
};

}  // namespace Eigen
