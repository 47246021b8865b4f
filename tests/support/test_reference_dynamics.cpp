// Self-checks of the dense reference inverse dynamics (the Taylor-mode oracle).
#include "support/long_double.hpp"
#include "support/reference_dynamics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

using hodyn::test::ReferenceTree;
using hodyn::test::RefJointType;
using hodyn::test::Taylor;
namespace ref = hodyn::test::ref;

constexpr int kD = 7;  // series degree: ID derivatives of order 0..5 are exact
using Sd = Taylor<double, kD>;
using Sl = Taylor<long double, kD>;

template <class T>
double to_d(T x) {
  return static_cast<double>(x);
}

// ---------------------------------------------------------------------------
// Random smooth trajectory, given as derivatives at t = 0.
// ---------------------------------------------------------------------------
template <class R>
struct RandomState {
  ref::Mat4<R> C1_0;
  std::vector<ref::Vec6<R>> V1;                         // V1^(0..K)
  std::vector<Eigen::Matrix<R, Eigen::Dynamic, 1>> qd;  // q^(0..K)
  std::vector<ref::Vec6<R>> W_app;                      // applied wrenches W_app^(0..K) per body
};

template <class R>
RandomState<R> random_state(unsigned seed, int num_bodies, int orders, double scale) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  RandomState<R> s;
  Eigen::Quaternion<R> qt(R(g(gen)), R(g(gen)), R(g(gen)), R(g(gen)));
  qt.normalize();
  s.C1_0 = ref::pose<R>(qt.toRotationMatrix(), ref::Vec3<R>(R(g(gen)), R(g(gen)), R(g(gen))));
  for (int k = 0; k <= orders; ++k) {
    ref::Vec6<R> v;
    for (int i = 0; i < 6; ++i) v(i) = R(scale * g(gen));
    s.V1.push_back(v);
    Eigen::Matrix<R, Eigen::Dynamic, 1> q(num_bodies - 1);
    for (int i = 0; i < num_bodies - 1; ++i) q(i) = R(scale * g(gen));
    s.qd.push_back(q);
  }
  for (int j = 0; j < num_bodies; ++j) {
    ref::Vec6<R> w;
    for (int i = 0; i < 6; ++i) w(i) = R(g(gen));
    s.W_app.push_back(w);
  }
  return s;
}

/// Applied wrench series per body: constant part W_app[j] plus a smooth t-dependence.
template <class S>
std::vector<ref::Vec6<S>> applied_wrench_series(
    const std::vector<ref::Vec6<typename S::value_type>>& w) {
  using R = typename S::value_type;
  const S t = S::variable(R(0));
  std::vector<ref::Vec6<S>> out;
  for (std::size_t j = 0; j < w.size(); ++j) {
    ref::Vec6<S> W;
    for (int i = 0; i < 6; ++i) W(i) = w[j](i) * cos(t * R(i + 1) + R(j));
    out.push_back(W);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

TEST(ReferenceModels, AerialManipulatorData) {
  const auto t = hodyn::test::make_aerial_manipulator<double>();
  ASSERT_TRUE(t.valid());
  EXPECT_EQ(t.num_bodies, 7);
  EXPECT_EQ(t.num_joints(), 6);
  const std::vector<int> parents{-1, 0, 1, 2, 0, 4, 5};
  EXPECT_EQ(t.parent, parents);
  double m = 0;
  for (int j = 0; j < 7; ++j) m += t.mass(j);
  EXPECT_DOUBLE_EQ(m, 4.0);
  // The table's screws are (e; p × e) with p = CoM + (0,0,d), d = 0.06.
  for (int j = 1; j < 7; ++j) {
    const Eigen::Vector3d e = t.Y[static_cast<std::size_t>(j)].head<3>();
    const Eigen::Vector3d p =
        t.A0[static_cast<std::size_t>(j)].topRightCorner<3, 1>() + Eigen::Vector3d(0, 0, 0.06);
    EXPECT_LT((t.Y[static_cast<std::size_t>(j)].tail<3>() - p.cross(e)).norm(), 1e-15) << j;
  }
}

TEST(ReferenceModels, RandomTreeData) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto t = hodyn::test::make_random_tree<double>(seed, 9);
    ASSERT_TRUE(t.valid());
    EXPECT_EQ(t.num_bodies, 9);
    int prismatic = 0;
    for (int j = 1; j < 9; ++j)
      prismatic += t.joint_type[static_cast<std::size_t>(j)] == RefJointType::Prismatic;
    EXPECT_GE(prismatic, 1);
    EXPECT_GT((t.A0[0] - Eigen::Matrix4d::Identity()).norm(), 0.1);
    EXPECT_NEAR(t.G.tail<3>().norm(), 9.81, 1e-12);
    EXPECT_NEAR(t.G.head<3>().norm(), 0.0, 0.0);
    for (int j = 0; j < 9; ++j) {
      using M6 = Eigen::Matrix<double, 6, 6>;
      const M6 M = t.Mb[static_cast<std::size_t>(j)];
      EXPECT_LT((M - M.transpose()).norm(), 1e-15);
      const double min_eig = Eigen::SelfAdjointEigenSolver<M6>(M).eigenvalues()(0);
      EXPECT_GT(min_eig, 0.0);
    }
    // Same seed, same model in long double.
    const auto tl = hodyn::test::make_random_tree<long double>(seed, 9);
    EXPECT_EQ(tl.parent, t.parent);
    EXPECT_LT((tl.Y[5].cast<double>() - t.Y[5]).norm(), 1e-15);
  }
}

