// Base parameters (tools/identification, hodyn/identification/base_parameters.hpp,
// issue 18 item 3): the rank of the 12-DoF robot and of fixed-base chains
// against the regrouping rules, Y_b β = Y π on new states, the combination's
// independence of the seed, β two ways.
#include <hodyn/identification/base_parameters.hpp>
#include <hodyn/inertial_parameters.hpp>
#include <hodyn/models/aerial_manipulator.hpp>

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <memory>
#include <random>

namespace {

using namespace hodyn;
using namespace hodyn::identification;

/// A fixed-base planar 2R arm: both joints about z, link 0.4 m, body frames off
/// the axes (at the links' centres of mass, rotated), general inertias.
struct PlanarTwoLinkTree {
  static constexpr int kNumBodies = 3;
  static constexpr std::array<int, kNumBodies> kParent{-1, 0, 1};
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFixedBase, JointKind::kRevoluteZ, JointKind::kRevoluteZ};
};

Model<PlanarTwoLinkTree, double> planar_two_link(const Vector3<double>& gravity) {
  Model<PlanarTwoLinkTree, double> m;
  EXPECT_EQ(m.set_gravity(gravity), Status::kOk);
  Matrix3<double> inertia;
  inertia << 0.02, 0.001, 0.002, 0.001, 0.03, 0.003, 0.002, 0.003, 0.025;
  const auto body =
      SpatialInertia<double>::from_mass_com_inertia(1.0, Vector3<double>(0.01, 0.02, 0.0), inertia);
  EXPECT_EQ(m.set_body(0, Pose<double>::identity(), body), Status::kOk);
  for (int j = 1; j <= 2; ++j) {
    Pose<double> pose;
    pose.rotation =
        Eigen::AngleAxisd(0.3 * j, Eigen::Vector3d(1.0, 2.0, 0.5).normalized()).toRotationMatrix();
    pose.translation = Vector3<double>(0.4 * (j - 1) + 0.2, 0.05, 0.1 * j);
    EXPECT_EQ(m.set_body(j, pose,
                         SpatialInertia<double>::from_mass_com_inertia(
                             0.5 + 0.2 * j, Vector3<double>(0.03, -0.01, 0.02), inertia)),
              Status::kOk);
    EXPECT_EQ(
        m.set_revolute_axis(j, Vector3<double>::UnitZ(), Vector3<double>(0.4 * (j - 1), 0, 0)),
        Status::kOk);
  }
  return m;
}

AerialManipulatorModel<double> aerial_manipulator() {
  AerialManipulatorModel<double> m;
  EXPECT_EQ(make_aerial_manipulator(m), Status::kOk);
  return m;
}

/// Y π and Y_b β on `count` states the computation never saw (another seed).
template <class Tree>
double worst_base_form_error(const Model<Tree, double>& model, const BaseParameters& bp,
                             RegressorRows rows, std::uint64_t seed, int count) {
  const Eigen::VectorXd pi = parameter_vector(model);
  const Eigen::VectorXd beta = base_parameter_values(bp, pi);
  auto data = std::make_unique<RegressorData<Tree, 0, double>>();
  std::mt19937_64 gen(seed);
  MotionDerivatives<Tree, 0, double> motion;
  double worst = 0.0;
  Eigen::MatrixXd y;
  for (int k = 0; k < count; ++k) {
    random_motion<Tree, 0>(gen, BaseParameterOptions{}, motion);
    EXPECT_EQ(regressor_rows(model, *data, motion, rows, y), Status::kOk);
    const Eigen::VectorXd full = y * pi;
    const Eigen::VectorXd base = base_regressor(bp, y) * beta;
    worst = std::max(worst, (full - base).norm() / std::max(full.norm(), 1e-300));
  }
  return worst;
}

