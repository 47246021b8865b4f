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

#include "hodyn/binomial.hpp"
#include "hodyn/detail/body_recursions.hpp"
#include "hodyn/detail/cholesky6.hpp"
#include "hodyn/detail/moving_frame.hpp"
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

  // ---- workspace ----
  std::array<detail::BodyDerivatives<MaxOrder, Scalar>, kNumBodies> body{};
  std::array<Matrix6<Scalar>, kNumBodies> articulated_inertia{};  ///< M^A_j (eq. 23), order-free
  std::array<Twist<Scalar>, kNumBodies> inertia_times_screw{};    ///< U_j = M^A_j S_j
  std::array<Scalar, kNumBodies> inverse_joint_inertia{};         ///< D_j⁻¹ = (S_jᵀ M^A_j S_j)⁻¹
  std::array<Wrench<Scalar>, kNumBodies> bias{};                  ///< W^A_{j,r}, current order
  std::array<Twist<Scalar>, kNumBodies> twist_bias{};             ///< V_{j,bias}^(r+1) (eq. 66)
  std::array<Scalar, kNumBodies> partial_acceleration{};          ///< q̃_j^(r+2) (eq. 25)
  std::array<std::array<Wrench<Scalar>, MaxOrder + 1>, kNumBodies> joint_wrench{};  ///< W_j^(k)
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
  if (loads != nullptr) {
    for (int j = 0; j < Tree::kNumBodies; ++j)
      for (int k = 0; k <= order; ++k) {
        if (loads->has_world_wrench[j] && !all_finite(loads->world_wrench[j][k]))
          return Status::kNonFiniteInput;
        if (loads->has_body_wrench[j] && !all_finite(loads->body_wrench[j][k]))
          return Status::kNonFiniteInput;
      }
    for (int k = 0; k <= order; ++k)
      if (!all_finite(loads->joint_torque[k])) return Status::kNonFiniteInput;
  }
  return Status::kOk;
}

