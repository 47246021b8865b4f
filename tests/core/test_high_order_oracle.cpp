// Orders 6..10 of inverse and forward dynamics against the Taylor oracle (the
// other oracle suites stop at order 5; hodyn-eval and the benchmarks go to 10).
//
// The dense reference inverse dynamics (support/reference_dynamics.hpp) runs in
// Taylor<long double, 12> arithmetic along a stress-test motion of the aerial
// manipulator (every derivative V1^(0..11), q^(0..12) drawn from N(0, 1)); its
// coefficient k times k! is the exact k-th derivative of Q1 and τ for
// k ≤ 10. The core runs in double at MaxOrder 10:
//   - inverse dynamics of order 10 against the reference, order by order;
//   - forward dynamics of order 10 fed with the reference's Q1^(0..10),
//     τ^(0..10): its ν^(k+1) = (V1^(k+1); q^(k+2)) against the motion (forward
//     error), and the inverse dynamics of its result against the inputs
//     (backward error).
// Inverse dynamics stays within 4e-14 (relative) at order 10. Forward
// dynamics is backward stable (the inverse dynamics of its result reproduces
// the inputs within 1e-13), but its forward error grows about tenfold per
// order, to ~2e-3 at order 10: each order's solve reads the ν of all lower
// orders, weighted by binomials and by derivatives of M̄, h and g that grow
// like Bell numbers on a motion whose derivatives are all O(1) — conditioning
// of the problem, not a loss in the algorithm. The bounds are the measured
// worst errors of the seeds below times ~10; the test prints them.
#include <hodyn/hodyn.hpp>

#include "support/long_double.hpp"
#include "support/oracle_models.hpp"
#include "support/reference_dynamics.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <vector>

namespace {

using namespace hodyn::test::oracle;
constexpr int kHigh = 10;
using S12 = Taylor<long double, kHigh + 2>;
using Tree = AMTree;
constexpr int kJoints = Tree::kNumBodies - 1;

State<long double> stress_state(unsigned seed) {
  std::mt19937 gen(seed * 104729u + 3u);
  std::normal_distribution<double> g(0.0, 1.0);
  State<long double> s;
  Eigen::Quaternion<long double> qt((long double)g(gen), (long double)g(gen), (long double)g(gen),
                                    (long double)g(gen));
  qt.normalize();
  const Eigen::Vector3d p(g(gen), g(gen), g(gen));
  s.C1 =
      ref::pose<long double>(ref::Mat3<long double>(qt.toRotationMatrix()), p.cast<long double>());
  for (int k = 0; k <= kHigh + 1; ++k) {
    ref::Vec6<long double> v;
    for (int i = 0; i < 6; ++i) v(i) = (long double)g(gen);
    s.V1.push_back(v);
  }
  for (int k = 0; k <= kHigh + 2; ++k) {
    VecX<long double> x(kJoints);
    for (int i = 0; i < kJoints; ++i) x(i) = (long double)g(gen);
    s.q.push_back(x);
  }
  return s;
}

double rel(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-300);
}

// Bounds per order k = 0..10: the worst of the three seeds below, measured on
// x86-64 (g++ 12, -O2), times ~10.
constexpr double kInverseBound[kHigh + 1] = {1e-14, 1e-14, 1e-14, 1e-14, 3e-14, 3e-14,
                                             6e-14, 7e-14, 2e-13, 3e-13, 4e-13};
constexpr double kForwardBound[kHigh + 1] = {1e-12, 5e-12, 8e-11, 5e-10, 1e-8, 9e-8,
                                             6e-7,  2e-5,  2e-4,  2e-3,  3e-2};
constexpr double kBackwardBound[kHigh + 1] = {1e-14, 1e-14, 1e-14, 2e-14, 2e-14, 2e-14,
                                              4e-14, 8e-14, 2e-13, 5e-13, 9e-13};

