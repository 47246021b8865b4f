// inverse_mass_matrix (hodyn/inverse_mass_matrix.hpp): M̄⁻¹ by the floating-base
// IMMA (digest 003 §3.6, corrected), checked against what it does not compute:
//   - M̄⁻¹ M̄ = I with M̄ from mass_matrix (composite rigid bodies, another
//     recursion) on random states of the 12-DoF aerial manipulator, the random
//     branched 9-body tree of the oracles (general and axis-aligned revolute
//     and prismatic joints, base home pose ≠ I) and that tree with its root
//     welded (fixed base: the n × n joint block); symmetric; float within 1e-4;
//   - the base block is the inverse of the whole system's articulated inertia
//     at the base (digest 003 §5 item 6), from forward dynamics;
//   - forward dynamics: (V̇₁, q̈) = M̄⁻¹ (τ̄ − h − g) with τ̄, h, g from
//     equations_of_motion, at random states with velocities;
//   - run on DualNumber: ∂M̄⁻¹/∂p = −M̄⁻¹ (∂M̄/∂p) M̄⁻¹ for a joint angle and a
//     base position component, ∂M̄/∂p from mass_matrix on the same duals
//     (a TaylorSeries run was dropped: it added ~38 s of compile CPU at -O2);
//   - bad input (bad pose, NaN q, a massless link, overflow): status, zero result;
//     heap-free.
#include <hodyn/dual_number.hpp>
#include <hodyn/hodyn.hpp>
#include <hodyn/inverse_mass_matrix.hpp>

#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <iostream>
#include <limits>
#include <memory>

