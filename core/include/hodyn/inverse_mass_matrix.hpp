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
//   base:  P_0[k] = −(M^A_0)⁻¹ F_0[k]
//   forward, j = 1..N−1, for every column k ≥ j (digest erratum: not only the subtree):
//     x = X_j P_p[k],  Minv[j, k] −= D_j⁻¹ U_jᵀ x,  P_j[k] = x + s_j Minv[j, k]
//   M̄⁻¹[base, base] = Ad_P₀ (M^A_0)⁻¹ Ad_P₀ᵀ,  M̄⁻¹[base, k] = Ad_P₀ P_0[k],
//   the lower triangles by symmetry (both missing from seed 003's Table 9).
//
// The forward pass is linear in the base acceleration, so it splits: run with
// the base held (P_0 = 0) it gives M_jj⁻¹, the joint block's own inverse,
// which is zero between joints of different branches of the base; the base's
// share is F_0[j]ᵀ P_0[k]. That is the block inverse (Woodbury)
//   M̄⁻¹_jj = M_jj⁻¹ + M_jj⁻¹ M_jb (M^A_0)⁻¹ M_bj M_jj⁻¹,
//   M^A_0 = M_bb − M_bj M_jj⁻¹ M_jb,  F_0[k] = (M_bj M_jj⁻¹)[:, k],
// so the code runs the forward pass within each branch only (no transforms
// for a branch root, whose held parent does not move) and adds one 6-vector
// dot product per entry: Minv[j, k] = M_jj⁻¹[j, k] − F_0[j]ᵀ P_0[k]. A fixed
// root is the held base: M̄⁻¹ = M_jj⁻¹.
//
// F_j[k] is the articulated bias wrench of body j for a unit torque at joint k,
// P_j[k] its acceleration; both live in the same per-body column storage (F is
// dead when P is written; F_0 is kept for the base's share). O(n²) operations
// on 6-vectors, no heap.
//
// Ball joints (docs/joint-kinds.md): the same passes with the ball's S = [1; 0]
// (6 × 3), U = M^A S = [A; Bᵀ] and D⁻¹ = A⁻¹ (3 × 3, ArticulatedWorkspace::ball),
// so its partial rows Minv[j, k] become 3-row blocks and the columns are those
// of ν's entries (a ball owns three, its child-frame ω):
//   backward: Minv[j, k] = −A⁻¹ F_j[k]_ang,  F_p[k] = X_jᵀ (0; F_j[k]_lin + Bᵀ Minv[j, k])
//             (the angular part f + A Minv cancels), own columns a: Minv[j, j_a] = A⁻¹ e_a,
//             F_p[j_a] = X_jᵀ (e_a; Bᵀ A⁻¹ e_a);
//   forward:  Minv[j, k] −= x_ang + A⁻¹ B x_lin  (D⁻¹ Uᵀ x),  P_j[k] = x + (Minv[j, k]; 0).
// Universal joints: two revolute steps, as the articulated pass takes them
// (θ₂ in the child's frame, U₂ = M^A_j s₂, D₂; the massless intermediate frame
// m, X₂ = Rot(e₂, θ₂); θ₁ there, U₁ = M^A_m s₁, D₁; X₁ = T(d) Rot(e₁, θ₁)):
//   backward: Minv[θ₂, k] = D₂⁻¹ (δ − e₂ · F_j[k]_ang), F_m[k] = Rot₂ (F_j[k] + U₂ Minv[θ₂, k]),
//             Minv[θ₁, k] = D₁⁻¹ (δ − e₁ · F_m[k]_ang), F_p[k] = X₁ᵀ (F_m[k] + U₁ Minv[θ₁, k]);
//   forward:  x = X₁⁻¹ P_p[k], Minv[θ₁, k] −= D₁⁻¹ U₁ᵀ x, P_m = x + s₁ Minv[θ₁, k],
//             x₂ = Rot₂ᵀ P_m, Minv[θ₂, k] −= D₂⁻¹ U₂ᵀ x₂, P_j = x₂ + s₂ Minv[θ₂, k]
// — the twin's passes with a massless body at m, without its body.
// A tree with a ball or a universal joint takes that path (`if constexpr`); a
// tree of 1-DoF joints runs the code above, unchanged.
#pragma once

