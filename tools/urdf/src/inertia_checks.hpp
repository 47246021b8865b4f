// tools/urdf/src/inertia_checks.hpp — is a rotational inertia that of a rigid body?
#pragma once

#include <Eigen/Core>

#include <string>

namespace hodyn_urdf {

/// Relative tolerance of the checks, times the trace of the inertia: URDF
/// files print their numbers to finite precision, and a flat plate sits
/// exactly on the triangle inequality.
inline constexpr double kInertiaTolerance = 1e-9;

/// Empty if `inertia_about_com` (symmetric) is a rigid body's inertia about its
/// centre of mass: principal moments λ₁ ≤ λ₂ ≤ λ₃ with λ₁ ≥ 0 (positive
/// semi-definite) and λ₁ + λ₂ ≥ λ₃ (the triangle inequality: Ixx + Iyy ≥ Izz
/// about every set of axes, since Ixx + Iyy − Izz = 2 ∫ z² dm). Otherwise a
/// one-line description of what is wrong.
std::string inertia_problem(const Eigen::Matrix3d& inertia_about_com);

}  // namespace hodyn_urdf
