// A reference carried forward along its derivatives between REFERENCE frames
// (hodyn/link/reference_extrapolation.hpp, docs/hil.md "Reference rate"):
// exact for quartic positions and joints (checked against the polynomial's
// own derivatives, written out here), the orientation against a fine RK4
// integration of q' = ½ (0, ω) ⊗ q with the world angular velocity; and the
// ControllerHost uses it for sensor times without their own reference,
// within its horizon only.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hodyn/link/controller_host.hpp"
#include "hodyn/link/link.hpp"
#include "hodyn/plugin/c_adapter.hpp"

namespace hodyn {
namespace {

// p(t) = Σ a_m t^m, m = 0..4, and its derivatives 0..4 at t.
struct Quartic {
  double a[5];
  double derivative(int k, double t) const {
    double sum = 0.0;
    for (int m = k; m <= 4; ++m) {
      double falling = 1.0;  // m (m-1) ... (m-k+1)
      for (int i = 0; i < k; ++i) falling *= m - i;
      sum += a[m] * falling * std::pow(t, m - k);
    }
    return sum;
  }
};

Quartic quartic(int seed) {
  Quartic q{};
  for (int m = 0; m <= 4; ++m) q.a[m] = 0.3 * std::sin(1.7 * seed + 2.3 * m) + 0.1 * m;
  return q;
}

struct Quaternion {
  double w, x, y, z;
};
Quaternion multiply(const Quaternion& a, const Quaternion& b) {
  return {
      a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
      a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

// ω(s) = Σ_k w[k] s^k / k! (world frame).
void omega_at(const double w[4][3], double s, double out[3]) {
  for (int j = 0; j < 3; ++j)
    out[j] = w[0][j] + w[1][j] * s + w[2][j] * s * s / 2.0 + w[3][j] * s * s * s / 6.0;
}

// q' = ½ (0, ω) ⊗ q, RK4 with `steps` steps over [0, tau].
Quaternion integrate(Quaternion q, const double w[4][3], double tau, int steps) {
  const double h = tau / steps;
  const auto derivative = [&](const Quaternion& p, double s) {
    double om[3];
    omega_at(w, s, om);
    const Quaternion d = multiply({0.0, om[0], om[1], om[2]}, p);
    return Quaternion{0.5 * d.w, 0.5 * d.x, 0.5 * d.y, 0.5 * d.z};
  };
  const auto plus = [](const Quaternion& p, const Quaternion& d, double f) {
    return Quaternion{p.w + f * d.w, p.x + f * d.x, p.y + f * d.y, p.z + f * d.z};
  };
  for (int i = 0; i < steps; ++i) {
    const double s = i * h;
    const Quaternion k1 = derivative(q, s);
    const Quaternion k2 = derivative(plus(q, k1, h / 2), s + h / 2);
    const Quaternion k3 = derivative(plus(q, k2, h / 2), s + h / 2);
    const Quaternion k4 = derivative(plus(q, k3, h), s + h);
    q = {q.w + h / 6 * (k1.w + 2 * k2.w + 2 * k3.w + k4.w),
         q.x + h / 6 * (k1.x + 2 * k2.x + 2 * k3.x + k4.x),
         q.y + h / 6 * (k1.y + 2 * k2.y + 2 * k3.y + k4.y),
         q.z + h / 6 * (k1.z + 2 * k2.z + 2 * k3.z + k4.z)};
  }
  const double n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {q.w / n, q.x / n, q.y / n, q.z / n};
}

// Angle (rad) between two unit quaternions.
// The rotation angle of a⁻¹ b, 2 atan2(|vector part|, |scalar part|) of
// conj(a) ⊗ b: well conditioned at small angles and blind to |b| ≠ 1. (An
// acos of the dot product turned a float-rounded norm, 1 − 1.8e-8, into an
// "angle" of 4e-4 rad on aarch64, and passed on x86-64 only because there
// the norm happened to round above 1.)
double angle_between(const Quaternion& a, const double b[4]) {
  const Quaternion r = multiply({a.w, -a.x, -a.y, -a.z}, {b[0], b[1], b[2], b[3]});
  return 2.0 * std::atan2(std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z), std::fabs(r.w));
}

// A reference at t0 whose positions and joints are the quartics of
// `position`/`joint`, orientation q0 and angular velocity derivatives w.
hodyn_reference reference_at(double t0, const Quartic (&position)[3], const Quartic* joint,
                             std::uint32_t joints, const double q0[4], const double w[4][3]) {
  hodyn_reference r{};
  r.time = t0;
  r.num_joints = joints;
  for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
    for (int j = 0; j < 3; ++j) r.base_position[k][j] = position[j].derivative(k, t0);
    for (std::uint32_t j = 0; j < joints; ++j) r.joint_position[k][j] = joint[j].derivative(k, t0);
  }
  for (int j = 0; j < 4; ++j) r.base_orientation[j] = q0[j];
  for (int k = 0; k < HODYN_REFERENCE_ORDER; ++k)
    for (int j = 0; j < 3; ++j) r.base_angular_velocity[k][j] = w[k][j];
  return r;
}

const double kQ0[4] = {0.9, 0.1, -0.3, 0.2};  // normalized below

TEST(ReferenceExtrapolation, QuarticPositionsAndJointsAreExactWithEveryDerivative) {
  const Quartic position[3] = {quartic(1), quartic(2), quartic(3)};
  Quartic joint[HODYN_MAX_JOINTS];
  for (int j = 0; j < HODYN_MAX_JOINTS; ++j) joint[j] = quartic(10 + j);
  const double w[4][3] = {};
  const double n = std::sqrt(0.81 + 0.01 + 0.09 + 0.04);
  const double q0[4] = {kQ0[0] / n, kQ0[1] / n, kQ0[2] / n, kQ0[3] / n};
  const std::uint32_t joints = 6;
  const hodyn_reference from = reference_at(0.37, position, joint, joints, q0, w);
  for (double tau : {0.0, 0.001, 0.009, 0.05, -0.004}) {
    hodyn_reference to{};
    link::extrapolate_reference(from, 0.37 + tau, to);
    EXPECT_EQ(to.time, 0.37 + tau);
    EXPECT_EQ(to.num_joints, joints);
    for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
      for (int j = 0; j < 3; ++j)
        EXPECT_NEAR(to.base_position[k][j], position[j].derivative(k, 0.37 + tau), 1e-12)
            << "tau " << tau << " order " << k << " axis " << j;
      for (std::uint32_t j = 0; j < joints; ++j)
        EXPECT_NEAR(to.joint_position[k][j], joint[j].derivative(k, 0.37 + tau), 1e-12)
            << "tau " << tau << " order " << k << " joint " << j;
      // Joints past the count are copied, not moved.
      for (std::uint32_t j = joints; j < HODYN_MAX_JOINTS; ++j)
        EXPECT_EQ(to.joint_position[k][j], from.joint_position[k][j]);
    }
    // No angular velocity: the orientation stays.
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(to.base_orientation[j], q0[j], 1e-15);
  }
}

TEST(ReferenceExtrapolation, AngularVelocityDerivativesAreShifted) {
  const double w[4][3] = {{0.4, -0.2, 0.9}, {1.5, 0.3, -0.7}, {-2.0, 4.0, 1.0}, {8.0, -3.0, 5.0}};
  const Quartic position[3] = {};
  const hodyn_reference from = reference_at(1.0, position, nullptr, 0, kQ0, w);
  const double tau = 0.008;
  hodyn_reference to{};
  link::extrapolate_reference(from, 1.0 + tau, to);
  // ω^(k)(τ) = Σ_{m ≥ k} w[m] τ^(m-k) / (m-k)!, written out.
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(to.base_angular_velocity[0][j],
                w[0][j] + w[1][j] * tau + w[2][j] * tau * tau / 2 + w[3][j] * tau * tau * tau / 6,
                1e-14);
    EXPECT_NEAR(to.base_angular_velocity[1][j], w[1][j] + w[2][j] * tau + w[3][j] * tau * tau / 2,
                1e-14);
    EXPECT_NEAR(to.base_angular_velocity[2][j], w[2][j] + w[3][j] * tau, 1e-14);
    EXPECT_EQ(to.base_angular_velocity[3][j], w[3][j]);
  }
}

