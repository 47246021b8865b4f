// hodyn/constrained_inverse_dynamics_rate.hpp — the first time derivative of
// constrained inverse dynamics (beyond seed 002), heap-free.
//
// constrained_inverse_dynamics (constrained_dynamics.hpp) chooses λ by a
// least-squares problem; each choice is the solution of a linear KKT system
// whose derivative has the same matrix, so the factors of the order-0 solve
// give λ̇ (d = τ_pr − τ_p, A = [A_a A_p] by columns):
//   least ‖λ − λ_c‖:  [1 A_p; A_pᵀ 0] (λ; μ) = (λ_c; d)
//       (λ̇; μ̇) from (λ̇_c − Ȧ_p μ;  ḋ − Ȧ_pᵀ λ),
//   least ‖τ_a‖:      [H A_p; A_pᵀ 0] (λ; μ) = (A_a τ_ar; d),  H = A_a A_aᵀ,
//       (λ̇; μ̇) from (Ȧ_a τ_a + A_a (τ̇_ar − Ȧ_aᵀ λ) − Ȧ_p μ;  ḋ − Ȧ_pᵀ λ),
// solved on null(A_pᵀ) with the Householder factors of A_p (λ̇ = Q₁R⁻ᵀ r₂ + Q₂ s,
// Q₂ᵀ H Q₂ = BᵀB with B = A_aᵀ Q₂). Then τ̇_a = τ̇_ar − Ȧ_aᵀ λ − A_aᵀ λ̇ and the
// passive entries are the given rates. τ̄̇_r is inverse dynamics of order 1 and
// Ȧ comes from loop_closure_kinematics. Least effort needs B of full column
// rank (the effort decides λ alone; else kSingularConstraint: the order-0
// tie-break toward λ_c is not differentiated).
#pragma once

#include <array>
#include <cstddef>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "hodyn/constrained_dynamics.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// Rates of the passive forces and of λ_c (zero by default).
template <class Tree, std::size_t NumClosures, class Scalar = double>
struct ConstrainedInverseDynamicsRates {
  using Vector = Eigen::Matrix<Scalar, TreeTraits<Tree>::kNumDofs, 1>;
  using Multipliers = typename LoopClosureData<Tree, NumClosures, 0, Scalar>::Vector;
  Vector passive_force_rate = Vector::Zero();  ///< τ̇_p (entries of actuated coordinates not read)
  Multipliers commanded_multiplier_rate{};     ///< λ̇_c: empty for zero, or one entry per row
};

/// Workspace and results of constrained_inverse_dynamics_rate.
template <class Tree, std::size_t NumClosures, class Scalar = double>
struct ConstrainedInverseDynamicsRateData {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  using Closure = LoopClosureData<Tree, NumClosures, 0, Scalar>;
  using Vector = Eigen::Matrix<Scalar, kDofs, 1>;
  using Multipliers = typename Closure::Vector;
  static constexpr int kRows = Closure::kRowCapacity;

  // ---- results ----
  Vector generalized_force = Vector::Zero();       ///< τ̄ (as constrained_inverse_dynamics)
  Vector generalized_force_rate = Vector::Zero();  ///< τ̄̇
  Multipliers multiplier{};                        ///< λ
  Multipliers multiplier_rate{};                   ///< λ̇

  // ---- workspace ----
  Closure closure{};  ///< A = jacobian[0], Ȧ = jacobian[1]
  KinematicsData<Tree, 0, Scalar> kinematics{};
  InverseDynamicsData<Tree, 1, Scalar> inverse{};
  detail::ConstraintForceSolver<Tree, NumClosures, Scalar> solver{};
  Eigen::LLT<Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kRows, kRows>>
      reduced_factor{};

  ConstrainedInverseDynamicsRateData() { clear_results(); }
  void clear_results() {
    generalized_force.setZero();
    generalized_force_rate.setZero();
    multiplier.resize(0);
    multiplier_rate.resize(0);
  }
};

