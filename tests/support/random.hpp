// Seeded random test data for the unit tests: N(0, 1) scalars and vectors,
// unit vectors, uniformly distributed rotations, poses and physical rotational
// inertias, all drawn from one std::mt19937 so that a test's data depend only
// on its seed and the order of the calls.
#pragma once

#include <hodyn/pose.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <random>

namespace hodyn {
namespace test {

class Rng {
 public:
  explicit Rng(unsigned seed) : gen_(seed) {}

  double normal() { return normal_(gen_); }
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen_); }
  Eigen::Vector3d vec3() { return Eigen::Vector3d(normal(), normal(), normal()); }
  Eigen::Matrix<double, 6, 1> vec6() {
    Eigen::Matrix<double, 6, 1> v;
    for (int i = 0; i < 6; ++i) v(i) = normal();
    return v;
  }
  Eigen::Vector3d unit3() { return vec3().normalized(); }
  Eigen::Matrix3d rotation() {
    // Uniform random unit quaternion from four Gaussians.
    Eigen::Quaterniond q(normal(), normal(), normal(), normal());
    q.normalize();
    return q.toRotationMatrix();
  }
  // Random rotation, translation scale · N(0, 1)³.
  Pose<double> pose(double scale = 1.0) {
    Pose<double> c;
    c.rotation = rotation();
    c.translation = scale * vec3();
    return c;
  }
  // A physical rotational inertia about the CoM: scale · R diag(principal) Rᵀ
  // with principal moments satisfying the triangle inequality.
  Eigen::Matrix3d inertia_about_com(double scale = 1.0) {
    const double a = uniform(0.1, 1.0), b = uniform(0.1, 1.0), c = uniform(0.1, 1.0);
    const Eigen::Vector3d principal(b + c, a + c, a + b);
    const Eigen::Matrix3d r = rotation();
    return scale * r * principal.asDiagonal() * r.transpose();
  }

 private:
  std::mt19937 gen_;
  std::normal_distribution<double> normal_{0.0, 1.0};
};

}  // namespace test
}  // namespace hodyn
