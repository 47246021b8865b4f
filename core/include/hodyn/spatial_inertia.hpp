// hodyn/spatial_inertia.hpp — the rigid-body spatial inertia in structured form.
//
// Ten numbers: mass m, first moment h = m c (c: centre of mass), rotational
// inertia I about the frame's origin. With twists (ω; v) first-angular:
//
//   M = [ I     [h] ]        M V = ( I ω + h × v ;  m v − h × ω )
//       [ −[h]  m 1 ]
//
// `transformed(X)` re-expresses the inertia in the frame in which the pose X
// of its own frame is given: M' = Ad_X⁻ᵀ M Ad_X⁻¹ (seed 000 eq. 60), computed
// on the ten parameters instead of 6x6 products.
#pragma once

#include <Eigen/Core>

#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"

namespace hodyn {

template <class Scalar>
struct SpatialInertia {
  Scalar mass{0};
  Vector3<Scalar> first_moment = Vector3<Scalar>::Zero();          ///< h = m c
  Matrix3<Scalar> rotational_inertia = Matrix3<Scalar>::Zero();    ///< about the origin

  /// From mass, centre of mass c and the rotational inertia about the centre of
  /// mass (all in this frame): I = I_c − m [c]².
  static SpatialInertia from_mass_com_inertia(const Scalar& m, const Vector3<Scalar>& c,
                                              const Matrix3<Scalar>& inertia_about_com) {
    SpatialInertia s;
    s.mass = m;
    s.first_moment = m * c;
    const Matrix3<Scalar> cx = skew<Scalar>(c);
    s.rotational_inertia = inertia_about_com - m * (cx * cx);
    return s;
  }

  /// Centre of mass (the frame origin for a massless body).
  Vector3<Scalar> com() const {
    if (mass == Scalar(0)) return Vector3<Scalar>::Zero();
    return first_moment / mass;
  }
  /// Rotational inertia about the centre of mass, I_c = I + m [c]².
  Matrix3<Scalar> inertia_about_com() const {
    const Vector3<Scalar> c = com();
    const Matrix3<Scalar> cx = skew<Scalar>(c);
    return rotational_inertia + mass * (cx * cx);
  }

  /// Momentum M V.
  Wrench<Scalar> momentum(const Twist<Scalar>& v) const {
    return spatial_vector<Scalar>(
        rotational_inertia * angular(v) + first_moment.cross(linear(v)),
        mass * linear(v) - first_moment.cross(angular(v)));
  }

  /// The same inertia expressed in the frame where `x` is the pose of this one.
  SpatialInertia transformed(const Pose<Scalar>& x) const {
    SpatialInertia s;
    s.mass = mass;
    const Vector3<Scalar> rh = x.rotation * first_moment;
    const Vector3<Scalar>& p = x.translation;
    s.first_moment = rh + mass * p;
    // R I Rᵀ − ([Rh][p] + [p][Rh]) − m[p]²  ([a][b] + [b][a] = abᵀ + baᵀ − 2(a·b)1).
    const Matrix3<Scalar> cross_terms = rh * p.transpose() + p * rh.transpose() -
                                        Scalar(2) * rh.dot(p) * Matrix3<Scalar>::Identity();
    const Matrix3<Scalar> px = skew<Scalar>(p);
    s.rotational_inertia = x.rotation * rotational_inertia * x.rotation.transpose() -
                           cross_terms - mass * (px * px);
    return s;
  }

  /// The dense 6x6 matrix (tests, closed-form outputs).
  Matrix6<Scalar> matrix() const {
    Matrix6<Scalar> m;
    const Matrix3<Scalar> hx = skew<Scalar>(first_moment);
    m.template topLeftCorner<3, 3>() = rotational_inertia;
    m.template topRightCorner<3, 3>() = hx;
    m.template bottomLeftCorner<3, 3>() = -hx;
    m.template bottomRightCorner<3, 3>() = mass * Matrix3<Scalar>::Identity();
    return m;
  }

  template <class NewScalar>
  SpatialInertia<NewScalar> cast() const {
    SpatialInertia<NewScalar> s;
    s.mass = NewScalar(mass);
    s.first_moment = first_moment.template cast<NewScalar>();
    s.rotational_inertia = rotational_inertia.template cast<NewScalar>();
    return s;
  }
};

}  // namespace hodyn
