// hodyn/joint_limits.hpp — position, velocity and effort limits of a 1-DoF joint.
//
// Plain data, as a URDF <limit> gives them (tools/urdf, docs/urdf.md): the
// dynamics never read them; controllers, planners and simulators may. Units
// follow the joint: rad, rad/s, N·m for a revolute joint; m, m/s, N for a
// prismatic one. Positions are in the joint's own sense (q positive about or
// along its axis as set in the Model).
#pragma once

#include <limits>

namespace hodyn {

struct JointLimits {
  double lower = -std::numeric_limits<double>::infinity();    ///< lowest q; −∞ when !bounded
  double upper = std::numeric_limits<double>::infinity();     ///< highest q; +∞ when !bounded
  double velocity = std::numeric_limits<double>::infinity();  ///< largest |q̇|; +∞ if not given
  double effort = std::numeric_limits<double>::infinity();    ///< largest |τ|; +∞ if not given
  bool bounded = false;  ///< false for a continuous joint: q is not limited
};

/// q within [lower, upper] (always true for an unbounded joint).
constexpr bool within_position_limits(const JointLimits& limits, double q) {
  return !limits.bounded || (q >= limits.lower && q <= limits.upper);
}

}  // namespace hodyn
