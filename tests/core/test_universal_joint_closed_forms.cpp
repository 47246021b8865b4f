// Universal joints (issue 19 slice 6) in the configuration-only calls and the
// closed forms: mass_matrix (the CRBA, both overloads), center_of_mass (c,
// J_com, J̇_com), centroidal_momentum (A_G, Ȧ_G), equations_of_motion (M̄, C,
// g, h, τ_app and their rates), closed_form_derivatives and
// mass_matrix_derivatives.
//
// Oracles, none of them the code under test (the trees of
// support/universal_trees.hpp):
// (a) the "dummy link" twin: each universal joint as revolute(e₁), a massless
//     body, revolute(e₂) through the same point, with the same ν layout, so
//     M̄, C, g, h, τ_app, their rates and their derivatives of orders 0..3,
//     J_com, J̇_com and A_G, Ȧ_G are compared whole, at random states, on the
//     floating tree and the fixed-base chain;
// (b) inverse dynamics (checked against the same twin in test_universal_joint):
//     M̄ ν̇ + h + g (+ τ_app) = τ̄ at random ν̇ and loads; ½ Ṁ̄ − C skew;
// (c) the order-0 equations of motion on Taylor series θ(t) (series scalar):
//     their coefficients are the rates, the closed forms of orders 0..5 and
//     M̄^(n) of the recursion; inverse dynamics of order n is
//     Σ C(n,i) M̄^(i) ν^(n−i+1) + h^(n) + g^(n).
#include <hodyn/center_of_mass.hpp>
#include <hodyn/centroidal_momentum.hpp>
#include <hodyn/closed_form_derivatives.hpp>
#include <hodyn/hodyn.hpp>
#include <hodyn/mass_matrix_derivatives.hpp>

#include "support/error_metrics.hpp"
#include "support/heap_counter.hpp"
#include "support/reference_dynamics.hpp"
#include "support/taylor.hpp"
#include "support/universal_trees.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <memory>
#include <random>
#include <vector>

namespace {

using namespace hodyn::test::universal_trees;  // UniTree, UniTwin, make_pair, random_states, …
using hodyn::TreeTraits;
using hodyn::test::rel_err;
namespace ref = hodyn::test::ref;
constexpr int kR = 5;
constexpr int kTwinOrder = 3;  // closed_form_derivatives and mass_matrix_derivatives vs the twin
using S7 = hodyn::test::Taylor<double, kR + 2>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

template <class Tree, int MO>
Eigen::Matrix<double, TreeTraits<Tree>::kNumDofs, 1> nu_of(
    const hodyn::MotionDerivatives<Tree, MO, double>& m, int k) {  // ν^(k) = (V1^(k); q^(k+1))
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  Eigen::Matrix<double, TreeTraits<Tree>::kNumDofs, 1> v;
  if constexpr (kBase > 0) v.template head<kBase>() = m.base_twist[static_cast<std::size_t>(k)];
  v.template tail<TreeTraits<Tree>::kNumJointDofs>() = m.q[static_cast<std::size_t>(k + 1)];
  return v;
}

/// World and body wrenches (orders 0 and 1) on every body but the root: the
/// universal tree's and, on the same bodies, the twin's.
template <class Tree, class Twin, int MO>
void random_loads(unsigned seed, const std::array<int, Tree::kNumBodies>& same,
                  hodyn::ExternalLoads<Tree, MO, double>& a,
                  hodyn::ExternalLoads<Twin, MO, double>& b) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int j = 1; j < Tree::kNumBodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    const auto T = static_cast<std::size_t>(same[J]);
    a.has_world_wrench[J] = b.has_world_wrench[T] = true;
    a.has_body_wrench[J] = b.has_body_wrench[T] = true;
    for (int k = 0; k <= MO; ++k) {
      const auto K = static_cast<std::size_t>(k);
      for (int i = 0; i < 6; ++i) {
        a.world_wrench[J][K](i) = g(gen);
        a.body_wrench[J][K](i) = g(gen);
      }
      b.world_wrench[T][K] = a.world_wrench[J][K];
      b.body_wrench[T][K] = a.body_wrench[J][K];
    }
  }
}

