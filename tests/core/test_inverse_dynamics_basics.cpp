// Basic checks of hodyn::inverse_dynamics against results derived by hand
// (statics of the aerial manipulator) and against finite differences in time
// of the order-0 algorithm along smooth trajectories.
//
// Finite-difference oracle. Joint trajectories q(t) and the base twist V1(t)
// are random polynomials of degree 6; the base pose C1(t) solves
// Ċ = [V1(t)] C, C(0) = C0, by its Taylor series: with C(t) = Σ C_n tⁿ,
// (n+1) C_{n+1} = Σ_i [V_i] C_{n−i} (V_i the polynomial coefficients of V1),
// summed to degree 25. At |t| ≤ 2h = 4e-3 the first neglected term is below
// (|V| t)²⁶/26! ≈ 1e-80, so C1(t) is exact to round-off. All other inputs
// at time t are exact derivatives of the polynomials.
//
// Step h = 2e-3 with the 5-point stencils
//   f'(0)  ≈ (f(−2h) − 8f(−h) + 8f(h) − f(2h)) / (12h),        error ≈ h⁴ f⁽⁵⁾/30
//   f''(0) ≈ (−f(−2h) + 16f(−h) − 30f(0) + 16f(h) − f(2h)) / (12h²), error ≈ h⁴ f⁽⁶⁾/90
// gives truncation errors ~1e-12 f⁽⁵⁾ and ~2e-13 f⁽⁶⁾, and round-off errors of
// about ε|f|·18/(12h) ≈ 2e-13|f| and ε|f|·64/(12h²) ≈ 3e-10|f|; both are far
// below the required 1e-6 (order 1) and 1e-4 (order 2) relative errors for
// derivatives of moderate size, while a wrong term in the recursion (a missing
// binomial, a sign) changes the result at O(1).
#include <hodyn/hodyn.hpp>

#include "support/dense_formulas.hpp"
#include "support/error_metrics.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>

