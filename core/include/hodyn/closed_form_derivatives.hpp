// hodyn/closed_form_derivatives.hpp — the closed-form equations of motion and
// their time derivatives of every order n ≤ MaxOrder (seed 001 §III-B,
// eqs. 45–58, in hodyn's world-frame Jacobians; seed 000 Prop. 1, Lemma 1).
//
//   τ̄ = M̄ ν̇ + C ν + g,   τ̄ = (Q₁; τ),  ν = (V₁; q̇)
// with the body Jacobians J_j (jacobians.hpp: V_j = J_j ν) and the bodies'
// world inertias M_j = Ad_{C_j}⁻ᵀ M_j^b Ad_{C_j}⁻¹:
//   M̄ = Σ_j J_jᵀ M_j J_j
//   C = Σ_j J_jᵀ (M_j J̇_j − ad_{V_j}ᵀ M_j J_j)     (seed 000 Lemma 1: ½ Ṁ̄ − C skew)
//   g = −Σ_j J_jᵀ M_j G,  G = (0, gravity)
// Every factor's derivatives are known: J_j^(k) from the kinematics (its
// columns are the screw derivatives S_i^(k)), V_j^(k) likewise, and
//   M_j^(k+1) = −Σ_{i=0..k} C(k,i) (ad_{V_j^(i)}ᵀ M_j^(k−i) + M_j^(k−i) ad_{V_j^(i)})
// from Ṁ = −ad_Vᵀ M − M ad_V. With the momentum Jacobian K_j = M_j J_j,
//   K^(m)   = Σ C(m,b) M^(b) J^(m−b),   L^(m) = (M J̇)^(m) = Σ C(m,b) M^(b) J^(m−b+1),
//   P^(m)   = (ad_Vᵀ K)^(m) = Σ C(m,b) ad_{V^(b)}ᵀ K^(m−b),
//   M̄^(n)  = Σ_j Σ_a C(n,a) J^(a)ᵀ K^(n−a),
//   C^(n)   = Σ_j Σ_a C(n,a) J^(a)ᵀ (L^(n−a) − P^(n−a)),
//   g^(n)   = −Σ_j Σ_a C(n,a) J^(a)ᵀ M^(n−a) G,
//   h^(n)   = (C ν)^(n) = Σ_i C(n,i) C^(n−i) ν^(i),
// so that τ̄^(n) = Σ_i C(n,i) M̄^(i) ν^(n−i+1) + h^(n) + g^(n) (seed 001 eq. 49),
// what inverse dynamics of order n returns: the test checks exactly that.
//
// Ball joints: their three columns of J_j are their three screws S_x, S_y, S_z
// and the screws' derivatives (Ṡ_i = ad_{V_j} S_i, kinematics.hpp), their
// rotations R_j exp([δ]) are read from the motion as the kinematics read them,
// so nothing here depends on the kind of joint; a bad R_j gives the
// kinematics' status and zero outputs.
//
// Dense and O(N n² D²) (D = 6 + joints; joints alone for a fixed base): for analysis, controller
// design and tests, not for the innermost loop (the recursions are). Reads the motion as inverse
// dynamics does (order n: V₁^(0..n+1), q^(0..n+2)); no heap; a Status and zero outputs on bad
// input.
#pragma once

#include <array>

#include <Eigen/Core>

#include "hodyn/binomial.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/jacobians.hpp"
#include "hodyn/kinematics.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

template <class Tree, int MaxOrder, class Scalar = double>
struct ClosedFormDerivativesData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  using Matrix = Eigen::Matrix<Scalar, kDofs, kDofs>;
  using Vector = Eigen::Matrix<Scalar, kDofs, 1>;
  using BodyMatrix = Eigen::Matrix<Scalar, 6, kDofs>;

  // ---- results, entries 0..order ----
  std::array<Matrix, MaxOrder + 1> mass_matrix{};      ///< M̄^(n)
  std::array<Matrix, MaxOrder + 1> coriolis_matrix{};  ///< C^(n)
  std::array<Vector, MaxOrder + 1> coriolis{};         ///< h^(n) = (C ν)^(n)
  std::array<Vector, MaxOrder + 1> gravity{};          ///< g^(n)
  int order = -1;

  // ---- workspace (one body at a time) ----
  KinematicsData<Tree, MaxOrder, Scalar> kinematics{};
  std::array<JacobianMatrix<Tree, Scalar>, MaxOrder + 2> jacobian{};  ///< J_j^(k)
  std::array<Matrix6<Scalar>, MaxOrder + 1> inertia{};                ///< M_j^(k)
  std::array<BodyMatrix, MaxOrder + 1> momentum{};                    ///< K_j^(k)
  std::array<BodyMatrix, MaxOrder + 1> coriolis_term{};               ///< L^(k) − P^(k)
  std::array<Vector, MaxOrder + 2> velocity{};                        ///< ν^(k)

  ClosedFormDerivativesData() { clear_results(); }
  void clear_results() {
    for (auto& m : mass_matrix) m.setZero();
    for (auto& m : coriolis_matrix) m.setZero();
    for (auto& v : coriolis) v.setZero();
    for (auto& v : gravity) v.setZero();
    order = -1;
  }
};

