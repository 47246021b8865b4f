// bench_baselines.hpp — the machinery of the baseline benchmarks, shared by the
// translation units of the bench_baselines binary:
//
//   bench_baselines_taylor.cpp              BM_InverseDynamicsAnalytic/<r>, r = 0..10,
//                                           BM_InverseDynamicsTaylorAD/<r>, r = 0..5
//   bench_baselines_taylor_6_8.cpp          BM_InverseDynamicsTaylorAD/<r>, r = 6..8
//   bench_baselines_taylor_9_10.cpp         BM_InverseDynamicsTaylorAD/<r>, r = 9, 10
//   bench_baselines_nested_dual_0_3.cpp     BM_InverseDynamicsNestedDual/<r>, r = 0..3
//   bench_baselines_nested_dual_4_5.cpp     BM_InverseDynamicsNestedDual/<r>, r = 4, 5
//   bench_baselines_central_difference.cpp  BM_InverseDynamicsCentralDifference/<r>, r = 1..4
//
// One binary, so that every ratio comes from one run; several translation
// units, so that `-j2` compiles them in parallel (the single file took ~4 min).
// What is measured (12-DoF aerial manipulator):
//
//   BM_InverseDynamicsAnalytic/<r>        hodyn::inverse_dynamics of order r
//                                         (orders 0..r in one call); r = 0..5 on
//                                         the MaxOrder 5 workspace, r = 6..10 on
//                                         the MaxOrder 10 one (see
//                                         bench_inverse_dynamics.hpp)
//   BM_InverseDynamicsTaylorAD/<r>        the ORDER-0 inverse dynamics run with
//                                         the truncated Taylor series scalar
//                                         Taylor<double, r> (tests/support/
//                                         taylor.hpp; r + 1 coefficients:
//                                         velocity and acceleration enter as
//                                         their own series), r = 0..10
//   BM_InverseDynamicsNestedDual/<r>      the order-0 inverse dynamics with a
//                                         dual number nested r times (2^r
//                                         doubles per scalar), r = 0..5
//   BM_InverseDynamicsCentralDifference/<r>  r-th derivative by the central
//                                         stencil of O(h²) accuracy over order-0
//                                         calls along the Table 3 trajectory,
//                                         r = 1..4 (r + 1 order-0 calls:
//                                         2, 3, 4, 5)
//
// Analytic, Taylor AD and nested duals cycle through the 64 random states of
// bench_inverse_dynamics.hpp (those of the MaxOrder 5 pool for r ≤ 5, of the
// MaxOrder 10 pool for r = 6..10). The AD scalars are seeded outside the timed
// loop (pose series from Ċ = [V] C, every input as the series of its
// derivatives): only the inverse-dynamics call is timed, which favours the
// baselines. Their r-th derivative is checked against the analytic order-r
// result on the whole pool before timing (counter max_rel_error;
// SkipWithError above 1e-8).
//
// Central differences: the states at the stencil points come from
// Table3Trajectory::sample (exact), precomputed outside the timed loop at 64
// times spread over the 30 s run. The step h is the one of a scan over
// 10^(-6 … -0.5) that gives the smallest error (best case for the stencil,
// counter h_seconds). Accuracy of both the stencil and hodyn's analytic order r
// is measured against an independent long-double reference (the order-0
// algorithm with Taylor<long double, r>): counters fd_max_rel_error,
// analytic_max_rel_error and accuracy_gap_orders = log10 of their ratio.
// Relative error = max over the pool of max_i |x_i − x_ref,i| / max_i |x_ref,i|
// over the 12 outputs (Q₁^(r), τ^(r)).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <hodyn/reference/table3_trajectory.hpp>

#include "bench_inverse_dynamics.hpp"
#include "dual_number.hpp"
#include "support/taylor.hpp"

