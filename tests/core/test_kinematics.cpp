// Higher-order forward kinematics, Jacobians, centre of mass and centroidal
// momentum against the dense Taylor-series reference (support/reference_dynamics.hpp:
// poses as products of 4x4 exponentials in series arithmetic, twists by
// differentiating the pose series, [V] = Ċ C⁻¹ — no recursion, no screw
// derivative formula). Every derivative k = 0..kR+1 of the twists and of the
// centre of mass is compared; Jacobians through V^(k) = Σ C(k,i) J^(k−i) ν^(i),
// the partials ∂J/∂q by central differences of the order-0 Jacobian, J_com
// through ċ and c̈ and through the generalized gravity force (seed 004
// Rem. 3: inverse dynamics at rest is −m J_comᵀ g), A_G through h_G and ḣ_G.
// Models: the aerial manipulator and the random 9-body OracleTree (branches,
// general and axis-aligned revolute and prismatic joints), stress-test states.
#include <hodyn/center_of_mass.hpp>
#include <hodyn/centroidal_momentum.hpp>
#include <hodyn/hodyn.hpp>
#include <hodyn/jacobians.hpp>
#include <hodyn/kinematics.hpp>

#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"
#include "support/reference_dynamics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>

namespace {

using namespace hodyn::test::oracle;
using hodyn::BodyFrame;
using hodyn::JacobianMatrix;

template <class Tree>
using Kin = hodyn::KinematicsData<Tree, kR, double>;
template <class Tree>
using Motion = hodyn::MotionDerivatives<Tree, kR, double>;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Vec3 = Eigen::Vector3d;

double binom(int n, int k) { return hodyn::binomial<double>(n, k); }

/// ν^(k) = (V₁^(k); q^(k+1)).
template <class Tree>
Eigen::Matrix<double, hodyn::TreeTraits<Tree>::kNumDofs, 1> nu(const State<double>& s, int k) {
  Eigen::Matrix<double, hodyn::TreeTraits<Tree>::kNumDofs, 1> v;
  v.template head<6>() = s.V1[static_cast<std::size_t>(k)];
  v.template tail<Tree::kNumBodies - 1>() = s.q[static_cast<std::size_t>(k + 1)];
  return v;
}

/// The series of C(t)⁻¹-side quantities the reference does not give directly.
ref::Vec6<S7> local_twist_series(const ref::Mat4<S7>& c, const ref::Vec6<S7>& v) {
  return ref::adjoint<S7>(ref::pose_inverse<S7>(c)) * v;
}

template <class Tree>
void check_kinematics(const ReferenceTree<double>& tree, const hodyn::Model<Tree, double>& model,
                      unsigned seed, Worst& wv, Worst& wj) {
  constexpr int kN = Tree::kNumBodies;
  const State<double> st = random_state<double>(seed, kN - 1);
  const auto out = reference<S7>(tree, st);
  auto motion = std::make_unique<Motion<Tree>>();
  auto kin = std::make_unique<Kin<Tree>>();
  fill_motion(st, *motion);
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, kR), hodyn::Status::kOk);
  EXPECT_EQ(kin->order, kR);
  for (int j = 0; j < kN; ++j) {
    const auto J = static_cast<std::size_t>(j);
    EXPECT_LE(rel_err(kin->body_pose[J].matrix(), ref::derivative_values(out.C[J], 0)), 1e-13)
        << "C_" << j << " seed " << seed;
    for (int k = 0; k <= kR + 1; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double ev = rel_err(kin->body_twist[J][K], ref::derivative_values(out.V[J], k));
      EXPECT_LE(ev, 1e-11) << "V_" << j << "^(" << k << ") seed " << seed;
      wv.update(std::min(k, kR), ev);
      if (j > 0) {
        EXPECT_LE(rel_err(kin->joint_screw[J][K], ref::derivative_values(out.screw[J], k)), 1e-11)
            << "S_" << j << "^(" << k << ") seed " << seed;
      }
    }
    // Spatial Jacobian of every order: V^(k) = Σ_i C(k,i) J^(k−i) ν^(i).
    JacobianMatrix<Tree> jk;
    for (int k = 0; k <= kR + 1; ++k) {
      Vec6 v = Vec6::Zero();
      for (int i = 0; i <= k; ++i) {
        ASSERT_EQ(hodyn::spatial_jacobian(*kin, j, jk, k - i), hodyn::Status::kOk);
        v += binom(k, i) * (jk * nu<Tree>(st, i));
      }
      const double e = rel_err(v, ref::derivative_values(out.V[J], k));
      EXPECT_LE(e, 1e-11) << "J_" << j << " order " << k << " seed " << seed;
      wj.update(std::min(k, kR), e);
    }
    // Local Jacobian of the body frame and of an offset frame, orders 0..kR+1.
    BodyFrame<double> frame;
    frame.body = j;
    frame.placement.rotation =
        Eigen::AngleAxisd(0.3 + j, Vec3(1, 2, -1).normalized()).toRotationMatrix();
    frame.placement.translation = Vec3(0.1, -0.2, 0.05 * j);
    const ref::Mat4<S7> cf = out.C[J] * frame.placement.matrix().cast<S7>();
    const ref::Vec6<S7> vb = local_twist_series(cf, out.V[J]);
    for (int k = 0; k <= kR + 1; ++k) {
      Vec6 v = Vec6::Zero();
      for (int i = 0; i <= k; ++i) {
        ASSERT_EQ(hodyn::local_jacobian(*kin, frame, jk, k - i), hodyn::Status::kOk);
        v += binom(k, i) * (jk * nu<Tree>(st, i));
      }
      EXPECT_LE(rel_err(v, ref::derivative_values(vb, k)), 1e-10)
          << "local J of a frame on " << j << " order " << k << " seed " << seed;
    }
  }
  // A call of lower order returns the same leading results, to rounding:
  // orders 0..3 run the passes compiled for their order, kR the loops (two
  // implementations of the sums; the oracle above checks the loops).
  for (int r = 0; r < kR; ++r) {
    auto low = std::make_unique<Kin<Tree>>();
    ASSERT_EQ(hodyn::forward_kinematics(model, *low, *motion, r), hodyn::Status::kOk);
    for (int j = 0; j < kN; ++j) {
      const auto J = static_cast<std::size_t>(j);
      EXPECT_LE(hodyn::test::normwise_ulps(low->body_pose[J].matrix(), kin->body_pose[J].matrix()),
                4.0)
          << "C_" << j << " r = " << r;
      for (int k = 0; k <= r + 1; ++k) {
        const auto K = static_cast<std::size_t>(k);
        EXPECT_LE(hodyn::test::normwise_ulps(low->body_twist[J][K], kin->body_twist[J][K]), 16.0)
            << "V_" << j << "^(" << k << ") r = " << r;
        if (j > 0) {
          EXPECT_LE(hodyn::test::normwise_ulps(low->joint_screw[J][K], kin->joint_screw[J][K]),
                    16.0)
              << "S_" << j << "^(" << k << ") r = " << r;
        }
      }
    }
  }
}

