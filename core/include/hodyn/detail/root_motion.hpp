// hodyn/detail/root_motion.hpp — the pose and twists of body 0 as the
// algorithms read them. A floating base takes them from the caller's motion
// (C₁, V₁^(k)); a root welded to the world (JointKind::kFixedBase) ignores
// those fields and sits at its mount, the home pose A⁰_0, at rest: C₁ = A⁰_0,
// V₁^(k) = 0 for every k. Both branches are compile-time, so floating-base
// code is unchanged.
#pragma once

#include "hodyn/model.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/tree.hpp"

namespace hodyn::detail {

/// C₁: the caller's base pose, or the mount of a fixed root.
template <class Tree, class S>
inline const Pose<S>& root_pose(const Model<Tree, S>& model, const Pose<S>& given) {
  if constexpr (TreeTraits<Tree>::kFixedBase) {
    (void)given;
    return model.home_pose(0);
  } else {
    (void)model;
    return given;
  }
}

/// V₁^(k): the caller's base twist derivative (by reference: a floating base
/// reads it exactly as before), or a zero twist for a fixed root.
template <class Tree, class S>
inline decltype(auto) root_twist(const Twist<S>& given) {
  if constexpr (TreeTraits<Tree>::kFixedBase) {
    (void)given;
    return Twist<S>(Twist<S>::Zero());
  } else {
    return (given);  // const Twist<S>&
  }
}

}  // namespace hodyn::detail
