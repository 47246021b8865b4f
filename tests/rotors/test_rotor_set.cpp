// hodyn/models/rotor_set.hpp: the allocation formula against independent
// constructions (eq. 28 poses from Eigen::AngleAxis, wrench transforms as
// dense 6x6 matrices, moments from skew matrices), the spin convention from
// first principles, the TiltHex rotor set, the validity checks, the rank
// helpers and the heap-free claim.
#include <hodyn/models/actuation.hpp>
#include <hodyn/models/rotor_set.hpp>
#include <hodyn/models/tilthex.hpp>
#include <hodyn/models/tilthex_rotor_set.hpp>
#include <hodyn/pose.hpp>

#include "support/dense_formulas.hpp"
#include "support/heap_counter.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

namespace {

using hodyn::Rotor;
using hodyn::RotorField;
using hodyn::RotorSet;
using hodyn::Status;
using hodyn::test::hat3;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Geometry {
  double a = 0.4, alpha = 20 * kDeg, beta = 10 * kDeg, cf = 1.1e-5, cd = 1.8e-7;
  bool alt_tilt = true, alt_drag = true;
};

hodyn::TiltHexParameters params(const Geometry& g) {
  hodyn::TiltHexParameters p;
  p.alternate_tilt = g.alt_tilt;
  p.alternate_drag = g.alt_drag;
  return p;
}

// Eq. 28 as written: propeller i (1..6) sits at the 4x4 homogeneous product
// C_i = R_z((2−i)π/3) T_x(a) R_x(α_i) R_y(β) and makes (0, 0, c_{d,i}, 0, 0, c_f) ω²
// in its own frame; the base-frame wrench is Ad_{C_i}⁻ᵀ of it, with
// Ad_C = [R 0; [p]R R]. `dense_inverse`: Ad_C inverted numerically; else its
// textbook inverse transpose [R [p]R; 0 R].
Eigen::Matrix4d rotation4(int axis, double angle) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = Eigen::AngleAxisd(angle, Vec3::Unit(axis)).toRotationMatrix();
  return m;
}

Mat6 eq28_allocation(const Geometry& g, bool dense_inverse) {
  Mat6 a;
  for (int i = 1; i <= 6; ++i) {
    const double sign = (i % 2 == 1) ? 1.0 : -1.0;
    const double alpha = g.alt_tilt ? sign * g.alpha : g.alpha;
    Eigen::Matrix4d tx = Eigen::Matrix4d::Identity();
    tx(0, 3) = g.a;
    const Eigen::Matrix4d c =
        rotation4(2, (2 - i) * kPi / 3.0) * tx * rotation4(0, alpha) * rotation4(1, g.beta);
    const Mat3 r = c.topLeftCorner<3, 3>();
    const Vec3 p = c.topRightCorner<3, 1>();
    Vec6 w;
    w << 0, 0, g.alt_drag ? sign * g.cd : g.cd, 0, 0, g.cf;
    Mat6 ad = Mat6::Zero();
    if (dense_inverse) {
      ad.topLeftCorner<3, 3>() = r;
      ad.bottomLeftCorner<3, 3>() = hat3(p) * r;
      ad.bottomRightCorner<3, 3>() = r;
      a.col(i - 1) = ad.inverse().transpose() * w;
    } else {
      ad.topLeftCorner<3, 3>() = r;
      ad.topRightCorner<3, 3>() = hat3(p) * r;
      ad.bottomRightCorner<3, 3>() = r;
      a.col(i - 1) = ad * w;
    }
  }
  return a;
}

