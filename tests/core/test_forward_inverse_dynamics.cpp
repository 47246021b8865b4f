// forward_inverse_dynamics: forward dynamics of orders 0..r−1, inverse
// dynamics of order r on the same pass. Checked against calls it shares no
// top-order code with:
//   - inverse_dynamics of order r (the scalar Newton–Euler kernel) along the
//     motion the call reports: its τ^(r), Q₁^(r) and base-frame wrench must
//     be the call's;
//   - forward_dynamics of order r−1 on the same input: the same motion.
// (That inverse dynamics also returns the inputs τ^(k), Q₁^(k) for k < r is
// forward dynamics' own oracle test; with these random states the motion's
// high derivatives reach 1e7 and that check only holds to ~1e-9 there.)
// Trees: the aerial manipulator, the random oracle tree, its helical and
// fixed-base variants and a tree with two balls; orders 0..4; applied loads.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <memory>
#include <random>

#include "hodyn/forward_dynamics.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"

namespace {

using namespace hodyn::test::oracle;
using hodyn::JointKind;
using hodyn::SpatialInertia;
using hodyn::Twist;
using hodyn::Wrench;

constexpr int kMax = 4;  // highest order checked

template <class Tree, int M = kMax>
using FdInput = hodyn::ForwardDynamicsInput<Tree, M, double>;
template <class Tree, int M = kMax>
using FdData = hodyn::ForwardDynamicsData<Tree, M, double>;
template <class Tree, int M = kMax>
using Loads = hodyn::ExternalLoads<Tree, M, double>;

/// Random state, inputs of every order, top-order motion and (optionally) loads.
template <class Tree, int M = kMax>
struct Case {
  FdInput<Tree, M> input;
  hodyn::InverseTopOrder<Tree, double> top;
  Loads<Tree, M> loads;
};

template <class Tree, int M = kMax>
std::unique_ptr<Case<Tree, M>> make_case(unsigned seed, hodyn::WrenchFrame frame, bool with_loads) {
  auto c = std::make_unique<Case<Tree, M>>();
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  auto& in = c->input;
  in.base_pose.rotation =
      Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
  in.base_pose.translation = Eigen::Vector3d(g(gen), g(gen), g(gen));
  for (int i = 0; i < 6; ++i) in.base_twist(i) = g(gen);
  for (int i = 0; i < in.q.size(); ++i) {
    in.q(i) = 2.0 * g(gen);
    in.q_dot(i) = g(gen);
  }
  for (auto& r : in.joint_rotation)
    r = Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
  in.base_wrench_frame = frame;
  for (int k = 0; k <= M; ++k) {
    for (int i = 0; i < 6; ++i) in.base_wrench[k](i) = g(gen);
    for (int i = 0; i < in.q.size(); ++i) in.joint_torque[k](i) = g(gen);
  }
  for (int i = 0; i < 6; ++i) c->top.base_acceleration(i) = g(gen);
  for (int i = 0; i < in.q.size(); ++i) c->top.joint_acceleration(i) = g(gen);
  if (with_loads) {
    const int last = Tree::kNumBodies - 1;
    c->loads.has_body_wrench[last] = true;
    c->loads.has_world_wrench[1] = true;
    for (int k = 0; k <= M; ++k) {
      for (int i = 0; i < 6; ++i) {
        c->loads.body_wrench[last][k](i) = g(gen);
        c->loads.world_wrench[1][k](i) = g(gen);
      }
      for (int i = 0; i < in.q.size(); ++i) c->loads.joint_torque[k](i) = g(gen);
    }
  }
  return c;
}

double rel(const Eigen::VectorXd& got, const Eigen::VectorXd& want) {
  const double scale = std::max(1.0, want.cwiseAbs().maxCoeff());
  return (got - want).cwiseAbs().maxCoeff() / scale;
}

/// Worst relative error of the call against inverse dynamics and forward
/// dynamics, over orders 0..M and `seeds` states. M ≤ 2 runs the engine's
/// orders with a compile-time order (unrolled sums), M > 2 with a run-time one.
template <class Tree, int M = kMax>
double worst_error(const hodyn::Model<Tree, double>& model, unsigned seeds,
                   hodyn::WrenchFrame frame, bool with_loads) {
  constexpr bool kFixed = hodyn::TreeTraits<Tree>::kFixedBase;
  auto data = std::make_unique<FdData<Tree, M>>();
  auto fd = std::make_unique<FdData<Tree, M>>();
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, M, double>>();
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, M, double>>();
  double worst = 0;
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    for (int r = 0; r <= M; ++r) {
      auto c = make_case<Tree, M>(seed * 10 + static_cast<unsigned>(r), frame, with_loads);
      const Loads<Tree, M>* loads = with_loads ? &c->loads : nullptr;
      EXPECT_EQ(hodyn::forward_inverse_dynamics(model, *data, c->input, c->top, loads, r),
                Status::kOk);
      // The reported motion carries the given top derivatives.
      if (!kFixed) {
        EXPECT_EQ(data->motion.base_twist[r + 1], c->top.base_acceleration);
      }
      EXPECT_EQ(data->motion.q[r + 2], c->top.joint_acceleration);
      // Inverse dynamics along that motion.
      motion->base_pose = c->input.base_pose;
      motion->joint_rotation = c->input.joint_rotation;
      for (int k = 0; k <= r + 1; ++k) motion->base_twist[k] = data->motion.base_twist[k];
      for (int k = 0; k <= r + 2; ++k) motion->q[k] = data->motion.q[k];
      EXPECT_EQ(hodyn::inverse_dynamics(model, *id, *motion, loads, r), Status::kOk);
      const auto n = c->input.q.size();
      Eigen::VectorXd got(6 + n), want(6 + n);
      got << c->top.base_wrench, c->top.joint_torque;
      want << id->base_wrench[r], id->joint_torque[r];
      worst = std::max(worst, rel(got, want));
      worst = std::max(worst, rel(c->top.base_wrench_body, id->base_wrench_body[r]));
      worst = std::max(worst, rel(data->joint_torque[r], id->joint_torque[r]));
      worst = std::max(worst, rel(data->base_wrench[r], id->base_wrench[r]));
      // Forward dynamics of order r−1 solves the same motion.
      if (r > 0) {
        EXPECT_EQ(hodyn::forward_dynamics(model, *fd, c->input, loads, r - 1), Status::kOk);
        for (int k = 1; k <= r; ++k)
          worst = std::max(worst, rel(data->motion.base_twist[k], fd->motion.base_twist[k]));
        for (int k = 2; k <= r + 1; ++k)
          worst = std::max(worst, rel(data->motion.q[k], fd->motion.q[k]));
      }
    }
  }
  return worst;
}

