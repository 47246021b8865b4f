// Fixed-base trees (JointKind::kFixedBase: the root welded to the world at its
// home pose) through every algorithm of the core, against what nobody here
// wrote for the fixed-base path:
//   - the dense reference inverse dynamics (support/reference_dynamics.hpp) in
//     Taylor<double, 7> arithmetic with the base held at its mount (C₁ = A⁰₀,
//     V₁ ≡ 0): joint torques and the mount's wrench, orders 0..5;
//   - the core's own order-0 inverse dynamics of the fixed tree run with the
//     Taylor scalar along the trajectory (DESIGN.md §6);
//   - forward and hybrid dynamics, mass matrix, closed forms and kinematics
//     through identities that hold whatever the code: FD ∘ ID = id,
//     M̄ q̈ + h + g = τ, V_j = J_j q̇, ċ = J_com q̇, h_G = A_G q̇, and the fixed
//     tree's M̄ and Jacobians as the joint blocks of the floating tree's with
//     the base held at the mount.
// The fixed tree ignores the base fields of its inputs: every call below is
// given a random base pose and random base twists, which must change nothing.
#include <hodyn/closed_form_derivatives.hpp>
#include <hodyn/hodyn.hpp>
#include <hodyn/mass_matrix_derivatives.hpp>

#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"
#include "support/reference_dynamics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <memory>

namespace {

using namespace hodyn::test::oracle;
using hodyn::JointKind;

using FixedTree = OracleFixedTree;  // OracleTree with its root welded
using FloatTree = OracleTree;
constexpr int kJoints = FixedTree::kNumBodies - 1;
static_assert(hodyn::TreeTraits<FixedTree>::kFixedBase);
static_assert(hodyn::TreeTraits<FixedTree>::kNumDofs == kJoints);
static_assert(hodyn::TreeTraits<FloatTree>::kNumDofs == 6 + kJoints);
static_assert(hodyn::TreeTraits<FixedTree>::joint_dof(1) == 0);
static_assert(hodyn::TreeTraits<FixedTree>::dof_body(0) == 1);

constexpr unsigned kTreeSeed = 4242;

struct Fixture {
  ReferenceTree<double> tree = random_reference_tree<FixedTree, double>(kTreeSeed);
  hodyn::Model<FixedTree, double> fixed = core_model<FixedTree, double>(tree);
  hodyn::Model<FloatTree, double> floating = core_model<FloatTree, double>(tree);
};

/// A random state whose base is held at the mount (what the reference gets),
/// and a motion input whose base fields are random (what the fixed tree must ignore).
State<double> held_state(const Fixture& f, unsigned seed) {
  State<double> st = random_state<double>(seed, kJoints);
  st.C1 = f.tree.A0[0];
  for (auto& v : st.V1) v.setZero();
  return st;
}

template <int MO>
void fill_fixed_motion(const State<double>& st, unsigned seed,
                       hodyn::MotionDerivatives<FixedTree, MO, double>& m) {
  const State<double> noise = random_state<double>(seed + 1000u, kJoints);
  fill_motion(st, m);
  m.base_pose = Pose<double>::from_matrix(noise.C1);
  for (int k = 0; k <= MO + 1; ++k)
    m.base_twist[static_cast<std::size_t>(k)] = noise.V1[static_cast<std::size_t>(k)];
}

TEST(FixedBase, InverseDynamicsMatchesTheDenseReferenceWithTheBaseHeld) {
  const Fixture f;
  Worst wt{"fixed_base_tau", {}}, wq{"fixed_base_mount_wrench", {}};
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const State<double> st = held_state(f, seed);
    const auto out = reference<S7>(f.tree, st);
    auto motion = std::make_unique<hodyn::MotionDerivatives<FixedTree, kR, double>>();
    auto data = std::make_unique<hodyn::InverseDynamicsData<FixedTree, kR, double>>();
    fill_fixed_motion(st, seed, *motion);
    ASSERT_EQ(hodyn::inverse_dynamics(f.fixed, *data, *motion, kR), Status::kOk);
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double et = rel_err(data->joint_torque[K], tau_derivative(out.tau, k));
      const double eq = rel_err(data->base_wrench[K], ref::derivative_values(out.Q1, k));
      EXPECT_LE(et, 1e-11) << "tau order " << k << " seed " << seed;
      EXPECT_LE(eq, 1e-11) << "mount wrench order " << k << " seed " << seed;
      wt.update(k, et);
      wq.update(k, eq);
    }
  }
  wt.report();
  wq.report();
}