// The formula tilthex_allocation had before the rotor sets (seed 000), kept
// here to show that nothing changed: the same doubles, bit for bit.
template <class Scalar>
hodyn::Matrix6<Scalar> previous_tilthex_allocation(const hodyn::TiltHexParameters& p) {
  hodyn::Matrix6<Scalar> a;
  for (int i = 1; i <= 6; ++i) {
    const double sign = (i % 2 == 1) ? 1.0 : -1.0;
    const double cd = p.alternate_drag ? sign * p.drag_coefficient : p.drag_coefficient;
    hodyn::Wrench<Scalar> unit;
    unit << Scalar(0), Scalar(0), Scalar(cd), Scalar(0), Scalar(0), Scalar(p.thrust_coefficient);
    a.col(i - 1) = hodyn::coadjoint_inverse(hodyn::tilthex_propeller_pose<Scalar>(p, i), unit);
  }
  return a;
}

// max_ij |A_ij − E_ij| / |E_ij|.
double max_relative_entry_error(const Mat6& a, const Mat6& e) {
  double worst = 0;
  for (int c = 0; c < 6; ++c)
    for (int r = 0; r < 6; ++r)
      worst = std::max(worst, std::abs(a(r, c) - e(r, c)) / std::abs(e(r, c)));
  return worst;
}

TEST(TiltHexRotorSet, AllocationMatchesEquation28EntrywiseTo1e15) {
  for (const bool alt_tilt : {true, false})
    for (const bool alt_drag : {true, false}) {
      Geometry g;
      g.alt_tilt = alt_tilt;
      g.alt_drag = alt_drag;
      const Mat6 a = hodyn::rotor_allocation(hodyn::tilthex_rotor_set(params(g)));
      const Mat6 expected = eq28_allocation(g, false);
      const double err = max_relative_entry_error(a, expected);
      // Ad_C inverted numerically: a different rounding path (LU of a 6x6);
      // small entries of the moment rows come from cancellations, so a few ulps
      // of the large terms show up relatively larger there.
      const double err_dense = max_relative_entry_error(a, eq28_allocation(g, true));
      std::printf("alternate tilt %d drag %d: max relative entry error %.3g (dense inverse %.3g)\n",
                  alt_tilt, alt_drag, err, err_dense);
      EXPECT_LE(err, 1e-15) << "alternate tilt " << alt_tilt << ", drag " << alt_drag << "\n"
                            << a << "\nvs\n"
                            << expected;
      EXPECT_LE(err_dense, 1e-14) << "alternate tilt " << alt_tilt << ", drag " << alt_drag;
    }
}

TEST(TiltHexRotorSet, AllocationIsBitForBitThePreviousFormula) {
  for (const bool alt_tilt : {true, false})
    for (const bool alt_drag : {true, false}) {
      Geometry g;
      g.alt_tilt = alt_tilt;
      g.alt_drag = alt_drag;
      const hodyn::TiltHexParameters p = params(g);
      const Mat6 old = previous_tilthex_allocation<double>(p);
      EXPECT_TRUE(
          (hodyn::rotor_allocation(hodyn::tilthex_rotor_set(p)).array() == old.array()).all());
      EXPECT_TRUE((hodyn::tilthex_allocation<double>(p).array() == old.array()).all());
      const Eigen::Matrix<float, 6, 6> old_f = previous_tilthex_allocation<float>(p);
      EXPECT_TRUE(
          (hodyn::rotor_allocation(hodyn::tilthex_rotor_set<float>(p)).array() == old_f.array())
              .all());
      EXPECT_TRUE((hodyn::tilthex_allocation<float>(p).array() == old_f.array()).all());
    }
}

