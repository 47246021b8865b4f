// Physical consistency of inertial parameters (hodyn/physical_consistency.hpp)
// against what the test builds itself:
//   - pseudo-inertias as Σ mᵢ (rᵢ; 1)(rᵢ; 1)ᵀ of point masses placed in the
//     test: a point mass, a cloud, and the point sets with the second moments
//     of a solid box (two-point Gauss rule per axis, exact for x²) and of a
//     solid cylinder (rings at r/√2, layers at ±h/(2√3)), against the
//     textbook rotational inertias of those solids;
//   - consistency against the triangle inequalities of principal moments
//     drawn in the test, and against eigenvalues placed in J by the test;
//   - the projection against the characterization of the nearest point of a
//     closed convex set C: ⟨J − P, C − P⟩ ≤ 0 for every C in the set.
#include <hodyn/inertial_parameters.hpp>
#include <hodyn/model.hpp>
#include <hodyn/models/aerial_manipulator.hpp>
#include <hodyn/physical_consistency.hpp>
#include <hodyn/spatial_inertia.hpp>
#include <hodyn/status.hpp>

#include "support/heap_counter.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace {

using hodyn::BodyParameters;
using hodyn::PseudoInertia;
using hodyn::SpatialInertia;
using hodyn::Status;
using hodyn::test::Rng;
using Mat3 = Eigen::Matrix3d;
using Mat4 = Eigen::Matrix4d;
using Vec3 = Eigen::Vector3d;
using Vec4 = Eigen::Vector4d;
using Params = BodyParameters<double>;

struct PointMass {
  double mass;
  Vec3 position;
};

/// Σ mᵢ (rᵢ; 1)(rᵢ; 1)ᵀ — the definition of the pseudo-inertia.
Mat4 second_moments(const std::vector<PointMass>& points) {
  Mat4 j = Mat4::Zero();
  for (const PointMass& p : points) {
    const Vec4 r(p.position(0), p.position(1), p.position(2), 1.0);
    j += p.mass * r * r.transpose();
  }
  return j;
}

/// Σ mᵢ (|rᵢ|² 1 − rᵢ rᵢᵀ) about `origin` — the definition of the rotational inertia.
Mat3 rotational_inertia(const std::vector<PointMass>& points, const Vec3& origin) {
  Mat3 i = Mat3::Zero();
  for (const PointMass& p : points) {
    const Vec3 r = p.position - origin;
    i += p.mass * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
  }
  return i;
}

/// π of a body given by mass, centre of mass and inertia about it, through
/// the library's own SpatialInertia path.
Params body(double m, const Vec3& com, const Mat3& inertia_about_com) {
  return hodyn::to_parameters(
      SpatialInertia<double>::from_mass_com_inertia(m, com, inertia_about_com));
}

double max_abs(const Mat4& a) { return a.cwiseAbs().maxCoeff(); }
double smallest_eigenvalue(const Mat4& j) {
  return Eigen::SelfAdjointEigenSolver<Mat4>(j).eigenvalues()(0);
}

/// A random symmetric 4x4 with every eigenvalue ≥ floor: V diag(floor + |N|·s) Vᵀ,
/// some eigenvalues on the floor exactly.
Mat4 random_consistent_pseudo_inertia(Rng& rng, double floor, double scale) {
  Eigen::Matrix4d g;
  for (int i = 0; i < 16; ++i) g(i) = rng.normal();
  const Eigen::HouseholderQR<Mat4> qr(g);
  const Mat4 v = qr.householderQ();
  Vec4 lambda;
  for (int i = 0; i < 4; ++i)
    lambda(i) = floor + (rng.uniform(0, 1) < 0.25 ? 0.0 : scale * std::fabs(rng.normal()));
  return v * lambda.asDiagonal() * v.transpose();
}

// ---------------------------------------------------------------------------
// The pseudo-inertia map
// ---------------------------------------------------------------------------

