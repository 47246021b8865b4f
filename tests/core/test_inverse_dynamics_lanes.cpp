// Inverse dynamics on coefficient lanes (detail/joint_frame_lanes.hpp) against
// the scalar joint-frame kernels (detail/joint_frame_recursions.hpp) that
// serve order 0, other scalar types and targets without SIMD: the same
// recursions in two data layouts must give the same numbers at every order
// the lane kernel serves on this build, for every joint kind (the aerial
// manipulator's axis-aligned revolute joints; OracleTree's general revolute,
// general and aligned prismatic joints; ball and universal joints) and with
// external joint torques.
//
// This file is built three times (tests/CMakeLists.txt): with the default
// flags (on x86-64 no AVX: lanes for float up to order 3 only) and, where the
// build machine has them, with AVX2 (double up to order 3) and AVX-512
// (double up to order 7, float beyond); each binary prints which orders its
// lanes serve. The scalar kernels are checked against the Taylor-series
// oracle in the default build; HODYN_TEST_EXTRA_ISA_ORACLES=ON (by hand)
// builds that oracle suite with the AVX flags too.
#include <hodyn/hodyn.hpp>

#include "support/oracle_models.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

namespace {

using namespace hodyn::test::oracle;
constexpr int kMaxOrder = 7;

template <class S>
const char* scalar_name() {
  return sizeof(S) == sizeof(double) ? "double" : "float";
}

/// Runs the scalar kernel and, where it serves the order, the lane kernel on
/// the same motion; returns false when the lane kernel did not run.
template <class Tree, class S>
bool run_both(const hodyn::Model<Tree, S>& model,
              const hodyn::MotionDerivatives<Tree, kMaxOrder, S>& motion,
              const hodyn::ExternalLoads<Tree, kMaxOrder, S>* loads, int order,
              hodyn::InverseDynamicsData<Tree, kMaxOrder, S>& scalar,
              hodyn::InverseDynamicsData<Tree, kMaxOrder, S>& lanes) {
  hodyn::detail::dispatch_inverse_dynamics_kernel<0, false>(order, model, scalar, motion, loads);
  return hodyn::detail::dispatch_lane_kernel<1>(order, model, lanes, motion, loads);
}

/// max_i |a_i − b_i| / max_i |b_i| over Q₁, (Ad_C₁ᵀ Q₁) and τ of one order.
template <class Data>
double difference(const Data& a, const Data& b, int k) {
  const auto K = static_cast<std::size_t>(k);
  double num = 0, den = 0;
  const auto accumulate = [&](const auto& x, const auto& y) {
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      num = std::max(num, std::abs(static_cast<double>(x(i) - y(i))));
      den = std::max(den, std::abs(static_cast<double>(y(i))));
    }
  };
  accumulate(a.base_wrench[K], b.base_wrench[K]);
  accumulate(a.base_wrench_body[K], b.base_wrench_body[K]);
  accumulate(a.joint_torque[K], b.joint_torque[K]);
  return num / den;
}

template <class Tree, class S>
void compare(const hodyn::Model<Tree, S>& model, const char* robot) {
  constexpr int kLaneOrders = hodyn::detail::LaneWorkspace<Tree, kMaxOrder, S>::kMaxOrder;
  std::printf("[ lanes    ] %s, %s: lane kernel for orders 1..%d of %d\n", robot, scalar_name<S>(),
              kLaneOrders, kMaxOrder);
  // Relative agreement: a few hundred rounding errors of the order's largest
  // term (the layouts sum the same products in a different order).
  const double tol = 500.0 * static_cast<double>(std::numeric_limits<S>::epsilon());
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, S>>();
  auto loads = std::make_unique<hodyn::ExternalLoads<Tree, kMaxOrder, S>>();
  auto scalar = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, S>>();
  auto lanes = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, S>>();
  double worst = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    // Derivatives ~ N(0, 1) scaled by 1/2^k, so that the highest orders stay
    // representable in float.
    std::mt19937 gen(seed);
    std::normal_distribution<double> g(0.0, 1.0);
    Eigen::Quaterniond quat(g(gen), g(gen), g(gen), g(gen));
    quat.normalize();
    motion->base_pose.rotation = quat.toRotationMatrix().cast<S>();
    for (int i = 0; i < 3; ++i) motion->base_pose.translation(i) = S(g(gen));
    for (std::size_t k = 0; k < motion->base_twist.size(); ++k)
      for (int i = 0; i < 6; ++i)
        motion->base_twist[k](i) = S(std::ldexp(g(gen), -static_cast<int>(k)));
    for (std::size_t k = 0; k < motion->q.size(); ++k)
      for (Eigen::Index i = 0; i < motion->q[k].size(); ++i)
        motion->q[k](i) = S(std::ldexp(g(gen), -static_cast<int>(k)));
    for (auto& t : loads->joint_torque)
      for (Eigen::Index i = 0; i < t.size(); ++i) t(i) = S(g(gen));
    for (auto& r : motion->joint_rotation) {  // ball joints only
      Eigen::Quaterniond b(g(gen), g(gen), g(gen), g(gen));
      r = b.normalized().toRotationMatrix().cast<S>();
    }
    for (int order = 1; order <= kMaxOrder; ++order) {
      const bool with_loads = seed % 2 == 0;
      const bool ran =
          run_both(model, *motion, with_loads ? loads.get() : nullptr, order, *scalar, *lanes);
      EXPECT_EQ(ran, order <= kLaneOrders) << robot << " order " << order;
      if (!ran) continue;
      for (int k = 0; k <= order; ++k) {
        const double e = difference(*lanes, *scalar, k);
        worst = std::max(worst, e);
        EXPECT_LE(e, tol) << robot << " " << scalar_name<S>() << " order " << order << " k " << k
                          << " seed " << seed;
      }
    }
  }
  std::printf("[ lanes    ] %s, %s: worst relative difference %.3g (bound %.3g)\n", robot,
              scalar_name<S>(), worst, tol);
}

