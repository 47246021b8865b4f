// Regressors of trees with ball (spherical) joints (issue 19 slice 5,
// docs/joint-kinds.md, docs/regressors.md "Ball joints"). Trees: BallTree
// (tests/support/ball_trees.hpp: a floating base, a ball with a revolute
// child under a revolute joint, a ball at a leaf), the 19-DoF mixed tree (a
// ball under a helical joint under a ball, prismatic, sense −1, non-DFS
// order) and its fixed-base version; random R_j (one of BallTree's turned by
// π − 10⁻³), δ ≠ 0, every q^(k) random. Oracles:
//   - Y^(k) π = inverse dynamics of order k (ball-aware, checked in
//     test_spherical_joint*), k = 0..4, π from the model's inertias; the
//     base-frame rows against `base_wrench_body`; every body's
//     `inverse_dynamics_body_regressor` summed over the bodies;
//   - linearity: Y^(k) (π₁ − 0.7 π₂) = ID(π₁) − 0.7 ID(π₂) (two models with
//     different random bodies; the combination is not physically consistent);
//   - the momentum regressor: Y_p π = M̄ ν with M̄ from the CRBA (`mass_matrix`);
//   - the energy regressor: Σ ½ V_jᵀ M_j V_j and −Σ m_j gᵀ c_j from the
//     kinematics' poses and twists, written out here;
//   - joint friction: viscous per entry of q̇ (a ball's ω axes) against ID
//     plus f_v ⊙ q^(k+1) written out; Coulomb (kSign, kTanh) refused on a ball tree;
//   - Slotine–Li: Y(q, ν, ν_r, ν̇_r) π = M̄ ν̇_r + C ν_r + g with M̄, C, g from
//     `equations_of_motion` (world-frame composite sums, ball-aware, checked
//     in test_spherical_joint_closed_forms) at random ν, ν_r, ν̇_r, all
//     different; without gravity, Y(q, 0, 0, x) π = M̄ x and Y(q, ν, y, 0) π
//     = C y; Y(ν_r = ν, ν̇_r = ν̇) π = (Q₁; τ) of inverse dynamics;
//   - bad joint_rotation (off orthonormal, NaN, det −1): the statuses the
//     other ball calls give, zero outputs; the calls are heap-free.
#include <hodyn/hodyn.hpp>
#include <hodyn/inertial_parameters.hpp>
#include <hodyn/inverse_dynamics_regressor.hpp>
#include <hodyn/joint_actuation_regressor.hpp>

#include "support/ball_trees.hpp"
#include "support/heap_counter.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>

namespace {

using namespace hodyn::test::ball_trees;  // BallTree, make_models, MixedTreeOf, mixed_model
using MixedTree = MixedTreeOf<JointKind::kFloatingBase>;
using MixedFixedTree = MixedTreeOf<JointKind::kFixedBase>;

constexpr int kMaxOrder = 4;

/// A random motion of any tree: base pose and twists, every entry of q[k]
/// (δ ≠ 0 for balls), random R_j (every other one turned by nearly π).
template <class Tree, int MO>
void random_motion(unsigned seed, hodyn::MotionDerivatives<Tree, MO, double>& m) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  m.base_pose.rotation = random_rotation(gen);
  m.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (auto& v : m.base_twist)
    for (int i = 0; i < 6; ++i) v(i) = 0.7 * g(gen);
  for (auto& q : m.q)
    for (int i = 0; i < q.size(); ++i) q(i) = 0.7 * g(gen);
  for (std::size_t b = 0; b < m.joint_rotation.size(); ++b)
    m.joint_rotation[b] =
        b % 2 == 0 ? random_rotation(gen)
                   : Mat3(Eigen::AngleAxisd(M_PI - 1e-3, Vec3(g(gen), g(gen), g(gen)).normalized())
                              .toRotationMatrix());
}

