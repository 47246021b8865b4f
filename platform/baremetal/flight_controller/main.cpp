// platform/baremetal/flight_controller/main.cpp — the controller firmware: the
// hodyn-fc loop on bare metal (docs/firmware.md, "Controller firmware").
//
// Link-protocol frames arrive on the board's UART (SerialPortTransport); the
// shared hodyn::link::ControllerHost runs FrameParser → SequenceMonitor → the
// statically registered plugin's update() → a COMMAND answering the sensor
// sequence, with the reference ring and the watchdog, exactly as hodyn-fc.
// All instance storage is static; nothing allocates.
//
// Lockstep, as hodyn-fc's default mode: each iteration waits up to one control
// period (SysTick time) for an accepted sensor frame; with one it updates and
// answers, without one it ticks the watchdog. On a link slower than the frame
// rate (a UART, QEMU's UART in particular) a frame takes longer than a period
// to arrive, so every received byte restarts the period's wait: a frame in
// flight is not an outage, and the watchdog counts periods of line silence.
//
// The run starts with the HELLO handshake (docs/link-protocol.md): the host
// answers the simulator's HELLO with the robot this image is built for and,
// on another robot, stays disarmed (every COMMAND disarmed, status
// kRobotMismatch). The plugin itself is opened for that robot too (found by
// name and robot id; kRobotMismatch if the registered one flies another).
//
// Signed link (docs/link-security.md): when the image's key section
// (.hodyn_link_key, link_key_section.hpp) has been provisioned, every frame is
// signed and checked; the boot counter (boot_counter.hpp, incremented and
// stored before use) is the controller's part of each session's keys, so no
// recorded session can drive it after a restart. Without a store for it the
// firmware refuses to start (exit 4). An unprovisioned image runs unsigned.
// The loop measures what the link costs per step besides update() (parse,
// checks, MAC, encode; not the UART): with and without a key, same build.
//
// The run ends on the simulator's end-of-run frame (kSimulatorPaused), after
// kIdleTimeoutS of silence once something was heard, or when the link fails;
// the firmware then prints its summary ("FC key=value" lines) on the console
// (semihosting under QEMU) and exits with 0 (3 after a robot mismatch). At start it times a
// calibration loop of known instruction count (the instruction-count method, "Budgets").
//
// One source for every robot: the 12-DoF robot by default, another robot type
// with HODYN_FC_ROBOT / HODYN_FC_ROBOT_HEADER (CMakeLists.txt, hodyn_fc_add_image ROBOT).
#include <cstddef>
#include <cstdint>

#include "boot_counter.hpp"
#include "hodyn/baremetal/rotor_outputs.hpp"
#include "hodyn/baremetal/runtime.hpp"
#include "hodyn/control/feedback_linearization_plugin.hpp"
#include "hodyn/link/controller_host.hpp"
#include "hodyn/plugin/registry.hpp"
#include "hodyn/plugin/robot_identity.hpp"
#include "link_key_section.hpp"
#include "serial_port_transport.hpp"

#if defined(HODYN_FC_ROBOT_HEADER)
#include HODYN_FC_ROBOT_HEADER
#endif

