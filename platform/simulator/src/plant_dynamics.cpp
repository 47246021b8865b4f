// The plant's vector field for the 12-DoF robot, compiled once
// (hodyn/simulator/plant_dynamics.hpp).
#include "hodyn/simulator/plant_dynamics.hpp"

namespace hodyn::sim {

template class RobotPlantVectorField<AerialManipulatorRobot>;

}  // namespace hodyn::sim
