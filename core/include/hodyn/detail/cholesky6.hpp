// hodyn/detail/cholesky6.hpp — fixed-size Cholesky factorization M = L Lᵀ of a
// symmetric positive-definite 6x6 matrix (the base's articulated inertia),
// with an explicit "not positive definite" answer instead of an assertion.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "hodyn/scalar_traits.hpp"
#include "hodyn/spatial_algebra.hpp"

namespace hodyn::detail {

template <class Scalar>
class Cholesky6 {
 public:
  /// Factorizes m (only its lower triangle is read). Returns false when a
  /// pivot is not positive relative to the matrix scale or not finite; the
  /// factor is then the identity, so solve() stays finite.
  bool compute(const Matrix6<Scalar>& m) {
    using std::sqrt;
    using Traits = ScalarTraits<Scalar>;
    using Primal = decltype(Traits::primal(m(0, 0)));
    Primal scale(0);
    for (int i = 0; i < 6; ++i) scale = std::max(scale, Primal(Traits::primal(m(i, i))));
    const Primal tiny = scale * std::numeric_limits<Primal>::epsilon() * Primal(64);
    l_.setZero();
    for (int j = 0; j < 6; ++j) {
      Scalar pivot = m(j, j);
      for (int k = 0; k < j; ++k) pivot -= l_(j, k) * l_(j, k);
      const Primal p = Traits::primal(pivot);
      if (!Traits::is_finite(pivot) || !(p > tiny)) {
        l_.setIdentity();
        return false;
      }
      const Scalar root = sqrt(pivot);
      l_(j, j) = root;
      const Scalar inv = Scalar(1) / root;
      for (int i = j + 1; i < 6; ++i) {
        Scalar s = m(i, j);
        for (int k = 0; k < j; ++k) s -= l_(i, k) * l_(j, k);
        l_(i, j) = s * inv;
      }
    }
    return true;
  }

  /// x = M⁻¹ b.
  Vector6<Scalar> solve(const Vector6<Scalar>& b) const {
    Vector6<Scalar> y;
    for (int i = 0; i < 6; ++i) {
      Scalar s = b(i);
      for (int k = 0; k < i; ++k) s -= l_(i, k) * y(k);
      y(i) = s / l_(i, i);
    }
    Vector6<Scalar> x;
    for (int i = 5; i >= 0; --i) {
      Scalar s = y(i);
      for (int k = i + 1; k < 6; ++k) s -= l_(k, i) * x(k);
      x(i) = s / l_(i, i);
    }
    return x;
  }

  const Matrix6<Scalar>& factor() const { return l_; }

 private:
  Matrix6<Scalar> l_ = Matrix6<Scalar>::Identity();
};

}  // namespace hodyn::detail
