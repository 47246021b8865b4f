// hodyn/link/controller_host.hpp — the controller side of the HIL link
// (docs/hil.md), shared by hodyn-fc (POSIX) and the controller firmware (bare
// metal): FrameParser → SequenceMonitor → the plugin's update() → a COMMAND
// answering the sensor sequence, with the reference ring and the watchdog.
//
//   static ControllerHost<32 * 1024> host(transport, 20);   // static storage
//   host.open(plugin_registry().find("feedback_linearization", MyRobot::kId),
//             plugin::robot_identity<MyRobot>(), 1000.0);
//   for (;;) {                         // once per control period:
//     host.poll(timeout_us);           // until has_pending() or the period is over
//     host.period();                   // update + COMMAND, or a watchdog tick
//   }
//
// The run starts with the HELLO handshake (docs/link-protocol.md): every
// HELLO of the simulator is answered with the plugin's robot and the
// verdict. Until a HELLO of the same robot arrived the host stays disarmed
// and answers each SENSORS frame with a disarmed COMMAND (status
// kNotConfigured, bit kHandshakeRefused) without running the plugin; after a
// HELLO of another robot it does so for good, with status kRobotMismatch
// (open() again to start over).
//
// Signed link (docs/link-security.md): enable_authentication() gives the host
// the shared key and this boot's id. Every frame must then be signed; each
// simulator HELLO with a new nonce starts a session whose keys mix in the
// controller's nonce (boot id + session index, never the same twice), so
// frames recorded from any earlier session, replayed whole, fail their MAC:
// they neither arm the controller nor reach the plugin.
//
// A restarted simulator (docs/hil.md, "Process faults"): every simulator
// run has its own random run nonce in its HELLO (signed or not). A HELLO
// with another nonce than the run's flown so far starts a new run: the
// sequence monitor forgets the old run's numbers (the new run counts from 0
// again), the reference ring is emptied and the plugin is reset (its stale-
// time check would refuse the new run's earlier times). On a signed link
// that HELLO must also pass its MAC and carry a HELLO counter above every
// earlier one, and it starts a new session (keys with a new nonce of ours),
// so the replay rules are those of any new session.
//
// Value format (docs/link-protocol.md): the host answers with COMMANDs in the
// format of the newest accepted SENSORS frame (binary32 to a simulator that
// sends binary32), so the simulator chooses it for both directions.
//
// Float frames (ControllerHost<Capacity, float>): for a firmware image
// whose controller is float and linked in (plugin/float_frames.hpp). The
// parser decodes SENSORS and REFERENCE into float frames, the references are
// stored and carried in float, and the plugin's float_update
// (plugin::FloatFramePlugin, open(FloatFramePlugin, ...)) answers in a float
// command: no float <-> double conversion on the way, which on a
// single-precision FPU was a library call per value (~300 a period on the
// STM32F405, docs/firmware.md). The bytes on the link are the same.
//
// Time is the caller's: the host only counts control periods. Heap-free,
// exception-free, RTTI-free; the plugin instance lives inside (Capacity bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "hodyn/link/frame_parser.hpp"
#include "hodyn/link/handshake.hpp"
#include "hodyn/link/link_monitor.hpp"
#include "hodyn/link/protocol.hpp"
#include "hodyn/link/receive.hpp"
#include "hodyn/link/reference_extrapolation.hpp"
#include "hodyn/link/security.hpp"
#include "hodyn/link/time_order.hpp"
#include "hodyn/link/transport.hpp"
#include "hodyn/plugin/c_adapter.hpp"
#include "hodyn/plugin/float_frames.hpp"
#include "hodyn/plugin/plugin_instance.hpp"
#include "hodyn/plugin/robot_identity.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace link {

