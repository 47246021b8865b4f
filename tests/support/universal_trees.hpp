// The universal-joint test trees shared by tests/core/test_universal_joint*.cpp:
// UniTree (a floating base, a revolute joint, a universal joint with a
// revolute child under it, a universal joint with a universal child under the
// base: ν has 6 + 8 entries), UniFixed (a fixed root, universal – universal –
// revolute: ν has 5), and their twins UniTwin, UniFixedTwin (each universal
// joint as revolute(e₁), a massless body, revolute(e₂) through the same
// point; the same ν layout), both models of a pair with the same seeded
// random bodies (make_pair, floating_pair, fixed_pair), and one random state
// for both trees (random_states).
#pragma once

#include <hodyn/hodyn.hpp>

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <array>
#include <cstddef>
#include <random>

namespace hodyn {
namespace test {
namespace universal_trees {

using hodyn::JointKind;
using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

// A floating base; body 1 revolute; body 2 on a universal joint under it with
// a revolute child (body 3); body 4 on a universal joint under the base with a
// universal child (body 5). ν has 6 + 8 entries.
struct UniTree {
  static constexpr int kNumBodies = 6;
  static constexpr std::array<int, 6> kParent{-1, 0, 1, 2, 0, 4};
  static constexpr std::array<JointKind, 6> kJoint{JointKind::kFloatingBase, JointKind::kRevolute,
                                                   JointKind::kUniversal,    JointKind::kRevolute,
                                                   JointKind::kUniversal,    JointKind::kUniversal};
};
// Each universal joint as revolute(e₁), a massless body, revolute(e₂).
struct UniTwin {
  static constexpr int kNumBodies = 9;
  static constexpr std::array<int, 9> kParent{-1, 0, 1, 2, 3, 0, 5, 6, 7};
  static constexpr std::array<JointKind, 9> kJoint{
      JointKind::kFloatingBase, JointKind::kRevolute, JointKind::kRevolute,
      JointKind::kRevolute,     JointKind::kRevolute, JointKind::kRevolute,
      JointKind::kRevolute,     JointKind::kRevolute, JointKind::kRevolute};
};
// A fixed root; a universal joint with a universal child and a revolute grandchild.
struct UniFixed {
  static constexpr int kNumBodies = 4;
  static constexpr std::array<int, 4> kParent{-1, 0, 1, 2};
  static constexpr std::array<JointKind, 4> kJoint{JointKind::kFixedBase, JointKind::kUniversal,
                                                   JointKind::kUniversal, JointKind::kRevolute};
};
struct UniFixedTwin {
  static constexpr int kNumBodies = 6;
  static constexpr std::array<int, 6> kParent{-1, 0, 1, 2, 3, 4};
  static constexpr std::array<JointKind, 6> kJoint{JointKind::kFixedBase, JointKind::kRevolute,
                                                   JointKind::kRevolute,  JointKind::kRevolute,
                                                   JointKind::kRevolute,  JointKind::kRevolute};
};

/// A tree, its twin, which twin body each body is, and which are universal.
template <class Tree, class Twin>
struct Pair {
  hodyn::Model<Tree, double> uni;
  hodyn::Model<Twin, double> twin;
  std::array<int, Tree::kNumBodies> same{};  // twin body of each body
};

inline Mat3 random_rotation(std::mt19937& gen) {
  std::normal_distribution<double> g(0.0, 1.0);
  return Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
}

/// Both models with the same seeded random bodies, axes and points: the
/// universal joints' e₁, e₂ random (one pair made perpendicular, the others
/// not), the twin's dummy bodies massless.
template <class Tree, class Twin>
Pair<Tree, Twin> make_pair(unsigned seed, const std::array<int, Tree::kNumBodies>& same) {
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
  const auto massless =
      SpatialInertia<double>::from_mass_com_inertia(0.0, Vec3::Zero(), Mat3::Zero());
  Pair<Tree, Twin> p;
  p.same = same;
  for (int t = 0; t < Twin::kNumBodies; ++t)
    EXPECT_EQ(p.twin.set_body(t, Pose<double>::identity(), massless), Status::kOk);
  bool perpendicular = true;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    Pose<double> at;
    at.rotation = random_rotation(gen);
    at.translation = vec(0.5);
    const SpatialInertia<double> body = inertia();
    EXPECT_EQ(p.uni.set_body(j, at, body), Status::kOk);
    EXPECT_EQ(p.twin.set_body(same[J], at, body), Status::kOk);
    if (j == 0) continue;
    const Vec3 point = vec(0.5);
    const Vec3 e1 = vec(1).normalized();
    if (hodyn::is_universal(Tree::kJoint[J])) {
      Vec3 e2 = vec(1).normalized();
      if (perpendicular) e2 = e1.cross(e2).normalized();  // the first one: e₁ ⟂ e₂
      perpendicular = false;
      EXPECT_EQ(p.uni.set_universal_joint(j, point, e1, e2), Status::kOk);
      EXPECT_EQ(p.twin.set_revolute_axis(same[J] - 1, e1, point), Status::kOk);
      EXPECT_EQ(p.twin.set_revolute_axis(same[J], e2, point), Status::kOk);
    } else {
      EXPECT_EQ(p.uni.set_revolute_axis(j, e1, point), Status::kOk);
      EXPECT_EQ(p.twin.set_revolute_axis(same[J], e1, point), Status::kOk);
    }
  }
  const Vec3 g = 9.81 * vec(1).normalized();
  EXPECT_EQ(p.uni.set_gravity(g), Status::kOk);
  EXPECT_EQ(p.twin.set_gravity(g), Status::kOk);
  return p;
}

inline Pair<UniTree, UniTwin> floating_pair(unsigned seed) {
  return make_pair<UniTree, UniTwin>(seed, {0, 1, 3, 4, 6, 8});
}
inline Pair<UniFixed, UniFixedTwin> fixed_pair(unsigned seed) {
  return make_pair<UniFixed, UniFixedTwin>(seed, {0, 2, 4, 5});
}

/// The same random state for both trees (ν has the same layout in both).
template <class Tree, class Twin, int MO>
void random_states(unsigned seed, hodyn::MotionDerivatives<Tree, MO, double>& a,
                   hodyn::MotionDerivatives<Twin, MO, double>& b) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  a.base_pose.rotation = random_rotation(gen);
  a.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (auto& v : a.base_twist)
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
  for (auto& q : a.q)
    for (int i = 0; i < q.size(); ++i) q(i) = 1.5 * g(gen);
  b.base_pose = a.base_pose;
  b.base_twist = a.base_twist;
  for (std::size_t k = 0; k < a.q.size(); ++k) b.q[k] = a.q[k];
}

}  // namespace universal_trees
}  // namespace test
}  // namespace hodyn
