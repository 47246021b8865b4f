// hodyn/forward_dynamics.hpp — higher-order forward dynamics of a floating-base
// tree (H-GABI-FBS, seed 000 Alg. 3, Lemma 2) and its hybrid generalization
// (H-GHYB-FBS, Alg. 4).
//
// Forward dynamics of order r: given the state (base pose C₁, base twist V₁,
// q, q̇) and the derivatives 0..r of the propulsion wrench (world frame Q₁^(k),
// or base frame dᵏ/dtᵏ(Ad_C₁ᵀ Q₁)) and of the joint torques τ^(k), compute
// V₁^(k+1) and q^(k+2) for every k = 0..r.
//
// The articulated inertias M^A_j (eq. 23), the joint scalars D_j = S_jᵀ M^A_j S_j
// and the Cholesky factor of the base's M^A_1 are computed once and reused at
// every order (Lemma 2); each order only runs a bias pass (eqs. 24-25, with
// W^A_{j,r} read as the order-r bias, digest erratum E9) and a forward pass
// (eq. 26), interleaved with the kinematics of Alg. 1 (erratum E10). The joint
// wrenches W_j^(k) = M^A_j V_j^(k+1) + W^A_{j,k} of lower orders are stored for
// τ̃ (eq. 25).
//
// Hybrid dynamics (Alg. 4): any subset of joints has prescribed accelerations
// and their derivatives q^(k+2); the others have prescribed torques. The base
// is driven either by its wrench or by prescribed V₁^(k+1). The outputs then
// also hold the torques of the prescribed joints and the base wrench.
//
// No heap, no exceptions; bad input or a singular articulated inertia gives a
// Status and zero outputs.
#pragma once

#include <array>
#include <cmath>
#include <limits>

#include "hodyn/detail/applied_loads.hpp"
#include "hodyn/detail/cholesky6.hpp"
#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {

/// In which frame a propulsion-wrench input is given.
enum class WrenchFrame : std::uint8_t {
  kWorld,  ///< spatial Q₁^(k): world axes, moment about the world origin
  kBase,   ///< dᵏ/dtᵏ (Ad_C₁ᵀ Q₁): base-frame components (what propellers produce)
};

/// Inputs of forward dynamics of order r (entries 0..r of the derivative lists).
template <class Tree, int MaxOrder, class Scalar = double>
struct ForwardDynamicsInput {
  using JointVector = typename Model<Tree, Scalar>::JointVector;
  Pose<Scalar> base_pose{};                                 ///< C₁
  Twist<Scalar> base_twist = Twist<Scalar>::Zero();         ///< V₁ (spatial)
  JointVector q = JointVector::Zero();                      ///< q
  JointVector q_dot = JointVector::Zero();                  ///< q̇
  WrenchFrame base_wrench_frame = WrenchFrame::kWorld;
  std::array<Wrench<Scalar>, MaxOrder + 1> base_wrench{};   ///< propulsion wrench derivatives
  std::array<JointVector, MaxOrder + 1> joint_torque{};     ///< τ^(k)

  ForwardDynamicsInput() {
    for (auto& w : base_wrench) w.setZero();
    for (auto& t : joint_torque) t.setZero();
  }
};

/// How the base is driven in hybrid dynamics.
enum class BaseInput : std::uint8_t {
  kWrench,  ///< base_wrench given (as in forward dynamics), V₁^(k+1) computed
  kMotion,  ///< base_acceleration V₁^(k+1) given, base wrench Q₁^(k) computed
};

/// Inputs of hybrid dynamics: those of forward dynamics plus the prescribed motions.
template <class Tree, int MaxOrder, class Scalar = double>
struct HybridDynamicsInput : ForwardDynamicsInput<Tree, MaxOrder, Scalar> {
  using JointVector = typename Model<Tree, Scalar>::JointVector;
  static constexpr int kNumJoints = Tree::kNumBodies - 1;
  BaseInput base_input = BaseInput::kWrench;
  std::array<Twist<Scalar>, MaxOrder + 1> base_acceleration{};  ///< V₁^(k+1), k = 0..r
  /// Joint j (entry j−1) true: its q^(k+2) is prescribed in joint_acceleration;
  /// false: its torque τ^(k) is prescribed in joint_torque.
  std::array<bool, (kNumJoints > 0 ? kNumJoints : 1)> motion_prescribed{};
  std::array<JointVector, MaxOrder + 1> joint_acceleration{};    ///< q^(k+2), k = 0..r

