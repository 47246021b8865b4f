// hodyn/detail/symmetric_inverse.hpp — the inverse of a small fixed-size
// symmetric positive-definite matrix, in place by Gauss-Jordan elimination.
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

}  // namespace hodyn::detail