#include <array>
#include <type_traits>
#include <utility>

#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/joint_frame_articulated.hpp"
#include "hodyn/detail/root_motion.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/forward_dynamics.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/scalar_traits.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// Largest number of generalized velocities for `inverse_mass_matrix` (its
/// result is a fixed-size matrix and its passes are unrolled at compile time).
inline constexpr int kMaxInverseMassMatrixDofs = 64;

/// Workspace and result of `inverse_mass_matrix`.
template <class Tree, class Scalar = double>
struct InverseMassMatrixData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  static_assert(kDofs <= kMaxInverseMassMatrixDofs,
                "inverse_mass_matrix is for trees up to 64 dofs");
  /// Joint columns: one per entry of q̇ (a ball has three; N − 1 with 1-DoF joints).
  static constexpr int kColumns =
      TreeTraits<Tree>::kNumJointDofs > 0 ? TreeTraits<Tree>::kNumJointDofs : 1;
  using Matrix = Eigen::Matrix<Scalar, kDofs, kDofs>;

  Matrix result = Matrix::Zero();  ///< M̄⁻¹, ν ordering and frames of mass_matrix's M̄

  // ---- workspace ----
  /// The order-0 articulated pass of forward dynamics: M^A_j, U_j, D_j⁻¹, the
  /// factor of the base's M^A, cos/sin of the joints (velocities zero).
  ForwardDynamicsData<Tree, 0, Scalar> articulated{};
  /// base_pose, q and the balls' R_j copied in; rates zero.
  ForwardDynamicsInput<Tree, 0, Scalar> input{};
  /// F_j[k] (backward pass) and then P_j[k] (forward pass), joint column k at
  /// its entry of q̇ (k − 1 with 1-DoF joints).
  std::array<std::array<detail::SV<Scalar>, kColumns>, kNumBodies> column{};
  /// P_0[k] = −(M^A_0)⁻¹ F_0[k]: the base's acceleration (frame B_0) per unit joint torque.
  std::array<detail::SV<Scalar>, kColumns> base_acceleration{};
  /// Minv[j, k] of the backward pass, then M_jj⁻¹[j, k] (θ coordinates; a
  /// ball's ω), rows and columns at the entries of q̇.
  std::array<std::array<Scalar, kColumns>, kColumns> partial{};
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// Compile-time topology of a tree for the IMMA passes.
template <class Tree>
struct InverseMassMatrixTables {
  static constexpr int kN = Tree::kNumBodies;
  /// subtree[a][b]: body b lies in the subtree of body a (a itself included).
  static constexpr std::array<std::array<bool, kN>, kN> subtree = [] {
    std::array<std::array<bool, kN>, kN> t{};
    for (int b = 0; b < kN; ++b)
      for (int a = b; a >= 0; a = Tree::kParent[a]) t[a][b] = true;
    return t;
  }();
  /// first_child[j]: the smallest index of a child of j (kN for a leaf): the
  /// forward pass keeps P_j[k] only for the columns k ≥ first_child[j].
  static constexpr std::array<int, kN> first_child = [] {
    std::array<int, kN> t{};
    for (int j = 0; j < kN; ++j) t[j] = kN;
    for (int j = kN - 1; j >= 1; --j) t[Tree::kParent[j]] = j;
    return t;
  }();
  /// branch[j]: the child of the base whose subtree holds body j (0 for the base).
  static constexpr std::array<int, kN> branch = [] {
    std::array<int, kN> t{};
    for (int j = 1; j < kN; ++j) t[j] = Tree::kParent[j] == 0 ? j : t[Tree::kParent[j]];
    return t;
  }();
};