struct TwinErrors {
  double crba = 0, eom = 0, rates = 0, com = 0, centroidal = 0;
  std::array<double, kTwinOrder + 1> series{}, recursion{};
};

/// (a) everything against the twin at one random state.
template <class Tree, class Twin>
void check_against_twin(const Pair<Tree, Twin>& p, unsigned seed, TwinErrors& worst) {
  auto ma = std::make_unique<hodyn::MotionDerivatives<Tree, kTwinOrder, double>>();
  auto mb = std::make_unique<hodyn::MotionDerivatives<Twin, kTwinOrder, double>>();
  random_states(seed, *ma, *mb);
  auto a1 = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>();
  auto b1 = std::make_unique<hodyn::MotionDerivatives<Twin, 1, double>>();
  random_states(seed, *a1, *b1);
  // The CRBA, both overloads.
  auto ca = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  auto cb = std::make_unique<hodyn::EquationsOfMotionData<Twin, double>>();
  {
    hodyn::test::HeapProbe probe;
    ASSERT_EQ(hodyn::mass_matrix(p.uni, *ca, *a1), hodyn::Status::kOk);
    EXPECT_EQ(probe.count(), 0);
  }
  ASSERT_EQ(hodyn::mass_matrix(p.twin, *cb, *b1), hodyn::Status::kOk);
  double e = rel_err(ca->result.mass_matrix, cb->result.mass_matrix);
  ASSERT_EQ(hodyn::mass_matrix(p.uni, *ca, a1->base_pose, a1->q[0]), hodyn::Status::kOk);
  e = std::max(e, rel_err(ca->result.mass_matrix, cb->result.mass_matrix));
  EXPECT_LE(e, 1e-12) << "CRBA, seed " << seed;
  worst.crba = std::max(worst.crba, e);
  // equations_of_motion with applied wrenches, with rates.
  auto la = std::make_unique<hodyn::ExternalLoads<Tree, 1, double>>();
  auto lb = std::make_unique<hodyn::ExternalLoads<Twin, 1, double>>();
  random_loads(seed + 7u, p.same, *la, *lb);
  auto ea = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  auto eb = std::make_unique<hodyn::EquationsOfMotionData<Twin, double>>();
  {
    hodyn::test::HeapProbe probe;
    ASSERT_EQ(hodyn::equations_of_motion(p.uni, *ea, *a1, la.get(), true), hodyn::Status::kOk);
    EXPECT_EQ(probe.count(), 0);
  }
  ASSERT_EQ(hodyn::equations_of_motion(p.twin, *eb, *b1, lb.get(), true), hodyn::Status::kOk);
  const auto& ra = ea->result;
  const auto& rb = eb->result;
  const double e0 =
      std::max({rel_err(ra.mass_matrix, rb.mass_matrix),
                rel_err(ra.coriolis_matrix, rb.coriolis_matrix), rel_err(ra.coriolis, rb.coriolis),
                rel_err(ra.gravity, rb.gravity), rel_err(ra.applied, rb.applied)});
  const double e1 = std::max({rel_err(ra.mass_matrix_rate, rb.mass_matrix_rate),
                              rel_err(ra.coriolis_matrix_rate, rb.coriolis_matrix_rate),
                              rel_err(ra.coriolis_rate, rb.coriolis_rate),
                              rel_err(ra.gravity_rate, rb.gravity_rate),
                              rel_err(ra.applied_rate, rb.applied_rate)});
  EXPECT_LE(e0, 1e-12) << "M, C, h, g, tau_app, seed " << seed;
  EXPECT_LE(e1, 1e-12) << "their rates, seed " << seed;
  worst.eom = std::max(worst.eom, e0);
  worst.rates = std::max(worst.rates, e1);
  // closed_form_derivatives and mass_matrix_derivatives, orders 0..3.
  auto fa = std::make_unique<hodyn::ClosedFormDerivativesData<Tree, kTwinOrder, double>>();
  auto fb = std::make_unique<hodyn::ClosedFormDerivativesData<Twin, kTwinOrder, double>>();
  ASSERT_EQ(hodyn::closed_form_derivatives(p.uni, *fa, *ma, kTwinOrder), hodyn::Status::kOk);
  ASSERT_EQ(hodyn::closed_form_derivatives(p.twin, *fb, *mb, kTwinOrder), hodyn::Status::kOk);
  auto ka = std::make_unique<hodyn::KinematicsData<Tree, kTwinOrder, double>>();
  auto kb = std::make_unique<hodyn::KinematicsData<Twin, kTwinOrder, double>>();
  ASSERT_EQ(hodyn::forward_kinematics(p.uni, *ka, *ma, kTwinOrder), hodyn::Status::kOk);
  ASSERT_EQ(hodyn::forward_kinematics(p.twin, *kb, *mb, kTwinOrder), hodyn::Status::kOk);
  auto da = std::make_unique<hodyn::MassMatrixDerivativesData<Tree, kTwinOrder, double>>();
  auto db = std::make_unique<hodyn::MassMatrixDerivativesData<Twin, kTwinOrder, double>>();
  ASSERT_EQ(hodyn::mass_matrix_derivatives(p.uni, *ka, *da, kTwinOrder), hodyn::Status::kOk);
  ASSERT_EQ(hodyn::mass_matrix_derivatives(p.twin, *kb, *db, kTwinOrder), hodyn::Status::kOk);
  for (int n = 0; n <= kTwinOrder; ++n) {
    const auto N = static_cast<std::size_t>(n);
    const double es = std::max({rel_err(fa->mass_matrix[N], fb->mass_matrix[N]),
                                rel_err(fa->coriolis_matrix[N], fb->coriolis_matrix[N]),
                                rel_err(fa->coriolis[N], fb->coriolis[N]),
                                rel_err(fa->gravity[N], fb->gravity[N])});
    const double er = rel_err(da->mass_matrix[N], db->mass_matrix[N]);
    EXPECT_LE(es, 1e-12) << "closed forms of order " << n << ", seed " << seed;
    EXPECT_LE(er, 1e-12) << "mass_matrix_derivatives of order " << n << ", seed " << seed;
    worst.series[N] = std::max(worst.series[N], es);
    worst.recursion[N] = std::max(worst.recursion[N], er);
  }
  // Centre of mass (c^(0..4), J_com, J̇_com) and centroidal momentum.
  auto oa = std::make_unique<hodyn::CenterOfMassData<Tree, kTwinOrder, double>>();
  auto ob = std::make_unique<hodyn::CenterOfMassData<Twin, kTwinOrder, double>>();
  ASSERT_EQ(hodyn::center_of_mass(p.uni, *ka, *oa, kTwinOrder), hodyn::Status::kOk);
  ASSERT_EQ(hodyn::center_of_mass(p.twin, *kb, *ob, kTwinOrder), hodyn::Status::kOk);
  double ec = std::max(rel_err(oa->jacobian, ob->jacobian),
                       rel_err(oa->jacobian_derivative, ob->jacobian_derivative));
  for (int k = 0; k <= kTwinOrder + 1; ++k)
    ec = std::max(ec, rel_err(oa->position[static_cast<std::size_t>(k)],
                              ob->position[static_cast<std::size_t>(k)]));
  EXPECT_LE(ec, 1e-12) << "centre of mass, seed " << seed;
  worst.com = std::max(worst.com, ec);
  auto ga = std::make_unique<hodyn::CentroidalMomentumData<Tree, double>>();
  auto gb = std::make_unique<hodyn::CentroidalMomentumData<Twin, double>>();
  ASSERT_EQ(hodyn::centroidal_momentum(p.uni, *ka, *ga), hodyn::Status::kOk);
  ASSERT_EQ(hodyn::centroidal_momentum(p.twin, *kb, *gb), hodyn::Status::kOk);
  const double eg = std::max({rel_err(ga->matrix, gb->matrix),
                              rel_err(ga->matrix_derivative, gb->matrix_derivative),
                              rel_err(ga->momentum, gb->momentum)});
  EXPECT_LE(eg, 1e-12) << "centroidal momentum, seed " << seed;
  worst.centroidal = std::max(worst.centroidal, eg);
}

