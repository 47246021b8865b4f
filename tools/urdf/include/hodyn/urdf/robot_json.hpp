// hodyn/urdf/robot_json.hpp — loads the parameters JSON that hodyn-urdf writes
// beside a generated header into a Model of that header's compiled tree.
//
// A re-identified robot (new masses, inertias, home poses, axes) needs no
// recompilation: edit or regenerate the JSON and load it. The topology is
// compiled in, so the file must match it exactly — body count, body and joint
// names in hodyn's order, parents and joint kinds; a mismatch is an error,
// never a silent reorder. Unknown keys (and, in a file, duplicate keys) are
// errors too, so a misspelt key in a hand-edited file is never ignored.
// Format: docs/state-format.md, "Robot parameters JSON".
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
#include <cmath>
#include <cstddef>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace hodyn {
namespace urdf {

/// The joint kind's name in the JSON files ("floating_base", "fixed_base", "revolute_x", …).
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
    case JointKind::kFixedBase:
      return "fixed_base";
    case JointKind::kHelical:
      return "helical";
    case JointKind::kSpherical:  // hodyn-urdf --spherical J1,J2,J3 (docs/urdf.md)
      return "spherical";
    case JointKind::kUniversal:  // hodyn-urdf --universal J1,J2 (docs/urdf.md)
      return "universal";
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

/// Every key of the object `j` is one of `known`; otherwise kInvalidArgument
/// naming the key (`where` prefixes the message: "" or "home_pose: ").
inline void only_keys(const nlohmann::json& j, std::initializer_list<const char*> known,
                      const std::string& where = std::string()) {
  if (!j.is_object())
    throw LoadError{Status::kInvalidArgument, where + "not an object but " + j.type_name()};
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool is_known = false;
    std::string allowed;
    for (const char* k : known) {
      is_known = is_known || it.key() == k;
      allowed += (allowed.empty() ? "" : ", ") + std::string(k);
    }
    if (!is_known)
      throw LoadError{
          Status::kInvalidArgument,
          where + "unknown key " + nlohmann::json(it.key()).dump() + " (allowed: " + allowed + ")"};
  }
}

/// "units", informative, but if present it must say SI: a file in other
/// units would otherwise load wrong numbers silently.
inline void check_units(const nlohmann::json& units) {
  only_keys(units, {"length", "mass", "inertia", "angle"}, "units: ");
  const std::pair<const char*, const char*> si[] = {
      {"length", "m"}, {"mass", "kg"}, {"inertia", "kg m^2"}, {"angle", "rad"}};
  for (const auto& [key, unit] : si)
    if (units.contains(key) && units.at(key) != unit)
      throw LoadError{Status::kInvalidArgument, std::string("units.") + key + ": the file says " +
                                                    units.at(key).dump() + ", hodyn reads \"" +
                                                    unit + "\" only"};
}

/// A pose object {rotation, translation} with no other key.
inline void check_pose_keys(const nlohmann::json& pose, const std::string& name) {
  only_keys(pose, {"rotation", "translation"}, name + ": ");
}

/// The path ("bodies[2].mass") of the first key that occurs twice in one
/// object of the JSON text `in`, "" when none (nlohmann::json would keep the
/// last one silently); `doc` receives the document, discarded on bad syntax.
inline std::string first_duplicate_key(std::istream& in, nlohmann::json& doc) {
  struct Level {
    bool array = false;
    std::size_t index = 0;  // arrays: the element being read
    std::string key;        // objects: the key being read
    std::vector<std::string> keys;
  };
  std::vector<Level> levels;
  std::string duplicate;
  const auto path_to = [&](const std::string& key) {
    std::string p;
    for (std::size_t i = 0; i + 1 < levels.size(); ++i)
      p += levels[i].array ? "[" + std::to_string(levels[i].index) + "]"
                           : (p.empty() ? "" : ".") + levels[i].key;
    return p + (p.empty() ? "" : ".") + key;
  };
  const auto element_done = [&] {
    if (!levels.empty() && levels.back().array) ++levels.back().index;
  };
  using Event = nlohmann::json::parse_event_t;
  doc = nlohmann::json::parse(
      in,
      [&](int /*depth*/, Event event, nlohmann::json& parsed) {
        switch (event) {
          case Event::object_start:
          case Event::array_start:
            levels.push_back(Level{event == Event::array_start, 0, {}, {}});
            break;
          case Event::key: {
            Level& level = levels.back();
            level.key = parsed.get<std::string>();
            for (const std::string& k : level.keys)
              if (k == level.key && duplicate.empty()) duplicate = path_to(level.key);
            level.keys.push_back(level.key);
            break;
          }
          case Event::object_end:
          case Event::array_end:
            levels.pop_back();
            element_done();
            break;
          case Event::value:
            element_done();
            break;
        }
        return true;
      },
      /*allow_exceptions=*/false);
  return duplicate;
}

