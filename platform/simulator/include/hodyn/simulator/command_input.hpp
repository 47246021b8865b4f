// hodyn/simulator/command_input.hpp — a controller's `hodyn_command`
// (plugin/abi.h) as the plant's input: rotor_speed[0..6) → ω_cmd,
// motor_torque[0..6) → u. The plant saturates them itself (Plant::step).
#pragma once

#include "hodyn/plugin/abi.h"
#include "hodyn/simulator/plant_parameters.hpp"
#include "hodyn/status.hpp"

namespace hodyn::sim {

/// kInvalidArgument (input untouched) unless the command has 6 rotors and 6
/// joints; non-finite values are passed on (Plant::step rejects them).
Status plant_input_from_command(const hodyn_command& command, PlantInput& input);

}  // namespace hodyn::sim