TEST(TiltHexRotorSet, RotorsAreTheDocumentedOnes) {
  // Speed loop: the plant simulator's and controller's RotorParameters defaults.
  const hodyn::RotorParameters speeds;
  EXPECT_EQ(speeds.min_speed, 100.0);
  EXPECT_EQ(speeds.max_speed, 1200.0);
  EXPECT_EQ(speeds.time_constant, 0.03);
  const RotorSet<6> set = hodyn::tilthex_rotor_set();
  EXPECT_EQ(hodyn::check_rotor_set(set), Status::kOk);
  for (int i = 0; i < 6; ++i) {
    const Rotor<double>& r = set[i];
    // Propeller i+1 of eq. 28: odd propellers (i even here) spin clockwise seen from above.
    EXPECT_EQ(r.spin, i % 2 == 0 ? -1 : 1) << "rotor " << i;
    EXPECT_EQ(r.thrust_coefficient, 1.1e-5);
    EXPECT_EQ(r.drag_coefficient, 1.8e-7);
    EXPECT_EQ(r.min_speed, speeds.min_speed);
    EXPECT_EQ(r.max_speed, speeds.max_speed);
    EXPECT_EQ(r.time_constant, speeds.time_constant);
    // On the circle of radius a in the base plane, at angle (1 − i)·60°.
    const double psi = (1 - i) * kPi / 3.0;
    EXPECT_NEAR(r.position(0), 0.4 * std::cos(psi), 1e-15) << "rotor " << i;
    EXPECT_NEAR(r.position(1), 0.4 * std::sin(psi), 1e-15) << "rotor " << i;
    EXPECT_EQ(r.position(2), 0.0);
    // Axis R_z R_x(α_i) R_y(β) e_z: vertical part cos α cos β.
    EXPECT_NEAR(r.axis(2), std::cos(20 * kDeg) * std::cos(10 * kDeg), 1e-15);
    EXPECT_NEAR(r.axis.norm(), 1.0, 1e-15);
  }
  // The literal eq. 28 (c_{d,i} = +c_d for all i): every propeller clockwise.
  hodyn::TiltHexParameters literal;
  literal.alternate_drag = false;
  for (const auto& r : hodyn::tilthex_rotor_set(literal).rotors) EXPECT_EQ(r.spin, -1);
}

// ---- the formula on arbitrary rotors ---------------------------------------

// A rotor turning counter-clockwise seen from the tip of its axis has angular
// velocity +ω a; air drag brakes it, so the motor pushes it along +a and the
// base feels the reaction −c_d ω² a. Thrust c_f ω² a at p gives the moment p × f.
TEST(RotorAllocation, SpinConventionFromFirstPrinciples) {
  Rotor<double> r;
  r.position = Vec3(1.0, 0.0, 0.0);
  r.axis = Vec3::UnitZ();
  r.thrust_coefficient = 2.0;
  r.drag_coefficient = 0.5;
  r.spin = 1;
  const Vec6 ccw = hodyn::rotor_wrench_per_speed_squared(r);
  // force (0,0,2) at (1,0,0): moment (0,−2,0); drag reaction −0.5 about z.
  EXPECT_EQ(ccw, (Vec6() << 0, -2, -0.5, 0, 0, 2).finished());
  r.spin = -1;
  const Vec6 cw = hodyn::rotor_wrench_per_speed_squared(r);
  EXPECT_EQ(cw, (Vec6() << 0, -2, 0.5, 0, 0, 2).finished());
}

template <int N>
RotorSet<N> random_rotor_set(hodyn::test::Rng& rng) {
  RotorSet<N> set;
  for (int i = 0; i < N; ++i) {
    Rotor<double>& r = set[i];
    r.position = 0.5 * rng.vec3();
    r.axis = rng.unit3();
    r.spin = i % 3 == 0 ? 1 : -1;
    r.thrust_coefficient = rng.uniform(1e-6, 2e-5);
    r.drag_coefficient = rng.uniform(0.0, 5e-7);
    r.min_speed = rng.uniform(0.0, 100.0);
    r.max_speed = r.min_speed + rng.uniform(100.0, 2000.0);
    r.time_constant = rng.uniform(0.01, 0.1);
  }
  return set;
}

