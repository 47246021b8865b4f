// tools/urdf/src/robot_model.hpp — a URDF tree as hodyn bodies and joints.
//
// Bodies are numbered depth-first from the URDF root (body 0, the floating
// base, or with --fixed-base the root welded to the world), children in the document order of their
// joints; fixed joints are lumped into the parent. Body j's frame is the URDF frame of its link;
// poses, axes and points are in the world at home (q = 0, base pose = identity).
#pragma once

#include <hodyn/joint_limits.hpp>
#include <hodyn/tree.hpp>

#include "urdf_document.hpp"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace hodyn_urdf {

/// Largest tree hodyn-urdf generates: kUnrollBodiesUpTo of hodyn/tree.hpp, the
/// largest tree whose body loops hodyn unrolls with every joint kind a
/// compile-time constant (larger trees would compile, but run the slower
/// switch-per-body loops). The dense closed forms of equations_of_motion.hpp
/// take up to 64 DoF, i.e. 59 bodies.
inline constexpr int kMaxBodies = hodyn::kUnrollBodiesUpTo;

/// Axis components within this of ±1 / 0 give an axis-aligned joint kind.
inline constexpr double kAlignedAxisTolerance = 1e-9;

struct RobotBody {
  std::string link;  ///< the URDF link whose frame is the body frame
  int parent = -1;
  hodyn::JointKind kind = hodyn::JointKind::kFloatingBase;
  Transform home;  ///< A⁰_j: body frame in the world at home
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      ///< body frame
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the CoM, body axes
  std::vector<std::string> lumped_links;              ///< merged in by fixed joints
  // The joint that moves this body (bodies j ≥ 1):
  std::string joint;
  Eigen::Vector3d axis =
      Eigen::Vector3d::Zero();  ///< unit, world at home (±1 exact if aligned); zero for a ball
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< revolute, helical: the link origin; a
                                                    ///< ball: its centre; world at home
  double pitch = 0;  ///< helical: metres along `axis` per radian turned (--helical); else 0
  /// A universal joint (--universal): its second axis e₂ (unit, world at home;
  /// `axis` is e₁ and `point` the axes' intersection); zero for every other kind.
  Eigen::Vector3d second_axis = Eigen::Vector3d::Zero();
  hodyn::JointLimits limits;
  /// The URDF joints a collapsed chain replaces, J1 (= `joint`) first: a ball's
  /// three (--spherical), a universal joint's two (--universal); empty otherwise.
  std::vector<std::string> urdf_joints;
};

/// --helical JOINT=PITCH: a URDF revolute or continuous joint that hodyn-urdf
/// makes a JointKind::kHelical joint (URDF has no screw joint).
struct HelicalJoint {
  std::string joint;  ///< the URDF joint's name
  double pitch = 0;   ///< metres per radian, finite and non-zero; the sign is the handedness
};

/// --spherical J1,J2,J3: a chain of three revolute or continuous URDF joints
/// with intersecting axes and massless links between them that hodyn-urdf
/// makes one JointKind::kSpherical joint (URDF has no ball joint).
struct SphericalJoint {
  std::array<std::string, 3> joints;  ///< J1 (on the parent link), J2, J3 (moves the child)
};

/// The axes of a --spherical chain must pass within this distance (m) of
/// their common point (the least-squares point of the three lines).
inline constexpr double kBallAxesMeetTolerance = 1e-9;
/// |det[e1 e2 e3]| of the three unit axes at home must exceed this (they span 3D).
inline constexpr double kBallAxesSpanTolerance = 1e-6;

/// --universal J1,J2: two revolute or continuous URDF joints, J1 → J2, with
/// intersecting, non-parallel axes and a massless link between them that
/// hodyn-urdf makes one JointKind::kUniversal joint (URDF has no Cardan joint).
struct UniversalJoint {
  std::array<std::string, 2> joints;  ///< J1 (on the parent link, axis e₁), J2 (moves the child)
};

