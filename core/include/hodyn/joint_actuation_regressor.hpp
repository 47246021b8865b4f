// hodyn/joint_actuation_regressor.hpp — the optional joint-level columns of
// the regressor (issue 18 item 1; docs/regressors.md "Joint friction and
// elastic-joint motors"): what users identify together with the links.
//
// Joint friction, per joint i, in the joint's coordinate (τ_i as
// `inverse_dynamics` reports it):
//
//   τ_i = (Y π)_i + f_v,i q̇_i + f_c,i σ(q̇_i),
//
// σ = sign (0 at q̇ = 0) or tanh(q̇/ε) (`CoulombModel`). Its time
// derivatives of order k are linear in (f_v, f_c) too: the viscous column is
// q_i^(k+1), the Coulomb column σ(q̇_i(t))^(k). `joint_friction_regressor`
// gives them as Y_f^(k) with the rows of the inverse-dynamics regressor
// (Q₁ rows zero), so the extended regressor is the horizontal concatenation
//
//   (Q₁^(k); τ^(k) + friction^(k)) = [Y^(k)  Y_f^(k)] (π; f_v; f_c),
//
// f_v = (f_v,1..f_v,n), f_c = (f_c,1..f_c,n): columns 0..n−1 viscous, n..2n−1
// Coulomb. The rigid-body regressor is untouched (and costs what it did).
//
// Elastic joints (De Luca; hodyn/models/actuation.hpp, link-side units):
//
//   motor side  u = B θ̈ + F θ̇ + τ_el,    link side  τ_el = K (θ − q) + D (θ̇ − q̇),
//
// linear in (B, F, K, D). `elastic_joint_motor_regressor` gives, per motor
// (one per entry of q: a 1-DoF joint's, or each angle of a universal joint),
//
//   u_i^(k) = θ_i^(k+2) B_i + θ_i^(k+1) F_i + (θ_i − q_i)^(k) K_i + (θ̇_i − q̇_i)^(k) D_i,
//
// as an n × 4n matrix per order against (B; F; K; D), each an n-vector; its
// last 2n columns alone are the link side, τ_el^(k) = [·](K; D), which the
// link rows of the extended regressor equal. A rigid joint's row and columns
// can be dropped.
//
// Fixed sizes, no heap, no exceptions; bad input gives a Status and zero outputs.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include <Eigen/Core>

#include "hodyn/detail/validation.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {

/// The Coulomb column's σ(q̇).
enum class CoulombModel : std::uint8_t {
  /// sign(q̇), 0 at q̇ = 0. Piecewise constant: its derivatives of order
  /// k ≥ 1 are 0 where q̇ ≠ 0 and do not exist at q̇ = 0 (a call for order
  /// ≥ 1 with some q̇_i = 0 gives kNotDifferentiable). At q̇ = 0 the column
  /// of order 0 is 0: a joint at rest carries any static friction in
  /// [−f_c, f_c], which the model cannot tell; 0 is the middle.
  kSign,
  /// tanh(q̇/ε), ε = `smoothing_velocity` > 0: smooth, exact derivatives of
  /// every order everywhere; within ~2ε of rest it is not the sign.
  kTanh,
  /// No Coulomb term: every Coulomb column zero (the viscous columns alone).
  /// The only model a tree with a ball joint takes: a ball's Coulomb
  /// friction is not per axis (it opposes ω as a whole), so kSign and kTanh
  /// refuse such a tree with kInvalidArgument rather than give per-axis columns.
  /// (A universal joint's two sub-joints are revolute joints: per axis is
  /// right there, and every model takes it.)
  kNone,
};

/// Options of `joint_friction_regressor`.
template <class Scalar = double>
struct FrictionRegressorOptions {
  CoulombModel coulomb = CoulombModel::kSign;
  Scalar smoothing_velocity = Scalar(0);  ///< ε (rad/s or m/s) of kTanh; finite, > 0
};

/// Results of `joint_friction_regressor` (fixed size, reusable).
template <class Tree, int MaxOrder, class Scalar = double>
struct FrictionRegressorData {
  /// Entries of τ: one per joint, three per ball (its ω axes, child frame),
  /// two per universal joint (θ₁, θ₂).
  static constexpr int kNumJoints = TreeTraits<Tree>::kNumJointDofs;
  static constexpr int kRows = 6 + kNumJoints;     ///< (Q₁; τ), as RegressorData
  static constexpr int kColumns = 2 * kNumJoints;  ///< (f_v; f_c), one of each per entry
  static constexpr int kMaxOrder = MaxOrder;
  using Matrix = Eigen::Matrix<Scalar, kRows, kColumns>;

  std::array<Matrix, MaxOrder + 1> regressor{};  ///< Y_f^(k), entries 0..order
  int order = -1;  ///< order of the last successful call, −1 if none