/// A model's bodies replaced by other seeded random ones (same joints).
template <class Tree>
hodyn::Model<Tree, double> other_bodies(hodyn::Model<Tree, double> model, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const Mat3 q = random_rotation(gen);
    const Vec3 d(0.01 + 0.02 * (u(gen) + 1), 0.01 + 0.02 * (u(gen) + 1),
                 0.01 + 0.02 * (u(gen) + 1));
    const Mat3 ic = q * Vec3(d(1) + d(2), d(0) + d(2), d(0) + d(1)).asDiagonal() * q.transpose();
    EXPECT_EQ(model.set_body(j, model.home_pose(j),
                             SpatialInertia<double>::from_mass_com_inertia(
                                 1.0 + 0.8 * u(gen), Vec3(0.2 * u(gen), 0.2 * u(gen), 0.2 * u(gen)),
                                 Mat3((ic + ic.transpose()) / 2))),
              Status::kOk);
  }
  return model;
}

template <class A, class B>
double rel_err(const A& a, const B& b) {
  const double scale = std::max(b.cwiseAbs().maxCoeff(), 1e-300);
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

template <class Tree>
using Rows = Eigen::Matrix<double, 6 + hodyn::TreeTraits<Tree>::kNumJointDofs, 1>;

/// (Q₁^(k); τ^(k)) of inverse dynamics, and the base-frame wrench.
template <class Tree>
struct IdOutputs {
  std::array<Rows<Tree>, kMaxOrder + 1> world{};
  std::array<Eigen::Matrix<double, 6, 1>, kMaxOrder + 1> base{};
};
template <class Tree>
IdOutputs<Tree> id_outputs(const hodyn::Model<Tree, double>& model,
                           const hodyn::MotionDerivatives<Tree, kMaxOrder, double>& motion) {
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, double>>();
  EXPECT_EQ(hodyn::inverse_dynamics(model, *id, motion, kMaxOrder), Status::kOk);
  IdOutputs<Tree> out;
  for (int k = 0; k <= kMaxOrder; ++k) {
    out.world[k] << id->base_wrench[k], id->joint_torque[k];
    out.base[k] = id->base_wrench_body[k];
  }
  return out;
}

struct Errors {
  double y = 0, base = 0, body = 0, linear = 0, momentum = 0;
};

template <class Tree>
Errors check_tree(const hodyn::Model<Tree, double>& model, unsigned seed) {
  Errors e;
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  random_motion(seed, *motion);
  const auto pi = hodyn::model_parameters(model);
  const IdOutputs<Tree> id = id_outputs(model, *motion);
  auto y = std::make_unique<hodyn::RegressorData<Tree, kMaxOrder, double>>();
  // Every requested order (the fixed-order kernels and the run-time one).
  for (int r = 0; r <= kMaxOrder; ++r) {
    EXPECT_EQ(hodyn::inverse_dynamics_regressor(model, *y, *motion, r), Status::kOk);
    EXPECT_EQ(y->order, r);
    for (int k = 0; k <= r; ++k) {
      e.y = std::max(e.y, rel_err(Rows<Tree>(y->regressor[k] * pi), id.world[k]));
      if constexpr (!hodyn::TreeTraits<Tree>::kFixedBase)
        e.base = std::max(
            e.base,
            rel_err(Eigen::Matrix<double, 6, 1>(y->base_frame_regressor[k] * pi), id.base[k]));
    }
  }
  // The body regressor, summed over the bodies.
  {
    auto b = std::make_unique<hodyn::BodyRegressorData<Tree, kMaxOrder, double>>();
    std::array<Rows<Tree>, kMaxOrder + 1> sum{};
    for (auto& s : sum) s.setZero();
    for (int j = 0; j < Tree::kNumBodies; ++j) {
      EXPECT_EQ(hodyn::inverse_dynamics_body_regressor(model, *b, *motion, j, kMaxOrder),
                Status::kOk);
      for (int k = 0; k <= kMaxOrder; ++k)
        sum[k] += b->regressor[k] * pi.template segment<10>(10 * j);
    }
    for (int k = 0; k <= kMaxOrder; ++k) e.body = std::max(e.body, rel_err(sum[k], id.world[k]));
  }
  // Linearity: π₁ − 0.7 π₂ (not physically consistent in general).
  {
    const auto model2 = other_bodies(model, seed + 1000u);
    const auto pi2 = hodyn::model_parameters(model2);
    const IdOutputs<Tree> id2 = id_outputs(model2, *motion);
    EXPECT_EQ(hodyn::inverse_dynamics_regressor(model, *y, *motion, kMaxOrder), Status::kOk);
    const auto combination = (pi - 0.7 * pi2).eval();
    for (int k = 0; k <= kMaxOrder; ++k)
      e.linear = std::max(e.linear, rel_err(Rows<Tree>(y->regressor[k] * combination),
                                            Rows<Tree>(id.world[k] - 0.7 * id2.world[k])));
  }
  // Momentum: Y_p π = M̄ ν (rows: Q₁-like, then the joints; a fixed base has no Q₁ in ν).
  {
    constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
    constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
    EXPECT_EQ(hodyn::momentum_regressor(model, *y, *motion, 0), Status::kOk);
    auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
    EXPECT_EQ(hodyn::mass_matrix(model, *eom, *motion), Status::kOk);
    Eigen::Matrix<double, kDofs, 1> nu;
    if constexpr (kBase > 0) nu.template head<6>() = motion->base_twist[0];
    nu.template tail<kDofs - kBase>() = motion->q[1];
    const Eigen::Matrix<double, kDofs, 1> p = eom->result.mass_matrix * nu;
    const Rows<Tree> yp = y->regressor[0] * pi;
    e.momentum = rel_err(Eigen::Matrix<double, kDofs, 1>(yp.template tail<kDofs>()), p);
  }
  return e;
}

TEST(SphericalJointRegressors, RegressorTimesParametersIsInverseDynamics) {
  Errors worst;
  const auto keep = [&](const Errors& e) {
    worst.y = std::max(worst.y, e.y);
    worst.base = std::max(worst.base, e.base);
    worst.body = std::max(worst.body, e.body);
    worst.linear = std::max(worst.linear, e.linear);
    worst.momentum = std::max(worst.momentum, e.momentum);
  };
  for (unsigned seed : {3u, 17u, 29u}) {
    const Models models = make_models(seed);
    keep(check_tree(models.ball, seed + 1u));
    keep(check_tree(mixed_model<MixedTree>(seed + 20u), seed + 2u));
    keep(check_tree(mixed_model<MixedFixedTree>(seed + 40u), seed + 3u));
  }
  EXPECT_LE(worst.y, 1e-12);
  EXPECT_LE(worst.base, 1e-12);
  EXPECT_LE(worst.body, 1e-12);
  EXPECT_LE(worst.linear, 1e-12);
  EXPECT_LE(worst.momentum, 1e-12);
  std::printf(
      "  ball regressors, orders 0..4 (relative to the largest entry): Y pi vs ID %.2e, "
      "base-frame rows %.2e, body regressors summed %.2e, linearity %.2e, momentum vs CRBA "
      "%.2e\n",
      worst.y, worst.base, worst.body, worst.linear, worst.momentum);
}

template <class Tree>
std::pair<double, double> energy_errors(const hodyn::Model<Tree, double>& model, unsigned seed) {
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  random_motion(seed, *motion);
  auto data = std::make_unique<hodyn::EnergyRegressorData<Tree, double>>();
  EXPECT_EQ(hodyn::energy_regressor(model, *data, *motion), Status::kOk);
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, kMaxOrder, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, *motion, 0), Status::kOk);
  double kinetic = 0, potential = 0;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const Pose<double>& c = kin->body_pose[static_cast<std::size_t>(j)];
    const Eigen::Matrix<double, 6, 1>& v = kin->body_twist[static_cast<std::size_t>(j)][0];
    // The body-frame twist (ω_b; v_b) of the spatial (ω; v) at C_j = (R, p).
    const Vec3 w = c.rotation.transpose() * v.head<3>();
    const Vec3 vb = c.rotation.transpose() * (v.tail<3>() + v.head<3>().cross(c.translation));
    const auto& in = model.body_inertia(j);
    const double m = in.mass;
    const Vec3 h = in.first_moment;
    const Mat3 i = in.rotational_inertia;
    // ½ (ωᵀ I ω + 2 vᵀ (ω × h) + m vᵀ v) about the frame's origin.
    kinetic += 0.5 * (w.dot(i * w) + 2 * vb.dot(w.cross(h)) + m * vb.dot(vb));
    potential -= model.gravity().dot(m * c.translation + c.rotation * h);
  }
  const auto pi = hodyn::model_parameters(model);
  return {std::abs(data->kinetic * pi - kinetic) / std::abs(kinetic),
          std::abs(data->potential * pi - potential) / std::max(std::abs(potential), 1.0)};
}

