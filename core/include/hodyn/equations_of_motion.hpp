// hodyn/equations_of_motion.hpp — the closed-form equations of motion of a
// floating-base tree (seed 000 Prop. 1, Lemma 1) and their first time derivatives.
//
//   τ̄ = M̄(Q) ν̇ + h(Q, ν) + g(Q) + τ_app(Q)                               (eq. 10)
//   τ̄ = (Q₁ ; τ + τ_ext),  ν = (V₁ ; q̇),  h = C ν
// with, for generalized velocities l, i with screws s_l, s_i moving bodies
// b(l), b(i) (base velocities: unit screws on the base) and d the deeper of
// the two bodies when one is an ancestor of the other (otherwise the entry is 0):
//   M̄_li = s_lᵀ M^C_d s_i                                  (eq. 11, composite inertia)
//   C_li = s_lᵀ (M^C_d ṡ_i − P^C_d s_i),  P_k = ad_{V_k}ᵀ M_k    (Lemma 1, eq. 21)
//   g_l  = −s_lᵀ M^C_{b(l)} G,   τ_app,l = −s_lᵀ W^C_{app,b(l)}  (eqs. 12-13)
// where X^C_d sums X_k over the subtree of d. The first derivatives follow by
// differentiating each factor: Ṁ_k = −(M_k ad_{V_k} + ad_{V_k}ᵀ M_k), ṡ = ad_V s
// (zero for the base, digest erratum E3), s̈ = ad_V̇ s + ad_V ṡ, so that
//   τ̄̇ = M̄ ν̈ + Ṁ̄ ν̇ + Ċ ν + C ν̇ + ġ + τ̇_app                               (eq. 14, corrected)
//
// `mass_matrix` is the fast path for M̄ alone (composite rigid bodies on the
// ten inertia parameters, no 6x6 products). `equations_of_motion` computes
// everything; it uses dense 6x6 body matrices and is meant for analysis,
// controllers that need C, and tests, not for the innermost loop.
// Sizes are compile-time: trees up to kMaxClosedFormDofs generalized velocities.
#pragma once

#include <array>

#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/applied_loads.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/spatial_inertia.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {

/// Largest number of generalized velocities (6 + joints) for the dense closed forms.
inline constexpr int kMaxClosedFormDofs = 64;

/// Closed-form terms of eq. 10 and their first derivatives (eq. 14).
template <class Tree, class Scalar = double>
struct EquationsOfMotion {
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  static_assert(kDofs <= kMaxClosedFormDofs, "closed forms are for trees up to 64 dofs");
  using Matrix = Eigen::Matrix<Scalar, kDofs, kDofs>;
  using Vector = Eigen::Matrix<Scalar, kDofs, 1>;

  Matrix mass_matrix = Matrix::Zero();        ///< M̄ (symmetric positive definite)
  Matrix coriolis_matrix = Matrix::Zero();    ///< C of Lemma 1: ½ dM̄/dt − C is skew
  Vector coriolis = Vector::Zero();           ///< h = C ν
  Vector gravity = Vector::Zero();            ///< g
  Vector applied = Vector::Zero();            ///< τ_app = −Sᵀ G_c W_app (applied wrenches)
  // First time derivatives (computed when requested):
  Matrix mass_matrix_rate = Matrix::Zero();      ///< dM̄/dt
  Matrix coriolis_matrix_rate = Matrix::Zero();  ///< dC/dt
  Vector coriolis_rate = Vector::Zero();         ///< dh/dt = Ċ ν + C ν̇
  Vector gravity_rate = Vector::Zero();          ///< dg/dt
  Vector applied_rate = Vector::Zero();          ///< dτ_app/dt

  void set_zero() { *this = EquationsOfMotion{}; }
};

/// Workspace and results of the closed forms.
template <class Tree, class Scalar = double>
struct EquationsOfMotionData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  EquationsOfMotion<Tree, Scalar> result{};
  // workspace
  std::array<detail::BodySeries<1, Scalar>, kNumBodies> body{};
  std::array<SpatialInertia<Scalar>, kNumBodies> composite{};  ///< M^C (mass matrix path)
  std::array<Matrix6<Scalar>, kNumBodies> composite_inertia{};       ///< M^C
  std::array<Matrix6<Scalar>, kNumBodies> composite_inertia_rate{};  ///< Ṁ^C
  std::array<Matrix6<Scalar>, kNumBodies> composite_coriolis{};      ///< P^C
  std::array<Matrix6<Scalar>, kNumBodies> composite_coriolis_rate{};  ///< Ṗ^C
  std::array<Wrench<Scalar>, kNumBodies> composite_applied{};        ///< W^C_app
  std::array<Wrench<Scalar>, kNumBodies> composite_applied_rate{};   ///< Ẇ^C_app
};