/// The axes of a --universal pair must pass within this distance (m) of their
/// common point (the point nearest to both lines), as a ball's must.
inline constexpr double kUniversalAxesMeetTolerance = kBallAxesMeetTolerance;
/// |e₁ × e₂| of the two unit axes at home must exceed this (not parallel;
/// Model::set_universal_joint refuses |e₁ × e₂|² < 1e-12).
inline constexpr double kUniversalAxesParallelTolerance = 1e-6;

/// A URDF link: the body it belongs to and its frame in that body's frame
/// (identity for the body's own link; the composed fixed origins for a lumped one).
struct LinkFrame {
  std::string name;
  int body = 0;
  Transform in_body;
};

struct RobotModel {
  std::string robot_name;  ///< <robot name="...">
  std::string root;        ///< the root link, body 0
  std::vector<RobotBody> bodies;
  /// Every link in document order.
  std::vector<LinkFrame> links;
  std::vector<std::string> lumped_links;  ///< in body order
  double total_mass = 0;
  /// The root welded to the world at its home pose (JointKind::kFixedBase), not floating.
  bool fixed_base = false;

  int num_joints() const { return static_cast<int>(bodies.size()) - 1; }
  /// Ball joints (--spherical).
  int num_balls() const {
    int n = 0;
    for (const RobotBody& b : bodies) n += hodyn::is_spherical(b.kind) ? 1 : 0;
    return n;
  }
  /// Universal joints (--universal).
  int num_universals() const {
    int n = 0;
    for (const RobotBody& b : bodies) n += hodyn::is_universal(b.kind) ? 1 : 0;
    return n;
  }
  /// Entries of q̇ (a ball has three, a universal joint two).
  int num_joint_dofs() const { return num_joints() + 2 * num_balls() + num_universals(); }
  /// Entries of ν: (V₁; q̇) for a floating base, q̇ for a fixed one.
  int num_dofs() const { return (fixed_base ? 0 : 6) + num_joint_dofs(); }
};

/// Builds the hodyn bodies of `doc`. `requested_root` (may be empty) must be
/// the URDF's root; `fixed_base` welds it to the world (a fixed-base arm);
/// each of `helical` turns its revolute or continuous joint into a helical one
/// about the same axis through the same point. Throws ToolError for a tree
/// hodyn cannot represent or whose dynamics are singular, and for a `helical`
/// entry that names no joint of `doc`, a joint that is neither revolute nor
/// continuous, a pitch that is not finite and non-zero, or a joint named twice.
/// Each of `spherical` collapses its chain J1 → J2 → J3 into one ball joint
/// about the axes' intersection, moving J3's child link; the two links between
/// them disappear. Throws ToolError (naming the option and the joint or link)
/// for an unknown joint, a joint that is neither revolute nor continuous, a
/// joint named twice (in any --spherical or --helical), joints that are not a
/// chain, an intermediate link with mass, inertia or another child joint, axes
/// that do not span 3D or do not meet in one point.
/// Each of `universal` collapses its pair J1 → J2 into one universal joint
/// about J1's axis e₁ then J2's axis e₂ through their intersection, moving
/// J2's child link; the link between them disappears. Throws ToolError for the
/// same faults (a joint named twice across --spherical and --universal too),
/// axes that are parallel or do not meet.
RobotModel build_robot(const UrdfDocument& doc, const std::string& requested_root,
                       bool fixed_base = false, const std::vector<HelicalJoint>& helical = {},
                       const std::vector<SphericalJoint>& spherical = {},
                       const std::vector<UniversalJoint>& universal = {});

/// The joint kind's name in the JSON files ("floating_base", "revolute_x", …).
const char* kind_name(hodyn::JointKind kind);
/// The enumerator's spelling in C++ ("kRevoluteX", …).
const char* kind_enumerator(hodyn::JointKind kind);

}  // namespace hodyn_urdf
