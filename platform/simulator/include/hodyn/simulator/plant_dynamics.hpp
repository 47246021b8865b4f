// hodyn/simulator/plant_dynamics.hpp — the plant's equations of motion, the
// vector field the integrator (rkmk4.hpp) steps.
//
// State y = (C₁; x) ∈ SE(3) × R³⁶ with x = (V₁, q, q̇, θ, θ̇, ω) (layout below).
// With the saturated inputs ω_cmd ∈ [ω_min, ω_max], |u| ≤ u_max held over a step
// (models/actuation.hpp, De Luca's elastic joint; seed 000 eq. 28):
//   [Ċ₁ C₁⁻¹] = V₁                                 (spatial twist)
//   τ_el      = K (θ − q) + D (θ̇ − q̇)               (elastic transmission)
//   W_prop    = A ω²  (base frame, ω² elementwise)  (TiltHex allocation)
//   (V̇₁, q̈)   = FD₀(C₁, V₁, q, q̇; W_prop + W_gust, τ_el)   (hodyn::forward_dynamics, order 0)
//   θ̈         = (u − F θ̇ − τ_el) / B               (motor side, per joint)
//   ω̇         = (ω_cmd − ω) / T_r                  (rotor speed loop)
// W_gust is the world-frame gust at the base centre of mass, rotated into the
// base frame: (R₁ᵀ n; R₁ᵀ f). All joint quantities are link-side.
#pragma once

#include <Eigen/Core>

#include "hodyn/forward_dynamics.hpp"
#include "hodyn/simulator/disturbances.hpp"
#include "hodyn/simulator/plant_parameters.hpp"

namespace hodyn::sim {

/// x = (V₁, q, q̇, θ, θ̇, ω): where each part starts in the 36-vector.
struct StateLayout {
  static constexpr int kBaseTwist = 0;
  static constexpr int kJointPosition = 6;
  static constexpr int kJointVelocity = 12;
  static constexpr int kMotorPosition = 18;
  static constexpr int kMotorVelocity = 24;
  static constexpr int kRotorSpeed = 30;
  static constexpr int kSize = 36;
};
using StateVector = Eigen::Matrix<double, StateLayout::kSize, 1>;

/// The vector part x of a state.
StateVector pack(const PlantState& state);
/// Writes x into the vector part of `state` (pose and time untouched).
void unpack(const StateVector& x, PlantState& state);

/// Actuator constants as vectors, read once from the parameters.
struct ActuatorConstants {
  Vector6d motor_inertia = Vector6d::Ones();   ///< B
  Vector6d stiffness = Vector6d::Ones();       ///< K
  Vector6d damping = Vector6d::Zero();         ///< D
  Vector6d motor_friction = Vector6d::Zero();  ///< F
  Vector6d torque_limit = Vector6d::Ones();    ///< u_max
  double rotor_time_constant = 1.0;            ///< T_r
  double min_rotor_speed = 0.0;                ///< ω_min
  double max_rotor_speed = 0.0;                ///< ω_max
  Matrix6d allocation = Matrix6d::Zero();      ///< A (tilthex_allocation)

  static ActuatorConstants from(const AerialManipulatorActuation& actuation);
  /// τ_el = K (θ − q) + D (θ̇ − q̇) at the vector state x.
  Vector6d elastic_torque(const StateVector& x) const;
  /// W_prop = A ω² (base frame) at the vector state x.
  Wrench<double> propulsion_wrench(const StateVector& x) const;
};

/// Which input components were clamped in a `Plant::step` call.
struct SaturationReport {
  std::array<bool, kNumRotors> rotor_speed{};   ///< ω_cmd,i outside [ω_min, ω_max]
  std::array<bool, kNumJoints> motor_torque{};  ///< |u_j| > u_max,j
  bool any() const;
};

/// The inputs after saturation (what the actuators actually do).
PlantInput saturate(const PlantInput& input, const ActuatorConstants& constants,
                    SaturationReport& report);

/// The time derivative of x at (t, C₁, x) for saturated inputs; the pose rate
/// is x's own V₁. Holds the forward-dynamics workspace (no heap).
class PlantVectorField {
 public:
  Status evaluate(const PlantModel& model, const ActuatorConstants& constants,
                  const Disturbances& disturbances, const PlantInput& saturated_input, double time,
                  const Pose<double>& base_pose, const StateVector& x, StateVector& x_dot);

 private:
  ForwardDynamicsInput<AerialManipulatorTree, 0> input_{};
  ForwardDynamicsData<AerialManipulatorTree, 0> data_{};
};

}  // namespace hodyn::sim
