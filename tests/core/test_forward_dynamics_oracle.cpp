// Oracles for higher-order forward dynamics (H-GABI-FBS, seed 000 Alg. 3,
// Lemma 2) and hybrid dynamics (H-GHYB-FBS, Alg. 4).
//
// Forward-dynamics oracle (digest 000 §12.1, "degree-by-degree solve with the
// mass matrix"), independent of the core: the dense reference inverse dynamics
// (support/reference_dynamics.hpp) run in Taylor<double, 7> arithmetic gives
// the derivatives 0..5 of the generalized force τ̄ = (Q1; τ) of a motion given
// by the state (C1, V1, q, q̇) and the derivatives ν^(m) = (V1^(m); q^(m+1)),
// m ≥ 1. Its derivative of order k is affine in the unknown ν^(k+1):
//     τ̄^(k) = M̄(t0) ν^(k+1) + (terms in ν^(1..k) and the state),
// because dᵏ/dtᵏ (M̄ ν̇) = M̄ ν^(k+1) + Σ_{i≥1} C(k,i) M̄^(i) ν^(k+1−i) and h, g
// contain ν only through order k. So, for k = 0..r: set ν^(k+1) = 0, evaluate
// the reference (base pose series re-integrated from the V1 list every time),
// take the residual input^(k) − τ̄^(k), and ν^(k+1) = M̄⁻¹ residual. (In Taylor
// coefficients the matrix is (k+1) M̄ and the unknown is ν^(k+1)/(k+1)!; in
// derivatives the factorials cancel.) M̄(t0) itself is built from reference ID
// columns with unit accelerations, M̄ e_i = τ̄(ν̇ = e_i) − τ̄(ν̇ = 0).
//
// States and inputs are a STRESS TEST: every derivative ~ N(0, 1). The aerial
// manipulator's M̄ has condition ~4e3, so forward errors are ~1e-11 (the issue
// allows 1e-8); backward errors (ID of the FD result) stay ~1e-13.
#include <hodyn/hodyn.hpp>

#include "support/oracle_models.hpp"
#include "support/reference_dynamics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using hodyn::SpatialInertia;

// From support/oracle_models.hpp: kR, kD, S7, VecX, AMTree, OracleTree,
// random_reference_tree, core_model, core_aerial_manipulator, State,
// random_state, fill_motion, reference, tau_derivative, Worst; and Pose,
// Status, ReferenceTree, Taylor, ref, rel_err.
using namespace hodyn::test::oracle;

// ---------------------------------------------------------------------------
// The forward-dynamics oracle
// ---------------------------------------------------------------------------

using Vec6 = ref::Vec6<double>;
using VecXd = VecX<double>;
using MatX = Eigen::MatrixXd;
using S2 = Taylor<double, 2>;

template <class Tree>
using FdInput = hodyn::ForwardDynamicsInput<Tree, kR, double>;
template <class Tree>
using FdData = hodyn::ForwardDynamicsData<Tree, kR, double>;
template <class Tree>
using HyInput = hodyn::HybridDynamicsInput<Tree, kR, double>;
template <class Tree>
using IdData = hodyn::InverseDynamicsData<Tree, kR, double>;
template <class Tree>
using Motion = hodyn::MotionDerivatives<Tree, kR, double>;

/// τ̄^(k) = (Q1^(k); τ^(k)) of the reference for the motion in `st` (lists of
/// derivatives; missing ones are zero).
template <class S>
VecXd reference_force(const ReferenceTree<double>& tree, const State<double>& st, int k) {
  const auto out = reference<S>(tree, st);
  VecXd y(6 + tree.num_joints());
  y << ref::derivative_values(out.Q1, k), tau_derivative(out.tau, k);
  return y;
}

/// The state (C1, V1, q, q̇) of a motion, higher derivatives dropped.
State<double> state_only(const State<double>& x) {
  State<double> s;
  s.C1 = x.C1;
  s.V1 = {x.V1[0]};
  s.q = {x.q[0], x.q[1]};
  return s;
}

/// M̄(t0) from reference ID columns with unit accelerations.
MatX reference_mass_matrix(const ReferenceTree<double>& tree, const State<double>& x) {
  const int nj = tree.num_joints();
  State<double> base = state_only(x);
  base.V1.push_back(Vec6::Zero());
  base.q.push_back(VecXd::Zero(nj));
  const VecXd y0 = reference_force<S2>(tree, base, 0);
  MatX m(6 + nj, 6 + nj);
  for (int i = 0; i < 6 + nj; ++i) {
    State<double> s = base;
    if (i < 6)
      s.V1[1](i) = 1;
    else
      s.q[2](i - 6) = 1;
    m.col(i) = reference_force<S2>(tree, s, 0) - y0;
  }
  return m;
}

/// Inputs of forward dynamics: derivatives 0..kR of Q1 and τ.
struct Inputs {
  std::vector<Vec6> Q;
  std::vector<VecXd> tau;
  VecXd stacked(int k) const {
    VecXd y(6 + tau[0].size());
    y << Q[static_cast<std::size_t>(k)], tau[static_cast<std::size_t>(k)];
    return y;
  }
};

