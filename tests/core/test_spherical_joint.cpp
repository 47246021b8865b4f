// Spherical (ball) joints in inverse dynamics (issue 19 item 1, first slice):
//
// (a) A ball joint against three revolute joints about x, y, z through the
//     same centre with two massless bodies between them (the "dummy links"
//     users build today), at configurations away from the Euler chart's
//     singularity: along one random trajectory, in series arithmetic through
//     the order-0 code of both trees, the base wrench and the other joints'
//     torques agree at every order, and the three revolute torques are
//     Eᵀ τ_ball (ω = E (ȧ, ḃ, ċ): power balance).
// (b) The Taylor oracle: inverse dynamics of orders 0..5 equals k! times the
//     coefficients of the order-0 code run on series (R(t) from ω(t)) —
//     including a configuration at the Euler angles' gimbal lock (b = 90°),
//     where the ball is as regular as anywhere.
// (c) δ: R_j exp([δ]) given as (R_j, δ) or as (R_j exp([δ]), 0) is the same
//     motion; a rotation that is not orthonormal is refused with zero outputs.
//
// Trees: a floating base; body 1 revolute; body 2 on a ball under it (with a
// revolute child, body 3, so that the ball's Ṡ terms matter); body 4 on a ball
// under the base (a leaf).
#include <hodyn/hodyn.hpp>

#include "support/ball_trees.hpp"
#include "support/error_metrics.hpp"
#include "support/reference_dynamics.hpp"
#include "support/taylor.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <iostream>
#include <memory>
#include <random>
#include <vector>

