// Loop closures and the dynamics of closed chains (seed 002 §3).
//
// Oracles, none of them the code under test:
//   - A^(k) and (Aν)^(k) of every order against the dense Taylor-series
//     reference: P Ad_{T_a(t)}⁻¹ (V_b(t) − V_a(t)) formed from the reference's
//     pose and twist series (no screw recursion, no derivative formula), and
//     Σ C(k,i) A^(k−i) ν^(i) against its derivatives;
//   - the position error f by central differences along the reference's poses
//     (ḟ = A ν on a closed loop);
//   - constrained forward dynamics against a dense KKT solve built from the
//     composite-rigid-body M̄ and the unconstrained articulated-body ν̇
//     (different algorithms from the inverse-mass-matrix path the call takes);
//   - constrained inverse dynamics by round trip through forward dynamics,
//     eq. 66's A τ = 0, and optimality under random perturbations of the free λ.
// Models: the aerial manipulator (dual-arm closures), the random branched tree
// and its fixed-base twin (closures across branches and to the welded root).
#include <hodyn/center_of_mass.hpp>
#include <hodyn/constrained_dynamics.hpp>
#include <hodyn/constrained_hybrid_dynamics.hpp>
#include <hodyn/constrained_inverse_dynamics_rate.hpp>
#include <hodyn/equations_of_motion.hpp>
#include <hodyn/hodyn.hpp>
#include <hodyn/loop_closure.hpp>

#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"
#include "support/reference_dynamics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <random>

namespace {

using namespace hodyn::test::oracle;
using hodyn::BodyFrame;
using hodyn::ConstraintForceObjective;
using hodyn::LoopClosure;
using hodyn::LoopClosureKind;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using MatX = Eigen::MatrixXd;
using VecXd = Eigen::VectorXd;

template <class Tree, std::size_t NC>
using ClosureData = hodyn::LoopClosureData<Tree, NC, kR, double>;
template <class Tree, std::size_t NC>
using Constrained = hodyn::ConstrainedDynamicsData<Tree, NC, double>;

double max_abs(const MatX& m) { return m.size() == 0 ? 0.0 : m.cwiseAbs().maxCoeff(); }

Pose<double> placement(unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  Pose<double> x;
  x.rotation =
      Eigen::AngleAxisd(g(gen), Vec3(g(gen), g(gen), g(gen)).normalized()).toRotationMatrix();
  x.translation = 0.2 * Vec3(g(gen), g(gen), g(gen));
  return x;
}

LoopClosure<double> make_closure(LoopClosureKind kind, int a, int b, unsigned seed) {
  LoopClosure<double> c;
  c.kind = kind;
  c.frame_a.body = a;
  c.frame_a.placement = placement(seed);
  c.frame_b.body = b;
  c.frame_b.placement = placement(seed + 1000u);
  return c;
}

/// ν^(k) = (V₁^(k); q^(k+1)) (fixed base: q^(k+1)).
template <class Tree>
VecXd nu(const State<double>& s, int k) {
  constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
  VecXd v(hodyn::TreeTraits<Tree>::kNumDofs);
  if (kBase > 0) v.head(kBase) = s.V1[static_cast<std::size_t>(k)];
  v.tail(Tree::kNumBodies - 1) = s.q[static_cast<std::size_t>(k + 1)];
  return v;
}

/// The reference's pose and twist series of a body (the fixed root: at its mount, at rest).
template <class Tree>
State<double> tree_state(const State<double>& s) {
  State<double> out = s;
  if (hodyn::TreeTraits<Tree>::kFixedBase) {
    out.C1 = ref::Mat4<double>::Identity();
    for (auto& v : out.V1) v.setZero();
  }
  return out;
}

// ---------------------------------------------------------------------------
// A^(k), (Aν)^(k) against the reference series
// ---------------------------------------------------------------------------

template <class Tree, std::size_t NC>
double check_jacobian_series(const ReferenceTree<double>& tree,
                             const hodyn::Model<Tree, double>& model,
                             const std::array<LoopClosure<double>, NC>& closures, unsigned seed) {
  const State<double> st = tree_state<Tree>(random_state<double>(seed, Tree::kNumBodies - 1));
  const auto out = reference<S7>(tree, st);
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kR, double>>();
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, kR, double>>();
  auto data = std::make_unique<ClosureData<Tree, NC>>();
  fill_motion(st, *motion);
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, *motion, kR), Status::kOk);
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, closures, *data, kR), Status::kOk);
  double worst = 0;
  for (std::size_t c = 0; c < NC; ++c) {
    const auto& cl = closures[c];
    const auto A = static_cast<std::size_t>(cl.frame_a.body);
    const auto B = static_cast<std::size_t>(cl.frame_b.body);
    const ref::Mat4<S7> ta = out.C[A] * cl.frame_a.placement.matrix().template cast<S7>();
    const ref::Vec6<S7> dv = out.V[B] - out.V[A];
    const ref::Vec6<S7> g = ref::adjoint<S7>(ref::pose_inverse<S7>(ta)) * dv;
    const int m = hodyn::constraint_rows(cl.kind);
    for (int k = 0; k <= kR + 1; ++k) {
      const Vec6 expected = ref::derivative_values(g, k);
      VecXd via_jacobian = VecXd::Zero(data->rows);
      for (int i = 0; i <= k; ++i)
        via_jacobian += hodyn::binomial<double>(k, i) *
                        (data->jacobian[static_cast<std::size_t>(k - i)] * nu<Tree>(st, i));
      for (int r = 0; r < m; ++r) {
        const double e = expected(hodyn::constraint_component(cl.kind, r));
        const int row = data->first_row[c] + r;
        const double scale = 1.0 + expected.norm();
        const double e1 = std::abs(via_jacobian(row) - e) / scale;
        const double e2 = std::abs(data->velocity[static_cast<std::size_t>(k)](row) - e) / scale;
        const double tol =
            k <= kR ? 1e-10 : 1e-9;  // the top order reads the series' last exact terms
        EXPECT_LE(e1, tol) << "closure " << c << " row " << r << " order " << k << " seed " << seed;
        EXPECT_LE(e2, tol) << "closure " << c << " row " << r << " order " << k << " seed " << seed;
        worst = std::max({worst, e1, e2});
      }
    }
    // The base columns are zero, and so is every column of a joint that moves both or neither.
    for (int l = 0; l < hodyn::TreeTraits<Tree>::kNumDofs; ++l) {
      const int body = hodyn::TreeTraits<Tree>::dof_body(l);
      const bool moves_a = body > 0 && hodyn::joint_moves_body<Tree>(body, cl.frame_a.body);
      const bool moves_b = body > 0 && hodyn::joint_moves_body<Tree>(body, cl.frame_b.body);
      if (moves_a != moves_b) continue;
      EXPECT_EQ(max_abs(data->jacobian[0].block(data->first_row[c], l, m, 1)), 0.0) << l;
    }
  }
  return worst;
}

