// hodyn/inverse_dynamics_regressor.hpp — the inverse-dynamics regressor and
// its time derivatives of any order (seed 004 Props. 1-2, Rem. 4):
//
//   (Q₁^(k); τ^(k)) = Y^(k) π,   k = 0..r,
//
// π the model's inertial parameters (hodyn/inertial_parameters.hpp: ten per
// body, bodies in tree order, each in its `set_body` frame), along the motion
// of `inverse_dynamics` (base pose, V₁^(0..r+1), q^(0..r+2)) with gravity and
// without applied loads. Rows: Q₁ (6, spatial, world axes, moment about the
// world origin, as `InverseDynamicsData::base_wrench`), then τ (one per
// joint). `base_frame_regressor[k]` gives the six rows of (Ad_C₁ᵀ Q₁)^(k), the
// base-frame wrench (`base_wrench_body`). A fixed-base tree's Q₁ rows are the
// mount's wrench on body 0.
//
// How: the kinematic half of the joint-frame recursions
// (detail/joint_frame_recursions.hpp) gives every body's twist v and
// gravity-augmented acceleration ã as Taylor coefficients in its joint frame.
// Moved into the body's own frame, the Newton–Euler wrench
// f = M ã − ad_vᵀ(M v) is linear in the body's ten parameters:
//
//   m:    (0; α)                                  α = ã_lin + ω × v_lin
//   h:    (h × α; ω̇ × h + ω × (ω × h))
//   I:    (I ω̇ + ω × (I ω); 0)
//
// whose coefficients need only the Cauchy products ω × v_lin and ω ωᵀ. Each
// body's ten columns are moved back to its joint frame and carried up to the
// root exactly as the recursions carry a wrench (one rotation series and one
// offset per joint): joint i's row reads sᵢᵀ of the column; at the root the
// base frame series turns it into world axes. Y^(k) = k! × coefficient k.
// Cost O(N · depth · r²); no heap, no exceptions; bad input gives a Status and
// zero outputs.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <type_traits>

#include <Eigen/Core>

#include "hodyn/detail/coefficient_lanes.hpp"
#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/joint_frame_recursions.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/inertial_parameters.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/kinematics.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// How many lanes of a body's rows the row and column loops handle at once:
/// one vector register of the target for float and double (the partial sums
/// of a chunk then stay in registers, detail/coefficient_lanes.hpp's vectors),
/// one lane otherwise (series, targets without lanes).
template <class S, int Lanes>
constexpr int regressor_chunk_lanes() {
  if constexpr (!(HODYN_COEFFICIENT_LANES) ||
                !(std::is_same<S, double>::value || std::is_same<S, float>::value)) {
    return 1;
  } else {
    constexpr int width = HODYN_COEFFICIENT_LANE_BYTES / static_cast<int>(sizeof(S));
    return width > 1 && Lanes % width == 0 ? width : 1;
  }
}

/// W lanes of rows as one value: a lane vector, or S itself for W = 1.
template <class S, int W, bool kVector = (W > 1)>
struct RowChunkType {
  using type = S;
};
#if HODYN_COEFFICIENT_LANES
template <class S, int W>
struct RowChunkType<S, W, true> {
  using type = Lanes<S, W>;
};
#endif
template <class S, int W>
using RowChunk = typename RowChunkType<S, W>::type;

/// The W lanes from `lanes` (W-aligned in a lane array).
template <class S, int W>
HODYN_ALWAYS_INLINE RowChunk<S, W> load_chunk(const S* lanes) {
  if constexpr (W == 1) {
    return *lanes;
  } else {
    RowChunk<S, W> chunk;
    __builtin_memcpy(&chunk, lanes, sizeof(chunk));
    return chunk;
  }
}
template <class S, int W>
HODYN_ALWAYS_INLINE void store_chunk(const RowChunk<S, W>& chunk, S* lanes) {
  if constexpr (W == 1)
    *lanes = chunk;
  else
    __builtin_memcpy(lanes, &chunk, sizeof(chunk));
}

/// The workspace of both regressors: the kinematics of the joint-frame
/// recursions, and one body's wrench-per-parameter matrix and rows.
template <class Tree, int MaxOrder, class S>
struct RegressorWorkspace {
  static constexpr int kNumBodies = TreeTraits<Tree>::kNumBodies;
  /// The most joint entries (DoFs: 3 for a ball, 2 for a universal joint, 1
  /// otherwise) on a path from
  /// the root (the most joints with 1-DoF joints only).
  static constexpr int max_joint_depth() {
    int deepest = 0;
    for (int j = 0; j < kNumBodies; ++j) {
      int depth = 0;
      for (int i = j; i > 0; i = Tree::kParent[i]) depth += joint_dofs(Tree::kJoint[i]);
      deepest = depth > deepest ? depth : deepest;
    }
    return deepest;
  }
  /// A body's rows, as lanes: six world unit twists (Q₁, lanes 0..5), six
  /// base-frame unit twists (Ad_C₁ᵀ Q₁, lanes 6..11), then the screw of the
  /// joint at each level of its path (τ, lanes 12..; a ball's three screws in
  /// three lanes, a universal joint's two in two), padded to whole vectors.
  static constexpr int kLanes = (12 + max_joint_depth() + 7) / 8 * 8;
  /// One Taylor coefficient of a body's rows, component-major:
  /// `component[c][l]` is component c (ω then v) of row l.
  struct RowLanes {
    static constexpr int kLanes = RegressorWorkspace::kLanes;
    alignas(64) std::array<std::array<S, kLanes>, 6> component{};
  };
  using RowSeries = std::array<RowLanes, MaxOrder + 1>;

  std::array<JointFrameSeries<MaxOrder, S>, kNumBodies> body{};
  std::array<std::array<S, MaxOrder + 1>, kNumBodies> torque{};  ///< unused (kinematics only)
  MovingFrame<MaxOrder, S> base_frame{};
  std::array<SV<S>, MaxOrder + 2> base_series{};
  std::array<V3<S>, MaxOrder + 1> scratch{};
  JointSineCosine<S, kNumBodies> joint_sine_cosine{};
  /// Slotine–Li only: every body's reference twist v_r in its joint frame.
  std::array<SV<S>, kNumBodies> reference_twist{};
  /// Σ x·0 over every stored value (by chunk lane): all 0 while the outputs are finite.
  alignas(64) std::array<S, kLanes> finite{};
  std::array<S, MaxOrder + 1> factorial{};          ///< k!
  std::array<S, MaxOrder + 1> inverse_factorial{};  ///< 1/k!
  /// The current body's ten column wrenches (A_j, 6 × 10 by column), computed
  /// in its body frame C_j and then moved into its joint frame.
  std::array<std::array<std::array<S, 6>, 10>, MaxOrder + 1> columns{};
};

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// Results and workspace of `inverse_dynamics_regressor` (fixed size, reusable).
template <class Tree, int MaxOrder, class Scalar = double>
struct RegressorData {
  static constexpr int kNumBodies = TreeTraits<Tree>::kNumBodies;
  static constexpr int kNumJoints = TreeTraits<Tree>::kNumJoints;
  static constexpr int kRows = 6 + TreeTraits<Tree>::kNumJointDofs;  ///< (Q₁; τ)
  static constexpr int kColumns = 10 * kNumBodies;                   ///< π
  static constexpr int kMaxOrder = MaxOrder;
  using Matrix = Eigen::Matrix<Scalar, kRows, kColumns>;
  using BaseRows = Eigen::Matrix<Scalar, 6, kColumns>;

  // ---- results, entries 0..order ----
  std::array<Matrix, MaxOrder + 1> regressor{};               ///< Y^(k)
  std::array<BaseRows, MaxOrder + 1> base_frame_regressor{};  ///< rows of (Ad_C₁ᵀ Q₁)^(k)
  int order = -1;  ///< order of the last successful call, −1 if none

  // ---- workspace ----
  using Workspace = detail::RegressorWorkspace<Tree, MaxOrder, Scalar>;
  Workspace workspace{};
  std::array<typename Workspace::RowSeries, kNumBodies> rows{};  ///< every body's rows

  RegressorData() { clear_results(); }
  void clear_results() {
    for (auto& y : regressor) y.setZero();
    for (auto& y : base_frame_regressor) y.setZero();
    order = -1;
  }
};

/// Results and workspace of `inverse_dynamics_body_regressor`: the ten columns
/// of one body (a payload's, an estimator's), without the other bodies' cost
/// or memory.
template <class Tree, int MaxOrder, class Scalar = double>
struct BodyRegressorData {
  static constexpr int kNumJoints = TreeTraits<Tree>::kNumJoints;
  static constexpr int kRows = 6 + TreeTraits<Tree>::kNumJointDofs;  ///< (Q₁; τ)
  static constexpr int kMaxOrder = MaxOrder;
  using Matrix = Eigen::Matrix<Scalar, kRows, 10>;
  using BaseRows = Eigen::Matrix<Scalar, 6, 10>;

  // ---- results, entries 0..order ----
  std::array<Matrix, MaxOrder + 1> regressor{};               ///< body's columns of Y^(k)
  std::array<BaseRows, MaxOrder + 1> base_frame_regressor{};  ///< of (Ad_C₁ᵀ Q₁)^(k)
  int order = -1;  ///< order of the last successful call, −1 if none
  int body = -1;   ///< body of the last successful call

  // ---- workspace ----
  using Workspace = detail::RegressorWorkspace<Tree, MaxOrder, Scalar>;
  Workspace workspace{};
  std::array<typename Workspace::RowSeries, 2> rows{};  ///< parent's and child's, in turn

