// hodyn_sim.hpp — the program hodyn-sim for any robot type: the plant side
// of the hardware-in-the-loop pair: the plant simulator, the sensor model and
// the reference of the closed-loop scenarios (the 12-DoF robot: Table 3; any
// other robot: its own, hodyn/closed_loop/robot_reference.hpp), talking to
// hodyn-fc over a real link (UDP or serial / pty), with seeded fault
// injection in both directions. docs/hil.md describes it.
//
//   int main(int argc, char** argv) {
//     return hodyn::hil_tools::run_hodyn_sim<my_robot::Robot>(argc, argv, "my_robot-sim");
//   }
//
// Desktop tool: std::vector, std::string and iostreams are fine here; the
// fault injectors are the fixed-size hodyn::hil::FaultInjector.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include <Eigen/Geometry>

#include "hodyn/closed_loop/report.hpp"
#include "hodyn/closed_loop/robot_reference.hpp"
#include "hodyn/closed_loop/scenario.hpp"
#include "hodyn/closed_loop/tracking.hpp"
#include "hodyn/control/rotor_allocation.hpp"
#include "hodyn/hil/fault_injector.hpp"
#include "hodyn/hil/frame_splitter.hpp"
#include "hodyn/hil_tools/hil_common.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/link/handshake.hpp"
#include "hodyn/plugin/frames.hpp"
#include "hodyn/plugin/robot_identity.hpp"
#include "hodyn/posix/periodic_loop.hpp"
#include "hodyn/posix/stop_signal.hpp"
#include "hodyn/simulator/simulator.hpp"