TEST(RotorAllocation, ArbitraryRotorsMatchTheWrenchTransform) {
  hodyn::test::Rng rng(11);
  const RotorSet<8> set = random_rotor_set<8>(rng);
  ASSERT_EQ(hodyn::check_rotor_set(set), Status::kOk);
  const Eigen::Matrix<double, 6, 8> a = hodyn::rotor_allocation(set);
  for (int i = 0; i < 8; ++i) {
    const Rotor<double>& r = set[i];
    // Any rotor frame with z axis a at p: R = [x y a], and Ad_C⁻ᵀ (0,0,−s c_d, 0,0,c_f).
    const Vec3 x = r.axis.unitOrthogonal();
    Mat3 rot;
    rot << x, r.axis.cross(x), r.axis;
    Mat6 ad = Mat6::Zero();
    ad.topLeftCorner<3, 3>() = rot;
    ad.bottomLeftCorner<3, 3>() = hat3(r.position) * rot;
    ad.bottomRightCorner<3, 3>() = rot;
    Vec6 w;
    w << 0, 0, -r.spin * r.drag_coefficient, 0, 0, r.thrust_coefficient;
    const Vec6 expected = ad.inverse().transpose() * w;
    EXPECT_LT((a.col(i) - expected).norm(), 1e-14 * expected.norm()) << "rotor " << i;
  }
}

TEST(RotorAllocation, WrenchIsLinearInSquaredSpeeds) {
  hodyn::test::Rng rng(5);
  const RotorSet<7> set = random_rotor_set<7>(rng);
  Eigen::Matrix<double, 7, 1> omega;
  for (int i = 0; i < 7; ++i) omega(i) = rng.uniform(100.0, 1000.0);
  // Sum of the individual rotors' forces and moments about the base origin.
  Vec3 force = Vec3::Zero(), moment = Vec3::Zero();
  for (int i = 0; i < 7; ++i) {
    const Rotor<double>& r = set[i];
    const double w2 = omega(i) * omega(i);
    const Vec3 f = r.thrust_coefficient * w2 * r.axis;
    force += f;
    moment += hat3(r.position) * f - r.spin * r.drag_coefficient * w2 * r.axis;
  }
  const Vec6 w = hodyn::rotor_allocation(set) * omega.cwiseAbs2();
  EXPECT_LT((w.head<3>() - moment).norm(), 1e-13 * moment.norm());
  EXPECT_LT((w.tail<3>() - force).norm(), 1e-13 * force.norm());
}

// ---- constexpr data --------------------------------------------------------

constexpr std::array<hodyn::RotorData, 6> kHexData{{
    {{0.4, 0.0, 0.0}, {0.0, 0.0, 1.0}, -1, 1e-5, 2e-7, 50.0, 1000.0, 0.02},
    {{0.2, 0.3, 0.0}, {0.0, 0.6, 0.8}, 1, 1e-5, 2e-7, 50.0, 1000.0, 0.02},
    {{-0.2, 0.3, 0.0}, {0.6, 0.0, 0.8}, -1, 1e-5, 2e-7, 50.0, 1000.0, 0.02},
    {{-0.4, 0.0, 0.0}, {0.0, -0.6, 0.8}, 1, 1e-5, 2e-7, 50.0, 1000.0, 0.02},
    {{-0.2, -0.3, 0.0}, {-0.6, 0.0, 0.8}, -1, 1e-5, 2e-7, 50.0, 1000.0, 0.02},
    {{0.2, -0.3, 0.0}, {0.0, 0.0, 1.0}, 1, 1e-5, 2e-7, 50.0, 1000.0, 0.03},
}};
static_assert(kHexData[5].time_constant == 0.03, "RotorData is a literal type");