TEST(KinematicsOracle, AerialManipulatorPosesTwistsAndJacobiansOfEveryOrder) {
  const auto tree = hodyn::test::make_aerial_manipulator<double>();
  const auto model = core_aerial_manipulator();
  Worst wv{"fk_am_V", {}}, wj{"jacobian_am", {}};
  for (unsigned seed : {21u, 22u, 23u}) check_kinematics<AMTree>(tree, model, seed, wv, wj);
  wv.report();
  wj.report();
}

TEST(KinematicsOracle, HelicalTreePosesTwistsAndJacobiansOfEveryOrder) {  // issue 19
  Worst wv{"fk_helical_V", {}}, wj{"jacobian_helical", {}};
  for (unsigned seed : {4u, 5u, 6u}) {
    const auto tree = random_reference_tree<HelicalTree, double>(seed);
    check_kinematics<HelicalTree>(tree, core_model<HelicalTree>(tree), seed + 100, wv, wj);
  }
  wv.report();
  wj.report();
}

TEST(KinematicsOracle, RandomTreePosesTwistsAndJacobiansOfEveryOrder) {
  Worst wv{"fk_tree_V", {}}, wj{"jacobian_tree", {}};
  for (unsigned seed : {4u, 5u, 6u}) {
    const auto tree = random_reference_tree<OracleTree, double>(seed);
    const auto model = core_model<OracleTree>(tree);
    check_kinematics<OracleTree>(tree, model, seed + 100, wv, wj);
  }
  wv.report();
  wj.report();
}

