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
#include <cstddef>

#include <Eigen/Core>

#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/joint_frame_recursions.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/inertial_parameters.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// Results and workspace of `inverse_dynamics_regressor` (fixed size, reusable).
template <class Tree, int MaxOrder, class Scalar = double>
struct RegressorData {
  static constexpr int kNumBodies = TreeTraits<Tree>::kNumBodies;
  static constexpr int kNumJoints = TreeTraits<Tree>::kNumJoints;
  static constexpr int kRows = 6 + kNumJoints;      ///< (Q₁; τ)
  static constexpr int kColumns = 10 * kNumBodies;  ///< π
  static constexpr int kMaxOrder = MaxOrder;
  using Matrix = Eigen::Matrix<Scalar, kRows, kColumns>;
  using BaseRows = Eigen::Matrix<Scalar, 6, kColumns>;

  // ---- results, entries 0..order ----
  std::array<Matrix, MaxOrder + 1> regressor{};               ///< Y^(k)
  std::array<BaseRows, MaxOrder + 1> base_frame_regressor{};  ///< rows of (Ad_C₁ᵀ Q₁)^(k)
  int order = -1;  ///< order of the last successful call, −1 if none

  // ---- workspace (Taylor coefficients, joint frames) ----
  std::array<detail::JointFrameSeries<MaxOrder, Scalar>, kNumBodies> body{};
  std::array<std::array<Scalar, MaxOrder + 1>, kNumBodies> torque{};  ///< unused (kinematics only)
  detail::MovingFrame<MaxOrder, Scalar> base_frame{};
  std::array<detail::SV<Scalar>, MaxOrder + 2> base_series{};
  std::array<detail::V3<Scalar>, MaxOrder + 1> scratch{};
  detail::JointSineCosine<Scalar, kNumBodies> joint_sine_cosine{};
  /// The most joints on a path from the root.
  static constexpr int max_joint_depth() {
    int deepest = 0;
    for (int j = 0; j < kNumBodies; ++j) {
      int depth = 0;
      for (int i = j; i > 0; i = Tree::kParent[i]) ++depth;
      deepest = depth > deepest ? depth : deepest;
    }
    return deepest;
  }
  /// A body's rows, as lanes: six world unit twists (Q₁), six base-frame unit
  /// twists (Ad_C₁ᵀ Q₁), then the screw of the joint at each level of its
  /// path (τ), padded to whole vectors.
  static constexpr int kLanes = (12 + max_joint_depth() + 7) / 8 * 8;
  /// One Taylor coefficient of a body's rows in its joint frame, component-major:
  /// `component[c][l]` is component c (ω then v) of row l.
  struct RowLanes {
    static constexpr int kLanes = RegressorData::kLanes;
    alignas(64) std::array<std::array<Scalar, kLanes>, 6> component{};
  };
  std::array<std::array<RowLanes, MaxOrder + 1>, kNumBodies> rows{};
  /// Body j's rows moved into its body frame C_j, coefficients 0..r.
  std::array<RowLanes, MaxOrder + 1> body_rows{};
  /// Body j's ten column wrenches in C_j (A_j, 6 × 10 by column), coefficients 0..r.
  std::array<std::array<std::array<Scalar, 6>, 10>, MaxOrder + 1> columns{};

  RegressorData() { clear_results(); }
  void clear_results() {
    for (auto& y : regressor) y.setZero();
    for (auto& y : base_frame_regressor) y.setZero();
    order = -1;
  }
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// Coefficient k of a body's ten column wrenches in its own frame, from the
/// coefficients of its twist (ω; v) and gravity-augmented acceleration (ω̇; a)
/// in that frame (see the header). `out[p]` is the wrench of parameter p.
template <int MaxOrder, class S>
void body_regressor_columns(int k, const std::array<SV<S>, MaxOrder + 1>& twist,
                            const std::array<SV<S>, MaxOrder + 1>& acceleration,
                            std::array<SV<S>, 10>& out) {
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
  const V3<S>& wdot = acceleration[k].ang;
  const S trace = p[0][0] + p[1][1] + p[2][2];
  const auto column = [&](int b) { return V3<S>{p[0][b], p[1][b], p[2][b]}; };
  const auto unit = [](int a) {
    return V3<S>{a == 0 ? S(1) : S(0), a == 1 ? S(1) : S(0), a == 2 ? S(1) : S(0)};
  };
  out[0] = {V3<S>{}, alpha};  // m
  for (int b = 0; b < 3; ++b) {
    // h = e_b: (e_b × α; ω̇ × e_b + (ω ωᵀ) e_b − |ω|² e_b)
    const V3<S> e = unit(b);
    V3<S> lin = cross(wdot, e) + column(b);
    lin -= trace * e;
    out[1 + b] = {cross(e, alpha), lin};
  }
  // I = E_ab (ones at (a,b) and (b,a)): E ω̇ + ω × (E ω), with
  // ω × (E_ab ω) = (ω ωᵀ)e_b × e_a + [a ≠ b] (ω ωᵀ)e_a × e_b.
  const S wd[3] = {wdot.x, wdot.y, wdot.z};
  for (int b = 0; b < 3; ++b)
    for (int a = 0; a <= b; ++a) {
      const V3<S> ea = unit(a), eb = unit(b);
      V3<S> ang = wd[b] * ea + cross(column(b), ea);
      if (a != b) ang += wd[a] * eb + cross(column(a), eb);
      out[static_cast<std::size_t>(inertia_parameter_index(a, b))] = {ang, V3<S>{}};
    }
}

/// out += M in on every lane, for a 3x3 matrix M (row-major `m`).
template <class S, std::size_t L>
HODYN_ALWAYS_INLINE void add_matrix_times(const S (&m)[9], const std::array<S, L>* in,
                                          std::array<S, L>* out) {
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) {
      const S f = m[3 * row + col];
      for (std::size_t l = 0; l < L; ++l) out[row][l] += f * in[col][l];
    }
}

