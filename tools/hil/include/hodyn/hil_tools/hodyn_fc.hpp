// hodyn_fc.hpp — the program hodyn-fc for any robot type: the flight-computer
// side of the hardware-in-the-loop pair, the controller plugin behind a real
// link (UDP or serial). It receives SENSORS and REFERENCE frames from
// hodyn-sim, runs the plugin's update() on every accepted sensor frame and
// answers with a COMMAND; a watchdog over control periods makes the plugin
// produce its own safe command when the frames stop. The run starts with the
// HELLO handshake: hodyn-fc answers with its plugin's robot and, when the
// simulator flies another robot, stays disarmed and exits with status 3.
// docs/hil.md describes the pair.
//
//   int main(int argc, char** argv) {
//     return hodyn::hil_tools::run_hodyn_fc<my_robot::Robot>(argc, argv, "my_robot-fc");
//   }
//
// Desktop tool: std::vector, std::string and iostreams are fine here; the
// per-frame path itself (parser, monitors, plugin) is the heap-free code a
// flight computer would run.
#pragma once

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "hodyn/closed_loop/tracking.hpp"
#include "hodyn/hil_tools/hil_common.hpp"
#include "hodyn/link/controller_host.hpp"
#include "hodyn/plugin/plugin_instance.hpp"
#include "hodyn/plugin/registry.hpp"
#include "hodyn/plugin/robot_identity.hpp"
#include "hodyn/posix/periodic_loop.hpp"
#include "hodyn/posix/stop_signal.hpp"

