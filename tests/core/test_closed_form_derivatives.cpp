// The closed-form equations of motion at every order (closed_form_derivatives.hpp,
// seed 001 §III-B) against
//   (a) the recursion of the same order: inverse dynamics of order n must equal
//       Σ_i C(n,i) M̄^(i) ν^(n−i+1) + h^(n) + g^(n) (seed 001 eq. 49), n = 0..5;
//   (b) the core's order-0 closed forms (equations_of_motion) run in
//       Taylor<double, 6> arithmetic along the same motion: coefficient n times
//       n! of M̄(t), C(t), g(t) is M̄^(n), C^(n), g^(n), each matrix on its own;
//   (c) equations_of_motion's own first derivatives (n = 1);
// and the composite-rigid-body recursion of M̄^(n) (mass_matrix_derivatives.hpp)
// against the dense M̄^(n) checked by (a)-(c), n = 0..5.
// Models: the aerial manipulator and the random 9-body OracleTree; stress states.
#include <hodyn/closed_form_derivatives.hpp>
#include <hodyn/hodyn.hpp>
#include <hodyn/mass_matrix_derivatives.hpp>

#include "support/heap_counter.hpp"
#include "support/oracle_models.hpp"
#include "support/reference_dynamics.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace {

using namespace hodyn::test::oracle;
using S6 = Taylor<double, 6>;

template <class Tree>
using Data = hodyn::ClosedFormDerivativesData<Tree, kR>;

template <class Tree>
void check_closed_forms(const hodyn::Model<Tree, double>& model, unsigned seed) {
  constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;
  using Vector = Eigen::Matrix<double, kDofs, 1>;
  const State<double> st = random_state<double>(seed, Tree::kNumBodies - 1);
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, kR, double>>();
  fill_motion(st, *motion);
  auto data = std::make_unique<Data<Tree>>();
  ASSERT_EQ(hodyn::closed_form_derivatives(model, *data, *motion, kR), hodyn::Status::kOk);
  EXPECT_EQ(data->order, kR);

  // (a) the recursion of the same order
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kR, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(model, *id, *motion, kR), hodyn::Status::kOk);
  const auto nu = [&](int k) {
    Vector v;
    v << st.V1[static_cast<std::size_t>(k)], st.q[static_cast<std::size_t>(k + 1)];
    return v;
  };
  for (int n = 0; n <= kR; ++n) {
    const auto N = static_cast<std::size_t>(n);
    Vector tau_bar;
    tau_bar << id->base_wrench[N], id->joint_torque[N];
    Vector sum = data->coriolis[N] + data->gravity[N];
    for (int i = 0; i <= n; ++i)
      sum += hodyn::binomial<double>(n, i) *
             (data->mass_matrix[static_cast<std::size_t>(i)] * nu(n - i + 1));
    EXPECT_LE(rel_err(sum, tau_bar), 1e-11) << "order " << n << " seed " << seed;
  }

  // The recursion of M̄^(n) on the kinematics of order kR − 1 (S^(0..kR)).
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, kR, double>>();
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, kR - 1), hodyn::Status::kOk);
  auto mm = std::make_unique<hodyn::MassMatrixDerivativesData<Tree, kR, double>>();
  {
    hodyn::test::HeapProbe probe;
    ASSERT_EQ(hodyn::mass_matrix_derivatives(model, *kin, *mm, kR), hodyn::Status::kOk);
    EXPECT_EQ(probe.count(), 0);
  }
  for (int n = 0; n <= kR; ++n) {
    const auto N = static_cast<std::size_t>(n);
    EXPECT_LE(rel_err(mm->mass_matrix[N], data->mass_matrix[N]), 1e-12)
        << "recursive M̄^(" << n << ") seed " << seed;
  }
  EXPECT_EQ(hodyn::mass_matrix_derivatives(model, *kin, *mm, kR + 1),
            hodyn::Status::kOrderOutOfRange);
  ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, 1), hodyn::Status::kOk);
  EXPECT_EQ(hodyn::mass_matrix_derivatives(model, *kin, *mm, 3), hodyn::Status::kOrderOutOfRange);
  EXPECT_TRUE(mm->mass_matrix[0].isZero());
  EXPECT_EQ(mm->order, -1);

  // (b) each matrix against the order-0 closed forms in series arithmetic
  const ref::Mat4<S6> c1 = hodyn::test::base_pose_series<S6>(st.C1, st.V1);
  const std::vector<S6> q = hodyn::test::joint_series<S6, double>(st.q);
  hodyn::MotionDerivatives<Tree, 1, S6> series;
  series.base_pose = hodyn::Pose<S6>::from_matrix(c1);
  for (int i = 0; i < 6; ++i) {
    std::vector<double> d;
    for (const auto& v : st.V1) d.push_back(v(i));
    series.base_twist[0](i) = S6::from_derivatives(d);
  }
  for (int j = 0; j < Tree::kNumBodies - 1; ++j) {
    series.q[0](j) = q[static_cast<std::size_t>(j)];
    series.q[1](j) = q[static_cast<std::size_t>(j)].derivative();
  }
  const hodyn::Model<Tree, S6> model_series = model.template cast<S6>();
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree, S6>>();
  ASSERT_EQ(hodyn::equations_of_motion(model_series, *eom, series, false), hodyn::Status::kOk);
  for (int n = 0; n <= kR; ++n) {  // exact through t^5: q̇(t) is q(t) differentiated once
    const auto N = static_cast<std::size_t>(n);
    EXPECT_LE(rel_err(data->mass_matrix[N], ref::derivative_values(eom->result.mass_matrix, n)),
              1e-12)
        << "M^(" << n << ") seed " << seed;
    EXPECT_LE(
        rel_err(data->coriolis_matrix[N], ref::derivative_values(eom->result.coriolis_matrix, n)),
        1e-11)
        << "C^(" << n << ") seed " << seed;
    EXPECT_LE(rel_err(data->gravity[N], ref::derivative_values(eom->result.gravity, n)), 1e-12)
        << "g^(" << n << ") seed " << seed;
  }

  // (c) order 0 and 1 are equations_of_motion's own results
  hodyn::MotionDerivatives<Tree, 1, double> m1;
  m1.base_pose = motion->base_pose;
  for (std::size_t k = 0; k < 2; ++k) m1.base_twist[k] = motion->base_twist[k];
  for (std::size_t k = 0; k < 3; ++k) m1.q[k] = motion->q[k];
  auto e1 = std::make_unique<hodyn::EquationsOfMotionData<Tree, double>>();
  ASSERT_EQ(hodyn::equations_of_motion(model, *e1, m1, true), hodyn::Status::kOk);
  const auto& r = e1->result;
  EXPECT_LE(rel_err(data->mass_matrix[0], r.mass_matrix), 1e-13);
  EXPECT_LE(rel_err(data->coriolis_matrix[0], r.coriolis_matrix), 1e-13);
  EXPECT_LE(rel_err(data->gravity[0], r.gravity), 1e-13);
  EXPECT_LE(rel_err(data->coriolis[0], r.coriolis), 1e-13);
  EXPECT_LE(rel_err(data->mass_matrix[1], r.mass_matrix_rate), 1e-12);
  EXPECT_LE(rel_err(data->coriolis_matrix[1], r.coriolis_matrix_rate), 1e-12);
  EXPECT_LE(rel_err(data->gravity[1], r.gravity_rate), 1e-12);
  EXPECT_LE(rel_err(data->coriolis[1], r.coriolis_rate), 1e-12);
}