  BodyRegressorData() { clear_results(); }
  void clear_results() {
    for (auto& y : regressor) y.setZero();
    for (auto& y : base_frame_regressor) y.setZero();
    order = -1;
    body = -1;
  }
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// A body's ten column wrenches, (ang; lin) components of column p in entry p.
template <class S>
using ColumnWrenches = std::array<std::array<S, 6>, 10>;

template <class S>
HODYN_ALWAYS_INLINE void set_column(std::array<S, 6>& column, const V3<S>& ang, const V3<S>& lin) {
  column = {ang.x, ang.y, ang.z, lin.x, lin.y, lin.z};
}

/// Coefficient k of a body's ten column wrenches in its own frame, from the
/// coefficients of its twist (ω; v) and gravity-augmented acceleration (ω̇; a)
/// in that frame (see the header). `out[p]` is the wrench of parameter p.
template <std::size_t N, class S>
HODYN_ALWAYS_INLINE void body_regressor_columns(int k, const std::array<SV<S>, N>& twist,
                                                const std::array<SV<S>, N>& acceleration,
                                                ColumnWrenches<S>& out) {
  V3<S> alpha = acceleration[k].lin;  // α = ã_lin + ω × v
  S p[3][3] = {};                     // (ω ωᵀ)_[k]
  for (int i = 0; i <= k; ++i) {
    const V3<S>& w = twist[i].ang;
    const V3<S>& u = twist[k - i].ang;
    alpha += cross(w, twist[k - i].lin);
    const S wi[3] = {w.x, w.y, w.z};
    const S ui[3] = {u.x, u.y, u.z};
    for (int a = 0; a < 3; ++a)
      for (int b = a; b < 3; ++b) p[a][b] += wi[a] * ui[b];
  }
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < a; ++b) p[a][b] = p[b][a];
  const V3<S>& d = acceleration[k].ang;  // ω̇
  const S trace = p[0][0] + p[1][1] + p[2][2];
  const V3<S>& al = alpha;
  const S z(0);
  out[0] = {z, z, z, al.x, al.y, al.z};  // m
  // h = e_b: (e_b × α; ω̇ × e_b + (ω ωᵀ) e_b − |ω|² e_b)
  out[1] = {z, -al.z, al.y, p[0][0] - trace, d.z + p[1][0], p[2][0] - d.y};
  out[2] = {al.z, z, -al.x, p[0][1] - d.z, p[1][1] - trace, d.x + p[2][1]};
  out[3] = {-al.y, al.x, z, d.y + p[0][2], p[1][2] - d.x, p[2][2] - trace};
  // I = E_ab (ones at (a,b) and (b,a)): E ω̇ + ω × (E ω), with
  // ω × (E_ab ω) = (ω ωᵀ)e_b × e_a + [a ≠ b] (ω ωᵀ)e_a × e_b, written out:
  out[4] = {d.x, p[2][0], -p[1][0], z, z, z};                           // I_xx
  out[5] = {d.y - p[2][0], d.x + p[2][1], p[0][0] - p[1][1], z, z, z};  // I_xy
  out[6] = {-p[2][1], d.y, p[0][1], z, z, z};                           // I_yy
  out[7] = {d.z + p[1][0], p[2][2] - p[0][0], d.x - p[1][2], z, z, z};  // I_xz
  out[8] = {p[1][1] - p[2][2], d.z - p[0][1], d.y + p[0][2], z, z, z};  // I_yz
  out[9] = {p[1][2], -p[0][2], d.z, z, z, z};                           // I_zz
}

/// Coefficient k of a body's ten momentum columns M v (M v = Y_p π per body):
/// m: (0; u), h: (h × u; ω × h), I: (I ω; 0), for the twist (ω; u) in its frame.
template <std::size_t N, class S>
void body_momentum_columns(int k, const std::array<SV<S>, N>& twist, ColumnWrenches<S>& out) {
  const V3<S>& w = twist[k].ang;
  const V3<S>& u = twist[k].lin;
  const S wi[3] = {w.x, w.y, w.z};
  set_column(out[0], V3<S>{}, u);
  for (int b = 0; b < 3; ++b) {
    V3<S> e{};
    (b == 0 ? e.x : b == 1 ? e.y : e.z) = S(1);
    set_column(out[1 + b], cross(e, u), cross(w, e));
  }
  for (int b = 0; b < 3; ++b)
    for (int a = 0; a <= b; ++a) {  // E_ab ω
      V3<S> ang{};
      (a == 0 ? ang.x : a == 1 ? ang.y : ang.z) += wi[b];
      if (a != b) (b == 0 ? ang.x : b == 1 ? ang.y : ang.z) += wi[a];
      set_column(out[static_cast<std::size_t>(inertia_parameter_index(a, b))], ang, V3<S>{});
    }
}

/// A body's ten Slotine–Li columns, f = M a_r − ad_vᵀ(M v_r) (seed 000 Lemma 1
/// per body, see slotine_li_regressor), for its twist v = (ω; u), reference
/// twist v_r = (ω_r; u_r) and reference acceleration a_r = (ω̇_r; ȧ_r) in its frame:
///   m: (u × u_r; ȧ_r + ω × u_r)
///   h: (h × ȧ_r + ω × (h × u_r) − u × (h × ω_r); ω̇_r × h − ω × (h × ω_r))
///   I: (I ω̇_r + ω × (I ω_r); 0)
template <class S>
void body_slotine_li_columns(const SV<S>& v, const SV<S>& vr, const SV<S>& ar,
                             ColumnWrenches<S>& out) {
  const V3<S>& w = v.ang;
  const V3<S>& u = v.lin;
  set_column(out[0], cross(u, vr.lin), ar.lin + cross(w, vr.lin));
  // Written out with ω × (e × x) = e (ω·x) − x ω_b for e = e_b:
  //   h: (e × ȧ_r + (ω·u_r − u·ω_r) e + ω_r u_b − u_r ω_b; ω̇_r × e − (ω·ω_r) e + ω_r ω_b)
  const S wi[3] = {w.x, w.y, w.z}, ui[3] = {u.x, u.y, u.z};
  const S ai[3] = {ar.lin.x, ar.lin.y, ar.lin.z}, di[3] = {ar.ang.x, ar.ang.y, ar.ang.z};
  const S ri[3] = {vr.ang.x, vr.ang.y, vr.ang.z};
  const S s1 = dot(w, vr.lin) - dot(u, vr.ang), s2 = dot(w, vr.ang);
  for (int b = 0; b < 3; ++b) {
    const int b1 = (b + 1) % 3, b2 = (b + 2) % 3;
    auto& col = out[static_cast<std::size_t>(1 + b)];
    const V3<S> ang = ui[b] * vr.ang - wi[b] * vr.lin;
    const V3<S> lin = wi[b] * vr.ang;
    col = {ang.x, ang.y, ang.z, lin.x, lin.y, lin.z};
    col[b] += s1;
    col[b1] -= ai[b2];
    col[b2] += ai[b1];
    col[3 + b] -= s2;
    col[3 + b1] += di[b2];
    col[3 + b2] -= di[b1];
  }
  // I = E_ab: E ω̇_r + ω × (E ω_r), E x = e_a x_b + e_b x_a (e_a x_a for a = b), with
  // ω × e_a = c_a: (c_a)_{a+1} = ω_{a+2}, (c_a)_{a+2} = −ω_{a+1}.
  for (int b = 0; b < 3; ++b)
    for (int a = 0; a <= b; ++a) {
      auto& col = out[static_cast<std::size_t>(inertia_parameter_index(a, b))];
      S m[3] = {S(0), S(0), S(0)};
      const auto add_c = [&](int axis, const S& f) {  // += c_axis f
        m[(axis + 1) % 3] += wi[(axis + 2) % 3] * f;
        m[(axis + 2) % 3] -= wi[(axis + 1) % 3] * f;
      };
      add_c(a, ri[b]);
      m[a] += di[b];
      if (a != b) {
        add_c(b, ri[a]);
        m[b] += di[a];
      }
      col = {m[0], m[1], m[2], S(0), S(0), S(0)};
    }
}

/// What a regressor's columns are (regressor_body_columns).
enum class RegressorKind {
  kInverseDynamics,  ///< f = M ã − ad_vᵀ(M v): (Q₁; τ)
  kMomentum,         ///< M v: the generalized momentum M̄ ν
  kSlotineLi,        ///< M a_r − ad_vᵀ(M v_r): M̄ ν̇_r + C ν_r + g (order 0)
};

/// Coefficients 0..r of the child's rows from the parent's: each row is a
/// motion vector w moved into joint frame j, Ad_{X_j}⁻¹ w — revolute
/// X = T(d) Rot(e, q): (Rᵀ ω; Rᵀ(v − d × ω)) with Rot(q)'s series; prismatic
/// X = T(d + e q): (ω; v − (d + e q) × ω). Chunk by chunk of lanes: the
/// parent's coefficients are read and v − d × ω formed once for all orders,
/// the sums over the series kept in locals and stored once (N ≥ r + 1).
template <JointKind K, std::size_t N, class Lanes, class S, std::size_t NR, std::size_t NQ>
HODYN_ALWAYS_INLINE void inherit_rows(int r, const std::array<Lanes, NR>& in, const V3<S>& d,
                                      const V3<S>& e, const std::array<S, NQ>& c,
                                      const std::array<S, NQ>& sn, const std::array<S, NQ>& q,
                                      std::array<Lanes, NR>& out) {
  constexpr int L = Lanes::kLanes;
  constexpr int W = regressor_chunk_lanes<S, L>();
  using Chunk = RowChunk<S, W>;
  std::array<M3<S>, NQ> rt{};  // Rot(e, q)ᵀ_[i], a general axis only
  if constexpr (joint_rotates(K) && aligned_axis(K) < 0)
    for (int i = 0; i <= r; ++i) {
      const M3<S> rot = axis_rotation<K>(e, i == 0 ? S(1) : S(0), c[static_cast<std::size_t>(i)],
                                         sn[static_cast<std::size_t>(i)]);
      for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col)
          rt[static_cast<std::size_t>(i)].a[3 * row + col] = rot.a[3 * col + row];
    }
  for (int l0 = 0; l0 < L; l0 += W) {
    Chunk w[N][6];  // the parent's coefficients 0..r of the chunk's rows
    Chunk u[N][3];  // (v − d × ω), revolute and helical
    for (int m = 0; m <= r; ++m) {
      const auto& x = in[static_cast<std::size_t>(m)].component;
      for (int comp = 0; comp < 6; ++comp) w[m][comp] = load_chunk<S, W>(&x[comp][l0]);
      if constexpr (joint_rotates(K)) {
        u[m][0] = w[m][3] - (d.y * w[m][2] - d.z * w[m][1]);
        u[m][1] = w[m][4] - (d.z * w[m][0] - d.x * w[m][2]);
        u[m][2] = w[m][5] - (d.x * w[m][1] - d.y * w[m][0]);
      }
    }
    for (int k = 0; k <= r; ++k) {
      Chunk y[6];  // coefficient k of the chunk's rows, every entry set at i = 0
      for (int i = 0; i <= k; ++i) {
        const Chunk* wi = w[k - i];
        if constexpr (joint_rotates(K)) {  // helical: the pitch's part follows (helical_rows)
          const Chunk* ui = u[k - i];
          if constexpr (aligned_axis(K) >= 0) {
            constexpr int a = aligned_axis(K), b = (a + 1) % 3, dd = (a + 2) % 3;
            // Rot(−q) about e_a: (y_b, y_d) → (c y_b + s y_d, c y_d − s y_b), y_a kept.
            const S ci = c[static_cast<std::size_t>(i)], si = sn[static_cast<std::size_t>(i)];
            const Chunk wb = ci * wi[b] + si * wi[dd], wd = ci * wi[dd] - si * wi[b];
            const Chunk ub = ci * ui[b] + si * ui[dd], ud = ci * ui[dd] - si * ui[b];
            if (i == 0) {
              y[a] = wi[a];
              y[3 + a] = ui[a];
              y[b] = wb;
              y[dd] = wd;
              y[3 + b] = ub;
              y[3 + dd] = ud;
            } else {
              y[b] += wb;
              y[dd] += wd;
              y[3 + b] += ub;
              y[3 + dd] += ud;
            }
          } else {
            const S* m = rt[static_cast<std::size_t>(i)].a;
            for (int row = 0; row < 3; ++row) {
              const Chunk ang =
                  m[3 * row] * wi[0] + m[3 * row + 1] * wi[1] + m[3 * row + 2] * wi[2];
              const Chunk lin =
                  m[3 * row] * ui[0] + m[3 * row + 1] * ui[1] + m[3 * row + 2] * ui[2];
              if (i == 0) {
                y[row] = ang;
                y[3 + row] = lin;
              } else {
                y[row] += ang;
                y[3 + row] += lin;
              }
            }
          }
        } else {
          const V3<S> p = q[static_cast<std::size_t>(i)] * e + (i == 0 ? d : V3<S>{});
          if (i == 0)
            for (int comp = 0; comp < 6; ++comp) y[comp] = wi[comp];
          y[3] -= p.y * wi[2] - p.z * wi[1];
          y[4] -= p.z * wi[0] - p.x * wi[2];
          y[5] -= p.x * wi[1] - p.y * wi[0];
        }
      }
      auto& x = out[static_cast<std::size_t>(k)].component;
      for_each_index<0, 6>([&](auto comp) { store_chunk<S, W>(y[comp], &x[comp][l0]); });
    }
  }
}

