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

struct FixedTree {  // OracleTree with its root welded to the world
  static constexpr int kNumBodies = 9;
  static constexpr std::array<int, kNumBodies> kParent{-1, 0, 1, 1, 0, 4, 5, 2, 7};
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFixedBase, JointKind::kRevolute,   JointKind::kPrismatic,
      JointKind::kRevolute,  JointKind::kRevoluteZ,  JointKind::kPrismatic,
      JointKind::kRevolute,  JointKind::kPrismaticY, JointKind::kRevolute};
};

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

TEST(InverseDynamicsDerivatives, FixedBaseTreeAgainstDualsAndCentralDifferences) {
  const auto tree = random_reference_tree<FixedTree, double>(4242);
  const auto model = core_model<FixedTree, double>(tree);
  expect_errors(check_random_states(model, 20, 300));
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
