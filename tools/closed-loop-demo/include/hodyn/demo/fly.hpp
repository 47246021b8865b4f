// hodyn/demo/fly.hpp — one robot flown through the chosen scenarios, the
// body of hodyn-demo for robot type Robot: printed summary, CSV log (a column
// per joint and rotor), PNG plots, JSON summary. hodyn/demo/demo.hpp parses
// the command line and picks the robot; a program flies a robot with
//
//   int fly_my_robot(const hodyn::demo::DemoArgs& a) { return hodyn::demo::fly<my::Robot>(a); }
//
// (hodyn_add_robot() generates that file and the program's main.)
//
// Desktop tool: std::vector, std::string and iostreams are fine here.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include "hodyn/closed_loop/report.hpp"
#include "hodyn/closed_loop/robot_reference.hpp"
#include "hodyn/closed_loop/robot_runner.hpp"
#include "hodyn/closed_loop/runner.hpp"
#include "hodyn/demo/demo.hpp"
#include "hodyn/plugin/registry.hpp"
#include "hodyn/plugin/robot_identity.hpp"

namespace hodyn {
namespace demo {

/// `s` as one single-quoted shell word: a ' inside becomes '\'' (so a directory
/// or interpreter name can hold any character without being run as a command).
inline std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Writes `text` to PATH.tmp and renames it over `path`: all or nothing.
inline bool write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  bool ok = false;
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.close();
    ok = static_cast<bool>(f);
  }
  ok = ok && std::rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) std::remove(tmp.c_str());
  return ok;
}

inline bool write_csv(const std::string& path, const std::vector<hodyn::closed_loop::Sample>& rows,
                      int num_joints, int num_rotors) {
  std::ostringstream f;
  f << "t,x,y,z,x_ref,y_ref,z_ref,att_err_x,att_err_y,att_err_z,yaw,yaw_ref";
  for (int j = 1; j <= num_joints; ++j) f << ",q" << j;
  for (int j = 1; j <= num_joints; ++j) f << ",q" << j << "_ref";
  for (int j = 1; j <= num_rotors; ++j) f << ",rotor" << j;
  for (int j = 1; j <= num_rotors; ++j) f << ",rotor" << j << "_cmd";
  for (int j = 1; j <= num_joints; ++j) f << ",u" << j;
  f << ",status,mode";
  // Identification columns (docs/state-format.md), appended after the first ones.
  f << ",qw,qx,qy,qz,V1_wx,V1_wy,V1_wz,V1_vx,V1_vy,V1_vz";
  for (int j = 1; j <= num_joints; ++j) f << ",qd" << j;
  for (int j = 1; j <= num_joints; ++j) f << ",tau" << j;
  f << ",Wprop_nx,Wprop_ny,Wprop_nz,Wprop_fx,Wprop_fy,Wprop_fz\n";
  f.precision(10);
  const auto nj = static_cast<std::size_t>(num_joints);
  const auto nr = static_cast<std::size_t>(num_rotors);
  for (const hodyn::closed_loop::Sample& r : rows) {
    f << r.time;
    for (double v : r.position) f << ',' << v;
    for (double v : r.position_reference) f << ',' << v;
    for (double v : r.attitude_error) f << ',' << v;
    f << ',' << r.yaw << ',' << r.yaw_reference;
    for (std::size_t j = 0; j < nj; ++j) f << ',' << r.q[j];
    for (std::size_t j = 0; j < nj; ++j) f << ',' << r.q_reference[j];
    for (std::size_t i = 0; i < nr; ++i) f << ',' << r.rotor_speed[i];
    for (std::size_t i = 0; i < nr; ++i) f << ',' << r.rotor_command[i];
    for (std::size_t j = 0; j < nj; ++j) f << ',' << r.motor_torque[j];
    f << ',' << r.status << ',' << r.mode;
    for (double v : r.base_quaternion) f << ',' << v;
    for (double v : r.base_twist) f << ',' << v;
    for (std::size_t j = 0; j < nj; ++j) f << ',' << r.q_dot[j];
    for (std::size_t j = 0; j < nj; ++j) f << ',' << r.joint_torque[j];
    for (double v : r.propulsion_wrench) f << ',' << v;
    f << '\n';
  }
  return write_file_atomically(path, f.str());
}