namespace {

using hodyn::JointKind;
using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using Mat4 = Eigen::Matrix4d;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;

constexpr double kG = 9.81;
constexpr int kMaxOrder = 5;

// ---- independent helpers (tests/support/) ---------------------------------

// Rng and the independent helpers dense_Ad, expm_series, hat6, homogeneous,
// rel_err, v6 (tests/support/: random.hpp, dense_formulas.hpp,
// error_metrics.hpp).
using namespace hodyn::test;

// ---- models ---------------------------------------------------------------

using AMTree = hodyn::AerialManipulatorTree;
using AMModel = hodyn::AerialManipulatorModel<double>;

// A small tree with every joint family: two branches off the base.
struct RandomTree {
  static constexpr int kNumBodies = 6;
  static constexpr std::array<int, 6> kParent{-1, 0, 1, 0, 3, 4};
  static constexpr std::array<JointKind, 6> kJoint{JointKind::kFloatingBase, JointKind::kRevolute,
                                                   JointKind::kPrismatic,    JointKind::kRevoluteZ,
                                                   JointKind::kPrismaticX,   JointKind::kRevolute};
};
using RandomModel = hodyn::Model<RandomTree, double>;

void make_random_model(RandomModel& model, Rng& rng) {
  for (int j = 0; j < RandomTree::kNumBodies; ++j) {
    const auto inertia = SpatialInertia<double>::from_mass_com_inertia(rng.uniform(0.5, 2.0), 0.1 * rng.vec3(),
                                                                       rng.inertia_about_com(0.05));
    ASSERT_EQ(model.set_body(j, rng.pose(0.5), inertia), Status::kOk);
  }
  ASSERT_EQ(model.set_revolute_axis(1, rng.unit3(), 0.5 * rng.vec3()), Status::kOk);
  ASSERT_EQ(model.set_prismatic_axis(2, rng.unit3()), Status::kOk);
  ASSERT_EQ(model.set_revolute_axis(3, Vec3::UnitZ(), 0.5 * rng.vec3()), Status::kOk);
  ASSERT_EQ(model.set_prismatic_axis(4, Vec3::UnitX()), Status::kOk);
  ASSERT_EQ(model.set_revolute_axis(5, rng.unit3(), 0.5 * rng.vec3()), Status::kOk);
  ASSERT_EQ(model.set_gravity(Vec3(0.3, -0.2, -9.81)), Status::kOk);
}

// Joint poses F_j = F_p exp([Y_j] q_j), F_0 = C1 (A⁰_0)⁻¹, and body poses C_j = F_j A⁰_j.
template <class Tree>
void poses(const hodyn::Model<Tree, double>& model, const Mat4& c1,
           const typename hodyn::Model<Tree, double>::JointVector& q, std::array<Mat4, Tree::kNumBodies>& f,
           std::array<Mat4, Tree::kNumBodies>& c) {
  f[0] = c1 * homogeneous(model.home_pose(0)).inverse();
  for (int j = 1; j < Tree::kNumBodies; ++j)
    f[j] = f[Tree::kParent[j]] * expm_series(hat6(model.joint_screw(j)) * q(j - 1));
  for (int j = 0; j < Tree::kNumBodies; ++j) c[j] = f[j] * homogeneous(model.home_pose(j));
}

// ---- trajectories ---------------------------------------------------------

constexpr int kDegree = 6;
constexpr int kPoseSeriesDegree = 25;

double falling(int k, int m) {  // k!/(k−m)!
  double r = 1;
  for (int i = 0; i < m; ++i) r *= k - i;
  return r;
}

template <class V, std::size_t N>
V poly_derivative(const std::array<V, N>& coeff, int m, double t) {
  V sum = coeff[0] * 0.0;
  for (int k = static_cast<int>(N) - 1; k >= m; --k) sum = sum * t + coeff[k] * falling(k, m);
  return sum;
}

template <class Tree>
struct Trajectory {
  static constexpr int kN = Tree::kNumBodies;
  using Model = hodyn::Model<Tree, double>;
  using JointVector = typename Model::JointVector;
  using Motion = hodyn::MotionDerivatives<Tree, kMaxOrder, double>;
  using Loads = hodyn::ExternalLoads<Tree, kMaxOrder, double>;
  using Data = hodyn::InverseDynamicsData<Tree, kMaxOrder, double>;

  std::array<Vec6, kDegree + 1> twist{};
  std::array<JointVector, kDegree + 1> q{};
  std::array<Mat4, kPoseSeriesDegree + 1> pose_series{};
  bool with_loads = false;
  std::array<std::array<Vec6, kDegree + 1>, kN> world{}, body{};
  std::array<JointVector, kDegree + 1> tau_ext{};
  std::array<bool, kN> has_world{}, has_body{};

  Trajectory(Rng& rng, const Mat4& c0, bool loads) : with_loads(loads) {
    for (auto& v : twist) v = rng.vec6();
    for (auto& x : q)
      for (int i = 0; i < x.size(); ++i) x(i) = rng.normal();
    pose_series[0] = c0;
    for (int n = 0; n < kPoseSeriesDegree; ++n) {
      Mat4 s = Mat4::Zero();
      for (int i = 0; i <= std::min(n, kDegree); ++i) s += hat6(twist[i]) * pose_series[n - i];
      pose_series[n + 1] = s / static_cast<double>(n + 1);
    }
    for (int j = 0; j < kN; ++j) {
      has_world[j] = loads && (j % 2 == 1);
      has_body[j] = loads && (j % 3 != 1);
      for (auto& w : world[j]) w = rng.vec6();
      for (auto& w : body[j]) w = rng.vec6();
    }
    for (auto& x : tau_ext)
      for (int i = 0; i < x.size(); ++i) x(i) = loads ? rng.normal() : 0.0;
  }

  Mat4 base_pose(double t) const {
    Mat4 c = Mat4::Zero();
    for (int n = kPoseSeriesDegree; n >= 0; --n) c = c * t + pose_series[n];
    return c;
  }

