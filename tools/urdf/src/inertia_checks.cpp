// tools/urdf/src/inertia_checks.cpp — see inertia_checks.hpp.
#include "inertia_checks.hpp"

#include <Eigen/Eigenvalues>

#include <sstream>

namespace hodyn_urdf {

std::string inertia_problem(const Eigen::Matrix3d& inertia_about_com) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(inertia_about_com,
                                                              Eigen::EigenvaluesOnly);
  const Eigen::Vector3d l = solver.eigenvalues();  // ascending
  const double tol = kInertiaTolerance * inertia_about_com.diagonal().cwiseAbs().sum();
  std::ostringstream os;
  os << "inertia about the centre of mass";
  if (l(0) < -tol) {
    os << " is not positive semi-definite (principal moments " << l(0) << ", " << l(1) << ", "
       << l(2) << ")";
    return os.str();
  }
  if (l(0) + l(1) < l(2) - tol) {
    os << " violates the triangle inequality (principal moments " << l(0) << " + " << l(1) << " < "
       << l(2) << "; a rigid body has Ixx + Iyy >= Izz about any axes)";
    return os.str();
  }
  return {};
}

}  // namespace hodyn_urdf
