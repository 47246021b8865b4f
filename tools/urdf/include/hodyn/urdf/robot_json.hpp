// hodyn/urdf/robot_json.hpp — loads the parameters JSON that hodyn-urdf writes
// beside a generated header into a Model of that header's compiled tree.
//
// A re-identified robot (new masses, inertias, home poses, axes) needs no
// recompilation: edit or regenerate the JSON and load it. The topology is
// compiled in, so the file must match it exactly — body count, body and joint
// names in hodyn's order, parents and joint kinds; a mismatch is an error,
// never a silent reorder. Format: docs/state-format.md, "Robot parameters JSON".
//
// Desktop only (nlohmann-json, std::string, heap); CMake target hodyn::robot_json.
//
//   #include <my_robot.hpp>                 // generated: namespace my_robot
//   #include <hodyn/urdf/robot_json.hpp>
//   hodyn::Model<my_robot::Tree> model;
//   std::string error;
//   if (hodyn::urdf::load_robot_json_file("my_robot.json", model, my_robot::kBodyNames,
//                                         my_robot::kJointNames, &error) != hodyn::Status::kOk)
//     std::cerr << error << '\n';
#pragma once

#include <hodyn/joint_limits.hpp>
#include <hodyn/model.hpp>
#include <hodyn/pose.hpp>
#include <hodyn/spatial_inertia.hpp>
#include <hodyn/status.hpp>
#include <hodyn/tree.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <fstream>
#include <limits>
#include <string>

namespace hodyn {
namespace urdf {

/// The joint kind's name in the JSON files ("floating_base", "revolute_x", …).
constexpr const char* joint_kind_name(JointKind kind) {
  switch (kind) {
    case JointKind::kFloatingBase:
      return "floating_base";
    case JointKind::kRevolute:
      return "revolute";
    case JointKind::kRevoluteX:
      return "revolute_x";
    case JointKind::kRevoluteY:
      return "revolute_y";
    case JointKind::kRevoluteZ:
      return "revolute_z";
    case JointKind::kPrismatic:
      return "prismatic";
    case JointKind::kPrismaticX:
      return "prismatic_x";
    case JointKind::kPrismaticY:
      return "prismatic_y";
    case JointKind::kPrismaticZ:
      return "prismatic_z";
  }
  return "unknown";
}

namespace detail {

/// Thrown inside the loader only, turned into a Status and a message.
struct LoadError {
  Status status;
  std::string message;
};

inline std::string quoted(const std::string& s) { return "'" + s + "'"; }

template <class Scalar>
Vector3<Scalar> vector3(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 3) throw LoadError{Status::kInvalidArgument, "not 3 numbers"};
  return Vector3<Scalar>(Scalar(j.at(0).get<double>()), Scalar(j.at(1).get<double>()),
                         Scalar(j.at(2).get<double>()));
}

template <class Scalar>
Matrix3<Scalar> matrix3(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 3) throw LoadError{Status::kInvalidArgument, "not 3 rows"};
  Matrix3<Scalar> m;
  for (int r = 0; r < 3; ++r)
    m.row(r) = vector3<Scalar>(j.at(static_cast<std::size_t>(r))).transpose();
  return m;
}

/// A limit: a number, or null for none (±∞ as `none` says).
inline double limit(const nlohmann::json& j, double none) {
  return j.is_null() ? none : j.get<double>();
}

/// `what` of `where` must equal `expected`; otherwise a topology mismatch.
template <class T>
void expect_same(const T& found, const T& expected, const std::string& what) {
  if (!(found == expected))
    throw LoadError{Status::kInvalidModel, what + ": the file has " + nlohmann::json(found).dump() +
                                               ", the compiled tree " +
                                               nlohmann::json(expected).dump()};
}

/// Runs `step`, prefixing any error message with `where`.
template <class F>
void in(const std::string& where, F&& step) {
  try {
    step();
  } catch (LoadError& e) {
    e.message = where + ": " + e.message;
    throw;
  } catch (const nlohmann::json::exception& e) {
    throw LoadError{Status::kInvalidArgument, where + ": " + e.what()};
  }
}

}  // namespace detail