/// Ad_{X_j}⁻ᵀ f at order 0: a child's joint-frame wrench in its parent's frame,
/// X_j = T(d) Rot(e, θ) (revolute), T(d + e θ) (prismatic) or
/// T(d + h θ e) Rot(e, θ) (helical).
template <JointKind K, int MaxOrder, class S>
HODYN_ALWAYS_INLINE SV<S> wrench_up(const ArticulatedBody<MaxOrder, S>& b, const V3<S>& d,
                                    const V3<S>& e, const SV<S>& f) {
  SV<S> w;
  if constexpr (joint_rotates(K)) {
    V3<S> n = f.ang;  // helical: Rot(θ)(n + h θ e × f; f), Rot(θ) e = e
    if constexpr (is_helical(K)) n += (b.pitch * b.q[0]) * cross(e, f.lin);
    w = {axis_rotate<K, false, true>(e, b.cos_q[0], b.sin_q[0], n),
         axis_rotate<K, false, true>(e, b.cos_q[0], b.sin_q[0], f.lin)};
  } else {
    w = f;
    w.ang += b.q[0] * axis_cross<K>(e, f.lin);
  }
  w.ang += cross(d, w.lin);
  return w;
}

/// The base rows and columns of M̄⁻¹ (floating base), world frame, from
/// P_0[c] (`base_accel`, joint column c) and the base's articulated factor:
/// M̄⁻¹[base, c] = sense(c) Ad_P₀ P_0[c], M̄⁻¹[base, base] = Ad_P₀ (M^A_0)⁻¹ Ad_P₀ᵀ.
template <int kJointColumns, class Tree, class S, std::size_t NC, class Sense, class Matrix>
HODYN_ALWAYS_INLINE void write_base_rows(const ArticulatedWorkspace<Tree, 0, S>& ws,
                                         const std::array<SV<S>, NC>& base_accel,
                                         const Sense& sense, Matrix& out) {
  // World frame of the base, P₀ = C₁ (A⁰_0)⁻¹ = T(x) R; Ad_P₀ (ω; v) = (Rω; Rv + x × Rω).
  const M3<S>& r = ws.base_frame.rotation[0];
  const V3<S>& x = ws.base_frame.origin[0];
  for (int c = 0; c < kJointColumns; ++c) {
    const SV<S>& a = base_accel[static_cast<std::size_t>(c)];
    const S sense_k = sense(c);
    const V3<S> w = sense_k * (r * a.ang);
    const V3<S> v = sense_k * (r * a.lin) + cross(x, w);
    const int rk = 6 + c;
    const S col6[6] = {w.x, w.y, w.z, v.x, v.y, v.z};
    for (int i = 0; i < 6; ++i) out(i, rk) = out(rk, i) = col6[i];
  }
  // (M^A_0)⁻¹ = G S⁻¹ Gᵀ + diag(0, C⁻¹), G = [1; −Eᵀ], from the Schur factors
  // (E = B C⁻¹, S = A − E Bᵀ). Ad_P₀ = [R 0; [x]R R] maps G to [R; H] with
  // H = [x]R − R Eᵀ, so the world-frame block is
  //   aa = R S⁻¹ Rᵀ,  al = R S⁻¹ Hᵀ,  ll = H S⁻¹ Hᵀ + R C⁻¹ Rᵀ.
  const auto& f = ws.base_factor;
  const auto row_dot = [](const M3<S>& a, int i, const M3<S>& b, int j) {
    return a.a[3 * i] * b.a[3 * j] + a.a[3 * i + 1] * b.a[3 * j + 1] +
           a.a[3 * i + 2] * b.a[3 * j + 2];
  };
  M3<S> h;
  for (int j = 0; j < 3; ++j) h.set_col(j, cross(x, r.col(j)));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) h.a[3 * i + j] -= row_dot(r, i, f.e, j);
  const M3<S> rs = r * f.s_inv;
  const M3<S> hs = h * f.s_inv;
  const M3<S> rc = r * f.c_inv;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out(i, 3 + j) = out(3 + j, i) = row_dot(rs, i, h, j);
    for (int j = i; j < 3; ++j) {  // symmetric blocks: the upper triangle, mirrored
      out(i, j) = out(j, i) = row_dot(rs, i, r, j);
      out(3 + i, 3 + j) = out(3 + j, 3 + i) = row_dot(hs, i, h, j) + row_dot(rc, i, r, j);
    }
  }
}

