// Closed-loop scenarios (see scenario.hpp).
#include "hodyn/closed_loop/scenario.hpp"

#include <cstring>

namespace hodyn {
namespace closed_loop {

const char* scenario_name(Scenario s) {
  switch (s) {
    case Scenario::kNominal:
      return "nominal";
    case Scenario::kMismatch:
      return "mismatch";
    case Scenario::kGust:
      return "gust";
    case Scenario::kPayload:
      return "payload";
    case Scenario::kNoiseDelay:
      return "noise_delay";
    case Scenario::kUnknownPayload:
      return "unknown_payload";
    case Scenario::kDualArmCarry:
      return "dual_arm_carry";
    case Scenario::kIdentification:
      return "identification";
  }
  return "unknown";
}

const char* scenario_description(Scenario s) {
  switch (s) {
    case Scenario::kNominal:
      return "plant = model, exact sensors";
    case Scenario::kMismatch:
      return "masses and inertias +/-10 %";
    case Scenario::kGust:
      return "2 s gust, peak 3.9 N / 0.15 N m, at t = 10 s";
    case Scenario::kPayload:
      return "0.1 kg picked up by an end effector at t = 15 s";
    case Scenario::kNoiseDelay:
      return "realistic sensor noise + 2 ms delay";
    case Scenario::kUnknownPayload:
      return "0.2 kg on an end effector from t = 0, unannounced";
    case Scenario::kDualArmCarry:
      return "both arms carry one bar (closed chain, constrained dynamics)";
    case Scenario::kIdentification:
      return "masses and inertias +/-10 %, realistic sensor noise, exciting reference";
  }
  return "";
}

bool parse_scenario(const char* name, Scenario& out) {
  for (Scenario s : kAllScenarios) {
    if (std::strcmp(name, scenario_name(s)) == 0) {
      out = s;
      return true;
    }
  }
  if (std::strcmp(name, scenario_name(Scenario::kIdentification)) == 0) {
    out = Scenario::kIdentification;
    return true;
  }
  return false;
}

ScenarioSetup make_scenario(Scenario s, double plant_step, double sample_period,
                            std::uint64_t seed) {
  return make_robot_scenario<AerialManipulatorRobot>(s, plant_step, sample_period, seed);
}

}  // namespace closed_loop
}  // namespace hodyn
