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

  Status configure(const plugin::Parameter*, std::size_t) noexcept override { return Status::kOk; }
  void reset() noexcept override {}
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
           std::uint32_t role = link::hello_role::kSimulator) {
  Message m{};
  m.type = MessageType::kHello;
  m.hello = link::make_hello(robot, role, Status::kOk);
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
