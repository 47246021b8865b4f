// hodyn/tree.hpp — the compile-time shape of a kinematic tree: a floating base
// (aerial manipulators) or a root welded to the world (fixed-base arms).
//
// A tree is a type with three static members:
//
//   struct MyRobot {
//     static constexpr int kNumBodies = 3;                        // base + 2 links
//     static constexpr std::array<int, 3> kParent{-1, 0, 1};      // parent[j] < j
//     static constexpr std::array<JointKind, 3> kJoint{
//         JointKind::kFloatingBase, JointKind::kRevoluteZ, JointKind::kRevolute};
//   };
//
// Body 0 is the floating base (its pose lives on SE(3)) or, with
// JointKind::kFixedBase, a root welded to the world at its home pose (its
// "mount": Model::set_body of body 0); body j ≥ 1 is moved by
// joint j, a 1-DoF revolute, prismatic or helical joint between parent[j] and j. Bodies
// are numbered in topological order (parent before child), so the forward
// pass is a loop upward and the backward pass a loop downward. Joint j is the
// (j−1)-th entry of the joint vector q. The paper numbers bodies 1..N; hodyn
// numbers them 0..N−1.
//
// Geometry and inertias are not part of the tree: they are run-time values of
// `Model<Tree, Scalar>`.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace hodyn {

/// The joint that connects a body to its parent. The axis-aligned kinds are
/// fast paths (their screw axis at home is a coordinate axis, in the world
/// frame at the home configuration); the general kinds take any unit axis.
enum class JointKind : std::uint8_t {
  kFloatingBase,  ///< only body 0: the base, free in SE(3)
  kRevolute,
  kRevoluteX,
  kRevoluteY,
  kRevoluteZ,
  kPrismatic,
  kPrismaticX,
  kPrismaticY,
  kPrismaticZ,
  kFixedBase,  ///< only body 0: the root, welded to the world at its home pose
  /// A screw joint of pitch h (metres per radian) about a general unit axis e
  /// through a point a: rotation θ about the axis and translation h θ along
  /// it, Y = (e; a × e + h e). Pitch 0 is a revolute joint (docs/joint-kinds.md).
  kHelical,
};

constexpr bool is_revolute(JointKind k) {
  return k == JointKind::kRevolute || k == JointKind::kRevoluteX || k == JointKind::kRevoluteY ||
         k == JointKind::kRevoluteZ;
}
constexpr bool is_prismatic(JointKind k) {
  return k == JointKind::kPrismatic || k == JointKind::kPrismaticX || k == JointKind::kPrismaticY ||
         k == JointKind::kPrismaticZ;
}
constexpr bool is_helical(JointKind k) { return k == JointKind::kHelical; }
/// The joint turns its body about the axis (revolute or helical).
constexpr bool joint_rotates(JointKind k) { return is_revolute(k) || is_helical(k); }
/// The joint moves its body along the axis (prismatic or helical).
constexpr bool joint_translates(JointKind k) { return is_prismatic(k) || is_helical(k); }
/// Index 0/1/2 of the coordinate axis of an axis-aligned kind, −1 for a general one.
constexpr int aligned_axis(JointKind k) {
  switch (k) {
    case JointKind::kRevoluteX:
    case JointKind::kPrismaticX:
      return 0;
    case JointKind::kRevoluteY:
    case JointKind::kPrismaticY:
      return 1;
    case JointKind::kRevoluteZ:
    case JointKind::kPrismaticZ:
      return 2;
    default:
      return -1;
  }
}

/// The two kinds only body 0 has: a floating base or a root welded to the world.
constexpr bool is_root_kind(JointKind k) {
  return k == JointKind::kFloatingBase || k == JointKind::kFixedBase;
}

/// True when `Tree` is a valid topology: body 0 is the root (floating or
/// fixed) and has no parent, every other body has a 1-DoF joint and a parent
/// before it.
template <class Tree>
constexpr bool is_valid_tree() {
  if (Tree::kNumBodies < 1) return false;
  if (Tree::kParent[0] != -1 || !is_root_kind(Tree::kJoint[0])) return false;
  for (int j = 1; j < Tree::kNumBodies; ++j) {
    if (Tree::kParent[j] < 0 || Tree::kParent[j] >= j) return false;
    if (is_root_kind(Tree::kJoint[j])) return false;
  }
  return true;
}

/// Compile-time facts about a tree.
template <class Tree>
struct TreeTraits {
  static_assert(is_valid_tree<Tree>(),
                "Tree: parent[0] must be -1 with kFloatingBase or kFixedBase, every other "
                "parent[j] < j with a revolute, prismatic or helical joint");
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kNumJoints = Tree::kNumBodies - 1;
  /// True for a root welded to the world: ν = q̇, no base velocities.
  static constexpr bool kFixedBase = Tree::kJoint[0] == JointKind::kFixedBase;
  /// Generalized velocities of the base: 6 (V₁) for a floating base, 0 for a fixed one.
  static constexpr int kBaseDofs = kFixedBase ? 0 : 6;
  /// Entries of ν = (V₁; q̇) (floating) or ν = q̇ (fixed).
  static constexpr int kNumDofs = kBaseDofs + kNumJoints;
  /// The entry of ν (column of a Jacobian, row of M̄) of joint j ≥ 1.
  static constexpr int joint_dof(int j) { return kBaseDofs + j - 1; }
  /// The body whose joint (or, l < kBaseDofs, the base) entry l of ν moves.
  static constexpr int dof_body(int l) { return l < kBaseDofs ? 0 : l - kBaseDofs + 1; }
};