Inputs random_inputs(unsigned seed, int nj) {
  std::mt19937 gen(seed * 31u + 5u);
  std::normal_distribution<double> g(0.0, 1.0);
  Inputs in;
  for (int k = 0; k <= kR; ++k) {
    Vec6 w;
    for (int i = 0; i < 6; ++i) w(i) = g(gen);
    in.Q.push_back(w);
    VecXd t(nj);
    for (int i = 0; i < nj; ++i) t(i) = g(gen);
    in.tau.push_back(t);
  }
  return in;
}

/// The motion (V1^(0..r+1), q^(0..r+2)) that the inputs produce from the state of x.
State<double> forward_dynamics_oracle(const ReferenceTree<double>& tree, const State<double>& x,
                                      const Inputs& in, int r) {
  const int nj = tree.num_joints();
  const MatX mbar = reference_mass_matrix(tree, x);
  const Eigen::LLT<MatX> llt(mbar);
  EXPECT_EQ(llt.info(), Eigen::Success);
  State<double> st = state_only(x);
  for (int k = 0; k <= r; ++k) {
    st.V1.push_back(Vec6::Zero());
    st.q.push_back(VecXd::Zero(nj));
    const VecXd residual = in.stacked(k) - reference_force<S7>(tree, st, k);
    const VecXd nu = llt.solve(residual);
    st.V1.back() = nu.head<6>();
    st.q.back() = nu.tail(nj);
  }
  return st;
}

/// ν^(k+1) = (V1^(k+1); q^(k+2)) stacked.
VecXd nu_derivative(const State<double>& s, int k) {
  const auto K = static_cast<std::size_t>(k);
  VecXd v(6 + s.q[0].size());
  v << s.V1[K + 1], s.q[K + 2];
  return v;
}
template <class Tree>
VecXd nu_derivative(const Motion<Tree>& m, int k) {
  const auto K = static_cast<std::size_t>(k);
  VecXd v(6 + Tree::kNumBodies - 1);
  v << m.base_twist[K + 1], m.q[K + 2];
  return v;
}
/// τ̄^(k) = (Q1^(k); τ^(k)) stacked, of an IdData or FdData result.
template <class Data>
VecXd force(const Data& d, int k) {
  const auto K = static_cast<std::size_t>(k);
  VecXd y(6 + d.joint_torque[K].size());
  y << d.base_wrench[K], d.joint_torque[K];
  return y;
}

template <class Tree>
void set_state(const State<double>& x, FdInput<Tree>& in) {
  in.base_pose = Pose<double>::from_matrix(x.C1);
  in.base_twist = x.V1[0];
  in.q = x.q[0];
  in.q_dot = x.q[1];
}
template <class Tree>
void set_inputs(const Inputs& src, FdInput<Tree>& in) {
  for (std::size_t k = 0; k <= kR; ++k) {
    in.base_wrench[k] = src.Q[k];
    in.joint_torque[k] = src.tau[k];
  }
}

/// Inverse dynamics of order r of the motion in m.
template <class Tree>
std::unique_ptr<IdData<Tree>> run_id(const hodyn::Model<Tree, double>& model, const Motion<Tree>& m, int r) {
  auto d = std::make_unique<IdData<Tree>>();
  EXPECT_EQ(hodyn::inverse_dynamics(model, *d, m, r), Status::kOk);
  return d;
}

// ---------------------------------------------------------------------------
// Oracle sanity and FD against the oracle
// ---------------------------------------------------------------------------

template <class Tree>
void check_order_zero(const ReferenceTree<double>& tree, const hodyn::Model<Tree, double>& model, unsigned seed) {
  const int nj = Tree::kNumBodies - 1;
  const State<double> x = random_state<double>(seed, nj);
  const MatX mbar = reference_mass_matrix(tree, x);
  // The reference M̄ equals the core's CRBA (a cross-check of both).
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::mass_matrix(model, *eom, Pose<double>::from_matrix(x.C1), x.q[0]), Status::kOk);
  EXPECT_LE((MatX(eom->result.mass_matrix) - mbar).norm() / mbar.norm(), 1e-13);
  // Order 0 of the oracle is M̄⁻¹ (τ̄ − h − g).
  const Inputs in = random_inputs(seed, nj);
  State<double> zero_acc = state_only(x);
  zero_acc.V1.push_back(Vec6::Zero());
  zero_acc.q.push_back(VecXd::Zero(nj));
  const VecXd hg = reference_force<S2>(tree, zero_acc, 0);
  const VecXd expect = mbar.llt().solve(in.stacked(0) - hg);
  const State<double> oracle = forward_dynamics_oracle(tree, x, in, 0);
  EXPECT_LE(rel_err(nu_derivative(oracle, 0), expect), 1e-13);
  auto fin = std::make_unique<FdInput<Tree>>();
  set_state(x, *fin);
  set_inputs(in, *fin);
  auto d = std::make_unique<FdData<Tree>>();
  ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin, 0), Status::kOk);
  EXPECT_LE(rel_err(nu_derivative(d->motion, 0), expect), 1e-10);
}

TEST(ForwardDynamicsOracle, OrderZeroIsTheMassMatrixSolve) {
  check_order_zero<AMTree>(hodyn::test::make_aerial_manipulator<double>(), core_aerial_manipulator(), 1u);
  const auto tree = random_reference_tree<OracleTree, double>(1u);
  check_order_zero<OracleTree>(tree, core_model<OracleTree>(tree), 2u);
}

