/* Compiled as C: the ABI header is valid C and its layouts match C++'s. */
#include "hodyn/plugin/abi.h"

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
    default: return offsetof(hodyn_command, motor_torque);
  }
}
