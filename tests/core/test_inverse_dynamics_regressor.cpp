// The inverse-dynamics regressor Y^(k) (hodyn/inverse_dynamics_regressor.hpp)
// against what nobody here derived it from:
//   (a) column by column, the dense reference inverse dynamics
//       (support/reference_dynamics.hpp) in Taylor<double, 7> arithmetic with
//       that body's inertia replaced by the unit parameter (every other body
//       massless): its coefficient k times k! is the k-th derivative of
//       (Q₁; τ) for π = e_p, which is column p of Y^(k) by linearity;
//   (b) Y^(k) π against the core's inverse_dynamics at orders 0..5.
// Models: the random 9-body tree (general and axis-aligned revolute and
// prismatic joints, random body frames), its fixed-base twin, and the
// 12-DoF aerial manipulator. States: random, every derivative ~ N(0, 1).
#include <hodyn/hodyn.hpp>
#include <hodyn/inertial_parameters.hpp>
#include <hodyn/inverse_dynamics_regressor.hpp>

#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"
#include "support/reference_dynamics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <memory>

namespace {

using namespace hodyn::test::oracle;
using hodyn::inverse_dynamics_regressor;
using hodyn::RegressorData;

/// The body-frame 6x6 inertia of the unit parameter p (layout of
/// inertial_parameters.hpp), written from M = [[I, [h]], [−[h], m 1]].
ref::Mat6<double> unit_parameter_inertia(int p) {
  ref::Mat6<double> m = ref::Mat6<double>::Zero();
  if (p == 0) {
    m.bottomRightCorner<3, 3>().setIdentity();
  } else if (p <= 3) {
    ref::Vec3<double> h = ref::Vec3<double>::Zero();
    h(p - 1) = 1.0;
    m.topRightCorner<3, 3>() = ref::skew<double>(h);
    m.bottomLeftCorner<3, 3>() = -ref::skew<double>(h);
  } else {
    // (I_xx, I_xy, I_yy, I_xz, I_yz, I_zz)
    static const int rows[6] = {0, 0, 1, 0, 1, 2};
    static const int cols[6] = {0, 1, 1, 2, 2, 2};
    m(rows[p - 4], cols[p - 4]) = 1.0;
    m(cols[p - 4], rows[p - 4]) = 1.0;
  }
  return m;
}

/// Relative normwise error of a against b.
template <class A, class B>
double rel(const A& a, const B& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-300);
}

template <class Tree>
void check_columns_against_reference(const ReferenceTree<double>& tree, unsigned seed,
                                     Worst& worst) {
  constexpr int n = Tree::kNumBodies;
  constexpr int nj = hodyn::TreeTraits<Tree>::kNumJoints;
  constexpr bool fixed = hodyn::TreeTraits<Tree>::kFixedBase;
  const auto model = core_model<Tree>(tree);
  auto state = random_state<double>(seed, nj);
  if (fixed) {  // the reference's base held at its mount (C₁ = A⁰₀), at rest
    state.C1 = tree.A0[0];
    for (auto& v : state.V1) v.setZero();
  }
  hodyn::MotionDerivatives<Tree, kR, double> motion;
  fill_motion(state, motion);
  auto data = std::make_unique<RegressorData<Tree, kR, double>>();
  ASSERT_EQ(inverse_dynamics_regressor(model, *data, motion, kR), Status::kOk);

  std::array<Eigen::MatrixXd, kR + 1> expected;
  for (auto& e : expected) e = Eigen::MatrixXd::Zero(6 + nj, 10 * n);
  for (int j = 0; j < n; ++j)
    for (int p = 0; p < 10; ++p) {
      ReferenceTree<double> unit = tree;
      for (auto& mb : unit.Mb) mb.setZero();
      unit.Mb[static_cast<std::size_t>(j)] = unit_parameter_inertia(p);
      const auto out = reference<S7>(unit, state);
      for (int k = 0; k <= kR; ++k) {
        Eigen::VectorXd col(6 + nj);
        for (int i = 0; i < 6; ++i) col(i) = out.Q1(i).derivative_value(k);
        col.tail(nj) = tau_derivative(out.tau, k);
        expected[static_cast<std::size_t>(k)].col(10 * j + p) = col;
      }
    }
  for (int k = 0; k <= kR; ++k) {
    const Eigen::MatrixXd got = data->regressor[static_cast<std::size_t>(k)];
    const Eigen::MatrixXd& want = expected[static_cast<std::size_t>(k)];
    const double e = rel(got, want);
    worst.update(k, e);
    EXPECT_LT(e, 1e-12) << "order " << k;
    // Every column on its own (scaled by its order's norm: a column of a light
    // body may be tiny, but must still be right to that scale).
    for (int c = 0; c < 10 * n; ++c)
      EXPECT_LT((got.col(c) - want.col(c)).norm(), 1e-12 * want.norm())
          << "order " << k << " column " << c;
  }
}

