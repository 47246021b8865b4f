// hodyn::demo's program (hodyn/demo/demo.hpp): the command line, the robot
// choice and the plugin loading shared by hodyn-demo and every NAME-demo.
// Desktop tool: std::vector, std::string and iostreams are fine here.
#include "hodyn/demo/demo.hpp"

#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>

namespace hodyn {
namespace demo {
namespace {

using namespace hodyn::closed_loop;

const char* kUsage =
    R"( [options]

Flies a robot with the feedback-linearization controller plugin against the
plant simulator, and reports the tracking errors and the controller's time per
step. The 12-DoF aerial manipulator (TiltHex + two 3-joint elastic arms) flies
the Table 3 reference; any other robot flies its own reference (base circle,
yaw oscillation, joint sinusoids within the limits; docs/closed-loop.md).

  --robot NAME        the robot to fly (default: the first of --list-robots)
  --list-robots       print the robot names, one a line, and exit
  --scenario NAME     nominal | mismatch | gust | payload | noise_delay |
                      unknown_payload | all (default: all, in that order), or
                      dual_arm_carry: both arms carry one bar, a closed chain
                      with its own constrained controller (aerial_manipulator
                      only; not part of all; docs/dual-arm-carry.md), or
                      identification: the mismatch plant with realistic
                      sensor noise along an exciting reference (roll, pitch,
                      yaw and every joint on two incommensurate sines), a
                      log for hodyn-identify (not part of all;
                      docs/identification.md)
  --squeeze N         dual_arm_carry: commanded compression of the bar at its
                      midpoint, N, -20..20 (default 0: zero squeeze)
  --duration S        simulated time (default 30)
  --rate HZ           controller rate, 500..4000 (default 1000)
  --plant-rate HZ     integration rate, a multiple of --rate (default 8000)
  --seed N            sensor-noise seed (default 1)
  --out DIR           where the CSV logs and PNG plots go (default closed-loop-output)
  --record-every N    one CSV row every N control steps (default 10; 1 for
                      hodyn-identify, docs/identification.md)
  --no-plots          CSV only
  --summary-json FILE the printed numbers as JSON (SI units)
  --payload-estimation on|off
                      the controller estimates the payload on the payload
                      body online and feeds it back (default off;
                      docs/payload-estimation.md)
  --plugin PATH       load the controller from a plugin shared library built
                      for the robot (default: the statically linked
                      "feedback_linearization" of the robot)
  --plugin NAME       a statically linked plugin by its registered name, e.g.
                      lqr (a value with a '/' or ending in .so is a PATH)
  --help
)";

bool parse_number(const char* s, double& v) {
  char* end = nullptr;
  v = std::strtod(s, &end);
  return end != s && *end == '\0' && std::isfinite(v);
}

int parse_args(const DemoProgram& program, int argc, char** argv, DemoArgs& a) {
  const std::string tool = program.tool;
  std::string scenario = "all";
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    const auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::cerr << tool << ": " << opt << " needs a value\n";
        return nullptr;
      }
      return argv[++i];
    };
    double v = 0.0;
    if (opt == "--help" || opt == "-h") {
      std::cout << "usage: " << tool << kUsage;
      return 0;
    } else if (opt == "--list-robots") {
      for (std::size_t r = 0; r < program.num_robots; ++r)
        std::cout << program.robots[r].name << "\n";
      return 0;
    } else if (opt == "--robot") {
      const char* s = value();
      if (s == nullptr) return 2;
      a.robot = s;
    } else if (opt == "--scenario") {
      const char* s = value();
      if (s == nullptr) return 2;
      scenario = s;
    } else if (opt == "--duration" || opt == "--rate" || opt == "--plant-rate" || opt == "--seed") {
      const char* s = value();
      if (s == nullptr) return 2;
      if (!parse_number(s, v) || v <= 0.0) {
        std::cerr << tool << ": " << opt << " needs a positive number, got '" << s << "'\n";
        return 2;
      }
      // A seed is a whole number within 2^53 (exact in a double; beyond the
      // integer's range the conversion would be undefined behaviour).
      if (opt == "--seed" && !(v <= 9007199254740992.0 && v == std::floor(v))) {
        std::cerr << tool << ": --seed needs a whole number 1..2^53, got '" << s << "'\n";
        return 2;
      }
      if (opt == "--duration") a.duration = v;
      if (opt == "--rate") a.control_rate_hz = v;
      if (opt == "--plant-rate") a.plant_rate_hz = v;
      if (opt == "--seed") a.seed = static_cast<std::uint64_t>(v);
    } else if (opt == "--squeeze") {
      const char* s = value();
      if (s == nullptr) return 2;
      if (!parse_number(s, v) || !(std::abs(v) <= 20.0)) {
        std::cerr << tool << ": --squeeze needs a force in N within -20..20, got '" << s << "'\n";
        return 2;
      }
      a.squeeze = v;
      a.squeeze_given = true;
    } else if (opt == "--out") {
      const char* s = value();
      if (s == nullptr) return 2;
      a.out_dir = s;
    } else if (opt == "--record-every") {
      const char* s = value();
      if (s == nullptr) return 2;
      if (!parse_number(s, v) || !(v >= 1.0 && v <= 1000.0 && v == std::floor(v))) {
        std::cerr << tool << ": --record-every needs a whole number 1..1000, got '" << s << "'\n";
        return 2;
      }
      a.record_every = static_cast<int>(v);
    } else if (opt == "--no-plots") {
      a.plots = false;
    } else if (opt == "--summary-json") {
      const char* s = value();
      if (s == nullptr) return 2;
      a.summary_json = s;
    } else if (opt == "--payload-estimation") {
      const char* s = value();
      if (s == nullptr) return 2;
      const std::string given = s;
      if (given != "on" && given != "off") {
        std::cerr << tool << ": --payload-estimation needs on or off, got '" << given << "'\n";
        return 2;
      }
      a.payload_estimation = given == "on";
    } else if (opt == "--plugin") {
      const char* s = value();
      if (s == nullptr) return 2;
      // A registered NAME has no '/' and no ".so"; anything else is a FILE for dlopen.
      const std::string given = s;
      const bool file =
          given.find('/') != std::string::npos || given.find(".so") != std::string::npos;
      a.plugin_path = file ? given : std::string();
      a.plugin_name = file ? std::string() : given;
    } else {
      std::cerr << tool << ": unknown option '" << opt << "' (see --help)\n";
      return 2;
    }
  }
  if (scenario == "dual_arm_carry") {
    a.dual_arm_carry = true;
    if (!a.plugin_path.empty() || !a.plugin_name.empty() || a.payload_estimation) {
      std::cerr << tool
                << ": --scenario dual_arm_carry runs its own constrained controller: no --plugin "
                   "or --payload-estimation\n";
      return 2;
    }
  } else if (a.squeeze_given) {
    std::cerr << tool << ": --squeeze needs --scenario dual_arm_carry\n";
    return 2;
  } else if (scenario == "all") {
    a.scenarios.assign(kAllScenarios.begin(), kAllScenarios.end());
  } else {
    Scenario s;
    if (!parse_scenario(scenario.c_str(), s)) {
      std::cerr << tool << ": unknown scenario '" << scenario
                << "' (nominal, mismatch, gust, payload, noise_delay, unknown_payload, all, "
                   "dual_arm_carry, identification)\n";
      return 2;
    }
    a.scenarios.push_back(s);
  }
  if (a.control_rate_hz < 500.0 || a.control_rate_hz > 4000.0) {
    std::cerr << tool << ": --rate must be within 500..4000 Hz\n";
    return 2;
  }
  const double ratio = a.plant_rate_hz / a.control_rate_hz;
  if (ratio < 1.0 || std::abs(ratio - std::round(ratio)) > 1e-9 || a.plant_rate_hz < 4000.0) {
    std::cerr << tool << ": --plant-rate must be >= 4000 Hz and a multiple of --rate\n";
    return 2;
  }
  return -1;
}