TEST(PseudoInertia, PointMassIsItsSecondMoments) {
  Rng rng(11);
  for (int t = 0; t < 50; ++t) {
    const PointMass point{rng.uniform(0.01, 10.0), rng.vec3()};
    const Mat4 expected = second_moments({point});
    const Mat4 j = hodyn::pseudo_inertia(body(point.mass, point.position, Mat3::Zero()));
    EXPECT_LT(max_abs(j - expected), 1e-13 * max_abs(expected)) << "trial " << t;
  }
}

TEST(PseudoInertia, PointCloudIsItsSecondMoments) {
  Rng rng(12);
  for (int t = 0; t < 50; ++t) {
    std::vector<PointMass> cloud;
    double m = 0;
    Vec3 h = Vec3::Zero();
    for (int k = 0; k < 7; ++k) {
      cloud.push_back({rng.uniform(0.01, 3.0), rng.vec3()});
      m += cloud.back().mass;
      h += cloud.back().mass * cloud.back().position;
    }
    const Mat4 expected = second_moments(cloud);
    // π written directly from the definitions (no SpatialInertia involved) …
    Params direct;
    const Mat3 i = rotational_inertia(cloud, Vec3::Zero());
    direct << m, h(0), h(1), h(2), i(0, 0), i(0, 1), i(1, 1), i(0, 2), i(1, 2), i(2, 2);
    EXPECT_LT(max_abs(hodyn::pseudo_inertia(direct) - expected), 1e-13 * max_abs(expected));
    // … and through the centre of mass and the inertia about it.
    const Vec3 com = h / m;
    const Mat4 via_com = hodyn::pseudo_inertia(body(m, com, rotational_inertia(cloud, com)));
    EXPECT_LT(max_abs(via_com - expected), 1e-12 * max_abs(expected));
    EXPECT_EQ(hodyn::check_physical_consistency(direct), Status::kOk);
  }
}

TEST(PseudoInertia, SolidBoxMatchesEightPointsWithItsSecondMoments) {
  Rng rng(13);
  for (int t = 0; t < 20; ++t) {
    const double m = rng.uniform(0.1, 5.0);
    const Vec3 side(rng.uniform(0.05, 1.0), rng.uniform(0.05, 1.0), rng.uniform(0.05, 1.0));
    const Mat3 r = rng.rotation();
    const Vec3 com = rng.vec3();
    // Two-point Gauss nodes ±a/(2√3) integrate x² over [−a/2, a/2] exactly.
    std::vector<PointMass> points;
    for (int sx = -1; sx <= 1; sx += 2)
      for (int sy = -1; sy <= 1; sy += 2)
        for (int sz = -1; sz <= 1; sz += 2) {
          const Vec3 local(sx * side(0), sy * side(1), sz * side(2));
          points.push_back({m / 8, com + r * (local / (2 * std::sqrt(3.0)))});
        }
    // Textbook solid box: I_c = m/12 diag(b² + c², a² + c², a² + b²).
    const Vec3 s2 = side.cwiseAbs2();
    const Mat3 ic_box = m / 12 * Vec3(s2(1) + s2(2), s2(0) + s2(2), s2(0) + s2(1)).asDiagonal();
    const Mat3 ic = r * ic_box * r.transpose();
    const Mat4 expected = second_moments(points);
    EXPECT_LT(max_abs(hodyn::pseudo_inertia(body(m, com, ic)) - expected),
              1e-12 * max_abs(expected))
        << "trial " << t;
  }
}