TEST(SphericalJointRegressors, EnergyRegressorIsTheBodiesEnergy) {
  double worst_t = 0, worst_u = 0;
  for (unsigned seed : {3u, 17u, 29u}) {
    const Models models = make_models(seed);
    for (const auto& [t, u] : {energy_errors(models.ball, seed + 1u),
                               energy_errors(mixed_model<MixedTree>(seed + 20u), seed + 2u),
                               energy_errors(mixed_model<MixedFixedTree>(seed + 40u), seed + 3u)}) {
      worst_t = std::max(worst_t, t);
      worst_u = std::max(worst_u, u);
    }
  }
  EXPECT_LE(worst_t, 1e-13);
  EXPECT_LE(worst_u, 1e-13);
  std::printf("  ball energy regressor: kinetic %.2e, potential %.2e (relative)\n", worst_t,
              worst_u);
}

/// Viscous friction per entry of q̇ (a ball: per axis of its child-frame ω):
/// [Y Y_f] (π; f_v; f_c) = ID^(k) + f_v ⊙ q^(k+1) on the joint rows, the
/// friction written out here; kSign and kTanh refuse a ball tree.
template <class Tree>
double friction_error(const hodyn::Model<Tree, double>& model, unsigned seed) {
  using hodyn::CoulombModel;
  using hodyn::FrictionRegressorOptions;
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  random_motion(seed, *motion);
  constexpr int n = hodyn::TreeTraits<Tree>::kNumJointDofs;
  using F = hodyn::FrictionRegressorData<Tree, kMaxOrder, double>;
  static_assert(F::kRows == 6 + n && F::kColumns == 2 * n);
  auto f = std::make_unique<F>();
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.1, 2.0);
  Eigen::Matrix<double, 2 * n, 1> coefficients;
  for (int i = 0; i < 2 * n; ++i) coefficients(i) = u(gen);  // f_c: no effect (kNone)
  EXPECT_EQ(hodyn::joint_friction_regressor(*f, *motion, kMaxOrder,
                                            FrictionRegressorOptions<double>{CoulombModel::kNone}),
            Status::kOk);
  auto y = std::make_unique<hodyn::RegressorData<Tree, kMaxOrder, double>>();
  EXPECT_EQ(hodyn::inverse_dynamics_regressor(model, *y, *motion, kMaxOrder), Status::kOk);
  const IdOutputs<Tree> id = id_outputs(model, *motion);
  const auto pi = hodyn::model_parameters(model);
  double worst = 0;
  for (int k = 0; k <= kMaxOrder; ++k) {
    Rows<Tree> expected = id.world[k];
    for (int i = 0; i < n; ++i) expected(6 + i) += coefficients(i) * motion->q[k + 1](i);
    const Rows<Tree> got = y->regressor[k] * pi + f->regressor[k] * coefficients;
    worst = std::max(worst, rel_err(got, expected));
  }
  for (CoulombModel c : {CoulombModel::kSign, CoulombModel::kTanh}) {
    EXPECT_EQ(
        hodyn::joint_friction_regressor(*f, *motion, 1, FrictionRegressorOptions<double>{c, 0.5}),
        Status::kInvalidArgument);
    EXPECT_EQ(f->order, -1);
    for (const auto& m : f->regressor) EXPECT_EQ(m.cwiseAbs().maxCoeff(), 0.0);
  }
  return worst;
}