namespace detail {

/// ancestor_or_self[a][b]: body a lies on the path from the base to body b.
template <class Tree>
constexpr auto ancestor_table() {
  constexpr int n = Tree::kNumBodies;
  std::array<std::array<bool, n>, n> t{};
  for (int b = 0; b < n; ++b)
    for (int a = b; a >= 0; a = Tree::kParent[a]) t[a][b] = true;
  return t;
}

/// The body a generalized velocity belongs to (base velocities: body 0).
constexpr int dof_body(int l) { return l < 6 ? 0 : l - 5; }

/// Poses, screws and (when `motion` is given) the Taylor coefficients of
/// twists to `kinematic_order` and screws to `kinematic_order` + 1.
template <class Tree, class Scalar>
void place_and_move(const Model<Tree, Scalar>& model,
                    std::array<BodySeries<1, Scalar>, Tree::kNumBodies>& body,
                    const Pose<Scalar>& base_pose,
                    const typename Model<Tree, Scalar>::JointVector& q,
                    const MotionDerivatives<Tree, 1, Scalar>* motion, int kinematic_order) {
  place_base(model, base_pose, body[0]);
  if (motion != nullptr)
    for (int k = 0; k <= kinematic_order; ++k)
      body[0].twist[k] = inverse_factorial<Scalar>(k) * SV<Scalar>::from(motion->base_twist[k]);
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = body[j];
    const auto& parent = body[Tree::kParent[j]];
    place_body<K>(model, j, parent, q(j - 1), b);
    if (motion == nullptr) return;
    const auto qd = [&](int n) -> Scalar { return inverse_factorial<Scalar>(n) * motion->q[n + 1](j - 1); };
    for (int k = 0; k <= kinematic_order; ++k) {
      if (k > 0) screw_coefficient<K>(k, b);
      twist_coefficient<K>(k, parent.twist[k], qd, b);
    }
    screw_coefficient<K>(kinematic_order + 1, b);
  });
}

}  // namespace detail

