// hodyn::urdf::load_robot_json refuses what it would otherwise ignore
// (tools/urdf/include/hodyn/urdf/robot_json.hpp, docs/state-format.md):
//   - an unknown key in any object of the parameters file — top level, units,
//     a body, its home_pose, a joint, its limits, a link, its pose_in_body —
//     is kInvalidArgument with one line naming the key and where it is, and
//     the model is left unchanged (a re-identified file with a misspelt or
//     invented key must not load as if the key were not there);
//   - "point" on a prismatic joint (the writer gives it to revolute joints only);
//   - units other than the SI ones the numbers are read in;
//   - a key given twice in one object of a file (nlohmann::json would keep the
//     last one silently), located by its path;
//   - while the informative keys stay optional and a top-level "comment" is allowed.
#include <hodyn/urdf/robot_json.hpp>

#include <aerial_manipulator_urdf.hpp>
#include <branching_urdf.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace am = aerial_manipulator_urdf;
using hodyn::Status;
using nlohmann::json;

std::string read_text(const char* path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

json read_json(const char* path) { return json::parse(read_text(path)); }

/// `doc` loads into the aerial manipulator's compiled tree.
Status load_am(const json& doc, std::string* error) {
  hodyn::Model<am::Tree, double> model;
  return hodyn::urdf::load_robot_json(doc, model, am::kBodyNames, am::kJointNames, error);
}

/// `doc` is refused with kInvalidArgument, the one-line message holds every
/// one of `words`, the model keeps the masses it had.
void expect_refused(const json& doc, const std::vector<std::string>& words) {
  hodyn::Model<am::Tree, double> model;
  ASSERT_EQ(am::make_model(model), Status::kOk);
  const double mass2 = model.mass(2);
  std::string error;
  EXPECT_EQ(hodyn::urdf::load_robot_json(doc, model, am::kBodyNames, am::kJointNames, &error),
            Status::kInvalidArgument);
  for (const std::string& w : words)
    EXPECT_NE(error.find(w), std::string::npos) << "'" << w << "' not in: " << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_EQ(model.mass(2), mass2);
  std::cout << "refused: " << error << std::endl;
}

TEST(RobotJsonStrict, UnknownKeysAreErrorsWhereverTheyAre) {
  const json good = read_json(HODYN_AM_JSON);
  std::string error;
  ASSERT_EQ(load_am(good, &error), Status::kOk) << error;

  struct Case {
    const char* what;
    json doc;
    std::vector<std::string> words;
  };
  std::vector<Case> cases;
  const auto add = [&](const char* what, const json::json_pointer& where, const char* key,
                       const std::vector<std::string>& words) {
    json doc = good;
    doc[where][key] = 0.3;
    cases.push_back({what, doc, words});
  };
  using ptr = json::json_pointer;
  add("top level", ptr(""), "gravity_z", {"parameters file", "unknown key", "gravity_z"});
  add("units", ptr("/units"), "time", {"units", "unknown key", "time"});
  add("body", ptr("/bodies/2"), "mas", {"body 2", "unknown key", "\"mas\"", "mass"});
  add("home pose", ptr("/bodies/3/home_pose"), "rpy", {"body 3", "home_pose", "rpy"});
  add("joint", ptr("/joints/1"), "damping", {"joint 1", "unknown key", "damping"});
  add("limits", ptr("/joints/4/limits"), "effort_limit", {"joint 4", "limits", "effort_limit"});
  add("link", ptr("/links/0"), "parent", {"link 0", "unknown key", "parent"});
  add("link pose", ptr("/links/5/pose_in_body"), "rpy", {"link 5", "pose_in_body", "rpy"});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    expect_refused(c.doc, c.words);
  }
}

