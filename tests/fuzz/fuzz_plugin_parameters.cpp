// tests/fuzz/fuzz_plugin_parameters.cpp — libFuzzer target of the
// feedback-linearization plugin's parameter parsing, through its C table as
// a host calls it (configure with hodyn_parameter records; docs/plugins.md,
// docs/controller.md; docs/fuzzing.md).
//
// The input is a series of configure() calls: a count byte (0..7 records),
// then per record a selector byte and a value. The selector picks one of the
// plugin's names (from parameter_info) as it is, cut short by a character,
// with a character added, filling the whole field without a NUL, or 40 raw
// bytes of the input; and the value as 8 raw bytes or one of the range's
// edges (min, max, just outside either, NaN, ±Inf, 0, -0).
//
// Checked after each call, against the parameter table as parameter_info()
// publishes it (and docs/controller.md: "configure() is all or nothing"):
// the status is kInvalidArgument for the first unknown name or value outside
// [min, max], kNonFiniteInput for the first NaN / ±Inf, else kOk; a rejected
// set changes no setting; an accepted one sets exactly the named values (the
// last one of a name wins). At the end one update() on a hover frame gives
// a finite command. No crash, no UB.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <string>

#include "fuzz_input.hpp"
#include "hodyn/control/feedback_linearization_plugin.hpp"
#include "hodyn/plugin/c_adapter.hpp"

namespace {

using hodyn::Status;
using hodyn_fuzz::FuzzInput;
using Plugin = hodyn::control::FeedbackLinearizationPlugin;
using Settings = hodyn::control::FeedbackLinearizationSettings;

constexpr std::size_t kMaxRecords = 7;
constexpr std::size_t kMaxParameters = 32;

/// The setting a parameter name stands for (docs/controller.md's list; the
/// names are those of the settings' fields).
double setting(const Settings& s, const std::string& name) {
  const auto& c = s.config;
  if (name == "rate_hz") return c.rate_hz;
  if (name == "position_bandwidth") return s.position_bandwidth;
  if (name == "attitude_bandwidth") return s.attitude_bandwidth;
  if (name == "joint_bandwidth") return s.joint_bandwidth;
  if (name == "integral_action") return s.integral_action ? 1.0 : 0.0;
  if (name == "max_position_error") return c.max_position_error;
  if (name == "max_attitude_error") return c.max_attitude_error;
  if (name == "max_joint_error") return c.max_joint_error;
  if (name == "max_integral") return c.max_integral;
  if (name == "reference_jump") return c.reference_jump;
  if (name == "hold_timeout") return c.hold_timeout;
  if (name == "safe_torque_fraction") return c.safe_torque_fraction;
  if (name == "max_deflection") return c.max_deflection;
  if (name == "joint_limit_margin") return c.joint_limit_margin;
  if (name == "joint_limit") return c.joint_limit;
  if (name == "max_base_speed") return c.max_base_speed;
  if (name == "max_base_rate") return c.max_base_rate;
  if (name == "max_joint_rate") return c.max_joint_rate;
  if (name == "payload_estimation") return c.payload_estimation ? 1.0 : 0.0;
  if (name == "payload_body") return static_cast<double>(c.payload.body);
  if (name == "payload_bandwidth") return c.payload.bandwidth;
  if (name == "payload_forgetting_time") return c.payload.forgetting_time;
  if (name == "payload_max_mass") return c.payload.max_mass;
  if (name == "payload_max_offset") return c.payload.max_offset;
  HODYN_FUZZ_CHECK(!"parameter_info lists a name docs/controller.md does not");
  return 0.0;
}

/// What a setting holds after `value` was applied (integral_action and
/// payload_estimation are switches, payload_body an index).
double applied(const std::string& name, double value) {
  if (name == "integral_action" || name == "payload_estimation") return value >= 0.5 ? 1.0 : 0.0;
  if (name == "payload_body") return static_cast<double>(static_cast<int>(value));  // a body index
  return value;
}

struct Table {
  std::size_t count = 0;
  hodyn_parameter_info info[kMaxParameters];
};

/// The record's name as a string when the field holds a NUL, else "" (no
/// parameter has an empty name).
std::string name_of(const hodyn_parameter& p) {
  const void* nul = std::memchr(p.name, '\0', sizeof p.name);
  if (nul == nullptr) return std::string();
  return std::string(p.name, static_cast<const char*>(nul));
}

const hodyn_parameter_info* find(const Table& table, const std::string& name) {
  for (std::size_t k = 0; k < table.count; ++k)
    if (!name.empty() && name == table.info[k].name) return &table.info[k];
  return nullptr;
}

hodyn_parameter record(FuzzInput& in, const Table& table) {
  hodyn_parameter p{};
  const std::uint8_t selector = in.byte();
  const hodyn_parameter_info& info = table.info[selector % table.count];
  const std::size_t length = std::strlen(info.name);
  switch ((selector / table.count) % 6) {
    case 0:  // the name as it is
    case 5:
      std::memcpy(p.name, info.name, length);
      break;
    case 1:  // one character short
      std::memcpy(p.name, info.name, length - 1);
      break;
    case 2:  // one character more
      std::memcpy(p.name, info.name, length);
      p.name[length] = static_cast<char>(in.byte());
      break;
    case 3:  // the whole field, no NUL
      std::memset(p.name, 'x', sizeof p.name);
      std::memcpy(p.name, info.name, length);
      break;
    default:  // raw bytes
      in.bytes(p.name, sizeof p.name);
      break;
  }
  if ((selector / table.count) % 6 == 5) {  // an edge of the range
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double edges[] = {info.min_value,
                            info.max_value,
                            std::nextafter(info.min_value, -inf),
                            std::nextafter(info.max_value, inf),
                            std::numeric_limits<double>::quiet_NaN(),
                            inf,
                            -inf,
                            0.0,
                            -0.0,
                            info.default_value};
    p.value = edges[in.byte() % (sizeof edges / sizeof edges[0])];
  } else {
    p.value = in.f64();
  }
  return p;
}

/// The status configure() must give for `records`.
Status expected(const Table& table, const hodyn_parameter* records, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) {
    const hodyn_parameter_info* info = find(table, name_of(records[k]));
    if (info == nullptr) return Status::kInvalidArgument;
    const double v = records[k].value;
    if (!std::isfinite(v)) return Status::kNonFiniteInput;
    if (v < info->min_value || v > info->max_value) return Status::kInvalidArgument;
  }
  return Status::kOk;
}