inline bool write_json(const std::string& path, const char* robot,
                       const std::vector<hodyn::closed_loop::RunSummary>& all) {
  std::ostringstream f;
  f << "{\n  \"robot\": \"" << robot << "\",\n  \"scenarios\": [\n";
  for (std::size_t i = 0; i < all.size(); ++i)
    f << "    {\n"
      << hodyn::closed_loop::run_summary_json_members(all[i], "      ") << "\n"
      << "    }" << (i + 1 < all.size() ? "," : "") << "\n";
  f << "  ]\n}\n";
  return write_file_atomically(path, f.str());
}

/// The plot script's extra arguments for robot `Robot`: rotor speed limits,
/// the motor torque limit when every joint has the same one, the prismatic
/// joints (plotted in mm).
template <class Robot>
std::string plot_arguments() {
  const auto robot = hodyn::sim::default_description<Robot>();
  double low = 1e300, high = 0.0;
  for (const auto& r : robot.rotors.rotors) {
    low = std::min(low, r.min_speed);
    high = std::max(high, r.max_speed);
  }
  char buf[128];
  std::snprintf(buf, sizeof buf, " --rotor-limits %.6g %.6g", low, high);
  std::string out = buf;
  const double u = robot.actuators[0].torque_limit;
  bool same = true;
  for (const auto& a : robot.actuators) same = same && a.torque_limit == u;
  if (same) {
    std::snprintf(buf, sizeof buf, " --torque-limit %.6g", u);
    out += buf;
  }
  std::string prismatic;
  for (int j = 0; j < static_cast<int>(robot.actuators.size()); ++j)
    if (hodyn::closed_loop::joint_is_prismatic<Robot>(j))
      prismatic += (prismatic.empty() ? "" : ",") + std::to_string(j + 1);
  if (!prismatic.empty()) out += " --prismatic " + prismatic;
  return out;
}

