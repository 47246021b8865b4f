// hodyn/simulator/plant_dynamics.hpp — the plant's equations of motion, the
// vector field the integrator (rkmk4.hpp) steps; generic over a robot type.
//
// State y = (C₁; x) ∈ SE(3) × Rⁿ, n = 6 + 4 nJ + nR, with
// x = (V₁, q, q̇, θ, θ̇, ω) (layout below). With the saturated inputs
// ω_cmd,i ∈ [ω_min,i, ω_max,i], |u_j| ≤ u_max,j held over a step
// (models/robot.hpp; De Luca's elastic joint, seed 000 eq. 28):
//   [Ċ₁ C₁⁻¹] = V₁                                 (spatial twist)
//   τ_j       = K_j (θ_j − q_j) + D_j (θ̇_j − q̇_j)   (elastic joint j)
//   τ_j       = u_j                                 (rigid joint j)
//   W_prop    = A ω²  (base frame, ω² elementwise)  (A = rotor_allocation(rotors))
//   (V̇₁, q̈)   = FD₀(C₁, V₁, q, q̇; W_prop + W_gust, τ)   (hodyn::forward_dynamics, order 0)
//   θ̈_j       = (u_j − F_j θ̇_j − τ_j) / B_j          (elastic: motor side)
//   θ̇_j, θ̈_j  := q̇_j, q̈_j                          (rigid: the motor entries mirror the link)
//   ω̇_i       = (ω_cmd,i − ω_i) / T_i               (rotor i's speed loop)
// W_gust is the world-frame gust at the base centre of mass, rotated into the
// base frame: (R₁ᵀ n; R₁ᵀ f). All joint quantities are link-side.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

#include <Eigen/Core>

#include "hodyn/forward_dynamics.hpp"
#include "hodyn/simulator/disturbances.hpp"
#include "hodyn/simulator/plant_parameters.hpp"

namespace hodyn::sim {

/// x = (V₁, q, q̇, θ, θ̇, ω): where each part starts in the state vector.
template <class Robot>
struct RobotStateLayout {
  static constexpr int kNumJoints = PlantTraits<Robot>::kNumJoints;
  static constexpr int kNumRotors = PlantTraits<Robot>::kNumRotors;
  static constexpr int kBaseTwist = 0;
  static constexpr int kJointPosition = 6;
  static constexpr int kJointVelocity = kJointPosition + kNumJoints;
  static constexpr int kMotorPosition = kJointVelocity + kNumJoints;
  static constexpr int kMotorVelocity = kMotorPosition + kNumJoints;
  static constexpr int kRotorSpeed = kMotorVelocity + kNumJoints;
  static constexpr int kSize = kRotorSpeed + kNumRotors;
  using StateVector = Eigen::Matrix<double, kSize, 1>;
};

/// The vector part x of a state.
template <class Robot>
typename RobotStateLayout<Robot>::StateVector pack(const RobotPlantState<Robot>& state) {
  using L = RobotStateLayout<Robot>;
  constexpr int nj = L::kNumJoints;
  typename L::StateVector x;
  x.template segment<6>(L::kBaseTwist) = state.base_twist;
  x.template segment<nj>(L::kJointPosition) = state.q;
  x.template segment<nj>(L::kJointVelocity) = state.q_dot;
  x.template segment<nj>(L::kMotorPosition) = state.motor_position;
  x.template segment<nj>(L::kMotorVelocity) = state.motor_velocity;
  x.template segment<L::kNumRotors>(L::kRotorSpeed) = state.rotor_speed;
  return x;
}

/// Writes x into the vector part of `state` (pose and time untouched).
template <class Robot>
void unpack(const typename RobotStateLayout<Robot>::StateVector& x, RobotPlantState<Robot>& state) {
  using L = RobotStateLayout<Robot>;
  constexpr int nj = L::kNumJoints;
  state.base_twist = x.template segment<6>(L::kBaseTwist);
  state.q = x.template segment<nj>(L::kJointPosition);
  state.q_dot = x.template segment<nj>(L::kJointVelocity);
  state.motor_position = x.template segment<nj>(L::kMotorPosition);
  state.motor_velocity = x.template segment<nj>(L::kMotorVelocity);
  state.rotor_speed = x.template segment<L::kNumRotors>(L::kRotorSpeed);
}

/// Actuator constants as vectors, read once from the description. Rigid
/// joints have B = 1, K = D = F = 0 here (unused: their torque is u).
template <class Robot>
struct RobotActuatorConstants {
  using JointVector = typename PlantTraits<Robot>::JointVector;
  using RotorVector = typename PlantTraits<Robot>::RotorVector;
  using StateVector = typename RobotStateLayout<Robot>::StateVector;
  static constexpr int kNumJoints = PlantTraits<Robot>::kNumJoints;
  static constexpr int kNumRotors = PlantTraits<Robot>::kNumRotors;