TEST(RotorData, ConvertsFieldByField) {
  const RotorSet<6, float> set = hodyn::rotor_set_from_data<float>(kHexData);
  for (int i = 0; i < 6; ++i) {
    const hodyn::RotorData& d = kHexData[static_cast<std::size_t>(i)];
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(set[i].position(k), static_cast<float>(d.position[k]));
      EXPECT_EQ(set[i].axis(k), static_cast<float>(d.axis[k]));
    }
    EXPECT_EQ(set[i].spin, d.spin);
    EXPECT_EQ(set[i].thrust_coefficient, static_cast<float>(d.thrust_coefficient));
    EXPECT_EQ(set[i].drag_coefficient, static_cast<float>(d.drag_coefficient));
    EXPECT_EQ(set[i].min_speed, static_cast<float>(d.min_speed));
    EXPECT_EQ(set[i].max_speed, static_cast<float>(d.max_speed));
    EXPECT_EQ(set[i].time_constant, static_cast<float>(d.time_constant));
  }
  EXPECT_EQ(hodyn::check_rotor_set(set), Status::kOk);
}

// ---- validity --------------------------------------------------------------

struct Case {
  const char* what;
  void (*spoil)(Rotor<double>&);
  Status status;
  RotorField field;
};

TEST(CheckRotor, EveryDefectIsNamed) {
  const Case cases[] = {
      {"NaN position", [](Rotor<double>& r) { r.position(1) = kNaN; }, Status::kNonFiniteInput,
       RotorField::kPosition},
      {"Inf axis", [](Rotor<double>& r) { r.axis(0) = kInf; }, Status::kNonFiniteInput,
       RotorField::kAxis},
      {"long axis", [](Rotor<double>& r) { r.axis *= 1.0 + 1e-8; }, Status::kInvalidModel,
       RotorField::kAxis},
      {"short axis", [](Rotor<double>& r) { r.axis *= 0.5; }, Status::kInvalidModel,
       RotorField::kAxis},
      {"zero axis", [](Rotor<double>& r) { r.axis.setZero(); }, Status::kInvalidModel,
       RotorField::kAxis},
      {"spin 0", [](Rotor<double>& r) { r.spin = 0; }, Status::kInvalidModel, RotorField::kSpin},
      {"spin 2", [](Rotor<double>& r) { r.spin = 2; }, Status::kInvalidModel, RotorField::kSpin},
      {"NaN c_f", [](Rotor<double>& r) { r.thrust_coefficient = kNaN; }, Status::kNonFiniteInput,
       RotorField::kThrustCoefficient},
      {"zero c_f", [](Rotor<double>& r) { r.thrust_coefficient = 0; }, Status::kInvalidModel,
       RotorField::kThrustCoefficient},
      {"negative c_f", [](Rotor<double>& r) { r.thrust_coefficient = -1e-5; },
       Status::kInvalidModel, RotorField::kThrustCoefficient},
      {"Inf c_d", [](Rotor<double>& r) { r.drag_coefficient = kInf; }, Status::kNonFiniteInput,
       RotorField::kDragCoefficient},
      {"negative c_d", [](Rotor<double>& r) { r.drag_coefficient = -1e-9; }, Status::kInvalidModel,
       RotorField::kDragCoefficient},
      {"NaN min speed", [](Rotor<double>& r) { r.min_speed = kNaN; }, Status::kNonFiniteInput,
       RotorField::kMinSpeed},
      {"negative min speed", [](Rotor<double>& r) { r.min_speed = -1; }, Status::kInvalidModel,
       RotorField::kMinSpeed},
      {"Inf max speed", [](Rotor<double>& r) { r.max_speed = kInf; }, Status::kNonFiniteInput,
       RotorField::kMaxSpeed},
      {"min > max", [](Rotor<double>& r) { r.min_speed = r.max_speed + 1; }, Status::kInvalidModel,
       RotorField::kMaxSpeed},
      {"min == max", [](Rotor<double>& r) { r.min_speed = r.max_speed; }, Status::kInvalidModel,
       RotorField::kMaxSpeed},
      {"NaN time constant", [](Rotor<double>& r) { r.time_constant = kNaN; },
       Status::kNonFiniteInput, RotorField::kTimeConstant},
      {"zero time constant", [](Rotor<double>& r) { r.time_constant = 0; }, Status::kInvalidModel,
       RotorField::kTimeConstant},
  };
  for (const Case& c : cases)
    for (int index = 0; index < 6; ++index) {
      RotorSet<6> set = hodyn::tilthex_rotor_set();
      c.spoil(set[index]);
      int rotor = -7;
      RotorField field = RotorField::kNone;
      EXPECT_EQ(hodyn::check_rotor_set(set, &rotor, &field), c.status) << c.what;
      EXPECT_EQ(rotor, index) << c.what;
      EXPECT_EQ(field, c.field) << c.what << ": " << hodyn::rotor_field_name(field);
    }
}

