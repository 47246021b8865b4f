// hodyn/model.hpp — the run-time parameters of a compile-time tree.
//
// `Model<Tree, Scalar>` holds, in fixed-size storage, everything about a robot
// that can be re-identified without recompiling:
//   - the home pose A⁰_j of every body frame (world frame, home configuration:
//     all q = 0 and the base pose the identity),
//   - the constant spatial screw Y_j of every joint at home (world frame),
//   - the sense s_j = ±1 of every joint: +1 unless an axis-aligned kind was
//     given the negative axis (e.g. kRevoluteZ about (0, 0, −1)); the fast
//     paths then run on θ_j = s_j q_j about the positive axis, and the
//     algorithms convert at their boundary (q, q̇, … in; τ or q̈ out), so q and
//     τ stay positive about the axis as the user gave it,
//   - the spatial inertia of every body in its own frame,
//   - gravity.
// The setters check what they are given and keep the derived quantities the
// algorithms use (home centre of mass and inertia in the world, joint axis and
// axis point) consistent with the parameters. Like Pinocchio's Model, a Model
// is never modified by an algorithm; per-call workspaces are separate "Data"
// structs.
#pragma once

#include <array>
#include <cmath>
#include <type_traits>

#include <Eigen/Core>

#include "hodyn/pose.hpp"
#include "hodyn/scalar_traits.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/spatial_inertia.hpp"
#include "hodyn/status.hpp"
#include "hodyn/symmetric_matrix3.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {

template <class Tree, class Scalar = double>
class Model {
 public:
  using TreeType = Tree;
  using ScalarType = Scalar;
  static constexpr int kNumBodies = TreeTraits<Tree>::kNumBodies;
  static constexpr int kNumJoints = TreeTraits<Tree>::kNumJoints;
  static constexpr int kNumDofs = TreeTraits<Tree>::kNumDofs;
  /// Entries of the joint vectors: one per 1-DoF joint, three per ball.
  static constexpr int kNumJointDofs = TreeTraits<Tree>::kNumJointDofs;
  static constexpr int kNumUniversalJoints = TreeTraits<Tree>::kNumUniversalJoints;
  /// One entry per joint DoF (q, q̇, τ, …); joint j ≥ 1 starts at entry
  /// TreeTraits::joint_entry(j) (j − 1 when every joint has one DoF).
  using JointVector = Eigen::Matrix<Scalar, (kNumJointDofs > 0 ? kNumJointDofs : 1), 1>;

