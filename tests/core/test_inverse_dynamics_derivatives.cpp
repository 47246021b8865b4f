// The analytic state partials of inverse dynamics (inverse_dynamics_derivatives)
// against two oracles nobody here wrote for them:
//   - forward-mode dual numbers (TaylorSeries<double, 1>: value + ε·derivative,
//     ε² = 0) through the core's ORDER-0 inverse dynamics, one direction per
//     column: the base pose perturbed as C₁ (1 + ε[e_k]) (exact to first order
//     in ε, the series truncates the rest), q, V₁, q̇, V̇₁, q̈ by ε e_k;
//   - central differences on SE(3) of the double inverse dynamics, the base
//     pose moved as C₁ exp(±δ[e_k]) with the exponential written here.
// On the 12-DoF aerial manipulator, the random 9-body tree of the oracle suites
// (general axes, prismatic joints, branches at the base), and the same tree
// welded at its root; states with every derivative ~ N(0, 1).
#include <hodyn/hodyn.hpp>
#include <hodyn/inverse_dynamics_derivatives.hpp>
#include <hodyn/jacobians.hpp>
#include <hodyn/kinematics.hpp>
#include <hodyn/taylor_series.hpp>

#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"
#include "support/se3_exponential.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace {

using namespace hodyn::test::oracle;
using hodyn::JointKind;
using Dual = hodyn::TaylorSeries<double, 1>;

using FixedTree = OracleFixedTree;  // OracleTree with its root welded

using hodyn::test::se3_exp;

/// τ̄ = (Q₁; τ) of the order-0 inverse dynamics (joints only for a fixed base).
template <class Tree, class S>
Eigen::Matrix<S, hodyn::TreeTraits<Tree>::kNumDofs, 1> generalized_force(
    const hodyn::Model<Tree, S>& model, const hodyn::MotionDerivatives<Tree, 0, S>& motion) {
  constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
  constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
  auto data = std::make_unique<hodyn::InverseDynamicsData<Tree, 0, S>>();
  EXPECT_EQ(hodyn::inverse_dynamics(model, *data, motion, 0), Status::kOk);
  Eigen::Matrix<S, kDofs, 1> f = Eigen::Matrix<S, kDofs, 1>::Zero();
  if constexpr (kBase > 0) f.template head<6>() = data->base_wrench[0];
  f.template tail<kDofs - kBase>() = data->joint_torque[0];
  return f;
}

template <class Tree>
using Matrix = typename hodyn::InverseDynamicsDerivatives<Tree>::Matrix;

/// The three blocks by duals: column by column, one ε each.
template <class Tree>
void dual_partials(const hodyn::Model<Tree, double>& model,
                   const hodyn::MotionDerivatives<Tree, 0>& motion, Matrix<Tree>& dq,
                   Matrix<Tree>& dv, Matrix<Tree>& mm) {
  constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
  constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
  const hodyn::Model<Tree, Dual> model_d = model.template cast<Dual>();
  hodyn::MotionDerivatives<Tree, 0, Dual> base;
  base.base_pose = motion.base_pose.template cast<Dual>();
  for (int k = 0; k < 2; ++k) base.base_twist[k] = motion.base_twist[k].template cast<Dual>();
  for (int k = 0; k < 3; ++k) base.q[k] = motion.q[k].template cast<Dual>();
  const auto eps = Dual::variable(0.0, 1.0);
  for (int block = 0; block < 3; ++block) {
    for (int col = 0; col < kDofs; ++col) {
      auto m = base;
      if (col < kBase) {
        if (block == 0) {  // C₁ (1 + ε[e_k]): R (1 + ε[ω]), p + ε R v
          hodyn::Twist<Dual> e = hodyn::Twist<Dual>::Zero();
          e(col) = eps;
          const Eigen::Matrix<Dual, 3, 3> wx = hodyn::skew<Dual>(e.template head<3>());
          m.base_pose.translation =
              base.base_pose.translation + base.base_pose.rotation * e.template tail<3>();
          m.base_pose.rotation =
              base.base_pose.rotation + Eigen::Matrix<Dual, 3, 3>(base.base_pose.rotation * wx);
        } else {
          m.base_twist[block - 1](col) += eps;
        }
      } else {
        m.q[block](col - kBase) += eps;
      }
      const auto f = generalized_force(model_d, m);
      Matrix<Tree>& out = block == 0 ? dq : block == 1 ? dv : mm;
      for (int r = 0; r < kDofs; ++r) out(r, col) = f(r).coeff(1);
    }
  }
}

