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
  return false;
}

ScenarioSetup make_scenario(Scenario s, double plant_step, double sample_period,
                            std::uint64_t seed) {
  ScenarioSetup setup;
  setup.plant.step = plant_step;
  setup.sensors.sample_period = sample_period;
  setup.sensors.seed = seed;
  switch (s) {
    case Scenario::kNominal:
      break;
    case Scenario::kMismatch:
      setup.plant = sim::alternating_mismatch(setup.plant, 0.10);
      break;
    case Scenario::kGust: {
      sim::Gust& g = setup.disturbances.gusts[0];
      g.start = 10.0;
      g.duration = 2.0;
      g.peak_force = Vector3<double>(3.0, -2.0, 1.5);
      g.peak_torque = Vector3<double>(0.1, -0.1, 0.05);
      setup.disturbances.num_gusts = 1;
      break;
    }
    case Scenario::kPayload:
      setup.disturbances.has_payload = true;
      setup.disturbances.payload.time = 15.0;
      setup.disturbances.payload.body = 3;
      setup.disturbances.payload.mass = 0.1;
      setup.disturbances.payload.offset = Vector3<double>(0.0, 0.0, -0.06);
      break;
    case Scenario::kNoiseDelay:
      setup.sensors.noise = sim::SensorNoise::realistic();
      setup.sensors.delay = 0.002;
      break;
  }
  return setup;
}

}  // namespace closed_loop
}  // namespace hodyn
