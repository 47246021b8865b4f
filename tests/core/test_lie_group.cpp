// Lie-group layer (spatial_algebra.hpp, pose.hpp, screw_exponential.hpp)
// checked against independent definitions (support/dense_formulas.hpp): 4x4
// homogeneous matrices, hat/vee maps, dense 6x6 adjoint formulas typed in
// from the textbook, Eigen's own inverse/determinant, and a matrix
// exponential summed as a power series.
#include <hodyn/pose.hpp>
#include <hodyn/screw_exponential.hpp>
#include <hodyn/spatial_algebra.hpp>

#include "support/dense_formulas.hpp"
#include "support/error_metrics.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <cmath>

namespace {

using hodyn::Pose;
using Mat3 = Eigen::Matrix3d;
using Mat4 = Eigen::Matrix4d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;

constexpr int kTrials = 50;

// Rng and the independent helpers dense_Ad, dense_ad, expm_series, hat3, hat6,
// homogeneous, max_abs, vee6 (tests/support/: random.hpp, dense_formulas.hpp,
// error_metrics.hpp).
using namespace hodyn::test;

// ---- adjoint --------------------------------------------------------------

TEST(LieGroup, AdjointMatchesConjugationOfHat) {
  Rng rng(1);
  for (int t = 0; t < kTrials; ++t) {
    const Pose<double> c = rng.pose();
    const Vec6 v = rng.vec6();
    const Mat4 cm = homogeneous(c);
    const Vec6 expected = vee6(cm * hat6(v) * cm.inverse());
    EXPECT_LT((hodyn::adjoint(c, v) - expected).norm(), 1e-12);
    EXPECT_LT(max_abs(hodyn::adjoint_matrix(c) - dense_Ad(c)), 1e-15);
    EXPECT_LT((hodyn::adjoint_matrix(c) * v - expected).norm(), 1e-12);
  }
}

TEST(LieGroup, AdjointIsAHomomorphism) {
  Rng rng(2);
  for (int t = 0; t < kTrials; ++t) {
    const Pose<double> c1 = rng.pose();
    const Pose<double> c2 = rng.pose();
    const Vec6 v = rng.vec6();
    const Pose<double> c12 = c1 * c2;
    // On vectors.
    const Vec6 lhs = hodyn::adjoint(c12, v);
    const Vec6 rhs = hodyn::adjoint(c1, hodyn::adjoint(c2, v));
    EXPECT_LT((lhs - rhs).norm(), 1e-12 * (1 + v.norm()));
    // On matrices.
    EXPECT_LT(max_abs(hodyn::adjoint_matrix(c12) -
                      hodyn::adjoint_matrix(c1) * hodyn::adjoint_matrix(c2)),
              1e-12);
    // The composed pose is the product of the homogeneous matrices.
    EXPECT_LT(max_abs(homogeneous(c12) - homogeneous(c1) * homogeneous(c2)), 1e-12);
  }
}

TEST(LieGroup, AdjointInverseIsTheInverseMatrix) {
  Rng rng(3);
  for (int t = 0; t < kTrials; ++t) {
    const Pose<double> c = rng.pose();
    const Vec6 v = rng.vec6();
    const Mat6 inv = dense_Ad(c).inverse();
    EXPECT_LT((hodyn::adjoint_inverse(c, v) - inv * v).norm(), 1e-12 * (1 + v.norm()));
    EXPECT_LT((hodyn::adjoint_inverse(c, hodyn::adjoint(c, v)) - v).norm(), 1e-12 * (1 + v.norm()));
    // Ad_{C^-1} = (Ad_C)^-1.
    EXPECT_LT(max_abs(hodyn::adjoint_matrix(c.inverse()) - inv), 1e-12);
  }
}

TEST(LieGroup, CoadjointIsTheTransposeAction) {
  Rng rng(4);
  for (int t = 0; t < kTrials; ++t) {
    const Pose<double> c = rng.pose();
    const Vec6 w = rng.vec6();
    const Mat6 ad_c = dense_Ad(c);
    EXPECT_LT((hodyn::coadjoint(c, w) - ad_c.transpose() * w).norm(), 1e-12 * (1 + w.norm()));
    EXPECT_LT((hodyn::coadjoint_inverse(c, w) - ad_c.inverse().transpose() * w).norm(),
              1e-12 * (1 + w.norm()));
    // Round trip and power invariance: (Ad^-T W)^T (Ad V) = W^T V.
    EXPECT_LT((hodyn::coadjoint(c, hodyn::coadjoint_inverse(c, w)) - w).norm(), 1e-12 * (1 + w.norm()));
    const Vec6 v = rng.vec6();
    EXPECT_NEAR(hodyn::coadjoint_inverse(c, w).dot(hodyn::adjoint(c, v)), w.dot(v), 1e-11);
  }
}

// ---- ad -------------------------------------------------------------------

TEST(LieGroup, AdIsTheMatrixCommutator) {
  Rng rng(5);
  for (int t = 0; t < kTrials; ++t) {
    const Vec6 v = rng.vec6();
    const Vec6 x = rng.vec6();
    const Vec6 expected = vee6(hat6(v) * hat6(x) - hat6(x) * hat6(v));
    EXPECT_LT((hodyn::ad<double>(v, x) - expected).norm(), 1e-12);
    EXPECT_LT(max_abs(hodyn::ad_matrix<double>(v) - dense_ad(v)), 1e-15);
    EXPECT_LT((hodyn::ad_matrix<double>(v) * x - expected).norm(), 1e-12);
  }
}

TEST(LieGroup, AdOfItselfIsZero) {
  Rng rng(6);
  for (int t = 0; t < kTrials; ++t) {
    const Vec6 v = rng.vec6();
    EXPECT_LT(hodyn::ad<double>(v, v).norm(), 1e-14);
  }
}

TEST(LieGroup, AdTransposeIsTheTransposedMatrix) {
  Rng rng(7);
  for (int t = 0; t < kTrials; ++t) {
    const Vec6 v = rng.vec6();
    const Vec6 w = rng.vec6();
    EXPECT_LT((hodyn::ad_transpose<double>(v, w) - dense_ad(v).transpose() * w).norm(), 1e-12);
    // Duality: (ad_V^T W)·X = W·(ad_V X).
    const Vec6 x = rng.vec6();
    EXPECT_NEAR(hodyn::ad_transpose<double>(v, w).dot(x), w.dot(hodyn::ad<double>(v, x)), 1e-12);
  }
}

TEST(LieGroup, JacobiIdentity) {
  Rng rng(8);
  for (int t = 0; t < kTrials; ++t) {
    const Vec6 x = rng.vec6();
    const Vec6 y = rng.vec6();
    const Vec6 z = rng.vec6();
    const Vec6 sum = hodyn::ad<double>(x, hodyn::ad<double>(y, z)) +
                     hodyn::ad<double>(y, hodyn::ad<double>(z, x)) +
                     hodyn::ad<double>(z, hodyn::ad<double>(x, y));
    EXPECT_LT(sum.norm(), 1e-12);
  }
}

TEST(LieGroup, AdjointConjugatesAd) {
  // Ad_C ad_X Ad_C^-1 = ad_{Ad_C X}, and Ad_C [X, Y] = [Ad_C X, Ad_C Y].
  Rng rng(9);
  for (int t = 0; t < kTrials; ++t) {
    const Pose<double> c = rng.pose();
    const Vec6 x = rng.vec6();
    const Vec6 y = rng.vec6();
    const Mat6 a = hodyn::adjoint_matrix(c);
    const Mat6 lhs = a * hodyn::ad_matrix<double>(x) * a.inverse();
    const Mat6 rhs = hodyn::ad_matrix<double>(hodyn::adjoint(c, x));
    EXPECT_LT(max_abs(lhs - rhs), 1e-11);
    EXPECT_LT((hodyn::adjoint(c, hodyn::ad<double>(x, y)) -
               hodyn::ad<double>(hodyn::adjoint(c, x), hodyn::adjoint(c, y)))
                  .norm(),
              1e-11);
  }
}

TEST(LieGroup, SkewIsTheCrossProduct) {
  Rng rng(10);
  for (int t = 0; t < kTrials; ++t) {
    const Vec3 a = rng.vec3();
    const Vec3 b = rng.vec3();
    EXPECT_LT((hodyn::skew<double>(a) * b - a.cross(b)).norm(), 1e-14);
  }
  const Vec6 v = hodyn::spatial_vector<double>(Vec3(1, 2, 3), Vec3(4, 5, 6));
  EXPECT_EQ(hodyn::angular(v), Vec3(1, 2, 3));
  EXPECT_EQ(hodyn::linear(v), Vec3(4, 5, 6));
}

// ---- exponential ----------------------------------------------------------

void expect_exp_matches_series(const Vec6& y, double q) {
  const Pose<double> c = hodyn::screw_exponential<double>(y, q);
  const Mat4 expected = expm_series(hat6(y) * q);
  EXPECT_LT(max_abs(homogeneous(c) - expected), 1e-12 * (1 + max_abs(expected)))
      << "Y = " << y.transpose() << ", q = " << q;
}

TEST(LieGroup, ScrewExponentialRevoluteMatchesSeries) {
  Rng rng(11);
  for (int t = 0; t < kTrials; ++t) {
    const Vec3 e = rng.unit3();
    const Vec3 point = rng.vec3();
    const Vec6 y = hodyn::spatial_vector<double>(e, point.cross(e));
    expect_exp_matches_series(y, rng.uniform(-3.0, 3.0));
    // The axis point is fixed by the motion.
    const Pose<double> c = hodyn::screw_exponential<double>(y, 0.7);
    EXPECT_LT((c.act(point) - point).norm(), 1e-12);
  }
}

TEST(LieGroup, ScrewExponentialPrismaticMatchesSeries) {
  Rng rng(12);
  for (int t = 0; t < kTrials; ++t) {
    const Vec3 e = rng.unit3();
    const Vec6 y = hodyn::spatial_vector<double>(Vec3::Zero(), e);
    expect_exp_matches_series(y, rng.uniform(-3.0, 3.0));
  }
}

TEST(LieGroup, ScrewExponentialHelicalMatchesSeries) {
  Rng rng(13);
  for (int t = 0; t < kTrials; ++t) {
    const Vec3 e = rng.unit3();
    const Vec3 point = rng.vec3();
    const double pitch = rng.normal();
    const Vec6 y = hodyn::spatial_vector<double>(e, point.cross(e) + pitch * e);
    expect_exp_matches_series(y, rng.uniform(-3.0, 3.0));
  }
}

TEST(LieGroup, ScrewExponentialAtZeroIsIdentity) {
  Rng rng(14);
  const Vec3 e = rng.unit3();
  const Pose<double> c = hodyn::screw_exponential<double>(hodyn::spatial_vector<double>(e, rng.vec3().cross(e)), 0.0);
  EXPECT_LT(max_abs(homogeneous(c) - Mat4::Identity()), 1e-15);
}

TEST(LieGroup, AxisAngleRotationIsARotation) {
  Rng rng(15);
  for (int t = 0; t < kTrials; ++t) {
    const Vec3 e = rng.unit3();
    const double q = rng.uniform(-7.0, 7.0);
    const Mat3 r = hodyn::axis_angle_rotation<double>(e, q);
    EXPECT_LT(max_abs(r.transpose() * r - Mat3::Identity()), 1e-14);
    EXPECT_NEAR(r.determinant(), 1.0, 1e-14);
    EXPECT_LT(max_abs(r - Eigen::AngleAxisd(q, e).toRotationMatrix()), 1e-14);
    EXPECT_LT((r * e - e).norm(), 1e-14);
  }
}

// ---- Pose -----------------------------------------------------------------

TEST(LieGroup, PoseRoundTrips) {
  Rng rng(16);
  for (int t = 0; t < kTrials; ++t) {
    const Pose<double> c = rng.pose();
    const Vec3 x = rng.vec3();
    // inverse
    EXPECT_LT(max_abs(homogeneous(c.inverse()) - homogeneous(c).inverse()), 1e-12);
    EXPECT_LT(max_abs(homogeneous(c * c.inverse()) - Mat4::Identity()), 1e-12);
    EXPECT_LT(max_abs(homogeneous(c.inverse() * c) - Mat4::Identity()), 1e-12);
    // act = homogeneous product
    const Eigen::Vector4d xh(x(0), x(1), x(2), 1.0);
    EXPECT_LT((c.act(x) - (homogeneous(c) * xh).head<3>()).norm(), 1e-12);
    EXPECT_LT((c.inverse().act(c.act(x)) - x).norm(), 1e-12);
    // matrix / from_matrix
    EXPECT_EQ(c.matrix(), homogeneous(c));
    const Pose<double> back = Pose<double>::from_matrix(c.matrix());
    EXPECT_EQ(back.rotation, c.rotation);
    EXPECT_EQ(back.translation, c.translation);
    EXPECT_EQ(c.matrix().row(3), Eigen::RowVector4d(0, 0, 0, 1));
    // composition is associative
    const Pose<double> c2 = rng.pose();
    const Pose<double> c3 = rng.pose();
    EXPECT_LT(max_abs(homogeneous((c * c2) * c3) - homogeneous(c * (c2 * c3))), 1e-12);
    // cast
    const Pose<float> cf = c.cast<float>();
    EXPECT_LT(max_abs(cf.matrix().cast<double>() - homogeneous(c)), 1e-6);
  }
  const Pose<double> id = Pose<double>::identity();
  EXPECT_EQ(id.matrix(), Mat4::Identity());
  const Pose<double> tr = Pose<double>::from_translation(Vec3(1, 2, 3));
  EXPECT_EQ(tr.act(Vec3(1, 1, 1)), Vec3(2, 3, 4));
  EXPECT_EQ(tr.rotation, Mat3::Identity());
}

}  // namespace
