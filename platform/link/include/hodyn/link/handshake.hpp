// hodyn/link/handshake.hpp — the HELLO handshake that starts every HIL run
// (docs/link-protocol.md, "Handshake"): a HELLO from the robot a side flies,
// and that robot read back from a received HELLO. Both sides then compare
// with plugin::compare_robots(): kOk, or kRobotMismatch and no flight.
#pragma once

#include <cstdint>

#include "hodyn/link/protocol.hpp"
#include "hodyn/plugin/controller_plugin.hpp"
#include "hodyn/plugin/robot_identity.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace link {

/// A HELLO for `robot` from a `role` (hello_role) with `verdict` on the
/// peer's robot (kOk when not compared yet). A name longer than
/// HODYN_NAME_LENGTH − 1 characters is cut there.
inline Hello make_hello(const plugin::RobotIdentity& robot, std::uint32_t role,
                        Status verdict) noexcept {
  Hello h{};
  h.robot_id = robot.id;
  h.num_joints = robot.num_joints;
  h.num_rotors = robot.num_rotors;
  h.role = role;
  h.status = static_cast<std::int32_t>(verdict);
  plugin::copy_name(h.robot_name, robot.name);
  return h;
}

/// The robot a received HELLO names (its name points into `hello`).
inline plugin::RobotIdentity robot_of(const Hello& hello) noexcept {
  return plugin::RobotIdentity{hello.robot_name, hello.robot_id, hello.num_joints,
                               hello.num_rotors};
}

/// Where a side of the link is in the handshake.
enum class HandshakeState : std::uint8_t {
  kWaiting = 0,   ///< no HELLO from the peer yet: disarmed
  kAgreed,        ///< the peer flies the same robot: the run may start
  kRobotMismatch  ///< the peer flies another robot: disarmed for good
};

constexpr const char* to_string(HandshakeState state) noexcept {
  switch (state) {
    case HandshakeState::kWaiting:
      return "waiting";
    case HandshakeState::kAgreed:
      return "agreed";
    case HandshakeState::kRobotMismatch:
      return "robot mismatch";
  }
  return "unknown";
}

}  // namespace link
}  // namespace hodyn
