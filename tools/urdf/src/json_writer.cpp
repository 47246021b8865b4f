// tools/urdf/src/json_writer.cpp — the parameters and --report JSON (see writers.hpp).
//
// nlohmann::json prints doubles as the shortest text that reads back as the
// same double, so the parameters file carries the header's numbers exactly.
#include "writers.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace hodyn_urdf {

namespace {

using json = nlohmann::ordered_json;  // keys in the order written here

/// Indented JSON with every array of numbers, strings or nulls on one line.
void write(const json& j, int indent, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
  const auto flat = [](const json& a) {
    for (const json& x : a)
      if (x.is_structured()) return false;
    return true;
  };
  if (j.is_object() && !j.empty()) {
    out += "{\n";
    std::size_t i = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++i) {
      out += inner + json(it.key()).dump() + ": ";
      write(it.value(), indent + 2, out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += pad + "}";
  } else if (j.is_array() && !j.empty() && !flat(j)) {
    out += "[\n";
    for (std::size_t i = 0; i < j.size(); ++i) {
      out += inner;
      write(j[i], indent + 2, out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += pad + "]";
  } else if (j.is_array()) {
    out += "[";
    for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + j[i].dump();
    out += "]";
  } else {
    out += j.dump();  // numbers: the shortest text that reads back exactly
  }
}

std::string text(const json& j) {
  std::string out;
  write(j, 0, out);
  return out + "\n";
}

json vector3(const Eigen::Vector3d& v) { return json::array({v.x(), v.y(), v.z()}); }

json matrix3(const Eigen::Matrix3d& m) {
  json rows = json::array();
  for (int i = 0; i < 3; ++i) rows.push_back(json::array({m(i, 0), m(i, 1), m(i, 2)}));
  return rows;
}

/// A limit value: a number, or null for "none" (±∞).
json limit(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

json name_list(const RobotModel& model, bool joints) {
  json names = json::array();
  for (std::size_t j = joints ? 1 : 0; j < model.bodies.size(); ++j)
    names.push_back(joints ? model.bodies[j].joint : model.bodies[j].link);
  return names;
}

}  // namespace

std::string parameters_json(const RobotModel& model, const Provenance& from) {
  json bodies = json::array();
  json joints = json::array();
  for (std::size_t j = 0; j < model.bodies.size(); ++j) {
    const RobotBody& b = model.bodies[j];
    bodies.push_back({
        {"index", j},
        {"name", b.link},
        {"parent", b.parent},
        {"joint", j == 0 ? json(nullptr) : json(b.joint)},
        {"home_pose",
         {{"rotation", matrix3(b.home.rotation)}, {"translation", vector3(b.home.translation)}}},
        {"mass", b.mass},
        {"com", vector3(b.com)},
        {"inertia_about_com", matrix3(b.inertia)},
        {"lumped_links", b.lumped_links},
    });
    if (j == 0) continue;
    json joint = {
        {"index", j - 1},
        {"name", b.joint},
        {"body", j},
        {"kind", kind_name(b.kind)},
    };
    if (hodyn::is_spherical(b.kind)) {  // a ball has no axis: its centre, its URDF joints
      joint["centre"] = vector3(b.point);
      joint["urdf_joints"] = b.urdf_joints;
    } else if (hodyn::is_universal(b.kind)) {  // e₁, e₂, where they meet, its URDF joints
      joint["axis"] = vector3(b.axis);
      joint["second_axis"] = vector3(b.second_axis);
      joint["point"] = vector3(b.point);
      joint["urdf_joints"] = b.urdf_joints;
    } else {
      joint["axis"] = vector3(b.axis);
    }
    if (hodyn::joint_rotates(b.kind)) joint["point"] = vector3(b.point);
    if (hodyn::is_helical(b.kind)) joint["pitch"] = b.pitch;
    joint["limits"] = {{"bounded", b.limits.bounded},
                       {"lower", limit(b.limits.lower)},
                       {"upper", limit(b.limits.upper)},
                       {"velocity", limit(b.limits.velocity)},
                       {"effort", limit(b.limits.effort)}};
    joints.push_back(joint);
  }
  json links = json::array();
  for (const LinkFrame& l : model.links)
    links.push_back({{"name", l.name},
                     {"body", l.body},
                     {"pose_in_body",
                      {{"rotation", matrix3(l.in_body.rotation)},
                       {"translation", vector3(l.in_body.translation)}}}});
  const json doc = {
      {"format", "hodyn-robot-parameters"},
      {"version", 1},
      {"name", from.name},
      {"robot", model.robot_name},
      {"urdf", from.urdf_file},
      {"root_link", model.root},
      {"units", {{"length", "m"}, {"mass", "kg"}, {"inertia", "kg m^2"}, {"angle", "rad"}}},
      {"gravity", json::array({0.0, 0.0, -9.81})},
      {"bodies", bodies},
      {"joints", joints},
      {"links", links},
  };
  return text(doc);
}

std::string report_json(const RobotModel& model, const Provenance& from,
                        std::optional<std::size_t> num_rotors,
                        const std::optional<std::vector<std::string>>& drives) {
  json parents = json::array();
  json kinds = json::array();
  json massless = json::array();
  for (const RobotBody& b : model.bodies) {
    parents.push_back(b.parent);
    kinds.push_back(kind_name(b.kind));
    if (b.mass == 0) massless.push_back(b.link);
  }
  json lumped_into = json::object();
  for (const LinkFrame& l : model.links)
    if (model.bodies[static_cast<std::size_t>(l.body)].link != l.name)
      lumped_into[l.name] = model.bodies[static_cast<std::size_t>(l.body)].link;
  json doc = {
      {"name", from.name},
      {"robot", model.robot_name},
      {"urdf", from.urdf_file},
      {"root", model.root},
      {"bodies", name_list(model, false)},
      {"joints", name_list(model, true)},
      {"parents", parents},
      {"joint_kinds", kinds},
      {"dof", model.num_dofs()},
      {"total_mass_kg", model.total_mass},
      {"lumped_links", model.lumped_links},
      {"lumped_into", lumped_into},
      {"massless_bodies", massless},
      {"max_bodies", kMaxBodies},
  };
  if (num_rotors) doc["rotors"] = *num_rotors;
  if (drives) {
    json by_joint = json::object();
    for (std::size_t j = 0; j < drives->size() && j + 1 < model.bodies.size(); ++j)
      by_joint[model.bodies[j + 1].joint] = (*drives)[j];
    doc["actuators"] = by_joint;
  }
  return text(doc);
}

}  // namespace hodyn_urdf