TEST(InverseDynamicsRegressor, ColumnsAreReferenceDynamicsOfUnitParameters) {
  Worst worst{"regressor_columns_vs_reference"};
  for (unsigned seed = 1; seed <= 2; ++seed)
    check_columns_against_reference<OracleTree>(
        random_reference_tree<OracleTree, double>(100 + seed), seed, worst);
  worst.report();
}

TEST(InverseDynamicsRegressor, HelicalColumnsAreReferenceDynamicsOfUnitParameters) {  // issue 19
  Worst worst{"regressor_helical_columns_vs_reference"};
  check_columns_against_reference<HelicalTree>(random_reference_tree<HelicalTree, double>(103), 4,
                                               worst);
  check_columns_against_reference<HelicalFixedTree>(
      random_reference_tree<HelicalFixedTree, double>(8), 5, worst);
  worst.report();
}

TEST(InverseDynamicsRegressor, FixedBaseColumnsAreReferenceDynamicsOfUnitParameters) {
  Worst worst{"regressor_fixed_base_columns_vs_reference"};
  check_columns_against_reference<OracleFixedTree>(
      random_reference_tree<OracleFixedTree, double>(7), 3, worst);
  worst.report();
}

/// Y^(k) π against inverse_dynamics at every order, and the base-frame rows
/// against base_wrench_body.
template <class Tree, class M>
void check_product(const M& model, unsigned seed, Worst& worst) {
  constexpr int nj = hodyn::TreeTraits<Tree>::kNumJoints;
  const auto state = random_state<double>(seed, nj);
  hodyn::MotionDerivatives<Tree, kR, double> motion;
  fill_motion(state, motion);
  auto data = std::make_unique<RegressorData<Tree, kR, double>>();
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kR, double>>();
  ASSERT_EQ(inverse_dynamics_regressor(model, *data, motion, kR), Status::kOk);
  ASSERT_EQ(hodyn::inverse_dynamics(model, *id, motion, kR), Status::kOk);
  const auto pi = hodyn::model_parameters(model);
  for (int k = 0; k <= kR; ++k) {
    const auto K = static_cast<std::size_t>(k);
    Eigen::VectorXd want(6 + nj);
    want << id->base_wrench[K], id->joint_torque[K];
    const Eigen::VectorXd got = data->regressor[K] * pi;
    const double e = rel(got, want);
    worst.update(k, e);
    EXPECT_LT(e, 1e-12) << "order " << k;
    const Eigen::Matrix<double, 6, 1> body = data->base_frame_regressor[K] * pi;
    EXPECT_LT(rel(body, id->base_wrench_body[K]), 1e-12) << "order " << k;
  }
}

TEST(InverseDynamicsRegressor, TimesParametersIsInverseDynamics) {
  Worst worst{"regressor_times_parameters_vs_inverse_dynamics"};
  const auto am = core_aerial_manipulator();
  const auto tree = core_model<OracleTree>(random_reference_tree<OracleTree, double>(11));
  const auto fixed =
      core_model<OracleFixedTree>(random_reference_tree<OracleFixedTree, double>(12));
  for (unsigned seed = 1; seed <= 4; ++seed) {
    check_product<AMTree>(am, seed, worst);
    check_product<OracleTree>(tree, seed, worst);
    check_product<OracleFixedTree>(fixed, seed, worst);
  }
  const auto helical = core_model<HelicalTree>(random_reference_tree<HelicalTree, double>(13));
  for (unsigned seed = 5; seed <= 6; ++seed) check_product<HelicalTree>(helical, seed, worst);
  worst.report();
}

TEST(InverseDynamicsRegressor, LowerOrdersDoNotDependOnTheRequestedOrder) {
  // Y^(0..1) from a call at order 1 equal those of a call at order 5.
  const auto am = core_aerial_manipulator();
  const auto state = random_state<double>(5, AMTree::kNumBodies - 1);
  hodyn::MotionDerivatives<AMTree, kR, double> motion;
  fill_motion(state, motion);
  auto high = std::make_unique<RegressorData<AMTree, kR, double>>();
  auto low = std::make_unique<RegressorData<AMTree, kR, double>>();
  ASSERT_EQ(inverse_dynamics_regressor(am, *high, motion, kR), Status::kOk);
  ASSERT_EQ(inverse_dynamics_regressor(am, *low, motion, 1), Status::kOk);
  EXPECT_EQ(low->order, 1);
  for (int k = 0; k <= 1; ++k)
    EXPECT_LT(rel(low->regressor[static_cast<std::size_t>(k)],
                  high->regressor[static_cast<std::size_t>(k)]),
              1e-15);
}

