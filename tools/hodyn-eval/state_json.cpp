// hodyn-eval — reading the state JSON and writing the result JSON
// (docs/state-format.md).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <ostream>
#include <string>
#include <system_error>

#include <hodyn/robot_description/json_paths.hpp>

#include "hodyn_eval.hpp"

namespace hodyn_eval {
namespace {

using json = nlohmann::json;
using Vector6 = Eigen::Matrix<double, 6, 1>;

constexpr double kRotationTolerance = 1e-9;

[[noreturn]] void fail(const std::string& message) { throw InputError(message); }

/// "string \"NaN\"", "null", "array of 5", … for error messages (one line).
std::string describe(const json& v) {
  if (v.is_string()) {
    std::string s = hodyn::robot_description::json_quoted(v.get<std::string>());
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return "string " + s;
  }
  if (v.is_array()) return "a list of " + std::to_string(v.size());
  if (v.is_number()) return "number " + v.dump();
  return v.type_name();
}

/// A key or name from the input in a message: JSON-quoted with every control
/// character escaped, so it cannot break the one-line error (found by
/// tests/fuzz/fuzz_state_json: a key "\n" gave a two-line message).
std::string quoted(const std::string& name) { return hodyn::robot_description::json_quoted(name); }

const json& require(const json& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail(std::string("missing key \"") + key + "\"");
  return *it;
}

double read_number(const json& v, const std::string& where) {
  if (!v.is_number()) fail(where + ": expected a finite number, got " + describe(v));
  const double x = v.get<double>();
  if (!std::isfinite(x)) fail(where + ": not a finite number");
  return x;
}

template <int N>
Eigen::Matrix<double, N, 1> read_vector(const json& v, const std::string& where) {
  if (!v.is_array() || v.size() != static_cast<std::size_t>(N))
    fail(where + ": expected a list of " + std::to_string(N) + " numbers, got " + describe(v));
  Eigen::Matrix<double, N, 1> x;
  for (int i = 0; i < N; ++i)
    x(i) = read_number(v[static_cast<std::size_t>(i)], where + "[" + std::to_string(i) + "]");
  return x;
}

/// An R×C matrix given as a list of R rows or as a flat row-major list of R·C numbers.
template <int R, int C>
Eigen::Matrix<double, R, C> read_matrix(const json& v, const std::string& where) {
  Eigen::Matrix<double, R, C> m;
  const std::string shape = std::to_string(R) + "x" + std::to_string(C);
  if (v.is_array() && v.size() == static_cast<std::size_t>(R * C)) {
    for (int i = 0; i < R * C; ++i)
      m(i / C, i % C) =
          read_number(v[static_cast<std::size_t>(i)], where + "[" + std::to_string(i) + "]");
    return m;
  }
  if (!v.is_array() || v.size() != static_cast<std::size_t>(R))
    fail(where + ": expected a " + shape + " matrix (" + std::to_string(R) + " rows or " +
         std::to_string(R * C) + " numbers, row-major), got " + describe(v));
  for (int i = 0; i < R; ++i)
    m.row(i) = read_vector<C>(v[static_cast<std::size_t>(i)], where + "[" + std::to_string(i) + "]")
                   .transpose();
  return m;
}

void check_rotation(const Eigen::Matrix3d& r, const std::string& where) {
  const double err = (r.transpose() * r - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff();
  if (!(err <= kRotationTolerance)) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  ": rotation is not orthonormal (max |R^T R - I| = %.3g, tolerance %.0e)", err,
                  kRotationTolerance);
    fail(where + buf);
  }
  if (!(r.determinant() > 0)) fail(where + ": rotation has det < 0 (a reflection)");
}

/// A list of six-vectors X^(0..); the first min(size, capacity) are stored
/// (extra entries, e.g. when --order is below the file's order, are validated
/// and ignored). Returns the number of entries stored.
template <class Array>
int read_list(const json& v, const std::string& where, Array& out) {
  if (!v.is_array()) fail(where + ": expected a list of six-vectors, got " + describe(v));
  for (std::size_t k = 0; k < v.size(); ++k) {
    const Vector6 x = read_vector<6>(v[k], where + "[" + std::to_string(k) + "]");
    if (k < out.size()) out[k] = x;
  }
  return static_cast<int>(std::min(v.size(), out.size()));
}

/// Fails unless `have` >= order + extra (`why`: what needs them, may be empty).
void check_count(const std::string& where, int have, int order, int extra, const std::string& why) {
  const int needed = order + extra;
  if (have < needed)
    fail(where + ": order " + std::to_string(order) + " needs R+" + std::to_string(extra) + " = " +
         std::to_string(needed) + " six-vectors" + why + ", got " + std::to_string(have));
}

/// A list of at least order + extra six-vectors X^(0..).
template <class Array>
void read_derivatives(const json& v, const std::string& where, int order, int extra, Array& out) {
  check_count(where, read_list(v, where, out), order, extra, "");
}

/// "4" → hodyn body 3 (paper bodies are 1-based; 1 = base).
int read_body_number(const std::string& key, const char* where) {
  const std::string msg = std::string(where) + ": unknown body " + quoted(key) +
                          " (bodies are numbered 1.." + std::to_string(kNumBodies) +
                          " as in the paper, 1 = base)";
  int body = 0;
  const char* end = key.data() + key.size();
  const auto [ptr, ec] = std::from_chars(key.data(), end, body);
  if (key.empty() || ec != std::errc() || ptr != end || body < 1 || body > kNumBodies) fail(msg);
  return body - 1;
}

void read_body_wrenches(const json& in, const char* key, int order,
                        std::array<std::array<hodyn::Wrench<double>, kMaxOrder + 1>, kNumBodies>& w,
                        std::array<bool, kNumBodies>& has) {
  const auto it = in.find(key);
  if (it == in.end()) return;
  if (!it->is_object())
    fail(std::string(key) + ": expected an object {\"<body 1.." + std::to_string(kNumBodies) +
         ">\": [six-vectors]}, got " + describe(*it));
  for (const auto& [name, list] : it->items()) {
    const int j = read_body_number(name, key);
    read_derivatives(list, std::string(key) + "[" + quoted(name) + "]", order, 1, w[j]);
    has[j] = true;
  }
}

/// The JSON "order": an integer (its range is checked where it is used).
std::int64_t read_json_order(const json& v) {
  if (!v.is_number_integer()) fail("order: expected a non-negative integer, got " + describe(v));
  if (!v.is_number_unsigned()) return v.get<std::int64_t>();
  return static_cast<std::int64_t>(
      std::min<std::uint64_t>(v.get<std::uint64_t>(), std::numeric_limits<std::int64_t>::max()));
}

const char* const kKnownKeys[] = {"model", "gravity", "order", "comment", "C1", "p1", "R1", "V1",
                                  "q", "W_app", "W_app_body", "tau_ext",
                                  // forward dynamics inputs
                                  "W_prop", "W_prop_body", "tau",
                                  // hybrid dynamics inputs (hodyn extension)
                                  "prescribed_joints", "base_input"};

void check_keys(const json& in) {
  for (const auto& item : in.items()) {
    bool known = false;
    for (const char* k : kKnownKeys) known = known || item.key() == k;
    if (!known) fail("unknown key " + quoted(item.key()));
  }
}

// ---- output ----

/// Full precision for results: 17 significant digits (STATE-FORMAT).
std::string result_number(double x) {
  if (x == 0) x = 0.0;  // print -0 as 0
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// Shortest representation that reads back to the same double (for states).
std::string state_number(double x) {
  char buf[40];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

template <class Derived, class Format>
std::string row(const Eigen::MatrixBase<Derived>& x, Format format) {
  std::string s = "[";
  for (Eigen::Index i = 0; i < x.size(); ++i) s += (i ? ", " : "") + format(x(i));
  return s + "]";
}

/// A list of six-vectors, one per line, at the given indent.
template <class Array, class Format>
std::string rows(const Array& a, int count, const std::string& indent, Format format) {
  std::string s = "[\n";
  for (int k = 0; k < count; ++k)
    s += indent + "  " + row(a[static_cast<std::size_t>(k)], format) +
         (k + 1 < count ? ",\n" : "\n");
  return s + indent + "]";
}

/// "prescribed_joints": [2, 5] → prescribed[1], prescribed[4] (paper body numbers).
void read_prescribed_joints(const json& v, std::array<bool, kNumJoints>& prescribed) {
  const char* where = "prescribed_joints";
  if (!v.is_array())
    fail(std::string(where) + ": expected a list of joint numbers 2.." +
         std::to_string(kNumBodies) + ", got " + describe(v));
  for (std::size_t i = 0; i < v.size(); ++i) {
    const json& x = v[i];
    const std::string at = std::string(where) + "[" + std::to_string(i) + "]";
    if (!x.is_number_integer())
      fail(at + ": expected a joint number 2.." + std::to_string(kNumBodies) + ", got " +
           describe(x));
    const std::int64_t n =
        x.is_number_unsigned()
            ? static_cast<std::int64_t>(std::min<std::uint64_t>(
                  x.get<std::uint64_t>(), std::numeric_limits<std::int64_t>::max()))
            : x.get<std::int64_t>();
    if (n == 1) fail(at + ": 1 is the base, not a joint (joints are numbered 2..7 by child body)");
    if (n < 2 || n > kNumBodies)
      fail(at + ": unknown joint " + std::to_string(n) + " (joints are numbered 2.." +
           std::to_string(kNumBodies) + " by their child body, as in the paper)");
    bool& p = prescribed[static_cast<std::size_t>(n - 2)];
    if (p) fail(at + ": joint " + std::to_string(n) + " is listed twice");
    p = true;
  }
}

/// W_prop / W_prop_body, tau, prescribed_joints, base_input.
void read_dynamics_inputs(const json& in, int order, DynamicsInputs& d) {
  const auto w_world = in.find("W_prop");
  const auto w_body = in.find("W_prop_body");
  if (w_world != in.end() && w_body != in.end())
    fail("give either W_prop or W_prop_body, not both");
  if (w_world != in.end() || w_body != in.end()) {
    const bool world = w_world != in.end();
    read_derivatives(world ? *w_world : *w_body, world ? "W_prop" : "W_prop_body", order, 1,
                     d.base_wrench);
    d.has_base_wrench = true;
    d.base_wrench_frame = world ? hodyn::WrenchFrame::kWorld : hodyn::WrenchFrame::kBase;
  }
  if (const auto it = in.find("tau"); it != in.end()) {
    read_derivatives(*it, "tau", order, 1, d.tau);
    d.has_tau = true;
  }
  if (const auto it = in.find("prescribed_joints"); it != in.end())
    read_prescribed_joints(*it, d.prescribed);
  if (const auto it = in.find("base_input"); it != in.end()) {
    if (it->is_string() && it->get<std::string>() == "wrench") {
      d.base_input = hodyn::BaseInput::kWrench;
    } else if (it->is_string() && it->get<std::string>() == "motion") {
      d.base_input = hodyn::BaseInput::kMotion;
    } else {
      fail("base_input: expected \"wrench\" or \"motion\", got " + describe(*it));
    }
  }
}

/// How many derivatives of V1 and q the request needs. The inverse dynamics
/// (V1^(0..R+1), q^(0..R+2)) runs when nothing else is requested and for the
/// round trips of --forward / --hybrid / --linearize (W_prop or tau not
/// given); otherwise forward dynamics and the linearization need V1^(0),
/// q^(0..1), hybrid dynamics with base motion V1^(0..R+1), with prescribed
/// joints q^(0..R+2), --matrices at R >= 1 the rates V1^(1), q^(2), and
/// --kinematics and --regressor the full V1^(0..R+1), q^(0..R+2).
void check_motion_counts(State& s, int v1_count, int q_count, const Request& request) {
  const int r = s.order;
  const DynamicsInputs& d = s.inputs;
  const bool base_motion = d.base_input == hodyn::BaseInput::kMotion;
  const bool forward_round_trip = request.forward && (!d.has_base_wrench || !d.has_tau);
  const bool linearize_round_trip = request.linearize && (!d.has_base_wrench || !d.has_tau);
  const bool hybrid_round_trip = request.hybrid && ((!base_motion && !d.has_base_wrench) ||
                                                    (!d.all_prescribed() && !d.has_tau));
  if (!request.any() || forward_round_trip || hybrid_round_trip || linearize_round_trip) {
    const std::string why =
        !request.any()       ? std::string()
        : forward_round_trip ? " (--forward without W_prop and tau uses the inverse dynamics)"
        : hybrid_round_trip  ? " (--hybrid without W_prop and tau uses the inverse dynamics)"
                             : " (--linearize without W_prop and tau uses the inverse dynamics)";
    check_count("V1", v1_count, r, 2, why);
    check_count("q", q_count, r, 3, why);
  }
  if (request.kinematics) {
    check_count("V1", v1_count, r, 2, " (--kinematics: V_j^(R+1) reads V1^(R+1))");
    check_count("q", q_count, r, 3, " (--kinematics: V_j^(R+1) reads q^(R+2))");
  }
  if (request.regressor) {
    check_count("V1", v1_count, r, 2, " (--regressor: Y^(R) reads V1^(R+1))");
    check_count("q", q_count, r, 3, " (--regressor: Y^(R) reads q^(R+2))");
  }
  if (request.hybrid && base_motion)
    check_count("V1", v1_count, r, 2, " (--hybrid with base_input \"motion\")");
  if (request.hybrid && d.any_prescribed())
    check_count("q", q_count, r, 3, " (--hybrid with prescribed_joints)");
  const int rates = request.matrices && r >= 1 ? 1 : 0;
  const std::string why = rates ? " (--matrices at order >= 1 computes the rates)" : "";
  if (v1_count < 1 + rates)
    fail("V1: needs V1^(0" + std::string(rates ? "..1" : "") + ")" + why + ", got " +
         std::to_string(v1_count) + " six-vectors");
  if (q_count < 2 + rates)
    fail("q: needs q^(0.." + std::to_string(1 + rates) + ")" + why + ", got " +
         std::to_string(q_count) + " six-vectors");
  s.full_motion = v1_count >= r + 2 && q_count >= r + 3;
}
/// Entries first..first+count−1 of a list of vectors (see rows).
template <class Array, class Format>
std::string rows_from(const Array& a, int first, int count, const std::string& indent,
                      Format format) {
  std::string s = "[\n";
  for (int k = first; k < first + count; ++k)
    s += indent + "  " + row(a[static_cast<std::size_t>(k)], format) +
         (k + 1 < first + count ? ",\n" : "\n");
  return s + indent + "]";
}

/// A matrix as a list of rows, one per line.
template <class Derived, class Format>
std::string matrix_rows(const Eigen::MatrixBase<Derived>& m, const std::string& indent,
                        Format format) {
  std::string s = "[\n";
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    s += indent + "  " + row(m.row(i), format) + (i + 1 < m.rows() ? ",\n" : "\n");
  return s + indent + "]";
}

}  // namespace

void check_order(std::int64_t order) {
  if (order < 0) fail("order " + std::to_string(order) + " is negative");
  if (order > kMaxOrder)
    fail("order " + std::to_string(order) + " above the compiled maximum " +
         std::to_string(kMaxOrder));
}

State parse_state(const json& in, int order_override, const Request& request) {
  if (!in.is_object()) fail("the state must be a JSON object, got " + describe(in));
  check_keys(in);
  State s;

  if (const auto it = in.find("model"); it != in.end()) {
    if (!it->is_string() || it->get<std::string>() != "aerial_manipulator")
      fail("model: only \"aerial_manipulator\" is supported, got " + describe(*it));
  }
  if (const auto it = in.find("comment"); it != in.end()) {
    if (!it->is_string()) fail("comment: expected a string, got " + describe(*it));
    s.comment = it->get<std::string>();
  }
  if (const auto it = in.find("gravity"); it != in.end()) s.gravity = read_number(*it, "gravity");

  // --order governs; the JSON "order" is the default.
  std::int64_t order = order_override;
  if (order < 0) {
    const auto it = in.find("order");
    order = it != in.end() ? read_json_order(*it) : 0;
  } else if (const auto it = in.find("order"); it != in.end()) {
    (void)read_json_order(*it);  // informational, but must still be an integer
  }
  check_order(order);
  s.order = static_cast<int>(order);
  const int r = s.order;

  // Base pose: C1 (4x4) or p1 + R1.
  const bool has_c1 = in.contains("C1");
  const bool has_p1 = in.contains("p1");
  const bool has_r1 = in.contains("R1");
  hodyn::Pose<double>& pose = s.motion.base_pose;
  if (has_c1) {
    if (has_p1 || has_r1) fail("give either C1 or p1 + R1, not both");
    const Eigen::Matrix4d c = read_matrix<4, 4>(in["C1"], "C1");
    if ((c.row(3) - Eigen::RowVector4d(0, 0, 0, 1)).cwiseAbs().maxCoeff() > kRotationTolerance)
      fail("C1: last row must be (0, 0, 0, 1)");
    pose = hodyn::Pose<double>::from_matrix(c);
    check_rotation(pose.rotation, "C1");
  } else if (has_p1 || has_r1) {
    if (!has_p1) fail("missing key \"p1\" (R1 is given; the base pose is C1 or p1 + R1)");
    if (!has_r1) fail("missing key \"R1\" (p1 is given; the base pose is C1 or p1 + R1)");
    pose.translation = read_vector<3>(in["p1"], "p1");
    pose.rotation = read_matrix<3, 3>(in["R1"], "R1");
    check_rotation(pose.rotation, "R1");
  } else {
    fail("missing key \"C1\" (or \"p1\" + \"R1\")");
  }

  const int v1_count = read_list(require(in, "V1"), "V1", s.motion.base_twist);
  const int q_count = read_list(require(in, "q"), "q", s.motion.q);
  read_dynamics_inputs(in, r, s.inputs);
  check_motion_counts(s, v1_count, q_count, request);

  read_body_wrenches(in, "W_app", r, s.loads.world_wrench, s.loads.has_world_wrench);
  read_body_wrenches(in, "W_app_body", r, s.loads.body_wrench, s.loads.has_body_wrench);
  bool has_tau_ext = false;
  if (const auto it = in.find("tau_ext"); it != in.end()) {
    read_derivatives(*it, "tau_ext", r, 1, s.loads.joint_torque);
    has_tau_ext = true;
  }
  for (int j = 0; j < kNumBodies; ++j)
    s.has_loads = s.has_loads || s.loads.has_world_wrench[j] || s.loads.has_body_wrench[j];
  s.has_loads = s.has_loads || has_tau_ext;
  // A and B of issue 17 have no applied loads (hodyn/linearization.hpp): refuse
  // rather than linearize about another state's accelerations.
  if (request.linearize && s.has_loads)
    fail(
        "--linearize: applied loads (W_app, W_app_body, tau_ext) are not part of the "
        "linearization of issue 17 (hodyn/linearization.hpp); remove them");
  // Y^(k) of issue 18 is the regressor without applied wrenches: with loads,
  // Y π would not be the "inverse" of the same state.
  if (request.regressor && s.has_loads)
    fail(
        "--regressor: applied loads (W_app, W_app_body, tau_ext) are not part of the regressor "
        "Y of issue 18 (hodyn/inverse_dynamics_regressor.hpp); remove them");
  return s;
}

void print_result(std::ostream& os, const Results& res) {
  const int n = res.order + 1;
  const std::string in = "    ";
  // Sections are separated by ",\n"; each starts with `  "name": {`.
  std::string out = "{\n  \"order\": " + std::to_string(res.order);
  const auto section = [&](const char* name) { out += ",\n  \"" + std::string(name) + "\": {\n"; };
  const auto entry = [&](const char* key, const std::string& value, bool last) {
    out += in + "\"" + key + "\": " + value + (last ? "\n" : ",\n");
  };
  if (res.inverse != nullptr) {
    section("inverse");
    entry("Q1", rows(res.inverse->base_wrench, n, in, result_number), false);
    entry("W_prop_body", rows(res.inverse->base_wrench_body, n, in, result_number), false);
    entry("tau", rows(res.inverse->joint_torque, n, in, result_number), true);
    out += "  }";
  }
  // V1^(1..R+1) and q^(2..R+2) of a forward / hybrid result.
  const auto motion = [&](const ForwardData& d, bool last) {
    entry("V1", rows_from(d.motion.base_twist, 1, n, in, result_number), false);
    entry("q", rows_from(d.motion.q, 2, n, in, result_number), last);
  };
  if (res.forward != nullptr) {
    section("forward");
    motion(*res.forward, true);
    out += "  }";
  }
  if (res.hybrid != nullptr) {
    section("hybrid");
    motion(*res.hybrid, false);
    entry("Q1", rows(res.hybrid->base_wrench, n, in, result_number), false);
    entry("tau", rows(res.hybrid->joint_torque, n, in, result_number), true);
    out += "  }";
  }
  if (res.matrices != nullptr) {
    const auto& m = res.matrices->result;
    const auto matrix = [&](const auto& a) { return matrix_rows(a, in, result_number); };
    const auto vector = [&](const auto& v) { return row(v, result_number); };
    const bool r = res.matrix_rates;
    section("matrices");
    entry("M", matrix(m.mass_matrix), false);
    entry("C", matrix(m.coriolis_matrix), false);
    entry("h", vector(m.coriolis), false);
    entry("g", vector(m.gravity), false);
    entry("applied", vector(m.applied), !r);
    if (r) {
      entry("M_dot", matrix(m.mass_matrix_rate), false);
      entry("C_dot", matrix(m.coriolis_matrix_rate), false);
      entry("h_dot", vector(m.coriolis_rate), false);
      entry("g_dot", vector(m.gravity_rate), false);
      entry("applied_dot", vector(m.applied_rate), true);
    }
    out += "  }";
  }
  if (res.kinematics != nullptr) {
    const KinematicsResults& k = *res.kinematics;
    const std::string inner = in + "  ";
    // [item(0), ..., item(count − 1)], one per line.
    const auto list = [&](int count, const auto& item) {
      std::string t = "[\n";
      for (int i = 0; i < count; ++i) t += inner + item(i) + (i + 1 < count ? ",\n" : "\n");
      return t + in + "]";
    };
    const auto flat_rows = [&](const auto& m) {  // a matrix as a list of rows, on one line
      std::string t = "[";
      for (Eigen::Index i = 0; i < m.rows(); ++i)
        t += (i ? ", " : "") + row(m.row(i), result_number);
      return t + "]";
    };
    const auto at = [](int i) { return static_cast<std::size_t>(i); };
    section("kinematics");
    entry(
        "C",
        list(kNumBodies, [&](int j) { return flat_rows(k.kinematics.body_pose[at(j)].matrix()); }),
        false);
    entry("V",
          list(kNumBodies,
               [&](int j) {
                 std::string t = "[";
                 for (int d = 0; d <= res.order + 1; ++d)
                   t += (d ? ", " : "") + row(k.kinematics.body_twist[at(j)][at(d)], result_number);
                 return t + "]";
               }),
          false);
    entry("J", list(kNumBodies, [&](int j) { return flat_rows(k.jacobian[at(j)]); }), false);
    entry("J_dot", list(kNumBodies, [&](int j) { return flat_rows(k.jacobian_rate[at(j)]); }),
          false);
    entry("com", rows(k.com.position, res.order + 2, in, result_number), false);
    entry("J_com", matrix_rows(k.com.jacobian, in, result_number), true);
    out += "  }";
  }
  if (res.linearization != nullptr) {  // z = (ξ, δq, δV, δq̇), δu = (δW_prop base frame, δτ)
    section("linearization");
    entry("A", matrix_rows(res.linearization->a, in, result_number), false);
    entry("B", matrix_rows(res.linearization->b, in, result_number), true);
    out += "  }";
  }
  if (res.regressor != nullptr) {  // π (bodies 1..7, ten each), Y^(0..R): rows (Q1; tau)
    const RegressorResults& g = *res.regressor;
    const std::string inner = in + "  ";
    std::string y = "[\n";
    for (int k = 0; k < n; ++k)
      y += inner +
           matrix_rows(g.data.regressor[static_cast<std::size_t>(k)], inner, result_number) +
           (k + 1 < n ? ",\n" : "\n");
    section("regressor");
    entry("parameters", row(g.parameters, result_number), false);
    entry("Y", y + in + "]", true);
    out += "  }";
  }
  os << out << "\n}\n";
}

void print_state(std::ostream& os, const State& s) {
  const int r = s.order;
  const std::string in = "  ";
  os << "{\n";
  if (!s.comment.empty()) os << in << "\"comment\": " << json(s.comment).dump() << ",\n";
  os << in << "\"model\": \"aerial_manipulator\",\n"
     << in << "\"gravity\": " << state_number(s.gravity) << ",\n"
     << in << "\"order\": " << r << ",\n"
     << in << "\"p1\": " << row(s.motion.base_pose.translation, state_number) << ",\n"
     << in << "\"R1\": [\n";
  for (int i = 0; i < 3; ++i)
    os << in << "  " << row(s.motion.base_pose.rotation.row(i), state_number)
       << (i < 2 ? ",\n" : "\n");
  os << in << "],\n"
     << in << "\"V1\": " << rows(s.motion.base_twist, r + 2, in, state_number) << ",\n"
     << in << "\"q\": " << rows(s.motion.q, r + 3, in, state_number);
  os << "\n}\n";
}

}  // namespace hodyn_eval