TEST(KinematicsOracle, FramesLocalTwistsAndPointDerivatives) {
  const auto tree = random_reference_tree<OracleTree, double>(8);
  const auto model = core_model<OracleTree>(tree);
  const State<double> st = random_state<double>(31, OracleTree::kNumBodies - 1);
  const auto out = reference<S7>(tree, st);
  auto motion = std::make_unique<Motion<OracleTree>>();
  auto kin = std::make_unique<Kin<OracleTree>>();
  fill_motion(st, *motion);
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, kR), hodyn::Status::kOk);
  std::array<BodyFrame<double>, 3> frames;
  const int bodies[3] = {0, 6, 8};
  for (int f = 0; f < 3; ++f) {
    frames[f].body = bodies[f];
    frames[f].placement.rotation =
        Eigen::AngleAxisd(-0.7 * (f + 1), Vec3(0.2, 1, 0.4).normalized()).toRotationMatrix();
    frames[f].placement.translation = Vec3(0.3, 0.1 * f, -0.25);
  }
  auto fk = std::make_unique<hodyn::FrameKinematicsData<3, kR>>();
  ASSERT_EQ(hodyn::frame_kinematics(*kin, frames, *fk, kR), hodyn::Status::kOk);
  for (int f = 0; f < 3; ++f) {
    const auto J = static_cast<std::size_t>(bodies[f]);
    const ref::Mat4<S7> cf = out.C[J] * frames[f].placement.matrix().cast<S7>();
    const ref::Vec6<S7> vb = local_twist_series(cf, out.V[J]);
    EXPECT_LE(rel_err(fk->pose[f].matrix(), ref::derivative_values(cf, 0)), 1e-13) << f;
    for (int k = 0; k <= kR + 1; ++k) {
      const auto K = static_cast<std::size_t>(k);
      EXPECT_LE(rel_err(fk->twist[f][K], ref::derivative_values(out.V[J], k)), 1e-11) << f << k;
      EXPECT_LE(rel_err(fk->local_twist[f][K], ref::derivative_values(vb, k)), 1e-10)
          << "frame " << f << " local twist order " << k;
      const Vec3 p = ref::derivative_values(cf, k).topRightCorner<3, 1>();
      EXPECT_LE(rel_err(fk->position[f][K], p), 1e-11) << "frame " << f << " point order " << k;
    }
  }
}

TEST(KinematicsOracle, JacobianPartialsMatchCentralDifferences) {
  const auto tree = random_reference_tree<OracleTree, double>(9);
  const auto model = core_model<OracleTree>(tree);
  const State<double> st = random_state<double>(41, OracleTree::kNumBodies - 1);
  auto motion = std::make_unique<Motion<OracleTree>>();
  fill_motion(st, *motion);
  auto kin = std::make_unique<Kin<OracleTree>>();
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, 0), hodyn::Status::kOk);
  constexpr double h = 1e-5;
  for (int joint = 1; joint < OracleTree::kNumBodies; ++joint) {
    auto plus = *motion, minus = *motion;
    plus.q[0](joint - 1) += h;
    minus.q[0](joint - 1) -= h;
    auto kp = std::make_unique<Kin<OracleTree>>(), km = std::make_unique<Kin<OracleTree>>();
    ASSERT_EQ(hodyn::forward_kinematics(model, *kp, plus, 0), hodyn::Status::kOk);
    ASSERT_EQ(hodyn::forward_kinematics(model, *km, minus, 0), hodyn::Status::kOk);
    for (int body = 0; body < OracleTree::kNumBodies; ++body) {
      JacobianMatrix<OracleTree> jp, jm, partial;
      ASSERT_EQ(hodyn::spatial_jacobian(*kp, body, jp), hodyn::Status::kOk);
      ASSERT_EQ(hodyn::spatial_jacobian(*km, body, jm), hodyn::Status::kOk);
      ASSERT_EQ(hodyn::spatial_jacobian_partial(*kin, body, joint, partial), hodyn::Status::kOk);
      const JacobianMatrix<OracleTree> fd = (jp - jm) / (2 * h);
      EXPECT_LE((partial - fd).norm(), 1e-8 * (1 + fd.norm())) << "body " << body << " q" << joint;
    }
  }
}