/// Told about every plugin update (e.g. to time it): `control_step` is false
/// for the watchdog's safe-command updates.
class UpdateObserver {
 public:
  virtual void before_update() noexcept = 0;
  virtual void after_update(bool control_step) noexcept = 0;
  /// Every COMMAND the host sent (e.g. to record it); nothing by default.
  virtual void command_sent(const hodyn_command& /*command*/, std::uint32_t /*answered_sequence*/,
                            std::uint32_t /*status_bits*/) noexcept {}
  /// The same for a host on float frames (ControllerHost<Capacity, float>).
  virtual void float_command_sent(const plugin::CommandF32& /*command*/,
                                  std::uint32_t /*answered_sequence*/,
                                  std::uint32_t /*status_bits*/) noexcept {}

 protected:
  UpdateObserver() = default;
  UpdateObserver(const UpdateObserver&) = default;
  UpdateObserver& operator=(const UpdateObserver&) = default;
  ~UpdateObserver() = default;  // never deleted through the interface
};

/// What a ControllerHost counted.
struct ControllerHostCounters {
  std::uint64_t sensors_received = 0;     ///< SENSORS frames (any verdict)
  std::uint64_t references_received = 0;  ///< REFERENCE frames
  std::uint64_t paused_frames = 0;        ///< SENSORS with kSimulatorPaused (end of run)
  std::uint64_t unexpected = 0;           ///< COMMAND frames, HELLOs of a controller
  std::uint64_t hellos_received = 0;      ///< HELLO frames of the simulator
  std::uint64_t hello_answers_sent = 0;   ///< the controller's HELLO answers
  std::uint64_t refused_frames = 0;       ///< SENSORS answered disarmed by the handshake
  std::uint64_t updates = 0;              ///< control updates (not the watchdog's)
  std::uint64_t watchdog_commands = 0;    ///< safe commands while the watchdog is engaged
  std::uint64_t plugin_rejected = 0;      ///< sensor frames the plugin refused
  std::uint64_t safe_commands = 0;        ///< commands in HOLD or HOVER mode
  std::uint64_t commands_sent = 0;
  std::uint64_t control_commands = 0;  ///< commands in TRACKING or SATURATED mode
  std::uint64_t send_failures = 0;
  std::uint64_t reference_stale = 0;  ///< updates without the reference of their time
  /// Updates whose reference was an older one carried to their time
  /// (within the horizon; not stale).
  std::uint64_t reference_extrapolated = 0;
  std::uint64_t sessions = 0;  ///< signed sessions started (simulator HELLOs with a new nonce)
  std::uint64_t runs = 0;      ///< simulator runs: HELLOs with a new run nonce (restarts + 1)
};

/// Bytes of the boot id a signed controller mixes into its nonces.
constexpr std::size_t kBootIdSize = 8;

/// `Value`: the frames' real values, double (the plugin ABI) or float (see above).
template <std::size_t PluginCapacity, class Value = double>
class ControllerHost {
  static_assert(std::is_same<Value, double>::value || std::is_same<Value, float>::value,
                "frames are double or float");
  static constexpr bool kFloatFrames = std::is_same<Value, float>::value;

 public:
  using Sensors = typename plugin::Frames<Value>::Sensors;
  using Reference = typename plugin::Frames<Value>::Reference;
  using Command = typename plugin::Frames<Value>::Command;
  static constexpr std::size_t kReferenceRing = 8;
  /// Default longest extrapolation of a reference (s): 50 periods at 1 kHz.
  static constexpr double kDefaultReferenceHorizon = 0.05;

  ControllerHost(Transport& transport, std::uint32_t watchdog_periods) noexcept
      : transport_(transport), watchdog_(watchdog_periods) {
    parser_.set_verifier(&verifier_);
    parser_.set_float_frames(kFloatFrames);
  }
  ControllerHost(const ControllerHost&) = delete;
  ControllerHost& operator=(const ControllerHost&) = delete;