  FrictionRegressorData() { clear_results(); }
  void clear_results() {
    for (auto& y : regressor) y.setZero();
    order = -1;
  }
};

/// Motor angles θ^(k), k = 0..MaxOrder+2, link-side units (θ = motor angle
/// divided by the gear ratio), one per entry of q (a universal joint's two
/// angles in its two entries).
template <class Tree, int MaxOrder, class Scalar = double>
struct MotorAngleDerivatives {
  using JointVector = typename Model<Tree, Scalar>::JointVector;
  std::array<JointVector, MaxOrder + 3> theta{};
  MotorAngleDerivatives() {
    for (auto& x : theta) x.setZero();
  }
};

/// Results of `elastic_joint_motor_regressor` (fixed size, reusable).
template <class Tree, int MaxOrder, class Scalar = double>
struct MotorRegressorData {
  // A ball is not motor-driven: its q[0] entries are δ about R_j, not angles a
  // motor's θ could be compared with (docs/regressors.md, "Ball joints"). A
  // universal joint's two angles each can be (a two-motor gimbal): one motor
  // per entry of q.
  static_assert(TreeTraits<Tree>::kNumSphericalJoints == 0,
                "elastic_joint_motor_regressor does not take ball joints (a ball has no motor "
                "angle: docs/regressors.md)");
  static constexpr int kNumMotors = TreeTraits<Tree>::kNumJointDofs;
  static constexpr int kRows = kNumMotors;         ///< u, one per motor (entry of q)
  static constexpr int kColumns = 4 * kNumMotors;  ///< (B; F; K; D)
  static constexpr int kMaxOrder = MaxOrder;
  using Matrix = Eigen::Matrix<Scalar, kRows, kColumns>;

  std::array<Matrix, MaxOrder + 1> regressor{};  ///< u^(k) = regressor[k] (B; F; K; D)
  int order = -1;  ///< order of the last successful call, −1 if none

  MotorRegressorData() { clear_results(); }
  void clear_results() {
    for (auto& y : regressor) y.setZero();
    order = -1;
  }
};

namespace detail {

/// Coefficients y_0..y_order of y = tanh(x) from those of x:
/// y' = (1 − y²) x'  ⇒  k y_k = Σ_{i=1..k} i x_i w_{k−i},  w = 1 − y²,
/// w_0 = 1/cosh²(x_0) (no cancellation where tanh saturates),
/// w_m = −Σ_{i=0..m} y_i y_{m−i} for m ≥ 1.
template <class S, std::size_t N>
void tanh_series(const std::array<S, N>& x, int order, std::array<S, N>& y) {
  std::array<S, N> w{};
  y[0] = std::tanh(x[0]);
  const S c = std::cosh(x[0]);
  w[0] = S(1) / (c * c);  // cosh overflows to inf far out: w_0 = 0, the limit
  for (int k = 1; k <= order; ++k) {
    const auto K = static_cast<std::size_t>(k);
    S sum(0);
    for (std::size_t i = 1; i <= K; ++i) sum += S(static_cast<int>(i)) * x[i] * w[K - i];
    y[K] = sum / S(k);
    S ww(0);
    for (std::size_t i = 0; i <= K; ++i) ww -= y[i] * y[K - i];
    w[K] = ww;
  }
}

}  // namespace detail

