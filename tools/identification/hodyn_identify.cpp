// hodyn-identify — estimates a robot's identifiable (base) inertial
// parameters from a closed-loop log (the CSV of hodyn-demo, with the
// identification columns of docs/state-format.md) by least squares on the
// momentum balance over windows, without accelerations, then makes them
// physically consistent (docs/identification.md). Prints JSON on stdout.
// Exit 0 success, 1 a bad or unreadable log, 2 a usage error; every error one
// line on stderr, nothing on stdout.
//
// Desktop tool: std::vector, std::string and iostreams are fine here.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "hodyn/closed_loop/scenario.hpp"
#include "hodyn/identification/base_parameters.hpp"
#include "hodyn/identification/momentum_identification.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"
#include "hodyn/simulator/plant_parameters.hpp"

namespace {

using namespace hodyn::identification;
using Robot = hodyn::AerialManipulatorRobot;
using Tree = Robot::Tree;
constexpr int kJoints = hodyn::TreeTraits<Tree>::kNumJoints;
constexpr const char* kTool = "hodyn-identify";
/// A base parameter is "well determined" when its relative standard deviation
/// (from the fit's residual) is at most this.
constexpr double kWellDetermined = 0.05;

const char* const kUsage = R"( [options] LOG.csv
Estimates the robot's base inertial parameters from a closed-loop log (the CSV
hodyn-demo writes) and prints JSON on stdout (docs/identification.md).
  --robot NAME        the robot of the log (default aerial_manipulator)
  --window S          integration window of the momentum balance (default 0.5)
  --svd-tolerance X   singular values of the scaled least squares below X times
                      the largest are dropped: those directions keep their
                      nominal values (default 1e-6)
  --truth SCENARIO    compare with that hodyn-demo scenario's plant (nominal,
                      mismatch, ...) instead of the nominal robot
  --friction LIST     also estimate joint friction on the links: viscous,
                      coulomb or viscous,coulomb (default none; nominal 0)
  --help
Exit: 0 done, 1 a bad or unreadable log, 2 a usage error.
)";

struct Args {
  std::string log;
  double window = 0.5;
  double svd_tolerance = 1e-6;
  bool has_truth = false;
  hodyn::closed_loop::Scenario truth = hodyn::closed_loop::Scenario::kNominal;
  FrictionColumns friction{};
};

/// "viscous", "coulomb", "viscous,coulomb" (either order) or "none"; false
/// for anything else.
bool parse_friction(const std::string& list, FrictionColumns& out) {
  out = FrictionColumns{};
  if (list == "none") return true;
  std::istringstream in(list);
  std::string item;
  int items = 0;
  while (std::getline(in, item, ',')) {
    ++items;
    if (item == "viscous" && !out.viscous) {
      out.viscous = true;
    } else if (item == "coulomb" && !out.coulomb) {
      out.coulomb = true;
    } else {
      return false;
    }
  }
  return items > 0 && list.back() != ',';
}

std::string friction_name(const FrictionColumns& f) {
  if (f.viscous && f.coulomb) return "viscous,coulomb";
  if (f.viscous) return "viscous";
  if (f.coulomb) return "coulomb";
  return "none";
}

/// 0 parsed, 1 --help printed, 2 usage error (one line printed).
int parse(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc || std::string(argv[i + 1]).rfind("--", 0) == 0) {
        std::cerr << kTool << ": " << opt << " needs " << what << "\n";
        return nullptr;
      }
      return argv[++i];
    };
    if (opt == "--help" || opt == "-h") {
      std::cout << "usage: " << kTool << kUsage;
      return 1;
    } else if (opt == "--robot") {
      const char* v = value("a robot name");
      if (v == nullptr) return 2;
      if (std::string(v) != Robot::kName) {
        std::cerr << kTool << ": unknown robot '" << v << "' (known: " << Robot::kName << ")\n";
        return 2;
      }
    } else if (opt == "--window") {
      const char* v = value("a duration in s");
      if (v == nullptr) return 2;
      char* end = nullptr;
      a.window = std::strtod(v, &end);
      if (end == v || *end != '\0' || !(a.window > 0.0 && a.window <= 1e3)) {
        std::cerr << kTool << ": --window needs a duration in (0, 1000] s, got '" << v << "'\n";
        return 2;
      }
    } else if (opt == "--svd-tolerance") {
      const char* v = value("a number in (0, 1)");
      if (v == nullptr) return 2;
      char* end = nullptr;
      a.svd_tolerance = std::strtod(v, &end);
      if (end == v || *end != '\0' || !(a.svd_tolerance > 0.0 && a.svd_tolerance < 1.0)) {
        std::cerr << kTool << ": --svd-tolerance needs a number in (0, 1), got '" << v << "'\n";
        return 2;
      }
    } else if (opt == "--truth") {
      const char* v = value("a scenario name");
      if (v == nullptr) return 2;
      if (!hodyn::closed_loop::parse_scenario(v, a.truth)) {
        std::cerr << kTool << ": unknown scenario '" << v << "'\n";
        return 2;
      }
      a.has_truth = true;
    } else if (opt == "--friction") {
      const char* v = value("a list (viscous, coulomb, viscous,coulomb or none)");
      if (v == nullptr) return 2;
      if (!parse_friction(v, a.friction)) {
        std::cerr << kTool << ": --friction takes viscous, coulomb, viscous,coulomb or none, got '"
                  << v << "'\n";
        return 2;
      }
    } else if (opt.rfind("--", 0) == 0) {
      std::cerr << kTool << ": unknown option '" << opt << "' (see --help)\n";
      return 2;
    } else if (a.log.empty()) {
      a.log = opt;
    } else {
      std::cerr << kTool << ": one log only, got '" << a.log << "' and '" << opt << "'\n";
      return 2;
    }
  }
  if (a.log.empty()) {
    std::cerr << kTool << ": no log given (usage: " << kTool << " [options] LOG.csv)\n";
    return 2;
  }
  return 0;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) out.push_back(field);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

