// Spherical (ball) joints in the configuration-only calls (issue 19 item 1,
// docs/joint-kinds.md "4. The slices", 1 and the CRBA of 3): the mass matrix
// (the overload on a MotionDerivatives, which holds the balls' R_j), the
// centre of mass with J_com and J̇_com, and the centroidal momentum matrix.
//
// Oracles, none of them the code under test:
// (a) M̄ column l = τ̄(ν̇ = e_l) − τ̄(ν̇ = 0) of inverse dynamics at the same
//     state (inverse dynamics with balls is checked against three revolute
//     joints and the Taylor oracle in test_spherical_joint), and
//     ½ νᵀ M̄ ν = Σ_j ½ V_jᵀ M_j V_j, the kinetic energy of the bodies' twists
//     from the kinematics, at random R_j far from identity and δ ≠ 0;
// (b) the tree with each ball replaced by revolute joints about x, y, z with
//     massless links between them (the 1-DoF code): M̄_euler = Bᵀ M̄_ball B,
//     J_com,euler = J_com,ball B and A_G,euler = A_G,ball B, B mapping the
//     Euler tree's ν to the ball tree's (ω = E (ȧ, ḃ, ċ)), at R_j = Rx Ry Rz;
// (c) c, ċ = J_com ν, c̈ = J̇_com ν + J_com ν̇, h_G = A_G ν and
//     ḣ_G = Ȧ_G ν + A_G ν̇ against sums over the bodies' poses and twists of
//     the kinematics written out here;
// (d) a ball rotation that is not one, or not finite: a status and zero M̄.
#include <hodyn/hodyn.hpp>

#include "support/ball_trees.hpp"
#include "support/error_metrics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <iostream>
#include <memory>
#include <random>

namespace {

using hodyn::JointKind;
using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using hodyn::test::rel_err;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;

using namespace hodyn::test::ball_trees;  // BallTree, EulerTree, make_models, random_state, nu,
                                          // euler_pair

/// The world-frame 6 × 6 inertias of the bodies at the kinematics' poses.
template <class Tree, int MO>
Mat6 world_inertia(const hodyn::Model<Tree, double>& model,
                   const hodyn::KinematicsData<Tree, MO, double>& k, int j) {
  return model.body_inertia(j).transformed(k.body_pose[static_cast<std::size_t>(j)]).matrix();
}

TEST(SphericalJointMassMatrix, ColumnsAreInverseDynamicsAndEnergyIsKinetic) {
  double worst_columns = 0, worst_energy = 0;
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    const Models m = make_models(seed);
    BallMotion<0> motion;
    random_state(seed + 100u, motion);
    auto eom = std::make_unique<hodyn::EquationsOfMotionData<BallTree, double>>();
    ASSERT_EQ(hodyn::mass_matrix(m.ball, *eom, motion), Status::kOk);
    const Mat14 mm = eom->result.mass_matrix;
    EXPECT_LE(rel_err(mm, Mat14(mm.transpose())), 0.0) << "M̄ is filled symmetrically";
    // (a) columns: inverse dynamics is affine in ν̇ with slope M̄.
    const Vec14 bias = generalized_force(m.ball, motion, Vec14::Zero());
    Mat14 columns;
    for (int l = 0; l < 14; ++l)
      columns.col(l) = generalized_force(m.ball, motion, Vec14::Unit(l)) - bias;
    const double ec = rel_err(mm, columns);
    EXPECT_LE(ec, 1e-12) << "seed " << seed;
    // And for one random ν̇: M̄ ν̇ + bias = τ̄.
    const Vec14 nu_dot = nu(motion, 1);
    EXPECT_LE(rel_err(Vec14(mm * nu_dot + bias), generalized_force(m.ball, motion, nu_dot)), 1e-12);
    // (a) kinetic energy of the bodies' twists.
    auto kin = std::make_unique<hodyn::KinematicsData<BallTree, 0, double>>();
    ASSERT_EQ(hodyn::forward_kinematics(m.ball, *kin, motion, 0), Status::kOk);
    double energy = 0;
    for (int j = 0; j < 5; ++j) {
      const Vec6& v = kin->body_twist[static_cast<std::size_t>(j)][0];
      energy += 0.5 * v.dot(world_inertia(m.ball, *kin, j) * v);
    }
    const Vec14 n = nu(motion, 0);
    const double ee = std::abs(0.5 * n.dot(mm * n) - energy) / energy;
    EXPECT_LE(ee, 1e-13) << "seed " << seed;
    worst_columns = std::max(worst_columns, ec);
    worst_energy = std::max(worst_energy, ee);
  }
  std::cout << "ball M̄: columns vs inverse dynamics " << worst_columns
            << ", kinetic energy (relative) " << worst_energy << std::endl;
}