TEST(FixedBase, InverseDynamicsMatchesItsOwnOrderZeroInTaylorArithmetic) {
  const Fixture f;
  const hodyn::Model<FixedTree, S7> mt = f.fixed.cast<S7>();
  Worst wt{"fixed_base_taylor_core_tau", {}};
  for (unsigned seed = 11; seed <= 14; ++seed) {
    const State<double> st = held_state(f, seed);
    auto motion = std::make_unique<hodyn::MotionDerivatives<FixedTree, kR, double>>();
    auto data = std::make_unique<hodyn::InverseDynamicsData<FixedTree, kR, double>>();
    fill_fixed_motion(st, seed, *motion);
    ASSERT_EQ(hodyn::inverse_dynamics(f.fixed, *data, *motion, kR), Status::kOk);
    // q(t) = Σ q^(k) tᵏ/k! as series; order-0 inverse dynamics in series arithmetic.
    auto ms = std::make_unique<hodyn::MotionDerivatives<FixedTree, 0, S7>>();
    for (int i = 0; i < kJoints; ++i)
      for (int d = 0; d < 3; ++d) {
        std::vector<double> values;
        for (std::size_t k = static_cast<std::size_t>(d); k < st.q.size(); ++k)
          values.push_back(st.q[k](i));
        ms->q[static_cast<std::size_t>(d)](i) = S7::from_derivatives(values);
      }
    auto ds = std::make_unique<hodyn::InverseDynamicsData<FixedTree, 0, S7>>();
    ASSERT_EQ(hodyn::inverse_dynamics(mt, *ds, *ms, 0), Status::kOk);
    for (int k = 0; k <= kR; ++k) {
      Eigen::VectorXd series(kJoints);
      for (int i = 0; i < kJoints; ++i) series(i) = ds->joint_torque[0](i).derivative_value(k);
      const double e = rel_err(data->joint_torque[static_cast<std::size_t>(k)], series);
      EXPECT_LE(e, 1e-11) << "order " << k << " seed " << seed;
      wt.update(k, e);
    }
  }
  wt.report();
}

TEST(FixedBase, ForwardAndHybridDynamicsInvertInverseDynamics) {
  const Fixture f;
  for (unsigned seed = 21; seed <= 24; ++seed) {
    const State<double> st = held_state(f, seed);
    auto motion = std::make_unique<hodyn::MotionDerivatives<FixedTree, kR, double>>();
    auto id = std::make_unique<hodyn::InverseDynamicsData<FixedTree, kR, double>>();
    fill_fixed_motion(st, seed, *motion);
    ASSERT_EQ(hodyn::inverse_dynamics(f.fixed, *id, *motion, kR), Status::kOk);

    auto in = std::make_unique<hodyn::HybridDynamicsInput<FixedTree, kR, double>>();
    in->base_pose = motion->base_pose;  // ignored: random
    in->base_twist = motion->base_twist[0];
    in->q = motion->q[0];
    in->q_dot = motion->q[1];
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      in->joint_torque[K] = id->joint_torque[K];
      in->base_wrench[K].setConstant(std::numeric_limits<double>::quiet_NaN());  // ignored
    }
    auto fd = std::make_unique<hodyn::ForwardDynamicsData<FixedTree, kR, double>>();
    ASSERT_EQ(hodyn::forward_dynamics(f.fixed, *fd, *in, kR), Status::kOk);
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      EXPECT_LE(rel_err(fd->motion.q[K + 2], motion->q[K + 2]), 1e-9) << "q order " << k + 2;
      EXPECT_LE(rel_err(fd->base_wrench[K], id->base_wrench[K]), 1e-9) << "mount wrench " << k;
      EXPECT_EQ(fd->motion.base_twist[K + 1], hodyn::Twist<double>::Zero());
    }
    // Hybrid: joints 2, 5 and 8 prescribed, the others torque-driven; the base
    // input (here "motion given", random) is ignored too.
    in->base_input = hodyn::BaseInput::kMotion;
    for (int k = 0; k <= kR; ++k) in->base_acceleration[static_cast<std::size_t>(k)].setOnes();
    for (int j : {2, 5, 8}) in->motion_prescribed[static_cast<std::size_t>(j - 1)] = true;
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      in->joint_acceleration[K] = motion->q[K + 2];
      for (int j : {2, 5, 8}) in->joint_torque[K](j - 1) = 1e6;  // ignored for prescribed joints
    }
    auto hd = std::make_unique<hodyn::HybridDynamicsData<FixedTree, kR, double>>();
    ASSERT_EQ(hodyn::hybrid_dynamics(f.fixed, *hd, *in, kR), Status::kOk);
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      EXPECT_LE(rel_err(hd->motion.q[K + 2], motion->q[K + 2]), 1e-9) << "hybrid q order " << k + 2;
      EXPECT_LE(rel_err(hd->joint_torque[K], id->joint_torque[K]), 1e-9) << "hybrid tau " << k;
      EXPECT_LE(rel_err(hd->base_wrench[K], id->base_wrench[K]), 1e-9) << "hybrid wrench " << k;
    }
  }
}