/// Loads `doc` into `model` after checking it against the compiled tree Tree
/// and its names (the generated header's kBodyNames and kJointNames). On
/// success every body, joint and gravity of `model` is set and, if given,
/// `limits` holds the joint limits. On failure `model` and `limits` are
/// unchanged and `error` (if given) holds one line saying what and where:
///   kInvalidArgument  not a hodyn-urdf parameters file, a missing key, a value
///                     of the wrong type;
///   kInvalidModel     the topology differs from the compiled tree (body count,
///                     a name, a parent, a joint kind), or a value the Model
///                     rejects (negative mass, axis not unit, …).
template <class Tree, class Scalar>
Status load_robot_json(const nlohmann::json& doc, Model<Tree, Scalar>& model,
                       const std::array<const char*, Tree::kNumBodies>& body_names,
                       const std::array<const char*, Tree::kNumBodies - 1>& joint_names,
                       std::string* error = nullptr,
                       std::array<JointLimits, Tree::kNumBodies - 1>* limits = nullptr) {
  using detail::in;
  using detail::LoadError;
  constexpr int n = Tree::kNumBodies;
  Model<Tree, Scalar> loaded;
  std::array<JointLimits, Tree::kNumBodies - 1> loaded_limits{};
  try {
    in("parameters file", [&] {
      if (!doc.is_object() || doc.value("format", std::string()) != "hodyn-robot-parameters")
        throw LoadError{Status::kInvalidArgument, "not a hodyn-urdf parameters file (format)"};
      if (doc.at("version").get<int>() != 1)
        throw LoadError{Status::kInvalidArgument, "unknown version " + doc.at("version").dump()};
      detail::expect_same(static_cast<int>(doc.at("bodies").size()), n, "number of bodies");
      detail::expect_same(static_cast<int>(doc.at("joints").size()), n - 1, "number of joints");
      const Status s = loaded.set_gravity(detail::vector3<Scalar>(doc.at("gravity")));
      if (s != Status::kOk) throw LoadError{s, "gravity rejected: " + std::string(to_string(s))};
    });
    for (int j = 0; j < n; ++j) {
      const auto J = static_cast<std::size_t>(j);
      in("body " + std::to_string(j), [&] {
        const nlohmann::json& b = doc.at("bodies").at(J);
        detail::expect_same(b.at("name").get<std::string>(), std::string(body_names[J]), "name");
        detail::expect_same(b.at("parent").get<int>(), Tree::kParent[J], "parent");
        const std::string joint = j == 0 ? std::string() : std::string(joint_names[J - 1]);
        detail::expect_same(
            b.at("joint").is_null() ? std::string() : b.at("joint").get<std::string>(), joint,
            "joint");
        Pose<Scalar> pose;
        pose.rotation = detail::matrix3<Scalar>(b.at("home_pose").at("rotation"));
        pose.translation = detail::vector3<Scalar>(b.at("home_pose").at("translation"));
        const auto inertia = SpatialInertia<Scalar>::from_mass_com_inertia(
            Scalar(b.at("mass").get<double>()), detail::vector3<Scalar>(b.at("com")),
            detail::matrix3<Scalar>(b.at("inertia_about_com")));
        const Status s = loaded.set_body(j, pose, inertia);
        if (s != Status::kOk)
          throw LoadError{
              s, "home pose or inertia rejected by the Model (" + std::string(to_string(s)) + ")"};
      });
    }
    for (int i = 0; i < n - 1; ++i) {
      const auto I = static_cast<std::size_t>(i);
      const int body = i + 1;
      const JointKind kind = Tree::kJoint[I + 1];
      in("joint " + std::to_string(i), [&] {
        const nlohmann::json& jt = doc.at("joints").at(I);
        detail::expect_same(jt.at("name").get<std::string>(), std::string(joint_names[I]), "name");
        detail::expect_same(jt.at("body").get<int>(), body, "body");
        detail::expect_same(jt.at("kind").get<std::string>(), std::string(joint_kind_name(kind)),
                            "kind");
        const Vector3<Scalar> axis = detail::vector3<Scalar>(jt.at("axis"));
        const Status s =
            is_revolute(kind)
                ? loaded.set_revolute_axis(body, axis, detail::vector3<Scalar>(jt.at("point")))
                : loaded.set_prismatic_axis(body, axis);
        if (s != Status::kOk)
          throw LoadError{s, "axis rejected by the Model (" + std::string(to_string(s)) + ")"};
        const nlohmann::json& l = jt.at("limits");
        constexpr double inf = std::numeric_limits<double>::infinity();
        JointLimits& out = loaded_limits[I];
        out.bounded = l.at("bounded").get<bool>();
        out.lower = detail::limit(l.at("lower"), -inf);
        out.upper = detail::limit(l.at("upper"), inf);
        out.velocity = detail::limit(l.at("velocity"), inf);
        out.effort = detail::limit(l.at("effort"), inf);
      });
    }
  } catch (const LoadError& e) {
    if (error != nullptr) *error = e.message;
    return e.status;
  } catch (const nlohmann::json::exception& e) {
    if (error != nullptr) *error = e.what();
    return Status::kInvalidArgument;
  }
  model = loaded;
  if (limits != nullptr) *limits = loaded_limits;
  return Status::kOk;
}

/// load_robot_json from a file; kInvalidArgument if it cannot be read or parsed.
template <class Tree, class Scalar>
Status load_robot_json_file(const std::string& path, Model<Tree, Scalar>& model,
                            const std::array<const char*, Tree::kNumBodies>& body_names,
                            const std::array<const char*, Tree::kNumBodies - 1>& joint_names,
                            std::string* error = nullptr,
                            std::array<JointLimits, Tree::kNumBodies - 1>* limits = nullptr) {
  std::ifstream in(path);
  if (!in) {
    if (error != nullptr) *error = "cannot read " + detail::quoted(path);
    return Status::kInvalidArgument;
  }
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    if (error != nullptr) *error = detail::quoted(path) + ": not valid JSON";
    return Status::kInvalidArgument;
  }
  const Status s = load_robot_json(doc, model, body_names, joint_names, error, limits);
  if (s != Status::kOk && error != nullptr) *error = detail::quoted(path) + ": " + *error;
  return s;
}

}  // namespace urdf
}  // namespace hodyn
