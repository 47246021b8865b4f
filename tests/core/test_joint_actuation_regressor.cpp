// The optional joint-level regressor columns (hodyn/joint_actuation_regressor.hpp):
//   (a) the extended regressor [Y^(k) Y_f^(k)] times (π; f_v; f_c) against
//       inverse_dynamics plus a friction torque written here, f_v q̇ + f_c σ(q̇),
//       whose derivatives come from running that order-0 formula on
//       TaylorSeries (tanh written as 1 − 2/(e^{2x} + 1), not the header's
//       recurrence; sign a constant series), at every order 0..5;
//   (b) the elastic-joint motor rows against B θ̈ + F θ̇ + K(θ − q) + D(θ̇ − q̇)
//       evaluated in TaylorSeries arithmetic;
//   (c) the documented statuses: q̇ = 0 under the sign model, NaN, ε, order,
//       overflow; zero outputs.
// Models: the 12-DoF aerial manipulator, the random 9-body tree, its
// fixed-base twin. States: random, every derivative ~ N(0, 1).
#include <hodyn/hodyn.hpp>
#include <hodyn/inertial_parameters.hpp>
#include <hodyn/inverse_dynamics_regressor.hpp>
#include <hodyn/joint_actuation_regressor.hpp>
#include <hodyn/models/actuation.hpp>
#include <hodyn/taylor_series.hpp>

#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <memory>
#include <random>

namespace {

using namespace hodyn::test::oracle;
using hodyn::CoulombModel;
using hodyn::FrictionRegressorData;
using hodyn::FrictionRegressorOptions;
using hodyn::MotorAngleDerivatives;
using hodyn::MotorRegressorData;
using Series = hodyn::TaylorSeries<double, kR>;       // q̇(t): exact through order kR
using Series2 = hodyn::TaylorSeries<double, kR + 2>;  // θ(t), q(t): θ̈ exact through kR

template <class A, class B>
double rel(const A& a, const B& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-300);
}

/// The friction torque of one joint, written once for any scalar (double or
/// a series): f_v q̇ + f_c σ(q̇).
template <class T>
T friction_torque(const T& q_dot, double f_v, double f_c, CoulombModel model, double epsilon) {
  if (model == CoulombModel::kTanh) {
    using std::exp;
    const T x = q_dot / epsilon;
    return f_v * q_dot + f_c * (T(1.0) - T(2.0) / (exp(T(2.0) * x) + T(1.0)));
  }
  const T sign = q_dot > 0.0 ? T(1.0) : q_dot < 0.0 ? T(-1.0) : T(0.0);  // constant series
  return f_v * q_dot + f_c * sign;
}

/// q̇_i(t) as a series from q_i^(1..kR+1).
template <class Tree>
Series joint_rate_series(const hodyn::MotionDerivatives<Tree, kR, double>& motion, int i) {
  std::array<double, kR + 1> d{};
  for (int k = 0; k <= kR; ++k)
    d[static_cast<std::size_t>(k)] = motion.q[static_cast<std::size_t>(k + 1)](i);
  return Series::from_derivatives(d);
}

template <class Tree, class M>
void check_extended_product(const M& model, unsigned seed, CoulombModel coulomb, Worst& worst) {
  constexpr int nj = hodyn::TreeTraits<Tree>::kNumJoints;
  const auto state = random_state<double>(seed, nj);
  hodyn::MotionDerivatives<Tree, kR, double> motion;
  fill_motion(state, motion);
  const double epsilon = 0.3;  // q̇ ~ N(0, 1): inside and outside the smooth zone
  auto y = std::make_unique<hodyn::RegressorData<Tree, kR, double>>();
  auto yf = std::make_unique<FrictionRegressorData<Tree, kR, double>>();
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kR, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics_regressor(model, *y, motion, kR), Status::kOk);
  ASSERT_EQ(hodyn::joint_friction_regressor(*yf, motion, kR,
                                            FrictionRegressorOptions<double>{coulomb, epsilon}),
            Status::kOk);
  EXPECT_EQ(yf->order, kR);
  ASSERT_EQ(hodyn::inverse_dynamics(model, *id, motion, kR), Status::kOk);

  std::mt19937 gen(seed + 101u);
  std::uniform_real_distribution<double> u(0.05, 2.0);
  Eigen::VectorXd f_v(nj), f_c(nj);
  for (int i = 0; i < nj; ++i) {
    f_v(i) = u(gen);
    f_c(i) = u(gen);
  }
  const auto pi = hodyn::model_parameters(model);
  Eigen::VectorXd extended(pi.size() + 2 * nj);
  extended << pi, f_v, f_c;

  std::vector<Series> friction;
  for (int i = 0; i < nj; ++i)
    friction.push_back(
        friction_torque(joint_rate_series(motion, i), f_v(i), f_c(i), coulomb, epsilon));
  for (int k = 0; k <= kR; ++k) {
    const auto K = static_cast<std::size_t>(k);
    Eigen::VectorXd want(6 + nj);
    want << id->base_wrench[K], id->joint_torque[K] + tau_derivative(friction, k);
    Eigen::MatrixXd wide(6 + nj, pi.size() + 2 * nj);
    wide << y->regressor[K], yf->regressor[K];
    const double e = rel(wide * extended, want);
    worst.update(k, e);
    EXPECT_LT(e, 1e-12) << "order " << k;
  }
}

