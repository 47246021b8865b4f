// hodyn/simulator/constrained_plant.hpp — the simulated robot of plant.hpp
// with its tree closed by loop closures (a carried object held by two arms):
// the same state, inputs, actuators (elastic or rigid joints, speed-controlled
// rotors) and RKMK4 integrator, with the tree's forward dynamics replaced by
// constrained forward dynamics (constrained_dynamics.hpp, seed 002 eqs. 67–69)
// and Baumgarte's drift stabilisation
//   f̈ + k_v ḟ + k_p f = 0   (f the closures' position error, ḟ = A ν).
// Everything else is plant_dynamics.hpp's vector field:
//   (V̇₁, q̈) = FD_c(C₁, V₁, q, q̇; W_prop, τ),  λ the closures' forces,
//   θ̈ = (u − F θ̇ − τ) / B (elastic joints),  ω̇ = (ω_cmd − ω) / T.
// No gusts or payload steps (the open plant has them); gravity is the model's.
//
//   hodyn::sim::RobotConstrainedPlant<AerialManipulatorRobot, 1> plant;  // large: static
//   plant.configure(params, closures, {2 α, α²});
//   plant.set_state(start);          // the closures must hold at the start
//   plant.step(input, 1e-3);         // whole integration steps, input held
//   plant.evaluate(input, rates);    // λ, the closure error and the accelerations now
//
// No heap, no exceptions; errors as Status (state: the last good step).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "hodyn/constrained_dynamics.hpp"
#include "hodyn/logarithm.hpp"
#include "hodyn/simulator/plant_dynamics.hpp"
#include "hodyn/simulator/plant_parameters.hpp"
#include "hodyn/simulator/rkmk4.hpp"

namespace hodyn::sim {

/// The closed plant at one instant (RobotConstrainedPlant::evaluate).
template <class Robot, std::size_t NumClosures>
struct ConstrainedPlantRates {
  using Data = ConstrainedDynamicsData<typename Robot::Tree, NumClosures, double>;
  using Multipliers = typename Data::Multipliers;
  using JointVector = typename PlantTraits<Robot>::JointVector;
  Twist<double> base_acceleration = Twist<double>::Zero();  ///< V̇₁ (spatial)
  JointVector q_ddot = JointVector::Zero();                 ///< q̈
  /// λ: the closures' constraint forces (loop_closure.hpp: the wrench on body b
  /// in closure frame a, moment first), N m and N.
  Multipliers multiplier{};
  Multipliers error{};  ///< f (rad and m: a weld's log(T_a⁻¹ T_b))
  /// The largest distance |p_b − p_a| between a closure's two frame origins (m)
  /// and the largest angle |log(R_aᵀ R_b)| between a weld's frames (rad).
  double violation_m = 0.0, violation_rad = 0.0;
  std::array<Pose<double>, NumClosures> pose_a{};  ///< T_a = C_a X_a of each closure (world)
  Wrench<double> propulsion_wrench = Wrench<double>::Zero();  ///< A ω², base frame
  JointVector joint_torque = JointVector::Zero();             ///< τ (elastic: τ_el; rigid: u)
};

template <class Robot, std::size_t NumClosures>
class RobotConstrainedPlant {
 public:
  using Traits = PlantTraits<Robot>;
  using Tree = typename Traits::Tree;
  using Parameters = RobotPlantParameters<Robot>;
  using State = RobotPlantState<Robot>;
  using Input = RobotPlantInput<Robot>;
  using Rates = ConstrainedPlantRates<Robot, NumClosures>;
  using Model = typename Traits::Model;
  using Closures = std::array<LoopClosure<double>, NumClosures>;
  using Gains = ConstraintStabilization<double>;
  using Constants = RobotActuatorConstants<Robot>;
  using Layout = RobotStateLayout<Robot>;
  using Vector = typename Layout::StateVector;
  static constexpr int kNumJoints = Traits::kNumJoints;
  static constexpr int kNumRotors = Traits::kNumRotors;

  /// Validates the parameters (as RobotPlant) and the gains (finite, ≥ 0),
  /// builds the model and keeps the closures; the state is rest at the origin.
  Status configure(const Parameters& params, const Closures& closures, const Gains& gains) {
    Status s = validate(params);
    if (s != Status::kOk) return s;
    if (!gains.finite()) return Status::kNonFiniteInput;
    if (gains.velocity_gain < 0.0 || gains.position_gain < 0.0) return Status::kInvalidArgument;
    Model model;
    s = make_plant_model(params, model);
    if (s != Status::kOk) return s;
    params_ = params;
    model_ = model;
    closures_ = closures;
    gains_ = gains;
    actuators_ = Constants::from(params.robot);
    state_ = State{};
    state_.rotor_speed = actuators_.min_rotor_speed;
    return Status::kOk;
  }

  /// Replaces the state (finite, orthonormal rotation; rigid joints' motor
  /// entries mirror the link). The closures are not checked here: evaluate()
  /// reports their error.
  Status set_state(const State& state) {
    const Status s = validate(state);
    if (s != Status::kOk) return s;
    state_ = state;
    mirror_rigid_joints(params_.robot, state_);
    return Status::kOk;
  }

