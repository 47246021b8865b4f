// hodyn/loop_closure.hpp — loop-closure constraints of a kinematic tree and
// their Jacobians of any time-derivative order (seed 002 §3).
//
// A closed chain is modelled as its spanning tree (the compile-time Tree)
// plus closures that cut the loops. A closure joins a frame X_a fixed to body
// a with a frame X_b fixed to body b (BodyFrame: a body and a placement in
// the frame of Model::set_body); when the loop is closed the two frames are
//   kWeld      the same frame (6 rows),
//   kPoint     at the same origin, turned freely (a ball joint, 3 rows),
//   kRevolute  at the same origin with the same z axis, turned about it
//              (5 rows).
// Everything is written on the relative twist of b with respect to a in the
// closure frame a, T_a = C_a X_a (world pose):
//   ΔV = Ad_{T_a}⁻¹ (V_b − V_a),   V the spatial twists (hodyn's convention),
// whose selected rows P ΔV are zero on the closed loop: rows (ω; v) =
// 0..5 for a weld, v = 3..5 for a point, ω_x, ω_y, v = 0, 1, 3..5 for a
// revolute closure. So with ν = (V₁; q̇) (or q̇ for a fixed base)
//   P ΔV = A ν,   A = P Ad_{T_a}⁻¹ (J_b − J_a)        (seed 002 eq. 55, A q̇ = 0),
// and d/dt Ad_T⁻¹ x = Ad_T⁻¹ (ẋ − ad_{V_a} x) gives every derivative of A
// from the screw derivatives of forward_kinematics (as local_jacobian does):
//   (A ν)^(k) = Σ_i C(k,i) A^(k−i) ν^(i),   in particular
//   d/dt (A ν) = A ν̇ + Ȧ ν, the constraint acceleration (seed 002 §3, "A q̈ + Ȧ q̇").
// The base columns of A are zero (both bodies' Jacobians start with 1₆), and
// a joint on the common path to the root cancels exactly.
//
// The constraint force is λ ∈ R^m, the selected components of the wrench
// the closure applies to body b in frame a's coordinates (−λ on body a): its
// generalized force is Aᵀλ (M̄ ν̇ + h = τ̄ + Aᵀλ, seed 002 eq. 54).
//
// The position-level error f(q) (for drift stabilisation, ḟ = A ν where f = 0)
// is, in frame a: log(T_a⁻¹ T_b) for a weld; R_aᵀ(p_b − p_a) for a point;
// (−u_y, u_x, R_aᵀ(p_b − p_a)) with u = R_aᵀ z_b for a revolute closure.
//
// No heap: the number of closures is a compile-time constant, the rows a
// run-time count below 6 per closure. Bad input gives a Status and zero
// outputs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <Eigen/Core>

#include "hodyn/jacobians.hpp"
#include "hodyn/kinematics.hpp"
#include "hodyn/logarithm.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// How the two frames of a closure are held together.
enum class LoopClosureKind : std::uint8_t {
  kWeld,      ///< same pose: 6 constraints
  kPoint,     ///< same origin (ball joint, point contact without slip): 3 constraints
  kRevolute,  ///< same origin and z axis (hinge about z): 5 constraints
};

/// Constraint rows of a closure kind.
constexpr int constraint_rows(LoopClosureKind kind) {
  return kind == LoopClosureKind::kWeld ? 6 : kind == LoopClosureKind::kPoint ? 3 : 5;
}

/// The relative-twist component (0..5: ω, v in frame a) of row `row` of a closure.
constexpr int constraint_component(LoopClosureKind kind, int row) {
  return kind == LoopClosureKind::kWeld    ? row
         : kind == LoopClosureKind::kPoint ? 3 + row
                                           : (row < 2 ? row : row + 1);
}

/// One loop closure: frame a on one body, frame b on another, joined by `kind`.
template <class Scalar>
struct LoopClosure {
  LoopClosureKind kind = LoopClosureKind::kWeld;
  BodyFrame<Scalar> frame_a{};  ///< the closure frame (constraint rows and λ in its axes)
  BodyFrame<Scalar> frame_b{};  ///< coincides with frame_a (as `kind` says) on a closed loop
};

