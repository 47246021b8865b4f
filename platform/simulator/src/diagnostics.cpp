// Energy, momentum and body poses of a plant state (hodyn/simulator/diagnostics.hpp).
#include "hodyn/simulator/diagnostics.hpp"

#include "hodyn/equations_of_motion.hpp"
#include "hodyn/screw_exponential.hpp"

namespace hodyn::sim {

namespace {

using Velocity = Eigen::Matrix<double, 12, 1>;

/// ν = (V₁; q̇) and M̄(C₁, q).
Status generalized_momentum(const PlantModel& model, const PlantState& state, Velocity& nu,
                            Velocity& momentum) {
  EquationsOfMotionData<AerialManipulatorTree> data;
  const Status s = mass_matrix(model, data, state.base_pose, state.q);
  if (s != Status::kOk) return s;
  nu << state.base_twist, state.q_dot;
  momentum = data.result.mass_matrix * nu;
  return Status::kOk;
}

}  // namespace

std::array<Pose<double>, kNumBodies> body_poses(const PlantModel& model,
                                                const Pose<double>& base_pose, const Vector6d& q) {
  std::array<Pose<double>, kNumBodies> joint_frame;  // F_j
  std::array<Pose<double>, kNumBodies> pose;         // C_j
  joint_frame[0] = base_pose * model.base_home_pose_inverse();
  pose[0] = base_pose;
  for (int j = 1; j < kNumBodies; ++j) {
    const auto u = static_cast<std::size_t>(j);
    const auto parent = static_cast<std::size_t>(AerialManipulatorTree::kParent[u]);
    joint_frame[u] = joint_frame[parent] * screw_exponential(model.joint_screw(j), q(j - 1));
    pose[u] = joint_frame[u] * model.home_pose(j);
  }
  return pose;
}

Status plant_energy(const PlantModel& model, const PlantParameters& params, const PlantState& state,
                    PlantEnergy& energy) {
  Velocity nu, momentum;
  const Status s = generalized_momentum(model, state, nu, momentum);
  if (s != Status::kOk) return s;
  PlantEnergy e;
  e.link_kinetic = 0.5 * nu.dot(momentum);
  for (int j = 0; j < kNumJoints; ++j) {
    const ElasticJointParameters& p = params.actuation.joints[static_cast<std::size_t>(j)];
    const double deflection = state.motor_position(j) - state.q(j);
    e.motor_kinetic += 0.5 * p.motor_inertia * state.motor_velocity(j) * state.motor_velocity(j);
    e.spring_potential += 0.5 * p.stiffness * deflection * deflection;
  }
  const auto poses = body_poses(model, state.base_pose, state.q);
  for (int j = 0; j < kNumBodies; ++j) {
    const Vector3<double> com = poses[static_cast<std::size_t>(j)].act(model.body_inertia(j).com());
    e.gravity_potential -= model.mass(j) * model.gravity().dot(com);
  }
  energy = e;
  return Status::kOk;
}

Status spatial_momentum(const PlantModel& model, const PlantState& state,
                        Wrench<double>& momentum) {
  Velocity nu, generalized;
  const Status s = generalized_momentum(model, state, nu, generalized);
  if (s != Status::kOk) return s;
  momentum = generalized.head<6>();
  return Status::kOk;
}

}  // namespace hodyn::sim
