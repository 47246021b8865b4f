// hodyn/logarithm.hpp — logarithms of SO(3) and SE(3), the inverses of the
// exponentials in screw_exponential.hpp (attitude and pose errors of a
// controller are taken here, not with Euler angles).
//
//   so3_log(R) = w with R = exp([w]), |w| = θ ∈ [0, π]
//   se3_log(C) = (w; v) with C = exp([(w; v)]), i.e. p = V(w) v,
//                V = 1 + (1 − cos θ)/θ² [w] + (θ − sin θ)/θ³ [w]².
// The rotation angle comes from the unit quaternion of R (Shepperd's choice of
// the largest pivot), θ = 2 atan2(|q_v|, q_w) with q_w ≥ 0, which is accurate
// near 0 and near π alike; the small-angle limits use series.
#pragma once

#include <cmath>

#include "hodyn/pose.hpp"
#include "hodyn/scalar_traits.hpp"
#include "hodyn/spatial_algebra.hpp"

namespace hodyn {

/// The rotation vector w (axis · angle, angle in [0, π]) with exp([w]) = R.
/// R must be a rotation (validate it first, e.g. as the algorithms do).
template <class Scalar>
Vector3<Scalar> so3_log(const Matrix3<Scalar>& r) {
  using std::atan2;
  using std::sqrt;
  using Traits = ScalarTraits<Scalar>;
  // Unit quaternion (w, x, y, z) of R, pivoting on the largest of
  // 1 + tr R, 1 + 2 R_ii − tr R (Shepperd).
  const Scalar t = r(0, 0) + r(1, 1) + r(2, 2);
  Scalar qw, qx, qy, qz;
  const auto p = [](const Scalar& x) { return Traits::primal(x); };
  if (p(t) >= p(r(0, 0)) && p(t) >= p(r(1, 1)) && p(t) >= p(r(2, 2))) {
    const Scalar s = Scalar(2) * sqrt(Scalar(1) + t);
    qw = Scalar(0.25) * s;
    qx = (r(2, 1) - r(1, 2)) / s;
    qy = (r(0, 2) - r(2, 0)) / s;
    qz = (r(1, 0) - r(0, 1)) / s;
  } else if (p(r(0, 0)) >= p(r(1, 1)) && p(r(0, 0)) >= p(r(2, 2))) {
    const Scalar s = Scalar(2) * sqrt(Scalar(1) + r(0, 0) - r(1, 1) - r(2, 2));
    qw = (r(2, 1) - r(1, 2)) / s;
    qx = Scalar(0.25) * s;
    qy = (r(0, 1) + r(1, 0)) / s;
    qz = (r(0, 2) + r(2, 0)) / s;
  } else if (p(r(1, 1)) >= p(r(2, 2))) {
    const Scalar s = Scalar(2) * sqrt(Scalar(1) + r(1, 1) - r(0, 0) - r(2, 2));
    qw = (r(0, 2) - r(2, 0)) / s;
    qx = (r(0, 1) + r(1, 0)) / s;
    qy = Scalar(0.25) * s;
    qz = (r(1, 2) + r(2, 1)) / s;
  } else {
    const Scalar s = Scalar(2) * sqrt(Scalar(1) + r(2, 2) - r(0, 0) - r(1, 1));
    qw = (r(1, 0) - r(0, 1)) / s;
    qx = (r(0, 2) + r(2, 0)) / s;
    qy = (r(1, 2) + r(2, 1)) / s;
    qz = Scalar(0.25) * s;
  }
  if (p(qw) < 0) {  // the quaternion with q_w ≥ 0 gives θ ∈ [0, π]
    qw = -qw;
    qx = -qx;
    qy = -qy;
    qz = -qz;
  }
  const Vector3<Scalar> v(qx, qy, qz);
  const Scalar n = sqrt(v.squaredNorm());
  // θ / n with θ = 2 atan2(n, q_w); for small n, 2/q_w (1 − n²/(3 q_w²)).
  Scalar scale;
  using Primal = decltype(p(n));
  if (p(n) < Primal(1e-4) * p(qw)) {
    const Scalar ratio2 = v.squaredNorm() / (qw * qw);
    scale = Scalar(2) / qw * (Scalar(1) - ratio2 / Scalar(3));
  } else {
    scale = Scalar(2) * atan2(n, qw) / n;
  }
  return scale * v;
}

/// The twist Y = (w; v) with exp([Y]) = C (the inverse of the SE(3)
/// exponential; angle in [0, π]).
template <class Scalar>
Twist<Scalar> se3_log(const Pose<Scalar>& c) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  const Vector3<Scalar> w = so3_log(c.rotation);
  const Scalar theta2 = w.squaredNorm();
  const Scalar theta = sqrt(theta2);
  // V⁻¹ = 1 − ½[w] + β [w]²,  β = (1 − (θ/2) cot(θ/2)) / θ²
  //                               = 1/12 + θ²/720 + θ⁴/30240 + θ⁶/1209600 + …
  // The series below θ = 0.02 (next term < 1e-16 relative); above, the
  // cancellation in 1 − (θ/2)cot(θ/2) costs at most ~3e-12 of β.
  Scalar beta;
  using Primal = decltype(ScalarTraits<Scalar>::primal(theta));
  if (ScalarTraits<Scalar>::primal(theta) < Primal(0.02)) {
    beta = Scalar(1) / Scalar(12) +
           theta2 * (Scalar(1) / Scalar(720) +
                     theta2 * (Scalar(1) / Scalar(30240) + theta2 / Scalar(1209600)));
  } else {
    const Scalar half = Scalar(0.5) * theta;
    beta = (Scalar(1) - half * cos(half) / sin(half)) / theta2;
  }
  const Vector3<Scalar>& p = c.translation;
  const Vector3<Scalar> wp = w.cross(p);
  const Vector3<Scalar> v = p - Scalar(0.5) * wp + beta * w.cross(wp);
  return spatial_vector<Scalar>(w, v);
}

}  // namespace hodyn
