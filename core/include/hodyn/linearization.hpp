// hodyn/linearization.hpp — the geometric linearization ż = A z + B δu of a
// floating-base tree on SE(3) × Rⁿ × R⁶ × Rⁿ (seed 003 Props. 1-3), its
// zero-order-hold discretization, and seed 003's fully left-trivialized form.
//
// State x = (C₁, q, V₁, q̇) with V₁ the spatial base twist; dynamics
//   Ċ₁ = [V₁] C₁,   (V̇₁, q̈) = FD(x, u),   u = (W_prop in the base frame; τ).
// Perturbation z = (ξ, δq, δV, δq̇) ∈ R^(12+2n):
//   x ⊕ z = (C₁ exp([ξ]), q + δq, V₁ + δV, q̇ + δq̇),  ξ = (angular; linear) in the base frame,
// input δu = (δW_prop in the base frame; δτ). Under ξ the propeller wrench is
// held in the base frame (the thrust turns with the base) and gravity stays in
// the world; a spatial W_prop input is converted once, W_b = Ad_C₁ᵀ W_prop.
// Then, at z = 0, δu = 0 (blocks ξ, q, V, q̇ of 6, n, 6, n rows):
//   A = [ 0                  0          Ad_C₁⁻¹    0
//         0                  0          0          1
//         M̄⁻¹(P − ∂τ̄/∂ξ)   −M̄⁻¹∂τ̄/∂q   −M̄⁻¹∂τ̄/∂V₁   −M̄⁻¹∂τ̄/∂q̇ ]
//   B = [ 0 ; 0 ; M̄⁻¹ [Ad_C₁⁻ᵀ 0; 0 1] ]
// with ∂τ̄ the partials of extended inverse dynamics at the consistent
// accelerations (inverse_dynamics_derivatives.hpp; seed 003 Prop. 3) and
// P = [Q̄₁ Ad_C₁ 0; 0 0], Q̄₁ η = η ×* Q₁, the turn of the input wrench with the
// base. The ξ rows are ξ̇ = Ad_C₁⁻¹ δV: with the spatial twist held, no −ad
// term appears (it does in the body-twist form below). A fixed-base tree has
// z = (δq, δq̇) and δu = δτ. A ball joint's entries of δq are δ with
// x ⊕ z turning its rotation R (= R_j exp([δ_in]), `joint_rotation` and q)
// to R exp([δ]), and of δq̇ its child-frame δω; its δ rows are
// δ̇ = −ω × δ + δω (J_r(δ) δ̇ = ω + δω − exp(−[δ]) ω at δ = 0). A universal
// joint's θ₁, θ₂ are ordinary entries of q and q̇ (identity rows).
//
// Fixed size, no heap, no exceptions; bad input gives a Status and zeros.
// docs/linearization.md has the derivation and the checks.
#pragma once

#include <Eigen/Core>

#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/symmetric_inverse.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/forward_dynamics.hpp"
#include "hodyn/inverse_dynamics_derivatives.hpp"
#include "hodyn/matrix_exponential.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// ż = A z + B δu (continuous) or z⁺ = A z + B δu (discrete, zero-order hold).
template <class Tree, class Scalar = double>
struct Linearization {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  static constexpr int kState = 2 * kDofs;  ///< 12 + 2n (floating) or 2n (fixed)
  static constexpr int kInput = kDofs;      ///< 6 + n (floating) or n (fixed)
  using StateMatrix = Eigen::Matrix<Scalar, kState, kState>;
  using InputMatrix = Eigen::Matrix<Scalar, kState, kInput>;
  StateMatrix a = StateMatrix::Zero();
  InputMatrix b = InputMatrix::Zero();
  void set_zero() {
    a.setZero();
    b.setZero();
  }
};

/// Workspace and results of `linearize`.
template <class Tree, class Scalar = double>
struct LinearizationData {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  using Matrix = Eigen::Matrix<Scalar, kDofs, kDofs>;
  Linearization<Tree, Scalar> result{};
  /// The consistent accelerations FD(x, u) and the state, as the partials read them.
  MotionDerivatives<Tree, 0, Scalar> motion{};
  /// Q₁, the input propulsion wrench in the world frame (floating base).
  Wrench<Scalar> base_wrench = Wrench<Scalar>::Zero();
  // workspace
  InverseDynamicsDerivativesData<Tree, Scalar> derivatives{};
  Matrix inverse_mass_matrix = Matrix::Zero();  ///< M̄⁻¹ at the state
  Eigen::Matrix<Scalar, kDofs, 2 * kDofs> rhs{};
};

HODYN_ISA_NAMESPACE_END
HODYN_ISA_NAMESPACE_BEGIN