/// The pitch's part of Ad_{X_j}⁻¹ for a helical joint, X = T(d + h q e) Rot(e, q),
/// on rows already carried as by a revolute joint: every coefficient k loses
/// h Σ_i q_[i] e × ω_[k−i] from its linear components (Rot(−q) e = e); it reads
/// only angular components, which it leaves as they are.
template <class Lanes, class S, std::size_t NR, std::size_t NQ>
void helical_rows(int r, const S& h, const V3<S>& e, const std::array<S, NQ>& q,
                  std::array<Lanes, NR>& rows) {
  constexpr int L = Lanes::kLanes;
  for (int k = 0; k <= r; ++k) {
    auto& x = rows[static_cast<std::size_t>(k)].component;
    for (int i = 0; i <= k; ++i) {
      const V3<S> he = (h * q[static_cast<std::size_t>(i)]) * e;
      const auto& w = rows[static_cast<std::size_t>(k - i)].component;
      for (int l = 0; l < L; ++l) {
        x[3][l] -= he.y * w[2][l] - he.z * w[1][l];
        x[4][l] -= he.z * w[0][l] - he.x * w[2][l];
        x[5][l] -= he.x * w[1][l] - he.y * w[0][l];
      }
    }
  }
}

inline constexpr int kBaseFrameLane = 6;  ///< first base-frame lane of a body's rows
inline constexpr int kLevelLane = 12;     ///< lane of the joint at level 0 of a path

/// The kinematics of the joint-frame recursions (orders 0..r) and k!, 1/k!.
template <int FixedOrder, class Tree, int MaxOrder, class S>
void regressor_kinematics(int r, const Model<Tree, S>& model,
                          RegressorWorkspace<Tree, MaxOrder, S>& ws,
                          const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  ws.finite.fill(S(0));
  ws.joint_sine_cosine.compute(
      [&](int j) { return model.joint_sense(j) * motion.q[0](TreeTraits<Tree>::joint_entry(j)); });
  joint_frame_inverse_dynamics<FixedOrder, /*kKinematicsOnly=*/true>(
      r, model, ws.body, ws.torque, ws.base_frame, ws.base_series, ws.scratch, ws.joint_sine_cosine,
      motion, static_cast<const ExternalLoads<Tree, MaxOrder, S>*>(nullptr));
  ws.factorial[0] = ws.inverse_factorial[0] = S(1);
  for (int k = 1; k <= r; ++k) {
    ws.factorial[k] = ws.factorial[k - 1] * S(k);
    ws.inverse_factorial[k] = ws.inverse_factorial[k - 1] * reciprocal<S>(k);
  }
}

/// The base's rows: lanes 0..5 the columns of Ad_{P₀}⁻¹_[k] (the world unit
/// twists in its joint frame), lanes 6..11 those of Ad_{A⁰_0} (the base
/// frame's, constant), no joint.
template <int FixedOrder, class Tree, int MaxOrder, class S>
void regressor_base_rows(int run_order, const Model<Tree, S>& model,
                         const RegressorWorkspace<Tree, MaxOrder, S>& ws,
                         typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& rows) {
  const int r = FixedOrder >= 0 ? FixedOrder : run_order;
  const auto& frame = ws.base_frame;
  for (int k = 0; k <= r; ++k) {
    auto& x = rows[k].component;
    for (auto& comp : x) comp.fill(S(0));
    // Ad_{P₀}⁻¹ = [[Rᵀ, 0], [−Rᵀ[p], Rᵀ]]: lane ρ holds column ρ.
    const M3<S>& rk = frame.rotation[k];
    for (int row = 0; row < 3; ++row)
      for (int col = 0; col < 3; ++col) {
        x[row][col] = rk.a[3 * col + row];
        x[3 + row][3 + col] = rk.a[3 * col + row];
      }
    for (int i = 0; i <= k; ++i) {  // −(Rᵀ[p])_[k] = −Σ R_[i]ᵀ [p_[k−i]]
      const M3<S>& ri = frame.rotation[i];
      const V3<S>& p = frame.origin[k - i];
      for (int col = 0; col < 3; ++col) {
        V3<S> unit{};
        if (col == 0) unit.x = S(1);
        if (col == 1) unit.y = S(1);
        if (col == 2) unit.z = S(1);
        const V3<S> column = ri.transpose_times(cross(p, unit));
        x[3][col] -= column.x;
        x[4][col] -= column.y;
        x[5][col] -= column.z;
      }
    }
  }
  // Ad_{A⁰_0} = [[R, 0], [[p] R, R]] of the base frame's home pose (R, p).
  const M3<S> home = M3<S>::from(model.home_pose(0).rotation);
  const V3<S> origin = V3<S>::from(model.home_pose(0).translation);
  auto& x = rows[0].component;
  for (int col = 0; col < 3; ++col) {
    const V3<S> rc = home.col(col), moment = cross(origin, rc);
    x[0][kBaseFrameLane + col] = rc.x;
    x[1][kBaseFrameLane + col] = rc.y;
    x[2][kBaseFrameLane + col] = rc.z;
    x[3][kBaseFrameLane + col] = moment.x;
    x[4][kBaseFrameLane + col] = moment.y;
    x[5][kBaseFrameLane + col] = moment.z;
    x[3][kBaseFrameLane + 3 + col] = rc.x;
    x[4][kBaseFrameLane + 3 + col] = rc.y;
    x[5][kBaseFrameLane + 3 + col] = rc.z;
  }
}

/// A multi-DoF joint's child rows from its parent's: coefficient k of
/// Ad_{X}⁻¹ with X = T(d) R(t), Σ_i R_[i]ᵀ (ω; v − d × ω)_[k−i] over the
/// parent's lanes (a ball's R = R_j exp([δ]), a universal joint's Rot₁ Rot₂).
template <std::size_t N, class Tree, int MaxOrder, class S>
void rotated_parent_rows(int r, const std::array<M3<S>, N>& rot, const V3<S>& d,
                         const typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& parent,
                         typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& rows) {
  constexpr int L = RegressorWorkspace<Tree, MaxOrder, S>::kLanes;
  for (int k = 0; k <= r; ++k) {
    auto& y = rows[static_cast<std::size_t>(k)].component;
    for (auto& comp : y) comp.fill(S(0));
    for (int i = 0; i <= k; ++i) {
      const M3<S>& ri = rot[static_cast<std::size_t>(i)];
      const auto& x = parent[static_cast<std::size_t>(k - i)].component;
      for (int l = 0; l < L; ++l) {
        const V3<S> ang{x[0][l], x[1][l], x[2][l]};
        const V3<S> a = ri.transpose_times(ang);
        const V3<S> v = ri.transpose_times(V3<S>{x[3][l], x[4][l], x[5][l]} - cross(d, ang));
        y[0][l] += a.x;
        y[1][l] += a.y;
        y[2][l] += a.z;
        y[3][l] += v.x;
        y[4][l] += v.y;
        y[5][l] += v.z;
      }
    }
  }
}

/// A ball's rows: the parent's through Ad_{X_j}⁻¹ with X = T(d) R(t),
/// coefficient k = Σ_i R_[i]ᵀ (ω; v − d × ω)_[k−i], R_[i] as inverse dynamics
/// forms them (R_j exp([δ]), then Ṙ = R [ω]: detail/ball_joint.hpp). A plain
/// loop over the lanes: trees with balls only.
template <std::size_t N, class Tree, int MaxOrder, class S>
void ball_rows(int r, const Model<Tree, S>& model, int j,
               const RegressorWorkspace<Tree, MaxOrder, S>& ws,
               const MotionDerivatives<Tree, MaxOrder, S>& motion,
               const typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& parent,
               typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& rows) {
  const int entry = TreeTraits<Tree>::joint_entry(j);
  const auto ball =
      static_cast<std::size_t>(TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)]);
  std::array<M3<S>, N> rot{};
  std::array<V3<S>, N> w{};  // ω_[m] = ω^(m)/m!
  for (int m = 0; m < r; ++m) {
    const auto& x = motion.q[static_cast<std::size_t>(m + 1)];
    w[static_cast<std::size_t>(m)] =
        ws.inverse_factorial[m] * V3<S>{x(entry), x(entry + 1), x(entry + 2)};
  }
  {
    const auto& x = motion.q[0];
    rot[0] = M3<S>::from(motion.joint_rotation[ball]) *
             rotation_exponential(V3<S>{x(entry), x(entry + 1), x(entry + 2)});
  }
  if constexpr (N > 1)
    for (int k = 0; k < r && k + 1 < static_cast<int>(N); ++k)
      rot[static_cast<std::size_t>(k + 1)] = ball_rotation_next(k, rot, w);
  const V3<S> d = V3<S>::from(model.local_offset(j));
  rotated_parent_rows<N, Tree, MaxOrder>(r, rot, d, parent, rows);
}

