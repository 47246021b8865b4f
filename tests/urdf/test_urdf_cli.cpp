// hodyn-urdf's command line on the small URDFs of tests/urdf/data/cli.
//
//   - --report: bodies depth-first from the root with children in the joints'
//     document order (branching.urdf lists them out of order on purpose),
//     joints, parents, kinds, dof, total mass, lumped links; stdout is JSON only;
//   - the parameters JSON against numbers computed by hand in the URDFs'
//     comments: exact lumping of a fixed link with an off-centre CoM and a
//     rotated frame, a child of a lumped link re-attached with the composed
//     origin, world axes (aligned, negative, general), axis points, limits;
//   - every bad input: exit status 2, nothing on stdout, ONE line on stderr
//     naming the culprit, and no output file written or replaced;
//   - --root must be the URDF's root; the compiled maximum of bodies;
//   - a 7-body URDF (the aerial manipulator) converts in under 1 s.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "support/command_line.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kTool = HODYN_URDF_TOOL;
const fs::path kData = HODYN_URDF_CLI_DATA;
const fs::path kWork = HODYN_URDF_CLI_WORK;

using Result = hodyn::test::CommandResult;
using hodyn::test::read_file;
using hodyn::test::write_file;

fs::path fresh_dir(const std::string& name) { return hodyn::test::fresh_directory(kWork, name); }

/// Runs hodyn-urdf with `args` (already quoted where needed) in `dir`.
Result run(const fs::path& dir, const std::string& args) {
  return hodyn::test::run_tool(kTool, dir, args);
}

std::string data(const std::string& file) { return "'" + (kData / file).string() + "'"; }

json report(const std::string& file) {
  const fs::path dir = fresh_dir("report_" + file);
  const Result r = run(dir, "--report " + data(file));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);  // throws on anything but one JSON document
}

json parameters(const std::string& file) {
  const fs::path dir = fresh_dir("parameters_" + file);
  const Result r = run(dir, "--name robot --parameters robot.json " + data(file));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  return json::parse(read_file(dir / "robot.json"));
}

std::vector<double> vec(const json& j) { return j.get<std::vector<double>>(); }

void expect_near(const json& actual, std::vector<double> expected, double tol,
                 const std::string& what) {
  const std::vector<double> a = vec(actual);
  ASSERT_EQ(a.size(), expected.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(a[i], expected[i], tol) << what << "[" << i << "]";
}

// ---------------------------------------------------------------------------
// Reports and parameters
// ---------------------------------------------------------------------------

TEST(UrdfCli, ReportNumbersDepthFirstInJointDocumentOrder) {
  const json r = report("branching.urdf");
  EXPECT_EQ(r["bodies"],
            json({"torso", "head", "left_upper", "left_lower", "right_upper", "slider"}));
  EXPECT_EQ(r["joints"],
            json({"z_neck", "a_left_shoulder", "m_left_elbow", "b_right_shoulder", "c_slide"}));
  EXPECT_EQ(r["parents"], json({-1, 0, 0, 2, 0, 0}));
  EXPECT_EQ(r["joint_kinds"], json({"floating_base", "revolute_z", "revolute_y", "revolute",
                                    "revolute_z", "prismatic_x"}));
  EXPECT_EQ(r["dof"], 11);
  EXPECT_NEAR(r["total_mass_kg"].get<double>(), 2.8, 1e-15);
  EXPECT_EQ(r["lumped_links"], json::array());
  EXPECT_EQ(r["root"], "torso");
}

TEST(UrdfCli, BranchingAxesPointsAndLimits) {
  const json p = parameters("branching.urdf");
  const json& j = p["joints"];
  ASSERT_EQ(j.size(), 5u);
  const double h = std::sqrt(0.5);
  // Neck: z through (0, 0, 0.3); continuous: no position or rate limits.
  EXPECT_EQ(vec(j[0]["axis"]), (std::vector<double>{0, 0, 1}));
  expect_near(j[0]["point"], {0, 0, 0.3}, 1e-16, "neck point");
  EXPECT_EQ(j[0]["limits"], json({{"bounded", false},
                                  {"lower", nullptr},
                                  {"upper", nullptr},
                                  {"velocity", nullptr},
                                  {"effort", nullptr}}));
  // Left shoulder: axis x of a frame turned by yaw π/2 = world y, exactly.
  EXPECT_EQ(j[1]["kind"], "revolute_y");
  EXPECT_EQ(vec(j[1]["axis"]), (std::vector<double>{0, 1, 0}));
  expect_near(j[1]["point"], {0, 0.2, 0.2}, 1e-16, "shoulder point");
  // Elbow: Rz(π/2) (0, 1, 1)/√2 = (−1, 0, 1)/√2 through (0, 0.2, 0.2) + Rz(π/2)(0, 0, −0.3).
  EXPECT_EQ(j[2]["kind"], "revolute");
  expect_near(j[2]["axis"], {-h, 0, h}, 1e-15, "elbow axis");
  expect_near(j[2]["point"], {0, 0.2, -0.1}, 1e-15, "elbow point");
  EXPECT_EQ(j[2]["limits"], json({{"bounded", true},
                                  {"lower", -2.0},
                                  {"upper", 0.5},
                                  {"velocity", 3.0},
                                  {"effort", 12.0}}));
  // Right shoulder: axis 0 0 −1 stays negative (the Model keeps the sense).
  EXPECT_EQ(j[3]["kind"], "revolute_z");
  EXPECT_EQ(vec(j[3]["axis"]), (std::vector<double>{0, 0, -1}));
  // Slider: prismatic along x, no axis point.
  EXPECT_EQ(j[4]["kind"], "prismatic_x");
  EXPECT_EQ(vec(j[4]["axis"]), (std::vector<double>{1, 0, 0}));
  EXPECT_FALSE(j[4].contains("point"));
  EXPECT_EQ(j[4]["limits"]["upper"], 0.2);
  // The elbow body's home pose: the shoulder's rotation Rz(π/2), origin (0, 0.2, −0.1).
  const json& elbow = p["bodies"][3];
  EXPECT_EQ(elbow["name"], "left_lower");
  EXPECT_EQ(elbow["parent"], 2);
  expect_near(elbow["home_pose"]["translation"], {0, 0.2, -0.1}, 1e-15, "elbow origin");
  for (int row = 0; row < 3; ++row)
    expect_near(elbow["home_pose"]["rotation"][static_cast<std::size_t>(row)],
                std::vector<std::vector<double>>{
                    {0, -1, 0}, {1, 0, 0}, {0, 0, 1}}[static_cast<std::size_t>(row)],
                1e-15, "elbow rotation");
  expect_near(elbow["com"], {0, 0, -0.15}, 0, "elbow com (its own frame)");
}

TEST(UrdfCli, FixedLinkLumpedExactlyByHand) {
  const json r = report("lumping.urdf");
  EXPECT_EQ(r["bodies"], json({"base", "gimbal"}));
  EXPECT_EQ(r["joints"], json({"gimbal_joint"}));
  EXPECT_EQ(r["lumped_links"], json({"sensor", "imu_frame"}));
  EXPECT_EQ(r["dof"], 7);
  EXPECT_NEAR(r["total_mass_kg"].get<double>(), 3.5, 1e-15);

  const json p = parameters("lumping.urdf");
  const json& base = p["bodies"][0];
  EXPECT_NEAR(base["mass"].get<double>(), 3.0, 1e-15);
  expect_near(base["com"], {0.1, 0, 0}, 1e-15, "lumped com");
  const std::vector<std::vector<double>> inertia{{0.12, 0, 0}, {0, 0.17, 0}, {0, 0, 0.19}};
  for (std::size_t row = 0; row < 3; ++row)
    expect_near(base["inertia_about_com"][row], inertia[row], 1e-15, "lumped inertia");
  EXPECT_EQ(base["lumped_links"], json({"sensor", "imu_frame"}));
  // The gimbal hangs from the lumped sensor: origin base ∘ sensor_mount ∘ gimbal_joint.
  const json& gimbal = p["bodies"][1];
  expect_near(gimbal["home_pose"]["translation"], {0.5, 0, 0.1}, 1e-15, "gimbal origin");
  const json& joint = p["joints"][0];
  EXPECT_EQ(joint["kind"], "revolute_y");
  EXPECT_EQ(vec(joint["axis"]), (std::vector<double>{0, 1, 0}));
  expect_near(joint["point"], {0.5, 0, 0.1}, 1e-15, "gimbal axis point");
  // Every link with its body and its frame there, in document order.
  const json& links = p["links"];
  ASSERT_EQ(links.size(), 4u);
  EXPECT_EQ(links[2]["name"], "imu_frame");
  EXPECT_EQ(links[2]["body"], 0);
  expect_near(links[2]["pose_in_body"]["translation"], {0.5, 0, 0.02}, 1e-15, "imu frame");
  EXPECT_EQ(links[3]["name"], "gimbal");
  EXPECT_EQ(links[3]["body"], 1);
}

TEST(UrdfCli, InertialFrameRotatedIntoTheLinkFrame) {
  const json p = parameters("inertial_frame.urdf");
  const json& body = p["bodies"][0];
  // The base frame is the root link's frame, not its CoM.
  expect_near(body["home_pose"]["translation"], {0, 0, 0}, 0, "base origin");
  expect_near(body["com"], {0.1, 0, 0}, 1e-16, "base com");
  const std::vector<std::vector<double>> base{{0.025, 0, 0}, {0, 0.02, 0}, {0, 0, 0.01}};
  for (std::size_t row = 0; row < 3; ++row)
    expect_near(body["inertia_about_com"][row], base[row], 1e-16, "Ry(pi/2) inertia");
  const json& flap = p["bodies"][1];
  expect_near(flap["com"], {0, 0.05, 0}, 1e-16, "flap com (own frame)");
  const std::vector<std::vector<double>> in_flap{{0.001, 0, 0}, {0, 0.003, 0}, {0, 0, 0.002}};
  for (std::size_t row = 0; row < 3; ++row)
    expect_near(flap["inertia_about_com"][row], in_flap[row], 1e-16, "Rx(pi/2) inertia");
  expect_near(flap["home_pose"]["translation"], {0, 0, 0.2}, 0, "flap origin");
  EXPECT_EQ(p["joints"][0]["kind"], "revolute_z");
}

TEST(UrdfCli, OutputsWrittenTogetherAndReplaced) {
  const fs::path dir = fresh_dir("outputs");
  write_file(dir / "robot.hpp", "stale");
  const Result r = run(dir, "--name robot --header robot.hpp --parameters robot.json --report " +
                                data("branching.urdf"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["dof"], 11);
  EXPECT_NE(read_file(dir / "robot.hpp").find("namespace robot {"), std::string::npos);
  EXPECT_EQ(json::parse(read_file(dir / "robot.json"))["format"], "hodyn-robot-parameters");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"robot.hpp", "robot.json"}));  // no temporaries
}

