/* hodyn/plugin/abi.h — the C ABI between a host and a controller plugin.
 *
 * A host (flight stack, hardware-in-the-loop runner, desktop simulator) talks
 * to a controller through plain C structs of fixed size and a table of
 * function pointers. A plugin built as a shared library exports one symbol,
 *
 *     const hodyn_plugin_api* hodyn_plugin_entry(void);
 *
 * and a firmware image links plugins statically and finds them by name in the
 * static registry (hodyn/plugin/registry.hpp). The host owns the plugin's
 * memory: it gives `init` a buffer of `instance_size` bytes aligned to
 * `instance_align` (a static array on a flight controller), so no plugin ever
 * allocates.
 *
 * Units are SI (m, s, rad, kg, N, N·m). Frames: "world" is the inertial frame,
 * z up; "base" is the body frame of the floating base (at its centre of mass).
 * Quaternions are (w, x, y, z) and rotate base coordinates into world
 * coordinates. Every call is non-blocking and never throws; the returned
 * int32 is a hodyn::Status value (hodyn/status.hpp), 0 = ok.
 */
#ifndef HODYN_PLUGIN_ABI_H
#define HODYN_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bumped on any change of a struct layout or of the function table.
 *  2: hodyn_plugin_api ends with the robot the plugin is built for. */
#define HODYN_PLUGIN_ABI_VERSION 2u
/** Capacities of the exchange structs (the counts say how many are used). */
#define HODYN_MAX_JOINTS 12
#define HODYN_MAX_ROTORS 8
/** Derivatives carried by a reference: orders 0..HODYN_REFERENCE_ORDER. */
#define HODYN_REFERENCE_ORDER 4
#define HODYN_NAME_LENGTH 40

/** What the controller measured, one frame per control step. */
typedef struct hodyn_sensors {
  double time;                                  /**< s, when the frame was measured */
  uint32_t sequence;                            /**< frame counter (wraps) */
  uint32_t num_joints;                          /**< joints in use (≤ HODYN_MAX_JOINTS) */
  uint32_t num_rotors;                          /**< rotors in use (≤ HODYN_MAX_ROTORS) */
  uint32_t reserved;
  double base_position[3];                      /**< world, m: origin of the base frame */
  double base_orientation[4];                   /**< unit quaternion (w,x,y,z), base → world */
  double base_linear_velocity[3];               /**< world, m/s: velocity of the base origin */
  double base_angular_velocity[3];              /**< base frame, rad/s (what a gyro measures) */
  double joint_position[HODYN_MAX_JOINTS];      /**< link side q, rad */
  double joint_velocity[HODYN_MAX_JOINTS];      /**< link side q̇, rad/s */
  double motor_position[HODYN_MAX_JOINTS];      /**< motor side θ after the gear, rad */
  double motor_velocity[HODYN_MAX_JOINTS];      /**< motor side θ̇, rad/s */
  double rotor_speed[HODYN_MAX_ROTORS];         /**< propeller speeds, rad/s */
} hodyn_sensors;

/** The motion to track, with its time derivatives 0..4 (snap). */
typedef struct hodyn_reference {
  double time;                                              /**< s */
  uint32_t num_joints;
  uint32_t reserved;
  double base_position[HODYN_REFERENCE_ORDER + 1][3];       /**< x_d^(k), world */
  double base_orientation[4];                               /**< R_d as a quaternion (w,x,y,z) */
  double base_angular_velocity[HODYN_REFERENCE_ORDER][3];   /**< ω_d^(k), world, k = 0..3 */
  double joint_position[HODYN_REFERENCE_ORDER + 1][HODYN_MAX_JOINTS]; /**< q_d^(k) */
} hodyn_reference;

/** How the command was produced. */
typedef enum hodyn_mode {
  HODYN_MODE_DISARMED = 0,  /**< not configured: rotors stopped, motor torques zero */
  HODYN_MODE_TRACKING = 1,  /**< the control law, no limit active */
  HODYN_MODE_SATURATED = 2, /**< the control law with rotor or torque limits active */
  HODYN_MODE_HOLD = 3,      /**< bad input: last good rotor command, torques limited */
  HODYN_MODE_HOVER = 4      /**< bad input for too long: hover thrust, torques limited */
} hodyn_mode;

/** What the controller asks the actuators for. */
typedef struct hodyn_command {
  double time;                               /**< s, of the sensor frame it answers */
  uint32_t num_joints;
  uint32_t num_rotors;
  uint32_t mode;                             /**< a hodyn_mode */
  int32_t status;                            /**< hodyn::Status of the update */
  double rotor_speed[HODYN_MAX_ROTORS];      /**< commanded propeller speeds, rad/s */
  double motor_torque[HODYN_MAX_JOINTS];     /**< commanded motor torques, N·m */
} hodyn_command;

/** One run-time parameter, by name (names are listed by parameter_info). */
typedef struct hodyn_parameter {
  char name[HODYN_NAME_LENGTH];
  double value;
} hodyn_parameter;

/** Description of one parameter of a plugin. */
typedef struct hodyn_parameter_info {
  char name[HODYN_NAME_LENGTH];
  char unit[16];
  double default_value;
  double min_value;
  double max_value;
} hodyn_parameter_info;

/** The function table of a plugin. `self` is the host-provided instance buffer. */
typedef struct hodyn_plugin_api {
  uint32_t abi_version;                     /**< HODYN_PLUGIN_ABI_VERSION of the build */
  const char* name;                         /**< e.g. "feedback_linearization" */
  size_t instance_size;                     /**< bytes the host must provide */
  size_t instance_align;                    /**< alignment of that buffer */
  /** Constructs the plugin in `storage` (default parameters, not yet configured). */
  int32_t (*init)(void* storage, size_t size);
  /** Destroys it; the buffer may be reused afterwards. */
  void (*fini)(void* self);
  /** Applies parameters over the current ones; a rejected set changes nothing. */
  int32_t (*configure)(void* self, const hodyn_parameter* parameters, uint32_t count);
  /** Forgets the controller's internal state (integrators, last command). */
  void (*reset)(void* self);
  /** One control step. `command` is always written with a safe, finite command. */
  int32_t (*update)(void* self, const hodyn_sensors* sensors, const hodyn_reference* reference,
                    hodyn_command* command);
  uint32_t (*parameter_count)(const void* self);
  int32_t (*parameter_info)(const void* self, uint32_t index, hodyn_parameter_info* info);
  /* ---- ABI 2: the robot the plugin is built for. A host compares these with
   * the robot it flies before init (PluginInstance::open with a RobotIdentity,
   * hodyn/plugin/robot_identity.hpp) and refuses a mismatch with
   * hodyn::Status::kRobotMismatch. Read them only after checking abi_version. */
  const char* robot_name;                   /**< e.g. "aerial_manipulator" (for messages) */
  uint32_t robot_id;                        /**< hodyn::robot_id() of the robot's description */
  uint32_t num_joints;                      /**< joints of the robot (≤ HODYN_MAX_JOINTS) */
  uint32_t num_rotors;                      /**< rotors of the robot (≤ HODYN_MAX_ROTORS) */
} hodyn_plugin_api;

/** The symbol a plugin shared library exports. */
typedef const hodyn_plugin_api* (*hodyn_plugin_entry_fn)(void);
#define HODYN_PLUGIN_ENTRY_SYMBOL "hodyn_plugin_entry"

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HODYN_PLUGIN_ABI_H */
