// The exciting reference of the identification scenario
// (identification_reference.hpp): the angular velocity against the rotation
// it claims to differentiate ([ω]× = Ṙ Rᵀ by central differences of R), every
// derivative against central differences of the order below (orders 1..5: the
// plugin's hodyn_reference reads up to 4, the plant's start 2), the twist's
// linear part against v = ẋ − ω × x, the shape (amplitudes bound every
// channel, distinct frequencies, the 12-DoF robot's numbers by hand), and
// the reference frame it fills.
#include <gtest/gtest.h>

#include <hodyn/closed_loop/identification_reference.hpp>

#include <cmath>

namespace {

using namespace hodyn;
using namespace hodyn::closed_loop;

constexpr double kPi = 3.14159265358979323846;
constexpr double kH = 1e-4;  // finite-difference step (s)
// Truncation h² f⁽ᵏ⁺²⁾/6 relative to f⁽ᵏ⁾: ≤ 1e-8 w² / 6 with the fastest
// sine's w = 2π 0.15 √61 = 7.4/s, about 1e-7; the tolerance is relative to
// the size of the order compared (a wrong derivative is off by its own size).
constexpr double kRelTol = 2e-6;
const double kTimes[] = {0.0, 0.37, 3.9, 11.2, 27.5};

IdentificationReference<6> reference() {
  DescriptionOf<AerialManipulatorRobot, double> robot;
  EXPECT_EQ(AerialManipulatorRobot::describe<double>(robot), Status::kOk);
  return identification_reference<AerialManipulatorRobot>(robot);
}

double tolerance(double size) { return kRelTol * (1.0 + size); }

TEST(IdentificationReference, ShapeOfTheTwelveDofRobot) {
  const auto r = reference();
  // Channel c: f₁ = 0.15 √p_c, f₂ = 0.15 √p_{9+c}, ϕ₂ = 2π c / 9.
  EXPECT_NEAR(r.roll.f1, 0.15 * std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(r.roll.f2, 0.15 * std::sqrt(29.0), 1e-15);
  EXPECT_NEAR(r.pitch.f1, 0.15 * std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(r.yaw.f1, 0.15 * std::sqrt(5.0), 1e-15);
  EXPECT_NEAR(r.joint_motion[5].f1, 0.15 * std::sqrt(23.0), 1e-15);
  EXPECT_NEAR(r.joint_motion[5].f2, 0.15 * std::sqrt(61.0), 1e-15);
  EXPECT_NEAR(r.joint_motion[5].phase2, 2.0 * kPi * 8.0 / 9.0, 1e-15);
  EXPECT_NEAR(r.roll.amplitude, 5.0 * kPi / 180.0, 1e-15);
  EXPECT_NEAR(r.yaw.amplitude, 10.0 * kPi / 180.0, 1e-15);
  // Unbounded joints: around 0 with the 0.5 rad cap.
  for (int j = 0; j < 6; ++j) {
    EXPECT_EQ(r.joint_middle[static_cast<std::size_t>(j)], 0.0);
    EXPECT_EQ(r.joint_motion[static_cast<std::size_t>(j)].amplitude, 0.5);
  }
  // 18 frequencies, pairwise distinct (by > 0.01 Hz; the closest: 0.15 (√61 − √59)).
  std::vector<double> f{r.roll.f1, r.roll.f2, r.pitch.f1, r.pitch.f2, r.yaw.f1, r.yaw.f2};
  for (const auto& m : r.joint_motion) {
    f.push_back(m.f1);
    f.push_back(m.f2);
  }
  for (std::size_t a = 0; a < f.size(); ++a)
    for (std::size_t b = a + 1; b < f.size(); ++b) EXPECT_GT(std::abs(f[a] - f[b]), 0.01);
  // Every channel within its amplitude over 120 s; roll and pitch reach
  // over half of theirs (the excitation is there).
  double roll_max = 0.0, pitch_max = 0.0;
  for (double t = 0.0; t < 120.0; t += 0.005) {
    roll_max = std::fmax(roll_max, std::abs(r.roll.derivative(t, 0)));
    pitch_max = std::fmax(pitch_max, std::abs(r.pitch.derivative(t, 0)));
    EXPECT_LE(std::abs(r.yaw.derivative(t, 0)), r.yaw.amplitude);
    for (int j = 0; j < 6; ++j) EXPECT_LE(std::abs(r.joint(j, t)), 0.5) << j << " " << t;
    const Vector3<double> x = r.base_position(t) - Vector3<double>(0.0, 0.0, 1.0);
    EXPECT_LE(std::abs(x(0)), 0.3);
    EXPECT_LE(std::abs(x(2)), 0.1);
  }
  EXPECT_LE(roll_max, r.roll.amplitude);
  EXPECT_GT(roll_max, 0.5 * r.roll.amplitude);
  EXPECT_LE(pitch_max, r.pitch.amplitude);
  EXPECT_GT(pitch_max, 0.5 * r.pitch.amplitude);
}

TEST(IdentificationReference, AngularVelocityDifferentiatesTheRotation) {
  const auto r = reference();
  for (double t : kTimes) {
    const Matrix3<double> rd = (r.base_rotation(t + kH) - r.base_rotation(t - kH)) / (2 * kH);
    const Matrix3<double> w_hat = rd * r.base_rotation(t).transpose();  // [ω]× (world)
    const Vector3<double> w(w_hat(2, 1), w_hat(0, 2), w_hat(1, 0));
    // Truncation h² |R'''|/6 ≈ 1e-8 · 20 rad/s³ / 6 ≈ 3e-8 (the yaw's and
    // roll's second sines dominate |ω̈|); a wrong formula is off by the size of
    // ω (0.1 … 0.6 rad/s).
    EXPECT_LT((w - r.base_angular_velocity(t, 0)).norm(), 1e-6) << t;
    EXPECT_LT((w_hat + w_hat.transpose()).norm(), 1e-6) << t;
    // The pose's rotation is a rotation.
    EXPECT_LT(
        (r.base_rotation(t) * r.base_rotation(t).transpose() - Matrix3<double>::Identity()).norm(),
        1e-15);
  }
}

TEST(IdentificationReference, DerivativesMatchFiniteDifferences) {
  const auto r = reference();
  for (double t : kTimes) {
    const double tp = t + kH, tm = t - kH;
    for (int k = 1; k <= 5; ++k) {
      const Vector3<double> x = r.base_position(t, k);
      EXPECT_LT(((r.base_position(tp, k - 1) - r.base_position(tm, k - 1)) / (2 * kH) - x).norm(),
                tolerance(x.norm()))
          << "x^(" << k << ") t " << t;
      const Vector3<double> w = r.base_angular_velocity(t, k);
      EXPECT_LT(
          ((r.base_angular_velocity(tp, k - 1) - r.base_angular_velocity(tm, k - 1)) / (2 * kH) - w)
              .norm(),
          tolerance(w.norm()))
          << "w^(" << k << ") t " << t;
      const Twist<double> v = r.base_twist(t, k);
      EXPECT_LT(((r.base_twist(tp, k - 1) - r.base_twist(tm, k - 1)) / (2 * kH) - v).norm(),
                tolerance(v.norm()))
          << "V^(" << k << ") t " << t;
      for (int j = 0; j < 6; ++j) {
        const double q = r.joint(j, t, k);
        EXPECT_NEAR((r.joint(j, tp, k - 1) - r.joint(j, tm, k - 1)) / (2 * kH), q,
                    tolerance(std::abs(q)))
            << "q" << j << "^(" << k << ") t " << t;
      }
    }
    // Order 0 of the twist: (ω; ẋ − ω × x).
    const Twist<double> v = r.base_twist(t, 0);
    const Vector3<double> w = r.base_angular_velocity(t, 0);
    const Vector3<double> lin = r.base_position(t, 1) - w.cross(r.base_position(t, 0));
    EXPECT_LT((v.head<3>() - w).norm(), 1e-15);
    EXPECT_LT((v.tail<3>() - lin).norm(), 1e-14);
  }
  // Orders out of range: NaN.
  EXPECT_TRUE(std::isnan(r.joint(0, 1.0, -1)));
  EXPECT_TRUE(std::isnan(r.base_twist(1.0, IdentificationReference<6>::kMaxDerivative)(0)));
}

TEST(IdentificationReference, FillsTheReferenceFrame) {
  const auto r = reference();
  hodyn_reference frame{};
  const double t = 4.2;
  reference_frame(r, t, frame);
  EXPECT_EQ(frame.time, t);
  EXPECT_EQ(frame.num_joints, 6);
  for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
    for (int i = 0; i < 3; ++i) EXPECT_EQ(frame.base_position[k][i], r.base_position(t, k)(i));
    for (int j = 0; j < 6; ++j) EXPECT_EQ(frame.joint_position[k][j], r.joint(j, t, k));
  }
  for (int k = 0; k < HODYN_REFERENCE_ORDER; ++k)
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(frame.base_angular_velocity[k][i], r.base_angular_velocity(t, k)(i), 1e-12);
  const Eigen::Quaterniond q(frame.base_orientation[0], frame.base_orientation[1],
                             frame.base_orientation[2], frame.base_orientation[3]);
  EXPECT_LT((q.toRotationMatrix() - r.base_rotation(t)).norm(), 1e-12);
}

}  // namespace
