// Regressors of trees with universal (Cardan) joints (issue 19 slice 6,
// docs/joint-kinds.md "The universal joint", docs/regressors.md "Universal
// joints"). Trees (tests/support/universal_trees.hpp): UniTree (floating base,
// ν 6 + 8) and UniFixed (fixed root, ν 5), random bodies, axes and points
// (three seeds), random states (q entries σ = 1.5). Oracles:
//   - Y^(k) π = the universal tree's own inverse dynamics τ^(k) (checked in
//     test_universal_joint against the twin and the Taylor series), k = 0..3,
//     every requested order, π the model's random (physically consistent)
//     bodies; the base-frame rows; every body's body regressor summed;
//   - the "dummy-link twin" (each universal joint as revolute(e₁), a massless
//     body, revolute(e₂), the same ν layout): the universal tree's Y^(k) equals
//     the twin's with the dummy bodies' ten columns dropped; the twin's π is
//     zero there, so those columns (non-zero) multiply zero inertia: Y_twin
//     π_twin = the twin's inverse dynamics too;
//   - momentum: Y_p π = M̄ ν with M̄ from the CRBA (`mass_matrix`), Y_p^(0..2)
//     against the twin's with the dummy columns dropped;
//   - energy: kinetic π = ½ νᵀ M̄ ν (CRBA), potential π = −M gᵀ c (center_of_mass);
//   - friction: viscous per entry and Coulomb per axis (each sub-joint is a
//     revolute joint), kSign and kTanh: equal to the twin's friction columns,
//     and [Y Y_f](π; f) = ID + f_v ⊙ q^(k+1) + f_c ⊙ σ written out;
//   - Slotine–Li: Y(q, q̇, q̇_r, q̈_r) π = M̄ q̈_r + C q̇_r + g from
//     `equations_of_motion` (ν_r, ν̇_r ≠ ν, ν̇), M x and C y without gravity,
//     with ν_r = ν, ν̇_r = ν̇ inverse dynamics, and the twin's Slotine–Li with
//     the dummy columns dropped;
//   - the six calls are heap-free; a NaN in θ₂ gives kNonFiniteInput and zero
//     outputs; a float model's Y^(0..2) π agrees with float inverse dynamics.
#include <hodyn/hodyn.hpp>
#include <hodyn/inertial_parameters.hpp>
#include <hodyn/inverse_dynamics_regressor.hpp>
#include <hodyn/joint_actuation_regressor.hpp>

#include "support/heap_counter.hpp"
#include "support/universal_trees.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>

