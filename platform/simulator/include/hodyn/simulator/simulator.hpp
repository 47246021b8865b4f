// hodyn/simulator/simulator.hpp — everything of the plant simulator
// (docs/simulator.md): the plant, its equilibrium states, diagnostics and the
// sensor model.
#pragma once

#include "hodyn/simulator/command_input.hpp"
#include "hodyn/simulator/diagnostics.hpp"
#include "hodyn/simulator/disturbances.hpp"
#include "hodyn/simulator/equilibrium.hpp"
#include "hodyn/simulator/plant.hpp"
#include "hodyn/simulator/plant_parameters.hpp"
#include "hodyn/simulator/rkmk4.hpp"
#include "hodyn/simulator/se3_exponential.hpp"
#include "hodyn/simulator/sensor_model.hpp"