namespace hodyn {
namespace hil_tools {
namespace fc_program {

namespace tools = hodyn::hil_tools;

/// Exit status when the simulator flies another robot (the HELLO handshake).
inline constexpr int kExitRobotMismatch = 3;

inline constexpr const char* kUsage =
    R"( [options]

The controller side of the hardware-in-the-loop pair (docs/hil.md): receives
SENSORS and REFERENCE frames from hodyn-sim, runs the controller plugin on
every accepted sensor frame and sends a COMMAND answering it. Answers the
simulator's HELLO with the plugin's robot; on another robot it stays
disarmed (every COMMAND disarmed, status "robot mismatch") and exits with 3.

link (exactly one):
  --udp LOCAL_PORT:REMOTE_HOST:REMOTE_PORT
                       only REMOTE_HOST:REMOTE_PORT may talk to it (others'
                       datagrams are dropped and counted: rx_rejected_foreign)
  --serial PATH        a tty or the pty slave path hodyn-sim printed
  --baud N             serial rate (default 921600; a pty ignores it)
  --bind ADDR          UDP: the local address to bind (default: the one the
                       peer is reached through, 127.0.0.1 for a loopback
                       peer; 0.0.0.0: every interface)
  --key-file FILE      sign and check every frame with this 32-byte shared key
                       (mode 0600; the same file as hodyn-sim's;
                       docs/link-security.md). Without it the link is unsigned
robot:
  --robot NAME         the robot to fly (default: aerial_manipulator; an
                       unknown name: exit 2)
  --list-robots        print the robot names, one a line, and exit
controller:
  --plugin FILE.so     load the plugin from a shared library (dlopen +
                       hodyn_plugin_entry); default: the statically linked
                       "feedback_linearization" of the robot
  --rate HZ            control rate given to the plugin and, in realtime
                       mode, the loop rate (default 1000)
  --param NAME=VALUE   set one of the plugin's parameters (repeatable; its
                       name and range: the plugin's parameter table, e.g.
                       max_position_error=0.5); one it refuses: exit 2
loop:
  --mode lockstep|realtime
                       lockstep (default): event-driven, each iteration waits
                       up to one control period for a sensor frame;
                       realtime: a periodic loop at --rate
  --watchdog-periods N periods without an accepted sensor frame before the
                       safe command (default 20)
  --idle-timeout S     exit when the simulator sent nothing for S seconds
                       after it had sent something (default 2)
  --max-steps N        exit after N controller updates (default: no limit)
  --fifo PRIO          realtime: SCHED_FIFO priority (best effort)
  --lock-memory        realtime: mlockall (best effort)
  --cpu N              realtime: pin to core N (best effort)
output:
  --summary-json FILE  the counters as JSON
  --events FILE        one line per watchdog engagement, first hover command,
                       release and new simulator run, with the wall time
                       (docs/hil.md, "Process faults")
  --record FILE        every COMMAND sent, in binary (the same run, the same bytes)
  --quiet              only the final summary
  --help
)";

struct Args {
  tools::LinkOptions link;
  posix::RealtimeOptions rt;
  bool realtime = false;
  double rate = 1000.0;
  std::uint32_t watchdog_periods = 20;
  double idle_timeout = 2.0;
  std::uint64_t max_steps = 0;
  std::string plugin_path;
  std::string summary_json;
  std::string record;
  std::string events;
  bool list_robots = false;
  bool robot_given = false;  ///< --robot NAME given: a --plugin must be built for it
  /// --param NAME=VALUE, in the order given (at most kMaxParams).
  static constexpr std::size_t kMaxParams = 32;
  hodyn_parameter params[kMaxParams] = {};
  std::size_t param_count = 0;
};

/// Parses the options of a hodyn-fc built for one robot, `robot_name`:
/// --robot must name it. -1: go on; otherwise the exit status.
inline int parse_args(const char* tool, const char* robot_name, int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    const bool has_value = tools::option_takes_value(opt) && i + 1 < argc;
    const char* value = has_value ? argv[i + 1] : nullptr;
    int r = tools::parse_link_option(tool, opt, value, has_value, a.link);
    if (r == 0) r = tools::parse_realtime_option(tool, opt, value, has_value, a.rt);
    if (r < 0) return 2;
    if (r > 0) {
      if (tools::option_takes_value(opt)) ++i;
      continue;
    }
    if (opt == "--help" || opt == "-h") {
      std::cout << "usage: " << tool << kUsage;
      return 0;
    }
    if (opt == "--quiet") continue;
    if (opt == "--list-robots") {
      a.list_robots = true;
      continue;
    }
    if (!has_value) {
      std::cerr << tool << ": unknown option or missing value '" << opt << "' (see --help)\n";
      return 2;
    }
    ++i;
    double v = 0.0;
    if (opt == "--mode") {
      const std::string m = value;
      if (m != "lockstep" && m != "realtime") {
        std::cerr << tool << ": --mode is lockstep or realtime\n";
        return 2;
      }
      a.realtime = m == "realtime";
    } else if (opt == "--robot") {
      if (std::string(value) != robot_name) {
        std::cerr << tool << ": unknown robot '" << value << "' (" << robot_name << ")\n";
        return 2;
      }
      a.robot_given = true;
    } else if (opt == "--plugin" || opt == "--summary-json" || opt == "--record" ||
               opt == "--events") {
      if (tools::value_is_an_option(tool, opt, value)) return 2;
      (opt == "--plugin"   ? a.plugin_path
       : opt == "--record" ? a.record
       : opt == "--events" ? a.events
                           : a.summary_json) = value;
    } else if (opt == "--param") {
      const std::string text = value;
      const std::size_t eq = text.find('=');
      double pv = 0.0;
      if (eq == std::string::npos || eq == 0 || eq >= sizeof(a.params[0].name) ||
          !tools::parse_number(text.substr(eq + 1).c_str(), pv)) {
        std::cerr << tool << ": --param needs NAME=VALUE, got '" << text << "'\n";
        return 2;
      }
      if (a.param_count == Args::kMaxParams) {
        std::cerr << tool << ": at most " << Args::kMaxParams << " --param\n";
        return 2;
      }
      hodyn_parameter& p = a.params[a.param_count++];
      plugin::copy_name(p.name, text.substr(0, eq).c_str());
      p.value = pv;
    } else if (opt == "--rate" || opt == "--watchdog-periods" || opt == "--idle-timeout" ||
               opt == "--max-steps") {
      if (!tools::parse_number(value, v) || v <= 0.0) {
        std::cerr << tool << ": " << opt << " needs a positive number, got '" << value << "'\n";
        return 2;
      }
      // Counts: whole numbers within their integer's range (2^53: exact in a double).
      if ((opt == "--watchdog-periods" && !tools::whole_number_in(v, 1.0, 1e6)) ||
          (opt == "--max-steps" && !tools::whole_number_in(v, 1.0, 9007199254740992.0))) {
        std::cerr << tool << ": " << opt << " needs a whole number "
                  << (opt == "--max-steps" ? "1..2^53" : "1..1000000") << ", got '" << value
                  << "'\n";
        return 2;
      }
      if (opt == "--rate") a.rate = v;
      if (opt == "--watchdog-periods") a.watchdog_periods = static_cast<std::uint32_t>(v);
      if (opt == "--idle-timeout") a.idle_timeout = v;
      if (opt == "--max-steps") a.max_steps = static_cast<std::uint64_t>(v);
    } else {
      std::cerr << tool << ": unknown option '" << opt << "' (see --help)\n";
      return 2;
    }
  }
  if (a.rate < 100.0 || a.rate > 10000.0) {
    std::cerr << tool << ": --rate must be within 100..10000 Hz\n";
    return 2;
  }
  if (!tools::link_choice_ok(tool, a.link)) return 2;
  return -1;
}

