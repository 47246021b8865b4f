// The feedback-linearization plugin module in double precision for the
// 12-DoF robot, the settings and the parameter table
// (feedback_linearization_plugin_impl.hpp has the module's definitions).
#include "hodyn/control/feedback_linearization_plugin_impl.hpp"

#include <array>

namespace hodyn {
namespace control {
namespace {

using Settings = FeedbackLinearizationSettings;

struct ParameterSpec {
  const char* name;
  const char* unit;
  double min_value;
  double max_value;
  double (*get)(const Settings&);
  void (*set)(Settings&, double);
};

#define HODYN_PARAMETER(name, unit, lo, hi, expr)                                      \
  ParameterSpec {                                                                      \
    name, unit, lo, hi, [](const Settings& s) { return static_cast<double>(s.expr); }, \
        [](Settings& s, double v) { s.expr = v; }                                      \
  }

// Each range is what FeedbackLinearization::configure accepts: it refuses a
// limit, a clamp or the safe torque fraction of 0, so their minimum is
// positive (found by tests/fuzz/fuzz_plugin_parameters: max_integral and
// safe_torque_fraction advertised 0, which configure() refused).
const std::array<ParameterSpec, 24> kParameters{{
    HODYN_PARAMETER("rate_hz", "Hz", 500.0, 4000.0, config.rate_hz),
    HODYN_PARAMETER("position_bandwidth", "rad/s", 0.5, 100.0, position_bandwidth),
    HODYN_PARAMETER("attitude_bandwidth", "rad/s", 0.5, 100.0, attitude_bandwidth),
    HODYN_PARAMETER("joint_bandwidth", "rad/s", 0.5, 100.0, joint_bandwidth),
    ParameterSpec{"integral_action", "0/1", 0.0, 1.0,
                  [](const Settings& s) { return s.integral_action ? 1.0 : 0.0; },
                  [](Settings& s, double v) { s.integral_action = v >= 0.5; }},
    HODYN_PARAMETER("max_position_error", "m", 1e-3, 10.0, config.max_position_error),
    HODYN_PARAMETER("max_attitude_error", "rad", 1e-3, 3.14, config.max_attitude_error),
    HODYN_PARAMETER("max_joint_error", "rad", 1e-3, 3.14, config.max_joint_error),
    HODYN_PARAMETER("max_integral", "m s", 1e-3, 10.0, config.max_integral),
    HODYN_PARAMETER("reference_jump", "m", 1e-4, 10.0, config.reference_jump),
    HODYN_PARAMETER("hold_timeout", "s", 1e-3, 10.0, config.hold_timeout),
    HODYN_PARAMETER("safe_torque_fraction", "1", 1e-3, 1.0, config.safe_torque_fraction),
    HODYN_PARAMETER("max_deflection", "rad", 1e-3, 3.14, config.max_deflection),
    HODYN_PARAMETER("joint_limit_margin", "rad", 1e-3, 10.0, config.joint_limit_margin),
    HODYN_PARAMETER("joint_limit", "rad", 0.1, 10.0, config.joint_limit),
    HODYN_PARAMETER("max_base_speed", "m/s", 0.1, 200.0, config.max_base_speed),
    HODYN_PARAMETER("max_base_rate", "rad/s", 0.1, 200.0, config.max_base_rate),
    HODYN_PARAMETER("max_joint_rate", "rad/s", 0.1, 200.0, config.max_joint_rate),
    // Online payload estimation (payload_estimator.hpp); any configure() or
    // reset() forgets the estimate. payload_body 0, or one beyond the robot's
    // joints: the robot's last body.
    ParameterSpec{"payload_estimation", "0/1", 0.0, 1.0,
                  [](const Settings& s) { return s.config.payload_estimation ? 1.0 : 0.0; },
                  [](Settings& s, double v) { s.config.payload_estimation = v >= 0.5; }},
    ParameterSpec{"payload_body", "1", 0.0, static_cast<double>(HODYN_MAX_JOINTS),
                  [](const Settings& s) { return static_cast<double>(s.config.payload.body); },
                  [](Settings& s, double v) { s.config.payload.body = static_cast<int>(v); }},
    HODYN_PARAMETER("payload_bandwidth", "rad/s", 1.0, 200.0, config.payload.bandwidth),
    HODYN_PARAMETER("payload_forgetting_time", "s", 0.05, 100.0, config.payload.forgetting_time),
    HODYN_PARAMETER("payload_max_mass", "kg", 1e-3, 100.0, config.payload.max_mass),
    HODYN_PARAMETER("payload_max_offset", "m", 1e-3, 10.0, config.payload.max_offset),
}};

#undef HODYN_PARAMETER

const ParameterSpec* find_parameter(const char (&name)[HODYN_NAME_LENGTH]) {
  for (const auto& p : kParameters)
    if (plugin::name_equals(name, p.name)) return &p;
  return nullptr;
}

}  // namespace

namespace detail {

Status apply_parameters(FeedbackLinearizationSettings& settings,
                        const plugin::Parameter* parameters, std::size_t count) noexcept {
  if (parameters == nullptr && count != 0) return Status::kInvalidArgument;
  for (std::size_t i = 0; i < count; ++i) {
    const ParameterSpec* spec = find_parameter(parameters[i].name);
    if (spec == nullptr) return Status::kInvalidArgument;
    const double v = parameters[i].value;
    if (!std::isfinite(v)) return Status::kNonFiniteInput;
    if (v < spec->min_value || v > spec->max_value) return Status::kInvalidArgument;
    spec->set(settings, v);
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
  info.default_value = p.get(Settings{});
  info.min_value = p.min_value;
  info.max_value = p.max_value;
  return Status::kOk;
}

}  // namespace detail

FeedbackLinearizationConfig FeedbackLinearizationSettings::resolved() const {
  FeedbackLinearizationConfig c = config;
  c.position = TrackingGains::from_bandwidth(position_bandwidth, integral_action);
  c.attitude = TrackingGains::from_bandwidth(attitude_bandwidth, integral_action);
  c.joints = TrackingGains::from_bandwidth(joint_bandwidth, integral_action);
  return c;
}

template class BasicFeedbackLinearizationPlugin<AerialManipulatorRobot, double>;

}  // namespace control
}  // namespace hodyn