// ---------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------

TEST(ReferenceBlocks, Se3ExpMatchesPowerSeriesAndDerivative) {
  std::mt19937 gen(7);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 6; ++trial) {
    ref::Vec6<double> Y;
    for (int i = 0; i < 6; ++i) Y(i) = g(gen);
    if (trial % 3 == 2) Y.head<3>().setZero();    // prismatic
    if (trial % 3 == 0) Y.head<3>().normalize();  // unit revolute
    const double q0 = 1.3 * g(gen);
    // Truncated power series of the matrix exponential, in double.
    const Eigen::Matrix4d X = ref::hat<double>(Y) * q0;
    Eigen::Matrix4d E = Eigen::Matrix4d::Identity(), term = Eigen::Matrix4d::Identity();
    for (int k = 1; k < 60; ++k) {
      term = term * X / double(k);
      E += term;
    }
    const Eigen::Matrix4d Ec = ref::se3_exp<double, double>(Y, q0);
    EXPECT_LT((Ec - E).norm(), 1e-13) << trial;
    // d/dq expm([Y] q) = [Y] expm([Y] q), checked on the whole series.
    const Sd q = Sd::variable(q0);
    const ref::Mat4<Sd> Es = ref::se3_exp<Sd, double>(Y, q);
    const ref::Mat4<Sd> lhs = ref::series_derivative(Es);
    const ref::Mat4<Sd> rhs = ref::hat<double>(Y).cast<Sd>() * Es;
    for (int k = 0; k < kD; ++k)
      EXPECT_LT((ref::coefficients(lhs, k) - ref::coefficients(rhs, k)).norm(), 1e-13)
          << trial << " k=" << k;
  }
}

TEST(ReferenceBlocks, BasePoseSeriesSolvesTheTwistOde) {
  const auto st = random_state<double>(11, 2, kD, 1.0);
  const ref::Mat4<Sd> C = hodyn::test::base_pose_series<Sd>(st.C1_0, st.V1);
  EXPECT_LT((ref::coefficients(C, 0) - st.C1_0).norm(), 0.0 + 1e-300);
  const auto V = hodyn::test::twist_derivatives(C);
  ASSERT_EQ(V.size(), std::size_t(kD));
  // Coefficient c_k is accurate to ~eps in absolute terms; its derivative value
  // is k! c_k, hence the k! in the tolerance.
  double fact = 1;
  for (int k = 0; k < kD; ++k) {
    if (k > 0) fact *= k;
    EXPECT_LT((V[static_cast<std::size_t>(k)] - st.V1[static_cast<std::size_t>(k)]).norm(),
              1e-12 * (fact + st.V1[static_cast<std::size_t>(k)].norm()))
        << k;
  }
  // R(t) stays a rotation at every coefficient; the bottom row stays (0,0,0,1).
  const ref::Mat3<Sd> R = C.topLeftCorner<3, 3>();
  const ref::Mat3<Sd> RtR = R.transpose() * R;
  for (int k = 0; k <= kD; ++k) {
    const Eigen::Matrix3d c = ref::coefficients(RtR, k);
    EXPECT_LT((c - (k == 0 ? 1.0 : 0.0) * Eigen::Matrix3d::Identity()).norm(), 1e-13) << k;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(C(3, i).coeff(k), (k == 0 && i == 3) ? 1.0 : 0.0);
  }
}