/// A limit: a number, or null for none (±∞ as `none` says).
inline double limit(const nlohmann::json& j, double none) {
  return j.is_null() ? none : j.get<double>();
}

/// What is wrong with a universal joint's numbers as the file gives them
/// (`point`, `axis` e₁, `second_axis` e₂), "" if nothing: Model::set_universal_joint's
/// checks (finite, unit within the orthonormality tolerance, |e₁ × e₂|² ≥ 1e-12),
/// spelt out, so that a bad file gets a message that names the key.
inline std::string universal_defect(const Vector3<double>& point, const Vector3<double>& first,
                                    const Vector3<double>& second) {
  const std::pair<const char*, const Vector3<double>*> keys[] = {
      {"point", &point}, {"axis", &first}, {"second_axis", &second}};
  for (const auto& [key, v] : keys)
    if (!v->allFinite()) return std::string(key) + ": not finite";
  const double tol = ScalarTraits<double>::orthonormality_tolerance();
  for (const auto& [key, v] : {keys[1], keys[2]})
    if (std::abs(v->squaredNorm() - 1.0) > tol)
      return std::string(key) + ": not a unit vector (|e| = " + nlohmann::json(v->norm()).dump() +
             ")";
  if (!(first.cross(second).squaredNorm() >= 1e-12))
    return "axis and second_axis: parallel (|e1 x e2| = " +
           nlohmann::json(first.cross(second).norm()).dump() +
           "): a universal joint needs two directions";
  return std::string();
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
///   kInvalidArgument  not a hodyn-urdf parameters file, a missing key ("point"
///                     of a revolute or helical joint, "pitch" of a helical
///                     one, "centre" of a spherical one, …), an unknown key
///                     (any object; "point" on a prismatic or spherical joint,
///                     "pitch" on any joint but a helical one, "axis" on a
///                     spherical joint, "centre" on any other, "second_axis"
///                     on any joint but a universal one), a value of the
///                     wrong type, units other than SI;
///   kInvalidModel     the topology differs from the compiled tree (body count,
///                     a name, a parent, a joint kind), or a value the Model
///                     rejects (negative mass, axis not unit, a helical
///                     pitch or a ball's centre that is not finite, a
///                     universal joint's axes parallel, not unit or not
///                     finite, …).
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
      detail::only_keys(doc, {"format", "version", "comment", "name", "robot", "urdf", "root_link",
                              "units", "gravity", "bodies", "joints", "links"});
      if (doc.contains("comment") && !doc.at("comment").is_string())
        throw LoadError{Status::kInvalidArgument, "comment: not a string"};
      if (doc.contains("units")) detail::check_units(doc.at("units"));
      detail::expect_same(static_cast<int>(doc.at("bodies").size()), n, "number of bodies");
      detail::expect_same(static_cast<int>(doc.at("joints").size()), n - 1, "number of joints");
      const Status s = loaded.set_gravity(detail::vector3<Scalar>(doc.at("gravity")));
      if (s != Status::kOk) throw LoadError{s, "gravity rejected: " + std::string(to_string(s))};
    });
    for (int j = 0; j < n; ++j) {
      const auto J = static_cast<std::size_t>(j);
      in("body " + std::to_string(j), [&] {
        const nlohmann::json& b = doc.at("bodies").at(J);
        detail::only_keys(b, {"index", "name", "parent", "joint", "home_pose", "mass", "com",
                              "inertia_about_com", "lumped_links"});
        detail::check_pose_keys(b.at("home_pose"), "home_pose");
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
        if (jt.is_object() && jt.contains("point") && !joint_rotates(kind) && !is_universal(kind))
          throw LoadError{Status::kInvalidArgument,
                          "point: only revolute, helical and universal joints have one (the "
                          "compiled kind is " +
                              std::string(joint_kind_name(kind)) +
                              (is_spherical(kind) ? "; a ball has \"centre\")" : ")")};
        if (jt.is_object() && jt.contains("pitch") && !is_helical(kind))
          throw LoadError{Status::kInvalidArgument,
                          "pitch: only helical joints have one (the compiled kind is " +
                              std::string(joint_kind_name(kind)) + ")"};
        if (jt.is_object() && jt.contains("axis") && is_spherical(kind))
          throw LoadError{Status::kInvalidArgument,
                          "axis: a spherical joint has none (its \"centre\" fixes it)"};
        if (jt.is_object() && jt.contains("centre") && !is_spherical(kind))
          throw LoadError{Status::kInvalidArgument,
                          "centre: only spherical joints have one (the compiled kind is " +
                              std::string(joint_kind_name(kind)) +
                              (is_universal(kind) ? "; a universal joint has \"point\")" : ")")};
        if (jt.is_object() && jt.contains("second_axis") && !is_universal(kind))
          throw LoadError{Status::kInvalidArgument,
                          "second_axis: only universal joints have one (the compiled kind is " +
                              std::string(joint_kind_name(kind)) + ")"};
        if (is_spherical(kind))
          detail::only_keys(jt,
                            {"index", "name", "body", "kind", "centre", "urdf_joints", "limits"});
        else if (is_universal(kind))
          detail::only_keys(jt, {"index", "name", "body", "kind", "axis", "second_axis", "point",
                                 "urdf_joints", "limits"});
        else if (is_helical(kind))
          detail::only_keys(jt,
                            {"index", "name", "body", "kind", "axis", "point", "pitch", "limits"});
        else if (is_revolute(kind))
          detail::only_keys(jt, {"index", "name", "body", "kind", "axis", "point", "limits"});
        else
          detail::only_keys(jt, {"index", "name", "body", "kind", "axis", "limits"});
        detail::expect_same(jt.at("name").get<std::string>(), std::string(joint_names[I]), "name");
        detail::expect_same(jt.at("body").get<int>(), body, "body");
        detail::expect_same(jt.at("kind").get<std::string>(), std::string(joint_kind_name(kind)),
                            "kind");
        if (jt.contains("urdf_joints"))  // informative: not compared, but strings
          (void)jt.at("urdf_joints").get<std::vector<std::string>>();
        Status s = Status::kOk;
        if (is_spherical(kind)) {
          s = loaded.set_spherical_joint(body, detail::vector3<Scalar>(jt.at("centre")));
        } else if (is_universal(kind)) {
          const Vector3<double> point = detail::vector3<double>(jt.at("point"));
          const Vector3<double> first = detail::vector3<double>(jt.at("axis"));
          const Vector3<double> second = detail::vector3<double>(jt.at("second_axis"));
          const std::string defect = detail::universal_defect(point, first, second);
          if (!defect.empty()) throw LoadError{Status::kInvalidModel, defect};
          s = loaded.set_universal_joint(body, point.cast<Scalar>(), first.cast<Scalar>(),
                                         second.cast<Scalar>());
        } else {
          const Vector3<Scalar> axis = detail::vector3<Scalar>(jt.at("axis"));
          s = is_helical(kind)
                  ? loaded.set_helical_axis(body, axis, detail::vector3<Scalar>(jt.at("point")),
                                            Scalar(jt.at("pitch").get<double>()))
              : is_revolute(kind)
                  ? loaded.set_revolute_axis(body, axis, detail::vector3<Scalar>(jt.at("point")))
                  : loaded.set_prismatic_axis(body, axis);
        }
        if (s != Status::kOk)
          throw LoadError{s, std::string(is_spherical(kind)   ? "centre"
                                         : is_universal(kind) ? "axis, second_axis or point"
                                                              : "axis") +
                                 " rejected by the Model (" + std::string(to_string(s)) + ")"};
        const nlohmann::json& l = jt.at("limits");
        detail::only_keys(l, {"bounded", "lower", "upper", "velocity", "effort"}, "limits: ");
        constexpr double inf = std::numeric_limits<double>::infinity();
        JointLimits& out = loaded_limits[I];
        out.bounded = l.at("bounded").get<bool>();
        out.lower = detail::limit(l.at("lower"), -inf);
        out.upper = detail::limit(l.at("upper"), inf);
        out.velocity = detail::limit(l.at("velocity"), inf);
        out.effort = detail::limit(l.at("effort"), inf);
      });
    }
    if (doc.contains("links")) {
      const nlohmann::json& links = doc.at("links");
      in("links", [&] {
        if (!links.is_array()) throw LoadError{Status::kInvalidArgument, "not a list"};
      });
      for (std::size_t k = 0; k < links.size(); ++k)
        in("link " + std::to_string(k), [&] {
          const nlohmann::json& link = links.at(k);
          detail::only_keys(link, {"name", "body", "pose_in_body"});
          if (link.contains("pose_in_body"))
            detail::check_pose_keys(link.at("pose_in_body"), "pose_in_body");
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

/// load_robot_json from a file; kInvalidArgument if it cannot be read or
/// parsed, or if an object in it holds a key twice.
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
  nlohmann::json doc;
  const std::string duplicate = detail::first_duplicate_key(in, doc);
  if (doc.is_discarded()) {
    if (error != nullptr) *error = detail::quoted(path) + ": not valid JSON";
    return Status::kInvalidArgument;
  }
  if (!duplicate.empty()) {
    if (error != nullptr) *error = detail::quoted(path) + ": duplicate key " + duplicate;
    return Status::kInvalidArgument;
  }
  const Status s = load_robot_json(doc, model, body_names, joint_names, error, limits);
  if (s != Status::kOk && error != nullptr) *error = detail::quoted(path) + ": " + *error;
  return s;
}

}  // namespace urdf
}  // namespace hodyn
