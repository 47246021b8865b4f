// hodyn/simulator/se3_exponential.hpp — exp: se(3) → SE(3) for any twist,
// accurate down to zero rotation (the integrator's per-step increments are
// rotations of 1e-4 rad and less).
//
// For u = (ω; v), θ = |ω| (the closed form of core/screw_exponential.hpp
// written for a non-unit ω):
//   R = I + a [ω] + b [ω]²,   p = (I + b [ω] + c [ω]²) v,
//   a = sin θ / θ,  b = (1 − cos θ)/θ² = 2 sin²(θ/2)/θ²,  c = (θ − sin θ)/θ³.
// screw_exponential(u/θ, θ) is the same map but divides v by θ and loses
// ~eps/θ of relative accuracy in p for small θ; here c uses its Taylor series
// below θ = 0.1 and nothing is divided by a small θ.
#pragma once

#include <cmath>

#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"

namespace hodyn::sim {

/// The coefficients a, b, c of exp for θ² = |ω|².
struct ExponentialCoefficients {
  double a;  ///< sin θ / θ
  double b;  ///< (1 − cos θ) / θ²
  double c;  ///< (θ − sin θ) / θ³
};

inline ExponentialCoefficients exponential_coefficients(double theta_squared) {
  const double t2 = theta_squared;
  ExponentialCoefficients k{};
  if (t2 < 1e-2) {  // θ < 0.1: Taylor series, next terms < 3e-16 relative
    k.a = 1.0 - t2 / 6.0 * (1.0 - t2 / 20.0 * (1.0 - t2 / 42.0 * (1.0 - t2 / 72.0)));
    k.b = 0.5 * (1.0 - t2 / 12.0 * (1.0 - t2 / 30.0 * (1.0 - t2 / 56.0 * (1.0 - t2 / 90.0))));
    k.c = (1.0 - t2 / 20.0 * (1.0 - t2 / 42.0 * (1.0 - t2 / 72.0 * (1.0 - t2 / 110.0)))) / 6.0;
    return k;
  }
  const double theta = std::sqrt(t2);
  const double s = std::sin(theta);
  const double half = std::sin(0.5 * theta) / theta;
  k.a = s / theta;
  k.b = 2.0 * half * half;
  k.c = (theta - s) / (t2 * theta);
  return k;
}

/// exp([ω]) ∈ SO(3).
inline Matrix3<double> so3_exponential(const Vector3<double>& w) {
  const ExponentialCoefficients k = exponential_coefficients(w.squaredNorm());
  const Matrix3<double> wx = skew<double>(w);
  return Matrix3<double>::Identity() + k.a * wx + k.b * (wx * wx);
}

/// exp([u]) ∈ SE(3) for the twist u = (ω; v).
inline Pose<double> se3_exponential(const Twist<double>& u) {
  const Vector3<double> w = angular(u);
  const Vector3<double> v = linear(u);
  const ExponentialCoefficients k = exponential_coefficients(w.squaredNorm());
  const Vector3<double> wv = w.cross(v);
  const Matrix3<double> wx = skew<double>(w);
  Pose<double> c;
  c.rotation = Matrix3<double>::Identity() + k.a * wx + k.b * (wx * wx);
  c.translation = v + k.b * wv + k.c * w.cross(wv);
  return c;
}

}  // namespace hodyn::sim
