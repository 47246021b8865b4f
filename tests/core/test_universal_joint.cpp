// Universal joints (issue 19 slice 6): forward kinematics, the Jacobians and
// inverse dynamics of a tree with `JointKind::kUniversal`.
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
//     joints and a revolute one.
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
