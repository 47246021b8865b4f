// tools/urdf/src/articulated_check.hpp — refuses robots whose dynamics are singular.
#pragma once

#include "robot_model.hpp"

namespace hodyn_urdf {

/// Relative tolerance of the check (times the scale of the articulated inertia).
inline constexpr double kSingularTolerance = 1e-10;

/// Runs the articulated-body inertia recursion at home (Featherstone; seed 000
/// eq. 23): M^A_j = M_j + Σ_children (M^A_c − M^A_c s_c s_cᵀ M^A_c / D_c),
/// D_j = s_jᵀ M^A_j s_j. Forward dynamics divides by every D_j and inverts
/// the base's M^A_0, so each D_j must be positive and M^A_0 positive definite.
/// A massless body is fine when what it carries gives its joint inertia; it is
/// singular when its subtree is massless (e.g. a massless leaf), or when its
/// children's joints can absorb its motion (a massless link between two
/// collinear revolute joints; a massless base with a single joint below it),
/// and so is a point mass on its joint's axis. Throws ToolError naming the
/// joint (or the root link). Checked at home only: a configuration-dependent
/// singularity (axes that line up at some q) is not found here.
void check_articulated_inertias(const RobotModel& model);

}  // namespace hodyn_urdf
