// Universal joints (issue 19 slice 6): forward kinematics, the Jacobians,
// inverse, forward, hybrid and forward-inverse dynamics of a tree with
// `JointKind::kUniversal`.
//
// (a) The "dummy link" oracle: the same robot with every universal joint
//     replaced by a revolute joint about e₁, a massless body and a revolute
//     joint about e₂ through the same point — what users build today. ν and τ
//     have the same layout in both trees (the universal's θ₁, θ₂ are the two
//     revolute joints' entries), so at random states every body's pose and
//     twist derivatives (orders 0..6), the spatial and local Jacobians and
//     their derivatives, ∂J/∂q by coordinate, and inverse dynamics of orders
//     0..5 (base wrench in both frames, joint torques; with applied world and
//     body wrenches on the universal joints' bodies) must agree — on a
//     floating-base tree where a universal joint has a revolute child and
//     another a universal child, and on a fixed-base chain of two universal
//     joints and a revolute one. Forward dynamics of orders 0..5 (world- or
//     base-frame wrench, with and without loads), hybrid dynamics (the
//     universal joints prescribed and the others free, or the reverse; the
//     base by wrench or by motion) and forward-inverse dynamics of orders
//     0..5 against the twin too, and the round trip FD(ID(motion)) of
//     orders 0..3 (with the twin's own round trip as the conditioning).
// (b) The Taylor oracle: θ(t) as series through the order-0 code (series
//     scalar); inverse dynamics and kinematics of orders 0..5 equal k! times
//     its coefficients.
// (c) The Model setter's checks.
#include <hodyn/hodyn.hpp>

#include "support/error_metrics.hpp"
#include "support/reference_dynamics.hpp"
#include "support/taylor.hpp"
#include "support/universal_trees.hpp"

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
#include <vector>

namespace {

using namespace hodyn::test::universal_trees;  // UniTree, UniTwin, make_pair, random_states, …
using hodyn::JointKind;
using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using hodyn::test::rel_err;
constexpr int kR = 5;  // orders 0..5
using S7 = hodyn::test::Taylor<double, kR + 2>;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;

using Traits = hodyn::TreeTraits<UniTree>;
static_assert(hodyn::joint_dofs(JointKind::kUniversal) == 2);
static_assert(Traits::kNumJointDofs == 8 && Traits::kNumDofs == 14 && !Traits::kSingleDofJoints);
static_assert(Traits::joint_entry(2) == 1 && Traits::joint_entry(3) == 3 &&
              Traits::joint_entry(4) == 4 && Traits::joint_entry(5) == 6);
static_assert(Traits::joint_dof(5) == 12 && Traits::dof_body(6 + 2) == 2 &&
              Traits::dof_body(6 + 3) == 3 && Traits::dof_body(6 + 7) == 5);
static_assert(Traits::kNumUniversalJoints == 3 && Traits::kUniversalIndex[4] == 1 &&
              Traits::kUniversalIndex[3] == -1 && Traits::kNumSphericalJoints == 0);
static_assert(hodyn::TreeTraits<UniFixed>::kNumDofs == 5 &&
              hodyn::TreeTraits<UniTwin>::kNumDofs == 14 &&
              hodyn::TreeTraits<UniFixedTwin>::kNumDofs == 5);

/// (a) kinematics, Jacobians, ∂J/∂q against the twin; returns the worst
/// relative errors (poses and twists, Jacobians, partials).
template <class Tree, class Twin>
std::array<double, 3> check_kinematics(const Pair<Tree, Twin>& p, unsigned seed) {
  constexpr int kOrder = kR;
  constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
  constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
  std::array<double, 3> worst{};
  auto ma = std::make_unique<hodyn::MotionDerivatives<Tree, kOrder, double>>();
  auto mb = std::make_unique<hodyn::MotionDerivatives<Twin, kOrder, double>>();
  random_states(seed, *ma, *mb);
  auto ka = std::make_unique<hodyn::KinematicsData<Tree, kOrder, double>>();
  auto kb = std::make_unique<hodyn::KinematicsData<Twin, kOrder, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(p.uni, *ka, *ma, kOrder), Status::kOk);
  EXPECT_EQ(hodyn::forward_kinematics(p.twin, *kb, *mb, kOrder), Status::kOk);
  Eigen::Matrix<double, 6, kDofs> ja, jb;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    const int t = p.same[J];
    const auto T = static_cast<std::size_t>(t);
    const double ep = rel_err(ka->body_pose[J].matrix(), kb->body_pose[T].matrix());
    EXPECT_LE(ep, 1e-13) << "pose " << j;
    worst[0] = std::max(worst[0], ep);
    for (int k = 0; k <= kOrder + 1; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double e = rel_err(ka->body_twist[J][K], kb->body_twist[T][K]);
      EXPECT_LE(e, 1e-12) << "V_" << j << "^(" << k << ")";
      worst[0] = std::max(worst[0], e);
      EXPECT_EQ(hodyn::spatial_jacobian(*ka, j, ja, k), Status::kOk);
      EXPECT_EQ(hodyn::spatial_jacobian(*kb, t, jb, k), Status::kOk);
      const double es = rel_err(ja, jb);
      EXPECT_LE(es, 1e-12) << "J_" << j << "^(" << k << ")";
      EXPECT_EQ(hodyn::local_jacobian(*ka, j, ja, k), Status::kOk);
      EXPECT_EQ(hodyn::local_jacobian(*kb, t, jb, k), Status::kOk);
      const double el = rel_err(ja, jb);
      EXPECT_LE(el, 1e-12) << "local J_" << j << "^(" << k << ")";
      worst[1] = std::max({worst[1], es, el});
    }
    // ∂J_j/∂q_c: coordinate c is the twin's joint c + 1 (1-DoF joints).
    for (int c = 0; c < kDofs - kBase; ++c) {
      EXPECT_EQ(hodyn::spatial_jacobian_coordinate_partial(*ka, j, c, ja), Status::kOk);
      EXPECT_EQ(hodyn::spatial_jacobian_partial(*kb, t, c + 1, jb), Status::kOk);
      const double e = (ja - jb).norm() / std::max(1.0, jb.norm());
      EXPECT_LE(e, 1e-13) << "dJ_" << j << "/dq_" << c;
      worst[2] = std::max(worst[2], e);
    }
  }
  return worst;
}