TEST(InverseDynamicsRegressor, BadInputGivesStatusAndZeroOutputs) {
  const auto am = core_aerial_manipulator();
  const auto state = random_state<double>(2, AMTree::kNumBodies - 1);
  hodyn::MotionDerivatives<AMTree, 2, double> motion;
  fill_motion(state, motion);
  auto data = std::make_unique<RegressorData<AMTree, 2, double>>();
  ASSERT_EQ(inverse_dynamics_regressor(am, *data, motion, 2), Status::kOk);
  ASSERT_GT(data->regressor[2].norm(), 0.0);

  auto nan_motion = motion;
  nan_motion.q[4](3) = std::numeric_limits<double>::quiet_NaN();  // q^(4): read at order 2
  EXPECT_EQ(inverse_dynamics_regressor(am, *data, nan_motion, 2), Status::kNonFiniteInput);
  EXPECT_EQ(data->order, -1);
  for (int k = 0; k <= 2; ++k) {
    EXPECT_EQ(data->regressor[static_cast<std::size_t>(k)].norm(), 0.0);
    EXPECT_EQ(data->base_frame_regressor[static_cast<std::size_t>(k)].norm(), 0.0);
  }
  EXPECT_EQ(inverse_dynamics_regressor(am, *data, motion, 3), Status::kOrderOutOfRange);
  EXPECT_EQ(inverse_dynamics_regressor(am, *data, motion, -1), Status::kOrderOutOfRange);
  auto bad_pose = motion;
  bad_pose.base_pose.rotation(0, 0) = 2.0;
  EXPECT_EQ(inverse_dynamics_regressor(am, *data, bad_pose, 0), Status::kNonOrthonormalRotation);
  auto huge = motion;
  huge.q[1].setConstant(1e200);  // finite input, overflowing products
  EXPECT_EQ(inverse_dynamics_regressor(am, *data, huge, 0), Status::kNonFiniteResult);
  EXPECT_EQ(data->regressor[0].norm(), 0.0);
}

TEST(InverseDynamicsRegressor, IsHeapFree) {
  const auto am = core_aerial_manipulator();
  const auto state = random_state<double>(3, AMTree::kNumBodies - 1);
  hodyn::MotionDerivatives<AMTree, 2, double> motion;
  fill_motion(state, motion);
  auto data = std::make_unique<RegressorData<AMTree, 2, double>>();
  const hodyn::test::HeapProbe probe;
  for (int order = 0; order <= 2; ++order)
    EXPECT_EQ(inverse_dynamics_regressor(am, *data, motion, order), Status::kOk);
  EXPECT_EQ(probe.count(), 0);
}

TEST(InverseDynamicsRegressor, FloatBuildsAndAgreesWithFloatInverseDynamics) {
  const auto am = core_aerial_manipulator().cast<float>();
  const auto state = random_state<float>(4, AMTree::kNumBodies - 1);
  hodyn::MotionDerivatives<AMTree, 2, float> motion;
  fill_motion(state, motion);
  auto data = std::make_unique<RegressorData<AMTree, 2, float>>();
  auto id = std::make_unique<hodyn::InverseDynamicsData<AMTree, 2, float>>();
  ASSERT_EQ(inverse_dynamics_regressor(am, *data, motion, 2), Status::kOk);
  ASSERT_EQ(hodyn::inverse_dynamics(am, *id, motion, 2), Status::kOk);
  const auto pi = hodyn::model_parameters(am);
  for (int k = 0; k <= 2; ++k) {
    const auto K = static_cast<std::size_t>(k);
    Eigen::Matrix<float, 12, 1> want;
    want << id->base_wrench[K], id->joint_torque[K];
    const Eigen::Matrix<float, 12, 1> got = data->regressor[K] * pi;
    EXPECT_LT((got - want).norm(), 1e-4f * want.norm()) << "order " << k;
  }
}