/// A universal joint's rows: the parent's through Ad_{X_j}⁻¹ with
/// X = T(d) Rot(e₁, θ₁) Rot(e₂, θ₂), coefficient k = Σ_i R_[i]ᵀ (ω; v − d × ω)_[k−i],
/// R_[i] = Σ_l Rot₁,[l] Rot₂,[i−l] (θ₁'s cos, sin series from the kinematics,
/// θ₂'s formed here as inverse dynamics forms them); then its two screws in
/// the child's frame, S₁ = (Rot₂ᵀ e₁; 0) — a series, it turns with θ₂ — and
/// S₂ = (e₂; 0), in the last two lanes. A plain loop over the lanes: trees
/// with universal joints only.
template <std::size_t N, class Tree, int MaxOrder, class S>
void universal_rows(int r, const Model<Tree, S>& model, int j, int depth,
                    const RegressorWorkspace<Tree, MaxOrder, S>& ws,
                    const MotionDerivatives<Tree, MaxOrder, S>& motion,
                    const typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& parent,
                    typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& rows) {
  using std::cos;
  using std::sin;
  constexpr JointKind R = JointKind::kRevolute;
  const int entry = TreeTraits<Tree>::joint_entry(j);
  const auto& b = ws.body[j];
  const V3<S> e1 = V3<S>::from(model.joint_axis(j));
  const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
  std::array<S, N> c2{}, s2{};  // (cos θ₂)_[k], (sin θ₂)_[k]
  {
    const S theta2 = motion.q[0](entry + 1);
    c2[0] = S(cos(theta2));
    s2[0] = S(sin(theta2));
    for (int k = 0; k < r && k + 1 < static_cast<int>(N); ++k) {
      S sc(0), cc(0);
      for (int i = 0; i <= k; ++i) {
        const S rate =
            ws.inverse_factorial[k - i] * motion.q[static_cast<std::size_t>(k - i + 1)](entry + 1);
        sc += c2[static_cast<std::size_t>(i)] * rate;
        cc += s2[static_cast<std::size_t>(i)] * rate;
      }
      s2[static_cast<std::size_t>(k + 1)] = reciprocal<S>(k + 1) * sc;
      c2[static_cast<std::size_t>(k + 1)] = -(reciprocal<S>(k + 1) * cc);
    }
  }
  std::array<M3<S>, N> rot2{}, rot{};
  for (int i = 0; i <= r; ++i) {
    const auto I = static_cast<std::size_t>(i);
    rot2[I] = axis_rotation<R>(e2, i == 0 ? S(1) : S(0), c2[I], s2[I]);
  }
  for (int i = 0; i <= r; ++i)
    for (int l = 0; l <= i; ++l) {
      const auto Lx = static_cast<std::size_t>(l);
      const M3<S> prod = axis_rotation<R>(e1, l == 0 ? S(1) : S(0), b.cos_q[Lx], b.sin_q[Lx]) *
                         rot2[static_cast<std::size_t>(i - l)];
      for (int a = 0; a < 9; ++a) rot[static_cast<std::size_t>(i)].a[a] += prod.a[a];
    }
  const V3<S> d = V3<S>::from(model.local_offset(j));
  rotated_parent_rows<N, Tree, MaxOrder>(r, rot, d, parent, rows);
  for (int k = 0; k <= r; ++k) {
    auto& y = rows[static_cast<std::size_t>(k)].component;
    // S₁,[k] = (Rot₂ᵀ)_[k] e₁ (lane depth − 2), S₂ = e₂ at k = 0 (lane depth − 1)
    const V3<S> s1 = rot2[static_cast<std::size_t>(k)].transpose_times(e1);
    y[0][kLevelLane + depth - 2] = s1.x;
    y[1][kLevelLane + depth - 2] = s1.y;
    y[2][kLevelLane + depth - 2] = s1.z;
  }
  auto& y0 = rows[0].component;
  y0[0][kLevelLane + depth - 1] = e2.x;
  y0[1][kLevelLane + depth - 1] = e2.y;
  y0[2][kLevelLane + depth - 1] = e2.z;
}

/// Body j's rows (j ≥ 1, `depth` joint entries on its path, its own
/// included): its parent's through Ad_{X_j}⁻¹, and its own screw in the lane
/// of its level, with the joint's sense (τ_j = s_j e·f_ang, revolute,
/// s_j e·f_lin, prismatic, or e·f_ang + h e·f_lin, helical; a ball's three
/// unit screws (e_a; 0) in its last three lanes, τ = f_ang; a universal
/// joint's S₁ = (Rot₂ᵀ e₁; 0), S₂ = (e₂; 0) in its last two, universal_rows).
template <int FixedOrder, class Tree, int MaxOrder, class S>
void regressor_child_rows(int run_order, const Model<Tree, S>& model, int j, int depth,
                          const RegressorWorkspace<Tree, MaxOrder, S>& ws,
                          const MotionDerivatives<Tree, MaxOrder, S>& motion,
                          const typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& parent,
                          typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& rows) {
  const int r = FixedOrder >= 0 ? FixedOrder : run_order;
  const auto& b = ws.body[j];
  const V3<S> d = V3<S>::from(model.local_offset(j));
  const V3<S> e = V3<S>::from(model.joint_axis(j));
  const S sense = model.joint_sense(j);
  const int entry = TreeTraits<Tree>::joint_entry(j);  // j − 1 with 1-DoF joints only
  auto inherit = [&](auto kind, int) {
    constexpr JointKind K = decltype(kind)::value;
    constexpr std::size_t kSeries = FixedOrder >= 0 ? FixedOrder + 1 : MaxOrder + 1;
    if constexpr (is_spherical(K)) {  // X = T(d) R: rows Rᵀ ⊛ (offset w), S = [1; 0]
      ball_rows<kSeries>(r, model, j, ws, motion, parent, rows);
      for (int a = 0; a < 3; ++a)
        rows[0].component[static_cast<std::size_t>(a)][kLevelLane + depth - 3 + a] = S(1);
      return;
    }
    if constexpr (is_universal(K)) {  // X = T(d) Rot₁ Rot₂, S = [Rot₂ᵀ e₁, e₂]
      universal_rows<kSeries>(r, model, j, depth, ws, motion, parent, rows);
      return;
    }
    std::array<S, MaxOrder + 1> q{};  // θ_[i] = s q^(i)/i!
    for (int i = 0; i <= r; ++i) q[i] = ws.inverse_factorial[i] * (sense * motion.q[i](entry));
    inherit_rows<K, kSeries>(r, parent, d, e, b.cos_q, b.sin_q, q, rows);
    if constexpr (is_helical(K)) helical_rows(r, model.joint_pitch(j), e, q, rows);
    const int offset = joint_rotates(K) ? 0 : 3;
    const int lane = kLevelLane + depth - 1;
    rows[0].component[offset + 0][lane] = sense * e.x;
    rows[0].component[offset + 1][lane] = sense * e.y;
    rows[0].component[offset + 2][lane] = sense * e.z;
    if constexpr (is_helical(K)) {  // s = (e; h e)
      const V3<S> he = model.joint_pitch(j) * e;
      rows[0].component[3][lane] = he.x;
      rows[0].component[4][lane] = he.y;
      rows[0].component[5][lane] = he.z;
    }
  };
  dispatch_joint<Tree>(Tree::kJoint[j], j, inherit);
}

/// Body j's columns of Y^(0..r) (of the kind's wrench): A_j in its body frame
/// C_j, its ten column wrenches moved into the joint frame (one constant
/// transform per body, instead of moving every row into C_j), then
/// block_[k] = k! Σ_m rows_[m] A_[k−m], handed to `store(k, p, lanes)` column
/// by column (lanes as in RegressorWorkspace).
template <int FixedOrder, RegressorKind Kind, class Tree, int MaxOrder, class S, class Store>
void regressor_body_columns(int run_order, const Model<Tree, S>& model, int j,
                            RegressorWorkspace<Tree, MaxOrder, S>& ws,
                            const typename RegressorWorkspace<Tree, MaxOrder, S>::RowSeries& rows,
                            const Store& store) {
  const int r = FixedOrder >= 0 ? FixedOrder : run_order;
  constexpr int L = RegressorWorkspace<Tree, MaxOrder, S>::kLanes;
  constexpr int W = regressor_chunk_lanes<S, L>();
  using Chunk = RowChunk<S, W>;
  const auto& b = ws.body[j];
  // C_j in B_j: rotation R = home rotation (B_j has world axes at home),
  // origin t = home origin − o_j. A motion w of B_j reads in C_j
  // Ad_K⁻¹ w = (Rᵀω; Rᵀ(v − t × ω)); a wrench (n; f) of C_j reads in B_j
  // Ad_K⁻ᵀ (n; f) = (R n + t × R f; R f), and w · Ad_K⁻ᵀ (n; f) = Ad_K⁻¹ w · (n; f).
  const M3<S> rot = M3<S>::from(model.home_pose(j).rotation);
  const V3<S> t = V3<S>::from(model.home_pose(j).translation - model.local_origin(j));
  bool unrotated = true;  // R = 1 exactly (e.g. URDF links parallel at home)
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col)
      unrotated &= rot.a[3 * row + col] == (row == col ? S(1) : S(0));
  const auto to_body = [&](const SV<S>& x) {
    const V3<S> lin = x.lin - cross(t, x.ang);
    if (unrotated) return SV<S>{x.ang, lin};
    return SV<S>{rot.transpose_times(x.ang), rot.transpose_times(lin)};
  };
  // twist, acceleration in C_j (coefficients 0..r, every one set before use)
  constexpr std::size_t kSeries = FixedOrder >= 0 ? FixedOrder + 1 : MaxOrder + 1;
  std::array<SV<S>, kSeries> v, a;
  for (int k = 0; k <= r; ++k) {
    v[k] = to_body(b.twist[k]);
    if constexpr (Kind == RegressorKind::kInverseDynamics) a[k] = to_body(b.acceleration[k]);
  }
  for (int k = 0; k <= r; ++k) {
    auto& columns = ws.columns[k];
    if constexpr (Kind == RegressorKind::kInverseDynamics) {
      body_regressor_columns(k, v, a, columns);
    } else if constexpr (Kind == RegressorKind::kMomentum) {
      body_momentum_columns(k, v, columns);
    } else {  // Slotine–Li, order 0: `acceleration` holds a_r
      body_slotine_li_columns(v[0], to_body(ws.reference_twist[j]), to_body(b.acceleration[0]),
                              columns);
    }
    // Into B_j: R, then the moments of the four forces about t (the six
    // inertia columns are pure moments, and stay so).
    if (!unrotated)
      for (int p = 0; p < 10; ++p) {
        auto& col = columns[static_cast<std::size_t>(p)];
        const V3<S> n = rot * V3<S>{col[0], col[1], col[2]};
        const V3<S> f = p < 4 ? rot * V3<S>{col[3], col[4], col[5]} : V3<S>{};
        set_column(col, n, f);
      }
    for (int p = 0; p < 4; ++p) {
      auto& col = columns[static_cast<std::size_t>(p)];
      const V3<S> n = V3<S>{col[0], col[1], col[2]} + cross(t, V3<S>{col[3], col[4], col[5]});
      col[0] = n.x;
      col[1] = n.y;
      col[2] = n.z;
    }
  }
  constexpr int kChunks = L / W;
  for (int k = 0; k <= r; ++k) {
    Chunk finite{};  // Σ x·0: 0, or NaN at NaN/±∞
    const S zero(0);
    // Column by column, the sums over m and the components for every chunk
    // of lanes in locals; the inertia columns read the angular components only.
    for_each_index<0, 10>([&](auto column) {
      constexpr int p = decltype(column)::value;
      constexpr int kComponents = p < 4 ? 6 : 3;
      Chunk acc[kChunks]{};  // (set at m = 0)
      for (int m = 0; m <= k; ++m) {
        const auto& x = rows[static_cast<std::size_t>(m)].component;
        const auto& f = ws.columns[static_cast<std::size_t>(k - m)][p];
        for (int chunk = 0; chunk < kChunks; ++chunk) {
          const int l0 = chunk * W;
          Chunk sum = load_chunk<S, W>(&x[0][l0]) * f[0];
          for (int c = 1; c < kComponents; ++c) sum += load_chunk<S, W>(&x[c][l0]) * f[c];
          acc[chunk] = m == 0 ? sum : acc[chunk] + sum;
        }
      }
      alignas(64) S lanes[L];
      for_each_index<0, kChunks>([&](auto chunk) {
        Chunk& y = acc[decltype(chunk)::value];
        if (k >= 2) y *= ws.factorial[k];
        finite += y * zero;
        store_chunk<S, W>(y, &lanes[decltype(chunk)::value * W]);
      });
      store(k, p, lanes);
    });
    S finite_lanes[W];
    store_chunk<S, W>(finite, finite_lanes);
    for (int l = 0; l < W; ++l) ws.finite[l] += finite_lanes[l];
  }
}