TEST(PseudoInertia, SolidCylinderMatchesRingsWithItsSecondMoments) {
  Rng rng(14);
  for (int t = 0; t < 20; ++t) {
    const double m = rng.uniform(0.1, 5.0);
    const double radius = rng.uniform(0.02, 0.5), height = rng.uniform(0.02, 1.0);
    const Mat3 r = rng.rotation();
    const Vec3 com = rng.vec3();
    // A disk's mean ρ² is r²/2: five points on the circle r/√2 have it, and
    // mean cos², sin² of ½ and mean cos·sin of 0. Layers ±h/(2√3): mean z² = h²/12.
    std::vector<PointMass> points;
    constexpr int kRing = 5;
    for (int layer = -1; layer <= 1; layer += 2)
      for (int k = 0; k < kRing; ++k) {
        const double angle = 2 * std::acos(-1.0) * k / kRing;
        const Vec3 local(radius / std::sqrt(2.0) * std::cos(angle),
                         radius / std::sqrt(2.0) * std::sin(angle),
                         layer * height / (2 * std::sqrt(3.0)));
        points.push_back({m / (2 * kRing), com + r * local});
      }
    // Textbook solid cylinder about its axis z: m/12 (3r² + h²), same, m r²/2.
    const double across = m / 12 * (3 * radius * radius + height * height);
    const Mat3 ic = r * Vec3(across, across, m * radius * radius / 2).asDiagonal() * r.transpose();
    const Mat4 expected = second_moments(points);
    EXPECT_LT(max_abs(hodyn::pseudo_inertia(body(m, com, ic)) - expected),
              1e-12 * max_abs(expected))
        << "trial " << t;
  }
}

TEST(PseudoInertia, ParametersFromPseudoInertiaIsTheInverse) {
  Rng rng(15);
  for (int t = 0; t < 50; ++t) {
    Params p;
    for (int i = 0; i < 10; ++i) p(i) = rng.normal();  // any π, realisable or not
    EXPECT_LT(
        (hodyn::parameters_from_pseudo_inertia(hodyn::pseudo_inertia(p)) - p).cwiseAbs().maxCoeff(),
        1e-14);
    Mat4 g;
    for (int i = 0; i < 16; ++i) g(i) = rng.normal();
    const Mat4 j = g + g.transpose();
    EXPECT_LT(max_abs(hodyn::pseudo_inertia(hodyn::parameters_from_pseudo_inertia(j)) - j), 1e-14);
  }
  // Written out once: I = tr(Σ) 1 − Σ with Σ = diag(1, 2, 3), Σ₀₁ = 0.5;
  // h = (4, 5, 6); m = 7.
  Mat4 j = Mat4::Zero();
  j.topLeftCorner<3, 3>() << 1, 0.5, 0, 0.5, 2, 0, 0, 0, 3;
  j.topRightCorner<3, 1>() << 4, 5, 6;
  j.bottomLeftCorner<1, 3>() << 4, 5, 6;
  j(3, 3) = 7;
  Params expected;
  expected << 7, 4, 5, 6, /*xx*/ 5, /*xy*/ -0.5, /*yy*/ 4, /*xz*/ 0, /*yz*/ 0, /*zz*/ 3;
  EXPECT_EQ(hodyn::parameters_from_pseudo_inertia(j), expected);
}

TEST(PseudoInertia, EveryPassingBodyIsSixPointMasses) {
  // J ⪰ 0 with m > 0: Σ_c = Σ − h hᵀ/m ⪰ 0 (Schur complement), and m/6 at
  // c ± √(3 s_k/m) u_k (s_k, u_k the eigenpairs of Σ_c) have exactly J.
  Rng rng(16);
  int bodies = 0;
  for (int t = 0; t < 200; ++t) {
    const Params p =
        hodyn::parameters_from_pseudo_inertia(random_consistent_pseudo_inertia(rng, 0.0, 1.0));
    if (hodyn::check_physical_consistency(p) != Status::kOk || p(0) <= 1e-3) continue;
    ++bodies;
    const double m = p(0);
    const Vec3 c = p.segment<3>(1) / m;
    const Mat4 j = hodyn::pseudo_inertia(p);
    const Mat3 sigma_c = j.topLeftCorner<3, 3>() - m * c * c.transpose();
    const Eigen::SelfAdjointEigenSolver<Mat3> e(sigma_c);
    std::vector<PointMass> points;
    for (int k = 0; k < 3; ++k)
      for (int sign = -1; sign <= 1; sign += 2) {
        const double s = std::max(e.eigenvalues()(k), 0.0);
        points.push_back({m / 6, c + sign * std::sqrt(3 * s / m) * e.eigenvectors().col(k)});
      }
    EXPECT_LT(max_abs(second_moments(points) - j), 1e-9 * max_abs(j)) << "trial " << t;
  }
  EXPECT_GT(bodies, 50);
}

