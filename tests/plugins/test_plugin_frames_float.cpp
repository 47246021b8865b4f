// The plugin's frame conversion in the controller's scalar: a float
// controller rounds the ABI's doubles once and converts in float (no
// soft-float double on a Cortex-M4F). Checked against the double conversion
// (rotation_from_quaternion, spatial_twist), which the double controller
// keeps: the same rotation and twist to float precision, the same statuses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include <hodyn/control/feedback_linearization_plugin_impl.hpp>
#include <hodyn/models/aerial_manipulator_robot.hpp>
#include <hodyn/plugin/frames.hpp>

namespace {

using namespace hodyn;

double max_abs(const Eigen::MatrixXd& m) { return m.cwiseAbs().maxCoeff(); }

TEST(PluginFramesInScalar, RotationAgreesWithTheDoubleConversion) {
  std::mt19937 gen(11);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_real_distribution<double> scale(0.92, 1.08);
  double worst_float = 0.0, worst_double = 0.0, worst_orthonormal = 0.0;
  for (int i = 0; i < 500; ++i) {
    const Eigen::Vector4d v = Eigen::Vector4d(g(gen), g(gen), g(gen), g(gen)).normalized();
    const double s = scale(gen);
    const double q[4] = {s * v(0), s * v(1), s * v(2), s * v(3)};
    Matrix3<double> want, got_double;
    Matrix3<float> got_float;
    ASSERT_EQ(plugin::rotation_from_quaternion(q, want), Status::kOk);
    ASSERT_EQ(plugin::rotation_from_quaternion_in(q, got_double), Status::kOk);
    ASSERT_EQ(plugin::rotation_from_quaternion_in(q, got_float), Status::kOk);
    worst_double = std::max(worst_double, max_abs(got_double - want));
    worst_float = std::max(worst_float, max_abs(got_float.cast<double>() - want));
    const Matrix3<float> rtr = got_float.transpose() * got_float;
    worst_orthonormal =
        std::max(worst_orthonormal, max_abs((rtr - Matrix3<float>::Identity()).cast<double>()));
  }
  EXPECT_LT(worst_double, 4e-15);
  EXPECT_LT(worst_float, 2e-6);
  EXPECT_LT(worst_orthonormal, 4e-6);  // (measured 9.5e-7: 8 float ulps)
  EXPECT_GT(worst_float, 0.0);         // (it is float arithmetic)
}

TEST(PluginFramesInScalar, BadQuaternionsGetTheDoubleConversionsStatuses) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Matrix3<float> r;
  for (int e = 0; e < 4; ++e) {
    for (const double bad : {nan, inf, -inf}) {
      double q[4] = {1.0, 0.0, 0.0, 0.0};
      q[e] = bad;
      Matrix3<double> rd;
      EXPECT_EQ(plugin::rotation_from_quaternion(q, rd), Status::kNonFiniteInput);
      EXPECT_EQ(plugin::rotation_from_quaternion_in(q, r), Status::kNonFiniteInput);
    }
  }
  for (const double n : {0.0, 0.5, 0.89, 1.11, 2.0}) {
    const double q[4] = {0.0, n, 0.0, 0.0};
    Matrix3<double> rd;
    EXPECT_EQ(plugin::rotation_from_quaternion(q, rd), Status::kSensorOutOfRange) << n;
    EXPECT_EQ(plugin::rotation_from_quaternion_in(q, r), Status::kSensorOutOfRange) << n;
  }
  // Finite in double, beyond float: out of range (the double conversion's
  // norm is finite there too).
  const double huge[4] = {1e30, 0.0, 0.0, 0.0};
  EXPECT_EQ(plugin::rotation_from_quaternion_in(huge, r), Status::kSensorOutOfRange);
}

// The whole measurement: pose and spatial twist of a moving, turned base
// from the float conversion against the double one.
TEST(PluginFramesInScalar, MeasurementAgreesWithTheDoubleConversion) {
  using Robot = AerialManipulatorRobot;
  hodyn_sensors s{};
  s.time = 1.5;
  s.num_joints = 6;
  s.num_rotors = 6;
  const Eigen::Vector4d q = Eigen::Vector4d(0.9, 0.2, -0.3, 0.25).normalized();
  for (int i = 0; i < 4; ++i) s.base_orientation[i] = q(i);
  const double x[3] = {1.2, -0.7, 2.5}, v[3] = {0.4, -0.3, 0.2}, w[3] = {0.5, -0.8, 0.3};
  for (int i = 0; i < 3; ++i) {
    s.base_position[i] = x[i];
    s.base_linear_velocity[i] = v[i];
    s.base_angular_velocity[i] = w[i];
  }
  for (int j = 0; j < 6; ++j) {
    s.joint_position[j] = 0.1 * j;
    s.joint_velocity[j] = -0.05 * j;
    s.motor_position[j] = 0.1 * j + 0.01;
    s.motor_velocity[j] = 0.02;
    s.rotor_speed[j] = 600.0 + j;
  }
  control::FeedbackLinearization<Robot, double>::Measurement md;
  control::FeedbackLinearization<Robot, float>::Measurement mf;
  ASSERT_EQ((control::detail::measurement_from_sensors<Robot, double>(s, md)), Status::kOk);
  ASSERT_EQ((control::detail::measurement_from_sensors<Robot, float>(s, mf)), Status::kOk);
  // The double path is the definition: ω = R ω_b, v = ẋ − ω × x.
  const Matrix3<double> rd = md.base_pose.rotation;
  const Vector3<double> omega = rd * Vector3<double>(w[0], w[1], w[2]);
  EXPECT_LT(max_abs(angular(md.base_twist) - omega), 1e-14);
  EXPECT_LT(max_abs(linear(md.base_twist) - (Vector3<double>(v[0], v[1], v[2]) -
                                             omega.cross(Vector3<double>(x[0], x[1], x[2])))),
            1e-14);
  EXPECT_LT(max_abs(mf.base_pose.rotation.cast<double>() - rd), 1e-6);
  EXPECT_LT(max_abs(mf.base_pose.translation.cast<double>() - md.base_pose.translation), 1e-6);
  EXPECT_LT(max_abs(mf.base_twist.cast<double>() - md.base_twist), 1e-5);
  EXPECT_LT(max_abs(mf.q.cast<double>() - md.q), 1e-7);
  // A bad quaternion: the same status from both.
  s.base_orientation[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ((control::detail::measurement_from_sensors<Robot, float>(s, mf)),
            Status::kNonFiniteInput);
  EXPECT_EQ((control::detail::measurement_from_sensors<Robot, double>(s, md)),
            Status::kNonFiniteInput);
}

}  // namespace
