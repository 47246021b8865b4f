// hodyn-demo --scenario dual_arm_carry: the 12-DoF robot's two arms carry one
// bar along the Table 3 base path (hodyn/closed_loop/dual_arm_carry.hpp,
// docs/dual-arm-carry.md): printed summary, CSV log, PNG plots, JSON summary
// with the closed chain's keys (docs/state-format.md).
// Desktop tool: std::vector, std::string and iostreams are fine here.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "hodyn/closed_loop/dual_arm_carry.hpp"
#include "hodyn/demo/demo.hpp"
#include "hodyn/demo/fly.hpp"

namespace hodyn {
namespace demo {

int fly_dual_arm_carry(const DemoArgs& args) {
  using namespace hodyn::closed_loop;
  DualArmCarryOptions options;
  options.duration = args.duration;
  options.control_rate_hz = args.control_rate_hz;
  options.plant_rate_hz = args.plant_rate_hz;
  options.settle_time = args.settle_time;
  options.record_every = args.record_every;
  options.squeeze = args.squeeze;
  std::printf(
      "hodyn closed-loop demo: dual-arm carry, constrained controller at %.0f Hz, closed plant\n"
      "integrated at %.0f Hz, Table 3 base path for %.1f s, squeeze %.4g N; errors after %.1f s.\n",
      args.control_rate_hz, args.plant_rate_hz, args.duration, args.squeeze, args.settle_time);
  {
    std::error_code error;
    std::filesystem::create_directories(args.out_dir, error);
    if (error || !std::filesystem::is_directory(args.out_dir)) {
      std::cerr << args.tool << ": cannot create " << args.out_dir << "\n";
      return 1;
    }
  }
  DualArmCarrySummary summary;
  std::vector<Sample> samples;
  const Status s = run_dual_arm_carry(options, summary, &samples);
  if (s != Status::kOk) {
    std::cerr << args.tool << ": scenario dual_arm_carry failed: " << to_string(s) << "\n";
    return 1;
  }
  print_dual_arm_carry_summary(summary, stdout);
  const std::string label = scenario_name(Scenario::kDualArmCarry);
  const std::string csv = args.out_dir + "/closed_loop_" + label + ".csv";
  if (!write_csv(csv, samples, 6, AerialManipulatorRobot::kNumRotors)) {
    std::cerr << args.tool << ": cannot write " << csv << "\n";
    return 1;
  }
  bool plots_failed = false;
  if (args.plots) {
    const char* env = std::getenv("HODYN_PYTHON");
    const std::string python = env != nullptr ? env : args.python;
    const std::string cmd = shell_quoted(python) + " " + shell_quoted(args.plot_script) + " " +
                            shell_quoted(csv) + " " + shell_quoted(args.out_dir) + " " +
                            shell_quoted(label);
    if (std::system(cmd.c_str()) != 0) {
      plots_failed = true;
      std::cerr << args.tool
                << ": plotting failed (python3 with matplotlib needed; set "
                   "HODYN_PYTHON to choose the interpreter) — the CSV is written\n";
    }
  }
  if (!args.summary_json.empty()) {
    std::ostringstream f;
    f << "{\n  \"robot\": \"" << AerialManipulatorRobot::kName << "\",\n  \"scenarios\": [\n"
      << "    {\n"
      << dual_arm_carry_json_members(summary, "      ") << "\n    }\n  ]\n}\n";
    if (!write_file_atomically(args.summary_json, f.str())) {
      std::cerr << args.tool << ": cannot write " << args.summary_json << "\n";
      return 1;
    }
  }
  std::printf("\nCSV log%s in %s/\n", args.plots && !plots_failed ? " and PNG plots" : "",
              args.out_dir.c_str());
  return summary.run.stable ? 0 : 3;
}

}  // namespace demo
}  // namespace hodyn
