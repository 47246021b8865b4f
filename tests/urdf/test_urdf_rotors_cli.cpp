// hodyn-urdf --rotors FILE.json --rotor-header OUT.hpp (docs/urdf.md, docs/rotors.md):
//
//   - with the built-in robot's rotors.json: the three outputs are written,
//     the rotor header is byte-identical to what hodyn-rotors writes for the
//     same file and namespace, the robot header and parameters are
//     byte-identical to a run without --rotors, and --report ends with
//     "rotors": the number of rotors in the file (absent without --rotors);
//   - a bad rotor file with a good URDF (an unknown key, a non-unit axis, a
//     missing key, too few rotors, bad syntax, no file): exit 2, nothing on
//     stdout, one line on stderr naming the file, rotor and key, and none of
//     the three outputs written — neither created nor replaced — and no
//     temporary file left;
//   - a bad URDF with a good rotor file, an unwritable rotor header: the same,
//     nothing written;
//   - usage: --rotors and --rotor-header only together, --name required,
//     three distinct output paths.
// The compiled header's allocation is checked in test_generated_rotors.cpp.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "support/command_line.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kUrdfTool = HODYN_URDF_TOOL;
const std::string kRotorsTool = HODYN_ROTORS_TOOL;
const fs::path kUrdf = HODYN_AM_URDF;
const fs::path kRotors = HODYN_AM_ROTORS;
const fs::path kBadUrdf = HODYN_BAD_URDF;
const fs::path kWork = HODYN_URDF_ROTORS_WORK;

using Result = hodyn::test::CommandResult;
using hodyn::test::shell_quoted;
using hodyn::test::read_file;
using hodyn::test::write_file;

fs::path fresh_dir(const std::string& name) { return hodyn::test::fresh_directory(kWork, name); }
std::string q(const fs::path& p) { return shell_quoted(p); }

