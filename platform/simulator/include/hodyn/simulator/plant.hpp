// hodyn/simulator/plant.hpp — the simulated aerial manipulator of a robot
// type `Robot` (models/robot.hpp): elastic or rigid arm joints, N
// speed-controlled propellers, disturbances, integrated with the 4th-order
// Runge–Kutta–Munthe-Kaas method on SE(3) × Rⁿ at a fixed step.
//
//   hodyn::sim::RobotPlant<MyRobot> plant;          // MyRobot::describe's robot
//   hodyn::sim::Plant plant;                        // the 12-DoF robot (Table 3)
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

#include <cmath>
#include <cstdint>
#include <utility>

#include "hodyn/simulator/disturbances.hpp"
#include "hodyn/simulator/plant_dynamics.hpp"
#include "hodyn/simulator/plant_parameters.hpp"
#include "hodyn/simulator/rkmk4.hpp"

namespace hodyn::sim {

/// Accelerations and loads of the plant at one instant (Plant::evaluate_rates).
template <class Robot>
struct RobotPlantRates {
  using JointVector = typename PlantTraits<Robot>::JointVector;
  using RotorVector = typename PlantTraits<Robot>::RotorVector;
  Twist<double> base_acceleration = Twist<double>::Zero();    ///< V̇₁ (spatial)
  JointVector q_ddot = JointVector::Zero();                   ///< q̈
  JointVector motor_acceleration = JointVector::Zero();       ///< θ̈ (rigid: q̈)
  RotorVector rotor_acceleration = RotorVector::Zero();       ///< ω̇
  Wrench<double> propulsion_wrench = Wrench<double>::Zero();  ///< A ω², base frame
  JointVector elastic_torque = JointVector::Zero();           ///< τ_el (rigid joints: 0)
};

template <class Robot>
class RobotPlant {
 public:
  using Traits = PlantTraits<Robot>;
  using Parameters = RobotPlantParameters<Robot>;
  using State = RobotPlantState<Robot>;
  using Input = RobotPlantInput<Robot>;
  using Rates = RobotPlantRates<Robot>;
  using Model = typename Traits::Model;
  using JointVector = typename Traits::JointVector;
  using Constants = RobotActuatorConstants<Robot>;
  using Saturation = RobotSaturationReport<Robot>;
  static constexpr int kNumJoints = Traits::kNumJoints;
  static constexpr int kNumRotors = Traits::kNumRotors;

  /// Default parameters (Robot::describe), at rest at the origin: q = θ = 0,
  /// every rotor at its ω_min.
  RobotPlant();

  /// Validates `params`, rebuilds the plant's model, clears the disturbances
  /// and puts the plant at rest at the origin. A rejected set changes nothing.
  Status configure(const Parameters& params);
  /// A robot's own parameter set (e.g. PlantParameters of the 12-DoF robot),
  /// through describe_plant(params, Parameters&) first.
  template <class Own, class = decltype(describe_plant(std::declval<const Own&>(),
                                                       std::declval<Parameters&>()))>
  Status configure(const Own& params) {
    Parameters described;
    const Status s = describe_plant(params, described);
    if (s != Status::kOk) return s;
    return configure(described);
  }
  /// Replaces the state (checked: finite, orthonormal rotation). A rigid
  /// joint's motor entries are replaced by its link's (θ = q, θ̇ = q̇).
  Status set_state(const State& state);
  /// Replaces the disturbances; detaches a payload attached before.
  Status set_disturbances(const Disturbances& disturbances);

  /// Advances by `duration` (a whole number ≥ 1 of integration steps, within
  /// 1e-9 s) with the input held. kNonFiniteInput for a non-finite input,
  /// kInvalidArgument for a bad duration (state unchanged); kNonFiniteResult
  /// if the state blew up (state: the last good step).
  Status step(const Input& input, double duration);

  /// The accelerations at the current state and time for `input` (saturated
  /// as step() would); changes no state and no saturation report.
  Status evaluate_rates(const Input& input, Rates& rates);

  const State& state() const { return state_; }
  double time() const { return state_.time; }
  /// W_prop = A ω² of the current rotor speeds, base frame (moment; force).
  Wrench<double> propulsion_wrench() const { return actuators_.propulsion_wrench(pack(state_)); }
  /// τ_el = K (θ − q) + D (θ̇ − q̇) of the current state (rigid joints: 0).
  JointVector elastic_torque() const { return actuators_.elastic_torque(pack(state_)); }
  /// The plant's own model (with the payload once it is attached).
  const Model& model() const { return model_; }
  const Parameters& parameters() const { return params_; }
  const Constants& actuators() const { return actuators_; }
  const Disturbances& disturbances() const { return disturbances_; }
  bool payload_attached() const { return payload_attached_; }

  /// Which inputs were clamped in the last step() call.
  const Saturation& last_saturation() const { return last_saturation_; }
  bool last_step_saturated() const { return last_saturation_.any(); }
  /// step() calls with any input clamped, since configure().
  std::uint64_t saturated_calls() const { return saturated_calls_; }

 private:
  /// Slack on `duration = n · step` and on the payload time (s).
  static constexpr double kTimeTolerance = 1e-9;

  Status attach_payload_if_due(double t);
  State rest_state() const;

