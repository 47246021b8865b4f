// Universal joints (issue 19 slice 6) in inverse_mass_matrix (both overloads)
// and mass_matrix_times.
//
// Oracles, none of them the IMMA under test (the trees of
// support/universal_trees.hpp: a floating tree with a universal joint under a
// revolute one and a universal joint with a universal child; a fixed-base
// chain universal – universal – revolute):
// (a) M̄ of mass_matrix (the composite-rigid-body algorithm, another recursion,
//     checked against the dummy-link twin in test_universal_joint_closed_forms):
//     M̄⁻¹ M̄ = M̄ M̄⁻¹ = I, and M̄⁻¹ equal to Eigen's LDLᵀ inverse of M̄;
// (b) the twin's M̄⁻¹ (each universal joint as revolute(e₁), a massless body,
//     revolute(e₂): the 1-DoF passes, same ν layout);
// (c) forward dynamics with velocities and gravity zero: ν̇ = M̄⁻¹ τ̄;
// (d) mass_matrix_times after forward dynamics: M̄ x of the CRBA at random x;
// (e) NaN input gives its status and zero outputs; no heap allocation.
#include <hodyn/hodyn.hpp>
#include <hodyn/inverse_mass_matrix.hpp>
#include <hodyn/mass_matrix_times.hpp>

#include "support/error_metrics.hpp"
#include "support/heap_counter.hpp"
#include "support/inverse_mass_matrix_checks.hpp"
#include "support/universal_trees.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <random>