/// Runs `tool args` in `dir` (support/command_line.hpp: stdout and stderr
/// outside `dir`, which holds only what the tool wrote).
Result run(const std::string& tool, const fs::path& dir, const std::string& args) {
  return hodyn::test::run_tool(tool, dir, args);
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// Exit 2, nothing on stdout, exactly one line on stderr starting with the
/// tool's name and holding every one of `words`.
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

/// The arguments writing all three outputs into the current directory.
std::string all_outputs(const fs::path& rotors, const fs::path& urdf = kUrdf) {
  return "--name am --header am.hpp --parameters am.json --rotors " + q(rotors) +
         " --rotor-header am_rotors.hpp " + q(urdf);
}

TEST(UrdfRotorsCli, WritesTheRotorHeaderBesideTheRobotHeader) {
  const fs::path with = fresh_dir("with_rotors");
  const Result r = run(kUrdfTool, with, all_outputs(kRotors) + " --report");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(listing(with), (std::vector<std::string>{"am.hpp", "am.json", "am_rotors.hpp"}));

  // The report counts the rotors of the file (read here with nlohmann-json),
  // as its last key.
  const json report = json::parse(r.out);
  const json rotors = json::parse(read_file(kRotors));
  ASSERT_TRUE(report.contains("rotors")) << r.out;
  EXPECT_EQ(report.at("rotors").get<std::size_t>(), rotors.at("rotors").size());
  EXPECT_EQ(report.at("rotors"), 6);
  const nlohmann::ordered_json in_order = nlohmann::ordered_json::parse(r.out);
  EXPECT_EQ(std::prev(in_order.end()).key(), "rotors");

  // The rotor header is what hodyn-rotors writes for the same file and namespace.
  const fs::path by_rotors_tool = fresh_dir("by_hodyn_rotors");
  ASSERT_EQ(
      run(kRotorsTool, by_rotors_tool, "--name am --header am_rotors.hpp " + q(kRotors)).status, 0);
  EXPECT_EQ(read_file(with / "am_rotors.hpp"), read_file(by_rotors_tool / "am_rotors.hpp"));
  EXPECT_NE(read_file(with / "am_rotors.hpp").find("namespace am {"), std::string::npos);

  // The robot header and the parameters do not depend on --rotors.
  const fs::path without = fresh_dir("without_rotors");
  const Result plain = run(kUrdfTool, without,
                           "--name am --header am.hpp --parameters am.json --report " + q(kUrdf));
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_FALSE(json::parse(plain.out).contains("rotors")) << plain.out;
  EXPECT_EQ(read_file(with / "am.hpp"), read_file(without / "am.hpp"));
  EXPECT_EQ(read_file(with / "am.json"), read_file(without / "am.json"));
  EXPECT_EQ(read_file(with / "am.hpp").find("rotor"), std::string::npos)
      << "the robot header knows nothing of rotors";
}

/// A rotor file derived from the good one by `edit`.
fs::path edited_rotors(const fs::path& dir, const std::string& name, void (*edit)(json& rotors)) {
  json doc = json::parse(read_file(kRotors));
  edit(doc);
  const fs::path p = dir / name;
  write_file(p, doc.dump(2));
  return p;
}

TEST(UrdfRotorsCli, BadRotorFileWritesNoOutputAtAll) {
  const fs::path inputs = fresh_dir("bad_rotor_inputs");
  struct Case {
    fs::path file;
    std::vector<std::string> words;
  };
  std::vector<Case> cases = {
      {edited_rotors(inputs, "unknown_key.json", [](json& d) { d["rotors"][3]["spinn"] = 1; }),
       {"unknown_key.json", "rotors[3]", "unknown key", "spinn"}},
      {edited_rotors(inputs, "not_unit.json",
                     [](json& d) {
                       d["rotors"][2]["axis"] = json::array({0.0, 0.0, 2.0});
                     }),
       {"not_unit.json", "rotors[2].axis", "unit"}},
      {edited_rotors(inputs, "missing_key.json",
                     [](json& d) { d["rotors"][4].erase("time_constant"); }),
       {"missing_key.json", "rotors[4].time_constant", "missing"}},
      {edited_rotors(inputs, "bad_spin.json", [](json& d) { d["rotors"][0]["spin"] = 2; }),
       {"bad_spin.json", "rotors[0].spin"}},
      {edited_rotors(inputs, "five_rotors.json", [](json& d) { d["rotors"].erase(5); }),
       {"five_rotors.json", "5 rotor(s)", "6"}},
      {inputs / "no_such_rotors.json", {"no_such_rotors.json"}},
  };
  write_file(inputs / "syntax.json", read_file(kRotors).substr(0, 200));
  cases.push_back({inputs / "syntax.json", {"syntax.json"}});

  for (const Case& c : cases) {
    SCOPED_TRACE(c.file.filename().string());
    // Into an empty directory: nothing appears.
    const fs::path fresh = fresh_dir("bad_rotors_fresh");
    expect_refused(run(kUrdfTool, fresh, all_outputs(c.file) + " --report"), c.words);
    EXPECT_TRUE(listing(fresh).empty()) << "wrote " << listing(fresh).front();

    // Over earlier outputs: they stay as they were.
    const fs::path old = fresh_dir("bad_rotors_over_old");
    for (const char* f : {"am.hpp", "am.json", "am_rotors.hpp"})
      write_file(old / f, std::string("old ") + f);
    expect_refused(run(kUrdfTool, old, all_outputs(c.file)), c.words);
    EXPECT_EQ(listing(old), (std::vector<std::string>{"am.hpp", "am.json", "am_rotors.hpp"}));
    for (const char* f : {"am.hpp", "am.json", "am_rotors.hpp"})
      EXPECT_EQ(read_file(old / f), std::string("old ") + f);
  }
}

TEST(UrdfRotorsCli, BadUrdfWithGoodRotorsWritesNothing) {
  // bad_negative_mass.urdf: link 'heavy' has mass -1.
  const fs::path dir = fresh_dir("bad_urdf");
  const Result r = run(kUrdfTool, dir, all_outputs(kRotors, kBadUrdf));
  expect_refused(r, {"'heavy'", "negative mass"});
  EXPECT_EQ(r.err.find("rotors"), std::string::npos) << r.err;
  EXPECT_TRUE(listing(dir).empty());
}

TEST(UrdfRotorsCli, UnwritableRotorHeaderWritesNothing) {
  const fs::path dir = fresh_dir("unwritable");
  expect_refused(run(kUrdfTool, dir,
                     "--name am --header am.hpp --parameters am.json --rotors " + q(kRotors) +
                         " --rotor-header no_such_dir/am_rotors.hpp " + q(kUrdf)),
                 {"no_such_dir/am_rotors.hpp"});
  EXPECT_TRUE(listing(dir).empty()) << "wrote " << listing(dir).front();
}

TEST(UrdfRotorsCli, RotorsAndRotorHeaderOnlyTogether) {
  const fs::path dir = fresh_dir("usage");
  const std::string urdf = q(kUrdf), rotors = q(kRotors);
  expect_refused(run(kUrdfTool, dir, "--name am --header am.hpp --rotors " + rotors + " " + urdf),
                 {"--rotors", "--rotor-header"});
  expect_refused(run(kUrdfTool, dir, "--name am --header am.hpp --rotor-header r.hpp " + urdf),
                 {"--rotor-header", "--rotors"});
  expect_refused(run(kUrdfTool, dir, "--report --rotors " + rotors + " " + urdf),
                 {"--rotors", "--rotor-header"});
  expect_refused(run(kUrdfTool, dir, "--rotors " + rotors + " --rotor-header r.hpp " + urdf),
                 {"--name"});
  expect_refused(
      run(kUrdfTool, dir,
          "--name am --header same.hpp --rotors " + rotors + " --rotor-header same.hpp " + urdf),
      {"--header", "--rotor-header", "same file"});
  expect_refused(run(kUrdfTool, dir,
                     "--name am --parameters same.json --rotors " + rotors +
                         " --rotor-header same.json " + urdf),
                 {"--parameters", "--rotor-header", "same file"});
  expect_refused(run(kUrdfTool, dir, urdf + " --rotor-header r.hpp --rotors"), {"--rotors"});
  EXPECT_TRUE(listing(dir).empty());
}

TEST(UrdfRotorsCli, RotorHeaderAloneIsEnough) {
  // Only the rotor header (with --name for its namespace): nothing else written.
  const fs::path dir = fresh_dir("rotor_header_only");
  const Result r =
      run(kUrdfTool, dir, "--name am --rotors " + q(kRotors) + " --rotor-header r.hpp " + q(kUrdf));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(listing(dir), std::vector<std::string>{"r.hpp"});
}

}  // namespace