TEST(ReferenceExtrapolation, OrientationFollowsTheIntegratedWorldAngularVelocity) {
  const double n = std::sqrt(0.81 + 0.01 + 0.09 + 0.04);
  const double q0[4] = {kQ0[0] / n, kQ0[1] / n, kQ0[2] / n, kQ0[3] / n};
  const Quartic position[3] = {};
  // A tumbling reference: ω and ω' not parallel (the second Magnus term,
  // τ³/12 |ω0 × ω1| = 1.4e-7 rad at τ = 10 ms, matters at this tolerance).
  const double w[4][3] = {{1.0, -0.5, 0.8}, {2.0, 1.5, -1.0}, {-3.0, 2.0, 4.0}, {5.0, -6.0, 2.0}};
  const hodyn_reference from = reference_at(2.0, position, nullptr, 0, q0, w);
  for (double tau : {0.001, 0.005, 0.01}) {
    hodyn_reference to{};
    link::extrapolate_reference(from, 2.0 + tau, to);
    const Quaternion truth = integrate({q0[0], q0[1], q0[2], q0[3]}, w, tau, 2000);
    EXPECT_LT(angle_between(truth, to.base_orientation), 2e-9) << "tau " << tau;
    const double norm = std::sqrt(to.base_orientation[0] * to.base_orientation[0] +
                                  to.base_orientation[1] * to.base_orientation[1] +
                                  to.base_orientation[2] * to.base_orientation[2] +
                                  to.base_orientation[3] * to.base_orientation[3]);
    EXPECT_NEAR(norm, 1.0, 1e-15);
  }
}

