// SO(3) and SE(3) logarithms: inverses of the exponentials, checked against
// the exponential map and Eigen's AngleAxis, near 0, near π and in float.
#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/Geometry>

#include <hodyn/logarithm.hpp>
#include <hodyn/screw_exponential.hpp>
#include <hodyn/spatial_algebra.hpp>

#include "support/random.hpp"

namespace {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
constexpr double kPi = 3.14159265358979323846;

Mat3 exp_so3(const Vec3& w) {
  const double theta = w.norm();
  if (theta == 0.0) return Mat3::Identity();
  return hodyn::axis_angle_rotation<double>(w / theta, theta);
}

// exp([(w; v)]) = (R, V v), V = 1 + a [w] + b [w]², with a, b from series at
// small angles (the joint-screw form exp([Y] q) with Y = y/θ would amplify
// the rounding of 1 − cos θ by |v|/θ there).
hodyn::Pose<double> exp_se3(const hodyn::Twist<double>& y) {
  const Vec3 w = y.head<3>();
  const double t = w.norm();
  const double t2 = t * t;
  const double a = t < 1e-2 ? 0.5 - t2 / 24.0 + t2 * t2 / 720.0 : (1.0 - std::cos(t)) / t2;
  const double b = t < 1e-2 ? 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0 : (t - std::sin(t)) / (t2 * t);
  const Mat3 k = hodyn::skew<double>(w);
  hodyn::Pose<double> c;
  c.rotation = exp_so3(w);
  c.translation = (Mat3::Identity() + a * k + b * k * k) * y.tail<3>();
  return c;
}

Vec3 unit(hodyn::test::Rng& rng) { return rng.vec3().normalized(); }

TEST(So3Log, InvertsTheExponentialOverTheWholeRange) {
  hodyn::test::Rng rng(11);
  const double angles[] = {0.0,  1e-12, 1e-8,  1e-5,         1e-3,          0.3,
                           1.0,  2.0,   3.0,   kPi - 1e-3,   kPi - 1e-7,    kPi - 1e-12};
  for (double angle : angles) {
    for (int trial = 0; trial < 20; ++trial) {
      const Vec3 w = angle * unit(rng);
      const Mat3 r = exp_so3(w);
      const Vec3 back = hodyn::so3_log(r);
      EXPECT_LE((exp_so3(back) - r).cwiseAbs().maxCoeff(), 4e-15) << "angle " << angle;
      // Away from π the logarithm is unique: it returns w itself.
      if (angle < kPi - 1e-6) {
        EXPECT_LE((back - w).norm(), 1e-14 * (1.0 + angle)) << "angle " << angle;
      }
    }
  }
}

TEST(So3Log, AgreesWithEigenAngleAxis) {
  hodyn::test::Rng rng(12);
  for (int trial = 0; trial < 200; ++trial) {
    const Mat3 r = rng.rotation();
    const Eigen::AngleAxisd aa(r);
    const Vec3 expected = aa.angle() * aa.axis();  // Eigen returns an angle in [0, π]
    const Vec3 w = hodyn::so3_log(r);
    EXPECT_LE(w.norm(), kPi + 1e-15);
    if (aa.angle() < kPi - 1e-6) {
      EXPECT_LE((w - expected).norm(), 1e-13);
    }
  }
}

TEST(So3Log, HalfTurnsPickAnAxisThatReproducesTheRotation) {
  for (const Vec3& axis : {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 1, 1).normalized(),
                           Vec3(1, -2, 0.5).normalized()}) {
    const Mat3 r = exp_so3(kPi * axis);
    const Vec3 w = hodyn::so3_log(r);
    EXPECT_NEAR(w.norm(), kPi, 1e-12);
    EXPECT_NEAR(std::abs(w.normalized().dot(axis)), 1.0, 1e-12);
    EXPECT_LE((exp_so3(w) - r).cwiseAbs().maxCoeff(), 4e-15);
  }
}

TEST(Se3Log, InvertsTheExponential) {
  hodyn::test::Rng rng(13);
  const double angles[] = {0.0, 1e-9, 1e-4, 0.015, 0.025, 0.5, 2.0, kPi - 1e-4};
  for (double angle : angles) {
    for (int trial = 0; trial < 20; ++trial) {
      hodyn::Twist<double> y;
      y << angle * unit(rng), rng.vec3();
      const hodyn::Pose<double> c = exp_se3(y);
      const hodyn::Twist<double> back = hodyn::se3_log(c);
      const hodyn::Pose<double> again = exp_se3(back);
      EXPECT_LE((again.matrix() - c.matrix()).cwiseAbs().maxCoeff(), 1e-13) << "angle " << angle;
      EXPECT_LE((back - y).norm(), 1e-12 * (1.0 + y.norm())) << "angle " << angle;
    }
  }
}

TEST(Se3Log, PureTranslationAndIdentity) {
  hodyn::Pose<double> c = hodyn::Pose<double>::from_translation(Vec3(0.3, -1.2, 2.0));
  const hodyn::Twist<double> y = hodyn::se3_log(c);
  EXPECT_LE(y.head<3>().norm(), 1e-300);
  EXPECT_LE((y.tail<3>() - c.translation).norm(), 1e-15);
  EXPECT_EQ(hodyn::se3_log(hodyn::Pose<double>::identity()).norm(), 0.0);
}

TEST(Se3Log, FloatBuildsAndIsAccurateToFloatPrecision) {
  hodyn::test::Rng rng(14);
  for (int trial = 0; trial < 50; ++trial) {
    hodyn::Twist<double> y;
    y << 2.5 * unit(rng), rng.vec3();
    const hodyn::Pose<double> c = exp_se3(y);
    const hodyn::Twist<float> yf = hodyn::se3_log(c.cast<float>());
    EXPECT_LE((yf.cast<double>() - y).norm(), 2e-5 * (1.0 + y.norm()));
  }
}

}  // namespace
