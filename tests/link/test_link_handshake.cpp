// The HELLO handshake on the controller side (hodyn::link::ControllerHost,
// docs/link-protocol.md "Handshake"): every simulator HELLO is answered with
// the plugin's robot and the verdict; only an agreed handshake runs the
// plugin; a mismatch (id, joint count or rotor count) answers every SENSORS
// frame with a disarmed COMMAND of status kRobotMismatch, for good, and the
// plugin never runs; a host that expects another robot than its plugin's
// does not open.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "hodyn/link/controller_host.hpp"
#include "hodyn/link/handshake.hpp"
#include "hodyn/link/link.hpp"
#include "hodyn/plugin/c_adapter.hpp"

namespace hodyn {
namespace {

using link::HandshakeState;
using link::Message;
using link::MessageType;

// A plugin for robot 0x1234 (4 joints, 8 rotors) that "flies": every update
// is a TRACKING command with all rotors at 500 rad/s.
class FlyingPlugin final : public plugin::ControllerPlugin {
 public:
  static constexpr const char* kRobotName = "test_robot";
  static constexpr std::uint32_t kRobotId = 0x1234u;
  static constexpr int kNumJoints = 4;
  static constexpr int kNumRotors = 8;
  static int updates;
  static int resets;

  Status configure(const plugin::Parameter*, std::size_t) noexcept override { return Status::kOk; }
  void reset() noexcept override { ++resets; }
  Status update(const plugin::Sensors& sensors, const plugin::Reference&,
                plugin::Command& command) noexcept override {
    ++updates;
    command = plugin::Command{};
    command.time = sensors.time;
    command.num_joints = kNumJoints;
    command.num_rotors = kNumRotors;
    command.mode = HODYN_MODE_TRACKING;
    for (int i = 0; i < kNumRotors; ++i) command.rotor_speed[i] = 500.0;
    return Status::kOk;
  }
  std::size_t parameter_count() const noexcept override { return 0; }
  Status parameter_info(std::size_t, plugin::ParameterInfo&) const noexcept override {
    return Status::kInvalidArgument;
  }
};
int FlyingPlugin::updates = 0;
int FlyingPlugin::resets = 0;

const plugin::RobotIdentity kRobot{"test_robot", 0x1234u, 4, 8};

// Keeps what the host sends, decoded.
class CaptureTransport final : public link::Transport {
 public:
  Status send(const std::uint8_t* data, std::size_t size) noexcept override {
    parser_.push(data, size);
    Message m{};
    while (parser_.next(m)) sent.push_back(m);
    return Status::kOk;
  }
  Status receive(std::uint8_t*, std::size_t, std::size_t& received,
                 std::int64_t) noexcept override {
    received = 0;
    return Status::kOk;
  }
  std::vector<Message> sent;

