// hodyn-urdf --actuators FILE.json --robot-header OUT.hpp
// (docs/robot-description.md, docs/urdf.md):
//
//   - the robot id: identical input gives byte-identical headers and the same
//     kId; one number of actuators.json changed gives another kId, and only
//     the robot header changes (model and rotor headers byte-identical);
//   - --report's "actuators": the drive of every joint in the order of q
//     (read from the file here), absent without --actuators/--robot-header;
//   - without --actuators every joint is rigid with its URDF effort limit;
//   - every bad actuators file (unknown joint, fixed joint, unknown key, wrong
//     type, value out of range, not finite, bad drive, missing key, bad
//     version, duplicate key, syntax, no file, a rigid joint without an effort
//     limit): exit 2, nothing on stdout, one line on stderr naming the file,
//     joint and key, and none of the four outputs created or replaced;
//   - usage: --robot-header needs --header and --rotor-header, all three in
//     one directory, distinct paths.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "support/command_line.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kTool = HODYN_URDF_TOOL;
const fs::path kOctoUrdf = HODYN_OCTO_ARM_URDF;
const fs::path kOctoRotors = HODYN_OCTO_ARM_ROTORS;
const fs::path kOctoActuators = HODYN_OCTO_ARM_ACTUATORS;
const fs::path kAmUrdf = HODYN_AM_URDF;
const fs::path kAmRotors = HODYN_AM_ROTORS;
const fs::path kWork = HODYN_URDF_ACTUATORS_WORK;

using Result = hodyn::test::CommandResult;
using hodyn::test::read_file;
using hodyn::test::shell_quoted;
using hodyn::test::write_file;

fs::path fresh_dir(const std::string& name) { return hodyn::test::fresh_directory(kWork, name); }
std::string q(const fs::path& p) { return shell_quoted(p); }
Result run(const fs::path& dir, const std::string& args) {
  return hodyn::test::run_tool(kTool, dir, args);
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

const std::vector<std::string> kOutputs = {"oa.hpp", "oa.json", "oa_robot.hpp", "oa_rotors.hpp"};

/// Every output into the current directory, the robot header included.
std::string all_outputs(const fs::path& actuators, const fs::path& urdf = kOctoUrdf,
                        const fs::path& rotors = kOctoRotors) {
  return "--name oa --header oa.hpp --parameters oa.json --rotors " + q(rotors) +
         " --rotor-header oa_rotors.hpp --robot-header oa_robot.hpp" +
         (actuators.empty() ? std::string() : " --actuators " + q(actuators)) + " " + q(urdf);
}

void expect_refused(const Result& r, const std::vector<std::string>& words) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.back(), '\n');
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("hodyn-urdf: ", 0), 0u) << r.err;
  for (const std::string& w : words)
    EXPECT_NE(r.err.find(w), std::string::npos) << "'" << w << "' not in: " << r.err;
  std::cout << "refused: " << r.err;
}

/// The kId literal of a robot header ("0x1234abcdu"), "" if none.
std::string robot_id_of(const std::string& header) {
  std::smatch m;
  const std::regex id("kId = (0x[0-9a-f]{8}u);");
  return std::regex_search(header, m, id) ? m[1].str() : std::string();
}