TEST(FixedBase, MassMatrixAndClosedFormsAreTheJointBlockOfTheHeldFloatingTree) {
  const Fixture f;
  const State<double> st = held_state(f, 31);
  auto motion = std::make_unique<hodyn::MotionDerivatives<FixedTree, 3, double>>();
  fill_fixed_motion(st, 31, *motion);

  // Floating tree with the base held at the mount: its M̄'s joint block.
  auto fl_motion = std::make_unique<hodyn::MotionDerivatives<FloatTree, 1, double>>();
  fill_motion(st, *fl_motion);
  auto fl_eom = std::make_unique<hodyn::EquationsOfMotionData<FloatTree, double>>();
  ASSERT_EQ(hodyn::equations_of_motion(f.floating, *fl_eom, *fl_motion, true), Status::kOk);

  auto eom_motion = std::make_unique<hodyn::MotionDerivatives<FixedTree, 1, double>>();
  fill_fixed_motion(st, 31, *eom_motion);
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<FixedTree, double>>();
  ASSERT_EQ(hodyn::equations_of_motion(f.fixed, *eom, *eom_motion, true), Status::kOk);
  const auto& r = eom->result;
  const auto& fr = fl_eom->result;
  const auto block = [](const auto& m) { return m.template bottomRightCorner<kJoints, kJoints>(); };
  EXPECT_LE(rel_err(r.mass_matrix, Eigen::MatrixXd(block(fr.mass_matrix))), 1e-13);
  EXPECT_LE(rel_err(r.mass_matrix_rate, Eigen::MatrixXd(block(fr.mass_matrix_rate))), 1e-12);
  EXPECT_LE(rel_err(r.coriolis, Eigen::VectorXd(fr.coriolis.tail<kJoints>())), 1e-12);
  EXPECT_LE(rel_err(r.gravity, Eigen::VectorXd(fr.gravity.tail<kJoints>())), 1e-13);

  // mass_matrix (CRBA) with a random base pose: the same M̄.
  auto crba = std::make_unique<hodyn::EquationsOfMotionData<FixedTree, double>>();
  ASSERT_EQ(hodyn::mass_matrix(f.fixed, *crba, eom_motion->base_pose, eom_motion->q[0]),
            Status::kOk);
  EXPECT_LE(rel_err(crba->result.mass_matrix, r.mass_matrix), 1e-13);
  EXPECT_GT(r.mass_matrix.ldlt().vectorD().minCoeff(), 0.0);

  // M̄ q̈ + h + g = τ, and seed 001 eq. 49 at orders 0..3 through the closed forms.
  auto id = std::make_unique<hodyn::InverseDynamicsData<FixedTree, 3, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(f.fixed, *id, *motion, 3), Status::kOk);
  const Eigen::VectorXd tau0 = r.mass_matrix * motion->q[2] + r.coriolis + r.gravity;
  EXPECT_LE(rel_err(tau0, id->joint_torque[0]), 1e-12);
  auto cf = std::make_unique<hodyn::ClosedFormDerivativesData<FixedTree, 3, double>>();
  ASSERT_EQ(hodyn::closed_form_derivatives(f.fixed, *cf, *motion, 3), Status::kOk);
  for (int n = 0; n <= 3; ++n) {
    Eigen::VectorXd tau =
        cf->coriolis[static_cast<std::size_t>(n)] + cf->gravity[static_cast<std::size_t>(n)];
    for (int i = 0; i <= n; ++i)
      tau += hodyn::binomial<double>(n, i) * (cf->mass_matrix[static_cast<std::size_t>(i)] *
                                              motion->q[static_cast<std::size_t>(n - i + 2)]);
    EXPECT_LE(rel_err(tau, id->joint_torque[static_cast<std::size_t>(n)]), 1e-11) << "order " << n;
  }
  // The composite-rigid-body recursion of M̄^(n) on the same kinematics: n × n.
  auto mmd = std::make_unique<hodyn::MassMatrixDerivativesData<FixedTree, 3, double>>();
  ASSERT_EQ(hodyn::mass_matrix_derivatives(f.fixed, cf->kinematics, *mmd, 3), Status::kOk);
  for (int n = 0; n <= 3; ++n)
    EXPECT_LE(rel_err(mmd->mass_matrix[static_cast<std::size_t>(n)],
                      cf->mass_matrix[static_cast<std::size_t>(n)]),
              1e-12)
        << "recursive M̄^(" << n << ")";
}