TEST(LoopClosure, JacobianDerivativesOfEveryOrderMatchTheReferenceSeries) {
  const auto am_tree = hodyn::test::make_aerial_manipulator<double>();
  const auto am = core_aerial_manipulator();
  const std::array<LoopClosure<double>, 3> am_closures{
      make_closure(LoopClosureKind::kWeld, 3, 6, 1u),
      make_closure(LoopClosureKind::kPoint, 6, 2, 2u),
      make_closure(LoopClosureKind::kRevolute, 0, 3, 3u)};
  const auto tree = random_reference_tree<OracleTree, double>(4242u);
  const auto branched = core_model<OracleTree, double>(tree);
  const std::array<LoopClosure<double>, 3> branched_closures{
      make_closure(LoopClosureKind::kRevolute, 8, 6, 4u),
      make_closure(LoopClosureKind::kWeld, 5, 3, 5u),
      make_closure(LoopClosureKind::kPoint, 7, 8, 6u)};
  const auto fixed_tree = random_reference_tree<OracleFixedTree, double>(4242u);
  const auto fixed = core_model<OracleFixedTree, double>(fixed_tree);
  const std::array<LoopClosure<double>, 2> fixed_closures{
      make_closure(LoopClosureKind::kWeld, 0, 8, 7u),
      make_closure(LoopClosureKind::kPoint, 6, 2, 8u)};
  double worst = 0;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    worst = std::max(worst, check_jacobian_series(am_tree, am, am_closures, seed));
    worst = std::max(worst, check_jacobian_series(tree, branched, branched_closures, 10 + seed));
    worst = std::max(worst, check_jacobian_series(fixed_tree, fixed, fixed_closures, 20 + seed));
  }
  std::cout << "A^(k), k = 0.." << kR + 1 << ": worst relative error " << worst << std::endl;
}

// ---------------------------------------------------------------------------
// The position error
// ---------------------------------------------------------------------------

/// Σ_k c_k t^k of a pose series (degree 7: truncation ~t⁸).
ref::Mat4<double> pose_at(const ref::Mat4<S7>& c, double t) {
  ref::Mat4<double> m = ref::Mat4<double>::Zero();
  double tk = 1;
  for (int k = 0; k <= kD; ++k, tk *= t) m += ref::coefficients(c, k) * tk;
  return m;
}

TEST(LoopClosure, PositionErrorIsZeroOnTheClosedLoopAndItsRateIsTheConstraintVelocity) {
  const auto am_tree = hodyn::test::make_aerial_manipulator<double>();
  const auto am = core_aerial_manipulator();
  using Tree = hodyn::AerialManipulatorTree;
  for (const LoopClosureKind kind :
       {LoopClosureKind::kWeld, LoopClosureKind::kPoint, LoopClosureKind::kRevolute}) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      const State<double> st = random_state<double>(seed, Tree::kNumBodies - 1);
      const auto out = reference<S7>(am_tree, st);
      auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kR, double>>();
      auto kin = std::make_unique<hodyn::KinematicsData<Tree, kR, double>>();
      auto data = std::make_unique<ClosureData<Tree, 1>>();
      fill_motion(st, *motion);
      ASSERT_EQ(hodyn::forward_kinematics(am, *kin, *motion, 0), Status::kOk);
      // Close the loop at this state: frame b placed where frame a is now.
      std::array<LoopClosure<double>, 1> closure{make_closure(kind, 3, 6, seed)};
      closure[0].frame_b.placement =
          kin->body_pose[6].inverse() * kin->body_pose[3] * closure[0].frame_a.placement;
      ASSERT_EQ(hodyn::loop_closure_kinematics(*kin, closure, *data, 0), Status::kOk);
      const int m = data->rows;
      EXPECT_LE(max_abs(data->error), 1e-14);
      // ḟ by central differences along the reference poses.
      const double h = 1e-4;
      Eigen::Matrix<double, 6, 1> f[2];
      for (int s = 0; s < 2; ++s) {
        const double t = s == 0 ? h : -h;
        const Pose<double> ta =
            Pose<double>::from_matrix(pose_at(out.C[3], t)) * closure[0].frame_a.placement;
        const Pose<double> tb =
            Pose<double>::from_matrix(pose_at(out.C[6], t)) * closure[0].frame_b.placement;
        f[s] = hodyn::detail::closure_error(kind, ta, tb);
      }
      const VecXd rate = ((f[0] - f[1]) / (2 * h)).head(m);
      const VecXd expected = data->jacobian[0] * nu<Tree>(st, 0);
      EXPECT_LE(max_abs(rate - expected), 1e-7 * (1 + max_abs(expected)))
          << "kind " << static_cast<int>(kind) << " seed " << seed;
    }
  }
}

TEST(LoopClosure, BadInputGivesAStatusAndZeroOutputs) {
  using Tree = hodyn::AerialManipulatorTree;
  const auto am = core_aerial_manipulator();
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>();
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, 1, double>>();
  auto data = std::make_unique<hodyn::LoopClosureData<Tree, 1, 1, double>>();
  ASSERT_EQ(hodyn::forward_kinematics(am, *kin, *motion, 0), Status::kOk);
  std::array<LoopClosure<double>, 1> c{make_closure(LoopClosureKind::kWeld, 3, 6, 1u)};
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, c, *data, 1), Status::kOrderOutOfRange);
  EXPECT_EQ(data->rows, 0);
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, c, *data, -1), Status::kOrderOutOfRange);
  c[0].frame_b.body = 3;
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, c, *data, 0), Status::kInvalidArgument);
  c[0].frame_b.body = 7;
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, c, *data, 0), Status::kInvalidArgument);
  c[0].frame_b.body = 6;
  c[0].frame_a.placement.rotation(0, 0) = 2.0;
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, c, *data, 0), Status::kInvalidArgument);
  c[0].frame_a.placement = Pose<double>{};
  c[0].kind = static_cast<LoopClosureKind>(7);
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, c, *data, 0), Status::kInvalidArgument);
  EXPECT_EQ(data->rows, 0);
  EXPECT_EQ(data->order, -1);
  c[0].kind = LoopClosureKind::kRevolute;
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, c, *data, 0), Status::kOk);
  EXPECT_EQ(data->rows, 5);
}

// ---------------------------------------------------------------------------
// Constrained forward dynamics against a dense KKT solve
// ---------------------------------------------------------------------------

template <class Tree>
MatX dense_mass_matrix(const hodyn::Model<Tree, double>& model, const Pose<double>& pose,
                       const typename hodyn::Model<Tree, double>::JointVector& q) {
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  EXPECT_EQ(hodyn::mass_matrix(model, *eom, pose, q), Status::kOk);
  return eom->result.mass_matrix;
}

/// ν̇ of the tree alone by the articulated-body algorithm.
template <class Tree>
VecXd tree_acceleration(const hodyn::Model<Tree, double>& model,
                        const hodyn::ForwardDynamicsInput<Tree, 0, double>& in) {
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<Tree, 0, double>>();
  EXPECT_EQ(hodyn::forward_dynamics(model, *fd, in, 0), Status::kOk);
  constexpr int kBase = hodyn::TreeTraits<Tree>::kBaseDofs;
  VecXd a(hodyn::TreeTraits<Tree>::kNumDofs);
  if (kBase > 0) a.head(kBase) = fd->motion.base_twist[1];
  a.tail(Tree::kNumBodies - 1) = fd->motion.q[2];
  return a;
}

