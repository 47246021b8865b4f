// Float frames between the link and a float controller (plugin/float_frames.hpp,
// ControllerHost<Capacity, float>; docs/firmware.md, "STM32F405"). The
// reference is the path every other host takes: the ABI's double frames,
// decoded by the codec in double and converted by the plugin (the double
// ControllerHost, PluginInstance, the C table). Checked:
//   * the decoder's float frames are the double frames' values rounded to
//     float (binary32 on the wire: the values as sent, bit for bit);
//   * a COMMAND encoded from float values has the bytes of the same command
//     widened to double, in both value formats;
//   * the float controller behind a float-frame host sends exactly the bytes
//     it sends behind the double host, through the handshake, a REFERENCE
//     every 10th period carried forward in between, and watchdog ticks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "hodyn/control/feedback_linearization_plugin.hpp"
#include "hodyn/link/controller_host.hpp"
#include "hodyn/link/handshake.hpp"
#include "hodyn/link/link.hpp"
#include "hodyn/plugin/c_adapter.hpp"
#include "hodyn/plugin/frames.hpp"
#include "hodyn/plugin/robot_identity.hpp"
#include "link_test_support.hpp"

namespace hodyn {
namespace {

using link::Message;
using link::MessageType;
using link::ValueFormat;

std::uint32_t bits_of(float f) {
  std::uint32_t b = 0;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// Float bits of the double (what static_cast<float> gives: round to nearest).
void expect_rounded(const double* d, const float* f, std::size_t n, const char* what) {
  for (std::size_t k = 0; k < n; ++k) {
    const float want = static_cast<float>(d[k]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(f[k])) << what << "[" << k << "]";
    } else {
      EXPECT_EQ(bits_of(f[k]), bits_of(want)) << what << "[" << k << "] " << d[k];
    }
  }
}

std::vector<Message> parse(const std::uint8_t* wire, std::size_t size, bool float_frames) {
  link::FrameParser parser;
  parser.set_float_frames(float_frames);
  parser.push(wire, size);
  std::vector<Message> out;
  Message m{};
  while (parser.next(m)) out.push_back(m);
  return out;
}

TEST(LinkFloatFrames, DecodedFloatFramesAreTheDoubleFramesRounded) {
  test::LinkRng rng(0x5eedf32u);
  for (int i = 0; i < 400; ++i) {
    const ValueFormat format = (i % 2 == 0) ? ValueFormat::kFloat32 : ValueFormat::kFloat64;
    std::uint8_t wire[link::kMaxWireSize];
    std::size_t size = 0;
    const bool is_sensors = (i / 2) % 2 == 0;
    if (is_sensors) {
      const hodyn_sensors s = test::random_sensors(rng);
      ASSERT_EQ(link::encode(s, 5u, 7u, wire, sizeof wire, size, nullptr, format), Status::kOk);
    } else {
      hodyn_reference r{};
      r.time = rng.value();
      r.num_joints = static_cast<std::uint32_t>(rng.below(HODYN_MAX_JOINTS + 1));
      for (auto& row : r.base_position) rng.values(row, 3);
      rng.values(r.base_orientation, 4);
      for (auto& row : r.base_angular_velocity) rng.values(row, 3);
      for (auto& row : r.joint_position) rng.values(row, r.num_joints);
      ASSERT_EQ(link::encode(r, 7u, wire, sizeof wire, size, nullptr, format), Status::kOk);
    }
    const std::vector<Message> d = parse(wire, size, false);
    const std::vector<Message> f = parse(wire, size, true);
    ASSERT_EQ(d.size(), 1u);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_FALSE(d[0].float_frames);
    EXPECT_TRUE(f[0].float_frames);
    EXPECT_EQ(f[0].format, format);
    EXPECT_EQ(f[0].link_sequence, d[0].link_sequence);
    EXPECT_EQ(f[0].status_bits, d[0].status_bits);
    if (is_sensors) {
      const hodyn_sensors& a = d[0].sensors;
      const plugin::SensorsF32& b = f[0].sensors_f32;
      EXPECT_EQ(std::memcmp(&a.time, &b.time, sizeof a.time), 0);
      EXPECT_EQ(b.sequence, a.sequence);
      EXPECT_EQ(b.num_joints, a.num_joints);
      EXPECT_EQ(b.num_rotors, a.num_rotors);
      expect_rounded(a.base_position, b.base_position, 3, "position");
      expect_rounded(a.base_orientation, b.base_orientation, 4, "orientation");
      expect_rounded(a.base_linear_velocity, b.base_linear_velocity, 3, "velocity");
      expect_rounded(a.base_angular_velocity, b.base_angular_velocity, 3, "rate");
      // The whole arrays: the entries past the counts are zeros in both.
      expect_rounded(a.joint_position, b.joint_position, HODYN_MAX_JOINTS, "q");
      expect_rounded(a.joint_velocity, b.joint_velocity, HODYN_MAX_JOINTS, "qd");
      expect_rounded(a.motor_position, b.motor_position, HODYN_MAX_JOINTS, "theta");
      expect_rounded(a.motor_velocity, b.motor_velocity, HODYN_MAX_JOINTS, "thetad");
      expect_rounded(a.rotor_speed, b.rotor_speed, HODYN_MAX_ROTORS, "rotors");
    } else {
      const hodyn_reference& a = d[0].reference;
      const plugin::ReferenceF32& b = f[0].reference_f32;
      EXPECT_EQ(std::memcmp(&a.time, &b.time, sizeof a.time), 0);
      EXPECT_EQ(b.num_joints, a.num_joints);
      for (int k = 0; k <= HODYN_REFERENCE_ORDER; ++k) {
        expect_rounded(a.base_position[k], b.base_position[k], 3, "x^(k)");
        expect_rounded(a.joint_position[k], b.joint_position[k], HODYN_MAX_JOINTS, "q^(k)");
      }
      for (int k = 0; k < HODYN_REFERENCE_ORDER; ++k)
        expect_rounded(a.base_angular_velocity[k], b.base_angular_velocity[k], 3, "w^(k)");
      expect_rounded(a.base_orientation, b.base_orientation, 4, "orientation");
    }
  }
}

TEST(LinkFloatFrames, FloatCommandHasTheBytesOfTheWidenedCommand) {
  test::LinkRng rng(0xc0ffee32u);
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::denorm_min(),
                            3.4e38f,
                            std::numeric_limits<float>::quiet_NaN()};
  for (int i = 0; i < 200; ++i) {
    plugin::CommandF32 f{};
    f.time = rng.value();
    f.num_joints = static_cast<std::uint32_t>(rng.below(HODYN_MAX_JOINTS + 1));
    f.num_rotors = static_cast<std::uint32_t>(rng.below(HODYN_MAX_ROTORS + 1));
    f.mode = static_cast<std::uint32_t>(rng.below(HODYN_MODE_HOVER + 1));
    f.status = static_cast<std::int32_t>(rng.u32());
    const auto value = [&]() {
      if (rng.below(4) == 0) return specials[rng.below(sizeof specials / sizeof specials[0])];
      return static_cast<float>(static_cast<std::int32_t>(rng.u32() % 4000001) - 2000000) / 977.0f;
    };
    for (auto& v : f.rotor_speed) v = value();
    for (auto& v : f.motor_torque) v = value();
    hodyn_command d{};
    d.time = f.time;
    d.num_joints = f.num_joints;
    d.num_rotors = f.num_rotors;
    d.mode = f.mode;
    d.status = f.status;
    for (int k = 0; k < HODYN_MAX_ROTORS; ++k)
      d.rotor_speed[k] = static_cast<double>(f.rotor_speed[k]);
    for (int k = 0; k < HODYN_MAX_JOINTS; ++k)
      d.motor_torque[k] = static_cast<double>(f.motor_torque[k]);
    for (ValueFormat format : {ValueFormat::kFloat32, ValueFormat::kFloat64}) {
      std::uint8_t a[link::kMaxWireSize], b[link::kMaxWireSize];
      std::size_t na = 0, nb = 0;
      ASSERT_EQ(link::encode(d, 11u, 3u, 99u, a, sizeof a, na, nullptr, format), Status::kOk);
      ASSERT_EQ(link::encode(f, 11u, 3u, 99u, b, sizeof b, nb, nullptr, format), Status::kOk);
      ASSERT_EQ(na, nb);
      EXPECT_EQ(std::memcmp(a, b, na), 0) << "command " << i;
    }
  }
  // The same argument checks.
  plugin::CommandF32 bad{};
  bad.mode = HODYN_MODE_HOVER + 1;
  std::uint8_t out[link::kMaxWireSize];
  std::size_t n = 1;
  EXPECT_EQ(link::encode(bad, 0u, 0u, 0u, out, sizeof out, n), Status::kInvalidArgument);
  EXPECT_EQ(n, 0u);
}

// ---- the host ----------------------------------------------------------------

using FloatPlugin = control::FeedbackLinearizationPluginFloat;
constexpr std::size_t kCapacity = (sizeof(FloatPlugin) + 63u) / 64u * 64u;

// Keeps every byte the host sends.
class WireTransport final : public link::Transport {
 public:
  Status send(const std::uint8_t* data, std::size_t size) noexcept override {
    bytes.insert(bytes.end(), data, data + size);
    ++frames;
    return Status::kOk;
  }
  Status receive(std::uint8_t*, std::size_t, std::size_t& received,
                 std::int64_t) noexcept override {
    received = 0;
    return Status::kOk;
  }
  std::vector<std::uint8_t> bytes;
  int frames = 0;
};

// The simulator side of a short run: a HELLO, a REFERENCE every 10th period
// (Table 3), SENSORS near the reference with a periodic disturbance, and
// 25 periods without any frame (the watchdog engages).
struct SimRun {
  std::vector<std::vector<std::uint8_t>> periods;  // the bytes arriving before each period()
};

SimRun make_run(ValueFormat format) {
  SimRun run;
  const Table3Trajectory trajectory{};
  const plugin::RobotIdentity robot = plugin::plugin_robot<FloatPlugin>();
  std::uint8_t wire[link::kMaxWireSize];
  std::size_t size = 0;
  std::uint32_t link_sequence = 0;
  std::vector<std::uint8_t> first;
  link::Hello hello = link::make_hello(robot, link::hello_role::kSimulator, Status::kOk);
  for (std::size_t k = 0; k < link::kNonceSize; ++k) hello.nonce[k] = static_cast<std::uint8_t>(k);
  EXPECT_EQ(link::encode(hello, link_sequence++, wire, sizeof wire, size), Status::kOk);
  first.assign(wire, wire + size);
  for (std::uint32_t step = 0; step < 120; ++step) {
    std::vector<std::uint8_t> bytes = step == 0 ? first : std::vector<std::uint8_t>{};
    const bool silent = step >= 70 && step < 95;  // no frames: watchdog ticks
    const double t = 0.2 + 1e-3 * step;
    if (!silent && step % 10 == 0) {
      hodyn_reference r{};
      plugin::table3_reference(trajectory, t, r);
      EXPECT_EQ(link::encode(r, link_sequence++, wire, sizeof wire, size, nullptr, format),
                Status::kOk);
      bytes.insert(bytes.end(), wire, wire + size);
    }
    if (!silent) {
      hodyn_sensors s{};
      s.time = t;
      s.sequence = step;
      s.num_joints = robot.num_joints;
      s.num_rotors = robot.num_rotors;
      const double wobble = 0.01 * std::sin(0.37 * step);
      const Pose<double> pose = trajectory.base_pose(t);
      const Vector3<double> x = trajectory.base_position(t, 0), v = trajectory.base_position(t, 1);
      double q[4];
      plugin::quaternion_from_rotation(pose.rotation, q);
      for (int i = 0; i < 3; ++i) {
        s.base_position[i] = x(i) + wobble * (i + 1);
        s.base_linear_velocity[i] = v(i) - wobble;
        s.base_angular_velocity[i] = 0.05 * wobble * (3 - i);
      }
      for (int i = 0; i < 4; ++i) s.base_orientation[i] = q[i];
      const auto qj = trajectory.joints(t, 0), qdj = trajectory.joints(t, 1);
      for (std::uint32_t j = 0; j < robot.num_joints; ++j) {
        s.joint_position[j] = qj(static_cast<int>(j)) + wobble;
        s.joint_velocity[j] = qdj(static_cast<int>(j));
        s.motor_position[j] = s.joint_position[j] + 1e-3;
        s.motor_velocity[j] = s.joint_velocity[j];
      }
      for (std::uint32_t i = 0; i < robot.num_rotors; ++i) s.rotor_speed[i] = 600.0 + 10.0 * i;
      EXPECT_EQ(link::encode(s, 0u, link_sequence++, wire, sizeof wire, size, nullptr, format),
                Status::kOk);
      bytes.insert(bytes.end(), wire, wire + size);
    }
    run.periods.push_back(bytes);
  }
  return run;
}

template <class Host>
void fly(Host& host, const SimRun& run) {
  for (const auto& bytes : run.periods) {
    if (!bytes.empty()) host.receive_bytes(bytes.data(), bytes.size());
    (void)host.period();
  }
}

void expect_same_bytes_as_the_abi_path(ValueFormat format) {
  const SimRun run = make_run(format);
  const plugin::RobotIdentity robot = plugin::plugin_robot<FloatPlugin>();

  WireTransport abi_wire;
  static link::ControllerHost<kCapacity> abi_host(abi_wire, 5);
  ASSERT_EQ(
      abi_host.open(plugin::plugin_api<FloatPlugin>("feedback_linearization_float"), robot, 1000.0),
      Status::kOk);
  fly(abi_host, run);

  WireTransport float_wire;
  static link::ControllerHost<kCapacity, float> float_host(float_wire, 5);
  ASSERT_EQ(float_host.open(plugin::float_frame_plugin<FloatPlugin>("feedback_linearization_float"),
                            robot, 1000.0),
            Status::kOk);
  fly(float_host, run);

  // The run did what it is for: control updates, carried references, watchdog.
  const auto& c = float_host.counters();
  EXPECT_EQ(c.updates, 95u);
  EXPECT_GT(c.reference_extrapolated, 80u);
  EXPECT_GT(c.watchdog_commands, 0u);
  EXPECT_GT(c.control_commands, 90u);
  EXPECT_EQ(c.plugin_rejected, 0u);
  EXPECT_EQ(c.commands_sent, abi_host.counters().commands_sent);
  EXPECT_EQ(c.watchdog_commands, abi_host.counters().watchdog_commands);
  EXPECT_EQ(c.reference_extrapolated, abi_host.counters().reference_extrapolated);
  EXPECT_EQ(float_wire.frames, abi_wire.frames);
  ASSERT_EQ(float_wire.bytes.size(), abi_wire.bytes.size());
  EXPECT_TRUE(float_wire.bytes == abi_wire.bytes);
  // Not vacuous: the commands move (rotor speeds differ between periods).
  const hodyn_command& last = abi_host.last_command();
  EXPECT_GT(last.rotor_speed[0], 100.0);
  EXPECT_EQ(static_cast<double>(float_host.last_command().rotor_speed[0]), last.rotor_speed[0]);
  abi_host.close();
  float_host.close();
}

TEST(LinkFloatFrames, FloatHostSendsTheBytesOfTheDoubleHostBinary32) {
  // The firmware's format: the same values reach the float controller either way.
  expect_same_bytes_as_the_abi_path(ValueFormat::kFloat32);
}

TEST(LinkFloatFrames, FloatHostOnBinary64Frames) {
  // binary64 on the wire: the float-frame host rounds each value once when
  // it decodes, the double path in the plugin. Only the carried reference
  // differs in principle (the double host carries the unrounded doubles);
  // the commands must still agree to within the bound below.
  const SimRun run = make_run(ValueFormat::kFloat64);
  const plugin::RobotIdentity robot = plugin::plugin_robot<FloatPlugin>();
  WireTransport abi_wire, float_wire;
  static link::ControllerHost<kCapacity> abi_host(abi_wire, 5);
  static link::ControllerHost<kCapacity, float> float_host(float_wire, 5);
  ASSERT_EQ(
      abi_host.open(plugin::plugin_api<FloatPlugin>("feedback_linearization_float"), robot, 1000.0),
      Status::kOk);
  ASSERT_EQ(float_host.open(plugin::float_frame_plugin<FloatPlugin>("feedback_linearization_float"),
                            robot, 1000.0),
            Status::kOk);
  double worst = 0.0;
  for (const auto& bytes : run.periods) {
    if (!bytes.empty()) {
      abi_host.receive_bytes(bytes.data(), bytes.size());
      float_host.receive_bytes(bytes.data(), bytes.size());
    }
    const bool a = abi_host.period(), b = float_host.period();
    ASSERT_EQ(a, b);
    if (!a) continue;
    const hodyn_command& x = abi_host.last_command();
    const plugin::CommandF32& y = float_host.last_command();
    ASSERT_EQ(x.mode, y.mode);
    ASSERT_EQ(x.status, y.status);
    for (std::uint32_t i = 0; i < x.num_rotors; ++i)
      worst = std::max(worst, std::abs(x.rotor_speed[i] - static_cast<double>(y.rotor_speed[i])) /
                                  std::max(1.0, std::abs(x.rotor_speed[i])));
    for (std::uint32_t j = 0; j < x.num_joints; ++j)
      worst = std::max(worst, std::abs(x.motor_torque[j] - static_cast<double>(y.motor_torque[j])) /
                                  std::max(1.0, std::abs(x.motor_torque[j])));
  }
  // Relative to max(1, |value|): the two paths round and carry the inputs
  // differently and the control law amplifies that (tracking errors are
  // differences of near-equal numbers). Measured below 1e-4 on x86-64 and
  // 2.1e-4 on aarch64 (qemu-aarch64; g++ contracts into FMA there), so the
  // bound is 1e-3: a wrong field or a missed conversion gives O(1).
  EXPECT_LT(worst, 1e-3);
  EXPECT_EQ(float_host.counters().commands_sent, abi_host.counters().commands_sent);
  EXPECT_EQ(float_wire.bytes.size(), abi_wire.bytes.size());
  abi_host.close();
  float_host.close();
}

TEST(LinkFloatFrames, FloatFramePluginWithoutAStepDoesNotOpen) {
  WireTransport wire;
  static link::ControllerHost<kCapacity, float> host(wire, 5);
  plugin::FloatFramePlugin p =
      plugin::float_frame_plugin<FloatPlugin>("feedback_linearization_float");
  p.update = nullptr;
  EXPECT_EQ(host.open(p, plugin::plugin_robot<FloatPlugin>(), 1000.0), Status::kInvalidArgument);
  p = plugin::float_frame_plugin<FloatPlugin>("feedback_linearization_float");
  plugin::RobotIdentity other = plugin::plugin_robot<FloatPlugin>();
  other.id ^= 1u;
  EXPECT_EQ(host.open(p, other, 1000.0), Status::kRobotMismatch);
}

}  // namespace
}  // namespace hodyn