  std::array<JointDrive, kNumJoints> drive{};             ///< elastic or rigid, per joint
  JointVector motor_inertia = JointVector::Ones();        ///< B
  JointVector stiffness = JointVector::Ones();            ///< K
  JointVector damping = JointVector::Zero();              ///< D
  JointVector motor_friction = JointVector::Zero();       ///< F
  JointVector torque_limit = JointVector::Ones();         ///< u_max
  RotorVector rotor_time_constant = RotorVector::Ones();  ///< T_i
  RotorVector min_rotor_speed = RotorVector::Zero();      ///< ω_min,i
  RotorVector max_rotor_speed = RotorVector::Zero();      ///< ω_max,i
  Eigen::Matrix<double, 6, kNumRotors> allocation =
      Eigen::Matrix<double, 6, kNumRotors>::Zero();  ///< A (rotor_allocation)

  static RobotActuatorConstants from(const DescriptionOf<Robot, double>& robot) {
    RobotActuatorConstants c;
    for (int j = 0; j < kNumJoints; ++j) {
      const JointActuator& a = robot.actuator(j);
      c.drive[static_cast<std::size_t>(j)] = a.drive;
      c.torque_limit(j) = a.torque_limit;
      const bool elastic = a.drive == JointDrive::kElastic;
      c.motor_inertia(j) = elastic ? a.motor_inertia : 1.0;
      c.stiffness(j) = elastic ? a.stiffness : 0.0;
      c.damping(j) = elastic ? a.damping : 0.0;
      c.motor_friction(j) = elastic ? a.motor_friction : 0.0;
    }
    for (int i = 0; i < kNumRotors; ++i) {
      const Rotor<double>& r = robot.rotors[i];
      c.rotor_time_constant(i) = r.time_constant;
      c.min_rotor_speed(i) = r.min_speed;
      c.max_rotor_speed(i) = r.max_speed;
    }
    c.allocation = rotor_allocation(robot.rotors);
    return c;
  }
  bool elastic(int j) const { return drive[static_cast<std::size_t>(j)] == JointDrive::kElastic; }

  /// τ_el = K (θ − q) + D (θ̇ − q̇) at the vector state x (zero for rigid joints).
  JointVector elastic_torque(const StateVector& x) const {
    using L = RobotStateLayout<Robot>;
    const auto q = x.template segment<kNumJoints>(L::kJointPosition);
    const auto q_dot = x.template segment<kNumJoints>(L::kJointVelocity);
    const auto theta = x.template segment<kNumJoints>(L::kMotorPosition);
    const auto theta_dot = x.template segment<kNumJoints>(L::kMotorVelocity);
    return stiffness.cwiseProduct(theta - q) + damping.cwiseProduct(theta_dot - q_dot);
  }
  /// The joint torques τ: τ_el for elastic joints, the saturated u for rigid ones.
  JointVector joint_torque(const StateVector& x, const JointVector& saturated_u) const {
    JointVector tau = elastic_torque(x);
    for (int j = 0; j < kNumJoints; ++j)
      if (!elastic(j)) tau(j) = saturated_u(j);
    return tau;
  }
  /// W_prop = A ω² (base frame) at the vector state x.
  Wrench<double> propulsion_wrench(const StateVector& x) const {
    using L = RobotStateLayout<Robot>;
    return allocation * x.template segment<kNumRotors>(L::kRotorSpeed).cwiseAbs2();
  }
};

/// Which input components were clamped in a `Plant::step` call.
template <class Robot>
struct RobotSaturationReport {
  std::array<bool, PlantTraits<Robot>::kNumRotors> rotor_speed{};   ///< ω_cmd,i outside its range
  std::array<bool, PlantTraits<Robot>::kNumJoints> motor_torque{};  ///< |u_j| > u_max,j
  bool any() const {
    return std::any_of(rotor_speed.begin(), rotor_speed.end(), [](bool b) { return b; }) ||
           std::any_of(motor_torque.begin(), motor_torque.end(), [](bool b) { return b; });
  }
};

/// The inputs after saturation (what the actuators actually do).
template <class Robot>
RobotPlantInput<Robot> saturate(const RobotPlantInput<Robot>& input,
                                const RobotActuatorConstants<Robot>& constants,
                                RobotSaturationReport<Robot>& report) {
  RobotPlantInput<Robot> out;
  for (int i = 0; i < PlantTraits<Robot>::kNumRotors; ++i) {
    const double w = input.rotor_speed_command(i);
    out.rotor_speed_command(i) =
        std::clamp(w, constants.min_rotor_speed(i), constants.max_rotor_speed(i));
    report.rotor_speed[static_cast<std::size_t>(i)] = out.rotor_speed_command(i) != w;
  }
  for (int j = 0; j < PlantTraits<Robot>::kNumJoints; ++j) {
    const double u = input.motor_torque(j);
    const double limit = constants.torque_limit(j);
    out.motor_torque(j) = std::clamp(u, -limit, limit);
    report.motor_torque[static_cast<std::size_t>(j)] = out.motor_torque(j) != u;
  }
  return out;
}

/// Everything of ẋ but the tree's own dynamics, given V̇₁ and q̈ (forward
/// dynamics of the open tree, or of the closed one in constrained_plant.hpp):
/// q's rate, the motors (elastic: B θ̈ = u − F θ̇ − τ_spring; rigid: they follow
/// the link) and the rotors' first-order speed lag.
template <class Robot, class StateVector, class JointVector, class BaseAcceleration,
          class JointAcceleration>
void fill_state_rate(const RobotActuatorConstants<Robot>& constants,
                     const RobotPlantInput<Robot>& saturated_input, const StateVector& x,
                     const JointVector& tau, const BaseAcceleration& base_acceleration,
                     const JointAcceleration& q_ddot, StateVector& x_dot) {
  using L = RobotStateLayout<Robot>;
  constexpr int nj = L::kNumJoints;
  constexpr int nr = L::kNumRotors;
  const auto q_dot = x.template segment<nj>(L::kJointVelocity);
  const auto theta_dot = x.template segment<nj>(L::kMotorVelocity);
  x_dot.template segment<6>(L::kBaseTwist) = base_acceleration;
  x_dot.template segment<nj>(L::kJointPosition) = q_dot;
  x_dot.template segment<nj>(L::kJointVelocity) = q_ddot;
  x_dot.template segment<nj>(L::kMotorPosition) = theta_dot;
  x_dot.template segment<nj>(L::kMotorVelocity) =
      (saturated_input.motor_torque - constants.motor_friction.cwiseProduct(theta_dot) - tau)
          .cwiseQuotient(constants.motor_inertia);
  for (int j = 0; j < nj; ++j) {
    if (constants.elastic(j)) continue;  // rigid: the motor entries follow the link
    x_dot(L::kMotorPosition + j) = q_dot(j);
    x_dot(L::kMotorVelocity + j) = q_ddot(j);
  }
  x_dot.template segment<nr>(L::kRotorSpeed) =
      (saturated_input.rotor_speed_command - x.template segment<nr>(L::kRotorSpeed))
          .cwiseQuotient(constants.rotor_time_constant);
}

/// The time derivative of x at (t, C₁, x) for saturated inputs; the pose rate
/// is x's own V₁. Holds the forward-dynamics workspace (no heap).
template <class Robot>
class RobotPlantVectorField {
 public:
  using Tree = typename PlantTraits<Robot>::Tree;
  using StateVector = typename RobotStateLayout<Robot>::StateVector;
  Status evaluate(const typename PlantTraits<Robot>::Model& model,
                  const RobotActuatorConstants<Robot>& constants, const Disturbances& disturbances,
                  const RobotPlantInput<Robot>& saturated_input, double time,
                  const Pose<double>& base_pose, const StateVector& x, StateVector& x_dot);

