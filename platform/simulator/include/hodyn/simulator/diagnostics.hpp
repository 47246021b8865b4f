// hodyn/simulator/diagnostics.hpp — physical invariants of a plant state, for
// tests and logs: body poses, energy, total spatial momentum; any robot type.
//
//   body poses   F₀ = C₁ (A⁰₀)⁻¹,  F_j = F_p(j) exp([Y_j] q_j),  C_j = F_j A⁰_j
//   kinetic      T = ½ νᵀ M̄ ν,  ν = (V₁ spatial; q̇)   (core mass_matrix)
//   momentum     P = (M̄ ν)₀..₅ = Σ_j M_j V_j: world axes, moment about the world origin
//   motor        ½ Σ B θ̇²,   spring ½ Σ K (θ − q)²   (elastic joints only: a
//                rigid joint's motor is part of its link)
//   gravity      −Σ_j m_j gᵀ c_j  (c_j: centre of mass of body j in the world)
// With no propulsion, no gust, D = F = 0 and u = 0 the sum of the energies and,
// with g = 0, the momentum are conserved by the plant's equations.
#pragma once

#include <array>
#include <cstddef>

#include "hodyn/equations_of_motion.hpp"
#include "hodyn/screw_exponential.hpp"
#include "hodyn/simulator/plant_parameters.hpp"

namespace hodyn::sim {

struct PlantEnergy {
  double link_kinetic = 0.0;       ///< ½ νᵀ M̄ ν (J)
  double motor_kinetic = 0.0;      ///< ½ Σ B θ̇² (J)
  double spring_potential = 0.0;   ///< ½ Σ K (θ − q)² (J)
  double gravity_potential = 0.0;  ///< −Σ m gᵀ c (J), zero at the world origin
  double total() const {
    return link_kinetic + motor_kinetic + spring_potential + gravity_potential;
  }
};

/// C_j of every body (world frame) at base pose C₁ and joint positions q (1-DoF
/// joints only: a ball or universal joint is refused at compile time).
template <class Tree>
std::array<Pose<double>, Tree::kNumBodies> body_poses(
    const Model<Tree, double>& model, const Pose<double>& base_pose,
    const typename Model<Tree, double>::JointVector& q) {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "body_poses");  // q(j − 1), one screw per joint
  constexpr int n = Tree::kNumBodies;
  std::array<Pose<double>, n> joint_frame;  // F_j
  std::array<Pose<double>, n> pose;         // C_j
  joint_frame[0] = base_pose * model.base_home_pose_inverse();
  pose[0] = base_pose;
  for (int j = 1; j < n; ++j) {
    const auto u = static_cast<std::size_t>(j);
    const auto parent = static_cast<std::size_t>(Tree::kParent[u]);
    joint_frame[u] = joint_frame[parent] * screw_exponential(model.joint_screw(j), q(j - 1));
    pose[u] = joint_frame[u] * model.home_pose(j);
  }
  return pose;
}

namespace detail {

/// ν = (V₁; q̇) and M̄(C₁, q) ν.
template <class Robot>
Status generalized_momentum(
    const typename PlantTraits<Robot>::Model& model, const RobotPlantState<Robot>& state,
    Eigen::Matrix<double, 6 + PlantTraits<Robot>::kNumJoints, 1>& nu,
    Eigen::Matrix<double, 6 + PlantTraits<Robot>::kNumJoints, 1>& momentum) {
  EquationsOfMotionData<typename PlantTraits<Robot>::Tree> data;
  const Status s = mass_matrix(model, data, state.base_pose, state.q);
  if (s != Status::kOk) return s;
  nu << state.base_twist, state.q_dot;
  momentum = data.result.mass_matrix * nu;
  return Status::kOk;
}

}  // namespace detail

/// The energies of `state` for the plant `model` and the actuators of `params`.
template <class Robot>
Status plant_energy(const typename PlantTraits<Robot>::Model& model,
                    const RobotPlantParameters<Robot>& params, const RobotPlantState<Robot>& state,
                    PlantEnergy& energy) {
  using Traits = PlantTraits<Robot>;
  Eigen::Matrix<double, 6 + Traits::kNumJoints, 1> nu, momentum;
  const Status s = detail::generalized_momentum<Robot>(model, state, nu, momentum);
  if (s != Status::kOk) return s;
  PlantEnergy e;
  e.link_kinetic = 0.5 * nu.dot(momentum);
  for (int j = 0; j < Traits::kNumJoints; ++j) {
    const JointActuator& a = params.robot.actuator(j);
    if (a.drive != JointDrive::kElastic) continue;
    const double deflection = state.motor_position(j) - state.q(j);
    e.motor_kinetic += 0.5 * a.motor_inertia * state.motor_velocity(j) * state.motor_velocity(j);
    e.spring_potential += 0.5 * a.stiffness * deflection * deflection;
  }
  const auto poses = body_poses(model, state.base_pose, state.q);
  for (int j = 0; j < Traits::kNumBodies; ++j) {
    const Vector3<double> com = poses[static_cast<std::size_t>(j)].act(model.body_inertia(j).com());
    e.gravity_potential -= model.mass(j) * model.gravity().dot(com);
  }
  energy = e;
  return Status::kOk;
}

/// Σ_j M_j V_j, the system's spatial momentum (world axes, about the origin).
template <class Robot>
Status spatial_momentum(const typename PlantTraits<Robot>::Model& model,
                        const RobotPlantState<Robot>& state, Wrench<double>& momentum) {
  Eigen::Matrix<double, 6 + PlantTraits<Robot>::kNumJoints, 1> nu, generalized;
  const Status s = detail::generalized_momentum<Robot>(model, state, nu, generalized);
  if (s != Status::kOk) return s;
  momentum = generalized.template head<6>();
  return Status::kOk;
}

// ---- the 12-DoF robot -----------------------------------------------------------

/// The energies with the actuators of the 12-DoF robot's parameter set.
Status plant_energy(const PlantModel& model, const PlantParameters& params, const PlantState& state,
                    PlantEnergy& energy);

extern template Status plant_energy<AerialManipulatorRobot>(const PlantModel&,
                                                            const AerialManipulatorPlantParameters&,
                                                            const PlantState&, PlantEnergy&);
extern template Status spatial_momentum<AerialManipulatorRobot>(const PlantModel&,
                                                                const PlantState&, Wrench<double>&);

}  // namespace hodyn::sim