namespace {

using hodyn::JointKind;
using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using hodyn::test::rel_err;
constexpr int kR = 5;
using S7 = hodyn::test::Taylor<double, kR + 2>;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
template <class S>
using M3 = Eigen::Matrix<S, 3, 3>;
template <class S>
using V3 = Eigen::Matrix<S, 3, 1>;

using hodyn::test::ball_trees::BallTree;   // a floating base, a revolute joint, two balls
using hodyn::test::ball_trees::EulerTree;  // each ball as revolute x, y, z joints
using BallTraits = hodyn::TreeTraits<BallTree>;
static_assert(BallTraits::kNumDofs == 14 && BallTraits::kNumJointDofs == 8);
static_assert(BallTraits::joint_entry(2) == 1 && BallTraits::joint_entry(3) == 4 &&
              BallTraits::joint_entry(4) == 5);
static_assert(BallTraits::dof_body(6 + 3) == 2 && BallTraits::dof_body(6 + 4) == 3);
static_assert(BallTraits::kNumSphericalJoints == 2 && BallTraits::kSphericalIndex[4] == 1);
static_assert(!BallTraits::kSingleDofJoints && hodyn::TreeTraits<EulerTree>::kSingleDofJoints);
static_assert(hodyn::TreeTraits<EulerTree>::kNumDofs == 14);

/// Both models with the same physics (seeded random parameters).
struct Models {
  hodyn::Model<BallTree, double> ball;
  hodyn::Model<EulerTree, double> euler;
};

Models make_models(unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto vec = [&](double s) { return Vec3(s * u(gen), s * u(gen), s * u(gen)); };
  const auto rotation = [&]() {
    return Eigen::Quaterniond(u(gen), u(gen), u(gen), u(gen)).normalized().toRotationMatrix();
  };
  const auto inertia = [&]() {
    const Mat3 q = rotation();
    const Vec3 d(0.01 + 0.01 * (u(gen) + 1), 0.01 + 0.01 * (u(gen) + 1),
                 0.01 + 0.01 * (u(gen) + 1));
    const Mat3 ic = q * Vec3(d(1) + d(2), d(0) + d(2), d(0) + d(1)).asDiagonal() * q.transpose();
    return SpatialInertia<double>::from_mass_com_inertia(0.5 + 0.5 * (u(gen) + 1), vec(0.1),
                                                         Mat3((ic + ic.transpose()) / 2));
  };
  const auto pose = [&]() {
    Pose<double> p;
    p.rotation = rotation();
    p.translation = vec(0.5);
    return p;
  };
  const auto massless =
      SpatialInertia<double>::from_mass_com_inertia(0.0, Vec3::Zero(), Mat3::Zero());
  Models m;
  const auto body0 = inertia(), body1 = inertia(), body2 = inertia(), body3 = inertia(),
             body4 = inertia();
  const auto pose0 = pose(), pose1 = pose(), pose2 = pose(), pose3 = pose(), pose4 = pose();
  const Vec3 e1 = vec(1).normalized(), a1 = vec(0.5), c2 = vec(0.5), e3 = vec(1).normalized(),
             a3 = vec(0.5), c4 = vec(0.5);
  const Vec3 g = 9.81 * vec(1).normalized();
  EXPECT_EQ(m.ball.set_body(0, pose0, body0), Status::kOk);
  EXPECT_EQ(m.ball.set_body(1, pose1, body1), Status::kOk);
  EXPECT_EQ(m.ball.set_body(2, pose2, body2), Status::kOk);
  EXPECT_EQ(m.ball.set_body(3, pose3, body3), Status::kOk);
  EXPECT_EQ(m.ball.set_body(4, pose4, body4), Status::kOk);
  EXPECT_EQ(m.ball.set_revolute_axis(1, e1, a1), Status::kOk);
  EXPECT_EQ(m.ball.set_spherical_joint(2, c2), Status::kOk);
  EXPECT_EQ(m.ball.set_revolute_axis(3, e3, a3), Status::kOk);
  EXPECT_EQ(m.ball.set_spherical_joint(4, c4), Status::kOk);
  EXPECT_EQ(m.ball.set_gravity(g), Status::kOk);
  const Pose<double> home = Pose<double>::identity();
  EXPECT_EQ(m.euler.set_body(0, pose0, body0), Status::kOk);
  EXPECT_EQ(m.euler.set_body(1, pose1, body1), Status::kOk);
  EXPECT_EQ(m.euler.set_body(2, home, massless), Status::kOk);
  EXPECT_EQ(m.euler.set_body(3, home, massless), Status::kOk);
  EXPECT_EQ(m.euler.set_body(4, pose2, body2), Status::kOk);
  EXPECT_EQ(m.euler.set_body(5, pose3, body3), Status::kOk);
  EXPECT_EQ(m.euler.set_body(6, home, massless), Status::kOk);
  EXPECT_EQ(m.euler.set_body(7, home, massless), Status::kOk);
  EXPECT_EQ(m.euler.set_body(8, pose4, body4), Status::kOk);
  EXPECT_EQ(m.euler.set_revolute_axis(1, e1, a1), Status::kOk);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m.euler.set_revolute_axis(2 + i, Vec3::Unit(i), c2), Status::kOk);
    EXPECT_EQ(m.euler.set_revolute_axis(6 + i, Vec3::Unit(i), c4), Status::kOk);
  }
  EXPECT_EQ(m.euler.set_revolute_axis(5, e3, a3), Status::kOk);
  EXPECT_EQ(m.euler.set_gravity(g), Status::kOk);
  return m;
}

/// A trajectory: base pose and twist derivatives, and the Euler tree's
/// coordinates x(t) (8 entries: q1, a2, b2, c2, q3, a4, b4, c4) as series.
struct Trajectory {
  Eigen::Matrix4d c1;
  std::vector<Vec6> v1;  // V1^(0..kR+1)
  std::array<S7, 8> x;   // the Euler tree's coordinates
};

Trajectory random_trajectory(unsigned seed, double b2_at_zero) {
  std::mt19937 gen(seed * 7919u + 3u);
  std::normal_distribution<double> g(0.0, 1.0);
  Trajectory t;
  const Eigen::Quaterniond q(g(gen), g(gen), g(gen), g(gen));
  t.c1.setIdentity();
  t.c1.topLeftCorner<3, 3>() = q.normalized().toRotationMatrix();
  t.c1.topRightCorner<3, 1>() = Vec3(g(gen), g(gen), g(gen));
  for (int k = 0; k <= kR + 1; ++k) {
    Vec6 v;
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
    t.v1.push_back(v);
  }
  for (auto& s : t.x) {
    std::vector<double> d;
    for (int k = 0; k <= kR + 2; ++k) d.push_back(g(gen));
    s = S7::from_derivatives(d);
  }
  t.x[2].coeff(0) = b2_at_zero;  // the middle Euler angle of the first ball
  return t;
}

