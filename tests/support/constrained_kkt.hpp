// Dense KKT solves of the constrained equations of motion, the oracles of
// the constrained-dynamics tests of trees with multi-DoF joints
// (test_spherical_joint_*.cpp, test_universal_joint_constrained_dynamics.cpp):
//   M̄ ν̇ + b = τ̄ + Aᵀ λ,   A ν̇ = −Ȧ ν,
// M̄, b, A and Ȧ ν given as dense matrices (from the CRBA or inverse dynamics
// and loop_closure_kinematics), solved by Eigen's full-pivoting LU.
#pragma once

#include <hodyn/hodyn.hpp>

#include <Eigen/Dense>

#include <cstddef>
#include <vector>

namespace hodyn {
namespace test {

/// Forward dynamics: (ν̇; λ) of [M̄ −Aᵀ; A 0](ν̇; λ) = (τ̄ − b; −Ȧν).
inline Eigen::VectorXd constrained_forward_kkt(const Eigen::MatrixXd& mass,
                                               const Eigen::VectorXd& force_minus_bias,
                                               const Eigen::MatrixXd& a,
                                               const Eigen::VectorXd& a_dot_nu) {
  const auto n = mass.rows();
  const auto m = a.rows();
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
  kkt.topLeftCorner(n, n) = mass;
  kkt.topRightCorner(n, m) = -a.transpose();
  kkt.bottomLeftCorner(m, n) = a;
  Eigen::VectorXd rhs(n + m);
  rhs.head(n) = force_minus_bias;
  rhs.tail(m) = -a_dot_nu;
  return kkt.fullPivLu().solve(rhs);
}

/// What a hybrid-dynamics input gives, per entry of ν: prescribed (u: the
/// base's six when its motion is given, a joint's entries when its body's
/// motion_prescribed is set — a ball's three or a universal joint's two
/// together), its ν̇ and its τ̄.
struct HybridKnowns {
  std::vector<bool> u;
  Eigen::VectorXd acceleration, force;
};
template <class Tree>
HybridKnowns hybrid_knowns(const HybridDynamicsInput<Tree, 0, double>& in) {
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  constexpr int n = TreeTraits<Tree>::kNumDofs;
  HybridKnowns k{std::vector<bool>(n), Eigen::VectorXd::Zero(n), Eigen::VectorXd::Zero(n)};
  for (int l = 0; l < kBase; ++l) {
    k.u[static_cast<std::size_t>(l)] = in.base_input == BaseInput::kMotion;
    k.acceleration(l) = in.base_acceleration[0](l);
    k.force(l) = in.base_wrench[0](l);
  }
  for (int e = 0; e < TreeTraits<Tree>::kNumJointDofs; ++e) {
    k.u[static_cast<std::size_t>(kBase + e)] =
        in.motion_prescribed[static_cast<std::size_t>(TreeTraits<Tree>::dof_body(kBase + e) - 1)];
    k.acceleration(kBase + e) = in.joint_acceleration[0](e);
    k.force(kBase + e) = in.joint_torque[0](e);
  }
  return k;
}

/// Hybrid dynamics: entry l prescribed (k.u[l]) has its ν̇_l = k.acceleration(l)
/// and an unknown τ̄_l, a free one its τ̄_l = k.force(l) and an unknown ν̇_l;
/// fills the whole ν̇, τ̄ and λ.
struct HybridKktSolution {
  Eigen::VectorXd acceleration, force, multiplier;
};
inline HybridKktSolution constrained_hybrid_kkt(const Eigen::MatrixXd& mass,
                                                const Eigen::VectorXd& bias,
                                                const Eigen::MatrixXd& a,
                                                const Eigen::VectorXd& a_dot_nu,
                                                const HybridKnowns& k) {
  const std::vector<bool>& u = k.u;
  const Eigen::VectorXd& known_acc = k.acceleration;
  const Eigen::VectorXd& known_force = k.force;
  const auto n = mass.rows();
  const auto m = a.rows();
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + m);
  rhs.head(n) = -bias;
  rhs.tail(m) = -a_dot_nu;
  for (Eigen::Index l = 0; l < n; ++l) {
    if (u[static_cast<std::size_t>(l)]) {
      kkt(l, l) = -1.0;  // −τ̄_l
      rhs.head(n) -= mass.col(l) * known_acc(l);
      rhs.tail(m) -= a.col(l) * known_acc(l);
    } else {
      kkt.col(l).head(n) = mass.col(l);
      kkt.col(l).tail(m) = a.col(l);
      rhs(l) += known_force(l);
    }
  }
  kkt.topRightCorner(n, m) = -a.transpose();
  const Eigen::VectorXd x = kkt.fullPivLu().solve(rhs);
  HybridKktSolution s{Eigen::VectorXd(n), Eigen::VectorXd(n), x.tail(m)};
  for (Eigen::Index l = 0; l < n; ++l) {
    const bool p = u[static_cast<std::size_t>(l)];
    s.acceleration(l) = p ? known_acc(l) : x(l);
    s.force(l) = p ? x(l) : known_force(l);
  }
  return s;
}

}  // namespace test
}  // namespace hodyn