TEST(InertialParameters, RoundTripAndRefusal) {
  auto am = core_aerial_manipulator();
  const auto pi = hodyn::model_parameters(am);
  // Layout: body 1's mass and first moment read from its SpatialInertia.
  const auto& s = am.body_inertia(1);
  EXPECT_EQ(pi(10), s.mass);
  EXPECT_EQ(pi(11), s.first_moment(0));
  EXPECT_EQ(pi(15), s.rotational_inertia(0, 1));
  EXPECT_EQ(pi(17), s.rotational_inertia(0, 2));
  EXPECT_EQ(pi(18), s.rotational_inertia(1, 2));
  auto changed = pi;
  changed(10) *= 2.0;
  changed.segment<3>(11) *= 2.0;  // same centre of mass
  changed.segment<6>(14) *= 2.0;
  ASSERT_EQ(hodyn::set_model_parameters(am, changed), Status::kOk);
  EXPECT_EQ((hodyn::model_parameters(am) - changed).norm(), 0.0);
  auto negative = changed;
  negative(20) = -1.0;  // body 2's mass
  EXPECT_EQ(hodyn::set_model_parameters(am, negative), Status::kInvalidModel);
  EXPECT_EQ((hodyn::model_parameters(am) - changed).norm(), 0.0);  // unchanged
}

}  // namespace

namespace {

/// The one-body regressor equals the whole regressor's columns of that body,
/// for every body of a branched tree with general and prismatic joints.
TEST(InverseDynamicsBodyRegressor, EqualsTheBodysColumnsOfTheWholeRegressor) {
  const auto tree = core_model<OracleTree>(random_reference_tree<OracleTree, double>(21));
  const auto state = random_state<double>(8, OracleTree::kNumBodies - 1);
  hodyn::MotionDerivatives<OracleTree, 3, double> motion;
  fill_motion(state, motion);
  auto whole = std::make_unique<RegressorData<OracleTree, 3, double>>();
  auto one = std::make_unique<hodyn::BodyRegressorData<OracleTree, 3, double>>();
  ASSERT_EQ(inverse_dynamics_regressor(tree, *whole, motion, 3), Status::kOk);
  for (int body = 0; body < OracleTree::kNumBodies; ++body) {
    ASSERT_EQ(hodyn::inverse_dynamics_body_regressor(tree, *one, motion, body, 3), Status::kOk);
    EXPECT_EQ(one->body, body);
    for (int k = 0; k <= 3; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const Eigen::MatrixXd want = whole->regressor[K].middleCols(10 * body, 10);
      const Eigen::MatrixXd want_base = whole->base_frame_regressor[K].middleCols(10 * body, 10);
      EXPECT_LT((one->regressor[K] - want).norm(), 1e-15 * (1.0 + want.norm())) << body << " " << k;
      EXPECT_LT((one->base_frame_regressor[K] - want_base).norm(), 1e-15 * (1.0 + want_base.norm()))
          << body << " " << k;
    }
  }
  EXPECT_EQ(hodyn::inverse_dynamics_body_regressor(tree, *one, motion, OracleTree::kNumBodies, 0),
            Status::kInvalidArgument);
  EXPECT_EQ(one->order, -1);
  EXPECT_EQ(hodyn::inverse_dynamics_body_regressor(tree, *one, motion, -1, 0),
            Status::kInvalidArgument);
}

/// inverse_dynamics_with_body_columns: the inverse dynamics are those of
/// inverse_dynamics, and its columns (all ten) those of the dense Taylor
/// reference with the body's inertia replaced by the unit parameter (every
/// other body massless), for every body of a branched tree with general and
/// aligned revolute and prismatic joints, its fixed-base twin, a helical tree
/// and the aerial manipulator; the first four (an estimator's m, h) alone too.
template <class Tree>
void check_body_columns(const ReferenceTree<double>& tree, unsigned seed, Worst& worst) {
  constexpr int n = Tree::kNumBodies;
  constexpr int nj = hodyn::TreeTraits<Tree>::kNumJoints;
  const auto model = core_model<Tree>(tree);
  auto state = random_state<double>(seed, nj);
  if (hodyn::TreeTraits<Tree>::kFixedBase) {  // the reference's base held at its mount, at rest
    state.C1 = tree.A0[0];
    for (auto& v : state.V1) v.setZero();
  }
  hodyn::MotionDerivatives<Tree, 0, double> motion;
  fill_motion(state, motion);
  auto data = std::make_unique<hodyn::InverseDynamicsData<Tree, 0, double>>();
  auto plain = std::make_unique<hodyn::InverseDynamicsData<Tree, 0, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(model, *plain, motion, 0), Status::kOk);
  for (int j = 0; j < n; ++j) {
    hodyn::BodyColumns<Tree, 10, double> ten;
    hodyn::BodyColumns<Tree, 4, double> four;
    ASSERT_EQ(hodyn::inverse_dynamics_with_body_columns(model, *data, motion, j, four),
              Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics_with_body_columns(model, *data, motion, j, ten), Status::kOk);
    EXPECT_TRUE(data->base_wrench[0] == plain->base_wrench[0]);
    EXPECT_TRUE(data->base_wrench_body[0] == plain->base_wrench_body[0]);
    EXPECT_TRUE(data->joint_torque[0] == plain->joint_torque[0]);
    Eigen::MatrixXd want(6 + nj, 10);
    for (int p = 0; p < 10; ++p) {
      ReferenceTree<double> unit = tree;
      for (auto& mb : unit.Mb) mb.setZero();
      unit.Mb[static_cast<std::size_t>(j)] = unit_parameter_inertia(p);
      const auto out = reference<S7>(unit, state);
      for (int i = 0; i < 6; ++i) want(i, p) = out.Q1(i).derivative_value(0);
      want.col(p).tail(nj) = tau_derivative(out.tau, 0);
    }
    const Eigen::MatrixXd got = ten.regressor;
    const double e = rel(got, want);
    worst.update(0, e);
    EXPECT_LT(e, 1e-12) << "body " << j;
    for (int c = 0; c < 10; ++c)
      EXPECT_LT((got.col(c) - want.col(c)).norm(), 1e-12 * (1.0 + want.norm()))
          << "body " << j << " column " << c;
    EXPECT_TRUE(four.regressor == ten.regressor.template leftCols<4>()) << "body " << j;
    EXPECT_TRUE(four.base_frame_regressor == ten.base_frame_regressor.template leftCols<4>())
        << "body " << j;
    // The base-frame rows: Ad_C₁ᵀ of the world rows (C₁ the base pose).
    hodyn::Pose<double> c1;
    c1.rotation = motion.base_pose.rotation;
    c1.translation = motion.base_pose.translation;
    for (int c = 0; c < 10; ++c) {
      const hodyn::Wrench<double> world = ten.regressor.col(c).template head<6>();
      const hodyn::Wrench<double> body = hodyn::coadjoint(c1, world);
      EXPECT_LT((ten.base_frame_regressor.col(c) - body).norm(), 1e-12 * (1.0 + want.norm()))
          << "body " << j << " column " << c;
    }
  }
  hodyn::BodyColumns<Tree, 4, double> bad;
  EXPECT_EQ(hodyn::inverse_dynamics_with_body_columns(model, *data, motion, n, bad),
            Status::kInvalidArgument);
  EXPECT_EQ(hodyn::inverse_dynamics_with_body_columns(model, *data, motion, -1, bad),
            Status::kInvalidArgument);
  motion.q[1](0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::inverse_dynamics_with_body_columns(model, *data, motion, n - 1, bad),
            Status::kNonFiniteInput);
  EXPECT_TRUE(bad.regressor.isZero(0.0));
}