/// Every lane stored since the kinematics ran was finite.
template <class Tree, int MaxOrder, class S>
bool regressor_outputs_finite(const RegressorWorkspace<Tree, MaxOrder, S>& ws) {
  S sum(0);
  for (const S& x : ws.finite) sum += x;
  return sum == S(0);
}

/// Writes one column's lanes into a (Q₁; τ) column and a base-frame column:
/// the joints' rows 0, then the joint of each level of body j's path into its
/// row. Levels run backwards over all kLevels lanes: a level below the path's
/// end holds an exact zero (its lane of the rows is zero) and is sent to
/// row_of_level[0] before that row's own value comes, or to a joint row that
/// stays zero (rows_of_levels), so no level needs a test.
template <int Rows, int kLevels, class S, std::size_t N>
HODYN_ALWAYS_INLINE void scatter_regressor_column(const std::array<int, N>& row_of_level,
                                                  const S* lanes, S* world, S* base) {
  for (int l = 0; l < 6; ++l) world[l] = lanes[l];
  for (int l = 6; l < Rows; ++l) world[l] = S(0);
  for_each_index<0, kLevels>([&](auto index) {
    constexpr int level = kLevels - 1 - decltype(index)::value;
    world[row_of_level[static_cast<std::size_t>(level)]] = lanes[kLevelLane + level];
  });
  for (int l = 0; l < 6; ++l) base[l] = lanes[kBaseFrameLane + l];
}

/// The output row (6 + joint entry) of each level of body j's path (one level
/// per joint entry: a ball's three rows in three levels); the levels below
/// its end: the first level's row, or (the root, no path) the first joint's,
/// which the root's columns leave zero.
template <class Tree>
constexpr int path_depth(int j) {
  int depth = 0;
  for (int i = j; i > 0; i = Tree::kParent[i]) ++depth;
  return depth;
}

/// Joint entries (DoFs) on the path root → j (= path_depth with 1-DoF joints only).
template <class Tree>
constexpr int path_dofs(int j) {
  int depth = 0;
  for (int i = j; i > 0; i = Tree::kParent[i]) depth += joint_dofs(Tree::kJoint[i]);
  return depth;
}

/// The most joint entries on a path (RegressorWorkspace::max_joint_depth).
template <class Tree>
constexpr int max_path_dofs() {
  int deepest = 0;
  for (int j = 0; j < Tree::kNumBodies; ++j)
    deepest = path_dofs<Tree>(j) > deepest ? path_dofs<Tree>(j) : deepest;
  return deepest;
}
/// Levels (lanes 12..) of the rows tables: one per joint entry on a path (a
/// ball's three in a row), at least N (the tables' size with 1-DoF joints).
template <class Tree>
constexpr int kMaxLevels = max_path_dofs<Tree>() > Tree::kNumBodies ? max_path_dofs<Tree>()
                                                                    : Tree::kNumBodies;

template <class Tree>
constexpr std::array<int, kMaxLevels<Tree>> rows_of_levels(int j) {
  std::array<int, kMaxLevels<Tree>> rows{};
  const int depth = path_dofs<Tree>(j);
  int level = depth;
  for (int i = j; i > 0; i = Tree::kParent[i])
    for (int a = joint_dofs(Tree::kJoint[i]) - 1; a >= 0; --a)
      rows[static_cast<std::size_t>(--level)] = 6 + TreeTraits<Tree>::joint_entry(i) + a;
  for (int l = depth; l < kMaxLevels<Tree>; ++l)
    rows[static_cast<std::size_t>(l)] = depth > 0 ? rows[0] : 6;
  return rows;
}

/// Every body's path depth and rows_of_levels, computed at compile time.
template <class Tree>
struct TreeLevels {
  static constexpr std::array<int, Tree::kNumBodies> depths() {
    std::array<int, Tree::kNumBodies> d{};
    for (int j = 0; j < Tree::kNumBodies; ++j) d[static_cast<std::size_t>(j)] = path_depth<Tree>(j);
    return d;
  }
  static constexpr std::array<int, Tree::kNumBodies> dof_depths() {
    std::array<int, Tree::kNumBodies> d{};
    for (int j = 0; j < Tree::kNumBodies; ++j) d[static_cast<std::size_t>(j)] = path_dofs<Tree>(j);
    return d;
  }
  static constexpr std::array<std::array<int, kMaxLevels<Tree>>, Tree::kNumBodies> rows() {
    std::array<std::array<int, kMaxLevels<Tree>>, Tree::kNumBodies> r{};
    for (int j = 0; j < Tree::kNumBodies; ++j)
      r[static_cast<std::size_t>(j)] = rows_of_levels<Tree>(j);
    return r;
  }
  static constexpr std::array<int, Tree::kNumBodies> kDepth = depths();
  /// Joint entries on each path (= kDepth with 1-DoF joints only): the lanes.
  static constexpr std::array<int, Tree::kNumBodies> kDofDepth = dof_depths();
  static constexpr std::array<std::array<int, kMaxLevels<Tree>>, Tree::kNumBodies> kRows = rows();
};

/// The regressor kernel (FixedOrder ≥ 0: compiled for that order).
///
/// Rather than carrying each body's ten column wrenches up to the root, the
/// rows come down: for body j, the motion vectors whose dot products with its
/// wrench f_j give its share of every output — the six world unit twists
/// (Q₁ = Ad_{P₀}⁻ᵀ f₀), the six base-frame unit twists (Ad_{A⁰_0}ᵀ f₀) and
/// the screw of every joint on its path (τ_i = s_iᵀ f_i) — expressed in its
/// joint frame as Taylor series, one vector lane each. A child inherits its
/// parent's rows through Ad_{X_j}⁻¹ and adds its own screw, so body j's
/// columns of Y^(k) are Σ_m rows_[m] A_j,[k−m], with A_j the 6 × 10
/// wrench-per-parameter matrix: one transform per row and level instead of
/// ten (one per column), every lane operation a whole vector.
template <int FixedOrder, RegressorKind Kind, class Tree, int MaxOrder, class S>
void regressor_kernel(int run_order, const Model<Tree, S>& model,
                      RegressorData<Tree, MaxOrder, S>& data,
                      const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  using Data = RegressorData<Tree, MaxOrder, S>;
  const int r = FixedOrder >= 0 ? FixedOrder : run_order;
  auto& ws = data.workspace;
  if constexpr (Kind != RegressorKind::kSlotineLi)  // (Slotine–Li: its own forward pass, done)
    regressor_kinematics<FixedOrder>(r, model, ws, motion);
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const int depth = TreeLevels<Tree>::kDofDepth[static_cast<std::size_t>(j)];
    if (j == 0)
      regressor_base_rows<FixedOrder>(r, model, ws, data.rows[0]);
    else
      regressor_child_rows<FixedOrder>(r, model, j, depth, ws, motion, data.rows[Tree::kParent[j]],
                                       data.rows[j]);
    const auto& level_rows = TreeLevels<Tree>::kRows[static_cast<std::size_t>(j)];
    regressor_body_columns<FixedOrder, Kind>(
        r, model, j, ws, data.rows[j], [&](int k, int p, const S* lanes) {
          const auto column = static_cast<std::ptrdiff_t>(10 * j + p);
          scatter_regressor_column<Data::kRows, Data::Workspace::max_joint_depth()>(
              level_rows, lanes, data.regressor[k].data() + column * Data::kRows,
              data.base_frame_regressor[k].data() + column * 6);
        });
  }
}

/// The one-body kernel: the rows along the path root → body in two buffers.
template <int FixedOrder, RegressorKind Kind, class Tree, int MaxOrder, class S>
void body_regressor_kernel(int run_order, const Model<Tree, S>& model,
                           BodyRegressorData<Tree, MaxOrder, S>& data,
                           const MotionDerivatives<Tree, MaxOrder, S>& motion, int body) {
  using Data = BodyRegressorData<Tree, MaxOrder, S>;
  const int r = FixedOrder >= 0 ? FixedOrder : run_order;
  auto& ws = data.workspace;
  regressor_kinematics<FixedOrder>(r, model, ws, motion);
  std::array<int, Tree::kNumBodies> path{};  // body, parent, …, 0
  const int depth = TreeLevels<Tree>::kDepth[static_cast<std::size_t>(body)];
  for (int i = body, level = depth; level >= 0; i = Tree::kParent[i], --level) path[level] = i;
  regressor_base_rows<FixedOrder>(r, model, ws, data.rows[0]);
  int current = 0;
  for (int level = 1; level <= depth; ++level) {
    int lanes = level;  // joint entries on the path to path[level]
    if constexpr (!TreeTraits<Tree>::kSingleDofJoints)
      lanes = TreeLevels<Tree>::kDofDepth[static_cast<std::size_t>(path[level])];
    regressor_child_rows<FixedOrder>(r, model, path[level], lanes, ws, motion, data.rows[current],
                                     data.rows[1 - current]);
    current = 1 - current;
  }
  const auto& level_rows = TreeLevels<Tree>::kRows[static_cast<std::size_t>(body)];
  regressor_body_columns<FixedOrder, Kind>(
      r, model, body, ws, data.rows[current], [&](int k, int p, const S* lanes) {
        scatter_regressor_column<Data::kRows, Data::Workspace::max_joint_depth()>(
            level_rows, lanes, data.regressor[k].col(p).data(),
            data.base_frame_regressor[k].col(p).data());
      });
}

