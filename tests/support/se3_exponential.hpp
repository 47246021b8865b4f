// exp([ξ]) on SE(3) for any twist ξ = (ω; v), written for the tests (the core
// only needs the exponentials of unit joint screws): R = exp([ω]) by
// Eigen::AngleAxis, p = V(ω) v with V = 1 + (1 − cos t)/t² [ω] + (t − sin t)/t³ [ω]².
#pragma once

#include <hodyn/pose.hpp>
#include <hodyn/spatial_algebra.hpp>

#include <Eigen/Geometry>

#include <cmath>

namespace hodyn::test {

inline Pose<double> se3_exp(const Twist<double>& xi) {
  const Eigen::Vector3d w = xi.head<3>(), v = xi.tail<3>();
  const double t = w.norm();
  const Eigen::Matrix3d wx = skew<double>(w);
  Pose<double> c;
  if (t < 1e-8) {  // second order is exact to double precision here
    c.rotation = Eigen::Matrix3d::Identity() + wx + 0.5 * wx * wx;
    c.translation = v + 0.5 * wx * v;
    return c;
  }
  c.rotation = Eigen::AngleAxisd(t, w / t).toRotationMatrix();
  const Eigen::Matrix3d vm = Eigen::Matrix3d::Identity() + (1 - std::cos(t)) / (t * t) * wx +
                             (t - std::sin(t)) / (t * t * t) * wx * wx;
  c.translation = vm * v;
  return c;
}

}  // namespace hodyn::test