template <class Tree>
hodyn::ForwardDynamicsInput<Tree, 0, double> random_input(unsigned seed) {
  const State<double> st = tree_state<Tree>(random_state<double>(seed, Tree::kNumBodies - 1));
  hodyn::ForwardDynamicsInput<Tree, 0, double> in;
  in.base_pose = Pose<double>::from_matrix(st.C1);
  in.base_twist = st.V1[0];
  in.q = st.q[0];
  in.q_dot = st.q[1];
  if (!hodyn::TreeTraits<Tree>::kFixedBase) in.base_wrench[0] = 10.0 * st.V1[2];
  in.joint_torque[0] = st.q[3];
  return in;
}

template <class Tree, std::size_t NC>
double check_forward_against_kkt(const hodyn::Model<Tree, double>& model,
                                 const std::array<LoopClosure<double>, NC>& closures, unsigned seed,
                                 const hodyn::ConstraintStabilization<double>& gains) {
  const auto in = random_input<Tree>(seed);
  auto data = std::make_unique<Constrained<Tree, NC>>();
  const Status status = hodyn::constrained_forward_dynamics(model, closures, in, gains, *data);
  EXPECT_EQ(status, Status::kOk) << "seed " << seed;
  if (status != Status::kOk) return 1.0;
  const int m = data->closure.rows;
  const int n = hodyn::TreeTraits<Tree>::kNumDofs;
  const MatX mass = dense_mass_matrix(model, in.base_pose, in.q);
  const MatX a = data->closure.jacobian[0];
  // [M̄ −Aᵀ; A 0] (ν̇; λ) = (M̄ ν̇_tree; target − Ȧν).
  MatX kkt = MatX::Zero(n + m, n + m);
  kkt.topLeftCorner(n, n) = mass;
  kkt.topRightCorner(n, m) = -a.transpose();
  kkt.bottomLeftCorner(m, n) = a;
  VecXd rhs(n + m);
  rhs.head(n) = mass * tree_acceleration(model, in);
  rhs.tail(m) = -gains.velocity_gain * VecXd(data->closure.velocity[0]) -
                gains.position_gain * VecXd(data->closure.error) - VecXd(data->closure.velocity[1]);
  const VecXd x = kkt.fullPivLu().solve(rhs);
  const double e_acc = max_abs(VecXd(data->acceleration) - x.head(n)) / (1 + max_abs(x.head(n)));
  const double e_lambda = max_abs(VecXd(data->multiplier) - x.tail(m)) / (1 + max_abs(x.tail(m)));
  EXPECT_LE(e_acc, 1e-9) << "seed " << seed;
  EXPECT_LE(e_lambda, 1e-9) << "seed " << seed;
  // The motion written back, and the closures' acceleration as asked.
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, 0, double>>();
  auto check = std::make_unique<hodyn::LoopClosureData<Tree, NC, 0, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, data->motion, 0), Status::kOk);
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, closures, *check, 0), Status::kOk);
  const VecXd target = rhs.tail(m) + VecXd(data->closure.velocity[1]);
  EXPECT_LE(max_abs(VecXd(check->velocity[1]) - target), 1e-8 * (1 + max_abs(target)))
      << "seed " << seed;
  return std::max(e_acc, e_lambda);
}

TEST(ConstrainedForwardDynamics, MatchesTheDenseKktSolve) {
  const auto am = core_aerial_manipulator();
  const std::array<LoopClosure<double>, 1> weld{make_closure(LoopClosureKind::kWeld, 3, 6, 1u)};
  const std::array<LoopClosure<double>, 1> revolute{
      make_closure(LoopClosureKind::kRevolute, 3, 6, 2u)};
  const auto tree = random_reference_tree<OracleTree, double>(4242u);
  const auto branched = core_model<OracleTree, double>(tree);
  const std::array<LoopClosure<double>, 2> branched_closures{
      make_closure(LoopClosureKind::kRevolute, 8, 6, 4u),
      make_closure(LoopClosureKind::kPoint, 3, 5, 6u)};  // 8 rows on joints 1..8
  const auto fixed_tree = random_reference_tree<OracleFixedTree, double>(4242u);
  const auto fixed = core_model<OracleFixedTree, double>(fixed_tree);
  const std::array<LoopClosure<double>, 1> to_root{make_closure(LoopClosureKind::kPoint, 0, 8, 7u)};
  const hodyn::ConstraintStabilization<double> none{};
  const hodyn::ConstraintStabilization<double> baumgarte{20.0, 100.0};
  double worst = 0;
  for (unsigned seed = 1; seed <= 5; ++seed) {
    for (const auto& gains : {none, baumgarte}) {
      worst = std::max(worst, check_forward_against_kkt(am, weld, seed, gains));
      worst = std::max(worst, check_forward_against_kkt(am, revolute, 10 + seed, gains));
      worst =
          std::max(worst, check_forward_against_kkt(branched, branched_closures, 20 + seed, gains));
      worst = std::max(worst, check_forward_against_kkt(fixed, to_root, 30 + seed, gains));
    }
  }
  std::cout << "constrained FD vs KKT: worst relative error " << worst << std::endl;
}

TEST(ConstrainedForwardDynamics, AppliedLoadsEnterAsInTheOpenTree) {
  // Applied wrenches (world and body frame) and external joint torques: the
  // KKT solve with the open tree's articulated-body ν̇ under the same loads.
  using Tree = hodyn::AerialManipulatorTree;
  const auto am = core_aerial_manipulator();
  const std::array<LoopClosure<double>, 1> weld{make_closure(LoopClosureKind::kWeld, 3, 6, 5u)};
  const auto in = random_input<Tree>(5u);
  hodyn::ExternalLoads<Tree, 0, double> loads;
  loads.has_world_wrench[2] = true;
  loads.world_wrench[2][0] << 0.1, -0.2, 0.3, 1.0, 2.0, -3.0;
  loads.has_body_wrench[5] = true;
  loads.body_wrench[5][0] << -0.3, 0.1, 0.2, -1.0, 0.5, 2.0;
  loads.joint_torque[0] << 0.2, -0.1, 0.3, 0.0, 0.4, -0.2;
  auto data = std::make_unique<Constrained<Tree, 1>>();
  ASSERT_EQ(hodyn::constrained_forward_dynamics(am, weld, in, &loads, {}, *data), Status::kOk);
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<Tree, 0, double>>();
  ASSERT_EQ(hodyn::forward_dynamics(am, *fd, in, &loads, 0), Status::kOk);
  VecXd open(12);
  open << Vec6(fd->motion.base_twist[1]), VecXd(fd->motion.q[2]);
  const MatX mass = dense_mass_matrix(am, in.base_pose, in.q);
  const MatX a = data->closure.jacobian[0];
  MatX kkt = MatX::Zero(18, 18);
  kkt.topLeftCorner(12, 12) = mass;
  kkt.topRightCorner(12, 6) = -a.transpose();
  kkt.bottomLeftCorner(6, 12) = a;
  VecXd rhs(18);
  rhs << mass * open, -VecXd(data->closure.velocity[1]);
  const VecXd x = kkt.fullPivLu().solve(rhs);
  EXPECT_LE(max_abs(VecXd(data->acceleration) - x.head(12)), 1e-9 * (1 + max_abs(x.head(12))));
  EXPECT_LE(max_abs(VecXd(data->multiplier) - x.tail(6)), 1e-9 * (1 + max_abs(x.tail(6))));
  // Without the loads the answer differs (the loads are read).
  auto bare = std::make_unique<Constrained<Tree, 1>>();
  ASSERT_EQ(hodyn::constrained_forward_dynamics(am, weld, in, {}, *bare), Status::kOk);
  EXPECT_GT(max_abs(VecXd(bare->acceleration) - VecXd(data->acceleration)), 1e-3);
}