TEST(ReferenceExtrapolation, LargeAngleAboutAFixedAxisIsExact) {
  // 30 rad/s + 200 rad/s² about one axis for 20 ms: 0.64 rad (past the series).
  const double axis[3] = {0.6, 0.0, 0.8};
  double w[4][3] = {};
  for (int j = 0; j < 3; ++j) {
    w[0][j] = 30.0 * axis[j];
    w[1][j] = 200.0 * axis[j];
  }
  const double q0[4] = {1.0, 0.0, 0.0, 0.0};
  const Quartic position[3] = {};
  const hodyn_reference from = reference_at(0.0, position, nullptr, 0, q0, w);
  for (double tau : {0.005, 0.02}) {
    hodyn_reference to{};
    link::extrapolate_reference(from, tau, to);
    const double angle = 30.0 * tau + 100.0 * tau * tau;
    const Quaternion truth{std::cos(angle / 2), std::sin(angle / 2) * axis[0],
                           std::sin(angle / 2) * axis[1], std::sin(angle / 2) * axis[2]};
    EXPECT_LT(angle_between(truth, to.base_orientation), 1e-12) << "tau " << tau;
  }
}

TEST(ReferenceExtrapolation, FloatPathIsAccurateToFloatRoundoff) {
  // What a Cortex-M4F runs (all in float, stored as double): the double
  // path's checks with float roundoff as the bound, 3e-7 of the value (a
  // Taylor term left out is off by 4e-5 or more at 9 ms; the double path's
  // test checks the terms to 1e-12).
  const Quartic position[3] = {quartic(1), quartic(2), quartic(3)};
  Quartic joint[HODYN_MAX_JOINTS];
  for (int j = 0; j < HODYN_MAX_JOINTS; ++j) joint[j] = quartic(10 + j);
  const double n = std::sqrt(0.81 + 0.01 + 0.09 + 0.04);
  const double q0[4] = {kQ0[0] / n, kQ0[1] / n, kQ0[2] / n, kQ0[3] / n};
  const double w[4][3] = {{1.0, -0.5, 0.8}, {2.0, 1.5, -1.0}, {-3.0, 2.0, 4.0}, {5.0, -6.0, 2.0}};
  const hodyn_reference from = reference_at(0.37, position, joint, 6, q0, w);
  for (double tau : {0.001, 0.009, 0.02}) {
    hodyn_reference to{};
    link::detail::extrapolate_reference<float>(from, 0.37 + tau, to);
    EXPECT_EQ(to.time, 0.37 + tau);
    const auto near = [](double got, double truth) {
      return std::fabs(got - truth) <= 3e-7 * std::fmax(1.0, std::fabs(truth));
    };
    for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
      for (int j = 0; j < 3; ++j) {
        const double truth = position[j].derivative(k, 0.37 + tau);
        EXPECT_TRUE(near(to.base_position[k][j], truth))
            << "tau " << tau << " order " << k << ": " << to.base_position[k][j] << " vs " << truth;
      }
      for (int j = 0; j < 6; ++j) {
        const double truth = joint[j].derivative(k, 0.37 + tau);
        EXPECT_TRUE(near(to.joint_position[k][j], truth))
            << "tau " << tau << " order " << k << ": " << to.joint_position[k][j] << " vs "
            << truth;
      }
    }
    // Float roundoff of a unit quaternion: ~1e-7 rad (the second Magnus term
    // alone is 3e-7 rad at 10 ms, 2.4e-6 at 20 ms).
    const Quaternion truth = integrate({q0[0], q0[1], q0[2], q0[3]}, w, tau, 4000);
    EXPECT_LT(angle_between(truth, to.base_orientation), 3e-7) << "tau " << tau;
  }
}