template <class Tree>
void check_fd_against_oracle(const ReferenceTree<double>& tree, const hodyn::Model<Tree, double>& model,
                             unsigned seed, Worst& w) {
  const int nj = Tree::kNumBodies - 1;
  const State<double> x = random_state<double>(seed, nj);
  const Inputs in = random_inputs(seed, nj);
  const State<double> oracle = forward_dynamics_oracle(tree, x, in, kR);
  auto fin = std::make_unique<FdInput<Tree>>();
  set_state(x, *fin);
  set_inputs(in, *fin);
  for (int r = 0; r <= kR; ++r) {
    auto d = std::make_unique<FdData<Tree>>();
    ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin, r), Status::kOk);
    EXPECT_EQ(d->order, r);
    for (int k = 0; k <= r; ++k) {
      const double e = rel_err(nu_derivative(d->motion, k), nu_derivative(oracle, k));
      EXPECT_LE(e, 1e-8) << "order " << k << " of a call of order " << r << " seed " << seed;
      w.update(k, e);
    }
  }
}

TEST(ForwardDynamicsOracle, AerialManipulatorAllOrders) {
  const auto tree = hodyn::test::make_aerial_manipulator<double>();
  const auto model = core_aerial_manipulator();
  Worst w{"fd_am", {}};
  for (unsigned seed : {11u, 12u, 13u}) check_fd_against_oracle<AMTree>(tree, model, seed, w);
  w.report();
}

TEST(ForwardDynamicsOracle, RandomTreeAllOrders) {
  Worst w{"fd_tree", {}};
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto tree = random_reference_tree<OracleTree, double>(seed);
    check_fd_against_oracle<OracleTree>(tree, core_model<OracleTree>(tree), seed + 50u, w);
  }
  w.report();
}

// ---------------------------------------------------------------------------
// Round trips at every order
// ---------------------------------------------------------------------------

/// ID(FD(u)) = u: backward error of forward dynamics.
template <class Tree>
void check_id_of_fd(const hodyn::Model<Tree, double>& model, unsigned seed, Worst& w, Worst& w_plain,
                    Worst& w_digest) {
  const int nj = Tree::kNumBodies - 1;
  const State<double> x = random_state<double>(seed, nj);
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::mass_matrix(model, *eom, Pose<double>::from_matrix(x.C1), x.q[0]), Status::kOk);
  const double mbar_norm = MatX(eom->result.mass_matrix).norm();
  const Inputs in = random_inputs(seed, nj);
  auto fin = std::make_unique<FdInput<Tree>>();
  set_state(x, *fin);
  set_inputs(in, *fin);
  for (int r = 0; r <= kR; ++r) {
    auto d = std::make_unique<FdData<Tree>>();
    ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin, r), Status::kOk);
    const auto id = run_id(model, d->motion, r);
    for (int k = 0; k <= r; ++k) {
      // With N(0,1) inputs the motion derivatives grow fast with the order
      // (|ν^(6)| ~ 1e3..1e5), so τ̄^(k) = M̄ ν^(k+1) + bias is an O(1) result of
      // cancelling terms of size |M̄| |ν^(k+1)|: the backward error is measured
      // on that scale.
      const double scale = in.stacked(k).norm() + mbar_norm * nu_derivative(d->motion, k).norm();
      const double e = (force(*id, k) - in.stacked(k)).norm() / scale;
      EXPECT_LE(e, 1e-11) << "order " << k << " of " << r << " seed " << seed;
      w.update(k, e);
      w_plain.update(k, rel_err(force(*id, k), in.stacked(k)));
    }
  }
  // The digest's direction, x → u = ID(x) → FD(u) → ID: plain relative error.
  auto motion = std::make_unique<Motion<Tree>>();
  fill_motion(x, *motion);
  for (int r = 0; r <= kR; ++r) {
    const auto u = run_id(model, *motion, r);
    auto fin2 = std::make_unique<FdInput<Tree>>();
    set_state(x, *fin2);
    for (int k = 0; k <= r; ++k) {
      fin2->base_wrench[static_cast<std::size_t>(k)] = u->base_wrench[static_cast<std::size_t>(k)];
      fin2->joint_torque[static_cast<std::size_t>(k)] = u->joint_torque[static_cast<std::size_t>(k)];
    }
    auto d = std::make_unique<FdData<Tree>>();
    ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin2, r), Status::kOk);
    const auto id = run_id(model, d->motion, r);
    for (int k = 0; k <= r; ++k) {
      const double e = rel_err(force(*id, k), force(*u, k));
      EXPECT_LE(e, 1e-11) << "ID->FD->ID order " << k << " of " << r << " seed " << seed;
      w_digest.update(k, e);
    }
  }
}

