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
    std::string s = v.dump();  // quoted and escaped: never contains a newline
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return "string " + s;
  }
  if (v.is_array()) return "a list of " + std::to_string(v.size());
  if (v.is_number()) return "number " + v.dump();
  return v.type_name();
}

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

/// A list of at least `needed` six-vectors X^(0..); the first min(size, capacity)
/// are stored (extra entries, e.g. when --order is below the file's order, are
/// validated and ignored).
template <class Array>
void read_derivatives(const json& v, const std::string& where, int order, int extra, Array& out) {
  const int needed = order + extra;
  if (!v.is_array()) fail(where + ": expected a list of six-vectors, got " + describe(v));
  if (v.size() < static_cast<std::size_t>(needed))
    fail(where + ": order " + std::to_string(order) + " needs R+" + std::to_string(extra) + " = " +
         std::to_string(needed) + " six-vectors, got " + std::to_string(v.size()));
  for (std::size_t k = 0; k < v.size(); ++k) {
    const Vector6 x = read_vector<6>(v[k], where + "[" + std::to_string(k) + "]");
    if (k < out.size()) out[k] = x;
  }
}

/// "4" → hodyn body 3 (paper bodies are 1-based; 1 = base).
int read_body_number(const std::string& key, const char* where) {
  const std::string msg = std::string(where) + ": unknown body \"" + key +
                          "\" (bodies are numbered 1.." + std::to_string(kNumBodies) +
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
    read_derivatives(list, std::string(key) + "[\"" + name + "\"]", order, 1, w[j]);
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
                                  // forward dynamics inputs (read once --forward exists)
                                  "W_prop", "W_prop_body", "tau"};

void check_keys(const json& in) {
  for (const auto& item : in.items()) {
    bool known = false;
    for (const char* k : kKnownKeys) known = known || item.key() == k;
    if (!known) fail("unknown key \"" + item.key() + "\"");
  }
}

// ---- output ----

/// Full precision for results: 17 significant digits (STATE-FORMAT).
std::string result_number(double x) {
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

}  // namespace

void check_order(std::int64_t order) {
  if (order < 0) fail("order " + std::to_string(order) + " is negative");
  if (order > kMaxOrder)
    fail("order " + std::to_string(order) + " above the compiled maximum " +
         std::to_string(kMaxOrder));
}

State parse_state(const json& in, int order_override) {
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

  read_derivatives(require(in, "V1"), "V1", r, 2, s.motion.base_twist);
  read_derivatives(require(in, "q"), "q", r, 3, s.motion.q);

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
  return s;
}

Model make_model(double gravity) {
  Model model;
  hodyn::AerialManipulatorParameters p;
  p.gravity = gravity;
  const hodyn::Status st = hodyn::make_aerial_manipulator(model, p);
  if (st != hodyn::Status::kOk)
    throw CoreError(std::string("building the aerial manipulator model: ") + hodyn::to_string(st));
  return model;
}

void run_inverse(const Model& model, const State& state, InverseData& data) {
  const hodyn::Status st = hodyn::inverse_dynamics(
      model, data, state.motion, state.has_loads ? &state.loads : nullptr, state.order);
  if (st != hodyn::Status::kOk)
    throw CoreError(std::string("inverse dynamics: ") + hodyn::to_string(st));
}

void print_result(std::ostream& os, int order, const InverseData& inverse) {
  const int n = order + 1;
  const std::string in = "    ";
  os << "{\n  \"order\": " << order << ",\n"
     << "  \"inverse\": {\n"
     << in << "\"Q1\": " << rows(inverse.base_wrench, n, in, result_number) << ",\n"
     << in << "\"W_prop_body\": " << rows(inverse.base_wrench_body, n, in, result_number) << ",\n"
     << in << "\"tau\": " << rows(inverse.joint_torque, n, in, result_number) << "\n"
     << "  }\n}\n";
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