namespace hodyn {
namespace hil_tools {
namespace sim_program {

namespace cl = hodyn::closed_loop;
namespace tools = hodyn::hil_tools;

inline constexpr std::uint32_t kNoTag = 0xFFFFFFFFu;
/// Exit status when the controller flies another robot (the HELLO handshake).
inline constexpr int kExitRobotMismatch = 3;

inline constexpr const char* kUsage =
    R"( [options]

The plant side of the hardware-in-the-loop pair (docs/hil.md): simulates the
robot, sends SENSORS and REFERENCE frames to hodyn-fc every control period
and applies the COMMANDs it answers with. The 12-DoF aerial manipulator flies
the Table 3 reference, any other robot its own (docs/closed-loop.md).

robot:
  --robot NAME         the robot to simulate (default: aerial_manipulator; an
                       unknown name: exit 2)
  --list-robots        print the robot names, one a line, and exit
scenario (as hodyn-demo):
  --scenario NAME      nominal | mismatch | gust | payload | noise_delay |
                       unknown_payload (default nominal)
  --duration S         simulated time (default 10)
  --rate HZ            control rate, 100..4000 (default 1000)
  --plant-rate HZ      integration rate, a multiple of --rate (default 8000)
  --seed N             sensor-noise and fault seed (default 1)
  --settle S           seconds left out of the error statistics (default 1)
  --reference-every N  a REFERENCE frame every N-th control period, 1..100
                       (default 1; the controller carries it forward along
                       its derivatives in between, docs/hil.md "Reference
                       rate"), and in every period after one without a command
  --wire-float 64|32   the real values of SENSORS and REFERENCE as binary64
                       (default) or binary32; the controller answers in the
                       same (docs/link-protocol.md; lossless for a float
                       controller)
link (exactly one):
  --udp LOCAL_PORT:REMOTE_HOST:REMOTE_PORT
                       only REMOTE_HOST:REMOTE_PORT may talk to it (others'
                       datagrams are dropped and counted: rx_rejected_foreign)
  --serial PATH        a tty
  --serial-pty         create a pseudo-terminal pair, use its master end and
                       print the slave path (give it to hodyn-fc --serial)
  --pty-path-file FILE also write the slave path to FILE
  --baud N             serial rate (default 921600; a pty ignores it)
  --bind ADDR          UDP: the local address to bind (default: the one the
                       peer is reached through, 127.0.0.1 for a loopback
                       peer; 0.0.0.0: every interface)
  --key-file FILE      sign and check every frame with this 32-byte shared key
                       (mode 0600; the same file as hodyn-fc's;
                       docs/link-security.md). Without it the link is unsigned
loop:
  --mode lockstep|realtime
                       lockstep (default): each period waits for the command
                       answering its sensor frame; realtime: a periodic loop
                       at --rate applies whatever arrived by the period's end
  --command-timeout-ms MS
                       lockstep: longest wait for a command (default 1000:
                       the simulator never waits for a frame its injector
                       lost, so this only tells a gone controller from one
                       the OS holds up; docs/hil.md, "The flake");
                       after a timeout, until a command comes again, each
                       period waits one control period (the controller is
                       gone: simulated time goes on at the wall clock's pace)
  --command-hold-ms MS without a command the last one is held this long
                       (simulated time, default 100), then the safe input is
                       applied (docs/hil.md, "Process faults")
  --safe-input hover|hold
                       the safe input's rotor speeds: hover (default) the
                       hover speeds of that moment, open loop; hold: the
                       vehicle's own autopilot holds the position and the
                       attitude (level, yaw) of that moment, every period.
                       Either way each joint's servo holds its position
  --start-timeout S    wait this long for hodyn-fc's first answer (default 10)
  --robot-id-override HEX
                       test hook: claim robot id HEX in the HELLO instead of the
                       simulated robot's (the pair must refuse to run)
  --fifo PRIO --lock-memory --cpu N
                       realtime: best-effort real-time setup
faults (both directions, seeded by --seed, simulated time):
  --drop P             fraction of frames lost
  --delay-ms MIN:MAX   each frame delayed uniformly in [MIN, MAX] ms
  --corrupt P          fraction of frames with 1-3 bytes changed
  --outage START_S:DURATION_S
                       nothing passes either way in that window
  --duplicate P        fraction of frames sent twice
  --reorder P          fraction of frames swapped with the next one
  --corrupt-burst START_S:DURATION_S:P
                       fraction P of the frames corrupted inside that window
  --garbage START_S:DURATION_S:P
                       inside that window, with probability P per period, a
                       chunk of 1-32 random non-zero bytes and a 0x00 is
                       written to the link between frames (sim->fc)
output:
  --summary-json FILE  tracking errors (SI) and link counters as JSON
  --record FILE        per period the command applied and the true state after
                       it, in binary (the same run, the same bytes)
  --trace FILE         per period: k, t, position error (m), source of the
                       input (0 a command, 1 held, 2 safe input), the command's
                       mode and its watchdog bit (CSV)
  --help
)";

/// The safe input's rotor speeds (--safe-input).
enum class SafeInput { kHold, kHover };

struct Args {
  cl::Scenario scenario = cl::Scenario::kNominal;
  double duration = 10.0, rate = 1000.0, plant_rate = 8000.0, settle = 1.0;
  std::uint64_t seed = 1;
  bool realtime = false;
  double command_timeout = 1.0, start_timeout = 10.0;
  double command_hold = 0.100;
  SafeInput safe_input = SafeInput::kHover;
  long reference_every = 1;
  link::ValueFormat wire_float = link::ValueFormat::kFloat64;
  double garbage_start = 0.0, garbage_duration = 0.0, garbage = 0.0;
  std::string trace;
  hil::FaultConfig faults;
  tools::LinkOptions link;
  posix::RealtimeOptions rt;
  std::string summary_json;
  std::string record;
  bool override_robot_id = false;
  std::uint32_t robot_id_override = 0;
  bool list_robots = false;
};

// A 32-bit hexadecimal number ("0x" optional).
inline bool parse_hex_u32(const char* text, std::uint32_t& value) {
  std::string t = text;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t = t.substr(2);
  if (t.empty() || t.size() > 8) return false;
  std::uint32_t v = 0;
  for (char c : t) {
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0) return false;
    v = (v << 4) | static_cast<std::uint32_t>(d);
  }
  value = v;
  return true;
}

/// Parses the options of a hodyn-sim built for one robot, `robot_name`:
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
    if (opt == "--list-robots") {
      a.list_robots = true;
      continue;
    }
    if (!has_value) {
      std::cerr << tool << ": unknown option or missing value '" << opt << "' (see --help)\n";
      return 2;
    }
    ++i;
    double v = 0.0, w = 0.0;
    const auto bad = [&](const char* what) {
      std::cerr << tool << ": " << opt << " needs " << what << ", got '" << value << "'\n";
      return 2;
    };
    if (opt == "--robot") {
      if (std::string(value) != robot_name) {
        std::cerr << tool << ": unknown robot '" << value << "' (" << robot_name << ")\n";
        return 2;
      }
    } else if (opt == "--scenario") {
      if (!cl::parse_scenario(value, a.scenario)) return bad("a scenario name");
      // Its exciting reference is hodyn-demo's (robot_runner.hpp); the link
      // carries this simulator's reference, the robot's own.
      if (a.scenario == cl::Scenario::kIdentification)
        return bad("a scenario name other than identification (hodyn-demo only)");
    } else if (opt == "--mode") {
      const std::string m = value;
      if (m != "lockstep" && m != "realtime") return bad("lockstep or realtime");
      a.realtime = m == "realtime";
    } else if (opt == "--summary-json" || opt == "--record" || opt == "--trace") {
      if (tools::value_is_an_option(tool, opt, value)) return 2;
      (opt == "--record" ? a.record : opt == "--trace" ? a.trace : a.summary_json) = value;
    } else if (opt == "--corrupt-burst" || opt == "--garbage") {
      // START_S:DURATION_S:P
      const std::string text = value;
      const auto last = text.rfind(':');
      double p = 0.0;
      if (last == std::string::npos || !tools::parse_pair(text.substr(0, last).c_str(), v, w) ||
          !tools::parse_number(text.c_str() + last + 1, p) || v < 0.0 || w < 0.0 || p < 0.0 ||
          p > 1.0)
        return bad("START_S:DURATION_S:P (>= 0, P a fraction 0..1)");
      if (opt == "--corrupt-burst") {
        a.faults.burst_start = v;
        a.faults.burst_duration = w;
        a.faults.burst_corrupt = p;
      } else {
        a.garbage_start = v;
        a.garbage_duration = w;
        a.garbage = p;
      }
    } else if (opt == "--robot-id-override") {
      if (!parse_hex_u32(value, a.robot_id_override)) return bad("a hexadecimal robot id");
      a.override_robot_id = true;
    } else if (opt == "--delay-ms" || opt == "--outage") {
      if (!tools::parse_pair(value, v, w) || v < 0.0 || w < 0.0) return bad("A:B (>= 0)");
      if (opt == "--delay-ms") {
        if (w < v) return bad("MIN:MAX with MIN <= MAX");
        a.faults.delay_min = v * 1e-3;
        a.faults.delay_max = w * 1e-3;
      } else {
        a.faults.outage_start = v;
        a.faults.outage_duration = w;
      }
    } else if (opt == "--drop" || opt == "--corrupt" || opt == "--duplicate" ||
               opt == "--reorder") {
      if (!tools::parse_number(value, v) || v < 0.0 || v > 1.0) return bad("a fraction 0..1");
      if (opt == "--drop") a.faults.drop = v;
      if (opt == "--corrupt") a.faults.corrupt = v;
      if (opt == "--duplicate") a.faults.duplicate = v;
      if (opt == "--reorder") a.faults.reorder = v;
    } else if (opt == "--safe-input") {
      const std::string kind = value;
      if (kind != "hold" && kind != "hover") return bad("hold or hover");
      a.safe_input = kind == "hover" ? SafeInput::kHover : SafeInput::kHold;
    } else if (opt == "--wire-float") {
      const std::string bits = value != nullptr ? value : "";
      if (bits != "64" && bits != "32") return bad("64 or 32");
      a.wire_float = bits == "32" ? link::ValueFormat::kFloat32 : link::ValueFormat::kFloat64;
    } else if (opt == "--settle") {
      if (!tools::parse_number(value, v) || v < 0.0) return bad("a number >= 0");
      a.settle = v;
    } else if (opt == "--duration" || opt == "--rate" || opt == "--plant-rate" || opt == "--seed" ||
               opt == "--command-timeout-ms" || opt == "--start-timeout" ||
               opt == "--command-hold-ms" || opt == "--reference-every") {
      if (!tools::parse_number(value, v) || v <= 0.0) return bad("a positive number");
      if (opt == "--seed" && !tools::whole_number_in(v, 1.0, 9007199254740992.0))
        return bad("a whole number 1..2^53");
      if (opt == "--reference-every" && !tools::whole_number_in(v, 1.0, 100.0))
        return bad("a whole number 1..100");
      if (opt == "--reference-every") a.reference_every = std::lround(v);
      if (opt == "--duration") a.duration = v;
      if (opt == "--rate") a.rate = v;
      if (opt == "--plant-rate") a.plant_rate = v;
      if (opt == "--seed") a.seed = static_cast<std::uint64_t>(v);
      if (opt == "--command-timeout-ms") a.command_timeout = v * 1e-3;
      if (opt == "--start-timeout") a.start_timeout = v;
      if (opt == "--command-hold-ms") a.command_hold = v * 1e-3;
    } else {
      std::cerr << tool << ": unknown option '" << opt << "' (see --help)\n";
      return 2;
    }
  }
  const double ratio = a.plant_rate / a.rate;
  if (a.rate < 100.0 || a.rate > 4000.0 || ratio < 1.0 ||
      std::abs(ratio - std::round(ratio)) > 1e-9) {
    std::cerr << tool << ": --rate must be within 100..4000 Hz and --plant-rate a multiple of it\n";
    return 2;
  }
  if (!tools::link_choice_ok(tool, a.link)) return 2;
  return -1;
}

inline std::int64_t now_ns() { return posix::monotonic_now_ns(); }

struct SimCounters {
  std::uint64_t frames_submitted = 0, frames_sent = 0, send_failures = 0;
  // Corrupted copies the injectors actually released (a copy still delayed
  // when the run ends is counted as corrupted but never reaches a parser).
  std::uint64_t tx_corrupted_released = 0, rx_corrupted_released = 0;
  std::uint64_t sensor_frames = 0, commands_expected = 0, command_timeouts = 0;
  std::uint64_t reference_frames = 0;  ///< REFERENCE frames made (--reference-every)
  std::uint64_t raw_frames_received = 0, commands_received = 0, commands_applied = 0;
  std::uint64_t stale_commands = 0, watchdog_commands_received = 0, missed_commands = 0;
  std::uint64_t outage_periods = 0;
  std::uint64_t hellos_sent = 0, hellos_received = 0;
  std::uint64_t stale_hello_answers = 0;  ///< signed: answers to another nonce than ours
  std::uint64_t sign_failures = 0;        ///< frames that could not be signed (not sent)
  // Process faults (docs/hil.md): the controller gone, restarted, taken back.
  std::uint64_t refused_commands = 0;     ///< disarmed answers of a controller without handshake
  std::uint64_t rehellos_sent = 0;        ///< HELLOs sent during the run (controller lost)
  std::uint64_t controller_sessions = 0;  ///< controllers that answered (1 + restarts seen)
  std::uint64_t held_periods = 0;         ///< periods without a command, the last one held
  std::uint64_t safe_input_periods = 0;   ///< periods with the safe input
  std::uint64_t safe_input_engagements = 0;
  std::uint64_t safe_input_failures = 0;  ///< the hover input could not be computed (held on)
  std::uint64_t garbage_chunks = 0, garbage_bytes = 0;
  /// Wall-clock silences of this simulator during the run: gaps of >= 15 ms
  /// between two sends (an outage, or the OS holding the process up). A
  /// lockstep controller's watchdog (20 periods of 1 ms) can engage only in
  /// one of them.
  std::uint64_t send_silences = 0;
  double send_gap_max_s = 0.0;
  double wait_total_s = 0.0, wait_max_s = 0.0;
};

/// How the HELLO handshake ended.
enum class HelloResult { kAgreed, kRobotMismatch, kNoAnswer };

inline std::string describe(const hodyn::plugin::RobotIdentity& r) {
  char text[160];
  std::snprintf(text, sizeof text, "\"%s\" (id 0x%08x, %u joints, %u rotors)",
                r.name != nullptr ? r.name : "", static_cast<unsigned>(r.id),
                static_cast<unsigned>(r.num_joints), static_cast<unsigned>(r.num_rotors));
  return text;
}

// ---- the simulator side -------------------------------------------------------------
template <class Robot>
class SimHost {
 public:
  static constexpr int kNumJoints = sim::PlantTraits<Robot>::kNumJoints;
  static constexpr int kNumRotors = sim::PlantTraits<Robot>::kNumRotors;
  using Reference = typename cl::ReferenceOf<Robot>::Type;