/// Kinetic plus potential energy of a fixed-base tree at (q, q̇).
template <class Tree>
double energy(const hodyn::Model<Tree, double>& model, const VecXd& q, const VecXd& qd) {
  hodyn::MotionDerivatives<Tree, 0, double> m;
  m.q[0] = q;
  m.q[1] = qd;
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, 0, double>>();
  auto com = std::make_unique<hodyn::CenterOfMassData<Tree, 0, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, m, 0), Status::kOk);
  EXPECT_EQ(hodyn::center_of_mass(model, *kin, *com, 0), Status::kOk);
  const MatX mass = dense_mass_matrix(model, Pose<double>{}, m.q[0]);
  return 0.5 * qd.dot(mass * qd) - com->total_mass * model.gravity().dot(com->position[0]);
}

TEST(ConstrainedForwardDynamics, ClosedChainConservesEnergyUnderRk4) {
  // A passive closed chain (no torques, gravity only) integrated with RK4:
  // the closure's force does no work, so T + U stays put; a wrong λ would
  // pump energy in or out. Baumgarte keeps the loop closed.
  using Tree = OracleFixedTree;
  const auto tree = random_reference_tree<Tree, double>(4242u);
  const auto model = core_model<Tree, double>(tree);
  constexpr int n = Tree::kNumBodies - 1;
  std::mt19937 gen(7u);
  std::normal_distribution<double> g(0.0, 1.0);
  VecXd q(n), qd(n);
  for (int i = 0; i < n; ++i) q(i) = 0.5 * g(gen);
  std::array<LoopClosure<double>, 1> closure{make_closure(LoopClosureKind::kPoint, 8, 6, 11u)};
  {
    hodyn::MotionDerivatives<Tree, 0, double> m;
    m.q[0] = q;
    auto kin = std::make_unique<hodyn::KinematicsData<Tree, 0, double>>();
    auto data = std::make_unique<hodyn::LoopClosureData<Tree, 1, 0, double>>();
    ASSERT_EQ(hodyn::forward_kinematics(model, *kin, m, 0), Status::kOk);
    closure[0].frame_b.placement =
        kin->body_pose[6].inverse() * kin->body_pose[8] * closure[0].frame_a.placement;
    ASSERT_EQ(hodyn::loop_closure_kinematics(*kin, closure, *data, 0), Status::kOk);
    const MatX a = data->jacobian[0];
    for (int i = 0; i < n; ++i) qd(i) = g(gen);
    qd -= a.completeOrthogonalDecomposition().solve(a * qd);  // A q̇ = 0
  }
  auto data = std::make_unique<Constrained<Tree, 1>>();
  const hodyn::ConstraintStabilization<double> gains{20.0, 100.0};
  const auto acceleration = [&](const VecXd& x, const VecXd& v) {
    hodyn::ForwardDynamicsInput<Tree, 0, double> in;
    in.q = x;
    in.q_dot = v;
    EXPECT_EQ(hodyn::constrained_forward_dynamics(model, closure, in, gains, *data), Status::kOk);
    return VecXd(data->acceleration);
  };
  const double e0 = energy(model, q, qd);
  const double dt = 1e-3;
  double worst_energy = 0, worst_error = 0, kinetic_scale = 0;
  for (int step = 0; step < 2000; ++step) {
    const VecXd k1v = acceleration(q, qd), k1x = qd;
    const VecXd k2v = acceleration(q + 0.5 * dt * k1x, qd + 0.5 * dt * k1v),
                k2x = qd + 0.5 * dt * k1v;
    const VecXd k3v = acceleration(q + 0.5 * dt * k2x, qd + 0.5 * dt * k2v),
                k3x = qd + 0.5 * dt * k2v;
    const VecXd k4v = acceleration(q + dt * k3x, qd + dt * k3v), k4x = qd + dt * k3v;
    q += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    qd += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    acceleration(q, qd);  // the closure's error at the new state
    worst_error = std::max(worst_error, max_abs(VecXd(data->closure.error)));
    worst_energy = std::max(worst_energy, std::abs(energy(model, q, qd) - e0));
    kinetic_scale = std::max(kinetic_scale, 0.5 * qd.squaredNorm());
  }
  std::cout << "closed chain, 2 s RK4: |E - E0| <= " << worst_energy << " J (E0 " << e0
            << " J), loop error <= " << worst_error << " m" << std::endl;
  EXPECT_LE(worst_error, 1e-7);
  EXPECT_LE(worst_energy, 1e-6 * (1 + std::abs(e0)));
  EXPECT_GT(kinetic_scale, 0.1);  // it moved
}

// ---------------------------------------------------------------------------
// Constrained inverse dynamics
// ---------------------------------------------------------------------------

/// A state of the aerial manipulator on which `closures` hold: the loop closed
/// at q (frame b placed on frame a), ν and ν̇ projected onto the constraints.
template <std::size_t NC>
struct ClosedState {
  std::array<LoopClosure<double>, NC> closures;
  hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 0, double> motion;
  VecXd nu, nu_dot;
};