TEST(CheckRotor, AcceptsBoundaryValues) {
  Rotor<double> r = hodyn::tilthex_rotor_set()[0];
  r.drag_coefficient = 0;  // no drag torque
  r.min_speed = 0;         // may stop
  r.axis *= 1.0 + 1e-10;   // |a|² − 1 ≈ 2e-10 < 1e-9
  RotorField field = RotorField::kSpin;
  EXPECT_EQ(hodyn::check_rotor(r, &field), Status::kOk);
  EXPECT_EQ(field, RotorField::kNone);
  int rotor = 3;
  EXPECT_EQ(hodyn::check_rotor_set(hodyn::tilthex_rotor_set<float>(), &rotor), Status::kOk);
  EXPECT_EQ(rotor, -1);
}

TEST(CheckRotor, FieldNamesAreTheJsonKeys) {
  EXPECT_STREQ(hodyn::rotor_field_name(RotorField::kPosition), "position");
  EXPECT_STREQ(hodyn::rotor_field_name(RotorField::kAxis), "axis");
  EXPECT_STREQ(hodyn::rotor_field_name(RotorField::kSpin), "spin");
  EXPECT_STREQ(hodyn::rotor_field_name(RotorField::kThrustCoefficient), "thrust_coefficient");
  EXPECT_STREQ(hodyn::rotor_field_name(RotorField::kDragCoefficient), "drag_coefficient");
  EXPECT_STREQ(hodyn::rotor_field_name(RotorField::kMinSpeed), "min_speed");
  EXPECT_STREQ(hodyn::rotor_field_name(RotorField::kMaxSpeed), "max_speed");
  EXPECT_STREQ(hodyn::rotor_field_name(RotorField::kTimeConstant), "time_constant");
}

// ---- rank and condition ----------------------------------------------------

TEST(CheckAllocation, SingularValuesAndCondition) {
  const Mat6 a = hodyn::rotor_allocation(hodyn::tilthex_rotor_set());
  const Vec6 reference = Eigen::JacobiSVD<Eigen::MatrixXd>(Eigen::MatrixXd(a)).singularValues();
  const Vec6 sigma = hodyn::allocation_singular_values(a);
  EXPECT_LT((sigma - reference).norm(), 1e-12 * reference(0));
  double condition = 0;
  EXPECT_EQ(hodyn::check_allocation(a, 1e6, &condition), Status::kOk);
  EXPECT_NEAR(condition, reference(0) / reference(5), 1e-9 * condition);
  EXPECT_EQ(hodyn::check_allocation(a, 0.5 * condition), Status::kSingularAllocation);

  hodyn::TiltHexParameters literal;  // eq. 28 read literally: rank 3
  literal.alternate_tilt = false;
  literal.alternate_drag = false;
  EXPECT_EQ(
      hodyn::check_allocation(hodyn::rotor_allocation(hodyn::tilthex_rotor_set(literal)), 1e6),
      Status::kSingularAllocation);
  Mat6 bad = a;
  bad(2, 3) = kNaN;
  EXPECT_EQ(hodyn::check_allocation(bad, 1e6), Status::kNonFiniteInput);
}

