// hodyn/matrix_exponential.hpp — exp(M) of a fixed-size square matrix, for
// the zero-order-hold discretization of linearizations (linearization.hpp).
//
// Scaling and squaring: M is scaled by 2⁻ˢ until its 1-norm is at most 1/2,
// the exponential of the scaled matrix is summed as a Taylor series to degree
// 18 (truncation below 0.5¹⁹/19! ≈ 1.6e-23 relative), and the result is
// squared s times. Fixed size, no heap, no exceptions; a non-finite input or
// result gives kNonFiniteInput / kNonFiniteResult and a zero output. It is a
// configure-time tool (gain design), not a real-time kernel: O(n³ (19 + s)).
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "hodyn/detail/validation.hpp"
#include "hodyn/scalar_traits.hpp"
#include "hodyn/status.hpp"

namespace hodyn {

/// out = exp(m). `term` is a caller-provided workspace of the same size (so
/// that large matrices need not live on the stack).
template <class Scalar, int N>
Status matrix_exponential(const Eigen::Matrix<Scalar, N, N>& m, Eigen::Matrix<Scalar, N, N>& out,
                          Eigen::Matrix<Scalar, N, N>& term) noexcept {
  using std::abs;
  out.setZero();
  if (!detail::all_finite(m)) return Status::kNonFiniteInput;
  Scalar norm(0);  // 1-norm: the largest column sum
  for (int c = 0; c < N; ++c) {
    Scalar s(0);
    for (int r = 0; r < N; ++r) s += abs(ScalarTraits<Scalar>::primal(m(r, c)));
    if (s > norm) norm = s;
  }
  int squarings = 0;
  Scalar scale(1);
  while (norm * scale > Scalar(0.5) && squarings < 1100) {
    scale *= Scalar(0.5);
    ++squarings;
  }
  out.setIdentity();
  term.setIdentity();
  for (int k = 1; k <= 18; ++k) {
    term = (term * m) * (scale / Scalar(k));
    out += term;
  }
  for (int i = 0; i < squarings; ++i) {
    term.noalias() = out * out;
    out = term;
  }
  if (!detail::all_finite(out)) {
    out.setZero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

}  // namespace hodyn
