// hodyn/constrained_dynamics.hpp — forward and inverse dynamics of a tree
// closed by loop closures (seed 002 §3, eqs. 54–69), heap-free.
//
// The closed system is the spanning tree with the closures' forces:
//   M̄ ν̇ + b = τ̄ + Aᵀ λ          (seed 002 eq. 54; b = h + g − τ_app)
//   A ν̇ + Ȧ ν = 0               (the closures at acceleration level)
// with ν = (V₁ spatial; q̇), τ̄ = (Q₁ world; τ) (fixed base: ν = q̇, τ̄ = τ), A and
// λ those of loop_closure.hpp.
//
// `constrained_forward_dynamics` (eqs. 67–69, always unique when A has full
// row rank): ν̇_r = M̄⁻¹(τ̄ − b) the tree's own answer, Y = M̄⁻¹ Aᵀ, and
//   λ = −(A Y)⁻¹ (A ν̇_r + Ȧ ν + k_v A ν + k_p f),   ν̇ = ν̇_r + Y λ,
// the last two terms Baumgarte's drift stabilisation (seed 002 has none;
// digest §3.4): the loop error obeys f̈ + k_v ḟ + k_p f = 0 (k_v = 2α,
// k_p = α² for critical damping); gains 0 give seed 002's equations. ν̇_r is
// the open tree's forward dynamics (seed 002's articulated-body call with
// the actual b), and M̄⁻¹ the recursion of inverse_mass_matrix.hpp on that
// call's articulated inertias — seed 002's m "b-free" articulated-body calls
// M̄⁻¹ Aᵀ e_i done at once, sharing one articulated pass.
//
// `constrained_inverse_dynamics` (eqs. 56–66): for a motion (q, ν, ν̇) that
// satisfies the closures, the coordinates of ν are split into actuated
// (a) and passive (p) ones, the passive forces τ_p are given (zero for
// free joints), and τ̄_r = M̄ ν̇ + b is inverse dynamics on the tree:
//   A_pᵀ λ = τ_pr − τ_p,   τ_a = τ_ar − A_aᵀ λ.
// λ is unique when A_p is square and invertible; with redundant actuation
// (m > n_p) a family of λ solves it and the call chooses (eqs. 59–64):
//   kMinimumConstraintForce   the λ nearest a commanded λ_c (‖λ − λ_c‖ least;
//                             λ_c = 0: least constraint force, eq. 61 s = 0;
//                             λ_c ≠ 0: a commanded squeeze of the loop),
//   kMinimumActuatorEffort    the least ‖τ_a‖ (eqs. 62–64), ties broken by the
//                             λ nearest λ_c.
// With n_p > m the passive equations have no solution in general:
// kInvalidArgument (constrained hybrid dynamics is the tool there).
// Neither call reads q̈-consistency: the ID reports the constraint
// acceleration A ν̇ + Ȧ ν it was given (zero for a consistent motion).
//
// Ball joints (docs/joint-kinds.md): both calls take them — a ball's three
// entries of ν (its child-frame ω) are three columns of A (loop_closure.hpp),
// and the articulated pass, M̄⁻¹ and inverse dynamics handle them; the balls'
// R_j come in ForwardDynamicsInput / MotionDerivatives::joint_rotation.
// Universal joints likewise: θ₁, θ₂ are two entries of ν, two columns of A
// (the kinematics' S₁, S₂), and every pass used here takes them.
//
// Errors: the inputs' statuses (pose, finiteness), kSingularInertia,
// kSingularConstraint when A (FD) or A_p (ID) is rank-deficient — redundant
// closures or a singular configuration — each with zero outputs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/QR>

#include "hodyn/detail/symmetric_inverse.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/forward_dynamics.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/inverse_mass_matrix.hpp"
#include "hodyn/kinematics.hpp"
#include "hodyn/loop_closure.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/scalar_traits.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// Baumgarte gains of the closures' drift stabilisation: f̈ + k_v ḟ + k_p f = 0.
template <class Scalar>
struct ConstraintStabilization {
  Scalar velocity_gain = Scalar(0);  ///< k_v (1/s), 2α for critical damping at rate α
  Scalar position_gain = Scalar(0);  ///< k_p (1/s²), α²

  bool finite() const {
    return ScalarTraits<Scalar>::is_finite(velocity_gain) &&
           ScalarTraits<Scalar>::is_finite(position_gain);
  }
  /// The constraint acceleration asked for, −k_v A ν − k_p f.
  template <class Vector>
  Vector target(const Vector& velocity, const Vector& error) const {
    return -velocity_gain * velocity - position_gain * error;
  }
};