  Parameters params_{};
  Constants actuators_{};
  Model nominal_model_{};  ///< from params_, no payload
  Model model_{};          ///< what is integrated: nominal_model_ + payload
  State state_{};
  Disturbances disturbances_{};
  bool payload_attached_ = false;
  Saturation last_saturation_{};
  std::uint64_t saturated_calls_ = 0;
  RobotPlantVectorField<Robot> field_{};
};

// ---- definitions (out of the class: extern template keeps them out of users) ----

template <class Robot>
RobotPlant<Robot>::RobotPlant() {
  const Status s = configure(Parameters{});
  (void)s;  // the defaults are valid (tests/simulator check it)
}

template <class Robot>
typename RobotPlant<Robot>::State RobotPlant<Robot>::rest_state() const {
  State s;
  s.rotor_speed = actuators_.min_rotor_speed;
  return s;
}

template <class Robot>
Status RobotPlant<Robot>::configure(const Parameters& params) {
  const Status valid = validate(params);
  if (valid != Status::kOk) return valid;
  Model model;
  const Status built = make_plant_model(params, model);
  if (built != Status::kOk) return built;
  params_ = params;
  actuators_ = Constants::from(params.robot);
  nominal_model_ = model;
  model_ = model;
  state_ = rest_state();
  disturbances_ = Disturbances{};
  payload_attached_ = false;
  last_saturation_ = Saturation{};
  saturated_calls_ = 0;
  return Status::kOk;
}

template <class Robot>
Status RobotPlant<Robot>::set_state(const State& state) {
  const Status s = validate(state);
  if (s != Status::kOk) return s;
  state_ = state;
  mirror_rigid_joints(params_.robot, state_);
  return Status::kOk;
}

template <class Robot>
Status RobotPlant<Robot>::set_disturbances(const Disturbances& disturbances) {
  const Status s = disturbances.validate(kNumJoints);
  if (s != Status::kOk) return s;
  disturbances_ = disturbances;
  model_ = nominal_model_;
  payload_attached_ = false;
  return Status::kOk;
}

template <class Robot>
Status RobotPlant<Robot>::attach_payload_if_due(double t) {
  if (!disturbances_.has_payload || payload_attached_) return Status::kOk;
  const PayloadStep& p = disturbances_.payload;
  if (t < p.time - kTimeTolerance) return Status::kOk;
  const Status s = model_.set_body(p.body, nominal_model_.home_pose(p.body),
                                   p.combined_with(nominal_model_.body_inertia(p.body)));
  if (s != Status::kOk) return s;
  payload_attached_ = true;
  return Status::kOk;
}

template <class Robot>
Status RobotPlant<Robot>::step(const Input& input, double duration) {
  using Vector = typename RobotStateLayout<Robot>::StateVector;
  if (!input.rotor_speed_command.allFinite() || !input.motor_torque.allFinite() ||
      !std::isfinite(duration))
    return Status::kNonFiniteInput;
  const double h = params_.step;
  const double count = std::round(duration / h);
  if (count < 1.0 || std::abs(count * h - duration) > kTimeTolerance)
    return Status::kInvalidArgument;

  Saturation report;
  const Input applied = saturate(input, actuators_, report);
  last_saturation_ = report;
  if (report.any()) ++saturated_calls_;

  const auto field = [&](double t, const Pose<double>& pose, const Vector& x, Vector& x_dot) {
    return field_.evaluate(model_, actuators_, disturbances_, applied, t, pose, x, x_dot);
  };
  const auto twist_of = [](const Vector& x) -> Twist<double> {
    return x.template segment<6>(RobotStateLayout<Robot>::kBaseTwist);
  };

  const double start = state_.time;
  const long steps = static_cast<long>(count);
  Vector x = pack(state_);
  Pose<double> pose = state_.base_pose;
  for (long k = 0; k < steps; ++k) {
    const double t = start + static_cast<double>(k) * h;
    Status s = attach_payload_if_due(t);
    if (s == Status::kOk) s = rkmk4_step(field, twist_of, t, h, pose, x);
    if (s != Status::kOk) {
      // A finite state whose stages overflowed reports as a non-finite result.
      return s == Status::kNonFiniteInput ? Status::kNonFiniteResult : s;
    }
    unpack(x, state_);
    state_.base_pose = pose;
    state_.time = start + static_cast<double>(k + 1) * h;
  }
  return Status::kOk;
}

template <class Robot>
Status RobotPlant<Robot>::evaluate_rates(const Input& input, Rates& rates) {
  using L = RobotStateLayout<Robot>;
  if (!input.rotor_speed_command.allFinite() || !input.motor_torque.allFinite())
    return Status::kNonFiniteInput;
  Saturation unused;
  const Input applied = saturate(input, actuators_, unused);
  const typename L::StateVector x = pack(state_);
  typename L::StateVector x_dot;
  const Status s = field_.evaluate(model_, actuators_, disturbances_, applied, state_.time,
                                   state_.base_pose, x, x_dot);
  if (s != Status::kOk) return s;
  rates.base_acceleration = x_dot.template segment<6>(L::kBaseTwist);
  rates.q_ddot = x_dot.template segment<kNumJoints>(L::kJointVelocity);
  rates.motor_acceleration = x_dot.template segment<kNumJoints>(L::kMotorVelocity);
  rates.rotor_acceleration = x_dot.template segment<kNumRotors>(L::kRotorSpeed);
  rates.propulsion_wrench = actuators_.propulsion_wrench(x);
  rates.elastic_torque = actuators_.elastic_torque(x);
  return Status::kOk;
}

// ---- the 12-DoF robot -----------------------------------------------------------

using Plant = RobotPlant<AerialManipulatorRobot>;
using PlantRates = RobotPlantRates<AerialManipulatorRobot>;

extern template class RobotPlant<AerialManipulatorRobot>;

}  // namespace hodyn::sim