  /// Opens the plugin for `robot` (kRobotMismatch, nothing open, when it is
  /// built for another one) and gives it `rate_hz` ("rate_hz"). The
  /// handshake starts over.
  Status open(const hodyn_plugin_api* api, const plugin::RobotIdentity& robot,
              double rate_hz) noexcept {
    static_assert(!kFloatFrames, "a float-frame host opens a FloatFramePlugin");
    return configure_rate(controller_.open(api, robot), rate_hz);
  }
  /// The same for whatever robot the plugin is built for (a host that loads
  /// any plugin, e.g. hodyn-fc --plugin): the handshake checks that robot.
  Status open(const hodyn_plugin_api* api, double rate_hz) noexcept {
    static_assert(!kFloatFrames, "a float-frame host opens a FloatFramePlugin");
    return configure_rate(controller_.open(api), rate_hz);
  }
  /// A float-frame host: opens `plugin.api` for `robot` as above and steps
  /// it through `plugin.update` (kInvalidArgument without one).
  Status open(const plugin::FloatFramePlugin& plugin, const plugin::RobotIdentity& robot,
              double rate_hz) noexcept {
    static_assert(kFloatFrames, "a double-frame host opens a hodyn_plugin_api");
    float_update_ = plugin.update;
    if (plugin.update == nullptr) {
      controller_.close();
      return configure_rate(Status::kInvalidArgument, rate_hz);
    }
    return configure_rate(controller_.open(plugin.api, robot), rate_hz);
  }
  void close() noexcept { controller_.close(); }
  /// Sets run-time parameters of the open plugin (its parameter table, e.g.
  /// "max_position_error"), all or nothing; they outlive a new simulator
  /// run (its reset() keeps the configuration).
  Status configure(const hodyn_parameter* parameters, std::size_t count) noexcept {
    return controller_.configure(parameters, count);
  }
  void set_update_observer(UpdateObserver* observer) noexcept { observer_ = observer; }
  /// A sensor time without its own REFERENCE gets the newest earlier one
  /// carried to it along its derivatives (extrapolate_reference) when that
  /// one is at most `seconds` older (docs/hil.md, "Reference rate"); beyond,
  /// the newest earlier one as it is, with kReferenceStale. 0 turns it off.
  void set_reference_horizon(double seconds) noexcept {
    reference_horizon_ = seconds > 0.0 ? seconds : 0.0;
  }
  double reference_horizon() const noexcept { return reference_horizon_; }

  /// Signs and checks every frame with the shared key (kLinkKeySize bytes;
  /// kInvalidArgument, unsigned as before, for another size or zeros).
  /// `boot_id` must differ on every start of this controller (a boot counter
  /// from non-volatile memory, or random bytes): it makes the controller's
  /// session nonces, and so every session's keys, new. `hello_counter`: the
  /// first counter of its HELLO answers, which must never repeat across
  /// starts either (boot counter << 32, or the wall clock in ns).
  Status enable_authentication(const std::uint8_t* key, std::size_t size,
                               const std::uint8_t boot_id[kBootIdSize],
                               std::uint64_t hello_counter) noexcept {
    const Status s = keys_.set_master_key(key, size, LinkEnd::kController);
    verifier_.reset();
    if (s != Status::kOk) return s;
    for (std::size_t k = 0; k < kBootIdSize; ++k) boot_id_[k] = boot_id[k];
    session_index_ = 0;
    signer_.set_hello_counter(hello_counter);
    return Status::kOk;
  }
  /// Frames must be signed (a shared key is set).
  bool authenticated() const noexcept { return keys_.enabled(); }

  /// Feeds received bytes (any chunking) and handles every message.
  void receive_bytes(const std::uint8_t* data, std::size_t size) noexcept {
    parse_bytes(parser_, data, size, [this](const Message& m) { handle(m); });
  }
  /// Feeds one COBS block whose 0x00 delimiter the caller has found (not
  /// included; the block holds no 0x00) and handles its message: the same as
  /// receive_bytes() of the block and a 0x00, decoded in the caller's buffer,
  /// which it overwrites (FrameParser::push_block).
  void receive_block(std::uint8_t* block, std::size_t size) noexcept {
    parser_.push_block(block, size);
    while (const Message* message = parser_.take()) handle(*message);
  }