TEST(InverseDynamicsLanes, AerialManipulatorMatchesScalarKernelDouble) {
  compare(core_aerial_manipulator(), "aerial manipulator");
}

TEST(InverseDynamicsLanes, AerialManipulatorMatchesScalarKernelFloat) {
  hodyn::AerialManipulatorModel<float> model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  compare(model, "aerial manipulator");
}

TEST(InverseDynamicsLanes, GeneralAxesAndPrismaticJointsMatchScalarKernel) {
  const auto tree = random_reference_tree<OracleTree, double>(11);
  compare(core_model<OracleTree>(tree), "random tree");
  const auto tree_f = random_reference_tree<OracleTree, float>(11);
  compare(core_model<OracleTree>(tree_f), "random tree");
}

// Ball joints (issue 19): a ball with a revolute child, a ball at a leaf.
using hodyn::JointKind;
using hodyn::SpatialInertia;

struct LaneBallTree {
  static constexpr int kNumBodies = 5;
  static constexpr std::array<int, 5> kParent{-1, 0, 1, 2, 0};
  static constexpr std::array<JointKind, 5> kJoint{JointKind::kFloatingBase, JointKind::kRevolute,
                                                   JointKind::kSpherical, JointKind::kRevoluteZ,
                                                   JointKind::kSpherical};
};

template <class S>
hodyn::Model<LaneBallTree, S> ball_model() {
  hodyn::Model<LaneBallTree, S> m;
  using V = Eigen::Matrix<S, 3, 1>;
  for (int j = 0; j < 5; ++j) {
    Pose<S> home;
    home.rotation =
        Eigen::AngleAxis<S>(S(0.3 * j + 0.2), V(S(1), S(j), S(-1)).normalized()).toRotationMatrix();
    home.translation = V(S(0.1 * j), S(-0.05 * j), S(0.02));
    const auto inertia = SpatialInertia<S>::from_mass_com_inertia(
        S(0.5 + 0.1 * j), V(S(0.02), S(-0.03), S(0.01 * j)),
        V(S(0.01 + 0.002 * j), S(0.012), S(0.015)).asDiagonal().toDenseMatrix());
    EXPECT_EQ(m.set_body(j, home, inertia), Status::kOk);
  }
  EXPECT_EQ(m.set_revolute_axis(1, V(S(1), S(2), S(2)) / S(3), V(S(0.1), S(0), S(0.2))),
            Status::kOk);
  EXPECT_EQ(m.set_spherical_joint(2, V(S(0.15), S(0.05), S(-0.1))), Status::kOk);
  EXPECT_EQ(m.set_revolute_axis(3, V(S(0), S(0), S(1)), V(S(0.2), S(0.1), S(-0.2))), Status::kOk);
  EXPECT_EQ(m.set_spherical_joint(4, V(S(-0.1), S(0.2), S(0))), Status::kOk);
  EXPECT_EQ(m.set_gravity(V(S(0.5), S(-1), S(-9.7))), Status::kOk);
  return m;
}

TEST(InverseDynamicsLanes, BallJointsMatchScalarKernel) {
  compare(ball_model<double>(), "ball joints");
  compare(ball_model<float>(), "ball joints");
}