  SimHost(const Args& args, link::Transport& transport) : a_(args), transport_(transport) {
    robot_ = hodyn::plugin::robot_identity<Robot>();
    if (a_.override_robot_id) robot_.id = a_.robot_id_override;
    peek_.set_verifier(&peek_verifier_);
    parser_.set_verifier(&verifier_);
  }

  /// A signed link (docs/link-security.md): the shared key, a random session
  /// nonce for the HELLO, the wall clock as the first HELLO counter.
  Status enable_authentication(const std::uint8_t* key, std::size_t size) {
    Status s = keys_.set_master_key(key, size, link::LinkEnd::kSimulator);
    if (s == Status::kOk) s = posix::random_bytes(nonce_, sizeof nonce_);
    if (s != Status::kOk) {
      keys_.clear();
      return s;
    }
    signer_.set_hello_counter(posix::wall_clock_ns());
    return Status::kOk;
  }
  bool authenticated() const { return keys_.enabled(); }
  /// Datagrams of others the UDP transport dropped (for the summary).
  void set_rejected_foreign(std::uint64_t count) { rejected_foreign_ = count; }
  /// Records each period's command and true state (--record).
  void set_record(tools::RecordFile* record) { record_ = record; }
  /// Writes one CSV line per period (--trace; null: none).
  void set_trace(std::FILE* trace) { trace_ = trace; }

  const hodyn::plugin::RobotIdentity& robot() const { return robot_; }
  /// The controller's robot and verdict from its HELLO answer.
  hodyn::plugin::RobotIdentity controller_robot() const { return link::robot_of(peer_hello_); }
  Status controller_verdict() const { return static_cast<Status>(peer_hello_.status); }
  link::HandshakeState handshake_state() const { return handshake_; }

  /// The HELLO handshake, before anything else and outside the fault
  /// injection: sends this simulator's HELLO every 50 ms until hodyn-fc
  /// answers with its own. Agreed when both robots are the same and the
  /// controller's verdict is kOk.
  HelloResult hello(const posix::StopFlag& stop) {
    link::Hello& mine = hello_;
    mine = link::make_hello(robot_, link::hello_role::kSimulator, Status::kOk);
    // The run nonce, signed or not: a controller tells a restarted simulator
    // by it (a new run: it resynchronises on the new sequence numbers).
    for (std::size_t k = 0; k < link::kNonceSize; ++k) mine.nonce[k] = nonce_[k];
    std::uint8_t wire[link::kMaxWireSize];
    std::size_t size = 0;
    const std::int64_t end = now_ns() + std::llround(a_.start_timeout * 1e9);
    while (now_ns() < end && !stop.stop_requested()) {
      // Each copy signed anew: a HELLO counter is never sent twice.
      if (link::encode(mine, link_sequence_++, wire, sizeof wire, size, &signer_) != Status::kOk)
        return HelloResult::kNoAnswer;
      send_direct(wire, size);
      ++c_.hellos_sent;
      const std::int64_t resend = now_ns() + 50'000'000;
      while (now_ns() < resend && !have_peer_hello_)
        receive(std::max<std::int64_t>(1, (resend - now_ns()) / 1000), 0.0, true);
      if (!have_peer_hello_) continue;
      if (keys_.enabled()) keys_.start_session(nonce_, peer_hello_.nonce);
      const bool same = hodyn::plugin::compare_robots(robot_, controller_robot()) == Status::kOk;
      handshake_ = same && controller_verdict() == Status::kOk
                       ? link::HandshakeState::kAgreed
                       : link::HandshakeState::kRobotMismatch;
      return handshake_ == link::HandshakeState::kAgreed ? HelloResult::kAgreed
                                                         : HelloResult::kRobotMismatch;
    }
    return HelloResult::kNoAnswer;
  }

  Status setup() {
    if (!keys_.enabled() && posix::random_bytes(nonce_, sizeof nonce_) != Status::kOk)
      return Status::kInvalidArgument;  // (signed: enable_authentication drew it)
    hold_periods_ = std::max(1L, std::lround(a_.command_hold * a_.rate));
    garbage_random_ = hil::SplitMix64(a_.seed * 2 + 3);
    dt_ = 1.0 / a_.rate;
    steps_ = std::lround(a_.duration * a_.rate);
    setup_ = cl::make_robot_scenario<Robot>(a_.scenario, 1.0 / a_.plant_rate, dt_, a_.seed);
    Status s = plant_.configure(setup_.plant);
    if (s == Status::kOk) s = plant_.set_disturbances(setup_.disturbances);
    if (s == Status::kOk) s = sensors_.configure(setup_.sensors);
    // The safe input's autopilot: the plant's model and its rotors' allocation.
    if (s == Status::kOk) s = sim::make_plant_model(setup_.plant, model_);
    if (s == Status::kOk) s = allocation_.configure(setup_.plant.robot.rotors);
    if (s != Status::kOk) return s;
    sim::RobotPlantState<Robot> start;
    sim::RobotPlantInput<Robot> input;
    s = sim::equilibrium_state(setup_.plant, trajectory_.base_pose(0.0),
                               trajectory_.base_twist(0.0, 0), trajectory_.joints(0.0, 0),
                               trajectory_.joints(0.0, 1), trajectory_.base_twist(0.0, 1),
                               trajectory_.joints(0.0, 2), start, input);
    if (s == Status::kOk) s = plant_.set_state(start);
    if (s != Status::kOk) return s;
    command_ = hodyn_command{};
    command_.num_joints = kNumJoints;
    command_.num_rotors = kNumRotors;
    command_.mode = HODYN_MODE_TRACKING;
    for (int i = 0; i < kNumRotors; ++i) command_.rotor_speed[i] = input.rotor_speed_command(i);
    for (int j = 0; j < kNumJoints; ++j) command_.motor_torque[j] = input.motor_torque(j);
    s = out_.configure(a_.faults, a_.seed * 2 + 1);
    if (s == Status::kOk) s = in_.configure(a_.faults, a_.seed * 2 + 2);
    return s;
  }

  long steps() const { return steps_; }
  double dt() const { return dt_; }

  /// Start handshake, outside the fault injection: sends period 0's frames
  /// every 50 ms until hodyn-fc answers sequence 0.
  bool handshake(const posix::StopFlag& stop) {
    measure(0);
    const std::int64_t end = now_ns() + std::llround(a_.start_timeout * 1e9);
    bool first = true;
    while (now_ns() < end && !stop.stop_requested()) {
      // Resent copies signed anew (a signed counter is never sent twice).
      if (!first && !encode_period_frames()) return false;
      first = false;
      send_direct(reference_wire_, reference_size_);  // period 0 always has one
      send_direct(sensors_wire_, sensors_size_);
      const std::int64_t resend = now_ns() + 50'000'000;
      while (now_ns() < resend) {
        receive(std::max<std::int64_t>(1, (resend - now_ns()) / 1000), 0.0, true);
        // Only the answer to period 0 starts the run (a command of an
        // earlier run, still in flight, answers another sequence).
        if (have_candidate_ && candidate_sequence_ != 0) {
          have_candidate_ = false;
          ++c_.stale_commands;
        }
        if (have_candidate_) {  // applied by end_period(0)
          delivered_newest_ = 0;
          have_delivered_ = true;
          running_ = true;
          return true;
        }
      }
    }
    return false;
  }