inline std::int64_t now_ns() { return posix::monotonic_now_ns(); }

// ---- the controller host ------------------------------------------------------
//
// The flight-computer part is hodyn::link::ControllerHost (heap-free, shared
// with the controller firmware); this wrapper adds the desktop's wall-clock
// idle detection and the update() timing.
class ControllerHost final : public link::UpdateObserver {
 public:
  /// update() times kept for the median and p99: the newest kStepTimes
  /// (a ring, allocated and touched once, so that a long run's resident
  /// memory stays flat: a growing vector, or pages of a reserved one
  /// touched as it fills, grew hodyn-fc's VmRSS 8 % in a 60 s soak).
  static constexpr std::size_t kStepTimes = 1 << 16;

  ControllerHost(link::Transport& transport, std::uint32_t watchdog_periods)
      : core_(transport, watchdog_periods) {
    core_.set_update_observer(this);
    step_times_.assign(kStepTimes, 0.0);
  }

  /// Writes the watchdog and run events (--events; null: none).
  void set_events(std::FILE* events) { events_ = events; }

  Status open(const hodyn_plugin_api* api, double rate) { return core_.open(api, rate); }
  /// The plugin's run-time parameters (--param).
  Status configure(const hodyn_parameter* parameters, std::size_t count) {
    return core_.configure(parameters, count);
  }
  /// Opened only for `robot` (kRobotMismatch for another robot's plugin).
  Status open(const hodyn_plugin_api* api, const hodyn::plugin::RobotIdentity& robot, double rate) {
    return core_.open(api, robot, rate);
  }
  /// A signed link with the shared key: a random boot id, the wall clock as
  /// the first HELLO counter (docs/link-security.md).
  Status enable_authentication(const std::uint8_t* key, std::size_t size) {
    std::uint8_t boot_id[link::kBootIdSize];
    if (posix::random_bytes(boot_id, sizeof boot_id) != Status::kOk)
      return Status::kInvalidArgument;
    return core_.enable_authentication(key, size, boot_id, posix::wall_clock_ns());
  }
  bool authenticated() const { return core_.authenticated(); }
  /// Records every COMMAND sent (--record).
  void set_record(tools::RecordFile* record) { record_ = record; }
  /// Datagrams of others the UDP transport dropped (for the summary).
  void set_rejected_foreign(std::uint64_t count) { rejected_foreign_ = count; }

  /// Receives once (at most `timeout_us`) and handles every message.
  /// True when bytes arrived.
  bool poll(std::int64_t timeout_us) {
    const std::size_t n = core_.poll(timeout_us);
    if (n > 0) {
      last_rx_ns_ = now_ns();
      heard_ = true;
    }
    if (core_.counters().runs != runs_seen_) {
      runs_seen_ = core_.counters().runs;
      if (runs_seen_ > 1) event("new_run", 0);
    }
    return n > 0;
  }

  bool has_pending() const { return core_.has_pending(); }
  void close() { core_.close(); }
  bool period() { return core_.period(); }

  link::HandshakeState handshake() const { return core_.handshake(); }
  hodyn::plugin::RobotIdentity robot() const { return core_.robot(); }
  hodyn::plugin::RobotIdentity peer_robot() const { return core_.peer_robot(); }

  bool idle(double timeout_s) const {
    return heard_ && static_cast<double>(now_ns() - last_rx_ns_) * 1e-9 > timeout_s;
  }
  std::uint64_t steps() const { return core_.steps(); }
  bool link_failed() const { return core_.link_failed(); }

