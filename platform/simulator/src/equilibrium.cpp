// Equilibrium states from inverse dynamics (hodyn/simulator/equilibrium.hpp).
#include "hodyn/simulator/equilibrium.hpp"

#include <cmath>

#include <Eigen/LU>

#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/simulator/plant_dynamics.hpp"

namespace hodyn::sim {

Status equilibrium_state(const PlantParameters& params, const Pose<double>& base_pose,
                         const Twist<double>& base_twist, const Vector6d& q, const Vector6d& q_dot,
                         const Twist<double>& base_acceleration, const Vector6d& q_ddot,
                         PlantState& state, PlantInput& feedforward) {
  Status s = validate(params);
  if (s != Status::kOk) return s;
  PlantModel model;
  s = make_plant_model(params, model);
  if (s != Status::kOk) return s;

  MotionDerivatives<AerialManipulatorTree, 0> motion;
  motion.base_pose = base_pose;
  motion.base_twist[0] = base_twist;
  motion.base_twist[1] = base_acceleration;
  motion.q[0] = q;
  motion.q[1] = q_dot;
  motion.q[2] = q_ddot;
  InverseDynamicsData<AerialManipulatorTree, 0> id;
  s = inverse_dynamics(model, id, motion, 0);
  if (s != Status::kOk) return s;
  const Wrench<double>& wrench = id.base_wrench_body[0];
  const Vector6d& tau = id.joint_torque[0];

  // ω² = A⁻¹ W; a relative pivot below 1e-12 counts as singular.
  const ActuatorConstants actuators = ActuatorConstants::from(params.actuation);
  Eigen::FullPivLU<Matrix6d> lu(actuators.allocation);
  lu.setThreshold(1e-12);
  if (!lu.isInvertible()) return Status::kSingularAllocation;
  const Vector6d speed_squared = lu.solve(wrench);

  PlantState out;
  bool clamped = false;
  const double low = actuators.min_rotor_speed;
  const double high = actuators.max_rotor_speed;
  for (int i = 0; i < kNumRotors; ++i) {
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

  feedforward.rotor_speed_command = out.rotor_speed;
  feedforward.motor_torque = tau + actuators.motor_friction.cwiseProduct(q_dot) +
                             actuators.motor_inertia.cwiseProduct(q_ddot);
  state = out;
  return clamped ? Status::kActuatorSaturated : Status::kOk;
}

Status hover_state(const PlantParameters& params, const Pose<double>& base_pose, const Vector6d& q,
                   PlantState& state, PlantInput& feedforward) {
  return equilibrium_state(params, base_pose, Twist<double>::Zero(), q, Vector6d::Zero(),
                           Twist<double>::Zero(), Vector6d::Zero(), state, feedforward);
}

}  // namespace hodyn::sim