  /// Period k, first half: errors of the true state now, then measure and
  /// send (through the outgoing injector). Returns the sequence whose
  /// answer to wait for, or kNoTag when no new sensor frame got through.
  std::uint32_t begin_period(long k) {
    const double t = static_cast<double>(k) * dt_;
    period_ = k;
    position_error_ = stats_.add_state(trajectory_, t, plant_.state()).position.norm();
    if (out_.in_outage(t)) ++c_.outage_periods;
    // The controller is gone (no command for the hold time) or refuses (a
    // new one without handshake): our HELLO again every 50 ms, through the
    // injector (an outage stops it too). Its answer carries on the run.
    if ((controller_lost_ || periods_without_command_ >= hold_periods_) &&
        k - last_rehello_ >= std::lround(0.05 * a_.rate)) {
      last_rehello_ = k;
      std::uint8_t wire[link::kMaxWireSize];
      std::size_t size = 0;
      if (link::encode(hello_, link_sequence_++, wire, sizeof wire, size, &signer_) ==
          Status::kOk) {
        (void)out_.submit(wire, size, t, kNoTag);
        ++c_.rehellos_sent;
      }
    }
    if (k > 0 && measure(k)) {
      if (reference_due_) {
        (void)out_.submit(reference_wire_, reference_size_, t, kNoTag);
        ++c_.frames_submitted;
      }
      (void)out_.submit(sensors_wire_, sensors_size_, t, static_cast<std::uint32_t>(k));
      ++c_.frames_submitted;
    }
    std::uint32_t target = kNoTag;
    std::uint8_t buffer[link::kMaxWireSize];
    hil::FaultInjector<>::Released r;
    while (out_.pop(t, buffer, sizeof buffer, r)) {
      send_direct(buffer, r.size);
      if (r.corrupted) ++c_.tx_corrupted_released;
      if (r.tag == kNoTag || r.corrupted) continue;
      if (!have_delivered_ || r.tag > delivered_newest_) {
        delivered_newest_ = r.tag;
        have_delivered_ = true;
        target = r.tag;
      }
    }
    if (target != kNoTag) ++c_.commands_expected;
    send_garbage(t);
    return target;
  }

  /// Receives for at most `timeout_us`; true when the raw answer to
  /// `target` arrived (whatever the injector then does with it).
  bool receive(std::int64_t timeout_us, double t, bool direct = false,
               std::uint32_t target = kNoTag) {
    bool answered = false;
    (void)tools::receive_once(transport_, timeout_us,
                              [&](const std::uint8_t* data, std::size_t size) {
                                for (std::size_t i = 0; i < size; ++i) {
                                  if (!splitter_.push(data[i])) continue;
                                  answered |= raw_frame(t, direct, target);
                                }
                              });
    return answered;
  }

  /// Frames the incoming injector releases by simulated time `t` into the parser.
  void deliver(double t) {
    std::uint8_t buffer[link::kMaxWireSize];
    hil::FaultInjector<>::Released r;
    while (in_.pop(t, buffer, sizeof buffer, r)) {
      if (r.corrupted) ++c_.rx_corrupted_released;
      parse(buffer, r.size);
    }
  }

  /// Period k, second half: the newest valid command (or the previous one
  /// held), then the plant over one period.
  Status end_period() {
    int source = 0;  // the trace's: 0 a command, 1 the last one held, 2 the safe input
    if (have_candidate_) {
      apply_candidate();
      periods_without_command_ = 0;
      safe_active_ = false;
      controller_lost_ = false;
    } else {
      ++c_.missed_commands;
      ++periods_without_command_;
      // Held for the hold time, then the safe input (its targets taken at
      // the state of that moment; --safe-input hold recomputes the rotor
      // speeds every period, hover keeps those of that moment).
      if (!safe_active_ && periods_without_command_ > hold_periods_) {
        if (apply_safe_input()) {
          safe_active_ = true;
          ++c_.safe_input_engagements;
        } else {
          ++c_.safe_input_failures;
        }
      }
      if (safe_active_) {
        ++c_.safe_input_periods;
        source = 2;
        if (a_.safe_input == SafeInput::kHold && !hold_position_attitude())
          ++c_.safe_input_failures;  // the previous rotor speeds stay
        servo_hold_joints();
      } else {
        ++c_.held_periods;
        source = 1;
      }
    }
    if (trace_ != nullptr)
      std::fprintf(trace_, "%ld,%.4f,%.6e,%d,%d,%d\n", period_, static_cast<double>(period_) * dt_,
                   position_error_, source, command_.mode,
                   (applied_bits_ & link::controller_status::kWatchdogEngaged) != 0u ? 1 : 0);
    stats_.add_command(command_);
    sim::RobotPlantInput<Robot> input;
    Status s = sim::plant_input_from_command(command_, input);
    if (s == Status::kOk) s = plant_.step(input, dt_);
    stats_.add_plant_step(plant_.last_step_saturated());
    if (record_ != nullptr) {  // the command applied, then the true state after the period
      const hodyn_sensors x = sim::exact_sensor_frame(plant_.state());
      record_->write(&command_, sizeof command_);
      record_->write(&x, sizeof x);
    }
    return s;
  }

  /// Tells hodyn-fc the run is over (SENSORS with kSimulatorPaused, three
  /// times, outside the fault injection).
  void finish(long k) {
    const sim::RobotPlantState<Robot>& x = plant_.state();
    hodyn_sensors frame = sim::exact_sensor_frame(x);
    frame.sequence = static_cast<std::uint32_t>(k);
    std::size_t size = 0;
    for (int i = 0; i < 3; ++i)  // each copy signed anew
      if (link::encode(frame, link::sensor_status::kSimulatorPaused, link_sequence_++,
                       sensors_wire_, sizeof sensors_wire_, size, &signer_,
                       a_.wire_float) == Status::kOk)
        send_direct(sensors_wire_, size);
  }

  void lockstep_wait(std::uint32_t target, long k, const posix::StopFlag& stop) {
    const double t = static_cast<double>(k) * dt_;
    const std::int64_t start = now_ns();
    if (target != kNoTag) {
      // After a timeout with no command at all the controller counts as gone
      // until a command comes again: one control period of wall time per
      // period, not the timeout, so that the plant's time goes on as the
      // wall clock's (the hold time and the safe input then mean what they
      // say). A slow controller (late answers) still gets the full timeout.
      const double timeout = consecutive_timeouts_ > 0 ? dt_ : a_.command_timeout;
      heard_command_ = false;
      const std::int64_t end = start + std::llround(timeout * 1e9);
      bool answered = false;
      while (!answered && !stop.stop_requested()) {
        const std::int64_t left = end - now_ns();
        if (left <= 0) {
          ++c_.command_timeouts;
          ++consecutive_timeouts_;
          break;
        }
        answered = receive(std::max<std::int64_t>(1, left / 1000), t, false, target);
      }
      if (answered || heard_command_) consecutive_timeouts_ = 0;
      const double waited = static_cast<double>(now_ns() - start) * 1e-9;
      c_.wait_total_s += waited;
      c_.wait_max_s = std::max(c_.wait_max_s, waited);
    } else {
      // No answer to wait for: the period still takes one control period of
      // wall time, so the far side's wall-clock watchdog sees an outage as long
      // as it is.
      const std::int64_t end = start + std::llround(dt_ * 1e9);
      while (!stop.stop_requested()) {
        const std::int64_t left = end - now_ns();
        if (left <= 0) break;
        (void)receive(std::max<std::int64_t>(1, left / 1000), t);
      }
    }
    deliver(t);
  }

  void summarize(cl::RunSummary& summary) const {
    summary = cl::RunSummary{};
    summary.scenario = a_.scenario;
    summary.duration = a_.duration;
    summary.control_rate_hz = a_.rate;
    summary.plant_rate_hz = a_.plant_rate;
    summary.settle_time = a_.settle;
    summary.steps = steps_;
    stats_.finish(dt_, summary);
  }

  void print(std::FILE* out) const;
  void add_json(tools::JsonObject& j) const;