TEST(JointFrictionRegressor, ExtendedRegressorIsInverseDynamicsPlusFriction) {
  const auto am = core_aerial_manipulator();
  const auto tree = core_model<OracleTree>(random_reference_tree<OracleTree, double>(11));
  const auto fixed =
      core_model<OracleFixedTree>(random_reference_tree<OracleFixedTree, double>(12));
  for (CoulombModel c : {CoulombModel::kSign, CoulombModel::kTanh}) {
    Worst worst{c == CoulombModel::kSign ? "friction_sign_extended_vs_id_plus_friction"
                                         : "friction_tanh_extended_vs_id_plus_friction"};
    for (unsigned seed = 1; seed <= 4; ++seed) {
      check_extended_product<AMTree>(am, seed, c, worst);
      check_extended_product<OracleTree>(tree, seed, c, worst);
      check_extended_product<OracleFixedTree>(fixed, seed, c, worst);
    }
    worst.report();
  }
}

TEST(JointFrictionRegressor, ColumnsByHand) {
  // Joint 0 at rest, q̈ = 2, q⃛ = 4, q⁗ = 6, ε = 0.5; x = q̇/ε, tanh(x(t)) at
  // x = 0: ' = x' = 4, '' = x'' = 8, ''' = x''' − 2 x'³ = 12 − 128.
  // Joint 1 moving backwards: sign −1, its derivatives 0.
  hodyn::MotionDerivatives<AMTree, 3, double> motion;
  for (int k = 1; k <= 4; ++k) motion.q[static_cast<std::size_t>(k)](0) = 2.0 * (k - 1);
  motion.q[1](1) = -0.7;
  motion.q[2](1) = 5.0;
  constexpr int n = 6;
  FrictionRegressorData<AMTree, 3, double> tanh_data;
  ASSERT_EQ(hodyn::joint_friction_regressor(
                tanh_data, motion, 3, FrictionRegressorOptions<double>{CoulombModel::kTanh, 0.5}),
            Status::kOk);
  EXPECT_EQ(tanh_data.regressor[0](6, n), 0.0);
  EXPECT_NEAR(tanh_data.regressor[1](6, n), 4.0, 1e-14);
  EXPECT_NEAR(tanh_data.regressor[2](6, n), 8.0, 1e-14);
  EXPECT_NEAR(tanh_data.regressor[3](6, n), 12.0 - 128.0, 1e-12);
  for (int k = 0; k <= 3; ++k) {  // viscous: q^(k+1)
    EXPECT_EQ(tanh_data.regressor[static_cast<std::size_t>(k)](6, 0), 2.0 * k);
    EXPECT_EQ(tanh_data.regressor[static_cast<std::size_t>(k)].topRows(6).norm(), 0.0);
  }
  motion.q[1](0) = 0.1;  // the sign model needs every q̇ ≠ 0 beyond order 0
  for (int i = 2; i < n; ++i) motion.q[1](i) = 1.0;
  FrictionRegressorData<AMTree, 3, double> sign_data;
  ASSERT_EQ(hodyn::joint_friction_regressor(sign_data, motion, 3), Status::kOk);
  EXPECT_EQ(sign_data.regressor[0](7, n + 1), -1.0);
  EXPECT_EQ(sign_data.regressor[0](6, n), 1.0);
  for (int k = 1; k <= 3; ++k)
    EXPECT_EQ(sign_data.regressor[static_cast<std::size_t>(k)].rightCols(n).norm(), 0.0);
  // Far from rest the smooth column is the sign, its derivatives vanish.
  motion.q[1](1) = -1e3;
  ASSERT_EQ(hodyn::joint_friction_regressor(
                tanh_data, motion, 3, FrictionRegressorOptions<double>{CoulombModel::kTanh, 0.5}),
            Status::kOk);
  EXPECT_EQ(tanh_data.regressor[0](7, n + 1), -1.0);
  EXPECT_EQ(tanh_data.regressor[1](7, n + 1), 0.0);
}