namespace hodyn_bench::baselines {

using Tree = hodyn::AerialManipulatorTree;
template <int MaxOrder, class Real>
using DerivativeMotion = hodyn::MotionDerivatives<Tree, MaxOrder, Real>;
template <class S>
using Order0Motion = hodyn::MotionDerivatives<Tree, 0, S>;
template <class S>
using Order0Data = hodyn::InverseDynamicsData<Tree, 0, S>;
template <class Real, int Degree>
using Taylor = hodyn::test::Taylor<Real, Degree>;

inline constexpr int kNumOutputs = 12;  // Q₁^(r) (6) and τ^(r) (6)
using Outputs = Eigen::Matrix<double, kNumOutputs, 1>;
inline constexpr double kAdTolerance = 1e-8;

/// The smallest workspace of the analytic benchmarks that holds order r.
constexpr int workspace_max_order(int order) {
  return order <= kMaxOrder ? kMaxOrder : kHighMaxOrder;
}

// ---- seeding series scalars from derivative lists ------------------------------

/// Builds the scalar S whose time derivatives are d[0], d[1], … (as many as S reads).
template <class S>
struct Seeded;
template <>
struct Seeded<double> {
  static double make(const double* d) { return d[0]; }
};
template <class Real, int Degree>
struct Seeded<Taylor<Real, Degree>> {
  static Taylor<Real, Degree> make(const Real* d) {
    typename Taylor<Real, Degree>::Coefficients c{};
    Real factorial(1);
    for (int k = 0; k <= Degree; ++k) {
      if (k > 1) factorial *= Real(k);
      c[static_cast<std::size_t>(k)] = d[k] / factorial;
    }
    return Taylor<Real, Degree>(c);
  }
};
/// x(t + ε₁ + … + ε_L): the component of a subset S of the ε's is x^(|S|).
template <class T>
struct Seeded<Dual<T>> {
  static Dual<T> make(const double* d) {
    return Dual<T>(Seeded<T>::make(d), Seeded<T>::make(d + 1));
  }
};

/// The top time derivative carried by a scalar (the r-th one).
inline double top_derivative(double x) { return x; }
template <class Real, int Degree>
Real top_derivative(const Taylor<Real, Degree>& x) {
  return x.derivative_value(Degree);
}
template <class T>
double top_derivative(const Dual<T>& x) {
  return top_derivative(x.derivative());
}

/// C₁^(k), k = 0..MaxOrder, from C₁ and V₁^(k) by Ċ = [V] C coefficient by coefficient.
template <int MaxOrder, class Real>
std::array<Eigen::Matrix<Real, 4, 4>, MaxOrder + 1> base_pose_derivatives(
    const DerivativeMotion<MaxOrder, Real>& m) {
  using Mat4 = Eigen::Matrix<Real, 4, 4>;
  std::array<Mat4, MaxOrder + 1> hat_coefficient{};  // [V₁^(i)] / i!
  std::array<Mat4, MaxOrder + 1> coefficient{};      // C₁ Taylor coefficients
  Real factorial(1);
  for (int i = 0; i <= MaxOrder; ++i) {
    if (i > 1) factorial *= Real(i);
    const auto& v = m.base_twist[static_cast<std::size_t>(i)];
    Mat4 h = Mat4::Zero();
    h(0, 1) = -v(2);
    h(0, 2) = v(1);
    h(1, 0) = v(2);
    h(1, 2) = -v(0);
    h(2, 0) = -v(1);
    h(2, 1) = v(0);
    h.template topRightCorner<3, 1>() = v.template tail<3>();
    hat_coefficient[static_cast<std::size_t>(i)] = h / factorial;
  }
  coefficient[0] = m.base_pose.matrix();
  for (int k = 0; k < MaxOrder; ++k) {
    Mat4 sum = Mat4::Zero();
    for (int i = 0; i <= k; ++i)
      sum += hat_coefficient[static_cast<std::size_t>(i)] *
             coefficient[static_cast<std::size_t>(k - i)];
    coefficient[static_cast<std::size_t>(k + 1)] = sum / Real(k + 1);
  }
  std::array<Mat4, MaxOrder + 1> derivative{};
  factorial = Real(1);
  for (int k = 0; k <= MaxOrder; ++k) {
    if (k > 1) factorial *= Real(k);
    derivative[static_cast<std::size_t>(k)] = factorial * coefficient[static_cast<std::size_t>(k)];
  }
  return derivative;
}

/// The order-0 inputs (C₁, V₁, V̇₁, q, q̇, q̈) as series scalars S along the motion m.
template <class S, int MaxOrder, class Real>
Order0Motion<S> seeded_motion(const DerivativeMotion<MaxOrder, Real>& m) {
  Order0Motion<S> out;
  const auto pose = base_pose_derivatives(m);
  std::array<Real, MaxOrder + 1> d{};  // d[k] = x^(k)
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k <= MaxOrder; ++k)
        d[static_cast<std::size_t>(k)] = pose[static_cast<std::size_t>(k)](i, j);
      out.base_pose.rotation(i, j) = Seeded<S>::make(d.data());
    }
    for (int k = 0; k <= MaxOrder; ++k)
      d[static_cast<std::size_t>(k)] = pose[static_cast<std::size_t>(k)](i, 3);
    out.base_pose.translation(i) = Seeded<S>::make(d.data());
  }
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < 6; ++i) {
      for (int k = 0; k <= MaxOrder; ++k)
        d[static_cast<std::size_t>(k)] =
            m.base_twist[static_cast<std::size_t>(std::min(a + k, MaxOrder + 1))](i);
      out.base_twist[static_cast<std::size_t>(a)](i) = Seeded<S>::make(d.data());
    }
  for (int a = 0; a < 3; ++a)
    for (int j = 0; j < Tree::kNumBodies - 1; ++j) {
      for (int k = 0; k <= MaxOrder; ++k)
        d[static_cast<std::size_t>(k)] =
            m.q[static_cast<std::size_t>(std::min(a + k, MaxOrder + 2))](j);
      out.q[static_cast<std::size_t>(a)](j) = Seeded<S>::make(d.data());
    }
  return out;
}