/// A and B at the state and input of `input` (order-0 entries: base_pose,
/// base_twist, q, q_dot, base_wrench[0] in its frame, joint_torque[0]).
template <class Tree, class Scalar>
Status linearize(const Model<Tree, Scalar>& model, LinearizationData<Tree, Scalar>& data,
                 const ForwardDynamicsInput<Tree, 0, Scalar>& input) noexcept {
  using S = Scalar;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  auto& out = data.result;
  Status status = detail::check_forward_input(
      input, static_cast<const HybridDynamicsInput<Tree, 0, S>*>(nullptr),
      static_cast<const ExternalLoads<Tree, 0, S>*>(nullptr), 0);
  data.derivatives.result.set_zero();
  if (status != Status::kOk) {
    out.set_zero();
    return status;
  }
  // The kinematic rows are constant blocks in zeros; the velocity rows are all written below.
  out.a.template topRows<kDofs>().setZero();
  out.b.template topRows<kDofs>().setZero();
  auto& motion = data.motion;
  motion.base_pose = detail::root_pose(model, input.base_pose);
  motion.base_twist[0] = detail::root_twist<Tree>(input.base_twist);
  motion.q[0] = input.q;
  motion.q[1] = input.q_dot;
  motion.joint_rotation = input.joint_rotation;
  // One kinematic pass for everything: M̄ and the bias h + g at ν̇ = 0, then the
  // consistent accelerations ν̇ = M̄⁻¹ (τ̄_in − h − g) (what forward dynamics
  // would return), then the partials at them (seed 003 Prop. 3 needs them there).
  detail::derivative_kinematics(model, data.derivatives, motion.base_pose, motion.base_twist[0],
                                motion.q[0], motion.q[1], motion.joint_rotation);
  const auto& d = data.derivatives.result;
  if (!detail::symmetric_positive_inverse(d.mass_matrix, data.inverse_mass_matrix)) {
    out.set_zero();
    return Status::kSingularInertia;
  }
  const auto& m_inv = data.inverse_mass_matrix;
  Eigen::Matrix<S, kDofs, 1> force, bias;
  detail::derivative_bias(data.derivatives, bias);
  if constexpr (kBase > 0) {
    data.base_wrench = input.base_wrench_frame == WrenchFrame::kBase
                           ? coadjoint_inverse(motion.base_pose, input.base_wrench[0])
                           : Wrench<S>(input.base_wrench[0]);
    force.template head<6>() = data.base_wrench;
  }
  force.template tail<kDofs - kBase>() = input.joint_torque[0];
  const Eigen::Matrix<S, kDofs, 1> nu_dot = m_inv * (force - bias);
  if constexpr (kBase > 0) motion.base_twist[1] = nu_dot.template head<6>();
  motion.q[2] = nu_dot.template tail<kDofs - kBase>();
  detail::derivative_accelerations(data.derivatives, motion.base_twist[1], motion.q[2]);
  detail::derivative_partials(data.derivatives, motion.base_pose);
  status = detail::check_derivative_result(data.derivatives.result);
  if (status != Status::kOk) {
    out.set_zero();
    return status;
  }
  // Velocity rows: M̄⁻¹ (P − ∂τ̄/∂(ξ, q), −∂τ̄/∂(V₁, q̇)).
  data.rhs.template leftCols<kDofs>() = -d.d_configuration;
  data.rhs.template rightCols<kDofs>() = -d.d_velocity;
  if constexpr (kBase > 0) {
    const Matrix6<S> adjoint = adjoint_matrix(motion.base_pose);
    data.rhs.template topLeftCorner<6, 6>().noalias() +=
        detail::force_cross_matrix(detail::SV<S>::from(data.base_wrench)) * adjoint;
    // ξ̇ = Ad_C₁⁻¹ δV, q̇ rows.
    out.a.template block<6, 6>(0, kDofs) = adjoint_matrix(motion.base_pose.inverse());
  }
  out.a.template block<kDofs - kBase, kDofs - kBase>(kBase, kDofs + kBase).setIdentity();
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0) {
    // A ball's δ rows: R exp([δ]) with the child-frame ω gives
    // J_r(δ) δ̇ = ω + δω − exp(−[δ]) ω, so at δ = 0 δ̇ = δω − ω × δ.
    for_each_joint<Tree>([&](auto kind, int j) {
      if constexpr (is_spherical(decltype(kind)::value)) {
        const int e = kBase + TreeTraits<Tree>::joint_entry(j);
        const Vector3<S> w = input.q_dot.template segment<3>(e - kBase);
        out.a.template block<3, 3>(e, e) = -skew<S>(w);
      }
    });
  }
  // Coefficient-based (lazyProduct): at these fixed sizes Eigen's blocked
  // GEMM kernel spent more on packing than on products (13 % of linearize).
  out.a.template bottomRows<kDofs>().noalias() = m_inv.lazyProduct(data.rhs);
  // B: M̄⁻¹ [Ad_C₁⁻ᵀ 0; 0 1].
  out.b.template bottomRows<kDofs>() = m_inv;
  if constexpr (kBase > 0)
    out.b.template bottomLeftCorner<kDofs, 6>().noalias() =
        m_inv.template leftCols<6>() * adjoint_matrix(motion.base_pose.inverse()).transpose();
  if (!detail::all_finite_wide(out.a) || !detail::all_finite_wide(out.b)) {
    out.set_zero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

/// Workspace of `discretize`: the augmented matrix [[A B], [0 0]] and its exponential.
template <class Tree, class Scalar = double>
struct DiscretizationData {
  static constexpr int kSize =
      Linearization<Tree, Scalar>::kState + Linearization<Tree, Scalar>::kInput;
  using Augmented = Eigen::Matrix<Scalar, kSize, kSize>;
  Linearization<Tree, Scalar> result{};  ///< A_d, B_d
  Augmented augmented = Augmented::Zero();
  Augmented exponential = Augmented::Zero();
  Augmented term = Augmented::Zero();
};

/// The zero-order-hold pair for a sampling step dt > 0: z_{k+1} = A_d z_k + B_d δu_k
/// with A_d = exp(A dt), B_d = ∫₀^dt exp(A s) ds B, both read from
/// exp([[A B], [0 0]] dt) (Van Loan).
template <class Tree, class Scalar>
Status discretize(const Linearization<Tree, Scalar>& continuous, const Scalar& dt,
                  DiscretizationData<Tree, Scalar>& data) noexcept {
  using Lin = Linearization<Tree, Scalar>;
  data.result.set_zero();
  if (!(ScalarTraits<Scalar>::primal(dt) > 0) || !ScalarTraits<Scalar>::is_finite(dt))
    return Status::kInvalidArgument;
  data.augmented.setZero();
  data.augmented.template topLeftCorner<Lin::kState, Lin::kState>() = continuous.a * dt;
  data.augmented.template topRightCorner<Lin::kState, Lin::kInput>() = continuous.b * dt;
  const Status s = matrix_exponential(data.augmented, data.exponential, data.term);
  if (s != Status::kOk) return s;
  data.result.a = data.exponential.template topLeftCorner<Lin::kState, Lin::kState>();
  data.result.b = data.exponential.template topRightCorner<Lin::kState, Lin::kInput>();
  return Status::kOk;
}

/// Seed 003's fully left-trivialized form: the same dynamics with the base
/// twist in the base frame, v = Ad_C₁⁻¹ V₁, and z_b = (ξ, δq, δv, δq̇). With
/// δV = Ad_C₁ (δv − ad_v ξ), i.e. z = P z_b, the pair becomes
/// A_b = P⁻¹ (A P − Ṗ), B_b = P⁻¹ B; its ξ rows are ξ̇ = −ad_v ξ + δv (seed 003
/// Prop. 1). `data` must hold a successful `linearize` of the same state.
template <class Tree, class Scalar>
Status body_twist_form(const LinearizationData<Tree, Scalar>& data,
                       Linearization<Tree, Scalar>& body) noexcept {
  static_assert(!TreeTraits<Tree>::kFixedBase, "a fixed-base tree has no base twist");
  using S = Scalar;
  constexpr int n = TreeTraits<Tree>::kNumDofs;
  const auto& spatial = data.result;
  const Pose<S>& c1 = data.motion.base_pose;
  const Matrix6<S> adjoint = adjoint_matrix(c1);
  const Matrix6<S> adjoint_inv = adjoint_matrix(c1.inverse());
  const Twist<S> v = adjoint_inv * data.motion.base_twist[0];
  const Twist<S> v_dot = adjoint_inv * data.motion.base_twist[1];
  const Matrix6<S> ad_v = ad_matrix<S>(v), ad_v_dot = ad_matrix<S>(v_dot);
  // P: δV rows (n .. n+5) = [−Ad ad_v, 0, Ad, 0]; Ṗ from d/dt Ad_C = Ad_C ad_v.
  // A P: columns ξ gain A[:, V] (−Ad ad_v), columns V become A[:, V] Ad.
  body.a = spatial.a;
  const Eigen::Matrix<S, 2 * n, 6> a_v = spatial.a.template middleCols<6>(n);
  body.a.template leftCols<6>() += a_v * (-adjoint * ad_v);
  body.a.template middleCols<6>(n) = a_v * adjoint;
  // − Ṗ: rows V, columns ξ: +Ad (ad_v ad_v + ad_v̇); columns V: −Ad ad_v.
  body.a.template block<6, 6>(n, 0) += adjoint * (ad_v * ad_v + ad_v_dot);
  body.a.template block<6, 6>(n, n) -= adjoint * ad_v;
  // P⁻¹ from the left: rows V ← ad_v (rows ξ) + Ad⁻¹ (rows V).
  const Eigen::Matrix<S, 6, 2 * n> rows_xi = body.a.template topRows<6>();
  const Eigen::Matrix<S, 6, 2 * n> rows_v = body.a.template middleRows<6>(n);
  body.a.template middleRows<6>(n) = ad_v * rows_xi + adjoint_inv * rows_v;
  body.b = spatial.b;
  const Eigen::Matrix<S, 6, n> b_xi = spatial.b.template topRows<6>();
  const Eigen::Matrix<S, 6, n> b_v = spatial.b.template middleRows<6>(n);
  body.b.template middleRows<6>(n) = ad_v * b_xi + adjoint_inv * b_v;
  if (!detail::all_finite(body.a) || !detail::all_finite(body.b)) {
    body.set_zero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