/// Which λ constrained inverse dynamics returns when several solve it.
enum class ConstraintForceObjective : std::uint8_t {
  kMinimumConstraintForce,  ///< least ‖λ − λ_c‖ (seed 002 eq. 61 with s = 0 when λ_c = 0)
  kMinimumActuatorEffort,   ///< least ‖τ_a‖ (eqs. 62–64), then least ‖λ − λ_c‖
};

/// Options of constrained inverse dynamics.
template <class Tree, std::size_t NumClosures, class Scalar = double>
struct ConstrainedInverseDynamicsOptions {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  using Vector = Eigen::Matrix<Scalar, kDofs, 1>;
  using Multipliers = typename LoopClosureData<Tree, NumClosures, 0, Scalar>::Vector;

  /// Entry l of ν actuated (base entries: by the propellers). All by default.
  std::array<bool, kDofs> actuated = all_actuated();
  /// The generalized forces of the passive entries (entries of actuated ones are not read).
  Vector passive_force = Vector::Zero();
  ConstraintForceObjective objective = ConstraintForceObjective::kMinimumConstraintForce;
  /// λ_c: empty for zero, or one entry per constraint row.
  Multipliers commanded_multiplier{};

  static std::array<bool, kDofs> all_actuated() {
    std::array<bool, kDofs> a{};
    a.fill(true);
    return a;
  }
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// A pivot of a factorization counts as zero below this fraction of the
/// largest: 100 ε, so A Y may have a condition number up to 1/(100 ε)
/// (4.5e13 in double, 8.4e4 in float) before kSingularConstraint.
template <class Scalar>
Scalar constraint_rank_tolerance() {
  return Scalar(100) * Eigen::NumTraits<Scalar>::epsilon();
}

/// The rank test of the constraint factorizations: the smallest squared
/// Cholesky pivot (an L D Lᵀ pivot) above the tolerance times the largest.
template <class Scalar>
bool pivots_full_rank(const Scalar& smallest_squared, const Scalar& largest_squared) {
  return smallest_squared > constraint_rank_tolerance<Scalar>() * largest_squared;
}

/// The constraint forces of inverse dynamics (eqs. 56–64) from A, τ̄_r and the
/// options; keeps its factors for the time derivative
/// (constrained_inverse_dynamics_rate.hpp).
template <class Tree, std::size_t NumClosures, class Scalar>
struct ConstraintForceSolver {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  static constexpr int kRows = LoopClosureData<Tree, NumClosures, 0, Scalar>::kRowCapacity;
  using Multipliers = typename LoopClosureData<Tree, NumClosures, 0, Scalar>::Vector;
  using Jacobian = typename LoopClosureData<Tree, NumClosures, 0, Scalar>::Jacobian;
  using Vector = Eigen::Matrix<Scalar, kDofs, 1>;
  using Columns = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kRows, kDofs>;
  using Square = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kRows, kRows>;
  using Effort = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kDofs, kRows>;

  int rows = 0;                                    ///< m
  int passive = 0;                                 ///< n_p
  bool least_effort = false;                       ///< the least-effort step ran (passive < m)
  Columns passive_columns{};                       ///< A_p
  Eigen::HouseholderQR<Columns> passive_factor{};  ///< A_p = Q [R; 0]
  Square orthogonal{};                             ///< Q (columns Q₁ then Q₂)
  Effort effort_map{};                             ///< B = A_aᵀ Q₂
  Eigen::CompleteOrthogonalDecomposition<Effort> effort_factor{};

