// tools/urdf/src/build_robot.cpp — UrdfDocument → RobotModel (see robot_model.hpp).
#include "robot_model.hpp"

#include <hodyn/urdf/robot_json.hpp>

#include "articulated_check.hpp"
#include "tool_error.hpp"

#include <Eigen/Dense>

#include <array>
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

/// A checked --spherical chain (three joints) or --universal pair (two): its
/// joints and the point where their axes meet (world, home); for a pair also
/// the two axes (world, home).
struct BallChain {
  std::vector<const UrdfJoint*> joints;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  bool universal = false;
  Eigen::Vector3d first_axis = Eigen::Vector3d::Zero();
  Eigen::Vector3d second_axis = Eigen::Vector3d::Zero();
};

/// A unit axis snapped to the exact ±x, ±y or ±z within kAlignedAxisTolerance
/// (as a 1-DoF joint's axis is), else as given; the index of that axis or −1.
int snap_axis(Eigen::Vector3d& e) {
  for (int k = 0; k < 3; ++k)
    for (const double sign : {1.0, -1.0}) {
      const Eigen::Vector3d unit = sign * Eigen::Vector3d::Unit(k);
      if ((e - unit).cwiseAbs().maxCoeff() <= kAlignedAxisTolerance) {
        e = unit;
        return k;
      }
    }
  return -1;
}

class Builder {
 public:
  Builder(const UrdfDocument& doc, const std::map<std::string, double>& helical_pitches,
          const std::map<std::string, BallChain>& balls)
      : doc_(doc), helical_pitches_(helical_pitches), balls_(balls) {
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
    // The links between a ball's joints are no bodies' and move with no body.
    for (const UrdfLink& l : doc_.links)
      if (frame_of_.count(l.name) != 0) model_.links.push_back(frame_of_.at(l.name));
    return model_;
  }

