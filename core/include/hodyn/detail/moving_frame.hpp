// hodyn/detail/moving_frame.hpp — wrench Taylor coefficients between the world
// and a moving body frame C(t) = (R(t), x(t)) with spatial twist V(t).
//
//   world → frame:  W_b = Ad_Cᵀ W = (Rᵀ(n − x × f); Rᵀ f)
//   frame → world:  W   = Ad_C⁻ᵀ W_b = (R n_b + x × R f_b; R f_b)
// Their coefficients follow from R_[i] (Ṙ = [ω]R) and x_[i] (ẋ = v + ω × x) by
// Cauchy products: the direct form of seed 000 eqs. 69-70 and of the
// general-order Table 5(b). Both directions are incremental: coefficient k
// needs the frame coefficients 0..k (twist 0..k−1) and the wrench coefficients
// 0..k, so forward dynamics can call them order by order.
#pragma once

#include <array>
#include "hodyn/detail/isa.hpp"

#include "hodyn/detail/series_recursions.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/pose.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

template <int MaxOrder, class S>
struct MovingFrame {
  std::array<M3<S>, MaxOrder + 1> rotation{};  ///< R_[k]
  std::array<V3<S>, MaxOrder + 1> origin{};    ///< x_[k]
  std::array<V3<S>, MaxOrder + 1> force{};     ///< world force f_[k] (frame → world)
  std::array<V3<S>, MaxOrder + 1> moment{};    ///< (n − x × f)_[k] (world → frame)

  inline void start(const M3<S>& r, const V3<S>& x) {
    rotation[0] = r;
    origin[0] = x;
  }
  /// R_[k], x_[k] for k ≥ 1 from the frame's twist coefficients 0..k−1.
  template <std::size_t NT>
  HODYN_ALWAYS_INLINE void extend(int k, const std::array<SV<S>, NT>& twist) {
    rotation[k] = rotation_next_coefficient(k - 1, twist, rotation);
    origin[k] = point_next_coefficient(k - 1, twist, origin);
  }

  /// Coefficient k of the world wrench whose frame components have the
  /// coefficients wb[0..k]. Call for k = 0, 1, … in sequence.
  template <std::size_t NW>
  inline SV<S> to_world(int k, const std::array<SV<S>, NW>& wb) {
    V3<S> f{}, n{};
    for (int i = 0; i <= k; ++i) {
      f += rotation[i] * wb[k - i].lin;
      n += rotation[i] * wb[k - i].ang;
    }
    force[k] = f;
    for (int i = 0; i <= k; ++i) n += cross(origin[i], force[k - i]);
    return {n, f};
  }

  /// Coefficient k of the frame components of the world wrench with
  /// coefficients w[0..k]. Call for k = 0, 1, … in sequence.
  template <std::size_t NW>
  inline SV<S> to_frame(int k, const std::array<SV<S>, NW>& w) {
    V3<S> u = w[k].ang;
    for (int i = 0; i <= k; ++i) u -= cross(origin[i], w[k - i].lin);
    moment[k] = u;
    V3<S> top{}, bottom{};
    for (int i = 0; i <= k; ++i) {
      top += rotation[i].transpose_times(moment[k - i]);
      bottom += rotation[i].transpose_times(w[k - i].lin);
    }
    return {top, bottom};
  }
};

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
