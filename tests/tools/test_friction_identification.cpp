// Joint friction in the momentum identification (hodyn/identification/
// momentum_identification.hpp with a BaseParameters carrying friction columns,
// base_parameters.hpp): a synthetic 1 kHz log of the 12-DoF robot, base held
// in place (hovering: its wrench is inverse dynamics' base rows), the six
// joints on sines of distinct frequencies (q̇ changes sign), and joint torques
// = inverse dynamics + f_v q̇ + f_c sign(q̇) written here with known f_v, f_c.
// The estimate must recover f_v and f_c; the inertial parameters are the
// model's (plant = model), so their estimate must stay at them. Without the
// friction columns the same log is fitted worse (the friction is unexplained).
#include <hodyn/identification/base_parameters.hpp>
#include <hodyn/identification/momentum_identification.hpp>
#include <hodyn/inverse_dynamics.hpp>
#include <hodyn/models/aerial_manipulator.hpp>

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

using namespace hodyn;
using namespace hodyn::identification;
using Tree = AerialManipulatorTree;
constexpr int kJoints = TreeTraits<Tree>::kNumJoints;

struct Friction {
  Eigen::VectorXd viscous, coulomb;
};

/// The log: t in [0, duration) at 1 kHz.
std::vector<LogSample> synthetic_log(const Model<Tree, double>& model, const Friction& f,
                                     double duration) {
  auto id = std::make_unique<InverseDynamicsData<Tree, 0, double>>();
  MotionDerivatives<Tree, 0, double> motion;
  motion.base_pose.rotation =
      Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  motion.base_pose.translation = Eigen::Vector3d(0.3, -0.2, 1.5);
  const Eigen::Matrix3d r = motion.base_pose.rotation;
  const Eigen::Vector3d p = motion.base_pose.translation;
  std::vector<LogSample> log;
  const double dt = 1e-3;
  for (int k = 0; k * dt < duration; ++k) {
    const double t = k * dt;
    for (int i = 0; i < kJoints; ++i) {
      const double a = 0.6 + 0.1 * i, w = 2.0 + 0.7 * i, phase = 0.5 * i;
      motion.q[0](i) = a * std::sin(w * t + phase);
      motion.q[1](i) = a * w * std::cos(w * t + phase);
      motion.q[2](i) = -a * w * w * std::sin(w * t + phase);
    }
    EXPECT_EQ(inverse_dynamics(model, *id, motion, 0), Status::kOk);
    LogSample s;
    s.time = t;
    s.position = p;
    s.attitude = Eigen::Quaterniond(r);
    s.q = motion.q[0];
    s.q_dot = motion.q[1];
    s.joint_torque = id->joint_torque[0];
    for (int i = 0; i < kJoints; ++i) {
      const double v = s.q_dot(i);
      s.joint_torque(i) += f.viscous(i) * v + f.coulomb(i) * (v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0);
    }
    // Q₁ (world, about the origin) back to the base-frame propulsion wrench.
    const Eigen::Vector3d n_world = id->base_wrench[0].head<3>();
    const Eigen::Vector3d f_world = id->base_wrench[0].tail<3>();
    s.propulsion_wrench << r.transpose() * (n_world - p.cross(f_world)), r.transpose() * f_world;
    log.push_back(s);
  }
  return log;
}

TEST(FrictionIdentification, RecoversViscousAndCoulombFrictionFromTheMomentumBalance) {
  AerialManipulatorModel<double> model;
  ASSERT_EQ(make_aerial_manipulator(model), Status::kOk);
  Friction truth{Eigen::VectorXd(kJoints), Eigen::VectorXd(kJoints)};
  for (int i = 0; i < kJoints; ++i) {
    truth.viscous(i) = 0.02 + 0.01 * i;   // N m s/rad
    truth.coulomb(i) = 0.05 + 0.015 * i;  // N m
  }
  const std::vector<LogSample> log = synthetic_log(model, truth, 6.0);
  BaseParameterOptions options;
  options.friction.viscous = true;
  options.friction.coulomb = true;
  BaseParameters bp, rigid;
  ASSERT_EQ(compute_base_parameters(model, options, bp), Status::kOk);
  ASSERT_EQ(compute_base_parameters(model, BaseParameterOptions{}, rigid), Status::kOk);
  ASSERT_EQ(bp.rank, rigid.rank + 2 * kJoints);
  MomentumIdentificationOptions o;
  o.window = 0.2;
  MomentumIdentificationResult result;
  ASSERT_EQ(identify_base_parameters(model, bp, log, o, result), Status::kOk);
  ASSERT_EQ(result.least_squares.size(), bp.rank);

  // The friction β are the friction parameters (base_parameters: no regrouping).
  double worst_viscous = 0.0, worst_coulomb = 0.0;
  for (int i = 0; i < 2 * kJoints; ++i) {
    const int beta = rigid.rank + i;
    ASSERT_EQ(bp.permutation[static_cast<std::size_t>(beta)], 70 + i);
    const bool viscous = i < kJoints;
    const double want = viscous ? truth.viscous(i) : truth.coulomb(i - kJoints);
    const double e = std::abs(result.least_squares(beta) - want) / want;
    (viscous ? worst_viscous : worst_coulomb) =
        std::max(viscous ? worst_viscous : worst_coulomb, e);
    EXPECT_LT(e, 0.01) << base_parameter_name(bp, beta);
    EXPECT_NEAR(result.consistent(beta), result.least_squares(beta), 1e-9 * want);
  }
  // The inertial β stay at the model's (= the plant's).
  Eigen::VectorXd pi(bp.num_parameters);
  pi << parameter_vector(model), truth.viscous, truth.coulomb;
  const Eigen::VectorXd beta_true = base_parameter_values(bp, pi);
  const double inertial_error =
      (result.least_squares.head(rigid.rank) - beta_true.head(rigid.rank)).norm() /
      beta_true.head(rigid.rank).norm();
  EXPECT_LT(inertial_error, 1e-3);
  std::printf(
      "friction identification (6 s, 1 kHz, 0.2 s windows): worst relative error viscous %.3g, "
      "Coulomb %.3g; inertial beta %.3g (normwise); residual relative %.3g\n",
      worst_viscous, worst_coulomb, inertial_error, result.residual_relative);

  // Without the friction columns the same log is explained worse.
  MomentumIdentificationResult without;
  ASSERT_EQ(identify_base_parameters(model, rigid, log, o, without), Status::kOk);
  EXPECT_GT(without.residual_relative, 10.0 * result.residual_relative);
  std::printf("residual relative without friction columns %.3g\n", without.residual_relative);

  // A friction BaseParameters of another size is refused.
  BaseParameters wrong = bp;
  wrong.friction.coulomb = false;
  EXPECT_EQ(identify_base_parameters(model, wrong, log, o, result), Status::kInvalidArgument);
}

}  // namespace