template <int Order, RegressorKind Kind, class Tree, int MaxOrder, class S>
void dispatch_regressor_kernel(int order, const Model<Tree, S>& model,
                               RegressorData<Tree, MaxOrder, S>& data,
                               const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  if constexpr (Order > MaxOrder) {
    (void)order, (void)model, (void)data, (void)motion;
  } else if constexpr (Order > kMaxFixedOrder) {
    regressor_kernel<-1, Kind>(order, model, data, motion);
  } else if (order == Order) {
    regressor_kernel<Order, Kind>(Order, model, data, motion);
  } else {
    dispatch_regressor_kernel<Order + 1, Kind>(order, model, data, motion);
  }
}

template <int Order, class Tree, int MaxOrder, class S>
void dispatch_body_regressor_kernel(int order, const Model<Tree, S>& model,
                                    BodyRegressorData<Tree, MaxOrder, S>& data,
                                    const MotionDerivatives<Tree, MaxOrder, S>& motion, int body) {
  if constexpr (Order > MaxOrder) {
    (void)order, (void)model, (void)data, (void)motion, (void)body;
  } else if constexpr (Order > kMaxFixedOrder) {
    body_regressor_kernel<-1, RegressorKind::kInverseDynamics>(order, model, data, motion, body);
  } else if (order == Order) {
    body_regressor_kernel<Order, RegressorKind::kInverseDynamics>(Order, model, data, motion, body);
  } else {
    dispatch_body_regressor_kernel<Order + 1>(order, model, data, motion, body);
  }
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// The regressors Y^(0..order) along `motion` (see the file comment):
/// (Q₁^(k); τ^(k)) = Y^(k) π for every π. Needs V₁^(0..order+1) and
/// q^(0..order+2). Errors: kOrderOutOfRange, kNonFiniteInput,
/// kNonOrthonormalRotation (base pose), kNonFiniteResult; outputs zero.
template <class Tree, int MaxOrder, class Scalar>
Status inverse_dynamics_regressor(const Model<Tree, Scalar>& model,
                                  RegressorData<Tree, MaxOrder, Scalar>& data,
                                  const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                                  int order) noexcept {
  const Status input = detail::check_inverse_dynamics_input(
      motion, static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr), order);
  if (input != Status::kOk) {
    data.clear_results();
    return input;
  }
  detail::dispatch_regressor_kernel<0, detail::RegressorKind::kInverseDynamics>(order, model, data,
                                                                                motion);
  if (!detail::regressor_outputs_finite(data.workspace)) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = order;
  return Status::kOk;
}

/// Body `body`'s ten columns of Y^(0..order) (and of the base-frame rows):
/// what inverse_dynamics_regressor gives in columns 10 body .. 10 body + 9,
/// at the cost of the kinematics and the rows along that body's path only.
/// Errors as inverse_dynamics_regressor, and kInvalidArgument for a body
/// outside 0..N−1; outputs zero.
template <class Tree, int MaxOrder, class Scalar>
Status inverse_dynamics_body_regressor(const Model<Tree, Scalar>& model,
                                       BodyRegressorData<Tree, MaxOrder, Scalar>& data,
                                       const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                                       int body, int order) noexcept {
  if (body < 0 || body >= TreeTraits<Tree>::kNumBodies) {
    data.clear_results();
    return Status::kInvalidArgument;
  }
  const Status input = detail::check_inverse_dynamics_input(
      motion, static_cast<const ExternalLoads<Tree, MaxOrder, Scalar>*>(nullptr), order);
  if (input != Status::kOk) {
    data.clear_results();
    return input;
  }
  detail::dispatch_body_regressor_kernel<0>(order, model, data, motion, body);
  if (!detail::regressor_outputs_finite(data.workspace)) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = order;
  data.body = body;
  return Status::kOk;
}

/// The first `Columns` of one body's ten columns of Y^(0) (and of the
/// base-frame rows): `inverse_dynamics_with_body_columns`' output.
template <class Tree, int Columns, class Scalar = double>
struct BodyColumns {
  static_assert(Columns >= 1 && Columns <= 10, "a body has ten parameters");
  static constexpr int kRows = 6 + TreeTraits<Tree>::kNumJointDofs;  ///< (Q₁; τ)
  Eigen::Matrix<Scalar, kRows, Columns> regressor =
      Eigen::Matrix<Scalar, kRows, Columns>::Zero();  ///< columns 0..Columns−1 of Y^(0)
  Eigen::Matrix<Scalar, 6, Columns> base_frame_regressor =
      Eigen::Matrix<Scalar, 6, Columns>::Zero();  ///< of Ad_C₁ᵀ Q₁
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// Body `body`'s first Columns columns of Y^(0) from the order-0 kinematics
/// an inverse-dynamics pass left in `data` (joint-frame twists and
/// gravity-augmented accelerations, cos/sin q, the base frame): the column
/// wrenches in the body frame (body_regressor_columns), moved into its joint
/// frame and carried up its path to the root as the backward pass carries a
/// wrench (τ_i = s_iᵀ f, the parent collects Ad_X⁻ᵀ f) — no rows, no lanes.
template <int Columns, class Tree, int MaxOrder, class S>
bool body_columns_from_kinematics(const Model<Tree, S>& model,
                                  const InverseDynamicsData<Tree, MaxOrder, S>& data,
                                  const MotionDerivatives<Tree, MaxOrder, S>& motion, int body,
                                  BodyColumns<Tree, Columns, S>& out) {
  const auto& b = data.body[static_cast<std::size_t>(body)];
  // C_j in B_j as in regressor_body_columns: rotation R, origin t.
  const M3<S> rot = M3<S>::from(model.home_pose(body).rotation);
  const V3<S> t = V3<S>::from(model.home_pose(body).translation - model.local_origin(body));
  const auto to_body = [&](const SV<S>& x) {
    return SV<S>{rot.transpose_times(x.ang), rot.transpose_times(x.lin - cross(t, x.ang))};
  };
  const std::array<SV<S>, 1> v{to_body(b.twist[0])}, a{to_body(b.acceleration[0])};
  ColumnWrenches<S> columns;
  body_regressor_columns(0, v, a, columns);
  std::array<SV<S>, Columns> f;  // the column wrenches, in the current joint frame
  for (int p = 0; p < Columns; ++p) {
    const auto& col = columns[static_cast<std::size_t>(p)];
    const V3<S> lin = rot * V3<S>{col[3], col[4], col[5]};
    f[static_cast<std::size_t>(p)] = {rot * V3<S>{col[0], col[1], col[2]} + cross(t, lin), lin};
  }
  out.regressor.setZero();
  for (int j = body; j > 0; j = Tree::kParent[j]) {
    const int row = 6 + TreeTraits<Tree>::joint_entry(j);
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const S sense = model.joint_sense(j);
    const auto& bj = data.body[static_cast<std::size_t>(j)];
    auto carry = [&](auto kind, int) {
      constexpr JointKind K = decltype(kind)::value;
      if constexpr (joint_dofs(K) == 1) {
        for (int p = 0; p < Columns; ++p) {
          SV<S>& w = f[static_cast<std::size_t>(p)];
          S tau;
          if constexpr (is_revolute(K))
            tau = axis_dot<K>(e, w.ang);
          else if constexpr (is_helical(K))
            tau = dot(e, w.ang) + model.joint_pitch(j) * dot(e, w.lin);
          else
            tau = axis_dot<K>(e, w.lin);
          out.regressor(row, p) = sense * tau;
          if constexpr (joint_rotates(K)) {
            V3<S> ang = w.ang;
            if constexpr (is_helical(K))
              ang += (model.joint_pitch(j) * motion.q[0](TreeTraits<Tree>::joint_entry(j))) *
                     cross(e, w.lin);
            const auto get_ang = [&](int) -> const V3<S>& { return ang; };
            const auto get_lin = [&](int) -> const V3<S>& { return w.lin; };
            w = {rotate_series<K, false>(0, bj.cos_q, bj.sin_q, e, get_ang),
                 rotate_series<K, false>(0, bj.cos_q, bj.sin_q, e, get_lin)};
          } else {
            w.ang +=
                (sense * motion.q[0](TreeTraits<Tree>::joint_entry(j))) * axis_cross<K>(e, w.lin);
          }
          w.ang += cross(d, w.lin);
        }
      }
    };
    dispatch_joint<Tree>(Tree::kJoint[j], j, carry);
  }
  // The root: Q₁ in world axes (P₀), the base frame's wrench (Ad_{A⁰_0}ᵀ).
  const M3<S>& r0 = data.base_frame.rotation[0];
  const V3<S>& x0 = data.base_frame.origin[0];
  const Pose<S>& a0 = model.home_pose(0);
  S finite(0);
  for (int p = 0; p < Columns; ++p) {
    const SV<S>& w = f[static_cast<std::size_t>(p)];
    const V3<S> force = r0 * w.lin;
    const V3<S> moment = r0 * w.ang + cross(x0, force);
    out.regressor.col(p).template head<6>() << moment.x, moment.y, moment.z, force.x, force.y,
        force.z;
    out.base_frame_regressor.col(p) = coadjoint(a0, Wrench<S>(w.eigen()));
  }
  finite += (out.regressor.array() * S(0)).sum() + (out.base_frame_regressor.array() * S(0)).sum();
  return finite == S(0);
}
HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// Inverse dynamics of order 0, exactly as inverse_dynamics(model, data,
/// motion, 0), and from the same pass's kinematics the first `Columns` of
/// body `body`'s ten columns of Y^(0) (Columns = 4: m and h, what a payload
/// estimator needs) — what inverse_dynamics_body_regressor gives in them,
/// without a second kinematic pass, rows or lanes. Trees with 1-DoF joints.
/// Errors as inverse_dynamics, and kInvalidArgument for a body outside
/// 0..N−1 (data's results and the columns then zero).
template <int Columns, class Tree, int MaxOrder, class Scalar>
Status inverse_dynamics_with_body_columns(const Model<Tree, Scalar>& model,
                                          InverseDynamicsData<Tree, MaxOrder, Scalar>& data,
                                          const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                                          int body,
                                          BodyColumns<Tree, Columns, Scalar>& columns) noexcept {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "inverse_dynamics_with_body_columns");
  columns.base_frame_regressor.setZero();
  if (body < 0 || body >= TreeTraits<Tree>::kNumBodies) {
    columns.regressor.setZero();
    data.clear_results();
    return Status::kInvalidArgument;
  }
  const Status status = inverse_dynamics(model, data, motion, 0);
  if (status != Status::kOk) {
    columns.regressor.setZero();
    return status;
  }
  if (!detail::body_columns_from_kinematics(model, data, motion, body, columns)) {
    columns.regressor.setZero();
    columns.base_frame_regressor.setZero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn

// ===========================================================================
// The generalized-momentum regressor, the Slotine–Li regressor, the energy
// regressor
// ===========================================================================

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// The generalized momentum p = M̄ ν = Y_p π and its time derivatives of any
/// order, p^(k) = Y_p^(k) π, k = 0..order: rows (the system's spatial momentum,
/// world axes, moment about the world origin; the joints' momenta s_jᵀ Σ M V
/// over the subtree), columns as the regressor's. Reads base_pose,
/// V₁^(0..order) and q^(0..order+1) (the entries beyond are not needed).
/// Momentum-based identification uses it without measured accelerations
/// (docs/regressors.md): ṗ = τ̄ + Cᵀν − g, and Cᵀν − g = Y_p^(1)π − Y^(0)π
/// both evaluated with ν̇ = 0 (Ṁ̄ = C + Cᵀ). Errors and outputs as
/// inverse_dynamics_regressor (`base_frame_regressor`: Ad_C₁ᵀ of the momentum).
template <class Tree, int MaxOrder, class Scalar>
Status momentum_regressor(const Model<Tree, Scalar>& model,
                          RegressorData<Tree, MaxOrder, Scalar>& data,
                          const MotionDerivatives<Tree, MaxOrder, Scalar>& motion,
                          int order) noexcept {
  if (order < 0 || order > MaxOrder) {
    data.clear_results();
    return Status::kOrderOutOfRange;
  }
  Status input = Status::kOk;
  if constexpr (!TreeTraits<Tree>::kFixedBase) {
    input = detail::check_pose(motion.base_pose);
    for (int k = 0; input == Status::kOk && k <= order; ++k)
      if (!detail::all_finite(motion.base_twist[k])) input = Status::kNonFiniteInput;
  }
  for (int k = 0; input == Status::kOk && k <= order + 1; ++k)
    if (!detail::all_finite(motion.q[k])) input = Status::kNonFiniteInput;
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0)
    if (input == Status::kOk) input = detail::check_joint_rotations(motion.joint_rotation);
  if (input != Status::kOk) {
    data.clear_results();
    return input;
  }
  // The kinematic pass also forms accelerations from V₁^(order+1) and
  // q^(order+2), which the momentum columns never read: zeros keep them finite.
  MotionDerivatives<Tree, MaxOrder, Scalar> held = motion;
  held.base_twist[order + 1].setZero();
  held.q[order + 2].setZero();
  detail::dispatch_regressor_kernel<0, detail::RegressorKind::kMomentum>(order, model, data, held);
  if (!detail::regressor_outputs_finite(data.workspace)) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = order;
  return Status::kOk;
}

/// The state and reference of the Slotine–Li regressor.
template <class Tree, class Scalar = double>
struct SlotineLiInput {
  using JointVector = typename Model<Tree, Scalar>::JointVector;
  Pose<Scalar> base_pose{};                                           ///< C₁
  Twist<Scalar> base_twist = Twist<Scalar>::Zero();                   ///< V₁ (spatial)
  JointVector q = JointVector::Zero();                                ///< q
  JointVector q_dot = JointVector::Zero();                            ///< q̇
  Twist<Scalar> reference_base_twist = Twist<Scalar>::Zero();         ///< V_r
  JointVector reference_q_dot = JointVector::Zero();                  ///< q̇_r
  Twist<Scalar> reference_base_acceleration = Twist<Scalar>::Zero();  ///< V̇_r (spatial)
  JointVector reference_q_ddot = JointVector::Zero();                 ///< q̈_r
  bool gravity = true;  ///< include g (false: M̄ ν̇_r + C ν_r only)
  /// Ball joints: R_j of each, as `MotionDerivatives::joint_rotation` (the
  /// ball's entries of q are δ, R = R_j exp([δ]); of q̇, q̇_r, q̈_r the
  /// child-frame ω, ω_r, ω̇_r). Empty for a tree without a ball.
  std::array<Matrix3<Scalar>, TreeTraits<Tree>::kNumSphericalJoints> joint_rotation = [] {
    std::array<Matrix3<Scalar>, TreeTraits<Tree>::kNumSphericalJoints> r{};
    for (auto& x : r) x.setIdentity();
    return r;
  }();
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// A ball's step of the Slotine–Li forward pass (slotine_li_kinematics):
/// X = T(d) R, R = R_j exp([δ]), s = [1; 0]:
///   u = Ad_{X_j}⁻¹ v_p,  v_j = u + (ω; 0),  v_r,j = Ad_{X_j}⁻¹ v_r,p + (ω_r; 0),
///   a_r,j = Ad_{X_j}⁻¹ a_r,p + v_j × (ω_r; 0) + (ω̇_r; 0)
/// (Σ_a Ṡ_a ω_r,a with Ṡ_a = ad_{V_j} S_a, V_j the child's twist: the three
/// screws turn with the child; with ω_r = ω it is inverse dynamics' −ω × u).
template <class Tree, int MaxOrder, class S>
void slotine_li_ball(const Model<Tree, S>& model, RegressorWorkspace<Tree, MaxOrder, S>& ws,
                     const SlotineLiInput<Tree, S>& in, int j) {
  const int entry = TreeTraits<Tree>::joint_entry(j);
  const auto ball =
      static_cast<std::size_t>(TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)]);
  const M3<S> rot = M3<S>::from(in.joint_rotation[ball]) *
                    rotation_exponential(V3<S>{in.q(entry), in.q(entry + 1), in.q(entry + 2)});
  const V3<S> d = V3<S>::from(model.local_offset(j));
  const auto into = [&](const SV<S>& w) {  // Ad_{X_j}⁻¹ w = (Rᵀ ω; Rᵀ (v − d × ω))
    return SV<S>{rot.transpose_times(w.ang), rot.transpose_times(w.lin - cross(d, w.ang))};
  };
  const auto three = [&](const auto& x) { return V3<S>{x(entry), x(entry + 1), x(entry + 2)}; };
  const V3<S> wr = three(in.reference_q_dot);
  const int parent = Tree::kParent[j];
  auto& b = ws.body[j];
  SV<S> v = into(ws.body[parent].twist[0]);
  v.ang += three(in.q_dot);
  b.twist[0] = v;
  SV<S> vr = into(ws.reference_twist[parent]);
  vr.ang += wr;
  ws.reference_twist[j] = vr;
  SV<S> a = into(ws.body[parent].acceleration[0]);
  a.ang += cross(v.ang, wr) + three(in.reference_q_ddot);
  a.lin += cross(v.lin, wr);
  b.acceleration[0] = a;
}

