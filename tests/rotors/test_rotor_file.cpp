// rotors.json (tools/robot-description, docs/state-format.md "Rotor
// description"): the TiltHex file against tilthex_allocation, round trips,
// one test per kind of bad input (the one-line error must name the rotor and
// the key), the header emitter's atomic writes, and hodyn-rotors' exit codes.
#include <hodyn/models/tilthex.hpp>
#include <hodyn/models/tilthex_rotor_set.hpp>
#include <hodyn/robot_description/atomic_file.hpp>
#include <hodyn/robot_description/rotor_file.hpp>
#include <hodyn/robot_description/rotor_header.hpp>

#include "support/error_metrics.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace rd = hodyn::robot_description;
namespace fs = std::filesystem;
using json = nlohmann::json;
using Mat6 = Eigen::Matrix<double, 6, 6>;

constexpr double kPi = 3.14159265358979323846;

rd::Rotors tilthex_rotors(const hodyn::TiltHexParameters& p = {}) {
  const hodyn::RotorSet<6> set = hodyn::tilthex_rotor_set(p);
  return rd::Rotors(set.rotors.begin(), set.rotors.end());
}

bool same_bits(const hodyn::Rotor<double>& a, const hodyn::Rotor<double>& b) {
  return (a.position.array() == b.position.array()).all() &&
         (a.axis.array() == b.axis.array()).all() && a.spin == b.spin &&
         a.thrust_coefficient == b.thrust_coefficient && a.drag_coefficient == b.drag_coefficient &&
         a.min_speed == b.min_speed && a.max_speed == b.max_speed &&
         a.time_constant == b.time_constant;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh, empty scratch directory per test.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(HODYN_ROTORS_SCRATCH) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

// ---- the TiltHex as data ---------------------------------------------------

// The file's printed digits against the code that computes the same geometry
// (cos, sin and products of a, α_i, β): equal to the bit when both round
// alike, which a build that contracts a · b + c into FMAs (-march=native)
// does not — the axes then differ in the last place (issue 21 item 5: up to
// 0.25 ulp normwise measured). Positions and axes within 4 ulps normwise; the
// other fields are literals, bit for bit. (Writing and reading back is
// checked bit for bit below.)
TEST(RotorFile, TiltHexFileIsTheTiltHexRotorSet) {
  const rd::RotorFile file = rd::parse_rotor_file(HODYN_ROTORS_JSON);
  ASSERT_TRUE(file.ok()) << file.error;
  const rd::Rotors expected = tilthex_rotors();
  ASSERT_EQ(file.rotors.size(), 6u);
  double worst = 0;
  for (std::size_t i = 0; i < 6; ++i) {
    const hodyn::Rotor<double>& a = file.rotors[i];
    const hodyn::Rotor<double>& b = expected[i];
    const double ulps = std::max(hodyn::test::normwise_ulps(a.position, b.position),
                                 hodyn::test::normwise_ulps(a.axis, b.axis));
    worst = std::max(worst, ulps);
    EXPECT_LE(ulps, 4.0) << "rotor " << i;
    hodyn::Rotor<double> same_geometry = a;
    same_geometry.position = b.position;
    same_geometry.axis = b.axis;
    EXPECT_TRUE(same_bits(same_geometry, b)) << "rotor " << i;
  }
  std::printf("rotors.json vs tilthex_rotor_set: positions and axes within %.2g ulps (normwise)\n",
              worst);
}

TEST(RotorFile, TiltHexFileGivesTiltHexAllocation) {
  const rd::RotorFile file = rd::parse_rotor_file(HODYN_ROTORS_JSON);
  ASSERT_TRUE(file.ok()) << file.error;
  hodyn::RotorSet<6> set;
  for (int i = 0; i < 6; ++i) set[i] = file.rotors[static_cast<std::size_t>(i)];
  const Mat6 a = hodyn::rotor_allocation(set);
  const Mat6 expected = hodyn::tilthex_allocation<double>();
  double worst = 0;
  for (int c = 0; c < 6; ++c)
    for (int r = 0; r < 6; ++r)
      worst = std::max(worst, std::abs(a(r, c) - expected(r, c)) / std::abs(expected(r, c)));
  std::printf("rotors.json vs tilthex_allocation: max relative entry error %.3g\n", worst);
  EXPECT_LE(worst, 1e-15);
}

// ---- writing and reading back ----------------------------------------------

TEST(RotorFile, NumbersRoundTrip) {
  hodyn::test::Rng rng(21);
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                0.1,
                                1.0 / 3.0,
                                1e-300,
                                4.9e-324,
                                1.7976931348623157e308,
                                -2.5e-17,
                                1200.0,
                                123456789012345680.0};
  for (int i = 0; i < 2000; ++i)
    values.push_back(rng.normal() * std::pow(10.0, rng.uniform(-30, 30)));
  for (const double x : values) {
    const std::string text = rd::round_trip_number(x);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), x) << text;
    EXPECT_NE(text.find_first_of(".e"), std::string::npos) << text << " is not a double literal";
  }
}

