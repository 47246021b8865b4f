// hodyn/simulator/equilibrium.hpp — the plant state (and feedforward input)
// that realises a given motion instantaneously; used to start a closed-loop
// run on its reference, e.g. in hover.
//
// Inverse dynamics of order 0 on the plant's model gives the base-frame
// propulsion wrench W and the joint torques τ of the motion
// (C₁, V₁, V̇₁, q, q̇, q̈). Then (models/actuation.hpp):
//   ω² = A⁻¹ W  (ω_i = √(ω_i²), clamped to [ω_min, ω_max]),  ω_cmd = ω  (ω̇ = 0),
//   θ = q + K⁻¹ τ,  θ̇ = q̇   (so that τ_el = τ; the damping term vanishes),
//   u = τ + F θ̇ + B q̈        (θ̈ = q̈: exact when τ is constant, e.g. hover).
#pragma once

#include "hodyn/simulator/plant_parameters.hpp"

namespace hodyn::sim {

/// Writes `state` (time 0) and `feedforward`. Returns kOk; kActuatorSaturated
/// when a rotor speed had to be clamped (ω_i² < ω_min², including negative
/// ω_i², or > ω_max²; the plant's accelerations then differ from the request);
/// kSingularAllocation when A is singular; an input or model error of the core
/// otherwise (outputs untouched).
Status equilibrium_state(const PlantParameters& params, const Pose<double>& base_pose,
                         const Twist<double>& base_twist, const Vector6d& q, const Vector6d& q_dot,
                         const Twist<double>& base_acceleration, const Vector6d& q_ddot,
                         PlantState& state, PlantInput& feedforward);

/// Hover at `base_pose` with the joints held at `q`.
Status hover_state(const PlantParameters& params, const Pose<double>& base_pose, const Vector6d& q,
                   PlantState& state, PlantInput& feedforward);

}  // namespace hodyn::sim