// The 12-DoF robot: floating base (10 identifiable) and six revolute joints
// without parallel or intersecting consecutive axes (7 each: a revolute
// link's m, its first moment along the axis and one diagonal inertia regroup
// into its parent, Khalil & Dombre ch. 12) → 10 + 6 · 7 = 52.
TEST(BaseParameters, AerialManipulatorRankIsFiftyTwo) {
  const auto model = aerial_manipulator();
  BaseParameters bp;
  ASSERT_EQ(compute_base_parameters(model, BaseParameterOptions{}, bp), Status::kOk);
  EXPECT_EQ(bp.num_parameters, 70);
  EXPECT_EQ(bp.rank, 52);
  // A clear gap around the tolerance.
  EXPECT_GT(bp.smallest_kept_pivot, 1e-5);
  EXPECT_LT(bp.largest_dropped_pivot, 1e-12);
  EXPECT_LT(worst_base_form_error(model, bp, RegressorRows::kAll, 99, 50), 1e-10);
}

// Planar 2R, gravity in the plane: per link Izz about the axis and the two
// in-plane first moments (link 1's absorbing link 2's mass) → 6; joint
// torques only. Gravity along the axes: link 1's first moments never act → 4.
TEST(BaseParameters, FixedBasePlanarChain) {
  BaseParameterOptions o;
  o.rows = RegressorRows::kJointsOnly;
  BaseParameters in_plane, along_axis;
  const auto m1 = planar_two_link(Vector3<double>(0.0, -9.81, 0.0));
  const auto m2 = planar_two_link(Vector3<double>(0.0, 0.0, -9.81));
  ASSERT_EQ(compute_base_parameters(m1, o, in_plane), Status::kOk);
  ASSERT_EQ(compute_base_parameters(m2, o, along_axis), Status::kOk);
  EXPECT_EQ(in_plane.rank, 6);
  EXPECT_EQ(along_axis.rank, 4);
  EXPECT_LT(worst_base_form_error(m1, in_plane, RegressorRows::kJointsOnly, 7, 50), 1e-10);
  EXPECT_LT(worst_base_form_error(m2, along_axis, RegressorRows::kJointsOnly, 7, 50), 1e-10);
  // With the mount's wrench rows, the base body's m and h become visible too.
  BaseParameters all;
  ASSERT_EQ(compute_base_parameters(m1, BaseParameterOptions{}, all), Status::kOk);
  EXPECT_GT(all.rank, in_plane.rank);
  EXPECT_LT(worst_base_form_error(m1, all, RegressorRows::kAll, 7, 50), 1e-10);
}

TEST(BaseParameters, CombinationDoesNotDependOnTheSeed) {
  const auto model = aerial_manipulator();
  BaseParameterOptions a, b;
  b.seed = 12345;
  b.num_states = 150;
  BaseParameters pa, pb;
  ASSERT_EQ(compute_base_parameters(model, a, pa), Status::kOk);
  ASSERT_EQ(compute_base_parameters(model, b, pb), Status::kOk);
  ASSERT_EQ(pa.rank, pb.rank);
  // The independent set is chosen in π order, so the set and K_d are the
  // model's, whatever the random states.
  ASSERT_EQ(pa.permutation, pb.permutation);
  const double change = (pa.combination - pb.combination).cwiseAbs().maxCoeff();
  EXPECT_LT(change, 1e-9);
  std::printf("seed 1 (200 states) vs seed 12345 (150 states): max |dK_d| %.3g\n", change);
  // A third: 40 states only.
  BaseParameterOptions c;
  c.seed = 7;
  c.num_states = 40;
  BaseParameters pc;
  ASSERT_EQ(compute_base_parameters(model, c, pc), Status::kOk);
  ASSERT_EQ(pa.permutation, pc.permutation);
  EXPECT_LT((pa.combination - pc.combination).cwiseAbs().maxCoeff(), 1e-9);
}