TEST(ForwardInverseDynamics, AerialManipulatorAgreesWithInverseAndForwardDynamics) {
  const auto am = core_aerial_manipulator();
  EXPECT_LT(worst_error(am, 3, hodyn::WrenchFrame::kBase, false), 1e-12);
  EXPECT_LT(worst_error(am, 3, hodyn::WrenchFrame::kWorld, false), 1e-12);
}

TEST(ForwardInverseDynamics, WithAppliedLoads) {
  const auto am = core_aerial_manipulator();
  EXPECT_LT(worst_error(am, 2, hodyn::WrenchFrame::kBase, true), 1e-12);
  const auto oracle = core_model<OracleTree, double>(random_reference_tree<OracleTree, double>(4));
  EXPECT_LT(worst_error(oracle, 2, hodyn::WrenchFrame::kWorld, true), 1e-12);
}

TEST(ForwardInverseDynamics, EveryOneDofJointKindAndAFixedBase) {
  const auto oracle = core_model<OracleTree, double>(random_reference_tree<OracleTree, double>(7));
  EXPECT_LT(worst_error(oracle, 2, hodyn::WrenchFrame::kBase, false), 1e-12);
  const auto helical =
      core_model<HelicalTree, double>(random_reference_tree<HelicalTree, double>(8));
  EXPECT_LT(worst_error(helical, 2, hodyn::WrenchFrame::kBase, false), 1e-12);
  const auto fixed =
      core_model<OracleFixedTree, double>(random_reference_tree<OracleFixedTree, double>(9));
  EXPECT_LT(worst_error(fixed, 2, hodyn::WrenchFrame::kBase, false), 1e-12);
}

