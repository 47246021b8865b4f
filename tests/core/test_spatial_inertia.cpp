// SpatialInertia and SymmetricMatrix3 against dense 3x3 / 6x6 formulas
// written in the test and in support/dense_formulas.hpp.
#include <hodyn/pose.hpp>
#include <hodyn/spatial_inertia.hpp>
#include <hodyn/symmetric_matrix3.hpp>

#include "support/dense_formulas.hpp"
#include "support/error_metrics.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

namespace {

using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::SymmetricMatrix3;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;

constexpr int kTrials = 50;

// Rng and the independent helpers dense_Ad, hat3, max_abs (tests/support/:
// random.hpp, dense_formulas.hpp, error_metrics.hpp).
using namespace hodyn::test;

// Mb = [[I_c − m[c]², m[c]], [−m[c], m 1]] (seed 000 digest §1.2).
Mat6 dense_inertia(double m, const Vec3& c, const Mat3& ic) {
  Mat6 out;
  out.topLeftCorner<3, 3>() = ic - m * hat3(c) * hat3(c);
  out.topRightCorner<3, 3>() = m * hat3(c);
  out.bottomLeftCorner<3, 3>() = -m * hat3(c);
  out.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  return out;
}

TEST(SpatialInertia, MatrixMatchesTheTextbookFormula) {
  Rng rng(21);
  for (int t = 0; t < kTrials; ++t) {
    const double m = rng.uniform(0.1, 5.0);
    const Vec3 c = rng.vec3();
    const Mat3 ic = rng.inertia_about_com();
    const auto s = SpatialInertia<double>::from_mass_com_inertia(m, c, ic);
    EXPECT_LT(max_abs(s.matrix() - dense_inertia(m, c, ic)), 1e-12);
  }
}

TEST(SpatialInertia, FromMassComInertiaRoundTrip) {
  Rng rng(22);
  for (int t = 0; t < kTrials; ++t) {
    const double m = rng.uniform(0.1, 5.0);
    const Vec3 c = rng.vec3();
    const Mat3 ic = rng.inertia_about_com();
    const auto s = SpatialInertia<double>::from_mass_com_inertia(m, c, ic);
    EXPECT_EQ(s.mass, m);
    EXPECT_LT((s.first_moment - m * c).norm(), 1e-14);
    EXPECT_LT((s.com() - c).norm(), 1e-13);
    EXPECT_LT(max_abs(s.inertia_about_com() - ic), 1e-12);
    // Parallel-axis theorem: I_O = I_c + m (|c|² 1 − c cᵀ).
    EXPECT_LT(max_abs(s.rotational_inertia - (ic + m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose()))),
              1e-12);
  }
  // A massless body has its CoM at the origin.
  const SpatialInertia<double> zero{};
  EXPECT_EQ(zero.com(), Vec3::Zero());
}

TEST(SpatialInertia, MomentumIsMatrixTimesTwist) {
  Rng rng(23);
  for (int t = 0; t < kTrials; ++t) {
    const double m = rng.uniform(0.1, 5.0);
    const Vec3 c = rng.vec3();
    const Mat3 ic = rng.inertia_about_com();
    const auto s = SpatialInertia<double>::from_mass_com_inertia(m, c, ic);
    const Vec6 v = rng.vec6();
    EXPECT_LT((s.momentum(v) - dense_inertia(m, c, ic) * v).norm(), 1e-11);
  }
}

TEST(SpatialInertia, MatrixIsSymmetricPositiveSemidefinite) {
  Rng rng(24);
  for (int t = 0; t < kTrials; ++t) {
    const auto s = SpatialInertia<double>::from_mass_com_inertia(rng.uniform(0.1, 5.0), rng.vec3(),
                                                                 rng.inertia_about_com());
    const Mat6 mm = s.matrix();
    EXPECT_LT(max_abs(mm - mm.transpose()), 1e-13);  // I_c itself is symmetric to round-off
    const Eigen::SelfAdjointEigenSolver<Mat6> eig(mm);
    EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-12 * eig.eigenvalues().maxCoeff());
  }
}

TEST(SpatialInertia, TransformedMatchesAdjointCongruence) {
  Rng rng(25);
  for (int t = 0; t < kTrials; ++t) {
    const double m = rng.uniform(0.1, 5.0);
    const Vec3 c = rng.vec3();
    const Mat3 ic = rng.inertia_about_com();
    const auto s = SpatialInertia<double>::from_mass_com_inertia(m, c, ic);
    const Pose<double> x = rng.pose();
    const Mat6 ad_inv = dense_Ad(x).inverse();
    const Mat6 expected = ad_inv.transpose() * dense_inertia(m, c, ic) * ad_inv;
    const auto st = s.transformed(x);
    EXPECT_LT(max_abs(st.matrix() - expected), 1e-11 * (1 + max_abs(expected)));
    // Physical meaning: the CoM moves with X, I_c rotates with R.
    EXPECT_NEAR(st.mass, m, 0.0);
    EXPECT_LT((st.com() - x.act(c)).norm(), 1e-12);
    EXPECT_LT(max_abs(st.inertia_about_com() - x.rotation * ic * x.rotation.transpose()), 1e-11);
    // Transforming back recovers the original.
    const auto back = st.transformed(x.inverse());
    EXPECT_LT(max_abs(back.matrix() - s.matrix()), 1e-11 * (1 + max_abs(expected)));
  }
}

