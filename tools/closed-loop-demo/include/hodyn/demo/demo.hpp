// hodyn/demo/demo.hpp — the closed-loop demo program (hodyn-demo, and the
// NAME-demo of every robot added with hodyn_add_robot()): the command line
// (docs/state-format.md, "hodyn-demo"), the robot choice, the plugin loaded
// with --plugin. Each robot's flight is hodyn/demo/fly.hpp's fly<Robot>,
// compiled once per robot; a program lists its robots and calls run_demo:
//
//   int fly_my_robot(const hodyn::demo::DemoArgs& a);  // = fly<my::Robot>(a)
//   int main(int argc, char** argv) {
//     const hodyn::demo::DemoRobot robots[] = {{"my_robot", &fly_my_robot}};
//     hodyn::demo::DemoProgram program;
//     program.tool = "my_robot-demo";
//     program.robots = robots;
//     program.num_robots = 1;
//     return hodyn::demo::run_demo(program, argc, argv);
//   }
//
// Library hodyn::demo (tools/closed-loop-demo). Desktop tool: std::vector,
// std::string and iostreams are fine here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hodyn/closed_loop/scenario.hpp"
#include "hodyn/plugin/abi.h"

namespace hodyn {
namespace demo {

/// The command line, parsed, and what the program passes down to a flight.
struct DemoArgs {
  std::string tool = "hodyn-demo";  ///< the program's name, for messages
  std::string robot;                ///< --robot (empty: the program's first robot)
  std::vector<closed_loop::Scenario> scenarios;
  double duration = 30.0, control_rate_hz = 1000.0, plant_rate_hz = 8000.0, settle_time = 1.0;
  std::uint64_t seed = 1;
  std::string out_dir = "closed-loop-output";
  bool plots = true;
  int record_every = 10;  ///< --record-every: a CSV row every this many control steps
  std::string summary_json;
  bool payload_estimation = false;  ///< --payload-estimation on|off
  std::string plugin_path;
  std::string plugin_name;  ///< --plugin NAME, registered (empty: "feedback_linearization")
  const hodyn_plugin_api* plugin = nullptr;  ///< from --plugin, else null (the registry's)
  /// --scenario dual_arm_carry: the closed chain (dual_arm_carry.hpp), flown
  /// by fly_dual_arm_carry instead of the robot's fly (scenarios stays empty).
  bool dual_arm_carry = false;
  double squeeze = 0.0;            ///< --squeeze N: its commanded squeeze
  bool squeeze_given = false;      ///< --squeeze was on the command line
  std::string plot_script;         ///< plot_closed_loop.py (DemoProgram)
  std::string python = "python3";  ///< its interpreter; HODYN_PYTHON overrides
};

/// A robot a demo program flies: its name (--robot) and its flight (exit code
/// as main's: 0 every scenario stable, 3 one was not, 1 an error).
struct DemoRobot {
  const char* name;
  int (*fly)(const DemoArgs&);
};

/// A demo program: its name, its robots (the first is the default) and where
/// the plot script and its interpreter are.
struct DemoProgram {
  const char* tool = "hodyn-demo";
  const DemoRobot* robots = nullptr;
  std::size_t num_robots = 0;
  const char* plot_script = "plot_closed_loop.py";
  const char* python = "python3";
};

/// The dual_arm_carry scenario of the 12-DoF robot (its own plant and
/// controller): prints and writes what fly() does; main's exit code.
int fly_dual_arm_carry(const DemoArgs& args);

/// The whole program: parses argv (--help, --list-robots, --robot, --scenario,
/// --duration, --rate, --plant-rate, --seed, --out, --no-plots,
/// --summary-json, --payload-estimation, --plugin), loads the plugin, flies. Returns main's exit
/// code: 0 stable, 3 a scenario unstable, 2 a bad command line, 1 an error.
int run_demo(const DemoProgram& program, int argc, char** argv);

}  // namespace demo
}  // namespace hodyn