// The orders of a MaxOrder ≤ 2 workspace are unrolled at compile time
// (forward_dynamics.hpp, articulated_orders): the same checks there, on
// every tree kind, with and without loads, both wrench frames.
TEST(ForwardInverseDynamics, CompileTimeOrdersAgreeToo) {
  const auto am = core_aerial_manipulator();
  EXPECT_LT((worst_error<AMTree, 2>(am, 3, hodyn::WrenchFrame::kBase, false)), 1e-12);
  EXPECT_LT((worst_error<AMTree, 2>(am, 2, hodyn::WrenchFrame::kWorld, true)), 1e-12);
  EXPECT_LT((worst_error<AMTree, 1>(am, 2, hodyn::WrenchFrame::kBase, true)), 1e-12);
  const auto oracle = core_model<OracleTree, double>(random_reference_tree<OracleTree, double>(4));
  EXPECT_LT((worst_error<OracleTree, 2>(oracle, 2, hodyn::WrenchFrame::kWorld, true)), 1e-12);
  const auto helical =
      core_model<HelicalTree, double>(random_reference_tree<HelicalTree, double>(8));
  EXPECT_LT((worst_error<HelicalTree, 2>(helical, 2, hodyn::WrenchFrame::kBase, false)), 1e-12);
  const auto fixed =
      core_model<OracleFixedTree, double>(random_reference_tree<OracleFixedTree, double>(9));
  EXPECT_LT((worst_error<OracleFixedTree, 2>(fixed, 2, hodyn::WrenchFrame::kBase, true)), 1e-12);
  const auto balls = two_ball_model(31u);
  EXPECT_LT((worst_error<TwoBallTree, 2>(balls, 2, hodyn::WrenchFrame::kWorld, false)), 1e-12);
}

// The options of a real-time caller: without the world-frame wrenches and
// without the input checks the motion, the base-frame wrench and the torques
// are bit for bit those of the default call; the skipped outputs read zero;
// the order is still checked; a NaN input still ends in a status (the
// results are checked) and zero outputs.
TEST(ForwardInverseDynamics, RealTimeOptions) {
  const auto am = core_aerial_manipulator();
  for (const auto frame : {hodyn::WrenchFrame::kBase, hodyn::WrenchFrame::kWorld}) {
    auto full = std::make_unique<FdData<AMTree, 2>>();
    auto lean = std::make_unique<FdData<AMTree, 2>>();
    auto c = make_case<AMTree, 2>(12u, frame, false);
    auto top = c->top;
    top.world_base_wrench = false;
    top.check_input = false;
    ASSERT_EQ(hodyn::forward_inverse_dynamics(am, *full, c->input, c->top, 2), Status::kOk);
    ASSERT_EQ(hodyn::forward_inverse_dynamics(am, *lean, c->input, top, 2), Status::kOk);
    for (int k = 0; k <= 3; ++k) EXPECT_EQ(lean->motion.base_twist[k], full->motion.base_twist[k]);
    for (int k = 0; k <= 4; ++k) EXPECT_EQ(lean->motion.q[k], full->motion.q[k]);
    EXPECT_EQ(top.base_wrench_body, c->top.base_wrench_body);
    EXPECT_EQ(top.joint_torque, c->top.joint_torque);
    EXPECT_FALSE(c->top.base_wrench.isZero(0.0));
    EXPECT_TRUE(top.base_wrench.isZero(0.0));
    for (int k = 0; k <= 2; ++k) {
      // A world-frame input is still copied to the results; nothing is converted.
      if (frame == hodyn::WrenchFrame::kWorld && k < 2)
        EXPECT_EQ(lean->base_wrench[k], c->input.base_wrench[k]);
      else
        EXPECT_TRUE(lean->base_wrench[k].isZero(0.0));
      EXPECT_EQ(lean->joint_torque[k], full->joint_torque[k]);
    }
    EXPECT_EQ(hodyn::forward_inverse_dynamics(am, *lean, c->input, top, 3),
              Status::kOrderOutOfRange);
    c->input.q_dot(2) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(hodyn::forward_inverse_dynamics(am, *lean, c->input, top, 2),
              Status::kNonFiniteResult);
    EXPECT_TRUE(top.joint_torque.isZero(0.0) && top.base_wrench_body.isZero(0.0));
    EXPECT_EQ(lean->order, -1);
  }
}

TEST(ForwardInverseDynamics, BallJoints) {
  const auto model = two_ball_model(31u);
  EXPECT_LT(worst_error(model, 2, hodyn::WrenchFrame::kBase, false), 1e-12);
}

