// inverse_mass_matrix of trees with ball (spherical) joints (issue 19,
// docs/joint-kinds.md "4. The slices", 2): the overload on a MotionDerivatives
// (base_pose, q[0], joint_rotation), a ball's rows and columns those of its
// child-frame ω as in mass_matrix's M̄.
//
// Oracles, none of them the IMMA under test:
// (a) M̄ from mass_matrix (the composite-rigid-body algorithm, another
//     recursion; checked in test_spherical_joint_mass_matrix against inverse
//     dynamics and three revolute joints): M̄⁻¹ M̄ = M̄ M̄⁻¹ = I and M̄⁻¹ equal
//     to Eigen's LDLᵀ inverse of M̄, on random configurations (random R_j,
//     δ ≠ 0, random base pose) of TwoBallTree (balls with revolute joints,
//     one ball with a child) and of a tree mixing balls with helical,
//     prismatic, general and axis-aligned revolute joints of negative sense
//     in a non-depth-first body order (a ball under a ball), floating and
//     fixed base;
// (b) forward dynamics (the articulated pass's solve, with velocities and
//     gravity zero): ν̇ = M̄⁻¹ τ̄ for random τ̄;
// (c) float agrees with double; bad input (a joint_rotation off orthonormal,
//     det −1, NaN; NaN in q; a bad base pose) gives its status and a zero
//     result; no heap allocation.
#include <hodyn/hodyn.hpp>
#include <hodyn/inverse_mass_matrix.hpp>

#include "support/ball_trees.hpp"
#include "support/heap_counter.hpp"
#include "support/inverse_mass_matrix_checks.hpp"
#include "support/oracle_models.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <random>