/// The engine of Alg. 3 (kHybrid = false) and Alg. 4 (kHybrid = true).
template <bool kHybrid, class Tree, int MaxOrder, class Scalar>
Status articulated_body_dynamics(const Model<Tree, Scalar>& model,
                                 ForwardDynamicsData<Tree, MaxOrder, Scalar>& data,
                                 const ForwardDynamicsInput<Tree, MaxOrder, Scalar>& in,
                                 const HybridDynamicsInput<Tree, MaxOrder, Scalar>* hybrid,
                                 const ExternalLoads<Tree, MaxOrder, Scalar>* loads, int order) {
  using Traits = ScalarTraits<Scalar>;
  using Primal = decltype(Traits::primal(Scalar(0)));
  constexpr int n = Tree::kNumBodies;
  const Status input = check_forward_input(in, hybrid, loads, order);
  if (input != Status::kOk) {
    data.clear_results();
    return input;
  }
  const auto prescribed = [&](int j) -> bool {
    if constexpr (kHybrid) return hybrid->motion_prescribed[j - 1];
    return false;
  };
  const bool base_motion_given = kHybrid && hybrid->base_input == BaseInput::kMotion;
  const Vector3<Scalar>& g = model.gravity();
  auto& motion = data.motion;
  motion.base_pose = in.base_pose;
  motion.base_twist[0] = in.base_twist;
  motion.q[0] = in.q;
  motion.q[1] = in.q_dot;
  const auto qd = [&](int j) { return [&motion, j](int i) -> const Scalar& { return motion.q[i](j - 1); }; };

  // ---- order 0 kinematics: poses, screws, twists, centre-of-mass and inertia rates ----
  auto& base = data.body[0];
  place_base(model, in.base_pose, base);
  base.twist[0] = in.base_twist;
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const auto& parent = data.body[Tree::kParent[j]];
    place_body<K>(model, j, parent.joint_pose, in.q(j - 1), data.body[j]);
    twist_derivative<K>(0, parent.twist[0], qd(j), data.body[j]);
  });
  for (int j = 0; j < n; ++j) {
    auto& b = data.body[j];
    b.com[1] = point_next_derivative(0, b.twist, b.com);
    inertia_next_derivative(0, b);
    data.articulated_inertia[j] = spatial_inertia_matrix(model.mass(j), b.com[0], b.inertia[0]);
  }

  // ---- articulated inertias (eq. 23), once for all orders (Lemma 2) ----
  bool singular = false;
  for_each_joint_reverse<Tree>([&](auto, int j) {
    const Matrix6<Scalar>& ma = data.articulated_inertia[j];
    const Twist<Scalar>& s = data.body[j].screw[0];
    Matrix6<Scalar>& parent = data.articulated_inertia[Tree::kParent[j]];
    if (prescribed(j)) {
      parent += ma;
      return;
    }
    const Twist<Scalar> u = ma * s;
    const Scalar d = s.dot(u);
    const Primal scale = Traits::primal(ma.trace());
    if (!Traits::is_finite(d) ||
        !(Traits::primal(d) > scale * std::numeric_limits<Primal>::epsilon() * Primal(64))) {
      singular = true;
      return;
    }
    const Scalar d_inv = Scalar(1) / d;
    data.inertia_times_screw[j] = u;
    data.inverse_joint_inertia[j] = d_inv;
    parent += ma - (u * d_inv) * u.transpose();
  });
  if (!singular && !base_motion_given) singular = !data.base_factor.compute(data.articulated_inertia[0]);
  if (singular) {
    data.clear_results();
    return Status::kSingularInertia;
  }

  data.base_frame.start(in.base_pose);
  for (int r = 0; r <= order; ++r) {
    // ---- propulsion wrench of this order in the world frame ----
    if (r > 0) data.base_frame.extend(r, base.twist);
    if (!base_motion_given) {
      data.base_wrench[r] = in.base_wrench_frame == WrenchFrame::kWorld
                                ? in.base_wrench[r]
                                : data.base_frame.to_world(r, in.base_wrench);
    }
    data.joint_torque[r] = in.joint_torque[r];

    // ---- biases: everything of order r except the unknown V^(r+1), q^(r+2) ----
    for (int j = 0; j < n; ++j) {
      auto& b = data.body[j];
      b.twist[r + 1].setZero();
      b.com[r + 2] = point_next_derivative(r + 1, b.twist, b.com);
      data.bias[j] = momentum_rate_minus_gravity(r, model.mass(j), g, b);
    }
    if (loads != nullptr) {
      for (int j = 0; j < n; ++j) {
        if (loads->has_world_wrench[j]) data.bias[j] -= loads->world_wrench[j][r];
        if (loads->has_body_wrench[j]) {
          MovingFrame<MaxOrder, Scalar> frame;  // recomputed per order: loads are not the hot path
          frame.start(data.body[j].joint_pose * model.home_pose(j));
          Wrench<Scalar> w = Wrench<Scalar>::Zero();
          for (int k = 0; k <= r; ++k) {
            if (k > 0) frame.extend(k, data.body[j].twist);
            w = frame.to_world(k, loads->body_wrench[j]);
          }
          data.bias[j] -= w;
        }
      }
    }
    for_each_joint<Tree>([&](auto kind, int j) {
      constexpr JointKind K = decltype(kind)::value;
      auto& b = data.body[j];
      screw_derivative<K>(r + 1, b);
      // V_bias^(r+1) = Σ_{m=1}^{r+1} C(r+1,m) S^(m) q^(r+2−m)   (eq. 66)
      Twist<Scalar> vb = Twist<Scalar>::Zero();
      for (int m = 1; m <= r + 1; ++m)
        vb += (binomial<Scalar>(r + 1, m) * motion.q[r + 2 - m](j - 1)) * b.screw[m];
      data.twist_bias[j] = vb;
    });

    // ---- backward pass (eqs. 24-25; Alg. 4 for prescribed joints) ----
    for_each_joint_reverse<Tree>([&](auto, int j) {
      const auto& b = data.body[j];
      const Twist<Scalar>& u = data.inertia_times_screw[j];
      const Matrix6<Scalar>& ma = data.articulated_inertia[j];
      const Twist<Scalar>& vb = data.twist_bias[j];
      Wrench<Scalar> contribution = data.bias[j] + ma * vb;
      if (prescribed(j)) {
        if constexpr (kHybrid) contribution += ma * (b.screw[0] * hybrid->joint_acceleration[r](j - 1));
      } else {
        Scalar tau_tilde(0);  // Σ_{k<r} C(r,k) (S^(r−k))ᵀ W^(k)
        for (int k = 0; k < r; ++k)
          tau_tilde += binomial<Scalar>(r, k) * b.screw[r - k].dot(data.joint_wrench[j][k]);
        Scalar tau = in.joint_torque[r](j - 1) - tau_tilde - u.dot(vb) - b.screw[0].dot(data.bias[j]);
        if (loads != nullptr) tau += loads->joint_torque[r](j - 1);
        const Scalar qt = data.inverse_joint_inertia[j] * tau;
        data.partial_acceleration[j] = qt;
        contribution += u * qt;
      }
      data.bias[Tree::kParent[j]] += contribution;
    });

    // ---- base ----
    if (base_motion_given) {
      if constexpr (kHybrid) base.twist[r + 1] = hybrid->base_acceleration[r];
      data.base_wrench[r] = data.articulated_inertia[0] * base.twist[r + 1] + data.bias[0];
    } else {
      base.twist[r + 1] = data.base_factor.solve(data.base_wrench[r] - data.bias[0]);
    }
    motion.base_twist[r + 1] = base.twist[r + 1];
    data.joint_wrench[0][r] = data.base_wrench[r];

    // ---- forward pass (eq. 26) ----
    for_each_joint<Tree>([&](auto, int j) {
      auto& b = data.body[j];
      const Twist<Scalar>& vp = data.body[Tree::kParent[j]].twist[r + 1];
      Scalar acc;
      if (prescribed(j)) {
        if constexpr (kHybrid) acc = hybrid->joint_acceleration[r](j - 1);
      } else {
        acc = data.partial_acceleration[j] -
              data.inverse_joint_inertia[j] * data.inertia_times_screw[j].dot(vp);
      }
      motion.q[r + 2](j - 1) = acc;
      b.twist[r + 1] = vp + b.screw[0] * acc + data.twist_bias[j];
      data.joint_wrench[j][r] = data.articulated_inertia[j] * b.twist[r + 1] + data.bias[j];
      if (prescribed(j)) {
        Scalar tau = b.screw[0].dot(data.joint_wrench[j][r]);
        for (int k = 0; k < r; ++k)
          tau += binomial<Scalar>(r, k) * b.screw[r - k].dot(data.joint_wrench[j][k]);
        if (loads != nullptr) tau -= loads->joint_torque[r](j - 1);
        data.joint_torque[r](j - 1) = tau;
      }
    });

    // ---- kinematics for the next order: c^(r+2), I^(r+2) from the solved V^(r+1) ----
    if (r < order) {
      for (int j = 0; j < n; ++j) {
        auto& b = data.body[j];
        b.com[r + 2] = point_next_derivative(r + 1, b.twist, b.com);
        inertia_next_derivative(r + 1, b);
      }
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