TEST(HighOrderOracle, InverseAndForwardDynamicsOrders0To10) {
  if (!hodyn::test::kLongDoubleIsExtended)
    GTEST_SKIP() << "long double is double here: the order-10 reference has no extra precision";
  const auto tree = hodyn::test::make_aerial_manipulator<long double>();
  const auto model = core_aerial_manipulator();
  std::array<double, kHigh + 1> worst_id{}, worst_fd{}, worst_back{};
  for (unsigned seed : {1u, 2u, 3u}) {
    const State<long double> st = stress_state(seed);
    const auto out = reference<S12>(tree, st);
    auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kHigh, double>>();
    motion->base_pose = hodyn::Pose<double>::from_matrix(st.C1.cast<double>());
    for (int k = 0; k <= kHigh + 1; ++k) motion->base_twist[k] = st.V1[k].cast<double>();
    for (int k = 0; k <= kHigh + 2; ++k) motion->q[k] = st.q[k].cast<double>();
    auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kHigh, double>>();
    ASSERT_EQ(hodyn::inverse_dynamics(model, *id, *motion, kHigh), hodyn::Status::kOk);
    auto in = std::make_unique<hodyn::ForwardDynamicsInput<Tree, kHigh, double>>();
    in->base_pose = motion->base_pose;
    in->base_twist = motion->base_twist[0];
    in->q = motion->q[0];
    in->q_dot = motion->q[1];
    std::vector<Eigen::VectorXd> expected(kHigh + 1);
    for (int k = 0; k <= kHigh; ++k) {
      Eigen::VectorXd e(6 + kJoints);
      e << ref::derivative_values(out.Q1, k).cast<double>(),
          tau_derivative(out.tau, k).cast<double>();
      expected[k] = e;
      Eigen::VectorXd got(6 + kJoints);
      got << id->base_wrench[k], id->joint_torque[k];
      const double err = rel(got, e);
      worst_id[k] = std::max(worst_id[k], err);
      EXPECT_LE(err, kInverseBound[k]) << "inverse dynamics order " << k << " seed " << seed;
      in->base_wrench[k] = e.head<6>();
      in->joint_torque[k] = e.tail<kJoints>();
    }
    auto fd = std::make_unique<hodyn::ForwardDynamicsData<Tree, kHigh, double>>();
    ASSERT_EQ(hodyn::forward_dynamics(model, *fd, *in, kHigh), hodyn::Status::kOk);
    auto back = std::make_unique<hodyn::InverseDynamicsData<Tree, kHigh, double>>();
    auto round = *motion;
    for (int k = 1; k <= kHigh + 1; ++k) round.base_twist[k] = fd->motion.base_twist[k];
    for (int k = 2; k <= kHigh + 2; ++k) round.q[k] = fd->motion.q[k];
    ASSERT_EQ(hodyn::inverse_dynamics(model, *back, round, kHigh), hodyn::Status::kOk);
    for (int k = 0; k <= kHigh; ++k) {
      Eigen::VectorXd got(6 + kJoints), want(6 + kJoints), again(6 + kJoints);
      got << fd->motion.base_twist[k + 1], fd->motion.q[k + 2];
      want << motion->base_twist[k + 1], motion->q[k + 2];
      again << back->base_wrench[k], back->joint_torque[k];
      const double forward = rel(got, want), backward = rel(again, expected[k]);
      worst_fd[k] = std::max(worst_fd[k], forward);
      worst_back[k] = std::max(worst_back[k], backward);
      EXPECT_LE(forward, kForwardBound[k]) << "forward dynamics order " << k << " seed " << seed;
      EXPECT_LE(backward, kBackwardBound[k])
          << "inverse of forward dynamics order " << k << " seed " << seed;
    }
  }
  for (int k = 0; k <= kHigh; ++k)
    std::printf("order %2d: inverse %.2e  forward %.2e  forward backward-error %.2e\n", k,
                worst_id[k], worst_fd[k], worst_back[k]);
}

}  // namespace