  /// Receives once (at most `timeout_us`) and handles every message; returns
  /// the bytes received. A transport error marks the link failed.
  std::size_t poll(std::int64_t timeout_us) noexcept {
    return receive_once(
        transport_, timeout_us,
        [this](const std::uint8_t* data, std::size_t size) { receive_bytes(data, size); },
        &link_error_);
  }

  /// An accepted sensor frame waits for period().
  bool has_pending() const noexcept { return pending_; }

  /// One control period after the frames of the period: the update on the
  /// newest accepted sensor frame, or a watchdog tick (and the plugin's safe
  /// command while it is engaged). True when a command was sent.
  bool period() noexcept {
    if (pending_ && handshake_ != HandshakeState::kAgreed) {
      pending_ = false;
      send_refusal();
      return true;
    }
    if (pending_) {
      pending_ = false;
      watchdog_.frame_received();
      (void)watchdog_.tick();
      run_update(sensors_, 0);
      return true;
    }
    // Not started yet, the simulator ended, or the link itself failed (e.g. the
    // pty's other end hung up): nothing to guard, no watchdog ticks.
    if (!armed_ || paused_ || link_error_) return false;
    if (!watchdog_.tick()) return false;
    // The plugin's own safe path: a frame it rejects (NaN time) gives hold
    // (last good rotor speeds, limited torques) and after hold_timeout hover.
    Sensors& invalid = scratch_sensors_;
    invalid = sensors_;
    invalid.time = std::numeric_limits<double>::quiet_NaN();
    ++counters_.watchdog_commands;
    run_update(invalid, controller_status::kWatchdogEngaged);
    return true;
  }

  /// The handshake: waiting for the simulator's HELLO, agreed, or refused.
  HandshakeState handshake() const noexcept { return handshake_; }
  /// The robot this host flies (the open plugin's; all zero when closed).
  plugin::RobotIdentity robot() const noexcept { return controller_.robot(); }
  /// The robot of the simulator's newest HELLO (all zero before one).
  plugin::RobotIdentity peer_robot() const noexcept {
    return have_peer_ ? robot_of(peer_) : plugin::RobotIdentity{};
  }

  /// The simulator's end-of-run frame arrived (and no sensor frame after it).
  bool paused() const noexcept { return paused_; }
  /// A sensor frame has been accepted (the watchdog is armed).
  bool armed() const noexcept { return armed_; }
  bool link_failed() const noexcept { return link_error_; }
  std::uint64_t steps() const noexcept { return counters_.updates; }

  const ControllerHostCounters& counters() const noexcept { return counters_; }
  const FrameParser& parser() const noexcept { return parser_; }
  const SequenceMonitor& monitor() const noexcept { return monitor_; }
  const Watchdog& watchdog() const noexcept { return watchdog_; }
  const Command& last_command() const noexcept { return command_; }

 private:
  void handle(const Message& m) noexcept {
    switch (m.type) {
      case MessageType::kSensors: {
        ++counters_.sensors_received;
        if ((m.status_bits & sensor_status::kSimulatorPaused) != 0u) {
          ++counters_.paused_frames;
          paused_ = true;
          return;
        }
        if (monitor_.check(m.sensors.sequence) != SequenceMonitor::Verdict::kAccept) return;
        paused_ = false;
        answer_format_ = m.format;  // COMMANDs answer in the simulator's value format
        if (handshake_ == HandshakeState::kAgreed) armed_ = true;  // else answered disarmed
        sensors_ = sensors_of(m);
        pending_ = true;
        return;
      }
      case MessageType::kHello:
        handle_hello(m.hello);
        return;
      case MessageType::kReference: {
        ++counters_.references_received;
        references_[reference_next_] = reference_of(m);
        extrapolator_.forget();  // it may hold that slot's previous reference
        reference_next_ = (reference_next_ + 1) % kReferenceRing;
        if (reference_count_ < kReferenceRing) ++reference_count_;
        return;
      }
      case MessageType::kCommand:
        ++counters_.unexpected;
        return;
    }
  }