TEST(RotorFile, WriteThenParseIsExact) {
  hodyn::test::Rng rng(4);
  rd::Rotors rotors = tilthex_rotors();
  for (int extra = 0; extra < 3; ++extra) {
    hodyn::Rotor<double> r;
    r.position = rng.vec3();
    r.axis = rng.unit3();
    r.spin = extra % 2 == 0 ? 1 : -1;
    r.thrust_coefficient = rng.uniform(1e-6, 1e-4);
    r.drag_coefficient = rng.uniform(0, 1e-6);
    r.min_speed = rng.uniform(0, 100);
    r.max_speed = rng.uniform(200, 3000);
    r.time_constant = rng.uniform(0.005, 0.2);
    rotors.push_back(r);
  }
  const rd::RotorFile back =
      rd::parse_rotor_json(rd::rotor_json_text(rotors, "a \"quoted\"\ncomment"), "t");
  ASSERT_TRUE(back.ok()) << back.error;
  ASSERT_EQ(back.rotors.size(), rotors.size());
  for (std::size_t i = 0; i < rotors.size(); ++i)
    EXPECT_TRUE(same_bits(back.rotors[i], rotors[i])) << i;
}

TEST(RotorFile, HandWrittenFileWithIntegersAndComments) {
  // Six rotors on a circle, thrust axes tilted 36.87° alternately along the
  // tangent (unit to ~1e-16), integer numbers, no drag, comments: accepted.
  std::string rotors;
  for (int i = 0; i < 6; ++i) {
    const double c = std::cos(i * kPi / 3), s = std::sin(i * kPi / 3);
    json r = {{"comment", "arm " + std::to_string(i)},
              {"position", {0.3 * c, 0.3 * s, 0}},
              {"axis", {-0.6 * s * (i % 2 == 0 ? 1 : -1), 0.6 * c * (i % 2 == 0 ? 1 : -1), 0.8}},
              {"spin", i % 2 == 0 ? 1 : -1},
              {"thrust_coefficient", 1e-5},
              {"drag_coefficient", 0},
              {"min_speed", 0},
              {"max_speed", 1000},
              {"time_constant", 0.05}};
    rotors += (i ? "," : "") + r.dump();
  }
  const rd::RotorFile f = rd::parse_rotor_json(
      "{\"version\": 1, \"comment\": \"hand\", \"rotors\": [" + rotors + "]}", "hand.json");
  ASSERT_TRUE(f.ok()) << f.error;
  EXPECT_EQ(f.rotors[3].max_speed, 1000.0);
  EXPECT_EQ(f.rotors[1].axis(2), 0.8);
  EXPECT_EQ(f.rotors[1].drag_coefficient, 0.0);
}

// ---- bad input ---------------------------------------------------------------

json tilthex_document() { return json::parse(rd::rotor_json_text(tilthex_rotors())); }

// Parses `text` and checks the one-line error: it starts with the origin and
// contains every string of `expected`.
void expect_error(const std::string& text, const std::vector<std::string>& expected,
                  const std::string& what) {
  const rd::RotorFile f = rd::parse_rotor_json(text, "robot/rotors.json");
  ASSERT_FALSE(f.ok()) << what << ": accepted";
  EXPECT_TRUE(f.rotors.empty()) << what;
  EXPECT_EQ(f.error.find('\n'), std::string::npos) << what << ": not one line: " << f.error;
  EXPECT_EQ(f.error.rfind("robot/rotors.json: ", 0), 0u) << what << ": " << f.error;
  for (const std::string& e : expected)
    EXPECT_NE(f.error.find(e), std::string::npos)
        << what << ": \"" << e << "\" not in: " << f.error;
}