/// Results of `loop_closure_kinematics` for NumClosures closures.
template <class Tree, std::size_t NumClosures, int MaxOrder, class Scalar = double>
struct LoopClosureData {
  static_assert(NumClosures >= 1, "at least one closure");
  static constexpr int kMaxRows = 6 * static_cast<int>(NumClosures);
  /// Storage rows: kMaxRows rounded up to 8, so that no vectorized loop of a
  /// wide target (8 doubles) can reach past the storage (g++ 12 reports
  /// -Warray-bounds inside Eigen's 8-wide packets otherwise).
  static constexpr int kRowCapacity = (kMaxRows + 7) / 8 * 8;
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  /// m × (6 + n) (floating base) or m × n (fixed base), m ≤ kMaxRows.
  using Jacobian = Eigen::Matrix<Scalar, Eigen::Dynamic, kDofs, 0, kRowCapacity, kDofs>;
  /// One entry per constraint row (errors, constraint velocities, λ).
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, kRowCapacity, 1>;

  int rows = 0;                                    ///< m = Σ constraint_rows(kind)
  std::array<int, NumClosures> first_row{};        ///< row of each closure's first constraint
  std::array<Jacobian, MaxOrder + 2> jacobian{};   ///< A^(k), k = 0..order+1
  std::array<Vector, MaxOrder + 2> velocity{};     ///< (A ν)^(k) = P ΔV^(k), k = 0..order+1
  Vector error{};                                  ///< f(q), the position-level error
  std::array<Pose<Scalar>, NumClosures> pose_a{};  ///< T_a = C_a X_a (world)
  std::array<Pose<Scalar>, NumClosures> pose_b{};  ///< T_b = C_b X_b (world)
  int order = -1;  ///< order of the last successful call, −1 if none

  // ---- workspace of loop_closure_kinematics ----
  /// One closure's twist-like columns, all transformed at once: column 0 is
  /// V_b − V_a, column 1 + l (entry l of q̇) ± the screw of that entry where
  /// its joint moves one of the two bodies, else zero (a ball: its three S_i;
  /// a universal joint: S₁, S₂).
  using Columns = Eigen::Matrix<Scalar, 6, TreeTraits<Tree>::kNumJointDofs + 1>;
  std::array<Columns, MaxOrder + 2> columns{};  ///< x^(k), then the Leibniz table
  std::array<Columns, MaxOrder + 2> spare{};    ///< the table's next row
  std::array<Columns, MaxOrder + 2> local{};    ///< (Ad_{T_a}⁻¹ x)^(k)

