// hodyn/detail/joint_frame_lanes.hpp — inverse dynamics of orders 1..r in
// body-fixed joint frames with the Taylor coefficients in SIMD lanes
// (coefficient_lanes.hpp): the same recursions as joint_frame_recursions.hpp,
// term for term, in another data layout.
//
// Per body, every coefficient-wise step (the offset d × ω, the inertia
// products, c × f) is one vector operation for all orders, and the Cauchy
// products run against shifted copies of the operands they share:
//   forward   cos q, sin q (the rotation of the parent's twist and
//             acceleration), q̇ (the − q̇ ad_s u term), q (prismatic offsets),
//   Newton–Euler  ω (ω × u and ω × L of f = m(u̇ + ω × u), I ω̇ + ω × L + c × f),
//   backward  cos q, sin q again (the wrench into the parent's frame).
// The base frame's rotation and origin series stay scalar recursions
// (MovingFrame), and so do the order-0 calls and applied wrenches: the
// dispatcher in inverse_dynamics.hpp runs this kernel for orders ≥ 1 without
// applied body or world wrenches. Work per body: O(r) vector operations and
// O(r) broadcast-multiply-adds per product, instead of O(r²) scalar ones.
#pragma once

#include <array>
#include <cmath>
#include <cstring>
#include "hodyn/detail/isa.hpp"

#include "hodyn/detail/ball_joint.hpp"
#include "hodyn/detail/coefficient_lanes.hpp"
#include "hodyn/detail/joint_frame_recursions.hpp"
#include "hodyn/detail/moving_frame.hpp"
#include "hodyn/detail/root_motion.hpp"
#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/sine_cosine.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/tree.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

/// Lane storage of one inverse-dynamics workspace: per body the joint-frame
/// twist, acceleration and wrench (6 lanes each) and cos q, sin q, at the
/// widest width this workspace's orders use; a kernel of a smaller width uses
/// the first lanes of every slot. Empty where lanes are not used.
template <class Tree, int MaxOrder, class S>
struct LaneWorkspace {
  /// The orders 1..kMaxOrder run on lanes.
  static constexpr int kMaxOrder = MaxOrder < max_lane_order<S>() ? MaxOrder : max_lane_order<S>();
  static constexpr int kWidth = kMaxOrder >= 1 ? lane_width(kMaxOrder) : 0;
  static constexpr int kTwist = 0, kAcceleration = 6, kWrench = 12, kCos = 18, kSin = 19;
  /// A ball joint's rotation series R_[k], 9 slots row by row (trees with a ball only).
  static constexpr int kRotation = 20;
  /// A universal joint's cos θ₂, sin θ₂ (trees with one only; θ₁'s are kCos, kSin).
  static constexpr int kSecondCos = TreeTraits<Tree>::kNumSphericalJoints > 0 ? 29 : 20;
  static constexpr int kSecondSin = kSecondCos + 1;
  static constexpr int kSlots = kSecondCos + (TreeTraits<Tree>::kNumUniversalJoints > 0 ? 2 : 0);
  static constexpr std::size_t kSize =
      kWidth > 0 ? static_cast<std::size_t>(Tree::kNumBodies) * kSlots* kWidth : 1;

  alignas(64) std::array<S, kSize> storage{};

  HODYN_ALWAYS_INLINE S* slot(int body, int index) {
    return storage.data() + (static_cast<std::size_t>(body) * kSlots + index) * kWidth;
  }
  HODYN_ALWAYS_INLINE const S* slot(int body, int index) const {
    return storage.data() + (static_cast<std::size_t>(body) * kSlots + index) * kWidth;
  }
};

#if HODYN_COEFFICIENT_LANES

