// hodyn/models/actuation.hpp — the actuators of the aerial manipulator: elastic
// arm joints and speed-controlled propellers. Shared by the controller plugin
// (its model of the robot) and the plant simulator (the "real" robot).
//
// Elastic joint (De Luca; ../shared/DESIGN.md §5), all in link-side units
// (motor quantities multiplied through the gear ratio):
//   link side   ID(Q, ν, ν̇) = (W_prop, τ_el),    τ_el = K (θ − q) + D (θ̇ − q̇)
//   motor side  B θ̈ + F θ̇ + τ_el = u,            |u| ≤ u_max
// Propeller i: first-order speed lag ω̇_i = (ω_cmd,i − ω_i) / T_r with
// ω_cmd,i saturated to [ω_min, ω_max]; thrust and drag ∝ ω_i² (tilthex.hpp).
//
// Defaults are realistic for the 4 kg robot of Table 3 (docs/controller.md):
// a 100:1 harmonic-drive servo with a 0.5 g·cm²-class rotor reflects
// B ≈ 5e-3 kg m²; a compact strain-wave gear is K ≈ 50 N m/rad (1.5° of
// deflection under the arm's own ~1.3 N m gravity torque); 13-inch propellers
// on 4 kg spin up with T_r ≈ 30 ms.
#pragma once

#include <array>

#include "hodyn/models/tilthex.hpp"

namespace hodyn {

/// One elastic joint, link-side units.
struct ElasticJointParameters {
  double motor_inertia = 5.0e-3;  ///< B (kg m²), reflected through the gear
  double stiffness = 50.0;        ///< K (N m / rad)
  double damping = 0.0;           ///< D (N m s / rad), transmission damping
  double motor_friction = 1.0e-2; ///< F (N m s / rad), viscous, motor side
  double torque_limit = 5.0;      ///< u_max (N m)
};

/// The six propellers' speed loop and limits.
struct RotorParameters {
  double time_constant = 0.03;  ///< T_r (s)
  double min_speed = 100.0;     ///< ω_min (rad/s): idle, never stop in flight
  double max_speed = 1200.0;    ///< ω_max (rad/s)
};

/// All actuators of the aerial manipulator (6 elastic joints, 6 propellers).
struct AerialManipulatorActuation {
  static constexpr int kNumJoints = 6;
  static constexpr int kNumRotors = 6;
  std::array<ElasticJointParameters, kNumJoints> joints{};
  RotorParameters rotors{};
  TiltHexParameters tilthex{};
};

}  // namespace hodyn