namespace {

using namespace hodyn::test::oracle;
using hodyn::JointKind;
using hodyn::TreeTraits;
using hodyn::test::max_abs;

using FixedTree = OracleFixedTree;  // OracleTree with its root welded

template <class Tree, class S = double>
using ImmaData = hodyn::InverseMassMatrixData<Tree, S>;

template <class Tree>
Eigen::MatrixXd mass_matrix_of(const hodyn::Model<Tree, double>& model, const Pose<double>& pose,
                               const typename hodyn::Model<Tree, double>::JointVector& q) {
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  EXPECT_EQ(hodyn::mass_matrix(model, *eom, pose, q), Status::kOk);
  return eom->result.mass_matrix;
}

/// Residuals max |M̄⁻¹ M̄ − I| (both sides) of the IMMA and, for scale, of
/// Eigen's Cholesky inverse of the same M̄.
struct Residuals {
  double imma = 0, cholesky = 0, imma_over_eps_cond = 0;
};

/// The IMMA residual over random states must stay within ε κ₁(M̄) (the size
/// a backward-stable inverse has; M̄ of a random base position has κ₁ up to
/// ~5e4 here) and within 1e-12; exact symmetry.
template <class Tree>
Residuals worst_identity_error(const hodyn::Model<Tree, double>& model, unsigned first_seed,
                               int states) {
  constexpr int n = TreeTraits<Tree>::kNumDofs;
  const Eigen::MatrixXd eye = Eigen::MatrixXd::Identity(n, n);
  auto data = std::make_unique<ImmaData<Tree>>();
  Residuals worst;
  for (unsigned seed = first_seed; seed < first_seed + static_cast<unsigned>(states); ++seed) {
    const State<double> st = random_state<double>(seed, Tree::kNumBodies - 1);
    const Pose<double> pose = Pose<double>::from_matrix(st.C1);
    const typename hodyn::Model<Tree, double>::JointVector q = st.q[0];
    EXPECT_EQ(hodyn::inverse_mass_matrix(model, *data, pose, q), Status::kOk) << seed;
    const Eigen::MatrixXd minv = data->result;
    const Eigen::MatrixXd m = mass_matrix_of(model, pose, q);
    EXPECT_EQ(max_abs(minv - minv.transpose()), 0.0) << seed;
    const double e = std::max(max_abs(minv * m - eye), max_abs(m * minv - eye));
    const Eigen::LLT<Eigen::MatrixXd> llt(m);
    const Eigen::MatrixXd chol = llt.solve(eye);
    const double e_chol = std::max(max_abs(chol * m - eye), max_abs(m * chol - eye));
    const double eps_cond = std::numeric_limits<double>::epsilon() / llt.rcond();
    EXPECT_LE(e, eps_cond) << "seed " << seed;
    EXPECT_LE(e, 1e-12) << "seed " << seed;
    worst.imma = std::max(worst.imma, e);
    worst.cholesky = std::max(worst.cholesky, e_chol);
    worst.imma_over_eps_cond = std::max(worst.imma_over_eps_cond, e / eps_cond);
  }
  return worst;
}

TEST(InverseMassMatrix, TimesTheMassMatrixIsTheIdentity) {
  const auto am = core_aerial_manipulator();
  const auto tree = random_reference_tree<OracleTree, double>(4242u);
  const auto fixed_tree = random_reference_tree<FixedTree, double>(4242u);
  const Residuals r[3] = {
      worst_identity_error(am, 1u, 20),
      worst_identity_error(core_model<OracleTree, double>(tree), 100u, 20),
      worst_identity_error(core_model<FixedTree, double>(fixed_tree), 200u, 20)};
  const char* names[3] = {"aerial_manipulator", "branched_tree", "fixed_base_tree"};
  for (int i = 0; i < 3; ++i) {
    std::cout << names[i] << ": max |Minv M - I| " << r[i].imma << " (Cholesky inverse "
              << r[i].cholesky << "), worst / (eps cond_1) " << r[i].imma_over_eps_cond
              << std::endl;
    RecordProperty(std::string("identity_error_") + names[i], std::to_string(r[i].imma));
  }
}

TEST(InverseMassMatrix, HelicalTreesTimesTheMassMatrixIsTheIdentity) {  // issue 19
  const auto tree = random_reference_tree<HelicalTree, double>(4242u);
  const auto fixed_tree = random_reference_tree<HelicalFixedTree, double>(4242u);
  const Residuals floating = worst_identity_error(core_model<HelicalTree, double>(tree), 300u, 20);
  const Residuals fixed =
      worst_identity_error(core_model<HelicalFixedTree, double>(fixed_tree), 400u, 20);
  std::cout << "helical trees: max |Minv M - I| floating " << floating.imma << ", fixed "
            << fixed.imma << std::endl;
}

TEST(InverseMassMatrix, FixedBaseIgnoresTheBasePoseAndIsTheJointBlockOfTheHeldTree) {
  const auto t = random_reference_tree<FixedTree, double>(4242u);
  const auto fixed = core_model<FixedTree, double>(t);
  auto data = std::make_unique<ImmaData<FixedTree>>();
  const State<double> st = random_state<double>(7u, 8);
  Pose<double> nan_pose = Pose<double>::identity();
  nan_pose.translation.setConstant(std::numeric_limits<double>::quiet_NaN());
  ASSERT_EQ(hodyn::inverse_mass_matrix(fixed, *data, nan_pose, st.q[0]), Status::kOk);
  // The fixed tree's M̄ is the joint block of the floating tree's held at the mount.
  const auto floating = core_model<OracleTree, double>(t);
  const Eigen::MatrixXd m_float =
      mass_matrix_of(floating, Pose<double>::from_matrix(t.A0[0]), st.q[0]);
  const Eigen::MatrixXd joint_block = m_float.bottomRightCorner(8, 8);
  EXPECT_LE(max_abs(data->result * joint_block - Eigen::MatrixXd::Identity(8, 8)), 1e-13);
}

TEST(InverseMassMatrix, BaseBlockIsTheInverseOfTheSystemArticulatedInertia) {
  const auto tree = random_reference_tree<OracleTree, double>(4243u);
  const auto model = core_model<OracleTree, double>(tree);
  auto data = std::make_unique<ImmaData<OracleTree>>();
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<OracleTree, 0, double>>();
  auto in = std::make_unique<hodyn::ForwardDynamicsInput<OracleTree, 0, double>>();
  for (unsigned seed = 30; seed < 35; ++seed) {
    const State<double> st = random_state<double>(seed, 8);
    in->base_pose = Pose<double>::from_matrix(st.C1);
    in->q = st.q[0];
    ASSERT_EQ(hodyn::forward_dynamics(model, *fd, *in, 0), Status::kOk);
    hodyn::Matrix6<double> ma;
    ASSERT_EQ(hodyn::articulated_inertia(*fd, 0, ma), Status::kOk);
    ASSERT_EQ(hodyn::inverse_mass_matrix(model, *data, in->base_pose, in->q), Status::kOk);
    const Eigen::MatrixXd base = data->result.topLeftCorner<6, 6>();
    EXPECT_LE(max_abs(base * ma - Eigen::MatrixXd::Identity(6, 6)), 1e-12) << seed;
  }
}

/// (V̇₁, q̈) of forward dynamics = M̄⁻¹ (τ̄ − h − g) at random states with velocities.
template <class Tree>
double worst_forward_dynamics_error(const hodyn::Model<Tree, double>& model, unsigned first_seed) {
  constexpr int n = TreeTraits<Tree>::kNumDofs;
  constexpr int nj = Tree::kNumBodies - 1;
  auto data = std::make_unique<ImmaData<Tree>>();
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<Tree, 0, double>>();
  auto in = std::make_unique<hodyn::ForwardDynamicsInput<Tree, 0, double>>();
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, 1, double>>();
  double worst = 0;
  for (unsigned seed = first_seed; seed < first_seed + 10u; ++seed) {
    const State<double> st = random_state<double>(seed, nj);
    const State<double> load = random_state<double>(seed + 500u, nj);  // Q₁ and τ
    in->base_pose = Pose<double>::from_matrix(st.C1);
    in->base_twist = st.V1[0];
    in->q = st.q[0];
    in->q_dot = st.q[1];
    in->base_wrench_frame = hodyn::WrenchFrame::kWorld;
    in->base_wrench[0] = load.V1[0];
    in->joint_torque[0] = load.q[0];
    EXPECT_EQ(hodyn::forward_dynamics(model, *fd, *in, 0), Status::kOk);
    fill_motion(st, *motion);
    EXPECT_EQ(hodyn::equations_of_motion(model, *eom, *motion, false), Status::kOk);
    EXPECT_EQ(hodyn::inverse_mass_matrix(model, *data, in->base_pose, in->q), Status::kOk);
    Eigen::VectorXd tau_bar(n), nu_dot(n);
    tau_bar << load.V1[0], load.q[0];
    nu_dot << fd->motion.base_twist[1], fd->motion.q[2];
    const Eigen::VectorXd rhs = tau_bar - eom->result.coriolis - eom->result.gravity;
    const Eigen::VectorXd solved = data->result * rhs;
    const double e = rel_err(solved, nu_dot);
    EXPECT_LE(e, 1e-12) << "seed " << seed;
    worst = std::max(worst, e);
  }
  return worst;
}

TEST(InverseMassMatrix, SolvesForwardDynamics) {
  const double e_am = worst_forward_dynamics_error(core_aerial_manipulator(), 40u);
  const auto tree = random_reference_tree<OracleTree, double>(4244u);
  const double e_tree = worst_forward_dynamics_error(core_model<OracleTree, double>(tree), 60u);
  const auto helical = random_reference_tree<HelicalTree, double>(4245u);  // issue 19
  const double e_helical =
      worst_forward_dynamics_error(core_model<HelicalTree, double>(helical), 80u);
  std::cout << "forward dynamics vs Minv, helical tree: " << e_helical << std::endl;
  std::cout << "forward dynamics vs Minv (tau - h - g), relative: aerial manipulator " << e_am
            << ", branched tree " << e_tree << std::endl;
}

TEST(InverseMassMatrix, FloatAgreesWithDouble) {
  const auto am = core_aerial_manipulator();
  const hodyn::AerialManipulatorModel<float> am_f = am.cast<float>();
  auto d = std::make_unique<ImmaData<AMTree, double>>();
  auto f = std::make_unique<ImmaData<AMTree, float>>();
  double worst = 0;
  for (unsigned seed = 70; seed < 80; ++seed) {
    const State<double> st = random_state<double>(seed, 6);
    const Pose<double> pose = Pose<double>::from_matrix(st.C1);
    ASSERT_EQ(hodyn::inverse_mass_matrix(am, *d, pose, st.q[0]), Status::kOk);
    const hodyn::Model<AMTree, float>::JointVector qf = st.q[0].cast<float>();
    ASSERT_EQ(hodyn::inverse_mass_matrix(am_f, *f, pose.cast<float>(), qf), Status::kOk);
    const Eigen::MatrixXd diff = f->result.cast<double>() - d->result;
    const double e = max_abs(diff) / max_abs(d->result);
    EXPECT_LE(e, 1e-4) << seed;
    worst = std::max(worst, e);
  }
  std::cout << "float vs double, max |diff| / max |Minv|: " << worst << std::endl;
}

TEST(InverseMassMatrix, RunsOnDualNumbers) {
  using D = hodyn::DualNumber<double, 2>;
  const auto am = core_aerial_manipulator();
  const hodyn::AerialManipulatorModel<D> md = am.cast<D>();
  auto di = std::make_unique<ImmaData<AMTree, D>>();
  auto de = std::make_unique<hodyn::EquationsOfMotionData<AMTree, D>>();
  for (unsigned seed = 95; seed < 98; ++seed) {
    const State<double> st = random_state<double>(seed, 6);
    Pose<D> pose = Pose<double>::from_matrix(st.C1).cast<D>();
    pose.translation(0) = D::variable(st.C1(0, 3), 1);  // p₁ = x of the base
    hodyn::AerialManipulatorModel<D>::JointVector q = st.q[0].cast<D>();
    q(1) = D::variable(st.q[0](1), 0);  // p₀ = q₂
    ASSERT_EQ(hodyn::inverse_mass_matrix(md, *di, pose, q), Status::kOk);
    ASSERT_EQ(hodyn::mass_matrix(md, *de, pose, q), Status::kOk);
    Eigen::MatrixXd minv(12, 12), m_partial(12, 12), minv_partial(12, 12);
    for (int p = 0; p < 2; ++p) {
      for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) {
          minv(i, j) = di->result(i, j).value();
          minv_partial(i, j) = di->result(i, j).derivative(p);
          m_partial(i, j) = de->result.mass_matrix(i, j).derivative(p);
        }
      const Eigen::MatrixXd expected = -minv * m_partial * minv;
      EXPECT_LE(max_abs(minv_partial - expected), 1e-11 * std::max(1.0, max_abs(expected)))
          << "parameter " << p << " seed " << seed;
    }
  }
}

