// Spherical (ball) joints in the closed forms (issue 19, docs/joint-kinds.md
// "4. The slices", 3): equations_of_motion (M̄, C, g, h and their rates),
// closed_form_derivatives (M̄^(n), C^(n), g^(n), h^(n)), mass_matrix_derivatives,
// and the constrained calls that read them: constrained_hybrid_dynamics and
// constrained_inverse_dynamics_rate.
//
// Oracles, none of them the code under test (BallTree: a floating base, a
// revolute joint, a ball with a revolute child, a ball at a leaf):
// (a) M̄ ν̇ + h + g = τ̄ of inverse dynamics (checked with balls in
//     test_spherical_joint) at random ν̇, R_j and δ ≠ 0; g = τ̄ at rest;
//     ½ Ṁ̄ − C skew-symmetric (seed 000 Lemma 1);
// (b) the order-0 equations of motion on Taylor series (R(t) = Rx Ry Rz of
//     series angles given as joint_rotation, ω = vee(Rᵀ Ṙ)): their
//     coefficients are the rates, the closed forms of orders 0..5 and M̄^(n) of
//     the recursion; and inverse dynamics of order n = Σ C(n,i) M̄^(i) ν^(n−i+1)
//     + h^(n) + g^(n);
// (c) the tree with each ball as three revolute joints with massless links:
//     M̄_e = Bᵀ M̄ B, C_e = Bᵀ (C B + M̄ Ḃ), g_e = Bᵀ g (ν_ball = B ν_euler);
// (d) constrained hybrid dynamics against a dense KKT solve whose M̄ columns
//     and bias come from inverse dynamics;
// (e) the constrained ID rate against Richardson differences of constrained
//     inverse dynamics along the series motion;
// (f) bad rotations: the statuses mass_matrix gives, zero outputs; no heap.
#include <hodyn/closed_form_derivatives.hpp>
#include <hodyn/constrained_dynamics.hpp>
#include <hodyn/constrained_hybrid_dynamics.hpp>
#include <hodyn/constrained_inverse_dynamics_rate.hpp>
#include <hodyn/hodyn.hpp>
#include <hodyn/mass_matrix_derivatives.hpp>

#include "support/ball_trees.hpp"
#include "support/constrained_kkt.hpp"
#include "support/error_metrics.hpp"
#include "support/heap_counter.hpp"
#include "support/reference_dynamics.hpp"
#include "support/taylor.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <memory>
#include <random>
#include <utility>
#include <vector>