// ---------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------

/// Exit 2, empty stdout, one line on stderr holding every `culprit`, and the
/// output directory as it was (a stale header untouched, nothing added).
void expect_rejected(const std::string& case_name, const std::string& args,
                     const std::vector<std::string>& culprits) {
  const fs::path dir = fresh_dir("bad_" + case_name);
  write_file(dir / "robot.hpp", "stale header");
  const Result r =
      run(dir, "--name robot --header robot.hpp --parameters robot.json --report " + args);
  EXPECT_EQ(r.status, 2) << case_name;
  EXPECT_EQ(r.out, "") << case_name;
  ASSERT_FALSE(r.err.empty()) << case_name;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << case_name << ": not one line: " << r.err;
  EXPECT_EQ(r.err.rfind("hodyn-urdf: ", 0), 0u) << r.err;
  for (const std::string& c : culprits)
    EXPECT_NE(r.err.find(c), std::string::npos) << case_name << ": '" << c << "' not in " << r.err;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().filename().string());
  EXPECT_EQ(files, std::vector<std::string>{"robot.hpp"}) << case_name;
  EXPECT_EQ(read_file(dir / "robot.hpp"), "stale header") << case_name;
  std::cout << case_name << ": " << r.err;
}

struct BadCase {
  const char* file;
  std::vector<std::string> culprits;
};

TEST(UrdfCli, BadInputsExitTwoWithOneLineNamingTheCulprit) {
  const std::vector<BadCase> cases{
      {"bad_malformed.urdf", {"bad_malformed.urdf:6:", "malformed XML"}},
      {"bad_negative_mass.urdf", {"'heavy'", "negative mass"}},
      {"bad_not_psd.urdf", {"'wobbly'", "not positive semi-definite"}},
      {"bad_triangle.urdf", {"'impossible'", "triangle inequality"}},
      {"bad_massless_leaf.urdf", {"'tip'", "'tip_joint'", "massless"}},
      {"bad_massless_subtree.urdf", {"'finger'", "'finger_joint'", "massless"}},
      {"bad_collinear.urdf", {"'spacer_joint'", "'spacer'", "singular"}},
      {"bad_massless_base.urdf", {"'hub'", "singular"}},
      {"bad_no_mass.urdf", {"no mass"}},
      {"bad_cycle.urdf", {"cycle", "'b'", "'c'"}},
      {"bad_rootless.urdf", {"root"}},
      {"bad_two_parents.urdf", {"'shared'", "'left'", "'right'"}},
      {"bad_planar.urdf", {"'table'", "planar"}},
      {"bad_floating.urdf", {"'free_flyer'", "floating"}},
      {"bad_no_limit.urdf", {"elbow", "limits"}},
      {"bad_bad_number.urdf", {"lump", "heavy"}},
      {"bad_unknown_link.urdf", {"ghost", "[j]"}},
      {"bad_zero_axis.urdf", {"'spin'", "zero length"}},
      {"bad_limits_reversed.urdf", {"'knee'", "lower 1 > upper -1"}},
  };
  for (const BadCase& c : cases) expect_rejected(c.file, data(c.file), c.culprits);
}

/// A two-link robot whose numbers are given as text, so that each can be
/// spoilt (docs/robustness.md, "URDF elements").
std::string two_links(const std::string& mass, const std::string& origin, const std::string& axis,
                      const std::string& upper, const std::string& effort,
                      const std::string& velocity) {
  const char* link_inertia =
      "<inertia ixx=\"1e-3\" ixy=\"0\" ixz=\"0\" iyy=\"1e-3\" iyz=\"0\" izz=\"1e-3\"/>";
  return "<robot name=\"r\"><link name=\"base\"><inertial><mass value=\"" + mass + "\"/>" +
         link_inertia +
         "</inertial></link>\n<joint name=\"j\" type=\"revolute\"><parent "
         "link=\"base\"/><child link=\"l\"/><origin xyz=\"" +
         origin + "\"/><axis xyz=\"" + axis + "\"/><limit lower=\"-1\" upper=\"" + upper +
         "\" effort=\"" + effort + "\" velocity=\"" + velocity +
         "\"/></joint>\n<link name=\"l\"><inertial><mass "
         "value=\"0.1\"/>" +
         link_inertia + "</inertial></link></robot>\n";
}

