// Universal (Cardan) joints in the state partials (issue 19 slice 6, item 4;
// docs/joint-kinds.md "The universal joint"): the analytic partials of
// inverse dynamics (inverse_dynamics_derivatives) and the linearization
// ż = A z + B δu (linearize, body_twist_form), on the trees of
// support/universal_trees.hpp (UniTree: floating base, ν 6 + 8, a universal
// joint with a revolute child, a universal joint with a universal child;
// UniFixed: fixed root, universal – universal – revolute, ν 5), random
// bodies, axes and points, random states (q entries σ = 1.5), three seeds.
//
// θ₁, θ₂ are ordinary entries of q, so every partial is an ordinary
// derivative. Oracles, none of them the code under test:
// (a) the "dummy-link twin" (each universal joint as revolute(e₁), a massless
//     body, revolute(e₂) through the same point): its ν, z and δu have the
//     same layout, and its partials come from the 1-DoF pass, so ∂τ̄, τ̄, A, B
//     and the body-twist form are compared whole;
// (b) forward-mode duals (TaylorSeries<double, 1>) through the universal
//     tree's own order-0 inverse dynamics (∂τ̄) and forward dynamics ([A B]
//     velocity rows), the pose seeded as C₁(1 + ε[e_k]);
// (c) five-point central differences (O(h⁴), h = 1e-3) of the universal
//     tree's own inverse dynamics (∂τ̄/∂(ξ; q), ∂τ̄/∂(V₁; q̇), M̄) and forward
//     dynamics ([A B] velocity rows), the base moved on SE(3) by C₁ exp([ξ]);
// (d) a NaN in θ₂ gives kNonFiniteInput and zero outputs; the calls are
//     heap-free.
#include <hodyn/hodyn.hpp>
#include <hodyn/inverse_dynamics_derivatives.hpp>
#include <hodyn/linearization.hpp>
#include <hodyn/taylor_series.hpp>

#include "support/heap_counter.hpp"
#include "support/se3_exponential.hpp"
#include "support/state_partials.hpp"
#include "support/universal_trees.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <utility>

namespace {

using namespace hodyn::test::universal_trees;
using hodyn::Twist;
using hodyn::test::se3_exp;
using namespace hodyn::test::state_partials;  // the order-0 oracles, kDofs, Vec, Mat, Motion, Input

/// max |a − b| relative to the largest entry of b.
template <class A, class B>
double relative(const A& a, const B& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff());
}

/// `check(pair, state seed, worst)` on the floating and the fixed tree, three
/// seeds each (model seeds 1..3 and 11..13).
template <class Errors, class Check>
void on_both_trees(unsigned state_offset, Errors& floating, Errors& fixed, const Check& check) {
  for (unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    check(floating_pair(seed), seed + state_offset, floating);
    check(fixed_pair(seed + 10u), seed + state_offset + 10u, fixed);
  }
}

/// d/dh of f(h) at 0 by the five-point stencil (error O(h⁴)).
template <class F>
auto five_point(const F& f, double h) {
  using V = decltype(f(h));
  const V m2 = f(-2 * h), m1 = f(-h), p1 = f(h), p2 = f(2 * h);
  V d = V::Zero();
  for (int i = 0; i < d.size(); ++i) d(i) = ((m2(i) - p2(i)) + 8.0 * (p1(i) - m1(i))) / (12 * h);
  return d;
}
constexpr double kStep = 1e-3;

/// The same three blocks by five-point differences of the order-0 inverse
/// dynamics, the base pose moved as C₁ exp([ξ]) (ξ in the base frame).
template <class Tree>
std::array<Mat<Tree>, 3> central_partials(const hodyn::Model<Tree, double>& model,
                                          const Motion<Tree>& motion) {
  constexpr int n = kDofs<Tree>, nb = kBase<Tree>;
  std::array<Mat<Tree>, 3> out;
  for (int block = 0; block < 3; ++block) {
    for (int col = 0; col < n; ++col) {
      const auto moved = [&](double h) {
        Motion<Tree> m = motion;
        if (col < nb && block == 0) {
          Twist<double> xi = Twist<double>::Zero();
          // Fixed trees (nb = 0) never get here; g++ 12 -O3 reported the dead
          // store as out of bounds (-Warray-bounds, a failed -Werror build).
          if constexpr (nb > 0) xi(col) = h;
          m.base_pose = motion.base_pose * se3_exp(xi);
        } else if (col < nb) {
          m.base_twist[static_cast<std::size_t>(block - 1)](col) += h;
        } else {
          m.q[static_cast<std::size_t>(block)](col - nb) += h;
        }
        return Vec<Tree>(generalized_force(model, m));
      };
      out[static_cast<std::size_t>(block)].col(col) = five_point(moved, kStep);
    }
  }
  return out;
}