TEST(SphericalJointMassMatrix, EqualsThreeRevoluteJointsThroughMasslessLinks) {
  double worst = 0;
  for (unsigned seed : {11u, 12u, 13u}) {
    const Models m = make_models(seed);
    const EulerPair p = euler_pair(seed + 7u, 0.4 * seed - 5.0);
    auto eb = std::make_unique<hodyn::EquationsOfMotionData<BallTree, double>>();
    auto ee = std::make_unique<hodyn::EquationsOfMotionData<EulerTree, double>>();
    ASSERT_EQ(hodyn::mass_matrix(m.ball, *eb, p.ball), Status::kOk);
    ASSERT_EQ(hodyn::mass_matrix(m.euler, *ee, p.euler.base_pose, p.euler.q[0]), Status::kOk);
    const Mat14 mapped = p.b.transpose() * eb->result.mass_matrix * p.b;
    const double e = rel_err(mapped, ee->result.mass_matrix);
    EXPECT_LE(e, 1e-13) << "seed " << seed;
    worst = std::max(worst, e);
    // The MotionDerivatives overload of a 1-DoF tree is the positional call.
    auto ee2 = std::make_unique<hodyn::EquationsOfMotionData<EulerTree, double>>();
    ASSERT_EQ(hodyn::mass_matrix(m.euler, *ee2, p.euler), Status::kOk);
    EXPECT_EQ(ee2->result.mass_matrix, ee->result.mass_matrix);
  }
  std::cout << "ball M̄ vs three revolute joints: " << worst << std::endl;
}

TEST(SphericalJointMassMatrix, CenterOfMassAndCentroidalMomentumEqualThreeRevoluteJoints) {
  double worst = 0;
  for (unsigned seed : {21u, 22u}) {
    const Models m = make_models(seed);
    const EulerPair p = euler_pair(seed + 7u, 1.2);
    auto kb = std::make_unique<hodyn::KinematicsData<BallTree, 1, double>>();
    auto ke = std::make_unique<hodyn::KinematicsData<EulerTree, 1, double>>();
    ASSERT_EQ(hodyn::forward_kinematics(m.ball, *kb, p.ball, 0), Status::kOk);
    ASSERT_EQ(hodyn::forward_kinematics(m.euler, *ke, p.euler, 0), Status::kOk);
    auto cb = std::make_unique<hodyn::CenterOfMassData<BallTree, 1, double>>();
    auto ce = std::make_unique<hodyn::CenterOfMassData<EulerTree, 1, double>>();
    ASSERT_EQ(hodyn::center_of_mass(m.ball, *kb, *cb, 0), Status::kOk);
    ASSERT_EQ(hodyn::center_of_mass(m.euler, *ke, *ce, 0), Status::kOk);
    const double ej = rel_err(Eigen::Matrix<double, 3, 14>(cb->jacobian * p.b), ce->jacobian);
    EXPECT_LE(ej, 1e-13) << "J_com, seed " << seed;
    auto gb = std::make_unique<hodyn::CentroidalMomentumData<BallTree, double>>();
    auto ge = std::make_unique<hodyn::CentroidalMomentumData<EulerTree, double>>();
    ASSERT_EQ(hodyn::centroidal_momentum(m.ball, *kb, *gb), Status::kOk);
    ASSERT_EQ(hodyn::centroidal_momentum(m.euler, *ke, *ge), Status::kOk);
    const double ea = rel_err(Eigen::Matrix<double, 6, 14>(gb->matrix * p.b), ge->matrix);
    EXPECT_LE(ea, 1e-13) << "A_G, seed " << seed;
    worst = std::max({worst, ej, ea});
  }
  std::cout << "ball J_com and A_G vs three revolute joints: " << worst << std::endl;
}