// ---------------------------------------------------------------------------
// The check
// ---------------------------------------------------------------------------

TEST(PhysicalConsistency, RandomRigidBodiesPass) {
  Rng rng(21);
  for (int t = 0; t < 500; ++t) {
    const double m = std::pow(10.0, rng.uniform(-2, 2));
    const Params p = body(m, rng.vec3(), rng.inertia_about_com(m));
    EXPECT_EQ(hodyn::check_physical_consistency(p), Status::kOk) << "trial " << t;
    EXPECT_TRUE(hodyn::is_physically_consistent(p));
  }
}

TEST(PhysicalConsistency, BoundaryBodiesPassWithTheDefaultTolerance) {
  // A point mass, a rod and a plate (J of rank 1, 2, 3), re-expressed in a
  // random frame: singular J, computed eigenvalue a rounding error below 0.
  Rng rng(22);
  for (int t = 0; t < 3000; ++t) {
    const double m = std::pow(10.0, rng.uniform(-3, 2));
    Vec3 sigma(0, 0, 0);  // principal second moments about the centre of mass
    if (t % 3 >= 1) sigma(0) = m * rng.uniform(0, 1);
    if (t % 3 >= 2) sigma(1) = m * rng.uniform(0, 1);
    const Mat3 r = rng.rotation();
    const Mat3 s = r * sigma.asDiagonal() * r.transpose();
    const Mat3 ic = s.trace() * Mat3::Identity() - s;
    const auto inertia = SpatialInertia<double>::from_mass_com_inertia(m, rng.vec3(), ic);
    const Params p = hodyn::to_parameters(inertia.transformed(rng.pose(3.0)));
    EXPECT_EQ(hodyn::check_physical_consistency(p), Status::kOk) << "trial " << t;
  }
}

TEST(PhysicalConsistency, TriangleInequalityViolationFailsThoughInertiaIsPositive) {
  // Principal moments 1, 1, 3 about the centre of mass: 1 + 1 < 3. I_c is
  // positive definite, and Model::set_body takes it; no mass distribution has
  // it (Σ_c = ½ tr(I_c) 1 − I_c = diag(1.5, 1.5, −0.5)).
  const Mat3 ic = Vec3(1, 1, 3).asDiagonal();
  ASSERT_GT(Eigen::SelfAdjointEigenSolver<Mat3>(ic).eigenvalues()(0), 0.0);
  hodyn::AerialManipulatorModel<double> model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  const auto inertia = SpatialInertia<double>::from_mass_com_inertia(1.0, Vec3::Zero(), ic);
  EXPECT_EQ(model.set_body(0, hodyn::Pose<double>::identity(), inertia), Status::kOk);
  EXPECT_EQ(hodyn::check_physical_consistency(hodyn::to_parameters(inertia)),
            Status::kNotPhysicallyConsistent);
  EXPECT_FALSE(hodyn::is_physically_consistent(hodyn::to_parameters(inertia)));
  // Consistency does not depend on the frame: off the centre of mass too.
  EXPECT_EQ(hodyn::check_physical_consistency(body(1.0, Vec3(0.3, -2, 1), ic)),
            Status::kNotPhysicallyConsistent);
  // J's smallest eigenvalue, at the centre of mass, is Σ_c's: −0.5.
  EXPECT_NEAR(smallest_eigenvalue(hodyn::pseudo_inertia(hodyn::to_parameters(inertia))), -0.5,
              1e-15);
}

