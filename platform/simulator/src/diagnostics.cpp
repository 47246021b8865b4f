// Energy and momentum of the 12-DoF robot's plant (hodyn/simulator/diagnostics.hpp).
#include "hodyn/simulator/diagnostics.hpp"

namespace hodyn::sim {

template Status plant_energy<AerialManipulatorRobot>(const PlantModel&,
                                                     const AerialManipulatorPlantParameters&,
                                                     const PlantState&, PlantEnergy&);
template Status spatial_momentum<AerialManipulatorRobot>(const PlantModel&, const PlantState&,
                                                         Wrench<double>&);

Status plant_energy(const PlantModel& model, const PlantParameters& params, const PlantState& state,
                    PlantEnergy& energy) {
  AerialManipulatorPlantParameters described;
  const Status s = describe_plant(params, described);
  if (s != Status::kOk) return s;
  return plant_energy(model, described, state, energy);
}

}  // namespace hodyn::sim
