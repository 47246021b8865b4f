// tests/fuzz/fuzz_urdf.cpp — libFuzzer target of hodyn-urdf's input
// (docs/urdf.md; docs/fuzzing.md): the input is the text of a URDF, taken as
// hodyn-urdf takes a file — TinyXML, urdfdom, the tree checks, the robot
// model, then every text the tool writes (model header, parameters JSON,
// --report, the robot id's canonical text), all in memory; no file is written.
//
// Checked: no crash, no UB; bad input is a ToolError (hodyn-urdf's one-line
// error, exit 2) and nothing else is thrown; an accepted URDF gives a tree of
// 1..kMaxBodies bodies, parents before children, finite numbers, unit axes
// and proper rotations, and every body and joint passes the checks of the
// core's Model as the generated make_model() calls them (set_body,
// set_revolute_axis / set_prismatic_axis / set_helical_axis); the parameters
// JSON and the report are JSON, and the parameters JSON holds the model's
// numbers exactly. The same again with the first revolute or continuous joint
// made helical (hodyn-urdf --helical JOINT=0.01), and with the first chain of
// three revolute or continuous joints made a ball (hodyn-urdf --spherical
// J1,J2,J3; refused unless its axes meet and its inner links are massless),
// and with the first pair of revolute or continuous joints made a universal
// joint (hodyn-urdf --universal J1,J2; refused unless its axes meet, are not
// parallel and its cross link is massless).
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <hodyn/model.hpp>
#include <hodyn/robot_description/actuator_file.hpp>
#include <hodyn/spatial_inertia.hpp>
#include <hodyn/tree.hpp>
#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "robot_header.hpp"
#include "robot_model.hpp"
#include "tool_error.hpp"
#include "urdf_document.hpp"
#include "writers.hpp"