namespace {

namespace bm = hodyn::baremetal;
namespace link = hodyn::link;

// The robot this image flies: hodyn::AerialManipulatorRobot, or the robot type
// HODYN_FC_ROBOT of the header HODYN_FC_ROBOT_HEADER (a robot added by
// hodyn_add_robot(), whose <name>::controller the image links).
#if defined(HODYN_FC_ROBOT)
using FlownRobot = HODYN_FC_ROBOT;
#else
using FlownRobot = hodyn::AerialManipulatorRobot;
#endif

// A float controller is driven on float frames (ControllerHost<..., float>,
// hodyn/plugin/float_frames.hpp): no float <-> double conversions between
// the link and the controller, each a library call on the Cortex-M4F.
#if defined(HODYN_FC_FLOAT)
using FrameValue = float;
constexpr const char* kPluginName = "feedback_linearization_float";
#else
using FrameValue = double;
constexpr const char* kPluginName = "feedback_linearization";
#endif
using ControllerPlugin = hodyn::control::BasicFeedbackLinearizationPlugin<FlownRobot, FrameValue>;

#ifndef HODYN_FC_RATE_HZ
#define HODYN_FC_RATE_HZ 1000
#endif
constexpr std::uint32_t kRateHz = HODYN_FC_RATE_HZ;
#ifndef HODYN_FC_WATCHDOG_PERIODS
#define HODYN_FC_WATCHDOG_PERIODS 20
#endif
constexpr std::uint32_t kWatchdogPeriods = HODYN_FC_WATCHDOG_PERIODS;
constexpr std::uint32_t kIdleTimeoutS = 5;
/// The robot this image flies: the one its controller plugin is built for.
constexpr hodyn::plugin::RobotIdentity kRobot = hodyn::plugin::plugin_robot<ControllerPlugin>();
/// Exit status after a robot mismatch in the handshake.
constexpr int kExitRobotMismatch = 3;
/// Exit status when a provisioned key cannot be used (no boot counter store).
constexpr int kExitNoAuthentication = 4;
/// The plugin instance's storage: its size, rounded up to the alignment.
constexpr std::size_t kPluginCapacity = (sizeof(ControllerPlugin) + 63u) / 64u * 64u;

/// The serial port's interrupt cycles so far in this loop iteration. Every
/// part of the period below is timed without the interrupts that ran inside
/// it: those are the interrupt part's, counted once (before 2026-11-28 they
/// were counted in both, and the period's sum was an upper bound).
std::uint32_t interrupt_cycles() noexcept {
  return bm::board::serial_port().interrupt_cycles_since_take();
}

/// One part's own cycles: from start() to stop(), less the interrupts that
/// ran in between (the port's reads sit outside the two cycle reads).
class PartTimer {
 public:
  void start() noexcept {
    irq_ = interrupt_cycles();
    start_ = bm::cycles();
  }
  std::uint64_t stop() const noexcept {
    const std::uint64_t end = bm::cycles();
    return end - start_ - static_cast<std::uint32_t>(interrupt_cycles() - irq_);  // mod 2^32
  }

 private:
  std::uint32_t irq_ = 0;
  std::uint64_t start_ = 0;
};

/// Times every update() in SysTick cycles (the interrupts inside it left
/// out) and notes the stack depth at the call.
class UpdateMeter final : public link::UpdateObserver {
 public:
  void before_update() noexcept override {
    const std::size_t depth = bm::stack_depth_bytes();
    if (depth > depth_at_call_) depth_at_call_ = depth;
    timer_.start();
  }
  void after_update(bool control_step) noexcept override {
    const std::uint64_t elapsed = timer_.stop();
    last_ += elapsed;
    if (!control_step) return;
    ++count_;
    sum_ += elapsed;
    if (count_ == 1 || elapsed < min_) min_ = elapsed;
    if (elapsed > max_) max_ = elapsed;
  }

  /// Every COMMAND sent goes to the board's motor outputs (if it has any),
  /// timed: the motor outputs' share of the period.
  void command_sent(const hodyn_command& command, std::uint32_t /*answered_sequence*/,
                    std::uint32_t /*status_bits*/) noexcept override {
    to_outputs(command);
  }
  void float_command_sent(const hodyn::plugin::CommandF32& command,
                          std::uint32_t /*answered_sequence*/,
                          std::uint32_t /*status_bits*/) noexcept override {
    to_outputs(command);
  }

  std::uint64_t motor_commands() const noexcept { return motor_commands_; }
  std::uint64_t motor_cycles() const noexcept { return motor_cycles_; }
  std::uint32_t last_rotors() const noexcept { return last_rotors_; }
  double last_speed(std::size_t i) const noexcept { return static_cast<double>(last_speeds_[i]); }

 private:
  template <class Command>
  void to_outputs(const Command& command) noexcept {
    bm::RotorOutputs* outputs = bm::board::rotor_outputs();
    if (outputs == nullptr) return;
    PartTimer timer;
    timer.start();
    outputs->command(command.rotor_speed, command.num_rotors);
    motor_cycles_ += timer.stop();
    ++motor_commands_;
    last_rotors_ = command.num_rotors;
    for (std::size_t i = 0; i < HODYN_MAX_ROTORS; ++i)
      last_speeds_[i] = static_cast<FrameValue>(command.rotor_speed[i]);
  }