 private:
  link::FrameParser parser_;
};

using Host = link::ControllerHost<4096>;

void deliver(Host& host, const Message& m) {
  std::uint8_t wire[link::kMaxWireSize];
  std::size_t size = 0;
  ASSERT_EQ(link::encode(m, wire, sizeof wire, size), Status::kOk);
  host.receive_bytes(wire, size);
}

void hello(Host& host, const plugin::RobotIdentity& robot,
           std::uint32_t role = link::hello_role::kSimulator, std::uint8_t run_nonce = 0) {
  Message m{};
  m.type = MessageType::kHello;
  m.hello = link::make_hello(robot, role, Status::kOk);
  for (std::size_t k = 0; k < link::kNonceSize; ++k) m.hello.nonce[k] = run_nonce;
  deliver(host, m);
}

void sensors(Host& host, std::uint32_t sequence) {
  Message m{};
  m.type = MessageType::kSensors;
  m.sensors.time = 1e-3 * sequence;
  m.sensors.sequence = sequence;
  m.sensors.num_joints = 4;
  m.sensors.num_rotors = 8;
  deliver(host, m);
}

const hodyn_plugin_api* api() { return plugin::plugin_api<FlyingPlugin>("flying"); }

TEST(LinkHandshake, AgreedHelloIsAnsweredAndTheRunStarts) {
  CaptureTransport t;
  Host host(t, 20);
  ASSERT_EQ(host.open(api(), kRobot, 1000.0), Status::kOk);
  EXPECT_EQ(host.handshake(), HandshakeState::kWaiting);
  plugin::RobotIdentity same = kRobot;
  same.name = "another label";  // names are not compared
  hello(host, same);
  EXPECT_EQ(host.handshake(), HandshakeState::kAgreed);
  ASSERT_EQ(t.sent.size(), 1u);
  const Message& answer = t.sent[0];
  ASSERT_EQ(answer.type, MessageType::kHello);
  EXPECT_EQ(answer.hello.role, link::hello_role::kController);
  EXPECT_EQ(answer.hello.status, static_cast<std::int32_t>(Status::kOk));
  EXPECT_EQ(answer.hello.robot_id, 0x1234u);
  EXPECT_EQ(answer.hello.num_joints, 4u);
  EXPECT_EQ(answer.hello.num_rotors, 8u);
  EXPECT_STREQ(answer.hello.robot_name, "test_robot");
  EXPECT_STREQ(host.peer_robot().name, "another label");

  const int before = FlyingPlugin::updates;
  sensors(host, 0);
  ASSERT_TRUE(host.period());
  ASSERT_EQ(t.sent.size(), 2u);
  ASSERT_EQ(t.sent[1].type, MessageType::kCommand);
  EXPECT_EQ(t.sent[1].command.mode, static_cast<std::uint32_t>(HODYN_MODE_TRACKING));
  EXPECT_EQ(t.sent[1].status_bits & link::controller_status::kHandshakeRefused, 0u);
  EXPECT_EQ(FlyingPlugin::updates, before + 1);
  EXPECT_EQ(host.counters().control_commands, 1u);
  EXPECT_EQ(host.counters().hellos_received, 1u);
  EXPECT_EQ(host.counters().hello_answers_sent, 1u);
}

TEST(LinkHandshake, CommandsAnswerInTheValueFormatOfTheSensors) {
  // The simulator picks binary32 or binary64 (hodyn-sim --wire-float); the
  // host answers each SENSORS frame's COMMAND in its format (and the 500
  // rad/s of the plugin arrive exactly either way).
  CaptureTransport t;
  Host host(t, 20);
  ASSERT_EQ(host.open(api(), kRobot, 1000.0), Status::kOk);
  hello(host, kRobot);
  const link::ValueFormat formats[] = {link::ValueFormat::kFloat32, link::ValueFormat::kFloat64,
                                       link::ValueFormat::kFloat32};
  std::uint32_t sequence = 0;
  for (link::ValueFormat format : formats) {
    Message m{};
    m.type = MessageType::kSensors;
    m.format = format;
    m.sensors.time = 1e-3 * sequence;
    m.sensors.sequence = sequence++;
    m.sensors.num_joints = 4;
    m.sensors.num_rotors = 8;
    deliver(host, m);
    ASSERT_TRUE(host.period());
    const Message& c = t.sent.back();
    ASSERT_EQ(c.type, MessageType::kCommand);
    EXPECT_EQ(c.format, format);
    EXPECT_EQ(c.command.mode, static_cast<std::uint32_t>(HODYN_MODE_TRACKING));
    EXPECT_EQ(c.command.rotor_speed[7], 500.0);
  }
}

TEST(LinkHandshake, AnotherRobotIsRefusedForGoodAndThePluginNeverRuns) {
  plugin::RobotIdentity other_id = kRobot, other_joints = kRobot, other_rotors = kRobot;
  other_id.id = 0x1235u;
  other_joints.num_joints = 5;
  other_rotors.num_rotors = 6;
  for (const plugin::RobotIdentity& simulated : {other_id, other_joints, other_rotors}) {
    CaptureTransport t;
    Host host(t, 3);  // ~15 KiB: fine on a desktop test's stack
    ASSERT_EQ(host.open(api(), kRobot, 1000.0), Status::kOk);
    hello(host, simulated);
    EXPECT_EQ(host.handshake(), HandshakeState::kRobotMismatch);
    ASSERT_EQ(t.sent.size(), 1u);
    EXPECT_EQ(t.sent[0].type, MessageType::kHello);
    EXPECT_EQ(t.sent[0].hello.status, static_cast<std::int32_t>(Status::kRobotMismatch));
    EXPECT_EQ(host.peer_robot().id, simulated.id);

    const int before = FlyingPlugin::updates;
    for (std::uint32_t k = 0; k < 50; ++k) {
      sensors(host, k);
      ASSERT_TRUE(host.period());
      const Message& c = t.sent.back();
      ASSERT_EQ(c.type, MessageType::kCommand);
      EXPECT_EQ(c.answered_sequence, k);
      EXPECT_EQ(c.command.mode, static_cast<std::uint32_t>(HODYN_MODE_DISARMED));
      EXPECT_EQ(c.command.status, static_cast<std::int32_t>(Status::kRobotMismatch));
      EXPECT_NE(c.status_bits & link::controller_status::kHandshakeRefused, 0u);
      for (double w : c.command.rotor_speed) EXPECT_EQ(w, 0.0);
      for (double u : c.command.motor_torque) EXPECT_EQ(u, 0.0);
    }
    // Silence: no watchdog, no command (nothing is armed).
    for (int k = 0; k < 10; ++k) EXPECT_FALSE(host.period());
    EXPECT_EQ(FlyingPlugin::updates, before);
    EXPECT_EQ(host.counters().control_commands, 0u);
    EXPECT_EQ(host.counters().refused_frames, 50u);
    EXPECT_EQ(host.counters().watchdog_commands, 0u);
    EXPECT_FALSE(host.armed());

    // A later HELLO of the right robot does not undo the refusal.
    hello(host, kRobot);
    EXPECT_EQ(host.handshake(), HandshakeState::kRobotMismatch);
    EXPECT_EQ(t.sent.back().type, MessageType::kHello);
    EXPECT_EQ(t.sent.back().hello.status, static_cast<std::int32_t>(Status::kRobotMismatch));
    sensors(host, 50);
    ASSERT_TRUE(host.period());
    EXPECT_EQ(t.sent.back().command.mode, static_cast<std::uint32_t>(HODYN_MODE_DISARMED));
    EXPECT_EQ(FlyingPlugin::updates, before);

    // open() starts over.
    ASSERT_EQ(host.open(api(), kRobot, 1000.0), Status::kOk);
    EXPECT_EQ(host.handshake(), HandshakeState::kWaiting);
  }
}

TEST(LinkHandshake, SensorsBeforeTheHelloAreAnsweredDisarmed) {
  CaptureTransport t;
  Host host(t, 20);
  ASSERT_EQ(host.open(api(), 1000.0), Status::kOk);  // any robot: the plugin's
  EXPECT_EQ(host.robot().id, 0x1234u);
  const int before = FlyingPlugin::updates;
  sensors(host, 0);
  ASSERT_TRUE(host.period());
  ASSERT_EQ(t.sent.size(), 1u);
  EXPECT_EQ(t.sent[0].command.mode, static_cast<std::uint32_t>(HODYN_MODE_DISARMED));
  EXPECT_EQ(t.sent[0].command.status, static_cast<std::int32_t>(Status::kNotConfigured));
  EXPECT_NE(t.sent[0].status_bits & link::controller_status::kHandshakeRefused, 0u);
  EXPECT_EQ(FlyingPlugin::updates, before);
  // A controller's HELLO is not the simulator's: counted, not answered.
  hello(host, kRobot, link::hello_role::kController);
  EXPECT_EQ(t.sent.size(), 1u);
  EXPECT_EQ(host.counters().unexpected, 1u);
  EXPECT_EQ(host.handshake(), HandshakeState::kWaiting);
  // Then the simulator's HELLO of the same robot: the run starts.
  hello(host, kRobot);
  EXPECT_EQ(host.handshake(), HandshakeState::kAgreed);
  sensors(host, 1);
  ASSERT_TRUE(host.period());
  EXPECT_EQ(t.sent.back().command.mode, static_cast<std::uint32_t>(HODYN_MODE_TRACKING));
  EXPECT_EQ(FlyingPlugin::updates, before + 1);
}

TEST(LinkHandshake, AHostExpectingAnotherRobotDoesNotOpenThePlugin) {
  CaptureTransport t;
  Host host(t, 20);
  plugin::RobotIdentity expected = kRobot;
  expected.num_rotors = 6;
  EXPECT_EQ(host.open(api(), expected, 1000.0), Status::kRobotMismatch);
  EXPECT_EQ(host.robot().id, 0u);  // nothing open
  // It still answers a HELLO (with no robot and kNotConfigured) and never flies.
  hello(host, kRobot);
  ASSERT_EQ(t.sent.size(), 1u);
  EXPECT_EQ(t.sent[0].hello.status, static_cast<std::int32_t>(Status::kNotConfigured));
  EXPECT_EQ(host.handshake(), HandshakeState::kWaiting);
  sensors(host, 0);
  ASSERT_TRUE(host.period());
  EXPECT_EQ(t.sent.back().command.mode, static_cast<std::uint32_t>(HODYN_MODE_DISARMED));
}

}  // namespace
}  // namespace hodyn