/// (a) inverse dynamics of orders 0..5 against the twin, with applied loads
/// (world and body wrenches on every body but the base, external joint
/// torques) when `loaded`; worst relative error per order.
template <class Tree, class Twin>
void check_inverse_dynamics(const Pair<Tree, Twin>& p, unsigned seed, bool loaded,
                            std::array<double, kR + 1>& worst) {
  auto ma = std::make_unique<hodyn::MotionDerivatives<Tree, kR, double>>();
  auto mb = std::make_unique<hodyn::MotionDerivatives<Twin, kR, double>>();
  random_states(seed, *ma, *mb);
  auto la = std::make_unique<hodyn::ExternalLoads<Tree, kR, double>>();
  auto lb = std::make_unique<hodyn::ExternalLoads<Twin, kR, double>>();
  if (loaded) {
    std::mt19937 gen(seed + 100u);
    std::normal_distribution<double> g(0.0, 1.0);
    for (int j = 1; j < Tree::kNumBodies; ++j) {
      const auto J = static_cast<std::size_t>(j);
      const auto T = static_cast<std::size_t>(p.same[J]);
      la->has_world_wrench[J] = lb->has_world_wrench[T] = true;
      la->has_body_wrench[J] = lb->has_body_wrench[T] = true;
      for (int k = 0; k <= kR; ++k) {
        const auto K = static_cast<std::size_t>(k);
        for (int i = 0; i < 6; ++i) {
          la->world_wrench[J][K](i) = g(gen);
          la->body_wrench[J][K](i) = g(gen);
        }
        lb->world_wrench[T][K] = la->world_wrench[J][K];
        lb->body_wrench[T][K] = la->body_wrench[J][K];
      }
    }
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      for (int i = 0; i < la->joint_torque[K].size(); ++i) la->joint_torque[K](i) = g(gen);
      lb->joint_torque[K] = la->joint_torque[K];
    }
  }
  auto da = std::make_unique<hodyn::InverseDynamicsData<Tree, kR, double>>();
  auto db = std::make_unique<hodyn::InverseDynamicsData<Twin, kR, double>>();
  for (int r = 0; r <= kR; ++r) {  // every order, each call on its own
    if (loaded) {
      ASSERT_EQ(hodyn::inverse_dynamics(p.uni, *da, *ma, la.get(), r), Status::kOk);
      ASSERT_EQ(hodyn::inverse_dynamics(p.twin, *db, *mb, lb.get(), r), Status::kOk);
    } else {
      ASSERT_EQ(hodyn::inverse_dynamics(p.uni, *da, *ma, r), Status::kOk);
      ASSERT_EQ(hodyn::inverse_dynamics(p.twin, *db, *mb, r), Status::kOk);
    }
    for (int k = 0; k <= r; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double et = rel_err(da->joint_torque[K], db->joint_torque[K]);
      const double eq = rel_err(da->base_wrench[K], db->base_wrench[K]);
      const double eb = rel_err(da->base_wrench_body[K], db->base_wrench_body[K]);
      EXPECT_LE(et, 1e-12) << "tau^(" << k << "), r = " << r;
      EXPECT_LE(eq, 1e-12) << "Q1^(" << k << "), r = " << r;
      EXPECT_LE(eb, 1e-12) << "body-frame Q1^(" << k << "), r = " << r;
      worst[K] = std::max({worst[K], et, eq, eb});
    }
  }
}

void print(const char* what, const std::array<double, kR + 1>& worst) {
  std::cout << what;
  for (double w : worst) std::cout << " " << w;
  std::cout << std::endl;
}

