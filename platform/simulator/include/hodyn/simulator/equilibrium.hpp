// hodyn/simulator/equilibrium.hpp — the plant state (and feedforward input)
// that realises a given motion instantaneously; used to start a closed-loop
// run on its reference, e.g. in hover. Any robot type, any centre of mass.
//
// Inverse dynamics of order 0 on the plant's model gives the base-frame
// propulsion wrench W (at rest: the gravity compensation wrench, moments
// included) and the joint torques τ of the motion (C₁, V₁, V̇₁, q, q̇, q̈).
// Then (models/robot.hpp):
//   ω² = A⁻¹ W                    (N = 6 rotors)
//   ω² = A⁺ W = Aᵀ (A Aᵀ)⁻¹ W     (N > 6: the minimum-norm solution of A ω² = W,
//                                   by a complete orthogonal decomposition of A)
//   ω_i = √(ω_i²), clamped to [ω_min,i, ω_max,i],  ω_cmd = ω  (ω̇ = 0),
//   elastic joint: θ = q + K⁻¹ τ, θ̇ = q̇ (τ_el = τ; the damping term vanishes),
//                  u = τ + F θ̇ + B q̈   (θ̈ = q̈: exact when τ is constant, e.g. hover);
//   rigid joint:   θ = q, θ̇ = q̇, u = τ (clamped to ±u_max).
// The minimum-norm ω² may have entries outside [ω_min², ω_max²] (even
// negative ones) although another solution of A ω² = W lies inside: the status
// then says kActuatorSaturated and the state does not hold still. (The
// controller's allocation, not the plant, is where N > 6 rotors use their
// freedom to stay within limits.)
#pragma once

#include <cmath>

#include <Eigen/LU>
#include <Eigen/QR>

#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/simulator/plant_dynamics.hpp"
#include "hodyn/simulator/plant_parameters.hpp"