TEST(UrdfActuatorsCli, IdIsStableAndChangesWithOneNumber) {
  const fs::path first = fresh_dir("id_first"), second = fresh_dir("id_second");
  ASSERT_EQ(run(first, all_outputs(kOctoActuators)).status, 0);
  const Result again = run(second, all_outputs(kOctoActuators));
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(listing(first), kOutputs);
  const std::string id = robot_id_of(read_file(first / "oa_robot.hpp"));
  ASSERT_FALSE(id.empty()) << read_file(first / "oa_robot.hpp");
  for (const std::string& f : kOutputs) EXPECT_EQ(read_file(first / f), read_file(second / f)) << f;
  std::cout << "octo_arm as 'oa': kId " << id << "\n";

  // One number: arm_pitch's stiffness 60 -> 60.5.
  const fs::path inputs = fresh_dir("id_inputs");
  json edited = json::parse(read_file(kOctoActuators));
  edited["joints"]["arm_pitch"]["stiffness"] = 60.5;
  write_file(inputs / "actuators.json", edited.dump(2));
  const fs::path changed = fresh_dir("id_changed");
  const Result r = run(changed, all_outputs(inputs / "actuators.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string changed_id = robot_id_of(read_file(changed / "oa_robot.hpp"));
  EXPECT_FALSE(changed_id.empty());
  EXPECT_NE(changed_id, id);
  std::cout << "with stiffness 60.5: kId " << changed_id << "\n";
  EXPECT_NE(read_file(changed / "oa_robot.hpp").find("60.5"), std::string::npos);
  for (const char* f : {"oa.hpp", "oa.json", "oa_rotors.hpp"})
    EXPECT_EQ(read_file(first / f), read_file(changed / f)) << f;

  // The same robot written with the file's numbers in another layout: same id.
  write_file(inputs / "reformatted.json", json::parse(read_file(kOctoActuators)).dump());
  const fs::path reformatted = fresh_dir("id_reformatted");
  ASSERT_EQ(run(reformatted, all_outputs(inputs / "reformatted.json")).status, 0);
  EXPECT_EQ(robot_id_of(read_file(reformatted / "oa_robot.hpp")), id);
}

TEST(UrdfActuatorsCli, ReportListsTheDrives) {
  const fs::path dir = fresh_dir("report");
  const Result r = run(dir, "--report --actuators " + q(kOctoActuators) + " " + q(kOctoUrdf));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(listing(dir).empty());
  const nlohmann::ordered_json report = nlohmann::ordered_json::parse(r.out);
  ASSERT_TRUE(report.contains("actuators")) << r.out;
  const nlohmann::ordered_json& drives = report.at("actuators");
  const json file = json::parse(read_file(kOctoActuators)).at("joints");
  ASSERT_EQ(drives.size(), report.at("joints").size());
  std::size_t i = 0;
  for (auto it = drives.begin(); it != drives.end(); ++it, ++i) {
    EXPECT_EQ(it.key(), report.at("joints").at(i).get<std::string>());
    EXPECT_EQ(it.value().get<std::string>(), file.at(it.key()).at("drive").get<std::string>());
  }
  EXPECT_EQ(
      drives.dump(),
      R"({"arm_yaw":"rigid","arm_pitch":"elastic","arm_extend":"rigid","wrist_roll":"rigid"})");

  const Result plain = run(dir, "--report " + q(kOctoUrdf));
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_FALSE(json::parse(plain.out).contains("actuators"));
}

TEST(UrdfActuatorsCli, WithoutAFileEveryJointIsRigidWithItsEffortLimit) {
  const fs::path dir = fresh_dir("no_file");
  const Result r = run(dir, all_outputs(fs::path()) + " --report");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).at("actuators").dump(),
            R"({"arm_extend":"rigid","arm_pitch":"rigid","arm_yaw":"rigid","wrist_roll":"rigid"})");
  const std::string header = read_file(dir / "oa_robot.hpp");
  for (const char* effort :
       {"rigid_joint(8.0)", "rigid_joint(6.0)", "rigid_joint(40.0)", "rigid_joint(2.0)"})
    EXPECT_NE(header.find(effort), std::string::npos) << effort;
  EXPECT_EQ(header.find("hodyn::elastic_joint("), std::string::npos);
  EXPECT_NE(header.find("no actuators file"), std::string::npos);
}

/// An actuators file derived from octo_arm's by `edit`.
fs::path edited(const fs::path& dir, const std::string& name, void (*edit)(json& doc)) {
  json doc = json::parse(read_file(kOctoActuators));
  edit(doc);
  const fs::path p = dir / name;
  write_file(p, doc.dump(2));
  return p;
}