// β = B π, and β as the least-squares solution of Y_b β = Y π over new states.
TEST(BaseParameters, BetaTwoWays) {
  const auto model = aerial_manipulator();
  BaseParameters bp;
  ASSERT_EQ(compute_base_parameters(model, BaseParameterOptions{}, bp), Status::kOk);
  const Eigen::VectorXd pi = parameter_vector(model);
  const Eigen::VectorXd beta = base_parameter_values(bp, pi);
  auto data = std::make_unique<RegressorData<AerialManipulatorTree, 0, double>>();
  std::mt19937_64 gen(4242);
  MotionDerivatives<AerialManipulatorTree, 0, double> motion;
  const int states = 80, rows = 12;
  Eigen::MatrixXd yb(states * rows, bp.rank);
  Eigen::VectorXd rhs(states * rows);
  Eigen::MatrixXd y;
  for (int k = 0; k < states; ++k) {
    random_motion<AerialManipulatorTree, 0>(gen, BaseParameterOptions{}, motion);
    ASSERT_EQ(regressor_rows(model, *data, motion, RegressorRows::kAll, y), Status::kOk);
    yb.middleRows(k * rows, rows) = base_regressor(bp, y);
    rhs.segment(k * rows, rows) = y * pi;
  }
  const Eigen::VectorXd fitted = yb.colPivHouseholderQr().solve(rhs);
  EXPECT_LT((fitted - beta).norm() / beta.norm(), 1e-10);
  // The total mass is identifiable (the base wrench's force row at rest in
  // gravity is m g): Σ m_j is a combination of the β, i.e. the selector of
  // the masses lies in the row space of B. Body 3's Iyy alone is not (a
  // z-axis wrist: its Ixx, Iyy only through Ixx − Iyy).
  Eigen::VectorXd masses = Eigen::VectorXd::Zero(70);
  for (int j = 0; j < 7; ++j) masses(10 * j) = 1.0;
  const Eigen::MatrixXd bt = bp.base_map.transpose();
  const Eigen::VectorXd c = bt.colPivHouseholderQr().solve(masses);
  EXPECT_LT((bt * c - masses).norm(), 1e-9);
  Eigen::VectorXd wrist_iyy = Eigen::VectorXd::Zero(70);
  wrist_iyy(30 + 6) = 1.0;
  const Eigen::VectorXd c2 = bt.colPivHouseholderQr().solve(wrist_iyy);
  EXPECT_GT((bt * c2 - wrist_iyy).norm(), 0.1);
}

TEST(BaseParameters, BadInput) {
  BaseParameters bp;
  EXPECT_EQ(base_parameters_from_stack(Eigen::MatrixXd(), 1e-8, bp), Status::kInvalidArgument);
  Eigen::MatrixXd w = Eigen::MatrixXd::Ones(4, 3);
  w(1, 1) = std::nan("");
  EXPECT_EQ(base_parameters_from_stack(w, 1e-8, bp), Status::kInvalidArgument);
  EXPECT_EQ(base_parameters_from_stack(Eigen::MatrixXd::Zero(4, 3), 1e-8, bp),
            Status::kInvalidArgument);
  EXPECT_EQ(base_parameters_from_stack(Eigen::MatrixXd::Ones(4, 3), 0.0, bp),
            Status::kInvalidArgument);
  BaseParameterOptions o;
  o.num_states = 0;
  EXPECT_EQ(compute_base_parameters(aerial_manipulator(), o, bp), Status::kInvalidArgument);
  EXPECT_EQ(bp.rank, 0);
  EXPECT_EQ(base_parameter_values(bp, Eigen::VectorXd::Ones(70)).size(), 0);
}