// The host's ReferenceExtrapolator prepares a reference once and then writes
// only what moves: after any sequence of carries, sources changed (with
// forget()) or swapped, and a reference that is no rotation, its result is
// bit for bit that of extrapolate_reference() recomputed from scratch.
TEST(ReferenceExtrapolation, PreparedOnceEqualsRecomputedEveryTime) {
  const Quartic position[3] = {quartic(4), quartic(5), quartic(6)};
  Quartic joint[HODYN_MAX_JOINTS];
  for (int j = 0; j < HODYN_MAX_JOINTS; ++j) joint[j] = quartic(20 + j);
  const double n = std::sqrt(0.81 + 0.01 + 0.09 + 0.04);
  const double q0[4] = {kQ0[0] / n, kQ0[1] / n, kQ0[2] / n, kQ0[3] / n};
  const double w[4][3] = {{1.0, -0.5, 0.8}, {2.0, 1.5, -1.0}, {-3.0, 2.0, 4.0}, {5.0, -6.0, 2.0}};
  hodyn_reference a = reference_at(0.5, position, joint, 6, q0, w);
  hodyn_reference b = reference_at(0.7, position, joint, HODYN_MAX_JOINTS, q0, w);
  hodyn_reference not_rotation = reference_at(0.9, position, joint, 3, q0, w);
  for (double& v : not_rotation.base_orientation) v = 0.0;
  for (double& v : not_rotation.base_angular_velocity[0]) v = 0.0;
  // A rotation at τ = 0 and none later (the angle overflows to a NaN): the
  // carried orientation goes back to the received one.
  hodyn_reference overflowing = reference_at(1.0, position, joint, 6, q0, w);
  for (double& v : overflowing.base_angular_velocity[0]) v = 1e200;
  for (double& v : overflowing.base_orientation) v *= 2.0;  // carried: normalized, not as received
  hodyn_reference too_many = reference_at(1.1, position, joint, 2, q0, w);
  too_many.num_joints = HODYN_MAX_JOINTS + 1;

  link::ReferenceExtrapolator extrapolator;
  hodyn_reference to{}, other_to{};
  const auto check = [&](const hodyn_reference& from, double t, hodyn_reference& into) {
    extrapolator.carry(from, t, into);
    hodyn_reference expected{};
    link::extrapolate_reference(from, t, expected);
    EXPECT_EQ(std::memcmp(&into, &expected, sizeof expected), 0) << "t " << t;
  };
  for (int k = 1; k <= 9; ++k) check(a, 0.5 + 0.001 * k, to);
  check(b, 0.701, to);  // another source: prepared again
  check(a, 0.505, to);
  check(a, 0.505, other_to);  // another destination
  check(not_rotation, 0.91, to);
  check(a, 0.52, to);  // its orientation back after a reference that kept its own
  check(not_rotation, 0.92, to);
  check(overflowing, 1.0, to);
  check(overflowing, 1.001, to);
  EXPECT_EQ(
      std::memcmp(to.base_orientation, overflowing.base_orientation, sizeof to.base_orientation),
      0);
  check(too_many, 1.102, to);
  // The same object with new contents: forget() makes it start afresh.
  a = reference_at(0.6, position, joint, 4, q0, w);
  extrapolator.forget();
  for (int k = 1; k <= 3; ++k) check(a, 0.6 + 0.002 * k, to);
}