TEST(UniversalJoint, KinematicsAndJacobiansEqualRevoluteDummyRevolute) {
  std::array<double, 3> worst{};
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto f = check_kinematics(floating_pair(seed), seed + 10u);
    const auto x = check_kinematics(fixed_pair(seed), seed + 20u);
    for (std::size_t i = 0; i < 3; ++i) worst[i] = std::max({worst[i], f[i], x[i]});
  }
  std::cout << "universal kinematics vs revolute-dummy-revolute, orders 0..6: poses and twists "
            << worst[0] << ", spatial and local Jacobians " << worst[1] << ", dJ/dq " << worst[2]
            << std::endl;
}

TEST(UniversalJoint, InverseDynamicsEqualsRevoluteDummyRevolute) {
  std::array<double, kR + 1> worst{}, worst_loaded{};
  for (unsigned seed : {4u, 5u, 6u}) {
    check_inverse_dynamics(floating_pair(seed), seed + 30u, false, worst);
    check_inverse_dynamics(fixed_pair(seed), seed + 40u, false, worst);
    check_inverse_dynamics(floating_pair(seed), seed + 50u, true, worst_loaded);
    check_inverse_dynamics(fixed_pair(seed), seed + 60u, true, worst_loaded);
  }
  print("universal inverse dynamics vs revolute-dummy-revolute, worst relative error per order:",
        worst);
  print("  with applied world and body wrenches and joint torques:", worst_loaded);
}

/// (b) The floating tree on a random trajectory: inverse dynamics and the
/// kinematics of orders 0..5 in double against k! × the coefficients of the
/// order-0 code run on series.
void check_taylor_oracle(unsigned seed, std::array<double, kR + 1>& worst_id,
                         std::array<double, kR + 1>& worst_kin) {
  const auto p = floating_pair(seed);
  std::mt19937 gen(seed * 7919u + 3u);
  std::normal_distribution<double> g(0.0, 1.0);
  Eigen::Matrix4d c1 = Eigen::Matrix4d::Identity();
  c1.topLeftCorner<3, 3>() = random_rotation(gen);
  c1.topRightCorner<3, 1>() = Vec3(g(gen), g(gen), g(gen));
  std::vector<Vec6> v1;
  for (int k = 0; k <= kR + 1; ++k) {
    Vec6 v;
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
    v1.push_back(v);
  }
  std::array<S7, 8> x;
  for (auto& s : x) {
    std::vector<double> d;
    for (int k = 0; k <= kR + 2; ++k) d.push_back(1.5 * g(gen));
    s = S7::from_derivatives(d);
  }
  const auto ms = p.uni.cast<S7>();
  auto sm = std::make_unique<hodyn::MotionDerivatives<UniTree, 0, S7>>();
  const hodyn::test::ref::Mat4<S7> cs = hodyn::test::base_pose_series<S7>(c1, v1);
  sm->base_pose.rotation = cs.topLeftCorner<3, 3>();
  sm->base_pose.translation = cs.topRightCorner<3, 1>();
  for (int i = 0; i < 6; ++i) {
    std::vector<double> d;
    for (const auto& v : v1) d.push_back(v(i));
    sm->base_twist[0](i) = S7::from_derivatives(d);
    sm->base_twist[1](i) = sm->base_twist[0](i).derivative();
  }
  for (int i = 0; i < 8; ++i) {
    sm->q[0](i) = x[static_cast<std::size_t>(i)];
    sm->q[1](i) = sm->q[0](i).derivative();
    sm->q[2](i) = sm->q[1](i).derivative();
  }
  auto sd = std::make_unique<hodyn::InverseDynamicsData<UniTree, 0, S7>>();
  ASSERT_EQ(hodyn::inverse_dynamics(ms, *sd, *sm, 0), Status::kOk);
  auto sk = std::make_unique<hodyn::KinematicsData<UniTree, 0, S7>>();
  ASSERT_EQ(hodyn::forward_kinematics(ms, *sk, *sm, 0), Status::kOk);
  // The double motion: derivatives at t = 0.
  auto md = std::make_unique<hodyn::MotionDerivatives<UniTree, kR, double>>();
  md->base_pose.rotation = c1.topLeftCorner<3, 3>();
  md->base_pose.translation = c1.topRightCorner<3, 1>();
  for (int k = 0; k <= kR + 1; ++k)
    md->base_twist[static_cast<std::size_t>(k)] = v1[static_cast<std::size_t>(k)];
  for (int k = 0; k <= kR + 2; ++k)
    for (int i = 0; i < 8; ++i)
      md->q[static_cast<std::size_t>(k)](i) = x[static_cast<std::size_t>(i)].derivative_value(k);
  auto dd = std::make_unique<hodyn::InverseDynamicsData<UniTree, kR, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(p.uni, *dd, *md, kR), Status::kOk);
  auto dk = std::make_unique<hodyn::KinematicsData<UniTree, kR, double>>();
  ASSERT_EQ(hodyn::forward_kinematics(p.uni, *dk, *md, kR), Status::kOk);
  for (int k = 0; k <= kR; ++k) {
    const auto K = static_cast<std::size_t>(k);
    const auto vals = [k](const auto& v) { return hodyn::test::ref::derivative_values(v, k); };
    const double eq = rel_err(dd->base_wrench[K], vals(sd->base_wrench[0]));
    const double eb = rel_err(dd->base_wrench_body[K], vals(sd->base_wrench_body[0]));
    const double et = rel_err(dd->joint_torque[K], vals(sd->joint_torque[0]));
    EXPECT_LE(eq, 1e-12) << "Q1 order " << k;
    EXPECT_LE(eb, 1e-12) << "body-frame Q1 order " << k;
    EXPECT_LE(et, 1e-12) << "tau order " << k;
    worst_id[K] = std::max({worst_id[K], eq, eb, et});
    for (int j = 0; j < UniTree::kNumBodies; ++j) {
      const auto J = static_cast<std::size_t>(j);
      // Twists: V^(k) of the double code against the series twist's k-th
      // derivative; poses: the pose series' k-th derivative against the
      // double kinematics' (C^(k) = Σ C(k−1,i) [V^(i)] C^(k−1−i)).
      const double ev = rel_err(dk->body_twist[J][K], vals(sk->body_twist[J][0]));
      EXPECT_LE(ev, 1e-12) << "V_" << j << " order " << k;
      worst_kin[K] = std::max(worst_kin[K], ev);
      if (k == 0) {
        const double ep = rel_err(dk->body_pose[J].matrix(),
                                  hodyn::test::ref::derivative_values(
                                      Eigen::Matrix<S7, 4, 4>(sk->body_pose[J].matrix()), 0));
        EXPECT_LE(ep, 1e-13) << "pose " << j;
        worst_kin[0] = std::max(worst_kin[0], ep);
      }
    }
  }
}