/// M̄ alone (composite-rigid-body algorithm on structured inertias).
/// Result in data.result.mass_matrix.
template <class Tree, class Scalar>
Status mass_matrix(const Model<Tree, Scalar>& model, EquationsOfMotionData<Tree, Scalar>& data,
                   const Pose<Scalar>& base_pose,
                   const typename Model<Tree, Scalar>::JointVector& q) noexcept {
  constexpr int n = Tree::kNumBodies;
  auto& mm = data.result.mass_matrix;
  Status s = detail::check_pose(base_pose);
  if (s == Status::kOk && !detail::all_finite(q)) s = Status::kNonFiniteInput;
  if (s != Status::kOk) {
    mm.setZero();
    return s;
  }
  detail::place_and_move<Tree, Scalar>(model, data.body, base_pose, q, nullptr, 0);
  for (int j = 0; j < n; ++j) {
    const auto& b = data.body[j];
    const auto& i = b.inertia[0];
    Matrix3<Scalar> ic;
    ic << i.xx, i.xy, i.xz, i.xy, i.yy, i.yz, i.xz, i.yz, i.zz;
    data.composite[j] = SpatialInertia<Scalar>::from_mass_com_inertia(model.mass(j), b.com[0].eigen(), ic);
  }
  for_each_joint_reverse<Tree>([&](auto, int j) {
    auto& parent = data.composite[Tree::kParent[j]];
    const auto& c = data.composite[j];
    parent.mass += c.mass;
    parent.first_moment += c.first_moment;
    parent.rotational_inertia += c.rotational_inertia;
  });
  mm.template topLeftCorner<6, 6>() = data.composite[0].matrix();
  for_each_joint<Tree>([&](auto, int j) {
    const int col = 5 + j;
    const Wrench<Scalar> f = data.composite[j].momentum(data.body[j].screw[0].eigen());  // M^C_j S_j
    mm.template block<6, 1>(0, col) = f;
    mm.template block<1, 6>(col, 0) = f.transpose();
    for (int i = j; i > 0; i = Tree::kParent[i]) {
      const Scalar v = data.body[i].screw[0].eigen().dot(f);
      mm(5 + i, col) = v;
      mm(col, 5 + i) = v;
    }
  });
  // Entries of joints on different branches are zero.
  constexpr auto related = detail::ancestor_table<Tree>();
  for (int a = 1; a < n; ++a)
    for (int b = 1; b < n; ++b)
      if (!related[a][b] && !related[b][a]) mm(5 + a, 5 + b) = Scalar(0);
  if (!detail::all_finite(mm)) {
    mm.setZero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

/// All closed-form terms at the state of `motion` (base_pose, base_twist[0],
/// q[0], q[1]); with `with_rates`, also their first time derivatives, which
/// read base_twist[1] and q[2] (ν̇). `loads` (order ≤ 1 entries) may be null.
template <class Tree, class Scalar>
Status equations_of_motion(const Model<Tree, Scalar>& model,
                           EquationsOfMotionData<Tree, Scalar>& data,
                           const MotionDerivatives<Tree, 1, Scalar>& motion,
                           const ExternalLoads<Tree, 1, Scalar>* loads, bool with_rates) noexcept {
  constexpr int n = Tree::kNumBodies;
  constexpr int dofs = TreeTraits<Tree>::kNumDofs;
  auto& out = data.result;
  const int kin = with_rates ? 1 : 0;
  Status s = detail::check_pose(motion.base_pose);
  for (int k = 0; s == Status::kOk && k <= kin; ++k)
    if (!detail::all_finite(motion.base_twist[k])) s = Status::kNonFiniteInput;
  for (int k = 0; s == Status::kOk && k <= kin + 1; ++k)
    if (!detail::all_finite(motion.q[k])) s = Status::kNonFiniteInput;
  if (s == Status::kOk && loads != nullptr)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k <= kin; ++k)
        if ((loads->has_world_wrench[j] && !detail::all_finite(loads->world_wrench[j][k])) ||
            (loads->has_body_wrench[j] && !detail::all_finite(loads->body_wrench[j][k])))
          s = Status::kNonFiniteInput;
  if (s != Status::kOk) {
    out.set_zero();
    return s;
  }
  detail::place_and_move<Tree, Scalar>(model, data.body, motion.base_pose, motion.q[0], &motion, kin);

  Wrench<Scalar> gravity_twist = Wrench<Scalar>::Zero();
  linear(gravity_twist) = model.gravity();
  for (int j = 0; j < n; ++j) {
    const auto& b = data.body[j];
    const Matrix6<Scalar> m = detail::spatial_inertia_matrix(model.mass(j), b.com[0], b.inertia[0]);
    const Twist<Scalar> v = b.twist[0].eigen();
    const Twist<Scalar> v_dot = b.twist[1].eigen();  // V_[1] = V̇
    const Matrix6<Scalar> y = m * ad_matrix<Scalar>(v);  // M ad_V
    data.composite_inertia[j] = m;
    data.composite_coriolis[j] = y.transpose();                  // ad_Vᵀ M
    const Matrix6<Scalar> m_rate = -(y + y.transpose());          // Ṁ
    data.composite_inertia_rate[j] = m_rate;
    data.composite_coriolis_rate[j] =
        with_rates ? Matrix6<Scalar>(ad_matrix<Scalar>(v_dot).transpose() * m +
                                     ad_matrix<Scalar>(v).transpose() * m_rate)
                   : Matrix6<Scalar>::Zero();
    data.composite_applied[j].setZero();
    data.composite_applied_rate[j].setZero();
    if (loads != nullptr) {
      if (loads->has_world_wrench[j]) {
        data.composite_applied[j] += loads->world_wrench[j][0];
        data.composite_applied_rate[j] += loads->world_wrench[j][1];
      }
      if (loads->has_body_wrench[j]) {
        std::array<detail::SV<Scalar>, 2> applied{};
        detail::applied_wrench_coefficients(model, *loads, j, kin, b, applied);
        // the world-frame part was added above; applied[] holds world + body parts
        if (loads->has_world_wrench[j]) {
          applied[0] -= detail::SV<Scalar>::from(loads->world_wrench[j][0]);
          applied[1] -= detail::SV<Scalar>::from(loads->world_wrench[j][1]);
        }
        data.composite_applied[j] += applied[0].eigen();
        if (with_rates) data.composite_applied_rate[j] += applied[1].eigen();  // coefficient 1 = rate
      }
    }
  }
  for_each_joint_reverse<Tree>([&](auto, int j) {
    const int p = Tree::kParent[j];
    data.composite_inertia[p] += data.composite_inertia[j];
    data.composite_coriolis[p] += data.composite_coriolis[j];
    data.composite_inertia_rate[p] += data.composite_inertia_rate[j];
    data.composite_coriolis_rate[p] += data.composite_coriolis_rate[j];
    data.composite_applied[p] += data.composite_applied[j];
    data.composite_applied_rate[p] += data.composite_applied_rate[j];
  });

  // Screws of the generalized velocities: unit twists for the base, S_j for joints.
  // S^(k) = k! S_[k]: the screw, its rate and its second derivative.
  const auto screw = [&](int l, int order) -> Twist<Scalar> {
    if (l < 6) return order == 0 ? Twist<Scalar>(Twist<Scalar>::Unit(l)) : Twist<Scalar>::Zero();
    return detail::factorial<Scalar>(order) * data.body[detail::dof_body(l)].screw[order].eigen();
  };
  constexpr auto related = detail::ancestor_table<Tree>();
  for (int l = 0; l < dofs; ++l) {
    const int bl = detail::dof_body(l);
    const Twist<Scalar> sl = screw(l, 0), sl_dot = screw(l, 1);
    out.gravity(l) = -sl.dot(data.composite_inertia[bl] * gravity_twist);
    out.applied(l) = -sl.dot(data.composite_applied[bl]);
    if (with_rates) {
      out.gravity_rate(l) = -sl_dot.dot(data.composite_inertia[bl] * gravity_twist) -
                            sl.dot(data.composite_inertia_rate[bl] * gravity_twist);
      out.applied_rate(l) =
          -sl_dot.dot(data.composite_applied[bl]) - sl.dot(data.composite_applied_rate[bl]);
    }
    for (int i = 0; i < dofs; ++i) {
      const int bi = detail::dof_body(i);
      if (!related[bl][bi] && !related[bi][bl]) {
        out.mass_matrix(l, i) = out.coriolis_matrix(l, i) = Scalar(0);
        out.mass_matrix_rate(l, i) = out.coriolis_matrix_rate(l, i) = Scalar(0);
        continue;
      }
      const int d = related[bl][bi] ? bi : bl;  // the deeper body
      const Matrix6<Scalar>& mc = data.composite_inertia[d];
      const Matrix6<Scalar>& pc = data.composite_coriolis[d];
      const Twist<Scalar> si = screw(i, 0), si_dot = screw(i, 1);
      const Wrench<Scalar> mc_si = mc * si;
      const Wrench<Scalar> c_col = mc * si_dot - pc * si;
      out.mass_matrix(l, i) = sl.dot(mc_si);
      out.coriolis_matrix(l, i) = sl.dot(c_col);
      if (with_rates) {
        const Matrix6<Scalar>& mc_rate = data.composite_inertia_rate[d];
        const Matrix6<Scalar>& pc_rate = data.composite_coriolis_rate[d];
        const Twist<Scalar> si_ddot = screw(i, 2);
        out.mass_matrix_rate(l, i) =
            sl_dot.dot(mc_si) + sl.dot(mc_rate * si) + sl.dot(mc * si_dot);
        out.coriolis_matrix_rate(l, i) =
            sl_dot.dot(c_col) +
            sl.dot(mc_rate * si_dot + mc * si_ddot - pc_rate * si - pc * si_dot);
      }
    }
  }
  using Vector = typename EquationsOfMotion<Tree, Scalar>::Vector;
  Vector nu, nu_dot;
  nu << motion.base_twist[0], motion.q[1];
  out.coriolis = out.coriolis_matrix * nu;
  if (with_rates) {
    nu_dot << motion.base_twist[1], motion.q[2];
    out.coriolis_rate = out.coriolis_matrix_rate * nu + out.coriolis_matrix * nu_dot;
  } else {
    out.mass_matrix_rate.setZero();
    out.coriolis_matrix_rate.setZero();
    out.coriolis_rate.setZero();
    out.gravity_rate.setZero();
    out.applied_rate.setZero();
  }
  if (!detail::all_finite(out.mass_matrix) || !detail::all_finite(out.coriolis_matrix) ||
      !detail::all_finite(out.coriolis_rate) || !detail::all_finite(out.mass_matrix_rate)) {
    out.set_zero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

/// All closed-form terms without applied wrenches.
template <class Tree, class Scalar>
Status equations_of_motion(const Model<Tree, Scalar>& model,
                           EquationsOfMotionData<Tree, Scalar>& data,
                           const MotionDerivatives<Tree, 1, Scalar>& motion, bool with_rates) noexcept {
  return equations_of_motion(model, data, motion,
                             static_cast<const ExternalLoads<Tree, 1, Scalar>*>(nullptr), with_rates);
}

}  // namespace hodyn