/// c(t) = Σ m_j C_j(t) c_j^b / m from the reference pose series.
template <class Tree>
ref::Vec3<S7> com_series(const ReferenceTree<double>& tree, const hodyn::Model<Tree, double>& model,
                         const hodyn::test::ReferenceResult<S7>& out) {
  ref::Vec3<S7> c = ref::Vec3<S7>::Zero();
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    const ref::Vec3<S7> cb = tree.com_body(j).template cast<S7>();
    c += S7(model.mass(j)) *
         (out.C[J].template topLeftCorner<3, 3>() * cb + out.C[J].template topRightCorner<3, 1>());
  }
  return c / S7(model.total_mass());
}

template <class Tree>
void check_com_and_centroidal(const ReferenceTree<double>& tree,
                              const hodyn::Model<Tree, double>& model, unsigned seed) {
  const State<double> st = random_state<double>(seed, Tree::kNumBodies - 1);
  const auto out = reference<S7>(tree, st);
  auto motion = std::make_unique<Motion<Tree>>();
  auto kin = std::make_unique<Kin<Tree>>();
  fill_motion(st, *motion);
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, kR), hodyn::Status::kOk);
  auto com = std::make_unique<hodyn::CenterOfMassData<Tree, kR>>();
  ASSERT_EQ(hodyn::center_of_mass(model, *kin, *com, kR), hodyn::Status::kOk);
  const ref::Vec3<S7> c = com_series(tree, model, out);
  for (int k = 0; k <= kR + 1; ++k)
    EXPECT_LE(rel_err(com->position[static_cast<std::size_t>(k)], ref::derivative_values(c, k)),
              1e-11)
        << "c^(" << k << ") seed " << seed;
  const Vec3 c_dot = com->jacobian * nu<Tree>(st, 0);
  const Vec3 c_ddot = com->jacobian_derivative * nu<Tree>(st, 0) + com->jacobian * nu<Tree>(st, 1);
  EXPECT_LE(rel_err(c_dot, ref::derivative_values(c, 1)), 1e-12) << seed;
  EXPECT_LE(rel_err(c_ddot, ref::derivative_values(c, 2)), 1e-12) << seed;

  // h_G(t) = (n − c × f; f) of the reference momentum about the origin.
  ref::Vec6<S7> h_origin = ref::Vec6<S7>::Zero();
  for (const auto& pi : out.momentum) h_origin += pi;
  ref::Vec6<S7> h_g;
  h_g.template head<3>() =
      h_origin.template head<3>() - c.cross(ref::Vec3<S7>(h_origin.template tail<3>()));
  h_g.template tail<3>() = h_origin.template tail<3>();
  auto cm = std::make_unique<hodyn::CentroidalMomentumData<Tree>>();
  ASSERT_EQ(hodyn::centroidal_momentum(model, *kin, *cm), hodyn::Status::kOk);
  const Vec6 h = cm->matrix * nu<Tree>(st, 0);
  const Vec6 h_dot = cm->matrix_derivative * nu<Tree>(st, 0) + cm->matrix * nu<Tree>(st, 1);
  EXPECT_LE(rel_err(h, ref::derivative_values(h_g, 0)), 1e-12) << seed;
  EXPECT_LE(rel_err(cm->momentum, ref::derivative_values(h_g, 0)), 1e-12) << seed;
  EXPECT_LE(rel_err(h_dot, ref::derivative_values(h_g, 1)), 1e-11) << seed;
  EXPECT_LE((cm->center_of_mass - com->position[0]).norm(), 1e-14 * (1 + com->position[0].norm()));
}

TEST(CenterOfMassOracle, DerivativesJacobianAndCentroidalMomentum) {
  const auto am = hodyn::test::make_aerial_manipulator<double>();
  const auto am_model = core_aerial_manipulator();
  for (unsigned seed : {51u, 52u}) check_com_and_centroidal<AMTree>(am, am_model, seed);
  for (unsigned seed : {6u, 7u}) {
    const auto tree = random_reference_tree<OracleTree, double>(seed);
    check_com_and_centroidal<OracleTree>(tree, core_model<OracleTree>(tree), seed + 60);
  }
}