/// FD(ID(x)) = x: forward error, with the base wrench given in the world or the base frame.
template <class Tree>
void check_fd_of_id(const ReferenceTree<double>& tree, const hodyn::Model<Tree, double>& model, unsigned seed,
                    hodyn::WrenchFrame frame, Worst& w, Worst& w_oracle) {
  const int nj = Tree::kNumBodies - 1;
  const State<double> x = random_state<double>(seed, nj);
  auto motion = std::make_unique<Motion<Tree>>();
  fill_motion(x, *motion);
  std::array<double, kR + 1> floor{};
  {
    // The same round trip through the (independent, dense) oracle: the
    // conditioning floor of a double-precision forward dynamics on these inputs.
    // With N(0,1) stress states the aerial manipulator (cond M̄ ~ 4e3) puts it
    // at ~1e-8 (order 4) and ~2e-7 (order 5), above the 1e-8: there the
    // core must be as accurate as the oracle. Both errors are rounding errors of
    // the same ill-conditioned problem, i.e. random of the same size, so the
    // bound allows a factor 4 between the two realizations.
    const auto id = run_id(model, *motion, kR);
    Inputs u;
    for (std::size_t k = 0; k <= kR; ++k) {
      u.Q.push_back(id->base_wrench[k]);
      u.tau.push_back(id->joint_torque[k]);
    }
    const State<double> xo = forward_dynamics_oracle(tree, x, u, kR);
    for (int k = 0; k <= kR; ++k) {
      floor[static_cast<std::size_t>(k)] = rel_err(nu_derivative(xo, k), nu_derivative(x, k));
      w_oracle.update(k, floor[static_cast<std::size_t>(k)]);
    }
  }
  for (int r = 0; r <= kR; ++r) {
    const auto id = run_id(model, *motion, r);
    auto fin = std::make_unique<FdInput<Tree>>();
    set_state(x, *fin);
    fin->base_wrench_frame = frame;
    for (int k = 0; k <= r; ++k) {
      const auto K = static_cast<std::size_t>(k);
      fin->base_wrench[K] = frame == hodyn::WrenchFrame::kWorld ? id->base_wrench[K] : id->base_wrench_body[K];
      fin->joint_torque[K] = id->joint_torque[K];
    }
    auto d = std::make_unique<FdData<Tree>>();
    ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin, r), Status::kOk);
    for (int k = 0; k <= r; ++k) {
      const double e = rel_err(nu_derivative(d->motion, k), nu_derivative(x, k));
      EXPECT_LE(e, std::max(1e-8, 4.0 * floor[static_cast<std::size_t>(k)]))
          << "order " << k << " of " << r << " seed " << seed << " (oracle floor "
          << floor[static_cast<std::size_t>(k)] << ")";
      w.update(k, e);
      // The world-frame wrench FD used equals ID's (conversion from the base frame).
      EXPECT_LE(rel_err(d->base_wrench[static_cast<std::size_t>(k)], id->base_wrench[static_cast<std::size_t>(k)]),
                1e-11);
    }
  }
}

TEST(ForwardDynamicsRoundTrip, InverseOfForwardReproducesInputs) {
  Worst wa{"roundtrip_id_of_fd_am", {}}, wt{"roundtrip_id_of_fd_tree", {}};
  Worst pa{"roundtrip_id_of_fd_am_plain_relative", {}}, pt{"roundtrip_id_of_fd_tree_plain_relative", {}};
  Worst da{"roundtrip_id_fd_id_am", {}}, dt{"roundtrip_id_fd_id_tree", {}};
  const auto model = core_aerial_manipulator();
  for (unsigned seed : {61u, 62u, 63u}) check_id_of_fd<AMTree>(model, seed, wa, pa, da);
  for (unsigned seed : {1u, 2u, 3u})
    check_id_of_fd<OracleTree>(core_model<OracleTree>(random_reference_tree<OracleTree, double>(seed)), seed + 60u, wt,
                               pt, dt);
  for (const Worst* w : {&wa, &wt, &pa, &pt, &da, &dt}) w->report();
}

void fd_of_id_cases(hodyn::WrenchFrame frame, const std::string& suffix) {
  Worst wa{"roundtrip_fd_of_id" + suffix + "_am", {}}, wt{"roundtrip_fd_of_id" + suffix + "_tree", {}};
  Worst oa{"roundtrip_fd_of_id" + suffix + "_am_oracle_itself", {}};
  Worst ot{"roundtrip_fd_of_id" + suffix + "_tree_oracle_itself", {}};
  const auto am = hodyn::test::make_aerial_manipulator<double>();
  const auto model = core_aerial_manipulator();
  for (unsigned seed : {71u, 72u, 73u}) check_fd_of_id<AMTree>(am, model, seed, frame, wa, oa);
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto tree = random_reference_tree<OracleTree, double>(seed);
    check_fd_of_id<OracleTree>(tree, core_model<OracleTree>(tree), seed + 70u, frame, wt, ot);
  }
  for (const Worst* w : {&wa, &oa, &wt, &ot}) w->report();
}

TEST(ForwardDynamicsRoundTrip, ForwardOfInverseReproducesMotion) { fd_of_id_cases(hodyn::WrenchFrame::kWorld, ""); }

TEST(ForwardDynamicsRoundTrip, ForwardOfInverseWithBaseFrameWrench) {
  fd_of_id_cases(hodyn::WrenchFrame::kBase, "_base_frame");
}

// ---------------------------------------------------------------------------
// Hybrid dynamics
// ---------------------------------------------------------------------------

