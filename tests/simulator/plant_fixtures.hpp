// Shared states, inputs and parameter sets of the simulator tests.
#pragma once

#include <gtest/gtest.h>

#include <hodyn/simulator/simulator.hpp>

#include <Eigen/Geometry>

#include <cmath>

namespace hodyn::test {

/// A base pose away from the identity: rotated about a skew axis and shifted.
inline Pose<double> tilted_pose() {
  Pose<double> c;
  c.rotation =
      Eigen::AngleAxisd(0.1, Eigen::Vector3d(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  c.translation = Vector3<double>(0.3, -0.2, 1.5);
  return c;
}

inline sim::Vector6d bent_arms() {
  sim::Vector6d q;
  q << 0.2, -0.3, 0.4, -0.1, 0.25, -0.35;
  return q;
}

/// Hover at tilted_pose() with bent arms, then everything set in motion:
/// nonzero base twist, joint and motor velocities, extra spring deflections.
/// Returns the hover feedforward in `hover_input`.
inline sim::PlantState moving_state(const sim::PlantParameters& params,
                                    sim::PlantInput& hover_input) {
  sim::PlantState s;
  EXPECT_EQ(sim::hover_state(params, tilted_pose(), bent_arms(), s, hover_input), Status::kOk);
  s.base_twist << 0.3, -0.2, 0.5, 0.4, 0.1, -0.2;
  s.q_dot << 0.5, -0.4, 0.3, -0.6, 0.2, 0.1;
  s.motor_velocity = s.q_dot + sim::Vector6d::Constant(0.2);
  s.motor_position += sim::Vector6d(0.01, -0.02, 0.015, -0.01, 0.02, -0.005);
  return s;
}

/// moving_state() of the default robot, for plants without thrust (where no
/// hover exists): the same motion and spring deflections.
inline sim::PlantState free_moving_state() {
  sim::PlantInput unused;
  return moving_state(sim::PlantParameters{}, unused);
}

/// Smooth inputs well inside the limits, sampled at time t (rotors ±80 rad/s
/// around the hover speeds, motor torques ±0.3 N m around the feedforward).
inline sim::PlantInput smooth_input(const sim::PlantInput& hover_input, double t) {
  constexpr double kTwoPi = 6.283185307179586476925;
  sim::PlantInput in = hover_input;
  for (int i = 0; i < 6; ++i) {
    in.rotor_speed_command(i) += 80.0 * std::sin(kTwoPi * 2.0 * t + i);
    in.motor_torque(i) += 0.3 * std::sin(kTwoPi * 3.0 * t + 0.5 * i);
  }
  return in;
}

/// No gravity, no propulsion (c_f = c_d = 0), no damping or friction: the
/// plant is a free, conservative multibody system with elastic joints.
inline sim::PlantParameters conservative_parameters() {
  sim::PlantParameters p;
  p.body.gravity = 0.0;
  p.actuation.tilthex.thrust_coefficient = 0.0;
  p.actuation.tilthex.drag_coefficient = 0.0;
  for (auto& j : p.actuation.joints) {
    j.damping = 0.0;
    j.motor_friction = 0.0;
  }
  return p;
}

/// The relative difference |a − b| / |b|.
template <class A, class B>
double relative_error(const A& a, const B& b) {
  return (a - b).norm() / b.norm();
}

}  // namespace hodyn::test