TEST(UrdfCli, NonFiniteNumbersNegativeLimitsAndNoRobotAreBadInput) {
  const fs::path dir = fresh_dir("spoilt_numbers");
  const auto file = [&](const std::string& name, const std::string& text) {
    write_file(dir / name, text);
    return "'" + (dir / name).string() + "'";
  };
  // The unspoilt robot converts, so each case below fails for its one change.
  const Result ok =
      run(fresh_dir("spoilt_ok"),
          "--report " + file("ok.urdf", two_links("1", "0.1 0 0", "0 0 1", "1", "1", "1")));
  ASSERT_EQ(ok.status, 0) << ok.err;
  expect_rejected("nan_mass",
                  file("nan_mass.urdf", two_links("nan", "0.1 0 0", "0 0 1", "1", "1", "1")),
                  {"mass [nan]", "base"});
  expect_rejected("overflow_mass",
                  file("big_mass.urdf", two_links("1e999", "0.1 0 0", "0 0 1", "1", "1", "1")),
                  {"mass [1e999]", "base"});
  expect_rejected("inf_origin",
                  file("inf_origin.urdf", two_links("1", "inf 0 0", "0 0 1", "1", "1", "1")),
                  {"[inf]", "joint [j]"});
  expect_rejected("nan_axis",
                  file("nan_axis.urdf", two_links("1", "0.1 0 0", "0 nan 1", "1", "1", "1")),
                  {"[nan]", "joint [j]"});
  expect_rejected("overflow_limit",
                  file("big_upper.urdf", two_links("1", "0.1 0 0", "0 0 1", "1e999", "1", "1")),
                  {"1e999", "joint [j]"});
  expect_rejected("negative_effort",
                  file("neg_effort.urdf", two_links("1", "0.1 0 0", "0 0 1", "1", "-1", "1")),
                  {"'j'", "effort -1 is negative"});
  expect_rejected("negative_velocity",
                  file("neg_velocity.urdf", two_links("1", "0.1 0 0", "0 0 1", "1", "1", "-1")),
                  {"'j'", "velocity -1 is negative"});
  expect_rejected("no_robot", file("no_robot.urdf", "<robo name=\"r\"/>\n"),
                  {"no <robot> element"});
  expect_rejected("empty", file("empty.urdf", ""), {"empty.urdf", "malformed XML"});
}

TEST(UrdfCli, MissingFileIsBadInput) {
  expect_rejected("missing", data("no_such_file.urdf"), {"no_such_file.urdf", "cannot read"});
}