namespace hodyn::sim {

/// ω² with A ω² = W: A⁻¹ W for N = 6 (full-pivot LU), the minimum-norm
/// solution for N > 6 (complete orthogonal decomposition). A relative pivot
/// below 1e-12 counts as rank < 6: kSingularAllocation, `speed_squared` untouched.
template <int N>
Status rotor_speeds_squared(const Eigen::Matrix<double, 6, N>& allocation,
                            const Wrench<double>& wrench,
                            Eigen::Matrix<double, N, 1>& speed_squared) {
  if constexpr (N == 6) {
    Eigen::FullPivLU<Matrix6d> lu(allocation);
    lu.setThreshold(1e-12);
    if (!lu.isInvertible()) return Status::kSingularAllocation;
    speed_squared = lu.solve(wrench);
  } else {
    Eigen::CompleteOrthogonalDecomposition<Eigen::Matrix<double, 6, N>> cod(allocation);
    cod.setThreshold(1e-12);
    if (cod.rank() < 6) return Status::kSingularAllocation;
    speed_squared = cod.solve(wrench);
  }
  return Status::kOk;
}

/// Writes `state` (time 0) and `feedforward`. Returns kOk; kActuatorSaturated
/// when a rotor speed had to be clamped (ω_i² < ω_min,i², including negative
/// ω_i², or > ω_max,i²) or a rigid joint's torque exceeds its u_max (the
/// plant's accelerations then differ from the request); kSingularAllocation
/// when A has rank < 6; a parameter, input or model error otherwise (outputs
/// untouched).
template <class Robot>
Status equilibrium_state(const RobotPlantParameters<Robot>& params, const Pose<double>& base_pose,
                         const Twist<double>& base_twist,
                         const typename PlantTraits<Robot>::JointVector& q,
                         const typename PlantTraits<Robot>::JointVector& q_dot,
                         const Twist<double>& base_acceleration,
                         const typename PlantTraits<Robot>::JointVector& q_ddot,
                         RobotPlantState<Robot>& state, RobotPlantInput<Robot>& feedforward);

/// Hover at `base_pose` with the joints held at `q`.
template <class Robot>
Status hover_state(const RobotPlantParameters<Robot>& params, const Pose<double>& base_pose,
                   const typename PlantTraits<Robot>::JointVector& q, RobotPlantState<Robot>& state,
                   RobotPlantInput<Robot>& feedforward) {
  using JointVector = typename PlantTraits<Robot>::JointVector;
  return equilibrium_state(params, base_pose, Twist<double>::Zero(), q, JointVector::Zero(),
                           Twist<double>::Zero(), JointVector::Zero(), state, feedforward);
}

template <class Robot>
Status equilibrium_state(const RobotPlantParameters<Robot>& params, const Pose<double>& base_pose,
                         const Twist<double>& base_twist,
                         const typename PlantTraits<Robot>::JointVector& q,
                         const typename PlantTraits<Robot>::JointVector& q_dot,
                         const Twist<double>& base_acceleration,
                         const typename PlantTraits<Robot>::JointVector& q_ddot,
                         RobotPlantState<Robot>& state, RobotPlantInput<Robot>& feedforward) {
  using Traits = PlantTraits<Robot>;
  using Tree = typename Traits::Tree;
  constexpr int nj = Traits::kNumJoints;
  constexpr int nr = Traits::kNumRotors;
  Status s = validate(params);
  if (s != Status::kOk) return s;
  typename Traits::Model model;
  s = make_plant_model(params, model);
  if (s != Status::kOk) return s;

  MotionDerivatives<Tree, 0> motion;
  motion.base_pose = base_pose;
  motion.base_twist[0] = base_twist;
  motion.base_twist[1] = base_acceleration;
  motion.q[0] = q;
  motion.q[1] = q_dot;
  motion.q[2] = q_ddot;
  InverseDynamicsData<Tree, 0> id;
  s = inverse_dynamics(model, id, motion, 0);
  if (s != Status::kOk) return s;
  const Wrench<double>& wrench = id.base_wrench_body[0];
  const typename Traits::JointVector& tau = id.joint_torque[0];

  const auto actuators = RobotActuatorConstants<Robot>::from(params.robot);
  Eigen::Matrix<double, nr, 1> speed_squared;
  s = rotor_speeds_squared<nr>(actuators.allocation, wrench, speed_squared);
  if (s != Status::kOk) return s;

  RobotPlantState<Robot> out;
  bool clamped = false;
  for (int i = 0; i < nr; ++i) {
    const double low = actuators.min_rotor_speed(i);
    const double high = actuators.max_rotor_speed(i);
    const double w2 = speed_squared(i);
    double w = w2 > 0.0 ? std::sqrt(w2) : 0.0;
    if (w < low || w > high) {
      clamped = true;
      w = w < low ? low : high;
    }
    out.rotor_speed(i) = w;
  }
  out.time = 0.0;
  out.base_pose = base_pose;
  out.base_twist = base_twist;
  out.q = q;
  out.q_dot = q_dot;
  out.motor_position = q + tau.cwiseQuotient(actuators.stiffness);
  out.motor_velocity = q_dot;

  RobotPlantInput<Robot> in;
  in.rotor_speed_command = out.rotor_speed;
  in.motor_torque = tau + actuators.motor_friction.cwiseProduct(q_dot) +
                    actuators.motor_inertia.cwiseProduct(q_ddot);
  for (int j = 0; j < nj; ++j) {
    if (actuators.elastic(j)) continue;
    const double limit = actuators.torque_limit(j);
    double u = tau(j);
    if (u > limit || u < -limit) {
      clamped = true;
      u = u > limit ? limit : -limit;
    }
    in.motor_torque(j) = u;
  }
  mirror_rigid_joints(params.robot, out);
  feedforward = in;
  state = out;
  return clamped ? Status::kActuatorSaturated : Status::kOk;
}

// ---- the 12-DoF robot -----------------------------------------------------------

Status equilibrium_state(const PlantParameters& params, const Pose<double>& base_pose,
                         const Twist<double>& base_twist, const Vector6d& q, const Vector6d& q_dot,
                         const Twist<double>& base_acceleration, const Vector6d& q_ddot,
                         PlantState& state, PlantInput& feedforward);

Status hover_state(const PlantParameters& params, const Pose<double>& base_pose, const Vector6d& q,
                   PlantState& state, PlantInput& feedforward);

extern template Status equilibrium_state<AerialManipulatorRobot>(
    const AerialManipulatorPlantParameters&, const Pose<double>&, const Twist<double>&,
    const Vector6d&, const Vector6d&, const Twist<double>&, const Vector6d&, PlantState&,
    PlantInput&);

}  // namespace hodyn::sim