namespace {

using namespace hodyn::test::universal_trees;

constexpr int kMaxOrder = 3;

template <class A, class B>
double rel_err(const A& a, const B& b) {
  const double scale = std::max(b.cwiseAbs().maxCoeff(), 1e-300);
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

template <class Tree>
using Rows = Eigen::Matrix<double, 6 + hodyn::TreeTraits<Tree>::kNumJointDofs, 1>;

/// The twin's columns of the universal tree's bodies (the dummy bodies' dropped).
template <class Tree, class Twin, class M>
Eigen::MatrixXd drop_dummies(const Pair<Tree, Twin>& p, const M& twin) {
  Eigen::MatrixXd out(twin.rows(), 10 * Tree::kNumBodies);
  for (int j = 0; j < Tree::kNumBodies; ++j)
    out.middleCols(10 * j, 10) = twin.middleCols(10 * p.same[static_cast<std::size_t>(j)], 10);
  return out;
}
/// The twin's dummy bodies' columns (the body before each universal joint's child).
template <class Tree, class Twin, class M>
Eigen::MatrixXd dummy_columns(const Pair<Tree, Twin>& p, const M& twin) {
  int count = 0;
  for (int j = 1; j < Tree::kNumBodies; ++j) count += hodyn::is_universal(Tree::kJoint[j]) ? 1 : 0;
  Eigen::MatrixXd out(twin.rows(), 10 * count);
  int c = 0;
  for (int j = 1; j < Tree::kNumBodies; ++j)
    if (hodyn::is_universal(Tree::kJoint[j]))
      out.middleCols(10 * c++, 10) =
          twin.middleCols(10 * (p.same[static_cast<std::size_t>(j)] - 1), 10);
  return out;
}

template <class Tree, class Twin>
constexpr int count_universal() {
  int c = 0;
  for (int j = 1; j < Tree::kNumBodies; ++j) c += hodyn::is_universal(Tree::kJoint[j]) ? 1 : 0;
  return c;
}

struct Errors {
  double y = 0, base = 0, body = 0, twin = 0, twin_id = 0, dummy_norm = 1e300, momentum = 0,
         momentum_twin = 0;
};

template <class Tree, class Twin>
void check_regressors(const Pair<Tree, Twin>& p, unsigned seed, Errors& e) {
  static_assert(10 * Twin::kNumBodies - 10 * Tree::kNumBodies == 10 * count_universal<Tree, Twin>(),
                "the universal tree has no dummy columns");
  auto m = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  auto mt = std::make_unique<hodyn::MotionDerivatives<Twin, kMaxOrder, double>>();
  random_states(seed, *m, *mt);
  const auto pi = hodyn::model_parameters(p.uni);
  const auto pi_twin = hodyn::model_parameters(p.twin);
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, double>>();
  auto idt = std::make_unique<hodyn::InverseDynamicsData<Twin, kMaxOrder, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(p.uni, *id, *m, kMaxOrder), Status::kOk);
  ASSERT_EQ(hodyn::inverse_dynamics(p.twin, *idt, *mt, kMaxOrder), Status::kOk);
  std::array<Rows<Tree>, kMaxOrder + 1> world{};
  for (int k = 0; k <= kMaxOrder; ++k) world[k] << id->base_wrench[k], id->joint_torque[k];
  auto y = std::make_unique<hodyn::RegressorData<Tree, kMaxOrder, double>>();
  auto yt = std::make_unique<hodyn::RegressorData<Twin, kMaxOrder, double>>();
  for (int r = 0; r <= kMaxOrder; ++r) {  // every requested order
    ASSERT_EQ(hodyn::inverse_dynamics_regressor(p.uni, *y, *m, r), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics_regressor(p.twin, *yt, *mt, r), Status::kOk);
    EXPECT_EQ(y->order, r);
    for (int k = 0; k <= r; ++k) {
      e.y = std::max(e.y, rel_err(Rows<Tree>(y->regressor[k] * pi), world[k]));
      if constexpr (!hodyn::TreeTraits<Tree>::kFixedBase)
        e.base =
            std::max(e.base, rel_err(Eigen::Matrix<double, 6, 1>(y->base_frame_regressor[k] * pi),
                                     id->base_wrench_body[k]));
      const Eigen::MatrixXd twin_kept = drop_dummies(p, yt->regressor[k]);
      e.twin = std::max(e.twin, rel_err(Eigen::MatrixXd(y->regressor[k]), twin_kept));
      e.twin = std::max(e.twin, rel_err(Eigen::MatrixXd(y->base_frame_regressor[k]),
                                        drop_dummies(p, yt->base_frame_regressor[k])));
      // The dropped columns multiply zero inertia: the twin's Y π_twin is its ID.
      Rows<Tree> twin_world;
      twin_world << idt->base_wrench[k], idt->joint_torque[k];
      e.twin_id = std::max(e.twin_id, rel_err(Rows<Tree>(yt->regressor[k] * pi_twin), twin_world));
      e.dummy_norm = std::min(e.dummy_norm, dummy_columns(p, yt->regressor[k]).norm());
    }
  }
  for (int t = 0; t < Twin::kNumBodies; ++t) {  // the dummy bodies' parameters are zero
    bool kept = false;
    for (int j : p.same) kept |= j == t;
    if (!kept) {
      EXPECT_EQ(pi_twin.template segment<10>(10 * t).norm(), 0.0);
    }
  }
  {  // the body regressor, summed over the bodies
    auto b = std::make_unique<hodyn::BodyRegressorData<Tree, kMaxOrder, double>>();
    std::array<Rows<Tree>, kMaxOrder + 1> sum{};
    for (auto& s : sum) s.setZero();
    for (int j = 0; j < Tree::kNumBodies; ++j) {
      EXPECT_EQ(hodyn::inverse_dynamics_body_regressor(p.uni, *b, *m, j, kMaxOrder), Status::kOk);
      for (int k = 0; k <= kMaxOrder; ++k)
        sum[k] += b->regressor[k] * pi.template segment<10>(10 * j);
    }
    for (int k = 0; k <= kMaxOrder; ++k) e.body = std::max(e.body, rel_err(sum[k], world[k]));
  }
  {  // momentum: Y_p π = M̄ ν (CRBA); Y_p^(0..2) = the twin's, dummy columns dropped
    constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
    constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
    ASSERT_EQ(hodyn::momentum_regressor(p.uni, *y, *m, 2), Status::kOk);
    ASSERT_EQ(hodyn::momentum_regressor(p.twin, *yt, *mt, 2), Status::kOk);
    auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
    ASSERT_EQ(hodyn::mass_matrix(p.uni, *eom, *m), Status::kOk);
    Eigen::Matrix<double, kDofs, 1> nu;
    if constexpr (kBase > 0) nu.template head<6>() = m->base_twist[0];
    nu.template tail<kDofs - kBase>() = m->q[1];
    const Eigen::Matrix<double, kDofs, 1> mom = eom->result.mass_matrix * nu;
    const Rows<Tree> yp = y->regressor[0] * pi;
    e.momentum = std::max(e.momentum,
                          rel_err(Eigen::Matrix<double, kDofs, 1>(yp.template tail<kDofs>()), mom));
    for (int k = 0; k <= 2; ++k)
      e.momentum_twin = std::max(e.momentum_twin, rel_err(Eigen::MatrixXd(y->regressor[k]),
                                                          drop_dummies(p, yt->regressor[k])));
  }
}

TEST(UniversalJointRegressors, RegressorTimesParametersIsInverseDynamicsAndTheTwins) {
  Errors w;
  for (unsigned seed : {5u, 23u, 41u}) {
    Errors e;
    check_regressors(floating_pair(seed), seed + 100u, e);
    check_regressors(fixed_pair(seed), seed + 200u, e);
    w.y = std::max(w.y, e.y);
    w.base = std::max(w.base, e.base);
    w.body = std::max(w.body, e.body);
    w.twin = std::max(w.twin, e.twin);
    w.twin_id = std::max(w.twin_id, e.twin_id);
    w.dummy_norm = std::min(w.dummy_norm, e.dummy_norm);
    w.momentum = std::max(w.momentum, e.momentum);
    w.momentum_twin = std::max(w.momentum_twin, e.momentum_twin);
  }
  EXPECT_LE(w.y, 1e-12);
  EXPECT_LE(w.base, 1e-12);
  EXPECT_LE(w.body, 1e-12);
  EXPECT_LE(w.twin, 1e-12);
  EXPECT_LE(w.twin_id, 1e-12);
  EXPECT_GT(w.dummy_norm, 1e-3);  // the dropped columns are not trivially zero
  EXPECT_LE(w.momentum, 1e-12);
  EXPECT_LE(w.momentum_twin, 1e-12);
  std::printf(
      "  universal regressors, orders 0..3 (relative to the largest entry): Y pi vs ID %.2e, "
      "base-frame rows %.2e, body regressors summed %.2e, Y vs the twin's (dummy columns dropped) "
      "%.2e, twin's Y pi_twin vs its ID %.2e (smallest norm of the dummy columns %.2e), "
      "Y_p pi vs CRBA %.2e, Y_p^(0..2) vs the twin's %.2e\n",
      w.y, w.base, w.body, w.twin, w.twin_id, w.dummy_norm, w.momentum, w.momentum_twin);
}

template <class Tree, class Twin>
void energy_errors(const Pair<Tree, Twin>& p, unsigned seed, double& wt, double& wu) {
  constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
  constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
  auto m = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  auto mt = std::make_unique<hodyn::MotionDerivatives<Twin, kMaxOrder, double>>();
  random_states(seed, *m, *mt);
  auto data = std::make_unique<hodyn::EnergyRegressorData<Tree, double>>();
  ASSERT_EQ(hodyn::energy_regressor(p.uni, *data, *m), Status::kOk);
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::mass_matrix(p.uni, *eom, *m), Status::kOk);
  Eigen::Matrix<double, kDofs, 1> nu;
  if constexpr (kBase > 0) nu.template head<6>() = m->base_twist[0];
  nu.template tail<kDofs - kBase>() = m->q[1];
  const double kinetic = 0.5 * nu.dot(eom->result.mass_matrix * nu);
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, kMaxOrder, double>>();
  ASSERT_EQ(hodyn::forward_kinematics(p.uni, *kin, *m, 0), Status::kOk);
  auto com = std::make_unique<hodyn::CenterOfMassData<Tree, kMaxOrder, double>>();
  ASSERT_EQ(hodyn::center_of_mass(p.uni, *kin, *com, 0), Status::kOk);
  const double potential = -com->total_mass * p.uni.gravity().dot(com->position[0]);
  const auto pi = hodyn::model_parameters(p.uni);
  wt = std::max(wt, std::abs(data->kinetic * pi - kinetic) / std::abs(kinetic));
  wu =
      std::max(wu, std::abs(data->potential * pi - potential) / std::max(std::abs(potential), 1.0));
}