struct IdErrors {
  double twin[3] = {0, 0, 0}, twin_force = 0;
  double dual[3] = {0, 0, 0};
  double central[3] = {0, 0, 0};
  double force = 0;
};

template <class Tree, class Twin>
void check_inverse_dynamics_derivatives(const Pair<Tree, Twin>& p, unsigned seed, IdErrors& worst) {
  Motion<Tree, 3> motion3;
  Motion<Twin, 3> twin_motion;
  random_states(seed, motion3, twin_motion);
  Motion<Tree> motion;  // the order-0 state the partials read
  motion.base_pose = motion3.base_pose;
  for (int k = 0; k < 2; ++k) motion.base_twist[k] = motion3.base_twist[k];
  for (int k = 0; k < 3; ++k) motion.q[k] = motion3.q[k];
  auto data = std::make_unique<hodyn::InverseDynamicsDerivativesData<Tree, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics_derivatives(p.uni, *data, motion), Status::kOk);
  const auto& r = data->result;
  const Mat<Tree>* analytic[3] = {&r.d_configuration, &r.d_velocity, &r.mass_matrix};
  {  // a motion of higher MaxOrder gives the same (the partials read orders 0..2 only)
    auto data3 = std::make_unique<hodyn::InverseDynamicsDerivativesData<Tree, double>>();
    ASSERT_EQ(hodyn::inverse_dynamics_derivatives(p.uni, *data3, motion3), Status::kOk);
    EXPECT_EQ((data3->result.d_configuration - r.d_configuration).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ((data3->result.d_velocity - r.d_velocity).cwiseAbs().maxCoeff(), 0.0);
  }
  // (a) the twin, whole (the same ν layout).
  auto twin = std::make_unique<hodyn::InverseDynamicsDerivativesData<Twin, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics_derivatives(p.twin, *twin, twin_motion), Status::kOk);
  const auto& t = twin->result;
  const Mat<Tree>* twin_blocks[3] = {&t.d_configuration, &t.d_velocity, &t.mass_matrix};
  for (int b = 0; b < 3; ++b) {
    const double e = relative(*analytic[b], *twin_blocks[b]);
    EXPECT_LT(e, 1e-12) << "twin, block " << b;
    worst.twin[b] = std::max(worst.twin[b], e);
  }
  const double etf = relative(r.generalized_force, t.generalized_force);
  EXPECT_LT(etf, 1e-12);
  worst.twin_force = std::max(worst.twin_force, etf);
  // (b) duals, (c) five-point differences, through the universal tree's own ID.
  std::array<Mat<Tree>, 3> dual;
  dual_partials(p.uni, motion, dual[0], dual[1], dual[2]);
  const auto central = central_partials(p.uni, motion);
  for (int b = 0; b < 3; ++b) {
    const auto B = static_cast<std::size_t>(b);
    const double ed = relative(*analytic[b], dual[B]);
    EXPECT_LT(ed, 1e-12) << "duals, block " << b;
    worst.dual[b] = std::max(worst.dual[b], ed);
    const double ec = relative(*analytic[b], central[B]);
    EXPECT_LT(ec, 1e-9) << "differences, block " << b;
    worst.central[b] = std::max(worst.central[b], ec);
  }
  const double ef = relative(r.generalized_force, generalized_force(p.uni, motion));
  EXPECT_LT(ef, 1e-13);
  worst.force = std::max(worst.force, ef);
}

void print(const char* what, const IdErrors& w) {
  std::printf(
      "  %s ∂ID (relative to the largest entry)  twin: pose,q %.2e  V,q̇ %.2e  M %.2e  τ̄ %.2e | "
      "duals: %.2e %.2e %.2e | five-point differences: %.2e %.2e %.2e | τ̄ vs ID %.2e\n",
      what, w.twin[0], w.twin[1], w.twin[2], w.twin_force, w.dual[0], w.dual[1], w.dual[2],
      w.central[0], w.central[1], w.central[2], w.force);
}

TEST(UniversalJointPartials, InverseDynamicsDerivativesAgainstTwinDualsAndDifferences) {
  IdErrors floating, fixed;
  on_both_trees(100u, floating, fixed, [](const auto& pair, unsigned state, IdErrors& worst) {
    check_inverse_dynamics_derivatives(pair, state, worst);
  });
  print("floating tree", floating);
  print("fixed tree", fixed);
}

// ---- the linearization ----------------------------------------------------

