// hodyn-demo — the closed-loop demo: the feedback-linearization plugin flies
// the simulated aerial manipulator along the Table 3 reference (1 m circle,
// yaw ±25°, joint half-cosines, 30 s) in one or all scenarios, prints the
// tracking errors and the controller's time per step, and writes a CSV log,
// PNG plots and, on request, a JSON summary. docs/controller.md explains it.
//
// Desktop tool: std::vector, std::string and iostreams are fine here.
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "hodyn/closed_loop/report.hpp"
#include "hodyn/closed_loop/runner.hpp"
#include "hodyn/plugin/registry.hpp"

namespace {

using hodyn::Status;
using namespace hodyn::closed_loop;

const char* kUsage =
    R"(usage: hodyn-demo [options]

Flies the 12-DoF aerial manipulator (TiltHex + two 3-joint elastic arms) along
the Table 3 reference with the feedback-linearization controller plugin against
the plant simulator, and reports the tracking errors and the controller's time
per step.

  --scenario NAME     nominal | mismatch | gust | payload | noise_delay | all
                      (default: all, in that order)
  --duration S        simulated time (default 30)
  --rate HZ           controller rate, 500..4000 (default 1000)
  --plant-rate HZ     integration rate, a multiple of --rate (default 8000)
  --seed N            sensor-noise seed (default 1)
  --out DIR           where the CSV logs and PNG plots go (default closed-loop-output)
  --no-plots          CSV only
  --summary-json FILE the printed numbers as JSON (SI units)
  --plugin PATH       load the controller from a plugin shared library
                      (default: the statically linked "feedback_linearization")
  --help
)";

struct Args {
  std::vector<Scenario> scenarios;
  RunOptions run;
  std::string out_dir = "closed-loop-output";
  bool plots = true;
  std::string summary_json;
  std::string plugin_path;
};

bool parse_number(const char* s, double& v) {
  char* end = nullptr;
  v = std::strtod(s, &end);
  return end != s && *end == '\0' && std::isfinite(v);
}

int parse_args(int argc, char** argv, Args& a) {
  std::string scenario = "all";
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    const auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::cerr << "hodyn-demo: " << opt << " needs a value\n";
        return nullptr;
      }
      return argv[++i];
    };
    double v = 0.0;
    if (opt == "--help" || opt == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (opt == "--scenario") {
      const char* s = value();
      if (s == nullptr) return 2;
      scenario = s;
    } else if (opt == "--duration" || opt == "--rate" || opt == "--plant-rate" || opt == "--seed") {
      const char* s = value();
      if (s == nullptr) return 2;
      if (!parse_number(s, v) || v <= 0.0) {
        std::cerr << "hodyn-demo: " << opt << " needs a positive number, got '" << s << "'\n";
        return 2;
      }
      if (opt == "--duration") a.run.duration = v;
      if (opt == "--rate") a.run.control_rate_hz = v;
      if (opt == "--plant-rate") a.run.plant_rate_hz = v;
      if (opt == "--seed") a.run.seed = static_cast<std::uint64_t>(v);
    } else if (opt == "--out") {
      const char* s = value();
      if (s == nullptr) return 2;
      a.out_dir = s;
    } else if (opt == "--no-plots") {
      a.plots = false;
    } else if (opt == "--summary-json") {
      const char* s = value();
      if (s == nullptr) return 2;
      a.summary_json = s;
    } else if (opt == "--plugin") {
      const char* s = value();
      if (s == nullptr) return 2;
      a.plugin_path = s;
    } else {
      std::cerr << "hodyn-demo: unknown option '" << opt << "' (see --help)\n";
      return 2;
    }
  }
  if (scenario == "all") {
    a.scenarios.assign(kAllScenarios.begin(), kAllScenarios.end());
  } else {
    Scenario s;
    if (!parse_scenario(scenario.c_str(), s)) {
      std::cerr << "hodyn-demo: unknown scenario '" << scenario
                << "' (nominal, mismatch, gust, payload, noise_delay, all)\n";
      return 2;
    }
    a.scenarios.push_back(s);
  }
  if (a.run.control_rate_hz < 500.0 || a.run.control_rate_hz > 4000.0) {
    std::cerr << "hodyn-demo: --rate must be within 500..4000 Hz\n";
    return 2;
  }
  const double ratio = a.run.plant_rate_hz / a.run.control_rate_hz;
  if (ratio < 1.0 || std::abs(ratio - std::round(ratio)) > 1e-9 || a.run.plant_rate_hz < 4000.0) {
    std::cerr << "hodyn-demo: --plant-rate must be >= 4000 Hz and a multiple of --rate\n";
    return 2;
  }
  return -1;
}