/// A universal joint's step of the Slotine–Li forward pass
/// (slotine_li_kinematics): X = T(d) Rot(e₁, θ₁) Rot(e₂, θ₂), two revolute
/// sub-steps through the intermediate frame m, as inverse dynamics takes them:
///   u₁ = Rot₁ᵀ (offset v_p),  v_m = u₁ + (e₁ θ̇₁; 0),  u₂ = Rot₂ᵀ v_m,  v = u₂ + (e₂ θ̇₂; 0),
///   v_r the same with θ̇_r,
///   a_r,m = Rot₁ᵀ (offset a_r,p) − θ̇_r,1 ad_{s₁} u₁ + (e₁ θ̈_r,1; 0),
///   a_r = Rot₂ᵀ a_r,m − θ̇_r,2 ad_{s₂} u₂ + (e₂ θ̈_r,2; 0)
/// — S₁ turns with the parent (Ṡ₁ = ad_{V_p} S₁), S₂ with the intermediate
/// frame (Ṡ₂ = ad_{V_m} S₂, u₂ holding V_m), as equations_of_motion's C has them.
template <class Tree, int MaxOrder, class S>
void slotine_li_universal(const Model<Tree, S>& model, RegressorWorkspace<Tree, MaxOrder, S>& ws,
                          const SlotineLiInput<Tree, S>& in, int j) {
  using std::cos;
  using std::sin;
  constexpr JointKind R = JointKind::kRevolute;
  const int entry = TreeTraits<Tree>::joint_entry(j);
  const int parent = Tree::kParent[j];
  auto& b = ws.body[j];
  b.cos_q[0] = ws.joint_sine_cosine.cosine[static_cast<std::size_t>(j)];
  b.sin_q[0] = ws.joint_sine_cosine.sine[static_cast<std::size_t>(j)];
  const V3<S> d = V3<S>::from(model.local_offset(j));
  const V3<S> e1 = V3<S>::from(model.joint_axis(j));
  const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
  const M3<S> rot1 = axis_rotation<R>(e1, S(1), b.cos_q[0], b.sin_q[0]);
  const S theta2 = in.q(entry + 1);
  const M3<S> rot2 = axis_rotation<R>(e2, S(1), S(cos(theta2)), S(sin(theta2)));
  const auto first = [&](const SV<S>& w) {  // Rot₁ᵀ (offset w)
    return SV<S>{rot1.transpose_times(w.ang), rot1.transpose_times(w.lin - cross(d, w.ang))};
  };
  const auto second = [&](const SV<S>& w) {  // Rot₂ᵀ w
    return SV<S>{rot2.transpose_times(w.ang), rot2.transpose_times(w.lin)};
  };
  const auto ad = [](const V3<S>& e, const SV<S>& u) {  // ad_{(e; 0)} u
    return SV<S>{cross(e, u.ang), cross(e, u.lin)};
  };
  const SV<S> u1 = first(ws.body[parent].twist[0]);
  SV<S> vm = u1;
  vm.ang += in.q_dot(entry) * e1;
  const SV<S> u2 = second(vm);
  SV<S> v = u2;
  v.ang += in.q_dot(entry + 1) * e2;
  b.twist[0] = v;
  SV<S> vr = first(ws.reference_twist[parent]);
  vr.ang += in.reference_q_dot(entry) * e1;
  vr = second(vr);
  vr.ang += in.reference_q_dot(entry + 1) * e2;
  ws.reference_twist[j] = vr;
  SV<S> am = first(ws.body[parent].acceleration[0]) - in.reference_q_dot(entry) * ad(e1, u1);
  am.ang += in.reference_q_ddot(entry) * e1;
  SV<S> a = second(am) - in.reference_q_dot(entry + 1) * ad(e2, u2);
  a.ang += in.reference_q_ddot(entry + 1) * e2;
  b.acceleration[0] = a;
}