template <std::size_t NC>
ClosedState<NC> closed_state(const hodyn::AerialManipulatorModel<double>& model,
                             std::array<LoopClosure<double>, NC> closures, unsigned seed) {
  using Tree = hodyn::AerialManipulatorTree;
  const State<double> st = random_state<double>(seed, Tree::kNumBodies - 1);
  ClosedState<NC> out;
  fill_motion(st, out.motion);
  out.motion.base_twist[1].setZero();
  out.motion.q[2].setZero();
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, 0, double>>();
  auto data = std::make_unique<hodyn::LoopClosureData<Tree, NC, 0, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, out.motion, 0), Status::kOk);
  for (auto& c : closures)
    c.frame_b.placement = kin->body_pose[static_cast<std::size_t>(c.frame_b.body)].inverse() *
                          kin->body_pose[static_cast<std::size_t>(c.frame_a.body)] *
                          c.frame_a.placement;
  out.closures = closures;
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, closures, *data, 0), Status::kOk);
  const MatX a = data->jacobian[0];
  const auto pinv = a.completeOrthogonalDecomposition();
  out.nu = nu<Tree>(st, 0);
  out.nu -= pinv.solve(a * out.nu);  // A ν = 0
  out.motion.base_twist[0] = out.nu.template head<6>();
  out.motion.q[1] = out.nu.template tail<6>();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, out.motion, 0), Status::kOk);
  EXPECT_EQ(hodyn::loop_closure_kinematics(*kin, closures, *data, 0), Status::kOk);
  const VecXd bias = data->velocity[1];  // Ȧ ν (ν̇ = 0)
  out.nu_dot = nu<Tree>(st, 1);
  out.nu_dot -= pinv.solve(a * out.nu_dot + bias);  // A ν̇ + Ȧ ν = 0
  out.motion.base_twist[1] = out.nu_dot.template head<6>();
  out.motion.q[2] = out.nu_dot.template tail<6>();
  return out;
}

/// ν̇ and λ of constrained forward dynamics under the generalized force f.
template <std::size_t NC>
std::pair<VecXd, VecXd> forward_under(const hodyn::AerialManipulatorModel<double>& model,
                                      const ClosedState<NC>& s, const VecXd& f) {
  using Tree = hodyn::AerialManipulatorTree;
  hodyn::ForwardDynamicsInput<Tree, 0, double> in;
  in.base_pose = s.motion.base_pose;
  in.base_twist = s.motion.base_twist[0];
  in.q = s.motion.q[0];
  in.q_dot = s.motion.q[1];
  in.base_wrench[0] = f.template head<6>();
  in.joint_torque[0] = f.template tail<6>();
  auto data = std::make_unique<Constrained<Tree, NC>>();
  EXPECT_EQ(hodyn::constrained_forward_dynamics(model, s.closures, in, {}, *data), Status::kOk);
  return {VecXd(data->acceleration), VecXd(data->multiplier)};
}

TEST(ConstrainedInverseDynamics, AllActuatedRoundTripsThroughForwardDynamics) {
  using Tree = hodyn::AerialManipulatorTree;
  const auto am = core_aerial_manipulator();
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const auto s = closed_state<1>(am, {make_closure(LoopClosureKind::kWeld, 3, 6, seed)}, seed);
    auto data = std::make_unique<Constrained<Tree, 1>>();
    hodyn::ConstrainedInverseDynamicsOptions<Tree, 1, double> options;
    // Least constraint force: λ = 0, τ̄ = τ̄_r, and forward dynamics returns ν̇ with λ = 0.
    ASSERT_EQ(hodyn::constrained_inverse_dynamics(am, s.closures, s.motion, options, *data),
              Status::kOk);
    EXPECT_LE(max_abs(VecXd(data->constraint_acceleration)), 1e-10);
    EXPECT_EQ(max_abs(VecXd(data->multiplier)), 0.0);
    auto [acc, lambda] = forward_under(am, s, data->generalized_force);
    EXPECT_LE(max_abs(acc - s.nu_dot), 1e-8 * (1 + max_abs(s.nu_dot))) << seed;
    EXPECT_LE(max_abs(lambda), 1e-8 * (1 + max_abs(VecXd(data->generalized_force)))) << seed;
    // A commanded squeeze: λ = λ_c exactly, and forward dynamics finds it again.
    options.commanded_multiplier = Eigen::Matrix<double, 6, 1>(1, -2, 0.5, 3, 4, -5);
    ASSERT_EQ(hodyn::constrained_inverse_dynamics(am, s.closures, s.motion, options, *data),
              Status::kOk);
    EXPECT_LE(max_abs(VecXd(data->multiplier) - VecXd(options.commanded_multiplier)), 1e-14);
    std::tie(acc, lambda) = forward_under(am, s, data->generalized_force);
    EXPECT_LE(max_abs(acc - s.nu_dot), 1e-8 * (1 + max_abs(s.nu_dot))) << seed;
    EXPECT_LE(max_abs(lambda - VecXd(options.commanded_multiplier)), 1e-7) << seed;
    // Least effort: eq. 66's A τ = 0, the same motion, and no λ does better.
    options.objective = ConstraintForceObjective::kMinimumActuatorEffort;
    options.commanded_multiplier.resize(0);
    ASSERT_EQ(hodyn::constrained_inverse_dynamics(am, s.closures, s.motion, options, *data),
              Status::kOk);
    const MatX a = data->closure.jacobian[0];
    const VecXd tau = data->generalized_force;
    EXPECT_LE(max_abs(a * tau), 1e-10 * (1 + max_abs(tau))) << seed;
    std::tie(acc, lambda) = forward_under(am, s, tau);
    EXPECT_LE(max_abs(acc - s.nu_dot), 1e-8 * (1 + max_abs(s.nu_dot))) << seed;
    std::mt19937 gen(seed);
    std::normal_distribution<double> g(0.0, 1.0);
    for (int trial = 0; trial < 50; ++trial) {
      VecXd dl(6);
      for (int i = 0; i < 6; ++i) dl(i) = 1e-3 * g(gen);
      EXPECT_GE((tau - a.transpose() * dl).norm(), tau.norm()) << seed;
    }
  }
}

/// Passive arm-2 joints (ν entries 9..11, zero torque): square (point, m = 3)
/// and redundant (weld, m = 6) cases, both objectives.
template <std::size_t NC>
void check_passive(const hodyn::AerialManipulatorModel<double>& am, const ClosedState<NC>& s,
                   ConstraintForceObjective objective, unsigned seed) {
  using Tree = hodyn::AerialManipulatorTree;
  hodyn::ConstrainedInverseDynamicsOptions<Tree, NC, double> options;
  options.objective = objective;
  for (int l = 9; l < 12; ++l) options.actuated[static_cast<std::size_t>(l)] = false;
  options.passive_force(10) = 0.3;  // a spring's torque on one passive joint
  auto data = std::make_unique<Constrained<Tree, NC>>();
  ASSERT_EQ(hodyn::constrained_inverse_dynamics(am, s.closures, s.motion, options, *data),
            Status::kOk);
  const VecXd tau = data->generalized_force;
  EXPECT_EQ(tau(9), 0.0);
  EXPECT_EQ(tau(10), 0.3);
  EXPECT_EQ(tau(11), 0.0);
  const auto [acc, lambda] = forward_under(am, s, tau);
  EXPECT_LE(max_abs(acc - s.nu_dot), 1e-7 * (1 + max_abs(s.nu_dot))) << seed;
  // Optimality among the λ that keep the passive equations: λ + N s, N ⟂ A_p.
  const MatX a = data->closure.jacobian[0];
  const int m = data->closure.rows;
  const MatX ap = a.middleCols(9, 3);
  const Eigen::FullPivLU<MatX> lu(ap.transpose());
  const MatX nullspace = lu.kernel();
  if (m == 3) {
    EXPECT_EQ(lu.rank(), 3);
    return;  // square: λ unique
  }
  const VecXd l0 = data->multiplier;
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    VecXd sv(nullspace.cols());
    for (Eigen::Index i = 0; i < sv.size(); ++i) sv(i) = 1e-3 * g(gen);
    const VecXd l1 = l0 + nullspace * sv;
    if (objective == ConstraintForceObjective::kMinimumConstraintForce) {
      EXPECT_GE(l1.norm(), l0.norm()) << seed;
    } else {
      const VecXd tau_r = tau + a.transpose() * l0;
      const VecXd a0 = (tau_r - a.transpose() * l0).head(9);
      const VecXd a1 = (tau_r - a.transpose() * l1).head(9);
      EXPECT_GE(a1.norm(), a0.norm() - 1e-12) << seed;
    }
  }
}