TEST(CheckAllocation, WideMatrices) {
  hodyn::test::Rng rng(3);
  const Eigen::Matrix<double, 6, 8> a = hodyn::rotor_allocation(random_rotor_set<8>(rng));
  const Vec6 reference = Eigen::JacobiSVD<Eigen::MatrixXd>(Eigen::MatrixXd(a)).singularValues();
  EXPECT_LT((hodyn::allocation_singular_values(a) - reference).norm(), 1e-12 * reference(0));
  // Eight rotors, all on one vertical axis through the origin: only f_z and n_z.
  RotorSet<8> column = random_rotor_set<8>(rng);
  for (auto& r : column.rotors) {
    r.position = Vec3(0, 0, r.position(2));
    r.axis = Vec3::UnitZ();
  }
  const Vec6 s = hodyn::allocation_singular_values(hodyn::rotor_allocation(column));
  EXPECT_GT(s(1), 0.0);
  EXPECT_LT(s(2), 1e-15 * s(0));
}

// A NaN or an Inf entry: six NaNs. Eigen's JacobiSVD stops with InvalidInput
// before it writes a singular value, and the function used to return that
// uninitialized storage (g++ -O3 warned: "may be used uninitialized", a
// failed -Werror build; docs/sanitizers.md "Build types"). Each non-finite
// call follows a finite one of the same shape, so the stack holds finite
// singular values that the old code returned.
TEST(CheckAllocation, NonFiniteEntryGivesNaNSingularValues) {
  hodyn::test::Rng rng(5);
  const Mat6 a = hodyn::rotor_allocation(hodyn::tilthex_rotor_set());
  const Eigen::Matrix<double, 6, 8> b = hodyn::rotor_allocation(random_rotor_set<8>(rng));
  for (const double bad :
       {kNaN, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    ASSERT_TRUE(hodyn::allocation_singular_values(a).allFinite());
    Mat6 a_bad = a;
    a_bad(4, 1) = bad;
    const Vec6 s6 = hodyn::allocation_singular_values(a_bad);
    ASSERT_TRUE(hodyn::allocation_singular_values(b).allFinite());
    Eigen::Matrix<double, 6, 8> b_bad = b;
    b_bad(0, 7) = bad;
    const Vec6 s8 = hodyn::allocation_singular_values(b_bad);
    for (int i = 0; i < 6; ++i) {
      EXPECT_TRUE(std::isnan(s6(i)))
          << "N = 6, entry " << bad << ", sigma_" << i + 1 << " = " << s6(i);
      EXPECT_TRUE(std::isnan(s8(i)))
          << "N = 8, entry " << bad << ", sigma_" << i + 1 << " = " << s8(i);
    }
  }
}

// ---- heap-free ---------------------------------------------------------------

TEST(RotorSetHeapFree, ChecksAllocationAndSingularValues) {
  hodyn::test::Rng rng(9);
  const RotorSet<8> wide = random_rotor_set<8>(rng);
  double sink = 0;
  long n = 0;
  {
    hodyn::test::HeapProbe probe;
    const RotorSet<6> hex = hodyn::tilthex_rotor_set();
    const RotorSet<6, float> data = hodyn::rotor_set_from_data<float>(kHexData);
    const Mat6 a = hodyn::rotor_allocation(hex);
    const Eigen::Matrix<double, 6, 8> b = hodyn::rotor_allocation(wide);
    const Eigen::Matrix<float, 6, 6> c = hodyn::rotor_allocation(data);
    double condition = 0;
    const Status s1 = hodyn::check_rotor_set(hex);
    const Status s2 = hodyn::check_allocation(a, 1e6, &condition);
    const Vec6 sigma = hodyn::allocation_singular_values(b);
    const Eigen::Matrix<float, 6, 1> sigma_f = hodyn::allocation_singular_values(c);
    sink = a(1, 2) + b(3, 7) + condition + sigma(5) + static_cast<double>(sigma_f(0)) +
           static_cast<double>(s1 == Status::kOk) + static_cast<double>(s2 == Status::kOk);
    n = probe.count();
  }
  EXPECT_EQ(n, 0);
  EXPECT_TRUE(std::isfinite(sink));
}

}  // namespace