TEST(InverseDynamicsWithBodyColumns, ColumnsAreReferenceDynamicsOfUnitParameters) {
  Worst worst{"body_columns_vs_reference"};
  check_body_columns<OracleTree>(random_reference_tree<OracleTree, double>(31), 12, worst);
  check_body_columns<OracleFixedTree>(random_reference_tree<OracleFixedTree, double>(32), 13,
                                      worst);
  check_body_columns<HelicalTree>(random_reference_tree<HelicalTree, double>(33), 14, worst);
  check_body_columns<HelicalFixedTree>(random_reference_tree<HelicalFixedTree, double>(34), 15,
                                       worst);
  worst.report();
}

TEST(InverseDynamicsWithBodyColumns, IsHeapFree) {
  const auto am = core_aerial_manipulator();
  const auto state = random_state<double>(9, AMTree::kNumBodies - 1);
  hodyn::MotionDerivatives<AMTree, 0, double> motion;
  fill_motion(state, motion);
  auto data = std::make_unique<hodyn::InverseDynamicsData<AMTree, 0, double>>();
  hodyn::BodyColumns<AMTree, 4, double> columns;
  const hodyn::test::HeapProbe probe;
  for (int body = 0; body < AMTree::kNumBodies; ++body)
    EXPECT_EQ(hodyn::inverse_dynamics_with_body_columns(am, *data, motion, body, columns),
              Status::kOk);
  EXPECT_EQ(probe.count(), 0);
}