TEST(UniversalJoint, TaylorOracleOrdersZeroToFive) {
  std::array<double, kR + 1> worst_id{}, worst_kin{};
  for (unsigned seed : {7u, 8u, 9u}) check_taylor_oracle(seed, worst_id, worst_kin);
  print("universal inverse dynamics, Taylor oracle, worst relative error per order:", worst_id);
  print("universal kinematics (poses, twists), Taylor oracle, per order:", worst_kin);
}

/// Random applied loads on both trees (world and body wrenches on every body
/// but the base, external joint torques), the same in both.
template <class Tree, class Twin, int MO>
void random_loads(const Pair<Tree, Twin>& p, unsigned seed,
                  hodyn::ExternalLoads<Tree, MO, double>& la,
                  hodyn::ExternalLoads<Twin, MO, double>& lb) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int j = 1; j < Tree::kNumBodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    const auto T = static_cast<std::size_t>(p.same[J]);
    la.has_world_wrench[J] = lb.has_world_wrench[T] = true;
    la.has_body_wrench[J] = lb.has_body_wrench[T] = true;
    for (int k = 0; k <= MO; ++k) {
      const auto K = static_cast<std::size_t>(k);
      for (int i = 0; i < 6; ++i) {
        la.world_wrench[J][K](i) = g(gen);
        la.body_wrench[J][K](i) = g(gen);
      }
      lb.world_wrench[T][K] = la.world_wrench[J][K];
      lb.body_wrench[T][K] = la.body_wrench[J][K];
    }
  }
  for (int k = 0; k <= MO; ++k) {
    const auto K = static_cast<std::size_t>(k);
    for (int i = 0; i < la.joint_torque[K].size(); ++i) la.joint_torque[K](i) = g(gen);
    lb.joint_torque[K] = la.joint_torque[K];
  }
}

/// The same random forward-dynamics input for both trees: state, joint torques
/// τ^(k) and propulsion wrench derivatives (world or base frame).
template <class Tree, class Twin, int MO, class InA, class InB>
void random_input(unsigned seed, InA& a, InB& b, hodyn::WrenchFrame frame) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  a.base_pose.rotation = random_rotation(gen);
  a.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (int i = 0; i < 6; ++i) a.base_twist(i) = g(gen);
  for (int i = 0; i < a.q.size(); ++i) {
    a.q(i) = 1.5 * g(gen);
    a.q_dot(i) = 1.5 * g(gen);
  }
  a.base_wrench_frame = frame;
  for (int k = 0; k <= MO; ++k) {
    const auto K = static_cast<std::size_t>(k);
    for (int i = 0; i < 6; ++i) a.base_wrench[K](i) = 5.0 * g(gen);
    for (int i = 0; i < a.q.size(); ++i) a.joint_torque[K](i) = g(gen);
  }
  b.base_pose = a.base_pose;
  b.base_twist = a.base_twist;
  b.q = a.q;
  b.q_dot = a.q_dot;
  b.base_wrench_frame = a.base_wrench_frame;
  b.base_wrench = a.base_wrench;
  b.joint_torque = a.joint_torque;
}

