// Safe behaviour of the feedback-linearization controller on bad input: every
// case gives its Status and a finite command within the limits, and the
// controller recovers when good data returns.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "controller_fixture.hpp"

namespace {

using namespace hodyn;
using namespace hodyn::test;
using control::CommandMode;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kDt = 1e-3;

struct Hover {
  Controller c;
  Controller::Measurement m;
  Controller::Reference r;
  Controller::Output out;
  int step = 0;
  Hover() {
    EXPECT_EQ(c.configure(control::FeedbackLinearizationConfig{}), Status::kOk);
    JointVector q;
    q << 0.2, 0.1, 0.0, -0.2, -0.1, 0.0;
    m = equilibrium_measurement(c, Vector3<double>(0, 0, 1), q);
    r = hold_reference(m);
  }
  Status tick(const Controller::Measurement& meas) {
    Controller::Measurement timed = meas;
    timed.time = kDt * ++step;
    return c.update(timed, r, out);
  }
  Status tick() { return tick(m); }
};

void expect_safe(const Controller& c, const Controller::Output& out) {
  EXPECT_TRUE(out.rotor_speed.allFinite());
  EXPECT_TRUE(out.motor_torque.allFinite());
  const auto& robot = c.robot();
  for (int i = 0; i < 6; ++i) {
    EXPECT_GE(out.rotor_speed(i), robot.rotors[i].min_speed);
    EXPECT_LE(out.rotor_speed(i), robot.rotors[i].max_speed);
    EXPECT_LE(std::abs(out.motor_torque(i)), robot.actuator(i).torque_limit);
  }
}

TEST(ControllerSafety, NotConfiguredGivesTheDisarmedCommand) {
  Controller c;
  Controller::Output out;
  out.rotor_speed.setConstant(500.0);
  EXPECT_EQ(c.update(Controller::Measurement{}, Controller::Reference{}, out),
            Status::kNotConfigured);
  EXPECT_EQ(out.mode, CommandMode::kDisarmed);
  EXPECT_EQ(out.rotor_speed.norm(), 0.0);
  EXPECT_EQ(out.motor_torque.norm(), 0.0);
}

TEST(ControllerSafety, NonFiniteSensorsHoldThenHoverThenRecover) {
  Hover h;
  ASSERT_EQ(h.tick(), Status::kOk);
  const Controller::Output good = h.out;
  const double safe_torque = 0.5 * 5.0;
  Controller::Measurement bad = h.m;
  bad.q_dot(3) = kNaN;
  // Hold: last good rotor speeds, torques limited to the safe fraction.
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(h.tick(bad), Status::kNonFiniteInput);
    expect_safe(h.c, h.out);
    EXPECT_EQ(h.out.mode, CommandMode::kHold);
    EXPECT_EQ(h.out.rotor_speed, good.rotor_speed);
    EXPECT_LE(h.out.motor_torque.cwiseAbs().maxCoeff(), safe_torque);
  }
  // Beyond hold_timeout (0.1 s): hover speeds.
  ASSERT_EQ(h.tick(bad), Status::kNonFiniteInput);
  EXPECT_EQ(h.out.mode, CommandMode::kHover);
  EXPECT_EQ(h.out.rotor_speed, h.c.hover_speed());
  // Good data again: tracking resumes at once from the measured propellers.
  ASSERT_EQ(h.tick(), Status::kOk);
  EXPECT_EQ(h.out.mode, CommandMode::kTracking);
  EXPECT_LT((h.out.rotor_speed - h.m.rotor_speed).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(ControllerSafety, EveryNonFiniteFieldIsCaught) {
  for (int field = 0; field < 8; ++field) {
    Hover h;
    ASSERT_EQ(h.tick(), Status::kOk);
    Controller::Measurement bad = h.m;
    switch (field) {
      case 0:
        bad.base_pose.translation.x() = kNaN;
        break;
      case 1:
        bad.base_pose.rotation(1, 1) = std::numeric_limits<double>::infinity();
        break;
      case 2:
        bad.base_twist(4) = kNaN;
        break;
      case 3:
        bad.q(0) = kNaN;
        break;
      case 4:
        bad.motor_position(5) = -std::numeric_limits<double>::infinity();
        break;
      case 5:
        bad.motor_velocity(1) = kNaN;
        break;
      case 6:
        bad.rotor_speed(2) = kNaN;
        break;
      default:
        bad.time = kNaN;
        break;
    }
    const Status s = field == 7 ? h.c.update(bad, h.r, h.out) : h.tick(bad);
    EXPECT_EQ(s, Status::kNonFiniteInput) << "field " << field;
    expect_safe(h.c, h.out);
    EXPECT_EQ(h.out.mode, CommandMode::kHold);
  }
}

TEST(ControllerSafety, OutOfRangeSensorsAreRejected) {
  for (int field = 0; field < 5; ++field) {
    Hover h;
    ASSERT_EQ(h.tick(), Status::kOk);
    Controller::Measurement bad = h.m;
    switch (field) {
      case 0:
        bad.q(1) = 4.0;
        break;  // beyond the joint limit
      case 1:
        bad.motor_position(2) = bad.q(2) + 0.8;
        break;  // impossible deflection
      case 2:
        bad.rotor_speed(0) = -10.0;
        break;
      case 3:
        bad.base_twist(0) = 50.0;
        break;  // 50 rad/s
      default:
        bad.q_dot(4) = 100.0;
        break;
    }
    EXPECT_EQ(h.tick(bad), Status::kSensorOutOfRange) << "field " << field;
    expect_safe(h.c, h.out);
  }
  Hover h;
  Controller::Measurement scaled = h.m;
  scaled.base_pose.rotation *= 1.1;
  EXPECT_EQ(h.tick(scaled), Status::kNonOrthonormalRotation);
  expect_safe(h.c, h.out);
  EXPECT_EQ(h.out.mode, CommandMode::kHover);  // no good command yet: hover
}

TEST(ControllerSafety, StaleFramesAreRejected) {
  Hover h;
  Controller::Measurement m = h.m;
  m.time = 1.0;
  Controller::Output out;
  ASSERT_EQ(h.c.update(m, h.r, out), Status::kOk);
  EXPECT_EQ(h.c.update(m, h.r, out), Status::kStaleInput);  // same time stamp again
  EXPECT_EQ(out.mode, CommandMode::kHold);
  m.time = 0.5;
  EXPECT_EQ(h.c.update(m, h.r, out), Status::kStaleInput);  // older
  m.time = 1.001;
  EXPECT_EQ(h.c.update(m, h.r, out), Status::kOk);
}

// The float controller's time tests in integers (check_measurement) answer
// as the FPU does: isfinite for every kind of double, and a <= b for every
// pair of non-NaN doubles (±0, subnormals, ±inf, ±1e300, random patterns).
TEST(ControllerSafety, TimeTestsInIntegersAreTheFpus) {
  std::vector<double> v = {0.0,
                           -0.0,
                           1e-3,
                           -1e-3,
                           1.0,
                           -1.0,
                           1e300,
                           -1e300,
                           0.5,
                           1.001,
                           1.0005,
                           4.9e-324,
                           -4.9e-324,
                           2.2250738585072014e-308,
                           -2.2250738585072014e-308,
                           1.7976931348623157e308,
                           -1.7976931348623157e308,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int k = 0; k < 300; ++k) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double d = 0.0;
    std::memcpy(&d, &x, sizeof d);
    v.push_back(d);  // NaNs among them
  }
  for (double a : v) {
    EXPECT_EQ(control::detail_fl::finite_time_bits(a), std::isfinite(a)) << a;
    if (std::isnan(a)) continue;
    for (double b : v) {
      if (std::isnan(b)) continue;
      EXPECT_EQ(
          control::detail_fl::ordered_time_bits(a) <= control::detail_fl::ordered_time_bits(b),
          a <= b)
          << a << " <= " << b;
    }
  }
  EXPECT_FALSE(control::detail_fl::finite_time_bits(kNaN));
}

TEST(ControllerSafety, BadReferenceIsRejected) {
  Hover h;
  ASSERT_EQ(h.tick(), Status::kOk);
  h.r.joints[4](0) = kNaN;
  EXPECT_EQ(h.tick(), Status::kNonFiniteInput);
  expect_safe(h.c, h.out);
  h.r = hold_reference(h.m);
  h.r.orientation(0, 0) = 2.0;
  EXPECT_EQ(h.tick(), Status::kNonOrthonormalRotation);
  h.r = hold_reference(h.m);
  EXPECT_EQ(h.tick(), Status::kOk);
}

TEST(ControllerSafety, ReferenceJumpIsReportedAndItsErrorClamped) {
  Hover h;
  ASSERT_EQ(h.tick(), Status::kOk);
  h.r.position[0] += Vector3<double>(3.0, 0.0, 0.0);  // 3 m in one step
  EXPECT_EQ(h.tick(), Status::kReferenceJump);
  expect_safe(h.c, h.out);
  EXPECT_NEAR(h.c.diagnostics().position_error.norm(), h.c.config().max_position_error, 1e-12);
  // Same reference again: no longer a jump, still clamped, the command bounded.
  const Status next = h.tick();
  EXPECT_TRUE(next == Status::kOk || next == Status::kActuatorSaturated) << to_string(next);
  expect_safe(h.c, h.out);
  // A joint reference jump.
  h.r.joints[0](4) += 1.0;
  EXPECT_EQ(h.tick(), Status::kReferenceJump);
  EXPECT_NEAR(std::abs(h.c.diagnostics().joint_error(4)), h.c.config().max_joint_error, 1e-12);
}

// Anti-windup of the error clamps: an error beyond its clamp is not
// integrated (the clamped value is no measure of a steady offset; integrated
// over a long approach it overshot on arrival, docs/controller.md), one
// within it is. The plant stands still, so after n steps each integral is
// n·Δt·e exactly when integrated, and 0 when not.
TEST(ControllerSafety, AClampedErrorIsNotIntegrated) {
  control::FeedbackLinearizationConfig config;
  config.max_position_error = 0.01;
  config.max_attitude_error = 0.01;
  config.max_joint_error = 0.01;
  const int n = 10;
  for (const double offset : {0.005, 0.02}) {  // within the clamps, beyond them
    SCOPED_TRACE(offset);
    Hover h;
    ASSERT_EQ(h.c.configure(config), Status::kOk);
    h.r.position[0] += Vector3<double>(offset, 0.0, 0.0);
    h.r.orientation =
        Eigen::AngleAxisd(offset, Vector3<double>::UnitZ()).toRotationMatrix() * h.r.orientation;
    h.r.joints[0](1) += offset;  // joint 1 only; the others on their reference
    for (int k = 0; k < n; ++k) ASSERT_EQ(h.tick(), Status::kOk);  // no limit active
    const bool within = offset < 0.01;
    const double expected = within ? n * kDt * offset : 0.0;
    EXPECT_NEAR(h.c.position_integral().x(), expected, 1e-15);
    EXPECT_NEAR(h.c.position_integral().tail<2>().norm(), 0.0, 1e-15);
    EXPECT_NEAR(h.c.attitude_integral().z(), expected, 1e-12);
    EXPECT_NEAR(h.c.attitude_integral().head<2>().norm(), 0.0, 1e-12);
    EXPECT_NEAR(h.c.joint_integral()(1), expected, 1e-15);
    EXPECT_NEAR(h.c.joint_integral()(0), 0.0, 1e-15);
    // The clamped errors still drive the law: the diagnostics show them.
    EXPECT_NEAR(h.c.diagnostics().position_error.x(), within ? offset : 0.01, 1e-12);
    EXPECT_NEAR(std::abs(h.c.diagnostics().joint_error(1)), within ? offset : 0.01, 1e-12);
  }
}

TEST(ControllerSafety, SaturatedMotorsAreLimitedAndReported) {
  Hover h;
  ASSERT_EQ(h.tick(), Status::kOk);
  h.r.joints[4].setConstant(1.0e8);  // an absurd joint snap
  EXPECT_EQ(h.tick(), Status::kActuatorSaturated);
  EXPECT_EQ(h.out.mode, CommandMode::kSaturated);
  expect_safe(h.c, h.out);
  EXPECT_TRUE(h.c.diagnostics().motors_saturated);
  // An absurd base snap saturates the propellers; the command stays in range.
  h.r = hold_reference(h.m);
  h.r.position[4] = Vector3<double>(0.0, 0.0, 1.0e6);
  Status s = Status::kOk;
  for (int i = 0; i < 20; ++i) s = h.tick();
  EXPECT_EQ(s, Status::kActuatorSaturated);
  EXPECT_TRUE(h.c.diagnostics().rotors_saturated);
  expect_safe(h.c, h.out);
}

TEST(ControllerSafety, SingularAllocationIsRejectedAndTheOldConfigurationKept) {
  Hover h;
  // The literal eq. 28 (equal tilts and drags): rank 3.
  TiltHexParameters literal_geometry;
  literal_geometry.alternate_tilt = false;
  literal_geometry.alternate_drag = false;
  Controller::Description literal = h.c.robot();
  literal.rotors = tilthex_rotor_set<double>(literal_geometry);
  const control::FeedbackLinearizationConfig cfg;
  EXPECT_EQ(h.c.configure(literal, cfg), Status::kSingularAllocation);
  EXPECT_TRUE(h.c.configured());
  EXPECT_EQ(h.c.allocation().matrix(), tilthex_allocation<double>());
  EXPECT_EQ(h.tick(), Status::kOk);
  // A fresh controller given only the singular geometry stays disarmed.
  Controller fresh;
  EXPECT_EQ(fresh.configure(literal, cfg), Status::kSingularAllocation);
  Controller::Output out;
  EXPECT_EQ(fresh.update(h.m, h.r, out), Status::kNotConfigured);
  EXPECT_EQ(out.mode, CommandMode::kDisarmed);
}

TEST(ControllerSafety, InvalidConfigurationsAreRejected) {
  Controller c;
  Controller::Description robot;
  ASSERT_EQ(AerialManipulatorRobot::describe(robot), Status::kOk);
  control::FeedbackLinearizationConfig cfg;
  cfg.rate_hz = 100.0;
  EXPECT_EQ(c.configure(robot, cfg), Status::kInvalidArgument);
  cfg = {};
  cfg.joint_limit_margin = -1.0;
  EXPECT_EQ(c.configure(robot, cfg), Status::kInvalidArgument);
  cfg = {};
  Controller::Description bad = robot;
  bad.actuators[2].stiffness = 0.0;
  EXPECT_EQ(c.configure(bad, cfg), Status::kInvalidModel);
  bad = robot;
  bad.limits[1].velocity = 0.0;
  EXPECT_EQ(c.configure(bad, cfg), Status::kInvalidModel);
  bad = robot;
  bad.rotors[3].thrust_coefficient = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(c.configure(bad, cfg), Status::kOk);
  cfg.position.k0 = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(c.configure(robot, cfg), Status::kInvalidArgument);
  EXPECT_FALSE(c.configured());
}

}  // namespace