TEST(SphericalJointMassMatrix, CenterOfMassAndCentroidalMomentumEqualSumsOverBodies) {
  double worst = 0;
  for (unsigned seed : {31u, 32u, 33u}) {
    const Models m = make_models(seed);
    BallMotion<1> motion;
    random_state(seed, motion);
    auto kin = std::make_unique<hodyn::KinematicsData<BallTree, 1, double>>();
    ASSERT_EQ(hodyn::forward_kinematics(m.ball, *kin, motion, 1), Status::kOk);
    auto com = std::make_unique<hodyn::CenterOfMassData<BallTree, 1, double>>();
    ASSERT_EQ(hodyn::center_of_mass(m.ball, *kin, *com, 1), Status::kOk);
    auto cen = std::make_unique<hodyn::CentroidalMomentumData<BallTree, double>>();
    ASSERT_EQ(hodyn::centroidal_momentum(m.ball, *kin, *cen), Status::kOk);
    // Sums over the bodies: c, ċ, c̈ of each body's centre of mass p (ṗ = ω × p + v,
    // p̈ = ω̇ × p + v̇ + ω × ṗ), and h_O = Σ M_j V_j, ḣ_O = Σ M_j V̇_j − ad_{V_j}ᵀ M_j V_j.
    double mass = 0;
    Vec3 c = Vec3::Zero(), c_dot = Vec3::Zero(), c_ddot = Vec3::Zero();
    Vec6 h = Vec6::Zero(), h_dot = Vec6::Zero();
    for (int j = 0; j < 5; ++j) {
      const auto J = static_cast<std::size_t>(j);
      const double mj = m.ball.body_inertia(j).mass;
      const Vec3 pj =
          kin->body_pose[J].rotation * m.ball.body_inertia(j).com() + kin->body_pose[J].translation;
      const Vec6& v = kin->body_twist[J][0];
      const Vec6& a = kin->body_twist[J][1];
      const Vec3 w = v.head<3>(), wd = a.head<3>();
      const Vec3 pd = w.cross(pj) + v.tail<3>();
      const Vec3 pdd = wd.cross(pj) + a.tail<3>() + w.cross(pd);
      mass += mj;
      c += mj * pj;
      c_dot += mj * pd;
      c_ddot += mj * pdd;
      const Mat6 mw = world_inertia(m.ball, *kin, j);
      const Vec6 momentum = mw * v;
      h += momentum;
      // ad_Vᵀ (n; f) = (−ω × n − v × f; −ω × f)
      Vec6 ad_t;
      ad_t << -w.cross(momentum.head<3>()) - v.tail<3>().cross(momentum.tail<3>()),
          -w.cross(momentum.tail<3>());
      h_dot += mw * a - ad_t;
    }
    c /= mass;
    c_dot /= mass;
    c_ddot /= mass;
    const Vec14 n = nu(motion, 0), nd = nu(motion, 1);
    const double e0 = rel_err(com->position[0], c);
    const double e1 = rel_err(Vec3(com->jacobian * n), c_dot);
    const double e2 = rel_err(Vec3(com->jacobian_derivative * n + com->jacobian * nd), c_ddot);
    EXPECT_LE(e0, 1e-14) << "c, seed " << seed;
    EXPECT_LE(e1, 1e-13) << "J_com nu, seed " << seed;
    EXPECT_LE(e2, 1e-13) << "J_com' nu + J_com nu', seed " << seed;
    // Moved to c: h_G = (n − c × f; f), ḣ_G = (ṅ − c × ḟ − ċ × f; ḟ).
    Vec6 hg, hg_dot;
    hg << h.head<3>() - c.cross(h.tail<3>()), h.tail<3>();
    hg_dot << h_dot.head<3>() - c.cross(h_dot.tail<3>()) - c_dot.cross(h.tail<3>()),
        h_dot.tail<3>();
    const double e3 = rel_err(Vec6(cen->matrix * n), hg);
    const double e4 = rel_err(Vec6(cen->matrix_derivative * n + cen->matrix * nd), hg_dot);
    EXPECT_LE(e3, 1e-13) << "A_G nu, seed " << seed;
    EXPECT_LE(e4, 1e-13) << "A_G' nu + A_G nu', seed " << seed;
    worst = std::max({worst, e0, e1, e2, e3, e4});
  }
  std::cout << "ball CoM and centroidal momentum vs sums over bodies: " << worst << std::endl;
}