/// Worst relative error of V₁^(k+1) and q^(k+2), k = 0..r, of two results.
template <class DA, class DB>
void compare_accelerations(const DA& a, const DB& b, int r, std::array<double, kR + 1>& worst,
                           const char* what) {
  for (int k = 0; k <= r; ++k) {
    const auto K = static_cast<std::size_t>(k);
    const double eq = rel_err(a.motion.q[K + 2], b.motion.q[K + 2]);
    const double ev = rel_err(a.motion.base_twist[K + 1], b.motion.base_twist[K + 1]);
    EXPECT_LE(eq, 1e-12) << what << ": q^(" << k + 2 << "), r = " << r;
    EXPECT_LE(ev, 1e-12) << what << ": V1^(" << k + 1 << "), r = " << r;
    worst[K] = std::max({worst[K], eq, ev});
  }
}

double worst_articulated_inertia = 0;  // of check_forward_dynamics

/// (a) forward dynamics of orders 0..5 (each order a call of its own) against
/// the twin, with a world- or base-frame propulsion wrench, with loads or not.
template <class Tree, class Twin>
void check_forward_dynamics(const Pair<Tree, Twin>& p, unsigned seed, bool loaded,
                            hodyn::WrenchFrame frame, std::array<double, kR + 1>& worst) {
  auto ia = std::make_unique<hodyn::ForwardDynamicsInput<Tree, kR, double>>();
  auto ib = std::make_unique<hodyn::ForwardDynamicsInput<Twin, kR, double>>();
  random_input<Tree, Twin, kR>(seed, *ia, *ib, frame);
  auto la = std::make_unique<hodyn::ExternalLoads<Tree, kR, double>>();
  auto lb = std::make_unique<hodyn::ExternalLoads<Twin, kR, double>>();
  if (loaded) random_loads(p, seed + 100u, *la, *lb);
  auto da = std::make_unique<hodyn::ForwardDynamicsData<Tree, kR, double>>();
  auto db = std::make_unique<hodyn::ForwardDynamicsData<Twin, kR, double>>();
  for (int r = 0; r <= kR; ++r) {
    ASSERT_EQ(hodyn::forward_dynamics(p.uni, *da, *ia, loaded ? la.get() : nullptr, r),
              Status::kOk);
    ASSERT_EQ(hodyn::forward_dynamics(p.twin, *db, *ib, loaded ? lb.get() : nullptr, r),
              Status::kOk);
    compare_accelerations(*da, *db, r, worst, "forward dynamics");
  }
  // The articulated inertias (order-free): body j's joint frame and its twin
  // body's have parallel axes (the world's at home); the origins differ by
  // x = o_twin − o_j (the twin's revolute frame sits at the axis point
  // closest to the world origin), so M_j = Xᵀ M_twin X, X = [1 0; −[x] 1].
  Eigen::Matrix<double, 6, 6> ma, mb;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const int t = p.same[static_cast<std::size_t>(j)];
    ASSERT_EQ(hodyn::articulated_inertia(*da, j, ma), Status::kOk);
    ASSERT_EQ(hodyn::articulated_inertia(*db, t, mb), Status::kOk);
    const Vec3 x = j == 0 ? Vec3::Zero() : Vec3(p.twin.local_origin(t) - p.uni.local_origin(j));
    Eigen::Matrix<double, 6, 6> shift = Eigen::Matrix<double, 6, 6>::Identity();
    shift.bottomLeftCorner<3, 3>() << 0, x.z(), -x.y(), -x.z(), 0, x.x(), x.y(), -x.x(), 0;
    const double e = rel_err(ma, Eigen::Matrix<double, 6, 6>(shift.transpose() * mb * shift));
    EXPECT_LE(e, 1e-12) << "articulated inertia " << j;
    worst_articulated_inertia = std::max(worst_articulated_inertia, e);
  }
}

TEST(UniversalJoint, ForwardDynamicsEqualsRevoluteDummyRevolute) {
  std::array<double, kR + 1> worst{}, worst_loaded{};
  for (unsigned seed : {11u, 12u, 13u}) {
    for (auto frame : {hodyn::WrenchFrame::kWorld, hodyn::WrenchFrame::kBase}) {
      check_forward_dynamics(floating_pair(seed), seed + 70u, false, frame, worst);
      check_forward_dynamics(floating_pair(seed), seed + 80u, true, frame, worst_loaded);
    }
    check_forward_dynamics(fixed_pair(seed), seed + 90u, false, hodyn::WrenchFrame::kWorld, worst);
    check_forward_dynamics(fixed_pair(seed), seed + 95u, true, hodyn::WrenchFrame::kWorld,
                           worst_loaded);
  }
  print(
      "universal forward dynamics vs revolute-dummy-revolute, worst relative error of "
      "V1^(k+1), q^(k+2) per order k:",
      worst);
  print("  with applied world and body wrenches and joint torques:", worst_loaded);
  std::cout << "  articulated inertias (articulated_inertia) vs the twin's, moved to the same "
               "origin: "
            << worst_articulated_inertia << std::endl;
}