TEST(PhysicalConsistency, PassesExactlyWhenPrincipalMomentsSatisfyTheTriangleInequalities) {
  // J ⪰ 0 ⇔ m ≥ 0 and Σ_c ⪰ 0 ⇔ principal moments I_a ≥ 0 with
  // I_a + I_b ≥ I_c (Σ_c's principal values are ½(I_a + I_b − I_c)).
  Rng rng(23);
  int passed = 0, failed = 0;
  for (int t = 0; t < 2000; ++t) {
    const Vec3 moments(rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0, 1));
    const double margin =
        std::min({moments(0) + moments(1) - moments(2), moments(0) + moments(2) - moments(1),
                  moments(1) + moments(2) - moments(0)});
    if (std::fabs(margin) < 1e-6) continue;
    const Mat3 r = rng.rotation();
    const double m = rng.uniform(0.1, 10);
    const Params p = body(m, rng.vec3(), r * moments.asDiagonal() * r.transpose());
    const bool triangle = margin > 0;
    EXPECT_EQ(hodyn::is_physically_consistent(p), triangle)
        << "moments " << moments.transpose() << " margin " << margin;
    (triangle ? passed : failed)++;
  }
  EXPECT_GT(passed, 500);  // both sides visited
  EXPECT_GT(failed, 500);
}

TEST(PhysicalConsistency, NegativeMassFails) {
  Params p = body(1.0, Vec3(0.1, 0.2, 0.3), Vec3(0.02, 0.03, 0.04).asDiagonal());
  ASSERT_EQ(hodyn::check_physical_consistency(p), Status::kOk);
  p(0) = -1.0;
  EXPECT_EQ(hodyn::check_physical_consistency(p), Status::kNotPhysicallyConsistent);
  // A negative point mass with nothing else: J = diag(0, 0, 0, m).
  Params negative = Params::Zero();
  negative(0) = -1e-3;
  EXPECT_EQ(hodyn::check_physical_consistency(negative), Status::kNotPhysicallyConsistent);
  // The massless body (J = 0) is consistent.
  EXPECT_EQ(hodyn::check_physical_consistency(Params::Zero()), Status::kOk);
}

TEST(PhysicalConsistency, ToleranceIsRelativeToTheLargestEigenvalue) {
  Rng rng(24);
  for (int t = 0; t < 20; ++t) {
    Mat4 g;
    for (int i = 0; i < 16; ++i) g(i) = rng.normal();
    const Mat4 v = Eigen::HouseholderQR<Mat4>(g).householderQ();
    const double scale = std::pow(10.0, rng.uniform(-3, 3));
    const double delta = 1e-6;
    const Vec4 lambda(-delta * scale, 0.2 * scale, 0.5 * scale, scale);  // λ_max = scale
    const Params p =
        hodyn::parameters_from_pseudo_inertia(Mat4(v * lambda.asDiagonal() * v.transpose()));
    EXPECT_EQ(hodyn::check_physical_consistency(p, 2 * delta), Status::kOk);
    EXPECT_EQ(hodyn::check_physical_consistency(p, 0.5 * delta), Status::kNotPhysicallyConsistent);
    EXPECT_EQ(hodyn::check_physical_consistency(p), Status::kNotPhysicallyConsistent);
  }
}

TEST(PhysicalConsistency, BadInputGivesItsOwnStatus) {
  const Params good = body(2.0, Vec3(0.1, 0, 0), Vec3(0.1, 0.1, 0.1).asDiagonal());
  for (int i = 0; i < 10; ++i) {
    for (double bad :
         {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
          -std::numeric_limits<double>::infinity()}) {
      Params p = good;
      p(i) = bad;
      EXPECT_EQ(hodyn::check_physical_consistency(p), Status::kNonFiniteInput) << "entry " << i;
      EXPECT_FALSE(hodyn::is_physically_consistent(p));
    }
  }
  // Finite, but ½ tr(I) overflows.
  Params huge = good;
  huge(4) = huge(6) = huge(9) = std::numeric_limits<double>::max();
  EXPECT_EQ(hodyn::check_physical_consistency(huge), Status::kNonFiniteResult);
  EXPECT_EQ(hodyn::check_physical_consistency(good, -1e-9), Status::kInvalidArgument);
  EXPECT_EQ(hodyn::check_physical_consistency(good, std::numeric_limits<double>::quiet_NaN()),
            Status::kInvalidArgument);
  EXPECT_STREQ(hodyn::to_string(Status::kNotPhysicallyConsistent), "not physically consistent");
}

