// hodyn-eval — the Table 3 demo state (--demo, --emit-example-state) and --sizes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>

#include <Eigen/Eigenvalues>

#include "hodyn_eval.hpp"

#include <hodyn/reference/table3_trajectory.hpp>

namespace hodyn_eval {
namespace {

// ---- sizes at MaxOrder 10: measured with g++ 12 / Eigen 3.4 on x86-64, bound ~10% above ----
// If one of these fires, the core's memory footprint grew: check that the
// growth is intended, then raise the bound (and say so in the change).
// InverseDynamicsData holds coefficient lanes whose size follows the target's
// vector width: 17216 bytes with SSE2, 21632 with AVX2; the bound leaves room
// for 64-byte lanes.
static_assert(sizeof(InverseData) <= 28000, "InverseDynamicsData grew (measured 21632 bytes)");
static_assert(sizeof(ForwardData) <= 30600, "ForwardDynamicsData grew (measured 27808 bytes)");
static_assert(sizeof(EomData) <= 21700, "EquationsOfMotionData grew (measured 19696 bytes)");
static_assert(sizeof(Motion) <= 1430, "MotionDerivatives grew (measured 1296 bytes)");
static_assert(sizeof(Loads) <= 8730, "ExternalLoads grew (measured 7936 bytes)");
static_assert(sizeof(Model) <= 4100, "Model grew (measured 3712 bytes with the joint-frame inertias)");

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

#if defined(__GNUC__)
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
#endif
std::string format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

/// The entries of x in `fmt`; values that would print as -0.000… print as 0.000….
template <class Derived>
std::string numbers(const Eigen::MatrixBase<Derived>& x, const char* fmt, double scale = 1.0) {
  std::string s;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    std::string n = format(fmt, scale * x(i));
    if (n.find_first_of("123456789") == std::string::npos) n = format(fmt, 0.0);
    s += n;
  }
  return s;
}

/// Column headers right-aligned over fields of `width` characters.
std::string header(std::initializer_list<const char*> names, int width) {
  std::string s;
  for (const char* name : names) s += format("%*s", width, name);
  return s;
}

const char* const kPerSecond[] = {"", "/s", "/s²", "/s³", "/s⁴", "/s⁵"};

}  // namespace

State table3_state(double t, int order) {
  check_order(order);
  State s;
  s.order = order;
  s.comment = "seed 000 Table 3 reference state at t = " + format("%g", t) +
              " s (regenerate: hodyn-eval --emit-example-state)";
  // Seed 000 Table 3 reference trajectory (core/include/hodyn/reference/
  // table3_trajectory.hpp): exact derivatives, every entry up to kMaxOrder.
  const hodyn::Table3Trajectory trajectory;
  trajectory.sample<kMaxOrder>(t, kMaxOrder, s.motion);
  return s;
}

void print_sizes(std::ostream& os) {
  const auto line = [&](const char* name, std::size_t bytes, const char* what) {
    os << format("  %-21s %7zu bytes  %6.1f KiB   %s\n", name, bytes,
                 static_cast<double>(bytes) / 1024.0, what);
  };
  os << "sizeof for the aerial manipulator (7 bodies, 6 joints), double, MaxOrder " << kMaxOrder
     << ":\n";
  line("InverseDynamicsData", sizeof(InverseData), "workspace + results of inverse_dynamics");
  line("MotionDerivatives", sizeof(Motion), "C1, V1^(0..MaxOrder+1), q^(0..MaxOrder+2)");
  line("ExternalLoads", sizeof(Loads), "W_app, W_app_body, tau_ext, orders 0..MaxOrder");
  line("ForwardDynamicsData", sizeof(ForwardData), "workspace + results of forward/hybrid");
  line("EquationsOfMotionData", sizeof(EomData), "workspace + M, C, h, g and rates (12 dofs)");
  line("KinematicsData", sizeof(hodyn::KinematicsData<Tree, kMaxOrder, double>),
       "poses, twists V_j^(0..MaxOrder+1), joint screws S_j^(0..MaxOrder+1)");
  line("Model", sizeof(Model), "AerialManipulatorModel<double>");
}