namespace {

using namespace hodyn::test::ball_trees;  // BallTree, EulerTree, make_models, euler_pair, …
using hodyn::LoopClosure;
using hodyn::LoopClosureKind;
using hodyn::TreeTraits;
using hodyn::test::max_abs;
using hodyn::test::rel_err;
namespace ref = hodyn::test::ref;
constexpr int kR = 5;
using S7 = hodyn::test::Taylor<double, kR + 2>;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
template <class S>
using M3 = Eigen::Matrix<S, 3, 3>;
template <class S>
using V3 = Eigen::Matrix<S, 3, 1>;
constexpr int kDofs = TreeTraits<BallTree>::kNumDofs;  // 6 + 1 + 3 + 1 + 3
using Eom = hodyn::EquationsOfMotionData<BallTree, double>;

template <int MO>
Vec14 nu_of(const BallMotion<MO>& m, int k) {  // ν^(k) = (V1^(k); q^(k+1))
  Vec14 v;
  v << m.base_twist[static_cast<std::size_t>(k)], m.q[static_cast<std::size_t>(k + 1)];
  return v;
}

template <int MO>
BallMotion<0> order_zero(const BallMotion<MO>& m) {
  BallMotion<0> z;
  z.base_pose = m.base_pose;
  for (std::size_t k = 0; k < 2; ++k) z.base_twist[k] = m.base_twist[k];
  for (std::size_t k = 0; k < 3; ++k) z.q[k] = m.q[k];
  z.joint_rotation = m.joint_rotation;
  return z;
}

/// Applied wrenches on the balls' bodies and the ball's child: a world wrench
/// on body 2, body-frame wrenches on bodies 2, 3, 4 (entries 0; rates zero).
template <int MO, class S>
void applied_loads(hodyn::ExternalLoads<BallTree, MO, S>& loads) {
  const auto wrench = [](double a) {
    Eigen::Matrix<double, 6, 1> w;
    w << a, -0.5 * a, 0.3, 2.0 * a, -1.0, 0.7 * a;
    return Eigen::Matrix<S, 6, 1>(w.cast<S>());
  };
  loads.has_world_wrench[2] = true;
  loads.world_wrench[2][0] = wrench(1.3);
  for (int j : {2, 3, 4}) {
    loads.has_body_wrench[static_cast<std::size_t>(j)] = true;
    loads.body_wrench[static_cast<std::size_t>(j)][0] = wrench(0.4 * j - 1.1);
  }
}

// ---------------------------------------------------------------------------
// (a) M̄ ν̇ + h + g + τ_app = τ̄, Lemma 1
// ---------------------------------------------------------------------------

TEST(SphericalJointClosedForms, EquationsOfMotionGiveInverseDynamicsAndLemma1) {
  double worst_id = 0, worst_g = 0, worst_skew = 0, worst_crba = 0, worst_applied = 0;
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    const Models m = make_models(seed);
    auto motion = std::make_unique<BallMotion<1>>();
    random_state(seed + 50u, *motion);  // δ ≠ 0, one R_j turned by nearly π
    auto eom = std::make_unique<Eom>();
    ASSERT_EQ(hodyn::equations_of_motion(m.ball, *eom, *motion, true), Status::kOk);
    const auto& r = eom->result;
    // With applied wrenches: τ_app against inverse dynamics under the same loads.
    {
      auto loads1 = std::make_unique<hodyn::ExternalLoads<BallTree, 1, double>>();
      auto loads0 = std::make_unique<hodyn::ExternalLoads<BallTree, 0, double>>();
      applied_loads(*loads1);
      applied_loads(*loads0);
      auto el = std::make_unique<Eom>();
      ASSERT_EQ(hodyn::equations_of_motion(m.ball, *el, *motion, loads1.get(), true), Status::kOk);
      auto id = std::make_unique<hodyn::InverseDynamicsData<BallTree, 0, double>>();
      ASSERT_EQ(hodyn::inverse_dynamics(m.ball, *id, order_zero(*motion), loads0.get(), 0),
                Status::kOk);
      Vec14 tau;
      tau << id->base_wrench[0], id->joint_torque[0];
      const auto& q = el->result;
      const double ea = rel_err(
          Vec14(q.mass_matrix * nu_of(*motion, 1) + q.coriolis + q.gravity + q.applied), tau);
      EXPECT_LE(ea, 1e-13) << seed;
      EXPECT_GT(q.applied.norm(), 1.0);
      worst_applied = std::max(worst_applied, ea);
    }
    // The CRBA's M̄ (checked against inverse dynamics in test_spherical_joint_mass_matrix).
    auto crba = std::make_unique<Eom>();
    ASSERT_EQ(hodyn::mass_matrix(m.ball, *crba, *motion), Status::kOk);
    const double ec = rel_err(r.mass_matrix, crba->result.mass_matrix);
    EXPECT_LE(ec, 1e-13) << seed;
    // M̄ ν̇ + C ν + g = τ̄ of inverse dynamics at this state and ν̇.
    const BallMotion<0> z = order_zero(*motion);
    const Vec14 n = nu_of(*motion, 0), nd = nu_of(*motion, 1);
    const Vec14 tau = generalized_force(m.ball, z, nd);
    EXPECT_LE(rel_err(Vec14(r.coriolis_matrix * n), r.coriolis), 1e-14);
    const double eid = rel_err(Vec14(r.mass_matrix * nd + r.coriolis + r.gravity), tau);
    EXPECT_LE(eid, 1e-13) << seed;
    // g alone: inverse dynamics at rest.
    BallMotion<0> rest = z;
    rest.base_twist[0].setZero();
    rest.q[1].setZero();
    const double eg = rel_err(r.gravity, generalized_force(m.ball, rest, Vec14::Zero()));
    EXPECT_LE(eg, 1e-13) << seed;
    // Lemma 1: N = Ṁ̄ − 2C is skew.
    const Mat14 nn = r.mass_matrix_rate - 2.0 * r.coriolis_matrix;
    const double skew = (nn + nn.transpose()).norm() / nn.norm();
    EXPECT_LE(skew, 1e-13) << seed;
    worst_id = std::max(worst_id, eid);
    worst_g = std::max(worst_g, eg);
    worst_skew = std::max(worst_skew, skew);
    worst_crba = std::max(worst_crba, ec);
  }
  std::cout << "ball EOM: M nu' + h + g vs inverse dynamics " << worst_id << ", g vs ID at rest "
            << worst_g << ", with applied wrenches " << worst_applied << ", ||N + N^T||/||N|| "
            << worst_skew << ", M vs CRBA " << worst_crba << std::endl;
}

// ---------------------------------------------------------------------------
// (b) Taylor series through the order-0 equations of motion
// ---------------------------------------------------------------------------

template <class S>
M3<S> axis_rotation(int axis, const S& angle) {
  using std::cos;
  using std::sin;
  const int b = (axis + 1) % 3, d = (axis + 2) % 3;
  M3<S> r = M3<S>::Zero();
  r(axis, axis) = S(1);
  r(b, b) = r(d, d) = cos(angle);
  r(d, b) = sin(angle);
  r(b, d) = -sin(angle);
  return r;
}

/// A motion as series in t: base pose and twist, the revolute joints' q(t),
/// the balls' R(t) = Rx(a) Ry(b) Rz(c) and ω(t) = vee(Rᵀ Ṙ).
struct SeriesMotion {
  ref::Mat4<S7> base_pose;
  Eigen::Matrix<S7, 6, 1> base_twist;
  std::array<S7, 2> revolute;  // entries 0 and 4
  std::array<M3<S7>, 2> rotation;
  std::array<V3<S7>, 2> omega;
};

