// hodyn/inverse_mass_matrix.hpp — M̄⁻¹ of a floating-base (or fixed-base) tree
// without forming or factorizing M̄: Carpentier's inverse-mass-matrix
// algorithm (IMMA, the articulated-body algorithm run for every unit input at
// once, velocities and gravity dropped) extended to the floating base as seed
// 003 Table 9 does it, in the corrected form of digest 003 §3.6
// (docs/inverse-mass-matrix.md).
//
// ν = (V₁ spatial world-frame base twist; q̇) and τ̄ = (Q₁ world wrench; τ), as
// for `mass_matrix`, so M̄⁻¹ maps τ̄ to ν̇ when velocities and gravity vanish:
// column c of M̄⁻¹ is the articulated-body solution for the unit input c. In
// the body-fixed joint frames B_j of forward dynamics
// (detail/joint_frame_articulated.hpp; θ_j = s_j q_j about the positive axis,
// screw s_j constant), with M^A_j, U_j = M^A_j s_j and D_j = s_jᵀ U_j taken
// from the order-0 articulated pass of forward dynamics (`articulated_inertias`),
// and X_j the parent-to-child transform:
//
//   backward, j = N−1..1, for the columns k of the subtree of j:
//     Minv[j, k] = D_j⁻¹ (δ_jk − s_jᵀ F_j[k])            (partial: no base motion yet)
//     F_p[k]     = X_jᵀ (F_j[k] + U_j Minv[j, k])      (one child of p owns column k)
//   base:  P_0[k] = −(M^A_0)⁻¹ F_0[k]                     (a fixed root: P_0 = 0)
//   forward, j = 1..N−1, for every column k ≥ j (digest erratum: not only the subtree):
//     x = X_j P_p[k],  Minv[j, k] −= D_j⁻¹ U_jᵀ x,  P_j[k] = x + s_j Minv[j, k]
//   M̄⁻¹[base, base] = Ad_P₀ (M^A_0)⁻¹ Ad_P₀ᵀ,  M̄⁻¹[base, k] = Ad_P₀ P_0[k],
//   the lower triangles by symmetry (both missing from seed 003's Table 9).
//
// F_j[k] is the articulated bias wrench of body j for a unit torque at joint k,
// P_j[k] its acceleration; both live in the same per-body column storage (F is
// dead when P is written). O(n²) operations on 6-vectors, no heap.
#pragma once

#include <array>

#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/joint_frame_articulated.hpp"
#include "hodyn/detail/root_motion.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/forward_dynamics.hpp"
#include "hodyn/model.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// Workspace and result of `inverse_mass_matrix`.
template <class Tree, class Scalar = double>
struct InverseMassMatrixData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  static constexpr int kColumns = kNumBodies > 1 ? kNumBodies - 1 : 1;  ///< joint columns
  using Matrix = Eigen::Matrix<Scalar, kDofs, kDofs>;

  Matrix result = Matrix::Zero();  ///< M̄⁻¹, ν ordering and frames of mass_matrix's M̄

  // ---- workspace ----
  /// The order-0 articulated pass of forward dynamics: M^A_j, U_j, D_j⁻¹, the
  /// factor of the base's M^A, cos/sin of the joints (velocities zero).
  ForwardDynamicsData<Tree, 0, Scalar> articulated{};
  ForwardDynamicsInput<Tree, 0, Scalar> input{};  ///< base_pose and q copied in; rates zero
  /// F_j[k] (backward pass) and then P_j[k] (forward pass), joint column k at k − 1.
  std::array<std::array<detail::SV<Scalar>, kColumns>, kNumBodies> column{};
  /// Minv[j, k] of the backward pass (θ coordinates), row j − 1, column k − 1.
  std::array<std::array<Scalar, kColumns>, kColumns> partial{};
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// in_subtree[a][b]: body b lies in the subtree of body a (a itself included).
template <class Tree>
constexpr auto subtree_table() {
  constexpr int n = Tree::kNumBodies;
  std::array<std::array<bool, n>, n> t{};
  for (int b = 0; b < n; ++b)
    for (int a = b; a >= 0; a = Tree::kParent[a]) t[a][b] = true;
  return t;
}

/// first_child[j]: the smallest index of a child of j (kNumBodies for a leaf):
/// the forward pass keeps P_j[k] only for the columns k ≥ first_child[j].
template <class Tree>
constexpr auto first_child_table() {
  constexpr int n = Tree::kNumBodies;
  std::array<int, n> t{};
  for (int j = 0; j < n; ++j) t[j] = n;
  for (int j = n - 1; j >= 1; --j) t[Tree::kParent[j]] = j;
  return t;
}