TEST(SphericalJointRegressors, ViscousFrictionPerAxisCoulombRefused) {
  double worst = 0;
  for (unsigned seed : {3u, 17u}) {
    const Models models = make_models(seed);
    worst = std::max(worst, friction_error(models.ball, seed + 1u));
    worst = std::max(worst, friction_error(mixed_model<MixedTree>(seed + 20u), seed + 2u));
    worst = std::max(worst, friction_error(mixed_model<MixedFixedTree>(seed + 40u), seed + 3u));
  }
  EXPECT_LE(worst, 1e-12);
  std::printf("  ball friction: [Y Y_f](pi; f_v; f_c) vs ID + viscous %.2e (relative)\n", worst);
}

/// The Slotine–Li input of `motion`'s state (q, ν) with the reference
/// ν_r = (V₁; q̇) and ν̇_r = (V̇₁; q̈) of `reference`.
template <class Tree, int MO, int MR>
hodyn::SlotineLiInput<Tree, double> slotine_li_input(
    const hodyn::MotionDerivatives<Tree, MO, double>& motion,
    const hodyn::MotionDerivatives<Tree, MR, double>& reference) {
  hodyn::SlotineLiInput<Tree, double> in;
  in.base_pose = motion.base_pose;
  in.base_twist = motion.base_twist[0];
  in.q = motion.q[0];
  in.q_dot = motion.q[1];
  in.joint_rotation = motion.joint_rotation;
  in.reference_base_twist = reference.base_twist[0];
  in.reference_q_dot = reference.q[1];
  in.reference_base_acceleration = reference.base_twist[1];
  in.reference_q_ddot = reference.q[2];
  return in;
}