void run_demo(std::ostream& os) {
  constexpr double kTime = 7.5;
  constexpr int kOrder = 2;
  const State s = table3_state(kTime, kOrder);
  const Model model = make_model(s.gravity);
  InverseData data;
  run_inverse(model, s, data);

  const auto& pose = s.motion.base_pose;
  const double psi = std::atan2(pose.rotation(1, 0), pose.rotation(0, 0));
  os << "hodyn-eval --demo: 12-DoF aerial manipulator (seed 000 Sec. 7, Table 3), inverse "
        "dynamics of orders 0..2\n\n";
  os << format(
      "State at t = %.1f s (base on the 1 m circle, yaw 25 deg sin(2 pi t/30), joint ramps)\n",
      kTime);
  os << "  base position x  =" << numbers(pose.translation, "%9.4f") << " m"
     << format("     yaw = %.2f deg, roll = pitch = 0\n", psi / kDeg);
  os << "  base twist V1    =" << numbers(hodyn::angular(s.motion.base_twist[0]), "%9.4f")
     << " rad/s |" << numbers(hodyn::linear(s.motion.base_twist[0]), "%9.4f") << " m/s\n";
  os << "  joints q2..q7    =" << numbers(s.motion.q[0], "%9.3f", 1.0 / kDeg) << " deg\n\n";

  const std::string wrench_header = "        " + header({"n_x", "n_y", "n_z"}, 10) + " |" +
                                    header({"f_x", "f_y", "f_z"}, 10) + "\n";
  const auto wrench_rows = [&](const auto& w) {
    for (int r = 0; r <= kOrder; ++r)
      os << format("  r = %d ", r) << numbers(hodyn::angular(w[r]), "%10.4f") << " |"
         << numbers(hodyn::linear(w[r]), "%10.4f") << "   N·m" << kPerSecond[r] << ", N"
         << kPerSecond[r] << "\n";
  };
  os << "Spatial base wrench Q1^(r) (world frame, moment about the world origin)\n"
     << wrench_header;
  wrench_rows(data.base_wrench);
  os << "Propulsion wrench in the base frame, d^r/dt^r (Ad_C1^T Q1)\n" << wrench_header;
  wrench_rows(data.base_wrench_body);
  os << "Joint torques tau^(r)\n"
     << "        " << header({"q2", "q3", "q4", "q5", "q6", "q7"}, 10) << "\n";
  for (int r = 0; r <= kOrder; ++r)
    os << format("  r = %d ", r) << numbers(data.joint_torque[r], "%10.5f") << "   N·m"
       << kPerSecond[r] << "\n";

  // Round trips through forward / hybrid dynamics and the closed forms.
  const auto forward = std::make_unique<ForwardData>();
  os << "\nForward dynamics round trip: Q1^(0..r), tau^(0..r) above in, nu^(k+1) = "
        "(V1^(k+1); q^(k+2)) out,\nworst relative error against the state, max_k "
        "|d nu^(k+1)| / |nu^(k+1)| (inf-norms):\n ";
  for (int r = 0; r <= kOrder; ++r) {
    State sr = s;
    sr.order = r;
    run_forward(model, sr, &data, *forward);
    const double err = acceleration_relative_error(*forward, s.motion, r);
    os << format(" r = %d: %.1e%s", r, err, r < kOrder ? "   " : "\n");
  }
  State all = s;
  all.inputs.base_input = hodyn::BaseInput::kMotion;
  all.inputs.prescribed.fill(true);
  run_hybrid(model, all, &data, *forward);
  const double hybrid_err =
      std::max(worst_relative_error(forward->base_wrench, data.base_wrench, 0, kOrder + 1),
               worst_relative_error(forward->joint_torque, data.joint_torque, 0, kOrder + 1));
  os << format(
      "Hybrid dynamics, base and all joints prescribed, r = 0..%d: Q1, tau as above to %.1e\n",
      kOrder, hybrid_err);
  const auto eom = std::make_unique<EomData>();
  run_matrices(model, s, false, *eom);
  const auto& m = eom->result;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 12, 12>> eig(m.mass_matrix);
  const auto& lambda = eig.eigenvalues();
  Eigen::Matrix<double, 12, 1> nu_dot, tau_bar;
  nu_dot << s.motion.base_twist[1], s.motion.q[2];
  tau_bar << data.base_wrench[0], data.joint_torque[0];
  const Eigen::Matrix<double, 12, 1> lhs = m.mass_matrix * nu_dot + m.coriolis + m.gravity;
  os << format(
      "Mass matrix M (12x12, nu = (V1; dq)): condition number %.3g (eigenvalues %.3g .. %.3g)\n",
      lambda(11) / lambda(0), lambda(0), lambda(11));
  os << format("Equations of motion: M nu_dot + h + g = (Q1; tau) at r = 0 to %.1e relative\n",
               (lhs - tau_bar).cwiseAbs().maxCoeff() / tau_bar.cwiseAbs().maxCoeff());

  // Hover sanity: home at rest, order 0 → Q1 = (0,0,0, 0,0, m_total g).
  State hover;
  InverseData hover_data;
  run_inverse(model, hover, hover_data);
  const double mg = model.total_mass() * s.gravity;
  hodyn::Wrench<double> expected = hodyn::Wrench<double>::Zero();
  expected(5) = mg;
  const double deviation = (hover_data.base_wrench[0] - expected).cwiseAbs().maxCoeff();
  std::string q1 = numbers(hover_data.base_wrench[0], "%g, ");
  q1.resize(q1.size() - 2);
  os << "\nHover check (home, at rest, order 0): Q1 = (" << q1 << ")"
     << format("   expected m g = %g kg x %g m/s²: %s\n", model.total_mass(), s.gravity,
               deviation <= 1e-12 ? "ok" : "MISMATCH");

  // Rough timing (not a benchmark).
  constexpr int kCalls = 10000;
  volatile double sink = 0.0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) {
    (void)hodyn::inverse_dynamics(model, data, s.motion, kOrder);
    sink = sink + data.base_wrench[kOrder](5);
  }
  const auto stop = std::chrono::steady_clock::now();
  const double us = std::chrono::duration<double, std::micro>(stop - start).count() / kCalls;
  os << format(
      "Time per call (order %d): %.2f us (rough; mean of %d calls; see bench/ for "
      "measured medians)\n",
      kOrder, us, kCalls);
  os << format(
      "Workspace: InverseDynamicsData %zu bytes, MotionDerivatives %zu bytes at MaxOrder "
      "%d, no heap (hodyn-eval --sizes)\n",
      sizeof(InverseData), sizeof(Motion), kMaxOrder);
  os << "Full-precision JSON of this state: hodyn-eval examples/state_table3.json\n";
}

}  // namespace hodyn_eval