 private:
  ForwardDynamicsInput<Tree, 0> input_{};
  ForwardDynamicsData<Tree, 0> data_{};
};

template <class Robot>
Status RobotPlantVectorField<Robot>::evaluate(const typename PlantTraits<Robot>::Model& model,
                                              const RobotActuatorConstants<Robot>& constants,
                                              const Disturbances& disturbances,
                                              const RobotPlantInput<Robot>& saturated_input,
                                              double time, const Pose<double>& base_pose,
                                              const StateVector& x, StateVector& x_dot) {
  using L = RobotStateLayout<Robot>;
  constexpr int nj = L::kNumJoints;
  const typename PlantTraits<Robot>::JointVector tau =
      constants.joint_torque(x, saturated_input.motor_torque);
  // Gust: world (n; f) at the base centre of mass → base frame (Rᵀ n; Rᵀ f).
  const Wrench<double> gust_world = disturbances.gust_wrench(time);
  const Matrix3<double>& r = base_pose.rotation;
  const Wrench<double> gust_base = spatial_vector<double>(r.transpose() * angular(gust_world),
                                                          r.transpose() * linear(gust_world));

  input_.base_pose = base_pose;
  input_.base_twist = x.template segment<6>(L::kBaseTwist);
  input_.q = x.template segment<nj>(L::kJointPosition);
  input_.q_dot = x.template segment<nj>(L::kJointVelocity);
  input_.base_wrench_frame = WrenchFrame::kBase;
  input_.base_wrench[0] = constants.propulsion_wrench(x) + gust_base;
  input_.joint_torque[0] = tau;
  const Status s = forward_dynamics(model, data_, input_, 0);
  if (s != Status::kOk) return s;
  fill_state_rate<Robot>(constants, saturated_input, x, tau, data_.motion.base_twist[1],
                         data_.motion.q[2], x_dot);
  return Status::kOk;
}

// ---- the 12-DoF robot -----------------------------------------------------------

using StateLayout = RobotStateLayout<AerialManipulatorRobot>;
using StateVector = StateLayout::StateVector;
using ActuatorConstants = RobotActuatorConstants<AerialManipulatorRobot>;
using SaturationReport = RobotSaturationReport<AerialManipulatorRobot>;
using PlantVectorField = RobotPlantVectorField<AerialManipulatorRobot>;

extern template class RobotPlantVectorField<AerialManipulatorRobot>;

}  // namespace hodyn::sim
