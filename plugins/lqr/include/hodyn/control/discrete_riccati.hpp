// hodyn/control/discrete_riccati.hpp — the discrete algebraic Riccati equation
//   P = Q + Aᵀ P A − Aᵀ P B (R + Bᵀ P B)⁻¹ Bᵀ P A
// and the LQR gain K = (R + Bᵀ P B)⁻¹ Bᵀ P A (u = −K x minimises
// Σ xᵀ Q x + uᵀ R u subject to x⁺ = A x + B u), fixed size, no heap.
//
// Solved by the structured doubling algorithm (SDA; Chu, Fan, Lin & Wang,
// "Structure-preserving algorithms for periodic discrete-time algebraic
// Riccati equations", Int. J. Control 77 (2004)): with G = B R⁻¹ Bᵀ,
//   A₀ = A, G₀ = G, H₀ = Q,   W_k = I + G_k H_k,
//   A_{k+1} = A_k W_k⁻¹ A_k,
//   G_{k+1} = G_k + A_k W_k⁻¹ G_k A_kᵀ,
//   H_{k+1} = H_k + A_kᵀ H_k W_k⁻¹ A_k,
// H_k → P quadratically (the error falls like ρ(A − BK)^(2^k)), so a 1 kHz
// model whose slowest closed-loop pole is 0.997 needs ~15 doublings where the
// plain fixed-point iteration needs thousands. Needs (A, B) stabilizable and
// (A, Q^½) detectable; A need not be invertible. Stops when
// ‖H_{k+1} − H_k‖_F ≤ tolerance · ‖H_{k+1}‖_F or after max_iterations.
#pragma once

#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>

#include "hodyn/detail/validation.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace control {

/// Workspace and result of solve_discrete_riccati for NX states and NU inputs.
template <int NX, int NU>
struct DiscreteRiccati {
  using StateMatrix = Eigen::Matrix<double, NX, NX>;
  using Gain = Eigen::Matrix<double, NU, NX>;
  StateMatrix p = StateMatrix::Zero();  ///< the stabilizing solution P
  Gain k = Gain::Zero();                ///< K = (R + Bᵀ P B)⁻¹ Bᵀ P A
  int iterations = 0;                   ///< doublings used
  double step = 0.0;                    ///< last ‖H_{k+1} − H_k‖_F / ‖H_{k+1}‖_F
  // workspace
  StateMatrix a_k{}, g_k{}, h_k{}, w{}, w_inv_a{}, w_inv_g{}, next{};
};

/// Solves the DARE for (a, b, q, r): q symmetric positive semidefinite, r
/// symmetric positive definite. kInvalidArgument for a non-finite input, a
/// non-positive-definite r or bad iteration settings; kNonFiniteResult when
/// the doubling diverges or does not converge within max_iterations (the
/// pair is then not stabilizable/detectable enough); out.p, out.k are zero on
/// any error.
template <int NX, int NU>
Status solve_discrete_riccati(const Eigen::Matrix<double, NX, NX>& a,
                              const Eigen::Matrix<double, NX, NU>& b,
                              const Eigen::Matrix<double, NX, NX>& q,
                              const Eigen::Matrix<double, NU, NU>& r, DiscreteRiccati<NX, NU>& out,
                              int max_iterations = 60, double tolerance = 1e-14) noexcept {
  using StateMatrix = Eigen::Matrix<double, NX, NX>;
  out.p.setZero();
  out.k.setZero();
  out.iterations = 0;
  out.step = 0.0;
  if (!detail::all_finite(a) || !detail::all_finite(b) || !detail::all_finite(q) ||
      !detail::all_finite(r) || max_iterations < 1 || !(tolerance > 0.0))
    return Status::kInvalidArgument;
  const Eigen::LLT<Eigen::Matrix<double, NU, NU>> r_llt(r);
  if (r_llt.info() != Eigen::Success) return Status::kInvalidArgument;
  // G₀ = B R⁻¹ Bᵀ, H₀ = Q, A₀ = A.
  const Eigen::Matrix<double, NU, NX> r_inv_bt = r_llt.solve(b.transpose());
  out.g_k.noalias() = b * r_inv_bt;
  out.g_k = 0.5 * (out.g_k + out.g_k.transpose()).eval();
  out.h_k = 0.5 * (q + q.transpose());
  out.a_k = a;
  bool converged = false;
  for (int it = 1; it <= max_iterations && !converged; ++it) {
    out.w.noalias() = out.g_k * out.h_k;
    out.w += StateMatrix::Identity();
    const Eigen::PartialPivLU<StateMatrix> lu(out.w);
    out.w_inv_a = lu.solve(out.a_k);
    out.w_inv_g = lu.solve(out.g_k);
    // H_{k+1} = H_k + A_kᵀ H_k W⁻¹ A_k
    out.w.noalias() = out.h_k * out.w_inv_a;
    out.next.noalias() = out.a_k.transpose() * out.w;
    out.next += out.h_k;
    out.next = 0.5 * (out.next + out.next.transpose()).eval();
    const double norm = out.next.norm();
    out.step = (out.next - out.h_k).norm() / (norm > 0.0 ? norm : 1.0);
    out.h_k = out.next;
    // G_{k+1} = G_k + A_k W⁻¹ G_k A_kᵀ
    out.w.noalias() = out.w_inv_g * out.a_k.transpose();
    out.next.noalias() = out.a_k * out.w;
    out.g_k += out.next;
    out.g_k = 0.5 * (out.g_k + out.g_k.transpose()).eval();
    // A_{k+1} = A_k W⁻¹ A_k
    out.next.noalias() = out.a_k * out.w_inv_a;
    out.a_k = out.next;
    out.iterations = it;
    if (!detail::all_finite(out.h_k) || !detail::all_finite(out.g_k) ||
        !detail::all_finite(out.a_k))
      break;
    converged = out.step <= tolerance;
  }
  if (!converged || !detail::all_finite(out.h_k)) {
    out.p.setZero();
    return Status::kNonFiniteResult;
  }
  out.p = out.h_k;
  // K = (R + Bᵀ P B)⁻¹ Bᵀ P A.
  const Eigen::Matrix<double, NU, NX> bt_p = b.transpose() * out.p;
  const Eigen::Matrix<double, NU, NU> s = r + bt_p * b;
  const Eigen::LLT<Eigen::Matrix<double, NU, NU>> s_llt(s);
  if (s_llt.info() != Eigen::Success) {
    out.p.setZero();
    return Status::kNonFiniteResult;
  }
  out.k = s_llt.solve(Eigen::Matrix<double, NU, NX>(bt_p * a));
  if (!detail::all_finite(out.k)) {
    out.p.setZero();
    out.k.setZero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

}  // namespace control
}  // namespace hodyn