  LoopClosureData() { clear_results(); }
  void clear_results() {
    rows = 0;
    first_row.fill(0);
    for (auto& a : jacobian) a.resize(0, kDofs);
    for (auto& v : velocity) v.resize(0);
    error.resize(0);
    for (auto& p : pose_a) p = Pose<Scalar>{};
    for (auto& p : pose_b) p = Pose<Scalar>{};
    order = -1;
  }
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

template <class Tree, class Scalar>
bool closure_valid(const LoopClosure<Scalar>& c) {
  const auto body_ok = [](int j) { return j >= 0 && j < Tree::kNumBodies; };
  const bool kind_ok = c.kind == LoopClosureKind::kWeld || c.kind == LoopClosureKind::kPoint ||
                       c.kind == LoopClosureKind::kRevolute;
  return kind_ok && body_ok(c.frame_a.body) && body_ok(c.frame_b.body) &&
         c.frame_a.body != c.frame_b.body && check_pose(c.frame_a.placement) == Status::kOk &&
         check_pose(c.frame_b.placement) == Status::kOk;
}

/// f of one closure in frame a (see the file comment), its constraint_rows entries.
template <class Scalar>
Vector6<Scalar> closure_error(LoopClosureKind kind, const Pose<Scalar>& ta,
                              const Pose<Scalar>& tb) {
  Vector6<Scalar> f = Vector6<Scalar>::Zero();
  const Vector3<Scalar> offset = ta.rotation.transpose() * (tb.translation - ta.translation);
  switch (kind) {
    case LoopClosureKind::kWeld:
      f = se3_log(ta.inverse() * tb);
      break;
    case LoopClosureKind::kPoint:
      f.template head<3>() = offset;
      break;
    case LoopClosureKind::kRevolute: {
      const Vector3<Scalar> u = ta.rotation.transpose() * tb.rotation.col(2);
      f(0) = -u(1);
      f(1) = u(0);
      f.template segment<3>(2) = offset;
      break;
    }
  }
  return f;
}

/// y^(k) = dᵏ/dtᵏ (Ad_{T(t)}⁻¹ x(t)), k = 0..n, for every column of x at once:
/// local_derivatives of kinematics.hpp on a 6 × N block, W₀ = x,
/// W_{i+1} = Ẇ_i − ad_V W_i, y^(i) = Ad_T⁻¹ W_i; `x` is overwritten by the
/// Leibniz table (with `spare` as its second row). Ad_T⁻¹ = [Rᵀ 0; −Rᵀ[p] Rᵀ],
/// ad_V = [[ω] 0; [v] [ω]] as 3 × 3 blocks on the block's halves.
template <class Scalar, class Columns, std::size_t NV, std::size_t NX>
void local_column_derivatives(const Pose<Scalar>& t, const std::array<Twist<Scalar>, NV>& v, int n,
                              std::array<Columns, NX>& x, std::array<Columns, NX>& spare,
                              std::array<Columns, NX>& y) noexcept {
  const Matrix3<Scalar> rt = t.rotation.transpose();
  const Matrix3<Scalar> rt_p = -rt * skew<Scalar>(t.translation);  // −Rᵀ[p]
  const auto to_local = [&](const Columns& w, Columns& out) {
    out.template topRows<3>().noalias() = rt * w.template topRows<3>();
    out.template bottomRows<3>().noalias() = rt * w.template bottomRows<3>();
    out.template bottomRows<3>().noalias() += rt_p * w.template topRows<3>();
  };
  std::array<Columns, NX>* work = &x;
  std::array<Columns, NX>* next = &spare;
  to_local((*work)[0], y[0]);
  for (int i = 0; i < n; ++i) {
    // W_{i+1}^(m) = W_i^(m+1) − Σ_l C(m,l) ad_{V^(l)} W_i^(m−l), m ≤ n − i − 1.
    for (int m = 0; m + i + 1 <= n; ++m) {
      Columns& out = (*next)[static_cast<std::size_t>(m)];
      out = (*work)[static_cast<std::size_t>(m + 1)];
      for (int l = 0; l <= m; ++l) {
        const Scalar c = binomial<Scalar>(m, l);
        const Matrix3<Scalar> w = c * skew<Scalar>(angular(v[static_cast<std::size_t>(l)]));
        const Matrix3<Scalar> u = c * skew<Scalar>(linear(v[static_cast<std::size_t>(l)]));
        const Columns& in = (*work)[static_cast<std::size_t>(m - l)];
        out.template topRows<3>().noalias() -= w * in.template topRows<3>();
        out.template bottomRows<3>().noalias() -= u * in.template topRows<3>();
        out.template bottomRows<3>().noalias() -= w * in.template bottomRows<3>();
      }
    }
    std::swap(work, next);
    to_local((*work)[0], y[static_cast<std::size_t>(i + 1)]);
  }
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// The closures' Jacobians A^(k), constraint velocities (A ν)^(k) for
/// k = 0..order+1, and position errors, from a KinematicsData of that order
/// or higher (forward_kinematics). A^(k) and (Aν)^(k) read the kinematics'
/// screw and twist derivatives: with the motion's accelerations set to zero,
/// velocity[1] is the bias Ȧ ν of the constraint acceleration.
/// kOrderOutOfRange if the kinematics hold fewer orders; kInvalidArgument for
/// a body outside the tree, a = b, a placement that is not a rigid transform
/// or an unknown kind. Zero outputs on failure.
template <std::size_t NumClosures, class Tree, int MaxOrder, class Scalar>
Status loop_closure_kinematics(const KinematicsData<Tree, MaxOrder, Scalar>& kinematics,
                               const std::array<LoopClosure<Scalar>, NumClosures>& closures,
                               LoopClosureData<Tree, NumClosures, MaxOrder, Scalar>& data,
                               int order) noexcept {
  using Data = LoopClosureData<Tree, NumClosures, MaxOrder, Scalar>;
  constexpr int kDofs = Data::kDofs;
  data.clear_results();
  if (order < 0 || order > MaxOrder || order > kinematics.order) return Status::kOrderOutOfRange;
  int rows = 0;
  for (std::size_t c = 0; c < NumClosures; ++c) {
    if (!detail::closure_valid<Tree>(closures[c])) return Status::kInvalidArgument;
    data.first_row[c] = rows;
    rows += constraint_rows(closures[c].kind);
  }
  const int n = order + 1;  // highest derivative
  data.rows = rows;
  for (int k = 0; k <= n; ++k) {
    data.jacobian[k].setZero(rows, kDofs);
    data.velocity[k].setZero(rows);
  }
  data.error.setZero(rows);
  constexpr int kJoints = TreeTraits<Tree>::kNumJoints;
  constexpr int kJointDofs = TreeTraits<Tree>::kNumJointDofs;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  for (std::size_t c = 0; c < NumClosures; ++c) {
    const LoopClosure<Scalar>& closure = closures[c];
    const int a = closure.frame_a.body;
    const int b = closure.frame_b.body;
    const Pose<Scalar> ta = kinematics.body_pose[a] * closure.frame_a.placement;
    const Pose<Scalar> tb = kinematics.body_pose[b] * closure.frame_b.placement;
    data.pose_a[c] = ta;
    data.pose_b[c] = tb;
    // Column 0: V_b − V_a (its local derivatives are P ΔV^(k), the constraint
    // velocity); column 1 + l: the screw of entry l of q̇ where its joint moves
    // b but not a, minus where it moves a but not b (the columns of A before
    // Ad_{T_a}⁻¹ and P; a ball's three entries are its three screws S_i, a
    // universal joint's two its S₁, S₂: for_each_joint_screw).
    std::array<signed char, kJoints + 1> sign{};  // +1: moves b only, −1: a only, 0
    for (int i = 1; i <= kJoints; ++i) {
      const bool moves_b = joint_moves_body<Tree>(i, b);
      const bool moves_a = joint_moves_body<Tree>(i, a);
      sign[static_cast<std::size_t>(i)] = static_cast<signed char>(moves_b == moves_a ? 0
                                                                   : moves_b          ? 1
                                                                                      : -1);
    }
    for (int k = 0; k <= n; ++k) {
      auto& x = data.columns[k];
      x.col(0) = kinematics.body_twist[b][k] - kinematics.body_twist[a][k];
      for (int i = 1; i <= kJoints; ++i) {
        const int si = sign[static_cast<std::size_t>(i)];
        detail::for_each_joint_screw(kinematics, i, [&](const auto& screw, int dof) {
          const int column = dof - kBase + 1;
          if (si == 0)
            x.col(column).setZero();
          else if (si > 0)
            x.col(column) = screw[static_cast<std::size_t>(k)];
          else
            x.col(column) = -screw[static_cast<std::size_t>(k)];
        });
      }
    }
    detail::local_column_derivatives(ta, kinematics.body_twist[a], n, data.columns, data.spare,
                                     data.local);
    const int m = constraint_rows(closure.kind);
    const int row0 = data.first_row[c];
    for (int k = 0; k <= n; ++k)
      for (int i = 0; i < m; ++i) {
        const int component = constraint_component(closure.kind, i);
        data.velocity[k](row0 + i) = data.local[k](component, 0);
        if constexpr (kJointDofs > 0)
          data.jacobian[k].row(row0 + i).template tail<kJointDofs>() =
              data.local[k].row(component).template tail<kJointDofs>();
      }
    const Vector6<Scalar> error = detail::closure_error(closure.kind, ta, tb);
    for (int i = 0; i < m; ++i) data.error(row0 + i) = error(i);
  }
  for (int k = 0; k <= n; ++k)
    if (!detail::all_finite_wide(data.jacobian[k]) || !detail::all_finite(data.velocity[k])) {
      data.clear_results();
      return Status::kNonFiniteResult;
    }
  if (!detail::all_finite(data.error)) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = order;
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