/// Flies robot `Robot` through args.scenarios (hodyn-demo's main loop).
template <class Robot>
int fly(const DemoArgs& args) {
  using namespace hodyn::closed_loop;
  constexpr bool kTable3 = std::is_same<Robot, hodyn::AerialManipulatorRobot>::value;
  constexpr int nj = Robot::Tree::kNumBodies - 1;
  const char* registered =
      args.plugin_name.empty() ? "feedback_linearization" : args.plugin_name.c_str();
  const hodyn_plugin_api* api = args.plugin != nullptr
                                    ? args.plugin
                                    : hodyn::plugin::plugin_registry().find(registered, Robot::kId);
  if (api == nullptr && !args.plugin_name.empty()) {
    std::cerr << args.tool << ": no controller plugin \"" << args.plugin_name << "\" for robot "
              << Robot::kName << "\n";
    return 1;
  }
  if (api == nullptr) {
    std::cerr << args.tool << ": no controller plugin for robot " << Robot::kName << "\n";
    return 1;
  }
  if (api->abi_version == HODYN_PLUGIN_ABI_VERSION &&
      hodyn::plugin::compare_robots(hodyn::plugin::robot_identity<Robot>(),
                                    hodyn::plugin::robot_of(*api)) != hodyn::Status::kOk) {
    std::cerr << args.tool << ": the plugin " << args.plugin_path << " is built for robot '"
              << (api->robot_name != nullptr ? api->robot_name : "?") << "', not '" << Robot::kName
              << "'\n";
    return 1;
  }
  const char* source = args.plugin_path.empty() ? "statically linked" : args.plugin_path.c_str();
  if (kTable3) {
    std::printf(
        "hodyn closed-loop demo: controller plugin \"%s\" (%s, %zu bytes) at %.0f Hz,\n"
        "plant integrated at %.0f Hz, Table 3 reference for %.1f s; errors after %.1f s.\n",
        api->name, source, api->instance_size, args.control_rate_hz, args.plant_rate_hz,
        args.duration, args.settle_time);
  } else {
    std::printf(
        "hodyn closed-loop demo: robot %s (%d joints, %d rotors), controller plugin \"%s\"\n"
        "(%s, %zu bytes) at %.0f Hz, plant integrated at %.0f Hz, the robot's own\n"
        "reference (docs/closed-loop.md) for %.1f s; errors after %.1f s.\n",
        Robot::kName, nj, Robot::kNumRotors, api->name, source, api->instance_size,
        args.control_rate_hz, args.plant_rate_hz, args.duration, args.settle_time);
    std::printf("Joint errors: revolute joints in deg, prismatic joints in mm.\n");
  }
  if (std::find(args.scenarios.begin(), args.scenarios.end(), Scenario::kIdentification) !=
      args.scenarios.end())
    std::printf(
        "The identification scenario flies the exciting reference instead\n"
        "(identification_reference.hpp, docs/identification.md).\n");

  {
    std::error_code error;  // no shell: the directory name is the user's, not a command
    std::filesystem::create_directories(args.out_dir, error);
    if (error || !std::filesystem::is_directory(args.out_dir)) {
      std::cerr << args.tool << ": cannot create " << args.out_dir << "\n";
      return 1;
    }
  }
  // The 12-DoF robot's files keep their names; another robot's carry its name.
  const std::string prefix = kTable3 ? "" : std::string(Robot::kName) + "_";
  const std::string extra = kTable3 ? "" : plot_arguments<Robot>();
  std::vector<RunSummary> summaries;
  bool all_stable = true;
  bool plots_failed = false;
  for (Scenario scenario : args.scenarios) {
    RobotRunOptions<Robot> run;
    run.scenario = scenario;
    run.duration = args.duration;
    run.control_rate_hz = args.control_rate_hz;
    run.plant_rate_hz = args.plant_rate_hz;
    run.settle_time = args.settle_time;
    run.seed = args.seed;
    run.record_every = args.record_every;
    run.plugin = api;
    // --payload-estimation on: the plugin's parameters (the feedback-
    // linearization plugin's; another plugin refuses them).
    hodyn_parameter estimation[2]{};
    if (args.payload_estimation) {
      hodyn::plugin::copy_name(estimation[0].name, "payload_estimation");
      estimation[0].value = 1.0;
      hodyn::plugin::copy_name(estimation[1].name, "payload_body");
      estimation[1].value = hodyn::closed_loop::payload_body<Robot>();
      run.parameters = estimation;
      run.num_parameters = 2;
    }
    RunSummary summary;
    std::vector<Sample> samples;
    const hodyn::Status s = run_closed_loop(run, summary, &samples);
    if (s != hodyn::Status::kOk) {
      std::cerr << args.tool << ": scenario " << scenario_name(scenario)
                << " failed: " << hodyn::to_string(s) << "\n";
      return 1;
    }
    print_run_summary(summary, stdout);
    all_stable = all_stable && summary.stable;
    summaries.push_back(summary);
    const std::string label = prefix + scenario_name(scenario);
    const std::string csv = args.out_dir + "/closed_loop_" + label + ".csv";
    if (!write_csv(csv, samples, nj, Robot::kNumRotors)) {
      std::cerr << args.tool << ": cannot write " << csv << "\n";
      return 1;
    }
    if (args.plots) {
      const char* env = std::getenv("HODYN_PYTHON");
      const std::string python = env != nullptr ? env : args.python;
      // Every user-given string single-quoted (a ' inside becomes '\'') for the shell.
      const std::string cmd = shell_quoted(python) + " " + shell_quoted(args.plot_script) + " " +
                              shell_quoted(csv) + " " + shell_quoted(args.out_dir) + " " +
                              shell_quoted(label) + extra;
      if (std::system(cmd.c_str()) != 0) {
        plots_failed = true;
        std::cerr << args.tool
                  << ": plotting failed (python3 with matplotlib needed; set "
                     "HODYN_PYTHON to choose the interpreter) — the CSV is written\n";
      }
    }
  }
  if (!args.summary_json.empty() && !write_json(args.summary_json, Robot::kName, summaries)) {
    std::cerr << args.tool << ": cannot write " << args.summary_json << "\n";
    return 1;
  }
  std::printf("\nCSV logs%s in %s/\n", args.plots && !plots_failed ? " and PNG plots" : "",
              args.out_dir.c_str());
  return all_stable ? 0 : 3;
}

}  // namespace demo
}  // namespace hodyn
