// Sensor frames with noise and delay (hodyn/simulator/sensor_model.hpp).
#include "hodyn/simulator/sensor_model.hpp"

#include <cmath>

#include <Eigen/Geometry>

#include "hodyn/simulator/se3_exponential.hpp"

namespace hodyn::sim {

namespace {

constexpr double kDegree = 3.14159265358979323846 / 180.0;

void write_quaternion(const Matrix3<double>& rotation, double (&out)[4]) {
  Eigen::Quaterniond quat(rotation);
  if (quat.w() < 0.0) quat.coeffs() = -quat.coeffs();
  out[0] = quat.w();
  out[1] = quat.x();
  out[2] = quat.y();
  out[3] = quat.z();
}

template <int N>
void add_noise(double (&values)[N], int count, double sigma, GaussianNoise& noise) {
  for (int i = 0; i < count; ++i) values[i] += noise.normal(sigma);
}

}  // namespace

SensorNoise SensorNoise::realistic() {
  SensorNoise n;
  n.position = 0.5e-3;
  n.attitude = 0.1 * kDegree;
  n.linear_velocity = 5e-3;
  n.angular_velocity = 5e-3;
  // Elastic joints are controlled through their deflection θ − q, so both
  // sides carry high-resolution absolute encoders (19-bit class: 1.2e-5 rad
  // per count); velocities are differentiated and filtered.
  n.joint_position = 2e-5;
  n.joint_velocity = 2e-3;
  n.motor_position = 2e-5;
  n.motor_velocity = 2e-3;
  n.rotor_speed = 5.0;
  return n;
}

hodyn_sensors base_sensor_frame(double time, const Pose<double>& base_pose,
                                const Twist<double>& base_twist) {
  hodyn_sensors f{};
  f.time = time;
  f.sequence = 0;
  const Matrix3<double>& r = base_pose.rotation;
  const Vector3<double>& p = base_pose.translation;
  const Vector3<double> w = angular(base_twist);
  const Vector3<double> p_dot = linear(base_twist) + w.cross(p);  // ṗ = v + ω × p
  const Vector3<double> w_base = r.transpose() * w;
  for (int i = 0; i < 3; ++i) {
    f.base_position[i] = p(i);
    f.base_linear_velocity[i] = p_dot(i);
    f.base_angular_velocity[i] = w_base(i);
  }
  write_quaternion(r, f.base_orientation);
  return f;
}

SensorModel::SensorModel() { reset(); }

Status SensorModel::configure(const SensorModelParameters& params) {
  const SensorNoise& n = params.noise;
  const double sigmas[] = {n.position,         n.attitude,       n.linear_velocity,
                           n.angular_velocity, n.joint_position, n.joint_velocity,
                           n.motor_position,   n.motor_velocity, n.rotor_speed};
  for (double s : sigmas) {
    if (!std::isfinite(s)) return Status::kNonFiniteInput;
    if (s < 0.0) return Status::kInvalidArgument;
  }
  if (!std::isfinite(params.sample_period) || !std::isfinite(params.delay))
    return Status::kNonFiniteInput;
  if (!(params.sample_period > 0.0) || params.delay < 0.0) return Status::kInvalidArgument;
  const double frames = std::round(params.delay / params.sample_period);
  if (frames > kMaxDelayFrames) return Status::kInvalidArgument;
  params_ = params;
  reset();
  return Status::kOk;
}

void SensorModel::reset() {
  const int frames = static_cast<int>(std::round(params_.delay / params_.sample_period));
  delay_.reset(frames);
  noise_.seed(params_.seed);
  sequence_ = 0;
}

const hodyn_sensors& SensorModel::add_noise_and_delay(hodyn_sensors f,
                                                      const Matrix3<double>& rotation) {
  f.sequence = sequence_++;
  const SensorNoise& n = params_.noise;
  add_noise(f.base_position, 3, n.position, noise_);
  if (n.attitude > 0.0) {
    // R exp([δ]), δ ~ N(0, σ² I₃) in the base frame.
    const Vector3<double> delta(noise_.normal(n.attitude), noise_.normal(n.attitude),
                                noise_.normal(n.attitude));
    write_quaternion(rotation * so3_exponential(delta), f.base_orientation);
  }
  add_noise(f.base_linear_velocity, 3, n.linear_velocity, noise_);
  add_noise(f.base_angular_velocity, 3, n.angular_velocity, noise_);
  const int nj = static_cast<int>(f.num_joints);
  const int nr = static_cast<int>(f.num_rotors);
  add_noise(f.joint_position, nj, n.joint_position, noise_);
  add_noise(f.joint_velocity, nj, n.joint_velocity, noise_);
  add_noise(f.motor_position, nj, n.motor_position, noise_);
  add_noise(f.motor_velocity, nj, n.motor_velocity, noise_);
  add_noise(f.rotor_speed, nr, n.rotor_speed, noise_);
  return delay_.push(f);
}

}  // namespace hodyn::sim