/// The Slotine–Li forward pass in joint frames: every body's twist v, reference
/// twist v_r (the twist recursion with ν_r) and reference acceleration
///   a_r,j = Ad_{X_j}⁻¹ a_r,p − q̇_r,j ad_{s_j}(Ad_{X_j}⁻¹ v_p) + s_j q̈_r,j,
///   a_r,0 = Ad_{P₀}⁻¹ (V̇_r − G)
/// — the acceleration recursion with the reference rates multiplying the
/// actual velocities' products, which is what C of Lemma 1 does (ṡ_i = ad_{V_i} s_i
/// times ν_r,i; the base's screws are constant). A ball (X = T(d) R,
/// R = R_j exp([δ]), s = [1; 0]) has Ṡ_a = ad_{V_j} S_a with V_j its child's
/// twist, so its term is ad_{v_j} (ω_r; 0): slotine_li_ball.
template <class Tree, int MaxOrder, class S>
void slotine_li_kinematics(const Model<Tree, S>& model, RegressorWorkspace<Tree, MaxOrder, S>& ws,
                           const SlotineLiInput<Tree, S>& in) {
  ws.finite.fill(S(0));
  ws.joint_sine_cosine.compute(
      [&](int j) { return model.joint_sense(j) * in.q(TreeTraits<Tree>::joint_entry(j)); });
  const Pose<S> p0 = root_pose(model, in.base_pose) * model.base_home_pose_inverse();
  const M3<S> r0 = M3<S>::from(p0.rotation);
  const V3<S> x0 = V3<S>::from(p0.translation);
  ws.base_frame.start(r0, x0);
  const auto in_base = [&](const Twist<S>& w) {
    const SV<S> sv = SV<S>::from(root_twist<Tree>(w));
    return SV<S>{r0.transpose_times(sv.ang), r0.transpose_times(sv.lin - cross(x0, sv.ang))};
  };
  Twist<S> accel = in.reference_base_acceleration;
  if constexpr (TreeTraits<Tree>::kFixedBase) accel.setZero();
  if (in.gravity) accel.template tail<3>() -= model.gravity();
  ws.body[0].twist[0] = in_base(in.base_twist);
  ws.reference_twist[0] = in_base(in.reference_base_twist);
  {  // the gravity of a fixed base enters although its root does not move
    const SV<S> g = SV<S>::from(accel);
    ws.body[0].acceleration[0] = {r0.transpose_times(g.ang),
                                  r0.transpose_times(g.lin - cross(x0, g.ang))};
  }
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    auto& b = ws.body[j];
    const auto& parent = ws.body[Tree::kParent[j]];
    if constexpr (is_spherical(K)) {
      slotine_li_ball(model, ws, in, j);
      return;
    }
    if constexpr (is_universal(K)) {
      slotine_li_universal(model, ws, in, j);
      return;
    }
    b.cos_q[0] = ws.joint_sine_cosine.cosine[static_cast<std::size_t>(j)];
    b.sin_q[0] = ws.joint_sine_cosine.sine[static_cast<std::size_t>(j)];
    // q's entry of joint j, TreeTraits::joint_entry(j) (j − 1 with 1-DoF joints only), is
    // written at each use: a local changed the 1-DoF trees' object code (register choice).
    const S sense = model.joint_sense(j);
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const S theta = sense * in.q(TreeTraits<Tree>::joint_entry(j));
    const auto into = [&](const SV<S>& w) {  // Ad_{X_j}⁻¹ w
      if constexpr (joint_rotates(K)) {
        const M3<S> rot = axis_rotation<K>(e, S(1), b.cos_q[0], b.sin_q[0]);
        SV<S> x{rot.transpose_times(w.ang), rot.transpose_times(w.lin - cross(d, w.ang))};
        if constexpr (is_helical(K))  // X = T(d + h θ e) Rot(e, θ), Rot(θ)ᵀ e = e
          x.lin -= (model.joint_pitch(j) * theta) * cross(e, x.ang);
        return x;
      } else {
        return SV<S>{w.ang, w.lin - cross(d + theta * e, w.ang)};
      }
    };
    const S pitch = model.joint_pitch(j);
    const auto along = [&](const S& rate) {  // s_j θ̇
      if constexpr (is_helical(K)) return SV<S>{rate * e, (rate * pitch) * e};
      return is_revolute(K) ? SV<S>{rate * e, V3<S>{}} : SV<S>{V3<S>{}, rate * e};
    };
    const SV<S> u = into(parent.twist[0]);
    b.twist[0] = u + along(sense * in.q_dot(TreeTraits<Tree>::joint_entry(j)));
    ws.reference_twist[j] = into(ws.reference_twist[Tree::kParent[j]]) +
                            along(sense * in.reference_q_dot(TreeTraits<Tree>::joint_entry(j)));
    SV<S> ad_s_u = joint_rotates(K) ? SV<S>{cross(e, u.ang), cross(e, u.lin)}
                                    : SV<S>{V3<S>{}, cross(e, u.ang)};
    if constexpr (is_helical(K)) ad_s_u.lin += pitch * ad_s_u.ang;  // s = (e; h e)
    b.acceleration[0] = into(parent.acceleration[0]) -
                        (sense * in.reference_q_dot(TreeTraits<Tree>::joint_entry(j))) * ad_s_u +
                        along(sense * in.reference_q_ddot(TreeTraits<Tree>::joint_entry(j)));
  });
  ws.factorial[0] = ws.inverse_factorial[0] = S(1);
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// The Slotine–Li regressor (seed 000 Lemma 1, seed 004 Rem. 4):
///   M̄(q) ν̇_r + C(q, ν) ν_r + g(q) = Y(q, ν, ν_r, ν̇_r) π
/// with hodyn's admissible C (Ṁ̄ − 2C skew; equations_of_motion's), rows
/// (Q₁ world; τ) as the regressor's, in data.regressor[0] (and the base-frame
/// rows). With ν_r = ν and ν̇_r = ν̇ it is the regressor Y^(0). Its pieces are
/// the parameter derivatives of the closed forms, applied to a vector:
///   ∂(M̄ x)/∂π = Y(q, 0, 0, x) without gravity,  ∂(C y)/∂π = Y(q, ν, y, 0)
///   without gravity,  ∂g/∂π = Y(q, 0, 0, 0) with gravity.
/// Ball joints: R_j in `in.joint_rotation`, δ in q, child-frame ω, ω_r, ω̇_r
/// in q̇, q̇_r, q̈_r (docs/regressors.md, "Ball joints"); C is then the one
/// whose ball columns move with the child (Ṡ_a = ad_{V_j} S_a), as
/// equations_of_motion's.
/// Errors: kNonOrthonormalRotation (base pose, a ball's R_j), kNonFiniteInput,
/// kNonFiniteResult; outputs zero.
template <class Tree, int MaxOrder, class Scalar>
Status slotine_li_regressor(const Model<Tree, Scalar>& model,
                            RegressorData<Tree, MaxOrder, Scalar>& data,
                            const SlotineLiInput<Tree, Scalar>& in) noexcept {
  Status input = Status::kOk;
  if constexpr (!TreeTraits<Tree>::kFixedBase) {
    input = detail::check_pose(in.base_pose);
    if (input == Status::kOk &&
        (!detail::all_finite(in.base_twist) || !detail::all_finite(in.reference_base_twist) ||
         !detail::all_finite(in.reference_base_acceleration)))
      input = Status::kNonFiniteInput;
  }
  if (input == Status::kOk &&
      (!detail::all_finite(in.q) || !detail::all_finite(in.q_dot) ||
       !detail::all_finite(in.reference_q_dot) || !detail::all_finite(in.reference_q_ddot)))
    input = Status::kNonFiniteInput;
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0)  // R_j of the balls
    if (input == Status::kOk) input = detail::check_joint_rotations(in.joint_rotation);
  if (input != Status::kOk) {
    data.clear_results();
    return input;
  }
  detail::slotine_li_kinematics(model, data.workspace, in);
  MotionDerivatives<Tree, MaxOrder, Scalar> at;  // q for the rows of prismatic joints
  at.q[0] = in.q;
  if constexpr (TreeTraits<Tree>::kNumSphericalJoints > 0)  // and R_j, δ for a ball's
    at.joint_rotation = in.joint_rotation;
  detail::regressor_kernel<0, detail::RegressorKind::kSlotineLi>(0, model, data, at);
  if (!detail::regressor_outputs_finite(data.workspace)) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = 0;
  return Status::kOk;
}

/// Results and workspace of `energy_regressor`.
template <class Tree, class Scalar = double>
struct EnergyRegressorData {
  static constexpr int kColumns = 10 * TreeTraits<Tree>::kNumBodies;
  using Row = Eigen::Matrix<Scalar, 1, kColumns>;
  Row kinetic = Row::Zero();    ///< T = ½ νᵀ M̄ ν = kinetic π
  Row potential = Row::Zero();  ///< U = −Σ m_j gᵀ c_j = potential π (zero at the world origin)
  // ---- workspace ----
  RegressorData<Tree, 0, Scalar> momentum{};
  KinematicsData<Tree, 0, Scalar> kinematics{};
};

/// The energy regressor: T = ½ νᵀ Y_p π (the momentum regressor's rows
/// weighted by ν) and U = −Σ_j gᵀ (m_j p_j + R_j h_j) with C_j = (R_j, p_j) the
/// body frames: linear in π (seed 004 Prop. 2), for identification from energy
/// balance (Ṫ + U̇ = νᵀ τ̄ without gravity). Reads base_pose, V₁^(0), q^(0..1).
template <class Tree, int MaxOrder, class Scalar>
Status energy_regressor(const Model<Tree, Scalar>& model, EnergyRegressorData<Tree, Scalar>& data,
                        const MotionDerivatives<Tree, MaxOrder, Scalar>& motion) noexcept {
  MotionDerivatives<Tree, 0, Scalar> at;  // the state only; higher entries zero
  at.base_pose = motion.base_pose;
  at.base_twist[0] = motion.base_twist[0];
  at.q[0] = motion.q[0];
  at.q[1] = motion.q[1];
  at.joint_rotation = motion.joint_rotation;  // ball joints (empty without one)
  data.kinetic.setZero();
  data.potential.setZero();
  Status s = momentum_regressor(model, data.momentum, at, 0);
  if (s == Status::kOk) s = forward_kinematics(model, data.kinematics, at, 0);
  if (s != Status::kOk) return s;
  constexpr int kBase = TreeTraits<Tree>::kBaseDofs;
  constexpr int kJoints = TreeTraits<Tree>::kNumJointDofs;  // a ball's ω: three
  // ν = (V₁; q̇) against the rows (Q₁ rows for the base, none for a fixed one).
  Eigen::Matrix<Scalar, 6 + kJoints, 1> nu = Eigen::Matrix<Scalar, 6 + kJoints, 1>::Zero();
  if constexpr (kBase > 0) nu.template head<6>() = at.base_twist[0];
  nu.template tail<kJoints>() = at.q[1];
  data.kinetic = Scalar(0.5) * (nu.transpose() * data.momentum.regressor[0]);
  const Vector3<Scalar>& g = model.gravity();
  for (int j = 0; j < TreeTraits<Tree>::kNumBodies; ++j) {
    const Pose<Scalar>& c = data.kinematics.body_pose[j];
    data.potential(10 * j) = -g.dot(c.translation);
    data.potential.template segment<3>(10 * j + 1) = -(c.rotation.transpose() * g).transpose();
  }
  if (!detail::all_finite(data.kinetic) || !detail::all_finite(data.potential)) {
    data.kinetic.setZero();
    data.potential.setZero();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