TEST(PhysicalConsistency, ModelReportsTheFirstFailingBody) {
  hodyn::AerialManipulatorModel<double> model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  int failing = 99;
  const auto p = hodyn::model_parameters(model);
  EXPECT_EQ(hodyn::check_model_physical_consistency(p, failing), Status::kOk);
  EXPECT_EQ(failing, -1);

  // Links with principal moments (1, 1, 3)·10⁻³ kg m²: the builder (set_body)
  // takes them; body 1 is the first link.
  hodyn::AerialManipulatorParameters bad_links;
  bad_links.link_inertia = {0.001, 0.001, 0.003};
  ASSERT_EQ(hodyn::make_aerial_manipulator(model, bad_links), Status::kOk);
  EXPECT_EQ(hodyn::check_model_physical_consistency(hodyn::model_parameters(model), failing),
            Status::kNotPhysicallyConsistent);
  EXPECT_EQ(failing, 1);

  auto q = p;
  q(10 * 5 + 0) = -1.0;                                      // body 5: negative mass
  q(10 * 3 + 7) = std::numeric_limits<double>::quiet_NaN();  // body 3: NaN, first
  EXPECT_EQ(hodyn::check_model_physical_consistency(q, failing), Status::kNonFiniteInput);
  EXPECT_EQ(failing, 3);
  q(10 * 3 + 7) = p(10 * 3 + 7);
  EXPECT_EQ(hodyn::check_model_physical_consistency(q, failing), Status::kNotPhysicallyConsistent);
  EXPECT_EQ(failing, 5);
  EXPECT_EQ(hodyn::check_model_physical_consistency(p, failing, -1.0), Status::kInvalidArgument);
  EXPECT_EQ(failing, -1);
}

// ---------------------------------------------------------------------------
// The projection
// ---------------------------------------------------------------------------

TEST(Projection, ConsistentParametersAreReturnedUnchanged) {
  Rng rng(31);
  for (int t = 0; t < 100; ++t) {
    const double m = rng.uniform(0.1, 10);
    const Params p = body(m, rng.vec3(), rng.inertia_about_com(m));
    Params out = Params::Constant(7.0);
    ASSERT_EQ(hodyn::project_to_physically_consistent(p, 0.0, out), Status::kOk);
    EXPECT_LE((out - p).cwiseAbs().maxCoeff(), 1e-12 * p.cwiseAbs().maxCoeff());
  }
}