  /// A model with every body massless at the origin and every joint axis the
  /// coordinate axis of its kind (z for general kinds) through the origin; a
  /// ball's centre at the origin and its `joint_screw` zero (it has three,
  /// in the child's axes: docs/joint-kinds.md); a universal joint's axes
  /// e₁ = z, e₂ = x through the origin.
  Model() {
    for (int j = 1; j < kNumBodies; ++j) {
      const JointKind k = Tree::kJoint[j];
      const int axis = aligned_axis(k) >= 0 ? aligned_axis(k) : 2;
      Vector3<Scalar> e = Vector3<Scalar>::Zero();
      e(axis) = Scalar(1);
      screw_[j] = is_spherical(k) ? Twist<Scalar>(Twist<Scalar>::Zero())
                  : joint_rotates(k) || is_universal(k)
                      ? spatial_vector<Scalar>(e, Vector3<Scalar>::Zero())
                      : spatial_vector<Scalar>(Vector3<Scalar>::Zero(), e);
      axis_[j] = e;
      if constexpr (kNumUniversalJoints > 0) {
        const int u = TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)];
        if (u >= 0)
          second_axis_[static_cast<std::size_t>(u)] =
              Vector3<Scalar>(Scalar(1), Scalar(0), Scalar(0));
      }
    }
    gravity_ << Scalar(0), Scalar(0), Scalar(-9.81);
  }

  // ---- parameters -------------------------------------------------------

  /// Sets the home pose A⁰_j of body j's frame and its spatial inertia in that
  /// frame. Fails with kInvalidModel on a non-finite value, a negative mass, a
  /// rotational inertia about the centre of mass that is not symmetric positive
  /// semi-definite, or a home rotation that is not orthonormal.
  Status set_body(int j, const Pose<Scalar>& home_pose, const SpatialInertia<Scalar>& inertia) {
    if (j < 0 || j >= kNumBodies) return Status::kInvalidArgument;
    if (!pose_is_valid(home_pose) || !inertia_is_valid(inertia)) return Status::kInvalidModel;
    // A body j > 0 under the same home pose (bit for bit): only its
    // inertia-derived members change (the payload estimator's case, every
    // step); the joint frames, which depend on the poses alone, stay. (Not
    // the base: its pose members are first computed by a full update, and a
    // default-constructed model's identity home pose has not had one.)
    bool same_pose = false;
    if constexpr (std::is_floating_point<Scalar>::value)
      same_pose = j > 0 && home_pose.rotation == home_pose_[j].rotation &&
                  home_pose.translation == home_pose_[j].translation;
    home_pose_[j] = home_pose;
    inertia_[j] = inertia;
    if (same_pose)
      update_body_inertia(j);
    else
      update_body(j);
    return Status::kOk;
  }

  /// Sets the home screw Y_j of joint j ≥ 1 (not a ball: set_spherical_joint;
  /// not a universal joint: set_universal_joint): (e; a × e) for a
  /// revolute joint
  /// (|e| = 1, a on the axis), (0; e) for a prismatic one (|e| = 1),
  /// (e; a × e + h e) for a helical one of pitch h = e · v (|e| = 1). The screw
  /// must match the joint kind of the tree: an axis-aligned kind requires its
  /// own coordinate axis, in either direction — the negative one sets the
  /// joint's sense to −1 (joint_sense), so q and τ keep the sign of `e`.
  Status set_joint_screw(int j, const Twist<Scalar>& screw) {
    if (j < 1 || j >= kNumBodies) return Status::kInvalidArgument;
    if (is_spherical(Tree::kJoint[static_cast<std::size_t>(j)]) ||
        is_universal(Tree::kJoint[static_cast<std::size_t>(j)]))
      return Status::kInvalidModel;
    using Traits = ScalarTraits<Scalar>;
    for (int i = 0; i < 6; ++i)
      if (!Traits::is_finite(screw(i))) return Status::kInvalidModel;
    const JointKind kind = Tree::kJoint[j];
    const Vector3<Scalar> w = angular(screw);
    const Vector3<Scalar> v = linear(screw);
    const Vector3<Scalar> e = joint_rotates(kind) ? w : v;
    const auto tol = Traits::orthonormality_tolerance();
    if (abs_primal(e.squaredNorm() - Scalar(1)) > tol) return Status::kInvalidModel;
    if (is_revolute(kind) && abs_primal(w.dot(v)) > tol) return Status::kInvalidModel;  // no pitch
    if (is_prismatic(kind) && abs_primal(w.squaredNorm()) > tol) return Status::kInvalidModel;
    const int axis = aligned_axis(kind);
    Scalar sense(1);
    if (axis >= 0) {
      if (abs_primal(e(axis) + Scalar(1)) <= tol)
        sense = Scalar(-1);
      else if (abs_primal(e(axis) - Scalar(1)) > tol)
        return Status::kInvalidModel;
    }
    screw_[j] = screw;
    axis_[j] = e;
    if (axis >= 0) {  // exact unit axis, so the fast path and the screw agree
      axis_[j] = Vector3<Scalar>::Zero();
      axis_[j](axis) = Scalar(1);
      if (is_revolute(kind))
        angular(screw_[j]) = sense * axis_[j];
      else
        linear(screw_[j]) = sense * axis_[j];
    }
    sense_[j] = sense;
    pitch_[j] = is_helical(kind) ? Scalar(w.dot(v)) : Scalar(0);
    // The axis point a⊥ = e × (a × e) = e × v from the screw as given (e with
    // its sense; the pitch part h e of a helical v drops out of e × v).
    axis_point_[j] = joint_rotates(kind) ? Vector3<Scalar>((sense * axis_[j]).cross(v))
                                         : Vector3<Scalar>::Zero();
    update_body(j);
    return Status::kOk;
  }

  /// Revolute joint j about the unit `direction` through `point` (home, world).
  Status set_revolute_axis(int j, const Vector3<Scalar>& direction, const Vector3<Scalar>& point) {
    return set_joint_screw(j, spatial_vector<Scalar>(direction, point.cross(direction)));
  }
  /// Helical joint j about the unit `direction` through `point` (home, world),
  /// advancing `pitch` metres along `direction` per radian turned.
  Status set_helical_axis(int j, const Vector3<Scalar>& direction, const Vector3<Scalar>& point,
                          const Scalar& pitch) {
    if (j < 1 || j >= kNumBodies) return Status::kInvalidArgument;
    if (!is_helical(Tree::kJoint[static_cast<std::size_t>(j)])) return Status::kInvalidModel;
    return set_joint_screw(
        j, spatial_vector<Scalar>(direction,
                                  Vector3<Scalar>(point.cross(direction) + pitch * direction)));
  }
  /// Ball joint j with its centre at `centre` (home, world). Its rotation is
  /// the child's relative to its home orientation; ω is in the child's frame
  /// parallel to the world at home (docs/joint-kinds.md).
  Status set_spherical_joint(int j, const Vector3<Scalar>& centre) {
    if (j < 1 || j >= kNumBodies) return Status::kInvalidArgument;
    if (!is_spherical(Tree::kJoint[static_cast<std::size_t>(j)])) return Status::kInvalidModel;
    for (int i = 0; i < 3; ++i)
      if (!ScalarTraits<Scalar>::is_finite(centre(i))) return Status::kInvalidModel;
    axis_point_[j] = centre;
    update_body(j);
    return Status::kOk;
  }
  /// Universal joint j: a revolute sub-joint about the unit axis `first`
  /// (e₁), then one about the unit axis `second` (e₂), both through `point`
  /// (a; home, world). The joint is exp([Y₁]θ₁) exp([Y₂]θ₂), Y_i = (e_i; a × e_i):
  /// e₂ turns with the first rotation; q holds θ₁, θ₂ (radians, positive about
  /// the axes as given), τ the two torques. e₁ ⟂ e₂ is not required, but both
  /// must be unit (within the orthonormality tolerance) and not parallel
  /// (|e₁ × e₂| ≥ 1e-6), else kInvalidModel and nothing changes; a joint that
  /// is not universal: kInvalidModel; j out of range: kInvalidArgument. The
  /// child's joint frame has its origin at a and is parallel to the world at
  /// home (docs/joint-kinds.md, "The universal joint").
  Status set_universal_joint(int j, const Vector3<Scalar>& point, const Vector3<Scalar>& first,
                             const Vector3<Scalar>& second) {
    using Traits = ScalarTraits<Scalar>;
    if (j < 1 || j >= kNumBodies) return Status::kInvalidArgument;
    if (!is_universal(Tree::kJoint[static_cast<std::size_t>(j)])) return Status::kInvalidModel;
    for (int i = 0; i < 3; ++i)
      if (!Traits::is_finite(point(i)) || !Traits::is_finite(first(i)) ||
          !Traits::is_finite(second(i)))
        return Status::kInvalidModel;
    const auto tol = Traits::orthonormality_tolerance();
    if (abs_primal(first.squaredNorm() - Scalar(1)) > tol ||
        abs_primal(second.squaredNorm() - Scalar(1)) > tol)
      return Status::kInvalidModel;
    const auto sine2 = Traits::primal(first.cross(second).squaredNorm());  // sin² of the angle
    if (!(sine2 >= static_cast<decltype(sine2)>(1e-12))) return Status::kInvalidModel;
    if constexpr (kNumUniversalJoints > 0) {
      screw_[j] = spatial_vector<Scalar>(first, point.cross(first));
      axis_[j] = first;
      second_axis_[static_cast<std::size_t>(
          TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)])] = second;
      axis_point_[j] = point;
      update_body(j);
    }
    return Status::kOk;
  }
  /// Prismatic joint j along the unit `direction` (home, world).
  Status set_prismatic_axis(int j, const Vector3<Scalar>& direction) {
    return set_joint_screw(j, spatial_vector<Scalar>(Vector3<Scalar>::Zero(), direction));
  }

  /// Gravity as a linear acceleration in the world, e.g. (0, 0, −9.81); the
  /// gravity twist of seed 000 eq. 63 is G = (0, 0, 0, gravity).
  Status set_gravity(const Vector3<Scalar>& g) {
    for (int i = 0; i < 3; ++i)
      if (!ScalarTraits<Scalar>::is_finite(g(i))) return Status::kInvalidModel;
    gravity_ = g;
    return Status::kOk;
  }

  const Pose<Scalar>& home_pose(int j) const { return home_pose_[j]; }
  const SpatialInertia<Scalar>& body_inertia(int j) const { return inertia_[j]; }
  /// The home screw Y_j as set, with the joint's sense (V_j = V_p + Y_j q̇_j at home).
  const Twist<Scalar>& joint_screw(int j) const { return screw_[j]; }
  /// s_j = −1 when an axis-aligned joint was given its negative axis, else +1.
  const Scalar& joint_sense(int j) const { return sense_[j]; }
  /// Pitch h_j of a helical joint (metres per radian), 0 for every other kind.
  const Scalar& joint_pitch(int j) const { return pitch_[j]; }
  /// The second axis e₂ of universal joint j at home (world); `joint_axis(j)`
  /// is its first axis e₁ and `joint_screw(j)` its first screw Y₁. Only for a
  /// universal joint.
  const Vector3<Scalar>& joint_second_axis(int j) const {
    return second_axis_[static_cast<std::size_t>(
        TreeTraits<Tree>::kUniversalIndex[static_cast<std::size_t>(j)])];
  }
  /// The second home screw Y₂ = (e₂; a × e₂) of universal joint j (world).
  Twist<Scalar> joint_second_screw(int j) const {
    const Vector3<Scalar>& e2 = joint_second_axis(j);
    return spatial_vector<Scalar>(e2, axis_point_[j].cross(e2));
  }
  const Vector3<Scalar>& gravity() const { return gravity_; }
  Scalar total_mass() const {
    Scalar m(0);
    for (int j = 0; j < kNumBodies; ++j) m += inertia_[j].mass;
    return m;
  }

  // ---- derived quantities the algorithms read (kept in sync) ------------

  const Scalar& mass(int j) const { return inertia_[j].mass; }
  /// Centre of mass of body j at home, world frame.
  const Vector3<Scalar>& home_com(int j) const { return home_com_[j]; }
  /// Rotational inertia of body j about its centre of mass, world axes, at home.
  const SymmetricMatrix3<Scalar>& home_inertia(int j) const { return home_inertia_[j]; }
  /// Unit joint axis at home (revolute: rotation axis, prismatic: direction)
  /// the fast paths turn about: for an axis-aligned kind the positive
  /// coordinate axis, whatever the joint's sense.
  const Vector3<Scalar>& joint_axis(int j) const { return axis_[j]; }
  /// Point of the revolute or helical axis closest to the world origin, at
  /// home; a ball's centre, a universal joint's point a.
  const Vector3<Scalar>& joint_axis_point(int j) const { return axis_point_[j]; }
  /// Home centre of mass relative to the axis point (revolute) or to the origin.
  const Vector3<Scalar>& com_from_axis_point(int j) const { return com_from_axis_point_[j]; }
  /// Origin o_j of body j's joint frame at home (world): on the axis (revolute, helical),
  /// the parent's (prismatic), the world origin (base).
  const Vector3<Scalar>& local_origin(int j) const { return local_origin_[j]; }
  /// Origin of body j's joint frame relative to its parent's, at home (world axes).
  const Vector3<Scalar>& local_offset(int j) const { return local_offset_[j]; }
  /// Centre of mass of body j in its joint frame (world axes at home).
  const Vector3<Scalar>& local_com(int j) const { return local_com_[j]; }
  /// Body j's rotational inertia about its joint frame's origin (axes as
  /// local_com's), I_c + m ((c·c) 1 − c cᵀ) with c = local_com(j): the
  /// constant of the mass matrix's composite-rigid-body pass.
  const SymmetricMatrix3<Scalar>& joint_frame_inertia(int j) const {
    return joint_frame_inertia_[j];
  }
  /// (A⁰_0)⁻¹: F_0 = C_base (A⁰_0)⁻¹ (seed 000 Alg. 1, erratum E7).
  const Pose<Scalar>& base_home_pose_inverse() const { return base_home_inverse_; }
  /// A⁰_0 is exactly the identity (the usual base), so F_0 = C_base: the
  /// per-step pose product can be skipped. False when unknown.
  bool base_home_is_identity() const { return base_home_identity_; }

  /// The same model in another scalar type (float for Cortex-M4F, series in tests).
  template <class NewScalar>
  Model<Tree, NewScalar> cast() const {
    Model<Tree, NewScalar> m;
    m.gravity_ = gravity_.template cast<NewScalar>();
    m.base_home_inverse_ = base_home_inverse_.template cast<NewScalar>();
    m.base_home_identity_ = base_home_identity_;  // (0 and 1 cast exactly)
    for (int j = 0; j < kNumBodies; ++j) {
      m.home_pose_[j] = home_pose_[j].template cast<NewScalar>();
      m.inertia_[j] = inertia_[j].template cast<NewScalar>();
      m.screw_[j] = screw_[j].template cast<NewScalar>();
      m.sense_[j] = NewScalar(sense_[j]);
      m.pitch_[j] = NewScalar(pitch_[j]);
      m.axis_[j] = axis_[j].template cast<NewScalar>();
      m.axis_point_[j] = axis_point_[j].template cast<NewScalar>();
      m.home_com_[j] = home_com_[j].template cast<NewScalar>();
      m.com_from_axis_point_[j] = com_from_axis_point_[j].template cast<NewScalar>();
      m.home_inertia_[j] = home_inertia_[j].template cast<NewScalar>();
      m.local_origin_[j] = local_origin_[j].template cast<NewScalar>();
      m.local_offset_[j] = local_offset_[j].template cast<NewScalar>();
      m.local_com_[j] = local_com_[j].template cast<NewScalar>();
    }
    m.update_joint_frame_inertias();  // (from the cast members, in NewScalar)
    for (std::size_t u = 0; u < second_axis_.size(); ++u)
      m.second_axis_[u] = second_axis_[u].template cast<NewScalar>();
    return m;
  }

 private:
  template <class, class>
  friend class Model;

  /// Joints whose frame origin is a point of the joint (axis point, ball
  /// centre, a universal joint's point).
  static constexpr bool has_centre(JointKind k) {
    return joint_rotates(k) || is_spherical(k) || is_universal(k);
  }
  static std::array<Scalar, kNumBodies> ones() {
    std::array<Scalar, kNumBodies> a;
    for (auto& x : a) x = Scalar(1);
    return a;
  }
  static auto abs_primal(const Scalar& x) {
    using std::abs;
    return abs(ScalarTraits<Scalar>::primal(x));
  }
  static bool pose_is_valid(const Pose<Scalar>& c) {
    using Traits = ScalarTraits<Scalar>;
    for (int i = 0; i < 9; ++i)
      if (!Traits::is_finite(c.rotation(i))) return false;
    for (int i = 0; i < 3; ++i)
      if (!Traits::is_finite(c.translation(i))) return false;
    const Matrix3<Scalar> err = c.rotation.transpose() * c.rotation - Matrix3<Scalar>::Identity();
    for (int i = 0; i < 9; ++i)
      if (abs_primal(err(i)) > Traits::orthonormality_tolerance()) return false;
    return Traits::primal(c.rotation.determinant()) > 0;
  }
  static bool inertia_is_valid(const SpatialInertia<Scalar>& s) {
    using Traits = ScalarTraits<Scalar>;
    if (!Traits::is_finite(s.mass) || Traits::primal(s.mass) < 0) return false;
    for (int i = 0; i < 3; ++i)
      if (!Traits::is_finite(s.first_moment(i))) return false;
    for (int i = 0; i < 9; ++i)
      if (!Traits::is_finite(s.rotational_inertia(i))) return false;
    if (Traits::primal(s.mass) == 0 && s.first_moment.squaredNorm() != Scalar(0)) return false;
    const Matrix3<Scalar> ic = s.inertia_about_com();
    const auto scale = abs_primal(ic.trace()) + 1;
    const auto tol = Traits::orthonormality_tolerance() * scale;
    if (abs_primal(ic(0, 1) - ic(1, 0)) > tol || abs_primal(ic(0, 2) - ic(2, 0)) > tol ||
        abs_primal(ic(1, 2) - ic(2, 1)) > tol)
      return false;
    // Positive semi-definite: every principal minor ≥ 0 (within tolerance).
    for (int i = 0; i < 3; ++i)
      if (Traits::primal(ic(i, i)) < -tol) return false;
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b)
        if (Traits::primal(ic(a, a) * ic(b, b) - ic(a, b) * ic(b, a)) < -tol * scale) return false;
    return Traits::primal(ic.determinant()) >= -tol * scale * scale;
  }

  /// Body j's members derived from its inertia and home pose (not the joint
  /// frames: update_local_frames).
  void update_body_mass_properties(int j) {
    const Pose<Scalar>& a = home_pose_[j];
    home_com_[j] = a.act(inertia_[j].com());
    const Matrix3<Scalar> ic = inertia_[j].inertia_about_com();
    home_inertia_[j] = SymmetricMatrix3<Scalar>::from_matrix((ic + ic.transpose()) * Scalar(0.5))
                           .congruence(a.rotation);
    com_from_axis_point_[j] = (j > 0 && has_centre(Tree::kJoint[j]))
                                  ? Vector3<Scalar>(home_com_[j] - axis_point_[j])
                                  : home_com_[j];
  }
  /// A new inertia of body j under an unchanged home pose.
  void update_body_inertia(int j) {
    update_body_mass_properties(j);
    local_com_[j] = home_com_[j] - local_origin_[j];
    update_joint_frame_inertia(j);
  }
  void update_body(int j) {
    const Pose<Scalar>& a = home_pose_[j];
    update_body_mass_properties(j);
    if (j == 0) {
      base_home_inverse_ = a.inverse();
      if constexpr (std::is_floating_point<Scalar>::value)
        base_home_identity_ =
            a.rotation == Matrix3<Scalar>::Identity() && a.translation == Vector3<Scalar>::Zero();
      else  // (a cast model's flag must not outlive a new base pose)
        base_home_identity_ = false;
    }
    update_local_frames();
  }

  /// Body-fixed "joint frames" used by the body-frame recursions: origin o_j on
  /// joint j's axis (revolute), the parent's origin (prismatic), the world
  /// origin (base); axes parallel to the world at home.
  void update_local_frames() {
    for (int j = 0; j < kNumBodies; ++j) {
      const int p = Tree::kParent[j];
      const Vector3<Scalar> parent_origin = p < 0 ? Vector3<Scalar>::Zero() : local_origin_[p];
      local_origin_[j] = (j > 0 && has_centre(Tree::kJoint[j])) ? axis_point_[j] : parent_origin;
      local_offset_[j] = local_origin_[j] - parent_origin;
      local_com_[j] = home_com_[j] - local_origin_[j];
    }
    update_joint_frame_inertias();
  }
  void update_joint_frame_inertias() {
    for (int j = 0; j < kNumBodies; ++j) update_joint_frame_inertia(j);
  }
  void update_joint_frame_inertia(int j) {
    const Scalar m = inertia_[j].mass;
    const Vector3<Scalar>& c = local_com_[j];
    const Scalar cc = c.x() * c.x() + c.y() * c.y() + c.z() * c.z();
    const SymmetricMatrix3<Scalar>& ih = home_inertia_[j];
    joint_frame_inertia_[j] = {ih.xx + m * (cc - c.x() * c.x()), ih.yy + m * (cc - c.y() * c.y()),
                               ih.zz + m * (cc - c.z() * c.z()), ih.xy - m * c.x() * c.y(),
                               ih.xz - m * c.x() * c.z(),        ih.yz - m * c.y() * c.z()};
  }

  std::array<Pose<Scalar>, kNumBodies> home_pose_{};
  std::array<SpatialInertia<Scalar>, kNumBodies> inertia_{};
  std::array<Twist<Scalar>, kNumBodies> screw_{};
  std::array<Scalar, kNumBodies> sense_ = ones();
  std::array<Scalar, kNumBodies> pitch_{};
  Vector3<Scalar> gravity_ = Vector3<Scalar>::Zero();
  // derived
  std::array<Vector3<Scalar>, kNumBodies> axis_{};
  std::array<Vector3<Scalar>, kNumBodies> axis_point_{};
  std::array<Vector3<Scalar>, kNumBodies> home_com_{};
  std::array<Vector3<Scalar>, kNumBodies> com_from_axis_point_{};
  std::array<SymmetricMatrix3<Scalar>, kNumBodies> home_inertia_{};
  std::array<Vector3<Scalar>, kNumBodies> local_origin_{};
  std::array<Vector3<Scalar>, kNumBodies> local_offset_{};
  std::array<Vector3<Scalar>, kNumBodies> local_com_{};
  Pose<Scalar> base_home_inverse_{};
  bool base_home_identity_ = false;
  /// e₂ of every universal joint (TreeTraits::kUniversalIndex order; empty
  /// without one). Last, so that the members above keep their offsets (and
  /// the 1-DoF code its alignment) in a tree without a universal joint.
  std::array<Vector3<Scalar>, kNumUniversalJoints> second_axis_{};
  /// joint_frame_inertia(j) (after the others: their offsets stay).
  std::array<SymmetricMatrix3<Scalar>, kNumBodies> joint_frame_inertia_{};
};

}  // namespace hodyn
