// hodyn/simulator/plant_parameters.hpp — the "real" robot the simulator
// integrates: its description (models/robot.hpp), inertia scales for a
// parameter mismatch, the integration step, and its state and inputs; generic
// over a robot type `Robot` (RobotPlantParameters<Robot>, …), with the names
// of the 12-DoF robot (PlantParameters, PlantState, …) kept as before.
//
// Parameter mismatch between controller and plant is expressed here: give the
// plant another description, or scale the bodies' inertias with
// `inertia_scale` (mass and rotational inertia of body j multiplied by
// inertia_scale[j]; the centre of mass stays where it is).
// `alternating_mismatch(p, f)` scales the body at tree depth d by
// (1 + (−1)^d f): the base by 1 + f, links alternately 1 − f, 1 + f, … down
// each branch. For the 12-DoF robot and f = 0.1 ("±10 % masses and inertias")
// that is base 1.1, bodies 1..6: 0.9, 1.1, 0.9, 0.9, 1.1, 0.9 — total mass
// +5 %, and each arm's lower links are off in opposite directions so the error
// is not a pure rescaling of the whole robot.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>

#include "hodyn/models/actuation.hpp"
#include "hodyn/models/aerial_manipulator.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"
#include "hodyn/models/robot.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"
// after status.hpp and pose.hpp, which it uses without including
#include "hodyn/detail/validation.hpp"

namespace hodyn::sim {

using Vector6d = Vector6<double>;
using Matrix6d = Matrix6<double>;

/// The largest integration step the plant accepts (s).
inline constexpr double kMaxIntegrationStep = 1.0 / 4000.0;

/// Sizes and vector types of a robot's plant.
template <class Robot>
struct PlantTraits {
  using Tree = typename Robot::Tree;
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kNumJoints = kNumBodies - 1;
  static constexpr int kNumRotors = Robot::kNumRotors;
  static_assert(kNumJoints >= 1, "the plant needs at least one joint");
  using JointVector = Eigen::Matrix<double, kNumJoints, 1>;
  using RotorVector = Eigen::Matrix<double, kNumRotors, 1>;
  using Model = hodyn::Model<Tree, double>;
};

/// The robot's own default description (Robot::describe); left default
/// (massless, rejected by make_plant_model) if describe fails.
template <class Robot>
DescriptionOf<Robot, double> default_description() {
  DescriptionOf<Robot, double> d;
  const Status s = Robot::template describe<double>(d);
  (void)s;
  return d;
}

template <class Robot>
struct RobotPlantParameters {
  static constexpr int kNumBodies = PlantTraits<Robot>::kNumBodies;
  DescriptionOf<Robot, double> robot = default_description<Robot>();  ///< model, actuators, rotors
  std::array<double, kNumBodies> inertia_scale = ones();              ///< per body, > 0
  double step = 1.0 / 8000.0;  ///< integration step (s), 0 < step ≤ 1/4000