  HybridDynamicsInput() {
    for (auto& v : base_acceleration) v.setZero();
    for (auto& a : joint_acceleration) a.setZero();
  }
};

/// Workspace and results of forward and hybrid dynamics.
template <class Tree, int MaxOrder, class Scalar = double>
struct ForwardDynamicsData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  using JointVector = typename Model<Tree, Scalar>::JointVector;

  // ---- results, valid for the order of the last successful call ----
  /// The state and its derivatives: base_twist[k] = V₁^(k) for k = 0..r+1 and
  /// q[k] = q^(k) for k = 0..r+2 (entries 0 and 0, 1 are the input state).
  MotionDerivatives<Tree, MaxOrder, Scalar> motion{};
  /// Q₁^(k), world frame: the input converted, or (hybrid, base motion given) computed.
  std::array<Wrench<Scalar>, MaxOrder + 1> base_wrench{};
  /// τ^(k): the input torques, and (hybrid) the torques of the prescribed joints.
  std::array<JointVector, MaxOrder + 1> joint_torque{};
  int order = -1;

  // ---- workspace (order-r quantities are Taylor coefficients, i.e. /r!) ----
  std::array<detail::BodySeries<MaxOrder, Scalar>, kNumBodies> body{};
  std::array<Matrix6<Scalar>, kNumBodies> articulated_inertia{};  ///< M^A_j (eq. 23), order-free
  std::array<Vector6<Scalar>, kNumBodies> inertia_times_screw{};  ///< U_j = M^A_j S_j
  std::array<Scalar, kNumBodies> inverse_joint_inertia{};         ///< D_j⁻¹ = (S_jᵀ M^A_j S_j)⁻¹
  std::array<Vector6<Scalar>, kNumBodies> bias{};                 ///< W^A_{j,r} (eq. 24)
  std::array<Vector6<Scalar>, kNumBodies> twist_bias{};           ///< V_{j,bias}^(r+1) (eq. 66)
  std::array<Vector6<Scalar>, kNumBodies> acceleration{};         ///< V_j^(r+1)
  std::array<Scalar, kNumBodies> partial_acceleration{};          ///< q̃_j^(r+2) (eq. 25)
  /// Taylor coefficients of q̇_j, n = 0..r+1.
  std::array<std::array<Scalar, MaxOrder + 2>, kNumBodies> joint_rate{};
  std::array<std::array<detail::SV<Scalar>, MaxOrder + 1>, kNumBodies> joint_wrench{};  ///< W_j,[k]
  std::array<detail::SV<Scalar>, MaxOrder + 1> base_wrench_input{};  ///< base-frame input, /k!
  detail::Cholesky6<Scalar> base_factor{};
  detail::MovingFrame<MaxOrder, Scalar> base_frame{};

  ForwardDynamicsData() { clear_results(); }
  void clear_results() {
    motion = MotionDerivatives<Tree, MaxOrder, Scalar>{};
    for (auto& w : base_wrench) w.setZero();
    for (auto& t : joint_torque) t.setZero();
    order = -1;
  }
};

template <class Tree, int MaxOrder, class Scalar = double>
using HybridDynamicsData = ForwardDynamicsData<Tree, MaxOrder, Scalar>;

