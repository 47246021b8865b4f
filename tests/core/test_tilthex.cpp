// TiltHex allocation matrix (seed 000 eq. 28) against an independent
// construction: propeller poses from Eigen::AngleAxis products, dense 6x6
// adjoints inverted and transposed with Eigen, ranks from Eigen::JacobiSVD.
#include <hodyn/models/tilthex.hpp>

#include "support/dense_formulas.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <cmath>
#include <cstdio>
#include <string>

namespace {

using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

using hodyn::test::hat3;  // support/dense_formulas.hpp

struct Geometry {
  double a = 0.4, alpha = 20 * kDeg, beta = 10 * kDeg, cf = 1.1e-5, cd = 1.8e-7;
  bool alt_tilt = true, alt_drag = true;
};

// Pose of propeller i (1..6): R_z((2−i)π/3) T_x(a) R_x(α_i) R_y(β).
void propeller(const Geometry& g, int i, Mat3& r, Vec3& p) {
  const double sign = (i % 2 == 1) ? 1.0 : -1.0;
  const double alpha = g.alt_tilt ? sign * g.alpha : g.alpha;
  const Eigen::AngleAxisd rz((2 - i) * kPi / 3.0, Vec3::UnitZ());
  r = (rz * Eigen::AngleAxisd(alpha, Vec3::UnitX()) * Eigen::AngleAxisd(g.beta, Vec3::UnitY())).toRotationMatrix();
  p = rz * Vec3(g.a, 0, 0);
}

Mat6 reference_allocation(const Geometry& g) {
  Mat6 a;
  for (int i = 1; i <= 6; ++i) {
    Mat3 r;
    Vec3 p;
    propeller(g, i, r, p);
    Mat6 ad = Mat6::Zero();  // Ad_C = [R 0; [p]R R]
    ad.topLeftCorner<3, 3>() = r;
    ad.bottomLeftCorner<3, 3>() = hat3(p) * r;
    ad.bottomRightCorner<3, 3>() = r;
    const double sign = (i % 2 == 1) ? 1.0 : -1.0;
    Vec6 w;
    w << 0, 0, g.alt_drag ? sign * g.cd : g.cd, 0, 0, g.cf;
    a.col(i - 1) = ad.inverse().transpose() * w;
  }
  return a;
}

hodyn::TiltHexParameters params(const Geometry& g) {
  hodyn::TiltHexParameters p;
  p.alternate_tilt = g.alt_tilt;
  p.alternate_drag = g.alt_drag;
  return p;
}

Vec6 singular_values(const Mat6& a) { return Eigen::JacobiSVD<Mat6>(a).singularValues(); }

TEST(TiltHex, DefaultsAreTheDocumentedOnes) {
  const hodyn::TiltHexParameters p;
  EXPECT_DOUBLE_EQ(p.arm_length, 0.4);
  EXPECT_DOUBLE_EQ(p.tilt_alpha, 20 * kDeg);
  EXPECT_DOUBLE_EQ(p.tilt_beta, 10 * kDeg);
  EXPECT_DOUBLE_EQ(p.thrust_coefficient, 1.1e-5);
  EXPECT_DOUBLE_EQ(p.drag_coefficient, 1.8e-7);
  EXPECT_TRUE(p.alternate_tilt);
  EXPECT_TRUE(p.alternate_drag);
}

TEST(TiltHex, PropellerPosesMatchAngleAxisProducts) {
  const Geometry g;
  for (int i = 1; i <= 6; ++i) {
    Mat3 r;
    Vec3 p;
    propeller(g, i, r, p);
    const hodyn::Pose<double> c = hodyn::tilthex_propeller_pose<double>(hodyn::TiltHexParameters{}, i);
    EXPECT_LT((c.rotation - r).cwiseAbs().maxCoeff(), 1e-15) << "propeller " << i;
    EXPECT_LT((c.translation - p).norm(), 1e-15) << "propeller " << i;
  }
}

TEST(TiltHex, ColumnsAreCoadjointInverseOfPropellerWrenches) {
  for (const bool alt_tilt : {true, false})
    for (const bool alt_drag : {true, false}) {
      Geometry g;
      g.alt_tilt = alt_tilt;
      g.alt_drag = alt_drag;
      const Mat6 a = hodyn::tilthex_allocation<double>(params(g));
      const Mat6 ref = reference_allocation(g);
      for (int i = 0; i < 6; ++i)
        EXPECT_LT((a.col(i) - ref.col(i)).norm(), 1e-15 + 1e-12 * ref.col(i).norm())
            << "column " << i << " (alternate tilt " << alt_tilt << ", drag " << alt_drag << ")\n"
            << a.col(i).transpose() << "\nvs\n"
            << ref.col(i).transpose();
    }
}

TEST(TiltHex, DefaultAllocationHasFullRank) {
  const Mat6 a = hodyn::tilthex_allocation<double>();
  const Vec6 s = singular_values(a);
  const double cond = s(0) / s(5);
  EXPECT_GT(s(5) / s(0), 1e-3) << "singular values " << s.transpose();
  // Row scaling: moments (N m) and forces (N) have different units.
  Mat6 scaled = a;
  for (int r = 0; r < 6; ++r) scaled.row(r) /= a.row(r).norm();
  const Vec6 ss = singular_values(scaled);
  const double cond_scaled = ss(0) / ss(5);
  RecordProperty("allocation_condition", std::to_string(cond));
  RecordProperty("allocation_condition_row_scaled", std::to_string(cond_scaled));
  std::printf("TiltHex allocation: singular values %.4g %.4g %.4g %.4g %.4g %.4g\n", s(0), s(1), s(2), s(3),
              s(4), s(5));
  std::printf("TiltHex allocation: condition %.4g, after scaling rows to unit norm %.4g\n", cond, cond_scaled);
  EXPECT_LT(cond_scaled, 1e3);
}

TEST(TiltHex, LiteralEquation28HasRankThree) {
  Geometry g;
  g.alt_tilt = false;
  g.alt_drag = false;
  const Vec6 s = singular_values(hodyn::tilthex_allocation<double>(params(g)));
  std::printf("literal eq. 28: singular values %.4g %.4g %.4g %.4g %.4g %.4g\n", s(0), s(1), s(2), s(3), s(4),
              s(5));
  EXPECT_GT(s(2) / s(0), 1e-6);
  EXPECT_LT(s(3) / s(0), 1e-12);
}

TEST(TiltHex, AlternatingDragAloneGivesFullRank) {
  Geometry g;
  g.alt_tilt = false;
  g.alt_drag = true;
  const Vec6 s = singular_values(hodyn::tilthex_allocation<double>(params(g)));
  std::printf("alternating drag only: singular values %.4g %.4g %.4g %.4g %.4g %.4g\n", s(0), s(1), s(2), s(3),
              s(4), s(5));
  EXPECT_GT(s(5) / s(0), 1e-8);
}

TEST(TiltHex, HoverIsFeasible) {
  const Mat6 a = hodyn::tilthex_allocation<double>();
  Vec6 hover;
  hover << 0, 0, 0, 0, 0, 4.0 * 9.81;
  const Vec6 u = a.fullPivLu().solve(hover);
  EXPECT_LT((a * u - hover).norm(), 1e-10);
  // By the three-fold symmetry and the alternation of tilt and drag, hover
  // needs equal speeds: 6 c_f cos α cos β ω² = m g.
  const double expected = 4.0 * 9.81 / (6 * 1.1e-5 * std::cos(20 * kDeg) * std::cos(10 * kDeg));
  for (int i = 0; i < 6; ++i) {
    EXPECT_GT(u(i), 0.0) << "propeller " << i + 1;
    EXPECT_NEAR(u(i), expected, 1e-9 * expected) << "propeller " << i + 1;
  }
  std::printf("hover: omega = %.2f %.2f %.2f %.2f %.2f %.2f rad/s\n", std::sqrt(u(0)), std::sqrt(u(1)),
              std::sqrt(u(2)), std::sqrt(u(3)), std::sqrt(u(4)), std::sqrt(u(5)));
}

TEST(TiltHex, VerticalThrustAtEqualSpeeds) {
  // Thrust of propeller i in the base frame: R_z R_x(α_i) R_y(β) (0,0,c_f) ω².
  // R_y(β) e_z = (sin β, 0, cos β); R_x(α) maps its z component to cos α cos β;
  // R_z keeps z. So Σ f_z = 6 c_f cos α cos β ω² whatever the signs of α_i.
  for (const bool alt_tilt : {true, false}) {
    Geometry g;
    g.alt_tilt = alt_tilt;
    const Mat6 a = hodyn::tilthex_allocation<double>(params(g));
    const double omega2 = 600.0 * 600.0;
    const Vec6 w = a * Vec6::Constant(omega2);
    EXPECT_NEAR(w(5), 6 * 1.1e-5 * std::cos(20 * kDeg) * std::cos(10 * kDeg) * omega2, 1e-12 * w(5));
    // and, by symmetry, no horizontal force.
    EXPECT_NEAR(w(3), 0.0, 1e-12 * w(5));
    EXPECT_NEAR(w(4), 0.0, 1e-12 * w(5));
  }
}

TEST(TiltHex, FloatAllocationAgrees) {
  const Mat6 a = hodyn::tilthex_allocation<double>();
  const Eigen::Matrix<float, 6, 6> af = hodyn::tilthex_allocation<float>();
  EXPECT_LT((af.cast<double>() - a).norm(), 1e-6 * a.norm());
}

}  // namespace