// A command that reads the solved lower orders (as a controller's law does)
// gets the same results as computing the accelerations from a separate
// forward-dynamics call first.
TEST(ForwardInverseDynamics, CommandSeesTheSolvedLowerOrders) {
  const auto am = core_aerial_manipulator();
  constexpr int r = 2;
  auto data = std::make_unique<FdData<AMTree>>();
  auto fd = std::make_unique<FdData<AMTree>>();
  auto c = make_case<AMTree>(8u, hodyn::WrenchFrame::kBase, false);
  // A law: snap = −2 × jerk of every coordinate.
  const auto law = [](const auto& motion, auto& top) {
    top.base_acceleration = -2.0 * motion.base_twist[r];
    top.joint_acceleration = -2.0 * motion.q[r + 1];
  };
  int calls = 0;
  ASSERT_EQ(hodyn::forward_inverse_dynamics(
                am, *data, c->input, c->top,
                [&](const auto& motion, auto& top) {
                  ++calls;
                  law(motion, top);
                },
                static_cast<const Loads<AMTree>*>(nullptr), r),
            Status::kOk);
  EXPECT_EQ(calls, 1);
  ASSERT_EQ(hodyn::forward_dynamics(am, *fd, c->input, r - 1), Status::kOk);
  hodyn::InverseTopOrder<AMTree, double> two_step;
  law(fd->motion, two_step);
  auto again = std::make_unique<FdData<AMTree>>();
  ASSERT_EQ(hodyn::forward_inverse_dynamics(am, *again, c->input, two_step, r), Status::kOk);
  // The same numbers, but not the same code: the commanded call, forward
  // dynamics of order r − 1 and the uncommanded call are three instantiations
  // of the kernel, and a compiler that contracts a · b + c into an FMA
  // (g++'s default -ffp-contract=fast with -march=native) may fuse each
  // differently. Without contraction the two ways agree to the bit (the
  // default build); with it, to a few ulp (issue 21 item 5: at most 3.6e-16
  // on the AVX-512 machine, -O3 -march=native). The bound, 4e-15, is 20 ulp
  // normwise.
  constexpr double kFewUlp = 4e-15;
  const double errors[] = {rel_err(c->top.base_acceleration, two_step.base_acceleration),
                           rel_err(c->top.joint_acceleration, two_step.joint_acceleration),
                           rel_err(c->top.base_wrench_body, two_step.base_wrench_body),
                           rel_err(c->top.joint_torque, two_step.joint_torque)};
  std::printf(
      "command vs two steps: base acceleration %.2g, joint acceleration %.2g, base "
      "wrench %.2g, joint torque %.2g (relative)\n",
      errors[0], errors[1], errors[2], errors[3]);
  for (double e : errors) EXPECT_LE(e, kFewUlp);
  // A command that leaves a NaN fails the call with zero outputs.
  EXPECT_EQ(hodyn::forward_inverse_dynamics(
                am, *data, c->input, c->top,
                [](const auto&, auto& top) {
                  top.joint_acceleration(0) = std::numeric_limits<double>::quiet_NaN();
                },
                static_cast<const Loads<AMTree>*>(nullptr), r),
            Status::kNonFiniteInput);
  EXPECT_TRUE(c->top.joint_torque.isZero(0.0) && c->top.base_wrench_body.isZero(0.0));
  EXPECT_EQ(data->order, -1);
}

TEST(ForwardInverseDynamics, NonFiniteTopInputGetsAStatusAndZeroOutputs) {
  const auto am = core_aerial_manipulator();
  auto data = std::make_unique<FdData<AMTree>>();
  auto c = make_case<AMTree>(5u, hodyn::WrenchFrame::kBase, false);
  ASSERT_EQ(hodyn::forward_inverse_dynamics(am, *data, c->input, c->top, 2), Status::kOk);
  EXPECT_FALSE(c->top.joint_torque.isZero(0.0));
  c->top.joint_acceleration(3) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::forward_inverse_dynamics(am, *data, c->input, c->top, 2),
            Status::kNonFiniteInput);
  EXPECT_TRUE(c->top.joint_torque.isZero(0.0));
  EXPECT_TRUE(c->top.base_wrench.isZero(0.0) && c->top.base_wrench_body.isZero(0.0));
  EXPECT_EQ(data->order, -1);
  c->top.joint_acceleration(3) = 0.0;
  c->top.base_acceleration(0) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(hodyn::forward_inverse_dynamics(am, *data, c->input, c->top, 2),
            Status::kNonFiniteInput);
  EXPECT_EQ(hodyn::forward_inverse_dynamics(am, *data, c->input, c->top, kMax + 1),
            Status::kOrderOutOfRange);
}

TEST(ForwardInverseDynamics, IsHeapFree) {
  const auto am = core_aerial_manipulator();
  auto data = std::make_unique<FdData<AMTree>>();
  auto c = make_case<AMTree>(6u, hodyn::WrenchFrame::kBase, false);
  hodyn::test::HeapProbe probe;
  const Status s = hodyn::forward_inverse_dynamics(am, *data, c->input, c->top, 2);
  EXPECT_EQ(probe.count(), 0);
  EXPECT_EQ(s, Status::kOk);
}

}  // namespace