  Status configure_rate(Status opened, double rate_hz) noexcept {
    handshake_ = HandshakeState::kWaiting;
    have_peer_ = false;
    armed_ = false;
    if (opened != Status::kOk) return opened;
    hodyn_parameter p{};
    plugin::copy_name(p.name, "rate_hz");
    p.value = rate_hz;
    return controller_.configure(&p, 1);
  }

  // A HELLO of the simulator: compare, remember a mismatch for good, answer
  // with our robot and the verdict (every HELLO: the answer may be lost).
  void handle_hello(const Hello& hello) noexcept {
    if (hello.role != hello_role::kSimulator) {
      ++counters_.unexpected;
      return;
    }
    ++counters_.hellos_received;
    // A new simulator run (another run nonce): resynchronise on its numbers.
    const bool new_run = !have_peer_ || !same_nonce(hello.nonce, peer_.nonce);
    if (new_run) {
      ++counters_.runs;
      if (have_peer_) start_new_run();
    }
    peer_ = hello;
    have_peer_ = true;
    // Signed: a HELLO (authentic, its counter above every earlier one) with a
    // nonce other than the session's starts a new session with a new nonce
    // of ours; a resent HELLO of the same session gets the same answer.
    std::uint8_t our_nonce[kNonceSize] = {};
    if (keys_.enabled()) {
      if (keys_.session() == 0 || !same_nonce(hello.nonce, keys_.simulator_nonce())) {
        ++session_index_;
        make_nonce(our_nonce);
        keys_.start_session(hello.nonce, our_nonce);
        ++counters_.sessions;
      }
      for (std::size_t k = 0; k < kNonceSize; ++k) our_nonce[k] = keys_.controller_nonce()[k];
    }
    const plugin::RobotIdentity ours = controller_.robot();
    Status verdict = Status::kNotConfigured;  // no plugin: nothing to fly
    if (controller_.is_open()) verdict = plugin::compare_robots(ours, robot_of(hello));
    if (verdict == Status::kRobotMismatch) handshake_ = HandshakeState::kRobotMismatch;
    if (handshake_ == HandshakeState::kRobotMismatch) {
      verdict = Status::kRobotMismatch;
    } else if (verdict == Status::kOk) {
      handshake_ = HandshakeState::kAgreed;
    }
    Hello answer = make_hello(ours, hello_role::kController, verdict);
    for (std::size_t k = 0; k < kNonceSize; ++k) {
      answer.nonce[k] = our_nonce[k];         // zeros on an unsigned link
      answer.peer_nonce[k] = hello.nonce[k];  // the run (HELLO) this answers
    }
    std::size_t written = 0;
    if (encode(answer, link_sequence_++, wire_, sizeof wire_, written, &signer_) != Status::kOk ||
        transport_.send(wire_, written) != Status::kOk) {
      ++counters_.send_failures;
      link_error_ = true;
      return;
    }
    ++counters_.hello_answers_sent;
  }

  // The previous simulator run is over (it was restarted): its sequence
  // numbers, references and the plugin's state (times) go. The watchdog keeps
  // its state (engaged, it is released by the new run's first accepted
  // frame) but is disarmed until that frame: its safe commands would answer
  // the old run's newest sequence, which the new simulator would take for an
  // answer of its own (measured: a new run that applied a command
  // "answering" 3807 and then refused all its own as older).
  void start_new_run() noexcept {
    monitor_.restart();
    armed_ = false;
    reference_count_ = 0;
    reference_next_ = 0;
    extrapolator_.forget();
    pending_ = false;
    paused_ = false;
    controller_.reset();
  }