TEST(InverseDynamicsBodyRegressor, IsHeapFree) {
  const auto am = core_aerial_manipulator();
  const auto state = random_state<double>(9, AMTree::kNumBodies - 1);
  hodyn::MotionDerivatives<AMTree, 0, double> motion;
  fill_motion(state, motion);
  auto data = std::make_unique<hodyn::BodyRegressorData<AMTree, 0, double>>();
  const hodyn::test::HeapProbe probe;
  for (int body = 0; body < AMTree::kNumBodies; ++body)
    EXPECT_EQ(hodyn::inverse_dynamics_body_regressor(am, *data, motion, body, 0), Status::kOk);
  EXPECT_EQ(probe.count(), 0);
}

}  // namespace

namespace {

/// M̄, C (Lemma 1) and g of equations_of_motion at the state of `state`.
template <class Tree, class M>
hodyn::EquationsOfMotion<Tree, double> closed_forms(const M& model, const State<double>& state) {
  hodyn::MotionDerivatives<Tree, 1, double> motion;
  fill_motion(state, motion);
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  EXPECT_EQ(hodyn::equations_of_motion(
                model, *eom, motion,
                static_cast<const hodyn::ExternalLoads<Tree, 1, double>*>(nullptr), false),
            Status::kOk);
  return eom->result;
}

template <class Tree>
Eigen::VectorXd nu_of(const State<double>& s, int derivative) {
  constexpr int nj = hodyn::TreeTraits<Tree>::kNumJoints;
  constexpr int nb = hodyn::TreeTraits<Tree>::kBaseDofs;
  Eigen::VectorXd nu(nb + nj);
  if (nb > 0) nu.head(nb) = s.V1[static_cast<std::size_t>(derivative)];
  nu.tail(nj) = s.q[static_cast<std::size_t>(derivative + 1)];
  return nu;
}

/// Y(q, ν, ν_r, ν̇_r) π = M̄ ν̇_r + C ν_r + g with the closed forms of
/// equations_of_motion (dense 6x6 composite sums of seed 000 Prop. 1 and
/// Lemma 1, not the regressor's rows), for random ν_r, ν̇_r ≠ ν, ν̇.
template <class Tree, class M>
void check_slotine_li(const M& model, unsigned seed, double& worst) {
  constexpr int nj = hodyn::TreeTraits<Tree>::kNumJoints;
  constexpr bool fixed = hodyn::TreeTraits<Tree>::kFixedBase;
  const auto state = random_state<double>(seed, nj);
  const auto refs = random_state<double>(seed + 1000, nj);
  const auto eom = closed_forms<Tree>(model, state);
  hodyn::SlotineLiInput<Tree, double> in;
  in.base_pose = Pose<double>::from_matrix(state.C1);
  in.base_twist = state.V1[0];
  in.q = state.q[0];
  in.q_dot = state.q[1];
  in.reference_base_twist = refs.V1[0];
  in.reference_q_dot = refs.q[1];
  in.reference_base_acceleration = refs.V1[1];
  in.reference_q_ddot = refs.q[2];
  const Eigen::VectorXd nu_r = nu_of<Tree>(refs, 0), nu_r_dot = nu_of<Tree>(refs, 1);
  auto data = std::make_unique<RegressorData<Tree, 0, double>>();
  ASSERT_EQ(hodyn::slotine_li_regressor(model, *data, in), Status::kOk);
  const auto pi = hodyn::model_parameters(model);
  const Eigen::VectorXd got = data->regressor[0] * pi;
  const Eigen::VectorXd full =
      eom.mass_matrix * nu_r_dot + eom.coriolis_matrix * nu_r + eom.gravity;
  Eigen::VectorXd want(data->regressor[0].rows());  // fixed base: rows 0..5 are the mount's wrench
  if (fixed) {
    want.head(6) = got.head(6);
    want.tail(nj) = full;
  } else {
    want = full;
  }
  const double e = rel(got, want);
  worst = std::max(worst, e);
  EXPECT_LT(e, 1e-12) << "seed " << seed;
  // Without gravity, ν = 0, ν_r = 0: ∂(M̄ x)/∂π π = M̄ x.
  in.gravity = false;
  in.base_twist.setZero();
  in.q_dot.setZero();
  in.reference_base_twist.setZero();
  in.reference_q_dot.setZero();
  ASSERT_EQ(hodyn::slotine_li_regressor(model, *data, in), Status::kOk);
  const Eigen::VectorXd mx = data->regressor[0] * pi;
  EXPECT_LT(rel(Eigen::VectorXd(mx.tail(eom.mass_matrix.rows())),
                Eigen::VectorXd(eom.mass_matrix * nu_r_dot)),
            1e-12);
}

TEST(SlotineLiRegressor, IsMassMatrixCoriolisAndGravityOfTheClosedForms) {
  double worst = 0.0;
  const auto am = core_aerial_manipulator();
  const auto tree = core_model<OracleTree>(random_reference_tree<OracleTree, double>(31));
  const auto fixed =
      core_model<OracleFixedTree>(random_reference_tree<OracleFixedTree, double>(32));
  for (unsigned seed = 1; seed <= 3; ++seed) {
    check_slotine_li<AMTree>(am, seed, worst);
    check_slotine_li<OracleTree>(tree, seed, worst);
    check_slotine_li<OracleFixedTree>(fixed, seed, worst);
  }
  std::cout << "slotine_li_vs_closed_forms worst relative error: " << worst << std::endl;
}

TEST(SlotineLiRegressor, WithTheActualReferenceIsTheRegressor) {
  const auto tree = core_model<OracleTree>(random_reference_tree<OracleTree, double>(33));
  const auto state = random_state<double>(4, OracleTree::kNumBodies - 1);
  hodyn::MotionDerivatives<OracleTree, 0, double> motion;
  fill_motion(state, motion);
  auto y = std::make_unique<RegressorData<OracleTree, 0, double>>();
  auto sl = std::make_unique<RegressorData<OracleTree, 0, double>>();
  ASSERT_EQ(inverse_dynamics_regressor(tree, *y, motion, 0), Status::kOk);
  hodyn::SlotineLiInput<OracleTree, double> in;
  in.base_pose = motion.base_pose;
  in.base_twist = in.reference_base_twist = motion.base_twist[0];
  in.reference_base_acceleration = motion.base_twist[1];
  in.q = motion.q[0];
  in.q_dot = in.reference_q_dot = motion.q[1];
  in.reference_q_ddot = motion.q[2];
  ASSERT_EQ(hodyn::slotine_li_regressor(tree, *sl, in), Status::kOk);
  EXPECT_LT(rel(sl->regressor[0], y->regressor[0]), 1e-13);
  EXPECT_LT(rel(sl->base_frame_regressor[0], y->base_frame_regressor[0]), 1e-13);
  in.q(2) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(hodyn::slotine_li_regressor(tree, *sl, in), Status::kNonFiniteInput);
  EXPECT_EQ(sl->regressor[0].norm(), 0.0);
}

/// p = M̄ ν; Y_p^(1) the derivative of Y_p along the motion (central
/// differences of the Taylor oracle are not needed: d/dt (M̄ ν) = Ṁ̄ ν + M̄ ν̇
/// from equations_of_motion's rates); and the momentum identity
/// Cᵀν − g = Y_p^(1) π − Y^(0) π at ν̇ = 0.
template <class Tree, class M>
void check_momentum(const M& model, unsigned seed, double& worst) {
  constexpr int nj = hodyn::TreeTraits<Tree>::kNumJoints;
  auto state = random_state<double>(seed, nj);
  hodyn::MotionDerivatives<Tree, 1, double> motion;
  fill_motion(state, motion);
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::equations_of_motion(
                model, *eom, motion,
                static_cast<const hodyn::ExternalLoads<Tree, 1, double>*>(nullptr), true),
            Status::kOk);
  const auto& r = eom->result;
  const Eigen::VectorXd nu = nu_of<Tree>(state, 0), nu_dot = nu_of<Tree>(state, 1);
  auto yp = std::make_unique<RegressorData<Tree, 1, double>>();
  ASSERT_EQ(hodyn::momentum_regressor(model, *yp, motion, 1), Status::kOk);
  const auto pi = hodyn::model_parameters(model);
  const int dofs = static_cast<int>(nu.size());
  const Eigen::VectorXd p = (yp->regressor[0] * pi).tail(dofs);
  const Eigen::VectorXd p_dot = (yp->regressor[1] * pi).tail(dofs);
  const double e0 = rel(p, Eigen::VectorXd(r.mass_matrix * nu));
  const double e1 = rel(p_dot, Eigen::VectorXd(r.mass_matrix_rate * nu + r.mass_matrix * nu_dot));
  worst = std::max({worst, e0, e1});
  EXPECT_LT(e0, 1e-12);
  EXPECT_LT(e1, 1e-12);
  // ν̇ = 0: Y_p^(1) π − Y^(0) π = Ṁ̄ν − Cν − g = Cᵀν − g.
  for (auto& v : motion.base_twist) v.setZero();
  motion.base_twist[0] = state.V1[0];
  motion.q[2].setZero();
  ASSERT_EQ(hodyn::momentum_regressor(model, *yp, motion, 1), Status::kOk);
  hodyn::MotionDerivatives<Tree, 0, double> at_rest_acc;
  at_rest_acc.base_pose = motion.base_pose;
  at_rest_acc.base_twist[0] = motion.base_twist[0];
  at_rest_acc.q[0] = motion.q[0];
  at_rest_acc.q[1] = motion.q[1];
  auto y = std::make_unique<RegressorData<Tree, 0, double>>();
  ASSERT_EQ(inverse_dynamics_regressor(model, *y, at_rest_acc, 0), Status::kOk);
  const Eigen::VectorXd beta = ((yp->regressor[1] - y->regressor[0]) * pi).tail(dofs);
  const double eb = rel(beta, Eigen::VectorXd(r.coriolis_matrix.transpose() * nu - r.gravity));
  worst = std::max(worst, eb);
  EXPECT_LT(eb, 1e-12);
}