void write_csv(const std::string& path, const std::vector<Sample>& rows) {
  std::ofstream f(path);
  f << "t,x,y,z,x_ref,y_ref,z_ref,att_err_x,att_err_y,att_err_z,yaw,yaw_ref";
  for (int j = 1; j <= 6; ++j) f << ",q" << j;
  for (int j = 1; j <= 6; ++j) f << ",q" << j << "_ref";
  for (int j = 1; j <= 6; ++j) f << ",rotor" << j;
  for (int j = 1; j <= 6; ++j) f << ",rotor" << j << "_cmd";
  for (int j = 1; j <= 6; ++j) f << ",u" << j;
  f << ",status,mode\n";
  f.precision(10);
  for (const Sample& r : rows) {
    f << r.time;
    for (double v : r.position) f << ',' << v;
    for (double v : r.position_reference) f << ',' << v;
    for (double v : r.attitude_error) f << ',' << v;
    f << ',' << r.yaw << ',' << r.yaw_reference;
    for (double v : r.q) f << ',' << v;
    for (double v : r.q_reference) f << ',' << v;
    for (double v : r.rotor_speed) f << ',' << v;
    for (double v : r.rotor_command) f << ',' << v;
    for (double v : r.motor_torque) f << ',' << v;
    f << ',' << r.status << ',' << r.mode << '\n';
  }
}

void write_json(const std::string& path, const std::vector<RunSummary>& all) {
  std::ofstream f(path);
  f << "{\n  \"scenarios\": [\n";
  for (std::size_t i = 0; i < all.size(); ++i)
    f << "    {\n"
      << run_summary_json_members(all[i], "      ") << "\n"
      << "    }" << (i + 1 < all.size() ? "," : "") << "\n";
  f << "  ]\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  const int parsed = parse_args(argc, argv, args);
  if (parsed >= 0) return parsed;

  void* library = nullptr;
  if (!args.plugin_path.empty()) {
    library = dlopen(args.plugin_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::cerr << "hodyn-demo: cannot load " << args.plugin_path << ": " << dlerror() << "\n";
      return 1;
    }
    auto entry = reinterpret_cast<hodyn_plugin_entry_fn>(dlsym(library, HODYN_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) {
      std::cerr << "hodyn-demo: " << args.plugin_path << " has no " << HODYN_PLUGIN_ENTRY_SYMBOL
                << "\n";
      return 1;
    }
    args.run.plugin = entry();
  }
  const hodyn_plugin_api* api =
      args.run.plugin != nullptr ? args.run.plugin
                                 : hodyn::plugin::plugin_registry().find("feedback_linearization");
  if (api == nullptr) {
    std::cerr << "hodyn-demo: no controller plugin\n";
    return 1;
  }
  std::printf(
      "hodyn closed-loop demo: controller plugin \"%s\" (%s, %zu bytes) at %.0f Hz,\n"
      "plant integrated at %.0f Hz, Table 3 reference for %.1f s; errors after %.1f s.\n",
      api->name, args.plugin_path.empty() ? "statically linked" : args.plugin_path.c_str(),
      api->instance_size, args.run.control_rate_hz, args.run.plant_rate_hz, args.run.duration,
      args.run.settle_time);

  std::string mkdir = "mkdir -p '" + args.out_dir + "'";
  if (std::system(mkdir.c_str()) != 0) {
    std::cerr << "hodyn-demo: cannot create " << args.out_dir << "\n";
    return 1;
  }
  std::vector<RunSummary> summaries;
  bool all_stable = true;
  for (Scenario scenario : args.scenarios) {
    RunOptions run = args.run;
    run.scenario = scenario;
    RunSummary summary;
    std::vector<Sample> samples;
    const Status s = run_closed_loop(run, summary, &samples);
    if (s != Status::kOk) {
      std::cerr << "hodyn-demo: scenario " << scenario_name(scenario)
                << " failed: " << hodyn::to_string(s) << "\n";
      return 1;
    }
    print_run_summary(summary, stdout);
    all_stable = all_stable && summary.stable;
    summaries.push_back(summary);
    const std::string csv = args.out_dir + "/closed_loop_" + scenario_name(scenario) + ".csv";
    write_csv(csv, samples);
    if (args.plots) {
      const char* env = std::getenv("HODYN_PYTHON");
      const std::string python = env != nullptr ? env : HODYN_DEMO_PYTHON;
      const std::string cmd = "'" + python + "' '" + HODYN_DEMO_PLOT_SCRIPT + "' '" + csv + "' '" +
                              args.out_dir + "' " + scenario_name(scenario);
      if (std::system(cmd.c_str()) != 0)
        std::cerr << "hodyn-demo: plotting failed (python3 with matplotlib needed; set "
                     "HODYN_PYTHON to choose the interpreter) — the CSV is written\n";
    }
  }
  if (!args.summary_json.empty()) write_json(args.summary_json, summaries);
  std::printf("\nCSV logs%s in %s/\n", args.plots ? " and PNG plots" : "", args.out_dir.c_str());
  if (library != nullptr) dlclose(library);
  return all_stable ? 0 : 3;
}