/// Reads the log; false with `error` set (one line) on any problem.
bool read_log(const std::string& path, std::vector<LogSample>& out, std::string& error) {
  std::ifstream f(path);
  if (!f) {
    error = "cannot read " + path;
    return false;
  }
  std::string line;
  if (!std::getline(f, line)) {
    error = path + ": empty file";
    return false;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const std::vector<std::string> header = split(line);
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  std::vector<std::string> names = {"t",        "x",        "y",        "z",        "qw",
                                    "qx",       "qy",       "qz",       "V1_wx",    "V1_wy",
                                    "V1_wz",    "V1_vx",    "V1_vy",    "V1_vz",    "Wprop_nx",
                                    "Wprop_ny", "Wprop_nz", "Wprop_fx", "Wprop_fy", "Wprop_fz"};
  for (int j = 1; j <= kJoints; ++j) {
    names.push_back("q" + std::to_string(j));
    names.push_back("qd" + std::to_string(j));
    names.push_back("tau" + std::to_string(j));
  }
  std::vector<std::size_t> index;
  for (const std::string& n : names) {
    const auto it = column.find(n);
    if (it == column.end()) {
      error = path + ": no column '" + n +
              "' (a log of hodyn-demo with the identification columns, docs/state-format.md)";
      return false;
    }
    index.push_back(it->second);
  }
  auto at = [&](const std::vector<double>& v, const std::string& n) {
    std::size_t k = 0;
    while (names[k] != n) ++k;
    return v[k];
  };
  long line_number = 1;
  std::vector<double> values(names.size());
  while (std::getline(f, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> fields = split(line);
    if (fields.size() != header.size()) {
      error = path + " line " + std::to_string(line_number) + ": " + std::to_string(fields.size()) +
              " fields, the header has " + std::to_string(header.size());
      return false;
    }
    for (std::size_t k = 0; k < names.size(); ++k) {
      const std::string& s = fields[index[k]];
      char* end = nullptr;
      const double v = std::strtod(s.c_str(), &end);
      if (s.empty() || *end != '\0' || !std::isfinite(v)) {
        error = path + " line " + std::to_string(line_number) + ": column '" + names[k] +
                "' is not a finite number ('" + s + "')";
        return false;
      }
      values[k] = v;
    }
    LogSample s;
    s.time = at(values, "t");
    s.position = Eigen::Vector3d(at(values, "x"), at(values, "y"), at(values, "z"));
    s.attitude =
        Eigen::Quaterniond(at(values, "qw"), at(values, "qx"), at(values, "qy"), at(values, "qz"));
    const double norm = s.attitude.norm();
    if (!(std::abs(norm - 1.0) < 1e-3)) {
      error = path + " line " + std::to_string(line_number) +
              ": the quaternion (qw, qx, qy, qz) is not of unit norm";
      return false;
    }
    const char* twist[6] = {"V1_wx", "V1_wy", "V1_wz", "V1_vx", "V1_vy", "V1_vz"};
    const char* wrench[6] = {"Wprop_nx", "Wprop_ny", "Wprop_nz",
                             "Wprop_fx", "Wprop_fy", "Wprop_fz"};
    for (int i = 0; i < 6; ++i) {
      s.base_twist(i) = at(values, twist[i]);
      s.propulsion_wrench(i) = at(values, wrench[i]);
    }
    s.q.resize(kJoints);
    s.q_dot.resize(kJoints);
    s.joint_torque.resize(kJoints);
    for (int j = 0; j < kJoints; ++j) {
      const std::string n = std::to_string(j + 1);
      s.q(j) = at(values, "q" + n);
      s.q_dot(j) = at(values, "qd" + n);
      s.joint_torque(j) = at(values, "tau" + n);
    }
    if (!out.empty() && !(s.time > out.back().time)) {
      error = path + " line " + std::to_string(line_number) + ": time does not increase";
      return false;
    }
    out.push_back(s);
  }
  if (out.size() < 2) {
    error = path + ": fewer than two samples";
    return false;
  }
  return true;
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    q += c;
  }
  return q + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  const int parsed = parse(argc, argv, args);
  if (parsed == 1) return 0;
  if (parsed != 0) return 2;

  std::vector<LogSample> log;
  std::string error;
  if (!read_log(args.log, log, error)) {
    std::cerr << kTool << ": " << error << "\n";
    return 1;
  }
  const auto nominal = hodyn::sim::default_description<Robot>();
  BaseParameters bp;
  BaseParameterOptions base_options;
  base_options.friction = args.friction;
  if (compute_base_parameters(nominal.model, base_options, bp) != hodyn::Status::kOk) {
    std::cerr << kTool << ": base parameters of " << Robot::kName << " failed\n";
    return 1;
  }
  hodyn::Model<Tree, double> truth_model = nominal.model;
  if (args.has_truth) {
    const auto setup =
        hodyn::closed_loop::make_robot_scenario<Robot>(args.truth, 1.0 / 8000.0, 1.0 / 1000.0, 1);
    if (hodyn::sim::make_plant_model(setup.plant, truth_model) != hodyn::Status::kOk) {
      std::cerr << kTool << ": the plant of scenario "
                << hodyn::closed_loop::scenario_name(args.truth) << " failed\n";
      return 1;
    }
  }
  MomentumIdentificationOptions options;
  options.window = args.window;
  options.svd_tolerance = args.svd_tolerance;
  MomentumIdentificationResult result;
  const hodyn::Status s = identify_base_parameters(nominal.model, bp, log, options, result);
  if (s != hodyn::Status::kOk) {
    std::cerr << kTool << ": " << args.log << ": estimation failed: " << hodyn::to_string(s)
              << (s == hodyn::Status::kInvalidArgument ? " (log shorter than one window?)" : "")
              << "\n";
    return 1;
  }
  // π extended by the friction parameters, 0 in the description and in every
  // scenario's plant (no joint friction on the link side).
  const auto extended = [&](const hodyn::Model<Tree, double>& model) {
    Eigen::VectorXd pi = Eigen::VectorXd::Zero(bp.num_parameters);
    pi.head(10 * Tree::kNumBodies) = parameter_vector(model);
    return pi;
  };
  const Eigen::VectorXd beta_nominal = base_parameter_values(bp, extended(nominal.model));
  const Eigen::VectorXd beta_truth = base_parameter_values(bp, extended(truth_model));

  std::ostringstream o;
  o << "{\n  \"robot\": " << quoted(Robot::kName) << ",\n  \"log\": " << quoted(args.log)
    << ",\n  \"samples\": " << log.size() << ",\n  \"window_s\": " << number(args.window)
    << ",\n  \"windows\": " << result.windows << ",\n  \"rank\": " << bp.rank
    << ",\n  \"friction\": " << quoted(friction_name(args.friction))
    << ",\n  \"excited_rank\": " << result.excited_rank
    << ",\n  \"residual_rms\": " << number(result.residual_rms)
    << ",\n  \"residual_relative\": " << number(result.residual_relative)
    << ",\n  \"bodies_projected\": " << result.bodies_projected
    << ",\n  \"consistent\": " << (result.bodies_projected == 0 ? "true" : "false")
    << ",\n  \"reference\": "
    << quoted(args.has_truth ? std::string("plant of scenario ") +
                                   hodyn::closed_loop::scenario_name(args.truth)
                             : std::string("nominal"))
    << ",\n  \"base_parameters\": [\n";
  double worst_determined = 0.0;
  int determined = 0;
  for (int i = 0; i < bp.rank; ++i) {
    const double reference = beta_truth(i);
    const bool has_relative = std::abs(reference) > 1e-9;
    const double estimate = result.least_squares(i);
    const double relative =
        has_relative ? std::abs(estimate - reference) / std::abs(reference) : std::nan("");
    const double consistent_relative =
        has_relative ? std::abs(result.consistent(i) - reference) / std::abs(reference)
                     : std::nan("");
    const double sd = result.relative_std(i);
    const bool well_determined = sd >= 0.0 && sd <= kWellDetermined;
    if (well_determined) ++determined;
    if (well_determined && has_relative) worst_determined = std::max(worst_determined, relative);
    o << "    {\"name\": " << quoted(base_parameter_name(bp, i, 6))
      << ", \"estimate\": " << number(estimate) << ", \"nominal\": " << number(beta_nominal(i))
      << ", \"reference\": " << number(reference)
      << ", \"absolute_error\": " << number(std::abs(estimate - reference))
      << ", \"relative_error\": " << number(relative)
      << ", \"relative_std\": " << number(sd >= 0.0 ? sd : std::nan(""))
      << ", \"well_determined\": " << (well_determined ? "true" : "false")
      << ", \"consistent_estimate\": " << number(result.consistent(i))
      << ", \"consistent_relative_error\": " << number(consistent_relative) << "}"
      << (i + 1 < bp.rank ? "," : "") << "\n";
  }
  o << "  ],\n  \"well_determined\": " << determined
    << ",\n  \"max_relative_error_well_determined\": " << number(worst_determined) << "\n}\n";
  std::cout << o.str();
  return std::cout ? 0 : 1;
}
