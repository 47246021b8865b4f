// hodyn/models/aerial_manipulator.hpp — the 12-DoF aerial manipulator of seed 000 §7.
//
// A fully actuated TiltHex hexarotor base carrying two 3-joint arms
// (seed 000 Fig. 2, eqs. 27-30, Table 3). hodyn numbers bodies from 0:
//
//   body  paper  parent  joint            CoM at home (m)
//   0     B1     –       floating base    (0, 0, 0)
//   1     B2     0       revolute y       ( 0.09, 0, −0.16)
//   2     B3     1       revolute x       ( 0.09, 0, −0.28)
//   3     B4     2       revolute z       ( 0.09, 0, −0.40)
//   4     B5     0       revolute y       (−0.09, 0, −0.16)
//   5     B6     4       revolute x       (−0.09, 0, −0.28)
//   6     B7     5       revolute z       (−0.09, 0, −0.40)
//
// Every body frame sits at its centre of mass, aligned with the world at home
// (A⁰_1 = I). Joint j's axis passes through the top end of its link,
// A⁰_j (0, 0, d). Table 3: b = 0.10, d = 0.06, c = 0.18 m; base 2.5 kg,
// J = diag(0.03, 0.03, 0.05) kg m²; links 0.25 kg, diag(0.002, 0.002, 0.001);
// g = 9.81 m/s² (the paper leaves g out; see docs/aerial-manipulator.md).
#pragma once

#include <array>

#include "hodyn/model.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {

struct AerialManipulatorTree {
  static constexpr int kNumBodies = 7;
  static constexpr std::array<int, kNumBodies> kParent{-1, 0, 1, 2, 0, 4, 5};
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFloatingBase, JointKind::kRevoluteY, JointKind::kRevoluteX,
      JointKind::kRevoluteZ,    JointKind::kRevoluteY, JointKind::kRevoluteX,
      JointKind::kRevoluteZ};
};

/// Geometry and inertias of Table 3 (SI units).
struct AerialManipulatorParameters {
  double b = 0.10;  ///< base centre to the arm mounting plane (m)
  double d = 0.06;  ///< half link length (m)
  double c = 0.18;  ///< distance between the two arms (m)
  double base_mass = 2.5;
  std::array<double, 3> base_inertia{0.03, 0.03, 0.05};
  double link_mass = 0.25;
  std::array<double, 3> link_inertia{0.002, 0.002, 0.001};
  double gravity = 9.81;
};

template <class Scalar = double>
using AerialManipulatorModel = Model<AerialManipulatorTree, Scalar>;

/// Builds the aerial manipulator of seed 000 §7 from `p` (Table 3 by default).
/// Returns kInvalidModel for non-physical parameters and then leaves `out` unchanged.
template <class Scalar = double>
Status make_aerial_manipulator(AerialManipulatorModel<Scalar>& out,
                               const AerialManipulatorParameters& p = {}) {
  AerialManipulatorModel<Scalar> model;
  using V3 = Vector3<Scalar>;
  const auto diag = [](const std::array<double, 3>& d) {
    return V3(Scalar(d[0]), Scalar(d[1]), Scalar(d[2])).asDiagonal().toDenseMatrix();
  };
  Status s = model.set_gravity(V3(Scalar(0), Scalar(0), Scalar(-p.gravity)));
  if (s != Status::kOk) return s;
  s = model.set_body(0, Pose<Scalar>::identity(),
                     SpatialInertia<Scalar>::from_mass_com_inertia(Scalar(p.base_mass), V3::Zero(),
                                                                   diag(p.base_inertia)));
  if (s != Status::kOk) return s;
  const auto link = SpatialInertia<Scalar>::from_mass_com_inertia(Scalar(p.link_mass), V3::Zero(),
                                                                  diag(p.link_inertia));
  // Eq. 29: A^{B1}_{Bi} = T_z(−b−d) T_x((−1)^i c/2) for the first link of each arm,
  // A^{Bp}_{Bk} = T_z(−2d) down the arm; eq. 30: axes y, x, z.
  const V3 axes[3] = {V3::UnitY(), V3::UnitX(), V3::UnitZ()};
  for (int arm = 0; arm < 2; ++arm) {
    const double x = arm == 0 ? p.c / 2 : -p.c / 2;
    for (int link_index = 0; link_index < 3; ++link_index) {
      const int j = 1 + 3 * arm + link_index;
      const V3 com(Scalar(x), Scalar(0), Scalar(-p.b - p.d - 2 * p.d * link_index));
      s = model.set_body(j, Pose<Scalar>::from_translation(com), link);
      if (s != Status::kOk) return s;
      const V3 axis_point = com + V3(Scalar(0), Scalar(0), Scalar(p.d));
      s = model.set_revolute_axis(j, axes[link_index], axis_point);
      if (s != Status::kOk) return s;
    }
  }
  out = model;
  return Status::kOk;
}

}  // namespace hodyn