/// The IMMA passes for a tree of 1-DoF joints (see `inverse_mass_matrix_passes`).
template <class Tree, class Scalar>
Status inverse_mass_matrix_single_dof_passes(const Model<Tree, Scalar>& model,
                                             InverseMassMatrixData<Tree, Scalar>& data) noexcept {
  using S = Scalar;
  using detail::M3;
  using detail::SV;
  using detail::V3;
  constexpr int n = Tree::kNumBodies;
  constexpr bool kFloating = !TreeTraits<Tree>::kFixedBase;
  auto& out = data.result;
  const auto& ws = data.articulated.workspace;
  const auto& body = ws.body;
  auto& col = data.column;
  auto& part = data.partial;
  auto& base_accel = data.base_acceleration;
  using T = detail::InverseMassMatrixTables<Tree>;

  // ---- backward pass: partial rows Minv[j, sub(j)], bias wrenches F_p[sub(j)] ----
  // (every index is a compile-time constant: the subtree tests cost nothing)
  detail::for_each_index<1, n>([&](auto i) {
    constexpr int j = n - decltype(i)::value;
    constexpr JointKind K = Tree::kJoint[j];
    constexpr int p = Tree::kParent[j];
    const auto& b = body[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    auto& row = part[j - 1];
    row[j - 1] = b.inverse_d;
    col[p][j - 1] = detail::wrench_up<K>(b, d, e, b.inverse_d * b.screw_inertia);
    detail::for_each_index<j + 1, n>([&](auto kc) {
      constexpr int k = decltype(kc)::value;
      if constexpr (T::subtree[j][k]) {
        const SV<S>& f = col[j][k - 1];
        const S m = -(b.inverse_d * detail::screw_dot<K>(e, f, detail::pitch_axis<K>(model, j)));
        row[k - 1] = m;
        col[p][k - 1] = detail::wrench_up<K>(b, d, e, f + m * b.screw_inertia);
      }
    });
  });

  // ---- base: P_0[k] = −(M^A_0)⁻¹ F_0[k] (every joint is in the base's subtree) ----
  if constexpr (kFloating)
    for (int k = 1; k < n; ++k) base_accel[k - 1] = S(-1) * ws.base_factor.solve(col[0][k - 1]);

  // ---- forward pass with the base held: M_jj⁻¹[j, k] for k ≥ j in j's base branch ----
  // (a held base decouples the branches: the other entries of M_jj⁻¹ are zero).
  detail::for_each_index<1, n>([&](auto jc) {
    constexpr int j = decltype(jc)::value;
    constexpr JointKind K = Tree::kJoint[j];
    constexpr int p = Tree::kParent[j];
    const auto& b = body[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    auto& row = part[j - 1];
    detail::for_each_index<j, n>([&](auto kc) {
      constexpr int k = decltype(kc)::value;
      if constexpr (T::branch[k] == T::branch[j]) {
        S m = T::subtree[j][k] ? row[k - 1] : S(0);
        SV<S> x{};
        if constexpr (p != 0) {  // a branch root's parent (the held base) does not accelerate
          x = detail::twist_to_child<K>(b, d, e, col[p][k - 1]);
          m -= b.inverse_d * dot(b.screw_inertia, x);
        }
        row[k - 1] = m;
        if constexpr (k >= T::first_child[j]) {
          detail::add_screw<K>(e, m, x, detail::pitch_axis<K>(model, j));
          col[j][k - 1] = x;
        }
      }
    });
  });

  // ---- joint block: M̄⁻¹[j, k] = M_jj⁻¹[j, k] + F_0[j]ᵀ (M^A_0)⁻¹ F_0[k] (Woodbury) ----
  detail::for_each_index<1, n>([&](auto jc) {
    constexpr int j = decltype(jc)::value;
    constexpr int rj = TreeTraits<Tree>::joint_dof(j);
    const S sense_j = model.joint_sense(j);
    detail::for_each_index<j, n>([&](auto kc) {
      constexpr int k = decltype(kc)::value;
      constexpr int rk = TreeTraits<Tree>::joint_dof(k);
      S m(0);
      if constexpr (T::branch[k] == T::branch[j]) m = part[j - 1][k - 1];
      if constexpr (kFloating) m -= dot(col[0][j - 1], base_accel[k - 1]);
      const S v = (sense_j * model.joint_sense(k)) * m;  // q = s θ, τ = s τ_θ
      out(rj, rk) = v;
      if constexpr (rk != rj) out(rk, rj) = v;
    });
  });

  if constexpr (kFloating)
    detail::write_base_rows<TreeTraits<Tree>::kNumJointDofs>(
        ws, base_accel, [&](int c) -> const S& { return model.joint_sense(c + 1); }, out);
  if (!detail::all_finite_wide(out)) {
    out.setZero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

/// The IMMA passes for a tree with ball or universal joints (any mix of
/// kinds): those of the 1-DoF code with every joint column an entry c of q̇,
/// a ball's rows a 3-row block, a universal joint two revolute steps through
/// its massless intermediate frame (header comment). Indices of joints are compile-time; the
/// columns run over the tree's tables.
template <class Tree, class Scalar>
Status inverse_mass_matrix_multi_dof_passes(const Model<Tree, Scalar>& model,
                                            InverseMassMatrixData<Tree, Scalar>& data) noexcept {
  using S = Scalar;
  constexpr int n = Tree::kNumBodies;
  constexpr int nd = TreeTraits<Tree>::kNumJointDofs;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  constexpr bool kFloating = !TreeTraits<Tree>::kFixedBase;
  using T = InverseMassMatrixTables<Tree>;
  auto& out = data.result;
  const auto& ws = data.articulated.workspace;
  const auto& body = ws.body;
  auto& col = data.column;
  auto& part = data.partial;
  auto& base_accel = data.base_acceleration;
  const auto owner = [](int c) { return TreeTraits<Tree>::dof_body(kBase + c); };
  const auto at = [](int c) { return static_cast<std::size_t>(c); };
  // A ball's 3-row block of column c: rows e0, e0 + 1, e0 + 2.
  const auto set_rows = [&](int e0, int c, const V3<S>& m) {
    part[at(e0)][at(c)] = m.x;
    part[at(e0 + 1)][at(c)] = m.y;
    part[at(e0 + 2)][at(c)] = m.z;
  };

  // ---- backward pass: partial rows Minv[j, sub(j)], bias wrenches F_p[sub(j)] ----
  for_each_index<1, n>([&](auto i) {
    constexpr int j = n - decltype(i)::value;
    constexpr JointKind K = Tree::kJoint[j];
    constexpr int p = Tree::kParent[j];
    constexpr int e0 = TreeTraits<Tree>::joint_entry(j);
    const auto& b = body[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    if constexpr (is_spherical(K)) {
      const auto& bl = ws.ball[static_cast<std::size_t>(ball_index<Tree>(j))];
      const M3<S>& ainv = bl.inverse_d;  // D⁻¹ = A⁻¹ (symmetric)
      const M3<S>& bb = b.inertia.b;     // U = [A; Bᵀ]
      for (int a = 0; a < 3; ++a) {  // own columns: Minv = A⁻¹ e_a, U A⁻¹ e_a = (e_a; Bᵀ A⁻¹ e_a)
        const V3<S> m = ainv.col(a);
        set_rows(e0, e0 + a, m);
        const SV<S> u{V3<S>{a == 0 ? S(1) : S(0), a == 1 ? S(1) : S(0), a == 2 ? S(1) : S(0)},
                      bb.transpose_times(m)};
        col[p][at(e0 + a)] = ball_wrench_to_parent(0, bl, d, [&](int) { return u; });
      }
      for (int c = e0 + 3; c < nd; ++c) {
        if (!T::subtree[j][static_cast<std::size_t>(owner(c))]) continue;
        const SV<S>& f = col[j][at(c)];
        const V3<S> m = S(-1) * (ainv * f.ang);
        set_rows(e0, c, m);
        const SV<S> w{V3<S>{}, f.lin + bb.transpose_times(m)};  // f + U m: (f + A m)_ang = 0
        col[p][at(c)] = ball_wrench_to_parent(0, bl, d, [&](int) { return w; });
      }
    } else if constexpr (is_universal(K)) {
      // Two revolute steps: θ₂ in the child's frame (U₂, D₂⁻¹ of the body), the
      // wrench rotated into m by Rot₂, θ₁ there (U₁, D₁⁻¹ of `un`), carried by X₁.
      constexpr JointKind R = JointKind::kRevolute;
      const auto& un = ws.universal[at(universal_index<Tree>(j))];
      const V3<S> e = V3<S>::from(model.joint_axis(j));
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      const auto first_step = [&](int c, const SV<S>& fm) {  // f_m: F_m[c] in m
        const S m1 = -(un.inverse_d * dot(e, fm.ang));
        part[at(e0)][at(c)] = m1;
        col[p][at(c)] = wrench_up<R>(b, d, e, fm + m1 * un.screw_inertia);
      };
      part[at(e0)][at(e0)] = un.inverse_d;  // θ₁'s own column
      col[p][at(e0)] = wrench_up<R>(b, d, e, un.inverse_d * un.screw_inertia);
      part[at(e0 + 1)][at(e0 + 1)] = b.inverse_d;  // θ₂'s own column
      first_step(e0 + 1, universal_wrench_to_m(un, e2, b.inverse_d * b.screw_inertia));
      for (int c = e0 + 2; c < nd; ++c) {
        if (!T::subtree[j][static_cast<std::size_t>(owner(c))]) continue;
        const SV<S>& f = col[j][at(c)];
        const S m2 = -(b.inverse_d * dot(e2, f.ang));
        part[at(e0 + 1)][at(c)] = m2;
        first_step(c, universal_wrench_to_m(un, e2, f + m2 * b.screw_inertia));
      }
    } else {
      const V3<S> e = V3<S>::from(model.joint_axis(j));
      auto& row = part[at(e0)];
      row[at(e0)] = b.inverse_d;
      col[p][at(e0)] = wrench_up<K>(b, d, e, b.inverse_d * b.screw_inertia);
      for (int c = e0 + 1; c < nd; ++c) {
        if (!T::subtree[j][static_cast<std::size_t>(owner(c))]) continue;
        const SV<S>& f = col[j][at(c)];
        const S m = -(b.inverse_d * screw_dot<K>(e, f, pitch_axis<K>(model, j)));
        row[at(c)] = m;
        col[p][at(c)] = wrench_up<K>(b, d, e, f + m * b.screw_inertia);
      }
    }
  });

  // ---- base: P_0[c] = −(M^A_0)⁻¹ F_0[c] ----
  if constexpr (kFloating)
    for (int c = 0; c < nd; ++c) base_accel[at(c)] = S(-1) * ws.base_factor.solve(col[0][at(c)]);

  // ---- forward pass with the base held: M_jj⁻¹[j, c] for the columns of j and
  // the joints after it in j's base branch ----
  for_each_index<1, n>([&](auto jc) {
    constexpr int j = decltype(jc)::value;
    constexpr JointKind K = Tree::kJoint[j];
    constexpr int p = Tree::kParent[j];
    constexpr int e0 = TreeTraits<Tree>::joint_entry(j);
    const auto& b = body[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    for (int c = e0; c < nd; ++c) {
      const auto k = static_cast<std::size_t>(owner(c));
      if (T::branch[k] != T::branch[j]) continue;
      const bool in_subtree = T::subtree[j][k];
      const bool keep = static_cast<int>(k) >= T::first_child[j];
      SV<S> x{};
      if constexpr (is_spherical(K)) {
        const auto& bl = ws.ball[static_cast<std::size_t>(ball_index<Tree>(j))];
        V3<S> m = in_subtree
                      ? V3<S>{part[at(e0)][at(c)], part[at(e0 + 1)][at(c)], part[at(e0 + 2)][at(c)]}
                      : V3<S>{};
        if constexpr (p != 0) {  // D⁻¹ Uᵀ x = A⁻¹ (A x_ang + B x_lin) = x_ang + A⁻¹ B x_lin
          x = ball_twist_to_child(bl, d, col[p][at(c)]);
          m -= x.ang + bl.inverse_d * (b.inertia.b * x.lin);
        }
        set_rows(e0, c, m);
        if (keep) {
          x.ang += m;
          col[j][at(c)] = x;
        }
      } else if constexpr (is_universal(K)) {
        // θ₁ in m (its parent's P carried by X₁), then θ₂ in the child's frame
        // (P_m carried by Rot₂ᵀ: m is never held, even under a branch root).
        constexpr JointKind R = JointKind::kRevolute;
        const auto& un = ws.universal[at(universal_index<Tree>(j))];
        const V3<S> e = V3<S>::from(model.joint_axis(j));
        const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
        S m1 = in_subtree ? part[at(e0)][at(c)] : S(0);
        if constexpr (p != 0) {
          x = twist_to_child<R>(b, d, e, col[p][at(c)]);
          m1 -= un.inverse_d * dot(un.screw_inertia, x);
        }
        part[at(e0)][at(c)] = m1;
        if (c == e0) continue;  // θ₂'s row of θ₁'s column: the lower triangle
        x.ang += m1 * e;        // P_m
        SV<S> xj = universal_twist_to_child(un, e2, x);
        S m2 = in_subtree ? part[at(e0 + 1)][at(c)] : S(0);
        m2 -= b.inverse_d * dot(b.screw_inertia, xj);
        part[at(e0 + 1)][at(c)] = m2;
        if (keep) {
          xj.ang += m2 * e2;
          col[j][at(c)] = xj;
        }
      } else {
        const V3<S> e = V3<S>::from(model.joint_axis(j));
        S m = in_subtree ? part[at(e0)][at(c)] : S(0);
        if constexpr (p != 0) {
          x = twist_to_child<K>(b, d, e, col[p][at(c)]);
          m -= b.inverse_d * dot(b.screw_inertia, x);
        }
        part[at(e0)][at(c)] = m;
        if (keep) {
          add_screw<K>(e, m, x, pitch_axis<K>(model, j));
          col[j][at(c)] = x;
        }
      }
    }
  });

  // ---- joint block: M̄⁻¹[r, c] = M_jj⁻¹[r, c] + F_0[r]ᵀ (M^A_0)⁻¹ F_0[c] (Woodbury) ----
  // (q = s θ, τ = s τ_θ for a 1-DoF joint and a universal joint's θ₁; a
  // ball's entries are its ω and a universal joint's θ₂ is θ₂: sense 1)
  const auto sense = [&](int c) -> S {
    const int k = owner(c);
    const JointKind kind = Tree::kJoint[static_cast<std::size_t>(k)];
    if (is_spherical(kind) || (is_universal(kind) && c != TreeTraits<Tree>::joint_entry(k)))
      return S(1);
    return model.joint_sense(k);
  };
  for (int r = 0; r < nd; ++r) {
    const int kr = owner(r);
    const S sense_r = sense(r);
    for (int c = r; c < nd; ++c) {
      const int kc = owner(c);
      S m(0);
      if (T::branch[static_cast<std::size_t>(kc)] == T::branch[static_cast<std::size_t>(kr)])
        m = part[at(r)][at(c)];
      if constexpr (kFloating) m -= dot(col[0][at(r)], base_accel[at(c)]);
      const S v = (sense_r * sense(c)) * m;
      out(kBase + r, kBase + c) = v;
      out(kBase + c, kBase + r) = v;
    }
  }
  if constexpr (kFloating) write_base_rows<nd>(ws, base_accel, sense, out);
  if (!all_finite_wide(out)) {
    out.setZero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

/// The IMMA passes of `inverse_mass_matrix` on an articulated pass already in
/// data.articulated: its own, or that of a successful order-0
/// `forward_dynamics` run on data.articulated at the same configuration
/// (constrained forward dynamics does that: one articulated pass gives both
/// the open tree's ν̇ and M̄⁻¹). kNonFiniteResult (zero result) if M̄⁻¹ is not
/// finite. A tree of 1-DoF joints runs its own passes (unchanged by balls and
/// universal joints).
template <class Tree, class Scalar>
HODYN_ALWAYS_INLINE Status inverse_mass_matrix_passes(
    const Model<Tree, Scalar>& model, InverseMassMatrixData<Tree, Scalar>& data) noexcept {
  if constexpr (TreeTraits<Tree>::kSingleDofJoints)
    return inverse_mass_matrix_single_dof_passes(model, data);
  else
    return inverse_mass_matrix_multi_dof_passes(model, data);
}

/// M̄⁻¹ at (base_pose, q) with the balls' R_j in `ball_rotations` (empty without a ball).
template <class Tree, class Scalar, class BallRotations>
Status inverse_mass_matrix_at(const Model<Tree, Scalar>& model,
                              InverseMassMatrixData<Tree, Scalar>& data,
                              const Pose<Scalar>& base_pose,
                              const typename Model<Tree, Scalar>::JointVector& q,
                              const BallRotations& ball_rotations) noexcept {
  constexpr bool kFloating = !TreeTraits<Tree>::kFixedBase;
  auto& out = data.result;
  Status s = Status::kOk;
  if constexpr (kFloating) s = check_pose(base_pose);
  if (s == Status::kOk && !all_finite(q)) s = Status::kNonFiniteInput;
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0)
    if (s == Status::kOk) s = check_joint_rotations(ball_rotations);
  if (s != Status::kOk) {
    out.setZero();
    return s;
  }
  // M^A_j, U_j, D_j⁻¹ and the base's factor: the order-0 pass of forward dynamics.
  if constexpr (kFloating) data.input.base_pose = base_pose;
  data.input.q = q;
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0)
    data.input.joint_rotation = ball_rotations;
  if (!articulated_inertias<false, false>(
          model, data.articulated, data.input,
          static_cast<const HybridDynamicsInput<Tree, 0, Scalar>*>(nullptr), kFloating, false)) {
    out.setZero();
    return Status::kSingularInertia;
  }
  return inverse_mass_matrix_passes(model, data);
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// M̄⁻¹ at (base_pose, q) into data.result: (6+n)×(6+n) for a floating base,
/// ν = (V₁ spatial world twist; q̇); n×n for a fixed base (base_pose ignored).
/// Bad pose or non-finite q: its status; a singular articulated inertia:
/// kSingularInertia; a non-finite result: kNonFiniteResult — each with a zero result.
/// A tree with a ball joint needs the balls' rotations: the overload below (a
/// universal joint's θ₁, θ₂ are in q, so both overloads take it).
template <class Tree, class Scalar>
Status inverse_mass_matrix(const Model<Tree, Scalar>& model,
                           InverseMassMatrixData<Tree, Scalar>& data, const Pose<Scalar>& base_pose,
                           const typename Model<Tree, Scalar>::JointVector& q) noexcept {
  static_assert(TreeTraits<Tree>::kNumSphericalJoints == 0,
                "inverse_mass_matrix of a tree with a ball joint takes the configuration as a "
                "MotionDerivatives (base_pose, q[0], joint_rotation)");
  return detail::inverse_mass_matrix_at(model, data, base_pose, q,
                                        std::array<Matrix3<Scalar>, 0>{});
}

/// M̄⁻¹ at the configuration of `configuration`, as `mass_matrix` reads it:
/// base_pose, q[0] and, for ball joints, joint_rotation (R = R_j exp([δ]), δ
/// the ball's entries of q[0]); velocities and higher orders are not read. A
/// ball's three rows and columns are those of its ω (child frame), the ν of
/// mass_matrix's M̄. Statuses as above; a `joint_rotation` that is not a
/// rotation, or not finite: kNonOrthonormalRotation / kNonFiniteInput, each
/// with a zero result.
template <class Tree, int MaxOrder, class Scalar>
Status inverse_mass_matrix(
    const Model<Tree, Scalar>& model, InverseMassMatrixData<Tree, Scalar>& data,
    const MotionDerivatives<Tree, MaxOrder, Scalar>& configuration) noexcept {
  return detail::inverse_mass_matrix_at(model, data, configuration.base_pose, configuration.q[0],
                                        configuration.joint_rotation);
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