// ---------------------------------------------------------------------------
// Physics checks
// ---------------------------------------------------------------------------

template <class R>
void check_hover(double tol) {
  using S = Taylor<R, 4>;
  const auto tree = hodyn::test::make_aerial_manipulator<R>();
  const ref::Mat4<S> C1 = ref::Mat4<R>::Identity().template cast<S>();
  const std::vector<S> q(6, S(R(0)));
  const auto out = hodyn::test::reference_inverse_dynamics(tree, C1, q);
  ref::Vec6<R> expect;
  expect << 0, 0, 0, 0, 0, R(4) * R(981) / R(100);
  for (int k = 0; k <= out.exact_degree; ++k) {
    const ref::Vec6<R> Qk = ref::coefficients(out.Q1, k);
    EXPECT_LT(to_d((Qk - (k == 0 ? expect : ref::Vec6<R>::Zero())).norm()), tol) << k;
    // At home every arm hangs straight down below its joint axes, so no joint
    // sees a gravity torque; nothing moves, so higher coefficients vanish.
    for (int j = 0; j < 6; ++j)
      EXPECT_NEAR(to_d(out.tau[static_cast<std::size_t>(j)].coeff(k)), 0.0, tol) << j;
  }
  EXPECT_NEAR(to_d(out.Q1(5).coeff(0)), 39.24, tol);
}

TEST(ReferenceDynamics, HoverAtHomeAerialManipulator) {
  check_hover<double>(1e-13);
  check_hover<long double>(1e-16);
}

// A simple pendulum hanging from a fixed base: tau = (I_yy + m l^2) q'' + m g l sin q.
TEST(ReferenceDynamics, PendulumClosedForm) {
  const double m = 1.3, l = 0.7, Iyy = 0.05, g = 9.81;
  ReferenceTree<double> t;
  t.set_base(Eigen::Matrix4d::Identity(),
             ref::body_inertia<double>(2.0, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity()));
  ref::Vec6<double> Y;
  Y << 0, 1, 0, 0, 0, 0;  // y axis through the origin
  const Eigen::Matrix3d Ic = Eigen::Vector3d(0.04, Iyy, 0.02).asDiagonal();
  // Body frame at the pivot, CoM at (0,0,-l) in the body frame.
  t.add_body(0, RefJointType::Revolute, Y, Eigen::Matrix4d::Identity(),
             ref::body_inertia<double>(m, Eigen::Vector3d(0, 0, -l), Ic));
  t.G << 0, 0, 0, 0, 0, -g;
  const Sd time = Sd::variable(0.3);
  const std::vector<Sd> q{0.4 + 0.8 * sin(1.7 * time)};
  const ref::Mat4<Sd> C1 = Eigen::Matrix4d::Identity().cast<Sd>();
  const auto out = hodyn::test::reference_inverse_dynamics(t, C1, q);
  const Sd qdd = q[0].derivative().derivative();
  const Sd expect = (Iyy + m * l * l) * qdd + m * g * l * sin(q[0]);
  for (int k = 0; k <= out.exact_degree; ++k)
    EXPECT_NEAR(out.tau[0].coeff(k), expect.coeff(k), 1e-12 * (1 + std::fabs(expect.coeff(k))))
        << k;
}