SeriesMotion series_motion(unsigned seed, double middle_angle) {
  std::mt19937 gen(seed * 7919u + 3u);
  std::normal_distribution<double> g(0.0, 1.0);
  const auto series = [&]() {
    std::vector<double> d;
    for (int k = 0; k <= kR + 2; ++k) d.push_back(g(gen));
    return S7::from_derivatives(d);
  };
  SeriesMotion s;
  ref::Mat4<double> c1 = ref::Mat4<double>::Identity();
  c1.topLeftCorner<3, 3>() = random_rotation(gen);
  c1.topRightCorner<3, 1>() = Vec3(g(gen), g(gen), g(gen));
  std::vector<ref::Vec6<double>> v1;
  for (int k = 0; k <= kR + 1; ++k) {
    Vec6 v;
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
    v1.push_back(v);
  }
  s.base_pose = hodyn::test::base_pose_series<S7>(c1, v1);
  for (int i = 0; i < 6; ++i) {
    std::vector<double> d;
    for (const auto& v : v1) d.push_back(v(i));
    s.base_twist(i) = S7::from_derivatives(d);
  }
  for (auto& q : s.revolute) q = series();
  for (int ball = 0; ball < 2; ++ball) {
    const S7 a = series();
    S7 b = series();
    const S7 c = series();
    if (ball == 0) b.coeff(0) = middle_angle;
    const auto B = static_cast<std::size_t>(ball);
    s.rotation[B] = axis_rotation(0, a) * axis_rotation(1, b) * axis_rotation(2, c);
    M3<S7> rd;
    for (int i = 0; i < 9; ++i) rd(i) = s.rotation[B](i).derivative();
    const M3<S7> w = s.rotation[B].transpose() * rd;
    s.omega[B] << w(2, 1), w(0, 2), w(1, 0);
  }
  return s;
}

/// The motion's derivatives at t = 0 (orders up to MO).
template <int MO>
void at_zero(const SeriesMotion& s, BallMotion<MO>& m) {
  const ref::Mat4<double> c = ref::derivative_values(s.base_pose, 0);
  m.base_pose = Pose<double>::from_matrix(c);
  for (int k = 0; k <= MO + 1; ++k)
    m.base_twist[static_cast<std::size_t>(k)] = ref::derivative_values(s.base_twist, k);
  for (int k = 0; k <= MO + 2; ++k) {
    auto& q = m.q[static_cast<std::size_t>(k)];
    q.setZero();  // a ball's δ = 0
    q(0) = s.revolute[0].derivative_value(k);
    q(4) = s.revolute[1].derivative_value(k);
    if (k >= 1)
      for (int i = 0; i < 3; ++i) {
        q(1 + i) = s.omega[0](i).derivative_value(k - 1);
        q(5 + i) = s.omega[1](i).derivative_value(k - 1);
      }
  }
  for (std::size_t b = 0; b < 2; ++b)
    m.joint_rotation[b] = ref::derivative_values(s.rotation[b], 0);
}

/// The state (order ≤ 1 entries) at time t, from the series evaluated at t.
BallMotion<0> motion_at(const SeriesMotion& s, double t) {
  const auto at = [t](const auto& x, int derivatives) {
    auto y = x;
    for (int k = 0; k < derivatives; ++k) y = y.derivative();
    return y.evaluate(t);
  };
  BallMotion<0> m;
  ref::Mat4<double> c;
  for (int i = 0; i < 16; ++i) c(i) = at(s.base_pose(i), 0);
  m.base_pose = Pose<double>::from_matrix(c);
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 6; ++i)
      m.base_twist[static_cast<std::size_t>(k)](i) = at(s.base_twist(i), k);
  for (int k = 0; k < 3; ++k) {
    auto& q = m.q[static_cast<std::size_t>(k)];
    q.setZero();
    q(0) = at(s.revolute[0], k);
    q(4) = at(s.revolute[1], k);
    if (k >= 1)
      for (int i = 0; i < 3; ++i) {
        q(1 + i) = at(s.omega[0](i), k - 1);
        q(5 + i) = at(s.omega[1](i), k - 1);
      }
  }
  for (std::size_t b = 0; b < 2; ++b)
    for (int i = 0; i < 9; ++i) m.joint_rotation[b](i) = at(s.rotation[b](i), 0);
  return m;
}