  /// Advances by `duration` (whole integration steps) with the input held and
  /// saturated as RobotPlant::step does.
  Status step(const Input& input, double duration) {
    if (!input.rotor_speed_command.allFinite() || !input.motor_torque.allFinite() ||
        !std::isfinite(duration))
      return Status::kNonFiniteInput;
    const double h = params_.step;
    const double count = std::round(duration / h);
    if (count < 1.0 || std::abs(count * h - duration) > 1e-9) return Status::kInvalidArgument;
    RobotSaturationReport<Robot> report;
    const Input applied = saturate(input, actuators_, report);
    last_saturated_ = report.any();
    const auto field = [&](double, const Pose<double>& pose, const Vector& x, Vector& x_dot) {
      return evaluate_field(applied, pose, x, x_dot);
    };
    const auto twist_of = [](const Vector& x) -> Twist<double> {
      return x.template segment<6>(Layout::kBaseTwist);
    };
    const double start = state_.time;
    const long steps = static_cast<long>(count);
    Vector x = pack(state_);
    Pose<double> pose = state_.base_pose;
    for (long k = 0; k < steps; ++k) {
      const Status s = rkmk4_step(field, twist_of, start + static_cast<double>(k) * h, h, pose, x);
      if (s != Status::kOk) return s == Status::kNonFiniteInput ? Status::kNonFiniteResult : s;
      unpack(x, state_);
      state_.base_pose = pose;
      state_.time = start + static_cast<double>(k + 1) * h;
    }
    return Status::kOk;
  }

  /// λ, the closure error and the accelerations at the current state for
  /// `input` (saturated); changes no state.
  Status evaluate(const Input& input, Rates& rates) {
    if (!input.rotor_speed_command.allFinite() || !input.motor_torque.allFinite())
      return Status::kNonFiniteInput;
    RobotSaturationReport<Robot> unused;
    const Input applied = saturate(input, actuators_, unused);
    const Vector x = pack(state_);
    Vector x_dot;
    const Status s = evaluate_field(applied, state_.base_pose, x, x_dot);
    if (s != Status::kOk) return s;
    rates.base_acceleration = data_.acceleration.template head<6>();
    rates.q_ddot = data_.acceleration.template tail<kNumJoints>();
    rates.multiplier = data_.multiplier;
    rates.error = data_.closure.error;
    rates.violation_m = 0.0;
    rates.violation_rad = 0.0;
    for (std::size_t c = 0; c < NumClosures; ++c) {
      const Pose<double>& a = data_.closure.pose_a[c];
      const Pose<double>& b = data_.closure.pose_b[c];
      rates.pose_a[c] = a;
      rates.violation_m = std::max(rates.violation_m, (b.translation - a.translation).norm());
      if (closures_[c].kind == LoopClosureKind::kWeld)
        rates.violation_rad =
            std::max(rates.violation_rad,
                     so3_log(Matrix3<double>(a.rotation.transpose() * b.rotation)).norm());
    }
    rates.propulsion_wrench = actuators_.propulsion_wrench(x);
    rates.joint_torque = actuators_.joint_torque(x, applied.motor_torque);
    return Status::kOk;
  }

  const State& state() const { return state_; }
  double time() const { return state_.time; }
  const Model& model() const { return model_; }
  const Closures& closures() const { return closures_; }
  const Gains& gains() const { return gains_; }
  const Constants& actuators() const { return actuators_; }
  const Parameters& parameters() const { return params_; }
  bool last_step_saturated() const { return last_saturated_; }

 private:
  /// ẋ at (C₁, x) for saturated inputs (plant_dynamics.hpp with FD_c).
  Status evaluate_field(const Input& applied, const Pose<double>& pose, const Vector& x,
                        Vector& x_dot) {
    constexpr int nj = kNumJoints;
    const typename Traits::JointVector tau = actuators_.joint_torque(x, applied.motor_torque);
    input_.base_pose = pose;
    input_.base_twist = x.template segment<6>(Layout::kBaseTwist);
    input_.q = x.template segment<nj>(Layout::kJointPosition);
    input_.q_dot = x.template segment<nj>(Layout::kJointVelocity);
    input_.base_wrench_frame = WrenchFrame::kBase;
    input_.base_wrench[0] = actuators_.propulsion_wrench(x);
    input_.joint_torque[0] = tau;
    const Status s = constrained_forward_dynamics(model_, closures_, input_, gains_, data_);
    if (s != Status::kOk) return s;
    fill_state_rate<Robot>(actuators_, applied, x, tau, data_.acceleration.template head<6>(),
                           data_.acceleration.template tail<kNumJoints>(), x_dot);
    return Status::kOk;
  }

  Parameters params_{};
  Model model_{};
  Closures closures_{};
  Gains gains_{};
  Constants actuators_{};
  State state_{};
  bool last_saturated_ = false;
  ForwardDynamicsInput<Tree, 0, double> input_{};
  ConstrainedDynamicsData<Tree, NumClosures, double> data_{};
};

}  // namespace hodyn::sim