namespace hodyn {
namespace {

// A restarted simulator (docs/hil.md, "Process faults"): its HELLO carries
// another run nonce; the host then forgets the old run's sequence numbers
// (the new run counts from 0 again) and resets the plugin. A HELLO of the
// same run (a resent one) changes nothing: old numbers stay refused.
TEST(LinkHandshake, ARestartedSimulatorIsFlownFromItsSequenceZero) {
  CaptureTransport t;
  Host host(t, 20);
  ASSERT_EQ(host.open(api(), kRobot, 1000.0), Status::kOk);
  hello(host, kRobot, link::hello_role::kSimulator, 0xA1);
  for (std::uint32_t k = 0; k < 100; ++k) {
    sensors(host, k);
    ASSERT_TRUE(host.period());
  }
  EXPECT_EQ(host.counters().runs, 1u);
  // The simulator dies: 20 silent periods engage the watchdog.
  for (int i = 0; i < 20; ++i) (void)host.period();
  EXPECT_TRUE(host.watchdog().engaged());
  // The same run's HELLO again: sequence 5 is still old.
  const int resets = FlyingPlugin::resets;
  hello(host, kRobot, link::hello_role::kSimulator, 0xA1);
  sensors(host, 5);
  EXPECT_FALSE(host.has_pending());
  EXPECT_EQ(host.counters().runs, 1u);
  EXPECT_EQ(FlyingPlugin::resets, resets);
  // A new run (another nonce): no safe command until its first frame (it
  // would answer the old run's sequence 99); then its sequence 0 is flown
  // and the watchdog released.
  hello(host, kRobot, link::hello_role::kSimulator, 0xB2);
  const std::size_t sent = t.sent.size();
  EXPECT_FALSE(host.period());
  EXPECT_EQ(t.sent.size(), sent);
  EXPECT_EQ(host.counters().runs, 2u);
  EXPECT_EQ(FlyingPlugin::resets, resets + 1);
  EXPECT_EQ(host.handshake(), HandshakeState::kAgreed);
  const int updates = FlyingPlugin::updates;
  sensors(host, 0);
  ASSERT_TRUE(host.has_pending());
  ASSERT_TRUE(host.period());
  EXPECT_EQ(FlyingPlugin::updates, updates + 1);
  EXPECT_FALSE(host.watchdog().engaged());
  EXPECT_EQ(host.watchdog().recoveries(), 1u);
  const Message& last = t.sent.back();
  ASSERT_EQ(last.type, MessageType::kCommand);
  EXPECT_EQ(last.answered_sequence, 0u);
  EXPECT_EQ(last.command.mode, static_cast<std::uint32_t>(HODYN_MODE_TRACKING));
  EXPECT_EQ(last.status_bits & link::controller_status::kWatchdogEngaged, 0u);
  // The answer to the new run's HELLO names the run it answers.
  bool answered_b2 = false;
  for (const Message& m : t.sent)
    if (m.type == MessageType::kHello && m.hello.peer_nonce[0] == 0xB2) answered_b2 = true;
  EXPECT_TRUE(answered_b2);
}

}  // namespace
}  // namespace hodyn
