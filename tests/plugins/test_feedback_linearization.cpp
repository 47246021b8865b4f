// The feedback-linearization control law (hodyn/control/feedback_linearization.hpp):
// exactness of the linearization, the linear error law, and zero heap use.
#include <gtest/gtest.h>

#include "support/heap_counter.hpp"
#include "support/random.hpp"

#include <type_traits>

#include "controller_fixture.hpp"

namespace {

using namespace hodyn;
using namespace hodyn::test;

Controller configured_controller() {
  Controller c;
  EXPECT_EQ(c.configure(control::FeedbackLinearizationConfig{}), Status::kOk);
  return c;
}

// A moving, tilted state: random pose near (1, 0, 0.5), twists, joint rates
// and deflections of realistic size; propellers around hover.
Controller::Measurement moving_measurement(Rng& rng) {
  Controller::Measurement m;
  m.time = 0.0;
  m.base_pose.rotation = Eigen::AngleAxisd(0.2, rng.unit3()).toRotationMatrix();
  m.base_pose.translation = Vector3<double>(1.0, 0.0, 0.5) + 0.1 * rng.vec3();
  m.base_twist << 0.3 * rng.vec3(), 0.3 * rng.vec3();
  for (int j = 0; j < 6; ++j) {
    m.q(j) = rng.uniform(-0.6, 0.6);
    m.q_dot(j) = rng.uniform(-0.5, 0.5);
    m.motor_position(j) = m.q(j) + rng.uniform(-0.003, 0.003);
    m.motor_velocity(j) = m.q_dot(j) + rng.uniform(-0.01, 0.01);
    m.rotor_speed(j) = rng.uniform(760.0, 840.0);
  }
  return m;
}

// The reference equal to the measured state and its FD-derived derivatives up
// to jerk (what the controller will compute), with given snaps.
Controller::Reference matching_reference(const Controller& c, const Controller::Measurement& m,
                                         const Vector3<double>& x_snap,
                                         const Vector3<double>& w_snap, const JointVector& q_snap) {
  ForwardDynamicsInput<AerialManipulatorTree, 1> in;
  in.base_pose = m.base_pose;
  in.base_twist = m.base_twist;
  in.q = m.q;
  in.q_dot = m.q_dot;
  in.base_wrench_frame = WrenchFrame::kBase;
  const RotorVector x = m.rotor_speed.cwiseProduct(m.rotor_speed);
  in.base_wrench[0] = c.allocation().matrix() * x;
  const double k = c.robot().actuator(0).stiffness;
  in.joint_torque[0] = k * (m.motor_position - m.q);
  in.joint_torque[1] = k * (m.motor_velocity - m.q_dot);
  ForwardDynamicsData<AerialManipulatorTree, 1> fd;
  EXPECT_EQ(forward_dynamics(c.model(), fd, in, 1), Status::kOk);
  const auto& v = fd.motion.base_twist;
  Controller::Reference r;
  const Vector3<double> x0 = m.base_pose.translation;
  r.position[0] = x0;
  r.position[1] = v[0].tail<3>() + v[0].head<3>().cross(x0);
  r.position[2] = v[1].tail<3>() + v[1].head<3>().cross(x0) + v[0].head<3>().cross(r.position[1]);
  r.position[3] = v[2].tail<3>() + v[2].head<3>().cross(x0) +
                  2.0 * v[1].head<3>().cross(r.position[1]) + v[0].head<3>().cross(r.position[2]);
  r.position[4] = x_snap;
  r.orientation = m.base_pose.rotation;
  for (int i = 0; i < 3; ++i) r.angular_velocity[i] = v[i].head<3>();
  r.angular_velocity[3] = w_snap;
  for (int i = 0; i < 4; ++i) r.joints[i] = fd.motion.q[i];
  r.joints[4] = q_snap;
  return r;
}

TEST(FeedbackLinearization, CommandProducesTheReferenceSnapExactly) {
  Rng rng(11);
  for (int trial = 0; trial < 10; ++trial) {
    Controller c = configured_controller();
    const Controller::Measurement m = moving_measurement(rng);
    const Vector3<double> xs = rng.vec3(), ws = rng.vec3();
    JointVector qs;
    for (int j = 0; j < 6; ++j) qs(j) = rng.normal();
    const Controller::Reference r = matching_reference(c, m, xs, ws, qs);
    Controller::Output out;
    ASSERT_EQ(c.update(m, r, out), Status::kOk)
        << "trial " << trial << " rotors " << c.diagnostics().rotors_saturated << " motors "
        << c.diagnostics().motors_saturated << " u " << out.motor_torque.transpose() << " w "
        << out.rotor_speed.transpose();
    EXPECT_EQ(out.mode, control::CommandMode::kTracking);
    const Wrench<double> w = c.allocation().matrix() * m.rotor_speed.cwiseProduct(m.rotor_speed);
    const ProducedSnap s = produced_snap(c, m, w, Wrench<double>::Zero(), out.motor_torque);
    EXPECT_LT((s.position - xs).norm(), 1e-8) << s.position.transpose() << " vs " << xs.transpose();
    EXPECT_LT((s.angular - ws).norm(), 1e-8);
    EXPECT_LT((s.joints - qs).cwiseAbs().maxCoeff(), 1e-7);
  }
}

TEST(FeedbackLinearization, ErrorsEnterTheSnapThroughTheGains) {
  Rng rng(12);
  const Controller::Measurement m = moving_measurement(rng);
  const Vector3<double> zero3 = Vector3<double>::Zero();
  const JointVector zero6 = JointVector::Zero();
  const control::FeedbackLinearizationConfig cfg;
  // Position error of 2 mm along y.
  {
    Controller c = configured_controller();
    Controller::Reference r = matching_reference(c, m, zero3, zero3, zero6);
    r.position[0] += Vector3<double>(0.0, 0.002, 0.0);
    Controller::Output out;
    ASSERT_EQ(c.update(m, r, out), Status::kOk);
    const Wrench<double> w = c.allocation().matrix() * m.rotor_speed.cwiseProduct(m.rotor_speed);
    const ProducedSnap s = produced_snap(c, m, w, Wrench<double>::Zero(), out.motor_torque);
    EXPECT_NEAR(s.position.y(), cfg.position.k0 * 0.002, 1e-7 * cfg.position.k0);
    EXPECT_NEAR(s.position.x(), 0.0, 1e-6);
    EXPECT_LT(s.joints.norm(), 1e-6);
  }
  // Attitude error of 0.01 rad about the world z axis: R_d = exp(0.01 e_z) R.
  {
    Controller c = configured_controller();
    Controller::Reference r = matching_reference(c, m, zero3, zero3, zero6);
    r.orientation =
        Eigen::AngleAxisd(0.01, Vector3<double>::UnitZ()).toRotationMatrix() * m.base_pose.rotation;
    Controller::Output out;
    ASSERT_EQ(c.update(m, r, out), Status::kOk);
    const Wrench<double> w = c.allocation().matrix() * m.rotor_speed.cwiseProduct(m.rotor_speed);
    const ProducedSnap s = produced_snap(c, m, w, Wrench<double>::Zero(), out.motor_torque);
    EXPECT_NEAR(s.angular.z(), cfg.attitude.k0 * 0.01, 1e-9 * cfg.attitude.k0);
    EXPECT_NEAR(s.angular.x(), 0.0, 1e-6);
  }
  // Joint 3 velocity error of 0.01 rad/s.
  {
    Controller c = configured_controller();
    Controller::Reference r = matching_reference(c, m, zero3, zero3, zero6);
    r.joints[1](2) += 0.01;
    Controller::Output out;
    ASSERT_EQ(c.update(m, r, out), Status::kOk);
    const Wrench<double> w = c.allocation().matrix() * m.rotor_speed.cwiseProduct(m.rotor_speed);
    const ProducedSnap s = produced_snap(c, m, w, Wrench<double>::Zero(), out.motor_torque);
    EXPECT_NEAR(s.joints(2), cfg.joints.k1 * 0.01, 1e-7 * cfg.joints.k1);
    EXPECT_NEAR(s.joints(0), 0.0, 1e-5);
  }
}

TEST(FeedbackLinearization, ConsistentWithItsOwnInverseDynamicsAtOrderZero) {
  // Hover equilibrium with a holding reference: nothing to correct, so the
  // snap, Ẅ and the deviation of u from the static torque are all zero.
  Controller c = configured_controller();
  JointVector q;
  q << 0.1, -0.2, 0.3, -0.1, 0.2, -0.3;
  const Controller::Measurement m = equilibrium_measurement(c, Vector3<double>(0, 0, 1), q);
  Controller::Output out;
  ASSERT_EQ(c.update(m, hold_reference(m), out), Status::kOk);
  EXPECT_LT(c.diagnostics().propulsion_wrench_second.norm(), 1e-8);
  const JointVector tau = 50.0 * (m.motor_position - m.q);
  EXPECT_LT((out.motor_torque - tau).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT((out.rotor_speed - m.rotor_speed).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(FeedbackLinearization, UpdateAllocatesNothing) {
  Controller c = configured_controller();
  Rng rng(13);
  Controller::Measurement m = moving_measurement(rng);
  const Controller::Reference r = matching_reference(c, m, Vector3<double>::Zero(),
                                                     Vector3<double>::Zero(), JointVector::Zero());
  Controller::Output out;
  (void)c.update(m, r, out);
  HeapProbe probe;
  for (int i = 1; i <= 100; ++i) {
    m.time = 1e-3 * i;
    (void)c.update(m, r, out);
  }
  EXPECT_EQ(probe.count(), 0);
  std::printf("sizeof(FeedbackLinearization<AerialManipulatorRobot, double>) = %zu bytes\n",
              sizeof(Controller));
}

// A float controller's step reads its gains and limits from settings(),
// converted once at configure(). Each of the 26 values is distinct here, so
// a swapped or forgotten conversion shows (FloatMatchesDouble's outputs need
// not: a swap of two gains whose errors are zero moves nothing).
TEST(FeedbackLinearization, FloatSettingsAreTheConfigRoundedOnce) {
  control::FeedbackLinearizationConfig config;
  config.position = control::TrackingGains::from_bandwidth(7.3, true);
  config.attitude = control::TrackingGains::from_bandwidth(19.1, true);
  config.joints = control::TrackingGains::from_bandwidth(23.7, true);
  config.max_position_error = 0.31;
  config.max_attitude_error = 0.47;
  config.max_joint_error = 0.53;
  config.max_integral = 0.061;
  config.reference_jump = 0.023;
  config.max_base_speed = 17.5;
  config.max_base_rate = 18.5;
  config.joint_limit = 3.1;
  config.max_joint_rate = 29.0;
  config.max_deflection = 0.45;
  config.safe_torque_fraction = 0.55;
  control::FeedbackLinearization<AerialManipulatorRobot, float> f;
  ASSERT_EQ(f.configure(config), Status::kOk);
  const auto& s = f.settings();
  static_assert(std::is_same<std::decay_t<decltype(s.max_integral)>, float>::value);
  const auto expect_gains = [](const auto& g, const control::TrackingGains& d, const char* name) {
    EXPECT_EQ(g.k0, static_cast<float>(d.k0)) << name;
    EXPECT_EQ(g.k1, static_cast<float>(d.k1)) << name;
    EXPECT_EQ(g.k2, static_cast<float>(d.k2)) << name;
    EXPECT_EQ(g.k3, static_cast<float>(d.k3)) << name;
    EXPECT_EQ(g.ki, static_cast<float>(d.ki)) << name;
  };
  expect_gains(s.position, config.position, "position");
  expect_gains(s.attitude, config.attitude, "attitude");
  expect_gains(s.joints, config.joints, "joints");
  EXPECT_EQ(s.max_position_error, 0.31f);
  EXPECT_EQ(s.max_attitude_error, 0.47f);
  EXPECT_EQ(s.max_joint_error, 0.53f);
  EXPECT_EQ(s.max_integral, 0.061f);
  EXPECT_EQ(s.reference_jump, 0.023f);
  EXPECT_EQ(s.max_base_speed, 17.5f);
  EXPECT_EQ(s.max_base_rate, 18.5f);
  EXPECT_EQ(s.joint_limit, 3.1f);
  EXPECT_EQ(s.max_joint_rate, 29.0f);
  EXPECT_EQ(s.max_deflection, 0.45f);
  EXPECT_EQ(s.safe_torque_fraction, 0.55f);
  // A double controller reads its config itself.
  Controller d;
  ASSERT_EQ(d.configure(config), Status::kOk);
  EXPECT_EQ(&d.settings(), &d.config());
}

TEST(FeedbackLinearization, FloatMatchesDouble) {
  Controller c = configured_controller();
  control::FeedbackLinearization<AerialManipulatorRobot, float> f;
  ASSERT_EQ(f.configure(control::FeedbackLinearizationConfig{}), Status::kOk);
  Rng rng(14);
  const Controller::Measurement m = moving_measurement(rng);
  Controller::Reference r = matching_reference(c, m, Vector3<double>(0.1, 0.2, 0.3),
                                               Vector3<double>::Zero(), JointVector::Zero());
  r.position[0].x() += 0.01;
  control::FeedbackLinearization<AerialManipulatorRobot, float>::Measurement mf;
  mf.time = m.time;
  mf.base_pose =
      Pose<float>{m.base_pose.rotation.cast<float>(), m.base_pose.translation.cast<float>()};
  mf.base_twist = m.base_twist.cast<float>();
  mf.q = m.q.cast<float>();
  mf.q_dot = m.q_dot.cast<float>();
  mf.motor_position = m.motor_position.cast<float>();
  mf.motor_velocity = m.motor_velocity.cast<float>();
  mf.rotor_speed = m.rotor_speed.cast<float>();
  // The float rotation is re-orthonormalised to float precision.
  mf.base_pose.rotation = Eigen::Quaternionf(mf.base_pose.rotation).normalized().toRotationMatrix();
  control::FeedbackLinearization<AerialManipulatorRobot, float>::Reference rf;
  for (int k = 0; k < 5; ++k) {
    rf.position[k] = r.position[k].cast<float>();
    rf.joints[k] = r.joints[k].cast<float>();
  }
  for (int k = 0; k < 4; ++k) rf.angular_velocity[k] = r.angular_velocity[k].cast<float>();
  rf.orientation = mf.base_pose.rotation;
  Controller::Output out;
  control::FeedbackLinearization<AerialManipulatorRobot, float>::Output outf;
  ASSERT_EQ(c.update(m, r, out), Status::kOk);
  ASSERT_EQ(f.update(mf, rf, outf), Status::kOk);
  EXPECT_LT((outf.rotor_speed.cast<double>() - out.rotor_speed).cwiseAbs().maxCoeff(), 0.5);
  EXPECT_LT((outf.motor_torque.cast<double>() - out.motor_torque).cwiseAbs().maxCoeff(), 2e-3);
}

}  // namespace