namespace detail {

template <class Tree, int MaxOrder, class Scalar>
Status check_forward_input(const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                           const HybridDynamicsInput<Tree, MaxOrder, Scalar>* hybrid,
                           const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) {
  if (order < 0 || order > MaxOrder) return Status::kOrderOutOfRange;
  const Status pose = check_pose(in.base_pose);
  if (pose != Status::kOk) return pose;
  if (!all_finite(in.base_twist) || !all_finite(in.q) || !all_finite(in.q_dot))
    return Status::kNonFiniteInput;
  for (int k = 0; k <= order; ++k) {
    if (!all_finite(in.joint_torque[k])) return Status::kNonFiniteInput;
    if ((hybrid == nullptr || hybrid->base_input == BaseInput::kWrench) &&
        !all_finite(in.base_wrench[k]))
      return Status::kNonFiniteInput;
    if (hybrid != nullptr) {
      if (hybrid->base_input == BaseInput::kMotion && !all_finite(hybrid->base_acceleration[k]))
        return Status::kNonFiniteInput;
      if (!all_finite(hybrid->joint_acceleration[k])) return Status::kNonFiniteInput;
    }
  }
  if (loads != nullptr && !loads_finite(*loads, order)) return Status::kNonFiniteInput;
  return Status::kOk;
}

/// Order 0: poses, screws, twists, centre-of-mass and inertia rates, and the
/// articulated inertias (eq. 23), computed once for all orders (Lemma 2).
/// Returns false when a joint inertia D_j or the base's M^A is singular.
template <bool kHybrid, class Tree, int MaxOrder, class Scalar>
bool articulated_inertias(const Model<Tree, Scalar>& model,
                          ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                          const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                          const HybridDynamicsInput<Tree, MaxOrder, Scalar>* hybrid,
                          bool factor_base) {
  using S = Scalar;
  using Traits = ScalarTraits<S>;
  using Primal = decltype(Traits::primal(S(0)));
  constexpr int n = Tree::kNumBodies;
  auto& base = data.body[0];
  place_base(model, in.base_pose, base);
  base.twist[0] = SV<S>::from(in.base_twist);
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = data.body[j];
    data.joint_rate[j][0] = in.q_dot(j - 1);
    place_body<K>(model, j, data.body[Tree::kParent[j]], in.q(j - 1), b);
    const auto& rate = data.joint_rate[j];
    twist_coefficient<K>(0, data.body[Tree::kParent[j]].twist[0], [&](int i) { return rate[i]; }, b);
  });
  for (int j = 0; j < n; ++j) {
    auto& b = data.body[j];
    b.com[1] = point_next_coefficient(0, b.twist, b.com);
    inertia_next_coefficient(0, b);
    data.articulated_inertia[j] = spatial_inertia_matrix(model.mass(j), b.com[0], b.inertia[0]);
  }
  bool singular = false;
  for_each_joint_reverse<Tree>([&](auto, int j) {
    const Matrix6<S>& ma = data.articulated_inertia[j];
    Matrix6<S>& parent = data.articulated_inertia[Tree::kParent[j]];
    if constexpr (kHybrid) {
      if (hybrid->motion_prescribed[j - 1]) {
        parent += ma;
        return;
      }
    }
    const Vector6<S> s = data.body[j].screw[0].eigen();
    const Vector6<S> u = ma * s;
    const S d = s.dot(u);
    const Primal tiny = Traits::primal(ma.trace()) * std::numeric_limits<Primal>::epsilon() * 64;
    if (!Traits::is_finite(d) || !(Traits::primal(d) > tiny)) {
      singular = true;
      return;
    }
    const S d_inv = S(1) / d;
    data.inertia_times_screw[j] = u;
    data.inverse_joint_inertia[j] = d_inv;
    parent.noalias() -= (u * d_inv) * u.transpose();
    parent += ma;
  });
  if (singular) return false;
  return !factor_base || data.base_factor.compute(data.articulated_inertia[0]);
}