TEST(UniversalJointRegressors, EnergyRegressorIsHalfNuMbarNuAndTheCentreOfMassPotential) {
  double wt = 0, wu = 0;
  for (unsigned seed : {5u, 23u, 41u}) {
    energy_errors(floating_pair(seed), seed + 300u, wt, wu);
    energy_errors(fixed_pair(seed), seed + 400u, wt, wu);
  }
  EXPECT_LE(wt, 1e-12);
  EXPECT_LE(wu, 1e-12);
  std::printf(
      "  universal energy regressor: kinetic vs 1/2 nu^T Mbar nu %.2e, potential vs "
      "-M g.c %.2e (relative)\n",
      wt, wu);
}

/// Friction: viscous per entry of q̇ and Coulomb per axis (each sub-joint a
/// revolute joint): the twin's columns (the same layout), and [Y Y_f](π; f)
/// against ID plus the friction written out (sign at order 0; tanh orders
/// 0..1 with its first derivative by hand: (1 − tanh²) q̈/ε).
template <class Tree, class Twin>
void friction_errors(const Pair<Tree, Twin>& p, unsigned seed, double& w_twin, double& w_sum) {
  using hodyn::CoulombModel;
  using hodyn::FrictionRegressorOptions;
  constexpr int n = hodyn::TreeTraits<Tree>::kNumJointDofs;
  auto m = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  auto mt = std::make_unique<hodyn::MotionDerivatives<Twin, kMaxOrder, double>>();
  random_states(seed, *m, *mt);
  auto f = std::make_unique<hodyn::FrictionRegressorData<Tree, kMaxOrder, double>>();
  auto ft = std::make_unique<hodyn::FrictionRegressorData<Twin, kMaxOrder, double>>();
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.1, 2.0);
  Eigen::Matrix<double, 2 * n, 1> c;
  for (int i = 0; i < 2 * n; ++i) c(i) = u(gen);
  auto y = std::make_unique<hodyn::RegressorData<Tree, kMaxOrder, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics_regressor(p.uni, *y, *m, kMaxOrder), Status::kOk);
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(p.uni, *id, *m, kMaxOrder), Status::kOk);
  const auto pi = hodyn::model_parameters(p.uni);
  const double eps = 0.5;
  for (CoulombModel model : {CoulombModel::kNone, CoulombModel::kSign, CoulombModel::kTanh}) {
    const int order = model == CoulombModel::kSign   ? 0
                      : model == CoulombModel::kTanh ? 1
                                                     : kMaxOrder;
    const FrictionRegressorOptions<double> options{model, eps};
    ASSERT_EQ(hodyn::joint_friction_regressor(*f, *m, order, options), Status::kOk);
    ASSERT_EQ(hodyn::joint_friction_regressor(*ft, *mt, order, options), Status::kOk);
    for (int k = 0; k <= order; ++k) {
      w_twin = std::max(w_twin, (f->regressor[k] - ft->regressor[k]).cwiseAbs().maxCoeff());
      Rows<Tree> expected;
      expected << id->base_wrench[k], id->joint_torque[k];
      for (int i = 0; i < n; ++i) {
        const double v = m->q[1](i);
        expected(6 + i) += c(i) * m->q[k + 1](i);
        if (model == CoulombModel::kSign) expected(6 + i) += c(n + i) * (v > 0 ? 1.0 : -1.0);
        if (model == CoulombModel::kTanh) {
          const double t = std::tanh(v / eps);
          expected(6 + i) += c(n + i) * (k == 0 ? t : (1 - t * t) * m->q[2](i) / eps);
        }
      }
      const Rows<Tree> got = y->regressor[k] * pi + f->regressor[k] * c;
      w_sum = std::max(w_sum, rel_err(got, expected));
    }
  }
}