/// Column `col` of the velocity rows of [A B] by five-point differences of
/// forward dynamics at x ⊕ z (the base C₁ exp([ξ]), everything else added).
template <class Tree>
Vec<Tree> central_column(const hodyn::Model<Tree, double>& model, const Input<Tree>& in, int col) {
  constexpr int n = kDofs<Tree>, nb = kBase<Tree>;
  const auto moved = [&](double h) {
    Input<Tree> p = in;
    if (col < nb) {
      Twist<double> xi = Twist<double>::Zero();
      if constexpr (nb > 0) xi(col) = h;  // as in central_partials
      p.base_pose = in.base_pose * se3_exp(xi);
    } else if (col < n) {
      p.q(col - nb) += h;
    } else if (col < n + nb) {
      p.base_twist(col - n) += h;
    } else if (col < 2 * n) {
      p.q_dot(col - n - nb) += h;
    } else if (col < 2 * n + nb) {
      p.base_wrench[0](col - 2 * n) += h;
    } else {
      p.joint_torque[0](col - 2 * n - nb) += h;
    }
    return accelerations(model, p);
  };
  return five_point(moved, kStep);
}

struct LinErrors {
  double twin_a = 0, twin_b = 0, twin_body = 0, dual = 0, central = 0, kinematic = 0;
};

template <class Tree, class Twin>
void check_linearization(const Pair<Tree, Twin>& p, unsigned seed, LinErrors& worst) {
  constexpr int n = kDofs<Tree>, nb = kBase<Tree>;
  Motion<Tree, 0> motion;
  Motion<Twin, 0> twin_motion;
  random_states(seed, motion, twin_motion);
  const Input<Tree> in = input_from(motion);
  const Input<Twin> twin_in = input_from(twin_motion);
  auto lin = std::make_unique<hodyn::LinearizationData<Tree, double>>();
  auto twin = std::make_unique<hodyn::LinearizationData<Twin, double>>();
  ASSERT_EQ(hodyn::linearize(p.uni, *lin, in), Status::kOk);
  ASSERT_EQ(hodyn::linearize(p.twin, *twin, twin_in), Status::kOk);
  const auto& l = lin->result;
  // (a) the twin's A and B, whole.
  const double ea = relative(l.a, twin->result.a), eb = relative(l.b, twin->result.b);
  EXPECT_LT(ea, 1e-12);
  EXPECT_LT(eb, 1e-12);
  worst.twin_a = std::max(worst.twin_a, ea);
  worst.twin_b = std::max(worst.twin_b, eb);
  if constexpr (nb > 0) {  // the body-twist form too
    hodyn::Linearization<Tree, double> body;
    hodyn::Linearization<Twin, double> twin_body;
    ASSERT_EQ(hodyn::body_twist_form(*lin, body), Status::kOk);
    ASSERT_EQ(hodyn::body_twist_form(*twin, twin_body), Status::kOk);
    const double e = std::max(relative(body.a, twin_body.a), relative(body.b, twin_body.b));
    EXPECT_LT(e, 1e-12);
    worst.twin_body = std::max(worst.twin_body, e);
  }
  // (b), (c) the velocity rows of [A B] against duals and five-point
  // differences through the universal tree's own forward dynamics.
  Eigen::Matrix<double, n, 3 * n> rows, dual, central;
  rows << l.a.template bottomRows<n>(), l.b.template bottomRows<n>();
  const hodyn::Model<Tree, Dual> model_d = p.uni.template cast<Dual>();
  for (int c = 0; c < 3 * n; ++c) {
    dual.col(c) = dual_velocity_column(model_d, in, c);
    central.col(c) = central_column(p.uni, in, c);
  }
  const double ed = relative(rows, dual);
  EXPECT_LT(ed, 1e-12);
  worst.dual = std::max(worst.dual, ed);
  const double ev = relative(rows, central);
  EXPECT_LT(ev, 1e-9);
  worst.central = std::max(worst.central, ev);
  // The kinematic rows: ξ̇ = Ad_C₁⁻¹ δV, δq̇ rows the identity (θ₁, θ₂ are
  // ordinary coordinates: no −[ω] block as a ball has), B zero there.
  Eigen::Matrix<double, n, 2 * n> expected = Eigen::Matrix<double, n, 2 * n>::Zero();
  if constexpr (nb > 0)
    expected.template block<6, 6>(0, n) = hodyn::adjoint_matrix(motion.base_pose.inverse());
  expected.template block<n - nb, n - nb>(nb, n + nb).setIdentity();
  const double ek = std::max((l.a.template topRows<n>() - expected).cwiseAbs().maxCoeff(),
                             l.b.template topRows<n>().cwiseAbs().maxCoeff());
  EXPECT_LT(ek, 1e-15);
  worst.kinematic = std::max(worst.kinematic, ek);
}

