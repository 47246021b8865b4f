// tests/fuzz/fuzz_state_json.cpp — libFuzzer target of hodyn-eval's state
// reader (docs/state-format.md; docs/fuzzing.md): the input is the text of a
// state file, read as hodyn-eval reads it (parse_json_with_paths, then
// parse_state for each kind of request).
//
// Checked: no crash, no UB; bad input is an InputError with a one-line
// message free of control characters (hodyn-eval's exit 2), and nothing else
// is thrown; an accepted state has an order in 0..kMaxOrder, finite numbers
// everywhere and a proper rotation; printed in the input format (print_state)
// and read back it gives the same numbers. (The dynamics hodyn-eval runs
// next are not part of this target: dynamics.cpp, every algorithm at order
// 10, takes minutes to compile with the sanitizers.)
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include <hodyn/robot_description/json_paths.hpp>

#include "fuzz_input.hpp"
#include "hodyn_eval.hpp"

namespace {

namespace he = hodyn_eval;

/// An error message as hodyn-eval prints it: one line, no control character
/// (names from the input are quoted and escaped).
bool one_line(const std::string& message) {
  if (message.empty()) return false;
  for (const char c : message)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  return true;
}

template <class Array>
bool all_finite(const Array& a) {
  for (const auto& x : a)
    if (!x.allFinite()) return false;
  return true;
}

void check_state(const he::State& s) {
  HODYN_FUZZ_CHECK(s.order >= 0 && s.order <= he::kMaxOrder);
  HODYN_FUZZ_CHECK(std::isfinite(s.gravity));
  const hodyn::Pose<double>& pose = s.motion.base_pose;
  HODYN_FUZZ_CHECK(pose.translation.allFinite() && pose.rotation.allFinite());
  const double orthonormality =
      (pose.rotation.transpose() * pose.rotation - Eigen::Matrix3d::Identity())
          .cwiseAbs()
          .maxCoeff();
  HODYN_FUZZ_CHECK(orthonormality <= 1e-9 && pose.rotation.determinant() > 0);
  HODYN_FUZZ_CHECK(all_finite(s.motion.base_twist) && all_finite(s.motion.q));
  for (int j = 0; j < he::kNumBodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    HODYN_FUZZ_CHECK(all_finite(s.loads.world_wrench[J]) && all_finite(s.loads.body_wrench[J]));
  }
  HODYN_FUZZ_CHECK(all_finite(s.loads.joint_torque));
  HODYN_FUZZ_CHECK(all_finite(s.inputs.base_wrench) && all_finite(s.inputs.tau));
}

/// print_state, then read back as hodyn-eval would: the same numbers.
void check_round_trip(const he::State& s) {
  std::ostringstream printed;
  he::print_state(printed, s);
  hodyn::robot_description::JsonParse again =
      hodyn::robot_description::parse_json_with_paths(printed.str());
  HODYN_FUZZ_CHECK(again.error.empty());
  const he::State t = he::parse_state(again.value, -1);  // InputError here is a failure too
  HODYN_FUZZ_CHECK(t.order == s.order && t.gravity == s.gravity && t.comment == s.comment);
  HODYN_FUZZ_CHECK(t.motion.base_pose.translation == s.motion.base_pose.translation);
  HODYN_FUZZ_CHECK(t.motion.base_pose.rotation == s.motion.base_pose.rotation);
  for (int k = 0; k <= s.order + 1; ++k)
    HODYN_FUZZ_CHECK(t.motion.base_twist[static_cast<std::size_t>(k)] ==
                     s.motion.base_twist[static_cast<std::size_t>(k)]);
  for (int k = 0; k <= s.order + 2; ++k)
    HODYN_FUZZ_CHECK(t.motion.q[static_cast<std::size_t>(k)] ==
                     s.motion.q[static_cast<std::size_t>(k)]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const hodyn::robot_description::JsonParse parsed =
      hodyn::robot_description::parse_json_with_paths(text);
  if (!parsed.error.empty()) {
    HODYN_FUZZ_CHECK(one_line(parsed.error));
    return 0;
  }
  // hodyn-eval's requests: none (inverse dynamics), each option alone, all of
  // them with an --order override (0..10, from the input's size), and
  // --linearize and --regressor alone.
  he::Request requests[8];
  requests[1].forward = true;
  requests[2].hybrid = true;
  requests[3].matrices = true;
  requests[4].kinematics = true;
  requests[5].forward = requests[5].hybrid = requests[5].matrices = requests[5].kinematics = true;
  requests[5].linearize = requests[5].regressor = true;
  requests[6].linearize = true;  // refuses applied loads: its own input check
  requests[7].regressor = true;  // refuses applied loads; needs V1^(0..R+1), q^(0..R+2)
  for (int r = 0; r < 8; ++r) {
    const int order_override = r == 5 ? static_cast<int>(size % (he::kMaxOrder + 1)) : -1;
    he::State state;
    try {
      state = he::parse_state(parsed.value, order_override, requests[r]);
    } catch (const he::InputError& e) {
      HODYN_FUZZ_CHECK(one_line(e.what()));
      continue;
    }
    check_state(state);
    if (r == 5 || r == 7) HODYN_FUZZ_CHECK(state.full_motion && !state.has_loads);
    if (r == 0) {
      HODYN_FUZZ_CHECK(state.full_motion);  // no request: the inverse dynamics' derivatives
      check_round_trip(state);
    }
  }
  return 0;
}