template <class Tree>
void check_hybrid(const hodyn::Model<Tree, double>& model, unsigned seed, Worst& w_all_tau, Worst& w_all_q,
                  Worst& w_mixed) {
  constexpr int nj = Tree::kNumBodies - 1;
  const State<double> x = random_state<double>(seed, nj);
  const Inputs in = random_inputs(seed, nj);
  auto motion = std::make_unique<Motion<Tree>>();
  fill_motion(x, *motion);
  std::mt19937 gen(seed + 5u);
  for (int r = 0; r <= kR; ++r) {
    // (1) All joints torque-driven, base wrench given: forward dynamics.
    {
      auto fin = std::make_unique<FdInput<Tree>>();
      set_state(x, *fin);
      set_inputs(in, *fin);
      auto fd = std::make_unique<FdData<Tree>>();
      ASSERT_EQ(hodyn::forward_dynamics(model, *fd, *fin, r), Status::kOk);
      auto hin = std::make_unique<HyInput<Tree>>();
      set_state(x, *hin);
      set_inputs(in, *hin);
      hin->base_input = hodyn::BaseInput::kWrench;
      hin->motion_prescribed.fill(false);
      auto hd = std::make_unique<FdData<Tree>>();
      ASSERT_EQ(hodyn::hybrid_dynamics(model, *hd, *hin, r), Status::kOk);
      for (int k = 0; k <= r; ++k) {
        const double e = std::max(rel_err(nu_derivative(hd->motion, k), nu_derivative(fd->motion, k)),
                                  rel_err(force(*hd, k), force(*fd, k)));
        EXPECT_LE(e, 1e-13) << k << " of " << r;
        w_all_tau.update(k, e);
      }
    }
    const auto id = run_id(model, *motion, r);
    // (2) All joints and the base motion-prescribed: inverse dynamics.
    {
      auto hin = std::make_unique<HyInput<Tree>>();
      set_state(x, *hin);
      hin->base_input = hodyn::BaseInput::kMotion;
      hin->motion_prescribed.fill(true);
      for (std::size_t k = 0; k <= kR; ++k) {
        hin->base_acceleration[k] = x.V1[k + 1];
        hin->joint_acceleration[k] = x.q[k + 2];
      }
      auto hd = std::make_unique<FdData<Tree>>();
      ASSERT_EQ(hodyn::hybrid_dynamics(model, *hd, *hin, r), Status::kOk);
      for (int k = 0; k <= r; ++k) {
        const double e = rel_err(force(*hd, k), force(*id, k));
        EXPECT_LE(e, 1e-11) << k << " of " << r;
        w_all_q.update(k, e);
        // Prescribed inputs come back to rounding (the core scales by 1/k! and k!).
        EXPECT_LE(rel_err(nu_derivative(hd->motion, k), nu_derivative(x, k)), 1e-15);
      }
    }
    // (3) Random mixed splits, both base modes: prescribed quantities from x and
    // ID(x). The hybrid result must be consistent with ID: ID of the combined
    // motion reproduces all torques and the base wrench (backward error), and
    // the motion is x's (forward error).
    for (hodyn::BaseInput mode : {hodyn::BaseInput::kWrench, hodyn::BaseInput::kMotion}) {
      auto hin = std::make_unique<HyInput<Tree>>();
      set_state(x, *hin);
      hin->base_input = mode;
      int prescribed = 0;
      do {
        prescribed = 0;
        for (int j = 0; j < nj; ++j) {
          hin->motion_prescribed[static_cast<std::size_t>(j)] = std::bernoulli_distribution(0.5)(gen);
          prescribed += hin->motion_prescribed[static_cast<std::size_t>(j)];
        }
      } while (prescribed == 0 || prescribed == nj);
      for (std::size_t k = 0; k <= static_cast<std::size_t>(r); ++k) {
        hin->base_wrench[k] = id->base_wrench[k];
        hin->base_acceleration[k] = x.V1[k + 1];
        hin->joint_torque[k] = id->joint_torque[k];
        hin->joint_acceleration[k] = x.q[k + 2];
        // Entries that are not inputs get garbage: they must be ignored.
        for (int j = 0; j < nj; ++j) {
          if (hin->motion_prescribed[static_cast<std::size_t>(j)])
            hin->joint_torque[k](j) = 1e3;
          else
            hin->joint_acceleration[k](j) = -1e3;
        }
        if (mode == hodyn::BaseInput::kWrench)
          hin->base_acceleration[k].setConstant(1e3);
        else
          hin->base_wrench[k].setConstant(-1e3);
      }
      auto hd = std::make_unique<FdData<Tree>>();
      ASSERT_EQ(hodyn::hybrid_dynamics(model, *hd, *hin, r), Status::kOk);
      const auto id_h = run_id(model, hd->motion, r);
      for (int k = 0; k <= r; ++k) {
        const auto K = static_cast<std::size_t>(k);
        const double eb = rel_err(force(*id_h, k), force(*hd, k));
        EXPECT_LE(eb, 1e-9) << k << " of " << r;
        w_mixed.update(k, eb);
        EXPECT_LE(rel_err(nu_derivative(hd->motion, k), nu_derivative(x, k)), 1e-8) << k << " of " << r;
        EXPECT_LE(rel_err(force(*hd, k), force(*id, k)), 1e-9) << k << " of " << r;
        for (int j = 0; j < nj; ++j) {
          if (hin->motion_prescribed[static_cast<std::size_t>(j)]) {
            EXPECT_LE(std::abs(hd->motion.q[K + 2](j) - x.q[K + 2](j)), 1e-15 * std::abs(x.q[K + 2](j)));
          } else {
            EXPECT_LE(std::abs(hd->joint_torque[K](j) - id->joint_torque[K](j)),
                      1e-15 * std::abs(id->joint_torque[K](j)));
          }
        }
        if (mode == hodyn::BaseInput::kMotion) {
          EXPECT_LE(rel_err(hd->motion.base_twist[K + 1], x.V1[K + 1]), 1e-15);
        } else {
          EXPECT_LE(rel_err(hd->base_wrench[K], id->base_wrench[K]), 1e-15);
        }
      }
    }
  }
}