/// Projects random inconsistent π with floor μ and checks the result against
/// the nearest-point characterization over random members of {J ⪰ μ 1}.
void expect_nearest_consistent(double floor, unsigned seed) {
  Rng rng(seed);
  int projected_count = 0;
  for (int t = 0; t < 100; ++t) {
    // Even trials: any π (N(0, 1) entries); odd: a thin rigid body plus
    // noise, as an identification might return it.
    Params p;
    if (t % 2 == 0) {
      for (int i = 0; i < 10; ++i) p(i) = rng.normal();
    } else {
      const Mat3 r = rng.rotation();
      p = body(1.0, rng.vec3(), r * Vec3(0.1, 0.1, 0.0011).asDiagonal() * r.transpose());
      for (int i = 0; i < 10; ++i) p(i) += 0.01 * rng.normal();
    }
    const Mat4 j_in = hodyn::pseudo_inertia(p);
    if (smallest_eigenvalue(j_in) >= floor) continue;
    ++projected_count;
    Params out;
    ASSERT_EQ(hodyn::project_to_physically_consistent(p, floor, out), Status::kOk);
    const Mat4 j_out = hodyn::pseudo_inertia(out);
    const double size = max_abs(j_in);
    // In the set, and a consistent body.
    EXPECT_GE(smallest_eigenvalue(j_out), floor - 1e-14 * size) << "trial " << t;
    EXPECT_EQ(hodyn::check_physical_consistency(out), Status::kOk);
    // Nearest: ⟨J − P, C − P⟩ ≤ 0 and |J − P| ≤ |J − C| for every C in the set.
    for (int k = 0; k < 50; ++k) {
      const Mat4 c = random_consistent_pseudo_inertia(rng, floor, size);
      const double inner = ((j_in - j_out).cwiseProduct(c - j_out)).sum();
      EXPECT_LE(inner, 1e-12 * size * size) << "trial " << t << " member " << k;
      EXPECT_LE((j_in - j_out).norm(), (j_in - c).norm() + 1e-12 * size);
    }
    // The eigenvalue clamp V max(Λ, μ) Vᵀ, rebuilt here from a dense
    // decomposition of its own.
    const Eigen::SelfAdjointEigenSolver<Mat4> e(j_in);
    const Mat4 clamp = e.eigenvectors() * e.eigenvalues().cwiseMax(floor).asDiagonal() *
                       e.eigenvectors().transpose();
    EXPECT_LT(max_abs(j_out - clamp), 1e-13 * size);
    // Idempotent.
    Params again;
    ASSERT_EQ(hodyn::project_to_physically_consistent(out, floor, again), Status::kOk);
    EXPECT_LE((again - out).cwiseAbs().maxCoeff(), 1e-12 * size);
  }
  EXPECT_GT(projected_count, 80);  // the N(0, 1) ones all are, most noisy ones (97, 95 seen)
}

TEST(Projection, IsTheNearestPointOfTheSemidefiniteCone) { expect_nearest_consistent(0.0, 32); }

TEST(Projection, IsTheNearestPointWithAFloorOnTheEigenvalues) {
  expect_nearest_consistent(1e-3, 33);
}

TEST(Projection, TriangleViolationBecomesABody) {
  const Params p = body(1.0, Vec3(0.2, 0, -0.1), Vec3(1, 1, 3).asDiagonal());
  Params out;
  ASSERT_EQ(hodyn::project_to_physically_consistent(p, 1e-6, out), Status::kOk);
  EXPECT_EQ(hodyn::check_physical_consistency(out), Status::kOk);
  EXPECT_GT(out(0), 0.0);
  // Its principal moments about its centre of mass satisfy the triangle inequalities.
  const SpatialInertia<double> s = hodyn::from_parameters<double>(out);
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(s.inertia_about_com()).eigenvalues();
  EXPECT_GE(moments(0) + moments(1), moments(2));
}

TEST(Projection, OutputMayBeTheInput) {
  const Params bad = body(1.0, Vec3(0.2, 0, -0.1), Vec3(1, 1, 3).asDiagonal());
  Params separate;
  ASSERT_EQ(hodyn::project_to_physically_consistent(bad, 1e-6, separate), Status::kOk);
  Params in_place = bad;
  ASSERT_EQ(hodyn::project_to_physically_consistent(in_place, 1e-6, in_place), Status::kOk);
  EXPECT_EQ(in_place, separate);
  Params good = body(2.0, Vec3(0.1, 0, 0), Vec3(0.1, 0.1, 0.1).asDiagonal());
  const Params good_copy = good;
  ASSERT_EQ(hodyn::project_to_physically_consistent(good, 0.0, good), Status::kOk);
  EXPECT_EQ(good, good_copy);
}

