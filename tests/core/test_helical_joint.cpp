// Helical joints (issue 19): the model's checks, and a screw driven against
// gravity whose dynamics are worked out by hand, so the expected values come
// from physics, not from the code. The Taylor oracles of every algorithm run
// on a tree with four helical joints in the oracle suites (HelicalTree in
// support/oracle_models.hpp).
//
// The hand case: a fixed root, one helical joint about the world z axis
// through the origin with pitch h (metres per radian), a body of mass m whose
// centre of mass sits at radius ρ from the axis and whose rotational inertia
// about its centre of mass has I_zz about the vertical. Turning by θ rotates
// the body about z and lifts it by h θ; nothing about the axis changes with θ,
// so the mass matrix is the constant J + m h² with J = I_zz + m ρ² (the
// rotation's inertia about the axis plus the lift's), there are no velocity
// terms, and gravity (0, 0, −g) asks for the holding torque m g h:
//   τ = (J + m h²) θ̈ + m g h,   τ^(k) = (J + m h²) θ^(k+2) for k ≥ 1.
#include <hodyn/hodyn.hpp>

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <limits>
#include <memory>

namespace {

using hodyn::JointKind;
using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using Vec3 = Eigen::Vector3d;

struct ScrewOnAPost {
  static constexpr int kNumBodies = 2;
  static constexpr std::array<int, 2> kParent{-1, 0};
  static constexpr std::array<JointKind, 2> kJoint{JointKind::kFixedBase, JointKind::kHelical};
};
static_assert(hodyn::is_valid_tree<ScrewOnAPost>());
static_assert(hodyn::is_helical(JointKind::kHelical) && hodyn::joint_rotates(JointKind::kHelical) &&
              hodyn::joint_translates(JointKind::kHelical));
static_assert(hodyn::aligned_axis(JointKind::kHelical) < 0);

constexpr double kMass = 1.5, kRadius = 0.2, kIzz = 0.03, kPitch = 0.05, kG = 9.81;

hodyn::Model<ScrewOnAPost, double> screw_model() {
  hodyn::Model<ScrewOnAPost, double> m;
  const auto post = SpatialInertia<double>::from_mass_com_inertia(
      2.0, Vec3::Zero(), Vec3(0.1, 0.1, 0.1).asDiagonal().toDenseMatrix());
  EXPECT_EQ(m.set_body(0, Pose<double>::identity(), post), Status::kOk);
  const auto nut = SpatialInertia<double>::from_mass_com_inertia(
      kMass, Vec3(kRadius, 0, 0), Vec3(0.02, 0.025, kIzz).asDiagonal().toDenseMatrix());
  EXPECT_EQ(m.set_body(1, Pose<double>::from_translation(Vec3(0, 0, 0.3)), nut), Status::kOk);
  EXPECT_EQ(m.set_helical_axis(1, Vec3(0, 0, 1), Vec3::Zero(), kPitch), Status::kOk);
  EXPECT_EQ(m.set_gravity(Vec3(0, 0, -kG)), Status::kOk);
  return m;
}

TEST(HelicalJoint, ModelTakesTheScrewAndItsPitch) {
  hodyn::Model<ScrewOnAPost, double> m;
  const Vec3 e = Vec3(1, -2, 2) / 3.0, a(0.1, 0.2, -0.3);
  ASSERT_EQ(m.set_helical_axis(1, e, a, -0.04), Status::kOk);
  Eigen::Matrix<double, 6, 1> y;
  y << e, a.cross(e) - 0.04 * e;
  EXPECT_LT((m.joint_screw(1) - y).norm(), 1e-16);
  EXPECT_NEAR(m.joint_pitch(1), -0.04, 1e-17);
  EXPECT_EQ(m.joint_sense(1), 1.0);
  // The axis point is the foot of the perpendicular from the origin: the
  // pitch does not move it.
  const Vec3 foot = a - a.dot(e) * e;
  EXPECT_LT((m.joint_axis_point(1) - foot).norm(), 1e-16);
  // A screw given directly: the pitch is e · v.
  ASSERT_EQ(m.set_joint_screw(1, y), Status::kOk);
  EXPECT_NEAR(m.joint_pitch(1), -0.04, 1e-16);
  // Bad input: not a unit axis, a non-finite pitch, the base, a body that is not there.
  EXPECT_EQ(m.set_helical_axis(1, Vec3(0, 0, 2), a, 0.1), Status::kInvalidModel);
  EXPECT_EQ(m.set_helical_axis(1, e, a, std::numeric_limits<double>::quiet_NaN()),
            Status::kInvalidModel);
  EXPECT_EQ(m.set_helical_axis(0, e, a, 0.1), Status::kInvalidArgument);
  EXPECT_EQ(m.set_helical_axis(2, e, a, 0.1), Status::kInvalidArgument);
  EXPECT_NEAR(m.joint_pitch(1), -0.04, 1e-16);  // a failed call changes nothing
  // A revolute joint refuses a pitch.
  hodyn::Model<hodyn::AerialManipulatorTree, double> am;
  EXPECT_EQ(am.set_helical_axis(1, Vec3(0, 0, 1), Vec3::Zero(), 0.1), Status::kInvalidModel);
}

TEST(HelicalJoint, InverseDynamicsIsTheScrewLiftedAgainstGravity) {
  const auto model = screw_model();
  constexpr int kOrder = 3;
  auto motion = std::make_unique<hodyn::MotionDerivatives<ScrewOnAPost, kOrder, double>>();
  auto data = std::make_unique<hodyn::InverseDynamicsData<ScrewOnAPost, kOrder, double>>();
  const double theta[kOrder + 3] = {0.7, -1.3, 2.1, 0.4, -3.0, 1.7};
  for (int k = 0; k < kOrder + 3; ++k) motion->q[static_cast<std::size_t>(k)](0) = theta[k];
  ASSERT_EQ(hodyn::inverse_dynamics(model, *data, *motion, kOrder), Status::kOk);
  const double inertia = kIzz + kMass * kRadius * kRadius + kMass * kPitch * kPitch;
  EXPECT_NEAR(data->joint_torque[0](0), inertia * theta[2] + kMass * kG * kPitch, 1e-13);
  for (int k = 1; k <= kOrder; ++k)
    EXPECT_NEAR(data->joint_torque[static_cast<std::size_t>(k)](0), inertia * theta[k + 2], 1e-12)
        << "order " << k;
  // Forward dynamics inverts it: θ̈ = (τ − m g h) / (J + m h²).
  auto in = std::make_unique<hodyn::ForwardDynamicsInput<ScrewOnAPost, 0, double>>();
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<ScrewOnAPost, 0, double>>();
  in->q(0) = theta[0];
  in->q_dot(0) = theta[1];
  in->joint_torque[0](0) = 0.9;
  ASSERT_EQ(hodyn::forward_dynamics(model, *fd, *in, 0), Status::kOk);
  EXPECT_NEAR(fd->motion.q[2](0), (0.9 - kMass * kG * kPitch) / inertia, 1e-13);
}

TEST(HelicalJoint, KinematicsTurnsAndLifts) {
  const auto model = screw_model();
  auto motion = std::make_unique<hodyn::MotionDerivatives<ScrewOnAPost, 1, double>>();
  auto kin = std::make_unique<hodyn::KinematicsData<ScrewOnAPost, 1, double>>();
  const double theta = 2.5, rate = -0.8;
  motion->q[0](0) = theta;
  motion->q[1](0) = rate;
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, 0), Status::kOk);
  // The nut's frame: turned by θ about z, lifted by h θ from its home height 0.3.
  const Pose<double>& c = kin->body_pose[1];
  EXPECT_NEAR(c.translation(2), 0.3 + kPitch * theta, 1e-15);
  EXPECT_NEAR(c.translation(0), 0.0, 1e-15);
  EXPECT_NEAR(c.rotation(0, 0), std::cos(theta), 1e-15);
  EXPECT_NEAR(c.rotation(1, 0), std::sin(theta), 1e-15);
  // Its twist (world frame, spatial): ω = θ̇ z; the velocity of the point at
  // the world origin (on the axis) is the lift h θ̇ z.
  const auto& v = kin->body_twist[1][0];
  EXPECT_NEAR(v(2), rate, 1e-15);
  EXPECT_NEAR(v(5), kPitch * rate, 1e-15);
  EXPECT_NEAR(v(0), 0.0, 1e-15);
  EXPECT_NEAR(v(3), 0.0, 1e-15);
}

}  // namespace
