// The ball-joint test trees shared by tests/core/test_spherical_joint_*.cpp:
// BallTree (a floating base, a revolute joint, a ball with a revolute child
// under it, a ball at a leaf: ν has 6 + 8 entries), EulerTree (each ball as
// revolute joints about x, y, z through its centre with massless links),
// both with the same seeded random bodies, a random ball-tree state, ν and τ̄
// of a ball-tree state, and the Euler twin of a ball-tree state (euler_pair).
#pragma once

#include <hodyn/constrained_dynamics.hpp>
#include <hodyn/hodyn.hpp>

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <memory>
#include <random>

namespace hodyn {
namespace test {
namespace ball_trees {

using hodyn::JointKind;
using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

// A floating base; body 1 revolute; body 2 on a ball under it with a revolute
// child (body 3); body 4 on a ball under the base (a leaf). ν has 6 + 8 entries.
struct BallTree {
  static constexpr int kNumBodies = 5;
  static constexpr std::array<int, 5> kParent{-1, 0, 1, 2, 0};
  static constexpr std::array<JointKind, 5> kJoint{JointKind::kFloatingBase, JointKind::kRevolute,
                                                   JointKind::kSpherical, JointKind::kRevolute,
                                                   JointKind::kSpherical};
};
// Each ball as revolute x, y, z through its centre; bodies 2, 3 and 6, 7 massless.
struct EulerTree {
  static constexpr int kNumBodies = 9;
  static constexpr std::array<int, 9> kParent{-1, 0, 1, 2, 3, 4, 0, 6, 7};
  static constexpr std::array<JointKind, 9> kJoint{
      JointKind::kFloatingBase, JointKind::kRevolute,  JointKind::kRevoluteX,
      JointKind::kRevoluteY,    JointKind::kRevoluteZ, JointKind::kRevolute,
      JointKind::kRevoluteX,    JointKind::kRevoluteY, JointKind::kRevoluteZ};
};
inline constexpr std::array<int, 5> kSameBody{0, 1, 4, 5, 8};  // Euler body of each ball-tree body
static_assert(hodyn::TreeTraits<BallTree>::kNumDofs == 14);
static_assert(hodyn::TreeTraits<EulerTree>::kNumDofs == 14);

struct Models {
  hodyn::Model<BallTree, double> ball;
  hodyn::Model<EulerTree, double> euler;
};

inline Mat3 random_rotation(std::mt19937& gen) {
  std::normal_distribution<double> g(0.0, 1.0);
  return Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
}

/// A loop closure of `kind` between bodies a and b, its two frames at random
/// placements (offsets within ±0.2 m) drawn from `seed`.
inline hodyn::LoopClosure<double> closure(hodyn::LoopClosureKind kind, int a, int b,
                                          unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  hodyn::LoopClosure<double> c;
  c.kind = kind;
  c.frame_a.body = a;
  c.frame_a.placement.rotation = random_rotation(gen);
  c.frame_a.placement.translation = Vec3(u(gen), u(gen), u(gen));
  c.frame_b.body = b;
  c.frame_b.placement.rotation = random_rotation(gen);
  c.frame_b.placement.translation = Vec3(u(gen), u(gen), u(gen));
  return c;
}

/// Both trees with the same bodies (seeded random parameters).
inline Models make_models(unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto vec = [&](double s) { return Vec3(s * u(gen), s * u(gen), s * u(gen)); };
  const auto inertia = [&]() {
    const Mat3 q = random_rotation(gen);
    const Vec3 d(0.01 + 0.01 * (u(gen) + 1), 0.01 + 0.01 * (u(gen) + 1),
                 0.01 + 0.01 * (u(gen) + 1));
    const Mat3 ic = q * Vec3(d(1) + d(2), d(0) + d(2), d(0) + d(1)).asDiagonal() * q.transpose();
    return SpatialInertia<double>::from_mass_com_inertia(0.5 + 0.5 * (u(gen) + 1), vec(0.1),
                                                         Mat3((ic + ic.transpose()) / 2));
  };
  const auto pose = [&]() {
    Pose<double> p;
    p.rotation = random_rotation(gen);
    p.translation = vec(0.5);
    return p;
  };
  const auto massless =
      SpatialInertia<double>::from_mass_com_inertia(0.0, Vec3::Zero(), Mat3::Zero());
  std::array<SpatialInertia<double>, 5> body;
  std::array<Pose<double>, 5> at;
  for (int j = 0; j < 5; ++j) {
    body[static_cast<std::size_t>(j)] = inertia();
    at[static_cast<std::size_t>(j)] = pose();
  }
  const Vec3 e1 = vec(1).normalized(), a1 = vec(0.5), c2 = vec(0.5), e3 = vec(1).normalized(),
             a3 = vec(0.5), c4 = vec(0.5);
  const Vec3 g = 9.81 * vec(1).normalized();
  Models m;
  for (int j = 0; j < 5; ++j) {
    const auto J = static_cast<std::size_t>(j);
    EXPECT_EQ(m.ball.set_body(j, at[J], body[J]), Status::kOk);
    EXPECT_EQ(m.euler.set_body(kSameBody[J], at[J], body[J]), Status::kOk);
  }
  for (int j : {2, 3, 6, 7})
    EXPECT_EQ(m.euler.set_body(j, Pose<double>::identity(), massless), Status::kOk);
  EXPECT_EQ(m.ball.set_revolute_axis(1, e1, a1), Status::kOk);
  EXPECT_EQ(m.ball.set_spherical_joint(2, c2), Status::kOk);
  EXPECT_EQ(m.ball.set_revolute_axis(3, e3, a3), Status::kOk);
  EXPECT_EQ(m.ball.set_spherical_joint(4, c4), Status::kOk);
  EXPECT_EQ(m.euler.set_revolute_axis(1, e1, a1), Status::kOk);
  EXPECT_EQ(m.euler.set_revolute_axis(5, e3, a3), Status::kOk);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m.euler.set_revolute_axis(2 + i, Vec3::Unit(i), c2), Status::kOk);
    EXPECT_EQ(m.euler.set_revolute_axis(6 + i, Vec3::Unit(i), c4), Status::kOk);
  }
  EXPECT_EQ(m.ball.set_gravity(g), Status::kOk);
  EXPECT_EQ(m.euler.set_gravity(g), Status::kOk);
  return m;
}

template <int MO>
using BallMotion = hodyn::MotionDerivatives<BallTree, MO, double>;

/// A random state: base pose and twists, every entry of q[k] (δ ≠ 0 for the
/// balls) and R_j of random axis, one of them turned by nearly π.
template <int MO>
void random_state(unsigned seed, BallMotion<MO>& m) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  m.base_pose.rotation = random_rotation(gen);
  m.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (auto& v : m.base_twist)
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
  for (auto& q : m.q)
    for (int i = 0; i < 8; ++i) q(i) = g(gen);
  m.joint_rotation[0] = random_rotation(gen);
  m.joint_rotation[1] =
      Eigen::AngleAxisd(M_PI - 1e-3, Vec3(g(gen), g(gen), g(gen)).normalized()).toRotationMatrix();
}