/// τ̄, λ and their first time derivatives for the motion's base_pose,
/// base_twist[0..2] and q[0..3] (ν, ν̇, ν̈); `options` as for
/// constrained_inverse_dynamics, `rates` the rates of its given quantities.
template <std::size_t NumClosures, class Tree, class Scalar>
Status constrained_inverse_dynamics_rate(
    const Model<Tree, Scalar>& model, const std::array<LoopClosure<Scalar>, NumClosures>& closures,
    const MotionDerivatives<Tree, 1, Scalar>& motion,
    const ConstrainedInverseDynamicsOptions<Tree, NumClosures, Scalar>& options,
    const ConstrainedInverseDynamicsRates<Tree, NumClosures, Scalar>& rates,
    ConstrainedInverseDynamicsRateData<Tree, NumClosures, Scalar>& data) noexcept {
  using Data = ConstrainedInverseDynamicsRateData<Tree, NumClosures, Scalar>;
  using Multipliers = typename Data::Multipliers;
  using Vector = typename Data::Vector;
  constexpr int kDofs = Data::kDofs;
  data.clear_results();
  const auto fail = [&](Status s) {
    data.clear_results();
    return s;
  };
  if (!detail::all_finite(options.passive_force) || !detail::all_finite(rates.passive_force_rate))
    return fail(Status::kNonFiniteInput);
  Status s = inverse_dynamics(model, data.inverse, motion, 1);
  if (s != Status::kOk) return fail(s);
  MotionDerivatives<Tree, 0, Scalar> state;  // the kinematics need (q, ν) only
  state.base_pose = motion.base_pose;
  state.base_twist[0] = motion.base_twist[0];
  state.q[0] = motion.q[0];
  state.q[1] = motion.q[1];
  state.joint_rotation = motion.joint_rotation;  // ball joints (empty without one)
  s = forward_kinematics(model, data.kinematics, state, 0);
  if (s != Status::kOk) return fail(s);
  s = loop_closure_kinematics(data.kinematics, closures, data.closure, 0);
  if (s != Status::kOk) return fail(s);
  const int m = data.closure.rows;
  const auto& a = data.closure.jacobian[0];
  const auto& a_dot = data.closure.jacobian[1];
  const auto given = [&](const Multipliers& x, Multipliers& out) {
    if (x.size() != 0 && x.size() != m) return Status::kInvalidArgument;
    if (!detail::all_finite(x)) return Status::kNonFiniteInput;
    out = x.size() == 0 ? Multipliers(Multipliers::Zero(m)) : x;
    return Status::kOk;
  };
  Multipliers commanded, commanded_rate;
  if ((s = given(options.commanded_multiplier, commanded)) != Status::kOk) return fail(s);
  if ((s = given(rates.commanded_multiplier_rate, commanded_rate)) != Status::kOk) return fail(s);
  // τ̄_r and τ̄̇_r in ν's order.
  const Vector tree_force = detail::generalized_force_of(data.inverse, 0);
  const Vector tree_force_rate = detail::generalized_force_of(data.inverse, 1);
  auto& solver = data.solver;
  Multipliers lambda;
  s = solver.solve(a, tree_force, options, commanded, lambda);
  if (s != Status::kOk) return fail(s);
  const int np = solver.passive;
  const auto actuated = [&](int l) { return options.actuated[static_cast<std::size_t>(l)]; };
  // τ_a = τ_ar − A_aᵀ λ (all entries; the passive ones are replaced below).
  const Vector force = tree_force - a.transpose() * lambda;
  // r₂ = ḋ − Ȧ_pᵀ λ and μ (the multiplier of A_pᵀ λ = d).
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, kDofs, 1> r2(np), mu(np);
  for (int l = 0, c = 0; l < kDofs; ++l) {
    if (actuated(l)) continue;
    r2(c) = tree_force_rate(l) - rates.passive_force_rate(l) - a_dot.col(l).dot(lambda);
    ++c;
  }
  Multipliers r1(m);
  if (!solver.least_effort) {
    // μ = (A_pᵀA_p)⁻¹ (A_pᵀ λ_c − d) = R⁻¹R⁻ᵀ A_pᵀ (λ_c − λ);  r₁ = λ̇_c − Ȧ_p μ.
    if (np > 0) {
      mu = solver.passive_columns.transpose() * (commanded - lambda);
      solver.solve_r_transpose(mu);
      solver.solve_r(mu);
    }
    r1 = commanded_rate;
  } else {
    // μ = R⁻¹ Q₁ᵀ A_a τ_a;  r₁ = Ȧ_a τ_a + A_a (τ̇_ar − Ȧ_aᵀ λ) − Ȧ_p μ.
    Multipliers effort = Multipliers::Zero(m);
    r1.setZero();
    for (int l = 0; l < kDofs; ++l) {
      if (!actuated(l)) continue;
      effort += a.col(l) * force(l);
      r1 += a_dot.col(l) * force(l) + a.col(l) * (tree_force_rate(l) - a_dot.col(l).dot(lambda));
    }
    if (np > 0) {
      mu = solver.orthogonal.leftCols(np).transpose() * effort;
      solver.solve_r(mu);
    }
  }
  for (int l = 0, c = 0; l < kDofs; ++l) {
    if (actuated(l)) continue;
    r1 -= a_dot.col(l) * mu(c);
    ++c;
  }
  // Particular part λ̇_p with A_pᵀ λ̇_p = r₂, then the null-space part.
  Multipliers lambda_rate(m);
  if (!solver.least_effort) {
    // λ̇ = r₁ + Q₁ R⁻ᵀ (r₂ − A_pᵀ r₁)
    lambda_rate = r1;
    if (np > 0) {
      Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, kDofs, 1> x =
          r2 - solver.passive_columns.transpose() * r1;
      solver.solve_r_transpose(x);
      lambda_rate.noalias() += solver.orthogonal.leftCols(np) * x;
    }
  } else {
    Multipliers particular = Multipliers::Zero(m);
    if (np > 0) {
      Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, kDofs, 1> x = r2;
      solver.solve_r_transpose(x);
      particular.noalias() = solver.orthogonal.leftCols(np) * x;
    }
    // (BᵀB) s = Q₂ᵀ (r₁ − H λ̇_p), H = A_a A_aᵀ.
    const int free_rows = m - np;
    Multipliers h_particular = Multipliers::Zero(m);
    for (int l = 0; l < kDofs; ++l)
      if (actuated(l)) h_particular += a.col(l) * a.col(l).dot(particular);
    const auto& b = solver.effort_map;
    data.reduced_factor.compute(b.transpose() * b);
    const auto d = data.reduced_factor.matrixLLT().diagonal();
    if (data.reduced_factor.info() != Eigen::Success ||
        !detail::pivots_full_rank(Scalar(d.minCoeff() * d.minCoeff()),
                                  Scalar(d.maxCoeff() * d.maxCoeff())))
      return fail(Status::kSingularConstraint);
    Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, Data::kRows, 1> free =
        solver.orthogonal.rightCols(free_rows).transpose() * (r1 - h_particular);
    data.reduced_factor.solveInPlace(free);
    lambda_rate = particular + solver.orthogonal.rightCols(free_rows) * free;
  }
  Vector force_rate = tree_force_rate - a_dot.transpose() * lambda - a.transpose() * lambda_rate;
  Vector force_out = force;
  for (int l = 0; l < kDofs; ++l)
    if (!actuated(l)) {
      force_out(l) = options.passive_force(l);
      force_rate(l) = rates.passive_force_rate(l);
    }
  if (!detail::all_finite(force_out) || !detail::all_finite(force_rate) ||
      !detail::all_finite(lambda_rate))
    return fail(Status::kNonFiniteResult);
  data.generalized_force = force_out;
  data.generalized_force_rate = force_rate;
  data.multiplier = lambda;
  data.multiplier_rate = lambda_rate;
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
