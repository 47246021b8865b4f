// hodyn/detail/validation.hpp — input checks shared by the algorithms.
#pragma once

#include <cmath>

#include <Eigen/Core>

#include "hodyn/pose.hpp"
#include "hodyn/scalar_traits.hpp"

namespace hodyn::detail {

template <class Derived>
bool all_finite(const Eigen::MatrixBase<Derived>& x) {
  using Scalar = typename Derived::Scalar;
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!ScalarTraits<Scalar>::is_finite(x(i))) return false;
  return true;
}

/// ||RᵀR − I||_max within tolerance and det R > 0.
template <class Scalar>
bool is_rotation(const Matrix3<Scalar>& r) {
  using std::abs;
  using Traits = ScalarTraits<Scalar>;
  const Matrix3<Scalar> err = r.transpose() * r - Matrix3<Scalar>::Identity();
  for (int i = 0; i < 9; ++i)
    if (!(abs(Traits::primal(err(i))) <= Traits::orthonormality_tolerance())) return false;
  return Traits::primal(r.determinant()) > 0;
}

/// Finite pose with an orthonormal, right-handed rotation; the status says which check failed.
template <class Scalar>
Status check_pose(const Pose<Scalar>& c) {
  if (!all_finite(c.rotation) || !all_finite(c.translation)) return Status::kNonFiniteInput;
  if (!is_rotation(c.rotation)) return Status::kNonOrthonormalRotation;
  return Status::kOk;
}

}  // namespace hodyn::detail