 private:
  /// Refuses a tree above kMaxBodies before anything is built.
  void count_bodies() const {
    int bodies = 1;
    for (const UrdfJoint& j : doc_.joints)
      if (j.type != UrdfJointType::kFixed) ++bodies;
    for (const auto& chain : balls_)  // three (two) joints, one ball (universal) body
      bodies -= static_cast<int>(chain.second.joints.size()) - 1;
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
      c.parent = body;
      const auto ball = balls_.find(joint->name);
      if (ball != balls_.end()) {
        // J1 → J2 → J3 as one ball (J1 → J2 as one universal joint): the
        // body is the last joint's child link at its home pose; the links
        // between the joints are skipped.
        const BallChain& chain = ball->second;
        c.link = chain.joints.back()->child;
        c.home = model_.bodies[static_cast<std::size_t>(body)].home * child_in_body;
        for (std::size_t k = 1; k < chain.joints.size(); ++k)
          c.home = c.home * chain.joints[k]->origin;
        if (chain.universal)
          set_universal(chain, c);
        else
          set_ball(chain, c);
      } else {
        c.link = joint->child;
        c.home = model_.bodies[static_cast<std::size_t>(body)].home * child_in_body;
        const auto helical = helical_pitches_.find(joint->name);
        set_joint(*joint, helical == helical_pitches_.end() ? 0.0 : helical->second, c);
      }
      model_.bodies.push_back(c);
      parts_.emplace_back();
      visit(c.link, child, Transform{});
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
    // Exactly ±1 when aligned: the model keeps the sense of a negative axis.
    const int k = snap_axis(e);
    if (k >= 0) {
      static constexpr JointKind kRevolutes[3] = {JointKind::kRevoluteX, JointKind::kRevoluteY,
                                                  JointKind::kRevoluteZ};
      static constexpr JointKind kPrismatics[3] = {JointKind::kPrismaticX, JointKind::kPrismaticY,
                                                   JointKind::kPrismaticZ};
      c.kind = prismatic ? kPrismatics[k] : kRevolutes[k];
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

  /// A ball (--spherical): named after J1, about the chain's centre; no axis
  /// and no limits (the URDF's limits of the three joints bound Euler angles,
  /// which a ball does not have).
  static void set_ball(const BallChain& chain, RobotBody& c) {
    c.kind = hodyn::JointKind::kSpherical;
    c.joint = chain.joints[0]->name;
    for (const UrdfJoint* j : chain.joints) c.urdf_joints.push_back(j->name);
    c.axis.setZero();
    c.point = chain.centre;
    c.pitch = 0;
    constexpr double inf = std::numeric_limits<double>::infinity();
    c.limits = hodyn::JointLimits{};
    c.limits.bounded = false;
    c.limits.lower = -inf;
    c.limits.upper = inf;
    c.limits.velocity = inf;
    c.limits.effort = inf;
  }

  /// A universal joint (--universal): named after J1, about J1's axis e₁ then
  /// J2's axis e₂ (world, home) through their intersection; no limits, as a
  /// ball (JointLimits holds one range per joint, a universal joint has two
  /// angles: the URDF's two <limit>s are dropped, docs/urdf.md).
  static void set_universal(const BallChain& chain, RobotBody& c) {
    set_ball(chain, c);
    c.kind = hodyn::JointKind::kUniversal;
    c.axis = chain.first_axis;
    c.second_axis = chain.second_axis;
  }

  const UrdfDocument& doc_;
  const std::map<std::string, double>& helical_pitches_;
  const std::map<std::string, BallChain>& balls_;
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

/// Every link's frame in the world at home (the root's is the identity).
std::map<std::string, Transform> home_frames(const UrdfDocument& doc) {
  std::map<std::string, std::vector<const UrdfJoint*>> children;
  for (const UrdfJoint& j : doc.joints) children[j.parent].push_back(&j);
  std::map<std::string, Transform> home{{doc.root, Transform{}}};
  std::vector<std::string> todo{doc.root};
  while (!todo.empty()) {
    const std::string link = todo.back();
    todo.pop_back();
    for (const UrdfJoint* j : children[link]) {
      home[j->child] = home.at(link) * j->origin;
      todo.push_back(j->child);
    }
  }
  return home;
}

/// The --spherical chains and --universal pairs by the name of their first
/// joint, each checked (see build_robot); `helical` names joints no chain may
/// use.
std::map<std::string, BallChain> ball_chains(const UrdfDocument& doc,
                                             const std::vector<SphericalJoint>& spherical,
                                             const std::vector<UniversalJoint>& universal,
                                             const std::vector<HelicalJoint>& helical) {
  std::map<std::string, BallChain> chains;
  if (spherical.empty() && universal.empty()) return chains;
  std::map<std::string, const UrdfJoint*> by_name;
  std::map<std::string, int> child_joints;
  for (const UrdfJoint& j : doc.joints) {
    by_name[j.name] = &j;
    ++child_joints[j.parent];
  }
  std::map<std::string, const UrdfLink*> links;
  for (const UrdfLink& l : doc.links) links[l.name] = &l;
  const std::map<std::string, Transform> home = home_frames(doc);
  std::map<std::string, std::string> used;  // joint -> the option that took it
  for (const HelicalJoint& h : helical) used.emplace(h.joint, "--helical");
  std::vector<std::pair<std::vector<std::string>, bool>> requests;  // names, universal
  for (const SphericalJoint& s : spherical)
    requests.emplace_back(std::vector<std::string>(s.joints.begin(), s.joints.end()), false);
  for (const UniversalJoint& u : universal)
    requests.emplace_back(std::vector<std::string>(u.joints.begin(), u.joints.end()), true);
  for (const auto& [names, is_universal] : requests) {
    const std::size_t n = names.size();
    const char* const flag = is_universal ? "--universal" : "--spherical";
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ",") + name;
    const std::string option = std::string(flag) + " " + hodyn_urdf::quoted(list);
    const std::string made_of =
        is_universal ? "; a universal joint is made from two revolute or continuous joints"
                     : "; a ball is made from three revolute or continuous joints";
    const std::string inside =
        is_universal ? "the link inside a universal joint" : "the links inside a ball";
    BallChain chain;
    chain.universal = is_universal;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& name = names[i];
      const auto found = by_name.find(name);
      if (found == by_name.end())
        throw ToolError(option + ": the URDF has no joint " + quoted(name));
      const UrdfJoint& j = *found->second;
      if (j.type != UrdfJointType::kRevolute && j.type != UrdfJointType::kContinuous)
        throw ToolError(option + ": joint " + quoted(name) + " is " +
                        (j.type == UrdfJointType::kPrismatic ? "prismatic" : "fixed") + made_of);
      const auto taken = used.emplace(name, flag);
      if (!taken.second)
        throw ToolError(option + ": joint " + quoted(name) + " is named twice (" +
                        taken.first->second + " has it already)");
      chain.joints.push_back(&j);
    }
    for (std::size_t i = 1; i < n; ++i) {
      const UrdfJoint& before = *chain.joints[i - 1];
      const UrdfJoint& j = *chain.joints[i];
      if (j.parent != before.child)
        throw ToolError(option + ": not a chain: joint " + quoted(j.name) + " hangs from link " +
                        quoted(j.parent) + ", not from " + quoted(before.child) +
                        ", the child link of " + quoted(before.name));
    }
    const std::string keep = is_universal ? "keep the two joints: leave out --universal"
                                          : "keep the three joints: leave out --spherical";
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const std::string& link = chain.joints[i]->child;
      const UrdfLink& l = *links.at(link);
      if (l.inertial && (l.inertial->mass != 0 || !l.inertial->inertia.isZero(0.0)))
        throw ToolError(option + ": link " + quoted(link) + " between " +
                        quoted(chain.joints[i]->name) + " and " +
                        quoted(chain.joints[i + 1]->name) + " has mass or inertia; " + inside +
                        " must be massless (or " + keep + ")");
      if (child_joints[link] != 1)
        throw ToolError(option + ": link " + quoted(link) + " between " +
                        quoted(chain.joints[i]->name) + " and " +
                        quoted(chain.joints[i + 1]->name) + " has other child joints; " + inside +
                        (is_universal ? " carries nothing else (or " : " carry nothing else (or ") +
                        keep + ")");
    }
    // Axes e_i and points p_i (the child link origins) in the world at home.
    Eigen::Matrix3d e = Eigen::Matrix3d::Zero();
    Eigen::Matrix3d p = Eigen::Matrix3d::Zero();
    const int count = static_cast<int>(n);
    for (int i = 0; i < count; ++i) {
      const UrdfJoint& j = *chain.joints[static_cast<std::size_t>(i)];
      const Transform& frame = home.at(j.child);
      e.col(i) = (frame.rotation * j.axis.normalized()).normalized();
      p.col(i) = frame.translation;
    }
    if (is_universal) {
      const double sine = e.col(0).cross(e.col(1)).norm();
      if (!(sine > kUniversalAxesParallelTolerance)) {
        std::ostringstream m;
        m << option << ": the axes of " << quoted(names[0]) << " and " << quoted(names[1])
          << " are parallel at home (|e1 x e2| = " << sine
          << " <= " << kUniversalAxesParallelTolerance
          << "): a universal joint turns about two directions";
        throw ToolError(m.str());
      }
    } else {
      const double det = e.determinant();
      if (!(std::abs(det) > kBallAxesSpanTolerance)) {
        std::ostringstream m;
        m << option << ": the axes of " << quoted(names[0]) << ", " << quoted(names[1]) << " and "
          << quoted(names[2]) << " are linearly dependent at home (|det| = " << std::abs(det)
          << " <= " << kBallAxesSpanTolerance << "): they do not span 3D";
        throw ToolError(m.str());
      }
    }
    // The point nearest to the lines: Σ (1 − e eᵀ)(c − p) = 0 (invertible for
    // two non-parallel lines as for three spanning ones).
    Eigen::Matrix3d a = Eigen::Matrix3d::Zero();
    Eigen::Vector3d b = Eigen::Vector3d::Zero();
    for (int i = 0; i < count; ++i) {
      const Eigen::Matrix3d off = Eigen::Matrix3d::Identity() - e.col(i) * e.col(i).transpose();
      a += off;
      b += off * p.col(i);
    }
    chain.centre = a.ldlt().solve(b);
    for (int i = 0; i < count; ++i) {
      const Eigen::Vector3d d = chain.centre - p.col(i);
      const double miss = (d - e.col(i) * e.col(i).dot(d)).norm();
      if (!(miss <= kBallAxesMeetTolerance)) {
        std::ostringstream m;
        m << option << ": the axes do not meet in one point: the axis of "
          << quoted(names[static_cast<std::size_t>(i)]) << " passes " << miss
          << " m from the point nearest to " << (is_universal ? "both" : "all three")
          << " (tolerance " << kBallAxesMeetTolerance << " m)";
        throw ToolError(m.str());
      }
    }
    if (is_universal) {
      chain.first_axis = e.col(0);
      chain.second_axis = e.col(1);
      snap_axis(chain.first_axis);  // exactly ±1 when aligned, as a revolute joint's
      snap_axis(chain.second_axis);
    }
    chains.emplace(names[0], chain);
  }
  return chains;
}

}  // namespace

RobotModel build_robot(const UrdfDocument& doc, const std::string& requested_root, bool fixed_base,
                       const std::vector<HelicalJoint>& helical,
                       const std::vector<SphericalJoint>& spherical,
                       const std::vector<UniversalJoint>& universal) {
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
  const std::map<std::string, BallChain> balls = ball_chains(doc, spherical, universal, helical);
  RobotModel model = Builder(doc, pitches, balls).build();
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
    case hodyn::JointKind::kUniversal:
      return "kUniversal";
  }
  return "kFloatingBase";
}

}  // namespace hodyn_urdf