namespace {

using hodyn::JointKind;
using hodyn::Pose;
using hodyn::Status;
using hodyn::TreeTraits;
using hodyn::test::max_abs;
using hodyn::test::oracle::two_ball_model;
using hodyn::test::oracle::TwoBallTree;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

using hodyn::test::ball_trees::mixed_model;  // MixedTreeOf, mixed_model: support/ball_trees.hpp
using hodyn::test::ball_trees::MixedTreeOf;
using MixedTree = MixedTreeOf<JointKind::kFloatingBase>;
using MixedFixedTree = MixedTreeOf<JointKind::kFixedBase>;
static_assert(TreeTraits<MixedTree>::kNumDofs == 19);
static_assert(TreeTraits<MixedFixedTree>::kNumDofs == 13);
static_assert(TreeTraits<TwoBallTree>::kNumDofs == 14);

Mat3 random_rotation(std::mt19937& gen) {
  std::normal_distribution<double> g(0.0, 1.0);
  return Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
}

template <class Tree, class S = double>
using Configuration = hodyn::MotionDerivatives<Tree, 0, S>;

/// A random configuration: base pose, every entry of q[0] (δ ≠ 0 for the
/// balls) and R_j of random axis; every other ball nearly turned by π.
template <class Tree>
Configuration<Tree> random_configuration(unsigned seed) {
  std::mt19937 gen(seed * 7919u + 3u);
  std::normal_distribution<double> g(0.0, 1.0);
  Configuration<Tree> c;
  c.base_pose.rotation = random_rotation(gen);
  c.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (int i = 0; i < TreeTraits<Tree>::kNumJointDofs; ++i) c.q[0](i) = 0.5 * g(gen);
  for (std::size_t b = 0; b < c.joint_rotation.size(); ++b)
    c.joint_rotation[b] =
        b % 2 == 1 ? Mat3(Eigen::AngleAxisd(M_PI - 1e-3, Vec3(g(gen), g(gen), g(gen)).normalized()))
                   : random_rotation(gen);
  return c;
}

using Errors = hodyn::test::InverseErrors;

template <class Tree>
Errors worst_errors(const hodyn::Model<Tree, double>& model, unsigned first_seed, int states) {
  auto data = std::make_unique<hodyn::InverseMassMatrixData<Tree, double>>();
  Errors worst;
  for (unsigned seed = first_seed; seed < first_seed + static_cast<unsigned>(states); ++seed) {
    const Configuration<Tree> c = random_configuration<Tree>(seed);
    EXPECT_EQ(hodyn::inverse_mass_matrix(model, *data, c), Status::kOk) << seed;
    const Eigen::MatrixXd minv = data->result;
    const Errors e = hodyn::test::inverse_errors(minv, hodyn::test::crba_mass_matrix(model, c));
    EXPECT_LE(e.identity, 1e-12) << "seed " << seed;
    EXPECT_LE(e.vs_ldlt, 1e-12) << "seed " << seed;
    EXPECT_EQ(max_abs(minv - minv.transpose()), 0.0) << seed;
    worst = hodyn::test::worst_of(worst, e);
  }
  return worst;
}

void report(const char* name, const Errors& e) {
  std::cout << name << ": max |Minv M - I| " << e.identity << " (LDLT inverse: " << e.ldlt_identity
            << "), max |Minv - LDLT^-1| / max |LDLT^-1| " << e.vs_ldlt << std::endl;
}

TEST(SphericalJointInverseMassMatrix, TwoBallTreeTimesTheMassMatrixIsTheIdentity) {
  Errors worst;
  for (unsigned m = 0; m < 5; ++m) {
    const Errors e = worst_errors(two_ball_model(100u + m), 1000u * m, 20);
    worst = hodyn::test::worst_of(worst, e);
  }
  report("TwoBallTree, 5 models x 20 configurations", worst);
}

TEST(SphericalJointInverseMassMatrix, MixedTreeTimesTheMassMatrixIsTheIdentity) {
  Errors worst;
  for (unsigned m = 0; m < 5; ++m) {
    const Errors e = worst_errors(mixed_model<MixedTree>(200u + m), 1000u * m + 7u, 20);
    worst = hodyn::test::worst_of(worst, e);
  }
  report("MixedTree (floating), 5 models x 20 configurations", worst);
}

TEST(SphericalJointInverseMassMatrix, FixedBaseMixedTreeTimesTheMassMatrixIsTheIdentity) {
  Errors worst;
  for (unsigned m = 0; m < 5; ++m) {
    const Errors e = worst_errors(mixed_model<MixedFixedTree>(300u + m), 1000u * m + 11u, 20);
    worst = hodyn::test::worst_of(worst, e);
  }
  report("MixedTree (fixed base), 5 models x 20 configurations", worst);
}

// The fixed tree's M̄⁻¹ ignores the base pose (a fixed root has none).
TEST(SphericalJointInverseMassMatrix, FixedBaseIgnoresTheBasePose) {
  const auto model = mixed_model<MixedFixedTree>(31u);
  auto a = std::make_unique<hodyn::InverseMassMatrixData<MixedFixedTree>>();
  auto b = std::make_unique<hodyn::InverseMassMatrixData<MixedFixedTree>>();
  Configuration<MixedFixedTree> c = random_configuration<MixedFixedTree>(5u);
  ASSERT_EQ(hodyn::inverse_mass_matrix(model, *a, c), Status::kOk);
  c.base_pose.translation = Vec3(3, -2, 1);
  c.base_pose.rotation = Mat3(Eigen::AngleAxisd(1.0, Vec3::UnitY()));
  ASSERT_EQ(hodyn::inverse_mass_matrix(model, *b, c), Status::kOk);
  EXPECT_EQ(max_abs(a->result - b->result), 0.0);
}

// Forward dynamics with velocities and gravity zero: ν̇ = M̄⁻¹ τ̄.
template <class Tree>
double worst_forward_dynamics_error(const hodyn::Model<Tree, double>& model_with_gravity,
                                    unsigned first_seed, int states) {
  constexpr int n = TreeTraits<Tree>::kNumDofs;
  hodyn::Model<Tree, double> model = model_with_gravity;
  EXPECT_EQ(model.set_gravity(Vec3::Zero()), Status::kOk);
  std::mt19937 gen(first_seed);
  std::normal_distribution<double> g(0.0, 1.0);
  double worst = 0;
  for (unsigned seed = first_seed; seed < first_seed + static_cast<unsigned>(states); ++seed) {
    const Configuration<Tree> c = random_configuration<Tree>(seed);
    Eigen::Matrix<double, n, 1> tau;
    for (int i = 0; i < n; ++i) tau(i) = g(gen);
    worst = std::max(worst, hodyn::test::forward_dynamics_error(model, c, tau));
  }
  return worst;
}

TEST(SphericalJointInverseMassMatrix, SolvesForwardDynamics) {
  const double two_ball = worst_forward_dynamics_error(two_ball_model(7u), 40u, 20);
  const double mixed = worst_forward_dynamics_error(mixed_model<MixedTree>(8u), 60u, 20);
  const double fixed = worst_forward_dynamics_error(mixed_model<MixedFixedTree>(9u), 80u, 20);
  EXPECT_LE(two_ball, 1e-12);
  EXPECT_LE(mixed, 1e-12);
  EXPECT_LE(fixed, 1e-12);
  std::cout << "max |FD nu_dot - Minv tau| / max |Minv tau|: TwoBallTree " << two_ball
            << ", MixedTree " << mixed << ", fixed " << fixed << std::endl;
}

TEST(SphericalJointInverseMassMatrix, FloatAgreesWithDouble) {
  const auto model = mixed_model<MixedTree>(12u);
  const hodyn::Model<MixedTree, float> model_f = model.cast<float>();
  auto d = std::make_unique<hodyn::InverseMassMatrixData<MixedTree, double>>();
  auto f = std::make_unique<hodyn::InverseMassMatrixData<MixedTree, float>>();
  double worst = 0;
  for (unsigned seed = 0; seed < 10; ++seed) {
    const Configuration<MixedTree> c = random_configuration<MixedTree>(seed);
    Configuration<MixedTree, float> cf;
    // a rotation rounded to float is orthonormal to float precision
    cf.base_pose.rotation = c.base_pose.rotation.cast<float>();
    cf.base_pose.translation = c.base_pose.translation.cast<float>();
    cf.q[0] = c.q[0].cast<float>();
    for (std::size_t b = 0; b < c.joint_rotation.size(); ++b)
      cf.joint_rotation[b] = c.joint_rotation[b].cast<float>();
    ASSERT_EQ(hodyn::inverse_mass_matrix(model, *d, c), Status::kOk);
    ASSERT_EQ(hodyn::inverse_mass_matrix(model_f, *f, cf), Status::kOk);
    worst = std::max(worst, max_abs(f->result.cast<double>() - d->result) / max_abs(d->result));
  }
  EXPECT_LE(worst, 1e-3);
  std::cout << "float vs double, max |diff| / max |Minv|: " << worst << std::endl;
}

TEST(SphericalJointInverseMassMatrix, BadInputGivesItsStatusAndAZeroResult) {
  const auto model = two_ball_model(21u);
  auto d = std::make_unique<hodyn::InverseMassMatrixData<TwoBallTree>>();
  const Configuration<TwoBallTree> good = random_configuration<TwoBallTree>(3u);
  const auto expect = [&](const Configuration<TwoBallTree>& c, Status status, const char* what) {
    ASSERT_EQ(hodyn::inverse_mass_matrix(model, *d, good), Status::kOk);
    ASSERT_FALSE(d->result.isZero(0.0));
    EXPECT_EQ(hodyn::inverse_mass_matrix(model, *d, c), status) << what;
    EXPECT_TRUE(d->result.isZero(0.0)) << what;
  };
  Configuration<TwoBallTree> c = good;
  c.joint_rotation[1] *= 1.001;  // off orthonormal by 1e-3
  expect(c, Status::kNonOrthonormalRotation, "scaled rotation");
  c = good;
  c.joint_rotation[0].col(2) *= -1.0;  // det −1
  expect(c, Status::kNonOrthonormalRotation, "reflection");
  c = good;
  c.joint_rotation[0](1, 2) = std::numeric_limits<double>::quiet_NaN();
  expect(c, Status::kNonFiniteInput, "NaN in a joint rotation");
  c = good;
  c.q[0](4) = std::numeric_limits<double>::quiet_NaN();  // a ball's δ
  expect(c, Status::kNonFiniteInput, "NaN in q");
  c = good;
  c.base_pose.rotation *= 1.01;
  expect(c, Status::kNonOrthonormalRotation, "bad base pose");
  c = good;
  c.base_pose.translation(0) = std::numeric_limits<double>::infinity();
  expect(c, Status::kNonFiniteInput, "infinite base position");
}

TEST(SphericalJointInverseMassMatrix, IsHeapFree) {
  const auto two_ball = two_ball_model(5u);
  const auto mixed = mixed_model<MixedTree>(6u);
  const auto fixed = mixed_model<MixedFixedTree>(7u);
  auto d1 = std::make_unique<hodyn::InverseMassMatrixData<TwoBallTree>>();
  auto d2 = std::make_unique<hodyn::InverseMassMatrixData<MixedTree>>();
  auto d3 = std::make_unique<hodyn::InverseMassMatrixData<MixedFixedTree>>();
  const auto c1 =
      std::make_unique<Configuration<TwoBallTree>>(random_configuration<TwoBallTree>(1u));
  const auto c2 = std::make_unique<Configuration<MixedTree>>(random_configuration<MixedTree>(2u));
  const auto c3 =
      std::make_unique<Configuration<MixedFixedTree>>(random_configuration<MixedFixedTree>(3u));
  hodyn::test::HeapProbe probe;
  const Status s1 = hodyn::inverse_mass_matrix(two_ball, *d1, *c1);
  const Status s2 = hodyn::inverse_mass_matrix(mixed, *d2, *c2);
  const Status s3 = hodyn::inverse_mass_matrix(fixed, *d3, *c3);
  EXPECT_EQ(probe.count(), 0);
  EXPECT_EQ(s1, Status::kOk);
  EXPECT_EQ(s2, Status::kOk);
  EXPECT_EQ(s3, Status::kOk);
}

}  // namespace