/// Coefficient k of the child's rows from the parent's (coefficients 0..k):
/// each row is a motion vector w moved into joint frame j, Ad_{X_j}⁻¹ w —
/// revolute X = T(d) Rot(e, q): (Rᵀ ω; Rᵀ(v − d × ω)) with Rot(q)'s series;
/// prismatic X = T(d + e q): (ω; v − (d + e q) × ω).
template <JointKind K, class Lanes, class S, std::size_t NR, std::size_t NQ>
HODYN_ALWAYS_INLINE void inherit_rows(int k, const std::array<Lanes, NR>& in, const V3<S>& d,
                                      const V3<S>& e, const std::array<S, NQ>& c,
                                      const std::array<S, NQ>& sn, const std::array<S, NQ>& q,
                                      Lanes& out) {
  constexpr int L = Lanes::kLanes;
  auto& x = out.component;
  for (auto& comp : x) comp.fill(S(0));
  if constexpr (is_revolute(K)) {
    for (int i = 0; i <= k; ++i) {
      const auto& w = in[static_cast<std::size_t>(k - i)].component;
      // u = v − d × ω on every lane
      std::array<std::array<S, L>, 3> u;
      for (int l = 0; l < L; ++l) {
        u[0][l] = w[3][l] - (d.y * w[2][l] - d.z * w[1][l]);
        u[1][l] = w[4][l] - (d.z * w[0][l] - d.x * w[2][l]);
        u[2][l] = w[5][l] - (d.x * w[1][l] - d.y * w[0][l]);
      }
      if constexpr (aligned_axis(K) >= 0) {
        constexpr int a = aligned_axis(K), b = (a + 1) % 3, dd = (a + 2) % 3;
        // Rot(−q) about e_a: (y_b, y_d) → (c y_b + s y_d, c y_d − s y_b), y_a kept.
        const S ci = c[static_cast<std::size_t>(i)], si = sn[static_cast<std::size_t>(i)];
        for (int l = 0; l < L; ++l) {
          x[b][l] += ci * w[b][l] + si * w[dd][l];
          x[dd][l] += ci * w[dd][l] - si * w[b][l];
          x[3 + b][l] += ci * u[b][l] + si * u[dd][l];
          x[3 + dd][l] += ci * u[dd][l] - si * u[b][l];
        }
        if (i == 0)
          for (int l = 0; l < L; ++l) {
            x[a][l] += w[a][l];
            x[3 + a][l] += u[a][l];
          }
      } else {
        const M3<S> rot = axis_rotation<K>(e, i == 0 ? S(1) : S(0), c[static_cast<std::size_t>(i)],
                                           sn[static_cast<std::size_t>(i)]);
        S rt[9];
        for (int row = 0; row < 3; ++row)
          for (int col = 0; col < 3; ++col) rt[3 * row + col] = rot.a[3 * col + row];
        add_matrix_times(rt, &w[0], &out.component[0]);
        add_matrix_times(rt, &u[0], &out.component[3]);
      }
    }
  } else {
    for (int i = 0; i <= k; ++i) {
      const auto& w = in[static_cast<std::size_t>(k - i)].component;
      const V3<S> p = q[static_cast<std::size_t>(i)] * e + (i == 0 ? d : V3<S>{});
      if (i == 0)
        for (int comp = 0; comp < 6; ++comp)
          for (int l = 0; l < L; ++l) x[comp][l] += w[comp][l];
      for (int l = 0; l < L; ++l) {
        x[3][l] -= p.y * w[2][l] - p.z * w[1][l];
        x[4][l] -= p.z * w[0][l] - p.x * w[2][l];
        x[5][l] -= p.x * w[1][l] - p.y * w[0][l];
      }
    }
  }
}