TEST(SphericalJointClosedForms, RatesAndEveryOrderMatchTheTaylorSeriesOfTheOrderZeroForms) {
  std::array<double, kR + 1> worst_series{}, worst_id{}, worst_recursion{};
  double worst_rates = 0;
  // The first ball's middle Euler angle at 0.4 rad, and at π/2 (gimbal lock of
  // the angles, not of the ball).
  const std::array<std::pair<unsigned, double>, 3> cases{
      {{11u, 0.4}, {12u, -1.0}, {13u, M_PI / 2}}};
  for (const auto& [seed, middle] : cases) {
    const Models m = make_models(seed);
    const SeriesMotion s = series_motion(seed, middle);
    // The order-0 equations of motion on series.
    const auto model_series = m.ball.cast<S7>();
    auto ms = std::make_unique<hodyn::MotionDerivatives<BallTree, 1, S7>>();
    ms->base_pose.rotation = s.base_pose.topLeftCorner<3, 3>();
    ms->base_pose.translation = s.base_pose.topRightCorner<3, 1>();
    ms->base_twist[0] = s.base_twist;
    for (int i = 0; i < 6; ++i) ms->base_twist[1](i) = s.base_twist(i).derivative();
    for (int k = 0; k < 3; ++k) ms->q[static_cast<std::size_t>(k)].setConstant(S7(0.0));
    for (int e : {0, 4}) {
      const S7& q = s.revolute[e == 0 ? 0 : 1];
      ms->q[0](e) = q;
      ms->q[1](e) = q.derivative();
      ms->q[2](e) = q.derivative().derivative();
    }
    for (int i = 0; i < 3; ++i) {
      ms->q[1](1 + i) = s.omega[0](i);
      ms->q[1](5 + i) = s.omega[1](i);
      ms->q[2](1 + i) = s.omega[0](i).derivative();
      ms->q[2](5 + i) = s.omega[1](i).derivative();
    }
    ms->joint_rotation = s.rotation;
    auto ls = std::make_unique<hodyn::ExternalLoads<BallTree, 1, S7>>();
    applied_loads(*ls);
    auto es = std::make_unique<hodyn::EquationsOfMotionData<BallTree, S7>>();
    ASSERT_EQ(hodyn::equations_of_motion(model_series, *es, *ms, ls.get(), false), Status::kOk);
    const auto& rs = es->result;
    // The same motion in doubles.
    auto md = std::make_unique<BallMotion<kR>>();
    at_zero(s, *md);
    // equations_of_motion's rates: coefficient 1 of the series.
    auto m1 = std::make_unique<BallMotion<1>>();
    at_zero(s, *m1);
    auto l1 = std::make_unique<hodyn::ExternalLoads<BallTree, 1, double>>();
    applied_loads(*l1);
    auto e1 = std::make_unique<Eom>();
    ASSERT_EQ(hodyn::equations_of_motion(m.ball, *e1, *m1, l1.get(), true), Status::kOk);
    const auto& r1 = e1->result;
    const double e_rates =
        std::max({rel_err(r1.mass_matrix, ref::derivative_values(rs.mass_matrix, 0)),
                  rel_err(r1.coriolis_matrix, ref::derivative_values(rs.coriolis_matrix, 0)),
                  rel_err(r1.mass_matrix_rate, ref::derivative_values(rs.mass_matrix, 1)),
                  rel_err(r1.coriolis_matrix_rate, ref::derivative_values(rs.coriolis_matrix, 1)),
                  rel_err(r1.coriolis_rate, ref::derivative_values(rs.coriolis, 1)),
                  rel_err(r1.gravity_rate, ref::derivative_values(rs.gravity, 1)),
                  rel_err(r1.applied, ref::derivative_values(rs.applied, 0)),
                  rel_err(r1.applied_rate, ref::derivative_values(rs.applied, 1))});
    EXPECT_LE(e_rates, 1e-12) << "seed " << seed;
    worst_rates = std::max(worst_rates, e_rates);
    // Closed forms of orders 0..5.
    auto cf = std::make_unique<hodyn::ClosedFormDerivativesData<BallTree, kR, double>>();
    {
      hodyn::test::HeapProbe probe;
      ASSERT_EQ(hodyn::closed_form_derivatives(m.ball, *cf, *md, kR), Status::kOk);
      EXPECT_EQ(probe.count(), 0);
    }
    auto id = std::make_unique<hodyn::InverseDynamicsData<BallTree, kR, double>>();
    ASSERT_EQ(hodyn::inverse_dynamics(m.ball, *id, *md, kR), Status::kOk);
    auto kin = std::make_unique<hodyn::KinematicsData<BallTree, kR, double>>();
    ASSERT_EQ(hodyn::forward_kinematics(m.ball, *kin, *md, kR - 1), Status::kOk);
    auto mmd = std::make_unique<hodyn::MassMatrixDerivativesData<BallTree, kR, double>>();
    {
      hodyn::test::HeapProbe probe;
      ASSERT_EQ(hodyn::mass_matrix_derivatives(m.ball, *kin, *mmd, kR), Status::kOk);
      EXPECT_EQ(probe.count(), 0);
    }
    for (int n = 0; n <= kR; ++n) {
      const auto N = static_cast<std::size_t>(n);
      const double es_n =
          std::max({rel_err(cf->mass_matrix[N], ref::derivative_values(rs.mass_matrix, n)),
                    rel_err(cf->coriolis_matrix[N], ref::derivative_values(rs.coriolis_matrix, n)),
                    rel_err(cf->coriolis[N], ref::derivative_values(rs.coriolis, n)),
                    rel_err(cf->gravity[N], ref::derivative_values(rs.gravity, n))});
      EXPECT_LE(es_n, 1e-11) << "closed forms, order " << n << " seed " << seed;
      Vec14 tau, sum = cf->coriolis[N] + cf->gravity[N];
      tau << id->base_wrench[N], id->joint_torque[N];
      for (int i = 0; i <= n; ++i)
        sum += hodyn::binomial<double>(n, i) *
               (cf->mass_matrix[static_cast<std::size_t>(i)] * nu_of(*md, n - i + 1));
      const double eid = rel_err(sum, tau);
      EXPECT_LE(eid, 1e-11) << "inverse dynamics of order " << n << " seed " << seed;
      const double er = rel_err(mmd->mass_matrix[N], ref::derivative_values(rs.mass_matrix, n));
      EXPECT_LE(er, 1e-11) << "mass_matrix_derivatives, order " << n << " seed " << seed;
      worst_series[N] = std::max(worst_series[N], es_n);
      worst_id[N] = std::max(worst_id[N], eid);
      worst_recursion[N] = std::max(worst_recursion[N], er);
    }
  }
  std::cout << "ball EOM rates vs Taylor series: " << worst_rates
            << "\nball closed forms vs Taylor series, orders 0..5:";
  for (double w : worst_series) std::cout << " " << w;
  std::cout << "\nball closed forms vs inverse dynamics of order n:";
  for (double w : worst_id) std::cout << " " << w;
  std::cout << "\nball mass_matrix_derivatives vs Taylor series:";
  for (double w : worst_recursion) std::cout << " " << w;
  std::cout << std::endl;
}