TEST(UniversalJointClosedForms, EqualTheRevoluteDummyRevoluteTwin) {
  TwinErrors worst;
  for (unsigned seed : {1u, 2u, 3u}) {
    check_against_twin(floating_pair(seed), seed + 70u, worst);
    check_against_twin(fixed_pair(seed), seed + 80u, worst);
  }
  std::cout << "universal vs revolute-dummy-revolute: CRBA " << worst.crba << ", M C h g tau_app "
            << worst.eom << ", their rates " << worst.rates << ", centre of mass " << worst.com
            << ", centroidal momentum " << worst.centroidal
            << "\n  closed_form_derivatives orders 0..3:";
  for (double w : worst.series) std::cout << " " << w;
  std::cout << "\n  mass_matrix_derivatives orders 0..3:";
  for (double w : worst.recursion) std::cout << " " << w;
  std::cout << std::endl;
}

/// (b) against inverse dynamics of the universal tree at one random state.
template <class Tree, class Twin>
void check_against_inverse_dynamics(const Pair<Tree, Twin>& p, unsigned seed,
                                    std::array<double, 4>& worst) {
  using Vec = Eigen::Matrix<double, TreeTraits<Tree>::kNumDofs, 1>;
  using Mat = Eigen::Matrix<double, TreeTraits<Tree>::kNumDofs, TreeTraits<Tree>::kNumDofs>;
  auto m = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>();
  auto unused = std::make_unique<hodyn::MotionDerivatives<Twin, 1, double>>();
  random_states(seed, *m, *unused);
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::equations_of_motion(p.uni, *eom, *m, true), hodyn::Status::kOk);
  const auto& r = eom->result;
  const auto tau_of = [&](const hodyn::ExternalLoads<Tree, 1, double>* loads) {
    auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, 1, double>>();
    EXPECT_EQ(loads ? hodyn::inverse_dynamics(p.uni, *id, *m, loads, 0)
                    : hodyn::inverse_dynamics(p.uni, *id, *m, 0),
              hodyn::Status::kOk);
    Vec tau;
    if constexpr (TreeTraits<Tree>::kBaseDofs > 0)
      tau << id->base_wrench[0], id->joint_torque[0];
    else
      tau = id->joint_torque[0];
    return tau;
  };
  const Vec nu = nu_of(*m, 0), nu_dot = nu_of(*m, 1);
  const double eid = rel_err(Vec(r.mass_matrix * nu_dot + r.coriolis + r.gravity), tau_of(nullptr));
  EXPECT_LE(eid, 1e-12) << "M nu' + h + g vs ID, seed " << seed;
  EXPECT_LE(rel_err(Vec(r.coriolis_matrix * nu), r.coriolis), 1e-13);
  // With loads: τ_app.
  auto la = std::make_unique<hodyn::ExternalLoads<Tree, 1, double>>();
  auto lb = std::make_unique<hodyn::ExternalLoads<Twin, 1, double>>();
  random_loads(seed + 5u, p.same, *la, *lb);
  auto el = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::equations_of_motion(p.uni, *el, *m, la.get(), false), hodyn::Status::kOk);
  const auto& q = el->result;
  const double ea =
      rel_err(Vec(q.mass_matrix * nu_dot + q.coriolis + q.gravity + q.applied), tau_of(la.get()));
  EXPECT_LE(ea, 1e-12) << "with applied wrenches, seed " << seed;
  EXPECT_GT(q.applied.norm(), 1.0);
  // The CRBA against M̄'s columns from inverse dynamics: τ̄(ν̇ = e_l) − τ̄(ν̇ = 0).
  auto mz = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>(*m);
  const auto set_nu_dot = [&](const Vec& x) {
    if constexpr (TreeTraits<Tree>::kBaseDofs > 0)
      mz->base_twist[1] = x.template head<TreeTraits<Tree>::kBaseDofs>();
    mz->q[2] = x.template tail<TreeTraits<Tree>::kNumJointDofs>();
  };
  const auto tau_at = [&]() {
    auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, 1, double>>();
    EXPECT_EQ(hodyn::inverse_dynamics(p.uni, *id, *mz, 0), hodyn::Status::kOk);
    Vec tau;
    if constexpr (TreeTraits<Tree>::kBaseDofs > 0)
      tau << id->base_wrench[0], id->joint_torque[0];
    else
      tau = id->joint_torque[0];
    return tau;
  };
  set_nu_dot(Vec::Zero());
  const Vec bias = tau_at();
  Mat columns;
  for (int l = 0; l < TreeTraits<Tree>::kNumDofs; ++l) {
    set_nu_dot(Vec::Unit(l));
    columns.col(l) = tau_at() - bias;
  }
  auto crba = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::mass_matrix(p.uni, *crba, *m), hodyn::Status::kOk);
  const double ec = rel_err(crba->result.mass_matrix, columns);
  EXPECT_LE(ec, 1e-12) << "CRBA vs ID columns, seed " << seed;
  // Lemma 1: N = Ṁ̄ − 2C is skew.
  const Mat nn = r.mass_matrix_rate - 2.0 * r.coriolis_matrix;
  const double skew = (nn + nn.transpose()).norm() / nn.norm();
  EXPECT_LE(skew, 1e-13) << seed;
  worst[0] = std::max(worst[0], eid);
  worst[1] = std::max(worst[1], ea);
  worst[2] = std::max(worst[2], ec);
  worst[3] = std::max(worst[3], skew);
}