template <class S>
M3<S> rot_x(const S& a) {
  using std::cos;
  using std::sin;
  M3<S> r;
  r << S(1), S(0), S(0), S(0), cos(a), -sin(a), S(0), sin(a), cos(a);
  return r;
}
template <class S>
M3<S> rot_y(const S& a) {
  using std::cos;
  using std::sin;
  M3<S> r;
  r << cos(a), S(0), sin(a), S(0), S(1), S(0), -sin(a), S(0), cos(a);
  return r;
}
template <class S>
M3<S> rot_z(const S& a) {
  using std::cos;
  using std::sin;
  M3<S> r;
  r << cos(a), -sin(a), S(0), sin(a), cos(a), S(0), S(0), S(0), S(1);
  return r;
}
M3<S7> derivative(const M3<S7>& m) {
  M3<S7> d;
  for (int i = 0; i < 9; ++i) d(i) = m(i).derivative();
  return d;
}
/// R(t) = Rx(a) Ry(b) Rz(c) and ω = vee(Rᵀ Ṙ) (child frame).
struct BallSeries {
  M3<S7> r;
  V3<S7> omega;
};
BallSeries ball_series(const S7& a, const S7& b, const S7& c) {
  BallSeries out;
  out.r = rot_x(a) * rot_y(b) * rot_z(c);
  const M3<S7> w = out.r.transpose() * derivative(out.r);
  out.omega << w(2, 1), w(0, 2), w(1, 0);
  return out;
}

/// Order-0 inverse dynamics of both trees on series, checks of (a).
void check_ball_against_euler(const Models& m, const Trajectory& t, double& worst) {
  const auto mb = m.ball.cast<S7>();
  const auto me = m.euler.cast<S7>();
  auto sb = std::make_unique<hodyn::MotionDerivatives<BallTree, 0, S7>>();
  auto se = std::make_unique<hodyn::MotionDerivatives<EulerTree, 0, S7>>();
  const hodyn::test::ref::Mat4<S7> c1 = hodyn::test::base_pose_series<S7>(t.c1, t.v1);
  for (auto* pose : {&sb->base_pose, &se->base_pose}) {
    pose->rotation = c1.topLeftCorner<3, 3>();
    pose->translation = c1.topRightCorner<3, 1>();
  }
  Eigen::Matrix<S7, 6, 1> v0, v1;
  for (int i = 0; i < 6; ++i) {
    std::vector<double> d;
    for (const auto& v : t.v1) d.push_back(v(i));
    v0(i) = S7::from_derivatives(d);
    v1(i) = v0(i).derivative();
  }
  sb->base_twist[0] = se->base_twist[0] = v0;
  sb->base_twist[1] = se->base_twist[1] = v1;
  for (int i = 0; i < 8; ++i) {
    se->q[0](i) = t.x[static_cast<std::size_t>(i)];
    se->q[1](i) = t.x[static_cast<std::size_t>(i)].derivative();
    se->q[2](i) = se->q[1](i).derivative();
  }
  const BallSeries b2 = ball_series(t.x[1], t.x[2], t.x[3]);
  const BallSeries b4 = ball_series(t.x[5], t.x[6], t.x[7]);
  sb->joint_rotation[0] = b2.r;
  sb->joint_rotation[1] = b4.r;
  for (int k = 0; k < 3; ++k) sb->q[k].setZero();
  for (int k = 1; k < 3; ++k) {  // revolute joints 1 and 3: entries 0 and 4
    sb->q[k](0) = se->q[k](0);
    sb->q[k](4) = se->q[k](4);
  }
  sb->q[0](0) = se->q[0](0);
  sb->q[0](4) = se->q[0](4);
  for (int i = 0; i < 3; ++i) {
    sb->q[1](1 + i) = b2.omega(i);
    sb->q[2](1 + i) = b2.omega(i).derivative();
    sb->q[1](5 + i) = b4.omega(i);
    sb->q[2](5 + i) = b4.omega(i).derivative();
  }
  auto db = std::make_unique<hodyn::InverseDynamicsData<BallTree, 0, S7>>();
  auto de = std::make_unique<hodyn::InverseDynamicsData<EulerTree, 0, S7>>();
  ASSERT_EQ(hodyn::inverse_dynamics(mb, *db, *sb, 0), Status::kOk);
  ASSERT_EQ(hodyn::inverse_dynamics(me, *de, *se, 0), Status::kOk);
  // E: ω = E (ȧ, ḃ, ċ), columns Rz(c)ᵀ Ry(b)ᵀ x, Rz(c)ᵀ y, z.
  const auto euler_map = [](const S7& b, const S7& c) {
    M3<S7> e;
    e.col(0) = rot_z(c).transpose() * rot_y(b).transpose() * V3<S7>(S7(1.0), S7(0.0), S7(0.0));
    e.col(1) = rot_z(c).transpose() * V3<S7>(S7(0.0), S7(1.0), S7(0.0));
    e.col(2) = V3<S7>(S7(0.0), S7(0.0), S7(1.0));
    return e;
  };
  const V3<S7> tau2 = euler_map(t.x[2], t.x[3]).transpose() * db->joint_torque[0].segment<3>(1);
  const V3<S7> tau4 = euler_map(t.x[6], t.x[7]).transpose() * db->joint_torque[0].segment<3>(5);
  for (int k = 0; k <= kR; ++k) {
    const auto vals = [k](const auto& x) { return hodyn::test::ref::derivative_values(x, k); };
    const double eq = rel_err(vals(db->base_wrench[0]), vals(de->base_wrench[0]));
    EXPECT_LE(eq, 1e-11) << "base wrench, order " << k;
    Eigen::Matrix<double, 8, 1> tb, te = vals(de->joint_torque[0]);
    tb << vals(db->joint_torque[0])(0), vals(tau2), vals(db->joint_torque[0])(4), vals(tau4);
    const double et = rel_err(tb, te);
    EXPECT_LE(et, 1e-11) << "joint torques (ball: E^T tau), order " << k;
    worst = std::max({worst, eq, et});
  }
}