 private:
  bool measure(long k) {
    hodyn_sensors frame{};
    if (sensors_.measure(plant_.state(), frame) != Status::kOk) return false;
    // A delayed sensor model repeats its first frame until the delay has
    // passed: as in the in-process loop, only new frames go to the controller.
    if (frame.time <= last_frame_time_) return false;
    last_frame_time_ = frame.time;
    frame.sequence = static_cast<std::uint32_t>(k);
    sensor_frame_ = frame;
    // A REFERENCE every --reference-every periods, and in every period after
    // one without a command (a controller lost or new has nothing to carry).
    reference_due_ = k == 0 || k - last_reference_period_ >= a_.reference_every ||
                     periods_without_command_ > 0 || controller_lost_;
    if (reference_due_) {
      last_reference_period_ = k;
      ++c_.reference_frames;
    }
    cl::reference_frame(trajectory_, frame.time, reference_frame_);
    sensor_bits_ = plant_.last_step_saturated() ? link::sensor_status::kPlantSaturated : 0u;
    if (plant_.payload_attached()) sensor_bits_ |= link::sensor_status::kPayloadAttached;
    ++c_.sensor_frames;
    return encode_period_frames();
  }

  // The period's REFERENCE and SENSORS frames into their wire buffers (signed
  // with the next counters on a signed link).
  bool encode_period_frames() {
    bool ok = true;
    if (reference_due_) {  // --reference-every
      ok = link::encode(reference_frame_, link_sequence_++, reference_wire_, sizeof reference_wire_,
                        reference_size_, &signer_, a_.wire_float) == Status::kOk;
    }
    ok = ok &&
         link::encode(sensor_frame_, sensor_bits_, link_sequence_++, sensors_wire_,
                      sizeof sensors_wire_, sensors_size_, &signer_, a_.wire_float) == Status::kOk;
    if (!ok) ++c_.sign_failures;
    return ok;
  }

  void send_direct(const std::uint8_t* data, std::size_t size) {
    const std::int64_t now = now_ns();
    if (running_ && last_send_ns_ > 0) {
      const double gap = static_cast<double>(now - last_send_ns_) * 1e-9;
      c_.send_gap_max_s = std::max(c_.send_gap_max_s, gap);
      if (gap >= 0.015) ++c_.send_silences;
    }
    last_send_ns_ = now;
    if (transport_.send(data, size) == Status::kOk) {
      ++c_.frames_sent;
    } else {
      ++c_.send_failures;
    }
  }

  bool raw_frame(double t, bool direct, std::uint32_t target) {
    ++c_.raw_frames_received;
    // Look at the frame as sent (before the injector) to know what it answers.
    link::Message m{};
    bool answers = false;
    std::uint32_t tag = kNoTag;
    peek_.push(splitter_.frame(), splitter_.size());
    while (peek_.next(m))
      if (m.type == link::MessageType::kCommand) tag = m.answered_sequence;
    heard_command_ |= tag != kNoTag;
    answers = tag != kNoTag && tag == target;
    if (direct) {
      parse(splitter_.frame(), splitter_.size());
    } else {
      (void)in_.submit(splitter_.frame(), splitter_.size(), t, tag);
    }
    return answers;
  }

  void parse(const std::uint8_t* data, std::size_t size) {
    tools::parse_bytes(parser_, data, size, [&](const link::Message& m) {
      if (m.type == link::MessageType::kHello) {
        if (m.hello.role != link::hello_role::kController) return;
        if (keys_.enabled() && !same_nonce(m.hello.peer_nonce, nonce_)) {
          ++c_.stale_hello_answers;  // authentic, but the answer to another run's HELLO
          return;
        }
        ++c_.hellos_received;
        if (!have_peer_hello_) {  // the first answer decides the handshake
          peer_hello_ = m.hello;
          have_peer_hello_ = true;
          ++c_.controller_sessions;
          return;
        }
        if (handshake_ != link::HandshakeState::kAgreed) return;
        // An answer to a HELLO of the run (docs/hil.md, "Process faults").
        // From a restarted controller — signed: another nonce of its own
        // (authentic, its HELLO counter above every earlier one, answering
        // our nonce: the checks above); unsigned: after its refusals — for
        // the same robot: the run goes on with it, in a new session.
        const bool other =
            keys_.enabled() ? !same_nonce(m.hello.nonce, peer_hello_.nonce) : refused_since_answer_;
        refused_since_answer_ = false;
        if (!other) return;
        if (hodyn::plugin::compare_robots(robot_, link::robot_of(m.hello)) != Status::kOk ||
            static_cast<Status>(m.hello.status) != Status::kOk)
          return;  // another robot: its commands stay refused, ours held / safe
        peer_hello_ = m.hello;
        if (keys_.enabled()) keys_.start_session(nonce_, m.hello.nonce);
        ++c_.controller_sessions;
        return;
      }
      if (m.type != link::MessageType::kCommand) return;
      ++c_.commands_received;
      // A controller without our handshake (restarted): a disarmed answer,
      // never applied; our HELLO goes out again.
      if ((m.status_bits & link::controller_status::kHandshakeRefused) != 0u) {
        ++c_.refused_commands;
        refused_since_answer_ = true;
        controller_lost_ = true;
        return;
      }
      if ((m.status_bits & link::controller_status::kWatchdogEngaged) != 0u)
        ++c_.watchdog_commands_received;
      // Newest wins; commands answering older sequences than the applied one are stale.
      if ((have_applied_ && m.answered_sequence < applied_sequence_) ||
          (have_candidate_ && m.answered_sequence < candidate_sequence_)) {
        ++c_.stale_commands;
        return;
      }
      candidate_ = m.command;
      candidate_sequence_ = m.answered_sequence;
      candidate_bits_ = m.status_bits;
      have_candidate_ = true;
    });
  }

  void apply_candidate() {
    command_ = candidate_;
    applied_bits_ = candidate_bits_;
    applied_sequence_ = candidate_sequence_;
    have_applied_ = true;
    have_candidate_ = false;
    ++c_.commands_applied;
  }

  // The safe input (docs/hil.md): the plant's hover input — inverse dynamics
  // at rest, sim::hover_state — at its position, its yaw (roll and pitch
  // level) and its joint angles: rotor speeds that carry the weight and
  // joint torques that hold the arm against gravity, plus each joint's servo
  // holding the position of that moment (servo_hold_joints), as a servo
  // drive does on a lost link. --safe-input hover: those rotor speeds, open
  // loop (an ESC knows no attitude; they keep the base near still for a
  // while, they do not stabilise it); the default. --safe-input hold: the
  // vehicle's own autopilot holds that position and attitude
  // (hold_position_attitude, every period).
  bool apply_safe_input() {
    const sim::RobotPlantState<Robot>& x = plant_.state();
    Pose<double> pose = x.base_pose;
    const double yaw = std::atan2(pose.rotation(1, 0), pose.rotation(0, 0));
    pose.rotation = Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    hold_pose_ = pose;
    sim::RobotPlantState<Robot> still;
    sim::RobotPlantInput<Robot> input;
    const Status s = sim::hover_state(setup_.plant, pose, x.q, still, input);
    if (s != Status::kOk && s != Status::kActuatorSaturated) return false;
    command_ = hodyn_command{};
    command_.time = static_cast<double>(period_) * dt_;
    command_.num_joints = kNumJoints;
    command_.num_rotors = kNumRotors;
    command_.mode = HODYN_MODE_HOVER;
    for (int i = 0; i < kNumRotors; ++i) command_.rotor_speed[i] = input.rotor_speed_command(i);
    for (int j = 0; j < kNumJoints; ++j) command_.motor_torque[j] = input.motor_torque(j);
    applied_bits_ = 0;
    return set_servo_hold(x, input);
  }

  // Each joint's servo on the safe input: a PD loop on the drive's own
  // position (the joint for a rigid drive, the motor θ for an elastic one)
  // about the position at engagement, around the gravity-holding torque, at
  // kServoBandwidth (rad/s, critically damped) for the inertia the drive
  // moves there (the joint's diagonal entry of M̄ for a rigid drive, B for
  // an elastic one), limited to ±u_max. Without it a joint held by a constant
  // torque drifts as the base tilts (octo_arm's slide ran 2.5 m out of its
  // range in a 2 s link loss, and the controller then refused every frame).
  static constexpr double kServoBandwidth = 25.0;
  bool set_servo_hold(const sim::RobotPlantState<Robot>& x,
                      const sim::RobotPlantInput<Robot>& input) {
    typename sim::PlantTraits<Robot>::Model model;
    if (sim::make_plant_model(setup_.plant, model) != Status::kOk) return false;
    EquationsOfMotionData<typename Robot::Tree> data;
    if (mass_matrix(model, data, x.base_pose, x.q) != Status::kOk) return false;
    for (int j = 0; j < kNumJoints; ++j) {
      const JointActuator& a = setup_.plant.robot.actuators[static_cast<std::size_t>(j)];
      const bool elastic = a.drive == JointDrive::kElastic;
      const double inertia = elastic ? a.motor_inertia : data.result.mass_matrix(6 + j, 6 + j);
      if (!std::isfinite(inertia) || !(inertia > 0.0)) return false;
      servo_target_(j) = elastic ? x.motor_position(j) : x.q(j);
      servo_torque_(j) = input.motor_torque(j);
      servo_kp_(j) = inertia * kServoBandwidth * kServoBandwidth;
      servo_kd_(j) = 2.0 * inertia * kServoBandwidth;
      servo_limit_(j) = a.torque_limit;
    }
    return true;
  }