/// The three blocks by central differences (pose on SE(3)).
template <class Tree>
void central_difference_partials(const hodyn::Model<Tree, double>& model,
                                 const hodyn::MotionDerivatives<Tree, 0>& motion, double step,
                                 Matrix<Tree>& dq, Matrix<Tree>& dv, Matrix<Tree>& mm) {
  constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
  constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
  for (int block = 0; block < 3; ++block) {
    for (int col = 0; col < kDofs; ++col) {
      auto plus = motion, minus = motion;
      if (col < kBase && block == 0) {
        hodyn::Twist<double> xi = hodyn::Twist<double>::Zero();
        xi(col) = step;
        plus.base_pose = motion.base_pose * se3_exp(xi);
        minus.base_pose = motion.base_pose * se3_exp(-xi);
      } else if (col < kBase) {
        plus.base_twist[block - 1](col) += step;
        minus.base_twist[block - 1](col) -= step;
      } else {
        plus.q[block](col - kBase) += step;
        minus.q[block](col - kBase) -= step;
      }
      const auto f_plus = generalized_force(model, plus);
      const auto f_minus = generalized_force(model, minus);
      Matrix<Tree>& out = block == 0 ? dq : block == 1 ? dv : mm;
      for (int r = 0; r < kDofs; ++r) out(r, col) = (f_plus(r) - f_minus(r)) / (2 * step);
    }
  }
}

template <class Tree>
double relative(const Matrix<Tree>& a, const Matrix<Tree>& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

struct Errors {
  double dual[3] = {0, 0, 0};
  double central[3] = {0, 0, 0};
  double force = 0;
};

template <class Tree>
void check_state(const hodyn::Model<Tree, double>& model,
                 const hodyn::MotionDerivatives<Tree, 0>& motion, Errors& worst) {
  auto data = std::make_unique<hodyn::InverseDynamicsDerivativesData<Tree, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics_derivatives(model, *data, motion), Status::kOk);
  const auto& r = data->result;
  Matrix<Tree> dq, dv, mm;
  dual_partials(model, motion, dq, dv, mm);
  const Matrix<Tree>* analytic[3] = {&r.d_configuration, &r.d_velocity, &r.mass_matrix};
  const Matrix<Tree>* dual[3] = {&dq, &dv, &mm};
  for (int b = 0; b < 3; ++b)
    worst.dual[b] = std::max(worst.dual[b], relative<Tree>(*analytic[b], *dual[b]));
  central_difference_partials(model, motion, 1e-6, dq, dv, mm);
  for (int b = 0; b < 3; ++b)
    worst.central[b] = std::max(worst.central[b], relative<Tree>(*analytic[b], *dual[b]));
  const auto f = generalized_force(model, motion);
  worst.force = std::max(worst.force, (r.generalized_force - f).cwiseAbs().maxCoeff() /
                                          std::max(1.0, f.cwiseAbs().maxCoeff()));
}

template <class Tree>
Errors check_random_states(const hodyn::Model<Tree, double>& model, int count, unsigned seed) {
  Errors worst;
  for (int i = 0; i < count; ++i) {
    const auto s = random_state<double>(seed + static_cast<unsigned>(i), Tree::kNumBodies - 1);
    hodyn::MotionDerivatives<Tree, 0> motion;
    fill_motion<Tree, 0, double>(s, motion);
    check_state(model, motion, worst);
  }
  std::printf("  dual: pose/q %.2e  V/qdot %.2e  M %.2e | central: %.2e %.2e %.2e | tau %.2e\n",
              worst.dual[0], worst.dual[1], worst.dual[2], worst.central[0], worst.central[1],
              worst.central[2], worst.force);
  return worst;
}

void expect_errors(const Errors& e) {
  for (int b = 0; b < 3; ++b) {
    EXPECT_LT(e.dual[b], 1e-12) << "block " << b;
    EXPECT_LT(e.central[b], 1e-7) << "block " << b;
  }
  EXPECT_LT(e.force, 1e-13);
}

TEST(InverseDynamicsDerivatives, AerialManipulatorAgainstDualsAndCentralDifferences) {
  const auto model = core_aerial_manipulator();
  expect_errors(check_random_states(model, 20, 100));
}

TEST(InverseDynamicsDerivatives, BranchedTreeAgainstDualsAndCentralDifferences) {
  const auto tree = random_reference_tree<OracleTree, double>(4242);
  const auto model = core_model<OracleTree, double>(tree);
  expect_errors(check_random_states(model, 20, 200));
}

