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
// joint j, a 1-DoF revolute, prismatic or helical joint, a ball (3 DoF) or a
// universal joint (2 DoF) between parent[j] and j. Bodies
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
  /// A ball joint: 3 DoF, configuration a rotation R ∈ SO(3) of the child
  /// relative to the parent about the ball's centre, velocity the child-frame
  /// angular velocity ω (no Euler angles, no singularity; docs/joint-kinds.md).
  kSpherical,
  /// A universal (Cardan) joint: 2 DoF, two revolute sub-joints about unit
  /// axes e₁ then e₂ through one point a, exp([Y₁]θ₁) exp([Y₂]θ₂) with
  /// Y_i = (e_i; a × e_i) at home, e₂ carried by the first rotation; θ₁, θ₂
  /// are ordinary coordinates of q (docs/joint-kinds.md).
  kUniversal,
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
constexpr bool is_spherical(JointKind k) { return k == JointKind::kSpherical; }
constexpr bool is_universal(JointKind k) { return k == JointKind::kUniversal; }
/// Entries of ν (and of q̇, τ) a joint of kind k owns: 3 for a ball, 2 for a
/// universal joint, 1 for the 1-DoF kinds, 0 for a root.
constexpr int joint_dofs(JointKind k) {
  return k == JointKind::kFloatingBase || k == JointKind::kFixedBase ? 0
         : k == JointKind::kSpherical                                ? 3
         : k == JointKind::kUniversal                                ? 2
                                                                     : 1;
}
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
                "parent[j] < j with a revolute, prismatic, helical, spherical or universal joint");
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kNumJoints = Tree::kNumBodies - 1;
  /// True for a root welded to the world: ν = q̇, no base velocities.
  static constexpr bool kFixedBase = Tree::kJoint[0] == JointKind::kFixedBase;
  /// Generalized velocities of the base: 6 (V₁) for a floating base, 0 for a fixed one.
  static constexpr int kBaseDofs = kFixedBase ? 0 : 6;
  /// Entries of the joint vectors q̇, τ: Σ_j n_j (= kNumJoints with 1-DoF joints only).
  static constexpr int kNumJointDofs = [] {
    int n = 0;
    for (int j = 1; j < Tree::kNumBodies; ++j) n += joint_dofs(Tree::kJoint[j]);
    return n;
  }();
  /// True when every joint has one DoF (joint j is entry j − 1 of q, τ).
  static constexpr bool kSingleDofJoints = kNumJointDofs == kNumJoints;
  /// Ball joints in the tree, and the index of each among them (−1: not a ball).
  static constexpr int kNumSphericalJoints = [] {
    int n = 0;
    for (int j = 1; j < Tree::kNumBodies; ++j) n += is_spherical(Tree::kJoint[j]) ? 1 : 0;
    return n;
  }();
  static constexpr std::array<int, Tree::kNumBodies> kSphericalIndex = [] {
    std::array<int, Tree::kNumBodies> t{};
    int n = 0;
    for (int j = 0; j < Tree::kNumBodies; ++j) t[j] = is_spherical(Tree::kJoint[j]) ? n++ : -1;
    return t;
  }();
  /// Universal joints in the tree, and the index of each among them (−1: not one).
  static constexpr int kNumUniversalJoints = [] {
    int n = 0;
    for (int j = 1; j < Tree::kNumBodies; ++j) n += is_universal(Tree::kJoint[j]) ? 1 : 0;
    return n;
  }();
  static constexpr std::array<int, Tree::kNumBodies> kUniversalIndex = [] {
    std::array<int, Tree::kNumBodies> t{};
    int n = 0;
    for (int j = 0; j < Tree::kNumBodies; ++j) t[j] = is_universal(Tree::kJoint[j]) ? n++ : -1;
    return t;
  }();
  /// Body j has no child: its articulated inertia is its rigid one.
  static constexpr std::array<bool, Tree::kNumBodies> kLeaf = [] {
    std::array<bool, Tree::kNumBodies> t{};
    for (int j = 0; j < Tree::kNumBodies; ++j) t[j] = true;
    for (int j = 1; j < Tree::kNumBodies; ++j) t[Tree::kParent[j]] = false;
    return t;
  }();
  /// Entries of ν = (V₁; q̇) (floating) or ν = q̇ (fixed).
  static constexpr int kNumDofs = kBaseDofs + kNumJointDofs;
  /// The first entry of joint j ≥ 1 in the joint vectors (q, q̇, τ): its
  /// entries are contiguous, in body order (j − 1 with 1-DoF joints only).
  static constexpr int joint_entry(int j) {
    if constexpr (kSingleDofJoints)
      return j - 1;  // arithmetic, not a table load
    else
      return kJointEntry[static_cast<std::size_t>(j)];
  }
  /// The first entry of ν (column of a Jacobian, row of M̄) of joint j ≥ 1.
  static constexpr int joint_dof(int j) { return kBaseDofs + joint_entry(j); }
  /// The body whose joint (or, l < kBaseDofs, the base) entry l of ν moves.
  static constexpr int dof_body(int l) {
    if constexpr (kSingleDofJoints)
      return l < kBaseDofs ? 0 : l - kBaseDofs + 1;
    else
      return l < kBaseDofs ? 0 : kDofBody[static_cast<std::size_t>(l - kBaseDofs)];
  }

 private:
  static constexpr std::array<int, Tree::kNumBodies> kJointEntry = [] {
    std::array<int, Tree::kNumBodies> t{};
    int n = 0;
    for (int j = 1; j < Tree::kNumBodies; ++j) {
      t[j] = n;
      n += joint_dofs(Tree::kJoint[j]);
    }
    return t;
  }();
  static constexpr std::array<int, (kNumJointDofs > 0 ? kNumJointDofs : 1)> kDofBody = [] {
    std::array<int, (kNumJointDofs > 0 ? kNumJointDofs : 1)> t{};
    int n = 0;
    for (int j = 1; j < Tree::kNumBodies; ++j)
      for (int i = 0; i < joint_dofs(Tree::kJoint[j]); ++i) t[n++] = j;
    return t;
  }();
};