TEST(ConstrainedInverseDynamics, PassiveJointsSquareAndRedundant) {
  const auto am = core_aerial_manipulator();
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const auto point =
        closed_state<1>(am, {make_closure(LoopClosureKind::kPoint, 3, 6, seed)}, seed);
    const auto weld = closed_state<1>(am, {make_closure(LoopClosureKind::kWeld, 3, 6, seed)}, seed);
    for (const auto objective : {ConstraintForceObjective::kMinimumConstraintForce,
                                 ConstraintForceObjective::kMinimumActuatorEffort}) {
      check_passive(am, point, objective, seed);
      check_passive(am, weld, objective, seed);
    }
  }
}

// ---------------------------------------------------------------------------
// Constrained hybrid dynamics: its torques, fed to forward dynamics, give its motion
// ---------------------------------------------------------------------------

template <std::size_t NC>
void check_hybrid(const hodyn::AerialManipulatorModel<double>& am,
                  const std::array<LoopClosure<double>, NC>& closures, bool base_prescribed,
                  const std::array<bool, 6>& joints_prescribed, unsigned seed) {
  using Tree = hodyn::AerialManipulatorTree;
  const auto fd_in = random_input<Tree>(seed);
  hodyn::HybridDynamicsInput<Tree, 0, double> in;
  static_cast<hodyn::ForwardDynamicsInput<Tree, 0, double>&>(in) = fd_in;
  in.base_input = base_prescribed ? hodyn::BaseInput::kMotion : hodyn::BaseInput::kWrench;
  in.base_acceleration[0] = Vec6(0.3, -0.2, 0.1, 1.0, -0.5, 2.0);
  in.motion_prescribed = joints_prescribed;
  in.joint_acceleration[0] << 1.5, -0.7, 0.2, -1.1, 0.4, 0.9;
  const hodyn::ConstraintStabilization<double> gains{8.0, 16.0};
  auto hd = std::make_unique<hodyn::ConstrainedHybridDynamicsData<Tree, NC, double>>();
  ASSERT_EQ(hodyn::constrained_hybrid_dynamics(am, closures, in, gains, *hd), Status::kOk) << seed;
  const VecXd acc = hd->acceleration;
  const VecXd force = hd->generalized_force;
  // Prescribed entries kept, given forces kept.
  for (int l = 0; l < 12; ++l) {
    const bool u = l < 6 ? base_prescribed : joints_prescribed[static_cast<std::size_t>(l - 6)];
    const double given_acc = l < 6 ? in.base_acceleration[0](l) : in.joint_acceleration[0](l - 6);
    const double given_force = l < 6 ? in.base_wrench[0](l) : in.joint_torque[0](l - 6);
    if (u)
      EXPECT_EQ(acc(l), given_acc) << l;
    else
      EXPECT_EQ(force(l), given_force) << l;
  }
  hodyn::ForwardDynamicsInput<Tree, 0, double> back = fd_in;
  back.base_wrench[0] = force.head<6>();
  back.joint_torque[0] = force.tail<6>();
  auto fd = std::make_unique<Constrained<Tree, NC>>();
  ASSERT_EQ(hodyn::constrained_forward_dynamics(am, closures, back, gains, *fd), Status::kOk);
  EXPECT_LE(max_abs(VecXd(fd->acceleration) - acc), 1e-9 * (1 + max_abs(acc))) << seed;
  EXPECT_LE(max_abs(VecXd(fd->multiplier) - VecXd(hd->multiplier)),
            1e-8 * (1 + max_abs(VecXd(hd->multiplier))))
      << seed;
}

TEST(ConstrainedHybridDynamics, ItsForcesGiveItsMotionThroughForwardDynamics) {
  const auto am = core_aerial_manipulator();
  const std::array<bool, 6> none{};
  const std::array<bool, 6> arm1{true, true, true, false, false, false};
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const std::array<LoopClosure<double>, 1> weld{make_closure(LoopClosureKind::kWeld, 3, 6, seed)};
    const std::array<LoopClosure<double>, 1> point{
        make_closure(LoopClosureKind::kPoint, 3, 6, seed)};
    check_hybrid(am, weld, false, none, seed);   // = forward dynamics
    check_hybrid(am, weld, true, none, seed);    // base motion prescribed
    check_hybrid(am, point, false, arm1, seed);  // one arm's motion prescribed
    check_hybrid(am, point, true, arm1, seed);
  }
  // Nothing prescribed: the same numbers as constrained forward dynamics.
  using Tree = hodyn::AerialManipulatorTree;
  const std::array<LoopClosure<double>, 1> weld{make_closure(LoopClosureKind::kWeld, 3, 6, 9u)};
  hodyn::HybridDynamicsInput<Tree, 0, double> in;
  static_cast<hodyn::ForwardDynamicsInput<Tree, 0, double>&>(in) = random_input<Tree>(9u);
  auto hd = std::make_unique<hodyn::ConstrainedHybridDynamicsData<Tree, 1, double>>();
  auto fd = std::make_unique<Constrained<Tree, 1>>();
  ASSERT_EQ(hodyn::constrained_hybrid_dynamics(am, weld, in, {}, *hd), Status::kOk);
  ASSERT_EQ(hodyn::constrained_forward_dynamics(am, weld, in, {}, *fd), Status::kOk);
  EXPECT_LE(max_abs(VecXd(hd->acceleration) - VecXd(fd->acceleration)),
            1e-10 * (1 + max_abs(VecXd(fd->acceleration))));
  // One arm prescribed and a weld: the other arm cannot satisfy six constraints.
  in.motion_prescribed = {true, true, true, false, false, false};
  EXPECT_EQ(hodyn::constrained_hybrid_dynamics(am, weld, in, {}, *hd), Status::kSingularConstraint);
  EXPECT_EQ(hd->multiplier.size(), 0);
}

// ---------------------------------------------------------------------------
// The first time derivative of constrained inverse dynamics
// ---------------------------------------------------------------------------

