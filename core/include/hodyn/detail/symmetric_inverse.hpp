// hodyn/detail/symmetric_inverse.hpp — the inverse of a small fixed-size
// symmetric positive-definite matrix by Cholesky, with compile-time loops.
//
// Eigen's LLT::solve dispatches small fixed-size right-hand sides to its
// blocked triangular solver for dynamic sizes (~3x the work for 12x12 here);
// this is the textbook M = L Lᵀ, M⁻¹ = L⁻ᵀ L⁻¹ with every bound a constant, so
// the compiler unrolls and vectorizes it. ~N³ multiply-adds, no heap.
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "hodyn/scalar_traits.hpp"

namespace hodyn::detail {

/// inverse = m⁻¹ for a symmetric positive-definite m (lower triangle read).
/// False (inverse untouched beyond scratch use) when a pivot is not positive.
template <class S, int N>
bool symmetric_positive_inverse(const Eigen::Matrix<S, N, N>& m, Eigen::Matrix<S, N, N>& inverse) {
  using std::sqrt;
  Eigen::Matrix<S, N, N> l = Eigen::Matrix<S, N, N>::Zero();  // L, then L⁻¹ (lower)
  for (int j = 0; j < N; ++j) {
    S d = m(j, j);
    for (int k = 0; k < j; ++k) d -= l(j, k) * l(j, k);
    if (!(ScalarTraits<S>::primal(d) > 0)) return false;
    const S ljj = sqrt(d);
    l(j, j) = ljj;
    const S r = S(1) / ljj;
    for (int i = j + 1; i < N; ++i) {
      S s = m(i, j);
      for (int k = 0; k < j; ++k) s -= l(i, k) * l(j, k);
      l(i, j) = s * r;
    }
  }
  // X = L⁻¹ (lower): column by column, forward substitution on unit vectors.
  Eigen::Matrix<S, N, N> x = Eigen::Matrix<S, N, N>::Zero();
  for (int j = 0; j < N; ++j) {
    x(j, j) = S(1) / l(j, j);
    for (int i = j + 1; i < N; ++i) {
      S s(0);
      for (int k = j; k < i; ++k) s -= l(i, k) * x(k, j);
      x(i, j) = s / l(i, i);
    }
  }
  // M⁻¹ = Xᵀ X.
  inverse.noalias() = x.transpose() * x;
  return true;
}

}  // namespace hodyn::detail