/// Orders 0..order of Alg. 3 (kHybrid = false) or Alg. 4 (kHybrid = true); a
/// FixedOrder ≥ 0 makes the order a compile-time constant (small orders unroll).
/// Everything of order r is a Taylor coefficient: W_[r] = W^(r)/r!, and the
/// unknowns y_j = V_j^(r+1)/r!, α_j = q_j^(r+2)/r! satisfy the order-0 form of
/// eqs. 24-26 (Lemma 2) with the biases of order r.
template <int FixedOrder, bool kHybrid, class Tree, int MaxOrder, class Scalar>
void articulated_orders(int run_order, const Model<Tree, Scalar>& model,
                        ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                        const HybridDynamicsInput<Tree, MaxOrder, Scalar>* hybrid,
                        const ExternalLoads<Tree, MaxOrder, Scalar>* loads, bool base_motion_given) {
  using S = Scalar;
  constexpr int n = Tree::kNumBodies;
  const V3<S> g = V3<S>::from(model.gravity());
  auto& motion = data.motion;
  auto& base = data.body[0];
  const auto prescribed = [&](int j) -> bool {
    if constexpr (kHybrid) return hybrid->motion_prescribed[j - 1];
    return false;
  };
  data.base_frame.start(M3<S>::from(in.base_pose.rotation), V3<S>::from(in.base_pose.translation));
  const int order = FixedOrder >= 0 ? FixedOrder : run_order;
  for (int r = 0; r <= order; ++r) {
    const S inv_fact = inverse_factorial<S>(r);
    const S fact = factorial<S>(r);

    // ---- the propulsion wrench coefficient Q_[r] in the world frame ----
    Vector6<S> q_base = Vector6<S>::Zero();
    if (r > 0) data.base_frame.extend(r, base.twist);
    if (!base_motion_given) {
      if (in.base_wrench_frame == WrenchFrame::kWorld) {
        q_base = inv_fact * in.base_wrench[r];
      } else {
        data.base_wrench_input[r] = inv_fact * SV<S>::from(in.base_wrench[r]);
        q_base = data.base_frame.to_world(r, data.base_wrench_input).eigen();
      }
    }

    // ---- biases: everything of order r but the unknown V^(r+1), q^(r+2) ----
    for (int j = 0; j < n; ++j) {
      auto& b = data.body[j];
      b.twist[r + 1] = SV<S>{};
      b.com[r + 2] = point_next_coefficient(r + 1, b.twist, b.com);
      data.bias[j] = own_wrench_coefficient(r, model.mass(j), g, b).eigen();
    }
    if (loads != nullptr) {
      std::array<SV<S>, MaxOrder + 1> applied{};
      for (int j = 0; j < n; ++j) {
        if (!loads->has_world_wrench[j] && !loads->has_body_wrench[j]) continue;
        applied_wrench_coefficients(model, *loads, j, r, data.body[j], applied);
        data.bias[j] -= applied[r].eigen();
      }
    }
    for_each_joint<Tree>([&](auto kind, int j) {
      constexpr JointKind K = decltype(kind)::value;
      auto& b = data.body[j];
      screw_coefficient<K>(r + 1, b);
      // (r+1) Σ_{m=1}^{r+1} S_[m] q̇_[r+1−m]: the known part of (r+1) V_[r+1] − V_p,[r+1]·(r+1).
      SV<S> vb{};
      for (int m = 1; m <= r + 1; ++m) vb += data.joint_rate[j][r + 1 - m] * b.screw[m];
      data.twist_bias[j] = (S(r + 1) * vb).eigen();
    });

    // ---- backward pass (eqs. 24-25; Alg. 4 for prescribed joints) ----
    for_each_joint_reverse<Tree>([&](auto, int j) {
      const auto& b = data.body[j];
      const Matrix6<S>& ma = data.articulated_inertia[j];
      const Vector6<S>& vb = data.twist_bias[j];
      const Vector6<S> s0 = b.screw[0].eigen();
      Vector6<S> contribution = data.bias[j] + ma * vb;
      if (prescribed(j)) {
        if constexpr (kHybrid)
          contribution += ma * (s0 * (inv_fact * hybrid->joint_acceleration[r](j - 1)));
      } else {
        S tau_tilde(0);  // Σ_{i=1}^{r} S_[i]·W_[r−i]
        for (int i = 1; i <= r; ++i) tau_tilde += dot(b.screw[i], data.joint_wrench[j][r - i]);
        S tau = inv_fact * in.joint_torque[r](j - 1) - tau_tilde -
                data.inertia_times_screw[j].dot(vb) - s0.dot(data.bias[j]);
        if (loads != nullptr) tau += inv_fact * loads->joint_torque[r](j - 1);
        const S qt = data.inverse_joint_inertia[j] * tau;
        data.partial_acceleration[j] = qt;
        contribution += data.inertia_times_screw[j] * qt;
      }
      data.bias[Tree::kParent[j]] += contribution;
    });

    // ---- base ----
    Vector6<S>& y0 = data.acceleration[0];
    if (base_motion_given) {
      if constexpr (kHybrid) y0 = inv_fact * hybrid->base_acceleration[r];
      q_base = data.articulated_inertia[0] * y0 + data.bias[0];
    } else {
      y0 = data.base_factor.solve(q_base - data.bias[0]);
    }
    base.twist[r + 1] = reciprocal<S>(r + 1) * SV<S>::from(y0);
    motion.base_twist[r + 1] = fact * y0;
    data.base_wrench[r] = fact * q_base;
    data.joint_wrench[0][r] = SV<S>::from(q_base);
    data.joint_torque[r] = in.joint_torque[r];

    // ---- forward pass (eq. 26) ----
    for_each_joint<Tree>([&](auto, int j) {
      auto& b = data.body[j];
      const Vector6<S>& yp = data.acceleration[Tree::kParent[j]];
      const Vector6<S> s0 = b.screw[0].eigen();
      S alpha;
      if (prescribed(j)) {
        if constexpr (kHybrid) alpha = inv_fact * hybrid->joint_acceleration[r](j - 1);
      } else {
        alpha = data.partial_acceleration[j] -
                data.inverse_joint_inertia[j] * data.inertia_times_screw[j].dot(yp);
      }
      const Vector6<S> y = yp + s0 * alpha + data.twist_bias[j];
      data.acceleration[j] = y;
      b.twist[r + 1] = reciprocal<S>(r + 1) * SV<S>::from(y);
      data.joint_rate[j][r + 1] = reciprocal<S>(r + 1) * alpha;
      motion.q[r + 2](j - 1) = fact * alpha;
      const Vector6<S> w = data.articulated_inertia[j] * y + data.bias[j];
      data.joint_wrench[j][r] = SV<S>::from(w);
      if (prescribed(j)) {
        S tau = s0.dot(w);
        for (int i = 1; i <= r; ++i) tau += dot(b.screw[i], data.joint_wrench[j][r - i]);
        if (loads != nullptr) tau -= inv_fact * loads->joint_torque[r](j - 1);
        data.joint_torque[r](j - 1) = fact * tau;
      }
    });

    // ---- kinematics for the next order: c_[r+2], I_[r+2] from the solved V_[r+1] ----
    if (r < order) {
      for (int j = 0; j < n; ++j) {
        auto& b = data.body[j];
        b.com[r + 2] = point_next_coefficient(r + 1, b.twist, b.com);
        inertia_next_coefficient(r + 1, b);
      }
    }
  }
}