  void print(std::FILE* out) const;
  /// False (and one line on stderr) when the file cannot be written.
  bool write_json(const char* tool, const std::string& path, const std::string& mode,
                  const posix::PeriodicLoop* loop) const;

  void command_sent(const hodyn_command& command, std::uint32_t answered,
                    std::uint32_t bits) noexcept override {
    const bool engaged = (bits & link::controller_status::kWatchdogEngaged) != 0u;
    if (engaged && !engaged_) {
      event("watchdog_engaged", answered);
      hover_logged_ = false;
    }
    if (engaged && !hover_logged_ && command.mode == HODYN_MODE_HOVER) {
      event("hover", answered);
      hover_logged_ = true;
    }
    if (!engaged && engaged_) event("watchdog_released", answered);
    engaged_ = engaged;
    if (!engaged) last_control_ns_ = now_ns();
    if (record_ == nullptr) return;
    record_->write(&answered, sizeof answered);
    record_->write(&bits, sizeof bits);
    record_->write(&command, sizeof command);
  }

  void before_update() noexcept override { update_start_ = std::chrono::steady_clock::now(); }
  void after_update(bool control_step) noexcept override {
    const auto end = std::chrono::steady_clock::now();
    if (!control_step) return;
    const double seconds = std::chrono::duration<double>(end - update_start_).count();
    step_times_[step_next_] = seconds;
    step_next_ = (step_next_ + 1) % kStepTimes;
    if (step_count_ < kStepTimes) ++step_count_;
  }

 private:
  hodyn::link::ControllerHost<64 * 1024> core_;
  bool heard_ = false;
  std::int64_t last_rx_ns_ = 0;
  std::chrono::steady_clock::time_point update_start_{};
  // One line: wall time (s, monotonic), the event, the sequence answered, ms
  // since the last command of a control update.
  void event(const char* what, std::uint32_t sequence) noexcept {
    if (events_ == nullptr) return;
    const std::int64_t now = now_ns();
    std::fprintf(events_, "%.6f %s %u %.3f\n", static_cast<double>(now) * 1e-9, what,
                 static_cast<unsigned>(sequence),
                 static_cast<double>(now - last_control_ns_) * 1e-6);
    std::fflush(events_);
  }

  std::vector<double> step_times_;
  std::size_t step_next_ = 0, step_count_ = 0;
  /// The update() times measured (the ring's filled part).
  std::vector<double> step_times() const {
    return std::vector<double>(step_times_.begin(),
                               step_times_.begin() + static_cast<std::ptrdiff_t>(step_count_));
  }
  std::FILE* events_ = nullptr;
  bool engaged_ = false, hover_logged_ = false;
  std::int64_t last_control_ns_ = 0;
  std::uint64_t runs_seen_ = 0;
  tools::RecordFile* record_ = nullptr;
  std::uint64_t rejected_foreign_ = 0;
};

inline void ControllerHost::print(std::FILE* out) const {
  const auto& m = core_.monitor().counters();
  const auto& c = core_.counters();
  const auto& watchdog = core_.watchdog();
  const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::fprintf(out, "hodyn-fc summary\n");
  std::fprintf(out,
               "  handshake: %s (HELLO received %llu, answered %llu), sensor frames refused "
               "%llu\n",
               link::to_string(core_.handshake()), u(c.hellos_received), u(c.hello_answers_sent),
               u(c.refused_frames));
  std::fprintf(out, "  link: %s, %llu session(s); %llu datagrams of others dropped\n",
               core_.authenticated() ? "signed (SipHash-2-4-128)" : "unsigned", u(c.sessions),
               u(rejected_foreign_));
  tools::print_link_counters(out, "received", core_.parser().counters());
  std::fprintf(out,
               "  sensor frames %llu: accepted %llu, duplicates %llu, out of order %llu, gaps %llu "
               "(%llu missing), end-of-run %llu\n",
               u(c.sensors_received), u(m.accepted), u(m.duplicates), u(m.out_of_order), u(m.gaps),
               u(m.missing), u(c.paused_frames));
  std::fprintf(out,
               "  reference frames %llu (%llu updates without the matching one, %llu with an "
               "earlier one carried forward)\n",
               u(c.references_received), u(c.reference_stale), u(c.reference_extrapolated));
  std::fprintf(out,
               "  controller updates %llu (plugin rejected %llu), safe-mode commands %llu, "
               "commands sent %llu (%llu send failures)\n",
               u(c.updates), u(c.plugin_rejected), u(c.safe_commands), u(c.commands_sent),
               u(c.send_failures));
  std::fprintf(out, "  watchdog: %llu engagements, %llu recoveries, %llu safe commands\n",
               u(watchdog.engagements()), u(watchdog.recoveries()), u(c.watchdog_commands));
  std::fprintf(out, "  update() median %.2f us, p99 %.2f us\n",
               hodyn::closed_loop::percentile(step_times(), 0.5) * 1e6,
               hodyn::closed_loop::percentile(step_times(), 0.99) * 1e6);
}