  // A sensor frame before an agreed handshake: a disarmed command (rotors
  // stopped, torques zero), the plugin not run, no watchdog.
  void send_refusal() noexcept {
    const plugin::RobotIdentity ours = controller_.robot();
    command_ = Command{};
    command_.time = sensors_.time;
    if (ours.num_joints <= HODYN_MAX_JOINTS && ours.num_rotors <= HODYN_MAX_ROTORS) {
      command_.num_joints = ours.num_joints;
      command_.num_rotors = ours.num_rotors;
    }
    command_.mode = HODYN_MODE_DISARMED;
    command_.status = static_cast<std::int32_t>(handshake_ == HandshakeState::kRobotMismatch
                                                    ? Status::kRobotMismatch
                                                    : Status::kNotConfigured);
    ++counters_.refused_frames;
    send_command(controller_status::kHandshakeRefused);
  }

  static bool same_nonce(const std::uint8_t* a, const std::uint8_t* b) noexcept {
    for (std::size_t k = 0; k < kNonceSize; ++k)
      if (a[k] != b[k]) return false;
    return true;
  }

  // Our nonce of a new session: the boot id, then the session index (LE).
  void make_nonce(std::uint8_t nonce[kNonceSize]) const noexcept {
    for (std::size_t k = 0; k < kBootIdSize; ++k) nonce[k] = boot_id_[k];
    for (std::size_t k = 0; k < 8; ++k)
      nonce[kBootIdSize + k] = static_cast<std::uint8_t>(session_index_ >> (8 * k));
  }

  void send_command(std::uint32_t bits) noexcept {
    std::size_t written = 0;
    if (encode(command_, monitor_.newest(), bits, link_sequence_++, wire_, sizeof wire_, written,
               &signer_, answer_format_) != Status::kOk ||
        transport_.send(wire_, written) != Status::kOk) {
      ++counters_.send_failures;
      link_error_ = true;  // the other end is gone (a pty hang-up) or the link broke
      return;
    }
    ++counters_.commands_sent;
    if (command_.mode == HODYN_MODE_TRACKING || command_.mode == HODYN_MODE_SATURATED)
      ++counters_.control_commands;
    if (observer_ != nullptr) {
      if constexpr (kFloatFrames) {
        observer_->float_command_sent(command_, monitor_.newest(), bits);
      } else {
        observer_->command_sent(command_, monitor_.newest(), bits);
      }
    }
  }

  // The reference of the sensor frame's time; else the newest one not after
  // it; else the newest one (kReferenceStale in both fallbacks; run_update
  // carries a recent enough earlier one forward instead). Times compare by
  // time_less & co. (time_order.hpp: integers where double is software).
  const Reference* reference_for(double t, bool& exact) const noexcept {
    // Each time's key once (time_order.hpp): its bit pattern was decoded in
    // every comparison, ~4 a stored reference (~300 instructions a period on
    // the F405).
    const TimeKey at = time_key(t);
    const Reference* best = nullptr;
    const Reference* newest = nullptr;
    TimeKey best_key, newest_key;
    exact = false;
    for (std::size_t k = 0; k < reference_count_; ++k) {
      const Reference& r = references_[k];
      const TimeKey key = time_key(r.time);
      if (newest == nullptr || time_less(newest_key, key)) {
        newest = &r;
        newest_key = key;
      }
      if (time_equal(key, at)) {
        exact = true;
        return &r;
      }
      if (time_less_equal(key, at) && (best == nullptr || time_less(best_key, key))) {
        best = &r;
        best_key = key;
      }
    }
    return best != nullptr ? best : newest;
  }