// ---------------------------------------------------------------------------
// (c) three revolute joints through massless links
// ---------------------------------------------------------------------------

TEST(SphericalJointClosedForms, EqualThreeRevoluteJointsThroughMasslessLinks) {
  using S1 = hodyn::test::Taylor<double, 1>;
  double worst = 0;
  for (unsigned seed : {11u, 12u, 13u}) {
    const Models m = make_models(seed);
    const EulerPair p = euler_pair(seed + 7u, 0.4 * seed - 5.0);
    auto eb = std::make_unique<Eom>();
    auto ee = std::make_unique<hodyn::EquationsOfMotionData<EulerTree, double>>();
    ASSERT_EQ(hodyn::equations_of_motion(m.ball, *eb, p.ball, false), Status::kOk);
    ASSERT_EQ(hodyn::equations_of_motion(m.euler, *ee, p.euler, false), Status::kOk);
    // Ḃ: the blocks E(b, c) differentiated along (ḃ, ċ).
    Mat14 b_dot = Mat14::Zero();
    for (int ball = 0; ball < 2; ++ball) {
      const int first = 1 + 4 * ball;
      const S1 b = S1::from_derivatives(
          std::vector<double>{p.euler.q[0](first + 1), p.euler.q[1](first + 1)});
      const S1 c = S1::from_derivatives(
          std::vector<double>{p.euler.q[0](first + 2), p.euler.q[1](first + 2)});
      const M3<S1> e = euler_rate_map(b, c);
      EXPECT_LE(rel_err(ref::derivative_values(e, 0), Mat3(p.b.block<3, 3>(6 + first, 6 + first))),
                1e-15);
      b_dot.block<3, 3>(6 + first, 6 + first) = ref::derivative_values(e, 1);
    }
    const auto& rb = eb->result;
    const auto& re = ee->result;
    const double em = rel_err(Mat14(p.b.transpose() * rb.mass_matrix * p.b), re.mass_matrix);
    const double ec =
        rel_err(Mat14(p.b.transpose() * (rb.coriolis_matrix * p.b + rb.mass_matrix * b_dot)),
                re.coriolis_matrix);
    const double eg = rel_err(Vec14(p.b.transpose() * rb.gravity), re.gravity);
    const Vec14 nu_e = (Vec14() << p.euler.base_twist[0], p.euler.q[1]).finished();
    const double eh = rel_err(
        Vec14(p.b.transpose() * (rb.coriolis + rb.mass_matrix * b_dot * nu_e)), re.coriolis);
    EXPECT_LE(em, 1e-13) << seed;
    EXPECT_LE(ec, 1e-13) << seed;
    EXPECT_LE(eg, 1e-13) << seed;
    EXPECT_LE(eh, 1e-13) << seed;
    worst = std::max({worst, em, ec, eg, eh});
  }
  std::cout << "ball M, C, g, h vs three revolute joints: " << worst << std::endl;
}

// ---------------------------------------------------------------------------
// (d) constrained hybrid dynamics, (e) the constrained ID rate
// ---------------------------------------------------------------------------

