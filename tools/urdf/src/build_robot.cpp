// tools/urdf/src/build_robot.cpp — UrdfDocument → RobotModel (see robot_model.hpp).
#include "robot_model.hpp"

#include <hodyn/urdf/robot_json.hpp>

#include "articulated_check.hpp"
#include "tool_error.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <sstream>

namespace hodyn_urdf {

namespace {

/// A point mass distribution in body coordinates: mass, CoM, inertia about the CoM.
struct MassPart {
  double mass;
  Eigen::Vector3d com;
  Eigen::Matrix3d inertia;
};

/// Lumps rigidly attached parts exactly: m = Σ mᵢ, c = Σ mᵢ cᵢ / m and, by the
/// parallel-axis theorem, I_c = Σ (Iᵢ + mᵢ (|dᵢ|² 1 − dᵢ dᵢᵀ)), dᵢ = cᵢ − c.
MassPart lump(const std::vector<MassPart>& parts) {
  MassPart total{0, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Zero()};
  for (const MassPart& p : parts) {
    total.mass += p.mass;
    total.com += p.mass * p.com;
  }
  if (total.mass > 0)
    total.com /= total.mass;
  else
    total.com.setZero();  // massless: no centre of mass, keep the frame origin
  for (const MassPart& p : parts) {
    const Eigen::Vector3d d = p.com - total.com;
    total.inertia +=
        p.inertia + p.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  total.inertia = 0.5 * (total.inertia + total.inertia.transpose());
  return total;
}

class Builder {
 public:
  Builder(const UrdfDocument& doc, const std::map<std::string, double>& helical_pitches)
      : doc_(doc), helical_pitches_(helical_pitches) {
    for (const UrdfJoint& j : doc.joints) children_[j.parent].push_back(&j);
    for (const UrdfLink& l : doc.links) links_[l.name] = &l;
  }

  RobotModel build() {
    count_bodies();
    model_.robot_name = doc_.robot_name;
    model_.root = doc_.root;
    model_.bodies.emplace_back();
    model_.bodies[0].link = doc_.root;
    parts_.emplace_back();
    visit(doc_.root, 0, Transform{});
    for (std::size_t j = 0; j < model_.bodies.size(); ++j) {
      RobotBody& b = model_.bodies[j];
      const MassPart m = lump(parts_[j]);
      b.mass = m.mass;
      b.com = m.com;
      b.inertia = m.inertia;
      model_.total_mass += m.mass;
      for (const std::string& l : b.lumped_links) model_.lumped_links.push_back(l);
    }
    for (const UrdfLink& l : doc_.links) model_.links.push_back(frame_of_.at(l.name));
    return model_;
  }

 private:
  /// Refuses a tree above kMaxBodies before anything is built.
  void count_bodies() const {
    int bodies = 1;
    for (const UrdfJoint& j : doc_.joints)
      if (j.type != UrdfJointType::kFixed) ++bodies;
    if (bodies > kMaxBodies)
      throw ToolError("the robot has " + std::to_string(bodies) +
                      " bodies (the root and one per movable joint); hodyn-urdf generates at "
                      "most " +
                      std::to_string(kMaxBodies));
  }

  /// Adds `link` (at `in_body` in body `body`'s frame) and, depth-first in
  /// document order, everything below it.
  void visit(const std::string& link_name, int body, const Transform& in_body) {
    frame_of_[link_name] = LinkFrame{link_name, body, in_body};
    RobotBody& b = model_.bodies[static_cast<std::size_t>(body)];
    if (b.link != link_name) b.lumped_links.push_back(link_name);
    const UrdfLink& link = *links_.at(link_name);
    if (link.inertial) {
      const UrdfInertial& i = *link.inertial;
      const Transform frame = in_body * i.frame;  // inertial frame in the body frame
      parts_[static_cast<std::size_t>(body)].push_back(
          {i.mass, frame.translation, frame.rotation * i.inertia * frame.rotation.transpose()});
    }
    for (const UrdfJoint* joint : children_[link_name]) {
      const Transform child_in_body = in_body * joint->origin;
      if (joint->type == UrdfJointType::kFixed) {
        visit(joint->child, body, child_in_body);
        continue;
      }
      const int child = static_cast<int>(model_.bodies.size());
      RobotBody c;
      c.link = joint->child;
      c.parent = body;
      c.home = model_.bodies[static_cast<std::size_t>(body)].home * child_in_body;
      const auto helical = helical_pitches_.find(joint->name);
      set_joint(*joint, helical == helical_pitches_.end() ? 0.0 : helical->second, c);
      model_.bodies.push_back(c);
      parts_.emplace_back();
      visit(joint->child, child, Transform{});
    }
  }

  /// Joint kind, world axis and point, limits of the joint that moves `c`;
  /// a non-zero `pitch` (--helical, a revolute or continuous joint) makes it a
  /// helical joint about the same axis through the same point.
  static void set_joint(const UrdfJoint& joint, double pitch, RobotBody& c) {
    using hodyn::JointKind;
    c.joint = joint.name;
    const bool prismatic = joint.type == UrdfJointType::kPrismatic;
    Eigen::Vector3d e = c.home.rotation * joint.axis.normalized();
    e.normalize();
    c.kind = prismatic ? JointKind::kPrismatic : JointKind::kRevolute;
    for (int k = 0; k < 3; ++k) {
      for (const double sign : {1.0, -1.0}) {
        const Eigen::Vector3d unit = sign * Eigen::Vector3d::Unit(k);
        if ((e - unit).cwiseAbs().maxCoeff() <= kAlignedAxisTolerance) {
          e = unit;  // exactly ±1: the model keeps the sense of a negative axis
          static constexpr JointKind kRevolutes[3] = {JointKind::kRevoluteX, JointKind::kRevoluteY,
                                                      JointKind::kRevoluteZ};
          static constexpr JointKind kPrismatics[3] = {
              JointKind::kPrismaticX, JointKind::kPrismaticY, JointKind::kPrismaticZ};
          c.kind = prismatic ? kPrismatics[k] : kRevolutes[k];
        }
      }
    }
    if (pitch != 0) c.kind = JointKind::kHelical;  // general axis only (docs/joint-kinds.md)
    c.axis = e;
    c.point = prismatic ? Eigen::Vector3d::Zero() : c.home.translation;
    c.pitch = pitch;
    constexpr double inf = std::numeric_limits<double>::infinity();
    hodyn::JointLimits& l = c.limits;
    l = hodyn::JointLimits{};
    if (joint.limits.given) {
      l.velocity = joint.limits.velocity;
      l.effort = joint.limits.effort;
    }
    if (joint.type == UrdfJointType::kContinuous) {
      l.bounded = false;
      l.lower = -inf;
      l.upper = inf;
    } else {
      l.bounded = true;
      l.lower = joint.limits.lower;
      l.upper = joint.limits.upper;
    }
  }

  const UrdfDocument& doc_;
  const std::map<std::string, double>& helical_pitches_;
  std::map<std::string, std::vector<const UrdfJoint*>> children_;
  std::map<std::string, const UrdfLink*> links_;
  std::map<std::string, LinkFrame> frame_of_;
  std::vector<std::vector<MassPart>> parts_;
  RobotModel model_;
};

/// The pitch of each --helical joint by name, after checking that every
/// entry names a revolute or continuous joint of `doc` once, with a finite
/// non-zero pitch.
std::map<std::string, double> helical_pitches(const UrdfDocument& doc,
                                              const std::vector<HelicalJoint>& helical) {
  std::map<std::string, double> pitches;
  for (const HelicalJoint& h : helical) {
    const std::string option = "--helical " + quoted(h.joint);
    if (!std::isfinite(h.pitch) || h.pitch == 0) {
      std::ostringstream given;
      given << h.pitch;
      throw ToolError(option + ": the pitch " + given.str() +
                      " is not a finite non-zero number of metres per radian (a pitch of 0 is "
                      "the revolute joint itself)");
    }
    const UrdfJoint* found = nullptr;
    for (const UrdfJoint& j : doc.joints)
      if (j.name == h.joint) found = &j;
    if (found == nullptr) throw ToolError(option + ": the URDF has no joint of that name");
    if (found->type != UrdfJointType::kRevolute && found->type != UrdfJointType::kContinuous)
      throw ToolError(option + ": the joint is " +
                      (found->type == UrdfJointType::kPrismatic ? "prismatic" : "fixed") +
                      "; a helical joint is made from a revolute or continuous one");
    if (!pitches.emplace(h.joint, h.pitch).second) throw ToolError(option + " is given twice");
  }
  return pitches;
}

}  // namespace

RobotModel build_robot(const UrdfDocument& doc, const std::string& requested_root, bool fixed_base,
                       const std::vector<HelicalJoint>& helical) {
  if (!requested_root.empty() && requested_root != doc.root) {
    bool exists = false;
    for (const UrdfLink& l : doc.links) exists = exists || l.name == requested_root;
    if (!exists)
      throw ToolError("--root " + quoted(requested_root) + ": no such link (the root link is " +
                      quoted(doc.root) + ")");
    throw ToolError("--root " + quoted(requested_root) + " is not the URDF's root link " +
                    quoted(doc.root) + " (hodyn-urdf does not re-root a tree)");
  }
  const std::map<std::string, double> pitches = helical_pitches(doc, helical);
  RobotModel model = Builder(doc, pitches).build();
  if (fixed_base) {
    model.fixed_base = true;
    model.bodies[0].kind = hodyn::JointKind::kFixedBase;
  }
  check_articulated_inertias(model);
  return model;
}

const char* kind_name(hodyn::JointKind kind) { return hodyn::urdf::joint_kind_name(kind); }

const char* kind_enumerator(hodyn::JointKind kind) {
  switch (kind) {
    case hodyn::JointKind::kFloatingBase:
      return "kFloatingBase";
    case hodyn::JointKind::kRevolute:
      return "kRevolute";
    case hodyn::JointKind::kRevoluteX:
      return "kRevoluteX";
    case hodyn::JointKind::kRevoluteY:
      return "kRevoluteY";
    case hodyn::JointKind::kRevoluteZ:
      return "kRevoluteZ";
    case hodyn::JointKind::kPrismatic:
      return "kPrismatic";
    case hodyn::JointKind::kPrismaticX:
      return "kPrismaticX";
    case hodyn::JointKind::kPrismaticY:
      return "kPrismaticY";
    case hodyn::JointKind::kPrismaticZ:
      return "kPrismaticZ";
    case hodyn::JointKind::kFixedBase:
      return "kFixedBase";
    case hodyn::JointKind::kHelical:
      return "kHelical";
    case hodyn::JointKind::kSpherical:
      return "kSpherical";
  }
  return "kFloatingBase";
}

}  // namespace hodyn_urdf