TEST(HybridDynamics, ReducesToForwardAndInverseDynamicsAndMixedSplitsAreConsistent) {
  Worst w1{"hybrid_all_tau_vs_fd", {}}, w2{"hybrid_all_q_vs_id", {}}, w3{"hybrid_mixed_backward", {}};
  const auto model = core_aerial_manipulator();
  for (unsigned seed : {91u, 92u, 93u}) check_hybrid<AMTree>(model, seed, w1, w2, w3);
  for (unsigned seed : {1u, 2u, 3u})
    check_hybrid<OracleTree>(core_model<OracleTree>(random_reference_tree<OracleTree, double>(seed)), seed + 90u, w1,
                             w2, w3);
  w1.report();
  w2.report();
  w3.report();
}

// ---------------------------------------------------------------------------
// Lemma 2: one articulated inertia for every order
// ---------------------------------------------------------------------------

template <class Tree>
void check_lemma2(const ReferenceTree<double>& tree, const hodyn::Model<Tree, double>& model, unsigned seed,
                  double& worst_jacobian) {
  constexpr int nj = Tree::kNumBodies - 1;
  const State<double> x = random_state<double>(seed, nj);
  const Inputs in = random_inputs(seed, nj);
  auto fin = std::make_unique<FdInput<Tree>>();
  set_state(x, *fin);
  set_inputs(in, *fin);
  auto d0 = std::make_unique<FdData<Tree>>();
  auto d5 = std::make_unique<FdData<Tree>>();
  ASSERT_EQ(hodyn::forward_dynamics(model, *d0, *fin, 0), Status::kOk);
  ASSERT_EQ(hodyn::forward_dynamics(model, *d5, *fin, kR), Status::kOk);
  bool bitwise = true;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    hodyn::Matrix6<double> m0, m5;
    ASSERT_EQ(hodyn::articulated_inertia(*d0, j, m0), Status::kOk);
    ASSERT_EQ(hodyn::articulated_inertia(*d5, j, m5), Status::kOk);
    const MatX a0 = m0, a5 = m5;
    EXPECT_LE((a0 - a5).norm(), 1e-15 * a0.norm()) << j;
    bitwise = bitwise && std::memcmp(a0.data(), a5.data(), sizeof(double) * 36) == 0;
  }
  EXPECT_TRUE(bitwise) << "articulated inertias of the order-0 and order-5 calls differ in the last bits";

  // Oracle: with all joints torque-driven, the base's articulated inertia is the
  // Schur complement of the joint block of M̄ (reference).
  const MatX mbar = reference_mass_matrix(tree, x);
  const MatX mbb = mbar.topLeftCorner<6, 6>(), mbq = mbar.topRightCorner(6, nj), mqq = mbar.bottomRightCorner(nj, nj);
  const MatX schur = mbb - mbq * mqq.llt().solve(mbq.transpose());
  hodyn::Matrix6<double> base_inertia;
  ASSERT_EQ(hodyn::articulated_inertia(*d0, 0, base_inertia), Status::kOk);
  const MatX ma = base_inertia;
  EXPECT_LE((ma - schur).norm() / schur.norm(), 1e-11);

  // ∂V1^(r+1)/∂Q1^(r) = (M^A_0)⁻¹ at every order r (FD is affine in Q1^(r), so a
  // unit step is exact up to rounding), and lower orders do not move.
  auto base = std::make_unique<FdData<Tree>>();
  for (int r = 0; r <= kR; ++r) {
    ASSERT_EQ(hodyn::forward_dynamics(model, *base, *fin, r), Status::kOk);
    // Step of the size of the terms at this order, so that the difference of
    // the two solutions is not swamped by their rounding.
    const double delta =
        std::max(1.0, schur.norm() * base->motion.base_twist[static_cast<std::size_t>(r + 1)].norm());
    MatX jac(6, 6);
    for (int i = 0; i < 6; ++i) {
      auto pin = std::make_unique<FdInput<Tree>>(*fin);
      pin->base_wrench[static_cast<std::size_t>(r)](i) += delta;
      auto pd = std::make_unique<FdData<Tree>>();
      ASSERT_EQ(hodyn::forward_dynamics(model, *pd, *pin, r), Status::kOk);
      jac.col(i) = (pd->motion.base_twist[static_cast<std::size_t>(r + 1)] -
                    base->motion.base_twist[static_cast<std::size_t>(r + 1)]) /
                   delta;
      for (int k = 0; k < r; ++k)
        EXPECT_EQ(nu_derivative(pd->motion, k), nu_derivative(base->motion, k)) << r << " " << k;
    }
    const double e = (schur * jac - MatX::Identity(6, 6)).norm();
    EXPECT_LE(e, 1e-9) << "order " << r;
    worst_jacobian = std::max(worst_jacobian, e);
  }
}

