// The sensor model: exact frames, delay, noise statistics, configuration errors.
#include <gtest/gtest.h>

#include <hodyn/logarithm.hpp>

#include <Eigen/Geometry>

#include <cmath>
#include <cstdio>
#include <limits>

#include "simulator/plant_fixtures.hpp"

namespace hodyn {
namespace {

using sim::PlantState;
using sim::SensorModel;
using sim::SensorModelParameters;
using sim::SensorNoise;

PlantState sample_state() {
  PlantState s;
  s.time = 1.25;
  s.base_pose = test::tilted_pose();
  s.base_twist << 0.3, -0.2, 0.5, 0.4, 0.1, -0.2;
  s.q = test::bent_arms();
  s.q_dot << 0.5, -0.4, 0.3, -0.6, 0.2, 0.1;
  s.motor_position = s.q + sim::Vector6d::Constant(0.01);
  s.motor_velocity = s.q_dot - sim::Vector6d::Constant(0.02);
  s.rotor_speed << 700, 710, 720, 730, 740, 750;
  return s;
}

Matrix3<double> rotation_of(const hodyn_sensors& f) {
  const Eigen::Quaterniond q(f.base_orientation[0], f.base_orientation[1], f.base_orientation[2],
                             f.base_orientation[3]);
  return q.toRotationMatrix();
}

TEST(SensorModel, ZeroNoiseGivesTheExactFrame) {
  SensorModel sensors;
  const PlantState s = sample_state();
  hodyn_sensors f{};
  ASSERT_EQ(sensors.measure(s, f), Status::kOk);
  EXPECT_EQ(f.time, 1.25);
  EXPECT_EQ(f.sequence, 0u);
  EXPECT_EQ(f.num_joints, 6u);
  EXPECT_EQ(f.num_rotors, 6u);
  const Matrix3<double>& r = s.base_pose.rotation;
  const Vector3<double>& p = s.base_pose.translation;
  const Vector3<double> w = angular(s.base_twist);
  // Quaternion round trip, w ≥ 0, unit norm.
  EXPECT_GE(f.base_orientation[0], 0.0);
  EXPECT_LT((rotation_of(f) - r).norm(), 1e-15);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(f.base_position[i], p(i));
  // ṗ = v + ω × p (world), checked by moving the pose along the spatial twist.
  const double dt = 1e-6;
  const Vector3<double> p_next =
      sim::se3_exponential(dt * s.base_twist).act(p);  // C(t+dt) = exp(dt V) C(t)
  const Vector3<double> p_dot(f.base_linear_velocity[0], f.base_linear_velocity[1],
                              f.base_linear_velocity[2]);
  EXPECT_LT((p_dot - (p_next - p) / dt).norm(), 1e-5);
  // Gyro: base-frame angular velocity Rᵀ ω.
  const Vector3<double> gyro(f.base_angular_velocity[0], f.base_angular_velocity[1],
                             f.base_angular_velocity[2]);
  EXPECT_LT((r * gyro - w).norm(), 1e-15);
  for (int j = 0; j < 6; ++j) {
    EXPECT_EQ(f.joint_position[j], s.q(j));
    EXPECT_EQ(f.joint_velocity[j], s.q_dot(j));
    EXPECT_EQ(f.motor_position[j], s.motor_position(j));
    EXPECT_EQ(f.motor_velocity[j], s.motor_velocity(j));
    EXPECT_EQ(f.rotor_speed[j], s.rotor_speed(j));
  }
  ASSERT_EQ(sensors.measure(s, f), Status::kOk);
  EXPECT_EQ(f.sequence, 1u);
}

TEST(SensorModel, DelayReturnsTheFrameFromNSamplesAgo) {
  SensorModel sensors;
  SensorModelParameters params;
  params.sample_period = 1e-3;
  params.delay = 5.2e-3;  // rounds to 5 frames
  ASSERT_EQ(sensors.configure(params), Status::kOk);
  EXPECT_EQ(sensors.delay_frames(), 5);
  PlantState s = sample_state();
  hodyn_sensors f{};
  for (int k = 0; k < 100; ++k) {
    s.time = k * 1e-3;
    s.q(0) = 0.01 * k;
    ASSERT_EQ(sensors.measure(s, f), Status::kOk);
    const int source = k < 5 ? 0 : k - 5;  // held at the first frame until filled
    EXPECT_EQ(f.sequence, static_cast<std::uint32_t>(source));
    EXPECT_DOUBLE_EQ(f.time, source * 1e-3);
    EXPECT_DOUBLE_EQ(f.joint_position[0], 0.01 * source);
  }
  params.delay = 64e-3;  // the capacity
  ASSERT_EQ(sensors.configure(params), Status::kOk);
  EXPECT_EQ(sensors.delay_frames(), 64);
  for (int k = 0; k < 200; ++k) {
    s.time = k * 1e-3;
    ASSERT_EQ(sensors.measure(s, f), Status::kOk);
    EXPECT_EQ(f.sequence, static_cast<std::uint32_t>(k < 64 ? 0 : k - 64));
  }
}

TEST(SensorModel, RejectsBadConfigurationsAndStates) {
  SensorModel sensors;
  SensorModelParameters params;
  params.delay = 65e-3;  // 65 frames > capacity
  EXPECT_EQ(sensors.configure(params), Status::kInvalidArgument);
  EXPECT_EQ(sensors.delay_frames(), 0);  // unchanged
  params = SensorModelParameters{};
  params.sample_period = 0.0;
  EXPECT_EQ(sensors.configure(params), Status::kInvalidArgument);
  params = SensorModelParameters{};
  params.noise.rotor_speed = -1.0;
  EXPECT_EQ(sensors.configure(params), Status::kInvalidArgument);
  params = SensorModelParameters{};
  params.delay = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(sensors.configure(params), Status::kNonFiniteInput);
  PlantState s = sample_state();
  s.rotor_speed(2) = std::numeric_limits<double>::infinity();
  hodyn_sensors f{};
  f.sequence = 77;
  EXPECT_EQ(sensors.measure(s, f), Status::kNonFiniteInput);
  EXPECT_EQ(f.sequence, 77u);  // untouched
}

/// Sample standard deviation of x_k − mean.
struct RunningStd {
  double sum = 0.0, sum_sq = 0.0;
  long n = 0;
  void add(double x) {
    sum += x;
    sum_sq += x * x;
    ++n;
  }
  double std() const {
    const double mean = sum / n;
    return std::sqrt((sum_sq - n * mean * mean) / (n - 1));
  }
};

TEST(SensorModel, NoiseHasTheConfiguredStatisticsAndIsSeeded) {
  SensorModelParameters params;
  params.noise = SensorNoise::realistic();
  params.seed = 42;
  SensorModel sensors;
  ASSERT_EQ(sensors.configure(params), Status::kOk);
  const PlantState s = sample_state();
  const hodyn_sensors exact = sim::exact_sensor_frame(s);
  RunningStd position, attitude, linear_velocity, gyro, joint, joint_rate, motor, motor_rate, rotor;
  hodyn_sensors f{};
  hodyn_sensors first{};
  constexpr int kSamples = 20000;
  for (int k = 0; k < kSamples; ++k) {
    ASSERT_EQ(sensors.measure(s, f), Status::kOk);
    if (k == 0) first = f;
    const Vector3<double> delta =
        so3_log(Matrix3<double>(s.base_pose.rotation.transpose() * rotation_of(f)));
    for (int i = 0; i < 3; ++i) {
      position.add(f.base_position[i] - exact.base_position[i]);
      attitude.add(delta(i));
      linear_velocity.add(f.base_linear_velocity[i] - exact.base_linear_velocity[i]);
      gyro.add(f.base_angular_velocity[i] - exact.base_angular_velocity[i]);
    }
    for (int j = 0; j < 6; ++j) {
      joint.add(f.joint_position[j] - exact.joint_position[j]);
      joint_rate.add(f.joint_velocity[j] - exact.joint_velocity[j]);
      motor.add(f.motor_position[j] - exact.motor_position[j]);
      motor_rate.add(f.motor_velocity[j] - exact.motor_velocity[j]);
      rotor.add(f.rotor_speed[j] - exact.rotor_speed[j]);
    }
  }
  const SensorNoise& n = params.noise;
  const struct {
    const char* name;
    double measured, configured;
  } rows[] = {{"position", position.std(), n.position},
              {"attitude", attitude.std(), n.attitude},
              {"linear_velocity", linear_velocity.std(), n.linear_velocity},
              {"angular_velocity", gyro.std(), n.angular_velocity},
              {"joint_position", joint.std(), n.joint_position},
              {"joint_velocity", joint_rate.std(), n.joint_velocity},
              {"motor_position", motor.std(), n.motor_position},
              {"motor_velocity", motor_rate.std(), n.motor_velocity},
              {"rotor_speed", rotor.std(), n.rotor_speed}};
  for (const auto& row : rows) {
    std::printf("%-17s sample std / configured = %.4f\n", row.name, row.measured / row.configured);
    EXPECT_NEAR(row.measured / row.configured, 1.0, 0.1) << row.name;
    EXPECT_NEAR(row.measured / row.configured, 1.0, 0.03) << row.name;  // 20000+ samples
  }
  // Same seed, same frames.
  ASSERT_EQ(sensors.configure(params), Status::kOk);
  hodyn_sensors again{};
  ASSERT_EQ(sensors.measure(s, again), Status::kOk);
  EXPECT_EQ(again.base_position[0], first.base_position[0]);
  EXPECT_EQ(again.rotor_speed[5], first.rotor_speed[5]);
  EXPECT_EQ(again.base_orientation[2], first.base_orientation[2]);
}

}  // namespace
}  // namespace hodyn
