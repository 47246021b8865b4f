// tests/firmware/test_dynamics.cpp — the core's higher-order dynamics on the
// 12-DoF aerial manipulator, on target, orders 0..kR:
//   inverse dynamics   against the Taylor-series oracle: the core's own order-0
//                      inverse dynamics run in Taylor<double, kR+2> arithmetic
//                      along the same trajectory (coefficient k times k! is the
//                      exact k-th derivative; tests/core/test_inverse_dynamics_oracle.cpp
//                      (b), which the desktop suite also checks against an
//                      independent dense reference);
//   forward dynamics   against the degree-by-degree oracle of
//                      tests/core/test_forward_dynamics_oracle.cpp: τ̄^(k) is affine
//                      in ν^(k+1) with the mass matrix M̄, so each order is one
//                      solve with M̄ (from unit-acceleration ID columns) of the
//                      residual of the series inverse dynamics above;
//   round trips        ID(FD(u)) = u (backward error), FD(ID(x)) = x, and hybrid
//                      dynamics with two joints prescribed.
// The oracle runs in double on both targets (software double on the M4F); the
// core runs in this build's Scalar.
//
// Tolerances, in units of kEps (the Scalar's machine epsilon), so that one
// constant serves double and float:
//   * inverse dynamics and the backward error of forward dynamics are sums of
//     products of O(1) inputs evaluated without any solve: relative error
//     c·eps with c a growth constant of the recursions. The desktop suite's
//     bound (1e-11 in double with N(0,1) stress inputs) is c ≈ 4.5e4; we take
//     kIdGrowth = 1e4 (inputs here are U(-1, 1), and the measured worst is
//     printed).
//   * forward dynamics (and hybrid) solves with M̄: the forward error is
//     amplified by its condition number κ(M̄) (computed on target),
//     c·eps·κ with kSolveGrowth = 50 per the measured worst (printed).
//     Where the inputs u^(k) are much larger than M̄ ν^(k) (FD(ID(x)) = x:
//     high-order inverse dynamics outputs are sums of large cancelling
//     terms), the forward error follows from the backward one (c·eps relative
//     to |u| + λmax |ν|) as |Δν| ≤ c·eps (|u|/λmin + κ |ν|), and the
//     hybrid's torques |Δτ| ≤ λmax |Δν|: those errors are normalised so.
#include <hodyn/hodyn.hpp>

#include "support/taylor.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>

#include "self_test.hpp"
#include "spd_matrix.hpp"