TEST(SphericalJoint, InverseDynamicsEqualsThreeRevoluteJointsWithMasslessLinks) {
  double worst = 0;
  for (unsigned seed : {1u, 2u, 3u}) {
    const Models m = make_models(seed);
    check_ball_against_euler(m, random_trajectory(seed, 0.3 * seed), worst);
  }
  std::cout << "ball vs three revolute joints, orders 0..5: worst relative error " << worst
            << std::endl;
  RecordProperty("ball_vs_euler_worst", std::to_string(worst));
}

/// (b): orders 0..5 in double against k! × the coefficients of the order-0 code on series.
void check_taylor_oracle(const Models& m, const Trajectory& t, std::array<double, kR + 1>& worst) {
  const BallSeries b2 = ball_series(t.x[1], t.x[2], t.x[3]);
  const BallSeries b4 = ball_series(t.x[5], t.x[6], t.x[7]);
  // Series motion (order-0 code).
  const auto mb = m.ball.cast<S7>();
  auto sb = std::make_unique<hodyn::MotionDerivatives<BallTree, 0, S7>>();
  const hodyn::test::ref::Mat4<S7> c1 = hodyn::test::base_pose_series<S7>(t.c1, t.v1);
  sb->base_pose.rotation = c1.topLeftCorner<3, 3>();
  sb->base_pose.translation = c1.topRightCorner<3, 1>();
  for (int i = 0; i < 6; ++i) {
    std::vector<double> d;
    for (const auto& v : t.v1) d.push_back(v(i));
    sb->base_twist[0](i) = S7::from_derivatives(d);
    sb->base_twist[1](i) = sb->base_twist[0](i).derivative();
  }
  const std::array<S7, 8> x{t.x[0], b2.omega(0), b2.omega(1), b2.omega(2),
                            t.x[4], b4.omega(0), b4.omega(1), b4.omega(2)};
  for (int i = 0; i < 8; ++i) {
    const bool ball = i != 0 && i != 4;
    sb->q[0](i) = ball ? S7(0.0) : x[static_cast<std::size_t>(i)];
    sb->q[1](i) =
        ball ? x[static_cast<std::size_t>(i)] : x[static_cast<std::size_t>(i)].derivative();
    sb->q[2](i) = sb->q[1](i).derivative();
  }
  sb->joint_rotation[0] = b2.r;
  sb->joint_rotation[1] = b4.r;
  auto ds = std::make_unique<hodyn::InverseDynamicsData<BallTree, 0, S7>>();
  ASSERT_EQ(hodyn::inverse_dynamics(mb, *ds, *sb, 0), Status::kOk);
  // Double motion of order kR: the derivatives at t = 0.
  auto md = std::make_unique<hodyn::MotionDerivatives<BallTree, kR, double>>();
  md->base_pose.rotation = t.c1.topLeftCorner<3, 3>();
  md->base_pose.translation = t.c1.topRightCorner<3, 1>();
  for (int k = 0; k <= kR + 1; ++k)
    md->base_twist[static_cast<std::size_t>(k)] = t.v1[static_cast<std::size_t>(k)];
  for (int k = 0; k <= kR + 2; ++k)
    for (int i = 0; i < 8; ++i)
      md->q[static_cast<std::size_t>(k)](i) =
          sb->q[k == 0 ? 0 : 1](i).derivative_value(k == 0 ? 0 : k - 1);
  md->joint_rotation[0] = hodyn::test::ref::derivative_values(b2.r, 0);
  md->joint_rotation[1] = hodyn::test::ref::derivative_values(b4.r, 0);
  auto dd = std::make_unique<hodyn::InverseDynamicsData<BallTree, kR, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(m.ball, *dd, *md, kR), Status::kOk);
  for (int k = 0; k <= kR; ++k) {
    const auto K = static_cast<std::size_t>(k);
    const auto vals = [k](const auto& v) { return hodyn::test::ref::derivative_values(v, k); };
    const double eq = rel_err(dd->base_wrench[K], vals(ds->base_wrench[0]));
    const double eb = rel_err(dd->base_wrench_body[K], vals(ds->base_wrench_body[0]));
    const double et = rel_err(dd->joint_torque[K], vals(ds->joint_torque[0]));
    EXPECT_LE(eq, 1e-11) << "Q1 order " << k;
    EXPECT_LE(eb, 1e-11) << "body-frame Q1 order " << k;
    EXPECT_LE(et, 1e-11) << "tau order " << k;
    worst[K] = std::max({worst[K], eq, eb, et});
  }
}