TEST(SphericalJointMassMatrix, ExponentialCoordinatesAndBadRotations) {
  const Models m = make_models(41u);
  BallMotion<0> a;
  random_state(42u, a);
  // (R_j, δ) and (R_j exp([δ]), 0) are the same configuration.
  BallMotion<0> b = a;
  for (int ball = 0; ball < 2; ++ball) {
    const Vec3 d = a.q[0].segment<3>(1 + 4 * ball);
    b.joint_rotation[static_cast<std::size_t>(ball)] =
        a.joint_rotation[static_cast<std::size_t>(ball)] *
        Eigen::AngleAxisd(d.norm(), d.normalized()).toRotationMatrix();
    b.q[0].segment<3>(1 + 4 * ball).setZero();
  }
  auto da = std::make_unique<hodyn::EquationsOfMotionData<BallTree, double>>();
  auto db = std::make_unique<hodyn::EquationsOfMotionData<BallTree, double>>();
  ASSERT_EQ(hodyn::mass_matrix(m.ball, *da, a), Status::kOk);
  ASSERT_EQ(hodyn::mass_matrix(m.ball, *db, b), Status::kOk);
  EXPECT_LE(rel_err(da->result.mass_matrix, db->result.mass_matrix), 1e-14);
  // Not a rotation, or not finite: a status and a zero M̄.
  b.joint_rotation[1](0, 1) += 1e-3;
  EXPECT_EQ(hodyn::mass_matrix(m.ball, *db, b), Status::kNonOrthonormalRotation);
  EXPECT_TRUE(db->result.mass_matrix.isZero(0.0));
  ASSERT_EQ(hodyn::mass_matrix(m.ball, *db, a), Status::kOk);
  b.joint_rotation[1] = a.joint_rotation[1];
  b.joint_rotation[0](2, 2) = std::nan("");
  EXPECT_EQ(hodyn::mass_matrix(m.ball, *db, b), Status::kNonFiniteInput);
  EXPECT_TRUE(db->result.mass_matrix.isZero(0.0));
  b.joint_rotation[0] = -a.joint_rotation[0];  // orthonormal, det −1
  EXPECT_EQ(hodyn::mass_matrix(m.ball, *db, b), Status::kNonOrthonormalRotation);
  EXPECT_TRUE(db->result.mass_matrix.isZero(0.0));
  // The kinematics refuse such a rotation, and CoM and centroidal momentum
  // then refuse the kinematics (order −1) with zero outputs.
  auto kin = std::make_unique<hodyn::KinematicsData<BallTree, 0, double>>();
  EXPECT_NE(hodyn::forward_kinematics(m.ball, *kin, b, 0), Status::kOk);
  auto com = std::make_unique<hodyn::CenterOfMassData<BallTree, 0, double>>();
  EXPECT_EQ(hodyn::center_of_mass(m.ball, *kin, *com, 0), Status::kOrderOutOfRange);
  EXPECT_TRUE(com->jacobian.isZero(0.0));
  auto cen = std::make_unique<hodyn::CentroidalMomentumData<BallTree, double>>();
  EXPECT_EQ(hodyn::centroidal_momentum(m.ball, *kin, *cen), Status::kOrderOutOfRange);
  EXPECT_TRUE(cen->matrix.isZero(0.0));
}

}  // namespace