namespace lanes {

template <class S, int W, std::size_t... I>
HODYN_ALWAYS_INLINE Lanes<S, W> lane_indices_impl(std::index_sequence<I...>) {
  return Lanes<S, W>{static_cast<S>(I)...};
}
/// (0, 1, …, W−1).
template <class S, int W>
HODYN_ALWAYS_INLINE Lanes<S, W> lane_indices() {
  return lane_indices_impl<S, W>(std::make_index_sequence<W>{});
}

template <int W, class S>
HODYN_ALWAYS_INLINE Lanes<S, W> load(const S* p) {
  Lanes<S, W> v;
  __builtin_memcpy(&v, p, sizeof(v));
  return v;
}
template <int W, class S>
HODYN_ALWAYS_INLINE void store(S* p, const Lanes<S, W>& v) {
  __builtin_memcpy(p, &v, sizeof(v));
}
template <int W, class WS>
HODYN_ALWAYS_INLINE auto load_sv(const WS& ws, int body, int first) {
  using S = std::remove_cv_t<std::remove_pointer_t<decltype(ws.slot(0, 0))>>;
  LaneSV<S, W> v;
  v.ang.x = load<W>(ws.slot(body, first));
  v.ang.y = load<W>(ws.slot(body, first + 1));
  v.ang.z = load<W>(ws.slot(body, first + 2));
  v.lin.x = load<W>(ws.slot(body, first + 3));
  v.lin.y = load<W>(ws.slot(body, first + 4));
  v.lin.z = load<W>(ws.slot(body, first + 5));
  return v;
}
template <int W, class WS, class S>
HODYN_ALWAYS_INLINE void store_sv(WS& ws, int body, int first, const LaneSV<S, W>& v) {
  store<W>(ws.slot(body, first), v.ang.x);
  store<W>(ws.slot(body, first + 1), v.ang.y);
  store<W>(ws.slot(body, first + 2), v.ang.z);
  store<W>(ws.slot(body, first + 3), v.lin.x);
  store<W>(ws.slot(body, first + 4), v.lin.y);
  store<W>(ws.slot(body, first + 5), v.lin.z);
}

template <class S, int W, class F, std::size_t... I>
HODYN_ALWAYS_INLINE Lanes<S, W> gather_impl(const F& f, int r, std::index_sequence<I...>) {
  return Lanes<S, W>{(static_cast<int>(I) <= r ? f(static_cast<int>(I)) : S(0))...};
}
/// The lanes (f(0), …, f(r), 0, …): built in registers, f is called for k ≤ r only.
template <class S, int W, class F>
HODYN_ALWAYS_INLINE Lanes<S, W> gather(const F& f, int r) {
  return gather_impl<S, W>(f, r, std::make_index_sequence<W>{});
}

/// The frame components Ad_P⁻¹ w = (Rᵀω; Rᵀ(v − x × ω)) of a world twist
/// series w, for the frame series R_[i], x_[i] (joint_frame_recursions.hpp,
/// twist_in_frame): Cauchy products against the shifted ω and v − x × ω.
template <class S, int W, std::size_t NR>
HODYN_ALWAYS_INLINE LaneSV<S, W> twist_in_frame(const std::array<M3<S>, NR>& rotation,
                                                const std::array<V3<S>, NR>& origin,
                                                const LaneSV<S, W>& w, int r) {
  const ShiftedLanes<S, W> wx(w.ang.x, r), wy(w.ang.y, r), wz(w.ang.z, r);
  LaneV3<S, W> z = w.lin;
  for (int i = 0; i <= r; ++i) {
    const V3<S>& x = origin[static_cast<std::size_t>(i)];
    z.x -= x.y * wz.row[i] - x.z * wy.row[i];
    z.y -= x.z * wx.row[i] - x.x * wz.row[i];
    z.z -= x.x * wy.row[i] - x.y * wx.row[i];
  }
  const ShiftedLanes<S, W> zx(z.x, r), zy(z.y, r), zz(z.z, r);
  LaneSV<S, W> out;
  for (int i = 0; i <= r; ++i) {
    const S* m = rotation[static_cast<std::size_t>(i)].a;
    out.ang.x += m[0] * wx.row[i] + m[3] * wy.row[i] + m[6] * wz.row[i];
    out.ang.y += m[1] * wx.row[i] + m[4] * wy.row[i] + m[7] * wz.row[i];
    out.ang.z += m[2] * wx.row[i] + m[5] * wy.row[i] + m[8] * wz.row[i];
    out.lin.x += m[0] * zx.row[i] + m[3] * zy.row[i] + m[6] * zz.row[i];
    out.lin.y += m[1] * zx.row[i] + m[4] * zy.row[i] + m[7] * zz.row[i];
    out.lin.z += m[2] * zx.row[i] + m[5] * zy.row[i] + m[8] * zz.row[i];
  }
  return out;
}

/// The world wrench Ad_P⁻ᵀ f = (R n + x × R f; R f) of frame components f
/// (MovingFrame::to_world on lanes).
template <class S, int W, std::size_t NR>
HODYN_ALWAYS_INLINE LaneSV<S, W> wrench_to_world(const std::array<M3<S>, NR>& rotation,
                                                 const std::array<V3<S>, NR>& origin,
                                                 const LaneSV<S, W>& f, int r) {
  const ShiftedLanes<S, W> nx(f.ang.x, r), ny(f.ang.y, r), nz(f.ang.z, r);
  const ShiftedLanes<S, W> fx(f.lin.x, r), fy(f.lin.y, r), fz(f.lin.z, r);
  LaneSV<S, W> out;
  for (int i = 0; i <= r; ++i) {
    const S* m = rotation[static_cast<std::size_t>(i)].a;
    out.lin.x += m[0] * fx.row[i] + m[1] * fy.row[i] + m[2] * fz.row[i];
    out.lin.y += m[3] * fx.row[i] + m[4] * fy.row[i] + m[5] * fz.row[i];
    out.lin.z += m[6] * fx.row[i] + m[7] * fy.row[i] + m[8] * fz.row[i];
    out.ang.x += m[0] * nx.row[i] + m[1] * ny.row[i] + m[2] * nz.row[i];
    out.ang.y += m[3] * nx.row[i] + m[4] * ny.row[i] + m[5] * nz.row[i];
    out.ang.z += m[6] * nx.row[i] + m[7] * ny.row[i] + m[8] * nz.row[i];
  }
  const ShiftedLanes<S, W> gx(out.lin.x, r), gy(out.lin.y, r), gz(out.lin.z, r);
  for (int i = 0; i <= r; ++i) {
    const V3<S>& x = origin[static_cast<std::size_t>(i)];
    out.ang.x += x.y * gz.row[i] - x.z * gy.row[i];
    out.ang.y += x.z * gx.row[i] - x.x * gz.row[i];
    out.ang.z += x.x * gy.row[i] - x.y * gx.row[i];
  }
  return out;
}

/// e × u and e · u for a joint axis e; an axis-aligned kind is a permutation.
template <JointKind K, class S, int W>
HODYN_ALWAYS_INLINE LaneV3<S, W> axis_cross(const V3<S>& e, const LaneV3<S, W>& u) {
  constexpr int a = aligned_axis(K);
  if constexpr (a == 0)
    return {Lanes<S, W>{}, -u.z, u.y};
  else if constexpr (a == 1)
    return {u.z, Lanes<S, W>{}, -u.x};
  else if constexpr (a == 2)
    return {-u.y, u.x, Lanes<S, W>{}};
  else
    return cross_constant(e, u);
}
template <JointKind K, class S, int W>
HODYN_ALWAYS_INLINE Lanes<S, W> axis_dot(const V3<S>& e, const LaneV3<S, W>& u) {
  constexpr int a = aligned_axis(K);
  if constexpr (a >= 0)
    return u.template at<a>();
  else
    return dot_constant(e, u);
}
/// u += s e.
template <JointKind K, class S, int W>
HODYN_ALWAYS_INLINE void add_along_axis(const V3<S>& e, const Lanes<S, W>& s, LaneV3<S, W>& u) {
  constexpr int a = aligned_axis(K);
  if constexpr (a >= 0) {
    u.template at<a>() += s;
  } else {
    u.x += e.x * s;
    u.y += e.y * s;
    u.z += e.z * s;
  }
}

/// Rot(±q) y about the joint axis, coefficient-wise: the Cauchy products of
/// the rotation series (cos q, sin q) with y. kInverse selects Rot(−q).
template <JointKind K, bool kInverse, class S, int W>
HODYN_ALWAYS_INLINE LaneV3<S, W> rotate(const V3<S>& e, const ShiftedLanes<S, W>& c,
                                        const ShiftedLanes<S, W>& s, const LaneV3<S, W>& y, int r) {
  LaneV3<S, W> out;
  if constexpr (aligned_axis(K) >= 0) {
    // About e_a: (y_b, y_d) → (c y_b ∓ s y_d, ±s y_b + c y_d), y_a unchanged.
    constexpr int a = aligned_axis(K), b = (a + 1) % 3, d = (a + 2) % 3;
    const LaneScalars<S, W> yb(y.template at<b>());
    const LaneScalars<S, W> yd(y.template at<d>());
    Lanes<S, W> ob{}, od{};
    for (int i = 0; i <= r; ++i) {
      const S bi = yb[i], di = yd[i];
      if constexpr (kInverse) {
        ob += bi * c.row[i] + di * s.row[i];
        od += di * c.row[i] - bi * s.row[i];
      } else {
        ob += bi * c.row[i] - di * s.row[i];
        od += di * c.row[i] + bi * s.row[i];
      }
    }
    out.template at<a>() = y.template at<a>();
    out.template at<b>() = ob;
    out.template at<d>() = od;
  } else {
    // (e·y) e + c (y − (e·y) e) ± s e × y
    const Lanes<S, W> ey = dot_constant(e, y);
    const LaneV3<S, W> perp{y.x - e.x * ey, y.y - e.y * ey, y.z - e.z * ey};
    const LaneV3<S, W> exy = cross_constant(e, y);
    out = {e.x * ey, e.y * ey, e.z * ey};
    const LaneScalars<S, W> px_(perp.x), py_(perp.y), pz_(perp.z);
    const LaneScalars<S, W> qx_(exy.x), qy_(exy.y), qz_(exy.z);
    for (int i = 0; i <= r; ++i) {
      const S px = px_[i], py = py_[i], pz = pz_[i];
      const S qx = kInverse ? -qx_[i] : qx_[i];
      const S qy = kInverse ? -qy_[i] : qy_[i];
      const S qz = kInverse ? -qz_[i] : qz_[i];
      out.x += px * c.row[i] + qx * s.row[i];
      out.y += py * c.row[i] + qy * s.row[i];
      out.z += pz * c.row[i] + qz * s.row[i];
    }
  }
  return out;
}

/// out ∓= a ⊛ (e × u) for a scalar series a given by its shifted copies
/// (kSubtract selects −=); an axis-aligned kind skips its zero component.
template <JointKind K, bool kSubtract, class S, int W>
HODYN_ALWAYS_INLINE void accumulate_axis_cross_product(LaneV3<S, W>& out, const V3<S>& e,
                                                       const ShiftedLanes<S, W>& a,
                                                       const LaneV3<S, W>& u, int r) {
  const LaneV3<S, W> eu = axis_cross<K>(e, u);
  constexpr int ax = aligned_axis(K);
  const auto apply = [&](Lanes<S, W>& o, const Lanes<S, W>& b) {
    if constexpr (kSubtract)
      subtract_product(o, a, b, r);
    else
      add_product(o, a, b, r);
  };
  if constexpr (ax != 0) apply(out.x, eu.x);
  if constexpr (ax != 1) apply(out.y, eu.y);
  if constexpr (ax != 2) apply(out.z, eu.z);
}

/// The series cos θ, sin θ from cos θ₀, sin θ₀ and θ̇'s shifted lanes:
/// (sin θ)_[k+1] = (cos θ ⊛ θ̇)_[k] / (k+1), (cos θ)_[k+1] = −(sin θ ⊛ θ̇)_[k] / (k+1)
/// (inv[m] = 1/m); the products accumulate in lanes as the coefficients
/// appear (no round trip through memory). A universal joint's two angles;
/// the revolute joints' branch writes the same loop out.
template <class S, int W, std::size_t N>
HODYN_ALWAYS_INLINE void sine_cosine_series(S cos0, S sin0, const ShiftedLanes<S, W>& rate,
                                            const std::array<S, N>& inv, int r, Lanes<S, W>& cos_q,
                                            Lanes<S, W>& sin_q) {
  cos_q[0] = cos0;
  sin_q[0] = sin0;
  const Lanes<S, W> lane = lane_indices<S, W>();
  Lanes<S, W> sin_sum{}, cos_sum{};
  for (int k = 0; k < r; ++k) {
    sin_sum += cos_q[k] * rate.row[k];
    cos_sum += sin_q[k] * rate.row[k];
    const S next = S(k + 1);
    sin_q = lane == next ? inv[k + 1] * sin_sum[k] : sin_q;
    cos_q = lane == next ? -(inv[k + 1] * cos_sum[k]) : cos_q;
  }
}

/// The joint-frame wrench of one body from its twist and gravity-augmented
/// acceleration (joint_frame_recursions.hpp, "Newton–Euler … about the
/// centre of mass"): f_lin = m (u̇ + ω × u), f_ang = I ω̇ + ω × L + c × f_lin,
/// u = v + ω × c, L = I ω, the two ω × products against the shifted ω.
template <class S, int W>
HODYN_ALWAYS_INLINE LaneSV<S, W> body_wrench(const JointFrameInertia<S>& m, const LaneSV<S, W>& t,
                                             const LaneSV<S, W>& a, int r) {
  const auto& I = m.inertia;
  const LaneV3<S, W>& w = t.ang;
  const LaneV3<S, W> u = t.lin - cross_constant(m.com, w);
  const LaneV3<S, W> l{I.xx * w.x + I.xy * w.y + I.xz * w.z, I.xy * w.x + I.yy * w.y + I.yz * w.z,
                       I.xz * w.x + I.yz * w.y + I.zz * w.z};
  const LaneV3<S, W>& wd = a.ang;
  LaneV3<S, W> ang{I.xx * wd.x + I.xy * wd.y + I.xz * wd.z, I.xy * wd.x + I.yy * wd.y + I.yz * wd.z,
                   I.xz * wd.x + I.yz * wd.y + I.zz * wd.z};
  LaneV3<S, W> lin = a.lin - cross_constant(m.com, a.ang);
  const ShiftedLanes<S, W> wx(w.x, r), wy(w.y, r), wz(w.z, r);
  const LaneScalars<S, W> ux_(u.x), uy_(u.y), uz_(u.z), lx_(l.x), ly_(l.y), lz_(l.z);
  for (int i = 0; i <= r; ++i) {
    const S ux = ux_[i], uy = uy_[i], uz = uz_[i];
    const S lx = lx_[i], ly = ly_[i], lz = lz_[i];
    lin.x += uz * wy.row[i] - uy * wz.row[i];
    lin.y += ux * wz.row[i] - uz * wx.row[i];
    lin.z += uy * wx.row[i] - ux * wy.row[i];
    ang.x += lz * wy.row[i] - ly * wz.row[i];
    ang.y += lx * wz.row[i] - lz * wx.row[i];
    ang.z += ly * wx.row[i] - lx * wy.row[i];
  }
  LaneSV<S, W> f;
  f.lin = m.mass * lin;
  f.ang = ang + cross_constant(m.com, f.lin);
  return f;
}

}  // namespace lanes