 private:
  static std::array<double, kNumBodies> ones() {
    std::array<double, kNumBodies> a{};
    a.fill(1.0);
    return a;
  }
};

/// The plant's state. All joint quantities are link-side (motor side through
/// the gear). A rigid joint has no motor state of its own: its motor entries
/// mirror the link (θ = q, θ̇ = q̇), so sensors read the joint.
template <class Robot>
struct RobotPlantState {
  using JointVector = typename PlantTraits<Robot>::JointVector;
  using RotorVector = typename PlantTraits<Robot>::RotorVector;
  double time = 0.0;                                 ///< s
  Pose<double> base_pose{};                          ///< C₁, base → world
  Twist<double> base_twist = Twist<double>::Zero();  ///< V₁ spatial: (ω; ṗ − ω × p)
  JointVector q = JointVector::Zero();               ///< link positions (rad or m)
  JointVector q_dot = JointVector::Zero();           ///< link velocities
  JointVector motor_position = JointVector::Zero();  ///< θ
  JointVector motor_velocity = JointVector::Zero();  ///< θ̇
  RotorVector rotor_speed = RotorVector::Zero();     ///< ω_i (rad/s)
};

/// What the actuators are asked for; held constant over one `Plant::step` call.
template <class Robot>
struct RobotPlantInput {
  using JointVector = typename PlantTraits<Robot>::JointVector;
  using RotorVector = typename PlantTraits<Robot>::RotorVector;
  RotorVector rotor_speed_command = RotorVector::Zero();  ///< ω_cmd, clamped per rotor
  JointVector motor_torque = JointVector::Zero();  ///< u: motor (elastic) / joint (rigid), ±u_max
};

namespace detail {
inline bool finite(double x) { return std::isfinite(x); }
inline bool positive(double x) { return std::isfinite(x) && x > 0.0; }
inline bool non_negative(double x) { return std::isfinite(x) && x >= 0.0; }
}  // namespace detail

/// kOk, or kNonFiniteInput (a NaN or Inf) / kInvalidArgument (step outside
/// (0, 1/4000]; an actuator with u_max ≤ 0 or, elastic, B ≤ 0, K ≤ 0, D < 0,
/// F < 0; a rotor with T ≤ 0, ω_min < 0, ω_min > ω_max, c_f or c_d < 0, spin
/// not ±1; a scale ≤ 0). The model is checked by make_plant_model; c_f = 0 is
/// allowed (a plant without propulsion, e.g. for conservation tests).
template <class Robot>
Status validate(const RobotPlantParameters<Robot>& params) {
  using detail::finite;
  using detail::non_negative;
  using detail::positive;
  if (!finite(params.step)) return Status::kNonFiniteInput;
  // 1e-15 relative slack so that 1.0 / 4000 itself passes.
  if (!(params.step > 0.0) || params.step > kMaxIntegrationStep * (1.0 + 1e-15))
    return Status::kInvalidArgument;
  for (const JointActuator& j : params.robot.actuators) {
    if (!finite(j.motor_inertia) || !finite(j.stiffness) || !finite(j.damping) ||
        !finite(j.motor_friction) || !finite(j.torque_limit))
      return Status::kNonFiniteInput;
    if (!positive(j.torque_limit)) return Status::kInvalidArgument;
    if (j.drive == JointDrive::kElastic) {
      if (!positive(j.motor_inertia) || !positive(j.stiffness) || !non_negative(j.damping) ||
          !non_negative(j.motor_friction))
        return Status::kInvalidArgument;
    } else if (j.drive != JointDrive::kRigid) {
      return Status::kInvalidArgument;
    }
  }
  for (const Rotor<double>& r : params.robot.rotors.rotors) {
    if (!r.position.allFinite() || !r.axis.allFinite() || !finite(r.thrust_coefficient) ||
        !finite(r.drag_coefficient) || !finite(r.time_constant) || !finite(r.min_speed) ||
        !finite(r.max_speed))
      return Status::kNonFiniteInput;
    if (!positive(r.time_constant) || !non_negative(r.min_speed) || r.min_speed > r.max_speed ||
        r.thrust_coefficient < 0.0 || r.drag_coefficient < 0.0 || (r.spin != 1 && r.spin != -1))
      return Status::kInvalidArgument;
  }
  for (double s : params.inertia_scale) {
    if (!finite(s)) return Status::kNonFiniteInput;
    if (!(s > 0.0)) return Status::kInvalidArgument;
  }
  return Status::kOk;
}

/// The plant's multibody model: the description's model with the inertia
/// scales applied. kInvalidModel for non-physical bodies or a total mass ≤ 0.
template <class Robot>
Status make_plant_model(const RobotPlantParameters<Robot>& params,
                        typename PlantTraits<Robot>::Model& model) {
  typename PlantTraits<Robot>::Model built = params.robot.model;
  for (int j = 0; j < PlantTraits<Robot>::kNumBodies; ++j) {
    const double scale = params.inertia_scale[static_cast<std::size_t>(j)];
    if (scale == 1.0) continue;
    SpatialInertia<double> inertia = built.body_inertia(j);
    inertia.mass *= scale;  // same centre of mass: h = m c scales with m
    inertia.first_moment *= scale;
    inertia.rotational_inertia *= scale;
    const Status s = built.set_body(j, built.home_pose(j), inertia);
    if (s != Status::kOk) return s;
  }
  const double mass = built.total_mass();
  if (!(mass > 0.0) || !std::isfinite(mass)) return Status::kInvalidModel;
  model = built;
  return Status::kOk;
}

/// Depth of body j in the tree (the base: 0).
template <class Tree>
constexpr int tree_depth(int j) {
  int d = 0;
  for (int b = j; Tree::kParent[static_cast<std::size_t>(b)] >= 0;
       b = Tree::kParent[static_cast<std::size_t>(b)])
    ++d;
  return d;
}

/// `params` with the base's mass and inertia scaled by base_scale and every
/// link's by link_scale.
template <class Robot>
RobotPlantParameters<Robot> scaled_inertias(RobotPlantParameters<Robot> params, double base_scale,
                                            double link_scale) {
  params.inertia_scale[0] = base_scale;
  for (std::size_t j = 1; j < params.inertia_scale.size(); ++j)
    params.inertia_scale[j] = link_scale;
  return params;
}

/// `params` with the body at tree depth d scaled by (1 + (−1)^d fraction).
template <class Robot>
RobotPlantParameters<Robot> alternating_mismatch(RobotPlantParameters<Robot> params,
                                                 double fraction) {
  using Tree = typename PlantTraits<Robot>::Tree;
  for (int j = 0; j < PlantTraits<Robot>::kNumBodies; ++j)
    params.inertia_scale[static_cast<std::size_t>(j)] =
        tree_depth<Tree>(j) % 2 == 0 ? 1.0 + fraction : 1.0 - fraction;
  return params;
}

/// Every entry of the state is finite and its rotation orthonormal (kOk), else
/// kNonFiniteInput / kNonOrthonormalRotation.
template <class Robot>
Status validate(const RobotPlantState<Robot>& state) {
  if (!std::isfinite(state.time) || !state.base_twist.allFinite() || !state.q.allFinite() ||
      !state.q_dot.allFinite() || !state.motor_position.allFinite() ||
      !state.motor_velocity.allFinite() || !state.rotor_speed.allFinite())
    return Status::kNonFiniteInput;
  return hodyn::detail::check_pose(state.base_pose);
}

/// Rigid joints' motor entries set to the link's (θ = q, θ̇ = q̇).
template <class Robot>
void mirror_rigid_joints(const DescriptionOf<Robot, double>& robot, RobotPlantState<Robot>& state) {
  for (int j = 0; j < PlantTraits<Robot>::kNumJoints; ++j) {
    if (robot.actuator(j).drive != JointDrive::kRigid) continue;
    state.motor_position(j) = state.q(j);
    state.motor_velocity(j) = state.q_dot(j);
  }
}

// ---- the 12-DoF robot of seed 000 (AerialManipulatorRobot) --------------------

using PlantModel = AerialManipulatorModel<double>;
using PlantState = RobotPlantState<AerialManipulatorRobot>;
using PlantInput = RobotPlantInput<AerialManipulatorRobot>;
using AerialManipulatorPlantParameters = RobotPlantParameters<AerialManipulatorRobot>;

inline constexpr int kNumJoints = AerialManipulatorActuation::kNumJoints;  // 6
inline constexpr int kNumRotors = AerialManipulatorActuation::kNumRotors;  // 6
inline constexpr int kNumBodies = AerialManipulatorTree::kNumBodies;       // 7

/// The 12-DoF robot's plant parameters as separate body and actuation sets
/// (as before the robot descriptions); describe_plant() turns them into
/// RobotPlantParameters<AerialManipulatorRobot>, which every function taking
/// these parameters does first.
struct PlantParameters {
  AerialManipulatorParameters body{};      ///< geometry, masses, inertias, g (Table 3)
  AerialManipulatorActuation actuation{};  ///< elastic joints, rotors, TiltHex geometry
  std::array<double, kNumBodies> inertia_scale{1, 1, 1, 1, 1, 1, 1};  ///< per body, > 0
  double step = 1.0 / 8000.0;  ///< integration step (s), 0 < step ≤ 1/4000
};

/// `params` as a robot description (AerialManipulatorRobot::describe's
/// layout, without check_robot so that c_f = 0 stays possible). The status of
/// validate(params), else kInvalidModel (or the model's status) for
/// non-physical bodies; `out` untouched on failure.
Status describe_plant(const PlantParameters& params, AerialManipulatorPlantParameters& out);

/// kOk, or kInvalidArgument / kNonFiniteInput for the actuation, step and
/// scales (as validate() of the generic parameters; the bodies are checked by
/// make_plant_model).
Status validate(const PlantParameters& params);

/// make_aerial_manipulator(body) with the inertia scales applied.
Status make_plant_model(const PlantParameters& params, PlantModel& model);

PlantParameters scaled_inertias(PlantParameters params, double base_scale, double link_scale);

/// Base ×(1 + fraction), links ×(1 − fraction), ×(1 + fraction), ×(1 − fraction) down each arm.
PlantParameters alternating_mismatch(PlantParameters params, double fraction);

}  // namespace hodyn::sim
