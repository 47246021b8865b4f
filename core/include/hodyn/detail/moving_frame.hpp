// hodyn/detail/moving_frame.hpp — wrench derivatives between the world and a
// moving body frame C(t) = (R(t), x(t)) with spatial twist V(t).
//
//   world → frame:  W_b = Ad_Cᵀ W = (Rᵀ(n − x × f); Rᵀ f)
//   frame → world:  W   = Ad_C⁻ᵀ W_b = (R n_b + x × R f_b; R f_b)
// Their k-th time derivatives follow by Leibniz from R^(i) (Ṙ = [ω]R) and
// x^(i) (ẋ = v + ω × x): the direct form of seed 000 eqs. 69-70 and of the
// general-order Table 5(b), O(k) per order. Both directions are incremental:
// order k needs the frame derivatives 0..k (twist 0..k−1) and the wrench
// derivatives 0..k, so forward dynamics can call it order by order.
#pragma once

#include <array>

#include "hodyn/binomial.hpp"
#include "hodyn/detail/body_recursions.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"

namespace hodyn::detail {

template <int MaxOrder, class Scalar>
struct MovingFrame {
  std::array<Matrix3<Scalar>, MaxOrder + 1> rotation{};  ///< R^(k)
  std::array<Vector3<Scalar>, MaxOrder + 1> origin{};    ///< x^(k)
  std::array<Vector3<Scalar>, MaxOrder + 1> force{};     ///< world force f^(k)
  std::array<Vector3<Scalar>, MaxOrder + 1> moment{};    ///< (n − x × f)^(k), world → frame only

  void start(const Pose<Scalar>& c) {
    rotation[0] = c.rotation;
    origin[0] = c.translation;
  }
  /// R^(k), x^(k) for k ≥ 1 from the frame's twist derivatives 0..k−1.
  template <std::size_t NT>
  HODYN_ALWAYS_INLINE void extend(int k, const std::array<Twist<Scalar>, NT>& twist) {
    rotation[k] = rotation_next_derivative(k - 1, twist, rotation);
    origin[k] = point_next_derivative(k - 1, twist, origin);
  }

  /// k-th derivative of the world wrench whose frame components have the
  /// derivatives wb[0..k]. Call for k = 0, 1, … in sequence.
  template <std::size_t NW>
  HODYN_ALWAYS_INLINE Wrench<Scalar> to_world(int k, const std::array<Wrench<Scalar>, NW>& wb) {
    Vector3<Scalar> f = Vector3<Scalar>::Zero();
    Vector3<Scalar> n = Vector3<Scalar>::Zero();
    for (int i = 0; i <= k; ++i) {
      const Scalar c = binomial<Scalar>(k, i);
      f += c * (rotation[i] * linear(wb[k - i]));
      n += c * (rotation[i] * angular(wb[k - i]));
    }
    force[k] = f;
    for (int i = 0; i <= k; ++i) n += binomial<Scalar>(k, i) * origin[i].cross(force[k - i]);
    return spatial_vector<Scalar>(n, f);
  }

  /// k-th derivative of the frame components of the world wrench with
  /// derivatives w[0..k]. Call for k = 0, 1, … in sequence.
  template <std::size_t NW>
  HODYN_ALWAYS_INLINE Wrench<Scalar> to_frame(int k, const std::array<Wrench<Scalar>, NW>& w) {
    Vector3<Scalar> u = angular(w[k]);
    for (int i = 0; i <= k; ++i) u -= binomial<Scalar>(k, i) * origin[i].cross(linear(w[k - i]));
    moment[k] = u;
    Vector3<Scalar> top = Vector3<Scalar>::Zero();
    Vector3<Scalar> bottom = Vector3<Scalar>::Zero();
    for (int i = 0; i <= k; ++i) {
      const Scalar c = binomial<Scalar>(k, i);
      top += c * (rotation[i].transpose() * moment[k - i]);
      bottom += c * (rotation[i].transpose() * linear(w[k - i]));
    }
    return spatial_vector<Scalar>(top, bottom);
  }
};

}  // namespace hodyn::detail