/// The regressor kernel (FixedOrder ≥ 0: compiled for that order).
///
/// Rather than carrying each body's ten column wrenches up to the root, the
/// rows come down: for body j, the motion vectors whose dot products with its
/// wrench f_j give its share of every output — the six world unit twists
/// (Q₁ = Ad_{P₀}⁻ᵀ f₀), the screw of every joint on its path (τ_i = s_iᵀ f_i,
/// zero lanes for the others) and the six base-frame unit twists
/// (Ad_{A⁰_0}ᵀ f₀) — expressed in its joint frame as Taylor series, one lane
/// each. A child inherits its parent's rows through Ad_{X_j}⁻¹ and adds its
/// own screw, so body j's columns of Y^(k) are Σ_m rows_[m] A_j,[k−m], with
/// A_j the 6 × 10 wrench-per-parameter matrix: one transform per row and
/// level instead of ten (one per column), every lane operation a whole vector.
template <int FixedOrder, class Tree, int MaxOrder, class S>
void regressor_kernel(int run_order, const Model<Tree, S>& model,
                      RegressorData<Tree, MaxOrder, S>& data,
                      const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  using Data = RegressorData<Tree, MaxOrder, S>;
  constexpr int L = Data::kLanes;
  constexpr int kBaseFrameLane = 6, kLevelLane = 12;
  const int r = FixedOrder >= 0 ? FixedOrder : run_order;
  constexpr int n = Tree::kNumBodies;
  data.joint_sine_cosine.compute([&](int j) { return model.joint_sense(j) * motion.q[0](j - 1); });
  joint_frame_inverse_dynamics<FixedOrder, /*kKinematicsOnly=*/true>(
      r, model, data.body, data.torque, data.base_frame, data.base_series, data.scratch,
      data.joint_sine_cosine, motion,
      static_cast<const ExternalLoads<Tree, MaxOrder, S>*>(nullptr));
  std::array<S, MaxOrder + 1> fact{}, inv_fact{};  // k!, 1/k!
  fact[0] = inv_fact[0] = S(1);
  for (int k = 1; k <= r; ++k) {
    fact[k] = fact[k - 1] * S(k);
    inv_fact[k] = inv_fact[k - 1] * reciprocal<S>(k);
  }

  // ---- the base's rows: columns of Ad_{P₀}⁻¹_[k] (world), of Ad_{A⁰_0} (base frame) ----
  {
    auto& rows = data.rows[0];
    const auto& frame = data.base_frame;
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
    const Eigen::Matrix<S, 6, 6> home = adjoint_matrix(model.home_pose(0));
    for (int comp = 0; comp < 6; ++comp)
      for (int col = 0; col < 6; ++col)
        rows[0].component[comp][kBaseFrameLane + col] = home(comp, col);
  }

  for (int j = 0; j < n; ++j) {
    const auto& b = data.body[j];
    auto& rows = data.rows[j];
    int depth = 0;  // joints on the path of j, its own included
    for (int i = j; i > 0; i = Tree::kParent[i]) ++depth;

    // ---- rows of body j ≥ 1: the parent's through Ad_{X_j}⁻¹, then its screw ----
    if (j > 0) {
      const auto& parent_rows = data.rows[Tree::kParent[j]];
      const V3<S> d = V3<S>::from(model.local_offset(j));
      const V3<S> e = V3<S>::from(model.joint_axis(j));
      const S sense = model.joint_sense(j);
      std::array<S, MaxOrder + 1> q{};  // θ_[i] = s q^(i)/i!
      for (int i = 0; i <= r; ++i) q[i] = inv_fact[i] * (sense * motion.q[i](j - 1));
      auto inherit = [&](auto kind, int) {
        constexpr JointKind K = decltype(kind)::value;
        for (int k = 0; k <= r; ++k)
          inherit_rows<K>(k, parent_rows, d, e, b.cos_q, b.sin_q, q, rows[k]);
        // τ_j = s_j (e · f_ang) (revolute) or s_j (e · f_lin) (prismatic), joint sense s_j.
        const int offset = is_revolute(K) ? 0 : 3;
        const int lane = kLevelLane + depth - 1;
        rows[0].component[offset + 0][lane] = sense * e.x;
        rows[0].component[offset + 1][lane] = sense * e.y;
        rows[0].component[offset + 2][lane] = sense * e.z;
      };
      dispatch_joint(Tree::kJoint[j], j, inherit);
    }

    // ---- A_j in the body frame C_j, and the rows moved there ----
    // C_j in B_j: rotation R = home rotation (B_j has world axes at home),
    // origin t = home origin − o_j; a row w goes to Ad_K⁻¹ w = (Rᵀω; Rᵀ(v − t × ω)).
    const M3<S> rot = M3<S>::from(model.home_pose(j).rotation);
    const V3<S> t = V3<S>::from(model.home_pose(j).translation - model.local_origin(j));
    std::array<SV<S>, MaxOrder + 1> v{}, a{};  // twist, acceleration in C_j
    const auto to_body = [&](const SV<S>& x) {
      return SV<S>{rot.transpose_times(x.ang), rot.transpose_times(x.lin - cross(t, x.ang))};
    };
    S rt[9];
    for (int row = 0; row < 3; ++row)
      for (int col = 0; col < 3; ++col) rt[3 * row + col] = rot.a[3 * col + row];
    auto& columns = data.columns;
    auto& body_rows = data.body_rows;
    for (int k = 0; k <= r; ++k) {
      v[k] = to_body(b.twist[k]);
      a[k] = to_body(b.acceleration[k]);
      std::array<SV<S>, 10> body_frame{};
      body_regressor_columns<MaxOrder>(k, v, a, body_frame);
      for (int p = 0; p < 10; ++p) {
        const SV<S>& f = body_frame[static_cast<std::size_t>(p)];
        columns[k][p] = {f.ang.x, f.ang.y, f.ang.z, f.lin.x, f.lin.y, f.lin.z};
      }
      const auto& w = rows[k].component;
      auto& x = body_rows[k].component;
      std::array<std::array<S, L>, 3> u;
      for (int l = 0; l < L; ++l) {
        u[0][l] = w[3][l] - (t.y * w[2][l] - t.z * w[1][l]);
        u[1][l] = w[4][l] - (t.z * w[0][l] - t.x * w[2][l]);
        u[2][l] = w[5][l] - (t.x * w[1][l] - t.y * w[0][l]);
      }
      for (auto& comp : x) comp.fill(S(0));
      add_matrix_times(rt, &w[0], &x[0]);
      add_matrix_times(rt, &u[0], &x[3]);
    }

    // ---- body j's columns of Y^(k): Σ_m rows_[m] A_[k−m] ----
    // In C_j the mass column is a pure force and the six inertia columns are
    // pure moments: three components instead of six.
    for (int k = 0; k <= r; ++k) {
      // block[p][l]: lane l of column p (a local: no aliasing with the rows)
      alignas(64) std::array<std::array<S, L>, 10> block{};
      for (int m = 0; m <= k; ++m) {
        const auto& x = body_rows[m].component;
        const auto& col = columns[k - m];
        // Component by component, the ten columns' lanes accumulating together
        // (20 vector registers with AVX-512, one load of each row component).
        for (int c = 0; c < 6; ++c) {
          const auto& xc = x[c];
          const int first = c < 3 ? 1 : 0, last = c < 3 ? 10 : 4;  // structural zeros
          for (int p = first; p < last; ++p) {
            const S f = col[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)];
            auto& acc = block[static_cast<std::size_t>(p)];
            for (int l = 0; l < L; ++l) acc[l] += xc[l] * f;
          }
        }
      }
      const S scale = fact[k];
      for (int p = 0; p < 10; ++p) {
        const auto& acc = block[static_cast<std::size_t>(p)];
        S* world = data.regressor[k].data() + static_cast<std::ptrdiff_t>(10 * j + p) * Data::kRows;
        S* base = data.base_frame_regressor[k].data() + static_cast<std::ptrdiff_t>(10 * j + p) * 6;
        for (int l = 0; l < 6; ++l) world[l] = scale * acc[l];
        for (int l = 6; l < Data::kRows; ++l) world[l] = S(0);  // joints not on the path
        int level = depth;
        for (int i = j; i > 0; i = Tree::kParent[i])
          world[6 + i - 1] = scale * acc[kLevelLane + --level];
        for (int l = 0; l < 6; ++l) base[l] = scale * acc[kBaseFrameLane + l];
      }
    }
  }
}

template <int Order, class Tree, int MaxOrder, class S>
void dispatch_regressor_kernel(int order, const Model<Tree, S>& model,
                               RegressorData<Tree, MaxOrder, S>& data,
                               const MotionDerivatives<Tree, MaxOrder, S>& motion) {
  if constexpr (Order > MaxOrder) {
    (void)order, (void)model, (void)data, (void)motion;
  } else if constexpr (Order > kMaxFixedOrder) {
    regressor_kernel<-1>(order, model, data, motion);
  } else if (order == Order) {
    regressor_kernel<Order>(Order, model, data, motion);
  } else {
    dispatch_regressor_kernel<Order + 1>(order, model, data, motion);
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
  detail::dispatch_regressor_kernel<0>(order, model, data, motion);
  for (int k = 0; k <= order; ++k)
    if (!detail::all_finite_wide(data.regressor[k]) ||
        !detail::all_finite_wide(data.base_frame_regressor[k])) {
      data.clear_results();
      return Status::kNonFiniteResult;
    }
  data.order = order;
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