// Bodies out of depth-first order: 1 (ball) and 2 (prismatic) on the base;
// 3 (helical) on 1; 4 (ball) on 2; 5 (ball) on 3 — a ball under a helical
// joint under a ball; 6 (revolute about −x: sense −1) on 1; 7 (general
// revolute) on 4. ν: 6 + 3 + 1 + 1 + 3 + 3 + 1 + 1 = 19.
template <JointKind kRoot>
struct MixedTreeOf {
  static constexpr int kNumBodies = 8;
  static constexpr std::array<int, 8> kParent{-1, 0, 0, 1, 2, 3, 1, 4};
  static constexpr std::array<JointKind, 8> kJoint{kRoot,
                                                   JointKind::kSpherical,
                                                   JointKind::kPrismatic,
                                                   JointKind::kHelical,
                                                   JointKind::kSpherical,
                                                   JointKind::kSpherical,
                                                   JointKind::kRevoluteX,
                                                   JointKind::kRevolute};
};
/// MixedTreeOf's bodies and joints, seeded random.
template <class Tree>
hodyn::Model<Tree, double> mixed_model(unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto vec = [&](double s) { return Vec3(s * u(gen), s * u(gen), s * u(gen)); };
  hodyn::Model<Tree, double> model;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    Pose<double> home;
    home.rotation = random_rotation(gen);
    home.translation = vec(0.5);
    const Mat3 q = random_rotation(gen);
    const Vec3 d(0.01 + 0.01 * (u(gen) + 1), 0.01 + 0.01 * (u(gen) + 1),
                 0.01 + 0.01 * (u(gen) + 1));
    const Mat3 ic = q * Vec3(d(1) + d(2), d(0) + d(2), d(0) + d(1)).asDiagonal() * q.transpose();
    EXPECT_EQ(model.set_body(j, home,
                             hodyn::SpatialInertia<double>::from_mass_com_inertia(
                                 1.0 + 0.5 * u(gen), vec(0.1), Mat3((ic + ic.transpose()) / 2))),
              Status::kOk);
  }
  EXPECT_EQ(model.set_spherical_joint(1, vec(0.5)), Status::kOk);
  EXPECT_EQ(model.set_prismatic_axis(2, vec(1).normalized()), Status::kOk);
  EXPECT_EQ(model.set_helical_axis(3, vec(1).normalized(), vec(0.5), 0.05), Status::kOk);
  EXPECT_EQ(model.set_spherical_joint(4, vec(0.5)), Status::kOk);
  EXPECT_EQ(model.set_spherical_joint(5, vec(0.5)), Status::kOk);
  EXPECT_EQ(model.set_revolute_axis(6, Vec3(-1, 0, 0), vec(0.5)), Status::kOk);
  EXPECT_EQ(model.set_revolute_axis(7, vec(1).normalized(), vec(0.5)), Status::kOk);
  EXPECT_EQ(model.set_gravity(Vec3(0, 0, -9.81)), Status::kOk);
  EXPECT_EQ(model.joint_sense(6), -1.0);  // the sense path is exercised
  return model;
}