namespace {

using hodyn::JointKind;

/// A floating base with one child of every joint kind: body k has kind
/// kJoint[k], so a URDF body of kind K is checked in the slot of K.
struct ProbeTree {
  static constexpr int kNumBodies = 12;
  static constexpr std::array<int, kNumBodies> kParent{-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFloatingBase, JointKind::kRevolute,   JointKind::kRevoluteX,
      JointKind::kRevoluteY,    JointKind::kRevoluteZ,  JointKind::kPrismatic,
      JointKind::kPrismaticX,   JointKind::kPrismaticY, JointKind::kPrismaticZ,
      JointKind::kHelical,      JointKind::kSpherical,  JointKind::kUniversal};
};

int slot_of(JointKind kind) {
  for (int k = 0; k < ProbeTree::kNumBodies; ++k)
    if (ProbeTree::kJoint[static_cast<std::size_t>(k)] == kind) return k;
  return -1;
}

bool rotation_ok(const Eigen::Matrix3d& r) {
  return r.allFinite() &&
         (r.transpose() * r - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() <= 1e-9 &&
         r.determinant() > 0;
}

/// The body checks, and make_model()'s calls on the core's Model.
void check_model(const hodyn_urdf::RobotModel& model) {
  const auto& bodies = model.bodies;
  HODYN_FUZZ_CHECK(!bodies.empty() && bodies.size() <= hodyn_urdf::kMaxBodies);
  HODYN_FUZZ_CHECK(std::isfinite(model.total_mass) && model.total_mass >= 0);
  hodyn::Model<ProbeTree, double> probe;
  HODYN_FUZZ_CHECK(probe.set_gravity(hodyn::Vector3<double>(0, 0, -9.81)) == hodyn::Status::kOk);
  for (std::size_t j = 0; j < bodies.size(); ++j) {
    const hodyn_urdf::RobotBody& b = bodies[j];
    HODYN_FUZZ_CHECK(j == 0 ? b.parent == -1 : (b.parent >= 0 && b.parent < static_cast<int>(j)));
    HODYN_FUZZ_CHECK((j == 0) == (b.kind == JointKind::kFloatingBase));
    HODYN_FUZZ_CHECK(rotation_ok(b.home.rotation) && b.home.translation.allFinite());
    HODYN_FUZZ_CHECK(std::isfinite(b.mass) && b.mass >= 0 && b.com.allFinite() &&
                     b.inertia.allFinite());
    const int slot = slot_of(b.kind);
    HODYN_FUZZ_CHECK(slot >= 0);
    hodyn::Pose<double> pose;
    pose.rotation = b.home.rotation;
    pose.translation = b.home.translation;
    HODYN_FUZZ_CHECK(probe.set_body(slot, pose,
                                    hodyn::SpatialInertia<double>::from_mass_com_inertia(
                                        b.mass, b.com, b.inertia)) == hodyn::Status::kOk);
    if (j == 0) continue;
    HODYN_FUZZ_CHECK(b.point.allFinite());
    if (hodyn::is_spherical(b.kind)) {  // a ball: no axis, its centre; no limits
      HODYN_FUZZ_CHECK(b.axis.isZero(0.0) && b.pitch == 0 && b.urdf_joints.size() == 3 &&
                       b.urdf_joints[0] == b.joint && !b.limits.bounded);
      HODYN_FUZZ_CHECK(probe.set_spherical_joint(slot, b.point) == hodyn::Status::kOk);
      continue;
    }
    if (hodyn::is_universal(b.kind)) {  // e1, e2 unit and not parallel; no limits
      HODYN_FUZZ_CHECK(std::abs(b.axis.norm() - 1.0) <= 1e-12 &&
                       std::abs(b.second_axis.norm() - 1.0) <= 1e-12 && b.pitch == 0 &&
                       b.urdf_joints.size() == 2 && b.urdf_joints[0] == b.joint &&
                       !b.limits.bounded);
      HODYN_FUZZ_CHECK(probe.set_universal_joint(slot, b.point, b.axis, b.second_axis) ==
                       hodyn::Status::kOk);
      continue;
    }
    HODYN_FUZZ_CHECK(b.second_axis.isZero(0.0));
    HODYN_FUZZ_CHECK(b.axis.allFinite() && std::abs(b.axis.norm() - 1.0) <= 1e-12);
    HODYN_FUZZ_CHECK(hodyn::is_helical(b.kind) == (b.pitch != 0) && std::isfinite(b.pitch));
    const hodyn::Status axis =
        hodyn::is_helical(b.kind)    ? probe.set_helical_axis(slot, b.axis, b.point, b.pitch)
        : hodyn::is_revolute(b.kind) ? probe.set_revolute_axis(slot, b.axis, b.point)
                                     : probe.set_prismatic_axis(slot, b.axis);
    HODYN_FUZZ_CHECK(axis == hodyn::Status::kOk);
    const hodyn::JointLimits& l = b.limits;
    HODYN_FUZZ_CHECK(!l.bounded ||
                     (std::isfinite(l.lower) && std::isfinite(l.upper) && l.lower <= l.upper));
    HODYN_FUZZ_CHECK(l.velocity >= 0 && l.effort >= 0);
  }
}

template <class Json>
Eigen::Vector3d vector3(const Json& j) {
  return Eigen::Vector3d(j.at(0).template get<double>(), j.at(1).template get<double>(),
                         j.at(2).template get<double>());
}

template <class Json>
Eigen::Matrix3d matrix3(const Json& j) {
  Eigen::Matrix3d m;
  for (int r = 0; r < 3; ++r) m.row(r) = vector3(j.at(static_cast<std::size_t>(r))).transpose();
  return m;
}

/// The parameters JSON reads back to the model's numbers, bit for bit.
void check_parameters_json(const hodyn_urdf::RobotModel& model, const std::string& text) {
  const nlohmann::json doc = nlohmann::json::parse(text);  // a throw here fails the run
  const auto& bodies = doc.at("bodies");
  const auto& joints = doc.at("joints");
  HODYN_FUZZ_CHECK(bodies.size() == model.bodies.size() &&
                   joints.size() + 1 == model.bodies.size());
  for (std::size_t j = 0; j < model.bodies.size(); ++j) {
    const hodyn_urdf::RobotBody& b = model.bodies[j];
    const auto& jb = bodies.at(j);
    HODYN_FUZZ_CHECK(jb.at("name").get<std::string>() == b.link);
    HODYN_FUZZ_CHECK(jb.at("parent").get<int>() == b.parent);
    HODYN_FUZZ_CHECK(matrix3(jb.at("home_pose").at("rotation")) == b.home.rotation);
    HODYN_FUZZ_CHECK(vector3(jb.at("home_pose").at("translation")) == b.home.translation);
    HODYN_FUZZ_CHECK(jb.at("mass").get<double>() == b.mass);
    HODYN_FUZZ_CHECK(vector3(jb.at("com")) == b.com);
    HODYN_FUZZ_CHECK(matrix3(jb.at("inertia_about_com")) == b.inertia);
    if (j == 0) continue;
    const auto& jj = joints.at(j - 1);
    HODYN_FUZZ_CHECK(jj.at("name").get<std::string>() == b.joint);
    HODYN_FUZZ_CHECK(jj.contains("centre") == hodyn::is_spherical(b.kind) &&
                     jj.contains("axis") != hodyn::is_spherical(b.kind));
    if (hodyn::is_spherical(b.kind)) {
      HODYN_FUZZ_CHECK(vector3(jj.at("centre")) == b.point);
      HODYN_FUZZ_CHECK(jj.at("urdf_joints").get<std::vector<std::string>>() == b.urdf_joints);
      continue;
    }
    HODYN_FUZZ_CHECK(jj.contains("second_axis") == hodyn::is_universal(b.kind));
    if (hodyn::is_universal(b.kind)) {
      HODYN_FUZZ_CHECK(vector3(jj.at("axis")) == b.axis &&
                       vector3(jj.at("second_axis")) == b.second_axis &&
                       vector3(jj.at("point")) == b.point);
      HODYN_FUZZ_CHECK(jj.at("urdf_joints").get<std::vector<std::string>>() == b.urdf_joints);
      continue;
    }
    HODYN_FUZZ_CHECK(vector3(jj.at("axis")) == b.axis);
    HODYN_FUZZ_CHECK(jj.contains("point") == hodyn::joint_rotates(b.kind));
    if (hodyn::joint_rotates(b.kind)) HODYN_FUZZ_CHECK(vector3(jj.at("point")) == b.point);
    HODYN_FUZZ_CHECK(jj.contains("pitch") == hodyn::is_helical(b.kind));
    if (hodyn::is_helical(b.kind)) HODYN_FUZZ_CHECK(jj.at("pitch").get<double>() == b.pitch);
  }
}

/// The movable joints and their effort limits, as hodyn-urdf lists them for
/// the actuators (main.cpp's joint_list).
hodyn::robot_description::JointList joint_list(const hodyn_urdf::UrdfDocument& doc,
                                               const hodyn_urdf::RobotModel& model) {
  hodyn::robot_description::JointList joints;
  for (std::size_t j = 1; j < model.bodies.size(); ++j)
    joints.movable.push_back({model.bodies[j].joint, model.bodies[j].limits.effort});
  for (const hodyn_urdf::UrdfJoint& j : doc.joints)
    if (j.type == hodyn_urdf::UrdfJointType::kFixed) joints.fixed.push_back(j.name);
  return joints;
}

}  // namespace

/// Every text hodyn-urdf writes for `model`, checked; 0 as the fuzzer wants.
int check_outputs(const hodyn_urdf::UrdfDocument& doc, const hodyn_urdf::RobotModel& model);

namespace {

bool turns(const hodyn_urdf::UrdfJoint& j) {
  return j.type == hodyn_urdf::UrdfJointType::kRevolute ||
         j.type == hodyn_urdf::UrdfJointType::kContinuous;
}

/// --spherical on each chain J1 → J2 → J3 of revolute or continuous joints
/// (document order, at most 8 tries) until one is accepted: a ToolError, or a
/// model with one ball, two bodies fewer, as many DoF, and checked outputs.
void check_ball(const hodyn_urdf::UrdfDocument& doc) {
  int tries = 0;
  for (const hodyn_urdf::UrdfJoint& j1 : doc.joints) {
    if (!turns(j1)) continue;
    for (const hodyn_urdf::UrdfJoint& j2 : doc.joints) {
      if (!turns(j2) || j2.parent != j1.child) continue;
      for (const hodyn_urdf::UrdfJoint& j3 : doc.joints) {
        if (!turns(j3) || j3.parent != j2.child) continue;
        if (++tries > 8) return;
        hodyn_urdf::RobotModel plain, ball;
        try {
          plain = hodyn_urdf::build_robot(doc, "");
          ball = hodyn_urdf::build_robot(doc, "", false, {}, {{{j1.name, j2.name, j3.name}}});
        } catch (const hodyn_urdf::ToolError& e) {
          HODYN_FUZZ_CHECK(std::string(e.what()).size() > 0);
          continue;
        }
        HODYN_FUZZ_CHECK(ball.num_balls() == 1 && ball.bodies.size() + 2 == plain.bodies.size() &&
                         ball.num_dofs() == plain.num_dofs());
        check_outputs(doc, ball);
        return;
      }
    }
  }
}

/// --universal on each pair J1 → J2 of revolute or continuous joints
/// (document order, at most 8 tries) until one is accepted: a ToolError, or a
/// model with one universal joint, one body fewer, as many DoF, and checked
/// outputs.
void check_universal(const hodyn_urdf::UrdfDocument& doc) {
  int tries = 0;
  for (const hodyn_urdf::UrdfJoint& j1 : doc.joints) {
    if (!turns(j1)) continue;
    for (const hodyn_urdf::UrdfJoint& j2 : doc.joints) {
      if (!turns(j2) || j2.parent != j1.child) continue;
      if (++tries > 8) return;
      hodyn_urdf::RobotModel plain, cardan;
      try {
        plain = hodyn_urdf::build_robot(doc, "");
        cardan = hodyn_urdf::build_robot(doc, "", false, {}, {}, {{{j1.name, j2.name}}});
      } catch (const hodyn_urdf::ToolError& e) {
        HODYN_FUZZ_CHECK(std::string(e.what()).size() > 0);
        continue;
      }
      HODYN_FUZZ_CHECK(cardan.num_universals() == 1 &&
                       cardan.bodies.size() + 1 == plain.bodies.size() &&
                       cardan.num_dofs() == plain.num_dofs());
      check_outputs(doc, cardan);
      return;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  hodyn_urdf::UrdfDocument doc;
  hodyn_urdf::RobotModel model;
  try {
    doc = hodyn_urdf::parse_urdf(text, "fuzz.urdf");
    model = hodyn_urdf::build_robot(doc, "");
  } catch (const hodyn_urdf::ToolError& e) {
    HODYN_FUZZ_CHECK(std::string(e.what()).size() > 0);
    return 0;
  }
  check_outputs(doc, model);
  check_ball(doc);
  check_universal(doc);
  // --helical on the first revolute or continuous joint.
  for (const hodyn_urdf::UrdfJoint& j : doc.joints) {
    if (j.type != hodyn_urdf::UrdfJointType::kRevolute &&
        j.type != hodyn_urdf::UrdfJointType::kContinuous)
      continue;
    hodyn_urdf::RobotModel screw;
    try {
      screw = hodyn_urdf::build_robot(doc, "", false, {{j.name, 0.01}});
    } catch (const hodyn_urdf::ToolError& e) {
      HODYN_FUZZ_CHECK(std::string(e.what()).size() > 0);
      return 0;
    }
    int helical = 0;
    for (const hodyn_urdf::RobotBody& b : screw.bodies) helical += hodyn::is_helical(b.kind);
    HODYN_FUZZ_CHECK(helical == 1);
    return check_outputs(doc, screw);
  }
  return 0;
}

int check_outputs(const hodyn_urdf::UrdfDocument& doc, const hodyn_urdf::RobotModel& model) {
  check_model(model);

  // Every text hodyn-urdf writes; a throw (other than ToolError) fails the run.
  const hodyn_urdf::Provenance from{"fuzz_robot", "fuzz.urdf"};
  std::string header, parameters, report, identity;
  try {
    header = hodyn_urdf::generated_header(model, from);
    parameters = hodyn_urdf::parameters_json(model, from);
    report = hodyn_urdf::report_json(model, from);
    const hodyn::robot_description::ActuatorFile actuators =
        hodyn::robot_description::default_actuators(joint_list(doc, model), "fuzz.urdf");
    if (actuators.ok())
      identity = hodyn_urdf::robot_identity_text("fuzz_robot", model, {}, actuators.actuators);
  } catch (const hodyn_urdf::ToolError& e) {
    HODYN_FUZZ_CHECK(std::string(e.what()).size() > 0);
    return 0;
  }
  HODYN_FUZZ_CHECK(header.find("namespace fuzz_robot {") != std::string::npos);
  // The robot id's text holds a universal joint's e₂ (and nothing new for the others).
  if (!identity.empty())
    HODYN_FUZZ_CHECK((identity.find(" second_axis ") != std::string::npos) ==
                     (model.num_universals() > 0));
  check_parameters_json(model, parameters);
  HODYN_FUZZ_CHECK(nlohmann::json::parse(report).is_object());
  return 0;
}
