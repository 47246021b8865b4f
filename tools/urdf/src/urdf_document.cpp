// tools/urdf/src/urdf_document.cpp — URDF → UrdfDocument (see urdf_document.hpp).
#include "urdf_document.hpp"

#include "inertia_checks.hpp"
#include "tool_error.hpp"

#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <Eigen/Geometry>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace hodyn_urdf {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ToolError("cannot read " + quoted(path) + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ToolError("cannot read " + quoted(path));
  return text.str();
}

/// urdfdom reports through console_bridge; while this lives, its messages are
/// collected instead of printed (errors kept, everything else dropped).
class ConsoleCapture : public console_bridge::OutputHandler {
 public:
  ConsoleCapture() {
    console_bridge::useOutputHandler(this);
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_ERROR);
  }
  ~ConsoleCapture() override {
    console_bridge::restorePreviousOutputHandler();
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
  }
  ConsoleCapture(const ConsoleCapture&) = delete;
  ConsoleCapture& operator=(const ConsoleCapture&) = delete;

  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level < console_bridge::CONSOLE_BRIDGE_LOG_ERROR) return;
    std::string line = text;
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';
    errors.push_back(line);
  }

  std::vector<std::string> errors;
};

/// Well-formedness first, with TinyXML's line and column (urdfdom's own
/// message for a syntax error names neither).
void check_xml(const std::string& path, TiXmlDocument& doc, const std::string& text) {
  doc.Parse(text.c_str(), nullptr, TIXML_ENCODING_UTF8);
  if (doc.Error()) {
    std::ostringstream os;
    os << path << ":" << doc.ErrorRow() << ":" << doc.ErrorCol()
       << ": malformed XML: " << doc.ErrorDesc();
    throw ToolError(os.str());
  }
}

/// The document order of <link> and <joint>: direct children of <robot>, as
/// urdfdom reads them (a <transmission>'s <joint> is not a joint).
struct XmlOrder {
  std::vector<std::string> links;
  std::vector<std::string> joints;
};

XmlOrder xml_order(const TiXmlDocument& doc) {
  XmlOrder order;
  const TiXmlElement* robot = doc.FirstChildElement("robot");
  if (robot == nullptr) throw ToolError("no <robot> element");
  for (const TiXmlElement* e = robot->FirstChildElement("link"); e != nullptr;
       e = e->NextSiblingElement("link")) {
    const char* name = e->Attribute("name");
    order.links.emplace_back(name != nullptr ? name : "");
  }
  for (const TiXmlElement* e = robot->FirstChildElement("joint"); e != nullptr;
       e = e->NextSiblingElement("joint")) {
    const char* name = e->Attribute("name");
    order.joints.emplace_back(name != nullptr ? name : "");
  }
  return order;
}

Transform to_transform(const urdf::Pose& pose) {
  Eigen::Quaterniond q(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z);
  q.normalize();  // urdfdom built it from roll, pitch, yaw: R = Rz(y) Ry(p) Rx(r)
  Transform t;
  t.rotation = q.toRotationMatrix();
  t.translation = Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z);
  return t;
}

bool finite(const Eigen::MatrixXd& m) { return m.allFinite(); }

UrdfLink convert_link(const urdf::Link& in) {
  UrdfLink link;
  link.name = in.name;
  if (in.inertial) {
    const urdf::Inertial& i = *in.inertial;
    UrdfInertial out;
    out.mass = i.mass;
    out.frame = to_transform(i.origin);
    out.inertia << i.ixx, i.ixy, i.ixz, i.ixy, i.iyy, i.iyz, i.ixz, i.iyz, i.izz;
    if (!std::isfinite(out.mass) || !finite(out.inertia) || !finite(out.frame.rotation) ||
        !finite(out.frame.translation))
      throw ToolError("link " + quoted(link.name) + ": non-finite value in <inertial>");
    if (out.mass < 0) {
      std::ostringstream os;
      os << "link " << quoted(link.name) << ": negative mass " << out.mass;
      throw ToolError(os.str());
    }
    const std::string problem = inertia_problem(out.inertia);
    if (!problem.empty()) throw ToolError("link " + quoted(link.name) + ": " + problem);
    link.inertial = out;
  }
  return link;
}