/// The round trip: inverse dynamics of a random motion gives Q₁^(k), τ^(k);
/// forward dynamics of those returns V₁^(k+1), q^(k+2), orders 0..3 — to the
/// conditioning of M̄ at the higher orders, which the twin's round trip on the
/// same motion shows (worst[1]); inverse dynamics of the returned motion gives
/// the forces back to rounding (worst[2]). worst[0]: the universal tree's
/// accelerations.
template <class Tree, class Twin>
void check_round_trip(const Pair<Tree, Twin>& p, unsigned seed,
                      std::array<std::array<double, kR + 1>, 3>& worst) {
  constexpr int kRt = 3;
  auto ma = std::make_unique<hodyn::MotionDerivatives<Tree, kRt, double>>();
  auto mb = std::make_unique<hodyn::MotionDerivatives<Twin, kRt, double>>();
  random_states(seed, *ma, *mb);
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kRt, double>>();
  auto back = std::make_unique<hodyn::InverseDynamicsData<Tree, kRt, double>>();
  auto in = std::make_unique<hodyn::ForwardDynamicsInput<Tree, kRt, double>>();
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<Tree, kRt, double>>();
  auto idb = std::make_unique<hodyn::InverseDynamicsData<Twin, kRt, double>>();
  auto inb = std::make_unique<hodyn::ForwardDynamicsInput<Twin, kRt, double>>();
  auto fdb = std::make_unique<hodyn::ForwardDynamicsData<Twin, kRt, double>>();
  for (int r = 0; r <= kRt; ++r) {
    ASSERT_EQ(hodyn::inverse_dynamics(p.uni, *id, *ma, r), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(p.twin, *idb, *mb, r), Status::kOk);
    in->base_pose = inb->base_pose = ma->base_pose;
    in->base_twist = inb->base_twist = ma->base_twist[0];
    in->q = inb->q = ma->q[0];
    in->q_dot = inb->q_dot = ma->q[1];
    in->base_wrench_frame = inb->base_wrench_frame = hodyn::WrenchFrame::kWorld;
    for (int k = 0; k <= r; ++k) {
      const auto K = static_cast<std::size_t>(k);
      in->base_wrench[K] = id->base_wrench[K];
      in->joint_torque[K] = id->joint_torque[K];
      inb->base_wrench[K] = idb->base_wrench[K];
      inb->joint_torque[K] = idb->joint_torque[K];
    }
    ASSERT_EQ(hodyn::forward_dynamics(p.uni, *fd, *in, r), Status::kOk);
    ASSERT_EQ(hodyn::forward_dynamics(p.twin, *fdb, *inb, r), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(p.uni, *back, fd->motion, r), Status::kOk);
    for (int k = 0; k <= r; ++k) {
      const auto K = static_cast<std::size_t>(k);
      double e = rel_err(fd->motion.q[K + 2], ma->q[K + 2]);
      double et = rel_err(fdb->motion.q[K + 2], mb->q[K + 2]);
      if constexpr (!hodyn::TreeTraits<Tree>::kFixedBase) {
        e = std::max(e, rel_err(fd->motion.base_twist[K + 1], ma->base_twist[K + 1]));
        et = std::max(et, rel_err(fdb->motion.base_twist[K + 1], mb->base_twist[K + 1]));
      }
      EXPECT_LE(e, 1e-9) << "round trip accelerations of order " << k << ", r = " << r;
      const double ef = std::max(rel_err(back->joint_torque[K], id->joint_torque[K]),
                                 rel_err(back->base_wrench[K], id->base_wrench[K]));
      EXPECT_LE(ef, 1e-12) << "ID(FD(tau)) order " << k << ", r = " << r;
      worst[0][K] = std::max(worst[0][K], e);
      worst[1][K] = std::max(worst[1][K], et);
      worst[2][K] = std::max(worst[2][K], ef);
    }
  }
}

TEST(UniversalJoint, ForwardDynamicsInvertsInverseDynamics) {
  std::array<std::array<double, kR + 1>, 3> worst{};
  for (unsigned seed : {14u, 15u, 16u}) {
    check_round_trip(floating_pair(seed), seed + 110u, worst);
    check_round_trip(fixed_pair(seed), seed + 120u, worst);
  }
  const char* what[3] = {
      "universal FD(ID(motion)), orders 0..3, worst relative error of the accelerations:",
      "  the twin's FD(ID(motion)) on the same motions (the conditioning):",
      "  universal ID(FD(tau)) - tau:"};
  for (std::size_t i = 0; i < 3; ++i) {
    std::cout << what[i];
    for (int k = 0; k <= 3; ++k) std::cout << " " << worst[i][static_cast<std::size_t>(k)];
    std::cout << std::endl;
  }
}