TEST(SphericalJoint, TaylorOracleOrdersZeroToFiveIncludingGimbalLock) {
  std::array<double, kR + 1> worst{};
  // The middle Euler angle at 0.4 rad, and at π/2: where three revolute
  // joints lose a DoF; the ball does not notice.
  for (unsigned seed : {11u, 12u})
    check_taylor_oracle(make_models(seed), random_trajectory(seed, 0.4), worst);
  check_taylor_oracle(make_models(13u), random_trajectory(13u, M_PI / 2), worst);
  std::cout << "ball joint Taylor oracle, worst relative error per order:";
  for (double w : worst) std::cout << " " << w;
  std::cout << std::endl;
}

TEST(SphericalJoint, ExponentialCoordinatesAndBadRotations) {
  const Models m = make_models(21u);
  auto a = std::make_unique<hodyn::MotionDerivatives<BallTree, 2, double>>();
  std::mt19937 gen(5u);
  std::normal_distribution<double> g(0.0, 1.0);
  for (auto& q : a->q)
    for (int i = 0; i < 8; ++i) q(i) = g(gen);
  for (auto& v : a->base_twist)
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
  const Vec3 delta2(0.3, -1.1, 0.7), delta4(1e-9, 2e-9, -1e-9);  // also near zero
  a->q[0].segment<3>(1) = delta2;
  a->q[0].segment<3>(5) = delta4;
  a->joint_rotation[0] = Eigen::AngleAxisd(0.8, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  a->joint_rotation[1] = Eigen::AngleAxisd(-2.0, Vec3(0, 1, -1).normalized()).toRotationMatrix();
  auto b = std::make_unique<hodyn::MotionDerivatives<BallTree, 2, double>>(*a);
  b->q[0].segment<3>(1).setZero();
  b->q[0].segment<3>(5).setZero();
  b->joint_rotation[0] = a->joint_rotation[0] *
                         Eigen::AngleAxisd(delta2.norm(), delta2.normalized()).toRotationMatrix();
  b->joint_rotation[1] = a->joint_rotation[1] *
                         Eigen::AngleAxisd(delta4.norm(), delta4.normalized()).toRotationMatrix();
  auto da = std::make_unique<hodyn::InverseDynamicsData<BallTree, 2, double>>();
  auto db = std::make_unique<hodyn::InverseDynamicsData<BallTree, 2, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(m.ball, *da, *a, 2), Status::kOk);
  ASSERT_EQ(hodyn::inverse_dynamics(m.ball, *db, *b, 2), Status::kOk);
  for (std::size_t k = 0; k <= 2; ++k) {
    EXPECT_LE(rel_err(da->joint_torque[k], db->joint_torque[k]), 1e-14) << k;
    EXPECT_LE(rel_err(da->base_wrench[k], db->base_wrench[k]), 1e-14) << k;
  }
  // Not a rotation: refused, outputs zero.
  b->joint_rotation[1](0, 1) += 1e-3;
  EXPECT_EQ(hodyn::inverse_dynamics(m.ball, *db, *b, 2), Status::kNonOrthonormalRotation);
  EXPECT_EQ(db->order, -1);
  EXPECT_TRUE(db->joint_torque[0].isZero(0.0));
  b->joint_rotation[1].setConstant(std::nan(""));
  EXPECT_NE(hodyn::inverse_dynamics(m.ball, *db, *b, 2), Status::kOk);
  EXPECT_TRUE(db->base_wrench[0].isZero(0.0));
}