TEST(Projection, BadInputGivesAStatusAndTheMasslessBody) {
  const Params good = body(2.0, Vec3(0.1, 0, 0), Vec3(0.1, 0.1, 0.1).asDiagonal());
  Params out = Params::Constant(3.0);
  Params nan = good;
  nan(6) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::project_to_physically_consistent(nan, 0.0, out), Status::kNonFiniteInput);
  EXPECT_EQ(out, Params::Zero());
  out.setConstant(3.0);
  EXPECT_EQ(hodyn::project_to_physically_consistent(good, -1e-3, out), Status::kInvalidArgument);
  EXPECT_EQ(out, Params::Zero());
  out.setConstant(3.0);
  EXPECT_EQ(
      hodyn::project_to_physically_consistent(good, std::numeric_limits<double>::infinity(), out),
      Status::kInvalidArgument);
  EXPECT_EQ(out, Params::Zero());
}

// ---------------------------------------------------------------------------
// float, and no heap
// ---------------------------------------------------------------------------

TEST(PhysicalConsistency, FloatBuildsAndRuns) {
  Rng rng(41);
  for (int t = 0; t < 200; ++t) {
    const double m = rng.uniform(0.1, 10);
    const BodyParameters<float> p = body(m, rng.vec3(), rng.inertia_about_com(m)).cast<float>();
    EXPECT_EQ(hodyn::check_physical_consistency(p), Status::kOk) << "trial " << t;
  }
  const BodyParameters<float> bad =
      body(1.0, Vec3(0.2, 0, -0.1), Vec3(1, 1, 3).asDiagonal()).cast<float>();
  EXPECT_EQ(hodyn::check_physical_consistency(bad), Status::kNotPhysicallyConsistent);
  BodyParameters<float> out;
  ASSERT_EQ(hodyn::project_to_physically_consistent(bad, 0.0f, out), Status::kOk);
  EXPECT_EQ(hodyn::check_physical_consistency(out), Status::kOk);
  // The same answer as in double, to float precision.
  Params out_double;
  ASSERT_EQ(hodyn::project_to_physically_consistent(bad.cast<double>(), 0.0, out_double),
            Status::kOk);
  EXPECT_LT((out.cast<double>() - out_double).cwiseAbs().maxCoeff(), 1e-5);
  EXPECT_LT((hodyn::parameters_from_pseudo_inertia(hodyn::pseudo_inertia(bad)) - bad)
                .cwiseAbs()
                .maxCoeff(),
            1e-6f);
}

TEST(PhysicalConsistency, NoHeap) {
  hodyn::AerialManipulatorModel<double> model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  const auto model_params = hodyn::model_parameters(model);
  const Params good = body(2.0, Vec3(0.1, 0, 0), Vec3(0.1, 0.1, 0.1).asDiagonal());
  const Params bad = body(1.0, Vec3(0.2, 0, -0.1), Vec3(1, 1, 3).asDiagonal());
  const BodyParameters<float> bad_float = bad.cast<float>();
  Params out;
  BodyParameters<float> out_float;
  int failing = 0;
  Status s[6];
  const hodyn::test::HeapProbe probe;
  s[0] = hodyn::check_physical_consistency(good);
  s[1] = hodyn::check_physical_consistency(bad);
  s[2] = hodyn::check_model_physical_consistency(model_params, failing);
  s[3] = hodyn::project_to_physically_consistent(good, 0.0, out);
  s[4] = hodyn::project_to_physically_consistent(bad, 1e-6, out);
  s[5] = hodyn::project_to_physically_consistent(bad_float, 0.0f, out_float);
  const long allocations = probe.count();
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(s[0], Status::kOk);
  EXPECT_EQ(s[1], Status::kNotPhysicallyConsistent);
  EXPECT_EQ(s[2], Status::kOk);
  EXPECT_EQ(s[3], Status::kOk);
  EXPECT_EQ(s[4], Status::kOk);
  EXPECT_EQ(s[5], Status::kOk);
}

}  // namespace