/// The friction columns Y_f^(0..order) along `motion` (see the file comment):
/// column i of Y_f^(k) is q_i^(k+1) e_i (viscous), column n + i is
/// σ(q̇_i)^(k) e_i (Coulomb), e_i the row of τ_i; the six Q₁ rows are zero.
/// Reads q^(1..order+1). A ball's three entries of q̇ are ω in its child's
/// axes: viscous friction per axis (τ_a = f_v,a ω_a), no Coulomb term (kNone
/// only). A universal joint's two entries are θ̇₁, θ̇₂ of its two revolute
/// sub-joints: viscous and Coulomb per axis (every model). Errors: kOrderOutOfRange;
/// kInvalidArgument (kTanh with ε not finite and > 0, kSign or kTanh on a tree with a ball, or an
/// unknown model); kNonFiniteInput;
/// kNotDifferentiable (kSign, order ≥ 1 and some q̇_i = 0);
/// kNonFiniteResult (kTanh derivatives overflowing for a tiny ε); outputs zero.
template <class Tree, int MaxOrder, class Scalar>
Status joint_friction_regressor(FrictionRegressorData<Tree, MaxOrder, Scalar>& data,
                                const MotionDerivatives<Tree, MaxOrder, Scalar>& motion, int order,
                                const FrictionRegressorOptions<Scalar>& options = {}) noexcept {
  constexpr int n = TreeTraits<Tree>::kNumJointDofs;
  data.clear_results();
  if (order < 0 || order > MaxOrder) return Status::kOrderOutOfRange;
  const bool smooth = options.coulomb == CoulombModel::kTanh;
  const bool coulomb = options.coulomb != CoulombModel::kNone;
  if (!smooth && coulomb && options.coulomb != CoulombModel::kSign) return Status::kInvalidArgument;
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0)
    if (coulomb) return Status::kInvalidArgument;  // not per axis on a ball
  if (smooth &&
      !(std::isfinite(options.smoothing_velocity) && options.smoothing_velocity > Scalar(0)))
    return Status::kInvalidArgument;
  for (int k = 1; k <= order + 1; ++k)
    if (!detail::all_finite(motion.q[static_cast<std::size_t>(k)])) return Status::kNonFiniteInput;
  if (!smooth && coulomb && order >= 1)
    for (int i = 0; i < n; ++i)
      if (motion.q[1](i) == Scalar(0)) return Status::kNotDifferentiable;

  for (int i = 0; i < n; ++i) {
    for (int k = 0; k <= order; ++k)  // viscous: (q̇_i)^(k)
      data.regressor[static_cast<std::size_t>(k)](6 + i, i) =
          motion.q[static_cast<std::size_t>(k + 1)](i);
    if (!coulomb) continue;
    if (!smooth) {  // sign: constant where q̇ ≠ 0, so only order 0
      const Scalar v = motion.q[1](i);
      data.regressor[0](6 + i, n + i) = v > Scalar(0)   ? Scalar(1)
                                        : v < Scalar(0) ? Scalar(-1)
                                                        : Scalar(0);
      continue;
    }
    // tanh(x), x = q̇_i/ε with Taylor coefficients x_k = q_i^(k+1) / (k! ε).
    std::array<Scalar, MaxOrder + 1> x{}, y{};
    Scalar factorial(1);
    for (int k = 0; k <= order; ++k) {
      if (k > 0) factorial *= Scalar(k);
      x[static_cast<std::size_t>(k)] =
          motion.q[static_cast<std::size_t>(k + 1)](i) / (factorial * options.smoothing_velocity);
    }
    detail::tanh_series(x, order, y);
    factorial = Scalar(1);
    for (int k = 0; k <= order; ++k) {  // σ^(k) = k! y_k
      if (k > 0) factorial *= Scalar(k);
      data.regressor[static_cast<std::size_t>(k)](6 + i, n + i) =
          factorial * y[static_cast<std::size_t>(k)];
    }
  }
  for (int k = 0; k <= order; ++k)
    if (!detail::all_finite(data.regressor[static_cast<std::size_t>(k)])) {
      data.clear_results();
      return Status::kNonFiniteResult;
    }
  data.order = order;
  return Status::kOk;
}

/// The elastic joints' motor rows u^(0..order) (see the file comment): row i
/// of regressor[k] holds θ_i^(k+2) in column i (B_i), θ_i^(k+1) in n + i
/// (F_i), θ_i^(k) − q_i^(k) in 2n + i (K_i), θ_i^(k+1) − q_i^(k+1) in 3n + i
/// (D_i). Reads θ^(0..order+2) and q^(0..order+1). Errors: kOrderOutOfRange,
/// kNonFiniteInput, kNonFiniteResult (a difference overflowing); outputs zero.
template <class Tree, int MaxOrder, class Scalar>
Status elastic_joint_motor_regressor(MotorRegressorData<Tree, MaxOrder, Scalar>& data,
                                     const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                                     const MotorAngleDerivatives<Tree, MaxOrder, Scalar>& motor,
                                     int order) noexcept {
  constexpr int n = MotorRegressorData<Tree, MaxOrder, Scalar>::kNumMotors;
  data.clear_results();
  if (order < 0 || order > MaxOrder) return Status::kOrderOutOfRange;
  for (int k = 0; k <= order + 2; ++k)
    if (!detail::all_finite(motor.theta[static_cast<std::size_t>(k)]))
      return Status::kNonFiniteInput;
  for (int k = 0; k <= order + 1; ++k)
    if (!detail::all_finite(motion.q[static_cast<std::size_t>(k)])) return Status::kNonFiniteInput;
  for (int k = 0; k <= order; ++k) {
    const auto K = static_cast<std::size_t>(k);
    auto& y = data.regressor[K];
    for (int i = 0; i < n; ++i) {
      y(i, i) = motor.theta[K + 2](i);
      y(i, n + i) = motor.theta[K + 1](i);
      y(i, 2 * n + i) = motor.theta[K](i) - motion.q[K](i);
      y(i, 3 * n + i) = motor.theta[K + 1](i) - motion.q[K + 1](i);
    }
    if (!detail::all_finite(y)) {
      data.clear_results();
      return Status::kNonFiniteResult;
    }
  }
  data.order = order;
  return Status::kOk;
}

}  // namespace hodyn