 public:
  /// Cycles in command_sent() since the last call (inside the host's calls).
  std::uint64_t take_motor_cycles() noexcept {
    const std::uint64_t c = motor_cycles_ - motor_cycles_taken_;
    motor_cycles_taken_ = motor_cycles_;
    return c;
  }

  std::uint64_t count() const noexcept { return count_; }
  std::uint64_t sum() const noexcept { return sum_; }
  std::uint64_t min() const noexcept { return min_; }
  std::uint64_t max() const noexcept { return max_; }
  std::size_t depth_at_call() const noexcept { return depth_at_call_; }
  /// Cycles in update() (control or watchdog) since the last call.
  std::uint64_t take_update_cycles() noexcept {
    const std::uint64_t c = last_;
    last_ = 0;
    return c;
  }

 private:
  PartTimer timer_;
  std::uint64_t count_ = 0, sum_ = 0, min_ = 0, max_ = 0, last_ = 0;
  std::size_t depth_at_call_ = 0;
  std::uint64_t motor_commands_ = 0, motor_cycles_ = 0, motor_cycles_taken_ = 0;
  std::uint32_t last_rotors_ = 0;
  FrameValue last_speeds_[HODYN_MAX_ROTORS] = {};
};

/// The serial transport, timing its send() (the UART), so that the link's own
/// cost per step can be told from the time the UART takes.
class TimedTransport final : public link::Transport {
 public:
  explicit TimedTransport(link::Transport& inner) noexcept : inner_(inner) {}
  hodyn::Status send(const std::uint8_t* data, std::size_t size) noexcept override {
    PartTimer timer;
    timer.start();
    const hodyn::Status s = inner_.send(data, size);
    cycles_ += timer.stop();
    return s;
  }
  hodyn::Status receive(std::uint8_t* buffer, std::size_t capacity, std::size_t& received,
                        std::int64_t timeout_us) noexcept override {
    return inner_.receive(buffer, capacity, received, timeout_us);
  }
  /// Cycles in send() since the last call.
  std::uint64_t take_send_cycles() noexcept {
    const std::uint64_t c = cycles_;
    cycles_ = 0;
    total_ += c;
    return c;
  }
  /// Cycles in send() taken so far (the UART driver's share of the period).
  std::uint64_t total_send_cycles() const noexcept { return total_; }

 private:
  link::Transport& inner_;
  std::uint64_t cycles_ = 0;
  std::uint64_t total_ = 0;
};

/// Exactly 2 instructions per iteration (subs + bne), `iterations` ≥ 1.
__attribute__((noinline)) void count_down(std::uint32_t iterations) noexcept {
  __asm volatile(
      "1: subs %0, %0, #1\n"
      "   bne 1b\n"
      : "+r"(iterations)
      :
      : "cc");
}

struct Calibration {
  static constexpr std::uint32_t kShortIterations = 100000;
  static constexpr std::uint32_t kLongIterations = 2100000;
  std::uint64_t short_cycles = 0;
  std::uint64_t long_cycles = 0;
};

Calibration calibrate() noexcept {
  Calibration c;
  const std::uint64_t t0 = bm::cycles();
  count_down(Calibration::kShortIterations);
  const std::uint64_t t1 = bm::cycles();
  count_down(Calibration::kLongIterations);
  const std::uint64_t t2 = bm::cycles();
  c.short_cycles = t1 - t0;
  c.long_cycles = t2 - t1;
  return c;
}

bm::Console& line(const char* key) noexcept {
  return bm::console().print("FC ").print(key).print('=');
}
void value(const char* key, unsigned long long v) noexcept { line(key).print(v).print('\n'); }
void text(const char* key, const char* v) noexcept { line(key).print(v).print('\n'); }

}  // namespace