  // --safe-input hold: the vehicle's low-level autopilot (a flight
  // controller under a companion computer that runs the manipulation
  // controller over the link) holds the base's position and attitude of the
  // engagement (hold_pose_: level, the yaw of that moment) from the plant's
  // true state, every period. A PD acceleration, critically damped,
  //   α = −λ_R² R log(R_dᵀ R)^∨ − 2 λ_R ω              (world frame)
  //   p̈ = −λ_p² (p − p_d) − 2 λ_p ṗ,   ṗ = v + ω × p
  // as the spatial base acceleration V̇₁ = (α; p̈ − α × p − ω × ṗ) (V₁ = (ω; v)
  // is the spatial twist, v = ṗ − ω × p), then the base wrench of inverse
  // dynamics at rest with that acceleration and q̈ = 0: the hover wrench plus
  // M̄_bb V̇₁ (M̄_bb, the top-left 6×6 block of M̄, is the base's locked
  // composite inertia; at zero velocities inverse dynamics is exactly the
  // gravity term plus M̄ ν̇). The rotor speeds: that wrench through the
  // controller's allocation (control::RotorAllocation: A⁺, and within the
  // rotor limits the weighted clamp-and-resolve that puts the moments and the
  // vertical force first). No heap: fixed-size Eigen, members.
  static constexpr double kAttitudeBandwidth = 10.0;  // λ_R (rad/s)
  static constexpr double kPositionBandwidth = 2.0;   // λ_p (rad/s)
  bool hold_position_attitude() {
    const sim::RobotPlantState<Robot>& x = plant_.state();
    const Eigen::Matrix3d& r = x.base_pose.rotation;
    const Eigen::Vector3d p = x.base_pose.translation;
    const Eigen::Vector3d w = x.base_twist.template head<3>();
    const Eigen::Vector3d p_dot = x.base_twist.template tail<3>() + w.cross(p);
    const Eigen::AngleAxisd error(Eigen::Matrix3d(hold_pose_.rotation.transpose() * r));
    const Eigen::Vector3d e_rotation = r * (error.angle() * error.axis());
    const Eigen::Vector3d alpha =
        -kAttitudeBandwidth * kAttitudeBandwidth * e_rotation - 2.0 * kAttitudeBandwidth * w;
    const Eigen::Vector3d p_ddot =
        -kPositionBandwidth * kPositionBandwidth * (p - hold_pose_.translation) -
        2.0 * kPositionBandwidth * p_dot;
    hold_motion_.base_pose = x.base_pose;
    hold_motion_.base_twist[0].setZero();
    hold_motion_.base_twist[1].template head<3>() = alpha;
    hold_motion_.base_twist[1].template tail<3>() = p_ddot - alpha.cross(p) - w.cross(p_dot);
    hold_motion_.q[0] = x.q;
    hold_motion_.q[1].setZero();
    hold_motion_.q[2].setZero();
    if (inverse_dynamics(model_, hold_id_, hold_motion_, 0) != Status::kOk) return false;
    Eigen::Matrix<double, kNumRotors, 1> speed_squared;
    const Status s = allocation_.speeds_squared(hold_id_.base_wrench_body[0], speed_squared);
    if (s != Status::kOk && s != Status::kActuatorSaturated) return false;
    for (int i = 0; i < kNumRotors; ++i)
      command_.rotor_speed[i] = std::sqrt(std::max(0.0, speed_squared(i)));
    return true;
  }

  void servo_hold_joints() {
    const sim::RobotPlantState<Robot>& x = plant_.state();
    for (int j = 0; j < kNumJoints; ++j) {
      const bool elastic =
          setup_.plant.robot.actuators[static_cast<std::size_t>(j)].drive == JointDrive::kElastic;
      const double position = elastic ? x.motor_position(j) : x.q(j);
      const double velocity = elastic ? x.motor_velocity(j) : x.q_dot(j);
      const double u =
          servo_torque_(j) + servo_kp_(j) * (servo_target_(j) - position) - servo_kd_(j) * velocity;
      command_.motor_torque[j] = std::clamp(u, -servo_limit_(j), servo_limit_(j));
    }
  }

  // --garbage: inside its window, with probability P per period, 1-32 random
  // non-zero bytes and a delimiter straight onto the link (sim -> fc), between
  // two frames: the receiver must reject exactly that chunk and lose no frame.
  void send_garbage(double t) {
    if (a_.garbage <= 0.0 || t < a_.garbage_start || t >= a_.garbage_start + a_.garbage_duration)
      return;
    if (garbage_random_.uniform() >= a_.garbage) return;
    std::uint8_t chunk[33];
    const std::size_t n = 1 + garbage_random_.next() % 32;
    for (std::size_t i = 0; i < n; ++i)
      chunk[i] = static_cast<std::uint8_t>(1 + garbage_random_.next() % 255);
    chunk[n] = 0x00;
    if (transport_.send(chunk, n + 1) == Status::kOk) {
      ++c_.garbage_chunks;
      c_.garbage_bytes += n + 1;
    }
  }

  static bool same_nonce(const std::uint8_t* a, const std::uint8_t* b) {
    for (std::size_t k = 0; k < link::kNonceSize; ++k)
      if (a[k] != b[k]) return false;
    return true;
  }

  const Args& a_;
  link::Transport& transport_;
  double dt_ = 1e-3;
  long steps_ = 0;
  cl::RobotScenarioSetup<Robot> setup_{};
  sim::RobotPlant<Robot> plant_;
  sim::SensorModel sensors_;
  /// The reference of the controller's robot (its own description).
  Reference trajectory_ = cl::ReferenceOf<Robot>::make(sim::default_description<Robot>());
  cl::RobotRunStatistics<Robot> stats_{1.0, -1.0};
  hodyn_command command_{};
  hil::FaultInjector<> out_, in_;
  hil::FrameSplitter splitter_;
  link::LinkKeys keys_;
  link::FrameSigner signer_{keys_};
  link::FrameVerifier peek_verifier_{keys_}, verifier_{keys_};  // one per parser
  std::uint8_t nonce_[link::kNonceSize] = {};
  std::uint64_t rejected_foreign_ = 0;
  tools::RecordFile* record_ = nullptr;
  hodyn_sensors sensor_frame_{};
  hodyn_reference reference_frame_{};
  std::uint32_t sensor_bits_ = 0;
  link::FrameParser peek_, parser_;
  std::uint8_t reference_wire_[link::kMaxWireSize] = {}, sensors_wire_[link::kMaxWireSize] = {};
  std::size_t reference_size_ = 0, sensors_size_ = 0;
  std::uint32_t link_sequence_ = 0;
  double last_frame_time_ = -1.0;
  bool have_delivered_ = false, have_applied_ = false, have_candidate_ = false;
  std::uint32_t delivered_newest_ = 0, applied_sequence_ = 0, candidate_sequence_ = 0;
  hodyn_command candidate_{};
  hodyn::plugin::RobotIdentity robot_{};
  link::Hello peer_hello_{};
  bool have_peer_hello_ = false;
  link::Hello hello_{};  ///< ours (the run nonce), sent again when the controller is lost
  std::FILE* trace_ = nullptr;
  long period_ = 0, hold_periods_ = 100, periods_without_command_ = 0, last_rehello_ = -1000000;
  long last_reference_period_ = 0;
  bool reference_due_ = true;
  double position_error_ = 0.0;
  std::uint32_t candidate_bits_ = 0, applied_bits_ = 0;
  std::uint64_t consecutive_timeouts_ = 0;
  bool safe_active_ = false, controller_lost_ = false, refused_since_answer_ = false;
  // The safe input's autopilot (hold_position_attitude): the plant's model,
  // its rotors' allocation, the pose held, the inverse dynamics' workspace.
  typename sim::PlantTraits<Robot>::Model model_{};
  control::RotorAllocation<double, kNumRotors> allocation_;
  Pose<double> hold_pose_{};
  MotionDerivatives<typename Robot::Tree, 0> hold_motion_{};
  InverseDynamicsData<typename Robot::Tree, 0> hold_id_{};
  // The joints' servo hold on the safe input (set_servo_hold).
  typename sim::PlantTraits<Robot>::JointVector servo_target_, servo_torque_, servo_kp_, servo_kd_,
      servo_limit_;
  bool heard_command_ = false;  ///< a COMMAND frame (any) arrived in this wait
  bool running_ = false;        ///< the run started (after the first answer)
  std::int64_t last_send_ns_ = 0;
  hil::SplitMix64 garbage_random_{1};
  link::HandshakeState handshake_ = link::HandshakeState::kWaiting;