/// Hybrid input from random_state: torques, prescribed accelerations (q̈, V̇₁).
hodyn::HybridDynamicsInput<BallTree, 0, double> hybrid_input(unsigned seed,
                                                             std::array<bool, 4> prescribed,
                                                             bool base_motion) {
  BallMotion<0> s;
  random_state(seed, s);
  std::mt19937 gen(seed + 1000u);
  std::normal_distribution<double> g(0.0, 1.0);
  hodyn::HybridDynamicsInput<BallTree, 0, double> in;
  in.base_pose = s.base_pose;
  in.base_twist = s.base_twist[0];
  in.q = s.q[0];
  in.q_dot = s.q[1];
  in.joint_rotation = s.joint_rotation;
  for (int i = 0; i < 8; ++i) in.joint_torque[0](i) = g(gen);
  for (int i = 0; i < 6; ++i) in.base_wrench[0](i) = 10.0 * g(gen);
  in.joint_acceleration[0] = s.q[2];
  in.base_acceleration[0] = s.base_twist[1];
  in.base_input = base_motion ? hodyn::BaseInput::kMotion : hodyn::BaseInput::kWrench;
  in.motion_prescribed = prescribed;
  return in;
}

/// Constrained hybrid dynamics vs the dense solve of
///   M̄ ν̇ + b = τ̄ + Aᵀ λ,  A ν̇ = −Ȧ ν   (ν̇_u, τ̄_v given; ν̇_v, τ̄_u, λ unknown),
/// M̄'s columns and b from inverse dynamics. Returns the worst relative error.
template <std::size_t NC>
double check_hybrid(const hodyn::Model<BallTree, double>& model,
                    const std::array<LoopClosure<double>, NC>& closures,
                    const hodyn::HybridDynamicsInput<BallTree, 0, double>& in) {
  auto data = std::make_unique<hodyn::ConstrainedHybridDynamicsData<BallTree, NC, double>>();
  const Status s = hodyn::constrained_hybrid_dynamics(
      model, closures, in, hodyn::ConstraintStabilization<double>{}, *data);
  EXPECT_EQ(s, Status::kOk);
  if (s != Status::kOk) return 1.0;
  BallMotion<0> state;
  state.base_pose = in.base_pose;
  state.base_twist[0] = in.base_twist;
  state.q[0] = in.q;
  state.q[1] = in.q_dot;
  state.joint_rotation = in.joint_rotation;
  const Vec14 bias = generalized_force(model, state, Vec14::Zero());
  Mat14 mass;
  for (int l = 0; l < kDofs; ++l)
    mass.col(l) = generalized_force(model, state, Vec14::Unit(l)) - bias;
  auto kin = std::make_unique<hodyn::KinematicsData<BallTree, 0, double>>();
  auto cl = std::make_unique<hodyn::LoopClosureData<BallTree, NC, 0, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, state, 0), Status::kOk);
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, closures, *cl, 0), Status::kOk);
  // Which entries are prescribed (u), the known ν̇_u and τ̄_v.
  const auto k = hodyn::test::hybrid_knowns(in);
  const auto x = hodyn::test::constrained_hybrid_kkt(mass, bias, MatX(cl->jacobian[0]),
                                                     VecX(cl->velocity[1]), k);
  const Vec14 acc = x.acceleration, force = x.force;
  const double ea = max_abs(Vec14(data->acceleration) - acc) / max_abs(acc);
  const double ef = max_abs(Vec14(data->generalized_force) - force) / max_abs(force);
  const double el = max_abs(VecX(data->multiplier) - x.multiplier) / max_abs(x.multiplier);
  // The bound grows with the closure's conditioning κ(A)²: a near-singular
  // closure (κ 115, λ ~3e5 at one state of the aarch64 build, which sees
  // other states from the same seeds) leaves both solves ~κ² ε apart
  // (measured 6.7e-10 there; 1e-10 and below where κ ≤ 10).
  const auto sv = Eigen::JacobiSVD<MatX>(MatX(cl->jacobian[0])).singularValues();
  const double kappa = sv(0) / sv(sv.size() - 1);
  EXPECT_LE(std::max({ea, ef, el}), 1e-10 * std::max(1.0, kappa * kappa / 100))
      << "kappa(A) " << kappa;
  return std::max({ea, ef, el});
}

TEST(SphericalJointClosedForms, ConstrainedHybridDynamicsMatchesTheDenseKktSolve) {
  double worst = 0;
  for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
    const Models m = make_models(seed);
    const std::array<LoopClosure<double>, 1> point{closure(LoopClosureKind::kPoint, 3, 4, seed)};
    const std::array<LoopClosure<double>, 1> weld{closure(LoopClosureKind::kWeld, 3, 4, seed + 9u)};
    // The ball with a child prescribed; the leaf ball and a revolute joint; a
    // revolute joint under a weld; nothing (constrained forward dynamics); the
    // base's motion and the leaf ball.
    worst = std::max(
        worst, check_hybrid(m.ball, point, hybrid_input(seed, {false, true, false, false}, false)));
    worst = std::max(
        worst,
        check_hybrid(m.ball, point, hybrid_input(seed + 20u, {true, false, false, true}, false)));
    worst = std::max(
        worst,
        check_hybrid(m.ball, weld, hybrid_input(seed + 30u, {true, false, false, false}, false)));
    worst = std::max(
        worst,
        check_hybrid(m.ball, weld, hybrid_input(seed + 40u, {false, false, false, false}, false)));
    worst = std::max(
        worst,
        check_hybrid(m.ball, point, hybrid_input(seed + 60u, {false, false, false, true}, true)));
  }
  std::cout << "ball constrained hybrid dynamics vs dense KKT, max relative error: " << worst
            << std::endl;
}