/// The motion of st at time t (polynomials in t; the base pose from the
/// reference's pose series, which solves Ċ = [V] C).
hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 0, double> motion_at(
    const State<double>& st, const ref::Mat4<S7>& base_series, double t) {
  hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 0, double> m;
  m.base_pose = Pose<double>::from_matrix(pose_at(base_series, t));
  const auto poly = [t](const auto& list, int shift, int count) {
    using V = std::decay_t<decltype(list[0])>;
    V sum = list[static_cast<std::size_t>(shift)];
    double tk = 1;
    for (int k = 1; k + shift < count; ++k) {
      tk *= t / k;
      sum += list[static_cast<std::size_t>(k + shift)] * tk;
    }
    return sum;
  };
  const int nv = static_cast<int>(st.V1.size());
  const int nq = static_cast<int>(st.q.size());
  m.base_twist[0] = poly(st.V1, 0, nv);
  m.base_twist[1] = poly(st.V1, 1, nv);
  m.q[0] = poly(st.q, 0, nq);
  m.q[1] = poly(st.q, 1, nq);
  m.q[2] = poly(st.q, 2, nq);
  return m;
}

template <std::size_t NC>
void check_rate(
    const hodyn::AerialManipulatorModel<double>& am,
    const std::array<LoopClosure<double>, NC>& closures,
    hodyn::ConstrainedInverseDynamicsOptions<hodyn::AerialManipulatorTree, NC, double> options,
    const hodyn::ConstrainedInverseDynamicsRates<hodyn::AerialManipulatorTree, NC, double>& rates,
    unsigned seed, double& worst) {
  using Tree = hodyn::AerialManipulatorTree;
  const State<double> st = random_state<double>(seed, 6);
  const ref::Mat4<S7> base_series = hodyn::test::base_pose_series<S7>(st.C1, st.V1);
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>();
  fill_motion(st, *motion);
  auto data = std::make_unique<hodyn::ConstrainedInverseDynamicsRateData<Tree, NC, double>>();
  ASSERT_EQ(hodyn::constrained_inverse_dynamics_rate(am, closures, *motion, options, rates, *data),
            Status::kOk)
      << seed;
  // Order 0 along t ↦ state(t), with λ_c(t) and τ_p(t) moving at their rates.
  auto id = std::make_unique<Constrained<Tree, NC>>();
  const auto at = [&](double t) {
    auto o = options;
    o.passive_force += t * rates.passive_force_rate;
    if (rates.commanded_multiplier_rate.size() != 0)
      o.commanded_multiplier += t * rates.commanded_multiplier_rate;
    EXPECT_EQ(
        hodyn::constrained_inverse_dynamics(am, closures, motion_at(st, base_series, t), o, *id),
        Status::kOk);
    VecXd out(12 + id->multiplier.size());
    out << VecXd(id->generalized_force), VecXd(id->multiplier);
    return out;
  };
  const VecXd now = at(0.0);
  VecXd result(now.size()), rate(now.size());
  result << VecXd(data->generalized_force), VecXd(data->multiplier);
  rate << VecXd(data->generalized_force_rate), VecXd(data->multiplier_rate);
  EXPECT_LE(max_abs(result - now), 1e-12 * (1 + max_abs(now))) << seed;
  const double h = 1e-3;
  const VecXd d1 = (at(h) - at(-h)) / (2 * h);
  const VecXd d2 = (at(h / 2) - at(-h / 2)) / h;
  const VecXd richardson = (4 * d2 - d1) / 3;
  const double e = max_abs(rate - richardson) / (1 + max_abs(richardson));
  EXPECT_LE(e, 1e-7) << "seed " << seed << "\nrate " << rate.transpose() << "\nfd   "
                     << richardson.transpose();
  worst = std::max(worst, e);
}

TEST(ConstrainedInverseDynamicsRate, MatchesDifferencesOfTheOrderZeroCallAlongAMotion) {
  using Tree = hodyn::AerialManipulatorTree;
  const auto am = core_aerial_manipulator();
  double worst = 0;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const std::array<LoopClosure<double>, 1> weld{make_closure(LoopClosureKind::kWeld, 3, 6, seed)};
    const std::array<LoopClosure<double>, 1> point{
        make_closure(LoopClosureKind::kPoint, 3, 6, seed)};
    hodyn::ConstrainedInverseDynamicsOptions<Tree, 1, double> all;
    hodyn::ConstrainedInverseDynamicsRates<Tree, 1, double> no_rates;
    // All actuated: least force with a moving λ_c, least effort.
    auto squeeze = all;
    squeeze.commanded_multiplier = Eigen::Matrix<double, 6, 1>(1, -2, 0.5, 3, 4, -5);
    hodyn::ConstrainedInverseDynamicsRates<Tree, 1, double> squeeze_rate;
    squeeze_rate.commanded_multiplier_rate = Eigen::Matrix<double, 6, 1>(0.2, 0.1, -0.3, 1, 0, 2);
    check_rate(am, weld, squeeze, squeeze_rate, seed, worst);
    auto effort = all;
    effort.objective = ConstraintForceObjective::kMinimumActuatorEffort;
    check_rate(am, weld, effort, no_rates, seed, worst);
    check_rate(am, point, effort, no_rates, seed, worst);
    // Passive arm 2 with a moving spring torque: square (point) and redundant (weld).
    hodyn::ConstrainedInverseDynamicsRates<Tree, 1, double> spring;
    spring.passive_force_rate(10) = -0.7;
    for (const auto objective : {ConstraintForceObjective::kMinimumConstraintForce,
                                 ConstraintForceObjective::kMinimumActuatorEffort}) {
      auto passive = all;
      passive.objective = objective;
      for (int l = 9; l < 12; ++l) passive.actuated[static_cast<std::size_t>(l)] = false;
      passive.passive_force(10) = 0.3;
      check_rate(am, point, passive, spring, seed, worst);
      check_rate(am, weld, passive, spring, seed, worst);
    }
  }
  std::cout << "constrained ID rate vs Richardson differences: worst relative error " << worst
            << std::endl;
}