TEST(FixedBase, KinematicsAndJacobiansOfTheFixedTree) {
  const Fixture f;
  const State<double> st = held_state(f, 41);
  constexpr int kO = 3;
  auto motion = std::make_unique<hodyn::MotionDerivatives<FixedTree, kO, double>>();
  fill_fixed_motion(st, 41, *motion);
  auto fl_motion = std::make_unique<hodyn::MotionDerivatives<FloatTree, kO, double>>();
  fill_motion(st, *fl_motion);
  auto kin = std::make_unique<hodyn::KinematicsData<FixedTree, kO, double>>();
  auto fl_kin = std::make_unique<hodyn::KinematicsData<FloatTree, kO, double>>();
  ASSERT_EQ(hodyn::forward_kinematics(f.fixed, *kin, *motion, kO), Status::kOk);
  ASSERT_EQ(hodyn::forward_kinematics(f.floating, *fl_kin, *fl_motion, kO), Status::kOk);
  EXPECT_LE(rel_err(kin->body_pose[0].matrix(), f.tree.A0[0]), 1e-15);
  for (int k = 0; k <= kO + 1; ++k)
    EXPECT_EQ(kin->body_twist[0][static_cast<std::size_t>(k)], hodyn::Twist<double>::Zero());
  for (int j = 0; j < FixedTree::kNumBodies; ++j) {
    EXPECT_LE(rel_err(kin->body_pose[j].matrix(), fl_kin->body_pose[j].matrix()), 1e-14) << j;
    for (int k = 0; k <= kO + 1; ++k)
      EXPECT_LE(rel_err(kin->body_twist[j][static_cast<std::size_t>(k)],
                        fl_kin->body_twist[j][static_cast<std::size_t>(k)]),
                1e-13)
          << "body " << j << " order " << k;
    hodyn::JacobianMatrix<FixedTree, double> jac, jac_dot, local;
    hodyn::JacobianMatrix<FloatTree, double> fl_jac;
    ASSERT_EQ(hodyn::spatial_jacobian(*kin, j, jac), Status::kOk);
    ASSERT_EQ(hodyn::spatial_jacobian(*kin, j, jac_dot, 1), Status::kOk);
    ASSERT_EQ(hodyn::spatial_jacobian(*fl_kin, j, fl_jac), Status::kOk);
    EXPECT_EQ(jac, fl_jac.rightCols<kJoints>()) << j;
    const hodyn::Twist<double> v = jac * motion->q[1];
    const hodyn::Twist<double> a = jac_dot * motion->q[1] + jac * motion->q[2];
    EXPECT_LE(rel_err(v, kin->body_twist[j][0]), 1e-13) << j;
    EXPECT_LE(rel_err(a, kin->body_twist[j][1]), 1e-13) << j;
    ASSERT_EQ(hodyn::local_jacobian(*kin, j, local), Status::kOk);
    const hodyn::Twist<double> body_twist = local * motion->q[1];
    const hodyn::Twist<double> expected =
        hodyn::adjoint_inverse(kin->body_pose[j], kin->body_twist[j][0]);
    EXPECT_LE(rel_err(body_twist, expected), 1e-12) << j;
  }
  auto com = std::make_unique<hodyn::CenterOfMassData<FixedTree, kO, double>>();
  ASSERT_EQ(hodyn::center_of_mass(f.fixed, *kin, *com, kO), Status::kOk);
  EXPECT_LE(rel_err(Eigen::Vector3d(com->jacobian * motion->q[1]), com->position[1]), 1e-13);
  EXPECT_LE(rel_err(Eigen::Vector3d(com->jacobian_derivative * motion->q[1] +
                                    com->jacobian * motion->q[2]),
                    com->position[2]),
            1e-13);
  auto cm = std::make_unique<hodyn::CentroidalMomentumData<FixedTree, double>>();
  ASSERT_EQ(hodyn::centroidal_momentum(f.fixed, *kin, *cm), Status::kOk);
  EXPECT_LE(rel_err(hodyn::Wrench<double>(cm->matrix * motion->q[1]), cm->momentum), 1e-13);
}