const DemoRobot* find_robot(const DemoProgram& program, const std::string& name) {
  if (name.empty()) return program.num_robots > 0 ? &program.robots[0] : nullptr;
  for (std::size_t r = 0; r < program.num_robots; ++r)
    if (name == program.robots[r].name) return &program.robots[r];
  return nullptr;
}

}  // namespace

int run_demo(const DemoProgram& program, int argc, char** argv) {
  DemoArgs args;
  args.tool = program.tool;
  args.plot_script = program.plot_script;
  args.python = program.python;
  const int parsed = parse_args(program, argc, argv, args);
  if (parsed >= 0) return parsed;
  const DemoRobot* robot = find_robot(program, args.robot);
  if (robot == nullptr) {
    std::string names;
    for (std::size_t r = 0; r < program.num_robots; ++r)
      names += (names.empty() ? "" : ", ") + std::string(program.robots[r].name);
    std::cerr << args.tool << ": unknown robot '" << args.robot << "' (" << names << ")\n";
    return 2;
  }

  if (args.dual_arm_carry) {
    if (std::string(robot->name) != AerialManipulatorRobot::kName) {
      std::cerr << args.tool << ": --scenario dual_arm_carry is a scenario of "
                << AerialManipulatorRobot::kName << " only, not of " << robot->name << "\n";
      return 2;
    }
    return fly_dual_arm_carry(args);
  }

  void* library = nullptr;
  if (!args.plugin_path.empty()) {
    library = dlopen(args.plugin_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::cerr << args.tool << ": cannot load " << args.plugin_path << ": " << dlerror() << "\n";
      return 1;
    }
    auto entry = reinterpret_cast<hodyn_plugin_entry_fn>(dlsym(library, HODYN_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) {
      std::cerr << args.tool << ": " << args.plugin_path << " has no " << HODYN_PLUGIN_ENTRY_SYMBOL
                << "\n";
      dlclose(library);
      return 1;
    }
    args.plugin = entry();
  }
  const int code = robot->fly(args);
  if (library != nullptr) dlclose(library);
  return code;
}

}  // namespace demo
}  // namespace hodyn
