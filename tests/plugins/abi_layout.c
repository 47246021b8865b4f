/* Compiled as C: the ABI header is valid C and its layouts match C++'s. */
#include "hodyn/plugin/abi.h"

/* A C host reads a table's robot (ABI 2) through plain field access. */
static const hodyn_plugin_api kCTable = {
    .abi_version = HODYN_PLUGIN_ABI_VERSION,
    .name = "c_table",
    .robot_name = "c_robot",
    .robot_id = 0xC0FFEEu,
    .num_joints = 3u,
    .num_rotors = 8u,
};

size_t hodyn_test_c_sizeof(int which) {
  switch (which) {
    case 0: return sizeof(hodyn_sensors);
    case 1: return sizeof(hodyn_reference);
    case 2: return sizeof(hodyn_command);
    case 3: return sizeof(hodyn_parameter);
    case 4: return sizeof(hodyn_parameter_info);
    case 5: return sizeof(hodyn_plugin_api);
    case 6: return offsetof(hodyn_sensors, rotor_speed);
    case 7: return offsetof(hodyn_reference, joint_position);
    case 9: return offsetof(hodyn_plugin_api, parameter_info);
    case 10: return offsetof(hodyn_plugin_api, robot_name);
    case 11: return offsetof(hodyn_plugin_api, robot_id);
    case 12: return offsetof(hodyn_plugin_api, num_joints);
    case 13: return offsetof(hodyn_plugin_api, num_rotors);
    default: return offsetof(hodyn_command, motor_torque);
  }
}

/* The C table above, for the C++ side to read through the same struct. */
const hodyn_plugin_api* hodyn_test_c_table(void) { return &kCTable; }
