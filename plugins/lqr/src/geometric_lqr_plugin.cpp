// The "lqr" plugin module: parameter table, frame conversion, update.
#include "hodyn/control/geometric_lqr_plugin.hpp"

#include <array>
#include <cmath>

#include "hodyn/control/feedback_linearization_plugin_impl.hpp"  // frame conversions

namespace hodyn {
namespace control {
namespace {

struct ParameterSpec {
  const char* name;
  const char* unit;
  double min_value;
  double max_value;
  double (*get)(const GeometricLqrConfig&);
  void (*set)(GeometricLqrConfig&, double);
};

#define HODYN_LQR_PARAMETER(name, unit, lo, hi, expr)                                            \
  ParameterSpec {                                                                                \
    name, unit, lo, hi, [](const GeometricLqrConfig& c) { return static_cast<double>(c.expr); }, \
        [](GeometricLqrConfig& c, double v) { c.expr = v; }                                      \
  }

// Ranges are what GeometricLqr::configure accepts (weights of Q may be 0,
// those of R must be positive).
const std::array<ParameterSpec, 24> kParameters{{
    HODYN_LQR_PARAMETER("rate_hz", "Hz", 500.0, 4000.0, rate_hz),
    ParameterSpec{
        "schedule_points", "1", 2.0, GeometricLqr::kMaxSchedulePoints,
        [](const GeometricLqrConfig& c) { return static_cast<double>(c.schedule_points); },
        [](GeometricLqrConfig& c, double v) {
          c.schedule_points = static_cast<int>(std::lround(v));
        }},
    ParameterSpec{"gain_schedule", "0/1", 0.0, 1.0,
                  [](const GeometricLqrConfig& c) { return c.gain_schedule ? 1.0 : 0.0; },
                  [](GeometricLqrConfig& c, double v) { c.gain_schedule = v >= 0.5; }},
    HODYN_LQR_PARAMETER("position_weight", "1/m2", 0.0, 1e8, weights.position),
    HODYN_LQR_PARAMETER("attitude_weight", "1/rad2", 0.0, 1e8, weights.attitude),
    HODYN_LQR_PARAMETER("joint_weight", "1/rad2", 0.0, 1e8, weights.joint),
    HODYN_LQR_PARAMETER("base_velocity_weight", "s2/m2", 0.0, 1e8, weights.base_velocity),
    HODYN_LQR_PARAMETER("base_rate_weight", "s2/rad2", 0.0, 1e8, weights.base_rate),
    HODYN_LQR_PARAMETER("joint_rate_weight", "s2/rad2", 0.0, 1e8, weights.joint_rate),
    HODYN_LQR_PARAMETER("wrench_weight", "1/N2", 0.0, 1e8, weights.wrench),
    HODYN_LQR_PARAMETER("attitude_integral_weight", "1/(rad s)2", 0.0, 1e8,
                        weights.attitude_integral),
    HODYN_LQR_PARAMETER("position_integral_weight", "1/(m s)2", 0.0, 1e8,
                        weights.position_integral),
    HODYN_LQR_PARAMETER("joint_integral_weight", "1/(rad s)2", 0.0, 1e8, weights.joint_integral),
    HODYN_LQR_PARAMETER("force_effort", "1/N2", 1e-8, 1e8, weights.force_effort),
    HODYN_LQR_PARAMETER("moment_effort", "1/(N m)2", 1e-8, 1e8, weights.moment_effort),
    HODYN_LQR_PARAMETER("joint_acceleration_effort", "s4/rad2", 1e-8, 1e8,
                        weights.joint_acceleration_effort),
    HODYN_LQR_PARAMETER("torque_loop_gain", "1", 0.0, 50.0, torque_loop_gain),
    HODYN_LQR_PARAMETER("torque_loop_damping", "1", 0.05, 5.0, torque_loop_damping),
    HODYN_LQR_PARAMETER("max_position_error", "m", 1e-3, 10.0, max_position_error),
    HODYN_LQR_PARAMETER("max_attitude_error", "rad", 1e-3, 3.14, max_attitude_error),
    HODYN_LQR_PARAMETER("max_joint_error", "rad", 1e-3, 3.14, max_joint_error),
    HODYN_LQR_PARAMETER("max_integral", "m s or rad s", 1e-6, 10.0, max_integral),
    HODYN_LQR_PARAMETER("hold_timeout", "s", 1e-3, 10.0, hold_timeout),
    HODYN_LQR_PARAMETER("safe_torque_fraction", "1", 1e-3, 1.0, safe_torque_fraction),
}};

#undef HODYN_LQR_PARAMETER

const ParameterSpec* find_parameter(const char (&name)[HODYN_NAME_LENGTH]) {
  for (const auto& p : kParameters)
    if (plugin::name_equals(name, p.name)) return &p;
  return nullptr;
}

}  // namespace

namespace detail_lqr {

Status apply_parameters(GeometricLqrConfig& config, const plugin::Parameter* parameters,
                        std::size_t count) noexcept {
  if (parameters == nullptr && count != 0) return Status::kInvalidArgument;
  for (std::size_t i = 0; i < count; ++i) {
    const ParameterSpec* spec = find_parameter(parameters[i].name);
    if (spec == nullptr) return Status::kInvalidArgument;
    const double v = parameters[i].value;
    if (!std::isfinite(v)) return Status::kNonFiniteInput;
    if (v < spec->min_value || v > spec->max_value) return Status::kInvalidArgument;
    spec->set(config, v);
  }
  return Status::kOk;
}

std::size_t parameter_count() noexcept { return kParameters.size(); }

Status parameter_info(std::size_t index, plugin::ParameterInfo& info) noexcept {
  if (index >= kParameters.size()) return Status::kInvalidArgument;
  const ParameterSpec& p = kParameters[index];
  info = plugin::ParameterInfo{};
  plugin::copy_name(info.name, p.name);
  plugin::copy_name(info.unit, p.unit);
  info.default_value = p.get(GeometricLqrConfig{});
  info.min_value = p.min_value;
  info.max_value = p.max_value;
  return Status::kOk;
}

}  // namespace detail_lqr

GeometricLqrPlugin::GeometricLqrPlugin() noexcept { (void)controller_.configure(config_); }

Status GeometricLqrPlugin::configure(const plugin::Parameter* parameters,
                                     std::size_t count) noexcept {
  GeometricLqrConfig candidate = config_;
  Status s = detail_lqr::apply_parameters(candidate, parameters, count);
  if (s != Status::kOk) return s;
  s = controller_.configure(candidate);
  if (s != Status::kOk) return s;
  config_ = candidate;
  return Status::kOk;
}

void GeometricLqrPlugin::reset() noexcept { controller_.reset(); }

Status GeometricLqrPlugin::update(const plugin::Sensors& sensors,
                                  const plugin::Reference& reference,
                                  plugin::Command& command) noexcept {
  using Robot = AerialManipulatorRobot;
  Status s = detail::measurement_from_sensors<Robot, double>(sensors, measurement_);
  if (s == Status::kOk) s = detail::reference_from_frame<Robot, double>(reference, reference_);
  if (s == Status::kOk) {
    s = controller_.update(measurement_, reference_, reference.time, output_);
  } else {
    controller_.safe_command(output_);
  }
  detail::write_command<Robot, double>(output_, sensors.time, s, command);
  return s;
}

std::size_t GeometricLqrPlugin::parameter_count() const noexcept {
  return detail_lqr::parameter_count();
}

Status GeometricLqrPlugin::parameter_info(std::size_t index,
                                          plugin::ParameterInfo& info) const noexcept {
  return detail_lqr::parameter_info(index, info);
}

// The closed-loop runner and hodyn-fc give a plugin 64 KB.
static_assert(sizeof(GeometricLqrPlugin) <= 64 * 1024, "the lqr plugin must fit 64 KB");

}  // namespace control
}  // namespace hodyn