/// data.result filled with ones, so that a failing call must clear it.
template <class Tree>
bool cleared_after(Status expected, Status got, const ImmaData<Tree>& d) {
  EXPECT_EQ(got, expected);
  return d.result.isZero(0.0);
}

TEST(InverseMassMatrix, BadInputGivesItsStatusAndAZeroResult) {
  const auto am = core_aerial_manipulator();
  auto d = std::make_unique<ImmaData<AMTree>>();
  const State<double> st = random_state<double>(3u, 6);
  const Pose<double> pose = Pose<double>::from_matrix(st.C1);
  const Eigen::VectorXd q = st.q[0];
  const double nan = std::numeric_limits<double>::quiet_NaN();

  d->result.setOnes();
  Eigen::VectorXd q_nan = q;
  q_nan(3) = nan;
  EXPECT_TRUE(
      cleared_after(Status::kNonFiniteInput, hodyn::inverse_mass_matrix(am, *d, pose, q_nan), *d));

  d->result.setOnes();
  Pose<double> bad = pose;
  bad.rotation(0, 0) = nan;
  EXPECT_TRUE(
      cleared_after(Status::kNonFiniteInput, hodyn::inverse_mass_matrix(am, *d, bad, q), *d));

  d->result.setOnes();
  bad = pose;
  bad.rotation *= 1.5;
  EXPECT_TRUE(cleared_after(Status::kNonOrthonormalRotation,
                            hodyn::inverse_mass_matrix(am, *d, bad, q), *d));

  // A massless last link: D_6 = 0.
  auto massless = am;
  ASSERT_EQ(massless.set_body(6, massless.home_pose(6), hodyn::SpatialInertia<double>{}),
            Status::kOk);
  d->result.setOnes();
  EXPECT_TRUE(cleared_after(Status::kSingularInertia,
                            hodyn::inverse_mass_matrix(massless, *d, pose, q), *d));

  // A finite but enormous base position: the base block overflows (|x|² ~ 1e400).
  d->result.setOnes();
  bad = pose;
  bad.translation << 1e200, -1e200, 1e200;
  EXPECT_TRUE(
      cleared_after(Status::kNonFiniteResult, hodyn::inverse_mass_matrix(am, *d, bad, q), *d));

  // And a good call afterwards works again.
  EXPECT_EQ(hodyn::inverse_mass_matrix(am, *d, pose, q), Status::kOk);
  EXPECT_FALSE(d->result.isZero(0.0));
}

TEST(InverseMassMatrix, IsHeapFree) {
  const auto am = core_aerial_manipulator();
  const auto t = random_reference_tree<FixedTree, double>(4242u);
  const auto fixed = core_model<FixedTree, double>(t);
  auto d = std::make_unique<ImmaData<AMTree>>();
  auto df = std::make_unique<ImmaData<FixedTree>>();
  const State<double> st = random_state<double>(4u, 8);
  const Pose<double> pose = Pose<double>::from_matrix(st.C1);
  const hodyn::Model<AMTree, double>::JointVector q6 = st.q[0].head(6);
  const hodyn::Model<FixedTree, double>::JointVector q8 = st.q[0];
  hodyn::test::HeapProbe probe;
  const Status s1 = hodyn::inverse_mass_matrix(am, *d, pose, q6);
  const Status s2 = hodyn::inverse_mass_matrix(fixed, *df, pose, q8);
  EXPECT_EQ(probe.count(), 0);
  EXPECT_EQ(s1, Status::kOk);
  EXPECT_EQ(s2, Status::kOk);
}

}  // namespace