TEST(JointFrictionRegressor, BadInputGivesItsStatusAndZeroOutputs) {
  const auto state = random_state<double>(2, 6);
  hodyn::MotionDerivatives<AMTree, 2, double> motion;
  fill_motion(state, motion);
  FrictionRegressorData<AMTree, 2, double> data;
  const auto zero = [&] {
    double s = 0.0;
    for (const auto& m : data.regressor) s += m.norm();
    return s == 0.0 && data.order == -1;
  };
  const FrictionRegressorOptions<double> smooth{CoulombModel::kTanh, 0.2};
  ASSERT_EQ(hodyn::joint_friction_regressor(data, motion, 2), Status::kOk);
  ASSERT_GT(data.regressor[2].norm(), 0.0);

  // sign at q̇ = 0: order 0 gives the column 0, higher orders do not exist
  auto rest = motion;
  rest.q[1](3) = 0.0;
  ASSERT_EQ(hodyn::joint_friction_regressor(data, rest, 0), Status::kOk);
  EXPECT_EQ(data.regressor[0](6 + 3, 6 + 3), 0.0);
  EXPECT_EQ(data.regressor[0](6 + 2, 6 + 2), motion.q[1](2) > 0 ? 1.0 : -1.0);
  EXPECT_EQ(hodyn::joint_friction_regressor(data, rest, 1), Status::kNotDifferentiable);
  EXPECT_TRUE(zero());
  EXPECT_STREQ(hodyn::to_string(Status::kNotDifferentiable), "not differentiable");
  EXPECT_EQ(hodyn::joint_friction_regressor(data, rest, 2, smooth), Status::kOk);  // tanh: fine

  // NaN where read (q^(order+1)) and not (q^(0), q^(order+2))
  auto nan = motion;
  nan.q[3](1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::joint_friction_regressor(data, nan, 2), Status::kNonFiniteInput);
  EXPECT_TRUE(zero());
  EXPECT_EQ(hodyn::joint_friction_regressor(data, nan, 1, smooth), Status::kOk);
  nan = motion;
  nan.q[0](1) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(hodyn::joint_friction_regressor(data, nan, 2, smooth), Status::kOk);

  for (double eps : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(hodyn::joint_friction_regressor(
                  data, motion, 1, FrictionRegressorOptions<double>{CoulombModel::kTanh, eps}),
              Status::kInvalidArgument);
    EXPECT_TRUE(zero());
  }
  EXPECT_EQ(
      hodyn::joint_friction_regressor(
          data, motion, 1, FrictionRegressorOptions<double>{static_cast<CoulombModel>(7), 1.0}),
      Status::kInvalidArgument);
  EXPECT_EQ(hodyn::joint_friction_regressor(data, motion, 3), Status::kOrderOutOfRange);
  EXPECT_EQ(hodyn::joint_friction_regressor(data, motion, -1), Status::kOrderOutOfRange);
  EXPECT_TRUE(zero());

  // a tiny ε: x'' = q⃛/ε overflows
  rest.q[3](3) = 1e150;
  EXPECT_EQ(hodyn::joint_friction_regressor(
                data, rest, 2, FrictionRegressorOptions<double>{CoulombModel::kTanh, 1e-200}),
            Status::kNonFiniteResult);
  EXPECT_TRUE(zero());
}

// ---------------------------------------------------------------------------
// Elastic-joint motor rows
// ---------------------------------------------------------------------------

TEST(ElasticJointMotorRegressor, RowsTimesParametersAreTheMotorEquation) {
  constexpr int n = 6;
  Worst worst{"motor_regressor_vs_motor_equation"};
  Worst link{"motor_regressor_link_side_vs_elastic_torque"};
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const auto state = random_state<double>(seed, n);
    hodyn::MotionDerivatives<AMTree, kR, double> motion;
    fill_motion(state, motion);
    MotorAngleDerivatives<AMTree, kR, double> motor;
    std::mt19937 gen(seed + 7u);
    std::normal_distribution<double> g(0.0, 1.0);
    for (auto& th : motor.theta)
      for (int i = 0; i < n; ++i) th(i) = g(gen);
    hodyn::AerialManipulatorActuation actuation;  // the defaults, made distinct per joint
    Eigen::VectorXd b(n), f(n), k_el(n), d(n);
    for (int i = 0; i < n; ++i) {
      const auto& p = actuation.joints[static_cast<std::size_t>(i)];
      b(i) = p.motor_inertia * (1.0 + 0.1 * i);
      f(i) = p.motor_friction * (1.0 + 0.2 * i);
      k_el(i) = p.stiffness * (1.0 - 0.05 * i);
      d(i) = 0.02 + 0.01 * i;  // the default D is 0: exercise its column
    }
    Eigen::VectorXd params(4 * n);
    params << b, f, k_el, d;
    MotorRegressorData<AMTree, kR, double> data;
    ASSERT_EQ(hodyn::elastic_joint_motor_regressor(data, motion, motor, kR), Status::kOk);
    EXPECT_EQ(data.order, kR);

    Eigen::MatrixXd u(n, kR + 1), tau_el(n, kR + 1);
    for (int i = 0; i < n; ++i) {
      std::array<double, kR + 3> th{}, q{};
      for (int k = 0; k <= kR + 2; ++k) {
        th[static_cast<std::size_t>(k)] = motor.theta[static_cast<std::size_t>(k)](i);
        q[static_cast<std::size_t>(k)] = motion.q[static_cast<std::size_t>(k)](i);
      }
      const Series2 theta = Series2::from_derivatives(th);
      const Series2 qi = Series2::from_derivatives(q);
      const Series2 theta_dot = theta.derivative();
      const Series2 elastic = k_el(i) * (theta - qi) + d(i) * (theta_dot - qi.derivative());
      const Series2 torque = b(i) * theta_dot.derivative() + f(i) * theta_dot + elastic;
      for (int k = 0; k <= kR; ++k) {
        u(i, k) = torque.derivative_value(k);
        tau_el(i, k) = elastic.derivative_value(k);
      }
    }
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double e = rel(data.regressor[K] * params, u.col(k));
      worst.update(k, e);
      EXPECT_LT(e, 1e-12) << "order " << k;
      const double el = rel(data.regressor[K].rightCols(2 * n) * params.tail(2 * n), tau_el.col(k));
      link.update(k, el);
      EXPECT_LT(el, 1e-12) << "order " << k;
    }
  }
  worst.report();
  link.report();
}