TEST(ClosedFormDerivatives, AerialManipulatorAllOrders) {
  const auto model = core_aerial_manipulator();
  for (unsigned seed : {81u, 82u}) check_closed_forms<AMTree>(model, seed);
}

TEST(ClosedFormDerivatives, RandomTreeAllOrders) {
  for (unsigned seed : {11u, 12u}) {
    const auto tree = random_reference_tree<OracleTree, double>(seed);
    check_closed_forms<OracleTree>(core_model<OracleTree>(tree), seed + 200);
  }
}

TEST(ClosedFormDerivatives, HelicalTreeAllOrders) {  // issue 19: screw joints
  for (unsigned seed : {13u, 14u}) {
    const auto tree = random_reference_tree<HelicalTree, double>(seed);
    check_closed_forms<HelicalTree>(core_model<HelicalTree>(tree), seed + 200);
  }
}

TEST(ClosedFormDerivatives, BadInputGivesStatusAndZeroOutputs) {
  const auto model = core_aerial_manipulator();
  auto motion = std::make_unique<hodyn::MotionDerivatives<AMTree, kR, double>>();
  auto data = std::make_unique<Data<AMTree>>();
  ASSERT_EQ(hodyn::closed_form_derivatives(model, *data, *motion, 2), hodyn::Status::kOk);
  EXPECT_GT(data->mass_matrix[0].norm(), 1.0);
  EXPECT_EQ(hodyn::closed_form_derivatives(model, *data, *motion, kR + 1),
            hodyn::Status::kOrderOutOfRange);
  EXPECT_TRUE(data->mass_matrix[0].isZero());
  EXPECT_EQ(data->order, -1);
  motion->q[3](2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::closed_form_derivatives(model, *data, *motion, 1),
            hodyn::Status::kNonFiniteInput);
  EXPECT_TRUE(data->gravity[0].isZero());
}

}  // namespace