TEST(RobotJsonStrict, PointOnlyOnRevoluteJoints) {
  const json good = read_json(HODYN_BRANCHING_JSON);
  const int slide = branching_urdf::joint_index("c_slide");
  ASSERT_GE(slide, 0);
  ASSERT_EQ(good["joints"][slide]["kind"], "prismatic_x");
  ASSERT_FALSE(good["joints"][slide].contains("point"));
  json doc = good;
  doc["joints"][slide]["point"] = json::array({0.0, 0.0, 0.0});
  hodyn::Model<branching_urdf::Tree, double> model;
  std::string error;
  EXPECT_EQ(hodyn::urdf::load_robot_json(good, model, branching_urdf::kBodyNames,
                                         branching_urdf::kJointNames, &error),
            Status::kOk)
      << error;
  EXPECT_EQ(hodyn::urdf::load_robot_json(doc, model, branching_urdf::kBodyNames,
                                         branching_urdf::kJointNames, &error),
            Status::kInvalidArgument);
  EXPECT_NE(error.find("joint " + std::to_string(slide)), std::string::npos) << error;
  EXPECT_NE(error.find("point"), std::string::npos) << error;
  EXPECT_NE(error.find("prismatic_x"), std::string::npos) << error;
}

TEST(RobotJsonStrict, UnitsMustBeTheSiUnits) {
  json mm = read_json(HODYN_AM_JSON);
  mm["units"]["length"] = "mm";
  expect_refused(mm, {"units.length", "mm", "\"m\""});
  json grams = read_json(HODYN_AM_JSON);
  grams["units"]["mass"] = "g";
  expect_refused(grams, {"units.mass", "\"g\"", "kg"});
}

TEST(RobotJsonStrict, InformativeKeysAreOptionalAndACommentIsAllowed) {
  json doc = read_json(HODYN_AM_JSON);
  for (const char* key : {"name", "robot", "urdf", "root_link", "units", "links"}) doc.erase(key);
  for (json& b : doc["bodies"]) {
    b.erase("index");
    b.erase("lumped_links");
  }
  for (json& j : doc["joints"]) j.erase("index");
  doc["comment"] = "masses re-identified on the test stand";
  std::string error;
  EXPECT_EQ(load_am(doc, &error), Status::kOk) << error;
  doc["comment"] = 3;
  expect_refused(doc, {"comment"});
}

/// The file text with `insert` placed right after the first `after`.
std::string inserted(const std::string& text, const std::string& after, const std::string& insert) {
  const std::size_t at = text.find(after);
  EXPECT_NE(at, std::string::npos) << after;
  return text.substr(0, at + after.size()) + insert + text.substr(at + after.size());
}

Status load_am_file(const std::string& text, const char* name, std::string* error) {
  const std::string path = std::string(HODYN_URDF_WORK) + "/" + name;
  std::ofstream(path) << text;
  hodyn::Model<am::Tree, double> model;
  return hodyn::urdf::load_robot_json_file(path, model, am::kBodyNames, am::kJointNames, error);
}

TEST(RobotJsonStrict, DuplicateKeysInAFileAreErrors) {
  const std::string text = read_text(HODYN_AM_JSON);
  std::string error;
  ASSERT_EQ(load_am_file(text, "strict_good.json", &error), Status::kOk) << error;

  // Body 2 weighed twice: which mass would count?
  const std::string body2 = inserted(text, "\"index\": 2,", " \"mass\": 0.3,");
  EXPECT_EQ(load_am_file(body2, "strict_dup_body.json", &error), Status::kInvalidArgument);
  EXPECT_NE(error.find("strict_dup_body.json"), std::string::npos) << error;
  EXPECT_NE(error.find("duplicate key bodies[2].mass"), std::string::npos) << error;
  std::cout << "refused: " << error << std::endl;

  const std::string top = inserted(text, "{", " \"gravity\": [0.0, 0.0, -9.80665],");
  EXPECT_EQ(load_am_file(top, "strict_dup_top.json", &error), Status::kInvalidArgument);
  EXPECT_NE(error.find("duplicate key gravity"), std::string::npos) << error;

  // Deeper, after arrays of arrays (the bodies' rotations): the limits of
  // joint 0, the first "bounded" of the file (the arms' joints are continuous).
  const std::string limits = inserted(text, "\"bounded\": false,", " \"bounded\": true,");
  EXPECT_EQ(load_am_file(limits, "strict_dup_limits.json", &error), Status::kInvalidArgument);
  EXPECT_NE(error.find("duplicate key joints[0].limits.bounded"), std::string::npos) << error;
}

}  // namespace