TEST(UniversalJointPartials, LinearizationAgainstTwinAndDifferences) {
  LinErrors floating, fixed;
  on_both_trees(200u, floating, fixed, [](const auto& pair, unsigned state, LinErrors& worst) {
    check_linearization(pair, state, worst);
  });
  std::printf(
      "  floating tree linearization: twin A %.2e, B %.2e, body-twist form %.2e | velocity rows "
      "of [A B] vs duals through FD %.2e, vs five-point differences of FD %.2e | kinematic rows "
      "%.2e (absolute)\n",
      floating.twin_a, floating.twin_b, floating.twin_body, floating.dual, floating.central,
      floating.kinematic);
  std::printf(
      "  fixed tree linearization: twin A %.2e, B %.2e | velocity rows of [A B] vs duals through "
      "FD %.2e, vs five-point differences of FD %.2e | kinematic rows %.2e (absolute)\n",
      fixed.twin_a, fixed.twin_b, fixed.dual, fixed.central, fixed.kinematic);
}

TEST(UniversalJointPartials, NanAndHeapFree) {
  const auto p = floating_pair(7u);
  Motion<UniTree, 0> motion;
  Motion<UniTwin, 0> twin_motion;
  random_states(8u, motion, twin_motion);
  auto d = std::make_unique<hodyn::InverseDynamicsDerivativesData<UniTree, double>>();
  auto lin = std::make_unique<hodyn::LinearizationData<UniTree, double>>();
  auto zoh = std::make_unique<hodyn::DiscretizationData<UniTree, double>>();
  const Input<UniTree> in = input_from(motion);
  auto fixed_d = std::make_unique<hodyn::InverseDynamicsDerivativesData<UniFixed, double>>();
  auto fixed_lin = std::make_unique<hodyn::LinearizationData<UniFixed, double>>();
  const auto fp = fixed_pair(9u);
  Motion<UniFixed, 0> fixed_motion;
  Motion<UniFixedTwin, 0> fixed_twin_motion;
  random_states(10u, fixed_motion, fixed_twin_motion);
  const Input<UniFixed> fixed_in = input_from(fixed_motion);
  {
    hodyn::test::HeapProbe probe;
    const Status s1 = hodyn::inverse_dynamics_derivatives(p.uni, *d, motion);
    const Status s2 = hodyn::linearize(p.uni, *lin, in);
    const Status s3 = hodyn::discretize(lin->result, 1e-3, *zoh);
    const Status s4 = hodyn::inverse_dynamics_derivatives(fp.uni, *fixed_d, fixed_motion);
    const Status s5 = hodyn::linearize(fp.uni, *fixed_lin, fixed_in);
    EXPECT_EQ(probe.count(), 0);
    EXPECT_EQ(s1, Status::kOk);
    EXPECT_EQ(s2, Status::kOk);
    EXPECT_EQ(s3, Status::kOk);
    EXPECT_EQ(s4, Status::kOk);
    EXPECT_EQ(s5, Status::kOk);
  }
  const auto zero = [&]() {
    const auto& r = d->result;
    return r.d_configuration.cwiseAbs().maxCoeff() == 0 &&
           r.d_velocity.cwiseAbs().maxCoeff() == 0 && r.mass_matrix.cwiseAbs().maxCoeff() == 0 &&
           r.generalized_force.cwiseAbs().maxCoeff() == 0;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // θ₂ of the universal joint under the revolute one (body 2: entries 1, 2),
  // then its θ̇₁ and the leaf universal's θ̈₂.
  const std::array<std::pair<int, int>, 3> nan_at{{{0, 2}, {1, 1}, {2, 6}}};
  for (const auto& [k, entry] : nan_at) {
    Motion<UniTree, 0> bad = motion;
    bad.q[static_cast<std::size_t>(k)](entry) = nan;
    ASSERT_EQ(hodyn::inverse_dynamics_derivatives(p.uni, *d, motion), Status::kOk);
    EXPECT_EQ(hodyn::inverse_dynamics_derivatives(p.uni, *d, bad), Status::kNonFiniteInput);
    EXPECT_TRUE(zero());
  }
  for (int which = 0; which < 2; ++which) {
    Input<UniTree> bad = in;
    (which == 0 ? bad.q : bad.q_dot)(2) = nan;
    ASSERT_EQ(hodyn::linearize(p.uni, *lin, in), Status::kOk);
    EXPECT_EQ(hodyn::linearize(p.uni, *lin, bad), Status::kNonFiniteInput);
    EXPECT_EQ(lin->result.a.cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(lin->result.b.cwiseAbs().maxCoeff(), 0.0);
  }
}

}  // namespace