UrdfJoint convert_joint(const urdf::Joint& in) {
  UrdfJoint joint;
  joint.name = in.name;
  const std::string where = "joint " + quoted(joint.name);
  switch (in.type) {
    case urdf::Joint::REVOLUTE:
      joint.type = UrdfJointType::kRevolute;
      break;
    case urdf::Joint::CONTINUOUS:
      joint.type = UrdfJointType::kContinuous;
      break;
    case urdf::Joint::PRISMATIC:
      joint.type = UrdfJointType::kPrismatic;
      break;
    case urdf::Joint::FIXED:
      joint.type = UrdfJointType::kFixed;
      break;
    case urdf::Joint::FLOATING:
    case urdf::Joint::PLANAR:
    default:
      throw ToolError(where + ": type '" +
                      (in.type == urdf::Joint::FLOATING ? "floating" : "planar") +
                      "' is not supported (joints are revolute, continuous, prismatic or fixed; "
                      "the root link is the floating base)");
  }
  joint.parent = in.parent_link_name;
  joint.child = in.child_link_name;
  joint.origin = to_transform(in.parent_to_joint_origin_transform);
  joint.axis = Eigen::Vector3d(in.axis.x, in.axis.y, in.axis.z);
  if (!finite(joint.origin.rotation) || !finite(joint.origin.translation) || !finite(joint.axis))
    throw ToolError(where + ": non-finite value in <origin> or <axis>");
  if (joint.type != UrdfJointType::kFixed && !(joint.axis.norm() > 0))
    throw ToolError(where + ": <axis> has zero length");
  if (in.limits) {
    joint.limits.given = true;
    joint.limits.lower = in.limits->lower;
    joint.limits.upper = in.limits->upper;
    joint.limits.velocity = in.limits->velocity;
    joint.limits.effort = in.limits->effort;
    const UrdfLimits& l = joint.limits;
    if (!std::isfinite(l.lower) || !std::isfinite(l.upper) || !std::isfinite(l.velocity) ||
        !std::isfinite(l.effort))
      throw ToolError(where + ": non-finite value in <limit>");
    std::ostringstream os;
    if ((joint.type == UrdfJointType::kRevolute || joint.type == UrdfJointType::kPrismatic) &&
        l.lower > l.upper)
      os << where << ": <limit> lower " << l.lower << " > upper " << l.upper;
    else if (l.velocity < 0)
      os << where << ": <limit> velocity " << l.velocity << " is negative";
    else if (l.effort < 0)
      os << where << ": <limit> effort " << l.effort << " is negative";
    if (!os.str().empty()) throw ToolError(os.str());
  }
  return joint;
}

/// The offset of the first byte of `s` that is not part of well-formed UTF-8
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or
/// npos. TinyXML passes any byte through.
std::size_t invalid_utf8_at(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;                   // continuation bytes
    unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
    if (b < 0x80) {
      ++i;
      continue;
    } else if (b >= 0xC2 && b <= 0xDF) {
      n = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 2;
      if (b == 0xE0) lo = 0xA0;  // overlong
      if (b == 0xED) hi = 0x9F;  // surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 3;
      if (b == 0xF0) lo = 0x90;  // overlong
      if (b == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (s.size() - i <= n) return i;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) return i;
    }
    i += n + 1;
  }
  return std::string::npos;
}

/// Names go into the JSON files (which hold UTF-8 only) and the C++ header:
/// a name that is not UTF-8 is refused (found by tests/fuzz/fuzz_urdf: the
/// JSON writer threw an internal error). `what`: "<link> 3 (document order)", ….
void check_name(const std::string& what, const std::string& name) {
  const std::size_t at = invalid_utf8_at(name);
  if (at == std::string::npos) return;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X",
                static_cast<unsigned>(static_cast<unsigned char>(name[at])));
  throw ToolError(what + ": the name is not valid UTF-8 (byte " + byte + " at offset " +
                  std::to_string(at) + ")");
}