/// The r-th derivative of (Q₁, τ) read from order-0 results in a series scalar.
template <class S>
Outputs top_derivative_outputs(const Order0Data<S>& data) {
  Outputs out;
  for (int i = 0; i < 6; ++i) out(i) = static_cast<double>(top_derivative(data.base_wrench[0](i)));
  for (int i = 0; i < 6; ++i)
    out(6 + i) = static_cast<double>(top_derivative(data.joint_torque[0](i)));
  return out;
}

template <class Data>
Outputs analytic_outputs(const Data& data, int order) {
  Outputs out;
  out.head<6>() = data.base_wrench[static_cast<std::size_t>(order)].template cast<double>();
  out.tail<6>() = data.joint_torque[static_cast<std::size_t>(order)].template cast<double>();
  return out;
}

inline double relative_error(const Outputs& x, const Outputs& reference) {
  return (x - reference).cwiseAbs().maxCoeff() / reference.cwiseAbs().maxCoeff();
}

// ---- analytic --------------------------------------------------------------------

/// BM_InverseDynamicsAnalytic/<r> for r ≤ MaxOrder on the MaxOrder workspace.
template <int MaxOrder>
void BM_InverseDynamicsAnalytic(benchmark::State& state) {
  run(state, aerial_manipulator_fixture<MaxOrder>());
}

// ---- Taylor AD and nested duals through the order-0 algorithm ---------------------

/// Model, workspace and seeded pool for one AD scalar, plus the check against
/// the analytic order-r result (on the pool and workspace of MaxOrder).
template <class S, int MaxOrder>
struct AdFixture {
  std::unique_ptr<hodyn::AerialManipulatorModel<S>> model =
      std::make_unique<hodyn::AerialManipulatorModel<S>>();
  std::unique_ptr<Order0Data<S>> data = std::make_unique<Order0Data<S>>();
  std::vector<Order0Motion<S>> pool;
  std::string error;
  double max_rel_error = 0.0;

  explicit AdFixture(int order) {
    auto& base = aerial_manipulator_fixture<MaxOrder>();
    if (base.build_status != hodyn::Status::kOk ||
        hodyn::make_aerial_manipulator(*model) != hodyn::Status::kOk) {
      error = "model build failed";
      return;
    }
    auto analytic = std::make_unique<typename std::remove_reference_t<decltype(base)>::DataT>();
    for (const auto& m : base.pool) {
      pool.push_back(seeded_motion<S>(m));
      const hodyn::Status s = hodyn::inverse_dynamics(*model, *data, pool.back(), 0);
      const hodyn::Status a = hodyn::inverse_dynamics(*base.model, *analytic, m, order);
      if (s != hodyn::Status::kOk || a != hodyn::Status::kOk) {
        error = std::string("inverse_dynamics failed: ") +
                hodyn::to_string(s != hodyn::Status::kOk ? s : a);
        return;
      }
      max_rel_error = std::max(max_rel_error, relative_error(top_derivative_outputs(*data),
                                                             analytic_outputs(*analytic, order)));
    }
    if (!(max_rel_error <= kAdTolerance)) error = "AD derivative disagrees with the analytic one";
  }
};

template <class S, int Order>
void BM_InverseDynamicsAd(benchmark::State& state) {
  static AdFixture<S, workspace_max_order(Order)> f(Order);
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  const auto& model = *f.model;
  auto& data = *f.data;
  const auto* pool = f.pool.data();
  std::size_t i = 0;
  for (auto _ : state) {
    hodyn::Status s = hodyn::inverse_dynamics(model, data, pool[i], 0);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(data.base_wrench.data());
    benchmark::DoNotOptimize(data.joint_torque.data());
    benchmark::ClobberMemory();
  }
  state.counters["order"] = Order;
  state.counters["max_rel_error"] = f.max_rel_error;
  state.counters["doubles_per_scalar"] = static_cast<double>(sizeof(S) / sizeof(double));
}

