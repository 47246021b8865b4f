// The plant: configuration, stepping, accessors (hodyn/simulator/plant.hpp).
#include "hodyn/simulator/plant.hpp"

#include <cmath>

#include "hodyn/simulator/rkmk4.hpp"

namespace hodyn::sim {

namespace {

/// Slack on `duration = n · step` and on the payload time (s).
constexpr double kTimeTolerance = 1e-9;

PlantState rest_state(const PlantParameters& params) {
  PlantState s;
  s.rotor_speed.setConstant(params.actuation.rotors.min_speed);
  return s;
}

}  // namespace

Plant::Plant() {
  const Status s = configure(PlantParameters{});
  (void)s;  // the defaults are valid (tests/simulator check it)
}

Status Plant::configure(const PlantParameters& params) {
  const Status valid = validate(params);
  if (valid != Status::kOk) return valid;
  PlantModel model;
  const Status built = make_plant_model(params, model);
  if (built != Status::kOk) return built;
  params_ = params;
  actuators_ = ActuatorConstants::from(params.actuation);
  nominal_model_ = model;
  model_ = model;
  state_ = rest_state(params);
  disturbances_ = Disturbances{};
  payload_attached_ = false;
  last_saturation_ = SaturationReport{};
  saturated_calls_ = 0;
  return Status::kOk;
}

Status Plant::set_state(const PlantState& state) {
  const Status s = validate(state);
  if (s != Status::kOk) return s;
  state_ = state;
  return Status::kOk;
}

Status Plant::set_disturbances(const Disturbances& disturbances) {
  const Status s = disturbances.validate();
  if (s != Status::kOk) return s;
  disturbances_ = disturbances;
  model_ = nominal_model_;
  payload_attached_ = false;
  return Status::kOk;
}

Status Plant::attach_payload_if_due(double t) {
  if (!disturbances_.has_payload || payload_attached_) return Status::kOk;
  const PayloadStep& p = disturbances_.payload;
  if (t < p.time - kTimeTolerance) return Status::kOk;
  const Status s = model_.set_body(p.body, nominal_model_.home_pose(p.body),
                                   p.combined_with(nominal_model_.body_inertia(p.body)));
  if (s != Status::kOk) return s;
  payload_attached_ = true;
  return Status::kOk;
}

Status Plant::step(const PlantInput& input, double duration) {
  if (!input.rotor_speed_command.allFinite() || !input.motor_torque.allFinite() ||
      !std::isfinite(duration))
    return Status::kNonFiniteInput;
  const double h = params_.step;
  const double count = std::round(duration / h);
  if (count < 1.0 || std::abs(count * h - duration) > kTimeTolerance)
    return Status::kInvalidArgument;

  SaturationReport report;
  const PlantInput applied = saturate(input, actuators_, report);
  last_saturation_ = report;
  if (report.any()) ++saturated_calls_;

  const auto field = [&](double t, const Pose<double>& pose, const StateVector& x,
                         StateVector& x_dot) {
    return field_.evaluate(model_, actuators_, disturbances_, applied, t, pose, x, x_dot);
  };
  const auto twist_of = [](const StateVector& x) -> Twist<double> {
    return x.segment<6>(StateLayout::kBaseTwist);
  };

  const double start = state_.time;
  const long steps = static_cast<long>(count);
  StateVector x = pack(state_);
  Pose<double> pose = state_.base_pose;
  for (long k = 0; k < steps; ++k) {
    const double t = start + static_cast<double>(k) * h;
    Status s = attach_payload_if_due(t);
    if (s == Status::kOk) s = rkmk4_step(field, twist_of, t, h, pose, x);
    if (s != Status::kOk) {
      // A finite state whose stages overflowed reports as a non-finite result.
      return s == Status::kNonFiniteInput ? Status::kNonFiniteResult : s;
    }
    unpack(x, state_);
    state_.base_pose = pose;
    state_.time = start + static_cast<double>(k + 1) * h;
  }
  return Status::kOk;
}

Status Plant::evaluate_rates(const PlantInput& input, PlantRates& rates) {
  if (!input.rotor_speed_command.allFinite() || !input.motor_torque.allFinite())
    return Status::kNonFiniteInput;
  SaturationReport unused;
  const PlantInput applied = saturate(input, actuators_, unused);
  const StateVector x = pack(state_);
  StateVector x_dot;
  const Status s = field_.evaluate(model_, actuators_, disturbances_, applied, state_.time,
                                   state_.base_pose, x, x_dot);
  if (s != Status::kOk) return s;
  using L = StateLayout;
  rates.base_acceleration = x_dot.segment<6>(L::kBaseTwist);
  rates.q_ddot = x_dot.segment<6>(L::kJointVelocity);
  rates.motor_acceleration = x_dot.segment<6>(L::kMotorVelocity);
  rates.rotor_acceleration = x_dot.segment<6>(L::kRotorSpeed);
  rates.propulsion_wrench = actuators_.propulsion_wrench(x);
  rates.elastic_torque = actuators_.elastic_torque(x);
  return Status::kOk;
}

Wrench<double> Plant::propulsion_wrench() const {
  return actuators_.propulsion_wrench(pack(state_));
}

Vector6d Plant::elastic_torque() const { return actuators_.elastic_torque(pack(state_)); }

}  // namespace hodyn::sim