// Universal joints (issue 19): one with a revolute child, one at a leaf, one
// pair of axes perpendicular and one oblique; a ball beside them, so that the
// workspace's ball and universal slots coexist.
struct LaneUniversalTree {
  static constexpr int kNumBodies = 6;
  static constexpr std::array<int, 6> kParent{-1, 0, 1, 2, 0, 4};
  static constexpr std::array<JointKind, 6> kJoint{JointKind::kFloatingBase, JointKind::kRevolute,
                                                   JointKind::kUniversal,    JointKind::kRevoluteZ,
                                                   JointKind::kSpherical,    JointKind::kUniversal};
};

template <class S>
hodyn::Model<LaneUniversalTree, S> universal_model() {
  hodyn::Model<LaneUniversalTree, S> m;
  using V = Eigen::Matrix<S, 3, 1>;
  for (int j = 0; j < LaneUniversalTree::kNumBodies; ++j) {
    Pose<S> home;
    home.rotation = Eigen::AngleAxis<S>(S(0.25 * j + 0.1), V(S(j), S(1), S(-1)).normalized())
                        .toRotationMatrix();
    home.translation = V(S(0.1 * j), S(0.03 * j), S(-0.02 * j));
    const auto inertia = SpatialInertia<S>::from_mass_com_inertia(
        S(0.4 + 0.1 * j), V(S(-0.02), S(0.03), S(0.01 * j)),
        V(S(0.012), S(0.01 + 0.002 * j), S(0.014)).asDiagonal().toDenseMatrix());
    EXPECT_EQ(m.set_body(j, home, inertia), Status::kOk);
  }
  EXPECT_EQ(m.set_revolute_axis(1, V(S(2), S(1), S(2)) / S(3), V(S(0.1), S(0), S(0.1))),
            Status::kOk);
  EXPECT_EQ(m.set_universal_joint(2, V(S(0.2), S(0.05), S(-0.1)), V(S(1), S(0), S(0)),
                                  V(S(0), S(1), S(0))),
            Status::kOk);
  EXPECT_EQ(m.set_revolute_axis(3, V(S(0), S(0), S(1)), V(S(0.3), S(0.1), S(-0.2))), Status::kOk);
  EXPECT_EQ(m.set_spherical_joint(4, V(S(-0.1), S(0.1), S(0))), Status::kOk);
  EXPECT_EQ(m.set_universal_joint(5, V(S(-0.2), S(0.15), S(-0.05)), V(S(1), S(2), S(2)) / S(3),
                                  V(S(0), S(0.6), S(0.8))),
            Status::kOk);
  EXPECT_EQ(m.set_gravity(V(S(-0.3), S(0.8), S(-9.8))), Status::kOk);
  return m;
}

TEST(InverseDynamicsLanes, UniversalJointsMatchScalarKernel) {
  compare(universal_model<double>(), "universal joints");
  compare(universal_model<float>(), "universal joints");
}

// The public call takes the lane kernel where it applies and the scalar one
// with applied body or world wrenches; both give the scalar kernel's numbers.
TEST(InverseDynamicsLanes, PublicCallAgreesWithScalarKernelWithAndWithoutWrenches) {
  using Tree = OracleTree;
  const auto model = core_model<Tree>(random_reference_tree<Tree, double>(5));
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  auto loads = std::make_unique<hodyn::ExternalLoads<Tree, kMaxOrder, double>>();
  auto scalar = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, double>>();
  auto data = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, double>>();
  const State<double> st = random_state<double>(3, Tree::kNumBodies - 1);
  motion->base_pose = Pose<double>::from_matrix(st.C1);
  for (int k = 0; k <= kR + 1; ++k)
    motion->base_twist[static_cast<std::size_t>(k)] = st.V1[static_cast<std::size_t>(k)];
  for (int k = 0; k <= kR + 2; ++k)
    motion->q[static_cast<std::size_t>(k)] = st.q[static_cast<std::size_t>(k)];
  loads->has_body_wrench[3] = true;
  for (auto& w : loads->body_wrench[3]) w.setConstant(0.5);
  for (const bool wrench : {false, true}) {
    loads->has_body_wrench[3] = wrench;
    for (int order = 0; order <= kR; ++order) {
      ASSERT_EQ(hodyn::inverse_dynamics(model, *data, *motion, loads.get(), order), Status::kOk);
      hodyn::detail::dispatch_inverse_dynamics_kernel<0, false>(order, model, *scalar, *motion,
                                                                loads.get());
      for (int k = 0; k <= order; ++k)
        EXPECT_LE(difference(*data, *scalar, k), 1e-13)
            << "order " << order << " wrench " << wrench;
    }
  }
}

}  // namespace