struct SlotineLiErrors {
  double closed_forms = 0, mass = 0, coriolis = 0, id = 0, id_base = 0;
};

template <class Tree>
SlotineLiErrors slotine_li_errors(const hodyn::Model<Tree, double>& model, unsigned seed) {
  constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
  constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
  using Nu = Eigen::Matrix<double, kDofs, 1>;
  SlotineLiErrors e;
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  auto reference = std::make_unique<hodyn::MotionDerivatives<Tree, kMaxOrder, double>>();
  random_motion(seed, *motion);
  random_motion(seed + 500u, *reference);  // ν_r, ν̇_r ≠ ν, ν̇
  const auto nu_of = [](const hodyn::MotionDerivatives<Tree, kMaxOrder, double>& m, int k) {
    Nu nu;
    if constexpr (kBase > 0) nu.template head<6>() = m.base_twist[static_cast<std::size_t>(k)];
    nu.template tail<kDofs - kBase>() = m.q[static_cast<std::size_t>(k + 1)];
    return nu;
  };
  // The closed forms at the state (q, ν).
  auto state = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>();
  state->base_pose = motion->base_pose;
  state->base_twist[0] = motion->base_twist[0];
  state->q[0] = motion->q[0];
  state->q[1] = motion->q[1];
  state->joint_rotation = motion->joint_rotation;
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  EXPECT_EQ(hodyn::equations_of_motion(model, *eom, *state, false), Status::kOk);
  const auto& cf = eom->result;
  const Nu nu_r = nu_of(*reference, 0), nu_r_dot = nu_of(*reference, 1);
  const auto pi = hodyn::model_parameters(model);
  auto y = std::make_unique<hodyn::RegressorData<Tree, 0, double>>();
  auto in =
      std::make_unique<hodyn::SlotineLiInput<Tree, double>>(slotine_li_input(*motion, *reference));
  // The ν rows (a fixed base's first six rows are the mount's wrench, not in ν).
  const auto nu_rows = [&]() {
    return Nu(Rows<Tree>(y->regressor[0] * pi).template tail<kDofs>());
  };
  EXPECT_EQ(hodyn::slotine_li_regressor(model, *y, *in), Status::kOk);
  EXPECT_EQ(y->order, 0);
  e.closed_forms =
      rel_err(nu_rows(), Nu(cf.mass_matrix * nu_r_dot + cf.coriolis_matrix * nu_r + cf.gravity));
  // The parameter derivatives of the closed forms: ∂(M̄ x)/∂π, ∂(C y)/∂π.
  in->gravity = false;
  {
    auto m = std::make_unique<hodyn::SlotineLiInput<Tree, double>>(*in);
    m->base_twist.setZero();
    m->q_dot.setZero();
    m->reference_base_twist.setZero();
    m->reference_q_dot.setZero();
    EXPECT_EQ(hodyn::slotine_li_regressor(model, *y, *m), Status::kOk);
    e.mass = rel_err(nu_rows(), Nu(cf.mass_matrix * nu_r_dot));
  }
  in->reference_base_acceleration.setZero();
  in->reference_q_ddot.setZero();
  EXPECT_EQ(hodyn::slotine_li_regressor(model, *y, *in), Status::kOk);
  e.coriolis = rel_err(nu_rows(), Nu(cf.coriolis_matrix * nu_r));
  // With the actual velocities and accelerations: inverse dynamics (every row).
  in = std::make_unique<hodyn::SlotineLiInput<Tree, double>>(slotine_li_input(*motion, *motion));
  EXPECT_EQ(hodyn::slotine_li_regressor(model, *y, *in), Status::kOk);
  const IdOutputs<Tree> id = id_outputs(model, *motion);
  e.id = rel_err(Rows<Tree>(y->regressor[0] * pi), id.world[0]);
  if constexpr (kBase > 0)
    e.id_base = rel_err(Eigen::Matrix<double, 6, 1>(y->base_frame_regressor[0] * pi), id.base[0]);
  return e;
}

