// The plant of the 12-DoF robot, compiled once (hodyn/simulator/plant.hpp).
#include "hodyn/simulator/plant.hpp"

namespace hodyn::sim {

template class RobotPlant<AerialManipulatorRobot>;

}  // namespace hodyn::sim
