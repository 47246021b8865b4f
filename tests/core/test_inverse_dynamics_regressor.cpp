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