TEST(UrdfCli, RootMustBeTheUrdfRoot) {
  expect_rejected("root_not_root", "--root left_upper " + data("branching.urdf"),
                  {"'left_upper'", "'torso'", "re-root"});
  expect_rejected("root_unknown", "--root nothing " + data("branching.urdf"), {"'nothing'"});
  const fs::path dir = fresh_dir("root_ok");
  const Result r = run(dir, "--root torso --report " + data("branching.urdf"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["root"], "torso");
}

// --fixed-base: the root welded to the world (JointKind::kFixedBase, ν = q̇).
// The massless hub that makes a floating base singular is a fine mount.
TEST(UrdfCli, FixedBaseWeldsTheRootAndCountsOnlyTheJoints) {
  const fs::path dir = fresh_dir("fixed_base");
  Result r = run(dir, "--fixed-base --report " + data("branching.urdf"));
  ASSERT_EQ(r.status, 0) << r.err;
  json rep = json::parse(r.out);
  EXPECT_EQ(rep["joint_kinds"], json({"fixed_base", "revolute_z", "revolute_y", "revolute",
                                      "revolute_z", "prismatic_x"}));
  EXPECT_EQ(rep["dof"], 5);
  r = run(dir, "--fixed-base --name arm --header arm.hpp " + data("bad_massless_base.urdf"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string header = read_file(dir / "arm.hpp");
  EXPECT_NE(header.find("hodyn::JointKind::kFixedBase"), std::string::npos);
  EXPECT_NE(header.find("kNumDofs = kNumJoints;"), std::string::npos);
  EXPECT_EQ(header.find("kFloatingBase"), std::string::npos);
  expect_rejected("fixed_base_massless", data("bad_massless_base.urdf") + " --report",
                  {"'hub'", "singular"});
  expect_rejected("fixed_base_rotors",
                  "--fixed-base --rotors r.json --rotor-header ar.hpp " + data("branching.urdf"),
                  {"--fixed-base", "floating base"});
}

// --helical JOINT=PITCH (docs/urdf.md, "Helical joints"): URDF has no screw
// joint, so a revolute or continuous joint is named and given its pitch. The
// joint keeps its axis, its point (the joint's origin) and its limits; it
// becomes kind "helical" with "pitch" in the parameters, kHelical in the
// header's Tree and its pitch in kJointPitch. The physics of the result:
// test_generated_helical.
TEST(UrdfCli, HelicalJointFromARevoluteOrContinuousJoint) {
  const fs::path dir = fresh_dir("helical_lead_screw");
  Result r = run(dir,
                 "--fixed-base --helical lead_screw=0.01 --name ls --header ls.hpp --parameters "
                 "ls.json --report " +
                     data("lead_screw.urdf"));
  ASSERT_EQ(r.status, 0) << r.err;
  const json rep = json::parse(r.out);
  EXPECT_EQ(rep["joint_kinds"], json({"fixed_base", "helical"}));
  EXPECT_EQ(rep["dof"], 1);
  const json joint = json::parse(read_file(dir / "ls.json"))["joints"][0];
  EXPECT_EQ(joint["kind"], "helical");
  EXPECT_EQ(vec(joint["axis"]), (std::vector<double>{0, 0, 1}));
  expect_near(joint["point"], {0.1, -0.2, 0.3}, 1e-16, "screw point");
  EXPECT_EQ(joint["pitch"], 0.01);
  EXPECT_EQ(joint["limits"], json({{"bounded", false},
                                   {"lower", nullptr},
                                   {"upper", nullptr},
                                   {"velocity", 20.0},
                                   {"effort", 5.0}}));
  const std::string header = read_file(dir / "ls.hpp");
  EXPECT_NE(header.find("hodyn::JointKind::kHelical}"), std::string::npos);
  EXPECT_NE(header.find("kJointPitch{0.0, 0.01};"), std::string::npos);

  // A general axis (the elbow) and an aligned one (the neck), a left-handed
  // and a right-handed screw, in a floating robot: the same axes and points
  // as without --helical, the helical kind instead of the revolute ones.
  const json plain = parameters("branching.urdf");
  r = run(dir,
          "--helical m_left_elbow=-0.05 --helical z_neck=2e-3 --name br --parameters "
          "br.json --report " +
              data("branching.urdf"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["joint_kinds"], json({"floating_base", "helical", "revolute_y",
                                                     "helical", "revolute_z", "prismatic_x"}));
  const json screws = json::parse(read_file(dir / "br.json"));
  for (std::size_t i = 0; i < 5; ++i) {
    const json& j = screws["joints"][i];
    const json& before = plain["joints"][i];
    EXPECT_EQ(j["axis"], before["axis"]) << i;
    EXPECT_EQ(j.value("point", json()), before.value("point", json())) << i;
    EXPECT_EQ(j["limits"], before["limits"]) << i;
    EXPECT_EQ(j["kind"], i == 0 || i == 2 ? json("helical") : before["kind"]) << i;
    EXPECT_EQ(j.contains("pitch"), i == 0 || i == 2) << i;
    EXPECT_FALSE(before.contains("pitch")) << i;
  }
  EXPECT_EQ(screws["joints"][0]["pitch"], 0.002);
  EXPECT_EQ(screws["joints"][2]["pitch"], -0.05);
  EXPECT_EQ(screws["bodies"], plain["bodies"]);
}

// A point mass on a revolute joint's axis has no inertia about it (singular,
// refused); on a screw it is lifted, D = m h² > 0, and the robot converts.
TEST(UrdfCli, HelicalLiftsAPointMassOnItsAxis) {
  const fs::path dir = fresh_dir("helical_point_mass");
  write_file(dir / "bead.urdf",
             "<robot name=\"bead\"><link name=\"post\"><inertial><mass value=\"1\"/>"
             "<inertia ixx=\"1e-3\" ixy=\"0\" ixz=\"0\" iyy=\"1e-3\" iyz=\"0\" "
             "izz=\"1e-3\"/></inertial></link>\n<joint name=\"thread\" type=\"continuous\">"
             "<parent link=\"post\"/><child link=\"bead\"/><origin xyz=\"0 0 0.2\"/>"
             "<axis xyz=\"0 0 1\"/></joint>\n<link name=\"bead\"><inertial><origin "
             "xyz=\"0 0 0.05\"/><mass value=\"0.1\"/><inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" "
             "iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial></link></robot>\n");
  const std::string bead = "'" + (dir / "bead.urdf").string() + "'";
  expect_rejected("revolute_point_mass", "--fixed-base " + bead, {"'thread'", "singular"});
  const Result r = run(dir, "--fixed-base --helical thread=0.003 --report " + bead);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["joint_kinds"], json({"fixed_base", "helical"}));
}

TEST(UrdfCli, HelicalBadOptionsAreBadInput) {
  const std::string screw = data("lead_screw.urdf");
  expect_rejected("helical_unknown_joint", "--helical nut_joint=0.01 " + screw,
                  {"--helical 'nut_joint'", "no joint"});
  expect_rejected("helical_prismatic", "--helical c_slide=0.01 " + data("branching.urdf"),
                  {"'c_slide'", "prismatic", "revolute or continuous"});
  expect_rejected("helical_fixed", "--helical sensor_mount=0.01 " + data("lumping.urdf"),
                  {"'sensor_mount'", "fixed", "revolute or continuous"});
  expect_rejected("helical_not_a_number", "--helical lead_screw=fine " + screw,
                  {"'lead_screw'", "'fine'", "not a number"});
  expect_rejected("helical_trailing_text", "--helical lead_screw=0.01m " + screw,
                  {"'lead_screw'", "'0.01m'", "not a number"});
  for (const char* pitch : {"nan", "inf", "-inf", "1e999", "0", "-0.0"})
    expect_rejected(std::string("helical_pitch_") + pitch,
                    "--helical lead_screw=" + std::string(pitch) + " " + screw,
                    {"'lead_screw'", "finite non-zero"});
  expect_rejected("helical_no_pitch", "--helical lead_screw " + screw,
                  {"'lead_screw'", "JOINT=PITCH"});
  expect_rejected("helical_empty_pitch", "--helical lead_screw= " + screw, {"JOINT=PITCH"});
  expect_rejected("helical_no_joint", "--helical =0.01 " + screw, {"JOINT=PITCH"});
  expect_rejected("helical_no_value", screw + " --helical", {"--helical needs a value"});
  expect_rejected("helical_twice", "--helical lead_screw=0.01 --helical lead_screw=0.02 " + screw,
                  {"'lead_screw'", "twice"});
}

// ---------------------------------------------------------------------------
// Ball joints (--spherical; docs/urdf.md, "Spherical joints")
// ---------------------------------------------------------------------------

const char* const kWrist = "--spherical wrist_1,wrist_2,wrist_3 ";

/// ball_wrist.urdf with `from` replaced by `to` (exactly once), written to `dir`.
std::string spoilt_wrist(const fs::path& dir, const std::string& name, const std::string& from,
                         const std::string& to) {
  std::string text = read_file(kData / "ball_wrist.urdf");
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from << " twice";
  text.replace(at, from.size(), to);
  write_file(dir / name, text);
  return "'" + (dir / name).string() + "'";
}

TEST(UrdfCli, SphericalCollapsesThreeRevoluteJointsIntoOneBall) {
  const fs::path dir = fresh_dir("spherical_wrist");
  const Result r =
      run(dir, std::string(kWrist) + "--name bw --header bw.hpp --parameters bw.json --report " +
                   data("ball_wrist.urdf"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json rep = json::parse(r.out);
  EXPECT_EQ(rep["bodies"], json({"base", "upper_arm", "hand", "finger_link"}));
  EXPECT_EQ(rep["joints"], json({"shoulder", "wrist_1", "finger"}));
  EXPECT_EQ(rep["parents"], json({-1, 0, 1, 2}));
  EXPECT_EQ(rep["joint_kinds"], json({"floating_base", "revolute", "spherical", "revolute"}));
  EXPECT_EQ(rep["dof"], 6 + 1 + 3 + 1);
  EXPECT_EQ(rep["lumped_into"], json({{"camera", "hand"}}));
  EXPECT_EQ(rep["massless_bodies"], json::array());  // the two wrist links are gone
  const json p = json::parse(read_file(dir / "bw.json"));
  const json plain = parameters("ball_wrist.urdf");
  // The hand and what it carries are the bodies of the plain robot, unchanged.
  EXPECT_EQ(p["bodies"][2]["home_pose"], plain["bodies"][4]["home_pose"]);
  EXPECT_EQ(p["bodies"][2]["mass"], plain["bodies"][4]["mass"]);
  EXPECT_EQ(p["bodies"][3]["home_pose"], plain["bodies"][5]["home_pose"]);
  EXPECT_EQ(p["joints"][2]["axis"], plain["joints"][4]["axis"]);
  const json& ball = p["joints"][1];
  EXPECT_EQ(ball["kind"], "spherical");
  EXPECT_EQ(ball["name"], "wrist_1");
  EXPECT_EQ(ball["body"], 2);
  EXPECT_EQ(ball["urdf_joints"], json({"wrist_1", "wrist_2", "wrist_3"}));
  EXPECT_FALSE(ball.contains("axis"));
  EXPECT_EQ(ball["limits"], json({{"bounded", false},
                                  {"lower", nullptr},
                                  {"upper", nullptr},
                                  {"velocity", nullptr},
                                  {"effort", nullptr}}));
  // The centre lies on each of the plain robot's three wrist axes.
  const std::vector<double> c = vec(ball["centre"]);
  for (std::size_t i = 1; i <= 3; ++i) {
    const std::vector<double> e = vec(plain["joints"][i]["axis"]),
                              a = vec(plain["joints"][i]["point"]);
    const double d[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double along = d[0] * e[0] + d[1] * e[1] + d[2] * e[2];
    double miss = 0;
    for (int k = 0; k < 3; ++k) miss += std::pow(d[k] - along * e[static_cast<std::size_t>(k)], 2);
    EXPECT_LE(std::sqrt(miss), 1e-15) << "wrist axis " << i;
  }
  std::vector<std::string> links;
  for (const json& l : p["links"]) links.push_back(l["name"].get<std::string>());
  EXPECT_EQ(links,
            (std::vector<std::string>{"base", "upper_arm", "hand", "camera", "finger_link"}));
  const std::string header = read_file(dir / "bw.hpp");
  EXPECT_NE(header.find("hodyn::JointKind::kSpherical,"), std::string::npos);
  EXPECT_NE(header.find("model.set_spherical_joint(body, point)"), std::string::npos);
  EXPECT_NE(header.find("{2, {\"wrist_1\", \"wrist_2\", \"wrist_3\"}}"), std::string::npos);
  // Without --spherical the header has no ball code at all.
  const Result r2 = run(dir, "--name pw --header pw.hpp " + data("ball_wrist.urdf"));
  ASSERT_EQ(r2.status, 0) << r2.err;
  EXPECT_EQ(read_file(dir / "pw.hpp").find("pherical"), std::string::npos);
}

/// base → three wrist joints about x, y, z through (0, 0, 0.1) → a hand with
/// `hand_inertial` (a leaf): a ball on the base.
std::string ball_on_base(const std::string& hand_inertial) {
  std::string u =
      "<robot name=\"b\"><link name=\"base\"><inertial><mass value=\"1\"/><inertia ixx=\"1e-2\" "
      "ixy=\"0\" ixz=\"0\" iyy=\"1e-2\" iyz=\"0\" izz=\"1e-2\"/></inertial></link>\n";
  const char* axes[3] = {"1 0 0", "0 1 0", "0 0 1"};
  const char* parents[3] = {"base", "l1", "l2"};
  const char* children[3] = {"l1", "l2", "hand"};
  for (int i = 0; i < 3; ++i)
    u += std::string("<joint name=\"j") + std::to_string(i + 1) +
         "\" type=\"continuous\"><parent link=\"" + parents[i] + "\"/><child link=\"" +
         children[i] + "\"/><origin xyz=\"0 0 " + (i == 0 ? "0.1" : "0") + "\"/><axis xyz=\"" +
         axes[i] + "\"/></joint>\n" +
         (i < 2 ? "<link name=\"" + std::string(children[i]) + "\"/>\n" : "");
  return u + "<link name=\"hand\">" + hand_inertial + "</link></robot>\n";
}

TEST(UrdfCli, SphericalBallOnTheBaseAtALeaf) {
  const fs::path dir = fresh_dir("spherical_leaf");
  write_file(dir / "leaf.urdf",
             ball_on_base("<inertial><origin xyz=\"0 0 0.05\"/><mass value=\"0.2\"/><inertia "
                          "ixx=\"1e-4\" ixy=\"0\" ixz=\"0\" iyy=\"1e-4\" iyz=\"0\" izz=\"1e-4\"/>"
                          "</inertial>"));
  const Result r = run(dir,
                       "--spherical j1,j2,j3 --name leaf --parameters leaf.json --report "
                       "leaf.urdf");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["joint_kinds"], json({"floating_base", "spherical"}));
  EXPECT_EQ(json::parse(r.out)["dof"], 9);
  expect_near(json::parse(read_file(dir / "leaf.json"))["joints"][0]["centre"], {0, 0, 0.1}, 0,
              "centre");
  // A point mass at the centre: no inertia about any axis through it.
  write_file(
      dir / "point.urdf",
      ball_on_base("<inertial><origin xyz=\"0 0 0\"/><mass value=\"0.2\"/><inertia "
                   "ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial>"));
  expect_rejected("spherical_point_mass",
                  "--spherical j1,j2,j3 '" + (dir / "point.urdf").string() + "'",
                  {"ball joint 'j1'", "'hand'", "singular"});
  write_file(dir / "massless.urdf", ball_on_base(""));
  expect_rejected("spherical_massless_hand",
                  "--spherical j1,j2,j3 '" + (dir / "massless.urdf").string() + "'",
                  {"'hand'", "massless", "ball joint 'j1'"});
}

// J1 on a link lumped into its body (a flange fixed to the upper arm), and a
// welded root: the centre still lies on the three-joint robot's wrist axes.
TEST(UrdfCli, SphericalBelowALumpedLinkAndOnAFixedBase) {
  const fs::path dir = fresh_dir("spherical_flange");
  const std::string flanged = spoilt_wrist(
      dir, "flange.urdf", "<parent link=\"upper_arm\"/>\n    <child link=\"wrist_link_1\"/>",
      "<parent link=\"flange\"/>\n    <child link=\"wrist_link_1\"/>");
  std::string text = read_file(dir / "flange.urdf");
  const std::string flange =
      "<joint name=\"flange_mount\" type=\"fixed\"><parent link=\"upper_arm\"/><child "
      "link=\"flange\"/><origin xyz=\"0.01 0.02 -0.03\" rpy=\"0.3 0 -0.2\"/></joint>\n"
      "<link name=\"flange\"/>\n</robot>";
  text.replace(text.rfind("</robot>"), 8, flange);
  write_file(dir / "flange.urdf", text);
  for (const std::string base : {"", "--fixed-base "}) {
    Result r = run(dir, base + "--name p --parameters p.json " + flanged);
    ASSERT_EQ(r.status, 0) << r.err;
    r = run(dir, base + kWrist + "--name b --header b.hpp --parameters b.json --report " + flanged);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json::parse(r.out)["dof"], (base.empty() ? 6 : 0) + 5) << base;
    EXPECT_EQ(json::parse(r.out)["lumped_into"]["flange"], "upper_arm") << base;
    const json plain = json::parse(read_file(dir / "p.json"));
    const json ball = json::parse(read_file(dir / "b.json"));
    const std::vector<double> c = vec(ball["joints"][1]["centre"]);
    for (std::size_t i = 1; i <= 3; ++i) {
      const std::vector<double> e = vec(plain["joints"][i]["axis"]),
                                a = vec(plain["joints"][i]["point"]);
      const double d[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      const double along = d[0] * e[0] + d[1] * e[1] + d[2] * e[2];
      double miss = 0;
      for (int k = 0; k < 3; ++k)
        miss += std::pow(d[k] - along * e[static_cast<std::size_t>(k)], 2);
      EXPECT_LE(std::sqrt(miss), 1e-15) << base << "wrist axis " << i;
    }
    EXPECT_EQ(ball["bodies"][2]["home_pose"], plain["bodies"][4]["home_pose"]) << base;
    EXPECT_NE(read_file(dir / "b.hpp").find(base.empty() ? "kFloatingBase" : "kFixedBase"),
              std::string::npos);
  }
}

TEST(UrdfCli, SphericalBadOptionsAreBadInput) {
  const fs::path dir = fresh_dir("spherical_spoilt");
  const std::string wrist = data("ball_wrist.urdf");
  // Usage.
  expect_rejected("spherical_two_names", "--spherical wrist_1,wrist_2 " + wrist,
                  {"--spherical 'wrist_1,wrist_2'", "J1,J2,J3"});
  expect_rejected("spherical_four_names", "--spherical a,b,c,d " + wrist,
                  {"'a,b,c,d'", "J1,J2,J3"});
  expect_rejected("spherical_empty_name", "--spherical wrist_1,,wrist_3 " + wrist, {"J1,J2,J3"});
  expect_rejected("spherical_no_value", wrist + " --spherical", {"--spherical needs a value"});
  for (const char* runtime :
       {"--rotors r.json --rotor-header r_rotors.hpp", "--actuators a.json",
        "--rotors r.json --rotor-header r_rotors.hpp --robot-header r_robot.hpp"})
    expect_rejected(std::string("spherical_runtime_") + runtime,
                    std::string(kWrist) + runtime + " " + wrist,
                    {"--spherical", "does not take ball joints yet"});
  // The joints.
  expect_rejected("spherical_unknown_joint", "--spherical wrist_1,wrist_2,wrist_9 " + wrist,
                  {"--spherical 'wrist_1,wrist_2,wrist_9'", "no joint 'wrist_9'"});
  expect_rejected("spherical_not_a_chain", "--spherical wrist_1,wrist_3,wrist_2 " + wrist,
                  {"not a chain", "'wrist_3'", "'wrist_link_2'", "'wrist_link_1'"});
  expect_rejected("spherical_not_a_chain_shoulder", "--spherical shoulder,wrist_2,wrist_3 " + wrist,
                  {"not a chain", "'wrist_2'", "'upper_arm'"});
  expect_rejected("spherical_named_twice", "--spherical wrist_1,wrist_2,wrist_2 " + wrist,
                  {"'wrist_2'", "twice"});
  expect_rejected("spherical_two_balls_share",
                  std::string(kWrist) + "--spherical wrist_3,finger,shoulder " + wrist,
                  {"'wrist_3'", "twice"});
  expect_rejected("spherical_and_helical", "--helical wrist_2=0.01 " + std::string(kWrist) + wrist,
                  {"'wrist_2'", "twice", "--helical"});
  expect_rejected("spherical_prismatic",
                  std::string(kWrist) + spoilt_wrist(dir, "prismatic.urdf",
                                                     "name=\"wrist_2\" type=\"revolute\"",
                                                     "name=\"wrist_2\" type=\"prismatic\""),
                  {"'wrist_2'", "prismatic", "revolute or continuous"});
  expect_rejected(
      "spherical_fixed",
      std::string(kWrist) + spoilt_wrist(dir, "fixed.urdf", "name=\"wrist_3\" type=\"continuous\"",
                                         "name=\"wrist_3\" type=\"fixed\""),
      {"'wrist_3'", "fixed", "revolute or continuous"});
  // The links between the joints.
  expect_rejected("spherical_link_mass",
                  std::string(kWrist) + spoilt_wrist(dir, "mass.urdf", "<mass value=\"0\"/>",
                                                     "<mass value=\"0.01\"/>"),
                  {"link 'wrist_link_2'", "'wrist_2'", "'wrist_3'", "mass or inertia"});
  expect_rejected("spherical_link_inertia",
                  std::string(kWrist) + spoilt_wrist(dir, "inertia.urdf",
                                                     "<inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" "
                                                     "iyy=\"0\" iyz=\"0\" izz=\"0\"/>",
                                                     "<inertia ixx=\"1e-6\" ixy=\"0\" ixz=\"0\" "
                                                     "iyy=\"1e-6\" iyz=\"0\" izz=\"1e-6\"/>"),
                  {"link 'wrist_link_2'", "mass or inertia"});
  expect_rejected(
      "spherical_link_child",
      std::string(kWrist) +
          spoilt_wrist(dir, "child.urdf", "<link name=\"wrist_link_1\"/>",
                       "<link name=\"wrist_link_1\"/><joint name=\"marker_mount\" type=\"fixed\">"
                       "<parent link=\"wrist_link_1\"/><child link=\"marker\"/></joint>"
                       "<link name=\"marker\"/>"),
      {"link 'wrist_link_1'", "'wrist_1'", "'wrist_2'", "other child joints"});
  // The axes: wrist_3's origin 1e-8 m off its line (a miss of 2e-9 m from the
  // least-squares point; moving wrist_2's origin would move wrist_3 with it).
  expect_rejected("spherical_axes_miss",
                  std::string(kWrist) + spoilt_wrist(dir, "miss.urdf", "xyz=\"-0.02 0.01 0.03\"",
                                                     "xyz=\"-0.02 0.01 0.03000001\""),
                  {"do not meet in one point", "tolerance 1e-09 m"});
  expect_rejected("spherical_axes_dependent",
                  std::string(kWrist) + spoilt_wrist(dir, "dependent.urdf", "<axis xyz=\"0 1 1\"/>",
                                                     "<axis xyz=\"1 1 1\"/>"),
                  {"'wrist_1', 'wrist_2' and 'wrist_3'", "linearly dependent", "span"});
  // Unspoilt, the same robot converts (each case above fails for its one change).
  const Result ok = run(dir, std::string(kWrist) + "--report " + wrist);
  EXPECT_EQ(ok.status, 0) << ok.err;
}

// ---------------------------------------------------------------------------
// Universal joints (--universal; docs/urdf.md, "Universal joints")
// ---------------------------------------------------------------------------

const char* const kCardan = "--universal cardan_1,cardan_2 ";

/// cardan_arm.urdf with `from` replaced by `to` (exactly once), written to `dir`.
std::string spoilt_cardan(const fs::path& dir, const std::string& name, const std::string& from,
                          const std::string& to) {
  std::string text = read_file(kData / "cardan_arm.urdf");
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from << " twice";
  text.replace(at, from.size(), to);
  write_file(dir / name, text);
  return "'" + (dir / name).string() + "'";
}

/// Distance of `c` from the line through `a` along the unit `e`.
double off_line(const std::vector<double>& c, const std::vector<double>& a,
                const std::vector<double>& e) {
  const double d[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double along = d[0] * e[0] + d[1] * e[1] + d[2] * e[2];
  double miss = 0;
  for (std::size_t k = 0; k < 3; ++k) miss += std::pow(d[k] - along * e[k], 2);
  return std::sqrt(miss);
}

TEST(UrdfCli, UniversalCollapsesTwoRevoluteJointsIntoOne) {
  const fs::path dir = fresh_dir("universal_cardan");
  for (const std::string base : {"", "--fixed-base "}) {
    Result r = run(dir, base + "--name p --parameters p.json " + data("cardan_arm.urdf"));
    ASSERT_EQ(r.status, 0) << r.err;
    r = run(dir, base + kCardan + "--name ca --header ca.hpp --parameters ca.json --report " +
                     data("cardan_arm.urdf"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const json rep = json::parse(r.out);
    EXPECT_EQ(rep["bodies"], json({"base", "upper_arm", "hand", "finger_link"}));
    EXPECT_EQ(rep["joints"], json({"shoulder", "cardan_1", "finger"}));
    EXPECT_EQ(rep["parents"], json({-1, 0, 1, 2}));
    EXPECT_EQ(rep["joint_kinds"], json({base.empty() ? "floating_base" : "fixed_base", "revolute",
                                        "universal", "revolute"}));
    EXPECT_EQ(rep["dof"], (base.empty() ? 6 : 0) + 1 + 2 + 1);
    EXPECT_EQ(rep["lumped_into"], json({{"camera", "hand"}}));
    EXPECT_EQ(rep["massless_bodies"], json::array());  // the cross link is gone
    const json p = json::parse(read_file(dir / "ca.json"));
    const json plain = json::parse(read_file(dir / "p.json"));
    ASSERT_EQ(plain["joints"].size(), 4u);
    // The hand and what it carries are the bodies of the plain robot, unchanged.
    EXPECT_EQ(p["bodies"][2]["home_pose"], plain["bodies"][3]["home_pose"]);
    EXPECT_EQ(p["bodies"][2]["mass"], plain["bodies"][3]["mass"]);
    EXPECT_EQ(p["bodies"][3]["home_pose"], plain["bodies"][4]["home_pose"]);
    EXPECT_EQ(p["joints"][2]["axis"], plain["joints"][3]["axis"]);
    const json& u = p["joints"][1];
    EXPECT_EQ(u["kind"], "universal");
    EXPECT_EQ(u["name"], "cardan_1");
    EXPECT_EQ(u["body"], 2);
    EXPECT_EQ(u["urdf_joints"], json({"cardan_1", "cardan_2"}));
    EXPECT_FALSE(u.contains("centre"));
    EXPECT_EQ(u["limits"], json({{"bounded", false},
                                 {"lower", nullptr},
                                 {"upper", nullptr},
                                 {"velocity", nullptr},
                                 {"effort", nullptr}}));
    // e1, e2 are the plain robot's two axes (a negative URDF axis keeps its
    // sign), and the point lies on both of its lines.
    expect_near(u["axis"], vec(plain["joints"][1]["axis"]), 1e-16, "e1");
    expect_near(u["second_axis"], vec(plain["joints"][2]["axis"]), 1e-16, "e2");
    for (std::size_t i = 1; i <= 2; ++i)
      EXPECT_LE(off_line(vec(u["point"]), vec(plain["joints"][i]["point"]),
                         vec(plain["joints"][i]["axis"])),
                1e-15)
          << base << "axis " << i;
    std::vector<std::string> links;
    for (const json& l : p["links"]) links.push_back(l["name"].get<std::string>());
    EXPECT_EQ(links,
              (std::vector<std::string>{"base", "upper_arm", "hand", "camera", "finger_link"}));
    const std::string header = read_file(dir / "ca.hpp");
    EXPECT_NE(header.find("hodyn::JointKind::kUniversal,"), std::string::npos);
    EXPECT_NE(header.find("model.set_universal_joint(body, point, axis, second)"),
              std::string::npos);
    EXPECT_NE(header.find("{2, {\"cardan_1\", \"cardan_2\"}}"), std::string::npos);
    EXPECT_EQ(header.find("pherical"), std::string::npos);  // no ball code
  }
  // Without --universal the header has no universal-joint code at all.
  const Result r2 = run(dir, "--name pw --header pw.hpp " + data("cardan_arm.urdf"));
  ASSERT_EQ(r2.status, 0) << r2.err;
  EXPECT_EQ(read_file(dir / "pw.hpp").find("niversal"), std::string::npos);
}

// A ball and a universal joint in one robot: ball_wrist.urdf with a Cardan
// pair below its finger (about x, then z through the finger tip).
TEST(UrdfCli, UniversalAndSphericalInOneRobot) {
  const fs::path dir = fresh_dir("universal_and_ball");
  std::string text = read_file(kData / "ball_wrist.urdf");
  text.replace(text.rfind("</robot>"), 8,
               "<joint name=\"tip_1\" type=\"continuous\"><parent link=\"finger_link\"/>"
               "<child link=\"tip_cross\"/><origin xyz=\"0 0 0.04\"/><axis xyz=\"1 0 0\"/>"
               "</joint><link name=\"tip_cross\"/>"
               "<joint name=\"tip_2\" type=\"continuous\"><parent link=\"tip_cross\"/>"
               "<child link=\"tip\"/><origin xyz=\"0 0 0.01\"/><axis xyz=\"0 0 1\"/></joint>"
               "<link name=\"tip\"><inertial><origin xyz=\"0.01 0 0.02\"/><mass "
               "value=\"0.02\"/><inertia ixx=\"1e-6\" ixy=\"0\" ixz=\"0\" iyy=\"1e-6\" "
               "iyz=\"0\" izz=\"1e-6\"/></inertial></link></robot>");
  write_file(dir / "both.urdf", text);
  const Result r = run(dir, std::string(kWrist) +
                                "--universal tip_1,tip_2 --name both --header both.hpp "
                                "--parameters both.json --report both.urdf");
  ASSERT_EQ(r.status, 0) << r.err;
  const json rep = json::parse(r.out);
  EXPECT_EQ(rep["joint_kinds"],
            json({"floating_base", "revolute", "spherical", "revolute", "universal"}));
  EXPECT_EQ(rep["dof"], 6 + 1 + 3 + 1 + 2);
  EXPECT_EQ(rep["bodies"], json({"base", "upper_arm", "hand", "finger_link", "tip"}));
  const json p = json::parse(read_file(dir / "both.json"));
  EXPECT_EQ(p["joints"][1]["kind"], "spherical");
  EXPECT_EQ(p["joints"][3]["kind"], "universal");
  EXPECT_EQ(p["joints"][3]["urdf_joints"], json({"tip_1", "tip_2"}));
  const std::string header = read_file(dir / "both.hpp");
  EXPECT_NE(header.find("model.set_spherical_joint(body, point)\n"
                        "             : hodyn::is_universal(kind)\n"
                        "                 ? model.set_universal_joint(body, point, axis, second)\n"
                        "             : hodyn::is_helical(kind)"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("kBallJoints"), std::string::npos);
  EXPECT_NE(header.find("{4, {\"tip_1\", \"tip_2\"}}"), std::string::npos);
}

// J1 on a link lumped into its body (a flange fixed to the upper arm): the
// point still lies on the two-joint robot's axes, the hand's pose is its.
TEST(UrdfCli, UniversalBelowALumpedLink) {
  const fs::path dir = fresh_dir("universal_flange");
  const std::string flanged = spoilt_cardan(
      dir, "flange.urdf", "<parent link=\"upper_arm\"/>\n    <child link=\"cross_link\"/>",
      "<parent link=\"flange\"/>\n    <child link=\"cross_link\"/>");
  std::string text = read_file(dir / "flange.urdf");
  text.replace(text.rfind("</robot>"), 8,
               "<joint name=\"flange_mount\" type=\"fixed\"><parent link=\"upper_arm\"/><child "
               "link=\"flange\"/><origin xyz=\"0.01 0.02 -0.03\" rpy=\"0.3 0 -0.2\"/></joint>\n"
               "<link name=\"flange\"/>\n</robot>");
  write_file(dir / "flange.urdf", text);
  Result r = run(dir, "--name p --parameters p.json " + flanged);
  ASSERT_EQ(r.status, 0) << r.err;
  r = run(dir, std::string(kCardan) + "--name u --parameters u.json --report " + flanged);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["lumped_into"]["flange"], "upper_arm");
  const json plain = json::parse(read_file(dir / "p.json"));
  const json u = json::parse(read_file(dir / "u.json"));
  const json& joint = u["joints"][1];
  expect_near(joint["axis"], vec(plain["joints"][1]["axis"]), 1e-15,
              "e1");  // world frames composed in another order
  expect_near(joint["second_axis"], vec(plain["joints"][2]["axis"]), 1e-15, "e2");
  for (std::size_t i = 1; i <= 2; ++i)
    EXPECT_LE(off_line(vec(joint["point"]), vec(plain["joints"][i]["point"]),
                       vec(plain["joints"][i]["axis"])),
              1e-15)
        << "axis " << i;
  EXPECT_EQ(u["bodies"][2]["home_pose"], plain["bodies"][3]["home_pose"]);
}

/// base → j1 about x through (0, 0, 0.1) → a massless link → j2 about y
/// through the same point → a hand with `hand_inertial` (a leaf).
std::string cardan_on_base(const std::string& hand_inertial) {
  return "<robot name=\"c\"><link name=\"base\"><inertial><mass value=\"1\"/><inertia "
         "ixx=\"1e-2\" ixy=\"0\" ixz=\"0\" iyy=\"1e-2\" iyz=\"0\" izz=\"1e-2\"/></inertial>"
         "</link>\n<joint name=\"j1\" type=\"continuous\"><parent link=\"base\"/><child "
         "link=\"l1\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"1 0 0\"/></joint>\n<link "
         "name=\"l1\"/>\n<joint name=\"j2\" type=\"continuous\"><parent link=\"l1\"/><child "
         "link=\"hand\"/><axis xyz=\"0 1 0\"/></joint>\n<link name=\"hand\">" +
         hand_inertial + "</link></robot>\n";
}

std::string point_mass_at(const char* xyz) {
  return std::string("<inertial><origin xyz=\"") + xyz +
         "\"/><mass value=\"0.2\"/><inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" "
         "izz=\"0\"/></inertial>";
}

TEST(UrdfCli, UniversalOnTheBaseAtALeaf) {
  const fs::path dir = fresh_dir("universal_leaf");
  // A point mass below the point: inertia about both axes.
  write_file(dir / "leaf.urdf", cardan_on_base(point_mass_at("0 0 -0.05")));
  const Result r =
      run(dir,
          "--universal j1,j2 --name leaf --header leaf.hpp --parameters leaf.json --report "
          "leaf.urdf");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["joint_kinds"], json({"floating_base", "universal"}));
  EXPECT_EQ(json::parse(r.out)["dof"], 8);
  const json u = json::parse(read_file(dir / "leaf.json"))["joints"][0];
  expect_near(u["point"], {0, 0, 0.1}, 0, "point");
  EXPECT_EQ(vec(u["axis"]), (std::vector<double>{1, 0, 0}));  // exactly, as a revolute axis
  EXPECT_EQ(vec(u["second_axis"]), (std::vector<double>{0, 1, 0}));
  // A point mass on the second axis (y through the point): no inertia about it.
  write_file(dir / "on_e2.urdf", cardan_on_base(point_mass_at("0 0.05 0")));
  expect_rejected("universal_point_mass_e2",
                  "--universal j1,j2 '" + (dir / "on_e2.urdf").string() + "'",
                  {"universal joint 'j1'", "'hand'", "second axis", "singular"});
  // On the first axis (x through the point): free about y, none about x.
  write_file(dir / "on_e1.urdf", cardan_on_base(point_mass_at("0.05 0 0")));
  expect_rejected("universal_point_mass_e1",
                  "--universal j1,j2 '" + (dir / "on_e1.urdf").string() + "'",
                  {"universal joint 'j1'", "'hand'", "first axis", "singular"});
  write_file(dir / "massless.urdf", cardan_on_base(""));
  expect_rejected("universal_massless_hand",
                  "--universal j1,j2 '" + (dir / "massless.urdf").string() + "'",
                  {"'hand'", "massless", "universal joint 'j1'"});
}

TEST(UrdfCli, UniversalBadOptionsAreBadInput) {
  const fs::path dir = fresh_dir("universal_spoilt");
  const std::string cardan = data("cardan_arm.urdf");
  // Usage.
  expect_rejected("universal_one_name", "--universal cardan_1 " + cardan,
                  {"--universal 'cardan_1'", "J1,J2"});
  expect_rejected("universal_three_names", "--universal cardan_1,cardan_2,finger " + cardan,
                  {"'cardan_1,cardan_2,finger'", "J1,J2"});
  expect_rejected("universal_empty_name", "--universal ,cardan_2 " + cardan, {"J1,J2"});
  expect_rejected("universal_empty_second", "--universal cardan_1, " + cardan, {"J1,J2"});
  expect_rejected("universal_no_value", cardan + " --universal", {"--universal needs a value"});
  for (const char* runtime :
       {"--rotors r.json --rotor-header r_rotors.hpp", "--actuators a.json",
        "--rotors r.json --rotor-header r_rotors.hpp --robot-header r_robot.hpp"})
    expect_rejected(std::string("universal_runtime_") + runtime,
                    std::string(kCardan) + runtime + " " + cardan,
                    {"--universal", "does not take universal joints yet"});
  // The joints.
  expect_rejected("universal_unknown_joint", "--universal cardan_1,cardan_9 " + cardan,
                  {"--universal 'cardan_1,cardan_9'", "no joint 'cardan_9'"});
  expect_rejected("universal_reversed", "--universal cardan_2,cardan_1 " + cardan,
                  {"not a chain", "'cardan_1'", "'upper_arm'", "'hand'"});
  expect_rejected("universal_not_adjacent", "--universal shoulder,cardan_2 " + cardan,
                  {"not a chain", "'cardan_2'", "'cross_link'", "'upper_arm'"});
  expect_rejected("universal_named_twice", "--universal cardan_1,cardan_1 " + cardan,
                  {"'cardan_1'", "twice"});
  expect_rejected("universal_two_share",
                  std::string(kCardan) + "--universal cardan_2,finger " + cardan,
                  {"'cardan_2'", "twice", "--universal has it already"});
  expect_rejected("universal_and_helical",
                  "--helical cardan_2=0.01 " + std::string(kCardan) + cardan,
                  {"'cardan_2'", "twice", "--helical"});
  expect_rejected("universal_and_spherical",
                  std::string(kWrist) + "--universal wrist_3,finger " + data("ball_wrist.urdf"),
                  {"--universal 'wrist_3,finger'", "'wrist_3'", "twice", "--spherical"});
  expect_rejected("universal_prismatic",
                  std::string(kCardan) + spoilt_cardan(dir, "prismatic.urdf",
                                                       "name=\"cardan_2\" type=\"revolute\"",
                                                       "name=\"cardan_2\" type=\"prismatic\""),
                  {"'cardan_2'", "prismatic", "two revolute or continuous"});
  expect_rejected("universal_fixed",
                  std::string(kCardan) + spoilt_cardan(dir, "fixed.urdf",
                                                       "name=\"cardan_1\" type=\"continuous\"",
                                                       "name=\"cardan_1\" type=\"fixed\""),
                  {"'cardan_1'", "fixed", "two revolute or continuous"});
  // The link between the joints.
  const std::string inertial =
      "<link name=\"cross_link\"><inertial><mass value=\"MASS\"/><inertia ixx=\"I\" ixy=\"0\" "
      "ixz=\"0\" iyy=\"I\" iyz=\"0\" izz=\"I\"/></inertial></link>";
  const auto cross = [&](const char* mass, const char* moment) {
    std::string t = inertial;
    t.replace(t.find("MASS"), 4, mass);
    for (std::size_t at; (at = t.find("\"I\"")) != std::string::npos;)
      t.replace(at, 3, std::string("\"") + moment + "\"");
    return t;
  };
  expect_rejected(
      "universal_link_mass",
      std::string(kCardan) +
          spoilt_cardan(dir, "mass.urdf", "<link name=\"cross_link\"/>", cross("0.01", "0")),
      {"link 'cross_link'", "'cardan_1'", "'cardan_2'", "mass or inertia",
       "leave out --universal"});
  expect_rejected(
      "universal_link_inertia",
      std::string(kCardan) +
          spoilt_cardan(dir, "inertia.urdf", "<link name=\"cross_link\"/>", cross("0", "1e-6")),
      {"link 'cross_link'", "mass or inertia"});
  // Declared massless (mass 0, zero inertia): accepted.
  const Result zero =
      run(dir, std::string(kCardan) + "--report " +
                   spoilt_cardan(dir, "zero.urdf", "<link name=\"cross_link\"/>", cross("0", "0")));
  EXPECT_EQ(zero.status, 0) << zero.err;
  expect_rejected(
      "universal_link_child",
      std::string(kCardan) +
          spoilt_cardan(dir, "child.urdf", "<link name=\"cross_link\"/>",
                        "<link name=\"cross_link\"/><joint name=\"marker_mount\" type=\"fixed\">"
                        "<parent link=\"cross_link\"/><child link=\"marker\"/></joint>"
                        "<link name=\"marker\"/>"),
      {"link 'cross_link'", "'cardan_1'", "'cardan_2'", "other child joints"});
  // The axes: cardan_2's origin 1e-8 m off along x (the lines pass 7.1e-9 m
  // apart; each misses the point nearest to both by half that).
  expect_rejected("universal_axes_miss",
                  std::string(kCardan) + spoilt_cardan(dir, "miss.urdf", "xyz=\"0.02 0.02 0.05\"",
                                                       "xyz=\"0.02000001 0.02 0.05\""),
                  {"do not meet in one point", "'cardan_1'", "both", "tolerance 1e-09 m"});
  // Moved along the plane of the two axes, they still meet: accepted.
  const Result along = run(dir, std::string(kCardan) + "--report " +
                                    spoilt_cardan(dir, "along.urdf", "xyz=\"0.02 0.02 0.05\"",
                                                  "xyz=\"0.02 0.02 0.06\""));
  EXPECT_EQ(along.status, 0) << along.err;
  expect_rejected(
      "universal_axes_parallel",
      std::string(kCardan) +
          spoilt_cardan(dir, "parallel.urdf", "<axis xyz=\"1 1 1\"/>", "<axis xyz=\"0 0 1\"/>"),
      {"'cardan_1' and 'cardan_2'", "parallel", "two directions"});
  expect_rejected("universal_axes_nearly_parallel",
                  std::string(kCardan) + spoilt_cardan(dir, "nearly.urdf", "<axis xyz=\"1 1 1\"/>",
                                                       "<axis xyz=\"1e-7 0 -1\"/>"),
                  {"parallel", "1e-06"});
  // Unspoilt, the same robot converts (each case above fails for its one change).
  const Result ok = run(dir, std::string(kCardan) + "--report " + cardan);
  EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(UrdfCli, HelpDocumentsEveryOption) {
  const Result r = run(fresh_dir("help"), "--help");
  EXPECT_EQ(r.status, 0);
  for (const char* option :
       {"--root", "--fixed-base", "--helical JOINT=PITCH", "--spherical J1,J2,J3",
        "--universal J1,J2", "--name", "--header", "--parameters", "--rotors", "--rotor-header",
        "--actuators", "--robot-header", "--report"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
}

TEST(UrdfCli, UsageErrorsAreBadInput) {
  expect_rejected("no_urdf", "", {"no URDF"});  // usage: the file is missing
  const fs::path dir = fresh_dir("usage");
  for (const std::string& args :
       std::vector<std::string>{"", "--report", "--header x.hpp " + data("branching.urdf"),
                                "--name 2bad --header x.hpp " + data("branching.urdf"),
                                "--frobnicate " + data("branching.urdf")}) {
    const Result r = run(dir, args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << args << ": " << r.err;
    EXPECT_FALSE(fs::exists(dir / "x.hpp")) << args;
  }
}

/// A serial chain of `bodies` bodies (continuous joints about alternating axes).
std::string chain(int bodies) {
  std::ostringstream u;
  const char* inertial =
      "<inertial><origin xyz=\"0 0 -0.05\"/><mass value=\"0.1\"/>"
      "<inertia ixx=\"1e-4\" ixy=\"0\" ixz=\"0\" iyy=\"1e-4\" iyz=\"0\" izz=\"5e-5\"/></inertial>";
  u << "<robot name=\"chain\">\n<link name=\"l0\">" << inertial << "</link>\n";
  for (int i = 1; i < bodies; ++i) {
    u << "<joint name=\"j" << i << "\" type=\"continuous\"><parent link=\"l" << i - 1
      << "\"/><child link=\"l" << i << "\"/><origin xyz=\"0 0 -0.1\"/><axis xyz=\""
      << (i % 2 ? "1 0 0" : "0 1 0") << "\"/></joint>\n<link name=\"l" << i << "\">" << inertial
      << "</link>\n";
  }
  u << "</robot>\n";
  return u.str();
}

TEST(UrdfCli, CompiledMaximumOfBodies) {
  const fs::path dir = fresh_dir("max_bodies");
  write_file(dir / "chain64.urdf", chain(64));
  write_file(dir / "chain65.urdf", chain(65));
  const Result ok = run(dir, "--report chain64.urdf");
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(json::parse(ok.out)["dof"], 6 + 63);
  EXPECT_EQ(json::parse(ok.out)["max_bodies"], 64);
  expect_rejected("too_many_bodies", "'" + (dir / "chain65.urdf").string() + "'",
                  {"65 bodies", "64"});
}

TEST(UrdfCli, SevenBodyUrdfConvertsUnderOneSecond) {
  const fs::path dir = fresh_dir("timing");
  const auto start = std::chrono::steady_clock::now();
  const Result r = run(dir, "--name am --header am.hpp --parameters am.json --report '" +
                                std::string(HODYN_AERIAL_MANIPULATOR_URDF) + "'");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["bodies"].size(), 7u);
  std::cout << "hodyn-urdf on the 7-body aerial manipulator: " << seconds << " s (shell included)"
            << std::endl;
  EXPECT_LT(seconds, 1.0);
}

}  // namespace