TEST(SphericalJointRegressors, SlotineLiIsMassMatrixCoriolisAndGravityOfTheClosedForms) {
  SlotineLiErrors worst;
  const auto keep = [&](const SlotineLiErrors& e) {
    worst.closed_forms = std::max(worst.closed_forms, e.closed_forms);
    worst.mass = std::max(worst.mass, e.mass);
    worst.coriolis = std::max(worst.coriolis, e.coriolis);
    worst.id = std::max(worst.id, e.id);
    worst.id_base = std::max(worst.id_base, e.id_base);
  };
  for (unsigned seed : {3u, 17u, 29u}) {
    const Models models = make_models(seed);
    keep(slotine_li_errors(models.ball, seed + 1u));
    keep(slotine_li_errors(mixed_model<MixedTree>(seed + 20u), seed + 2u));
    keep(slotine_li_errors(mixed_model<MixedFixedTree>(seed + 40u), seed + 3u));
  }
  EXPECT_LE(worst.closed_forms, 1e-12);
  EXPECT_LE(worst.mass, 1e-12);
  EXPECT_LE(worst.coriolis, 1e-12);
  EXPECT_LE(worst.id, 1e-12);
  EXPECT_LE(worst.id_base, 1e-12);
  std::printf(
      "  ball Slotine-Li (relative to the largest entry): Y pi vs Mbar nu_r' + C nu_r + g %.2e, "
      "M x %.2e, C y %.2e; with nu_r = nu: vs ID %.2e, base-frame rows %.2e\n",
      worst.closed_forms, worst.mass, worst.coriolis, worst.id, worst.id_base);
}

