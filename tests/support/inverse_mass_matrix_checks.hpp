// Checks of inverse_mass_matrix shared by the tests of trees with multi-DoF
// joints (test_spherical_joint_inverse_mass_matrix.cpp,
// test_universal_joint_inverse_mass_matrix.cpp): M̄⁻¹ against M̄ of the CRBA
// and Eigen's LDLᵀ inverse of it, and ν̇ = M̄⁻¹ τ̄ against forward dynamics.
#pragma once

#include <hodyn/hodyn.hpp>
#include <hodyn/inverse_mass_matrix.hpp>

#include "support/error_metrics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <algorithm>
#include <memory>

namespace hodyn {
namespace test {

/// M̄ of the CRBA (`mass_matrix` on a MotionDerivatives) at c.
template <class Tree, int MO>
Eigen::MatrixXd crba_mass_matrix(const Model<Tree, double>& model,
                                 const MotionDerivatives<Tree, MO, double>& c) {
  auto eom = std::make_unique<EquationsOfMotionData<Tree, double>>();
  EXPECT_EQ(mass_matrix(model, *eom, c), Status::kOk);
  return eom->result.mass_matrix;
}

struct InverseErrors {
  double identity = 0;       ///< max |M̄⁻¹ M̄ − I| over both products
  double vs_ldlt = 0;        ///< max |M̄⁻¹ − LDLᵀ⁻¹| / max |LDLᵀ⁻¹|
  double ldlt_identity = 0;  ///< the LDLᵀ inverse's own max |M̄⁻¹ M̄ − I|, for scale
};

/// M̄⁻¹ (minv) against M̄ (mass, from the CRBA): the products with it and
/// Eigen's LDLᵀ inverse (M̄ positive definite expected).
inline InverseErrors inverse_errors(const Eigen::MatrixXd& minv, const Eigen::MatrixXd& mass) {
  const Eigen::MatrixXd eye = Eigen::MatrixXd::Identity(mass.rows(), mass.cols());
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(mass);
  EXPECT_EQ(ldlt.info(), Eigen::Success);
  EXPECT_TRUE(ldlt.isPositive());
  const Eigen::MatrixXd dense = ldlt.solve(eye);
  return {std::max(max_abs(minv * mass - eye), max_abs(mass * minv - eye)),
          max_abs(minv - dense) / max_abs(dense),
          std::max(max_abs(dense * mass - eye), max_abs(mass * dense - eye))};
}

inline InverseErrors worst_of(const InverseErrors& a, const InverseErrors& b) {
  return {std::max(a.identity, b.identity), std::max(a.vs_ldlt, b.vs_ldlt),
          std::max(a.ldlt_identity, b.ldlt_identity)};
}

/// max |ν̇ − M̄⁻¹ τ̄| / max |M̄⁻¹ τ̄| for τ̄ = tau at the configuration c
/// (base_pose, q[0], joint_rotation): forward dynamics with velocities zero
/// of `model`, whose gravity must be zero.
template <class Tree, int MO>
double forward_dynamics_error(const Model<Tree, double>& model,
                              const MotionDerivatives<Tree, MO, double>& c,
                              const Eigen::Matrix<double, TreeTraits<Tree>::kNumDofs, 1>& tau) {
  constexpr int n = TreeTraits<Tree>::kNumDofs;
  constexpr int nj = TreeTraits<Tree>::kNumJointDofs;
  constexpr int base = TreeTraits<Tree>::kBaseDofs;
  auto imma = std::make_unique<InverseMassMatrixData<Tree, double>>();
  auto fd = std::make_unique<ForwardDynamicsData<Tree, 0, double>>();
  auto in = std::make_unique<ForwardDynamicsInput<Tree, 0, double>>();
  EXPECT_EQ(inverse_mass_matrix(model, *imma, c), Status::kOk);
  in->base_pose = c.base_pose;
  in->q = c.q[0];
  in->joint_rotation = c.joint_rotation;
  if constexpr (base > 0) in->base_wrench[0] = tau.template head<6>();
  in->joint_torque[0] = tau.template tail<nj>();
  EXPECT_EQ(forward_dynamics(model, *fd, *in, 0), Status::kOk);
  Eigen::Matrix<double, n, 1> nu_dot;
  if constexpr (base > 0) nu_dot.template head<6>() = fd->motion.base_twist[1];
  nu_dot.template tail<nj>() = fd->motion.q[2];
  const Eigen::Matrix<double, n, 1> expected = imma->result * tau;
  return (nu_dot - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff();
}

}  // namespace test
}  // namespace hodyn