template <std::size_t NC>
double check_rate(double H, const hodyn::Model<BallTree, double>& model,
                  const std::array<LoopClosure<double>, NC>& closures,
                  const hodyn::ConstrainedInverseDynamicsOptions<BallTree, NC, double>& options,
                  const SeriesMotion& s) {
  auto motion = std::make_unique<BallMotion<1>>();
  at_zero(s, *motion);
  auto data = std::make_unique<hodyn::ConstrainedInverseDynamicsRateData<BallTree, NC, double>>();
  const hodyn::ConstrainedInverseDynamicsRates<BallTree, NC, double> no_rates;
  {
    hodyn::test::HeapProbe probe;
    const Status st = hodyn::constrained_inverse_dynamics_rate(model, closures, *motion, options,
                                                               no_rates, *data);
    EXPECT_EQ(probe.count(), 0);
    EXPECT_EQ(st, Status::kOk);
    if (st != Status::kOk) return 1.0;
  }
  auto cid = std::make_unique<hodyn::ConstrainedDynamicsData<BallTree, NC, double>>();
  const auto at = [&](double t) {
    EXPECT_EQ(hodyn::constrained_inverse_dynamics(model, closures, motion_at(s, t), options, *cid),
              Status::kOk);
    VecX out(kDofs + cid->multiplier.size());
    out << VecX(cid->generalized_force), VecX(cid->multiplier);
    return out;
  };
  const VecX now = at(0.0);
  VecX result(now.size()), rate(now.size());
  result << VecX(data->generalized_force), VecX(data->multiplier);
  rate << VecX(data->generalized_force_rate), VecX(data->multiplier_rate);
  EXPECT_LE(max_abs(result - now), 1e-12 * (1 + max_abs(now)));
  const double h = H;
  const VecX d1 = (at(h) - at(-h)) / (2 * h);
  const VecX d2 = (at(h / 2) - at(-h / 2)) / h;
  const VecX richardson = (4 * d2 - d1) / 3;
  const double e = max_abs(rate - richardson) / (1 + max_abs(richardson));
  EXPECT_LE(e, 1e-9) << "\nrate " << rate.transpose() << "\nfd   " << richardson.transpose();
  return e;
}

TEST(SphericalJointClosedForms, ConstrainedInverseDynamicsRateMatchesDifferencesAlongAMotion) {
  using Options1 = hodyn::ConstrainedInverseDynamicsOptions<BallTree, 1, double>;
  // Richardson's error falls as h⁴ here (measured: 1.9e-6, 1.2e-7, 7.4e-9,
  // 4.7e-10, 3.0e-11 at h = 2e-3 … 1.25e-4): truncation, not the rate.
  const double step = 1.25e-4;
  double worst = 0;
  for (unsigned seed : {21u, 22u, 23u}) {
    const Models m = make_models(seed);
    const SeriesMotion s = series_motion(seed, 0.3);
    const std::array<LoopClosure<double>, 1> point{closure(LoopClosureKind::kPoint, 3, 4, seed)};
    const std::array<LoopClosure<double>, 1> weld{closure(LoopClosureKind::kWeld, 3, 4, seed + 9u)};
    Options1 all;
    auto effort = all;
    effort.objective = hodyn::ConstraintForceObjective::kMinimumActuatorEffort;
    worst = std::max(worst, check_rate(step, m.ball, weld, all, s));
    worst = std::max(worst, check_rate(step, m.ball, point, effort, s));
    // Passive: the two revolute joints and the leaf ball's ω_x (A_p square
    // under a point closure), both objectives.
    for (const auto objective : {hodyn::ConstraintForceObjective::kMinimumConstraintForce,
                                 hodyn::ConstraintForceObjective::kMinimumActuatorEffort}) {
      Options1 passive;
      passive.objective = objective;
      for (const int l : {TreeTraits<BallTree>::joint_dof(1), TreeTraits<BallTree>::joint_dof(3),
                          TreeTraits<BallTree>::joint_dof(4)}) {
        passive.actuated[static_cast<std::size_t>(l)] = false;
        passive.passive_force(l) = 0.3;
      }
      worst = std::max(worst, check_rate(step, m.ball, point, passive, s));
    }
  }
  std::cout << "ball constrained ID rate vs Richardson differences: " << worst << std::endl;
}

// ---------------------------------------------------------------------------
// (f) bad rotations, heap
// ---------------------------------------------------------------------------

