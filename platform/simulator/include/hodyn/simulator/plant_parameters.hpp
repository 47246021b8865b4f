// hodyn/simulator/plant_parameters.hpp — the "real" robot the simulator
// integrates: its geometry and inertias, its actuators, the integration step,
// and its state and inputs.
//
// Parameter mismatch between controller and plant is expressed here: give the
// plant other AerialManipulatorParameters, or scale the bodies' inertias with
// `inertia_scale` (mass and rotational inertia of body j multiplied by
// inertia_scale[j]; the centre of mass stays where it is).
// `alternating_mismatch(p, 0.1)` is the "±10 % masses and inertias" case of
// the tests: base +10 %, links −10 %, +10 %, −10 % down each arm
// (bodies 1..6: 0.9, 1.1, 0.9, 0.9, 1.1, 0.9) — total mass +5 %, and each arm's
// lower links are off in opposite directions so the error is not a pure
// rescaling of the whole robot.
#pragma once

#include <array>

#include "hodyn/models/actuation.hpp"
#include "hodyn/models/aerial_manipulator.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"

namespace hodyn::sim {

using Vector6d = Vector6<double>;
using Matrix6d = Matrix6<double>;
using PlantModel = AerialManipulatorModel<double>;

inline constexpr int kNumJoints = AerialManipulatorActuation::kNumJoints;  // 6
inline constexpr int kNumRotors = AerialManipulatorActuation::kNumRotors;  // 6
inline constexpr int kNumBodies = AerialManipulatorTree::kNumBodies;       // 7
/// The largest integration step the plant accepts (s).
inline constexpr double kMaxIntegrationStep = 1.0 / 4000.0;

struct PlantParameters {
  AerialManipulatorParameters body{};      ///< geometry, masses, inertias, g (Table 3)
  AerialManipulatorActuation actuation{};  ///< elastic joints, rotors, TiltHex geometry
  std::array<double, kNumBodies> inertia_scale{1, 1, 1, 1, 1, 1, 1};  ///< per body, > 0
  double step = 1.0 / 8000.0;  ///< integration step (s), 0 < step ≤ 1/4000
};

/// The plant's state. All joint quantities are link-side (motor side through the gear).
struct PlantState {
  double time = 0.0;                                 ///< s
  Pose<double> base_pose{};                          ///< C₁, base → world
  Twist<double> base_twist = Twist<double>::Zero();  ///< V₁ spatial: (ω; ṗ − ω × p)
  Vector6d q = Vector6d::Zero();                     ///< link positions (rad)
  Vector6d q_dot = Vector6d::Zero();                 ///< link velocities (rad/s)
  Vector6d motor_position = Vector6d::Zero();        ///< θ (rad)
  Vector6d motor_velocity = Vector6d::Zero();        ///< θ̇ (rad/s)
  Vector6d rotor_speed = Vector6d::Zero();           ///< ω_i (rad/s)
};

/// What the actuators are asked for; held constant over one `Plant::step` call.
struct PlantInput {
  Vector6d rotor_speed_command = Vector6d::Zero();  ///< ω_cmd (rad/s), clamped to [ω_min, ω_max]
  Vector6d motor_torque = Vector6d::Zero();         ///< u (N m), clamped to ±u_max
};

/// kOk, or kInvalidArgument (step outside (0, 1/4000], non-positive B, K,
/// T_r, u_max or scale, negative D, F, ω_min > ω_max) / kNonFiniteInput.
Status validate(const PlantParameters& params);

/// The plant's multibody model: make_aerial_manipulator(body) with the
/// inertia scales applied. kInvalidModel for non-physical parameters.
Status make_plant_model(const PlantParameters& params, PlantModel& model);

/// `params` with the base's mass and inertia scaled by base_scale and every
/// link's by link_scale.
PlantParameters scaled_inertias(PlantParameters params, double base_scale, double link_scale);

/// `params` with base ×(1 + fraction) and links ×(1 − fraction), ×(1 + fraction),
/// ×(1 − fraction) down each arm (see the header comment).
PlantParameters alternating_mismatch(PlantParameters params, double fraction);

/// Every entry of the state is finite and its rotation orthonormal (kOk), else
/// kNonFiniteInput / kNonOrthonormalRotation.
Status validate(const PlantState& state);

}  // namespace hodyn::sim