void expect_error(const std::function<void(json&)>& spoil, const std::vector<std::string>& expected,
                  const std::string& what) {
  json doc = tilthex_document();
  spoil(doc);
  expect_error(doc.dump(2), expected, what);
}

TEST(RotorFileErrors, MissingKeyOfEveryRotorField) {
  for (const char* key : {"position", "axis", "spin", "thrust_coefficient", "drag_coefficient",
                          "min_speed", "max_speed", "time_constant"})
    for (const int i : {0, 3, 5})
      expect_error([&](json& d) { d["rotors"][static_cast<std::size_t>(i)].erase(key); },
                   {"rotors[" + std::to_string(i) + "]." + key + ": missing key"}, key);
}

TEST(RotorFileErrors, MissingOrBadTopLevelKeys) {
  expect_error([](json& d) { d.erase("version"); }, {"version: missing key"}, "no version");
  expect_error([](json& d) { d["version"] = 2; }, {"version: expected 1", "number 2"}, "version 2");
  expect_error([](json& d) { d["version"] = 1.0; }, {"version: expected 1"}, "version 1.0");
  expect_error([](json& d) { d.erase("rotors"); }, {"rotors: missing key"}, "no rotors");
  expect_error([](json& d) { d["rotors"] = json::object(); }, {"rotors: expected a list"},
               "object");
  expect_error([](json& d) { d["rotor"] = 1; }, {"unknown key \"rotor\""}, "unknown key");
  expect_error([](json& d) { d["comment"] = 3; }, {"comment: expected a string"}, "comment type");
  expect_error("[1, 2]", {"expected a JSON object", "a list of 2"}, "array document");
}

TEST(RotorFileErrors, WrongTypesAndUnknownKeys) {
  expect_error([](json& d) { d["rotors"][2] = 5; }, {"rotors[2]: expected an object"},
               "number rotor");
  expect_error([](json& d) { d["rotors"][1]["thrust"] = 1e-5; },
               {"rotors[1]: unknown key \"thrust\""}, "unknown rotor key");
  expect_error(
      [](json& d) {
        d["rotors"][4]["position"] = {0.1, 0.2};
      },
      {"rotors[4].position: expected a list of 3 numbers", "a list of 2"}, "short position");
  expect_error([](json& d) { d["rotors"][4]["axis"][1] = "0.3"; },
               {"rotors[4].axis[1]: expected a number", "string \"0.3\""}, "string number");
  expect_error([](json& d) { d["rotors"][0]["max_speed"] = nullptr; },
               {"rotors[0].max_speed: expected a number", "null"}, "null");
  expect_error([](json& d) { d["rotors"][0]["comment"] = false; },
               {"rotors[0].comment: expected a string"}, "comment type");
}

TEST(RotorFileErrors, NonFiniteNumbers) {
  // JSON has no NaN or Infinity; a number beyond the double range is the way
  // a non-finite value reaches the parser.
  std::string text = tilthex_document().dump(2);
  const std::string needle = "-0.3187957775971679";  // rotors[2].axis[1]
  ASSERT_NE(text.find(needle), std::string::npos);
  expect_error(std::string(text).replace(text.find(needle), needle.size(), "-1e999"),
               {"rotors[2].axis[1]", "not a finite double"}, "overflow");
  const std::string cf = "\"thrust_coefficient\": 1.1e-05";
  std::size_t at = text.find(cf);
  for (int k = 0; k < 4; ++k) at = text.find(cf, at + 1);  // rotors[4]
  expect_error(std::string(text).replace(at, cf.size(), "\"thrust_coefficient\": 2e400"),
               {"rotors[4].thrust_coefficient", "not a finite double"}, "overflow scalar");
  expect_error(std::string(text).replace(text.find(needle), needle.size(), "NaN"),
               {"rotors[2].axis[1]", "syntax error", "line "}, "NaN literal");
}

TEST(RotorFileErrors, NonUnitAxis) {
  expect_error(
      [](json& d) {
        d["rotors"][3]["axis"] = {0, 0, 1.00001};
      },
      {"rotors[3].axis: must be a unit vector", "[0.0, 0.0, 1.00001]"}, "long axis");
  expect_error(
      [](json& d) {
        d["rotors"][1]["axis"] = {0.342, 0, 0.94};
      },
      {"rotors[1].axis: must be a unit vector"}, "4 digits");
  expect_error(
      [](json& d) {
        d["rotors"][5]["axis"] = {0, 0, 0};
      },
      {"rotors[5].axis: must be a unit vector"}, "zero");
}

