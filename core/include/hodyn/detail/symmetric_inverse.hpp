// hodyn/detail/symmetric_inverse.hpp — the inverse of a small fixed-size
// symmetric positive-definite matrix, in place by Gauss-Jordan elimination,
// and a solve with one right-hand side by its L D Lᵀ factor.
//
// For a positive-definite matrix every pivot of the elimination is a Schur
// complement's diagonal, hence positive: no pivoting is needed, and a pivot
// that is not positive means the matrix is not positive definite. Each of the
// N steps is one rank-1 update of the whole matrix, which Eigen vectorizes for
// fixed sizes (Eigen's LLT::solve sends small fixed-size right-hand sides to
// its blocked triangular solver for dynamic sizes, several times slower
// here). N³ multiply-adds, no heap.
#pragma once

#include <Eigen/Core>

#include "hodyn/scalar_traits.hpp"

namespace hodyn::detail {

/// inverse = m⁻¹ for a symmetric positive-definite m. False when a pivot is
/// not positive (m is not positive definite); `inverse` is then unspecified.
template <class S, int N>
bool symmetric_positive_inverse(const Eigen::Matrix<S, N, N>& m, Eigen::Matrix<S, N, N>& inverse) {
  inverse = m;
  Eigen::Matrix<S, N, 1> column, row;
  for (int k = 0; k < N; ++k) {
    const S pivot = inverse(k, k);
    if (!(ScalarTraits<S>::primal(pivot) > 0)) return false;
    const S p = S(1) / pivot;
    // Row k becomes A_k·/A_kk (with p at k); every other row i loses A_ik times it
    // (and its entry k becomes −A_ik p): A ← A − c rᵀ with c the old column k, c_k = 0.
    row = inverse.row(k).transpose() * p;
    row(k) = p;
    column = inverse.col(k);
    column(k) = S(0);
    inverse.col(k).setZero();
    inverse.noalias() -= column * row.transpose();
    inverse.row(k) = row.transpose();
  }
  return true;
}

/// x ← m⁻¹ x for a symmetric positive-definite m by m = L D Lᵀ (L unit lower
/// triangular, written over m's strict lower triangle; m's upper triangle is
/// not read): N³/6 multiply-adds for the factor, N² for the solve, so cheaper
/// than the inverse for one right-hand side. `pivots` receives D (the squares
/// of the Cholesky factor's diagonal). False when a pivot is not positive;
/// x is then unspecified.
template <class S, int N>
bool symmetric_positive_solve(Eigen::Matrix<S, N, N>& m, Eigen::Matrix<S, N, 1>& x,
                              Eigen::Matrix<S, N, 1>& pivots) {
  for (int j = 0; j < N; ++j) {
    S d = m(j, j);
    for (int k = 0; k < j; ++k) d -= m(j, k) * m(j, k) * pivots(k);
    pivots(j) = d;
    if (!(ScalarTraits<S>::primal(d) > 0)) return false;
    const S inverse_d = S(1) / d;
    for (int i = j + 1; i < N; ++i) {
      S l = m(i, j);
      for (int k = 0; k < j; ++k) l -= m(i, k) * m(j, k) * pivots(k);
      m(i, j) = l * inverse_d;
    }
  }
  for (int i = 0; i < N; ++i)  // L y = x
    for (int k = 0; k < i; ++k) x(i) -= m(i, k) * x(k);
  for (int i = 0; i < N; ++i) x(i) /= pivots(i);  // D z = y
  for (int i = N - 1; i >= 0; --i)                // Lᵀ x = z
    for (int k = i + 1; k < N; ++k) x(i) -= m(k, i) * x(k);
  return true;
}

}  // namespace hodyn::detail
