// hodyn-paper-sim — the simulation of seed 000 §7 (Table 3, Fig. 3): the
// 12-DoF aerial manipulator follows the Table 3 reference motion for T = 30 s;
// at every sample, inverse dynamics of order 5 (H-GRNE-FBS) turns the reference
// into Q1^(0..5) and tau^(0..5), and forward dynamics of order 5 (H-GABI-FBS),
// fed with them and with the reference state (C1, V1, q, q'), must give back
// V1^(1..6) and q^(2..7). The round trip is run with the propulsion wrench in
// the world frame (spatial Q1^(k)) and in the base frame (d^k/dt^k Ad_C1^T Q1).
//
// Desktop tool: std::vector, std::string and iostreams are used freely here
// (never in the core). See docs/paper-simulation.md.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include <hodyn/hodyn.hpp>
#include <hodyn/reference/table3_trajectory.hpp>

#ifndef HODYN_PAPER_SIM_PLOT_SCRIPT
#define HODYN_PAPER_SIM_PLOT_SCRIPT "plot_paper_sim.py"
#endif
#ifndef HODYN_PAPER_SIM_PYTHON
#define HODYN_PAPER_SIM_PYTHON "python3"
#endif

namespace {

constexpr int kMaxOrder = 5;
constexpr int kNumOrders = kMaxOrder + 1;
constexpr int kNumJoints = 6;

using Tree = hodyn::AerialManipulatorTree;
using Model = hodyn::AerialManipulatorModel<double>;
using Motion = hodyn::MotionDerivatives<Tree, kMaxOrder, double>;
using InverseData = hodyn::InverseDynamicsData<Tree, kMaxOrder, double>;
using ForwardData = hodyn::ForwardDynamicsData<Tree, kMaxOrder, double>;
using ForwardInput = hodyn::ForwardDynamicsInput<Tree, kMaxOrder, double>;
using EomData = hodyn::EquationsOfMotionData<Tree, double>;
using Vector12 = Eigen::Matrix<double, 12, 1>;

// Round-trip bounds on the worst relative (forward) error per order r: the
// worst of both input frames measured with g++ 12 on x86-64 (about 2e-11,
// 2e-11, 2e-8, 4e-8, 6e-6, 3e-6) times about 10, rounded (see
// docs/paper-simulation.md). The error grows with r because the problem does:
// each order's bias carries the lower orders' errors through M⁻¹ again
// (cond(M) ≈ 9e3 in the world frame here) while the reference derivatives
// shrink like wʳ (w ≤ 0.31 rad/s). Evaluated in long double, the same round
// trip is ~2000x (the ratio of the epsilons) more accurate, and eps-sized
// input perturbations move the exact order-4 result by ~1e-6: conditioning,
// not an algorithmic error. The backward error (ID of the recovered motion
// against the inputs) stays near 1e-15 for every order.
constexpr std::array<double, kNumOrders> kBound{3e-10, 3e-10, 5e-7, 5e-7, 1e-4, 1e-4};
// Tiny reference norms: the relative error is taken against
// max(|x^(k)(t)|, kFloor · max_t |x^(k)(t)|) so that a zero crossing of the
// whole 12-vector cannot blow the ratio up.
constexpr double kFloor = 1e-12;

// Fig. 3 caption, seed 000 (digest §10.5): mean µs per call, i7-12700H.
constexpr std::array<double, kNumOrders> kPaperInverseUs{2.326, 3.078, 2.867, 4.355, 5.960, 8.171};
constexpr std::array<double, kNumOrders> kPaperForwardUs{4.106, 4.802, 6.486, 6.461, 8.589, 11.085};

const char* const kUsage = R"(Usage: hodyn-paper-sim [--samples N] [--csv FILE] [--plots DIR] [--check]

Reproduces the simulation of seed 000 Sec. 7 (Table 3, Fig. 3) for the 12-DoF
aerial manipulator: along the Table 3 reference motion (T = 30 s), inverse
dynamics of order 5 gives Q1^(0..5) and tau^(0..5); forward dynamics of order 5,
fed with them, must give back V1^(1..6) and q^(2..7). Prints, per order r, the
worst relative round-trip error (propulsion wrench given in the world frame and
in the base frame), a rough time per call of each algorithm, and pass/fail
against the bounds.

Options:
  --samples N   number of samples t_i = i T/N, i = 0..N-1 (default 3000: every
                0.01 s from 0 to 29.99 s)
  --csv FILE    write every sample to FILE (default paper_sim.csv)
  --plots DIR   also write the Fig. 3-style PNGs into DIR (runs
                plot_paper_sim.py with python3 and matplotlib; the interpreter
                is the one found at configure time, or $HODYN_PYTHON)
  --check       exit with status 1 if an order exceeds its bound
  -h, --help    this text

Exit codes: 0 ok, 1 a bound exceeded (--check), 2 bad usage, 3 error status
from the core, 4 the plot script failed.
)";