TEST(UniversalJointRegressors, FrictionViscousAndCoulombPerAxisAreTheTwins) {
  double w_twin = 0, w_sum = 0;
  for (unsigned seed : {5u, 23u}) {
    friction_errors(floating_pair(seed), seed + 500u, w_twin, w_sum);
    friction_errors(fixed_pair(seed), seed + 600u, w_twin, w_sum);
  }
  EXPECT_EQ(w_twin, 0.0);
  EXPECT_LE(w_sum, 1e-12);
  std::printf(
      "  universal friction: Y_f vs the twin's %.2e (absolute), [Y Y_f](pi; f) vs ID + "
      "friction %.2e (relative)\n",
      w_twin, w_sum);
}

/// The elastic-joint motor rows, one motor per entry of q (each angle of a
/// universal joint its own, as each revolute sub-joint of the twin): the
/// twin's rows, and u against B θ̈ + F θ̇ + K (θ − q) + D (θ̇ − q̇) written out.
template <class Tree, class Twin>
void motor_errors(unsigned seed, double& w_twin, double& w_sum) {
  constexpr int n = hodyn::TreeTraits<Tree>::kNumJointDofs;
  static_assert(hodyn::MotorRegressorData<Tree, kMaxOrder, double>::kRows == n, "a row per entry");
  auto m = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  auto mt = std::make_unique<hodyn::MotionDerivatives<Twin, kMaxOrder, double>>();
  random_states(seed, *m, *mt);
  auto motor = std::make_unique<hodyn::MotorAngleDerivatives<Tree, kMaxOrder, double>>();
  auto motor_t = std::make_unique<hodyn::MotorAngleDerivatives<Twin, kMaxOrder, double>>();
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  for (std::size_t k = 0; k < motor->theta.size(); ++k) {
    for (int i = 0; i < n; ++i) motor->theta[k](i) = g(gen);
    motor_t->theta[k] = motor->theta[k];
  }
  Eigen::Matrix<double, 4 * n, 1> c;
  for (int i = 0; i < 4 * n; ++i) c(i) = 0.1 + std::abs(g(gen));
  auto y = std::make_unique<hodyn::MotorRegressorData<Tree, kMaxOrder, double>>();
  auto yt = std::make_unique<hodyn::MotorRegressorData<Twin, kMaxOrder, double>>();
  ASSERT_EQ(hodyn::elastic_joint_motor_regressor(*y, *m, *motor, kMaxOrder), Status::kOk);
  ASSERT_EQ(hodyn::elastic_joint_motor_regressor(*yt, *mt, *motor_t, kMaxOrder), Status::kOk);
  for (int k = 0; k <= kMaxOrder; ++k) {
    w_twin = std::max(w_twin, (y->regressor[k] - yt->regressor[k]).cwiseAbs().maxCoeff());
    Eigen::Matrix<double, n, 1> expected;
    for (int i = 0; i < n; ++i)
      expected(i) = c(i) * motor->theta[k + 2](i) + c(n + i) * motor->theta[k + 1](i) +
                    c(2 * n + i) * (motor->theta[k](i) - m->q[k](i)) +
                    c(3 * n + i) * (motor->theta[k + 1](i) - m->q[k + 1](i));
    w_sum = std::max(w_sum, rel_err(Eigen::Matrix<double, n, 1>(y->regressor[k] * c), expected));
  }
}

