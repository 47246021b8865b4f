// Shared set-up of the controller tests: a configured controller, a robot at
// rest in equilibrium and a reference equal to it, and the FD-based check of
// what snap a command produces.
#pragma once

#include <hodyn/control/feedback_linearization.hpp>

#include <array>

namespace hodyn {
namespace test {

using Controller = control::FeedbackLinearization<AerialManipulatorRobot, double>;
using JointVector = Controller::JointVector;
using RotorVector = Controller::RotorVector;

/// Robot at rest at `position`, level, joints at q: the motor positions hold
/// the gravity torques, the propellers hold the weight (static equilibrium).
inline Controller::Measurement equilibrium_measurement(const Controller& c,
                                                       const Vector3<double>& position,
                                                       const JointVector& q) {
  Controller::Measurement m;
  m.base_pose.translation = position;
  m.q = q;
  MotionDerivatives<AerialManipulatorTree, 0> motion;
  motion.base_pose = m.base_pose;
  motion.q[0] = q;
  InverseDynamicsData<AerialManipulatorTree, 0> id;
  EXPECT_EQ(inverse_dynamics(c.model(), id, motion, 0), Status::kOk);
  for (int j = 0; j < 6; ++j)
    m.motor_position(j) = q(j) + id.joint_torque[0](j) / c.robot().actuator(0).stiffness;
  RotorVector x;
  EXPECT_EQ(c.allocation().speeds_squared(id.base_wrench_body[0], x), Status::kOk);
  m.rotor_speed = x.cwiseSqrt();
  return m;
}

/// A reference holding the measured configuration, zero derivatives.
inline Controller::Reference hold_reference(const Controller::Measurement& m) {
  Controller::Reference r;
  r.position[0] = m.base_pose.translation;
  r.orientation = m.base_pose.rotation;
  r.joints[0] = m.q;
  return r;
}

/// Snaps the robot would have if it received the command of the last update:
/// forward dynamics of order 2 with (W, Ẇ, Ẅ) and (τ, τ̇, τ̈), where Ẅ is the
/// controller's and τ̈ = K (θ̈ − q̈) with θ̈ from the motor equation and u.
struct ProducedSnap {
  Vector3<double> position;  ///< x⁗ of the base origin
  Vector3<double> angular;   ///< ω⃛
  JointVector joints;        ///< q⁗
};

inline ProducedSnap produced_snap(const Controller& c, const Controller::Measurement& m,
                                  const Wrench<double>& wrench, const Wrench<double>& wrench_rate,
                                  const JointVector& u) {
  const JointActuator& joint = c.robot().actuator(0);
  const JointVector tau = joint.stiffness * (m.motor_position - m.q);
  const JointVector tau_rate = joint.stiffness * (m.motor_velocity - m.q_dot);
  ForwardDynamicsInput<AerialManipulatorTree, 2> in;
  in.base_pose = m.base_pose;
  in.base_twist = m.base_twist;
  in.q = m.q;
  in.q_dot = m.q_dot;
  in.base_wrench_frame = WrenchFrame::kBase;
  in.base_wrench[0] = wrench;
  in.base_wrench[1] = wrench_rate;
  in.base_wrench[2] = c.diagnostics().propulsion_wrench_second;
  in.joint_torque[0] = tau;
  in.joint_torque[1] = tau_rate;
  // First pass for q̈ (order 0 does not read τ̈).
  ForwardDynamicsData<AerialManipulatorTree, 2> fd;
  EXPECT_EQ(forward_dynamics(c.model(), fd, in, 0), Status::kOk);
  const JointVector theta_ddot =
      (u - joint.motor_friction * m.motor_velocity - tau) / joint.motor_inertia;
  in.joint_torque[2] = joint.stiffness * (theta_ddot - fd.motion.q[2]);
  EXPECT_EQ(forward_dynamics(c.model(), fd, in, 2), Status::kOk);
  const auto& v = fd.motion.base_twist;
  // x⁗ by Leibniz on ẋ = v + ω × x, written out independently here.
  const Vector3<double> x0 = m.base_pose.translation;
  std::array<Vector3<double>, 4> w, lin;
  for (int k = 0; k < 4; ++k) {
    w[k] = v[k].head<3>();
    lin[k] = v[k].tail<3>();
  }
  const Vector3<double> x1 = lin[0] + w[0].cross(x0);
  const Vector3<double> x2 = lin[1] + w[1].cross(x0) + w[0].cross(x1);
  const Vector3<double> x3 = lin[2] + w[2].cross(x0) + 2.0 * w[1].cross(x1) + w[0].cross(x2);
  ProducedSnap s;
  s.position =
      lin[3] + w[3].cross(x0) + 3.0 * w[2].cross(x1) + 3.0 * w[1].cross(x2) + w[0].cross(x3);
  s.angular = w[3];
  s.joints = fd.motion.q[4];
  return s;
}

}  // namespace test
}  // namespace hodyn