/// Double motions of both trees at t = 0 (orders up to MO) from one trajectory.
template <int MO>
void double_motions(const Trajectory& t, hodyn::MotionDerivatives<BallTree, MO, double>& mb,
                    hodyn::MotionDerivatives<EulerTree, MO, double>& me) {
  const BallSeries b2 = ball_series(t.x[1], t.x[2], t.x[3]);
  const BallSeries b4 = ball_series(t.x[5], t.x[6], t.x[7]);
  for (auto* pose : {&mb.base_pose, &me.base_pose}) {
    pose->rotation = t.c1.topLeftCorner<3, 3>();
    pose->translation = t.c1.topRightCorner<3, 1>();
  }
  for (int k = 0; k <= MO + 1; ++k)
    mb.base_twist[static_cast<std::size_t>(k)] = me.base_twist[static_cast<std::size_t>(k)] =
        t.v1[static_cast<std::size_t>(k)];
  mb.joint_rotation[0] = hodyn::test::ref::derivative_values(b2.r, 0);
  mb.joint_rotation[1] = hodyn::test::ref::derivative_values(b4.r, 0);
  for (int k = 0; k <= MO + 2; ++k) {
    auto& qb = mb.q[static_cast<std::size_t>(k)];
    auto& qe = me.q[static_cast<std::size_t>(k)];
    for (int i = 0; i < 8; ++i) qe(i) = t.x[static_cast<std::size_t>(i)].derivative_value(k);
    qb.setZero();
    qb(0) = qe(0);
    qb(4) = qe(4);
    if (k >= 1)
      for (int i = 0; i < 3; ++i) {
        qb(1 + i) = b2.omega(i).derivative_value(k - 1);
        qb(5 + i) = b4.omega(i).derivative_value(k - 1);
      }
  }
}