TEST(UniversalJointRegressors, ElasticMotorRowsOnePerAngleAreTheTwins) {
  double w_twin = 0, w_sum = 0;
  for (unsigned seed : {7u, 31u}) {
    motor_errors<UniTree, UniTwin>(seed + 700u, w_twin, w_sum);
    motor_errors<UniFixed, UniFixedTwin>(seed + 800u, w_twin, w_sum);
  }
  EXPECT_EQ(w_twin, 0.0);
  EXPECT_LE(w_sum, 1e-14);
  std::printf("  universal motor rows: vs the twin's %.2e (absolute), u written out %.2e\n", w_twin,
              w_sum);
}

template <class Tree, int MO, int MR>
hodyn::SlotineLiInput<Tree, double> slotine_li_input(
    const hodyn::MotionDerivatives<Tree, MO, double>& motion,
    const hodyn::MotionDerivatives<Tree, MR, double>& reference) {
  hodyn::SlotineLiInput<Tree, double> in;
  in.base_pose = motion.base_pose;
  in.base_twist = motion.base_twist[0];
  in.q = motion.q[0];
  in.q_dot = motion.q[1];
  in.reference_base_twist = reference.base_twist[0];
  in.reference_q_dot = reference.q[1];
  in.reference_base_acceleration = reference.base_twist[1];
  in.reference_q_ddot = reference.q[2];
  return in;
}

