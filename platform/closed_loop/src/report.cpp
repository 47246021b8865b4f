// Printing and JSON of a RunSummary (see report.hpp).
#include "hodyn/closed_loop/report.hpp"

#include <cmath>

namespace hodyn {
namespace closed_loop {
namespace {

constexpr double kDeg = 180.0 / 3.14159265358979323846;

bool has_prismatic(const RunSummary& s) {
  for (std::size_t j = 0; j < s.joint_prismatic.size(); ++j)
    if (s.joint_prismatic[j]) return true;
  return false;
}

}  // namespace

void print_run_summary(const RunSummary& s, std::FILE* out, bool controller_timing) {
  std::fprintf(out, "\n[%s] %s\n", scenario_name(s.scenario), scenario_description(s.scenario));
  std::fprintf(out, "  base position   RMS %9.4f mm    max %9.4f mm\n", s.position.rms * 1e3,
               s.position.max * 1e3);
  std::fprintf(out, "  attitude        RMS %9.5f deg   max %9.5f deg\n", s.attitude.rms * kDeg,
               s.attitude.max * kDeg);
  if (!has_prismatic(s)) {  // revolute joints only: one unit for the line
    std::fprintf(out, "  joints RMS (deg)");
    for (const auto& j : s.joints) std::fprintf(out, " %8.5f", j.rms * kDeg);
    std::fprintf(out, "\n  joints max (deg)");
    for (const auto& j : s.joints) std::fprintf(out, " %8.5f", j.max * kDeg);
    std::fprintf(out, "\n");
  } else {  // each entry with its unit: deg (revolute) or mm (prismatic)
    for (int rms = 1; rms >= 0; --rms) {
      std::fprintf(out, "  joints %s      ", rms ? "RMS" : "max");
      for (std::size_t j = 0; j < s.joints.size(); ++j) {
        const double e = rms ? s.joints[j].rms : s.joints[j].max;
        const bool prismatic = s.joint_prismatic[j];
        std::fprintf(out, " %8.5f %s", prismatic ? e * 1e3 : e * kDeg, prismatic ? "mm " : "deg");
      }
      std::fprintf(out, "\n");
    }
  }
  if (controller_timing)
    std::fprintf(out, "  controller step median %.2f us, p99 %.2f us, max %.2f us (%ld steps)\n",
                 s.step_median * 1e6, s.step_p99 * 1e6, s.step_max * 1e6, s.steps);
  std::fprintf(out, "  saturated commands %ld (%ld switches), safe-mode commands %ld",
               s.saturated_steps, s.saturation_switches, s.safe_mode_steps);
  if (s.payload_recovery_time >= 0.0)
    std::fprintf(out, ", payload recovered in %.3f s", s.payload_recovery_time);
  std::fprintf(out, ", %s\n", s.stable ? "stable" : "NOT STABLE");
  std::fprintf(out, "  base position RMS after the event %9.4f mm",
               s.position_rms_after_event * 1e3);
  if (std::isfinite(s.payload_mass_estimate))
    std::fprintf(out, ", payload mass estimate %.4f kg", s.payload_mass_estimate);
  std::fprintf(out, "\n");
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

std::string run_summary_json_members(const RunSummary& s, const std::string& indent,
                                     bool controller_timing) {
  // Joint errors in SI: the _rad lists hold revolute joints (null for a
  // prismatic one), the _m lists (only when a joint is prismatic) the reverse.
  const auto list = [&](bool rms, bool prismatic) {
    std::string out = "[";
    for (std::size_t j = 0; j < s.joints.size(); ++j) {
      const bool p = j < s.joint_prismatic.size() && s.joint_prismatic[j];
      out += (j ? ", " : "") +
             (p == prismatic ? json_number(rms ? s.joints[j].rms : s.joints[j].max) : "null");
    }
    return out + "]";
  };
  std::string o;
  const auto member = [&](const char* key, const std::string& value) {
    if (!o.empty()) o += ",\n";
    o += indent + "\"" + key + "\": " + value;
  };
  member("scenario", std::string("\"") + scenario_name(s.scenario) + "\"");
  member("duration_s", json_number(s.duration));
  member("control_rate_hz", json_number(s.control_rate_hz));
  member("plant_rate_hz", json_number(s.plant_rate_hz));
  member("errors_evaluated_after_s", json_number(s.settle_time));
  member("base_position_error_rms_m", json_number(s.position.rms));
  member("base_position_error_max_m", json_number(s.position.max));
  member("attitude_error_rms_rad", json_number(s.attitude.rms));
  member("attitude_error_max_rad", json_number(s.attitude.max));
  member("joint_error_rms_rad", list(true, false));
  member("joint_error_max_rad", list(false, false));
  if (has_prismatic(s)) {
    member("joint_error_rms_m", list(true, true));
    member("joint_error_max_m", list(false, true));
  }
  if (controller_timing) {
    member("controller_step_median_s", json_number(s.step_median));
    member("controller_step_p99_s", json_number(s.step_p99));
    member("controller_step_max_s", json_number(s.step_max));
  }
  member("controller_steps", std::to_string(s.steps));
  if (controller_timing)
    member("controller_workspace_bytes", std::to_string(s.controller_workspace_bytes));
  member("saturated_commands", std::to_string(s.saturated_steps));
  member("saturation_switches", std::to_string(s.saturation_switches));
  member("safe_mode_commands", std::to_string(s.safe_mode_steps));
  member("payload_recovery_time_s",
         s.payload_recovery_time >= 0.0 ? json_number(s.payload_recovery_time) : "null");
  member("base_position_error_rms_after_event_m", json_number(s.position_rms_after_event));
  member("payload_mass_estimate_kg", json_number(s.payload_mass_estimate));
  member("stable", s.stable ? "true" : "false");
  return o;
}

}  // namespace closed_loop
}  // namespace hodyn