// Seed 004 Rem. 3: at rest, the generalized gravity force (what inverse
// dynamics returns for V = 0, q̇ = q̈ = 0, V̇ = 0) is −m J_comᵀ g.
TEST(CenterOfMassOracle, GravityForceIsMassTimesComJacobianTransposeGravity) {
  const auto tree = random_reference_tree<OracleTree, double>(10);
  const auto model = core_model<OracleTree>(tree);
  State<double> st = random_state<double>(71, OracleTree::kNumBodies - 1);
  for (auto& v : st.V1) v.setZero();
  for (std::size_t k = 1; k < st.q.size(); ++k) st.q[k].setZero();
  auto motion = std::make_unique<Motion<OracleTree>>();
  fill_motion(st, *motion);
  auto kin = std::make_unique<Kin<OracleTree>>();
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, 0), hodyn::Status::kOk);
  auto com = std::make_unique<hodyn::CenterOfMassData<OracleTree, kR>>();
  ASSERT_EQ(hodyn::center_of_mass(model, *kin, *com, 0), hodyn::Status::kOk);
  auto id = std::make_unique<hodyn::InverseDynamicsData<OracleTree, kR>>();
  ASSERT_EQ(hodyn::inverse_dynamics(model, *id, *motion, 0), hodyn::Status::kOk);
  Eigen::Matrix<double, 14, 1> generalized;
  generalized << id->base_wrench[0], id->joint_torque[0];
  const Eigen::Matrix<double, 14, 1> expected =
      -model.total_mass() * com->jacobian.transpose() * model.gravity();
  EXPECT_LE(rel_err(generalized, expected), 1e-13);
}

// detail::finite_lanes reads the exponent bits: every position of arrays
// of every length up to 80 (the vector bodies and the scalar tails), every
// kind of non-finite value, and the finite extremes it must accept.
TEST(KinematicsSafety, FiniteCheckFindsEveryNonFiniteValue) {
  const double kBad[] = {
      std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  const double kGood[] = {0.0,
                          -0.0,
                          std::numeric_limits<double>::max(),
                          -std::numeric_limits<double>::max(),
                          std::numeric_limits<double>::denorm_min(),
                          1.0};
  std::array<double, 80> x{};
  for (int n = 0; n <= 80; ++n) {
    for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = kGood[i % 6];
    EXPECT_TRUE(hodyn::detail::finite_lanes(x.data(), n)) << n;
    for (int i = 0; i < n; ++i)
      for (const double bad : kBad) {
        const double keep = x[static_cast<std::size_t>(i)];
        x[static_cast<std::size_t>(i)] = bad;
        EXPECT_FALSE(hodyn::detail::finite_lanes(x.data(), n)) << n << " " << i;
        x[static_cast<std::size_t>(i)] = keep;
      }
  }
  std::array<float, 40> f{};
  f[0] = std::numeric_limits<float>::max();
  EXPECT_TRUE(hodyn::detail::finite_lanes(f.data(), 40));
  f[39] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(hodyn::detail::finite_lanes(f.data(), 40));
  EXPECT_TRUE(hodyn::detail::finite_lanes(f.data(), 39));
}

// Finite inputs whose results overflow: kNonFiniteResult, zero outputs.
TEST(KinematicsSafety, OverflowGivesNonFiniteResult) {
  const auto model = core_aerial_manipulator();
  auto motion = std::make_unique<Motion<AMTree>>();
  auto kin = std::make_unique<Kin<AMTree>>();
  motion->q[0].setConstant(0.2);
  motion->base_twist[0].setConstant(1e300);  // S^(1) = ad_V S ~ 1e300,
  motion->q[1].setConstant(1e300);           // times q̇: beyond the largest double
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, *motion, 0), hodyn::Status::kNonFiniteResult);
  EXPECT_EQ(kin->order, -1);
  for (int j = 0; j < AMTree::kNumBodies; ++j) {
    EXPECT_TRUE(kin->body_pose[static_cast<std::size_t>(j)].matrix().isIdentity()) << j;
    for (int k = 0; k <= kR + 1; ++k)
      EXPECT_EQ(kin->body_twist[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)],
                Vec6::Zero());
  }
}

