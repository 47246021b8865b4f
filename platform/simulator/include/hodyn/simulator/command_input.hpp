// hodyn/simulator/command_input.hpp — a controller's `hodyn_command`
// (plugin/abi.h) as the plant's input: rotor_speed[0..N) → ω_cmd,
// motor_torque[0..nJ) → u. The plant saturates them itself (Plant::step).
#pragma once

#include <cstdint>

#include "hodyn/plugin/abi.h"
#include "hodyn/simulator/plant_parameters.hpp"
#include "hodyn/status.hpp"

namespace hodyn::sim {

/// kInvalidArgument (input untouched) unless the command has the robot's
/// numbers of rotors and joints; non-finite values are passed on (Plant::step
/// rejects them).
template <class Robot>
Status plant_input_from_command(const hodyn_command& command, RobotPlantInput<Robot>& input) {
  constexpr int nj = PlantTraits<Robot>::kNumJoints;
  constexpr int nr = PlantTraits<Robot>::kNumRotors;
  static_assert(nj <= HODYN_MAX_JOINTS && nr <= HODYN_MAX_ROTORS,
                "the robot does not fit the plugin ABI's command");
  if (command.num_rotors != static_cast<std::uint32_t>(nr) ||
      command.num_joints != static_cast<std::uint32_t>(nj))
    return Status::kInvalidArgument;
  for (int i = 0; i < nr; ++i) input.rotor_speed_command(i) = command.rotor_speed[i];
  for (int j = 0; j < nj; ++j) input.motor_torque(j) = command.motor_torque[j];
  return Status::kOk;
}

}  // namespace hodyn::sim