// ---- central differences along the Table 3 trajectory ----------------------------

/// Central stencils of O(h²) accuracy: f^(r)(t) ≈ Σ_j w_j f(t + o_j h) / h^r.
struct Stencil {
  int points;
  std::array<double, 5> offset;
  std::array<double, 5> weight;
};
inline constexpr std::array<Stencil, 5> kStencils{{
    {1, {0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}},
    {2, {-1, 1, 0, 0, 0}, {-0.5, 0.5, 0, 0, 0}},
    {3, {-1, 0, 1, 0, 0}, {1, -2, 1, 0, 0}},
    {4, {-2, -1, 1, 2, 0}, {-0.5, 1, -1, 0.5, 0}},
    {5, {-2, -1, 0, 1, 2}, {1, -4, 6, -4, 1}},
}};

inline constexpr double kTrajectoryStart = 0.5;  // s
inline constexpr double kTrajectoryEnd = 29.5;   // s

inline double pool_time(std::size_t i) {
  return kTrajectoryStart + (kTrajectoryEnd - kTrajectoryStart) * static_cast<double>(i) /
                                static_cast<double>(kPoolSize - 1);
}

/// Independent reference: the order-0 algorithm in Taylor<long double, r>.
template <int Order>
std::vector<Outputs> long_double_reference(const hodyn::Table3Trajectory& trajectory) {
  using S = Taylor<long double, Order>;
  auto model = std::make_unique<hodyn::AerialManipulatorModel<S>>();
  auto data = std::make_unique<Order0Data<S>>();
  std::vector<Outputs> out;
  if (hodyn::make_aerial_manipulator(*model) != hodyn::Status::kOk) return out;
  for (std::size_t i = 0; i < kPoolSize; ++i) {
    DerivativeMotion<kMaxOrder, long double> m;
    trajectory.sample<kMaxOrder, long double>(static_cast<long double>(pool_time(i)), kMaxOrder, m);
    if (hodyn::inverse_dynamics(*model, *data, seeded_motion<S>(m), 0) != hodyn::Status::kOk)
      return {};
    out.push_back(top_derivative_outputs(*data));
  }
  return out;
}

template <int Order>
struct DifferenceFixture {
  static constexpr int kPoints = kStencils[Order].points;
  std::unique_ptr<hodyn::AerialManipulatorModel<double>> model =
      std::make_unique<hodyn::AerialManipulatorModel<double>>();
  std::unique_ptr<Order0Data<double>> data = std::make_unique<Order0Data<double>>();
  /// pool[i * kPoints + j]: the state at t_i + o_j h.
  std::vector<Order0Motion<double>> pool;
  double step = 0.0;
  double fd_max_rel_error = 0.0;
  double analytic_max_rel_error = 0.0;
  std::string error;
  hodyn::Table3Trajectory trajectory;

  void sample_pool(double h) {
    pool.assign(kPoolSize * kPoints, Order0Motion<double>());
    DerivativeMotion<kMaxOrder, double> m;
    for (std::size_t i = 0; i < kPoolSize; ++i)
      for (int j = 0; j < kPoints; ++j) {
        trajectory.sample<kMaxOrder>(
            pool_time(i) + kStencils[Order].offset[static_cast<std::size_t>(j)] * h, 0, m);
        auto& p = pool[i * kPoints + static_cast<std::size_t>(j)];
        p.base_pose = m.base_pose;
        p.base_twist[0] = m.base_twist[0];
        p.base_twist[1] = m.base_twist[1];
        for (int k = 0; k < 3; ++k)
          p.q[static_cast<std::size_t>(k)] = m.q[static_cast<std::size_t>(k)];
      }
  }

  /// The stencil at pool time i (what the timed loop computes).
  hodyn::Status difference(std::size_t i, double inverse_h_power, Outputs& out) {
    out.setZero();
    for (int j = 0; j < kPoints; ++j) {
      const hodyn::Status s = hodyn::inverse_dynamics(
          *model, *data, pool[i * kPoints + static_cast<std::size_t>(j)], 0);
      if (s != hodyn::Status::kOk) return s;
      out += kStencils[Order].weight[static_cast<std::size_t>(j)] * analytic_outputs(*data, 0);
    }
    out *= inverse_h_power;
    return hodyn::Status::kOk;
  }

