// hodyn/control/feedback_linearization_plugin_impl.hpp — the definitions of
// BasicFeedbackLinearizationPlugin<Robot, Scalar> (frame conversion, the
// parameter table's use). Include it in the ONE source file that instantiates
// the plugin for a robot type:
//
//   template class hodyn::control::BasicFeedbackLinearizationPlugin<my::Robot, double>;
//
// hodyn_add_robot() (cmake/hodyn_robot.cmake) generates that file for a
// user's robot; hodyn's own 12-DoF instances are in
// plugins/feedback_linearization/src. The parameter table itself is robot
// independent and compiled once, in hodyn::feedback_linearization.
#pragma once

#include <cmath>
#include <type_traits>

#include "hodyn/control/feedback_linearization_plugin.hpp"
#include "hodyn/plugin/frames.hpp"

namespace hodyn {
namespace control {
namespace detail {

// The ABI's frames are double, the float frames (plugin/float_frames.hpp)
// float; the controller's Scalar may be either. A double controller on
// double frames converts in double (bit for bit what the frames say); else
// the frame's numbers are rounded to Scalar once (no rounding for float
// frames into a float controller) and converted in Scalar.
template <class Robot, class Scalar, class Sensors>
Status measurement_from_sensors(const Sensors& s,
                                typename FeedbackLinearization<Robot, Scalar>::Measurement& m) {
  using Controller = FeedbackLinearization<Robot, Scalar>;
  using Value = std::remove_cv_t<std::remove_reference_t<decltype(s.base_position[0])>>;
  if (s.num_joints != Controller::kNumJoints || s.num_rotors != Controller::kNumRotors)
    return Status::kInvalidArgument;
  m.time = s.time;
  if constexpr (std::is_same<Scalar, double>::value && std::is_same<Value, double>::value) {
    Pose<double> pose{};
    const Status r = plugin::rotation_from_quaternion(s.base_orientation, pose.rotation);
    if (r != Status::kOk) return r;
    pose.translation = Vector3<double>(s.base_position[0], s.base_position[1], s.base_position[2]);
    const Vector3<double> velocity(s.base_linear_velocity[0], s.base_linear_velocity[1],
                                   s.base_linear_velocity[2]);
    const Vector3<double> rate(s.base_angular_velocity[0], s.base_angular_velocity[1],
                               s.base_angular_velocity[2]);
    m.base_pose = pose;
    m.base_twist = plugin::spatial_twist(pose, velocity, rate);
  } else {
    // A float controller: the ABI's doubles are rounded once and the frame
    // conversions run in float (no soft-float double on a Cortex-M4F).
    const Status r = plugin::rotation_from_quaternion_in(s.base_orientation, m.base_pose.rotation);
    if (r != Status::kOk) return r;
    const auto vector = [](const Value(&v)[3]) {
      return Vector3<Scalar>(static_cast<Scalar>(v[0]), static_cast<Scalar>(v[1]),
                             static_cast<Scalar>(v[2]));
    };
    m.base_pose.translation = vector(s.base_position);
    const Vector3<Scalar> w = m.base_pose.rotation * vector(s.base_angular_velocity);
    m.base_twist = spatial_vector<Scalar>(
        w, vector(s.base_linear_velocity) - w.cross(m.base_pose.translation));
  }
  for (int j = 0; j < Controller::kNumJoints; ++j) {
    m.q(j) = static_cast<Scalar>(s.joint_position[j]);
    m.q_dot(j) = static_cast<Scalar>(s.joint_velocity[j]);
    m.motor_position(j) = static_cast<Scalar>(s.motor_position[j]);
    m.motor_velocity(j) = static_cast<Scalar>(s.motor_velocity[j]);
  }
  for (int i = 0; i < Controller::kNumRotors; ++i)
    m.rotor_speed(i) = static_cast<Scalar>(s.rotor_speed[i]);
  return Status::kOk;
}

template <class Robot, class Scalar, class Frame>
Status reference_from_frame(const Frame& f,
                            typename FeedbackLinearization<Robot, Scalar>::Reference& r) {
  using Controller = FeedbackLinearization<Robot, Scalar>;
  using Value = std::remove_cv_t<std::remove_reference_t<decltype(f.base_orientation[0])>>;
  if (f.num_joints != Controller::kNumJoints) return Status::kInvalidArgument;
  for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
    r.position[static_cast<std::size_t>(k)] =
        Vector3<Value>(f.base_position[k][0], f.base_position[k][1], f.base_position[k][2])
            .template cast<Scalar>();
    for (int j = 0; j < Controller::kNumJoints; ++j)
      r.joints[static_cast<std::size_t>(k)](j) = static_cast<Scalar>(f.joint_position[k][j]);
  }
  for (int k = 0; k < HODYN_REFERENCE_ORDER; ++k)
    r.angular_velocity[static_cast<std::size_t>(k)] =
        Vector3<Value>(f.base_angular_velocity[k][0], f.base_angular_velocity[k][1],
                       f.base_angular_velocity[k][2])
            .template cast<Scalar>();
  if constexpr (std::is_same<Scalar, double>::value && std::is_same<Value, double>::value)
    return plugin::rotation_from_quaternion(f.base_orientation, r.orientation);
  else
    return plugin::rotation_from_quaternion_in(f.base_orientation, r.orientation);
}

template <class Robot, class Scalar, class Command>
void write_command(const typename FeedbackLinearization<Robot, Scalar>::Output& o, double time,
                   Status status, Command& c) {
  using Controller = FeedbackLinearization<Robot, Scalar>;
  using Value = std::remove_cv_t<std::remove_reference_t<decltype(c.rotor_speed[0])>>;
  if constexpr (std::is_same<Command, plugin::CommandF32>::value) {
    // Every field written, the unused entries as zeros in the same loops
    // (zeroing the whole command first was a memset call).
    c.time = time;
    c.num_joints = Controller::kNumJoints;
    c.num_rotors = Controller::kNumRotors;
    c.mode = static_cast<std::uint32_t>(o.mode);
    c.status = static_cast<std::int32_t>(status);
    for (int i = 0; i < HODYN_MAX_ROTORS; ++i)
      c.rotor_speed[i] =
          i < Controller::kNumRotors ? static_cast<Value>(o.rotor_speed(i)) : Value(0);
    for (int j = 0; j < HODYN_MAX_JOINTS; ++j)
      c.motor_torque[j] =
          j < Controller::kNumJoints ? static_cast<Value>(o.motor_torque(j)) : Value(0);
    return;
  }
  c = Command{};
  c.time = time;
  c.num_joints = Controller::kNumJoints;
  c.num_rotors = Controller::kNumRotors;
  c.mode = static_cast<std::uint32_t>(o.mode);
  c.status = static_cast<std::int32_t>(status);
  for (int i = 0; i < Controller::kNumRotors; ++i)
    c.rotor_speed[i] = static_cast<Value>(o.rotor_speed(i));
  for (int j = 0; j < Controller::kNumJoints; ++j)
    c.motor_torque[j] = static_cast<Value>(o.motor_torque(j));
}

}  // namespace detail

template <class Robot, class Scalar>
BasicFeedbackLinearizationPlugin<Robot, Scalar>::BasicFeedbackLinearizationPlugin() noexcept {
  (void)controller_.configure(settings_.resolved());
}

template <class Robot, class Scalar>
Status BasicFeedbackLinearizationPlugin<Robot, Scalar>::configure(
    const plugin::Parameter* parameters, std::size_t count) noexcept {
  FeedbackLinearizationSettings candidate = settings_;
  Status s = detail::apply_parameters(candidate, parameters, count);
  if (s != Status::kOk) return s;
  // The table is robot independent: a payload_body beyond this robot's
  // joints means its last body (0), as every value in range is accepted.
  FeedbackLinearizationConfig config = candidate.resolved();
  if (config.payload.body > Controller::kNumJoints) config.payload.body = 0;
  s = controller_.configure(config);
  if (s != Status::kOk) return s;
  settings_ = candidate;
  return Status::kOk;
}

template <class Robot, class Scalar>
void BasicFeedbackLinearizationPlugin<Robot, Scalar>::reset() noexcept {
  controller_.reset();
}

template <class Robot, class Scalar>
Status BasicFeedbackLinearizationPlugin<Robot, Scalar>::update(const plugin::Sensors& sensors,
                                                               const plugin::Reference& reference,
                                                               plugin::Command& command) noexcept {
  Status s = detail::measurement_from_sensors<Robot, Scalar>(sensors, measurement_);
  if (s == Status::kOk) s = detail::reference_from_frame<Robot, Scalar>(reference, reference_);
  if (s == Status::kOk) {
    s = controller_.update(measurement_, reference_, output_);
  } else {
    controller_.safe_command(output_);
  }
  detail::write_command<Robot, Scalar>(output_, sensors.time, s, command);
  return s;
}

// update()'s steps on the float frames (the same templates; written out
// rather than shared through a helper, which would change the double
// update()'s code on the Cortex-M7, whose step is held to 27 000
// instructions).
template <class Robot, class Scalar>
Status BasicFeedbackLinearizationPlugin<Robot, Scalar>::float_update(
    const plugin::SensorsF32& sensors, const plugin::ReferenceF32& reference,
    plugin::CommandF32& command) noexcept {
  Status s = detail::measurement_from_sensors<Robot, Scalar>(sensors, measurement_);
  if (s == Status::kOk) s = detail::reference_from_frame<Robot, Scalar>(reference, reference_);
  if (s == Status::kOk) {
    s = controller_.update(measurement_, reference_, output_);
  } else {
    controller_.safe_command(output_);
  }
  detail::write_command<Robot, Scalar>(output_, sensors.time, s, command);
  return s;
}

template <class Robot, class Scalar>
std::size_t BasicFeedbackLinearizationPlugin<Robot, Scalar>::parameter_count() const noexcept {
  return detail::parameter_count();
}

template <class Robot, class Scalar>
Status BasicFeedbackLinearizationPlugin<Robot, Scalar>::parameter_info(
    std::size_t index, plugin::ParameterInfo& info) const noexcept {
  return detail::parameter_info(index, info);
}

}  // namespace control
}  // namespace hodyn