// A plugin that keeps the reference and sensor time of its last update.
class ReferenceRecorder final : public plugin::ControllerPlugin {
 public:
  static constexpr const char* kRobotName = "recorder";
  static constexpr std::uint32_t kRobotId = 0x77u;
  static constexpr int kNumJoints = 2;
  static constexpr int kNumRotors = 4;
  static hodyn_reference last;
  static int updates;
  Status configure(const plugin::Parameter*, std::size_t) noexcept override { return Status::kOk; }
  void reset() noexcept override {}
  Status update(const plugin::Sensors& sensors, const plugin::Reference& reference,
                plugin::Command& command) noexcept override {
    ++updates;
    last = reference;
    command = plugin::Command{};
    command.time = sensors.time;
    command.num_joints = 2;
    command.num_rotors = 4;
    command.mode = HODYN_MODE_TRACKING;
    return Status::kOk;
  }
  std::size_t parameter_count() const noexcept override { return 0; }
  Status parameter_info(std::size_t, plugin::ParameterInfo&) const noexcept override {
    return Status::kInvalidArgument;
  }
};
hodyn_reference ReferenceRecorder::last{};
int ReferenceRecorder::updates = 0;

class CaptureTransport final : public link::Transport {
 public:
  Status send(const std::uint8_t* data, std::size_t size) noexcept override {
    parser_.push(data, size);
    link::Message m{};
    while (parser_.next(m)) sent.push_back(m);
    return Status::kOk;
  }
  Status receive(std::uint8_t*, std::size_t, std::size_t& received,
                 std::int64_t) noexcept override {
    received = 0;
    return Status::kOk;
  }
  std::vector<link::Message> sent;

 private:
  link::FrameParser parser_;
};

using Host = link::ControllerHost<4096>;

void deliver(Host& host, const link::Message& m) {
  std::uint8_t wire[link::kMaxWireSize];
  std::size_t size = 0;
  ASSERT_EQ(link::encode(m, wire, sizeof wire, size), Status::kOk);
  host.receive_bytes(wire, size);
}

void sensors_at(Host& host, std::uint32_t sequence, double time) {
  link::Message m{};
  m.type = link::MessageType::kSensors;
  m.sensors.time = time;
  m.sensors.sequence = sequence;
  m.sensors.num_joints = 2;
  m.sensors.num_rotors = 4;
  deliver(host, m);
}