inline bool ControllerHost::write_json(const char* tool, const std::string& path,
                                       const std::string& mode,
                                       const posix::PeriodicLoop* loop) const {
  tools::JsonObject j;
  const auto& m = core_.monitor().counters();
  const auto& c = core_.counters();
  const auto& watchdog = core_.watchdog();
  j.string("tool", "hodyn-fc");
  j.string("mode", mode);
  j.string("handshake", link::to_string(core_.handshake()));
  j.integer("robot_id", core_.robot().id);
  j.integer("peer_robot_id", core_.peer_robot().id);
  j.integer("hellos_received", c.hellos_received);
  j.integer("hello_answers_sent", c.hello_answers_sent);
  j.integer("refused_sensor_frames", c.refused_frames);
  j.string("link_security", core_.authenticated() ? "signed" : "unsigned");
  j.integer("sessions", c.sessions);
  j.integer("simulator_runs", c.runs);
  j.raw("armed", core_.armed() ? "true" : "false");
  j.integer("rx_rejected_foreign", rejected_foreign_);
  tools::add_link_counters(j, "rx_", core_.parser().counters());
  j.integer("sensor_frames_received", c.sensors_received);
  j.integer("sensor_frames_accepted", m.accepted);
  j.integer("sensor_duplicates", m.duplicates);
  j.integer("sensor_out_of_order", m.out_of_order);
  j.integer("sensor_gaps", m.gaps);
  j.integer("sensor_missing", m.missing);
  j.integer("end_of_run_frames", c.paused_frames);
  j.integer("reference_frames_received", c.references_received);
  j.integer("updates_without_matching_reference", c.reference_stale);
  j.integer("updates_with_extrapolated_reference", c.reference_extrapolated);
  j.integer("unexpected_frames", c.unexpected);
  j.integer("steps", c.updates);
  j.integer("plugin_rejected_frames", c.plugin_rejected);
  j.integer("safe_mode_commands", c.safe_commands);
  j.integer("commands_sent", c.commands_sent);
  j.integer("control_commands_sent", c.control_commands);
  j.integer("send_failures", c.send_failures);
  j.integer("watchdog_engagements", watchdog.engagements());
  j.integer("watchdog_recoveries", watchdog.recoveries());
  j.integer("watchdog_commands", c.watchdog_commands);
  j.raw("watchdog_engaged_at_exit", watchdog.engaged() ? "true" : "false");
  j.number("update_median_s", hodyn::closed_loop::percentile(step_times(), 0.5));
  j.number("update_p99_s", hodyn::closed_loop::percentile(step_times(), 0.99));
  if (loop != nullptr) {
    const auto& st = loop->statistics();
    j.integer("loop_iterations", st.iterations);
    j.integer("loop_deadline_misses", st.deadline_misses);
    j.number("loop_period_median_s", static_cast<double>(st.period.median()) * 1e-9);
    j.number("loop_period_p99_s", static_cast<double>(st.period.p99()) * 1e-9);
    j.number("loop_period_max_s", static_cast<double>(st.period.max()) * 1e-9);
    j.number("loop_wake_latency_p99_s", static_cast<double>(st.wake_latency.p99()) * 1e-9);
  }
  if (j.write(path)) return true;
  std::cerr << tool << ": cannot write " << path << "\n";
  return false;
}

