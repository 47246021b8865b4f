// hodyn_command → PlantInput (hodyn/simulator/command_input.hpp).
#include "hodyn/simulator/command_input.hpp"

#include <cstdint>

namespace hodyn::sim {

Status plant_input_from_command(const hodyn_command& command, PlantInput& input) {
  if (command.num_rotors != static_cast<std::uint32_t>(kNumRotors) ||
      command.num_joints != static_cast<std::uint32_t>(kNumJoints))
    return Status::kInvalidArgument;
  for (int i = 0; i < kNumRotors; ++i) input.rotor_speed_command(i) = command.rotor_speed[i];
  for (int j = 0; j < kNumJoints; ++j) input.motor_torque(j) = command.motor_torque[j];
  return Status::kOk;
}

}  // namespace hodyn::sim