TEST(UniversalJointClosedForms, EquationsOfMotionGiveInverseDynamicsAndLemma1) {
  std::array<double, 4> worst{};
  for (unsigned seed : {4u, 5u, 6u}) {
    check_against_inverse_dynamics(floating_pair(seed), seed + 90u, worst);
    check_against_inverse_dynamics(fixed_pair(seed), seed + 95u, worst);
  }
  std::cout << "universal EOM: M nu' + h + g vs inverse dynamics " << worst[0]
            << ", with applied wrenches " << worst[1] << ", CRBA vs ID columns " << worst[2]
            << ", ||N + N^T||/||N|| " << worst[3] << std::endl;
}

/// (c) The floating tree on a random trajectory: the order-0 equations of
/// motion on series against the rates and every order.
void check_taylor(unsigned seed, double& worst_rates, std::array<double, kR + 1>& worst_series,
                  std::array<double, kR + 1>& worst_id, std::array<double, kR + 1>& worst_rec) {
  using Tree = UniTree;
  constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  constexpr int kJ = TreeTraits<Tree>::kNumJointDofs;
  using Vec = Eigen::Matrix<double, kDofs, 1>;
  const auto p = floating_pair(seed);
  std::mt19937 gen(seed * 7919u + 3u);
  std::normal_distribution<double> g(0.0, 1.0);
  Eigen::Matrix4d c1 = Eigen::Matrix4d::Identity();
  c1.topLeftCorner<3, 3>() = random_rotation(gen);
  c1.topRightCorner<3, 1>() = Vec3(g(gen), g(gen), g(gen));
  std::vector<Vec6> v1;
  for (int k = 0; k <= kR + 1; ++k) {
    Vec6 v;
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
    v1.push_back(v);
  }
  std::array<S7, kJ> x;
  for (auto& s : x) {
    std::vector<double> d;
    for (int k = 0; k <= kR + 2; ++k) d.push_back(1.5 * g(gen));
    s = S7::from_derivatives(d);
  }
  // The order-0 equations of motion on series, with applied wrenches.
  const auto ms = p.uni.cast<S7>();
  auto sm = std::make_unique<hodyn::MotionDerivatives<Tree, 1, S7>>();
  const ref::Mat4<S7> cs = hodyn::test::base_pose_series<S7>(c1, v1);
  sm->base_pose.rotation = cs.topLeftCorner<3, 3>();
  sm->base_pose.translation = cs.topRightCorner<3, 1>();
  for (int i = 0; i < 6; ++i) {
    std::vector<double> d;
    for (const auto& v : v1) d.push_back(v(i));
    sm->base_twist[0](i) = S7::from_derivatives(d);
    sm->base_twist[1](i) = sm->base_twist[0](i).derivative();
  }
  for (int i = 0; i < kJ; ++i) {
    sm->q[0](i) = x[static_cast<std::size_t>(i)];
    sm->q[1](i) = sm->q[0](i).derivative();
    sm->q[2](i) = sm->q[1](i).derivative();
  }
  // Constant loads (the series' rates come from the motion only).
  hodyn::ExternalLoads<Tree, 1, double> l1;
  hodyn::ExternalLoads<UniTwin, 1, double> unused;
  random_loads(seed + 3u, p.same, l1, unused);
  hodyn::ExternalLoads<Tree, 1, S7> ls;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    l1.world_wrench[J][1].setZero();
    l1.body_wrench[J][1].setZero();
    ls.has_world_wrench[J] = l1.has_world_wrench[J];
    ls.has_body_wrench[J] = l1.has_body_wrench[J];
    ls.world_wrench[J][0] = l1.world_wrench[J][0].cast<S7>();
    ls.body_wrench[J][0] = l1.body_wrench[J][0].cast<S7>();
  }
  auto es = std::make_unique<hodyn::EquationsOfMotionData<Tree, S7>>();
  ASSERT_EQ(hodyn::equations_of_motion(ms, *es, *sm, &ls, false), hodyn::Status::kOk);
  const auto& rs = es->result;
  // The double motion: derivatives at t = 0.
  auto md = std::make_unique<hodyn::MotionDerivatives<Tree, kR, double>>();
  md->base_pose.rotation = c1.topLeftCorner<3, 3>();
  md->base_pose.translation = c1.topRightCorner<3, 1>();
  for (int k = 0; k <= kR + 1; ++k)
    md->base_twist[static_cast<std::size_t>(k)] = v1[static_cast<std::size_t>(k)];
  for (int k = 0; k <= kR + 2; ++k)
    for (int i = 0; i < kJ; ++i)
      md->q[static_cast<std::size_t>(k)](i) = x[static_cast<std::size_t>(i)].derivative_value(k);
  auto m1 = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>();
  m1->base_pose = md->base_pose;
  for (std::size_t k = 0; k < 2; ++k) m1->base_twist[k] = md->base_twist[k];
  for (std::size_t k = 0; k < 3; ++k) m1->q[k] = md->q[k];
  auto e1 = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::equations_of_motion(p.uni, *e1, *m1, &l1, true), hodyn::Status::kOk);
  const auto& r1 = e1->result;
  const double e_rates =
      std::max({rel_err(r1.mass_matrix, ref::derivative_values(rs.mass_matrix, 0)),
                rel_err(r1.coriolis_matrix, ref::derivative_values(rs.coriolis_matrix, 0)),
                rel_err(r1.coriolis, ref::derivative_values(rs.coriolis, 0)),
                rel_err(r1.gravity, ref::derivative_values(rs.gravity, 0)),
                rel_err(r1.mass_matrix_rate, ref::derivative_values(rs.mass_matrix, 1)),
                rel_err(r1.coriolis_matrix_rate, ref::derivative_values(rs.coriolis_matrix, 1)),
                rel_err(r1.coriolis_rate, ref::derivative_values(rs.coriolis, 1)),
                rel_err(r1.gravity_rate, ref::derivative_values(rs.gravity, 1)),
                rel_err(r1.applied, ref::derivative_values(rs.applied, 0)),
                rel_err(r1.applied_rate, ref::derivative_values(rs.applied, 1))});
  EXPECT_LE(e_rates, 1e-12) << "rates, seed " << seed;
  worst_rates = std::max(worst_rates, e_rates);
  // Closed forms, M̄^(n) of the recursion and inverse dynamics, orders 0..5.
  auto cf = std::make_unique<hodyn::ClosedFormDerivativesData<Tree, kR, double>>();
  {
    hodyn::test::HeapProbe probe;
    ASSERT_EQ(hodyn::closed_form_derivatives(p.uni, *cf, *md, kR), hodyn::Status::kOk);
    EXPECT_EQ(probe.count(), 0);
  }
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kR, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(p.uni, *id, *md, kR), hodyn::Status::kOk);
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, kR, double>>();
  ASSERT_EQ(hodyn::forward_kinematics(p.uni, *kin, *md, kR - 1), hodyn::Status::kOk);
  auto mmd = std::make_unique<hodyn::MassMatrixDerivativesData<Tree, kR, double>>();
  {
    hodyn::test::HeapProbe probe;
    ASSERT_EQ(hodyn::mass_matrix_derivatives(p.uni, *kin, *mmd, kR), hodyn::Status::kOk);
    EXPECT_EQ(probe.count(), 0);
  }
  for (int n = 0; n <= kR; ++n) {
    const auto N = static_cast<std::size_t>(n);
    const double es_n =
        std::max({rel_err(cf->mass_matrix[N], ref::derivative_values(rs.mass_matrix, n)),
                  rel_err(cf->coriolis_matrix[N], ref::derivative_values(rs.coriolis_matrix, n)),
                  rel_err(cf->coriolis[N], ref::derivative_values(rs.coriolis, n)),
                  rel_err(cf->gravity[N], ref::derivative_values(rs.gravity, n))});
    EXPECT_LE(es_n, 1e-12) << "closed forms, order " << n << " seed " << seed;
    Vec tau, sum = cf->coriolis[N] + cf->gravity[N];
    tau << id->base_wrench[N], id->joint_torque[N];
    for (int i = 0; i <= n; ++i)
      sum += hodyn::binomial<double>(n, i) *
             (cf->mass_matrix[static_cast<std::size_t>(i)] * nu_of(*md, n - i + 1));
    const double eid = rel_err(sum, tau);
    EXPECT_LE(eid, 1e-12) << "inverse dynamics of order " << n << " seed " << seed;
    const double er = rel_err(mmd->mass_matrix[N], ref::derivative_values(rs.mass_matrix, n));
    EXPECT_LE(er, 1e-12) << "mass_matrix_derivatives, order " << n << " seed " << seed;
    worst_series[N] = std::max(worst_series[N], es_n);
    worst_id[N] = std::max(worst_id[N], eid);
    worst_rec[N] = std::max(worst_rec[N], er);
  }
}

TEST(UniversalJointClosedForms, RatesAndEveryOrderMatchTheTaylorSeriesOfTheOrderZeroForms) {
  double worst_rates = 0;
  std::array<double, kR + 1> worst_series{}, worst_id{}, worst_rec{};
  for (unsigned seed : {11u, 12u, 13u})
    check_taylor(seed, worst_rates, worst_series, worst_id, worst_rec);
  std::cout << "universal EOM rates vs Taylor series: " << worst_rates
            << "\nuniversal closed forms vs Taylor series, orders 0..5:";
  for (double w : worst_series) std::cout << " " << w;
  std::cout << "\nuniversal closed forms vs inverse dynamics of order n:";
  for (double w : worst_id) std::cout << " " << w;
  std::cout << "\nuniversal mass_matrix_derivatives vs Taylor series:";
  for (double w : worst_rec) std::cout << " " << w;
  std::cout << std::endl;
}

}  // namespace
