// tools/urdf/src/urdf_document.hpp — a URDF file read into plain values.
//
// urdfdom parses the values (origins, axes, inertials, limits); it keeps links
// and joints in maps sorted by name, so the document order of the joints — which
// fixes hodyn's body numbering — is read from the XML itself with TinyXML (the
// XML library urdfdom is built on, libtinyxml-dev). Structural checks that
// urdfdom does not make (a link with two parents, cycles, unsupported joint
// types) are made here; every failure is a one-line ToolError.
#pragma once

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace hodyn_urdf {

/// A rigid transform given by a URDF <origin> (R = Rz(yaw) Ry(pitch) Rx(roll)).
struct Transform {
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();

  Transform operator*(const Transform& other) const {
    return {rotation * other.rotation, rotation * other.translation + translation};
  }
};

/// <inertial>: mass, centre of mass and inertia about it, in the link frame.
struct UrdfInertial {
  double mass = 0;
  Transform frame;                                    ///< the inertial frame in the link frame
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the CoM, inertial-frame axes
};

struct UrdfLink {
  std::string name;
  std::optional<UrdfInertial> inertial;  ///< none: a massless link
};

enum class UrdfJointType { kRevolute, kContinuous, kPrismatic, kFixed };

struct UrdfLimits {
  bool given = false;  ///< a <limit> element is present
  double lower = 0, upper = 0, velocity = 0, effort = 0;
};

struct UrdfJoint {
  std::string name;
  UrdfJointType type = UrdfJointType::kFixed;
  std::string parent, child;
  Transform origin;                                 ///< child link frame in the parent link frame
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();  ///< in the child (joint) frame, as written
  UrdfLimits limits;
};

/// A URDF tree: links in document order, joints in document order.
struct UrdfDocument {
  std::string robot_name;
  std::string root;  ///< the one link without a parent joint
  std::vector<UrdfLink> links;
  std::vector<UrdfJoint> joints;

  const UrdfLink& link(const std::string& name) const;
};

/// Reads and checks `path`; throws ToolError naming the culprit on bad input.
UrdfDocument read_urdf(const std::string& path);

/// The same for URDF text in memory; `origin` (the file's path) names it in
/// messages. read_urdf is this on the file's bytes.
UrdfDocument parse_urdf(const std::string& text, const std::string& origin);

}  // namespace hodyn_urdf