struct Options {
  int samples = 3000;
  std::string csv = "paper_sim.csv";
  std::string plots;
  bool check = false;
  bool help = false;
};

struct UsageError {
  std::string what;
};

Options parse_args(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError{a + ": missing value"};
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      opt.help = true;
    } else if (a == "--check") {
      opt.check = true;
    } else if (a == "--csv") {
      opt.csv = value();
      if (opt.csv.empty()) throw UsageError{"--csv: empty file name"};
    } else if (a == "--plots") {
      opt.plots = value();
      if (opt.plots.empty()) throw UsageError{"--plots: empty directory name"};
    } else if (a == "--samples") {
      const std::string v = value();
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || n < 1 || n > 10000000)
        throw UsageError{"--samples: expected an integer in 1..10000000, got '" + v + "'"};
      opt.samples = static_cast<int>(n);
    } else {
      throw UsageError{"unknown argument '" + a + "'"};
    }
  }
  return opt;
}

struct CoreError {
  std::string what;
};

void require(hodyn::Status s, const char* call, double t) {
  if (s != hodyn::Status::kOk) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s at t = %g s: %s", call, t, hodyn::to_string(s));
    throw CoreError{buf};
  }
}

/// (V1^(k+1); q^(k+2)) of order k as one 12-vector.
Vector12 stack(const Motion& m, int k) {
  Vector12 x;
  x << m.base_twist[static_cast<std::size_t>(k + 1)], m.q[static_cast<std::size_t>(k + 2)];
  return x;
}

ForwardInput forward_input(const Motion& ref, const InverseData& id, hodyn::WrenchFrame frame) {
  ForwardInput in;
  in.base_pose = ref.base_pose;
  in.base_twist = ref.base_twist[0];
  in.q = ref.q[0];
  in.q_dot = ref.q[1];
  in.base_wrench_frame = frame;
  for (int k = 0; k <= kMaxOrder; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    in.base_wrench[kk] = frame == hodyn::WrenchFrame::kWorld ? id.base_wrench[kk]
                                                               : id.base_wrench_body[kk];
    in.joint_torque[kk] = id.joint_torque[kk];
  }
  return in;
}

/// Per-order statistics over the run.
struct OrderStats {
  std::vector<double> error_abs[2];  // |Δ| per sample, [world, base]
  std::vector<double> ref_norm;      // |x^(k)| per sample
  std::vector<double> backward_abs;  // |(ΔQ1^(r), Δτ^(r))| of ID(recovered motion)
  std::vector<double> input_norm;    // |(Q1^(r), τ^(r))|
  double worst[2] = {0, 0};
  double worst_t[2] = {0, 0};
  double worst_backward = 0;
  double floor = 0;
};

// ---- CSV -------------------------------------------------------------------

const char* const kTwistNames[] = {"wx", "wy", "wz", "vx", "vy", "vz"};
const char* const kWrenchNames[] = {"nx", "ny", "nz", "fx", "fy", "fz"};

std::string csv_header() {
  std::ostringstream h;
  h << "t,x,y,z,yaw";
  for (int j = 1; j <= kNumJoints; ++j) h << ",q" << j;
  for (int k = 1; k <= kMaxOrder; ++k) h << ",x_d" << k << ",y_d" << k << ",z_d" << k << ",yaw_d" << k;
  for (int k = 1; k <= kMaxOrder + 2; ++k)
    for (int j = 1; j <= kNumJoints; ++j) h << ",q" << j << "_d" << k;
  for (int k = 0; k <= kMaxOrder + 1; ++k)
    for (const char* c : kTwistNames) h << ",V1_d" << k << "_" << c;
  for (int r = 0; r <= kMaxOrder; ++r) {
    for (const char* c : kWrenchNames) h << ",Q1_r" << r << "_" << c;
    for (const char* c : kWrenchNames) h << ",Wbody_r" << r << "_" << c;
    for (int j = 1; j <= kNumJoints; ++j) h << ",tau_r" << r << "_" << j;
    for (const char* c : kTwistNames) h << ",V1rec_d" << r + 1 << "_" << c;
    for (int j = 1; j <= kNumJoints; ++j) h << ",q" << j << "rec_d" << r + 2;
  }
  for (int r = 0; r <= kMaxOrder; ++r) h << ",err_world_r" << r << ",err_base_r" << r;
  h << "\n";
  return h.str();
}