TEST(MomentumRegressor, IsMassMatrixTimesVelocityAndItsRate) {
  double worst = 0.0;
  const auto am = core_aerial_manipulator();
  const auto tree = core_model<OracleTree>(random_reference_tree<OracleTree, double>(41));
  const auto fixed =
      core_model<OracleFixedTree>(random_reference_tree<OracleFixedTree, double>(42));
  for (unsigned seed = 1; seed <= 3; ++seed) {
    check_momentum<AMTree>(am, seed, worst);
    check_momentum<OracleTree>(tree, seed, worst);
    check_momentum<OracleFixedTree>(fixed, seed, worst);
  }
  std::cout << "momentum_regressor_vs_closed_forms worst relative error: " << worst << std::endl;
}

TEST(MomentumRegressor, HigherOrdersAgainstTheReference) {
  // p^(k) against the dense reference's Σ Π_j (spatial momenta) projected on
  // the screws, in Taylor arithmetic: p_base = Σ Π_j, p_j = S_jᵀ Σ_subtree Π.
  const auto tree = random_reference_tree<OracleTree, double>(43);
  const auto model = core_model<OracleTree>(tree);
  const auto state = random_state<double>(6, OracleTree::kNumBodies - 1);
  const auto out = reference<S7>(tree, state);
  hodyn::MotionDerivatives<OracleTree, 4, double> motion;
  fill_motion(state, motion);
  auto yp = std::make_unique<RegressorData<OracleTree, 4, double>>();
  ASSERT_EQ(hodyn::momentum_regressor(model, *yp, motion, 4), Status::kOk);
  const auto pi = hodyn::model_parameters(model);
  constexpr int n = OracleTree::kNumBodies;
  std::vector<ref::Vec6<S7>> composite(out.momentum.begin(), out.momentum.end());
  for (int j = n - 1; j >= 1; --j)
    composite[static_cast<std::size_t>(OracleTree::kParent[j])] +=
        composite[static_cast<std::size_t>(j)];
  for (int k = 0; k <= 4; ++k) {  // Π exact through t^{D−1} = 6: orders ≤ 5
    Eigen::VectorXd want(6 + n - 1);
    for (int i = 0; i < 6; ++i) want(i) = composite[0](i).derivative_value(k);
    for (int j = 1; j < n; ++j) {
      const S7 pj =
          out.screw[static_cast<std::size_t>(j)].dot(composite[static_cast<std::size_t>(j)]);
      want(6 + j - 1) = pj.derivative_value(k);
    }
    EXPECT_LT(rel(Eigen::VectorXd(yp->regressor[static_cast<std::size_t>(k)] * pi), want), 1e-12)
        << "order " << k;
  }
}

}  // namespace

namespace {

TEST(EnergyRegressor, KineticAndPotentialEnergyOfTheReference) {
  // T and U of the dense reference (T = ½ Σ V_jᵀ M_j V_j, U = −Σ m_j g·c_j).
  const auto tree = random_reference_tree<OracleTree, double>(51);
  const auto model = core_model<OracleTree>(tree);
  const auto pi = hodyn::model_parameters(model);
  auto data = std::make_unique<hodyn::EnergyRegressorData<OracleTree, double>>();
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const auto state = random_state<double>(seed, OracleTree::kNumBodies - 1);
    const auto out = reference<S7>(tree, state);
    hodyn::MotionDerivatives<OracleTree, 0, double> motion;
    fill_motion(state, motion);
    ASSERT_EQ(hodyn::energy_regressor(model, *data, motion), Status::kOk);
    const double t = data->kinetic * pi, u = data->potential * pi;
    EXPECT_NEAR(t, out.kinetic_energy.coeff(0), 1e-13 * std::abs(out.kinetic_energy.coeff(0)));
    EXPECT_NEAR(u, out.potential_energy.coeff(0), 1e-13 * (1.0 + std::abs(u)));
  }
}

}  // namespace