 public:
  SimCounters c_;
  void set_statistics(double settle, double payload_time) {
    stats_ = cl::RobotRunStatistics<Robot>(settle, payload_time);
  }
  const cl::RobotScenarioSetup<Robot>& scenario_setup() const { return setup_; }
};

template <class Robot>
void SimHost<Robot>::print(std::FILE* out) const {
  const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  const auto faults = [&](const char* label, const hil::FaultCounters& f) {
    std::fprintf(out,
                 "  injector %s: %llu frames, lost %llu in outage, dropped %llu, corrupted %llu, "
                 "delayed %llu, duplicated %llu, reordered %llu, overflow %llu\n",
                 label, u(f.submitted), u(f.outage_lost), u(f.dropped), u(f.corrupted),
                 u(f.delayed), u(f.duplicated), u(f.reordered), u(f.overflow));
  };
  std::fprintf(out, "hodyn-sim link summary\n");
  std::fprintf(out, "  handshake: %s (HELLO sent %llu, answers %llu)\n",
               link::to_string(handshake_), u(c_.hellos_sent), u(c_.hellos_received));
  std::fprintf(out,
               "  frames sent %llu (%llu send failures), sensor frames %llu, reference frames "
               "%llu (every %ld periods), values binary%d\n",
               u(c_.frames_sent), u(c_.send_failures), u(c_.sensor_frames), u(c_.reference_frames),
               a_.reference_every, a_.wire_float == link::ValueFormat::kFloat32 ? 32 : 64);
  std::fprintf(out,
               "  link: %s; %llu datagrams of others dropped, %llu stale HELLO answers, %llu "
               "frames not signed\n",
               keys_.enabled() ? "signed (SipHash-2-4-128)" : "unsigned", u(rejected_foreign_),
               u(c_.stale_hello_answers), u(c_.sign_failures));
  faults("sim->fc", out_.counters());
  faults("fc->sim", in_.counters());
  tools::print_link_counters(out, "received", parser_.counters());
  std::fprintf(out,
               "  commands received %llu, applied %llu, stale %llu, from the watchdog %llu; "
               "missed %llu periods, %llu command timeouts, outage periods %llu\n",
               u(c_.commands_received), u(c_.commands_applied), u(c_.stale_commands),
               u(c_.watchdog_commands_received), u(c_.missed_commands), u(c_.command_timeouts),
               u(c_.outage_periods));
  std::fprintf(out,
               "  without a command: %llu periods held, %llu with the safe input (%s; %llu "
               "engagements); %llu refused commands, %llu HELLOs resent, %llu controller "
               "session(s); %llu garbage chunks\n",
               u(c_.held_periods), u(c_.safe_input_periods),
               a_.safe_input == SafeInput::kHold ? "hold" : "hover", u(c_.safe_input_engagements),
               u(c_.refused_commands), u(c_.rehellos_sent), u(c_.controller_sessions),
               u(c_.garbage_chunks));
  std::fprintf(out, "  silences of >= 15 ms between sends %llu (longest %.1f ms)\n",
               u(c_.send_silences), c_.send_gap_max_s * 1e3);
  if (c_.commands_expected > 0)
    std::fprintf(out, "  round trip (wait for the command) mean %.1f us, max %.1f us\n",
                 c_.wait_total_s / static_cast<double>(c_.commands_expected) * 1e6,
                 c_.wait_max_s * 1e6);
}

template <class Robot>
void SimHost<Robot>::add_json(tools::JsonObject& j) const {
  const auto faults = [&](const std::string& p, const hil::FaultCounters& f) {
    j.integer(p + "submitted", f.submitted);
    j.integer(p + "outage_lost", f.outage_lost);
    j.integer(p + "dropped", f.dropped);
    j.integer(p + "corrupted", f.corrupted);
    j.integer(p + "delayed", f.delayed);
    j.integer(p + "duplicated", f.duplicated);
    j.integer(p + "reordered", f.reordered);
    j.integer(p + "overflow", f.overflow);
    j.integer(p + "released", f.released);
  };
  j.string("handshake", link::to_string(handshake_));
  j.integer("robot_id", robot_.id);
  j.integer("controller_robot_id", have_peer_hello_ ? peer_hello_.robot_id : 0u);
  j.string("controller_verdict",
           have_peer_hello_ ? hodyn::to_string(controller_verdict()) : "no answer");
  j.integer("hellos_sent", c_.hellos_sent);
  j.integer("hellos_received", c_.hellos_received);
  j.string("link_security", keys_.enabled() ? "signed" : "unsigned");
  j.integer("stale_hello_answers", c_.stale_hello_answers);
  j.integer("sign_failures", c_.sign_failures);
  j.integer("rx_rejected_foreign", rejected_foreign_);
  j.integer("frames_sent", c_.frames_sent);
  j.integer("tx_corrupted_released", c_.tx_corrupted_released);
  j.integer("rx_corrupted_released", c_.rx_corrupted_released);
  j.integer("send_failures", c_.send_failures);
  j.integer("sensor_frames", c_.sensor_frames);
  j.integer("reference_frames", c_.reference_frames);
  j.integer("reference_every", static_cast<std::uint64_t>(a_.reference_every));
  j.integer("wire_float", a_.wire_float == link::ValueFormat::kFloat32 ? 32u : 64u);
  faults("tx_injector_", out_.counters());
  faults("rx_injector_", in_.counters());
  tools::add_link_counters(j, "rx_", parser_.counters());
  j.integer("raw_frames_received", c_.raw_frames_received);
  j.integer("commands_received", c_.commands_received);
  j.integer("commands_applied", c_.commands_applied);
  j.integer("stale_commands", c_.stale_commands);
  j.integer("watchdog_commands_received", c_.watchdog_commands_received);
  j.integer("missed_commands", c_.missed_commands);
  j.integer("commands_expected", c_.commands_expected);
  j.integer("command_timeouts", c_.command_timeouts);
  j.integer("outage_periods", c_.outage_periods);
  j.integer("refused_commands", c_.refused_commands);
  j.integer("rehellos_sent", c_.rehellos_sent);
  j.integer("controller_sessions", c_.controller_sessions);
  j.integer("held_periods", c_.held_periods);
  j.integer("safe_input_periods", c_.safe_input_periods);
  j.integer("safe_input_engagements", c_.safe_input_engagements);
  j.integer("safe_input_failures", c_.safe_input_failures);
  j.string("safe_input", a_.safe_input == SafeInput::kHold ? "hold" : "hover");
  j.integer("garbage_chunks", c_.garbage_chunks);
  j.integer("garbage_bytes", c_.garbage_bytes);
  j.integer("send_silences", c_.send_silences);
  j.number("send_gap_max_s", c_.send_gap_max_s);
  j.number("round_trip_mean_s", c_.commands_expected > 0
                                    ? c_.wait_total_s / static_cast<double>(c_.commands_expected)
                                    : 0.0);
  j.number("round_trip_max_s", c_.wait_max_s);
}

/// The whole program for robot type `Robot` (`tool` names it in messages).
template <class Robot>
int run(const char* tool, int argc, char** argv) {
  static Args args;
  const int parsed = parse_args(tool, Robot::kName, argc, argv, args);
  if (parsed >= 0) return parsed;
  if (args.list_robots) {
    std::printf("%s\n", Robot::kName);
    return 0;
  }
  std::uint8_t key[link::kLinkKeySize] = {};
  bool have_key = false;
  if (!tools::load_link_key(tool, args.link, key, have_key)) return 2;
  static tools::LinkEndpoint endpoint;
  // Lockstep awaits every frame: a serial send waits for a slow reader
  // rather than drop the frame (docs/hil.md, "The flake").
  if (!args.realtime) args.link.serial_send_timeout_us = 1'000'000;
  if (!endpoint.open(tool, args.link)) return 1;
  static SimHost<Robot> host(args, endpoint.transport());
  if (have_key) {
    const Status keyed = host.enable_authentication(key, sizeof key);
    posix::wipe(key, sizeof key);
    if (keyed != Status::kOk) {
      std::cerr << tool << ": cannot use the key of " << args.link.key_file << "\n";
      return 2;
    }
  }
  Status s = host.setup();
  if (s != Status::kOk) {
    std::cerr << tool << ": setup failed: " << hodyn::to_string(s) << "\n";
    return 1;
  }
  static tools::RecordFile record;
  if (!args.record.empty()) {
    if (!record.open(tool, args.record)) return 1;
    host.set_record(&record);
  }
  std::FILE* trace = nullptr;
  if (!args.trace.empty()) {
    trace = std::fopen(args.trace.c_str(), "w");
    if (trace == nullptr) {
      std::cerr << tool << ": cannot write " << args.trace << "\n";
      return 1;
    }
    std::fprintf(trace, "k,t,position_error_m,source,mode,watchdog\n");
    host.set_trace(trace);
  }
  const auto& d = host.scenario_setup().disturbances;
  host.set_statistics(args.settle, d.has_payload ? d.payload.time : -1.0);
  static posix::StopFlag stop;
  (void)posix::install_stop_signal_handlers(stop);
  std::printf("hodyn-sim: scenario %s, %.1f s at %.0f Hz (plant %.0f Hz), %s mode, %s\n",
              cl::scenario_name(args.scenario), args.duration, args.rate, args.plant_rate,
              args.realtime ? "realtime" : "lockstep", endpoint.description().c_str());
  std::printf("hodyn-sim: robot %s%s, %s frames\n", describe(host.robot()).c_str(),
              args.override_robot_id ? " (id overridden by --robot-id-override)" : "",
              host.authenticated() ? "signed" : "unsigned");
  std::fflush(stdout);

  const HelloResult hello = host.hello(stop);
  if (hello == HelloResult::kNoAnswer) {
    std::cerr << tool << ": no HELLO answer from the controller within " << args.start_timeout
              << " s" << (host.authenticated() ? " (is it given the same --key-file?)" : "")
              << "\n";
    return 1;
  }
  if (hello == HelloResult::kRobotMismatch) {
    std::cerr << tool << ": " << hodyn::to_string(Status::kRobotMismatch)
              << ": the simulator flies " << describe(host.robot()) << ", the controller "
              << describe(host.controller_robot())
              << " (its verdict: " << hodyn::to_string(host.controller_verdict())
              << "); not starting\n";
    host.finish(0);  // the end-of-run frame: a controller firmware stops at once
    host.set_rejected_foreign(endpoint.rejected_foreign());
    host.print(stdout);
    if (!args.summary_json.empty()) {
      tools::JsonObject j;
      j.string("tool", "hodyn-sim");
      j.string("mode", args.realtime ? "realtime" : "lockstep");
      j.string("link", endpoint.description());
      j.integer("periods", 0);
      host.add_json(j);
      if (!j.write(args.summary_json))
        std::cerr << tool << ": cannot write " << args.summary_json << "\n";
    }
    return kExitRobotMismatch;
  }
  std::printf("hodyn-sim: the controller flies the same robot\n");
  std::fflush(stdout);

  if (!host.handshake(stop)) {
    std::cerr << tool << ": no answer from the controller within " << args.start_timeout << " s\n";
    return 1;
  }
  const long steps = host.steps();
  long done = 0;
  static posix::PeriodicLoop loop(std::llround(1e9 / args.rate));
  const std::int64_t t0 = now_ns();
  if (!args.realtime) {
    for (long k = 0; k < steps && !stop.stop_requested(); ++k) {
      const std::uint32_t target = host.begin_period(k);
      if (k > 0) host.lockstep_wait(target, k, stop);
      s = host.end_period();
      if (s != Status::kOk) break;
      done = k + 1;
    }
  } else {
    const posix::RealtimeReport report = posix::apply_realtime_setup(args.rt, stderr);
    posix::print_realtime_report(report, args.rt, stdout);
    // Wake k: the command that arrived during period k-1 drives the plant over
    // it; then period k's frames go out.
    host.begin_period(0);
    auto step = [&](const posix::LoopTick& tick) -> bool {
      const long k = static_cast<long>(tick.iteration) + 1;
      const double t_prev = static_cast<double>(k - 1) * host.dt();
      while (host.receive(0, t_prev)) {
      }
      host.deliver(static_cast<double>(k) * host.dt());
      s = host.end_period();
      if (s != Status::kOk) return false;
      done = k;
      if (k >= steps) return false;
      (void)host.begin_period(k);
      return true;
    };
    (void)loop.run(step, static_cast<std::uint64_t>(steps), &stop);
  }
  const double wall = static_cast<double>(now_ns() - t0) * 1e-9;
  if (trace != nullptr) std::fclose(trace);
  host.finish(done);
  host.set_rejected_foreign(endpoint.rejected_foreign());
  if (!record.close(tool)) return 1;
  if (s != Status::kOk) {
    std::cerr << tool << ": simulator error: " << hodyn::to_string(s) << "\n";
    return 1;
  }

  cl::RunSummary summary;
  host.summarize(summary);
  summary.steps = done;
  cl::print_run_summary(summary, stdout, false);
  host.print(stdout);
  std::printf("  %ld periods in %.2f s wall time (%.2fx real time)\n", done, wall,
              static_cast<double>(done) / args.rate / wall);
  if (args.realtime) loop.print_summary(stdout);
  if (!args.summary_json.empty()) {
    tools::JsonObject j;
    j.string("tool", "hodyn-sim");
    j.string("mode", args.realtime ? "realtime" : "lockstep");
    j.string("link", endpoint.description());
    j.raw("tracking", "{\n" + cl::run_summary_json_members(summary, "    ", false) + "\n  }");
    j.integer("periods", static_cast<std::uint64_t>(done));
    j.number("wall_time_s", wall);
    host.add_json(j);
    if (args.realtime) {
      const auto& st = loop.statistics();
      j.integer("loop_iterations", st.iterations);
      j.integer("loop_deadline_misses", st.deadline_misses);
      j.number("loop_period_median_s", static_cast<double>(st.period.median()) * 1e-9);
      j.number("loop_period_p99_s", static_cast<double>(st.period.p99()) * 1e-9);
      j.number("loop_period_max_s", static_cast<double>(st.period.max()) * 1e-9);
      j.number("loop_wake_latency_p99_s", static_cast<double>(st.wake_latency.p99()) * 1e-9);
    }
    if (!j.write(args.summary_json)) {
      std::cerr << tool << ": cannot write " << args.summary_json << "\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace sim_program

/// hodyn-sim for robot type `Robot`: its plant (sim::RobotPlant<Robot>, the
/// robot's own description), sensor model and reference (the 12-DoF robot:
/// Table 3; any other: closed_loop::robot_reference), its HELLO naming
/// Robot. `tool` names the program in its messages.
template <class Robot>
int run_hodyn_sim(int argc, char** argv, const char* tool = "hodyn-sim") {
  return sim_program::run<Robot>(tool, argc, argv);
}

}  // namespace hil_tools
}  // namespace hodyn