/// A --rate outside the range the plugin publishes for its "rate_hz"
/// parameter is a usage error, said before any port is opened (the plugin
/// would refuse it at configure time with a bare "invalid argument"). True
/// when the rate is inside, or the plugin publishes no such parameter.
inline bool rate_within_plugin_range(const char* tool, const hodyn_plugin_api* api, double rate) {
  static plugin::PluginInstance<64 * 1024> probe;
  if (probe.open(api) != Status::kOk) return true;  // host.open reports it
  bool inside = true;
  for (std::size_t i = 0; i < probe.parameter_count(); ++i) {
    plugin::ParameterInfo info{};
    if (probe.parameter_info(i, info) != Status::kOk || std::string(info.name) != "rate_hz")
      continue;
    if (rate < info.min_value || rate > info.max_value) {
      std::cerr << tool << ": --rate " << rate << " Hz is outside the range of plugin " << api->name
                << " (rate_hz " << info.min_value << ".." << info.max_value << " Hz)\n";
      inside = false;
    }
    break;
  }
  probe.close();
  return inside;
}

/// The whole program for one robot, `robot`: `builtin` is the statically
/// linked plugin for it (null: none; --plugin is then needed). The builtin
/// plugin, and a --plugin when --robot was given, are opened for `robot` only
/// (another robot's: kRobotMismatch, exit 1); a --plugin without --robot is
/// opened for whatever robot it is built for, and the HELLO handshake checks
/// that robot against the simulator's.
inline int run(const char* tool, const plugin::RobotIdentity& robot_of_tool,
               const hodyn_plugin_api* builtin, int argc, char** argv) {
  const char* robot_name = robot_of_tool.name;
  Args args;
  const int parsed = parse_args(tool, robot_name, argc, argv, args);
  if (parsed >= 0) return parsed;
  if (args.list_robots) {
    std::printf("%s\n", robot_name);
    return 0;
  }

  void* library = nullptr;
  const hodyn_plugin_api* api = nullptr;
  if (!args.plugin_path.empty()) {
    library = dlopen(args.plugin_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::cerr << tool << ": cannot load " << args.plugin_path << ": " << dlerror() << "\n";
      return 1;
    }
    auto entry = reinterpret_cast<hodyn_plugin_entry_fn>(dlsym(library, HODYN_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) {
      std::cerr << tool << ": " << args.plugin_path << " has no " << HODYN_PLUGIN_ENTRY_SYMBOL
                << "\n";
      return 1;
    }
    api = entry();
  } else {
    api = builtin;
  }
  if (api == nullptr) {
    std::cerr << tool << ": no controller plugin\n";
    return 1;
  }
  if (!rate_within_plugin_range(tool, api, args.rate)) {
    if (library != nullptr) dlclose(library);
    return 2;
  }

  std::uint8_t key[link::kLinkKeySize] = {};
  bool have_key = false;
  if (!tools::load_link_key(tool, args.link, key, have_key)) {
    if (library != nullptr) dlclose(library);
    return 2;
  }
  static tools::LinkEndpoint endpoint;
  // Lockstep awaits every frame: a serial send waits for a slow reader
  // rather than drop the frame (docs/hil.md, "The flake").
  if (!args.realtime) args.link.serial_send_timeout_us = 1'000'000;
  if (!endpoint.open(tool, args.link)) return 1;
  static ControllerHost host(endpoint.transport(), args.watchdog_periods);
  const bool strict = args.plugin_path.empty() || args.robot_given;
  const Status s = strict ? host.open(api, robot_of_tool, args.rate) : host.open(api, args.rate);
  if (s != Status::kOk) {
    std::cerr << tool << ": plugin " << api->name << ": " << hodyn::to_string(s) << "\n";
    return 1;
  }
  if (args.param_count > 0) {
    const Status configured = host.configure(args.params, args.param_count);
    if (configured != Status::kOk) {
      std::cerr << tool << ": plugin " << api->name
                << " refused the --param values: " << hodyn::to_string(configured) << "\n";
      return 2;
    }
  }
  if (have_key) {
    const Status keyed = host.enable_authentication(key, sizeof key);
    posix::wipe(key, sizeof key);
    if (keyed != Status::kOk) {
      std::cerr << tool << ": cannot use the key of " << args.link.key_file << "\n";
      return 2;
    }
  }
  static tools::RecordFile record;
  if (!args.record.empty()) {
    if (!record.open(tool, args.record)) return 1;
    host.set_record(&record);
  }
  std::FILE* events = nullptr;
  if (!args.events.empty()) {
    events = std::fopen(args.events.c_str(), "w");
    if (events == nullptr) {
      std::cerr << tool << ": cannot write " << args.events << "\n";
      return 1;
    }
    host.set_events(events);
  }
  static posix::StopFlag stop;
  (void)posix::install_stop_signal_handlers(stop);
  const hodyn::plugin::RobotIdentity robot = host.robot();
  std::printf(
      "hodyn-fc: plugin \"%s\" (%s) for robot \"%s\" (id 0x%08x, %u joints, %u rotors) "
      "at %.0f Hz, %s mode, %s, %s, watchdog %u periods\n",
      api->name, args.plugin_path.empty() ? "statically linked" : args.plugin_path.c_str(),
      robot.name != nullptr ? robot.name : "", static_cast<unsigned>(robot.id),
      static_cast<unsigned>(robot.num_joints), static_cast<unsigned>(robot.num_rotors), args.rate,
      args.realtime ? "realtime" : "lockstep", endpoint.description().c_str(),
      host.authenticated() ? "signed frames" : "unsigned frames", args.watchdog_periods);
  std::fflush(stdout);

  const std::int64_t period_ns = std::llround(1e9 / args.rate);
  const auto keep_going = [&]() {
    return !stop.stop_requested() && !host.idle(args.idle_timeout) && !host.link_failed() &&
           (args.max_steps == 0 || host.steps() < args.max_steps);
  };
  static posix::PeriodicLoop loop(period_ns);
  if (!args.realtime) {
    // Lockstep: each iteration waits up to one control period for a sensor frame.
    while (keep_going()) {
      const std::int64_t deadline = now_ns() + period_ns;
      while (!host.has_pending() && !stop.stop_requested()) {
        const std::int64_t left = deadline - now_ns();
        if (left <= 0) break;
        host.poll(std::max<std::int64_t>(1, left / 1000));
      }
      (void)host.period();
    }
  } else {
    const posix::RealtimeReport report = posix::apply_realtime_setup(args.rt, stderr);
    posix::print_realtime_report(report, args.rt, stdout);
    auto step = [&](const posix::LoopTick&) -> bool {
      while (host.poll(0)) {
      }
      (void)host.period();
      return keep_going();
    };
    (void)loop.run(step, 0, &stop);
  }

  host.set_rejected_foreign(endpoint.rejected_foreign());
  const bool recorded = record.close(tool);
  host.print(stdout);
  if (args.realtime) loop.print_summary(stdout);
  const bool summarized =
      args.summary_json.empty() ||
      host.write_json(tool, args.summary_json, args.realtime ? "realtime" : "lockstep",
                      args.realtime ? &loop : nullptr);
  const bool mismatch = host.handshake() == link::HandshakeState::kRobotMismatch;
  if (mismatch) {
    const hodyn::plugin::RobotIdentity peer = host.peer_robot();
    std::fprintf(stderr,
                 "%s: %s: the simulator flies \"%s\" (id 0x%08x, %u joints, %u rotors), this "
                 "controller \"%s\" (id 0x%08x, %u joints, %u rotors); stayed disarmed\n",
                 tool, hodyn::to_string(Status::kRobotMismatch), peer.name,
                 static_cast<unsigned>(peer.id), static_cast<unsigned>(peer.num_joints),
                 static_cast<unsigned>(peer.num_rotors), robot.name != nullptr ? robot.name : "",
                 static_cast<unsigned>(robot.id), static_cast<unsigned>(robot.num_joints),
                 static_cast<unsigned>(robot.num_rotors));
  }
  host.close();
  if (events != nullptr) std::fclose(events);
  if (library != nullptr) dlclose(library);
  if (mismatch) return kExitRobotMismatch;
  return recorded && summarized ? 0 : 1;
}

}  // namespace fc_program

/// hodyn-fc for robot type `Robot`: the controller plugin
/// "feedback_linearization" registered for Robot::kId (link its registering
/// object library), or --plugin FILE.so (opened for this robot: another
/// robot's plugin is refused). `tool` names the program in its messages.
template <class Robot>
int run_hodyn_fc(int argc, char** argv, const char* tool = "hodyn-fc") {
  return fc_program::run(tool, plugin::robot_identity<Robot>(),
                         plugin::plugin_registry().find("feedback_linearization", Robot::kId), argc,
                         argv);
}

}  // namespace hil_tools
}  // namespace hodyn
