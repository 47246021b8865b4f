// hodyn/simulator/plant.hpp — the simulated aerial manipulator: 6 elastic arm
// joints, 6 speed-controlled propellers, disturbances, integrated with the
// 4th-order Runge–Kutta–Munthe-Kaas method on SE(3) × R³⁶ at a fixed step.
//
//   hodyn::sim::Plant plant;                        // Table 3 robot, default actuators
//   plant.configure(params);                        // or keep the defaults
//   plant.set_state(start);                         // e.g. from equilibrium_state()
//   plant.step(input, 1e-3);                        // 8 steps of 1/8000 s, input held
//   plant.state().base_pose, plant.propulsion_wrench(), ...
//
// Equations: plant_dynamics.hpp. Integrator: rkmk4.hpp. The plant owns its
// model, so a payload or a parameter mismatch never touches the controller's.
// No heap, no exceptions: errors are Status values and leave the state as it
// was after the last good integration step.
#pragma once

#include <cstdint>

#include "hodyn/simulator/disturbances.hpp"
#include "hodyn/simulator/plant_dynamics.hpp"
#include "hodyn/simulator/plant_parameters.hpp"

namespace hodyn::sim {

/// Accelerations and loads of the plant at one instant (Plant::evaluate_rates).
struct PlantRates {
  Twist<double> base_acceleration = Twist<double>::Zero();    ///< V̇₁ (spatial)
  Vector6d q_ddot = Vector6d::Zero();                         ///< q̈
  Vector6d motor_acceleration = Vector6d::Zero();             ///< θ̈
  Vector6d rotor_acceleration = Vector6d::Zero();             ///< ω̇
  Wrench<double> propulsion_wrench = Wrench<double>::Zero();  ///< A ω², base frame
  Vector6d elastic_torque = Vector6d::Zero();                 ///< τ_el
};

class Plant {
 public:
  /// Default parameters, at rest at the origin: q = θ = 0, rotors at ω_min.
  Plant();

  /// Validates `params`, rebuilds the plant's model, clears the disturbances
  /// and puts the plant at rest at the origin. A rejected set changes nothing.
  Status configure(const PlantParameters& params);
  /// Replaces the state (checked: finite, orthonormal rotation).
  Status set_state(const PlantState& state);
  /// Replaces the disturbances; detaches a payload attached before.
  Status set_disturbances(const Disturbances& disturbances);

  /// Advances by `duration` (a whole number ≥ 1 of integration steps, within
  /// 1e-9 s) with the input held. kNonFiniteInput for a non-finite input,
  /// kInvalidArgument for a bad duration (state unchanged); kNonFiniteResult
  /// if the state blew up (state: the last good step).
  Status step(const PlantInput& input, double duration);

  /// The accelerations at the current state and time for `input` (saturated
  /// as step() would); changes no state and no saturation report.
  Status evaluate_rates(const PlantInput& input, PlantRates& rates);

  const PlantState& state() const { return state_; }
  double time() const { return state_.time; }
  /// W_prop = A ω² of the current rotor speeds, base frame (moment; force).
  Wrench<double> propulsion_wrench() const;
  /// τ_el = K (θ − q) + D (θ̇ − q̇) of the current state.
  Vector6d elastic_torque() const;
  /// The plant's own model (with the payload once it is attached).
  const PlantModel& model() const { return model_; }
  const PlantParameters& parameters() const { return params_; }
  const ActuatorConstants& actuators() const { return actuators_; }
  const Disturbances& disturbances() const { return disturbances_; }
  bool payload_attached() const { return payload_attached_; }

  /// Which inputs were clamped in the last step() call.
  const SaturationReport& last_saturation() const { return last_saturation_; }
  bool last_step_saturated() const { return last_saturation_.any(); }
  /// step() calls with any input clamped, since configure().
  std::uint64_t saturated_calls() const { return saturated_calls_; }

 private:
  Status attach_payload_if_due(double t);

  PlantParameters params_{};
  ActuatorConstants actuators_{};
  PlantModel nominal_model_{};  ///< from params_, no payload
  PlantModel model_{};          ///< what is integrated: nominal_model_ + payload
  PlantState state_{};
  Disturbances disturbances_{};
  bool payload_attached_ = false;
  SaturationReport last_saturation_{};
  std::uint64_t saturated_calls_ = 0;
  PlantVectorField field_{};
};

}  // namespace hodyn::sim