TEST(RotorFileErrors, OutOfRangeValues) {
  expect_error([](json& d) { d["rotors"][2]["spin"] = 0; },
               {"rotors[2].spin: must be +1", "number 0"}, "spin 0");
  expect_error([](json& d) { d["rotors"][2]["spin"] = 1.0; }, {"rotors[2].spin: must be +1"},
               "spin 1.0");
  expect_error([](json& d) { d["rotors"][2]["spin"] = "ccw"; }, {"rotors[2].spin: must be +1"},
               "spin ccw");
  expect_error([](json& d) { d["rotors"][2]["spin"] = 18446744073709551615ull; },
               {"rotors[2].spin: must be +1"}, "spin 2^64-1");
  expect_error([](json& d) { d["rotors"][0]["thrust_coefficient"] = -1.1e-5; },
               {"rotors[0].thrust_coefficient: must be finite and > 0", "-1.1e-05"},
               "negative c_f");
  expect_error([](json& d) { d["rotors"][0]["thrust_coefficient"] = 0; },
               {"rotors[0].thrust_coefficient: must be finite and > 0"}, "zero c_f");
  expect_error([](json& d) { d["rotors"][1]["drag_coefficient"] = -1.8e-7; },
               {"rotors[1].drag_coefficient: must be finite and >= 0"}, "negative c_d");
  expect_error([](json& d) { d["rotors"][4]["min_speed"] = -5; },
               {"rotors[4].min_speed: must be finite and >= 0"}, "negative min");
  expect_error([](json& d) { d["rotors"][5]["min_speed"] = 1300; },
               {"rotors[5].max_speed: must be finite and > min_speed", "1200.0 (min_speed 1300.0)"},
               "min > max");
  expect_error([](json& d) { d["rotors"][3]["time_constant"] = 0; },
               {"rotors[3].time_constant: must be finite and > 0"}, "zero time constant");
}

TEST(RotorFileErrors, FewerThanSixRotors) {
  for (const std::size_t n : {0u, 1u, 5u})
    expect_error(
        [&](json& d) {
          while (d["rotors"].size() > n) d["rotors"].erase(d["rotors"].size() - 1);
        },
        {"rotors: " + std::to_string(n) + " rotor(s), at least 6 needed"}, "few rotors");
}

TEST(RotorFileErrors, RankDeficientAllocation) {
  hodyn::TiltHexParameters literal;  // eq. 28 read literally: rank 3 (erratum E5)
  literal.alternate_tilt = false;
  literal.alternate_drag = false;
  expect_error(rd::rotor_json_text(tilthex_rotors(literal)),
               {"rotors: the allocation matrix has rank 3 < 6"}, "literal eq. 28");
  // Seven rotors that are all the same one: rank 1.
  json doc = tilthex_document();
  for (std::size_t i = 1; i < 6; ++i) doc["rotors"][i] = doc["rotors"][0];
  doc["rotors"].push_back(doc["rotors"][0]);
  expect_error(doc.dump(), {"rank 1 < 6"}, "seven copies");
}

TEST(RotorFileErrors, SyntaxAndDuplicateKeys) {
  const std::string text = tilthex_document().dump(2);
  expect_error(text.substr(0, text.size() / 2), {"parse error", "line "}, "truncated");
  expect_error("", {"parse error"}, "empty");
  json doc = tilthex_document();
  std::string dup = doc.dump();
  const std::string spin = "\"spin\":1,";  // first at rotors[1]
  dup.insert(dup.find(spin), spin);
  expect_error(dup, {"rotors[1].spin: duplicate key"}, "duplicate key");
}

TEST(RotorFileErrors, MissingFile) {
  const rd::RotorFile f = rd::parse_rotor_file("/nonexistent/rotors.json");
  EXPECT_FALSE(f.ok());
  EXPECT_NE(f.error.find("/nonexistent/rotors.json: cannot open"), std::string::npos) << f.error;
}

// ---- the header emitter ------------------------------------------------------