/// A level hover at rest at the origin, with the reference there.
void hover_frames(hodyn_sensors& s, hodyn_reference& r) {
  s = hodyn_sensors{};
  s.num_joints = Plugin::kNumJoints;
  s.num_rotors = Plugin::kNumRotors;
  s.base_orientation[0] = 1.0;
  r = hodyn_reference{};
  r.num_joints = Plugin::kNumJoints;
  r.base_orientation[0] = 1.0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const hodyn_plugin_api* api = hodyn::plugin::plugin_api<Plugin>("feedback_linearization");
  alignas(64) static unsigned char storage[sizeof(Plugin)];
  HODYN_FUZZ_CHECK(api->instance_size <= sizeof storage);
  HODYN_FUZZ_CHECK(api->init(storage, sizeof storage) == static_cast<std::int32_t>(Status::kOk));
  const Plugin& plugin = *std::launder(reinterpret_cast<const Plugin*>(storage));

  Table table;
  table.count = api->parameter_count(storage);
  HODYN_FUZZ_CHECK(table.count > 0 && table.count <= kMaxParameters);
  for (std::size_t k = 0; k < table.count; ++k) {
    HODYN_FUZZ_CHECK(api->parameter_info(storage, static_cast<std::uint32_t>(k), &table.info[k]) ==
                     static_cast<std::int32_t>(Status::kOk));
    HODYN_FUZZ_CHECK(std::strlen(table.info[k].name) >= 2);
  }

  FuzzInput in(data, size);
  while (in.remaining() > 0) {
    hodyn_parameter records[kMaxRecords];
    const std::size_t n = in.byte() % (kMaxRecords + 1);
    for (std::size_t k = 0; k < n; ++k) records[k] = record(in, table);
    const Settings before = plugin.settings();
    const Status want = expected(table, records, n);
    const auto got =
        static_cast<Status>(api->configure(storage, records, static_cast<std::uint32_t>(n)));
    HODYN_FUZZ_CHECK(got == want);
    const Settings& after = plugin.settings();
    for (std::size_t k = 0; k < table.count; ++k) {
      const std::string name = table.info[k].name;
      double want_value = setting(before, name);
      if (got == Status::kOk)  // the last record naming it wins
        for (std::size_t r = 0; r < n; ++r)
          if (name_of(records[r]) == name) want_value = applied(name, records[r].value);
      HODYN_FUZZ_CHECK(setting(after, name) == want_value);
    }
  }

  hodyn_sensors sensors;
  hodyn_reference reference;
  hover_frames(sensors, reference);
  hodyn_command command{};
  api->update(storage, &sensors, &reference, &command);
  HODYN_FUZZ_CHECK(command.num_joints == Plugin::kNumJoints &&
                   command.num_rotors == Plugin::kNumRotors && command.mode <= HODYN_MODE_HOVER);
  HODYN_FUZZ_CHECK(std::isfinite(command.time));
  for (double w : command.rotor_speed) HODYN_FUZZ_CHECK(std::isfinite(w));
  for (double u : command.motor_torque) HODYN_FUZZ_CHECK(std::isfinite(u));
  api->fini(storage);
  return 0;
}