struct SlotineLiErrors {
  double closed_forms = 0, mass = 0, coriolis = 0, id = 0, twin = 0;
};

template <class Tree, class Twin>
void slotine_li_errors(const Pair<Tree, Twin>& p, unsigned seed, SlotineLiErrors& e) {
  constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
  constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
  using Nu = Eigen::Matrix<double, kDofs, 1>;
  auto m = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  auto mt = std::make_unique<hodyn::MotionDerivatives<Twin, kMaxOrder, double>>();
  auto ref = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  auto reft = std::make_unique<hodyn::MotionDerivatives<Twin, kMaxOrder, double>>();
  random_states(seed, *m, *mt);
  random_states(seed + 77u, *ref, *reft);  // ν_r, ν̇_r ≠ ν, ν̇
  const auto nu_of = [](const hodyn::MotionDerivatives<Tree, kMaxOrder, double>& x, int k) {
    Nu nu;
    if constexpr (kBase > 0) nu.template head<6>() = x.base_twist[static_cast<std::size_t>(k)];
    nu.template tail<kDofs - kBase>() = x.q[static_cast<std::size_t>(k + 1)];
    return nu;
  };
  auto state = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>();
  state->base_pose = m->base_pose;
  state->base_twist[0] = m->base_twist[0];
  state->q[0] = m->q[0];
  state->q[1] = m->q[1];
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::equations_of_motion(p.uni, *eom, *state, false), Status::kOk);
  const auto& cf = eom->result;
  const Nu nu_r = nu_of(*ref, 0), nu_r_dot = nu_of(*ref, 1);
  const auto pi = hodyn::model_parameters(p.uni);
  auto y = std::make_unique<hodyn::RegressorData<Tree, 0, double>>();
  auto yt = std::make_unique<hodyn::RegressorData<Twin, 0, double>>();
  auto in = std::make_unique<hodyn::SlotineLiInput<Tree, double>>(slotine_li_input(*m, *ref));
  const auto nu_rows = [&]() {
    return Nu(Rows<Tree>(y->regressor[0] * pi).template tail<kDofs>());
  };
  ASSERT_EQ(hodyn::slotine_li_regressor(p.uni, *y, *in), Status::kOk);
  EXPECT_EQ(y->order, 0);
  e.closed_forms = std::max(
      e.closed_forms,
      rel_err(nu_rows(), Nu(cf.mass_matrix * nu_r_dot + cf.coriolis_matrix * nu_r + cf.gravity)));
  {
    auto it = std::make_unique<hodyn::SlotineLiInput<Twin, double>>(slotine_li_input(*mt, *reft));
    ASSERT_EQ(hodyn::slotine_li_regressor(p.twin, *yt, *it), Status::kOk);
    e.twin = std::max(e.twin,
                      rel_err(Eigen::MatrixXd(y->regressor[0]), drop_dummies(p, yt->regressor[0])));
  }
  in->gravity = false;
  {
    auto x = std::make_unique<hodyn::SlotineLiInput<Tree, double>>(*in);
    x->base_twist.setZero();
    x->q_dot.setZero();
    x->reference_base_twist.setZero();
    x->reference_q_dot.setZero();
    ASSERT_EQ(hodyn::slotine_li_regressor(p.uni, *y, *x), Status::kOk);
    e.mass = std::max(e.mass, rel_err(nu_rows(), Nu(cf.mass_matrix * nu_r_dot)));
  }
  in->reference_base_acceleration.setZero();
  in->reference_q_ddot.setZero();
  ASSERT_EQ(hodyn::slotine_li_regressor(p.uni, *y, *in), Status::kOk);
  e.coriolis = std::max(e.coriolis, rel_err(nu_rows(), Nu(cf.coriolis_matrix * nu_r)));
  in = std::make_unique<hodyn::SlotineLiInput<Tree, double>>(slotine_li_input(*m, *m));
  ASSERT_EQ(hodyn::slotine_li_regressor(p.uni, *y, *in), Status::kOk);
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(p.uni, *id, *m, 0), Status::kOk);
  Rows<Tree> world;
  world << id->base_wrench[0], id->joint_torque[0];
  e.id = std::max(e.id, rel_err(Rows<Tree>(y->regressor[0] * pi), world));
}