  /// λ into `lambda`; kInvalidArgument for n_p > m, kSingularConstraint for a
  /// rank-deficient A_p.
  template <class Options>
  Status solve(const Jacobian& a, const Vector& tree_force, const Options& options,
               const Multipliers& commanded, Multipliers& lambda) {
    const int m = static_cast<int>(a.rows());
    rows = m;
    passive = 0;
    least_effort = false;
    for (int l = 0; l < kDofs; ++l)
      passive += options.actuated[static_cast<std::size_t>(l)] ? 0 : 1;
    if (passive > m) return Status::kInvalidArgument;
    // A_pᵀ λ = d has the solutions nearest λ_c
    // λ = λ_c + Q₁ R⁻ᵀ (d − A_pᵀ λ_c) + Q₂ s (eqs. 59–61; Q₂ spans null(A_pᵀ)).
    lambda = commanded;
    orthogonal.setIdentity(m, m);
    if (passive > 0) {
      passive_columns.resize(m, passive);
      Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, kDofs, 1> residual(passive);
      for (int l = 0, c = 0; l < kDofs; ++l) {
        if (options.actuated[static_cast<std::size_t>(l)]) continue;
        passive_columns.col(c) = a.col(l);
        residual(c) = tree_force(l) - options.passive_force(l) - a.col(l).dot(commanded);
        ++c;
      }
      passive_factor.compute(passive_columns);
      const auto& qr = passive_factor.matrixQR();
      const Scalar largest = qr.diagonal().head(passive).cwiseAbs().maxCoeff();
      for (int i = 0; i < passive; ++i)
        if (!(Eigen::numext::abs(qr(i, i)) > constraint_rank_tolerance<Scalar>() * largest))
          return Status::kSingularConstraint;
      orthogonal.applyOnTheLeft(passive_factor.householderQ());
      solve_r_transpose(residual);  // R⁻ᵀ (d − A_pᵀ λ_c)
      lambda.noalias() += orthogonal.leftCols(passive) * residual;
    }
    if (options.objective == ConstraintForceObjective::kMinimumActuatorEffort && passive < m) {
      // min ‖c − B δ‖, least ‖δ‖: c = τ_ar − A_aᵀ λ, B = A_aᵀ Q₂ (eqs. 62–64).
      least_effort = true;
      const int free_rows = m - passive;
      const int actuated = kDofs - passive;
      effort_map.resize(actuated, free_rows);
      Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, kDofs, 1> c(actuated);
      for (int l = 0, i = 0; l < kDofs; ++l) {
        if (!options.actuated[static_cast<std::size_t>(l)]) continue;
        effort_map.row(i) = a.col(l).transpose() * orthogonal.rightCols(free_rows);
        c(i) = tree_force(l) - a.col(l).dot(lambda);
        ++i;
      }
      effort_factor.setThreshold(constraint_rank_tolerance<Scalar>());
      effort_factor.compute(effort_map);
      const Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, kRows, 1> delta = effort_factor.solve(c);
      lambda.noalias() += orthogonal.rightCols(free_rows) * delta;
    }
    return Status::kOk;
  }

  /// x ← R⁻ᵀ x (R the n_p × n_p factor of A_p).
  template <class V>
  void solve_r_transpose(V& x) const {
    passive_factor.matrixQR()
        .topLeftCorner(passive, passive)
        .template triangularView<Eigen::Upper>()
        .transpose()
        .solveInPlace(x);
  }
  /// x ← R⁻¹ x.
  template <class V>
  void solve_r(V& x) const {
    passive_factor.matrixQR()
        .topLeftCorner(passive, passive)
        .template triangularView<Eigen::Upper>()
        .solveInPlace(x);
  }
};

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// Workspace and results of the constrained dynamics calls.
template <class Tree, std::size_t NumClosures, class Scalar = double>
struct ConstrainedDynamicsData {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  static constexpr int kMaxRows = LoopClosureData<Tree, NumClosures, 0, Scalar>::kRowCapacity;
  using Closure = LoopClosureData<Tree, NumClosures, 0, Scalar>;
  using Vector = Eigen::Matrix<Scalar, kDofs, 1>;
  using Multipliers = typename Closure::Vector;

  // ---- results ----
  /// The state with its accelerations: forward dynamics writes base_twist[1]
  /// = V̇₁ and q[2] = q̈ (the input state in entries 0 and 0, 1); inverse
  /// dynamics keeps the motion it was given.
  MotionDerivatives<Tree, 0, Scalar> motion{};
  Vector acceleration = Vector::Zero();       ///< ν̇ = (V̇₁; q̈) (forward dynamics)
  Vector generalized_force = Vector::Zero();  ///< τ̄ = (Q₁ world; τ) (inverse dynamics)
  Multipliers multiplier{};                   ///< λ, constraint rows of `closure`
  /// A ν̇ + Ȧ ν after the call (forward: what stabilisation asked, −k_v Aν − k_p f;
  /// inverse: of the motion given, zero when it satisfies the closures).
  Multipliers constraint_acceleration{};