class HostReference : public ::testing::Test {
 protected:
  void SetUp() override {
    const plugin::RobotIdentity robot{"recorder", 0x77u, 2, 4};
    ASSERT_EQ(host.open(plugin::plugin_api<ReferenceRecorder>("recorder"), robot, 1000.0),
              Status::kOk);
    link::Message hello{};
    hello.type = link::MessageType::kHello;
    hello.hello = link::make_hello(robot, link::hello_role::kSimulator, Status::kOk);
    deliver(host, hello);
    ASSERT_EQ(host.handshake(), link::HandshakeState::kAgreed);
    for (int j = 0; j < 3; ++j) position[j] = quartic(20 + j);
    joint[0] = quartic(30);
    joint[1] = quartic(31);
    const double w[4][3] = {};
    link::Message ref{};
    ref.type = link::MessageType::kReference;
    ref.reference = reference_at(0.0, position, joint, 2, kIdentity, w);
    deliver(host, ref);
  }
  // The command of the last period().
  const link::Message& command() const { return t.sent.back(); }

  static constexpr double kIdentity[4] = {1.0, 0.0, 0.0, 0.0};
  CaptureTransport t;
  Host host{t, 20};
  Quartic position[3]{};
  Quartic joint[2]{};
};

TEST_F(HostReference, SensorTimesBetweenReferencesGetTheReferenceCarriedToThem) {
  // The reference of t = 0 only (as hodyn-sim --reference-every 10 sends it).
  for (std::uint32_t k = 0; k < 10; ++k) {
    const double time = 1e-3 * k;
    sensors_at(host, k, time);
    ASSERT_TRUE(host.period());
    ASSERT_EQ(command().type, link::MessageType::kCommand);
    EXPECT_EQ(command().status_bits & link::controller_status::kReferenceStale, 0u) << k;
    EXPECT_EQ(ReferenceRecorder::last.time, time);
    for (int j = 0; j < 3; ++j)
      EXPECT_NEAR(ReferenceRecorder::last.base_position[0][j], position[j].derivative(0, time),
                  1e-12);
    EXPECT_NEAR(ReferenceRecorder::last.joint_position[1][1], joint[1].derivative(1, time), 1e-12);
  }
  EXPECT_EQ(host.counters().reference_extrapolated, 9u);  // t = 0 had its own
  EXPECT_EQ(host.counters().reference_stale, 0u);
}

TEST_F(HostReference, BeyondTheHorizonTheOldReferenceIsStale) {
  const double horizon = Host::kDefaultReferenceHorizon;
  sensors_at(host, 0, horizon);  // at the horizon: carried forward
  ASSERT_TRUE(host.period());
  EXPECT_EQ(command().status_bits & link::controller_status::kReferenceStale, 0u);
  EXPECT_EQ(ReferenceRecorder::last.time, horizon);
  sensors_at(host, 1, horizon + 1e-3);  // past it: the reference of t = 0 as it is
  ASSERT_TRUE(host.period());
  EXPECT_NE(command().status_bits & link::controller_status::kReferenceStale, 0u);
  EXPECT_EQ(ReferenceRecorder::last.time, 0.0);
  EXPECT_EQ(ReferenceRecorder::last.base_position[0][0], position[0].derivative(0, 0.0));
  EXPECT_EQ(host.counters().reference_extrapolated, 1u);
  EXPECT_EQ(host.counters().reference_stale, 1u);
}

TEST_F(HostReference, HorizonZeroTurnsItOff) {
  host.set_reference_horizon(0.0);
  sensors_at(host, 0, 0.002);
  ASSERT_TRUE(host.period());
  EXPECT_NE(command().status_bits & link::controller_status::kReferenceStale, 0u);
  EXPECT_EQ(ReferenceRecorder::last.time, 0.0);
  EXPECT_EQ(host.counters().reference_extrapolated, 0u);
}

}  // namespace
}  // namespace hodyn