/// M̄^(n), C^(n), h^(n), g^(n) for n = 0..order (see the file comment).
template <class Tree, int MaxOrder, class Scalar>
Status closed_form_derivatives(const Model<Tree, Scalar>& model,
                               ClosedFormDerivativesData<Tree, MaxOrder, Scalar>& data,
                               const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                               int order) noexcept {
  using S = Scalar;
  data.clear_results();
  const Status kin = forward_kinematics(model, data.kinematics, motion, order);
  if (kin != Status::kOk) return kin;
  const int r = order;
  for (int k = 0; k <= r + 1; ++k) {
    if constexpr (!TreeTraits<Tree>::kFixedBase)
      data.velocity[k].template head<6>() = motion.base_twist[k];
    data.velocity[k].template tail<TreeTraits<Tree>::kNumJointDofs>() = motion.q[k + 1];
  }
  Twist<S> gravity_twist = Twist<S>::Zero();
  linear(gravity_twist) = model.gravity();
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    for (int k = 0; k <= r + 1; ++k)
      (void)spatial_jacobian(data.kinematics, j, data.jacobian[k], k);
    const auto& v = data.kinematics.body_twist[j];
    // M_j^(k): the world inertia and its derivatives.
    data.inertia[0] = model.body_inertia(j).transformed(data.kinematics.body_pose[j]).matrix();
    for (int k = 0; k < r; ++k) {
      Matrix6<S> sum = Matrix6<S>::Zero();
      for (int i = 0; i <= k; ++i) {
        const Matrix6<S> ad_v = ad_matrix<S>(v[i]);
        sum -= binomial<S>(k, i) *
               (ad_v.transpose() * data.inertia[k - i] + data.inertia[k - i] * ad_v);
      }
      data.inertia[k + 1] = sum;
    }
    // K^(m) = (M J)^(m), L^(m) − P^(m) = (M J̇ − ad_Vᵀ M J)^(m).
    for (int m = 0; m <= r; ++m) {
      typename ClosedFormDerivativesData<Tree, MaxOrder, S>::BodyMatrix k_m, l_m;
      k_m.setZero();
      l_m.setZero();
      for (int b = 0; b <= m; ++b) {
        k_m += binomial<S>(m, b) * (data.inertia[b] * data.jacobian[m - b]);
        l_m += binomial<S>(m, b) * (data.inertia[b] * data.jacobian[m - b + 1]);
      }
      data.momentum[m] = k_m;
      for (int b = 0; b <= m; ++b)
        l_m -= binomial<S>(m, b) * (ad_matrix<S>(v[b]).transpose() * data.momentum[m - b]);
      data.coriolis_term[m] = l_m;
    }
    for (int n = 0; n <= r; ++n) {
      for (int a = 0; a <= n; ++a) {
        const S c = binomial<S>(n, a);
        const auto jt = data.jacobian[a].transpose();
        data.mass_matrix[n].noalias() += c * (jt * data.momentum[n - a]);
        data.coriolis_matrix[n].noalias() += c * (jt * data.coriolis_term[n - a]);
        data.gravity[n].noalias() -= c * (jt * (data.inertia[n - a] * gravity_twist));
      }
    }
  }
  for (int n = 0; n <= r; ++n)
    for (int i = 0; i <= n; ++i)
      data.coriolis[n].noalias() +=
          binomial<S>(n, i) * (data.coriolis_matrix[n - i] * data.velocity[i]);
  for (int n = 0; n <= r; ++n) {
    if (!detail::all_finite(data.mass_matrix[n]) || !detail::all_finite(data.coriolis_matrix[n]) ||
        !detail::all_finite(data.coriolis[n]) || !detail::all_finite(data.gravity[n])) {
      data.clear_results();
      return Status::kNonFiniteResult;
    }
  }
  data.order = r;
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