TEST(SphericalJoint, KinematicsAndJacobiansEqualThreeRevoluteJoints) {
  constexpr int kOrder = 4;
  constexpr std::array<int, 5> kSame{0, 1, 4, 5, 8};  // Euler body of each ball-tree body
  double worst_twist = 0, worst_jacobian = 0;
  for (unsigned seed : {31u, 32u}) {
    const Models m = make_models(seed);
    const Trajectory t = random_trajectory(seed, seed == 32u ? M_PI / 2 : 0.5);
    auto mb = std::make_unique<hodyn::MotionDerivatives<BallTree, kOrder, double>>();
    auto me = std::make_unique<hodyn::MotionDerivatives<EulerTree, kOrder, double>>();
    double_motions<kOrder>(t, *mb, *me);
    auto kb = std::make_unique<hodyn::KinematicsData<BallTree, kOrder, double>>();
    auto ke = std::make_unique<hodyn::KinematicsData<EulerTree, kOrder, double>>();
    ASSERT_EQ(hodyn::forward_kinematics(m.ball, *kb, *mb, kOrder), Status::kOk);
    ASSERT_EQ(hodyn::forward_kinematics(m.euler, *ke, *me, kOrder), Status::kOk);
    for (int j = 0; j < 5; ++j) {
      const auto J = static_cast<std::size_t>(j), E = static_cast<std::size_t>(kSame[J]);
      EXPECT_LE(rel_err(kb->body_pose[J].matrix(), ke->body_pose[E].matrix()), 1e-14) << j;
      for (int k = 0; k <= kOrder + 1; ++k) {
        const auto K = static_cast<std::size_t>(k);
        const double e = rel_err(kb->body_twist[J][K], ke->body_twist[E][K]);
        EXPECT_LE(e, 1e-12) << "V_" << j << "^(" << k << ")";
        worst_twist = std::max(worst_twist, e);
      }
      // V^(k) = Σ C(k,i) J^(k−i) ν^(i), spatial and local (the body's own frame).
      Eigen::Matrix<double, 6, 14> jac;
      for (int k = 0; k <= kOrder + 1; ++k) {
        Vec6 spatial = Vec6::Zero(), local = Vec6::Zero();
        for (int i = 0; i <= k; ++i) {
          Eigen::Matrix<double, 14, 1> nu;
          nu << t.v1[static_cast<std::size_t>(i)], mb->q[static_cast<std::size_t>(i + 1)];
          const double c = hodyn::binomial<double>(k, i);
          ASSERT_EQ(hodyn::spatial_jacobian(*kb, j, jac, k - i), Status::kOk);
          spatial += c * (jac * nu);
          ASSERT_EQ(hodyn::local_jacobian(*kb, j, jac, k - i), Status::kOk);
          local += c * (jac * nu);
        }
        const auto K = static_cast<std::size_t>(k);
        const double es = rel_err(spatial, kb->body_twist[J][K]);
        EXPECT_LE(es, 1e-12) << "J_" << j << " order " << k;
        // The local twist's derivatives, from the Euler tree's body frame.
        auto fe = std::make_unique<hodyn::FrameKinematicsData<1, kOrder, double>>();
        hodyn::BodyFrame<double> frame;
        frame.body = kSame[J];
        ASSERT_EQ(hodyn::frame_kinematics(*ke, std::array<hodyn::BodyFrame<double>, 1>{frame}, *fe,
                                          kOrder),
                  Status::kOk);
        const double el = rel_err(local, fe->local_twist[0][K]);
        EXPECT_LE(el, 1e-11) << "local J_" << j << " order " << k;
        worst_jacobian = std::max({worst_jacobian, es, el});
      }
    }
  }
  std::cout << "ball kinematics vs three revolute joints: twists " << worst_twist << ", Jacobians "
            << worst_jacobian << std::endl;
}