TEST(FixedBase, BadInputGetsAStatusAndTheBaseFieldsAreIgnored) {
  const Fixture f;
  auto motion = std::make_unique<hodyn::MotionDerivatives<FixedTree, 2, double>>();
  auto data = std::make_unique<hodyn::InverseDynamicsData<FixedTree, 2, double>>();
  // A non-finite base field: ignored (the root is at its mount).
  motion->base_twist[0].setConstant(std::numeric_limits<double>::quiet_NaN());
  motion->base_pose.translation.setConstant(std::numeric_limits<double>::infinity());
  EXPECT_EQ(hodyn::inverse_dynamics(f.fixed, *data, *motion, 2), Status::kOk);
  EXPECT_EQ(hodyn::inverse_dynamics(f.fixed, *data, *motion, 3), Status::kOrderOutOfRange);
  motion->q[1](3) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::inverse_dynamics(f.fixed, *data, *motion, 2), Status::kNonFiniteInput);
  for (const auto& t : data->joint_torque) EXPECT_TRUE(t.isZero());
  auto kin = std::make_unique<hodyn::KinematicsData<FixedTree, 2, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(f.fixed, *kin, *motion, 2), Status::kNonFiniteInput);
}

TEST(FixedBase, HotPathsAreHeapFreeAndFloatAgreesWithDouble) {
  const Fixture f;
  const State<double> st = held_state(f, 51);
  auto motion = std::make_unique<hodyn::MotionDerivatives<FixedTree, 3, double>>();
  auto data = std::make_unique<hodyn::InverseDynamicsData<FixedTree, 3, double>>();
  fill_fixed_motion(st, 51, *motion);
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<FixedTree, 3, double>>();
  auto in = std::make_unique<hodyn::ForwardDynamicsInput<FixedTree, 3, double>>();
  in->q = motion->q[0];
  in->q_dot = motion->q[1];
  {
    hodyn::test::HeapProbe probe;
    for (int order = 0; order <= 3; ++order) {
      ASSERT_EQ(hodyn::inverse_dynamics(f.fixed, *data, *motion, order), Status::kOk);
      ASSERT_EQ(hodyn::forward_dynamics(f.fixed, *fd, *in, order), Status::kOk);
    }
    EXPECT_EQ(probe.count(), 0);
  }
  // float: on the default x86-64 build the lane kernel serves float at orders ≥ 1.
  const hodyn::Model<FixedTree, float> mf = f.fixed.cast<float>();
  auto mfm = std::make_unique<hodyn::MotionDerivatives<FixedTree, 3, float>>();
  for (int k = 0; k <= 5; ++k)
    mfm->q[static_cast<std::size_t>(k)] = motion->q[static_cast<std::size_t>(k)].cast<float>();
  auto df = std::make_unique<hodyn::InverseDynamicsData<FixedTree, 3, float>>();
  for (int order = 0; order <= 3; ++order) {
    ASSERT_EQ(hodyn::inverse_dynamics(f.fixed, *data, *motion, order), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(mf, *df, *mfm, order), Status::kOk);
    for (int k = 0; k <= order; ++k)
      EXPECT_LE(
          rel_err(Eigen::VectorXd(df->joint_torque[static_cast<std::size_t>(k)].cast<double>()),
                  data->joint_torque[static_cast<std::size_t>(k)]),
          2e-4)
          << "order " << order << " k " << k;
  }
}

}  // namespace