/// Refuses, at compile time, a tree with a multi-DoF joint in an algorithm
/// that does not take one yet (docs/joint-kinds.md lists which do): a
/// compile error naming the algorithm, never a wrong answer.
#define HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, algorithm)                                  \
  static_assert(::hodyn::TreeTraits<Tree>::kSingleDofJoints, algorithm                    \
                " does not take spherical or universal joints yet (docs/joint-kinds.md: " \
                "inverse dynamics and kinematics do)")

/// Refuses, at compile time, a tree with a universal joint in an algorithm
/// that does not take one yet (docs/joint-kinds.md, "The universal joint",
/// lists which do: forward kinematics, the Jacobians, inverse dynamics): a
/// compile error naming the algorithm, never a wrong answer.
#define HODYN_REFUSE_UNIVERSAL_JOINTS(Tree, algorithm)                         \
  static_assert(::hodyn::TreeTraits<Tree>::kNumUniversalJoints == 0, algorithm \
                " does not take universal joints yet (docs/joint-kinds.md: "   \
                "forward kinematics, the Jacobians and inverse dynamics do)")

/// True when some joint of `Tree` is of kind `K` (a compile-time choice of code path).
template <class Tree, JointKind K>
constexpr bool tree_has_joint_kind() {
  for (int j = 1; j < Tree::kNumBodies; ++j)
    if (Tree::kJoint[j] == K) return true;
  return false;
}

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

/// Calls f(JointTag<K>{}, j) when K is a kind the tree has (only those are
/// instantiated: a large tree of revolute joints compiles no other kind's code).
template <class Tree, JointKind K, class F>
inline void call_if_in_tree(int j, F& f) {
  if constexpr (tree_has_joint_kind<Tree, K>()) f(JointTag<K>{}, j);
}

template <class Tree, class F>
inline void dispatch_joint(JointKind kind, int j, F& f) {
  switch (kind) {
    case JointKind::kRevolute:
      call_if_in_tree<Tree, JointKind::kRevolute>(j, f);
      break;
    case JointKind::kRevoluteX:
      call_if_in_tree<Tree, JointKind::kRevoluteX>(j, f);
      break;
    case JointKind::kRevoluteY:
      call_if_in_tree<Tree, JointKind::kRevoluteY>(j, f);
      break;
    case JointKind::kRevoluteZ:
      call_if_in_tree<Tree, JointKind::kRevoluteZ>(j, f);
      break;
    case JointKind::kPrismatic:
      call_if_in_tree<Tree, JointKind::kPrismatic>(j, f);
      break;
    case JointKind::kPrismaticX:
      call_if_in_tree<Tree, JointKind::kPrismaticX>(j, f);
      break;
    case JointKind::kPrismaticY:
      call_if_in_tree<Tree, JointKind::kPrismaticY>(j, f);
      break;
    case JointKind::kPrismaticZ:
      call_if_in_tree<Tree, JointKind::kPrismaticZ>(j, f);
      break;
    case JointKind::kHelical:
      call_if_in_tree<Tree, JointKind::kHelical>(j, f);
      break;
    case JointKind::kSpherical:
      call_if_in_tree<Tree, JointKind::kSpherical>(j, f);
      break;
    case JointKind::kUniversal:
      call_if_in_tree<Tree, JointKind::kUniversal>(j, f);
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

/// Calls f(JointTag<kind>{}, j) for j = 1, …, N−1 (parents before children).
/// f is instantiated once per joint kind in the tree, and a large f is called
/// out of line: where its body does not depend on the kind, a plain loop
/// `for (int j = 1; j < Tree::kNumBodies; ++j)` keeps one copy of the code
/// (three copies of the state partials' loops were a third of their code, and
/// their time moved by up to 40 % with where the executable sat in memory;
/// docs/linearization.md, "Cost").
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
    for (int j = 1; j < n; ++j) detail::dispatch_joint<Tree>(Tree::kJoint[j], j, f);
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
    for (int j = n - 1; j >= 1; --j) detail::dispatch_joint<Tree>(Tree::kJoint[j], j, f);
  }
}

}  // namespace hodyn