TEST(KinematicsSafety, BadInputGivesStatusAndZeroOutputs) {
  const auto model = core_aerial_manipulator();
  auto motion = std::make_unique<Motion<AMTree>>();
  auto kin = std::make_unique<Kin<AMTree>>();
  motion->q[0].setConstant(0.2);
  motion->base_twist[0].setConstant(0.1);
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, 1), hodyn::Status::kOk);
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, *motion, kR + 1),
            hodyn::Status::kOrderOutOfRange);
  EXPECT_EQ(kin->order, -1);
  EXPECT_EQ(kin->body_twist[3][0], Vec6::Zero());
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, *motion, -1), hodyn::Status::kOrderOutOfRange);
  auto bad = *motion;
  bad.q[2](4) = std::numeric_limits<double>::quiet_NaN();  // q̈ enters order ≥ 0
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, bad, 0), hodyn::Status::kNonFiniteInput);
  EXPECT_TRUE(kin->body_pose[6].matrix().isIdentity());
  bad = *motion;
  bad.base_pose.rotation(0, 0) = 2.0;
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, bad, 0), hodyn::Status::kNonOrthonormalRotation);
  bad = *motion;
  bad.q[0](0) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, bad, 0), hodyn::Status::kNonFiniteInput);
  // Jacobians: before any successful call, a body outside the tree, an order the data lack.
  JacobianMatrix<AMTree> j;
  j.setOnes();
  EXPECT_EQ(hodyn::spatial_jacobian(*kin, 1, j), hodyn::Status::kInvalidArgument);
  EXPECT_TRUE(j.isZero());
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, 1), hodyn::Status::kOk);
  EXPECT_EQ(hodyn::spatial_jacobian(*kin, 7, j), hodyn::Status::kInvalidArgument);
  EXPECT_EQ(hodyn::spatial_jacobian(*kin, -1, j), hodyn::Status::kInvalidArgument);
  EXPECT_EQ(hodyn::spatial_jacobian(*kin, 2, j, 3), hodyn::Status::kInvalidArgument);
  j.setOnes();  // every column is written: off the path and the base block of J̈ are zero
  EXPECT_EQ(hodyn::spatial_jacobian(*kin, 2, j, 2), hodyn::Status::kOk);
  EXPECT_TRUE(j.leftCols<6>().isZero());
  for (int b = 1; b < AMTree::kNumBodies; ++b)
    if (!hodyn::joint_moves_body<AMTree>(b, 2))
      EXPECT_TRUE(j.col(hodyn::TreeTraits<AMTree>::joint_dof(b)).isZero()) << b;
    else
      EXPECT_FALSE(j.col(hodyn::TreeTraits<AMTree>::joint_dof(b)).isZero()) << b;
  EXPECT_EQ(hodyn::spatial_jacobian_partial(*kin, 2, 0, j), hodyn::Status::kInvalidArgument);
  BodyFrame<double> frame;
  frame.body = 3;
  frame.placement.rotation(1, 1) = std::numeric_limits<double>::quiet_NaN();
  j.setOnes();
  EXPECT_EQ(hodyn::local_jacobian(*kin, frame, j), hodyn::Status::kInvalidArgument);
  EXPECT_TRUE(j.isZero());
  std::array<BodyFrame<double>, 1> frames{frame};
  auto fk = std::make_unique<hodyn::FrameKinematicsData<1, kR>>();
  EXPECT_EQ(hodyn::frame_kinematics(*kin, frames, *fk, 1), hodyn::Status::kInvalidArgument);
  frames[0].placement = hodyn::Pose<double>{};
  EXPECT_EQ(hodyn::frame_kinematics(*kin, frames, *fk, 2), hodyn::Status::kOrderOutOfRange);
  EXPECT_EQ(hodyn::frame_kinematics(*kin, frames, *fk, 1), hodyn::Status::kOk);
  frames[0].body = 9;
  EXPECT_EQ(hodyn::frame_kinematics(*kin, frames, *fk, 1), hodyn::Status::kInvalidArgument);
  auto com = std::make_unique<hodyn::CenterOfMassData<AMTree, kR>>();
  EXPECT_EQ(hodyn::center_of_mass(model, *kin, *com, 2), hodyn::Status::kOrderOutOfRange);
  hodyn::AerialManipulatorModel<double> massless;  // every body massless
  EXPECT_EQ(hodyn::center_of_mass(massless, *kin, *com, 1), hodyn::Status::kInvalidModel);
  EXPECT_TRUE(com->jacobian.isZero());
  auto cm = std::make_unique<hodyn::CentroidalMomentumData<AMTree>>();
  EXPECT_EQ(hodyn::centroidal_momentum(massless, *kin, *cm), hodyn::Status::kInvalidModel);
}