class CsvRow {
 public:
  void add(double v) {
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, ",%.10g", v);
    row_.append(buf, static_cast<std::size_t>(n));
  }
  template <class Derived>
  void add(const Eigen::MatrixBase<Derived>& x) {
    for (Eigen::Index i = 0; i < x.size(); ++i) add(x(i));
  }
  std::string take() {
    std::string s = row_.substr(1) + "\n";  // drop the leading comma
    row_.clear();
    return s;
  }

 private:
  std::string row_;
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

int run(const Options& opt) {
  const hodyn::Table3Trajectory traj;
  hodyn::AerialManipulatorParameters params;
  params.gravity = traj.gravity;
  Model model;
  require(hodyn::make_aerial_manipulator(model, params), "make_aerial_manipulator", 0);

  // The workspaces are large fixed-size structs: keep them off the stack.
  auto ref = std::make_unique<Motion>();
  auto id = std::make_unique<InverseData>();
  auto fd = std::make_unique<ForwardData>();
  auto eom = std::make_unique<EomData>();

  const int n = opt.samples;
  const double dt = traj.horizon / n;
  std::array<OrderStats, kNumOrders> stats;
  for (auto& s : stats) {
    s.error_abs[0].resize(static_cast<std::size_t>(n));
    s.error_abs[1].resize(static_cast<std::size_t>(n));
    s.ref_norm.resize(static_cast<std::size_t>(n));
    s.backward_abs.resize(static_cast<std::size_t>(n));
    s.input_norm.resize(static_cast<std::size_t>(n));
  }
  auto id_check = std::make_unique<InverseData>();
  std::vector<std::array<double, 2 * kNumOrders>> rel_error(static_cast<std::size_t>(n));

  std::ofstream csv(opt.csv);
  if (!csv) throw UsageError{"--csv: cannot write '" + opt.csv + "'"};
  csv << csv_header();
  CsvRow row;
  std::vector<std::string> rows(static_cast<std::size_t>(n));

  double cond_min = 1e300, cond_max = 0, cond_max_t = 0;
  const int cond_every = std::max(1, n / 300);

  for (int i = 0; i < n; ++i) {
    const auto ii = static_cast<std::size_t>(i);
    const double t = i * dt;
    traj.sample<kMaxOrder>(t, kMaxOrder, *ref);
    require(hodyn::inverse_dynamics(model, *id, *ref, kMaxOrder), "inverse_dynamics", t);

    std::array<Motion, 2> recovered;
    for (int f = 0; f < 2; ++f) {
      const auto frame = f == 0 ? hodyn::WrenchFrame::kWorld : hodyn::WrenchFrame::kBase;
      require(hodyn::forward_dynamics(model, *fd, forward_input(*ref, *id, frame), kMaxOrder),
              f == 0 ? "forward_dynamics (world-frame wrench)" : "forward_dynamics (base-frame wrench)",
              t);
      recovered[static_cast<std::size_t>(f)] = fd->motion;
    }
    // Backward error: inverse dynamics of the recovered motion (world-frame run)
    // against the wrenches and torques that went in.
    require(hodyn::inverse_dynamics(model, *id_check, recovered[0], kMaxOrder),
            "inverse_dynamics (recovered motion)", t);
    for (int r = 0; r <= kMaxOrder; ++r) {
      auto& s = stats[static_cast<std::size_t>(r)];
      const auto rr = static_cast<std::size_t>(r);
      Vector12 y, dy;
      y << id->base_wrench[rr], id->joint_torque[rr];
      dy << id_check->base_wrench[rr], id_check->joint_torque[rr];
      s.input_norm[ii] = y.norm();
      s.backward_abs[ii] = (dy - y).norm();
      const Vector12 x = stack(*ref, r);
      s.ref_norm[ii] = x.norm();
      for (int f = 0; f < 2; ++f)
        s.error_abs[f][ii] = (stack(recovered[static_cast<std::size_t>(f)], r) - x).norm();
    }

    if (i % cond_every == 0) {
      require(hodyn::mass_matrix(model, *eom, ref->base_pose, ref->q[0]), "mass_matrix", t);
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 12, 12>> eig(
          eom->result.mass_matrix, Eigen::EigenvaluesOnly);
      const double cond = eig.eigenvalues()(11) / eig.eigenvalues()(0);
      cond_min = std::min(cond_min, cond);
      if (cond > cond_max) {
        cond_max = cond;
        cond_max_t = t;
      }
    }

    // CSV row (errors appended after the run, when the floors are known).
    row.add(t);
    row.add(ref->base_pose.translation);
    row.add(traj.yaw(t));
    row.add(ref->q[0]);
    for (int k = 1; k <= kMaxOrder; ++k) {
      row.add(traj.base_position(t, k));
      row.add(traj.yaw(t, k));
    }
    for (int k = 1; k <= kMaxOrder + 2; ++k) row.add(ref->q[static_cast<std::size_t>(k)]);
    for (int k = 0; k <= kMaxOrder + 1; ++k) row.add(ref->base_twist[static_cast<std::size_t>(k)]);
    for (int r = 0; r <= kMaxOrder; ++r) {
      const auto rr = static_cast<std::size_t>(r);
      row.add(id->base_wrench[rr]);
      row.add(id->base_wrench_body[rr]);
      row.add(id->joint_torque[rr]);
      row.add(recovered[0].base_twist[rr + 1]);
      row.add(recovered[0].q[rr + 2]);
    }
    rows[ii] = row.take();
  }

  // Relative errors with the floor.
  int floored = 0;
  for (int r = 0; r <= kMaxOrder; ++r) {
    auto& s = stats[static_cast<std::size_t>(r)];
    s.floor = kFloor * *std::max_element(s.ref_norm.begin(), s.ref_norm.end());
    const double input_floor = kFloor * *std::max_element(s.input_norm.begin(), s.input_norm.end());
    for (int i = 0; i < n; ++i) {
      const auto ii = static_cast<std::size_t>(i);
      s.worst_backward =
          std::max(s.worst_backward, s.backward_abs[ii] / std::max(s.input_norm[ii], input_floor));
    }
    for (int i = 0; i < n; ++i) {
      const auto ii = static_cast<std::size_t>(i);
      const double denom = std::max(s.ref_norm[ii], s.floor);
      if (s.ref_norm[ii] < s.floor) ++floored;
      for (int f = 0; f < 2; ++f) {
        const double e = s.error_abs[f][ii] / denom;
        rel_error[ii][static_cast<std::size_t>(2 * r + f)] = e;
        if (e > s.worst[f]) {
          s.worst[f] = e;
          s.worst_t[f] = i * dt;
        }
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    const auto ii = static_cast<std::size_t>(i);
    std::string& line = rows[ii];
    line.pop_back();  // '\n'
    for (double e : rel_error[ii]) line += fmt(",%.4g", e);
    csv << line << "\n";
  }
  csv.close();
  if (!csv) throw UsageError{"--csv: error writing '" + opt.csv + "'"};

  // ---- rough timing: each order r separately, one call per sample ----
  std::array<double, kNumOrders> id_us{}, fd_us{};
  volatile double sink = 0;
  for (int r = 0; r <= kMaxOrder; ++r) {
    using Clock = std::chrono::steady_clock;
    Clock::duration id_time{}, fd_time{};
    for (int i = 0; i < n; ++i) {
      const double t = i * dt;
      traj.sample<kMaxOrder>(t, r, *ref);
      const auto t0 = Clock::now();
      const hodyn::Status s1 = hodyn::inverse_dynamics(model, *id, *ref, r);
      const auto t1 = Clock::now();
      const ForwardInput in = forward_input(*ref, *id, hodyn::WrenchFrame::kWorld);
      const auto t2 = Clock::now();
      const hodyn::Status s2 = hodyn::forward_dynamics(model, *fd, in, r);
      const auto t3 = Clock::now();
      require(s1, "inverse_dynamics", t);
      require(s2, "forward_dynamics", t);
      id_time += t1 - t0;
      fd_time += t3 - t2;
      sink = sink + fd->motion.q[static_cast<std::size_t>(r + 2)](0);
    }
    id_us[static_cast<std::size_t>(r)] = std::chrono::duration<double, std::micro>(id_time).count() / n;
    fd_us[static_cast<std::size_t>(r)] = std::chrono::duration<double, std::micro>(fd_time).count() / n;
  }

  // ---- report ----
  std::cout << "hodyn-paper-sim: seed 000 Sec. 7 (Table 3, Fig. 3), 12-DoF aerial manipulator\n"
            << "  " << n << " samples t = i*" << fmt("%g", dt) << " s, i = 0.." << n - 1
            << fmt(" (t = 0 .. %g s)", (n - 1) * dt) << "; ID order 5 -> FD order 5 round trip\n"
            << "  mass matrix cond(M) along the run: " << fmt("%.3g", cond_min) << " .. "
            << fmt("%.3g", cond_max) << fmt(" (max at t = %g s", cond_max_t)
            << fmt(", every %g s)\n", cond_every * dt)
            << "  error of order r: |(dV1^(r+1), dq^(r+2))| / max(|(V1^(r+1), q^(r+2))|, floor),\n"
            << "  2-norms of the 12-vector; floor = 1e-12 * max over the run of the reference norm\n"
            << "  (used for " << floored << " of " << n * kNumOrders
            << " sample-orders; min |ref| below is the smallest reference norm)\n\n";
  std::cout << "  r   forward error, worst relative (at t/s)   bound  check  backward   "
               "min |ref|    ID us    FD us   paper ID / FD us\n"
            << "      world-frame Q1    base-frame W_body                    error    "
               "           (rough)  (rough)\n";
  bool all_pass = true;
  for (int r = 0; r <= kMaxOrder; ++r) {
    const auto rr = static_cast<std::size_t>(r);
    const auto& s = stats[rr];
    const bool pass = s.worst[0] <= kBound[rr] && s.worst[1] <= kBound[rr];
    all_pass = all_pass && pass;
    const double min_ref = *std::min_element(s.ref_norm.begin(), s.ref_norm.end());
    std::printf("  %d   %8.2e (%5.2f)  %8.2e (%5.2f)   %5.0e   %-4s   %8.1e   %9.2e   %6.2f   %6.2f     %5.2f / %5.2f\n",
                r, s.worst[0], s.worst_t[0], s.worst[1], s.worst_t[1], kBound[rr],
                pass ? "pass" : "FAIL", s.worst_backward, min_ref, id_us[rr], fd_us[rr],
                kPaperInverseUs[rr], kPaperForwardUs[rr]);
  }
  std::printf("\n  backward error: |ID(recovered motion) - (Q1^(r), tau^(r))| / |(Q1^(r), tau^(r))|"
              " (world-frame run)\n");
  std::printf("  ID us, FD us: ROUGH mean time per call of order r (computing orders 0..r) over %d\n"
              "  calls, each timed with steady_clock; not a benchmark (see bench/). Paper: Fig. 3\n"
              "  caption, i7-12700H.\n",
              n);
  std::cout << "  CSV: " << opt.csv << "\n";
  std::cout << (all_pass ? "All orders within their bounds.\n" : "Some orders exceed their bounds.\n");

  if (!opt.plots.empty()) {
    const char* env = std::getenv("HODYN_PYTHON");
    const std::string python = env != nullptr && *env != '\0' ? env : HODYN_PAPER_SIM_PYTHON;
    const std::string cmd = shell_quote(python) + " " + shell_quote(HODYN_PAPER_SIM_PLOT_SCRIPT) +
                            " " + shell_quote(opt.csv) + " " + shell_quote(opt.plots);
    std::cout << "Plots: " << cmd << "\n" << std::flush;
    if (std::system(cmd.c_str()) != 0) {
      std::cerr << "hodyn-paper-sim: the plot script failed (needs python3 with matplotlib; "
                   "set HODYN_PYTHON to choose the interpreter)\n";
      return 4;
    }
  }
  return opt.check && !all_pass ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options opt = parse_args(argc, argv);
    if (opt.help) {
      std::cout << kUsage;
      return 0;
    }
    return run(opt);
  } catch (const UsageError& e) {
    std::cerr << "hodyn-paper-sim: " << e.what << "\n(try --help)\n";
    return 2;
  } catch (const CoreError& e) {
    std::cerr << "hodyn-paper-sim: core error: " << e.what << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "hodyn-paper-sim: " << e.what() << "\n";
    return 1;
  }
}