TEST(ElasticJointMotorRegressor, BadInputGivesItsStatusAndZeroOutputs) {
  const auto state = random_state<double>(3, 6);
  hodyn::MotionDerivatives<AMTree, 2, double> motion;
  fill_motion(state, motion);
  MotorAngleDerivatives<AMTree, 2, double> motor;
  for (auto& th : motor.theta) th.setConstant(0.5);
  MotorRegressorData<AMTree, 2, double> data;
  const auto zero = [&] {
    double s = 0.0;
    for (const auto& m : data.regressor) s += m.norm();
    return s == 0.0 && data.order == -1;
  };
  ASSERT_EQ(hodyn::elastic_joint_motor_regressor(data, motion, motor, 1), Status::kOk);
  auto bad = motor;
  bad.theta[3](2) = std::numeric_limits<double>::quiet_NaN();  // θ^(order+2) at order 1
  EXPECT_EQ(hodyn::elastic_joint_motor_regressor(data, motion, bad, 1), Status::kNonFiniteInput);
  EXPECT_TRUE(zero());
  EXPECT_EQ(hodyn::elastic_joint_motor_regressor(data, motion, bad, 0), Status::kOk);  // not read
  auto nan = motion;
  nan.q[2](0) = std::numeric_limits<double>::quiet_NaN();  // q^(order+1) at order 1
  EXPECT_EQ(hodyn::elastic_joint_motor_regressor(data, nan, motor, 1), Status::kNonFiniteInput);
  EXPECT_TRUE(zero());
  EXPECT_EQ(hodyn::elastic_joint_motor_regressor(data, nan, motor, 0), Status::kOk);
  EXPECT_EQ(hodyn::elastic_joint_motor_regressor(data, motion, motor, 3), Status::kOrderOutOfRange);
  EXPECT_TRUE(zero());
  auto big = motor;
  big.theta[0](4) = 1.5e308;
  auto far = motion;
  far.q[0](4) = -1.5e308;
  EXPECT_EQ(hodyn::elastic_joint_motor_regressor(data, far, big, 0), Status::kNonFiniteResult);
  EXPECT_TRUE(zero());
}

TEST(JointActuationRegressor, FloatBuildsAndIsHeapFree) {
  const auto state = random_state<float>(4, 6);
  hodyn::MotionDerivatives<AMTree, 2, float> motion;
  fill_motion(state, motion);
  MotorAngleDerivatives<AMTree, 2, float> motor;
  for (auto& th : motor.theta) th.setConstant(0.25f);
  FrictionRegressorData<AMTree, 2, float> friction;
  MotorRegressorData<AMTree, 2, float> rows;
  const hodyn::test::HeapProbe probe;
  for (int order = 0; order <= 2; ++order) {
    EXPECT_EQ(
        hodyn::joint_friction_regressor(friction, motion, order,
                                        FrictionRegressorOptions<float>{CoulombModel::kTanh, 0.1f}),
        Status::kOk);
    EXPECT_EQ(hodyn::elastic_joint_motor_regressor(rows, motion, motor, order), Status::kOk);
  }
  EXPECT_EQ(probe.count(), 0);
  EXPECT_EQ(friction.regressor[1](6, 0), motion.q[2](0));
}

}  // namespace