/// Inverse dynamics of orders 0..r (1 ≤ r < W) on coefficient lanes of width
/// W, without applied body or world wrenches: writes the results of `data`
/// (Q₁^(k), (Ad_C₁ᵀ Q₁)^(k), τ^(k) − τ_ext^(k); `ext_torque` may be null).
template <int W, int FixedOrder, class Tree, int MaxOrder, class S, class Data>
void joint_frame_inverse_dynamics_lanes(int run_order, const Model<Tree, S>& model, Data& data,
                                        const MotionDerivatives<Tree, MaxOrder, S>& motion,
                                        const ExternalLoads<Tree, MaxOrder, S>* ext_torque) {
  const int r = FixedOrder >= 0 ? FixedOrder : run_order;
  using WS = LaneWorkspace<Tree, MaxOrder, S>;
  static_assert(W <= WS::kWidth, "workspace lanes too narrow");
  using L = Lanes<S, W>;
  WS& ws = data.lanes;
  // 1/m!, m = 0..r+2, and 1/m, m = 1..r.
  std::array<S, MaxOrder + 3> inv_fact{};
  std::array<S, MaxOrder + 1> inv{};
  inv_fact[0] = S(1);
  for (int m = 1; m <= r + 2; ++m) inv_fact[m] = inv_fact[m - 1] * reciprocal<S>(m);
  for (int m = 1; m <= r; ++m) inv[m] = reciprocal<S>(m);

  // ---- base: P_0 = C₁ (A⁰_0)⁻¹; v_0 = Ad_{P_0}⁻¹ V₁, ã_0 = Ad_{P_0}⁻¹ (V̇₁ − G) ----
  auto& base_frame = data.base_frame;
  {
    auto& series = data.base_series;
    const Pose<S> p0 = root_pose(model, motion.base_pose) * model.base_home_pose_inverse();
    base_frame.start(M3<S>::from(p0.rotation), V3<S>::from(p0.translation));
    for (int k = 0; k <= r + 1; ++k)
      series[k] = inv_fact[k] * SV<S>::from(root_twist<Tree>(motion.base_twist[k]));
    for (int k = 1; k <= r; ++k) base_frame.extend(k, series);
    // V₁ and V̇₁ − G as lanes: V̇_[k] = (k+1) V_[k+1].
    const auto component = [&](int c, int shift) {
      return lanes::gather<S, W>(
          [&](int k) {
            const SV<S>& v = series[static_cast<std::size_t>(k + shift)];
            const S x = c < 3 ? (c == 0   ? v.ang.x
                                 : c == 1 ? v.ang.y
                                          : v.ang.z)
                              : (c == 3   ? v.lin.x
                                 : c == 4 ? v.lin.y
                                          : v.lin.z);
            return shift == 0 ? x : S(k + 1) * x;
          },
          r);
    };
    LaneSV<S, W> v{{component(0, 0), component(1, 0), component(2, 0)},
                   {component(3, 0), component(4, 0), component(5, 0)}};
    LaneSV<S, W> dv{{component(0, 1), component(1, 1), component(2, 1)},
                    {component(3, 1), component(4, 1), component(5, 1)}};
    const Vector3<S>& g = model.gravity();
    dv.lin.x[0] -= g(0);
    dv.lin.y[0] -= g(1);
    dv.lin.z[0] -= g(2);
    const LaneSV<S, W> t = lanes::twist_in_frame(base_frame.rotation, base_frame.origin, v, r);
    const LaneSV<S, W> a = lanes::twist_in_frame(base_frame.rotation, base_frame.origin, dv, r);
    lanes::store_sv<W>(ws, 0, WS::kTwist, t);
    lanes::store_sv<W>(ws, 0, WS::kAcceleration, a);
    lanes::store_sv<W>(ws, 0, WS::kWrench,
                       lanes::body_wrench(joint_frame_inertia(model, 0), t, a, r));
  }

  // cos q, sin q of every joint in one vectorized pass (sine_cosine.hpp).
  auto& trig = data.joint_sine_cosine;
  trig.compute(
      [&](int j) { return model.joint_sense(j) * motion.q[0](TreeTraits<Tree>::joint_entry(j)); });

  // ---- forward pass: twist, acceleration and wrench of every body ----
  for_each_joint<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const int p = Tree::kParent[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const LaneSV<S, W> pt = lanes::load_sv<W>(ws, p, WS::kTwist);
    const LaneSV<S, W> pa = lanes::load_sv<W>(ws, p, WS::kAcceleration);
    // θ_[m] = s q^(m)/m!, θ̇_[m] = s q^(m+1)/m!, θ̈_[m] = s q^(m+2)/m! (s: joint sense).
    const S sense = model.joint_sense(j);
    const int entry = TreeTraits<Tree>::joint_entry(j);  // j − 1 with 1-DoF joints only
    const auto joint_series = [&](int shift) {
      return lanes::gather<S, W>(
          [&](int m) {
            return inv_fact[m] * (sense * motion.q[static_cast<std::size_t>(m + shift)](entry));
          },
          r);
    };
    const L qd = joint_series(1);
    const L qdd = joint_series(2);
    const ShiftedLanes<S, W> qd_shift(qd, r);
    LaneSV<S, W> t, a;
    if constexpr (is_spherical(K)) {
      // Ball (detail/joint_frame_recursions.hpp): R_[k+1] = (R ⊛ [ω])_[k]/(k+1),
      // u = Rᵀ ⊛ (offset v_p), v = u + (ω; 0), ã = Rᵀ ⊛ (offset ã_p) − ω ⊛ × u + (ω̇; 0).
      const auto ball =
          static_cast<std::size_t>(TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)]);
      const auto omega = [&](int c, int shift) {
        return lanes::gather<S, W>(
            [&](int m) {
              return inv_fact[m] * motion.q[static_cast<std::size_t>(m + shift)](entry + c);
            },
            r);
      };
      const L wx = omega(0, 1), wy = omega(1, 1), wz = omega(2, 1);
      const ShiftedLanes<S, W> swx(wx, r), swy(wy, r), swz(wz, r);
      L rot[9];
      {
        const auto& x = motion.q[0];
        const M3<S> r0 = M3<S>::from(motion.joint_rotation[ball]) *
                         rotation_exponential(V3<S>{x(entry), x(entry + 1), x(entry + 2)});
        for (int i = 0; i < 9; ++i) {
          rot[i] = L{};
          rot[i][0] = r0.a[i];
        }
        // (R [ω])(row, ·) = (R_r1 ω_z − R_r2 ω_y, R_r2 ω_x − R_r0 ω_z, R_r0 ω_y − R_r1 ω_x).
        L sum[9] = {};
        const L lane = lanes::lane_indices<S, W>();
        for (int k = 0; k < r; ++k) {
          for (int row = 0; row < 3; ++row) {
            const S r0k = rot[3 * row][k], r1k = rot[3 * row + 1][k], r2k = rot[3 * row + 2][k];
            sum[3 * row] += r1k * swz.row[k] - r2k * swy.row[k];
            sum[3 * row + 1] += r2k * swx.row[k] - r0k * swz.row[k];
            sum[3 * row + 2] += r0k * swy.row[k] - r1k * swx.row[k];
          }
          const S next = S(k + 1);
          for (int i = 0; i < 9; ++i) rot[i] = lane == next ? inv[k + 1] * sum[i][k] : rot[i];
        }
      }
      for (int i = 0; i < 9; ++i) lanes::store<W>(ws.slot(j, WS::kRotation + i), rot[i]);
      const ShiftedLanes<S, W> sr[9] = {{rot[0], r}, {rot[1], r}, {rot[2], r},
                                        {rot[3], r}, {rot[4], r}, {rot[5], r},
                                        {rot[6], r}, {rot[7], r}, {rot[8], r}};
      const auto rotate_back = [&](const LaneV3<S, W>& y) {  // Rᵀ ⊛ y
        LaneV3<S, W> out;
        add_product(out.x, sr[0], y.x, r);
        add_product(out.x, sr[3], y.y, r);
        add_product(out.x, sr[6], y.z, r);
        add_product(out.y, sr[1], y.x, r);
        add_product(out.y, sr[4], y.y, r);
        add_product(out.y, sr[7], y.z, r);
        add_product(out.z, sr[2], y.x, r);
        add_product(out.z, sr[5], y.y, r);
        add_product(out.z, sr[8], y.z, r);
        return out;
      };
      t.ang = rotate_back(pt.ang);
      t.lin = rotate_back(pt.lin - cross_constant(d, pt.ang));
      a.ang = rotate_back(pa.ang);
      a.lin = rotate_back(pa.lin - cross_constant(d, pa.ang));
      const auto subtract_cross = [&](LaneV3<S, W>& out, const LaneV3<S, W>& u) {  // −ω ⊛ × u
        subtract_product(out.x, swy, u.z, r);
        add_product(out.x, swz, u.y, r);
        subtract_product(out.y, swz, u.x, r);
        add_product(out.y, swx, u.z, r);
        subtract_product(out.z, swx, u.y, r);
        add_product(out.z, swy, u.x, r);
      };
      subtract_cross(a.ang, t.ang);
      subtract_cross(a.lin, t.lin);
      t.ang.x += wx;
      t.ang.y += wy;
      t.ang.z += wz;
      a.ang.x += omega(0, 2);
      a.ang.y += omega(1, 2);
      a.ang.z += omega(2, 2);
    } else if constexpr (is_universal(K)) {
      // Two revolute sub-steps through the intermediate frame, no body
      // between them (joint_frame_recursions.hpp): about e₁ from the offset
      // parent series, u₁ = Rot₁ᵀ ⊛ (offset v_p), v_m = u₁ + (e₁ θ̇₁; 0),
      // ã_m = Rot₁ᵀ ⊛ (offset ã_p) − θ̇₁ ⊛ (e₁ × u₁) + (e₁ θ̈₁; 0); then the
      // same about e₂ from (v_m, ã_m), which carries S's rate in the child's frame.
      constexpr JointKind R = JointKind::kRevolute;
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      const auto second_series = [&](int shift) {  // θ₂ has no sense (docs/joint-kinds.md)
        return lanes::gather<S, W>(
            [&](int m) {
              return inv_fact[m] * motion.q[static_cast<std::size_t>(m + shift)](entry + 1);
            },
            r);
      };
      const L qd2 = second_series(1);
      const ShiftedLanes<S, W> qd2_shift(qd2, r);
      L cos1{}, sin1{}, cos2{}, sin2{};
      lanes::sine_cosine_series(trig.cosine[static_cast<std::size_t>(j)],
                                trig.sine[static_cast<std::size_t>(j)], qd_shift, inv, r, cos1,
                                sin1);
      {
        using std::cos;
        using std::sin;
        const S theta2 = motion.q[0](entry + 1);
        lanes::sine_cosine_series(S(cos(theta2)), S(sin(theta2)), qd2_shift, inv, r, cos2, sin2);
      }
      lanes::store<W>(ws.slot(j, WS::kCos), cos1);
      lanes::store<W>(ws.slot(j, WS::kSin), sin1);
      lanes::store<W>(ws.slot(j, WS::kSecondCos), cos2);
      lanes::store<W>(ws.slot(j, WS::kSecondSin), sin2);
      const auto sub_step = [&](const V3<S>& axis, const L& cq, const L& sq,
                                const ShiftedLanes<S, W>& rate_shift, const L& rate, const L& accel,
                                const LaneSV<S, W>& t_in, const LaneSV<S, W>& a_in,
                                LaneSV<S, W>& t_out, LaneSV<S, W>& a_out) {
        const ShiftedLanes<S, W> c(cq, r), s(sq, r);
        t_out.ang = lanes::rotate<R, true>(axis, c, s, t_in.ang, r);
        t_out.lin = lanes::rotate<R, true>(axis, c, s, t_in.lin, r);
        a_out.ang = lanes::rotate<R, true>(axis, c, s, a_in.ang, r);
        a_out.lin = lanes::rotate<R, true>(axis, c, s, a_in.lin, r);
        lanes::accumulate_axis_cross_product<R, true>(a_out.ang, axis, rate_shift, t_out.ang, r);
        lanes::accumulate_axis_cross_product<R, true>(a_out.lin, axis, rate_shift, t_out.lin, r);
        lanes::add_along_axis<R>(axis, rate, t_out.ang);
        lanes::add_along_axis<R>(axis, accel, a_out.ang);
      };
      const LaneSV<S, W> offset_t{pt.ang, pt.lin - cross_constant(d, pt.ang)};
      const LaneSV<S, W> offset_a{pa.ang, pa.lin - cross_constant(d, pa.ang)};
      LaneSV<S, W> vm, am;
      sub_step(e, cos1, sin1, qd_shift, qd, qdd, offset_t, offset_a, vm, am);
      sub_step(e2, cos2, sin2, qd2_shift, qd2, second_series(2), vm, am, t, a);
    } else if constexpr (joint_rotates(K)) {
      // cos q, sin q: (sin q)' = cos q q̇, (cos q)' = −sin q q̇, so
      // (sin q)_[k+1] = (cos q ⊛ q̇)_[k] / (k+1): the products accumulate in
      // lanes as the coefficients appear (no round trip through memory).
      // (lanes::sine_cosine_series, inlined here by hand: called here, it
      // compiled the 1-DoF trees' kernels to different code, and their speed
      // is kept by keeping their objects identical — docs/joint-kinds.md.)
      L cos_q{}, sin_q{};
      {
        cos_q[0] = trig.cosine[static_cast<std::size_t>(j)];
        sin_q[0] = trig.sine[static_cast<std::size_t>(j)];
        const L lane = lanes::lane_indices<S, W>();
        L sin_sum{}, cos_sum{};
        for (int k = 0; k < r; ++k) {
          sin_sum += cos_q[k] * qd_shift.row[k];
          cos_sum += sin_q[k] * qd_shift.row[k];
          const S next = S(k + 1);
          sin_q = lane == next ? inv[k + 1] * sin_sum[k] : sin_q;
          cos_q = lane == next ? -(inv[k + 1] * cos_sum[k]) : cos_q;
        }
      }
      lanes::store<W>(ws.slot(j, WS::kCos), cos_q);
      lanes::store<W>(ws.slot(j, WS::kSin), sin_q);
      const ShiftedLanes<S, W> c(cos_q, r), s(sin_q, r);
      // u = Ad_{X_j}⁻¹ v_p: the parent's offset twist, rotated by Rot(−q).
      const LaneV3<S, W> t_lin = pt.lin - cross_constant(d, pt.ang);
      const LaneV3<S, W> a_lin = pa.lin - cross_constant(d, pa.ang);
      t.ang = lanes::rotate<K, true>(e, c, s, pt.ang, r);
      t.lin = lanes::rotate<K, true>(e, c, s, t_lin, r);
      a.ang = lanes::rotate<K, true>(e, c, s, pa.ang, r);
      a.lin = lanes::rotate<K, true>(e, c, s, a_lin, r);
      if constexpr (is_helical(K)) {
        // X = T(d + h q e) Rot(e, q) (general axis): Ad_X⁻¹ also takes
        // h q ⊛ (e × u_ω) from the linear parts (Rot(−q) e = e).
        const V3<S> he = model.joint_pitch(j) * e;
        const ShiftedLanes<S, W> q_shift(joint_series(0), r);
        lanes::accumulate_axis_cross_product<K, true>(t.lin, he, q_shift, t.ang, r);
        lanes::accumulate_axis_cross_product<K, true>(a.lin, he, q_shift, a.ang, r);
      }
      // − q̇ ad_s u with s = (e; 0): (e × u_ω; e × u_v).
      lanes::accumulate_axis_cross_product<K, true>(a.ang, e, qd_shift, t.ang, r);
      lanes::accumulate_axis_cross_product<K, true>(a.lin, e, qd_shift, t.lin, r);
      if constexpr (is_helical(K)) {  // s = (e; h e): − q̇ ad_s u adds − h q̇ ⊛ (e × u_ω)
        const V3<S> he = model.joint_pitch(j) * e;
        lanes::accumulate_axis_cross_product<K, true>(a.lin, he, qd_shift, t.ang, r);
        lanes::add_along_axis<K>(he, qd, t.lin);
        lanes::add_along_axis<K>(he, qdd, a.lin);
      }
      lanes::add_along_axis<K>(e, qd, t.ang);
      lanes::add_along_axis<K>(e, qdd, a.ang);
    } else {
      static_assert(is_prismatic(K), "joint kind must be revolute, prismatic or helical");
      // X = T(d + e q): Ad_X⁻¹ w = (ω; v − d × ω − q (e × ω)).
      const L q = joint_series(0);
      const ShiftedLanes<S, W> q_shift(q, r);
      t.ang = pt.ang;
      t.lin = pt.lin - cross_constant(d, pt.ang);
      lanes::accumulate_axis_cross_product<K, true>(t.lin, e, q_shift, pt.ang, r);
      a.ang = pa.ang;
      a.lin = pa.lin - cross_constant(d, pa.ang);
      lanes::accumulate_axis_cross_product<K, true>(a.lin, e, q_shift, pa.ang, r);
      // − q̇ ad_s u with s = (0; e): (0; e × u_ω); u_ω = ω_p.
      lanes::accumulate_axis_cross_product<K, true>(a.lin, e, qd_shift, t.ang, r);
      lanes::add_along_axis<K>(e, qd, t.lin);
      lanes::add_along_axis<K>(e, qdd, a.lin);
    }
    lanes::store_sv<W>(ws, j, WS::kTwist, t);
    lanes::store_sv<W>(ws, j, WS::kAcceleration, a);
    lanes::store_sv<W>(ws, j, WS::kWrench,
                       lanes::body_wrench(joint_frame_inertia(model, j), t, a, r));
  });

  // ---- backward pass: τ = sᵀ f, parents collect Ad_X⁻ᵀ f ----
  for_each_joint_reverse<Tree>([&](auto kind, int j) {
    constexpr JointKind K = decltype(kind)::value;
    const int p = Tree::kParent[j];
    const V3<S> d = V3<S>::from(model.local_offset(j));
    const V3<S> e = V3<S>::from(model.joint_axis(j));
    const LaneSV<S, W> f = lanes::load_sv<W>(ws, j, WS::kWrench);
    LaneSV<S, W> w;
    L tau;
    const int entry = TreeTraits<Tree>::joint_entry(j);
    if constexpr (is_spherical(K)) {
      // τ = f_ang; Ad_X⁻ᵀ f = (R ⊛ f_ang; R ⊛ f_lin) moved by d.
      L rot[9];
      for (int i = 0; i < 9; ++i) rot[i] = lanes::load<W>(ws.slot(j, WS::kRotation + i));
      const auto rotate = [&](const LaneV3<S, W>& y) {  // R ⊛ y
        LaneV3<S, W> out;
        Lanes<S, W>* o[3] = {&out.x, &out.y, &out.z};
        for (int row = 0; row < 3; ++row) {
          add_product(*o[row], ShiftedLanes<S, W>(rot[3 * row], r), y.x, r);
          add_product(*o[row], ShiftedLanes<S, W>(rot[3 * row + 1], r), y.y, r);
          add_product(*o[row], ShiftedLanes<S, W>(rot[3 * row + 2], r), y.z, r);
        }
        return out;
      };
      w.ang = rotate(f.ang);
      w.lin = rotate(f.lin);
      w.ang += cross_constant(d, w.lin);
      LaneSV<S, W> pf = lanes::load_sv<W>(ws, p, WS::kWrench);
      pf.ang += w.ang;
      pf.lin += w.lin;
      lanes::store_sv<W>(ws, p, WS::kWrench, pf);
      for (int k = 0; k <= r; ++k) {
        data.joint_torque[k](entry) = f.ang.x[k];
        data.joint_torque[k](entry + 1) = f.ang.y[k];
        data.joint_torque[k](entry + 2) = f.ang.z[k];
      }
      return;
    } else if constexpr (is_universal(K)) {
      // f_m = Rot₂ ⊛ f (the intermediate frame's wrench), τ₁ = e₁ · f_m,ang,
      // τ₂ = e₂ · f_ang; the parent collects Rot₁ ⊛ f_m moved by d.
      constexpr JointKind R = JointKind::kRevolute;
      const V3<S> e2 = V3<S>::from(model.joint_second_axis(j));
      const ShiftedLanes<S, W> c2(lanes::load<W>(ws.slot(j, WS::kSecondCos)), r);
      const ShiftedLanes<S, W> s2(lanes::load<W>(ws.slot(j, WS::kSecondSin)), r);
      const LaneSV<S, W> fm{lanes::rotate<R, false>(e2, c2, s2, f.ang, r),
                            lanes::rotate<R, false>(e2, c2, s2, f.lin, r)};
      const L tau2 = lanes::axis_dot<R>(e2, f.ang);
      for (int k = 0; k <= r; ++k) data.joint_torque[k](entry + 1) = tau2[k];
      tau = lanes::axis_dot<R>(e, fm.ang);
      const ShiftedLanes<S, W> c(lanes::load<W>(ws.slot(j, WS::kCos)), r);
      const ShiftedLanes<S, W> s(lanes::load<W>(ws.slot(j, WS::kSin)), r);
      w.ang = lanes::rotate<R, false>(e, c, s, fm.ang, r);
      w.lin = lanes::rotate<R, false>(e, c, s, fm.lin, r);
    } else if constexpr (joint_rotates(K)) {
      tau = lanes::axis_dot<K>(e, f.ang);
      const ShiftedLanes<S, W> c(lanes::load<W>(ws.slot(j, WS::kCos)), r);
      const ShiftedLanes<S, W> s(lanes::load<W>(ws.slot(j, WS::kSin)), r);
      LaneV3<S, W> moment = f.ang;
      if constexpr (is_helical(K)) {
        // τ = (e; h e)ᵀ f; Ad_X⁻ᵀ f = Rot(q)(n + h q ⊛ (e × f); f) moved by d.
        const S h = model.joint_pitch(j);
        tau += h * lanes::axis_dot<K>(e, f.lin);
        const L q = lanes::gather<S, W>(
            [&](int m) { return inv_fact[m] * motion.q[static_cast<std::size_t>(m)](entry); }, r);
        lanes::accumulate_axis_cross_product<K, false>(moment, V3<S>(h * e),
                                                       ShiftedLanes<S, W>(q, r), f.lin, r);
      }
      w.ang = lanes::rotate<K, false>(e, c, s, moment, r);
      w.lin = lanes::rotate<K, false>(e, c, s, f.lin, r);
    } else {
      tau = lanes::axis_dot<K>(e, f.lin);
      const S sense = model.joint_sense(j);
      const L q = lanes::gather<S, W>(
          [&](int m) {
            return inv_fact[m] * (sense * motion.q[static_cast<std::size_t>(m)](entry));
          },
          r);
      const ShiftedLanes<S, W> q_shift(q, r);
      // Ad_X⁻ᵀ f with X = T(d + e q): (n + (d + e q) × f; f).
      w = f;
      lanes::accumulate_axis_cross_product<K, false>(w.ang, e, q_shift, f.lin, r);
    }
    w.ang += cross_constant(d, w.lin);
    LaneSV<S, W> pf = lanes::load_sv<W>(ws, p, WS::kWrench);
    pf.ang += w.ang;
    pf.lin += w.lin;
    lanes::store_sv<W>(ws, p, WS::kWrench, pf);
    const S tau_sense = model.joint_sense(j);  // τ_j = s_j τ_θ,j
    for (int k = 0; k <= r; ++k) data.joint_torque[k](entry) = tau_sense * tau[k];
  });

  // ---- results: Q₁^(k) = k! (Ad_{P₀}⁻ᵀ f₀)_[k], (Ad_C₁ᵀ Q₁)^(k) = k! Ad_{A⁰_0}ᵀ f₀,[k],
  //      τ^(k) = k! τ_[k] − τ_ext^(k) ----
  const LaneSV<S, W> f0 = lanes::load_sv<W>(ws, 0, WS::kWrench);
  const L scale = lanes::gather<S, W>([&](int k) { return factorial<S>(k); }, r);
  const LaneSV<S, W> world = lanes::wrench_to_world(base_frame.rotation, base_frame.origin, f0, r);
  // Ad_{A⁰_0}ᵀ f = (Rᵀ (n − p × f); Rᵀ f), a constant map: one lane operation per entry.
  const Pose<S>& a0 = model.home_pose(0);
  const auto& rt = a0.rotation;
  const LaneV3<S, W> n = f0.ang - cross_constant(V3<S>::from(a0.translation), f0.lin);
  const auto rotate_back = [&](const LaneV3<S, W>& v) -> LaneV3<S, W> {
    return lanewise(scale, LaneV3<S, W>{rt(0, 0) * v.x + rt(1, 0) * v.y + rt(2, 0) * v.z,
                                        rt(0, 1) * v.x + rt(1, 1) * v.y + rt(2, 1) * v.z,
                                        rt(0, 2) * v.x + rt(1, 2) * v.y + rt(2, 2) * v.z});
  };
  const LaneV3<S, W> body_n = rotate_back(n), body_f = rotate_back(f0.lin);
  const LaneV3<S, W> world_n = lanewise(scale, world.ang), world_f = lanewise(scale, world.lin);
  for (int k = 0; k <= r; ++k) {
    data.base_wrench[k] << world_n.x[k], world_n.y[k], world_n.z[k], world_f.x[k], world_f.y[k],
        world_f.z[k];
    data.base_wrench_body[k] << body_n.x[k], body_n.y[k], body_n.z[k], body_f.x[k], body_f.y[k],
        body_f.z[k];
    data.joint_torque[k] *= scale[k];
    if (ext_torque != nullptr) data.joint_torque[k] -= ext_torque->joint_torque[k];
  }
}

#endif  // HODYN_COEFFICIENT_LANES

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