// One free rigid body: Newton–Euler about the CoM, moved to the world origin.
TEST(ReferenceDynamics, SingleRigidBodyNewtonEuler) {
  const auto tree_src = hodyn::test::make_random_tree<double>(5, 1);
  const auto st = random_state<double>(21, 1, kD, 1.0);
  const ref::Mat4<Sd> C = hodyn::test::base_pose_series<Sd>(st.C1_0, st.V1);
  const auto out = hodyn::test::reference_inverse_dynamics(tree_src, C, std::vector<Sd>{});
  // Independent: body pose B = C A0^-1 A0 = C (F_0 = C A0^-1, C_0 = F_0 A0 = C).
  const double m = tree_src.mass(0);
  const Eigen::Vector3d cb = tree_src.com_body(0);
  const Eigen::Matrix3d Icb =
      tree_src.Mb[0].topLeftCorner<3, 3>() + m * ref::skew<double>(cb) * ref::skew<double>(cb);
  const ref::Mat3<Sd> R = C.topLeftCorner<3, 3>();
  const ref::Vec3<Sd> c = R * cb.cast<Sd>() + ref::Vec3<Sd>(C.topRightCorner<3, 1>());
  const ref::Vec3<Sd> a = ref::series_derivative(ref::Vec3<Sd>(ref::series_derivative(c)));
  const ref::Mat3<Sd> Om = ref::series_derivative(R) * R.transpose();
  const ref::Vec3<Sd> w(Om(2, 1), Om(0, 2), Om(1, 0));
  const ref::Vec3<Sd> wd = ref::series_derivative(w);
  const ref::Mat3<Sd> Iw = R * Icb.cast<Sd>() * R.transpose();
  const ref::Vec3<Sd> gl = tree_src.G.tail<3>().cast<Sd>();
  const ref::Vec3<Sd> f = m * (a - gl);
  const ref::Vec3<Sd> n_c = Iw * wd + w.cross(ref::Vec3<Sd>(Iw * w));
  const ref::Vec3<Sd> n_o = n_c + c.cross(f);
  for (int k = 0; k <= out.exact_degree; ++k) {
    const Eigen::Vector3d ek = ref::coefficients(ref::Vec3<Sd>(out.Q1.head<3>() - n_o), k);
    const Eigen::Vector3d fk = ref::coefficients(ref::Vec3<Sd>(out.Q1.tail<3>() - f), k);
    const double scale = 1 + ref::coefficients(out.Q1, k).norm();
    EXPECT_LT(ek.norm(), 1e-12 * scale) << k;
    EXPECT_LT(fk.norm(), 1e-12 * scale) << k;
  }
}

// Kinematics: V_j − V_p(j) = S_j q̇_j, through the exact degree D−1.
template <class S, class R>
void check_twist_composition(const ReferenceTree<R>& tree,
                             const hodyn::test::ReferenceResult<S>& out, const std::vector<S>& q,
                             double tol) {
  for (int j = 1; j < tree.num_bodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    const ref::Vec6<S> d = out.V[J] - out.V[static_cast<std::size_t>(tree.parent[J])] -
                           out.screw[J] * q[J - 1].derivative();
    for (int k = 0; k < S::degree; ++k) {
      const double scale = 1 + to_d(ref::coefficients(out.V[J], k).norm());
      EXPECT_LT(to_d(ref::coefficients(d, k).norm()), tol * scale) << "body " << j << " k=" << k;
    }
  }
}

