// hodyn::urdf::load_robot_json (tools/urdf/include/hodyn/urdf/robot_json.hpp):
// the parameters JSON hodyn-urdf writes beside a generated header.
//   - round trip: the JSON of the aerial manipulator and of branching.urdf
//     (bounded limits, general and negative axes) loads into exactly the
//     Model that make_model() builds (bit for bit) and the same limits;
//   - re-identification: a changed mass loads without recompiling and changes
//     the dynamics;
//   - topology mismatches are errors (kInvalidModel), never a silent reorder:
//     another robot, two bodies swapped, a renamed joint, a parent, a kind;
//   - bad values (negative mass, non-unit axis) are kInvalidModel, malformed
//     files kInvalidArgument; on every failure the model is left unchanged.
#include <hodyn/inverse_dynamics.hpp>
#include <hodyn/urdf/robot_json.hpp>

#include <aerial_manipulator_urdf.hpp>
#include <branching_urdf.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace am = aerial_manipulator_urdf;
using hodyn::Status;
using nlohmann::json;

json read_json(const char* path) {
  std::ifstream in(path);
  return json::parse(in);
}

template <class Tree>
void expect_identical(const hodyn::Model<Tree, double>& a, const hodyn::Model<Tree, double>& b) {
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    EXPECT_EQ(a.home_pose(j).rotation, b.home_pose(j).rotation) << j;
    EXPECT_EQ(a.home_pose(j).translation, b.home_pose(j).translation) << j;
    EXPECT_EQ(a.body_inertia(j).mass, b.body_inertia(j).mass) << j;
    EXPECT_EQ(a.body_inertia(j).first_moment, b.body_inertia(j).first_moment) << j;
    EXPECT_EQ(a.body_inertia(j).rotational_inertia, b.body_inertia(j).rotational_inertia) << j;
    if (j > 0) {
      EXPECT_EQ(a.joint_screw(j), b.joint_screw(j)) << j;
      EXPECT_EQ(a.joint_sense(j), b.joint_sense(j)) << j;
    }
  }
  EXPECT_EQ(a.gravity(), b.gravity());
}

void expect_same_limits(const hodyn::JointLimits& a, const hodyn::JointLimits& b) {
  EXPECT_EQ(a.bounded, b.bounded);
  EXPECT_EQ(a.lower, b.lower);
  EXPECT_EQ(a.upper, b.upper);
  EXPECT_EQ(a.velocity, b.velocity);
  EXPECT_EQ(a.effort, b.effort);
}

TEST(RobotJson, RoundTripAerialManipulator) {
  hodyn::Model<am::Tree, double> compiled, loaded;
  ASSERT_EQ(am::make_model(compiled), Status::kOk);
  std::string error;
  std::array<hodyn::JointLimits, am::kNumJoints> limits{};
  ASSERT_EQ(hodyn::urdf::load_robot_json_file(HODYN_AM_JSON, loaded, am::kBodyNames,
                                              am::kJointNames, &error, &limits),
            Status::kOk)
      << error;
  expect_identical(loaded, compiled);
  for (std::size_t i = 0; i < limits.size(); ++i)
    expect_same_limits(limits[i], am::kJointLimits[i]);
}

TEST(RobotJson, RoundTripBranchingWithLimitsAndNegativeAxis) {
  hodyn::Model<branching_urdf::Tree, double> compiled, loaded;
  ASSERT_EQ(branching_urdf::make_model(compiled), Status::kOk);
  std::string error;
  std::array<hodyn::JointLimits, branching_urdf::kNumJoints> limits{};
  ASSERT_EQ(hodyn::urdf::load_robot_json(read_json(HODYN_BRANCHING_JSON), loaded,
                                         branching_urdf::kBodyNames, branching_urdf::kJointNames,
                                         &error, &limits),
            Status::kOk)
      << error;
  expect_identical(loaded, compiled);
  EXPECT_EQ(loaded.joint_sense(4), -1.0);
  for (std::size_t i = 0; i < limits.size(); ++i)
    expect_same_limits(limits[i], branching_urdf::kJointLimits[i]);
  EXPECT_TRUE(limits[2].bounded);
  EXPECT_EQ(limits[2].effort, 12.0);
}