/// Ad_{X_j}⁻ᵀ f at order 0: a child's joint-frame wrench in its parent's frame,
/// X_j = T(d) Rot(e, θ) (revolute) or T(d + e θ) (prismatic).
template <JointKind K, int MaxOrder, class S>
HODYN_ALWAYS_INLINE SV<S> wrench_up(const ArticulatedBody<MaxOrder, S>& b, const V3<S>& d,
                                    const V3<S>& e, const SV<S>& f) {
  SV<S> w;
  if constexpr (is_revolute(K)) {
    w = {axis_rotate<K, false, true>(e, b.cos_q[0], b.sin_q[0], f.ang),
         axis_rotate<K, false, true>(e, b.cos_q[0], b.sin_q[0], f.lin)};
  } else {
    w = f;
    w.ang += b.q[0] * axis_cross<K>(e, f.lin);
  }
  w.ang += cross(d, w.lin);
  return w;
}

/// Rᵀ of a 3x3 matrix (row-major storage).
template <class S>
HODYN_ALWAYS_INLINE M3<S> transposed(const M3<S>& m) {
  return M3<S>{{m.a[0], m.a[3], m.a[6], m.a[1], m.a[4], m.a[7], m.a[2], m.a[5], m.a[8]}};
}

/// [x] m: every column crossed with x.
template <class S>
HODYN_ALWAYS_INLINE M3<S> cross_columns(const V3<S>& x, const M3<S>& m) {
  M3<S> out;
  for (int j = 0; j < 3; ++j) out.set_col(j, cross(x, m.col(j)));
  return out;
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// M̄⁻¹ at (base_pose, q) into data.result: (6+n)×(6+n) for a floating base,
/// ν = (V₁ spatial world twist; q̇); n×n for a fixed base (base_pose ignored).
/// Bad pose or non-finite q: its status; a singular articulated inertia:
/// kSingularInertia; a non-finite result: kNonFiniteResult — each with a zero result.
template <class Tree, class Scalar>
Status inverse_mass_matrix(const Model<Tree, Scalar>& model,
                           InverseMassMatrixData<Tree, Scalar>& data, const Pose<Scalar>& base_pose,
                           const typename Model<Tree, Scalar>::JointVector& q) noexcept {
  using S = Scalar;
  using detail::M3;
  using detail::SV;
  using detail::V3;
  constexpr int n = Tree::kNumBodies;
  constexpr bool kFloating = !TreeTraits<Tree>::kFixedBase;
  auto& out = data.result;
  Status s = Status::kOk;
  if constexpr (kFloating) s = detail::check_pose(base_pose);
  if (s == Status::kOk && !detail::all_finite(q)) s = Status::kNonFiniteInput;
  if (s != Status::kOk) {
    out.setZero();
    return s;
  }
  // M^A_j, U_j, D_j⁻¹ and the base's factor: the order-0 pass of forward dynamics.
  if constexpr (kFloating) data.input.base_pose = base_pose;
  data.input.q = q;
  if (!detail::articulated_inertias<false>(
          model, data.articulated, data.input,
          static_cast<const HybridDynamicsInput<Tree, 0, Scalar>*>(nullptr), kFloating, false)) {
    out.setZero();
    return Status::kSingularInertia;
  }
  const auto& ws = data.articulated.workspace;
  const auto& body = ws.body;
  auto& col = data.column;
  auto& part = data.partial;
  constexpr auto in_subtree = detail::subtree_table<Tree>();
  constexpr auto first_child = detail::first_child_table<Tree>();

  // ---- backward pass: partial rows Minv[j, sub(j)], bias wrenches F_p[sub(j)] ----
  for_each_joint_reverse<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const auto& b = body[j];
    const int p = Tree::kParent[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    auto& fj = col[j];
    auto& fp = col[p];
    auto& row = part[j - 1];
    row[j - 1] = b.inverse_d;
    fp[j - 1] = detail::wrench_up<K>(b, d, e, b.inverse_d * b.screw_inertia);
    for (int k = j + 1; k < n; ++k) {
      if (!in_subtree[j][k]) continue;
      const S m = -(b.inverse_d * detail::screw_dot<K>(e, fj[k - 1]));
      row[k - 1] = m;
      fp[k - 1] = detail::wrench_up<K>(b, d, e, fj[k - 1] + m * b.screw_inertia);
    }
  });

  // ---- base: P_0[k] = −(M^A_0)⁻¹ F_0[k] (every joint is in the base's subtree) ----
  if constexpr (kFloating)
    for (int k = 1; k < n; ++k) col[0][k - 1] = S(-1) * ws.base_factor.solve(col[0][k - 1]);

  // ---- forward pass: Minv[j, k] for k ≥ j, accelerations P_j[k] ----
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const auto& b = body[j];
    const int p = Tree::kParent[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const S sense_j = model.joint_sense(j);
    const int rj = TreeTraits<Tree>::joint_dof(j);
    const bool parent_moves = kFloating || p != 0;  // a fixed root does not accelerate
    const int keep_from = first_child[j];
    const auto& pp = col[p];
    auto& pj = col[j];
    const auto& row = part[j - 1];
    for (int k = j; k < n; ++k) {
      S m = in_subtree[j][k] ? row[k - 1] : S(0);
      SV<S> x{};
      if (parent_moves) {
        x = detail::twist_to_child<K>(b, d, e, pp[k - 1]);
        m -= b.inverse_d * dot(b.screw_inertia, x);
      }
      if (k >= keep_from) {
        detail::add_screw<K>(e, m, x);
        pj[k - 1] = x;
      }
      const int rk = TreeTraits<Tree>::joint_dof(k);
      const S v = (sense_j * model.joint_sense(k)) * m;  // q = s θ, τ = s τ_θ
      out(rj, rk) = v;
      out(rk, rj) = v;
    }
  });

  if constexpr (kFloating) {
    // World frame of the base, P₀ = C₁ (A⁰_0)⁻¹ = T(x) R; Ad_P₀ (ω; v) = (Rω; Rv + x × Rω).
    const M3<S>& r = ws.base_frame.rotation[0];
    const V3<S>& x = ws.base_frame.origin[0];
    for (int k = 1; k < n; ++k) {
      const SV<S>& a = col[0][k - 1];
      const S sense_k = model.joint_sense(k);
      const V3<S> w = sense_k * (r * a.ang);
      const V3<S> v = sense_k * (r * a.lin) + cross(x, w);
      const int rk = TreeTraits<Tree>::joint_dof(k);
      const S c[6] = {w.x, w.y, w.z, v.x, v.y, v.z};
      for (int i = 0; i < 6; ++i) out(i, rk) = out(rk, i) = c[i];
    }
    // (M^A_0)⁻¹ from the Schur factors (E = B C⁻¹, S = A − E Bᵀ):
    //   [S⁻¹, −S⁻¹E; −EᵀS⁻¹, C⁻¹ + EᵀS⁻¹E], then Ad_P₀ (·) Ad_P₀ᵀ: with W = R (·) Rᵀ blockwise,
    //   aa = W_aa, al = W_al − W_aa [x], ll = W_ll + [x] al + ([x] W_al)ᵀ.
    const auto& f = ws.base_factor;
    M3<S> yal = f.s_inv * f.e;
    for (auto& y : yal.a) y = -y;
    M3<S> yll = f.c_inv;
    const M3<S> ey = detail::transposed(f.e) * yal;  // Eᵀ(−S⁻¹E)
    for (int i = 0; i < 9; ++i) yll.a[i] -= ey.a[i];
    M3<S> waa, wal, wll;
    detail::rotate_general(f.s_inv, r, waa);
    detail::rotate_general(yal, r, wal);
    detail::rotate_general(yll, r, wll);
    // W_aa [x] = −([x] W_aa)ᵀ (W_aa symmetric).
    const M3<S> xwaa = detail::cross_columns(x, waa);
    M3<S> al = wal;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) al.a[3 * i + j] += xwaa.a[3 * j + i];
    const M3<S> xal = detail::cross_columns(x, al);
    const M3<S> xwal = detail::cross_columns(x, wal);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) out(i, 3 + j) = out(3 + j, i) = al.a[3 * i + j];
      for (int j = i; j < 3; ++j) {  // symmetric blocks: the upper triangle, mirrored
        out(i, j) = out(j, i) = waa.a[3 * i + j];
        out(3 + i, 3 + j) = out(3 + j, 3 + i) =
            wll.a[3 * i + j] + xal.a[3 * i + j] + xwal.a[3 * j + i];
      }
    }
  }
  if (!detail::all_finite(out)) {
    out.setZero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