// Power balance: d(T+U)/dt = Q1·V_base + Σ τ_j q̇_j + Σ W_app,j·V_j at every exact coefficient.
template <class S, class R>
double power_balance_error(const ReferenceTree<R>& tree, unsigned seed, bool with_applied,
                           double tol) {
  const auto st = random_state<R>(seed, tree.num_bodies, S::degree, 0.7);
  const ref::Mat4<S> C1 = hodyn::test::base_pose_series<S>(st.C1_0, st.V1);
  const std::vector<S> q = hodyn::test::joint_series<S>(st.qd);
  const std::vector<ref::Vec6<S>> W =
      with_applied ? applied_wrench_series<S>(st.W_app) : std::vector<ref::Vec6<S>>{};
  const auto out = hodyn::test::reference_inverse_dynamics(tree, C1, q, W);
  check_twist_composition(tree, out, q, tol);
  // The base body's pose is the input pose (F_0 = C1 A0_0^-1, C_0 = F_0 A0_0).
  for (int k = 0; k <= S::degree; ++k)
    EXPECT_LT(to_d((ref::coefficients(out.C[0], k) - ref::coefficients(C1, k)).norm()), tol);

  const S dT = out.kinetic_energy.derivative();
  const S dU = out.potential_energy.derivative();
  std::vector<S> terms;
  terms.push_back(out.Q1.dot(out.V[0]));
  for (int j = 1; j < tree.num_bodies; ++j)
    terms.push_back(out.tau[static_cast<std::size_t>(j - 1)] *
                    q[static_cast<std::size_t>(j - 1)].derivative());
  if (with_applied)
    for (int j = 0; j < tree.num_bodies; ++j)
      terms.push_back(W[static_cast<std::size_t>(j)].dot(out.V[static_cast<std::size_t>(j)]));
  S rhs = S(R(0));
  for (const auto& x : terms) rhs += x;
  const S residual = dT + dU - rhs;
  double worst = 0;
  for (int k = 0; k <= out.exact_degree; ++k) {
    // Relative to the sizes of the individual power terms at this coefficient.
    R scale = std::fabs(dT.coeff(k)) + std::fabs(dU.coeff(k));
    for (const auto& x : terms) scale += std::fabs(x.coeff(k));
    const double rel = to_d(std::fabs(residual.coeff(k)) / scale);
    worst = std::max(worst, rel);
    if (std::getenv("HODYN_ORACLE_VERBOSE"))
      std::printf("seed %u k=%d rel %.3e scale %.3e\n", seed, k, rel, to_d(scale));
    EXPECT_LT(rel, tol) << "seed " << seed << " k=" << k << " residual " << to_d(residual.coeff(k));
  }
  // The base twist reproduced from the pose series is the input twist.
  double fact = 1;  // derivative values carry k! times the coefficient rounding
  for (int k = 0; k < S::degree; ++k) {
    if (k > 0) fact *= k;
    EXPECT_LT(
        to_d((ref::derivative_values(out.V[0], k) - st.V1[static_cast<std::size_t>(k)]).norm()),
        tol * (fact + to_d(st.V1[static_cast<std::size_t>(k)].norm())))
        << k;
  }
  return worst;
}

TEST(ReferenceDynamics, PowerBalanceAerialManipulator) {
  const auto tree = hodyn::test::make_aerial_manipulator<double>();
  double worst = 0;
  for (unsigned seed : {1u, 2u, 3u}) {
    worst = std::max(worst, power_balance_error<Sd>(tree, seed, false, 1e-12));
    worst = std::max(worst, power_balance_error<Sd>(tree, seed + 100, true, 1e-12));
  }
  RecordProperty("worst_relative_residual", std::to_string(worst));
}

TEST(ReferenceDynamics, PowerBalanceRandomTree) {
  double worst = 0;
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto tree = hodyn::test::make_random_tree<double>(seed, 9);
    worst = std::max(worst, power_balance_error<Sd>(tree, seed, false, 1e-12));
    worst = std::max(worst, power_balance_error<Sd>(tree, seed + 100, true, 1e-12));
  }
  RecordProperty("worst_relative_residual", std::to_string(worst));
}

TEST(ReferenceDynamics, PowerBalanceLongDouble) {
  if (!hodyn::test::kLongDoubleIsExtended)
    GTEST_SKIP() << "long double is IEEE double here (32-bit ARM): nothing extra to check";
  const auto am = hodyn::test::make_aerial_manipulator<long double>();
  const auto rt = hodyn::test::make_random_tree<long double>(4, 9);
  power_balance_error<Sl>(am, 7, true, 1e-15);
  power_balance_error<Sl>(rt, 8, true, 1e-15);
}

// ---------------------------------------------------------------------------
// Finite differences in time along a closed-form trajectory
// ---------------------------------------------------------------------------

template <class S>
struct Trajectory {
  ref::Mat4<S> C1;
  std::vector<S> q;
};