TEST(UniversalJointRegressors, SlotineLiIsMassMatrixCoriolisAndGravityOfTheClosedForms) {
  SlotineLiErrors w;
  for (unsigned seed : {5u, 23u, 41u}) {
    slotine_li_errors(floating_pair(seed), seed + 700u, w);
    slotine_li_errors(fixed_pair(seed), seed + 800u, w);
  }
  EXPECT_LE(w.closed_forms, 1e-12);
  EXPECT_LE(w.mass, 1e-12);
  EXPECT_LE(w.coriolis, 1e-12);
  EXPECT_LE(w.id, 1e-12);
  EXPECT_LE(w.twin, 1e-12);
  std::printf(
      "  universal Slotine-Li (relative to the largest entry): Y pi vs Mbar nu_r' + C nu_r + g "
      "%.2e, M x %.2e, C y %.2e; with nu_r = nu vs ID %.2e; Y vs the twin's (dummy columns "
      "dropped) %.2e\n",
      w.closed_forms, w.mass, w.coriolis, w.id, w.twin);
}

TEST(UniversalJointRegressors, HeapFreeNonFiniteInputAndFloat) {
  const auto p = floating_pair(9u);
  auto m = std::make_unique<hodyn::MotionDerivatives<UniTree, kMaxOrder, double>>();
  auto mt = std::make_unique<hodyn::MotionDerivatives<UniTwin, kMaxOrder, double>>();
  random_states(10u, *m, *mt);
  auto y = std::make_unique<hodyn::RegressorData<UniTree, kMaxOrder, double>>();
  auto b = std::make_unique<hodyn::BodyRegressorData<UniTree, kMaxOrder, double>>();
  auto energy = std::make_unique<hodyn::EnergyRegressorData<UniTree, double>>();
  auto friction = std::make_unique<hodyn::FrictionRegressorData<UniTree, kMaxOrder, double>>();
  auto in = std::make_unique<hodyn::SlotineLiInput<UniTree, double>>(slotine_li_input(*m, *m));
  {
    hodyn::test::HeapProbe probe;
    const Status s1 = hodyn::inverse_dynamics_regressor(p.uni, *y, *m, kMaxOrder);
    const Status s2 = hodyn::inverse_dynamics_body_regressor(p.uni, *b, *m, 3, 2);
    const Status s3 = hodyn::energy_regressor(p.uni, *energy, *m);
    const Status s4 = hodyn::joint_friction_regressor(
        *friction, *m, 2, hodyn::FrictionRegressorOptions<double>{hodyn::CoulombModel::kTanh, 0.5});
    const Status s5 = hodyn::momentum_regressor(p.uni, *y, *m, 1);
    const Status s6 = hodyn::slotine_li_regressor(p.uni, *y, *in);
    EXPECT_EQ(probe.count(), 0);
    for (Status s : {s1, s2, s3, s4, s5, s6}) EXPECT_EQ(s, Status::kOk);
  }
  // A NaN in θ₂ of body 5's joint (q entries: body 1, 2 (two), 3, 4 (two), 5 (two)).
  auto bad = std::make_unique<hodyn::MotionDerivatives<UniTree, kMaxOrder, double>>(*m);
  bad->q[0](7) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::inverse_dynamics_regressor(p.uni, *y, *bad, 2), Status::kNonFiniteInput);
  EXPECT_EQ(y->order, -1);
  for (const auto& x : y->regressor) EXPECT_EQ(x.cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(hodyn::inverse_dynamics_body_regressor(p.uni, *b, *bad, 5, 2), Status::kNonFiniteInput);
  for (const auto& x : b->regressor) EXPECT_EQ(x.cwiseAbs().maxCoeff(), 0.0);
  in->q(7) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::slotine_li_regressor(p.uni, *y, *in), Status::kNonFiniteInput);
  EXPECT_EQ(y->regressor[0].cwiseAbs().maxCoeff(), 0.0);
  // float: Y^(0..2) π against float inverse dynamics.
  const auto mf = p.uni.cast<float>();
  auto f = std::make_unique<hodyn::MotionDerivatives<UniTree, 2, float>>();
  f->base_pose.rotation = m->base_pose.rotation.cast<float>();
  f->base_pose.translation = m->base_pose.translation.cast<float>();
  for (std::size_t k = 0; k < f->base_twist.size(); ++k)
    f->base_twist[k] = m->base_twist[k].cast<float>();
  for (std::size_t k = 0; k < f->q.size(); ++k) f->q[k] = m->q[k].cast<float>();
  auto yf = std::make_unique<hodyn::RegressorData<UniTree, 2, float>>();
  auto idf = std::make_unique<hodyn::InverseDynamicsData<UniTree, 2, float>>();
  ASSERT_EQ(hodyn::inverse_dynamics_regressor(mf, *yf, *f, 2), Status::kOk);
  ASSERT_EQ(hodyn::inverse_dynamics(mf, *idf, *f, 2), Status::kOk);
  const auto pif = hodyn::model_parameters(mf);
  double worst = 0;
  for (int k = 0; k <= 2; ++k) {
    Eigen::Matrix<float, 6 + 8, 1> want;
    want << idf->base_wrench[k], idf->joint_torque[k];
    const Eigen::Matrix<float, 6 + 8, 1> got = yf->regressor[k] * pif;
    worst = std::max(worst, rel_err(got.cast<double>(), want.cast<double>()));
  }
  EXPECT_LE(worst, 1e-4);
  std::printf("  universal regressors, float: Y pi vs float ID, orders 0..2: %.2e (relative)\n",
              worst);
}

}  // namespace