/// The engine of Alg. 3 (kHybrid = false) and Alg. 4 (kHybrid = true).
template <bool kHybrid, class Tree, int MaxOrder, class Scalar>
Status articulated_body_dynamics(const Model<Tree, Scalar>& model,
                                 ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                                 const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                                 const HybridDynamicsInput<Tree, MaxOrder, Scalar>* hybrid,
                                 const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) {
  const Status input = check_forward_input(in, hybrid, loads, order);
  if (input != Status::kOk) {
    data.clear_results();
    return input;
  }
  const bool base_motion_given = kHybrid && hybrid->base_input == BaseInput::kMotion;
  auto& motion = data.motion;
  motion.base_pose = in.base_pose;
  motion.base_twist[0] = in.base_twist;
  motion.q[0] = in.q;
  motion.q[1] = in.q_dot;
  if (!articulated_inertias<kHybrid>(model, data, in, hybrid, !base_motion_given)) {
    data.clear_results();
    return Status::kSingularInertia;
  }
  if (order == 0) {
    articulated_orders<0, kHybrid>(0, model, data, in, hybrid, loads, base_motion_given);
  } else if constexpr (MaxOrder >= 1) {
    if (order == 1) {
      articulated_orders<1, kHybrid>(1, model, data, in, hybrid, loads, base_motion_given);
    } else {
      articulated_orders<-1, kHybrid>(order, model, data, in, hybrid, loads, base_motion_given);
    }
  }
  for (int k = 0; k <= order; ++k) {
    if (!all_finite(motion.base_twist[k + 1]) || !all_finite(motion.q[k + 2]) ||
        !all_finite(data.base_wrench[k]) || !all_finite(data.joint_torque[k])) {
      data.clear_results();
      return Status::kNonFiniteResult;
    }
  }
  data.order = order;
  return Status::kOk;
}

}  // namespace detail

/// Forward dynamics of orders 0..order (`loads` may be null).
template <class Tree, int MaxOrder, class Scalar>
Status forward_dynamics(const Model<Tree, Scalar>& model,
                        ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& input,
                        const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) noexcept {
  return detail::articulated_body_dynamics<false>(
      model, data, input, static_cast<const HybridDynamicsInput<Tree, MaxOrder, Scalar>*>(nullptr),
      loads, order);
}

template <class Tree, int MaxOrder, class Scalar>
Status forward_dynamics(const Model<Tree, Scalar>& model,
                        ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                        const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& input,
                        int order) noexcept {
  return forward_dynamics(model, data, input,
                          static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr), order);
}

/// Hybrid dynamics of orders 0..order (`loads` may be null).
template <class Tree, int MaxOrder, class Scalar>
Status hybrid_dynamics(const Model<Tree, Scalar>& model,
                       HybridDynamicsData<Tree, MaxOrder, Scalar>& data,
                       const HybridDynamicsInput<Tree, MaxOrder, Scalar>& input,
                       const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) noexcept {
  return detail::articulated_body_dynamics<true>(model, data, input, &input, loads, order);
}

template <class Tree, int MaxOrder, class Scalar>
Status hybrid_dynamics(const Model<Tree, Scalar>& model,
                       HybridDynamicsData<Tree, MaxOrder, Scalar>& data,
                       const HybridDynamicsInput<Tree, MaxOrder, Scalar>& input,
                       int order) noexcept {
  return hybrid_dynamics(model, data, input,
                         static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr), order);
}

}  // namespace hodyn