  void fill(double t, Motion& m, Loads& l) const {
    m.base_pose = Pose<double>::from_matrix(base_pose(t));
    for (int k = 0; k <= kMaxOrder + 1; ++k) m.base_twist[k] = poly_derivative(twist, k, t);
    for (int k = 0; k <= kMaxOrder + 2; ++k) m.q[k] = poly_derivative(q, k, t);
    l.clear();
    for (int j = 0; j < kN; ++j) {
      l.has_world_wrench[j] = has_world[j];
      l.has_body_wrench[j] = has_body[j];
      for (int k = 0; k <= kMaxOrder; ++k) {
        l.world_wrench[j][k] = poly_derivative(world[j], k, t);
        l.body_wrench[j][k] = poly_derivative(body[j], k, t);
      }
    }
    for (int k = 0; k <= kMaxOrder; ++k) l.joint_torque[k] = poly_derivative(tau_ext, k, t);
  }

  // Stacked outputs of derivative k of a call of the given order at time t.
  struct Out {
    Eigen::VectorXd base, base_body, tau;
  };
  Out run(const Model& model, double t, int order, int k) const {
    auto motion = std::make_unique<Motion>();
    auto loads = std::make_unique<Loads>();
    auto data = std::make_unique<Data>();
    fill(t, *motion, *loads);
    const Status s = hodyn::inverse_dynamics(model, *data, *motion, with_loads ? loads.get() : nullptr, order);
    EXPECT_EQ(s, Status::kOk) << hodyn::to_string(s);
    return {data->base_wrench[k], data->base_wrench_body[k], data->joint_torque[k]};
  }
};

template <class Tree>
void check_finite_differences(const hodyn::Model<Tree, double>& model, const Trajectory<Tree>& traj,
                              const char* label) {
  const double h = 2e-3;
  using Out = typename Trajectory<Tree>::Out;
  const auto first = [&](const Out& m2, const Out& m1, const Out& p1, const Out& p2) {
    const auto d = [&](const Eigen::VectorXd& a, const Eigen::VectorXd& b, const Eigen::VectorXd& c,
                       const Eigen::VectorXd& e) -> Eigen::VectorXd { return (a - 8 * b + 8 * c - e) / (12 * h); };
    return Out{d(m2.base, m1.base, p1.base, p2.base), d(m2.base_body, m1.base_body, p1.base_body, p2.base_body),
               d(m2.tau, m1.tau, p1.tau, p2.tau)};
  };
  const auto report = [&](const char* what, int r, const Out& fd, const Out& exact, double tol) {
    const double eb = rel_err(fd.base, exact.base);
    const double ebb = rel_err(fd.base_body, exact.base_body);
    const double et = rel_err(fd.tau, exact.tau);
    std::printf("%s, %s, order %d: relative errors Q1 %.2e, body-frame Q1 %.2e, tau %.2e (|Q1^(r)| = %.3g)\n",
                label, what, r, eb, ebb, et, exact.base.norm());
    EXPECT_LT(eb, tol) << label << " " << what << " order " << r << "\nfd    " << fd.base.transpose() << "\nexact "
                       << exact.base.transpose();
    EXPECT_LT(ebb, tol) << label << " " << what << " order " << r << "\nfd    " << fd.base_body.transpose()
                        << "\nexact " << exact.base_body.transpose();
    EXPECT_LT(et, tol) << label << " " << what << " order " << r << "\nfd    " << fd.tau.transpose() << "\nexact "
                       << exact.tau.transpose();
  };

  // Orders 1 and 2 from the order-0 algorithm, as asked.
  {
    const Out m2 = traj.run(model, -2 * h, 0, 0), m1 = traj.run(model, -h, 0, 0), z = traj.run(model, 0, 0, 0);
    const Out p1 = traj.run(model, h, 0, 0), p2 = traj.run(model, 2 * h, 0, 0);
    report("d/dt of order 0", 1, first(m2, m1, p1, p2), traj.run(model, 0, 1, 1), 1e-6);
    const auto d2 = [&](const Eigen::VectorXd& a, const Eigen::VectorXd& b, const Eigen::VectorXd& c,
                        const Eigen::VectorXd& e, const Eigen::VectorXd& f) -> Eigen::VectorXd {
      return (-a + 16 * b - 30 * c + 16 * e - f) / (12 * h * h);
    };
    const Out fd2{d2(m2.base, m1.base, z.base, p1.base, p2.base),
                  d2(m2.base_body, m1.base_body, z.base_body, p1.base_body, p2.base_body),
                  d2(m2.tau, m1.tau, z.tau, p1.tau, p2.tau)};
    report("d2/dt2 of order 0", 2, fd2, traj.run(model, 0, 2, 2), 1e-4);
  }
  // Every order r = 1..5 from the last derivative of the order r−1 call.
  for (int r = 1; r <= kMaxOrder; ++r) {
    const Out fd = first(traj.run(model, -2 * h, r - 1, r - 1), traj.run(model, -h, r - 1, r - 1),
                         traj.run(model, h, r - 1, r - 1), traj.run(model, 2 * h, r - 1, r - 1));
    report("d/dt of order r-1", r, fd, traj.run(model, 0, r, r), 1e-6);
  }
  // Lower entries of a higher-order call equal the lower-order calls.
  for (int r = 0; r < kMaxOrder; ++r) {
    const Out lo = traj.run(model, 0, r, r);
    const Out hi = traj.run(model, 0, kMaxOrder, r);
    EXPECT_LT(rel_err(hi.base, lo.base), 1e-14);
    EXPECT_LT(rel_err(hi.tau, lo.tau), 1e-14);
  }
}

// ---- statics --------------------------------------------------------------

using AMData = hodyn::InverseDynamicsData<AMTree, kMaxOrder, double>;
using AMMotion = hodyn::MotionDerivatives<AMTree, kMaxOrder, double>;
using AMLoads = hodyn::ExternalLoads<AMTree, kMaxOrder, double>;

// Published home CoMs (seed 000 digest §10.1) and masses (Table 3).
const std::array<Vec3, 7> kHomeCom{Vec3(0, 0, 0),        Vec3(0.09, 0, -0.16),  Vec3(0.09, 0, -0.28),
                                   Vec3(0.09, 0, -0.40), Vec3(-0.09, 0, -0.16), Vec3(-0.09, 0, -0.28),
                                   Vec3(-0.09, 0, -0.40)};
const std::array<double, 7> kMass{2.5, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25};

TEST(InverseDynamicsStatics, HoverAtHomeAtRest) {
  AMModel model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  auto data = std::make_unique<AMData>();
  const auto motion = std::make_unique<AMMotion>();
  for (int order = 0; order <= kMaxOrder; ++order) {
    ASSERT_EQ(hodyn::inverse_dynamics(model, *data, *motion, order), Status::kOk);
    EXPECT_EQ(data->order, order);
    Vec6 expected;
    expected << 0, 0, 0, 0, 0, 4.0 * kG;
    EXPECT_LT((data->base_wrench[0] - expected).norm(), 1e-12) << data->base_wrench[0].transpose();
    EXPECT_LT((data->base_wrench_body[0] - expected).norm(), 1e-12) << data->base_wrench_body[0].transpose();
    EXPECT_LT(data->joint_torque[0].norm(), 1e-12) << data->joint_torque[0].transpose();
    for (int k = 1; k <= order; ++k) {  // at rest nothing changes
      EXPECT_LT(data->base_wrench[k].norm(), 1e-12);
      EXPECT_LT(data->base_wrench_body[k].norm(), 1e-12);
      EXPECT_LT(data->joint_torque[k].norm(), 1e-12);
    }
  }
}

TEST(InverseDynamicsStatics, HoverAtRotatedTranslatedBasePose) {
  AMModel model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  Rng rng(41);
  for (int trial = 0; trial < 10; ++trial) {
    auto motion = std::make_unique<AMMotion>();
    motion->base_pose = rng.pose(2.0);
    auto data = std::make_unique<AMData>();
    ASSERT_EQ(hodyn::inverse_dynamics(model, *data, *motion, 2), Status::kOk);
    // Total CoM from the published body CoMs carried by the base pose (arms at q = 0).
    Vec3 com = Vec3::Zero();
    for (int j = 0; j < 7; ++j) com += kMass[j] * motion->base_pose.act(kHomeCom[j]);
    com /= 4.0;
    const Vec3 lift(0, 0, 4.0 * kG);
    const Vec6 expected = v6(com.cross(lift), lift);
    EXPECT_LT((data->base_wrench[0] - expected).norm(), 1e-12 * (1 + expected.norm()))
        << data->base_wrench[0].transpose() << "\nvs " << expected.transpose();
    // Body frame: Ad_C1ᵀ Q1 with the dense adjoint.
    const Mat4 c1 = homogeneous(motion->base_pose);
    EXPECT_LT((data->base_wrench_body[0] - dense_Ad(c1).transpose() * expected).norm(), 1e-12 * (1 + expected.norm()));
    EXPECT_LT((data->base_wrench_body[0] - hodyn::coadjoint(motion->base_pose, data->base_wrench[0])).norm(), 1e-12);
    // Joint torques: τ_i = S_iᵀ W_i, S_i = Ad_C1 Y_i (q = 0), W_i = −Σ_subtree (c × m g; m g).
    const Vec3 g(0, 0, -kG);
    for (int i = 1; i < 7; ++i) {
      Vec6 w = Vec6::Zero();
      for (int k = i; k < 7; ++k) {
        bool in_subtree = false;
        for (int a = k; a >= 0; a = AMTree::kParent[a]) in_subtree = in_subtree || a == i;
        if (!in_subtree) continue;
        const Vec3 ck = motion->base_pose.act(kHomeCom[k]);
        w -= v6(ck.cross(kMass[k] * g), kMass[k] * g);
      }
      const Vec6 s = dense_Ad(c1) * model.joint_screw(i);
      EXPECT_NEAR(data->joint_torque[0](i - 1), s.dot(w), 1e-12) << "joint of body " << i;
    }
    for (int k = 1; k <= 2; ++k) EXPECT_LT(data->base_wrench[k].norm(), 1e-12);
  }
}

TEST(InverseDynamicsStatics, GravityTorqueOfTheFirstArmJoint) {
  // q for body 1 (y axis through (0.09, 0, −0.10)) turned by θ: links 1..3 hang
  // at distances d = 0.06, 0.18, 0.30 below the axis, moved to
  // (−d sin θ, 0, −d cos θ); the moment of their weight about +y is
  // −m g sin θ Σd, which the joint must cancel: τ = m g sin θ Σd.
  AMModel model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  for (const double theta : {0.3, -1.1, 2.0}) {
    auto motion = std::make_unique<AMMotion>();
    motion->q[0](0) = theta;
    auto data = std::make_unique<AMData>();
    ASSERT_EQ(hodyn::inverse_dynamics(model, *data, *motion, 0), Status::kOk);
    const double expected = 0.25 * kG * std::sin(theta) * (0.06 + 0.18 + 0.30);
    EXPECT_NEAR(data->joint_torque[0](0), expected, 1e-12);
    for (int i = 1; i < 6; ++i) EXPECT_NEAR(data->joint_torque[0](i), 0.0, 1e-12) << "joint " << i;
    // Base: total CoM moved by the arm.
    Vec3 com = Vec3::Zero();
    for (int j = 0; j < 7; ++j) {
      Vec3 c = kHomeCom[j];
      if (j >= 1 && j <= 3) {
        const double d = -0.10 - c(2);
        c = Vec3(0.09 - d * std::sin(theta), 0, -0.10 - d * std::cos(theta));
      }
      com += kMass[j] * c;
    }
    com /= 4.0;
    const Vec3 lift(0, 0, 4.0 * kG);
    EXPECT_LT((data->base_wrench[0] - v6(com.cross(lift), lift)).norm(), 1e-12);
  }
}

// ---- finite differences in time -------------------------------------------

TEST(InverseDynamicsFiniteDifferences, AerialManipulator) {
  AMModel model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  for (unsigned seed : {51u, 52u, 53u}) {
    Rng rng(seed);
    const Trajectory<AMTree> traj(rng, homogeneous(rng.pose(1.0)), false);
    check_finite_differences(model, traj, "aerial manipulator");
  }
}

TEST(InverseDynamicsFiniteDifferences, RandomTreeWithPrismaticJoints) {
  for (unsigned seed : {61u, 62u, 63u}) {
    Rng rng(seed);
    RandomModel model;
    make_random_model(model, rng);
    const Trajectory<RandomTree> traj(rng, homogeneous(rng.pose(1.0)), false);
    check_finite_differences(model, traj, "random tree");
  }
}

TEST(InverseDynamicsFiniteDifferences, RandomTreeWithAppliedLoads) {
  // World-frame and body-frame wrenches and external joint torques that vary
  // in time (degree-6 polynomials): their derivative inputs must enter
  // every order consistently.
  for (unsigned seed : {71u, 72u}) {
    Rng rng(seed);
    RandomModel model;
    make_random_model(model, rng);
    const Trajectory<RandomTree> traj(rng, homogeneous(rng.pose(1.0)), true);
    check_finite_differences(model, traj, "random tree with loads");
  }
}

// ---- applied loads --------------------------------------------------------

template <class Tree>
struct Call {
  using Model = hodyn::Model<Tree, double>;
  std::unique_ptr<hodyn::MotionDerivatives<Tree, kMaxOrder, double>> motion =
      std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  std::unique_ptr<hodyn::ExternalLoads<Tree, kMaxOrder, double>> loads =
      std::make_unique<hodyn::ExternalLoads<Tree, kMaxOrder, double>>();
  std::unique_ptr<hodyn::InverseDynamicsData<Tree, kMaxOrder, double>> data =
      std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, double>>();
};

template <class Tree>
void random_motion(Rng& rng, hodyn::MotionDerivatives<Tree, kMaxOrder, double>& m) {
  m.base_pose = rng.pose(1.0);
  for (auto& v : m.base_twist) v = rng.vec6();
  for (auto& x : m.q)
    for (int i = 0; i < x.size(); ++i) x(i) = rng.normal();
}

TEST(InverseDynamicsLoads, WorldWrenchShiftsBaseWrench) {
  Rng rng(81);
  RandomModel model;
  make_random_model(model, rng);
  for (int j = 0; j < RandomTree::kNumBodies; ++j) {
    Call<RandomTree> plain, loaded;
    random_motion(rng, *plain.motion);
    *loaded.motion = *plain.motion;
    loaded.loads->has_world_wrench[j] = true;
    for (auto& w : loaded.loads->world_wrench[j]) w = rng.vec6();
    ASSERT_EQ(hodyn::inverse_dynamics(model, *plain.data, *plain.motion, kMaxOrder), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(model, *loaded.data, *loaded.motion, loaded.loads.get(), kMaxOrder), Status::kOk);
    // Joint screws at order 0, computed independently.
    std::array<Mat4, 6> f, c;
    poses(model, homogeneous(plain.motion->base_pose), plain.motion->q[0], f, c);
    for (int k = 0; k <= kMaxOrder; ++k) {
      const Vec6& w = loaded.loads->world_wrench[j][k];
      EXPECT_LT((loaded.data->base_wrench[k] - (plain.data->base_wrench[k] - w)).norm(),
                1e-10 * (1 + plain.data->base_wrench[k].norm()))
          << "body " << j << " order " << k;
      if (k == 0) {
        // τ_i drops by S_iᵀ W for every joint i between body j and the base.
        for (int i = 1; i < RandomTree::kNumBodies; ++i) {
          bool ancestor = false;
          for (int a = j; a > 0; a = RandomTree::kParent[a]) ancestor = ancestor || a == i;
          const Vec6 s = dense_Ad(f[i]) * model.joint_screw(i);
          const double expected = plain.data->joint_torque[0](i - 1) - (ancestor ? s.dot(w) : 0.0);
          EXPECT_NEAR(loaded.data->joint_torque[0](i - 1), expected, 1e-10) << "body " << j << " joint " << i;
        }
      }
    }
  }
}

TEST(InverseDynamicsLoads, BodyWrenchEqualsWorldWrenchThroughBodyPose) {
  Rng rng(82);
  RandomModel model;
  make_random_model(model, rng);
  for (int j = 0; j < RandomTree::kNumBodies; ++j) {
    Call<RandomTree> body, world;
    random_motion(rng, *body.motion);
    *world.motion = *body.motion;
    const Vec6 wb = rng.vec6();
    body.loads->has_body_wrench[j] = true;
    body.loads->body_wrench[j][0] = wb;
    std::array<Mat4, 6> f, c;
    poses(model, homogeneous(body.motion->base_pose), body.motion->q[0], f, c);
    world.loads->has_world_wrench[j] = true;
    world.loads->world_wrench[j][0] = dense_Ad(c[j]).inverse().transpose() * wb;
    ASSERT_EQ(hodyn::inverse_dynamics(model, *body.data, *body.motion, body.loads.get(), 0), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(model, *world.data, *world.motion, world.loads.get(), 0), Status::kOk);
    EXPECT_LT((body.data->base_wrench[0] - world.data->base_wrench[0]).norm(), 1e-10) << "body " << j;
    EXPECT_LT((body.data->base_wrench_body[0] - world.data->base_wrench_body[0]).norm(), 1e-10) << "body " << j;
    EXPECT_LT((body.data->joint_torque[0] - world.data->joint_torque[0]).norm(), 1e-10) << "body " << j;
    // and the world wrench did act (sanity of the comparison).
    Call<RandomTree> none;
    *none.motion = *body.motion;
    ASSERT_EQ(hodyn::inverse_dynamics(model, *none.data, *none.motion, 0), Status::kOk);
    EXPECT_GT((none.data->base_wrench[0] - body.data->base_wrench[0]).norm(), 1e-3);
  }
}

TEST(InverseDynamicsLoads, ExternalJointTorqueShiftsTau) {
  Rng rng(83);
  RandomModel model;
  make_random_model(model, rng);
  Call<RandomTree> plain, loaded;
  random_motion(rng, *plain.motion);
  *loaded.motion = *plain.motion;
  for (auto& t : loaded.loads->joint_torque)
    for (int i = 0; i < t.size(); ++i) t(i) = rng.normal();
  ASSERT_EQ(hodyn::inverse_dynamics(model, *plain.data, *plain.motion, kMaxOrder), Status::kOk);
  ASSERT_EQ(hodyn::inverse_dynamics(model, *loaded.data, *loaded.motion, loaded.loads.get(), kMaxOrder), Status::kOk);
  for (int k = 0; k <= kMaxOrder; ++k) {
    EXPECT_LT((loaded.data->joint_torque[k] - (plain.data->joint_torque[k] - loaded.loads->joint_torque[k])).norm(),
              1e-10 * (1 + plain.data->joint_torque[k].norm()));
    EXPECT_EQ(loaded.data->base_wrench[k], plain.data->base_wrench[k]);
  }
}

TEST(InverseDynamicsLoads, EmptyLoadsChangeNothing) {
  Rng rng(84);
  AMModel model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  Call<AMTree> a, b;
  random_motion(rng, *a.motion);
  *b.motion = *a.motion;
  // Values present but not flagged: must be ignored.
  for (auto& body : b.loads->world_wrench)
    for (auto& w : body) w = rng.vec6();
  for (auto& body : b.loads->body_wrench)
    for (auto& w : body) w = rng.vec6();
  ASSERT_EQ(hodyn::inverse_dynamics(model, *a.data, *a.motion, kMaxOrder), Status::kOk);
  ASSERT_EQ(hodyn::inverse_dynamics(model, *b.data, *b.motion, b.loads.get(), kMaxOrder), Status::kOk);
  for (int k = 0; k <= kMaxOrder; ++k) {
    EXPECT_EQ(a.data->base_wrench[k], b.data->base_wrench[k]);
    EXPECT_EQ(a.data->joint_torque[k], b.data->joint_torque[k]);
  }
}

}  // namespace