  void run_update(const Sensors& sensors, std::uint32_t bits) noexcept {
    bool exact = false;
    const Reference* ref = reference_for(sensors.time, exact);
    // An earlier reference within the horizon: carried to the sensor time
    // (false for the watchdog's NaN time).
    // (τ computed once, for the horizon and the carry: a library call where
    // double is software; the horizon test as the FPU answers it.)
    double tau = 0.0;
    if (!exact && ref != nullptr && time_less(ref->time, sensors.time) &&
        time_less_equal(tau = sensors.time - ref->time, reference_horizon_)) {
      extrapolator_.carry(*ref, sensors.time, tau, extrapolated_);
      ref = &extrapolated_;
      exact = true;
      ++counters_.reference_extrapolated;
    }
    if (!exact) {
      bits |= controller_status::kReferenceStale;
      ++counters_.reference_stale;
    }
    const bool control_step = (bits & controller_status::kWatchdogEngaged) == 0u;
    if (observer_ != nullptr) observer_->before_update();
    const Status s = update_plugin(sensors, ref != nullptr ? *ref : no_reference_);
    if (observer_ != nullptr) observer_->after_update(control_step);
    if (control_step) ++counters_.updates;
    // A frame the plugin refused (its safe path answered); kReferenceJump and
    // kActuatorSaturated still carry the control law and are not refusals.
    const bool refused =
        s != Status::kOk && s != Status::kReferenceJump && s != Status::kActuatorSaturated;
    if (refused && control_step) {
      bits |= controller_status::kSensorFrameRejected;
      ++counters_.plugin_rejected;
    }
    if (command_.mode == HODYN_MODE_HOLD || command_.mode == HODYN_MODE_HOVER)
      ++counters_.safe_commands;
    send_command(bits);
  }

  static const Sensors& sensors_of(const Message& m) noexcept {
    if constexpr (kFloatFrames) {
      return m.sensors_f32;  // the parser decodes float frames (constructor)
    } else {
      return m.sensors;
    }
  }
  static const Reference& reference_of(const Message& m) noexcept {
    if constexpr (kFloatFrames) {
      return m.reference_f32;
    } else {
      return m.reference;
    }
  }

  Status update_plugin(const Sensors& sensors, const Reference& reference) noexcept {
    if constexpr (kFloatFrames) {
      void* self = controller_.instance();
      if (self == nullptr || float_update_ == nullptr) {  // as PluginInstance::update
        command_ = Command{};
        command_.status = static_cast<std::int32_t>(Status::kNotConfigured);
        return Status::kNotConfigured;
      }
      return static_cast<Status>(float_update_(self, &sensors, &reference, &command_));
    } else {
      return controller_.update(sensors, reference, command_);
    }
  }

  Transport& transport_;
  UpdateObserver* observer_ = nullptr;
  plugin::PluginInstance<PluginCapacity> controller_;
  LinkKeys keys_;
  FrameSigner signer_{keys_};
  FrameVerifier verifier_{keys_};
  std::uint8_t boot_id_[kBootIdSize] = {};
  std::uint64_t session_index_ = 0;
  FrameParser parser_;
  SequenceMonitor monitor_;
  Watchdog watchdog_;
  Sensors sensors_{};
  Sensors scratch_sensors_{};
  Command command_{};
  Reference no_reference_{};
  Reference references_[kReferenceRing] = {};
  Reference extrapolated_{};
  BasicReferenceExtrapolator<Reference>
      extrapolator_;  // the newest reference carried: prepared once
  double reference_horizon_ = kDefaultReferenceHorizon;
  std::uint8_t wire_[kMaxWireSize] = {};
  std::size_t reference_next_ = 0, reference_count_ = 0;
  ValueFormat answer_format_ = ValueFormat::kFloat64;
  bool pending_ = false, armed_ = false, paused_ = false, link_error_ = false;
  HandshakeState handshake_ = HandshakeState::kWaiting;
  Hello peer_{};
  bool have_peer_ = false;
  std::uint32_t link_sequence_ = 0;
  ControllerHostCounters counters_{};
  plugin::FloatFramePlugin::Update float_update_ = nullptr;  // a float-frame host's plugin step
};

}  // namespace link
}  // namespace hodyn
