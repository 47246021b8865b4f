// hodyn/inertial_parameters.hpp — a body's spatial inertia as the ten numbers
// the dynamics are linear in (seed 004 Props. 1-2), and a model's as one vector.
//
// Per body, in its own frame (the frame of `Model::set_body`):
//   π = (m, h_x, h_y, h_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz)
// with m the mass, h = m c the first moment (c the centre of mass) and I the
// rotational inertia about the frame's origin. I_xy, I_xz, I_yz are entries of
// the 3x3 matrix (I_xy = I(0,1) = −∫ x y dm, URDF's `ixy`), not products of
// inertia. A model's vector stacks its bodies in tree order, body 0 (the base)
// first: 10 N numbers (docs/regressors.md).
#pragma once

#include <Eigen/Core>

#include "hodyn/model.hpp"
#include "hodyn/spatial_inertia.hpp"
#include "hodyn/status.hpp"

namespace hodyn {

template <class Scalar>
using BodyParameters = Eigen::Matrix<Scalar, 10, 1>;

template <class Tree, class Scalar = double>
using ModelParameters = Eigen::Matrix<Scalar, 10 * TreeTraits<Tree>::kNumBodies, 1>;

/// Index of I(row, col) in π (4 + one of I_xx, I_xy, I_yy, I_xz, I_yz, I_zz).
constexpr int inertia_parameter_index(int row, int col) {
  const int a = row < col ? row : col;
  const int b = row < col ? col : row;
  return 4 + (b == 0 ? 0 : b == 1 ? 1 + a : 3 + a);  // xx; xy, yy; xz, yz, zz
}

/// π of a spatial inertia (its rotational inertia symmetrized).
template <class Scalar>
BodyParameters<Scalar> to_parameters(const SpatialInertia<Scalar>& inertia) {
  BodyParameters<Scalar> p;
  const Matrix3<Scalar>& i = inertia.rotational_inertia;
  const Scalar half(0.5);
  p << inertia.mass, inertia.first_moment(0), inertia.first_moment(1), inertia.first_moment(2),
      i(0, 0), half * (i(0, 1) + i(1, 0)), i(1, 1), half * (i(0, 2) + i(2, 0)),
      half * (i(1, 2) + i(2, 1)), i(2, 2);
  return p;
}

/// The spatial inertia with parameters π (no check: any π, realisable or not).
template <class Scalar, class Derived>
SpatialInertia<Scalar> from_parameters(const Eigen::MatrixBase<Derived>& p) {
  SpatialInertia<Scalar> s;
  s.mass = p(0);
  s.first_moment << p(1), p(2), p(3);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) s.rotational_inertia(r, c) = p(inertia_parameter_index(r, c));
  return s;
}

/// The model's parameters, bodies 0..N−1 in tree order.
template <class Tree, class Scalar>
ModelParameters<Tree, Scalar> model_parameters(const Model<Tree, Scalar>& model) {
  ModelParameters<Tree, Scalar> p;
  for (int j = 0; j < TreeTraits<Tree>::kNumBodies; ++j)
    p.template segment<10>(10 * j) = to_parameters(model.body_inertia(j));
  return p;
}

/// Sets every body's inertia from π (home poses kept). Each body is checked as
/// `set_body` checks it (non-negative mass, rotational inertia about the centre
/// of mass positive semi-definite, a massless body without first moment); on
/// the first refused body the model is left unchanged and its status returned.
template <class Tree, class Scalar, class Derived>
Status set_model_parameters(Model<Tree, Scalar>& model, const Eigen::MatrixBase<Derived>& p) {
  constexpr int n = TreeTraits<Tree>::kNumBodies;
  static_assert(
      Derived::RowsAtCompileTime == 10 * n || Derived::RowsAtCompileTime == Eigen::Dynamic,
      "a model's parameter vector has 10 entries per body");
  if (p.rows() != 10 * n || p.cols() != 1) return Status::kInvalidArgument;
  Model<Tree, Scalar> updated = model;
  for (int j = 0; j < n; ++j) {
    const Status s = updated.set_body(j, model.home_pose(j),
                                      from_parameters<Scalar>(p.template segment<10>(10 * j)));
    if (s != Status::kOk) return s;
  }
  model = updated;
  return Status::kOk;
}

}  // namespace hodyn