/// A joint kind as a type, so that per-joint code is chosen at compile time.
template <JointKind K>
using JointTag = std::integral_constant<JointKind, K>;

/// Trees up to this many bodies get their body loops fully unrolled, with the
/// joint kind of every body a compile-time constant. Larger trees run a loop
/// that switches on the joint kind per body (a perfectly predicted branch).
inline constexpr int kUnrollBodiesUpTo = 64;

namespace detail {

template <class Tree, class F, int... Js>
inline void for_each_joint_unrolled(F& f, std::integer_sequence<int, Js...>) {
  (f(JointTag<Tree::kJoint[Js + 1]>{}, Js + 1), ...);
}
template <class Tree, class F, int... Js>
inline void for_each_joint_reverse_unrolled(F& f, std::integer_sequence<int, Js...>) {
  (f(JointTag<Tree::kJoint[Tree::kNumBodies - 1 - Js]>{}, Tree::kNumBodies - 1 - Js), ...);
}

template <class F>
inline void dispatch_joint(JointKind kind, int j, F& f) {
  switch (kind) {
    case JointKind::kRevolute:
      f(JointTag<JointKind::kRevolute>{}, j);
      break;
    case JointKind::kRevoluteX:
      f(JointTag<JointKind::kRevoluteX>{}, j);
      break;
    case JointKind::kRevoluteY:
      f(JointTag<JointKind::kRevoluteY>{}, j);
      break;
    case JointKind::kRevoluteZ:
      f(JointTag<JointKind::kRevoluteZ>{}, j);
      break;
    case JointKind::kPrismatic:
      f(JointTag<JointKind::kPrismatic>{}, j);
      break;
    case JointKind::kPrismaticX:
      f(JointTag<JointKind::kPrismaticX>{}, j);
      break;
    case JointKind::kPrismaticY:
      f(JointTag<JointKind::kPrismaticY>{}, j);
      break;
    case JointKind::kPrismaticZ:
      f(JointTag<JointKind::kPrismaticZ>{}, j);
      break;
    case JointKind::kHelical:
      f(JointTag<JointKind::kHelical>{}, j);
      break;
    case JointKind::kFloatingBase:
    case JointKind::kFixedBase:
      break;
  }
}

template <class Tree>
constexpr bool all_joints_alike() {
  for (int j = 2; j < Tree::kNumBodies; ++j)
    if (Tree::kJoint[j] != Tree::kJoint[1]) return false;
  return true;
}

}  // namespace detail

/// True when some joint of `Tree` is of kind `K` (a compile-time choice of code path).
template <class Tree, JointKind K>
constexpr bool tree_has_joint_kind() {
  for (int j = 1; j < Tree::kNumBodies; ++j)
    if (Tree::kJoint[j] == K) return true;
  return false;
}

/// Calls f(JointTag<kind>{}, j) for j = 1, …, N−1 (parents before children).
template <class Tree, class F>
inline void for_each_joint(F&& f) {
  constexpr int n = Tree::kNumBodies;
  if constexpr (n <= 1) {
    return;
  } else if constexpr (n <= kUnrollBodiesUpTo) {
    detail::for_each_joint_unrolled<Tree>(f, std::make_integer_sequence<int, n - 1>{});
  } else if constexpr (detail::all_joints_alike<Tree>()) {
    for (int j = 1; j < n; ++j) f(JointTag<Tree::kJoint[1]>{}, j);
  } else {
    for (int j = 1; j < n; ++j) detail::dispatch_joint(Tree::kJoint[j], j, f);
  }
}

/// Calls f(JointTag<kind>{}, j) for j = N−1, …, 1 (children before parents).
template <class Tree, class F>
inline void for_each_joint_reverse(F&& f) {
  constexpr int n = Tree::kNumBodies;
  if constexpr (n <= 1) {
    return;
  } else if constexpr (n <= kUnrollBodiesUpTo) {
    detail::for_each_joint_reverse_unrolled<Tree>(f, std::make_integer_sequence<int, n - 1>{});
  } else if constexpr (detail::all_joints_alike<Tree>()) {
    for (int j = n - 1; j >= 1; --j) f(JointTag<Tree::kJoint[1]>{}, j);
  } else {
    for (int j = n - 1; j >= 1; --j) detail::dispatch_joint(Tree::kJoint[j], j, f);
  }
}

}  // namespace hodyn