/// (a) forward-inverse dynamics (forward orders 0..r−1, the top order r
/// given): the top order's Q₁^(r) (world, base frame) and τ^(r), and the
/// lower orders' accelerations, against the twin, r = 0..5.
template <class Tree, class Twin>
void check_forward_inverse(const Pair<Tree, Twin>& p, unsigned seed,
                           std::array<double, kR + 1>& worst) {
  auto ia = std::make_unique<hodyn::ForwardDynamicsInput<Tree, kR, double>>();
  auto ib = std::make_unique<hodyn::ForwardDynamicsInput<Twin, kR, double>>();
  random_input<Tree, Twin, kR>(seed, *ia, *ib, hodyn::WrenchFrame::kBase);
  auto la = std::make_unique<hodyn::ExternalLoads<Tree, kR, double>>();
  auto lb = std::make_unique<hodyn::ExternalLoads<Twin, kR, double>>();
  random_loads(p, seed + 400u, *la, *lb);
  std::mt19937 gen(seed + 500u);
  std::normal_distribution<double> g(0.0, 1.0);
  auto da = std::make_unique<hodyn::ForwardDynamicsData<Tree, kR, double>>();
  auto db = std::make_unique<hodyn::ForwardDynamicsData<Twin, kR, double>>();
  for (int r = 0; r <= kR; ++r) {
    hodyn::InverseTopOrder<Tree, double> ta;
    hodyn::InverseTopOrder<Twin, double> tb;
    for (int i = 0; i < 6; ++i) ta.base_acceleration(i) = g(gen);
    for (int i = 0; i < ta.joint_acceleration.size(); ++i) ta.joint_acceleration(i) = g(gen);
    tb.base_acceleration = ta.base_acceleration;
    tb.joint_acceleration = ta.joint_acceleration;
    ASSERT_EQ(hodyn::forward_inverse_dynamics(p.uni, *da, *ia, ta, la.get(), r), Status::kOk);
    ASSERT_EQ(hodyn::forward_inverse_dynamics(p.twin, *db, *ib, tb, lb.get(), r), Status::kOk);
    if (r > 0) compare_accelerations(*da, *db, r - 1, worst, "forward-inverse dynamics");
    const auto R = static_cast<std::size_t>(r);
    const double et = rel_err(ta.joint_torque, tb.joint_torque);
    const double ew = std::max(rel_err(ta.base_wrench, tb.base_wrench),
                               rel_err(ta.base_wrench_body, tb.base_wrench_body));
    EXPECT_LE(et, 1e-12) << "top tau^(" << r << ")";
    EXPECT_LE(ew, 1e-12) << "top Q1^(" << r << ")";
    worst[R] = std::max({worst[R], et, ew});
  }
}

TEST(UniversalJoint, ForwardInverseDynamicsEqualsRevoluteDummyRevolute) {
  std::array<double, kR + 1> worst{};
  for (unsigned seed : {21u, 22u, 23u}) {
    check_forward_inverse(floating_pair(seed), seed + 170u, worst);
    check_forward_inverse(fixed_pair(seed), seed + 180u, worst);
  }
  print(
      "universal forward-inverse dynamics vs the twin (with loads), worst relative error per "
      "order (accelerations below the top, the top's forces):",
      worst);
}

/// (a) hybrid dynamics of orders 0..5 against the twin: the universal joints
/// prescribed (both sub-joints of the twin) and the others free, or the
/// reverse; the base driven by its wrench or by its motion; with loads.
template <class Tree, class Twin>
void check_hybrid(const Pair<Tree, Twin>& p, unsigned seed, bool universal_prescribed,
                  hodyn::BaseInput base, std::array<double, kR + 1>& worst) {
  auto ia = std::make_unique<hodyn::HybridDynamicsInput<Tree, kR, double>>();
  auto ib = std::make_unique<hodyn::HybridDynamicsInput<Twin, kR, double>>();
  random_input<Tree, Twin, kR>(seed, *ia, *ib, hodyn::WrenchFrame::kWorld);
  std::mt19937 gen(seed + 200u);
  std::normal_distribution<double> g(0.0, 1.0);
  ia->base_input = ib->base_input = base;
  for (int k = 0; k <= kR; ++k) {
    const auto K = static_cast<std::size_t>(k);
    for (int i = 0; i < 6; ++i) ia->base_acceleration[K](i) = g(gen);
    for (int i = 0; i < ia->q.size(); ++i) ia->joint_acceleration[K](i) = 1.5 * g(gen);
    ib->base_acceleration[K] = ia->base_acceleration[K];
    ib->joint_acceleration[K] = ia->joint_acceleration[K];
  }
  for (int j = 1; j < Tree::kNumBodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    const bool uni = hodyn::is_universal(Tree::kJoint[J]);
    const bool given = uni == universal_prescribed;
    ia->motion_prescribed[J - 1] = given;
    ib->motion_prescribed[static_cast<std::size_t>(p.same[J] - 1)] = given;
    if (uni) ib->motion_prescribed[static_cast<std::size_t>(p.same[J] - 2)] = given;
  }
  auto la = std::make_unique<hodyn::ExternalLoads<Tree, kR, double>>();
  auto lb = std::make_unique<hodyn::ExternalLoads<Twin, kR, double>>();
  random_loads(p, seed + 300u, *la, *lb);
  auto da = std::make_unique<hodyn::HybridDynamicsData<Tree, kR, double>>();
  auto db = std::make_unique<hodyn::HybridDynamicsData<Twin, kR, double>>();
  for (int r = 0; r <= kR; ++r) {
    ASSERT_EQ(hodyn::hybrid_dynamics(p.uni, *da, *ia, la.get(), r), Status::kOk);
    ASSERT_EQ(hodyn::hybrid_dynamics(p.twin, *db, *ib, lb.get(), r), Status::kOk);
    compare_accelerations(*da, *db, r, worst, "hybrid dynamics");
    for (int k = 0; k <= r; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double et = rel_err(da->joint_torque[K], db->joint_torque[K]);
      const double ew = rel_err(da->base_wrench[K], db->base_wrench[K]);
      EXPECT_LE(et, 1e-12) << "hybrid tau^(" << k << "), r = " << r;
      EXPECT_LE(ew, 1e-12) << "hybrid Q1^(" << k << "), r = " << r;
      worst[K] = std::max({worst[K], et, ew});
    }
  }
}

