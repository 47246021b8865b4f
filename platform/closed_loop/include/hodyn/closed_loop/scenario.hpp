// hodyn/closed_loop/scenario.hpp — the closed-loop test cases: what the plant
// differs in from the controller's model, what disturbs it, what the sensors do.
//
//   nominal      plant = the controller's model; exact sensors, no delay
//   mismatch     masses and inertias ±10 % (base +10 %, links −10/+10/−10 %
//                down each arm: sim::alternating_mismatch)
//   gust         a (1 − cos) gust on the base, 2 s from t = 10 s, peak force
//                (3, −2, 1.5) N and torque (0.1, −0.1, 0.05) N m (world axes)
//   payload      0.1 kg picked up at t = 15 s by the tip of the arm at x = +c/2
//                (body 3, 6 cm below its centre of mass)
//   noise_delay  realistic sensor noise (sim::SensorNoise::realistic) and a
//                2 ms measurement delay
#pragma once

#include <array>
#include <cstdint>

#include "hodyn/simulator/simulator.hpp"

namespace hodyn {
namespace closed_loop {

enum class Scenario : std::uint8_t { kNominal, kMismatch, kGust, kPayload, kNoiseDelay };

inline constexpr std::array<Scenario, 5> kAllScenarios{Scenario::kNominal, Scenario::kMismatch,
                                                       Scenario::kGust, Scenario::kPayload,
                                                       Scenario::kNoiseDelay};

/// "nominal", "mismatch", "gust", "payload", "noise_delay".
const char* scenario_name(Scenario s);
/// One line saying what the scenario does.
const char* scenario_description(Scenario s);
/// false for an unknown name.
bool parse_scenario(const char* name, Scenario& out);

struct ScenarioSetup {
  sim::PlantParameters plant{};
  sim::Disturbances disturbances{};
  sim::SensorModelParameters sensors{};
};

/// The plant, disturbances and sensors of a scenario; `plant_step` is the
/// integration step, `sample_period` the control period.
ScenarioSetup make_scenario(Scenario s, double plant_step, double sample_period,
                            std::uint64_t seed);

}  // namespace closed_loop
}  // namespace hodyn