/// A smooth closed-form trajectory evaluated on a time series t.
template <class S>
Trajectory<S> closed_form_trajectory(const S& t, int num_joints) {
  const S psi = 0.2 + 0.4 * sin(0.7 * t), th = 0.15 * sin(1.1 * t), ph = 0.1 * cos(0.9 * t);
  ref::Mat3<S> Rz, Ry, Rx;
  const S z(0.0), o(1.0);
  Rz << cos(psi), -sin(psi), z, sin(psi), cos(psi), z, z, z, o;
  Ry << cos(th), z, sin(th), z, o, z, -sin(th), z, cos(th);
  Rx << o, z, z, z, cos(ph), -sin(ph), z, sin(ph), cos(ph);
  const ref::Vec3<S> p(cos(0.5 * t), sin(0.5 * t), 0.3 * sin(1.3 * t));
  Trajectory<S> tr;
  tr.C1 = ref::pose<S>(ref::Mat3<S>(Rz * Ry * Rx), p);
  for (int j = 0; j < num_joints; ++j)
    tr.q.push_back(0.3 + 0.5 * sin((0.8 + 0.1 * j) * t + 0.2 * j));
  return tr;
}

/// All outputs (Q1, tau) stacked, as series.
template <class S, class R>
std::vector<S> outputs(const ReferenceTree<R>& tree, const S& t) {
  const auto tr = closed_form_trajectory(t, tree.num_joints());
  const auto out = hodyn::test::reference_inverse_dynamics(tree, tr.C1, tr.q);
  std::vector<S> y(out.Q1.data(), out.Q1.data() + 6);
  y.insert(y.end(), out.tau.begin(), out.tau.end());
  return y;
}

template <class R>
void check_finite_differences(const ReferenceTree<R>& tree) {
  using S4 = Taylor<double, 4>;  // exact through t^2: first and second derivatives
  using S2 = Taylor<double, 2>;  // exact through t^0
  const double t0 = 0.8;
  const auto y = outputs(tree, S4::variable(t0));
  auto at = [&](double t) {
    std::vector<double> v;
    for (const auto& s : outputs(tree, S2::variable(t))) v.push_back(s.coeff(0));
    return v;
  };
  // Value: the degree-4 run and a degree-2 run agree on the constant term.
  const auto y0 = at(t0);
  // First derivative: 5-point stencil, h = 1e-3 (error ~ h^4 y^(5)/30 + eps y / h).
  {
    const double h = 1e-3;
    const auto p1 = at(t0 + h), m1 = at(t0 - h), p2 = at(t0 + 2 * h), m2 = at(t0 - 2 * h);
    for (std::size_t i = 0; i < y.size(); ++i) {
      EXPECT_NEAR(y[i].coeff(0), y0[i], 1e-12 * (1 + std::fabs(y0[i]))) << i;
      const double fd = (-p2[i] + 8 * p1[i] - 8 * m1[i] + m2[i]) / (12 * h);
      EXPECT_NEAR(y[i].derivative_value(1), fd, 1e-8 * (1 + std::fabs(fd))) << i;
    }
  }
  // Second derivative: 5-point stencil, h = 1e-2.
  {
    const double h = 1e-2;
    const auto p1 = at(t0 + h), m1 = at(t0 - h), p2 = at(t0 + 2 * h), m2 = at(t0 - 2 * h);
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double fd = (-p2[i] + 16 * p1[i] - 30 * y0[i] + 16 * m1[i] - m2[i]) / (12 * h * h);
      EXPECT_NEAR(y[i].derivative_value(2), fd, 1e-6 * (1 + std::fabs(fd))) << i;
    }
  }
}

TEST(ReferenceDynamics, FiniteDifferencesInTimeAerialManipulator) {
  check_finite_differences(hodyn::test::make_aerial_manipulator<double>());
}

TEST(ReferenceDynamics, FiniteDifferencesInTimeRandomTree) {
  check_finite_differences(hodyn::test::make_random_tree<double>(3, 9));
}

// The closed-form pose series and the one rebuilt from its twist derivatives agree.
TEST(ReferenceBlocks, BasePoseSeriesRoundTripFromClosedForm) {
  const auto tr = closed_form_trajectory(Sd::variable(0.8), 0);
  const auto V = hodyn::test::twist_derivatives(tr.C1);
  const ref::Mat4<Sd> C = hodyn::test::base_pose_series<Sd>(ref::coefficients(tr.C1, 0), V);
  for (int k = 0; k <= kD; ++k)
    EXPECT_LT((ref::coefficients(C, k) - ref::coefficients(tr.C1, k)).norm(), 1e-13) << k;
}

}  // namespace