TEST(UniversalJoint, HybridDynamicsEqualsRevoluteDummyRevolute) {
  std::array<double, kR + 1> worst_given{}, worst_free{};
  for (unsigned seed : {17u, 18u, 19u}) {
    for (auto base : {hodyn::BaseInput::kWrench, hodyn::BaseInput::kMotion}) {
      check_hybrid(floating_pair(seed), seed + 130u, true, base, worst_given);
      check_hybrid(floating_pair(seed), seed + 140u, false, base, worst_free);
    }
    check_hybrid(fixed_pair(seed), seed + 150u, true, hodyn::BaseInput::kWrench, worst_given);
    check_hybrid(fixed_pair(seed), seed + 160u, false, hodyn::BaseInput::kWrench, worst_free);
  }
  print(
      "universal hybrid dynamics vs the twin, universal joints prescribed, worst relative "
      "error per order (accelerations, torques, base wrench):",
      worst_given);
  print("  universal joints free, the others prescribed:", worst_free);
}

TEST(UniversalJoint, ModelChecks) {
  hodyn::Model<UniTree, double> m;
  // Defaults: e₁ = z, e₂ = x through the origin.
  EXPECT_EQ(m.joint_axis(2), Vec3::UnitZ());
  EXPECT_EQ(m.joint_second_axis(2), Vec3::UnitX());
  const Vec3 a(0.1, -0.2, 0.3), e1 = Vec3(1, 2, 2) / 3.0, e2 = Vec3(2, -1, 0.5).normalized();
  EXPECT_EQ(m.set_universal_joint(2, a, e1, e2), Status::kOk);  // not perpendicular: fine
  EXPECT_EQ(m.joint_axis(2), e1);
  EXPECT_EQ(m.joint_second_axis(2), e2);
  EXPECT_EQ(m.joint_axis_point(2), a);
  EXPECT_LE((m.joint_screw(2) - hodyn::spatial_vector<double>(e1, a.cross(e1))).norm(), 1e-16);
  EXPECT_LE((m.joint_second_screw(2) - hodyn::spatial_vector<double>(e2, a.cross(e2))).norm(),
            1e-16);
  const Vec3 other(0.5, 0.5, 0.5);
  EXPECT_EQ(m.set_universal_joint(2, other, 1.1 * e1, e2), Status::kInvalidModel);  // not unit
  EXPECT_EQ(m.set_universal_joint(2, other, e1, 0.9 * e2), Status::kInvalidModel);
  EXPECT_EQ(m.set_universal_joint(2, other, e1, e1), Status::kInvalidModel);   // parallel
  EXPECT_EQ(m.set_universal_joint(2, other, e1, -e1), Status::kInvalidModel);  // antiparallel
  EXPECT_EQ(m.set_universal_joint(2, Vec3(std::nan(""), 0, 0), e1, e2), Status::kInvalidModel);
  EXPECT_EQ(m.set_universal_joint(1, other, e1, e2), Status::kInvalidModel);  // revolute
  EXPECT_EQ(m.set_universal_joint(6, other, e1, e2), Status::kInvalidArgument);
  EXPECT_EQ(m.set_universal_joint(0, other, e1, e2), Status::kInvalidArgument);
  EXPECT_EQ(m.joint_axis_point(2), a);  // unchanged by the failures
  EXPECT_EQ(m.joint_second_axis(2), e2);
  EXPECT_EQ(m.set_joint_screw(2, hodyn::spatial_vector<double>(e1, Vec3::Zero())),
            Status::kInvalidModel);  // the universal setter only
  EXPECT_EQ(m.set_revolute_axis(2, e1, a), Status::kInvalidModel);
  // A float copy keeps the axes.
  const auto mf = m.cast<float>();
  EXPECT_LE((mf.joint_second_axis(2) - e2.cast<float>()).norm(), 1e-7f);
}

}  // namespace