int main() {
  static hodyn::firmware::SerialPortTransport transport(bm::board::serial_port());
  static TimedTransport timed(transport);
  static link::ControllerHost<kPluginCapacity, FrameValue> host(timed, kWatchdogPeriods);
  static UpdateMeter meter;
  // What the UART holds at one poll: a few bytes (QEMU's CMSDK UART delivers
  // one at a time); bytes left unread wait in the UART for the next poll.
  static std::uint8_t rx_buffer[256];
  // Received bytes up to a frame's delimiter: each frame goes to the host in
  // one piece, so that its cost is measured whole, whatever the UART's pace.
  static std::uint8_t frame_bytes[link::kMaxWireSize];
  std::size_t frame_fill = 0;

  const std::uint32_t clock_hz = bm::board::core_clock_hz();
  if (!bm::systick_init(clock_hz, 1000)) {
    bm::console().print("hodyn-fc-firmware: systick_init failed\n");
    return 1;
  }
  const Calibration calibration = calibrate();

  const hodyn_plugin_api* api = hodyn::plugin::plugin_registry().find(kPluginName, kRobot.id);
#if defined(HODYN_FC_FLOAT)
  // The registered table must be ControllerPlugin's, whose float step we call.
  const hodyn::plugin::FloatFramePlugin plugin =
      hodyn::plugin::float_frame_plugin<ControllerPlugin>(kPluginName);
  const hodyn::Status opened = api != plugin.api
                                   ? hodyn::Status::kInvalidArgument
                                   : host.open(plugin, kRobot, static_cast<double>(kRateHz));
#else
  const hodyn::Status opened = host.open(api, kRobot, static_cast<double>(kRateHz));
#endif
  if (opened != hodyn::Status::kOk) {
    bm::console()
        .print("hodyn-fc-firmware: plugin ")
        .print(kPluginName)
        .print(": ")
        .print(hodyn::to_string(opened))
        .print('\n');
    return 1;
  }
#if defined(HODYN_FC_PAYLOAD_ESTIMATION)
  // hodyn_fc_payload_<board>: the controller estimates a payload on body
  // HODYN_FC_PAYLOAD_BODY (the body hodyn-sim's payload scenarios load; 0: the
  // last) every step (docs/payload-estimation.md, "On the flight controller").
  {
    hodyn_parameter estimate[2]{};
    hodyn::plugin::copy_name(estimate[0].name, "payload_estimation");
    estimate[0].value = 1.0;
    hodyn::plugin::copy_name(estimate[1].name, "payload_body");
    estimate[1].value = HODYN_FC_PAYLOAD_BODY;
    const hodyn::Status on = host.configure(estimate, 2);
    if (on != hodyn::Status::kOk) {
      bm::console().print("hodyn-fc-firmware: payload_estimation: ").print(hodyn::to_string(on));
      bm::console().print('\n');
      return 1;
    }
  }
#endif
  host.set_update_observer(&meter);
  // A provisioned key: a signed link, keyed by this boot's counter.
  std::uint32_t boot_counter = 0;
  {
    std::uint8_t key[32];
    if (hodyn::firmware::read_link_key(key)) {
      hodyn::firmware::BootCounterError why = hodyn::firmware::BootCounterError::kNone;
      if (!hodyn::firmware::next_boot_counter(boot_counter, why)) {
        hodyn::firmware::wipe(key, sizeof key);
        bm::console()
            .print("hodyn-fc-firmware: a link key is provisioned but ")
            .print(hodyn::firmware::to_string(why))
            .print(": refusing to run (docs/link-security.md)\n");
        text("link_security", "refused");
        bm::console().flush();
        return kExitNoAuthentication;
      }
      std::uint8_t boot_id[link::kBootIdSize] = {};
      for (std::size_t k = 0; k < 4; ++k)
        boot_id[k] = static_cast<std::uint8_t>(boot_counter >> (8 * k));
      const hodyn::Status keyed = host.enable_authentication(
          key, sizeof key, boot_id, static_cast<std::uint64_t>(boot_counter) << 32);
      hodyn::firmware::wipe(key, sizeof key);
      if (keyed != hodyn::Status::kOk) {
        bm::console().print("hodyn-fc-firmware: the provisioned link key is unusable\n");
        return kExitNoAuthentication;
      }
    }
  }
  // Start-up's stack: startup.c painted the stack before main(), and
  // configure() above built the models on it -- the deepest point of the
  // start-up, which scripts/firmware_budget.py holds below the stack region
  // with a margin (an overflow here faults the board before it flies).
  // Then paint again so the high-water mark is the control loop's (update()
  // is its deepest call).
  const std::size_t startup_stack_high_water = bm::stack_high_water_bytes();
  bm::paint_unused_stack();
  bm::console()
      .print("hodyn-fc-firmware: plugin \"")
      .print(kPluginName)
      .print("\" (")
      .print(static_cast<unsigned long>(kPluginCapacity))
      .print(" bytes) at ")
      .print(kRateHz)
      .print(" Hz for robot \"")
      .print(kRobot.name)
      .print("\" on ")
      .print(bm::board::name())
      .print(", lockstep, watchdog ")
      .print(kWatchdogPeriods)
      .print(" periods, ")
      .print(host.authenticated() ? "signed" : "unsigned")
      .print(" frames; waiting for frames on the UART\n");
  bm::console().flush();

  const std::uint64_t period_cycles = clock_hz / kRateHz;
  const std::uint64_t idle_cycles = static_cast<std::uint64_t>(clock_hz) * kIdleTimeoutS;
  std::uint64_t deadline = bm::cycles() + period_cycles;
  std::uint64_t last_rx = 0;
  bool heard = false;
  const char* end_reason = "end-of-run frame";
  // The link's cost besides update(): parsing, checks and MAC of what arrives,
  // encoding and MAC of what is sent (the UART's own time left out).
  std::uint64_t link_cycles = 0;
  // The UART's interrupt handler (receive into its ring, transmit from it),
  // on boards with an interrupt-driven UART (the STM32F405).
  std::uint64_t uart_interrupt_cycles = 0, uart_interrupt_entries = 0;
  (void)bm::board::serial_port().take_interrupt_load();  // from here on
  for (;;) {
    std::size_t received = 0;
    if (timed.receive(rx_buffer, sizeof rx_buffer, received, 0) != hodyn::Status::kOk) {
      end_reason = "link failed";
      break;
    }
    const bm::InterruptLoad irq = bm::board::serial_port().take_interrupt_load();
    uart_interrupt_cycles += irq.cycles;
    uart_interrupt_entries += irq.entries;
    const std::uint64_t now = bm::cycles();
    if (received > 0) {
      for (std::size_t k = 0; k < received; ++k) {
        frame_bytes[frame_fill++] = rx_buffer[k];
        if (rx_buffer[k] != 0x00 && frame_fill < sizeof frame_bytes) continue;
        // A whole frame (or a block too long for one: the parser counts the
        // overflow). A frame is decoded where it lies in frame_bytes (the
        // delimiter found here, not searched for again, and not copied).
        PartTimer timer;
        timer.start();
        if (rx_buffer[k] == 0x00)
          host.receive_block(frame_bytes, frame_fill - 1);
        else
          host.receive_bytes(frame_bytes, frame_fill);
        link_cycles += timer.stop() - timed.take_send_cycles() - meter.take_update_cycles() -
                       meter.take_motor_cycles();
        frame_fill = 0;
      }
      heard = true;
      last_rx = now;
      deadline = now + period_cycles;  // a frame in flight is not an outage
    }
    if (host.has_pending() || now >= deadline) {
      PartTimer timer;
      timer.start();
      (void)host.period();
      link_cycles += timer.stop() - timed.take_send_cycles() - meter.take_update_cycles() -
                     meter.take_motor_cycles();
      deadline = bm::cycles() + period_cycles;
    }
    if (host.paused()) break;
    if (host.link_failed()) {
      end_reason = "link failed";
      break;
    }
    if (heard && now - last_rx > idle_cycles) {
      end_reason = "idle timeout";
      break;
    }
  }

  const auto& c = host.counters();
  const auto& m = host.monitor().counters();
  const auto& rx = host.parser().counters();
  const auto& watchdog = host.watchdog();
  bm::console().print("hodyn-fc-firmware summary (").print(end_reason).print(")\n");
  text("board", bm::board::name());
  text("plugin", kPluginName);
  text("robot", kRobot.name);
#if defined(HODYN_FC_PAYLOAD_ESTIMATION)
  value("payload_estimation", 1u);
#endif
  value("robot_id", kRobot.id);
  text("handshake", link::to_string(host.handshake()));
  text("link_security", host.authenticated() ? "signed" : "unsigned");
  value("boot_counter", boot_counter);
  value("sessions", c.sessions);
  value("peer_robot_id", host.peer_robot().id);
  value("refused_sensor_frames", c.refused_frames);
  value("control_commands", c.control_commands);
  text("end", end_reason);
  value("rate_hz", kRateHz);
  value("core_clock_hz", clock_hz);
  value("steps", c.updates);
  value("sensor_frames_received", c.sensors_received);
  value("sensor_frames_accepted", m.accepted);
  value("sensor_duplicates", m.duplicates);
  value("sensor_out_of_order", m.out_of_order);
  value("sensor_gaps", m.gaps);
  value("end_of_run_frames", c.paused_frames);
  value("reference_frames_received", c.references_received);
  value("updates_without_matching_reference", c.reference_stale);
  value("updates_with_extrapolated_reference", c.reference_extrapolated);
  value("plugin_rejected_frames", c.plugin_rejected);
  value("safe_mode_commands", c.safe_commands);
  value("commands_sent", c.commands_sent);
  value("send_failures", c.send_failures);
  value("watchdog_engagements", watchdog.engagements());
  value("watchdog_recoveries", watchdog.recoveries());
  value("watchdog_commands", c.watchdog_commands);
  value("rx_bytes", rx.bytes);
  value("rx_frames_ok", rx.frames_ok);
  value("rx_rejected_total", rx.total_rejected());
  value("rx_rejected_mac", rx.rejected_count(link::RejectReason::kBadMac));
  value("rx_rejected_replay", rx.rejected_count(link::RejectReason::kReplay));
  value("rx_rejected_unsigned", rx.rejected_count(link::RejectReason::kUnsigned));
  value("rx_rejected_no_key", rx.rejected_count(link::RejectReason::kNoKey));
  value("link_cycles_sum", link_cycles);
  value("send_cycles_sum", timed.total_send_cycles());
  value("uart_interrupt_cycles_sum", uart_interrupt_cycles);
  value("uart_interrupt_entries", uart_interrupt_entries);
  value("motor_commands", meter.motor_commands());
  value("motor_cycles_sum", meter.motor_cycles());
  if (bm::RotorOutputs* outputs = bm::board::rotor_outputs()) {
    // The last command's speeds (mrad/s) and what the hardware now holds for
    // each output (its compare register, us), for the HIL test to check.
    value("motor_channels", outputs->channels());
    value("motor_full_scale_mrad_s",
          static_cast<unsigned long long>(outputs->full_scale_rad_s() * 1000.0 + 0.5));
    value("motor_last_rotors", meter.last_rotors());
    for (std::size_t i = 0; i < outputs->channels(); ++i) {
      const double speed = i < meter.last_rotors() ? meter.last_speed(i) : 0.0;
      bm::console()
          .print("FC motor_speed_mrad_s_")
          .print(static_cast<unsigned>(i))
          .print('=')
          .print(static_cast<long long>(speed * 1000.0 + (speed < 0.0 ? -0.5 : 0.5)))
          .print('\n');
      bm::console()
          .print("FC motor_output_us_")
          .print(static_cast<unsigned>(i))
          .print('=')
          .print(static_cast<unsigned long long>(outputs->output_value(i)))
          .print('\n');
    }
  }
  value("uart_overruns", transport.overruns());
  value("tx_bytes", transport.bytes_sent());
  value("update_count", meter.count());
  value("update_cycles_sum", meter.sum());
  value("update_cycles_min", meter.min());
  value("update_cycles_max", meter.max());
  value("calibration_short_iterations", Calibration::kShortIterations);
  value("calibration_short_cycles", calibration.short_cycles);
  value("calibration_long_iterations", Calibration::kLongIterations);
  value("calibration_long_cycles", calibration.long_cycles);
  value("stack_depth_at_update_call", meter.depth_at_call());
  value("stack_high_water", bm::stack_high_water_bytes());
  value("stack_startup_high_water", startup_stack_high_water);
  value("stack_size", bm::stack_size_bytes());
  value("plugin_instance_capacity", kPluginCapacity);
  bm::console().flush();
  const bool mismatch = host.handshake() == link::HandshakeState::kRobotMismatch;
  host.close();
  return mismatch ? kExitRobotMismatch : 0;
}