TEST(RobotJson, ReidentifiedMassLoadsWithoutRecompiling) {
  json doc = read_json(HODYN_AM_JSON);
  doc["bodies"][2]["mass"] = 0.3;  // arm1_link2 weighed again
  hodyn::Model<am::Tree, double> original, changed;
  ASSERT_EQ(am::make_model(original), Status::kOk);
  std::string error;
  ASSERT_EQ(hodyn::urdf::load_robot_json(doc, changed, am::kBodyNames, am::kJointNames, &error),
            Status::kOk)
      << error;
  EXPECT_EQ(changed.mass(2), 0.3);
  EXPECT_DOUBLE_EQ(changed.total_mass(), 4.05);
  // The hover wrench at home follows the new mass: f_z = m g.
  auto motion = std::make_unique<hodyn::MotionDerivatives<am::Tree, 0, double>>();
  auto data = std::make_unique<hodyn::InverseDynamicsData<am::Tree, 0, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics(changed, *data, *motion, 0), Status::kOk);
  EXPECT_NEAR(data->base_wrench[0](5), 4.05 * 9.81, 1e-12);
}

/// `doc` is refused with `status`, the message holds `words`, and the model
/// and limits are unchanged.
void expect_am_refused(const json& doc, Status status, const std::vector<std::string>& words) {
  hodyn::Model<am::Tree, double> model, before;
  ASSERT_EQ(am::make_model(model), Status::kOk);
  before = model;
  std::string error;
  std::array<hodyn::JointLimits, am::kNumJoints> limits{};
  limits[0].effort = 123;
  EXPECT_EQ(
      hodyn::urdf::load_robot_json(doc, model, am::kBodyNames, am::kJointNames, &error, &limits),
      status);
  for (const std::string& w : words)
    EXPECT_NE(error.find(w), std::string::npos) << "'" << w << "' not in: " << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  expect_identical(model, before);
  EXPECT_EQ(limits[0].effort, 123);
  std::cout << "refused: " << error << std::endl;
}

TEST(RobotJson, TopologyMismatchIsAnError) {
  const json am_doc = read_json(HODYN_AM_JSON);
  // Another robot's file.
  expect_am_refused(read_json(HODYN_BRANCHING_JSON), Status::kInvalidModel,
                    {"number of bodies", "6", "7"});
  // The two arms swapped in the file: refused, not reordered.
  json swapped = am_doc;
  std::swap(swapped["bodies"][1], swapped["bodies"][4]);
  expect_am_refused(swapped, Status::kInvalidModel, {"body 1", "name", "arm2_link1", "arm1_link1"});
  // A renamed joint.
  json renamed = am_doc;
  renamed["joints"][3]["name"] = "shoulder";
  expect_am_refused(renamed, Status::kInvalidModel, {"joint 3", "shoulder", "arm2_joint1"});
  // A different parent.
  json reparented = am_doc;
  reparented["bodies"][4]["parent"] = 3;
  expect_am_refused(reparented, Status::kInvalidModel, {"body 4", "parent"});
  // A different joint kind.
  json rekinded = am_doc;
  rekinded["joints"][0]["kind"] = "revolute_x";
  expect_am_refused(rekinded, Status::kInvalidModel, {"joint 0", "kind", "revolute_y"});
}

TEST(RobotJson, BadValuesAndFilesAreErrors) {
  const json am_doc = read_json(HODYN_AM_JSON);
  json negative = am_doc;
  negative["bodies"][3]["mass"] = -0.25;
  expect_am_refused(negative, Status::kInvalidModel, {"body 3", "rejected"});
  json not_unit = am_doc;
  not_unit["joints"][1]["axis"] = json::array({2.0, 0.0, 0.0});
  expect_am_refused(not_unit, Status::kInvalidModel, {"joint 1", "axis"});
  json missing = am_doc;
  missing["bodies"][2].erase("com");
  expect_am_refused(missing, Status::kInvalidArgument, {"body 2", "com"});
  json wrong_type = am_doc;
  wrong_type["bodies"][5]["mass"] = "heavy";
  expect_am_refused(wrong_type, Status::kInvalidArgument, {"body 5"});
  json not_ours = am_doc;
  not_ours["format"] = "something else";
  expect_am_refused(not_ours, Status::kInvalidArgument, {"format"});

  hodyn::Model<am::Tree, double> model;
  std::string error;
  EXPECT_EQ(hodyn::urdf::load_robot_json_file("/no/such/file.json", model, am::kBodyNames,
                                              am::kJointNames, &error),
            Status::kInvalidArgument);
  EXPECT_NE(error.find("/no/such/file.json"), std::string::npos) << error;
  const std::string garbage = std::string(HODYN_URDF_WORK) + "/garbage.json";
  std::ofstream(garbage) << "{ not json";
  EXPECT_EQ(
      hodyn::urdf::load_robot_json_file(garbage, model, am::kBodyNames, am::kJointNames, &error),
      Status::kInvalidArgument);
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
}

}  // namespace