namespace {

using namespace hodyn::test::universal_trees;  // UniTree, UniTwin, make_pair, random_states, …
using hodyn::TreeTraits;
using hodyn::test::max_abs;

template <class Tree>
using Configuration = hodyn::MotionDerivatives<Tree, 0, double>;

/// f(seed, c, ct) for `states` random configurations of the tree and its
/// twin (random_states), seeds first_seed, first_seed + 1, …
template <class Tree, class Twin, class F>
void for_each_state(unsigned first_seed, int states, const F& f) {
  for (unsigned seed = first_seed; seed < first_seed + static_cast<unsigned>(states); ++seed) {
    Configuration<Tree> c;
    Configuration<Twin> ct;
    random_states(seed, c, ct);
    f(seed, c, ct);
  }
}

struct Errors {
  hodyn::test::InverseErrors crba{};  ///< against the CRBA's M̄ and its LDLᵀ inverse
  double vs_twin = 0;                 ///< max |M̄⁻¹ − the twin's| / max |the twin's|
};

template <class Tree, class Twin>
Errors worst_errors(const Pair<Tree, Twin>& p, unsigned first_seed, int states) {
  auto data = std::make_unique<hodyn::InverseMassMatrixData<Tree, double>>();
  auto data2 = std::make_unique<hodyn::InverseMassMatrixData<Tree, double>>();
  auto twin = std::make_unique<hodyn::InverseMassMatrixData<Twin, double>>();
  Errors worst;
  for_each_state<Tree, Twin>(
      first_seed, states,
      [&](unsigned seed, const Configuration<Tree>& c, const Configuration<Twin>& ct) {
        EXPECT_EQ(hodyn::inverse_mass_matrix(p.uni, *data, c), Status::kOk) << seed;
        EXPECT_EQ(hodyn::inverse_mass_matrix(p.uni, *data2, c.base_pose, c.q[0]), Status::kOk);
        EXPECT_EQ(hodyn::inverse_mass_matrix(p.twin, *twin, ct), Status::kOk) << seed;
        const Eigen::MatrixXd minv = data->result;
        const auto e = hodyn::test::inverse_errors(minv, hodyn::test::crba_mass_matrix(p.uni, c));
        const Eigen::MatrixXd twin_minv = twin->result;
        const double t = max_abs(minv - twin_minv) / max_abs(twin_minv);
        EXPECT_LE(e.identity, 1e-12) << "seed " << seed;
        EXPECT_LE(e.vs_ldlt, 1e-12) << "seed " << seed;
        EXPECT_LE(t, 1e-12) << "seed " << seed;
        EXPECT_EQ(max_abs(minv - Eigen::MatrixXd(data2->result)), 0.0) << "seed " << seed;
        EXPECT_EQ(max_abs(minv - minv.transpose()), 0.0) << seed;
        worst.crba = hodyn::test::worst_of(worst.crba, e);
        worst.vs_twin = std::max(worst.vs_twin, t);
      });
  return worst;
}

void report(const char* name, const Errors& e) {
  std::cout << name << ": max |Minv M - I| " << e.crba.identity
            << " (LDLT inverse: " << e.crba.ldlt_identity
            << "), max |Minv - LDLT^-1| / max |LDLT^-1| " << e.crba.vs_ldlt
            << ", max |Minv - twin's| / max |twin's| " << e.vs_twin << std::endl;
}

Errors combine(const Errors& a, const Errors& b) {
  return {hodyn::test::worst_of(a.crba, b.crba), std::max(a.vs_twin, b.vs_twin)};
}

TEST(UniversalJointInverseMassMatrix, FloatingTreeAgainstTheCrbaAndTheTwin) {
  Errors worst;
  for (unsigned m = 0; m < 3; ++m)
    worst = combine(worst, worst_errors(floating_pair(10u + m), 100u * m, 20));
  report("UniTree (floating, 6 + 8), 3 models x 20 configurations", worst);
}

TEST(UniversalJointInverseMassMatrix, FixedTreeAgainstTheCrbaAndTheTwin) {
  Errors worst;
  for (unsigned m = 0; m < 3; ++m)
    worst = combine(worst, worst_errors(fixed_pair(20u + m), 100u * m + 7u, 20));
  report("UniFixed (fixed base, 5), 3 models x 20 configurations", worst);
}

// Forward dynamics with velocities and gravity zero: ν̇ = M̄⁻¹ τ̄.
template <class Tree, class Twin>
double worst_forward_dynamics_error(Pair<Tree, Twin> p, unsigned first_seed, int states) {
  constexpr int n = TreeTraits<Tree>::kNumDofs;
  EXPECT_EQ(p.uni.set_gravity(Vec3::Zero()), Status::kOk);
  std::mt19937 gen(first_seed);
  std::normal_distribution<double> g(0.0, 1.0);
  double worst = 0;
  for_each_state<Tree, Twin>(
      first_seed, states, [&](unsigned, const Configuration<Tree>& c, const Configuration<Twin>&) {
        Eigen::Matrix<double, n, 1> tau;
        for (int i = 0; i < n; ++i) tau(i) = g(gen);
        worst = std::max(worst, hodyn::test::forward_dynamics_error(p.uni, c, tau));
      });
  return worst;
}

/// Asserts ≤ 1e-12 and prints the two trees' worst errors.
void expect_and_report(const char* what, double floating, double fixed) {
  EXPECT_LE(floating, 1e-12);
  EXPECT_LE(fixed, 1e-12);
  std::cout << what << ": floating " << floating << ", fixed " << fixed << std::endl;
}

TEST(UniversalJointInverseMassMatrix, SolvesForwardDynamics) {
  expect_and_report("max |FD nu_dot - Minv tau| / max |Minv tau|",
                    worst_forward_dynamics_error(floating_pair(31u), 40u, 20),
                    worst_forward_dynamics_error(fixed_pair(32u), 60u, 20));
}

// mass_matrix_times at the state of a forward-dynamics call: M̄ x of the CRBA.
template <class Tree, class Twin>
double worst_mass_matrix_times_error(const Pair<Tree, Twin>& p, unsigned first_seed, int states) {
  constexpr int n = TreeTraits<Tree>::kNumDofs;
  constexpr int nj = TreeTraits<Tree>::kNumJointDofs;
  constexpr int base = TreeTraits<Tree>::kBaseDofs;
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<Tree, 1, double>>();
  auto in = std::make_unique<hodyn::ForwardDynamicsInput<Tree, 1, double>>();
  std::mt19937 gen(first_seed);
  std::normal_distribution<double> g(0.0, 1.0);
  double worst = 0;
  for_each_state<Tree, Twin>(
      first_seed, states, [&](unsigned, const Configuration<Tree>& c, const Configuration<Twin>&) {
        in->base_pose = c.base_pose;
        in->q = c.q[0];
        for (int i = 0; i < nj; ++i) in->q_dot(i) = g(gen);  // velocities do not enter M̄ x
        if constexpr (base > 0)
          for (int i = 0; i < 6; ++i) in->base_twist(i) = g(gen);
        EXPECT_EQ(hodyn::forward_dynamics(p.uni, *fd, *in, 1), Status::kOk);
        Eigen::Matrix<double, n, 1> x;
        for (int i = 0; i < n; ++i) x(i) = g(gen);
        hodyn::Twist<double> xb = hodyn::Twist<double>::Zero();
        if constexpr (base > 0) xb = x.template head<6>();
        const typename hodyn::Model<Tree, double>::JointVector xj = x.template tail<nj>();
        hodyn::Wrench<double> w;
        typename hodyn::Model<Tree, double>::JointVector tau;
        EXPECT_EQ(hodyn::mass_matrix_times(p.uni, *fd, xb, xj, w, tau), Status::kOk);
        const Eigen::Matrix<double, n, 1> expected = hodyn::test::crba_mass_matrix(p.uni, c) * x;
        // the base rows: Q₁ in the world; mass_matrix_times gives Ad_C₁ᵀ Q₁ (base frame)
        Eigen::Matrix<double, n, 1> got;
        if constexpr (base > 0) {
          const Eigen::Matrix<double, 6, 1> world = expected.template head<6>();
          const Mat3 r = c.base_pose.rotation;
          const Vec3 t = c.base_pose.translation;
          Eigen::Matrix<double, 6, 1> body;  // Ad_C₁ᵀ (n; f) = (Rᵀ (n − t × f); Rᵀ f)
          body.head<3>() = r.transpose() * (world.head<3>() - t.cross(world.tail<3>()));
          body.tail<3>() = r.transpose() * world.tail<3>();
          got.template head<6>() = w;
          const Eigen::Matrix<double, 6, 1> diff = got.template head<6>() - body;
          worst = std::max(worst, diff.cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff());
        }
        got.template tail<nj>() = tau;
        worst = std::max(
            worst, (got.template tail<nj>() - expected.template tail<nj>()).cwiseAbs().maxCoeff() /
                       expected.cwiseAbs().maxCoeff());
      });
  return worst;
}

TEST(UniversalJointInverseMassMatrix, MassMatrixTimesIsTheCrbaTimesX) {
  expect_and_report("mass_matrix_times vs CRBA M x, max |diff| / max |M x|",
                    worst_mass_matrix_times_error(floating_pair(41u), 70u, 20),
                    worst_mass_matrix_times_error(fixed_pair(42u), 90u, 20));
}

TEST(UniversalJointInverseMassMatrix, NanInputGivesAStatusAndZeroOutputs) {
  const auto p = floating_pair(51u);
  auto d = std::make_unique<hodyn::InverseMassMatrixData<UniTree>>();
  Configuration<UniTree> good;
  Configuration<UniTwin> ct;
  random_states(3u, good, ct);
  for (int entry : {2, 3}) {  // θ₁, θ₂ of the first universal joint
    ASSERT_EQ(hodyn::inverse_mass_matrix(p.uni, *d, good), Status::kOk);
    ASSERT_FALSE(d->result.isZero(0.0));
    Configuration<UniTree> c = good;
    c.q[0](entry) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(hodyn::inverse_mass_matrix(p.uni, *d, c), Status::kNonFiniteInput) << entry;
    EXPECT_TRUE(d->result.isZero(0.0)) << entry;
  }
  // mass_matrix_times: a NaN acceleration
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<UniTree, 0, double>>();
  auto in = std::make_unique<hodyn::ForwardDynamicsInput<UniTree, 0, double>>();
  in->base_pose = good.base_pose;
  in->q = good.q[0];
  ASSERT_EQ(hodyn::forward_dynamics(p.uni, *fd, *in, 0), Status::kOk);
  hodyn::Model<UniTree, double>::JointVector x = hodyn::Model<UniTree, double>::JointVector::Ones();
  x(3) = std::numeric_limits<double>::quiet_NaN();
  hodyn::Wrench<double> w = hodyn::Wrench<double>::Ones();
  hodyn::Model<UniTree, double>::JointVector tau = x;
  EXPECT_EQ(hodyn::mass_matrix_times(p.uni, *fd, hodyn::Twist<double>(hodyn::Twist<double>::Zero()),
                                     x, w, tau),
            Status::kNonFiniteInput);
  EXPECT_TRUE(w.isZero(0.0));
  EXPECT_TRUE(tau.isZero(0.0));
}

TEST(UniversalJointInverseMassMatrix, IsHeapFree) {
  const auto fp = floating_pair(61u);
  const auto xp = fixed_pair(62u);
  auto d1 = std::make_unique<hodyn::InverseMassMatrixData<UniTree>>();
  auto d2 = std::make_unique<hodyn::InverseMassMatrixData<UniFixed>>();
  auto c1 = std::make_unique<Configuration<UniTree>>();
  auto t1 = std::make_unique<Configuration<UniTwin>>();
  auto c2 = std::make_unique<Configuration<UniFixed>>();
  auto t2 = std::make_unique<Configuration<UniFixedTwin>>();
  random_states(1u, *c1, *t1);
  random_states(2u, *c2, *t2);
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<UniTree, 0, double>>();
  auto in = std::make_unique<hodyn::ForwardDynamicsInput<UniTree, 0, double>>();
  in->base_pose = c1->base_pose;
  in->q = c1->q[0];
  ASSERT_EQ(hodyn::forward_dynamics(fp.uni, *fd, *in, 0), Status::kOk);
  const hodyn::Model<UniTree, double>::JointVector x =
      hodyn::Model<UniTree, double>::JointVector::Ones();
  hodyn::Wrench<double> w;
  hodyn::Model<UniTree, double>::JointVector tau;
  hodyn::test::HeapProbe probe;
  const Status s1 = hodyn::inverse_mass_matrix(fp.uni, *d1, *c1);
  const Status s2 = hodyn::inverse_mass_matrix(xp.uni, *d2, *c2);
  const Status s3 = hodyn::mass_matrix_times(
      fp.uni, *fd, hodyn::Twist<double>(hodyn::Twist<double>::Ones()), x, w, tau);
  EXPECT_EQ(probe.count(), 0);
  EXPECT_EQ(s1, Status::kOk);
  EXPECT_EQ(s2, Status::kOk);
  EXPECT_EQ(s3, Status::kOk);
}

}  // namespace