TEST(ConstrainedDynamics, FloatAgreesWithDouble) {
  // The Cortex-M4F scalar: the same calls in float, against double.
  using Tree = hodyn::AerialManipulatorTree;
  const auto am = core_aerial_manipulator();
  const hodyn::AerialManipulatorModel<float> am_f = am.cast<float>();
  const auto s = closed_state<1>(am, {make_closure(LoopClosureKind::kWeld, 3, 6, 2u)}, 2u);
  std::array<LoopClosure<float>, 1> closures_f;
  closures_f[0].kind = s.closures[0].kind;
  closures_f[0].frame_a = {s.closures[0].frame_a.body,
                           s.closures[0].frame_a.placement.cast<float>()};
  closures_f[0].frame_b = {s.closures[0].frame_b.body,
                           s.closures[0].frame_b.placement.cast<float>()};
  hodyn::ForwardDynamicsInput<Tree, 0, double> in;
  in.base_pose = s.motion.base_pose;
  in.base_twist = s.motion.base_twist[0];
  in.q = s.motion.q[0];
  in.q_dot = s.motion.q[1];
  in.base_wrench[0] << 0, 0, 0, 0, 0, 40;
  hodyn::ForwardDynamicsInput<Tree, 0, float> in_f;
  in_f.base_pose = in.base_pose.cast<float>();
  in_f.base_twist = in.base_twist.cast<float>();
  in_f.q = in.q.cast<float>();
  in_f.q_dot = in.q_dot.cast<float>();
  in_f.base_wrench[0] = in.base_wrench[0].cast<float>();
  auto d = std::make_unique<Constrained<Tree, 1>>();
  auto f = std::make_unique<hodyn::ConstrainedDynamicsData<Tree, 1, float>>();
  ASSERT_EQ(hodyn::constrained_forward_dynamics(am, s.closures, in, {}, *d), Status::kOk);
  ASSERT_EQ(hodyn::constrained_forward_dynamics(am_f, closures_f, in_f, {}, *f), Status::kOk);
  const VecXd acc = d->acceleration;
  EXPECT_LE(max_abs(VecXd(f->acceleration.cast<double>()) - acc), 1e-3 * (1 + max_abs(acc)));
  hodyn::ConstrainedInverseDynamicsOptions<Tree, 1, float> options_f;
  options_f.objective = ConstraintForceObjective::kMinimumActuatorEffort;
  hodyn::ConstrainedInverseDynamicsOptions<Tree, 1, double> options;
  options.objective = ConstraintForceObjective::kMinimumActuatorEffort;
  hodyn::MotionDerivatives<Tree, 0, float> motion_f;
  motion_f.base_pose = s.motion.base_pose.cast<float>();
  motion_f.base_twist[0] = s.motion.base_twist[0].cast<float>();
  motion_f.base_twist[1] = s.motion.base_twist[1].cast<float>();
  for (int k = 0; k < 3; ++k)
    motion_f.q[static_cast<std::size_t>(k)] = s.motion.q[static_cast<std::size_t>(k)].cast<float>();
  ASSERT_EQ(hodyn::constrained_inverse_dynamics(am, s.closures, s.motion, options, *d),
            Status::kOk);
  ASSERT_EQ(hodyn::constrained_inverse_dynamics(am_f, closures_f, motion_f, options_f, *f),
            Status::kOk);
  const VecXd tau = d->generalized_force;
  EXPECT_LE(max_abs(VecXd(f->generalized_force.cast<double>()) - tau), 1e-3 * (1 + max_abs(tau)));
}

TEST(ConstrainedDynamics, HotPathsAreHeapFree) {
  using Tree = hodyn::AerialManipulatorTree;
  const auto am = core_aerial_manipulator();
  const auto s = closed_state<1>(am, {make_closure(LoopClosureKind::kWeld, 3, 6, 1u)}, 1u);
  auto data = std::make_unique<Constrained<Tree, 1>>();
  hodyn::ConstrainedInverseDynamicsOptions<Tree, 1, double> options;
  for (int l = 9; l < 12; ++l) options.actuated[static_cast<std::size_t>(l)] = false;
  options.objective = ConstraintForceObjective::kMinimumActuatorEffort;
  options.commanded_multiplier = Eigen::Matrix<double, 6, 1>::Ones();
  hodyn::ForwardDynamicsInput<Tree, 0, double> in;
  in.base_pose = s.motion.base_pose;
  in.q = s.motion.q[0];
  const hodyn::ConstraintStabilization<double> gains{10.0, 25.0};
  auto hd = std::make_unique<hodyn::ConstrainedHybridDynamicsData<Tree, 1, double>>();
  hodyn::HybridDynamicsInput<Tree, 0, double> hin;
  static_cast<hodyn::ForwardDynamicsInput<Tree, 0, double>&>(hin) = in;
  hin.base_input = hodyn::BaseInput::kMotion;
  auto rate = std::make_unique<hodyn::ConstrainedInverseDynamicsRateData<Tree, 1, double>>();
  auto motion1 = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>();
  motion1->base_pose = s.motion.base_pose;
  motion1->q[0] = s.motion.q[0];
  const hodyn::ConstrainedInverseDynamicsRates<Tree, 1, double> rates{};
  hodyn::test::HeapProbe probe;
  EXPECT_EQ(hodyn::constrained_forward_dynamics(am, s.closures, in, gains, *data), Status::kOk);
  EXPECT_EQ(hodyn::constrained_inverse_dynamics(am, s.closures, s.motion, options, *data),
            Status::kOk);
  EXPECT_EQ(hodyn::constrained_hybrid_dynamics(am, s.closures, hin, gains, *hd), Status::kOk);
  EXPECT_EQ(
      hodyn::constrained_inverse_dynamics_rate(am, s.closures, *motion1, options, rates, *rate),
      Status::kOk);
  EXPECT_EQ(probe.count(), 0);
}

TEST(ConstrainedDynamics, BadInputGivesAStatusAndZeroOutputs) {
  using Tree = hodyn::AerialManipulatorTree;
  const auto am = core_aerial_manipulator();
  const auto s = closed_state<1>(am, {make_closure(LoopClosureKind::kPoint, 3, 6, 1u)}, 1u);
  auto data = std::make_unique<Constrained<Tree, 2>>();
  hodyn::ForwardDynamicsInput<Tree, 0, double> in;
  in.q = s.motion.q[0];
  // The same closure twice: A has repeated rows.
  const std::array<LoopClosure<double>, 2> twice{s.closures[0], s.closures[0]};
  EXPECT_EQ(hodyn::constrained_forward_dynamics(am, twice, in, {}, *data),
            Status::kSingularConstraint);
  EXPECT_EQ(data->multiplier.size(), 0);
  EXPECT_EQ(max_abs(VecXd(data->acceleration)), 0.0);
  // Four passive coordinates for three constraints.
  auto one = std::make_unique<Constrained<Tree, 1>>();
  hodyn::ConstrainedInverseDynamicsOptions<Tree, 1, double> options;
  for (int l = 8; l < 12; ++l) options.actuated[static_cast<std::size_t>(l)] = false;
  EXPECT_EQ(hodyn::constrained_inverse_dynamics(am, s.closures, s.motion, options, *one),
            Status::kInvalidArgument);
  EXPECT_EQ(max_abs(VecXd(one->generalized_force)), 0.0);
  options.actuated.fill(true);
  options.commanded_multiplier = Eigen::Matrix<double, 2, 1>(1, 2);  // 3 rows expected
  EXPECT_EQ(hodyn::constrained_inverse_dynamics(am, s.closures, s.motion, options, *one),
            Status::kInvalidArgument);
  options.commanded_multiplier.resize(0);
  options.passive_force(0) = std::nan("");
  EXPECT_EQ(hodyn::constrained_inverse_dynamics(am, s.closures, s.motion, options, *one),
            Status::kNonFiniteInput);
  in.q(2) = std::nan("");
  EXPECT_EQ(hodyn::constrained_forward_dynamics(am, s.closures, in, {}, *one),
            Status::kNonFiniteInput);
  in.q(2) = 0;
  EXPECT_EQ(hodyn::constrained_forward_dynamics(am, s.closures, in, {std::nan(""), 0.0}, *one),
            Status::kNonFiniteInput);
  EXPECT_STREQ(hodyn::to_string(Status::kSingularConstraint), "singular constraint");
}

}  // namespace