TEST(KinematicsSafety, HotPathsAreHeapFree) {
  const auto model = core_aerial_manipulator();
  auto motion = std::make_unique<Motion<AMTree>>();
  auto kin = std::make_unique<Kin<AMTree>>();
  auto com = std::make_unique<hodyn::CenterOfMassData<AMTree, kR>>();
  auto cm = std::make_unique<hodyn::CentroidalMomentumData<AMTree>>();
  auto fk = std::make_unique<hodyn::FrameKinematicsData<2, kR>>();
  std::array<BodyFrame<double>, 2> frames;
  frames[0].body = 6;
  frames[1].body = 3;
  motion->q[0].setConstant(0.3);
  motion->q[1].setConstant(-0.4);
  motion->base_twist[0].setConstant(0.2);
  JacobianMatrix<AMTree> j;
  hodyn::test::HeapProbe probe;
  for (int r = 0; r <= kR; ++r) {
    ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, r), hodyn::Status::kOk);
    ASSERT_EQ(hodyn::frame_kinematics(*kin, frames, *fk, r), hodyn::Status::kOk);
    ASSERT_EQ(hodyn::center_of_mass(model, *kin, *com, r), hodyn::Status::kOk);
    ASSERT_EQ(hodyn::centroidal_momentum(model, *kin, *cm), hodyn::Status::kOk);
    ASSERT_EQ(hodyn::spatial_jacobian(*kin, 6, j, r), hodyn::Status::kOk);
    ASSERT_EQ(hodyn::local_jacobian(*kin, frames[1], j, r + 1), hodyn::Status::kOk);
    ASSERT_EQ(hodyn::spatial_jacobian_partial(*kin, 6, 2, j), hodyn::Status::kOk);
  }
  EXPECT_EQ(probe.count(), 0);
}

// The float build (Cortex-M4F) against double on the same state.
TEST(KinematicsFloat, AgreesWithDouble) {
  const auto model = core_aerial_manipulator();
  const auto model_f = model.cast<float>();
  hodyn::MotionDerivatives<AMTree, 2, double> m;
  hodyn::MotionDerivatives<AMTree, 2, float> mf;
  for (std::size_t k = 0; k < m.base_twist.size(); ++k)
    m.base_twist[k].setConstant(0.1 * (k + 1.0));
  for (int k = 0; k < 5; ++k) m.q[static_cast<std::size_t>(k)].setConstant(0.2 - 0.1 * k);
  m.base_pose.translation << 0.3, -0.1, 1.2;
  mf.base_pose = m.base_pose.cast<float>();
  for (std::size_t k = 0; k < m.base_twist.size(); ++k)
    mf.base_twist[k] = m.base_twist[k].cast<float>();
  for (std::size_t k = 0; k < m.q.size(); ++k) mf.q[k] = m.q[k].cast<float>();
  hodyn::KinematicsData<AMTree, 2, double> kd;
  hodyn::KinematicsData<AMTree, 2, float> kf;
  ASSERT_EQ(hodyn::forward_kinematics(model, kd, m, 2), hodyn::Status::kOk);
  ASSERT_EQ(hodyn::forward_kinematics(model_f, kf, mf, 2), hodyn::Status::kOk);
  for (std::size_t j = 0; j < 7; ++j)
    for (std::size_t k = 0; k <= 3; ++k)
      EXPECT_LE(rel_err(kf.body_twist[j][k].cast<double>(), kd.body_twist[j][k]), 1e-5) << j << k;
}

}  // namespace