TEST(InverseDynamicsDerivatives, HelicalTreesAgainstDualsAndCentralDifferences) {  // issue 19
  const auto tree = random_reference_tree<HelicalTree, double>(4242);
  expect_errors(check_random_states(core_model<HelicalTree, double>(tree), 20, 250));
  const auto fixed = random_reference_tree<HelicalFixedTree, double>(4242);
  expect_errors(check_random_states(core_model<HelicalFixedTree, double>(fixed), 20, 350));
}

TEST(InverseDynamicsDerivatives, FixedBaseTreeAgainstDualsAndCentralDifferences) {
  const auto tree = random_reference_tree<FixedTree, double>(4242);
  const auto model = core_model<FixedTree, double>(tree);
  expect_errors(check_random_states(model, 20, 300));
}

// Seed 004 Props. 3-5 as a closed-form cross-check on the fixed-base tree, from
// body Jacobians J_k = Ad_{C_k}⁻¹ J^s_k and the constant body-frame inertias Λ_k:
//   ∂J_k/∂q_h = Ad_{C_k}⁻¹ ∂J^s_k/∂q_h − ad(J_k^h) J_k               (eq. 18)
//   ∂M/∂q_h = Σ_k (∂J_k/∂q_h)ᵀ Λ_k J_k + J_kᵀ Λ_k ∂J_k/∂q_h          (24a)
//   ∂g/∂q_h = Σ_k ((∂J_k/∂q_h)ᵀ Λ_k − J_kᵀ Λ_k ad(J_k^h)) Ad_{C_k}⁻¹ γ₀  (24d)
//   C = Σ_k J_kᵀ (Ψ_k J_k + Λ_k J̇_k),  Ψ_k = Λ_k ad(v_k) − ad(v_k)ᵀ Λ_k   (6b)
//   ∂C/∂q̇_h = Σ_k J_kᵀ [(Λ_k ad(J_k^h) − ad(J_k^h)ᵀ Λ_k) J_k + Λ_k ∂J_k/∂q_h]   (24c)
// so that ∂τ/∂q_h = (∂M/∂q_h) q̈ + ∂g/∂q_h at q̇ = 0 (24b's C term vanishes there)
// and ∂τ/∂q̇_h = (∂C/∂q̇_h) q̇ + C e_h at any q̇.
TEST(InverseDynamicsDerivatives, Seed004ClosedFormsCrossCheck) {
  using Tree = FixedTree;
  constexpr int n = Tree::kNumBodies - 1;
  using Mat = Eigen::Matrix<double, n, n>;
  using Jac = hodyn::JacobianMatrix<Tree>;
  const auto model = core_model<Tree, double>(random_reference_tree<Tree, double>(4242));
  auto data = std::make_unique<hodyn::InverseDynamicsDerivativesData<Tree, double>>();
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, 0>>();
  hodyn::Twist<double> gamma0 = hodyn::Twist<double>::Zero();  // weight = −Λ γ
  gamma0.tail<3>() = -model.gravity();
  double worst_q = 0, worst_qd = 0;
  for (unsigned seed = 0; seed < 10; ++seed) {
    const auto st = random_state<double>(400 + seed, n);
    for (const bool moving : {false, true}) {
      hodyn::MotionDerivatives<Tree, 0> motion;
      fill_motion<Tree, 0, double>(st, motion);
      if (!moving) motion.q[1].setZero();
      ASSERT_EQ(hodyn::forward_kinematics(model, *kin, motion, 0), Status::kOk);
      ASSERT_EQ(hodyn::inverse_dynamics_derivatives(model, *data, motion), Status::kOk);
      std::array<Jac, Tree::kNumBodies> j{}, j_dot{};
      std::array<std::array<Jac, n>, Tree::kNumBodies> dj{};
      for (int k = 1; k < Tree::kNumBodies; ++k) {
        ASSERT_EQ(hodyn::local_jacobian(*kin, k, j[k]), Status::kOk);
        ASSERT_EQ(hodyn::local_jacobian(*kin, k, j_dot[k], 1), Status::kOk);
        const hodyn::Matrix6<double> ad_inv = hodyn::adjoint_matrix(kin->body_pose[k].inverse());
        for (int h = 0; h < n; ++h) {
          Jac ds;
          ASSERT_EQ(hodyn::spatial_jacobian_partial(*kin, k, h + 1, ds), Status::kOk);
          const Jac moves_k = hodyn::joint_moves_body<Tree>(h + 1, k) ? j[k] : Jac(Jac::Zero());
          dj[k][h] = ad_inv * ds - hodyn::ad_matrix<double>(moves_k.col(h)) * j[k];
        }
      }
      Mat c = Mat::Zero();
      std::array<Mat, n> dm{}, dc_dqd{};
      Mat dg = Mat::Zero();
      for (int h = 0; h < n; ++h) {
        dm[h].setZero();
        dc_dqd[h].setZero();
      }
      for (int k = 1; k < Tree::kNumBodies; ++k) {
        const hodyn::Matrix6<double> lambda = model.body_inertia(k).matrix();
        const hodyn::Twist<double> v = j[k] * motion.q[1];
        const hodyn::Matrix6<double> ad_v = hodyn::ad_matrix<double>(v);
        const hodyn::Matrix6<double> psi = lambda * ad_v - ad_v.transpose() * lambda;
        c += j[k].transpose() * (psi * j[k] + lambda * j_dot[k]);
        const hodyn::Twist<double> gamma_k =
            hodyn::adjoint_matrix(kin->body_pose[k].inverse()) * gamma0;
        for (int h = 0; h < n; ++h) {
          const hodyn::Matrix6<double> ad_h = hodyn::ad_matrix<double>(j[k].col(h));
          dm[h] += dj[k][h].transpose() * lambda * j[k] + j[k].transpose() * lambda * dj[k][h];
          dg.col(h) += (dj[k][h].transpose() * lambda - j[k].transpose() * lambda * ad_h) * gamma_k;
          dc_dqd[h] += j[k].transpose() *
                       ((lambda * ad_h - ad_h.transpose() * lambda) * j[k] + lambda * dj[k][h]);
        }
      }
      const auto& r = data->result;
      for (int h = 0; h < n; ++h) {
        const Eigen::Matrix<double, n, 1> dqd = dc_dqd[h] * motion.q[1] + c.col(h);
        worst_qd = std::max(worst_qd, (r.d_velocity.col(h) - dqd).cwiseAbs().maxCoeff() /
                                          std::max(1.0, dqd.cwiseAbs().maxCoeff()));
        if (!moving) {
          const Eigen::Matrix<double, n, 1> dq = dm[h] * motion.q[2] + dg.col(h);
          worst_q = std::max(worst_q, (r.d_configuration.col(h) - dq).cwiseAbs().maxCoeff() /
                                          std::max(1.0, dq.cwiseAbs().maxCoeff()));
        }
      }
    }
  }
  std::printf("  seed 004 closed forms: d/dq (q̇ = 0) %.2e, d/dq̇ %.2e\n", worst_q, worst_qd);
  EXPECT_LT(worst_q, 1e-12);
  EXPECT_LT(worst_qd, 1e-12);
}