using Vec14 = Eigen::Matrix<double, 14, 1>;
using Mat14 = Eigen::Matrix<double, 14, 14>;

template <int MO>
Vec14 nu(const BallMotion<MO>& m, int k) {  // ν^(k) = (V1^(k); q^(k+1))
  Vec14 v;
  v << m.base_twist[static_cast<std::size_t>(k)], m.q[static_cast<std::size_t>(k + 1)];
  return v;
}

/// τ̄ = (Q₁; τ) of order-0 inverse dynamics with ν̇ replaced by `nu_dot`.
inline Vec14 generalized_force(const hodyn::Model<BallTree, double>& model, BallMotion<0> m,
                               const Vec14& nu_dot) {
  m.base_twist[1] = nu_dot.head<6>();
  m.q[2] = nu_dot.tail<8>();
  auto id = std::make_unique<hodyn::InverseDynamicsData<BallTree, 0, double>>();
  EXPECT_EQ(hodyn::inverse_dynamics(model, *id, m, 0), Status::kOk);
  Vec14 f;
  f << id->base_wrench[0], id->joint_torque[0];
  return f;
}

/// ω = E (ȧ, ḃ, ċ) for R = Rx(a) Ry(b) Rz(c): columns Rz(c)ᵀ Ry(b)ᵀ x,
/// Rz(c)ᵀ y, z (child frame); any scalar (series give Ė).
template <class S>
Eigen::Matrix<S, 3, 3> euler_rate_map(const S& b, const S& c) {
  using std::cos;
  using std::sin;
  Eigen::Matrix<S, 3, 3> e;
  // Rz(c)ᵀ Ry(b)ᵀ x = Rz(c)ᵀ (cos b, 0, sin b), Rz(c)ᵀ y = (sin c, cos c, 0).
  e << cos(b) * cos(c), sin(c), S(0),  //
      -cos(b) * sin(c), cos(c), S(0),  //
      sin(b), S(0), S(1);
  return e;
}

/// The Euler tree's state at the ball tree's configuration R_j = Rx(a) Ry(b) Rz(c)
/// (δ = 0), with a random ν_euler, and B: ν_ball = B ν_euler.
struct EulerPair {
  BallMotion<1> ball;
  hodyn::MotionDerivatives<EulerTree, 1, double> euler;
  Mat14 b = Mat14::Zero();
};

inline Mat3 rot(int axis, double angle) {
  return Eigen::AngleAxisd(angle, Vec3::Unit(axis)).matrix();
}

inline EulerPair euler_pair(unsigned seed, double middle_angle) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  EulerPair p;
  p.euler.base_pose.rotation = random_rotation(gen);
  p.euler.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (auto& v : p.euler.base_twist)
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
  for (auto& q : p.euler.q)
    for (int i = 0; i < 8; ++i) q(i) = g(gen);
  p.euler.q[0](2) = middle_angle;  // b of the first ball, away from ±π/2
  p.ball.base_pose = p.euler.base_pose;
  p.ball.base_twist = p.euler.base_twist;
  p.b.topLeftCorner<6, 6>().setIdentity();
  p.b(6, 6) = p.b(10, 10) = 1;
  for (auto& q : p.ball.q) q.setZero();
  p.ball.q[0](0) = p.euler.q[0](0);
  p.ball.q[0](4) = p.euler.q[0](4);
  for (int ball = 0; ball < 2; ++ball) {
    const int first = 1 + 4 * ball;  // a, b, c in q; the ball's ω in the same entries
    const double a = p.euler.q[0](first), b = p.euler.q[0](first + 1), c = p.euler.q[0](first + 2);
    p.ball.joint_rotation[static_cast<std::size_t>(ball)] = rot(0, a) * rot(1, b) * rot(2, c);
    // ω = E (ȧ, ḃ, ċ), columns Rz(c)ᵀ Ry(b)ᵀ x, Rz(c)ᵀ y, z (child frame).
    Mat3 e;
    e.col(0) = rot(2, c).transpose() * rot(1, b).transpose() * Vec3::UnitX();
    e.col(1) = rot(2, c).transpose() * Vec3::UnitY();
    e.col(2) = Vec3::UnitZ();
    p.b.block<3, 3>(6 + first, 6 + first) = e;
  }
  const Vec14 nu_ball = p.b * (Vec14() << p.euler.base_twist[0], p.euler.q[1]).finished();
  p.ball.q[1] = nu_ball.tail<8>();
  return p;
}

}  // namespace ball_trees
}  // namespace test
}  // namespace hodyn
