// The 12-DoF robot's parameter set as a robot description, and the generic
// parameter helpers instantiated for it (hodyn/simulator/plant_parameters.hpp).
#include "hodyn/simulator/plant_parameters.hpp"

#include "hodyn/models/tilthex_rotor_set.hpp"

namespace hodyn::sim {

namespace {

/// Actuators, limits and rotors as AerialManipulatorRobot::describe lays
/// them out; step and scales copied; the model left as it is.
void describe_actuation(const PlantParameters& p, AerialManipulatorPlantParameters& out) {
  for (std::size_t j = 0; j < p.actuation.joints.size(); ++j) {
    const ElasticJointParameters& a = p.actuation.joints[j];
    out.robot.actuators[j] =
        elastic_joint(a.motor_inertia, a.stiffness, a.damping, a.motor_friction, a.torque_limit);
    out.robot.limits[j] = JointLimits{};
    out.robot.limits[j].effort = a.torque_limit;
  }
  out.robot.rotors = tilthex_rotor_set<double>(p.actuation.tilthex, p.actuation.rotors);
  out.inertia_scale = p.inertia_scale;
  out.step = p.step;
}

/// describe_actuation() and the model of `p.body`; no validation.
Status build(const PlantParameters& p, AerialManipulatorPlantParameters& out) {
  describe_actuation(p, out);
  return make_aerial_manipulator<double>(out.robot.model, p.body);
}

}  // namespace

Status validate(const PlantParameters& params) {
  AerialManipulatorPlantParameters described;
  describe_actuation(params, described);
  return validate(described);
}

Status describe_plant(const PlantParameters& params, AerialManipulatorPlantParameters& out) {
  AerialManipulatorPlantParameters described;
  describe_actuation(params, described);
  Status s = validate(described);
  if (s != Status::kOk) return s;
  s = make_aerial_manipulator<double>(described.robot.model, params.body);
  if (s != Status::kOk) return s;
  out = described;
  return Status::kOk;
}

Status make_plant_model(const PlantParameters& params, PlantModel& model) {
  AerialManipulatorPlantParameters described;
  const Status s = build(params, described);
  if (s != Status::kOk) return s;
  return make_plant_model(described, model);
}

PlantParameters scaled_inertias(PlantParameters params, double base_scale, double link_scale) {
  params.inertia_scale[0] = base_scale;
  for (std::size_t j = 1; j < params.inertia_scale.size(); ++j)
    params.inertia_scale[j] = link_scale;
  return params;
}

PlantParameters alternating_mismatch(PlantParameters params, double fraction) {
  params.inertia_scale =
      sim::alternating_mismatch(AerialManipulatorPlantParameters{}, fraction).inertia_scale;
  return params;
}

}  // namespace hodyn::sim