namespace hodyn {
namespace firmware_test {
namespace {

using Tree = AerialManipulatorTree;
constexpr int kNumJoints = Tree::kNumBodies - 1;
constexpr int kDof = 6 + kNumJoints;
constexpr int kR = 4;       // highest order checked on target
constexpr int kD = kR + 2;  // series degree: exact through order kR
using T = test::Taylor<double, kD>;
using Vec6d = Eigen::Matrix<double, 6, 1>;
using JointVecD = Eigen::Matrix<double, kNumJoints, 1>;
using VecN = Eigen::Matrix<double, kDof, 1>;
using MatN = Eigen::Matrix<double, kDof, kDof>;
using Mat4d = Eigen::Matrix<double, 4, 4>;

constexpr double kIdGrowth = 1e4;
constexpr double kSolveGrowth = 50.0;

/// A motion at t0: C1, V1^(0..kR+1), q^(0..kR+2).
struct State {
  Pose<double> base_pose{};
  std::array<Vec6d, kR + 2> v1{};
  std::array<JointVecD, kR + 3> q{};
};

State random_state(std::uint32_t seed) noexcept {
  Random rng(seed);
  State s;
  Eigen::Quaterniond qt(rng.uniform(), rng.uniform(), rng.uniform(), rng.uniform());
  qt.normalize();
  s.base_pose.rotation = qt.toRotationMatrix();
  s.base_pose.translation = Eigen::Vector3d(rng.uniform(), rng.uniform(), rng.uniform());
  for (auto& v : s.v1)
    for (int i = 0; i < 6; ++i) v(i) = rng.uniform();
  for (auto& q : s.q)
    for (int i = 0; i < kNumJoints; ++i) q(i) = rng.uniform();
  return s;
}

/// The pose cast to Scalar, its rotation re-orthonormalised in Scalar.
Pose<Scalar> to_scalar(const Pose<double>& p) noexcept {
  Pose<Scalar> r;
  r.rotation = Eigen::Quaternion<Scalar>(p.rotation.cast<Scalar>()).normalized().toRotationMatrix();
  r.translation = p.translation.cast<Scalar>();
  return r;
}

double rel_err(const VecN& x, const VecN& y) noexcept {
  return (x - y).norm() / std::max(y.norm(), 1e-300);
}
template <int N>
double rel_err(const Eigen::Matrix<double, N, 1>& x,
               const Eigen::Matrix<double, N, 1>& y) noexcept {
  return (x - y).norm() / std::max(y.norm(), 1e-300);
}

// ---------------------------------------------------------------------------
// The series oracle: order-0 inverse dynamics in Taylor arithmetic.
// ---------------------------------------------------------------------------

struct SeriesInverseDynamics {
  Model<Tree, T> model;
  MotionDerivatives<Tree, 0, T> motion;
  InverseDynamicsData<Tree, 0, T> data;
};
SeriesInverseDynamics g_series;

Mat4d hat(const Vec6d& v) noexcept {
  Mat4d h = Mat4d::Zero();
  h(0, 1) = -v(2);
  h(0, 2) = v(1);
  h(1, 0) = v(2);
  h(1, 2) = -v(0);
  h(2, 0) = -v(1);
  h(2, 1) = v(0);
  h.block<3, 1>(0, 3) = v.tail<3>();
  return h;
}

/// Series whose derivative k is d[first + k] (for first + k < count).
template <class Array>
T series_of(const Array& d, int first, int count, int index) noexcept {
  typename T::Coefficients c{};
  double factorial = 1.0;
  for (int k = 0; k <= kD; ++k) {
    if (k > 0) factorial *= k;
    const int i = first + k;
    c[static_cast<std::size_t>(k)] =
        i < count ? d[static_cast<std::size_t>(i)](index) / factorial : 0.0;
  }
  return T(c);
}

/// Runs the oracle along the motion of s using V1^(0..num_v1-1), q^(0..num_q-1).
Status series_inverse_dynamics(const State& s, int num_v1, int num_q) noexcept {
  // C(t) from Ċ = [V1(t)] C, coefficient by coefficient.
  std::array<Mat4d, kD + 1> c{};
  std::array<Mat4d, kD> v_hat{};
  double factorial = 1.0;
  for (int i = 0; i < kD; ++i) {
    if (i > 0) factorial *= i;
    v_hat[static_cast<std::size_t>(i)] =
        i < num_v1 ? Mat4d(hat(s.v1[static_cast<std::size_t>(i)]) / factorial) : Mat4d::Zero();
  }
  c[0].setIdentity();
  c[0].topLeftCorner<3, 3>() = s.base_pose.rotation;
  c[0].topRightCorner<3, 1>() = s.base_pose.translation;
  for (int k = 0; k < kD; ++k) {
    Mat4d acc = Mat4d::Zero();
    for (int i = 0; i <= k; ++i)
      acc += v_hat[static_cast<std::size_t>(i)] * c[static_cast<std::size_t>(k - i)];
    c[static_cast<std::size_t>(k + 1)] = acc / double(k + 1);
  }
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 4; ++col) {
      typename T::Coefficients co{};
      for (int k = 0; k <= kD; ++k)
        co[static_cast<std::size_t>(k)] = c[static_cast<std::size_t>(k)](r, col);
      if (col < 3)
        g_series.motion.base_pose.rotation(r, col) = T(co);
      else
        g_series.motion.base_pose.translation(r) = T(co);
    }
  for (int i = 0; i < 6; ++i) {
    g_series.motion.base_twist[0](i) = series_of(s.v1, 0, num_v1, i);
    g_series.motion.base_twist[1](i) = series_of(s.v1, 1, num_v1, i);
  }
  for (int j = 0; j < kNumJoints; ++j)
    for (int k = 0; k < 3; ++k)
      g_series.motion.q[static_cast<std::size_t>(k)](j) = series_of(s.q, k, num_q, j);
  return inverse_dynamics(g_series.model, g_series.data, g_series.motion, 0);
}

/// τ̄^(k) = (Q1^(k); τ^(k)) of the last oracle run.
VecN series_force(int k) noexcept {
  VecN y;
  for (int i = 0; i < 6; ++i) y(i) = g_series.data.base_wrench[0](i).derivative_value(k);
  for (int j = 0; j < kNumJoints; ++j)
    y(6 + j) = g_series.data.joint_torque[0](j).derivative_value(k);
  return y;
}
Vec6d series_body_wrench(int k) noexcept {
  Vec6d y;
  for (int i = 0; i < 6; ++i) y(i) = g_series.data.base_wrench_body[0](i).derivative_value(k);
  return y;
}

// ---------------------------------------------------------------------------
// Core workspaces in Scalar (static: too large for the stack).
// ---------------------------------------------------------------------------

struct CoreWorkspaces {
  AerialManipulatorModel<Scalar> model;
  AerialManipulatorModel<double> model_double;
  MotionDerivatives<Tree, kR, Scalar> motion;
  InverseDynamicsData<Tree, kR, Scalar> id;
  ForwardDynamicsInput<Tree, kR, Scalar> fd_in;
  HybridDynamicsInput<Tree, kR, Scalar> hd_in;
  ForwardDynamicsData<Tree, kR, Scalar> fd;
  MotionDerivatives<Tree, 0, double> motion0;
  InverseDynamicsData<Tree, 0, double> id0;
};
CoreWorkspaces g_core;

void fill_motion(const State& s) noexcept {
  g_core.motion.base_pose = to_scalar(s.base_pose);
  for (std::size_t k = 0; k < g_core.motion.base_twist.size(); ++k)
    g_core.motion.base_twist[k] = s.v1[k].cast<Scalar>();
  for (std::size_t k = 0; k < g_core.motion.q.size(); ++k)
    g_core.motion.q[k] = s.q[k].cast<Scalar>();
}

void set_state(const State& s, ForwardDynamicsInput<Tree, kR, Scalar>& in) noexcept {
  in.base_pose = to_scalar(s.base_pose);
  in.base_twist = s.v1[0].cast<Scalar>();
  in.q = s.q[0].cast<Scalar>();
  in.q_dot = s.q[1].cast<Scalar>();
}

template <class Data>
VecN core_force(const Data& d, int k) noexcept {
  VecN y;
  y << d.base_wrench[static_cast<std::size_t>(k)].template cast<double>(),
      d.joint_torque[static_cast<std::size_t>(k)].template cast<double>();
  return y;
}
template <class Motion>
VecN core_nu(const Motion& m, int k) noexcept {
  VecN y;
  y << m.base_twist[static_cast<std::size_t>(k + 1)].template cast<double>(),
      m.q[static_cast<std::size_t>(k + 2)].template cast<double>();
  return y;
}
VecN state_nu(const State& s, int k) noexcept {
  VecN y;
  y << s.v1[static_cast<std::size_t>(k + 1)], s.q[static_cast<std::size_t>(k + 2)];
  return y;
}

/// M̄ at the state of s from unit-acceleration columns of order-0 ID (double).
MatN mass_matrix(const State& s) noexcept {
  g_core.motion0 = MotionDerivatives<Tree, 0, double>{};
  g_core.motion0.base_pose = s.base_pose;
  g_core.motion0.base_twist[0] = s.v1[0];
  g_core.motion0.q[0] = s.q[0];
  g_core.motion0.q[1] = s.q[1];
  MatN m;
  (void)inverse_dynamics(g_core.model_double, g_core.id0, g_core.motion0, 0);
  const VecN bias = core_force(g_core.id0, 0);
  for (int i = 0; i < kDof; ++i) {
    g_core.motion0.base_twist[1].setZero();
    g_core.motion0.q[2].setZero();
    if (i < 6)
      g_core.motion0.base_twist[1](i) = 1.0;
    else
      g_core.motion0.q[2](i - 6) = 1.0;
    (void)inverse_dynamics(g_core.model_double, g_core.id0, g_core.motion0, 0);
    m.col(i) = core_force(g_core.id0, 0) - bias;
  }
  return m;
}

SpdMatrix<kDof> g_mass_matrix;

/// Inputs of forward dynamics: derivatives 0..kR of (Q1; τ).
using Inputs = std::array<VecN, kR + 1>;

Inputs random_inputs(std::uint32_t seed) noexcept {
  Random rng(seed * 31u + 5u);
  Inputs u;
  for (auto& x : u)
    for (int i = 0; i < kDof; ++i) x(i) = rng.uniform();
  return u;
}

/// The motion that u produces from the state of x, degree by degree.
State forward_oracle(const State& x, const Inputs& u, const SpdMatrix<kDof>& mbar) noexcept {
  State st;
  st.base_pose = x.base_pose;
  st.v1[0] = x.v1[0];
  st.q[0] = x.q[0];
  st.q[1] = x.q[1];
  for (int k = 0; k <= kR; ++k) {
    const auto K = static_cast<std::size_t>(k);
    st.v1[K + 1].setZero();
    st.q[K + 2].setZero();
    (void)series_inverse_dynamics(st, k + 2, k + 3);
    const VecN nu = mbar.solve(u[K] - series_force(k));
    st.v1[K + 1] = nu.head<6>();
    st.q[K + 2] = nu.tail<kNumJoints>();
  }
  return st;
}

// ---------------------------------------------------------------------------

void check_inverse_dynamics(Checks& checks) noexcept {
  std::array<double, kR + 1> worst{};
  bool ok = true;
  for (std::uint32_t seed : {11u, 12u, 13u}) {
    const State s = random_state(seed);
    fill_motion(s);
    ok &= inverse_dynamics(g_core.model, g_core.id, g_core.motion, kR) == Status::kOk;
    ok &= series_inverse_dynamics(s, kR + 2, kR + 3) == Status::kOk;
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double e =
          std::max(rel_err(core_force(g_core.id, k), series_force(k)),
                   rel_err<6>(g_core.id.base_wrench_body[K].cast<double>(), series_body_wrench(k)));
      worst[K] = std::max(worst[K], e);
    }
  }
  checks.expect(ok, "inverse dynamics (core order 4, oracle) return kOk");
  const char* names[] = {"ID order 0 vs Taylor oracle", "ID order 1 vs Taylor oracle",
                         "ID order 2 vs Taylor oracle", "ID order 3 vs Taylor oracle",
                         "ID order 4 vs Taylor oracle"};
  for (int k = 0; k <= kR; ++k) {
    checks.expect_le(worst[static_cast<std::size_t>(k)], kIdGrowth * kEps, names[k]);
    checks.measure(names[k], worst[static_cast<std::size_t>(k)] / kEps, " eps");
  }
}

void check_forward_dynamics(Checks& checks) noexcept {
  std::array<double, kR + 1> worst{};
  double kappa_max = 0.0;
  bool ok = true;
  for (std::uint32_t seed : {21u, 22u}) {
    const State x = random_state(seed);
    const Inputs u = random_inputs(seed);
    ok &= g_mass_matrix.factorize(mass_matrix(x));
    const double kappa = g_mass_matrix.condition_number();
    kappa_max = std::max(kappa_max, kappa);
    const State oracle = forward_oracle(x, u, g_mass_matrix);
    set_state(x, g_core.fd_in);
    g_core.fd_in.base_wrench_frame = WrenchFrame::kWorld;
    for (int k = 0; k <= kR; ++k) {
      g_core.fd_in.base_wrench[static_cast<std::size_t>(k)] =
          u[static_cast<std::size_t>(k)].head<6>().cast<Scalar>();
      g_core.fd_in.joint_torque[static_cast<std::size_t>(k)] =
          u[static_cast<std::size_t>(k)].tail<kNumJoints>().cast<Scalar>();
    }
    ok &= forward_dynamics(g_core.model, g_core.fd, g_core.fd_in, kR) == Status::kOk;
    for (int k = 0; k <= kR; ++k) {
      const double e = rel_err(core_nu(g_core.fd.motion, k), state_nu(oracle, k)) / kappa;
      worst[static_cast<std::size_t>(k)] = std::max(worst[static_cast<std::size_t>(k)], e);
    }
  }
  checks.expect(ok, "forward dynamics and M̄ factorisation succeed");
  checks.measure("condition number of M̄", kappa_max);
  const char* names[] = {"FD order 0 vs oracle (/kappa)", "FD order 1 vs oracle (/kappa)",
                         "FD order 2 vs oracle (/kappa)", "FD order 3 vs oracle (/kappa)",
                         "FD order 4 vs oracle (/kappa)"};
  for (int k = 0; k <= kR; ++k) {
    checks.expect_le(worst[static_cast<std::size_t>(k)], kSolveGrowth * kEps, names[k]);
    checks.measure(names[k], worst[static_cast<std::size_t>(k)] / kEps, " eps");
  }
}

void check_round_trips(Checks& checks) noexcept {
  double worst_backward = 0.0, worst_forward = 0.0, worst_hybrid = 0.0, kappa_max = 0.0;
  bool ok = true;
  for (std::uint32_t seed : {31u, 32u}) {
    const State x = random_state(seed);
    const MatN mbar = mass_matrix(x);
    ok &= g_mass_matrix.factorize(mbar);
    const double kappa = g_mass_matrix.condition_number();
    kappa_max = std::max(kappa_max, kappa);
    const double mbar_norm = mbar.norm();
    // ID(FD(u)) = u: backward error on the scale of the cancelling terms.
    const Inputs u = random_inputs(seed);
    set_state(x, g_core.fd_in);
    g_core.fd_in.base_wrench_frame = WrenchFrame::kWorld;
    for (int k = 0; k <= kR; ++k) {
      g_core.fd_in.base_wrench[static_cast<std::size_t>(k)] =
          u[static_cast<std::size_t>(k)].head<6>().cast<Scalar>();
      g_core.fd_in.joint_torque[static_cast<std::size_t>(k)] =
          u[static_cast<std::size_t>(k)].tail<kNumJoints>().cast<Scalar>();
    }
    ok &= forward_dynamics(g_core.model, g_core.fd, g_core.fd_in, kR) == Status::kOk;
    ok &= inverse_dynamics(g_core.model, g_core.id, g_core.fd.motion, kR) == Status::kOk;
    for (int k = 0; k <= kR; ++k) {
      const VecN uk = u[static_cast<std::size_t>(k)].cast<Scalar>().cast<double>();
      const double scale = uk.norm() + mbar_norm * core_nu(g_core.fd.motion, k).norm();
      worst_backward = std::max(worst_backward, (core_force(g_core.id, k) - uk).norm() / scale);
    }
    // FD(ID(x)) = x, with the base wrench in the base frame.
    fill_motion(x);
    ok &= inverse_dynamics(g_core.model, g_core.id, g_core.motion, kR) == Status::kOk;
    g_core.fd_in.base_wrench_frame = WrenchFrame::kBase;
    for (std::size_t k = 0; k <= kR; ++k) {
      g_core.fd_in.base_wrench[k] = g_core.id.base_wrench_body[k];
      g_core.fd_in.joint_torque[k] = g_core.id.joint_torque[k];
    }
    ok &= forward_dynamics(g_core.model, g_core.fd, g_core.fd_in, kR) == Status::kOk;
    const double lambda_min = g_mass_matrix.lambda_min(), lambda_max = g_mass_matrix.lambda_max();
    // |u^(k)| / λmin + κ |ν^(k)|: the forward-error scale (see the file comment).
    const auto nu_scale = [&](int k) {
      return core_force(g_core.id, k).norm() / lambda_min +
             kappa * core_nu(g_core.motion, k).norm();
    };
    for (int k = 0; k <= kR; ++k)
      worst_forward =
          std::max(worst_forward,
                   (core_nu(g_core.fd.motion, k) - core_nu(g_core.motion, k)).norm() / nu_scale(k));
    // Hybrid: joints 2 and 5 prescribed (motion in, torque out), base wrench in.
    HybridDynamicsInput<Tree, kR, Scalar>& hd = g_core.hd_in;
    set_state(x, hd);
    hd.base_input = BaseInput::kWrench;
    hd.base_wrench_frame = WrenchFrame::kWorld;
    hd.motion_prescribed = {};
    hd.motion_prescribed[1] = true;
    hd.motion_prescribed[4] = true;
    for (std::size_t k = 0; k <= kR; ++k) {
      hd.base_wrench[k] = g_core.id.base_wrench[k];
      hd.joint_torque[k] = g_core.id.joint_torque[k];
      hd.joint_torque[k](1) = Scalar(0);
      hd.joint_torque[k](4) = Scalar(0);
      hd.joint_acceleration[k] = g_core.motion.q[k + 2];
    }
    ok &= hybrid_dynamics(g_core.model, g_core.fd, hd, kR) == Status::kOk;
    for (int k = 0; k <= kR; ++k) {
      const double e_motion =
          (core_nu(g_core.fd.motion, k) - core_nu(g_core.motion, k)).norm() / nu_scale(k);
      const double e_torque =
          (core_force(g_core.fd, k) - core_force(g_core.id, k)).norm() / (lambda_max * nu_scale(k));
      worst_hybrid = std::max(worst_hybrid, std::max(e_motion, e_torque));
    }
  }
  checks.expect(ok, "round-trip calls return kOk");
  checks.expect_le(worst_backward, kIdGrowth * kEps, "ID(FD(u)) = u, orders 0..4 (backward)");
  checks.measure("ID(FD(u)) backward error", worst_backward / kEps, " eps");
  checks.expect_le(worst_forward, kSolveGrowth * kEps, "FD(ID(x)) = x, orders 0..4");
  checks.measure("FD(ID(x)) error / (|u|/lmin + kappa |nu|)", worst_forward / kEps, " eps");
  checks.expect_le(worst_hybrid, kSolveGrowth * kEps, "hybrid round trip, joints 2, 5 prescribed");
  checks.measure("hybrid round trip error, same scale", worst_hybrid / kEps, " eps");
}

void check_hover(Checks& checks) noexcept {
  // The robot at rest, level: Q1 = (0, 0, 0, 0, 0, m g) with m = 4 kg.
  g_core.motion = MotionDerivatives<Tree, kR, Scalar>{};
  const bool ok = inverse_dynamics(g_core.model, g_core.id, g_core.motion, 0) == Status::kOk;
  Vec6d expected;
  expected << 0, 0, 0, 0, 0, 4.0 * 9.81;
  checks.expect(ok, "hover inverse dynamics returns kOk");
  checks.expect_le(rel_err<6>(g_core.id.base_wrench[0].cast<double>(), expected), 16 * kEps,
                   "hover wrench = (0,0,0, 0,0, m g)");
}

}  // namespace

void run_dynamics_checks(Checks& checks) noexcept {
  checks.group("dynamics");
  bool ok = make_aerial_manipulator(g_core.model) == Status::kOk;
  ok &= make_aerial_manipulator(g_core.model_double) == Status::kOk;
  g_series.model = g_core.model_double.cast<T>();
  checks.expect(ok, "aerial manipulator model builds");
  check_hover(checks);
  check_inverse_dynamics(checks);
  check_forward_dynamics(checks);
  check_round_trips(checks);
}

}  // namespace firmware_test
}  // namespace hodyn