TEST(ForwardDynamicsLemma2, ArticulatedInertiaIsOrderFreeAndIsTheOracleJacobian) {
  double worst = 0;
  check_lemma2<AMTree>(hodyn::test::make_aerial_manipulator<double>(), core_aerial_manipulator(), 101u, worst);
  for (unsigned seed : {1u, 2u}) {
    const auto tree = random_reference_tree<OracleTree, double>(seed);
    check_lemma2<OracleTree>(tree, core_model<OracleTree>(tree), seed + 100u, worst);
  }
  std::cout << "lemma2 worst ||M^A_oracle * dV/dQ - I||: " << worst << std::endl;
  RecordProperty("lemma2_jacobian_worst", std::to_string(worst));
}

// ---------------------------------------------------------------------------
// Helical joints (issue 19): the oracle, both round trips, hybrid dynamics and
// Lemma 2 on a tree with four screw joints
// ---------------------------------------------------------------------------

TEST(ForwardDynamicsHelical, OracleRoundTripsHybridAndLemma2) {
  Worst w{"fd_helical", {}};
  Worst wt{"roundtrip_id_of_fd_helical", {}}, pt{"roundtrip_id_of_fd_helical_plain_relative", {}},
      dt{"roundtrip_id_fd_id_helical", {}};
  Worst ft{"roundtrip_fd_of_id_helical", {}}, ot{"roundtrip_fd_of_id_helical_oracle_itself", {}};
  Worst h1{"hybrid_helical_all_tau_vs_fd", {}}, h2{"hybrid_helical_all_q_vs_id", {}},
      h3{"hybrid_helical_mixed_backward", {}};
  double lemma2 = 0;
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto tree = random_reference_tree<HelicalTree, double>(seed);
    const auto model = core_model<HelicalTree>(tree);
    check_fd_against_oracle<HelicalTree>(tree, model, seed + 50u, w);
    check_id_of_fd<HelicalTree>(model, seed + 60u, wt, pt, dt);
    check_fd_of_id<HelicalTree>(tree, model, seed + 70u, hodyn::WrenchFrame::kWorld, ft, ot);
    check_hybrid<HelicalTree>(model, seed + 90u, h1, h2, h3);
    check_lemma2<HelicalTree>(tree, model, seed + 100u, lemma2);
  }
  for (const Worst* x : {&w, &wt, &pt, &dt, &ft, &ot, &h1, &h2, &h3}) x->report();
  std::cout << "lemma2 helical worst ||M^A_oracle * dV/dQ - I||: " << lemma2 << std::endl;
}

// ---------------------------------------------------------------------------
// Singular and bad inputs
// ---------------------------------------------------------------------------

template <class Tree>
bool outputs_zero(const FdData<Tree>& d) {
  bool zero = d.order == -1;
  for (const auto& v : d.motion.base_twist) zero = zero && v.isZero(0.0);
  for (const auto& v : d.motion.q) zero = zero && v.isZero(0.0);
  for (const auto& v : d.base_wrench) zero = zero && v.isZero(0.0);
  for (const auto& v : d.joint_torque) zero = zero && v.isZero(0.0);
  return zero;
}

TEST(ForwardDynamicsBadInput, MasslessLastLinkIsSingular) {
  auto model = core_aerial_manipulator();
  ASSERT_EQ(model.set_body(6, model.home_pose(6), SpatialInertia<double>{}), Status::kOk);
  const State<double> x = random_state<double>(5u, 6);
  auto fin = std::make_unique<FdInput<AMTree>>();
  set_state(x, *fin);
  set_inputs(random_inputs(5u, 6), *fin);
  auto d = std::make_unique<FdData<AMTree>>();
  // A previous successful call leaves results behind; the failing call must clear them.
  ASSERT_EQ(hodyn::forward_dynamics(core_aerial_manipulator(), *d, *fin, kR), Status::kOk);
  for (int r : {0, 3, kR}) {
    EXPECT_EQ(hodyn::forward_dynamics(model, *d, *fin, r), Status::kSingularInertia) << r;
    EXPECT_TRUE(outputs_zero(*d)) << r;
  }
  // Hybrid with the massless joint's motion prescribed is well posed.
  auto hin = std::make_unique<HyInput<AMTree>>();
  set_state(x, *hin);
  set_inputs(random_inputs(5u, 6), *hin);
  hin->motion_prescribed[5] = true;
  EXPECT_EQ(hodyn::hybrid_dynamics(model, *d, *hin, kR), Status::kOk);
  hin->motion_prescribed[5] = false;
  EXPECT_EQ(hodyn::hybrid_dynamics(model, *d, *hin, kR), Status::kSingularInertia);
  EXPECT_TRUE(outputs_zero(*d));
}

TEST(ForwardDynamicsBadInput, ArticulatedInertiaNeedsASuccessfulCallAndABodyIndex) {
  const auto model = core_aerial_manipulator();
  auto fin = std::make_unique<FdInput<AMTree>>();
  set_state(random_state<double>(8u, 6), *fin);
  set_inputs(random_inputs(8u, 6), *fin);
  auto d = std::make_unique<FdData<AMTree>>();
  hodyn::Matrix6<double> m = hodyn::Matrix6<double>::Constant(7.0);
  EXPECT_EQ(hodyn::articulated_inertia(*d, 1, m), Status::kInvalidArgument);  // no call yet
  EXPECT_TRUE(m.isZero(0.0));
  ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin, 1), Status::kOk);
  for (int j : {-1, AMTree::kNumBodies}) {
    m.setConstant(7.0);
    EXPECT_EQ(hodyn::articulated_inertia(*d, j, m), Status::kInvalidArgument) << j;
    EXPECT_TRUE(m.isZero(0.0)) << j;
  }
  ASSERT_EQ(hodyn::articulated_inertia(*d, 3, m), Status::kOk);
  EXPECT_GT(m.trace(), 0.0);
  // A failed call leaves nothing to read.
  fin->q_dot(2) = std::numeric_limits<double>::quiet_NaN();
  ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin, 1), Status::kNonFiniteInput);
  EXPECT_EQ(hodyn::articulated_inertia(*d, 3, m), Status::kInvalidArgument);
  EXPECT_TRUE(m.isZero(0.0));
}

