// hodyn::Table3Trajectory (hodyn/reference/table3_trajectory.hpp): the seed 000
// Table 3 reference motion with exact time derivatives.
//
// Oracles:
//  - every derivative of order k+1 against the 5-point central difference of
//    order k,  f'(t) ≈ (f(t−2h) − 8f(t−h) + 8f(t+h) − f(t+2h)) / (12h), h = 1e-3.
//    The motion is a sum of sinusoids with rates w ≤ 2π/20, so the truncation
//    error is ≤ h⁴ w⁴/30 ≈ 3e-16 of the derivative's amplitude and the round-off
//    ≈ 1.5 ε/(h w) ≈ 1e-11 of it; the tolerance is 1e-8 of the amplitude bound
//    of f^(k+1) (a wrong sign, phase or binomial is O(1) off);
//  - the spatial twist against Ċ C⁻¹ with Ċ from the same stencil on C(t);
//  - the boundary values q(0) = q0, q(T) = q0 + η, q̇(0) = q̇(T) = 0, and the
//    base on the unit circle at z = 0;
//  - sample() agrees with the accessors, float agrees with double, no heap.
#include <hodyn/reference/table3_trajectory.hpp>

// The counting allocator: included here and nowhere else in this executable.
#include "support/heap_counter.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>

namespace {

using hodyn::Table3Trajectory;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat4 = Eigen::Matrix4d;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;
constexpr double kH = 1e-3;
constexpr double kRelTol = 1e-8;
constexpr int kMaxTestedOrder = 12;
const double kTimes[] = {0.0, 0.37, 7.5, 13.1, 20.0, 29.99, 30.0};

template <class F>
auto central_difference(F f, double t, double h = kH) {
  using T = decltype(f(t));  // a plain value: never return an Eigen expression of temporaries
  const T result = ((f(t - 2 * h) - 8 * f(t - h)) + (8 * f(t + h) - f(t + 2 * h))) / (12 * h);
  return result;
}

// Amplitude bounds of the k-th derivatives (|sin|, |cos| ≤ 1).
struct Bounds {
  const Table3Trajectory& p;
  double wc() const { return 2 * kPi / p.circle_period; }
  double wy() const { return 2 * kPi / p.yaw_period; }
  double wq() const { return kPi / p.horizon; }
  double position(int k) const {
    return p.circle_radius * std::pow(wc(), k) +
           (k == 0 ? Vec3(p.circle_centre[0], p.circle_centre[1], p.circle_centre[2]).norm() : 0.0);
  }
  double yaw(int k) const { return p.yaw_amplitude * std::pow(wy(), k); }
  double joint(int j, int k) const {
    const double a = 0.5 * p.eta[static_cast<std::size_t>(j)] * std::pow(wq(), k);
    return k == 0 ? std::abs(p.q0[static_cast<std::size_t>(j)]) + 2 * a : a;
  }
  double twist(int k) const {
    double v = position(k + 1) + yaw(k + 1);
    for (int i = 0; i <= k; ++i) v += hodyn::binomial<double>(k, i) * yaw(i + 1) * position(k - i);
    return v;
  }
};

TEST(Table3Trajectory, DefaultsAreTable3AsRead) {
  const Table3Trajectory traj;
  EXPECT_EQ(traj.circle_radius, 1.0);
  EXPECT_EQ(traj.circle_period, 20.0);
  EXPECT_EQ(traj.yaw_period, 30.0);
  EXPECT_EQ(traj.horizon, 30.0);
  EXPECT_EQ(traj.time_step, 0.01);
  EXPECT_EQ(traj.gravity, 9.81);
  EXPECT_DOUBLE_EQ(traj.yaw_amplitude, 25 * kDeg);
  const double q0[] = {10, -5, 15, -10, 7, -12}, eta[] = {60, 50, 40, 55, 45, 35};
  for (std::size_t j = 0; j < 6; ++j) {
    EXPECT_DOUBLE_EQ(traj.q0[j], q0[j] * kDeg);
    EXPECT_DOUBLE_EQ(traj.eta[j], eta[j] * kDeg);
  }
}

TEST(Table3Trajectory, PositionYawJointDerivativesMatchFiniteDifferences) {
  const Table3Trajectory traj;
  const Bounds b{traj};
  for (double t : kTimes) {
    for (int k = 0; k < kMaxTestedOrder; ++k) {
      SCOPED_TRACE(testing::Message() << "t = " << t << ", k = " << k);
      const Vec3 dx = central_difference([&](double s) { return traj.base_position(s, k); }, t);
      EXPECT_LE((dx - traj.base_position(t, k + 1)).cwiseAbs().maxCoeff(),
                kRelTol * b.position(k + 1));
      const double dpsi = central_difference([&](double s) { return traj.yaw(s, k); }, t);
      EXPECT_LE(std::abs(dpsi - traj.yaw(t, k + 1)), kRelTol * b.yaw(k + 1));
      for (int j = 0; j < Table3Trajectory::kNumJoints; ++j) {
        const double dq = central_difference([&](double s) { return traj.joint(j, s, k); }, t);
        EXPECT_LE(std::abs(dq - traj.joint(j, t, k + 1)), kRelTol * b.joint(j, k + 1)) << "j " << j;
        EXPECT_EQ(traj.joints(t, k)(j), traj.joint(j, t, k));
      }
      const Vec3 dw =
          central_difference([&](double s) { return traj.base_angular_velocity(s, k); }, t);
      EXPECT_LE((dw - traj.base_angular_velocity(t, k + 1)).cwiseAbs().maxCoeff(),
                kRelTol * b.yaw(k + 2));
    }
  }
}

TEST(Table3Trajectory, TwistDerivativesMatchFiniteDifferences) {
  // Also with a circle centre off the origin, where v = ẋ − ω × x differs from ẋ.
  Table3Trajectory shifted;
  shifted.circle_centre = {0.4, -1.3, 2.0};
  for (const Table3Trajectory& traj : {Table3Trajectory{}, shifted}) {
    const Bounds b{traj};
    for (double t : kTimes) {
      for (int k = 0; k + 1 < kMaxTestedOrder; ++k) {
        SCOPED_TRACE(testing::Message() << "t = " << t << ", k = " << k);
        const Vec6 dv = central_difference([&](double s) { return traj.base_twist(s, k); }, t);
        EXPECT_LE((dv - traj.base_twist(t, k + 1)).cwiseAbs().maxCoeff(), kRelTol * b.twist(k + 1));
      }
    }
  }
}

TEST(Table3Trajectory, TwistIsCdotCInverse) {
  Table3Trajectory shifted;
  shifted.circle_centre = {0.4, -1.3, 2.0};
  for (const Table3Trajectory& traj : {Table3Trajectory{}, shifted}) {
    for (double t : kTimes) {
      SCOPED_TRACE(testing::Message() << "t = " << t);
      const Mat4 c = traj.base_pose(t).matrix();
      const Mat4 c_dot = central_difference([&](double s) { return traj.base_pose(s).matrix(); }, t);
      const Mat4 hat = c_dot * c.inverse();  // [V] = [[ω] v; 0 0]
      const Vec6 v = traj.base_twist(t, 0);
      const Mat3 w_hat = hat.topLeftCorner<3, 3>();
      const Vec3 w(w_hat(2, 1), w_hat(0, 2), w_hat(1, 0));
      EXPECT_LE((w_hat + w_hat.transpose()).cwiseAbs().maxCoeff(), 1e-10);
      EXPECT_LE((w - v.head<3>()).cwiseAbs().maxCoeff(), 1e-10);
      EXPECT_LE((hat.topRightCorner<3, 1>() - v.tail<3>()).cwiseAbs().maxCoeff(), 1e-10);
      EXPECT_LE(hat.bottomRows<1>().cwiseAbs().maxCoeff(), 1e-10);
    }
  }
}

TEST(Table3Trajectory, JointEndpoints) {
  const Table3Trajectory traj;
  for (int j = 0; j < Table3Trajectory::kNumJoints; ++j) {
    const auto jj = static_cast<std::size_t>(j);
    EXPECT_EQ(traj.joint(j, 0.0), traj.q0[jj]);
    EXPECT_NEAR(traj.joint(j, traj.horizon), traj.q0[jj] + traj.eta[jj], 1e-15);
    EXPECT_EQ(traj.joint(j, 0.0, 1), 0.0);
    EXPECT_NEAR(traj.joint(j, traj.horizon, 1), 0.0, 1e-17);
    // Half way: q0 + η/2, at the peak rate η π/(2T).
    EXPECT_NEAR(traj.joint(j, 0.5 * traj.horizon), traj.q0[jj] + 0.5 * traj.eta[jj], 1e-15);
    EXPECT_NEAR(traj.joint(j, 0.5 * traj.horizon, 1), traj.eta[jj] * kPi / (2 * traj.horizon),
                1e-16);
  }
}

TEST(Table3Trajectory, BaseStaysOnTheUnitCircle) {
  const Table3Trajectory traj;
  for (int i = 0; i <= 3000; ++i) {
    const double t = 0.01 * i;
    const Vec3 x = traj.base_position(t);
    EXPECT_NEAR(x.head<2>().norm(), 1.0, 1e-15) << "t = " << t;
    EXPECT_EQ(x(2), 0.0);
    for (int k = 1; k <= 6; ++k) EXPECT_EQ(traj.base_position(t, k)(2), 0.0);
    const hodyn::Pose<double> c = traj.base_pose(t);
    EXPECT_LE((c.rotation.transpose() * c.rotation - Mat3::Identity()).cwiseAbs().maxCoeff(), 1e-15);
    EXPECT_EQ(c.rotation(2, 2), 1.0);  // roll = pitch = 0
    EXPECT_NEAR(std::atan2(c.rotation(1, 0), c.rotation(0, 0)), traj.yaw(t), 1e-15);
  }
  EXPECT_EQ(traj.base_position(0.0), Vec3(1, 0, 0));
  EXPECT_NEAR((traj.base_position(5.0) - Vec3(0, 1, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(traj.yaw(7.5), 25 * kDeg, 1e-15);
  EXPECT_EQ(traj.yaw(0.0), 0.0);
}

TEST(Table3Trajectory, SampleMatchesAccessors) {
  const Table3Trajectory traj;
  hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 5, double> m;
  for (double t : kTimes) {
    traj.sample<5>(t, 5, m);
    const hodyn::Pose<double> c = traj.base_pose(t);
    EXPECT_EQ(m.base_pose.rotation, c.rotation);
    EXPECT_EQ(m.base_pose.translation, c.translation);
    for (int k = 0; k <= 6; ++k) EXPECT_EQ(m.base_twist[static_cast<std::size_t>(k)], traj.base_twist(t, k));
    for (int k = 0; k <= 7; ++k) EXPECT_EQ(m.q[static_cast<std::size_t>(k)], traj.joints(t, k));
  }
  // Order clamped to MaxOrder; a lower order leaves the higher entries alone.
  hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 3, double> small;
  traj.sample<3>(7.5, 99, small);
  EXPECT_EQ(small.base_twist[4], traj.base_twist(7.5, 4));
  EXPECT_EQ(small.q[5], traj.joints(7.5, 5));
  hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 3, double> low;
  traj.sample<3>(7.5, 1, low);
  EXPECT_EQ(low.base_twist[2], traj.base_twist(7.5, 2));
  EXPECT_EQ(low.q[3], traj.joints(7.5, 3));
  EXPECT_TRUE(low.base_twist[3].isZero(0));
  EXPECT_TRUE(low.q[4].isZero(0));
}

TEST(Table3Trajectory, OrdersOutOfRangeGiveNaN) {
  const Table3Trajectory traj;
  EXPECT_TRUE(std::isnan(traj.yaw(1.0, -1)));
  EXPECT_TRUE(std::isnan(traj.yaw(1.0, Table3Trajectory::kMaxDerivative + 1)));
  EXPECT_FALSE(std::isnan(traj.yaw(1.0, Table3Trajectory::kMaxDerivative)));
  EXPECT_TRUE(std::isnan(traj.joint(6, 1.0)));
  EXPECT_TRUE(traj.base_position(1.0, -2).array().isNaN().all());
  EXPECT_TRUE(traj.base_twist(1.0, Table3Trajectory::kMaxDerivative).array().isNaN().all());
  EXPECT_FALSE(traj.base_twist(1.0, Table3Trajectory::kMaxDerivative - 1).array().isNaN().any());
}

TEST(Table3Trajectory, FloatAgreesWithDouble) {
  const Table3Trajectory traj;
  hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 5, float> mf;
  hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 5, double> md;
  const Bounds b{traj};
  for (double t : kTimes) {
    traj.sample<5>(static_cast<float>(t), 5, mf);
    traj.sample<5>(static_cast<double>(static_cast<float>(t)), 5, md);
    EXPECT_LE((mf.base_pose.rotation.cast<double>() - md.base_pose.rotation).cwiseAbs().maxCoeff(),
              1e-6);
    EXPECT_LE((mf.base_pose.translation.cast<double>() - md.base_pose.translation)
                  .cwiseAbs().maxCoeff(), 1e-6);
    for (int k = 0; k <= 6; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      EXPECT_LE((mf.base_twist[kk].cast<double>() - md.base_twist[kk]).cwiseAbs().maxCoeff(),
                1e-5 * b.twist(k)) << "t " << t << " k " << k;
    }
    for (int k = 0; k <= 7; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      EXPECT_LE((mf.q[kk].cast<double>() - md.q[kk]).cwiseAbs().maxCoeff(), 1e-5 * b.joint(0, k))
          << "t " << t << " k " << k;
    }
  }
}

TEST(Table3Trajectory, NoHeap) {
  const Table3Trajectory traj;
  hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 5, double> m;
  double sink = 0;
  const hodyn::test::HeapProbe probe;
  for (int i = 0; i < 100; ++i) {
    const double t = 0.3 * i;
    traj.sample<5>(t, 5, m);
    sink += m.q[7](0) + traj.base_twist(t, 4)(3) + traj.base_position(t, 3)(0) + traj.yaw(t, 2) +
            traj.joints(t, 4)(5) + traj.base_pose(t).rotation(0, 1);
  }
  EXPECT_EQ(probe.count(), 0);
  EXPECT_TRUE(std::isfinite(sink));
}

}  // namespace