TEST(SphericalJointRegressors, SlotineLiBadRotationsAndHeapFree) {
  const Models models = make_models(7u);
  auto motion = std::make_unique<hodyn::MotionDerivatives<BallTree, kMaxOrder, double>>();
  auto reference = std::make_unique<hodyn::MotionDerivatives<BallTree, kMaxOrder, double>>();
  random_motion(8u, *motion);
  random_motion(9u, *reference);
  const auto in = std::make_unique<hodyn::SlotineLiInput<BallTree, double>>(
      slotine_li_input(*motion, *reference));
  auto y = std::make_unique<hodyn::RegressorData<BallTree, 1, double>>();
  {
    hodyn::test::HeapProbe probe;
    const Status s = hodyn::slotine_li_regressor(models.ball, *y, *in);
    EXPECT_EQ(probe.count(), 0);
    EXPECT_EQ(s, Status::kOk);
  }
  struct Case {
    Mat3 rotation;
    Status status;
  };
  Mat3 skewed = in->joint_rotation[1];
  skewed(0, 1) += 1e-3;
  Mat3 nan = in->joint_rotation[1];
  nan(2, 2) = std::numeric_limits<double>::quiet_NaN();
  const Mat3 mirror = -in->joint_rotation[1];
  for (const Case& c :
       {Case{skewed, Status::kNonOrthonormalRotation}, Case{nan, Status::kNonFiniteInput},
        Case{mirror, Status::kNonOrthonormalRotation}}) {
    auto bad = std::make_unique<hodyn::SlotineLiInput<BallTree, double>>(*in);
    bad->joint_rotation[1] = c.rotation;
    ASSERT_EQ(hodyn::slotine_li_regressor(models.ball, *y, *in), Status::kOk);
    ASSERT_GT(y->regressor[0].cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(hodyn::slotine_li_regressor(models.ball, *y, *bad), c.status);
    EXPECT_EQ(y->order, -1);
    for (int k = 0; k <= 1; ++k) {
      EXPECT_EQ(y->regressor[k].cwiseAbs().maxCoeff(), 0.0);
      EXPECT_EQ(y->base_frame_regressor[k].cwiseAbs().maxCoeff(), 0.0);
    }
  }
  // A NaN in a ball's entry of the reference: kNonFiniteInput, zero outputs.
  auto bad = std::make_unique<hodyn::SlotineLiInput<BallTree, double>>(*in);
  bad->reference_q_ddot(hodyn::TreeTraits<BallTree>::joint_entry(2) + 1) =
      std::numeric_limits<double>::quiet_NaN();
  ASSERT_EQ(hodyn::slotine_li_regressor(models.ball, *y, *in), Status::kOk);
  EXPECT_EQ(hodyn::slotine_li_regressor(models.ball, *y, *bad), Status::kNonFiniteInput);
  EXPECT_EQ(y->regressor[0].cwiseAbs().maxCoeff(), 0.0);
}

TEST(SphericalJointRegressors, BadRotationsAndHeapFree) {
  const Models models = make_models(7u);
  auto motion = std::make_unique<hodyn::MotionDerivatives<BallTree, kMaxOrder, double>>();
  random_motion(8u, *motion);
  auto y = std::make_unique<hodyn::RegressorData<BallTree, kMaxOrder, double>>();
  auto b = std::make_unique<hodyn::BodyRegressorData<BallTree, kMaxOrder, double>>();
  auto energy = std::make_unique<hodyn::EnergyRegressorData<BallTree, double>>();
  auto friction = std::make_unique<hodyn::FrictionRegressorData<BallTree, kMaxOrder, double>>();
  {
    hodyn::test::HeapProbe probe;
    const Status s1 = hodyn::inverse_dynamics_regressor(models.ball, *y, *motion, kMaxOrder);
    const Status s2 = hodyn::inverse_dynamics_body_regressor(models.ball, *b, *motion, 3, 2);
    const Status s3 = hodyn::energy_regressor(models.ball, *energy, *motion);
    const Status s4 = hodyn::joint_friction_regressor(
        *friction, *motion, 2, hodyn::FrictionRegressorOptions<double>{hodyn::CoulombModel::kNone});
    EXPECT_EQ(probe.count(), 0);
    EXPECT_EQ(s4, Status::kOk);
    EXPECT_EQ(s1, Status::kOk);
    EXPECT_EQ(s2, Status::kOk);
    EXPECT_EQ(s3, Status::kOk);
  }
  const auto zero = [&]() {
    bool all = y->order == -1 && b->order == -1;
    for (int k = 0; k <= kMaxOrder; ++k)
      all = all && y->regressor[k].cwiseAbs().maxCoeff() == 0 &&
            y->base_frame_regressor[k].cwiseAbs().maxCoeff() == 0 &&
            b->regressor[k].cwiseAbs().maxCoeff() == 0;
    return all && energy->kinetic.cwiseAbs().maxCoeff() == 0 &&
           energy->potential.cwiseAbs().maxCoeff() == 0;
  };
  struct Case {
    Mat3 rotation;
    Status status;
  };
  Mat3 skewed = motion->joint_rotation[1];
  skewed(0, 1) += 1e-3;
  Mat3 nan = motion->joint_rotation[1];
  nan(2, 2) = std::numeric_limits<double>::quiet_NaN();
  const Mat3 mirror = -motion->joint_rotation[1];
  for (const Case& c :
       {Case{skewed, Status::kNonOrthonormalRotation}, Case{nan, Status::kNonFiniteInput},
        Case{mirror, Status::kNonOrthonormalRotation}}) {
    auto bad = std::make_unique<hodyn::MotionDerivatives<BallTree, kMaxOrder, double>>(*motion);
    bad->joint_rotation[1] = c.rotation;
    ASSERT_EQ(hodyn::inverse_dynamics_regressor(models.ball, *y, *motion, 2), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics_body_regressor(models.ball, *b, *motion, 4, 2), Status::kOk);
    ASSERT_EQ(hodyn::energy_regressor(models.ball, *energy, *motion), Status::kOk);
    EXPECT_EQ(hodyn::inverse_dynamics_regressor(models.ball, *y, *bad, 2), c.status);
    EXPECT_EQ(hodyn::inverse_dynamics_body_regressor(models.ball, *b, *bad, 4, 2), c.status);
    EXPECT_EQ(hodyn::energy_regressor(models.ball, *energy, *bad), c.status);
    EXPECT_TRUE(zero());
  }
}

}  // namespace
