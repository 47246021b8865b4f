// mass_matrix writes every entry of M̄ itself (issue 22: it no longer clears
// M̄ first; the entries of two joints on different branches are written as
// zeros, the rest as computed) and reports bad input or an overflow with a
// zero M̄.
//
// Oracle, not the code under test: inverse dynamics is affine in ν̇ with
// slope M̄, so column l of M̄ is τ̄(ν̇ = e_l) − τ̄(ν̇ = 0) at the same state
// (inverse dynamics is checked against the Taylor-series oracle elsewhere).
// M̄ is filled with NaN before each call: an entry left unwritten fails the
// status (NaN) or the comparison. M̄ = M̄ᵀ is checked bit for bit: mass_matrix
// computes each entry once and mirrors it, in every build type (with FMA
// contraction too, -march=native: docs/sanitizers.md "Build types").
#include <hodyn/hodyn.hpp>

#include "support/error_metrics.hpp"
#include "support/oracle_models.hpp"
#include "support/random.hpp"
#include "support/universal_trees.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <limits>
#include <memory>

namespace {

using hodyn::Status;
using hodyn::test::rel_err;
using hodyn::test::Rng;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <class Tree>
constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
template <class Tree>
using MatN = Eigen::Matrix<double, kDofs<Tree>, kDofs<Tree>>;
template <class Tree>
using VecN = Eigen::Matrix<double, kDofs<Tree>, 1>;
template <class Tree>
using Motion = hodyn::MotionDerivatives<Tree, 0, double>;

template <class Tree>
std::unique_ptr<Motion<Tree>> random_motion(unsigned seed) {
  Rng rng(seed);
  auto m = std::make_unique<Motion<Tree>>();
  m->base_pose = rng.pose();
  for (auto& v : m->base_twist) v = rng.vec6();
  for (auto& q : m->q)
    for (int i = 0; i < q.size(); ++i) q(i) = 2.0 * rng.normal();
  return m;
}

/// τ̄ = (Q₁; τ) of order-0 inverse dynamics with ν̇ = (V̇₁; q̈) set to `nu_dot`.
template <class Tree>
VecN<Tree> generalized_force(const hodyn::Model<Tree, double>& model, Motion<Tree> m,
                             const VecN<Tree>& nu_dot) {
  constexpr int n = kDofs<Tree>;
  m.base_twist[1] = nu_dot.template head<6>();
  m.q[2] = nu_dot.template tail<n - 6>();
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, 0, double>>();
  EXPECT_EQ(hodyn::inverse_dynamics(model, *id, m, 0), Status::kOk);
  VecN<Tree> f;
  f << id->base_wrench[0], id->joint_torque[0];
  return f;
}

/// Worst relative error of M̄ (filled with NaN before the call) against the
/// inverse-dynamics columns over a few random states.
template <class Tree>
double worst_against_columns(const hodyn::Model<Tree, double>& model) {
  constexpr int n = kDofs<Tree>;
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  double worst = 0;
  for (unsigned seed : {11u, 12u, 13u}) {
    const auto m = random_motion<Tree>(seed);
    eom->result.mass_matrix.setConstant(kNaN);
    EXPECT_EQ(hodyn::mass_matrix(model, *eom, m->base_pose, m->q[0]), Status::kOk) << seed;
    const MatN<Tree> mm = eom->result.mass_matrix;
    int asymmetric = 0, first_r = -1, first_c = -1;
    for (int r = 0; r < n; ++r)
      for (int c = r + 1; c < n; ++c)
        if (!(mm(r, c) == mm(c, r)) && asymmetric++ == 0) {
          first_r = r;
          first_c = c;
        }
    EXPECT_EQ(asymmetric, 0) << "M̄ is not filled symmetrically, seed " << seed << "; the first: ("
                             << first_r << ", " << first_c << ") "
                             << (first_r < 0 ? 0.0 : mm(first_r, first_c) - mm(first_c, first_r));
    const VecN<Tree> bias = generalized_force(model, *m, VecN<Tree>::Zero());
    MatN<Tree> columns;
    for (int l = 0; l < n; ++l)
      columns.col(l) = generalized_force(model, *m, VecN<Tree>::Unit(l)) - bias;
    worst = std::max(worst, rel_err(mm, columns));
  }
  return worst;
}

TEST(MassMatrixStatus, EveryEntryIsWrittenOnTwoArmsAndOnFiveChains) {
  auto am = std::make_unique<hodyn::AerialManipulatorModel<double>>();
  ASSERT_EQ(hodyn::make_aerial_manipulator(*am), Status::kOk);
  EXPECT_LE(worst_against_columns(*am), 1e-12);
  // Five chains of two links: most joint pairs lie on different branches.
  using Chains = hodyn::BranchedChainsTree<5, 2>;
  auto chains = std::make_unique<hodyn::Model<Chains, double>>();
  ASSERT_EQ(hodyn::make_branched_chains(*chains), Status::kOk);
  EXPECT_LE(worst_against_columns(*chains), 1e-12);
}

TEST(MassMatrixStatus, EveryEntryIsWrittenWithGeneralHelicalAndPrismaticJoints) {
  using namespace hodyn::test::oracle;
  const auto tree = random_reference_tree<OracleTree, double>(4321u);
  EXPECT_LE(worst_against_columns(core_model<OracleTree, double>(tree)), 1e-12);
  const auto helical = random_reference_tree<HelicalTree, double>(4322u);
  EXPECT_LE(worst_against_columns(core_model<HelicalTree, double>(helical)), 1e-12);
  // The same tree with its root welded: M̄ is the joint block of the floating one.
  const auto fixed = core_model<OracleFixedTree, double>(tree);
  const auto floating = core_model<OracleTree, double>(tree);
  const auto m = random_motion<OracleTree>(31u);
  auto ef = std::make_unique<hodyn::EquationsOfMotionData<OracleFixedTree, double>>();
  auto eg = std::make_unique<hodyn::EquationsOfMotionData<OracleTree, double>>();
  ef->result.mass_matrix.setConstant(kNaN);
  ASSERT_EQ(hodyn::mass_matrix(fixed, *ef, m->base_pose, m->q[0]), Status::kOk);
  ASSERT_EQ(hodyn::mass_matrix(floating, *eg, m->base_pose, m->q[0]), Status::kOk);
  constexpr int joints = kDofs<OracleFixedTree>;
  EXPECT_LE(
      rel_err(ef->result.mass_matrix, eg->result.mass_matrix.bottomRightCorner<joints, joints>()),
      1e-13);
}

// A universal joint's 2 × 2 diagonal block: s₀ · I s₁ and s₁ · I s₀ are equal
// only in exact arithmetic, so M̄ = M̄ᵀ bit for bit holds only if one of them is
// computed (issue 21 item 5).
TEST(MassMatrixStatus, EveryEntryIsWrittenWithUniversalJoints) {
  namespace ut = hodyn::test::universal_trees;
  EXPECT_LE(worst_against_columns(ut::floating_pair(61u).uni), 1e-12);
  EXPECT_LE(worst_against_columns(ut::floating_pair(62u).uni), 1e-12);
}

TEST(MassMatrixStatus, BadInputAndOverflowGiveAStatusAndAZeroMatrix) {
  using Tree = hodyn::AerialManipulatorTree;
  auto am = std::make_unique<hodyn::AerialManipulatorModel<double>>();
  ASSERT_EQ(hodyn::make_aerial_manipulator(*am), Status::kOk);
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  const auto m = random_motion<Tree>(21u);
  const auto expect_cleared = [&](Status expected, const hodyn::Pose<double>& pose,
                                  const hodyn::AerialManipulatorModel<double>::JointVector& q,
                                  const char* what) {
    eom->result.mass_matrix.setConstant(7.0);  // what a previous call left
    EXPECT_EQ(hodyn::mass_matrix(*am, *eom, pose, q), expected) << what;
    EXPECT_TRUE(eom->result.mass_matrix.isZero(0.0)) << what;
  };
  auto q_nan = m->q[0];
  q_nan(4) = kNaN;
  expect_cleared(Status::kNonFiniteInput, m->base_pose, q_nan, "NaN joint angle");
  auto scaled = m->base_pose;
  scaled.rotation *= 1.1;
  expect_cleared(Status::kNonOrthonormalRotation, scaled, m->q[0], "scaled rotation");
  // Far enough from the origin that m |x|² of the base block overflows.
  auto far = m->base_pose;
  far.translation = Eigen::Vector3d(1e200, -1e200, 1e200);
  expect_cleared(Status::kNonFiniteResult, far, m->q[0], "overflow");
  // And a good call after them succeeds.
  EXPECT_EQ(hodyn::mass_matrix(*am, *eom, m->base_pose, m->q[0]), Status::kOk);
  EXPECT_FALSE(eom->result.mass_matrix.isZero(0.0));
}

}  // namespace