  // ---- workspace ----
  Closure closure{};  ///< A, Aν, Ȧν (ν̇ = 0 in forward dynamics) and f of the last call
  KinematicsData<Tree, 0, Scalar> kinematics{};
  InverseDynamicsData<Tree, 0, Scalar> inverse{};
  InverseMassMatrixData<Tree, Scalar> inverse_mass{};
  // Forward dynamics works on fixed-size matrices of 6 × NumClosures rows
  // (fixed-size products and Cholesky are several times faster than the
  // dynamic-size ones at these sizes): A's m rows, then zero rows, and
  // A Y with 1 on the padding's diagonal, so the padding's λ is exactly zero.
  static constexpr int kPaddedRows = 6 * static_cast<int>(NumClosures);
  using PaddedSquare = Eigen::Matrix<Scalar, kPaddedRows, kPaddedRows>;
  Eigen::Matrix<Scalar, kPaddedRows, kDofs> padded_jacobian{};  ///< A, zero below row m
  Eigen::Matrix<Scalar, kDofs, kPaddedRows> mobility{};         ///< Y = M̄⁻¹ Aᵀ
  /// A Y (padding: identity) above the diagonal; after the call, its L D Lᵀ
  /// factor's L below it (the diagonal: A Y's).
  PaddedSquare operational{};
  detail::ConstraintForceSolver<Tree, NumClosures, Scalar> solver{};  ///< λ of inverse dynamics