// Friction columns (hodyn/joint_actuation_regressor.hpp) after the inertial
// ones: every f_v and f_c of the 12-DoF robot is identifiable on its own
// (column i lives in row τ_i only and varies with q̇_i independently of the
// links), so the rank grows by n per kind, the inertial part of the
// independent set and of K_d is unchanged, and Y_b β = [Y Y_f] (π; f_v; f_c)
// on new states.
TEST(BaseParameters, FrictionColumnsAddOneBaseParameterEach) {
  const auto model = aerial_manipulator();
  constexpr int n = 6;
  BaseParameters rigid, both, viscous;
  ASSERT_EQ(compute_base_parameters(model, BaseParameterOptions{}, rigid), Status::kOk);
  BaseParameterOptions o;
  o.friction.viscous = true;
  o.friction.coulomb = true;
  ASSERT_EQ(compute_base_parameters(model, o, both), Status::kOk);
  EXPECT_EQ(both.num_parameters, 70 + 2 * n);
  EXPECT_EQ(both.num_inertial_parameters, 70);
  EXPECT_EQ(both.rank, rigid.rank + 2 * n);
  EXPECT_GT(both.smallest_kept_pivot, 1e-5);
  EXPECT_LT(both.largest_dropped_pivot, 1e-12);
  // The inertial columns keep their independent set and combinations; the
  // friction parameters are base parameters themselves (no regrouping).
  for (int i = 0; i < rigid.rank; ++i)
    EXPECT_EQ(both.permutation[static_cast<std::size_t>(i)],
              rigid.permutation[static_cast<std::size_t>(i)]);
  for (int i = 0; i < 2 * n; ++i) {
    const int beta = rigid.rank + i;
    EXPECT_EQ(both.permutation[static_cast<std::size_t>(beta)], 70 + i);
    EXPECT_LT(both.combination.row(beta).cwiseAbs().maxCoeff(), 1e-9);
  }
  EXPECT_EQ(base_parameter_name(both, rigid.rank), "joint1.fv");
  EXPECT_EQ(base_parameter_name(both, rigid.rank + n + 2), "joint3.fc");

  // Y_b β = [Y Y_f] (π; f_v; f_c) on states the computation never saw.
  Eigen::VectorXd extended(70 + 2 * n);
  extended << parameter_vector(model), Eigen::VectorXd::LinSpaced(2 * n, 0.05, 0.6);
  const Eigen::VectorXd beta = base_parameter_values(both, extended);
  ASSERT_EQ(beta.size(), both.rank);
  auto data = std::make_unique<RegressorData<AerialManipulatorTree, 0, double>>();
  auto friction = std::make_unique<FrictionRegressorData<AerialManipulatorTree, 0, double>>();
  std::mt19937_64 gen(99);
  MotionDerivatives<AerialManipulatorTree, 0, double> motion;
  Eigen::MatrixXd y;
  double worst = 0.0;
  for (int k = 0; k < 50; ++k) {
    random_motion<AerialManipulatorTree, 0>(gen, BaseParameterOptions{}, motion);
    ASSERT_EQ(extended_regressor_rows(model, *data, *friction, motion, RegressorRows::kAll,
                                      o.friction, y),
              Status::kOk);
    ASSERT_EQ(y.cols(), 70 + 2 * n);
    // the friction torque written out, against the appended columns
    Eigen::VectorXd tau_f(n);
    for (int i = 0; i < n; ++i)
      tau_f(i) = extended(70 + i) * motion.q[1](i) +
                 extended(70 + n + i) * (motion.q[1](i) > 0 ? 1.0 : -1.0);
    Eigen::VectorXd want = y.leftCols(70) * extended.head(70);
    want.tail(n) += tau_f;
    EXPECT_LT((y * extended - want).norm(), 1e-12 * want.norm());
    const Eigen::VectorXd base = base_regressor(both, y) * beta;
    worst = std::max(worst, (want - base).norm() / want.norm());
  }
  EXPECT_LT(worst, 1e-10);

  // Viscous only: n more columns, named .fv.
  BaseParameterOptions ov;
  ov.friction.viscous = true;
  ASSERT_EQ(compute_base_parameters(model, ov, viscous), Status::kOk);
  EXPECT_EQ(viscous.num_parameters, 70 + n);
  EXPECT_EQ(viscous.rank, rigid.rank + n);
  EXPECT_EQ(base_parameter_name(viscous, rigid.rank + n - 1), "joint6.fv");
}

}  // namespace