// Forward and hybrid dynamics of every order invert inverse dynamics (which
// the tests above check against three revolute joints and the Taylor oracle).
TEST(SphericalJoint, ForwardAndHybridDynamicsInvertInverseDynamicsAtEveryOrder) {
  double worst_fd = 0, worst_hybrid = 0;
  for (unsigned seed : {41u, 42u, 43u}) {
    const Models m = make_models(seed);
    std::mt19937 gen(seed);
    std::normal_distribution<double> g(0.0, 1.0);
    auto motion = std::make_unique<hodyn::MotionDerivatives<BallTree, kR, double>>();
    motion->base_pose.rotation =
        Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
    motion->base_pose.translation = Vec3(g(gen), g(gen), g(gen));
    for (auto& v : motion->base_twist)
      for (int i = 0; i < 6; ++i) v(i) = g(gen);
    for (auto& q : motion->q)
      for (int i = 0; i < 8; ++i) q(i) = g(gen);
    for (auto& r : motion->joint_rotation)
      r = Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
    auto id = std::make_unique<hodyn::InverseDynamicsData<BallTree, kR, double>>();
    ASSERT_EQ(hodyn::inverse_dynamics(m.ball, *id, *motion, kR), Status::kOk);
    auto in = std::make_unique<hodyn::HybridDynamicsInput<BallTree, kR, double>>();
    in->base_pose = motion->base_pose;
    in->base_twist = motion->base_twist[0];
    in->q = motion->q[0];
    in->q_dot = motion->q[1];
    in->joint_rotation = motion->joint_rotation;
    for (std::size_t k = 0; k <= kR; ++k) {
      in->base_wrench[k] = id->base_wrench[k];
      in->joint_torque[k] = id->joint_torque[k];
      in->joint_acceleration[k] = motion->q[k + 2];
    }
    auto fd = std::make_unique<hodyn::ForwardDynamicsData<BallTree, kR, double>>();
    ASSERT_EQ(hodyn::forward_dynamics(m.ball, *fd, *in, kR), Status::kOk);
    // The motion back (to the conditioning of M̄ at order 5: ~1e-8 here, as
    // for 1-DoF trees), and the forces of its inverse dynamics to rounding.
    auto back = std::make_unique<hodyn::InverseDynamicsData<BallTree, kR, double>>();
    ASSERT_EQ(hodyn::inverse_dynamics(m.ball, *back, fd->motion, kR), Status::kOk);
    for (std::size_t k = 0; k <= kR; ++k) {
      const double eq = rel_err(fd->motion.q[k + 2], motion->q[k + 2]);
      const double ev = rel_err(fd->motion.base_twist[k + 1], motion->base_twist[k + 1]);
      EXPECT_LE(eq, 1e-7) << "q^(" << k + 2 << ") seed " << seed;
      EXPECT_LE(ev, 1e-7) << "V1^(" << k + 1 << ") seed " << seed;
      const double ef = std::max(rel_err(back->joint_torque[k], id->joint_torque[k]),
                                 rel_err(back->base_wrench[k], id->base_wrench[k]));
      EXPECT_LE(ef, 1e-11) << "ID(FD(tau)) order " << k << " seed " << seed;
      worst_fd = std::max(worst_fd, ef);
    }
    // Hybrid: the first ball's motion given, the rest torque-driven.
    in->motion_prescribed = {false, true, false, false};
    for (std::size_t k = 0; k <= kR; ++k) in->joint_torque[k].segment<3>(1).setConstant(1e3);
    ASSERT_EQ(hodyn::hybrid_dynamics(m.ball, *fd, *in, kR), Status::kOk);
    for (std::size_t k = 0; k <= kR; ++k) {
      const double et =
          rel_err(Vec3(fd->joint_torque[k].segment<3>(1)), Vec3(id->joint_torque[k].segment<3>(1)));
      const double eq = rel_err(fd->motion.q[k + 2], motion->q[k + 2]);
      EXPECT_LE(et, 1e-9) << "ball torque order " << k << " seed " << seed;
      EXPECT_LE(eq, 1e-7) << "q^(" << k + 2 << ") hybrid, seed " << seed;
      worst_hybrid = std::max({worst_hybrid, et, eq});
    }
  }
  std::cout << "ball forward dynamics, orders 0..5: ID(FD(tau)) - tau worst " << worst_fd
            << ", hybrid " << worst_hybrid << std::endl;
}

TEST(SphericalJoint, ModelChecks) {
  hodyn::Model<BallTree, double> m;
  EXPECT_TRUE(m.joint_screw(2).isZero(0.0));  // a ball has no single screw
  EXPECT_EQ(m.set_spherical_joint(2, Vec3(0.1, 0.2, 0.3)), Status::kOk);
  EXPECT_LT((m.joint_axis_point(2) - Vec3(0.1, 0.2, 0.3)).norm(), 1e-16);
  EXPECT_EQ(m.set_spherical_joint(1, Vec3::Zero()), Status::kInvalidModel);  // revolute
  EXPECT_EQ(m.set_spherical_joint(5, Vec3::Zero()), Status::kInvalidArgument);
  EXPECT_EQ(m.set_spherical_joint(2, Vec3(std::nan(""), 0, 0)), Status::kInvalidModel);
  EXPECT_EQ(m.set_revolute_axis(2, Vec3::UnitZ(), Vec3::Zero()), Status::kInvalidModel);
}

}  // namespace
