// hodyn/simulator/sensor_model.hpp — what the controller sees of the plant:
// `hodyn_sensors` frames (plugin/abi.h) with Gaussian noise and a delay.
//
// Exact frame of a plant state (num_joints = nJ, num_rotors = N of the robot):
//   base_position          p                      (world)
//   base_orientation       quaternion (w,x,y,z) of R, base → world, w ≥ 0
//   base_linear_velocity   ṗ = v + ω × p          (world; V₁ = (ω; v) is spatial)
//   base_angular_velocity  Rᵀ ω                   (base frame, what a gyro reads)
//   joint_*, motor_*       q, q̇, θ, θ̇            (link side; rigid joints: θ = q)
//   rotor_speed            ω_i
//   time                   the state's time (when it was measured)
// Noise: independent N(0, σ²) on every component; the attitude is perturbed by
// a small rotation in the base frame, R exp([n]), n ~ N(0, σ² I₃).
// Delay: round(delay / sample_period) frames, through a ring buffer of at most
// kMaxDelayFrames = 64 frames; `measure` is called once per sample period.
#pragma once

#include <cmath>
#include <cstdint>

#include "hodyn/plugin/abi.h"
#include "hodyn/simulator/frame_delay_line.hpp"
#include "hodyn/simulator/gaussian_noise.hpp"
#include "hodyn/simulator/plant_parameters.hpp"
#include "hodyn/status.hpp"

namespace hodyn::sim {

/// Standard deviations of the measurement noise (SI units, per component).
struct SensorNoise {
  double position = 0.0;          ///< m
  double attitude = 0.0;          ///< rad, per axis of the small rotation
  double linear_velocity = 0.0;   ///< m/s
  double angular_velocity = 0.0;  ///< rad/s
  double joint_position = 0.0;    ///< rad
  double joint_velocity = 0.0;    ///< rad/s
  double motor_position = 0.0;    ///< rad
  double motor_velocity = 0.0;    ///< rad/s
  double rotor_speed = 0.0;       ///< rad/s

  /// Motion capture (0.5 mm, 0.1°, 5 mm/s), a MEMS gyro after filtering
  /// (0.005 rad/s), 19-bit-class joint and motor encoders (2e-5 rad,
  /// velocities 2e-3 rad/s: the elastic-joint controller reads the deflection
  /// θ − q through them), ESC speed estimates (5 rad/s). See docs/simulator.md.
  static SensorNoise realistic();
};

/// The base part of an exact frame (time, pose, velocities), no joints or rotors.
hodyn_sensors base_sensor_frame(double time, const Pose<double>& base_pose,
                                const Twist<double>& base_twist);

struct SensorModelParameters {
  SensorNoise noise{};          ///< zero: exact frames
  double sample_period = 1e-3;  ///< s between `measure` calls, > 0
  double delay = 0.0;           ///< s, ≥ 0; rounded to whole frames
  std::uint64_t seed = 1;       ///< noise seed (same seed, same frames)
};

/// The exact, noise-free frame of a plant state (sequence 0).
template <class Robot>
hodyn_sensors exact_sensor_frame(const RobotPlantState<Robot>& state) {
  constexpr int nj = PlantTraits<Robot>::kNumJoints;
  constexpr int nr = PlantTraits<Robot>::kNumRotors;
  static_assert(nj <= HODYN_MAX_JOINTS && nr <= HODYN_MAX_ROTORS,
                "the robot does not fit the plugin ABI's sensor frame");
  hodyn_sensors f = base_sensor_frame(state.time, state.base_pose, state.base_twist);
  f.num_joints = nj;
  f.num_rotors = nr;
  for (int j = 0; j < nj; ++j) {
    f.joint_position[j] = state.q(j);
    f.joint_velocity[j] = state.q_dot(j);
    f.motor_position[j] = state.motor_position(j);
    f.motor_velocity[j] = state.motor_velocity(j);
  }
  for (int i = 0; i < nr; ++i) f.rotor_speed[i] = state.rotor_speed(i);
  return f;
}

class SensorModel {
 public:
  static constexpr int kMaxDelayFrames = 64;

  SensorModel();  ///< no noise, no delay, 1 kHz

  /// kInvalidArgument for a negative σ, a non-positive period, a negative
  /// delay or one above kMaxDelayFrames frames; kNonFiniteInput for NaN/Inf.
  /// A rejected set changes nothing. Also resets (delay line, sequence, seed).
  Status configure(const SensorModelParameters& params);
  /// Empties the delay line, restarts the sequence at 0 and re-seeds the noise.
  void reset();

  /// Measures `state` now (noise added, sequence stamped) and writes the frame
  /// measured delay_frames() calls ago. kNonFiniteInput (nothing stored,
  /// `frame` untouched) for a non-finite state.
  template <class Robot>
  Status measure(const RobotPlantState<Robot>& state, hodyn_sensors& frame) {
    if (!std::isfinite(state.time) || !state.base_pose.rotation.allFinite() ||
        !state.base_pose.translation.allFinite() || !state.base_twist.allFinite() ||
        !state.q.allFinite() || !state.q_dot.allFinite() || !state.motor_position.allFinite() ||
        !state.motor_velocity.allFinite() || !state.rotor_speed.allFinite())
      return Status::kNonFiniteInput;
    frame = add_noise_and_delay(exact_sensor_frame(state), state.base_pose.rotation);
    return Status::kOk;
  }

  int delay_frames() const { return delay_.delay(); }
  const SensorModelParameters& parameters() const { return params_; }

 private:
  /// Stamps the sequence, adds the noise (attitude: R exp([δ])) and returns
  /// the frame from delay_frames() calls ago.
  const hodyn_sensors& add_noise_and_delay(hodyn_sensors exact, const Matrix3<double>& rotation);

  SensorModelParameters params_{};
  GaussianNoise noise_{};
  FrameDelayLine<hodyn_sensors, kMaxDelayFrames> delay_{};
  std::uint32_t sequence_ = 0;
};

}  // namespace hodyn::sim
