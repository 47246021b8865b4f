// Independent dense formulas of the Lie-group layer, typed in from the
// textbook (Murray-Li-Sastry with the angular part first) without the core:
// hat/vee maps, 4x4 homogeneous matrices, 6x6 adjoints, the matrix exponential
// summed as a power series, and small vector constructors. Tests check the
// core's structured algebra against these.
#pragma once

#include <hodyn/pose.hpp>

#include <Eigen/Core>

namespace hodyn {
namespace test {

// [w]: the 3x3 skew-symmetric matrix with [w] x = w × x.
inline Eigen::Matrix3d hat3(const Eigen::Vector3d& w) {
  Eigen::Matrix3d m;
  m << 0, -w(2), w(1), w(2), 0, -w(0), -w(1), w(0), 0;
  return m;
}

// [V] ∈ se(3) as a 4x4 matrix, V = (ω; v).
inline Eigen::Matrix4d hat6(const Eigen::Matrix<double, 6, 1>& v) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Zero();
  m.topLeftCorner<3, 3>() = hat3(v.head<3>());
  m.topRightCorner<3, 1>() = v.tail<3>();
  return m;
}

// The inverse of hat6 on se(3).
inline Eigen::Matrix<double, 6, 1> vee6(const Eigen::Matrix4d& m) {
  Eigen::Matrix<double, 6, 1> v;
  v << m(2, 1), m(0, 2), m(1, 0), m(0, 3), m(1, 3), m(2, 3);
  return v;
}

inline Eigen::Matrix4d homogeneous(const Pose<double>& c) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = c.rotation;
  m.topRightCorner<3, 1>() = c.translation;
  return m;
}

// Ad_C = [R 0; [p]R R] of a homogeneous matrix C = [R p; 0 1].
inline Eigen::Matrix<double, 6, 6> dense_Ad(const Eigen::Matrix4d& c) {
  const Eigen::Matrix3d r = c.topLeftCorner<3, 3>();
  const Eigen::Vector3d p = c.topRightCorner<3, 1>();
  Eigen::Matrix<double, 6, 6> m = Eigen::Matrix<double, 6, 6>::Zero();
  m.topLeftCorner<3, 3>() = r;
  m.bottomLeftCorner<3, 3>() = hat3(p) * r;
  m.bottomRightCorner<3, 3>() = r;
  return m;
}
inline Eigen::Matrix<double, 6, 6> dense_Ad(const Pose<double>& c) { return dense_Ad(homogeneous(c)); }

// ad_V = [[ω] 0; [v] [ω]].
inline Eigen::Matrix<double, 6, 6> dense_ad(const Eigen::Matrix<double, 6, 1>& v) {
  Eigen::Matrix<double, 6, 6> m = Eigen::Matrix<double, 6, 6>::Zero();
  m.topLeftCorner<3, 3>() = hat3(v.head<3>());
  m.bottomLeftCorner<3, 3>() = hat3(v.tail<3>());
  m.bottomRightCorner<3, 3>() = hat3(v.head<3>());
  return m;
}

// exp(X) of a 4x4 matrix by the power series summed to `terms` terms.
inline Eigen::Matrix4d expm_series(const Eigen::Matrix4d& x, int terms = 40) {
  Eigen::Matrix4d sum = Eigen::Matrix4d::Identity();
  Eigen::Matrix4d term = Eigen::Matrix4d::Identity();
  for (int k = 1; k <= terms; ++k) {
    term = term * x / static_cast<double>(k);
    sum += term;
  }
  return sum;
}

// (top; bottom) and (a, b, c, d, e, f) as 6-vectors.
inline Eigen::Matrix<double, 6, 1> v6(const Eigen::Vector3d& top, const Eigen::Vector3d& bottom) {
  Eigen::Matrix<double, 6, 1> v;
  v << top, bottom;
  return v;
}
inline Eigen::Matrix<double, 6, 1> v6(double a, double b, double c, double d, double e, double f) {
  Eigen::Matrix<double, 6, 1> v;
  v << a, b, c, d, e, f;
  return v;
}

}  // namespace test
}  // namespace hodyn
