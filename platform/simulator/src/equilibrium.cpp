// Equilibrium states of the 12-DoF robot (hodyn/simulator/equilibrium.hpp).
#include "hodyn/simulator/equilibrium.hpp"

namespace hodyn::sim {

template Status equilibrium_state<AerialManipulatorRobot>(const AerialManipulatorPlantParameters&,
                                                          const Pose<double>&, const Twist<double>&,
                                                          const Vector6d&, const Vector6d&,
                                                          const Twist<double>&, const Vector6d&,
                                                          PlantState&, PlantInput&);

Status equilibrium_state(const PlantParameters& params, const Pose<double>& base_pose,
                         const Twist<double>& base_twist, const Vector6d& q, const Vector6d& q_dot,
                         const Twist<double>& base_acceleration, const Vector6d& q_ddot,
                         PlantState& state, PlantInput& feedforward) {
  AerialManipulatorPlantParameters described;
  const Status s = describe_plant(params, described);
  if (s != Status::kOk) return s;
  return equilibrium_state(described, base_pose, base_twist, q, q_dot, base_acceleration, q_ddot,
                           state, feedforward);
}

Status hover_state(const PlantParameters& params, const Pose<double>& base_pose, const Vector6d& q,
                   PlantState& state, PlantInput& feedforward) {
  return equilibrium_state(params, base_pose, Twist<double>::Zero(), q, Vector6d::Zero(),
                           Twist<double>::Zero(), Vector6d::Zero(), state, feedforward);
}

}  // namespace hodyn::sim
