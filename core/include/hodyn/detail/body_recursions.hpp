// hodyn/detail/body_recursions.hpp — the per-body steps of the higher-order
// recursions (seed 000 Alg. 1-2, App. E), shared by inverse, forward and
// hybrid dynamics.
//
// Representation. Every body carries, in the world frame, its joint pose F_j,
// twist V_j^(k), joint screw S_j^(k), centre of mass c_j^(k) and rotational
// inertia about the centre of mass I_j^(k). This "centre-of-mass form" of the
// spatial inertia M⁰_j is equivalent to the paper's (61) but cheaper: with
//   ċ = v + ω × c,            İ = [ω]I − I[ω],
// the momentum Π = M⁰V = (I ω + m c × ċ ; m ċ) has the derivatives
//   Π^(k) = ( Σ_i C(k,i) I^(i) ω^(k−i) + m Σ_{i<k} C(k−1,i) c^(i) × c^(k+1−i) ;  m c^(k+1) ),
// so no 6x6 inertia derivative (61) and no 6x6 product is ever formed.
#pragma once

#include <array>
#include <cmath>

#include "hodyn/binomial.hpp"
#include "hodyn/detail/compile_time.hpp"
#include "hodyn/model.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/spatial_inertia.hpp"
#include "hodyn/symmetric_matrix3.hpp"
#include "hodyn/tree.hpp"