TEST(SphericalJointClosedForms, BadRotationsGiveStatusesAndZeroOutputsAndNoHeap) {
  const Models m = make_models(31u);
  auto good = std::make_unique<BallMotion<1>>();
  random_state(32u, *good);
  auto eom = std::make_unique<Eom>();
  auto cf = std::make_unique<hodyn::ClosedFormDerivativesData<BallTree, 1, double>>();
  auto kin = std::make_unique<hodyn::KinematicsData<BallTree, 1, double>>();
  auto mmd = std::make_unique<hodyn::MassMatrixDerivativesData<BallTree, 1, double>>();
  auto crba = std::make_unique<Eom>();
  const std::array<LoopClosure<double>, 1> point{closure(LoopClosureKind::kPoint, 3, 4, 33u)};
  auto hd = std::make_unique<hodyn::ConstrainedHybridDynamicsData<BallTree, 1, double>>();
  auto rate = std::make_unique<hodyn::ConstrainedInverseDynamicsRateData<BallTree, 1, double>>();
  const hodyn::ConstrainedInverseDynamicsOptions<BallTree, 1, double> options;
  const hodyn::ConstrainedInverseDynamicsRates<BallTree, 1, double> rates;
  const auto in = std::make_unique<hodyn::HybridDynamicsInput<BallTree, 0, double>>(
      hybrid_input(34u, {false, true, false, false}, false));
  {
    hodyn::test::HeapProbe probe;
    EXPECT_EQ(hodyn::equations_of_motion(m.ball, *eom, *good, true), Status::kOk);
    EXPECT_EQ(hodyn::closed_form_derivatives(m.ball, *cf, *good, 1), Status::kOk);
    EXPECT_EQ(hodyn::forward_kinematics(m.ball, *kin, *good, 1), Status::kOk);
    EXPECT_EQ(hodyn::mass_matrix_derivatives(m.ball, *kin, *mmd, 1), Status::kOk);
    EXPECT_EQ(hodyn::constrained_hybrid_dynamics(m.ball, point, *in, {}, *hd), Status::kOk);
    EXPECT_EQ(hodyn::constrained_inverse_dynamics_rate(m.ball, point, *good, options, rates, *rate),
              Status::kOk);
    EXPECT_EQ(probe.count(), 0);
  }
  // Off orthonormal by 1e-3, a NaN, det −1: the statuses mass_matrix gives.
  for (int bad = 0; bad < 3; ++bad) {
    auto b = std::make_unique<BallMotion<1>>(*good);
    auto bin = std::make_unique<hodyn::HybridDynamicsInput<BallTree, 0, double>>(*in);
    for (auto* r : {&b->joint_rotation, &bin->joint_rotation}) {
      if (bad == 0) (*r)[1](0, 1) += 1e-3;
      if (bad == 1) (*r)[0](2, 2) = std::nan("");
      if (bad == 2) (*r)[0] = -(*r)[0];
    }
    const Status expected = hodyn::mass_matrix(m.ball, *crba, *b);
    EXPECT_EQ(expected, bad == 1 ? Status::kNonFiniteInput : Status::kNonOrthonormalRotation);
    EXPECT_EQ(hodyn::equations_of_motion(m.ball, *eom, *b, true), expected) << bad;
    EXPECT_TRUE(eom->result.mass_matrix.isZero(0.0) && eom->result.coriolis_matrix.isZero(0.0) &&
                eom->result.gravity.isZero(0.0) && eom->result.mass_matrix_rate.isZero(0.0) &&
                eom->result.coriolis_rate.isZero(0.0));
    EXPECT_EQ(hodyn::closed_form_derivatives(m.ball, *cf, *b, 1), expected) << bad;
    EXPECT_TRUE(cf->mass_matrix[0].isZero(0.0) && cf->coriolis_matrix[1].isZero(0.0) &&
                cf->gravity[0].isZero(0.0) && cf->coriolis[1].isZero(0.0));
    EXPECT_EQ(cf->order, -1);
    // The kinematics refuse the rotation (order −1), and so does the recursion.
    EXPECT_EQ(hodyn::forward_kinematics(m.ball, *kin, *b, 1), expected) << bad;
    EXPECT_EQ(hodyn::mass_matrix_derivatives(m.ball, *kin, *mmd, 1), Status::kOrderOutOfRange);
    EXPECT_TRUE(mmd->mass_matrix[0].isZero(0.0) && mmd->mass_matrix[1].isZero(0.0));
    EXPECT_EQ(hodyn::constrained_hybrid_dynamics(m.ball, point, *bin, {}, *hd), expected) << bad;
    EXPECT_TRUE(hd->acceleration.isZero(0.0) && hd->generalized_force.isZero(0.0));
    EXPECT_EQ(hd->multiplier.size(), 0);
    EXPECT_EQ(hodyn::constrained_inverse_dynamics_rate(m.ball, point, *b, options, rates, *rate),
              expected)
        << bad;
    EXPECT_TRUE(rate->generalized_force.isZero(0.0) && rate->generalized_force_rate.isZero(0.0));
    EXPECT_EQ(rate->multiplier_rate.size(), 0);
  }
}

}  // namespace