TEST(UrdfActuatorsCli, BadActuatorFileWritesNoOutputAtAll) {
  const fs::path in = fresh_dir("bad_inputs");
  struct Case {
    fs::path file;
    std::vector<std::string> words;
    fs::path urdf = kOctoUrdf;
    fs::path rotors = kOctoRotors;
  };
  std::vector<Case> cases = {
      {edited(in, "unknown_joint.json",
              [](json& d) {
                d["joints"]["arm_yawn"] = {{"drive", "rigid"}};
              }),
       {"unknown_joint.json", "joints.arm_yawn", "no movable joint"}},
      {edited(in, "fixed_joint.json",
              [](json& d) {
                d["joints"]["tool"] = {{"drive", "rigid"}};
              }),
       {"fixed_joint.json", "joints.tool", "fixed joint"}},
      {edited(in, "unknown_key.json", [](json& d) { d["joints"]["arm_pitch"]["stifness"] = 60.0; }),
       {"unknown_key.json", "joints.arm_pitch", "unknown key", "stifness"}},
      {edited(in, "elastic_key_on_rigid.json",
              [](json& d) { d["joints"]["arm_yaw"]["stiffness"] = 60.0; }),
       {"elastic_key_on_rigid.json", "joints.arm_yaw", "stiffness", "rigid"}},
      {edited(in, "wrong_type.json", [](json& d) { d["joints"]["arm_pitch"]["stiffness"] = "60"; }),
       {"wrong_type.json", "joints.arm_pitch.stiffness", "expected a number"}},
      {edited(in, "negative_damping.json",
              [](json& d) { d["joints"]["arm_pitch"]["damping"] = -0.01; }),
       {"negative_damping.json", "joints.arm_pitch.damping", ">= 0", "-0.01"}},
      {edited(in, "zero_inertia.json",
              [](json& d) { d["joints"]["arm_pitch"]["motor_inertia"] = 0.0; }),
       {"zero_inertia.json", "joints.arm_pitch.motor_inertia", "> 0"}},
      {edited(in, "negative_limit.json",
              [](json& d) { d["joints"]["arm_yaw"]["torque_limit"] = -8.0; }),
       {"negative_limit.json", "joints.arm_yaw.torque_limit", "> 0"}},
      {edited(in, "bad_drive.json", [](json& d) { d["joints"]["arm_yaw"]["drive"] = "soft"; }),
       {"bad_drive.json", "joints.arm_yaw.drive", "\"soft\""}},
      {edited(in, "missing_key.json",
              [](json& d) { d["joints"]["arm_pitch"].erase("stiffness"); }),
       {"missing_key.json", "joints.arm_pitch.stiffness", "missing"}},
      {edited(in, "no_drive.json", [](json& d) { d["joints"]["arm_yaw"].erase("drive"); }),
       {"no_drive.json", "joints.arm_yaw.drive", "missing"}},
      {edited(in, "version.json", [](json& d) { d["version"] = 2; }), {"version.json", "version"}},
      {edited(in, "top_key.json", [](json& d) { d["joint"] = json::object(); }),
       {"top_key.json", "unknown key", "\"joint\""}},
      {edited(in, "joints_list.json", [](json& d) { d["joints"] = json::array(); }),
       {"joints_list.json", "joints", "expected an object"}},
      {in / "no_such_file.json", {"no_such_file.json", "cannot open"}},
      // The 12-DoF robot's joints have no effort limit: rigid ones need one.
      {edited(in, "am_empty.json", [](json& d) { d["joints"] = json::object(); }),
       {"am_empty.json", "arm1_joint1", "effort"},
       kAmUrdf,
       kAmRotors},
      {edited(in, "am_rigid.json",
              [](json& d) {
                d["joints"] = json::object();
                d["joints"]["arm1_joint1"] = {{"drive", "rigid"}};
              }),
       {"am_rigid.json", "joints.arm1_joint1", "torque_limit", "effort"},
       kAmUrdf,
       kAmRotors},
  };
  const std::string good = read_file(kOctoActuators);
  write_file(in / "not_finite.json",
             std::regex_replace(good, std::regex("\"stiffness\": 60.0"), "\"stiffness\": 1e999"));
  cases.push_back(
      {in / "not_finite.json", {"not_finite.json", "joints.arm_pitch.stiffness", "finite"}});
  write_file(in / "duplicate.json", std::regex_replace(good, std::regex("\"stiffness\": 60.0"),
                                                       "\"stiffness\": 60.0, \"stiffness\": 61.0"));
  cases.push_back(
      {in / "duplicate.json", {"duplicate.json", "joints.arm_pitch.stiffness", "duplicate"}});
  write_file(in / "syntax.json", good.substr(0, 120));
  cases.push_back({in / "syntax.json", {"syntax.json"}});
  ASSERT_NE(read_file(in / "not_finite.json"), good);
  ASSERT_NE(read_file(in / "duplicate.json"), good);

  for (const Case& c : cases) {
    SCOPED_TRACE(c.file.filename().string());
    const fs::path fresh = fresh_dir("bad_fresh");
    expect_refused(run(fresh, all_outputs(c.file, c.urdf, c.rotors) + " --report"), c.words);
    EXPECT_TRUE(listing(fresh).empty()) << "wrote " << listing(fresh).front();

    const fs::path old = fresh_dir("bad_over_old");
    for (const std::string& f : kOutputs) write_file(old / f, "old " + f);
    expect_refused(run(old, all_outputs(c.file, c.urdf, c.rotors)), c.words);
    EXPECT_EQ(listing(old), kOutputs);
    for (const std::string& f : kOutputs) EXPECT_EQ(read_file(old / f), "old " + f);
  }
}