TEST(SpatialInertia, KineticEnergyIsFrameInvariant) {
  Rng rng(26);
  for (int t = 0; t < kTrials; ++t) {
    const auto s = SpatialInertia<double>::from_mass_com_inertia(rng.uniform(0.1, 5.0), rng.vec3(),
                                                                 rng.inertia_about_com());
    const Pose<double> x = rng.pose();
    const Vec6 v = rng.vec6();
    const Vec6 v_new = dense_Ad(x) * v;  // the twist seen in the new frame
    const double e_old = 0.5 * v.dot(s.matrix() * v);
    const double e_new = 0.5 * v_new.dot(s.transformed(x).matrix() * v_new);
    EXPECT_NEAR(e_new, e_old, 1e-11 * (1 + e_old));
    EXPECT_GE(e_old, 0.0);
    // Momentum co-transforms: M' (Ad V) = Ad^-T (M V).
    EXPECT_LT((s.transformed(x).momentum(v_new) - dense_Ad(x).inverse().transpose() * s.momentum(v)).norm(),
              1e-10 * (1 + s.momentum(v).norm()));
  }
}

TEST(SpatialInertia, CastKeepsValues) {
  const auto s = SpatialInertia<double>::from_mass_com_inertia(1.5, Vec3(0.1, -0.2, 0.3),
                                                               Vec3(0.01, 0.02, 0.03).asDiagonal().toDenseMatrix());
  const auto f = s.cast<float>();
  EXPECT_EQ(f.mass, 1.5f);
  EXPECT_LT((f.first_moment.cast<double>() - s.first_moment).norm(), 1e-7);
  EXPECT_LT(max_abs(f.rotational_inertia.cast<double>() - s.rotational_inertia), 1e-7);
}

// ---- SymmetricMatrix3 -----------------------------------------------------

Mat3 random_symmetric(Rng& rng) {
  Mat3 a;
  for (int i = 0; i < 9; ++i) a(i) = rng.normal();
  return a + a.transpose();
}

TEST(SymmetricMatrix3, MatrixRoundTripAndProduct) {
  Rng rng(31);
  for (int t = 0; t < kTrials; ++t) {
    const Mat3 x = random_symmetric(rng);
    const auto s = SymmetricMatrix3<double>::from_matrix(x);
    EXPECT_EQ(s.matrix(), x);
    const Vec3 v = rng.vec3();
    EXPECT_LT((s * v - x * v).norm(), 1e-13);
    const Mat3 y = random_symmetric(rng);
    const auto sy = SymmetricMatrix3<double>::from_matrix(y);
    EXPECT_LT(max_abs((s + sy).matrix() - (x + y)), 1e-14);
    EXPECT_LT(max_abs((s - sy).matrix() - (x - y)), 1e-14);
    EXPECT_LT(max_abs((s * 2.5).matrix() - 2.5 * x), 1e-14);
    auto acc = s;
    acc += sy;
    EXPECT_LT(max_abs(acc.matrix() - (x + y)), 1e-14);
  }
  EXPECT_EQ(SymmetricMatrix3<double>::zero().matrix(), Mat3::Zero());
}

TEST(SymmetricMatrix3, CongruenceIsRXRt) {
  Rng rng(32);
  for (int t = 0; t < kTrials; ++t) {
    const Mat3 x = random_symmetric(rng);
    const Mat3 r = rng.rotation();
    const auto s = SymmetricMatrix3<double>::from_matrix(x).congruence(r);
    EXPECT_LT(max_abs(s.matrix() - r * x * r.transpose()), 1e-13);
    // Any matrix, not only rotations.
    Mat3 a;
    for (int i = 0; i < 9; ++i) a(i) = rng.normal();
    EXPECT_LT(max_abs(SymmetricMatrix3<double>::from_matrix(x).congruence(a).matrix() - a * x * a.transpose()),
              1e-12);
  }
}

TEST(SymmetricMatrix3, SkewCommutator) {
  Rng rng(33);
  for (int t = 0; t < kTrials; ++t) {
    const Mat3 x = random_symmetric(rng);
    const Vec3 w = rng.vec3();
    const auto s = SymmetricMatrix3<double>::from_matrix(x).skew_commutator(w);
    EXPECT_LT(max_abs(s.matrix() - (hat3(w) * x - x * hat3(w))), 1e-13);
  }
}

TEST(SymmetricMatrix3, SkewCommutatorIsTheDerivativeOfARotatingInertia) {
  // I(t) = R(t) I0 R(t)ᵀ with R(t) = exp(t[ω]) R0: İ(0) = [ω]I − I[ω] (central difference).
  Rng rng(34);
  const Mat3 x = random_symmetric(rng);
  const Vec3 w = rng.vec3();
  const double h = 1e-5;
  const Mat3 rp = Eigen::AngleAxisd(h * w.norm(), w.normalized()).toRotationMatrix();
  const Mat3 rm = Eigen::AngleAxisd(-h * w.norm(), w.normalized()).toRotationMatrix();
  const Mat3 fd = (rp * x * rp.transpose() - rm * x * rm.transpose()) / (2 * h);
  const auto s = SymmetricMatrix3<double>::from_matrix(x).skew_commutator(w);
  EXPECT_LT(max_abs(s.matrix() - fd), 1e-8);
}

}  // namespace