TEST(InverseDynamicsDerivatives, BadInputGivesStatusAndZeros) {
  const auto model = core_aerial_manipulator();
  auto data = std::make_unique<hodyn::InverseDynamicsDerivativesData<AMTree, double>>();
  hodyn::MotionDerivatives<AMTree, 0> motion;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  motion.q[2](3) = nan;
  EXPECT_EQ(hodyn::inverse_dynamics_derivatives(model, *data, motion), Status::kNonFiniteInput);
  EXPECT_EQ(data->result.d_velocity.cwiseAbs().maxCoeff(), 0.0);
  motion.q[2](3) = 0;
  motion.base_twist[1](0) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(hodyn::inverse_dynamics_derivatives(model, *data, motion), Status::kNonFiniteInput);
  motion.base_twist[1](0) = 0;
  motion.base_pose.rotation(0, 1) = 0.5;
  EXPECT_EQ(hodyn::inverse_dynamics_derivatives(model, *data, motion),
            Status::kNonOrthonormalRotation);
  EXPECT_EQ(data->result.mass_matrix.cwiseAbs().maxCoeff(), 0.0);
  motion.base_pose.rotation.setIdentity();
  motion.q[1](0) = 1e200;  // finite input, overflowing products
  EXPECT_EQ(hodyn::inverse_dynamics_derivatives(model, *data, motion), Status::kNonFiniteResult);
  EXPECT_EQ(data->result.d_configuration.cwiseAbs().maxCoeff(), 0.0);
}

TEST(InverseDynamicsDerivatives, HeapFree) {
  const auto model = core_aerial_manipulator();
  auto data = std::make_unique<hodyn::InverseDynamicsDerivativesData<AMTree, double>>();
  const auto s = random_state<double>(7, 6);
  hodyn::MotionDerivatives<AMTree, 0> motion;
  fill_motion<AMTree, 0, double>(s, motion);
  hodyn::test::HeapProbe probe;
  const Status s1 = hodyn::inverse_dynamics_derivatives(model, *data, motion);
  EXPECT_EQ(probe.count(), 0);
  EXPECT_EQ(s1, Status::kOk);
}

}  // namespace
