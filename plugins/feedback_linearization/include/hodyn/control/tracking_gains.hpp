// hodyn/control/tracking_gains.hpp — gains of the linear error dynamics that
// feedback linearization imposes on each output (one group per output kind).
//
// Every output y (a base position axis, an attitude error axis, a joint angle)
// has relative degree 4; the controller commands its snap as
//   y⁗ = y⁗_d + k3 e⃛ + k2 ë + k1 ė + k0 e + ki ∫e,   e = y_d − y,
// so the error obeys e⁗ + k3 e⃛ + k2 ë + k1 ė + k0 e + ki ∫e = 0. The integral
// term rejects constant model errors (a mass off by 10 %, a payload).
#pragma once

namespace hodyn {
namespace control {

struct TrackingGains {
  double k0 = 0.0;  ///< on e (1/s⁴)
  double k1 = 0.0;  ///< on ė (1/s³)
  double k2 = 0.0;  ///< on ë (1/s²)
  double k3 = 0.0;  ///< on e⃛ (1/s)
  double ki = 0.0;  ///< on ∫e (1/s⁵)

  /// All closed-loop poles at −λ: (s + λ)⁵ with the integral, (s + λ)⁴ without.
  static TrackingGains from_bandwidth(double lambda, bool integral) {
    TrackingGains g;
    const double l2 = lambda * lambda, l3 = l2 * lambda, l4 = l3 * lambda;
    if (integral) {
      g.k3 = 5.0 * lambda;
      g.k2 = 10.0 * l2;
      g.k1 = 10.0 * l3;
      g.k0 = 5.0 * l4;
      g.ki = l4 * lambda;
    } else {
      g.k3 = 4.0 * lambda;
      g.k2 = 6.0 * l2;
      g.k1 = 4.0 * l3;
      g.k0 = l4;
    }
    return g;
  }

  bool valid() const {
    // Routh–Hurwitz is left to the user; here: finite and non-negative.
    const double all[5] = {k0, k1, k2, k3, ki};
    for (double v : all)
      if (!(v >= 0.0) || v > 1.0e12) return false;
    return k0 > 0.0 && k1 > 0.0 && k2 > 0.0 && k3 > 0.0;
  }
};

}  // namespace control
}  // namespace hodyn