  ConstrainedDynamicsData() { clear_results(); }
  void clear_results() {
    motion = MotionDerivatives<Tree, 0, Scalar>{};
    acceleration.setZero();
    generalized_force.setZero();
    multiplier.resize(0);
    constraint_acceleration.resize(0);
  }
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// (Q₁^(k) world; τ^(k)) of an inverse-dynamics result as one vector in ν's order.
template <class Tree, int MaxOrder, class Scalar>
Eigen::Matrix<Scalar, TreeTraits<Tree>::kNumDofs, 1> generalized_force_of(
    const InverseDynamicsData<Tree, MaxOrder, Scalar>& id, int k = 0) {
  Eigen::Matrix<Scalar, TreeTraits<Tree>::kNumDofs, 1> f;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  const auto K = static_cast<std::size_t>(k);
  if constexpr (kBase > 0) f.template head<kBase>() = id.base_wrench[K];
  for (int j = 0; j < TreeTraits<Tree>::kNumJointDofs; ++j) f(kBase + j) = id.joint_torque[K](j);
  return f;
}

/// Cholesky factor of A Y (symmetric positive definite when A has full row
/// rank); false when a pivot is not positive or below the rank tolerance of
/// the largest (a rank-deficient A: redundant closures, a singular pose).
template <class Matrix, class Factor>
bool factor_operational(const Matrix& operational, Factor& factor) {
  using Scalar = typename Matrix::Scalar;
  factor.compute(operational);
  if (factor.info() != Eigen::Success) return false;
  const auto d = factor.matrixLLT().diagonal();
  if (d.size() == 0) return true;
  const Scalar smallest = d.minCoeff();
  const Scalar largest = d.maxCoeff();
  return pivots_full_rank(Scalar(smallest * smallest), Scalar(largest * largest));
}

/// motion ← the state of `input` (pose, V₁, q, q̇) with ν̇ = 0.
template <class Tree, class Scalar>
void set_state(const ForwardDynamicsInput<Tree, 0, Scalar>& input,
               MotionDerivatives<Tree, 0, Scalar>& motion) {
  motion = MotionDerivatives<Tree, 0, Scalar>{};
  motion.base_pose = input.base_pose;
  motion.base_twist[0] = input.base_twist;
  motion.q[0] = input.q;
  motion.q[1] = input.q_dot;
  motion.joint_rotation = input.joint_rotation;  // ball joints (empty without one)
}

/// motion's V̇₁ and q̈ ← ν̇.
template <class Tree, class Scalar, class Vector>
void set_acceleration(const Vector& acceleration, MotionDerivatives<Tree, 0, Scalar>& motion) {
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  constexpr int kJoints = TreeTraits<Tree>::kNumJointDofs;  // entries of q̇
  if constexpr (kBase > 0) motion.base_twist[1] = acceleration.template head<6>();
  if constexpr (kJoints > 0) motion.q[2] = acceleration.template tail<kJoints>();
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// Forward dynamics of the closed system at order 0 (see the file comment);
/// `input` as for forward_dynamics (only entries 0 of its derivative lists);
/// `loads` may be null.
template <std::size_t NumClosures, class Tree, class Scalar>
Status constrained_forward_dynamics(
    const Model<Tree, Scalar>& model, const std::array<LoopClosure<Scalar>, NumClosures>& closures,
    const ForwardDynamicsInput<Tree, 0, Scalar>& input, const ExternalLoads<Tree, 0, Scalar>* loads,
    const ConstraintStabilization<Scalar>& stabilization,
    ConstrainedDynamicsData<Tree, NumClosures, Scalar>& data) noexcept {
  using Data = ConstrainedDynamicsData<Tree, NumClosures, Scalar>;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  constexpr int kJoints = TreeTraits<Tree>::kNumJointDofs;  // entries of q̇
  data.clear_results();
  const auto fail = [&](Status s) {
    data.clear_results();
    return s;
  };
  Status s = detail::check_forward_input(
      input, static_cast<const HybridDynamicsInput<Tree, 0, Scalar>*>(nullptr), loads, 0);
  if (s != Status::kOk) return fail(s);
  if (!stabilization.finite()) return fail(Status::kNonFiniteInput);
  // ν̇_r = M̄⁻¹(τ̄ − b), the open tree's answer, by one forward-dynamics pass;
  // its articulated inertias then give M̄⁻¹ without a second articulated pass
  // (inverse_mass_matrix_passes). The state with ν̇ = 0 gives the kinematics Ȧν.
  auto& motion = data.motion;
  detail::set_state(input, motion);
  auto& open = data.inverse_mass.articulated;
  s = forward_dynamics(model, open, input, loads, 0);
  if (s != Status::kOk) return fail(s);
  s = detail::inverse_mass_matrix_passes(model, data.inverse_mass);
  if (s != Status::kOk) return fail(s);
  const auto& minv = data.inverse_mass.result;
  typename Data::Vector tree_acceleration;  // ν̇_r
  if constexpr (kBase > 0) tree_acceleration.template head<6>() = open.motion.base_twist[1];
  if constexpr (kJoints > 0) tree_acceleration.template tail<kJoints>() = open.motion.q[2];
  s = forward_kinematics(model, data.kinematics, motion, 0);
  if (s != Status::kOk) return fail(s);
  auto& closure = data.closure;
  s = loop_closure_kinematics(data.kinematics, closures, closure, 0);
  if (s != Status::kOk) return fail(s);
  const int m = closure.rows;
  // Row by row into the fixed-size storage: g++ 12's -Warray-bounds misreads
  // Eigen's 8-wide packets on dynamic-size blocks of 6-row fixed matrices.
  auto& a = data.padded_jacobian;
  a.setZero();
  for (int i = 0; i < m; ++i) a.row(i) = closure.jacobian[0].row(i);
  // Y = M̄⁻¹ Aᵀ and A Y as plain loops (lazyProduct): the blocked matrix-product
  // kernels pack these small operands first, 10 % of a call (perf). A's base
  // columns are zero (loop_closure.hpp), so only its joint columns enter.
  const auto a_joints = a.template rightCols<kJoints>();
  data.mobility.noalias() = minv.template rightCols<kJoints>().lazyProduct(a_joints.transpose());
  data.operational.noalias() = a_joints.lazyProduct(data.mobility.template bottomRows<kJoints>());
  for (int i = m; i < Data::kPaddedRows; ++i) data.operational(i, i) = Scalar(1);
  data.constraint_acceleration = stabilization.target(closure.velocity[0], closure.error);
  // λ = −(A Y)⁻¹ (A ν̇_r + Ȧ ν − target) by L D Lᵀ of A Y (6 × NumClosures
  // rows; Eigen's fixed-size LLT and its solve took 9 % of a call); the
  // padding's right-hand side is 0, so its λ is 0. Rank test on the pivots D
  // (the squared Cholesky diagonal) of the first m rows.
  using Padded = Eigen::Matrix<Scalar, Data::kPaddedRows, 1>;
  Padded lambda = -(a_joints * tree_acceleration.template tail<kJoints>());
  for (int i = 0; i < m; ++i) lambda(i) += data.constraint_acceleration(i) - closure.velocity[1](i);
  Padded pivots;
  if (!detail::symmetric_positive_solve(data.operational, lambda, pivots))
    return fail(Status::kSingularConstraint);
  if (m > 0) {
    Scalar smallest = pivots(0), largest = pivots(0);
    for (int i = 1; i < m; ++i) {
      smallest = pivots(i) < smallest ? pivots(i) : smallest;
      largest = pivots(i) > largest ? pivots(i) : largest;
    }
    if (!detail::pivots_full_rank(smallest, largest)) return fail(Status::kSingularConstraint);
  }
  data.multiplier.resize(m);
  for (int i = 0; i < m; ++i) data.multiplier(i) = lambda(i);
  data.acceleration = tree_acceleration;
  data.acceleration.noalias() += data.mobility * lambda;
  if (!detail::all_finite(data.acceleration) || !detail::all_finite(data.multiplier))
    return fail(Status::kNonFiniteResult);
  detail::set_acceleration(data.acceleration, motion);
  return Status::kOk;
}

/// Inverse dynamics of the closed system at order 0 (see the file comment)
/// for the motion's base_pose, base_twist[0..1] and q[0..2]; `loads` may be null.
template <std::size_t NumClosures, class Tree, class Scalar>
Status constrained_inverse_dynamics(
    const Model<Tree, Scalar>& model, const std::array<LoopClosure<Scalar>, NumClosures>& closures,
    const MotionDerivatives<Tree, 0, Scalar>& motion, const ExternalLoads<Tree, 0, Scalar>* loads,
    const ConstrainedInverseDynamicsOptions<Tree, NumClosures, Scalar>& options,
    ConstrainedDynamicsData<Tree, NumClosures, Scalar>& data) noexcept {
  using Data = ConstrainedDynamicsData<Tree, NumClosures, Scalar>;
  using Multipliers = typename Data::Multipliers;
  constexpr int kDofs = Data::kDofs;
  data.clear_results();
  const auto fail = [&](Status s) {
    data.clear_results();
    return s;
  };
  if (!detail::all_finite(options.passive_force)) return fail(Status::kNonFiniteInput);
  Status s = inverse_dynamics(model, data.inverse, motion, loads, 0);
  if (s != Status::kOk) return fail(s);
  s = forward_kinematics(model, data.kinematics, motion, 0);
  if (s != Status::kOk) return fail(s);
  auto& closure = data.closure;
  s = loop_closure_kinematics(data.kinematics, closures, closure, 0);
  if (s != Status::kOk) return fail(s);
  const int m = closure.rows;
  const auto& a = closure.jacobian[0];
  Multipliers commanded = Multipliers::Zero(m);
  if (options.commanded_multiplier.size() != 0) {
    if (options.commanded_multiplier.size() != m) return fail(Status::kInvalidArgument);
    if (!detail::all_finite(options.commanded_multiplier)) return fail(Status::kNonFiniteInput);
    commanded = options.commanded_multiplier;
  }
  const typename Data::Vector tree_force = detail::generalized_force_of(data.inverse);  // τ̄_r
  Multipliers lambda;
  s = data.solver.solve(a, tree_force, options, commanded, lambda);
  if (s != Status::kOk) return fail(s);
  data.multiplier = lambda;
  data.generalized_force = tree_force - a.transpose() * lambda;
  for (int l = 0; l < kDofs; ++l)  // the passive entries exactly as given
    if (!options.actuated[static_cast<std::size_t>(l)])
      data.generalized_force(l) = options.passive_force(l);
  data.constraint_acceleration = closure.velocity[1];
  data.motion = motion;
  if (!detail::all_finite(data.generalized_force) || !detail::all_finite(data.multiplier))
    return fail(Status::kNonFiniteResult);
  return Status::kOk;
}

/// Constrained forward dynamics without applied loads.
template <std::size_t NumClosures, class Tree, class Scalar>
Status constrained_forward_dynamics(
    const Model<Tree, Scalar>& model, const std::array<LoopClosure<Scalar>, NumClosures>& closures,
    const ForwardDynamicsInput<Tree, 0, Scalar>& input,
    const ConstraintStabilization<Scalar>& stabilization,
    ConstrainedDynamicsData<Tree, NumClosures, Scalar>& data) noexcept {
  return constrained_forward_dynamics(model, closures, input,
                                      static_cast<const ExternalLoads<Tree, 0, Scalar>*>(nullptr),
                                      stabilization, data);
}

/// Constrained inverse dynamics without applied loads.
template <std::size_t NumClosures, class Tree, class Scalar>
Status constrained_inverse_dynamics(
    const Model<Tree, Scalar>& model, const std::array<LoopClosure<Scalar>, NumClosures>& closures,
    const MotionDerivatives<Tree, 0, Scalar>& motion,
    const ConstrainedInverseDynamicsOptions<Tree, NumClosures, Scalar>& options,
    ConstrainedDynamicsData<Tree, NumClosures, Scalar>& data) noexcept {
  return constrained_inverse_dynamics(model, closures, motion,
                                      static_cast<const ExternalLoads<Tree, 0, Scalar>*>(nullptr),
                                      options, data);
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