namespace hodyn::detail {

/// Kinematic and inertial derivatives of one body, orders 0..MaxOrder+1
/// (centre of mass to MaxOrder+2).
template <int MaxOrder, class Scalar>
struct BodyDerivatives {
  Pose<Scalar> joint_pose{};                                   ///< F_j (Alg. 1)
  std::array<Twist<Scalar>, MaxOrder + 2> twist{};             ///< V_j^(k)
  std::array<Twist<Scalar>, MaxOrder + 2> screw{};             ///< S_j^(k) (unused for the base)
  std::array<Vector3<Scalar>, MaxOrder + 3> com{};             ///< c_j^(k)
  std::array<SymmetricMatrix3<Scalar>, MaxOrder + 2> inertia{};  ///< I_j^(k) about the CoM
};

/// Rotation of the axis-aligned joint of kind K applied on the right:
/// returns R_parent · Rot(axis, q) by mixing two columns (12 products).
template <JointKind K, class Scalar>
HODYN_ALWAYS_INLINE Matrix3<Scalar> rotate_aligned(const Matrix3<Scalar>& rp, const Scalar& c, const Scalar& s) {
  constexpr int a = aligned_axis(K);
  constexpr int b = (a + 1) % 3;  // Rot(a, q) maps e_b → c e_b + s e_c, e_c → −s e_b + c e_c
  constexpr int d = (a + 2) % 3;
  Matrix3<Scalar> r;
  r.col(a) = rp.col(a);
  r.col(b) = c * rp.col(b) + s * rp.col(d);
  r.col(d) = c * rp.col(d) - s * rp.col(b);
  return r;
}

/// Order 0 of the base: F_0 = C₁ (A⁰_0)⁻¹, centre of mass and inertia in the world.
template <int MaxOrder, class Tree, class Scalar>
HODYN_ALWAYS_INLINE void place_base(const Model<Tree, Scalar>& model, const Pose<Scalar>& base_pose,
                BodyDerivatives<MaxOrder, Scalar>& b) {
  b.joint_pose = base_pose * model.base_home_pose_inverse();
  b.com[0] = b.joint_pose.act(model.home_com(0));
  b.inertia[0] = model.home_inertia(0).congruence(b.joint_pose.rotation);
}

/// Order 0 of body j: F_j = F_p exp([Y_j] q_j) (Alg. 1), S_j = Ad_{F_j} Y_j,
/// centre of mass F_j(c_home) and inertia R_F I_home R_Fᵀ.
template <JointKind K, int MaxOrder, class Tree, class Scalar>
HODYN_ALWAYS_INLINE void place_body(const Model<Tree, Scalar>& model, int j, const Pose<Scalar>& fp, const Scalar& q,
                BodyDerivatives<MaxOrder, Scalar>& b) {
  Pose<Scalar>& f = b.joint_pose;
  if constexpr (is_revolute(K)) {
    using std::cos;
    using std::sin;
    const Scalar c = cos(q);
    const Scalar s = sin(q);
    // The axis point does not move with the joint: its image under F_p is on the axis now.
    const Vector3<Scalar> a_world = fp.act(model.joint_axis_point(j));
    Vector3<Scalar> e_world;
    if constexpr (aligned_axis(K) >= 0) {
      f.rotation = rotate_aligned<K>(fp.rotation, c, s);
      e_world = fp.rotation.col(aligned_axis(K));
    } else {
      const Vector3<Scalar>& e = model.joint_axis(j);
      const Matrix3<Scalar> k = skew<Scalar>(e);
      const Matrix3<Scalar> rel = Matrix3<Scalar>::Identity() + s * k + (Scalar(1) - c) * (k * k);
      f.rotation = fp.rotation * rel;
      e_world = fp.rotation * e;
    }
    // p_F = a_world − R_F a  (F maps the home axis point a to a_world).
    f.translation = a_world - f.rotation * model.joint_axis_point(j);
    b.screw[0] = spatial_vector<Scalar>(e_world, a_world.cross(e_world));
    b.com[0] = f.rotation * model.com_from_axis_point(j) + a_world;
  } else {
    static_assert(is_prismatic(K), "joint kind must be revolute or prismatic");
    f.rotation = fp.rotation;
    Vector3<Scalar> e_world;
    if constexpr (aligned_axis(K) >= 0) {
      e_world = fp.rotation.col(aligned_axis(K));
    } else {
      e_world = fp.rotation * model.joint_axis(j);
    }
    f.translation = fp.translation + e_world * q;
    b.screw[0] = spatial_vector<Scalar>(Vector3<Scalar>::Zero(), e_world);
    b.com[0] = f.act(model.home_com(j));
  }
  b.inertia[0] = model.home_inertia(j).congruence(f.rotation);
}

/// S_j^(k) = Σ_{m<k} C(k−1,m) ad_{V_j^(m)} S_j^(k−1−m)   (Alg. 1), k ≥ 1.
template <JointKind K, int MaxOrder, class Scalar>
HODYN_ALWAYS_INLINE void screw_derivative(int k, BodyDerivatives<MaxOrder, Scalar>& b) {
  Twist<Scalar> s = Twist<Scalar>::Zero();
  for (int m = 0; m < k; ++m) {
    const Twist<Scalar>& v = b.twist[m];
    const Twist<Scalar>& x = b.screw[k - 1 - m];
    const Scalar c = binomial<Scalar>(k - 1, m);
    if constexpr (is_prismatic(K)) {  // angular part of every S^(i) stays zero
      linear(s) += c * angular(v).cross(linear(x));
    } else {
      s += c * ad<Scalar>(v, x);
    }
  }
  b.screw[k] = s;
}

/// V_j^(k) = V_p^(k) + Σ_{m≤k} C(k,m) S_j^(m) q_j^(k−m+1)   (Alg. 1).
/// `qd(i)` returns q_j^(i).
template <JointKind K, int MaxOrder, class Scalar, class JointDerivative>
HODYN_ALWAYS_INLINE void twist_derivative(int k, const Twist<Scalar>& parent_twist, const JointDerivative& qd,
                      BodyDerivatives<MaxOrder, Scalar>& b) {
  Twist<Scalar> v = parent_twist;
  for (int m = 0; m <= k; ++m) {
    const Scalar coeff = binomial<Scalar>(k, m) * qd(k - m + 1);
    if constexpr (is_prismatic(K)) {
      linear(v) += coeff * linear(b.screw[m]);
    } else {
      v += coeff * b.screw[m];
    }
  }
  b.twist[k] = v;
}

/// x^(k+1) = Σ_{i≤k} C(k,i) ω^(i) × x^(k−i) + v^(k): derivatives of a point
/// carried by a body with spatial twist derivatives `twist`.
template <class Scalar, std::size_t NT, std::size_t NX>
HODYN_ALWAYS_INLINE Vector3<Scalar> point_next_derivative(int k, const std::array<Twist<Scalar>, NT>& twist,
                                      const std::array<Vector3<Scalar>, NX>& x) {
  Vector3<Scalar> d = linear(twist[k]);
  for (int i = 0; i <= k; ++i) d += binomial<Scalar>(k, i) * angular(twist[i]).cross(x[k - i]);
  return d;
}

/// I^(k+1) = Σ_{i≤k} C(k,i) ([ω^(i)] I^(k−i) − I^(k−i) [ω^(i)])   (the CoM form of (61)).
template <int MaxOrder, class Scalar>
HODYN_ALWAYS_INLINE void inertia_next_derivative(int k, BodyDerivatives<MaxOrder, Scalar>& b) {
  SymmetricMatrix3<Scalar> d = b.inertia[k].skew_commutator(angular(b.twist[0]));
  for (int i = 1; i <= k; ++i)
    d += b.inertia[k - i].skew_commutator(angular(b.twist[i])) * binomial<Scalar>(k, i);
  b.inertia[k + 1] = d;
}

/// The body's own share of its joint wrench at order k (Alg. 2 before the
/// children are added): Π^(k+1) − W_grav^(k), with W_grav = M⁰G = (m c × g; m g)
/// (eqs. 62-64). Needs twist to k+1, com to k+2, inertia to k+1.
template <int MaxOrder, class Scalar>
HODYN_ALWAYS_INLINE Wrench<Scalar> momentum_rate_minus_gravity(int k, const Scalar& mass, const Vector3<Scalar>& g,
                                           const BodyDerivatives<MaxOrder, Scalar>& b) {
  // Rotational part l^(k+1) = Σ_{i≤k+1} C(k+1,i) I^(i) ω^(k+1−i).
  Vector3<Scalar> n = b.inertia[0] * Vector3<Scalar>(angular(b.twist[k + 1]));
  for (int i = 1; i <= k + 1; ++i)
    n += binomial<Scalar>(k + 1, i) * (b.inertia[i] * Vector3<Scalar>(angular(b.twist[k + 1 - i])));
  // Moment of the linear momentum: m Σ_{i≤k} C(k,i) c^(i) × c^(k+2−i), minus gravity's m c^(k) × g.
  Vector3<Scalar> lin_moment = b.com[k].cross(b.com[2] - g);
  for (int i = 0; i < k; ++i) lin_moment += binomial<Scalar>(k, i) * b.com[i].cross(b.com[k + 2 - i]);
  n += mass * lin_moment;
  Vector3<Scalar> f = mass * b.com[k + 2];
  if (k == 0) f -= mass * g;
  return spatial_vector<Scalar>(n, f);
}

/// Derivatives of the rotation R(t) of a body frame, Ṙ = [ω]R:
/// R^(k+1) = Σ_{i≤k} C(k,i) [ω^(i)] R^(k−i).
template <class Scalar, std::size_t NT, std::size_t NR>
HODYN_ALWAYS_INLINE Matrix3<Scalar> rotation_next_derivative(int k, const std::array<Twist<Scalar>, NT>& twist,
                                         const std::array<Matrix3<Scalar>, NR>& r) {
  Matrix3<Scalar> d = Matrix3<Scalar>::Zero();
  for (int i = 0; i <= k; ++i) {
    const Vector3<Scalar> w = angular(twist[i]);
    const Scalar c = binomial<Scalar>(k, i);
    for (int col = 0; col < 3; ++col) d.col(col) += c * w.cross(r[k - i].col(col));
  }
  return d;
}

/// The dense world-frame spatial inertia M⁰ of a body from its centre-of-mass form.
template <class Scalar>
Matrix6<Scalar> spatial_inertia_matrix(const Scalar& m, const Vector3<Scalar>& c,
                                       const SymmetricMatrix3<Scalar>& inertia) {
  return SpatialInertia<Scalar>::from_mass_com_inertia(m, c, inertia.matrix()).matrix();
}

}  // namespace hodyn::detail