// The base solve (Schur complement of the linear block) against Eigen's LDLᵀ
// on random positive-definite matrices of articulated-inertia shape, and its
// "not positive definite" answer on singular, indefinite and NaN matrices.
hodyn::detail::Inertia6<double> blocks_of(const MatX& m) {
  hodyn::detail::Inertia6<double> out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      out.a.a[3 * i + j] = m(i, j);
      out.b.a[3 * i + j] = m(i, 3 + j);
      out.c.a[3 * i + j] = m(3 + i, 3 + j);
    }
  return out;
}

TEST(ForwardDynamicsBaseSolve, MatchesLdltAndRejectsMatricesThatAreNotPositiveDefinite) {
  std::mt19937 rng(11u);
  std::normal_distribution<double> normal(0.0, 1.0);
  hodyn::detail::SchurSolve6<double> solver;
  for (int trial = 0; trial < 200; ++trial) {
    MatX g(6, 6);
    for (int i = 0; i < 36; ++i) g(i) = normal(rng);
    // Scales like a body's: inertia ~0.05 kg m², mass ~3 kg, coupling m|c| ~0.3 kg m.
    const Eigen::VectorXd scale = (Eigen::VectorXd(6) << 0.2, 0.2, 0.2, 1.7, 1.7, 1.7).finished();
    const MatX m = scale.asDiagonal() * (g * g.transpose() + 0.1 * MatX::Identity(6, 6)) *
                   scale.asDiagonal();
    ASSERT_TRUE(solver.compute(blocks_of(m))) << trial;
    Vec6 f;
    for (int i = 0; i < 6; ++i) f(i) = normal(rng);
    const hodyn::detail::SV<double> x = solver.solve(hodyn::detail::SV<double>::from(f));
    const Vec6 expected = m.ldlt().solve(f);
    Vec6 got;
    got << x.ang.x, x.ang.y, x.ang.z, x.lin.x, x.lin.y, x.lin.z;
    const double cond = 1.0 / m.ldlt().rcond();
    EXPECT_LE((got - expected).norm(), 1e-15 * cond * expected.norm()) << trial;
    EXPECT_LE((m * got - f).norm(), 1e-13 * m.norm() * got.norm()) << trial;
  }
  // Rank 5, indefinite (one block positive, the Schur complement not), a
  // negative mass block, and a NaN entry.
  MatX base(6, 6);
  for (int i = 0; i < 36; ++i) base(i) = normal(rng);
  const Eigen::VectorXd v = base.col(0);
  MatX rank5 = base * base.transpose();
  rank5 -= (rank5 * v) * (rank5 * v).transpose() / v.dot(rank5 * v);  // kills direction v
  EXPECT_FALSE(solver.compute(blocks_of(rank5)));
  MatX indefinite = base * base.transpose();
  indefinite.topLeftCorner(3, 3) -= 100.0 * MatX::Identity(3, 3);
  EXPECT_FALSE(solver.compute(blocks_of(indefinite)));
  MatX negative_mass = base * base.transpose();
  negative_mass.bottomRightCorner(3, 3) *= -1.0;
  EXPECT_FALSE(solver.compute(blocks_of(negative_mass)));
  MatX with_nan = base * base.transpose() + MatX::Identity(6, 6);
  with_nan(4, 4) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(solver.compute(blocks_of(with_nan)));
}

TEST(ForwardDynamicsBadInput, NonFiniteVelocityAndOrderOutOfRange) {
  const auto model = core_aerial_manipulator();
  const State<double> x = random_state<double>(6u, 6);
  auto fin = std::make_unique<FdInput<AMTree>>();
  set_state(x, *fin);
  set_inputs(random_inputs(6u, 6), *fin);
  auto d = std::make_unique<FdData<AMTree>>();
  ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin, kR), Status::kOk);
  EXPECT_EQ(hodyn::forward_dynamics(model, *d, *fin, kR + 1), Status::kOrderOutOfRange);
  EXPECT_TRUE(outputs_zero(*d));
  ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin, kR), Status::kOk);
  EXPECT_EQ(hodyn::forward_dynamics(model, *d, *fin, -1), Status::kOrderOutOfRange);
  EXPECT_TRUE(outputs_zero(*d));
  ASSERT_EQ(hodyn::forward_dynamics(model, *d, *fin, kR), Status::kOk);
  fin->q_dot(2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::forward_dynamics(model, *d, *fin, 0), Status::kNonFiniteInput);
  EXPECT_TRUE(outputs_zero(*d));
  fin->q_dot(2) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(hodyn::forward_dynamics(model, *d, *fin, kR), Status::kNonFiniteInput);
  EXPECT_TRUE(outputs_zero(*d));
}

}  // namespace