TEST(RotorHeader, TextDefinesTheContract) {
  const std::string h = rd::rotor_header_text(tilthex_rotors(), "robots::am", "rotors.json");
  for (const char* s : {"#pragma once", "#include <hodyn/models/rotor_set.hpp>",
                        "namespace robots::am {", "inline constexpr int kNumRotors = 6;",
                        "inline constexpr std::array<hodyn::RotorData, kNumRotors> kRotors{{",
                        "hodyn::RotorSet<kNumRotors, Scalar> make_rotors()", "from rotors.json",
                        "{0.20000000000000007, 0.34641016151377546, 0.0}", "// rotor 5"})
    EXPECT_NE(h.find(s), std::string::npos) << s << "\n" << h;
}

TEST(RotorHeader, WritesAtomically) {
  const fs::path dir = scratch("writes");
  const fs::path out = dir / "rotors.hpp";
  EXPECT_EQ(rd::write_rotor_header(out.string(), tilthex_rotors(), "am", "rotors.json"), "");
  EXPECT_EQ(read_text(out), rd::rotor_header_text(tilthex_rotors(), "am", "rotors.json"));
  EXPECT_EQ(listing(dir), std::vector<std::string>{"rotors.hpp"});  // no temporary left
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

TEST(RotorHeader, RefusesBadInputAndLeavesOldFile) {
  const fs::path dir = scratch("refuses");
  const fs::path out = dir / "rotors.hpp";
  { std::ofstream(out) << "old"; }
  for (const char* ns : {"", "1am", "a b", "am::", "::am", "a-m"})
    EXPECT_NE(rd::write_rotor_header(out.string(), tilthex_rotors(), ns, "x"), "") << ns;
  rd::Rotors bad = tilthex_rotors();
  bad[2].axis *= 2.0;
  const std::string error = rd::write_rotor_header(out.string(), bad, "am", "x.json");
  EXPECT_NE(error.find("x.json: rotors[2].axis: must be a unit vector"), std::string::npos)
      << error;
  bad = tilthex_rotors();
  bad.pop_back();
  EXPECT_NE(rd::write_rotor_header(out.string(), bad, "am", "x"), "");
  EXPECT_EQ(read_text(out), "old");
  EXPECT_EQ(listing(dir), std::vector<std::string>{"rotors.hpp"});
  const std::string no_dir = rd::write_file_atomically((dir / "missing" / "f.hpp").string(), "x");
  EXPECT_NE(no_dir.find("cannot create a temporary file"), std::string::npos) << no_dir;
}

// ---- hodyn-rotors ------------------------------------------------------------

int run(const std::string& args, const fs::path& err) {
  const std::string command =
      std::string(HODYN_ROTORS_CLI) + " " + args + " >/dev/null 2>" + err.string();
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(HodynRotorsCli, ExitCodesAndOutputs) {
  const fs::path dir = scratch("cli");
  const fs::path out = dir / "am.hpp", err = dir / "stderr.txt";
  const std::string json_file = HODYN_ROTORS_JSON;
  EXPECT_EQ(run(json_file, err), 0);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(run("--name am --header " + out.string() + " " + json_file, err), 0);
  // The header of the file's own numbers (the file against the code: above).
  EXPECT_EQ(read_text(out),
            rd::rotor_header_text(rd::parse_rotor_file(json_file).rotors, "am", "rotors.json"));
  fs::remove(out);

  // Bad input: exit 2, one line on stderr naming rotor and key, nothing written.
  json doc = tilthex_document();
  doc["rotors"][3].erase("axis");
  const fs::path bad = dir / "bad.json";
  { std::ofstream(bad) << doc.dump(2); }
  EXPECT_EQ(run("--name am --header " + out.string() + " " + bad.string(), err), 2);
  const std::string message = read_text(err);
  EXPECT_NE(message.find("rotors[3].axis: missing key"), std::string::npos) << message;
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
  EXPECT_FALSE(fs::exists(out));

  EXPECT_EQ(run("--header " + out.string() + " " + json_file, err), 2);  // no --name
  EXPECT_EQ(run("--name 9x --header " + out.string() + " " + json_file, err), 2);
  EXPECT_EQ(run("--name am --header " + out.string() + " " + (dir / "none.json").string(), err), 2);
  EXPECT_EQ(run("--bogus " + json_file, err), 2);
  EXPECT_EQ(run("", err), 2);
  EXPECT_EQ(run("--help", err), 0);
  EXPECT_FALSE(fs::exists(out));
  std::vector<std::string> left = listing(dir);
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"bad.json", "stderr.txt"}));
}

}  // namespace