/// One parent per link, one root, no cycle; the root is the link without a parent.
std::string check_tree(const UrdfDocument& doc) {
  std::map<std::string, const UrdfJoint*> parent_joint;
  for (const UrdfJoint& j : doc.joints) {
    const auto [it, inserted] = parent_joint.emplace(j.child, &j);
    if (!inserted)
      throw ToolError("link " + quoted(j.child) + " has two parent joints, " +
                      quoted(it->second->name) + " and " + quoted(j.name));
  }
  std::vector<std::string> roots;
  for (const UrdfLink& l : doc.links)
    if (parent_joint.count(l.name) == 0) roots.push_back(l.name);
  if (roots.size() > 1)
    throw ToolError("links " + quoted(roots[0]) + " and " + quoted(roots[1]) +
                    " both have no parent joint (a URDF tree has one root)");
  // Every link reached from the root exactly once; a link not reached lies on
  // (or below) a cycle of joints: walk up its parents until a link repeats.
  std::map<std::string, std::vector<const UrdfJoint*>> children;
  for (const UrdfJoint& j : doc.joints) children[j.parent].push_back(&j);
  std::set<std::string> reached;
  if (!roots.empty()) {
    std::vector<std::string> stack{roots[0]};
    while (!stack.empty()) {
      const std::string l = stack.back();
      stack.pop_back();
      reached.insert(l);
      for (const UrdfJoint* j : children[l]) stack.push_back(j->child);
    }
  }
  for (const UrdfLink& l : doc.links) {
    if (reached.count(l.name) != 0) continue;
    std::vector<std::string> path;
    std::set<std::string> seen;
    std::string at = l.name;
    while (seen.insert(at).second) {
      path.push_back(at);
      at = parent_joint.at(at)->parent;
    }
    std::string cycle;
    bool on_cycle = false;
    for (const std::string& p : path) {
      if (p == at) on_cycle = true;
      if (on_cycle) cycle += (cycle.empty() ? "" : ", ") + quoted(p);
    }
    throw ToolError("joint " + quoted(parent_joint.at(at)->name) +
                    " closes a cycle of joints through links " + cycle +
                    " (a URDF must be a tree)");
  }
  return roots.at(0);
}

}  // namespace

const UrdfLink& UrdfDocument::link(const std::string& name) const {
  for (const UrdfLink& l : links)
    if (l.name == name) return l;
  throw ToolError("no link " + quoted(name));
}

UrdfDocument read_urdf(const std::string& path) { return parse_urdf(read_file(path), path); }

UrdfDocument parse_urdf(const std::string& text, const std::string& origin) {
  TiXmlDocument xml;
  check_xml(origin, xml, text);
  const XmlOrder order = xml_order(xml);

  urdf::ModelInterfaceSharedPtr model;
  {
    ConsoleCapture capture;
    model = urdf::parseURDF(text);
    // urdfdom logs some rejected elements (e.g. an <inertial> with a bad
    // number) and goes on with defaults: any error it logs fails the file.
    if (!model || !capture.errors.empty()) {
      std::string message = "urdfdom rejected the file";
      for (const std::string& e : capture.errors) message += ": " + e;
      throw ToolError(message);
    }
  }

  UrdfDocument doc;
  doc.robot_name = model->getName();
  check_name("<robot>", doc.robot_name);
  for (std::size_t k = 0; k < order.links.size(); ++k)
    check_name("<link> " + std::to_string(k + 1) + " (document order)", order.links[k]);
  for (std::size_t k = 0; k < order.joints.size(); ++k)
    check_name("<joint> " + std::to_string(k + 1) + " (document order)", order.joints[k]);
  for (const std::string& name : order.links) {
    const urdf::LinkConstSharedPtr link = model->getLink(name);
    if (!link) throw ToolError("link " + quoted(name) + " not found by urdfdom");
    doc.links.push_back(convert_link(*link));
  }
  for (const std::string& name : order.joints) {
    const urdf::JointConstSharedPtr joint = model->getJoint(name);
    if (!joint) throw ToolError("joint " + quoted(name) + " not found by urdfdom");
    doc.joints.push_back(convert_joint(*joint));
  }
  doc.root = check_tree(doc);
  return doc;
}

}  // namespace hodyn_urdf