TEST(UrdfActuatorsCli, RigidJointWithoutEffortLimitNeedsTheFile) {
  // No --actuators: the 12-DoF robot's continuous joints have no effort limit.
  const fs::path dir = fresh_dir("am_no_file");
  expect_refused(run(dir, all_outputs(fs::path(), kAmUrdf, kAmRotors)),
                 {"aerial_manipulator.urdf", "arm1_joint1", "effort"});
  EXPECT_TRUE(listing(dir).empty());
}

TEST(UrdfActuatorsCli, RobotHeaderUsage) {
  const fs::path dir = fresh_dir("usage");
  fs::create_directories(dir / "sub");
  const std::string urdf = q(kOctoUrdf), rotors = q(kOctoRotors);
  expect_refused(run(dir, "--name oa --rotors " + rotors +
                              " --rotor-header r.hpp --robot-header b.hpp " + urdf),
                 {"--robot-header", "--header"});
  expect_refused(run(dir, "--name oa --header m.hpp --robot-header b.hpp " + urdf),
                 {"--robot-header", "--rotor-header"});
  expect_refused(run(dir, "--name oa --header m.hpp --rotors " + rotors +
                              " --rotor-header r.hpp --robot-header sub/b.hpp " + urdf),
                 {"same directory"});
  expect_refused(run(dir, "--name oa --header sub/m.hpp --rotors " + rotors +
                              " --rotor-header r.hpp --robot-header b.hpp " + urdf),
                 {"same directory"});
  expect_refused(run(dir, "--name oa --header m.hpp --rotors " + rotors +
                              " --rotor-header r.hpp --robot-header m.hpp " + urdf),
                 {"--header", "--robot-header", "same file"});
  expect_refused(run(dir, urdf + " --actuators"), {"--actuators"});
  EXPECT_EQ(listing(dir), std::vector<std::string>{"sub"});
  EXPECT_TRUE(listing(dir / "sub").empty());

  // ./x and x are one directory.
  const Result ok = run(dir, "--name oa --header ./m.hpp --rotors " + rotors +
                                 " --rotor-header r.hpp --robot-header sub/../b.hpp " + urdf);
  EXPECT_EQ(ok.status, 0) << ok.err;
}

}  // namespace
