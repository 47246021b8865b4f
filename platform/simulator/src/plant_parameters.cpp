// Plant parameter checks, the plant model and the inertia-mismatch helpers
// (hodyn/simulator/plant_parameters.hpp).
#include "hodyn/simulator/plant_parameters.hpp"

#include <cmath>

#include "hodyn/detail/validation.hpp"

namespace hodyn::sim {

namespace {
bool finite(double x) { return std::isfinite(x); }
bool positive(double x) { return finite(x) && x > 0.0; }
bool non_negative(double x) { return finite(x) && x >= 0.0; }
}  // namespace

Status validate(const PlantParameters& params) {
  if (!finite(params.step)) return Status::kNonFiniteInput;
  // 1e-15 relative slack so that 1.0 / 4000 itself passes.
  if (!(params.step > 0.0) || params.step > kMaxIntegrationStep * (1.0 + 1e-15))
    return Status::kInvalidArgument;
  for (const ElasticJointParameters& j : params.actuation.joints) {
    if (!finite(j.motor_inertia) || !finite(j.stiffness) || !finite(j.damping) ||
        !finite(j.motor_friction) || !finite(j.torque_limit))
      return Status::kNonFiniteInput;
    if (!positive(j.motor_inertia) || !positive(j.stiffness) || !non_negative(j.damping) ||
        !non_negative(j.motor_friction) || !positive(j.torque_limit))
      return Status::kInvalidArgument;
  }
  const RotorParameters& r = params.actuation.rotors;
  if (!finite(r.time_constant) || !finite(r.min_speed) || !finite(r.max_speed))
    return Status::kNonFiniteInput;
  if (!positive(r.time_constant) || !non_negative(r.min_speed) || r.min_speed > r.max_speed)
    return Status::kInvalidArgument;
  for (double s : params.inertia_scale) {
    if (!finite(s)) return Status::kNonFiniteInput;
    if (!(s > 0.0)) return Status::kInvalidArgument;
  }
  return Status::kOk;
}

Status make_plant_model(const PlantParameters& params, PlantModel& model) {
  PlantModel built;
  Status s = make_aerial_manipulator(built, params.body);
  if (s != Status::kOk) return s;
  for (int j = 0; j < kNumBodies; ++j) {
    const double scale = params.inertia_scale[static_cast<std::size_t>(j)];
    if (scale == 1.0) continue;
    SpatialInertia<double> inertia = built.body_inertia(j);
    inertia.mass *= scale;  // same centre of mass: h = m c scales with m
    inertia.first_moment *= scale;
    inertia.rotational_inertia *= scale;
    s = built.set_body(j, built.home_pose(j), inertia);
    if (s != Status::kOk) return s;
  }
  model = built;
  return Status::kOk;
}

PlantParameters scaled_inertias(PlantParameters params, double base_scale, double link_scale) {
  params.inertia_scale[0] = base_scale;
  for (int j = 1; j < kNumBodies; ++j)
    params.inertia_scale[static_cast<std::size_t>(j)] = link_scale;
  return params;
}

PlantParameters alternating_mismatch(PlantParameters params, double fraction) {
  params.inertia_scale = {1.0 + fraction, 1.0 - fraction, 1.0 + fraction, 1.0 - fraction,
                          1.0 - fraction, 1.0 + fraction, 1.0 - fraction};
  return params;
}

Status validate(const PlantState& state) {
  if (!finite(state.time) || !state.base_twist.allFinite() || !state.q.allFinite() ||
      !state.q_dot.allFinite() || !state.motor_position.allFinite() ||
      !state.motor_velocity.allFinite() || !state.rotor_speed.allFinite())
    return Status::kNonFiniteInput;
  return detail::check_pose(state.base_pose);
}

}  // namespace hodyn::sim
