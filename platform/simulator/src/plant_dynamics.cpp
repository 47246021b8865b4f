// The plant's vector field (hodyn/simulator/plant_dynamics.hpp).
#include "hodyn/simulator/plant_dynamics.hpp"

#include <algorithm>

#include "hodyn/models/tilthex.hpp"

namespace hodyn::sim {

namespace {
using L = StateLayout;
}  // namespace

StateVector pack(const PlantState& state) {
  StateVector x;
  x.segment<6>(L::kBaseTwist) = state.base_twist;
  x.segment<6>(L::kJointPosition) = state.q;
  x.segment<6>(L::kJointVelocity) = state.q_dot;
  x.segment<6>(L::kMotorPosition) = state.motor_position;
  x.segment<6>(L::kMotorVelocity) = state.motor_velocity;
  x.segment<6>(L::kRotorSpeed) = state.rotor_speed;
  return x;
}

void unpack(const StateVector& x, PlantState& state) {
  state.base_twist = x.segment<6>(L::kBaseTwist);
  state.q = x.segment<6>(L::kJointPosition);
  state.q_dot = x.segment<6>(L::kJointVelocity);
  state.motor_position = x.segment<6>(L::kMotorPosition);
  state.motor_velocity = x.segment<6>(L::kMotorVelocity);
  state.rotor_speed = x.segment<6>(L::kRotorSpeed);
}

ActuatorConstants ActuatorConstants::from(const AerialManipulatorActuation& actuation) {
  ActuatorConstants c;
  for (int j = 0; j < kNumJoints; ++j) {
    const ElasticJointParameters& p = actuation.joints[static_cast<std::size_t>(j)];
    c.motor_inertia(j) = p.motor_inertia;
    c.stiffness(j) = p.stiffness;
    c.damping(j) = p.damping;
    c.motor_friction(j) = p.motor_friction;
    c.torque_limit(j) = p.torque_limit;
  }
  c.rotor_time_constant = actuation.rotors.time_constant;
  c.min_rotor_speed = actuation.rotors.min_speed;
  c.max_rotor_speed = actuation.rotors.max_speed;
  c.allocation = tilthex_allocation<double>(actuation.tilthex);
  return c;
}

Vector6d ActuatorConstants::elastic_torque(const StateVector& x) const {
  const auto q = x.segment<6>(L::kJointPosition);
  const auto q_dot = x.segment<6>(L::kJointVelocity);
  const auto theta = x.segment<6>(L::kMotorPosition);
  const auto theta_dot = x.segment<6>(L::kMotorVelocity);
  return stiffness.cwiseProduct(theta - q) + damping.cwiseProduct(theta_dot - q_dot);
}

Wrench<double> ActuatorConstants::propulsion_wrench(const StateVector& x) const {
  return allocation * x.segment<6>(L::kRotorSpeed).cwiseAbs2();
}

bool SaturationReport::any() const {
  return std::any_of(rotor_speed.begin(), rotor_speed.end(), [](bool b) { return b; }) ||
         std::any_of(motor_torque.begin(), motor_torque.end(), [](bool b) { return b; });
}

PlantInput saturate(const PlantInput& input, const ActuatorConstants& constants,
                    SaturationReport& report) {
  PlantInput out;
  for (int i = 0; i < kNumRotors; ++i) {
    const double w = input.rotor_speed_command(i);
    out.rotor_speed_command(i) =
        std::clamp(w, constants.min_rotor_speed, constants.max_rotor_speed);
    report.rotor_speed[static_cast<std::size_t>(i)] = out.rotor_speed_command(i) != w;
  }
  for (int j = 0; j < kNumJoints; ++j) {
    const double u = input.motor_torque(j);
    const double limit = constants.torque_limit(j);
    out.motor_torque(j) = std::clamp(u, -limit, limit);
    report.motor_torque[static_cast<std::size_t>(j)] = out.motor_torque(j) != u;
  }
  return out;
}

Status PlantVectorField::evaluate(const PlantModel& model, const ActuatorConstants& constants,
                                  const Disturbances& disturbances,
                                  const PlantInput& saturated_input, double time,
                                  const Pose<double>& base_pose, const StateVector& x,
                                  StateVector& x_dot) {
  const Vector6d tau_el = constants.elastic_torque(x);
  // Gust: world (n; f) at the base centre of mass → base frame (Rᵀ n; Rᵀ f).
  const Wrench<double> gust_world = disturbances.gust_wrench(time);
  const Matrix3<double>& r = base_pose.rotation;
  const Wrench<double> gust_base = spatial_vector<double>(r.transpose() * angular(gust_world),
                                                          r.transpose() * linear(gust_world));

  input_.base_pose = base_pose;
  input_.base_twist = x.segment<6>(L::kBaseTwist);
  input_.q = x.segment<6>(L::kJointPosition);
  input_.q_dot = x.segment<6>(L::kJointVelocity);
  input_.base_wrench_frame = WrenchFrame::kBase;
  input_.base_wrench[0] = constants.propulsion_wrench(x) + gust_base;
  input_.joint_torque[0] = tau_el;
  const Status s = forward_dynamics(model, data_, input_, 0);
  if (s != Status::kOk) return s;

  const auto theta_dot = x.segment<6>(L::kMotorVelocity);
  x_dot.segment<6>(L::kBaseTwist) = data_.motion.base_twist[1];
  x_dot.segment<6>(L::kJointPosition) = input_.q_dot;
  x_dot.segment<6>(L::kJointVelocity) = data_.motion.q[2];
  x_dot.segment<6>(L::kMotorPosition) = theta_dot;
  x_dot.segment<6>(L::kMotorVelocity) =
      (saturated_input.motor_torque - constants.motor_friction.cwiseProduct(theta_dot) - tau_el)
          .cwiseQuotient(constants.motor_inertia);
  x_dot.segment<6>(L::kRotorSpeed) =
      (saturated_input.rotor_speed_command - x.segment<6>(L::kRotorSpeed)) /
      constants.rotor_time_constant;
  return Status::kOk;
}

}  // namespace hodyn::sim
