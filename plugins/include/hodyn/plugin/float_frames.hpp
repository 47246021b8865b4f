// hodyn/plugin/float_frames.hpp — the ABI frames (abi.h) with binary32
// values, for a host and a float controller linked into one image.
//
// On a core whose FPU is single precision only (Cortex-M4F) every
// float <-> double conversion is a library call (__aeabi_f2d / __aeabi_d2f,
// tens of instructions). A float controller fed through the ABI's double
// frames from a link that carries binary32 values paid ~300 of them a
// control period (docs/firmware.md, "STM32F405"). These frames have the ABI
// frames' fields, names and meaning, with `float` for every real value but
// `time` (double, as on the wire); a statically linked plugin that offers
// float_update (FloatFramePlugin, c_adapter.hpp) is driven through them by
// ControllerHost<Capacity, float> (hodyn/link/controller_host.hpp). They are
// not part of the C ABI: a shared-library plugin is always driven through
// hodyn_plugin_api::update and the double frames.
#pragma once

#include <cstdint>

#include "hodyn/plugin/abi.h"

namespace hodyn {
namespace plugin {

/// hodyn_sensors with binary32 values.
struct SensorsF32 {
  double time;
  std::uint32_t sequence;
  std::uint32_t num_joints;
  std::uint32_t num_rotors;
  std::uint32_t reserved;
  float base_position[3];
  float base_orientation[4];
  float base_linear_velocity[3];
  float base_angular_velocity[3];
  float joint_position[HODYN_MAX_JOINTS];
  float joint_velocity[HODYN_MAX_JOINTS];
  float motor_position[HODYN_MAX_JOINTS];
  float motor_velocity[HODYN_MAX_JOINTS];
  float rotor_speed[HODYN_MAX_ROTORS];
};

/// hodyn_reference with binary32 values.
struct ReferenceF32 {
  double time;
  std::uint32_t num_joints;
  std::uint32_t reserved;
  float base_position[HODYN_REFERENCE_ORDER + 1][3];
  float base_orientation[4];
  float base_angular_velocity[HODYN_REFERENCE_ORDER][3];
  float joint_position[HODYN_REFERENCE_ORDER + 1][HODYN_MAX_JOINTS];
};

/// hodyn_command with binary32 values.
struct CommandF32 {
  double time;
  std::uint32_t num_joints;
  std::uint32_t num_rotors;
  std::uint32_t mode;
  std::int32_t status;
  float rotor_speed[HODYN_MAX_ROTORS];
  float motor_torque[HODYN_MAX_JOINTS];
};

/// The frames whose real values are `Value`: the ABI's (double) or the above (float).
template <class Value>
struct Frames;
template <>
struct Frames<double> {
  using Sensors = hodyn_sensors;
  using Reference = hodyn_reference;
  using Command = hodyn_command;
};
template <>
struct Frames<float> {
  using Sensors = SensorsF32;
  using Reference = ReferenceF32;
  using Command = CommandF32;
};

}  // namespace plugin
}  // namespace hodyn