  DifferenceFixture() {
    if (hodyn::make_aerial_manipulator(*model) != hodyn::Status::kOk) {
      error = "model build failed";
      return;
    }
    const std::vector<Outputs> reference = long_double_reference<Order>(trajectory);
    if (reference.size() != kPoolSize) {
      error = "long-double reference failed";
      return;
    }
    // hodyn's analytic order r against the reference.
    auto analytic = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder, double>>();
    DerivativeMotion<kMaxOrder, double> m;
    for (std::size_t i = 0; i < kPoolSize; ++i) {
      trajectory.sample<kMaxOrder>(pool_time(i), Order, m);
      if (hodyn::inverse_dynamics(*model, *analytic, m, Order) != hodyn::Status::kOk) {
        error = "analytic inverse dynamics failed";
        return;
      }
      analytic_max_rel_error = std::max(
          analytic_max_rel_error, relative_error(analytic_outputs(*analytic, Order), reference[i]));
    }
    // Step scan: keep the h with the smallest error.
    fd_max_rel_error = std::numeric_limits<double>::infinity();
    for (int e = -24; e <= -2; ++e) {
      const double h = std::pow(10.0, 0.25 * e);
      sample_pool(h);
      double worst = 0.0;
      Outputs d;
      for (std::size_t i = 0; i < kPoolSize; ++i) {
        if (difference(i, std::pow(h, -Order), d) != hodyn::Status::kOk) {
          error = "order-0 inverse dynamics failed on the stencil";
          return;
        }
        worst = std::max(worst, relative_error(d, reference[i]));
      }
      if (worst < fd_max_rel_error) {
        fd_max_rel_error = worst;
        step = h;
      }
    }
    sample_pool(step);
  }
};

template <int Order>
void BM_InverseDynamicsCentralDifference(benchmark::State& state) {
  static DifferenceFixture<Order> f;
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  constexpr int kPoints = DifferenceFixture<Order>::kPoints;
  const auto& model = *f.model;
  auto& data = *f.data;
  const auto* pool = f.pool.data();
  const double inverse_h_power = std::pow(f.step, -Order);
  std::size_t i = 0;
  for (auto _ : state) {
    Outputs derivative = Outputs::Zero();
    hodyn::Status status = hodyn::Status::kOk;
    for (int j = 0; j < kPoints; ++j) {
      const hodyn::Status s =
          hodyn::inverse_dynamics(model, data, pool[i * kPoints + static_cast<std::size_t>(j)], 0);
      if (s != hodyn::Status::kOk) status = s;
      const double w = kStencils[Order].weight[static_cast<std::size_t>(j)];
      derivative.head<6>() += w * data.base_wrench[0];
      derivative.tail<6>() += w * data.joint_torque[0];
    }
    derivative *= inverse_h_power;
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(derivative.data());
    benchmark::ClobberMemory();
  }
  state.counters["order"] = Order;
  state.counters["h_seconds"] = f.step;
  state.counters["fd_max_rel_error"] = f.fd_max_rel_error;
  state.counters["analytic_max_rel_error"] = f.analytic_max_rel_error;
  state.counters["accuracy_gap_orders"] =
      std::log10(f.fd_max_rel_error / std::max(f.analytic_max_rel_error, 1e-300));
}

// ---- registration helpers (names <family>/<r>, like the other suites) -------------

inline std::string order_suffix(int order) { return "/" + std::to_string(order); }

template <int... Orders>
bool register_taylor_ad(std::integer_sequence<int, Orders...>) {
  (benchmark::RegisterBenchmark(("BM_InverseDynamicsTaylorAD" + order_suffix(Orders)).c_str(),
                                BM_InverseDynamicsAd<Taylor<double, Orders>, Orders>)
       ->Apply(configure),
   ...);
  return true;
}

template <int... Orders>
bool register_nested_dual(std::integer_sequence<int, Orders...>) {
  (benchmark::RegisterBenchmark(("BM_InverseDynamicsNestedDual" + order_suffix(Orders)).c_str(),
                                BM_InverseDynamicsAd<NestedDual<Orders>, Orders>)
       ->Apply(configure),
   ...);
  return true;
}

template <int... Orders>
bool register_central_difference(std::integer_sequence<int, Orders...>) {
  (benchmark::RegisterBenchmark(
       ("BM_InverseDynamicsCentralDifference" + order_suffix(Orders)).c_str(),
       BM_InverseDynamicsCentralDifference<Orders>)
       ->Apply(configure),
   ...);
  return true;
}

/// std::integer_sequence<int, First, …, Last>.
template <int First, int... Offsets>
constexpr auto shifted(std::integer_sequence<int, Offsets...>) {
  return std::integer_sequence<int, (First + Offsets)...>{};
}
template <int First, int Last>
constexpr auto order_range() {
  return shifted<First>(std::make_integer_sequence<int, Last - First + 1>{});
}

}  // namespace hodyn_bench::baselines
