// bench_regressor.cpp — the inertial-parameter regressors of the 12-DoF aerial
// manipulator (issue 18 targets: Y^(0) ≤ 0.6 µs, Y^(0..2) ≤ 1.5 µs,
// Slotine–Li ≤ 0.8 µs):
//
//   BM_Regressor/r            inverse_dynamics_regressor, Y^(0..r), r = 0..2
//   BM_BodyRegressor          inverse_dynamics_body_regressor, Y^(0) of the
//                             end effector (body 6): what an estimator needs
//   BM_SlotineLiRegressor     slotine_li_regressor (ν_r, ν̇_r ≠ ν, ν̇)
//   BM_MomentumRegressor/r    momentum_regressor, Y_p^(0..r)
//   BM_InverseDynamics/r      inverse_dynamics at the same orders: the
//                             yardstick (Y^(k) π equals it)
//
// Inputs cycle through a pool of 64 random states (base pose, V₁^(k), q^(k)
// ~ N(0, 1)). Run pinned, e.g.
//   taskset -c 1 bench_regressor --benchmark_enable_random_interleaving=true
//     --benchmark_repetitions=20 --benchmark_min_time=0.05
//     --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <hodyn/inverse_dynamics.hpp>
#include <hodyn/inverse_dynamics_regressor.hpp>
#include <hodyn/models/aerial_manipulator.hpp>

#include <Eigen/Geometry>

#include <cstddef>
#include <memory>
#include <random>
#include <vector>

namespace {

using Tree = hodyn::AerialManipulatorTree;
using Model = hodyn::AerialManipulatorModel<double>;
constexpr int kMaxOrder = 2;
using Motion = hodyn::MotionDerivatives<Tree, kMaxOrder, double>;
constexpr std::size_t kPoolSize = 64;  // power of two: the index wraps with a mask

struct Pool {
  std::unique_ptr<Model> model = std::make_unique<Model>();
  std::vector<Motion> motion;
  hodyn::Status status = hodyn::Status::kOk;

  Pool() {
    status = hodyn::make_aerial_manipulator(*model);
    std::mt19937 gen(20261127u);
    std::normal_distribution<double> g(0.0, 1.0);
    for (std::size_t i = 0; i < kPoolSize; ++i) {
      Motion m;
      Eigen::Quaterniond r(g(gen), g(gen), g(gen), g(gen));
      r.normalize();
      m.base_pose.rotation = r.toRotationMatrix();
      m.base_pose.translation << g(gen), g(gen), g(gen);
      for (auto& v : m.base_twist)
        for (int c = 0; c < 6; ++c) v(c) = g(gen);
      for (auto& q : m.q)
        for (int c = 0; c < q.size(); ++c) q(c) = g(gen);
      motion.push_back(m);
    }
  }
};

Pool& pool() {
  static Pool p;
  return p;
}

void BM_Regressor(benchmark::State& st) {
  auto& p = pool();
  const int order = static_cast<int>(st.range(0));
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  auto data = std::make_unique<hodyn::RegressorData<Tree, kMaxOrder>>();
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::inverse_dynamics_regressor(*p.model, *data, p.motion[i], order);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(data->regressor[0].data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Regressor)->DenseRange(0, kMaxOrder);

void BM_BodyRegressor(benchmark::State& st) {
  auto& p = pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  auto data = std::make_unique<hodyn::BodyRegressorData<Tree, kMaxOrder>>();
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::inverse_dynamics_body_regressor(*p.model, *data, p.motion[i], 6, 0);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(data->regressor[0].data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_BodyRegressor);

void BM_SlotineLiRegressor(benchmark::State& st) {
  auto& p = pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  std::vector<hodyn::SlotineLiInput<Tree>> inputs(kPoolSize);
  for (std::size_t i = 0; i < kPoolSize; ++i) {
    const Motion& m = p.motion[i];
    const Motion& r = p.motion[(i + 1) & (kPoolSize - 1)];  // another state's rates
    auto& in = inputs[i];
    in.base_pose = m.base_pose;
    in.base_twist = m.base_twist[0];
    in.q = m.q[0];
    in.q_dot = m.q[1];
    in.reference_base_twist = r.base_twist[0];
    in.reference_q_dot = r.q[1];
    in.reference_base_acceleration = r.base_twist[1];
    in.reference_q_ddot = r.q[2];
  }
  auto data = std::make_unique<hodyn::RegressorData<Tree, 0>>();
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::slotine_li_regressor(*p.model, *data, inputs[i]);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(data->regressor[0].data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_SlotineLiRegressor);

void BM_MomentumRegressor(benchmark::State& st) {
  auto& p = pool();
  const int order = static_cast<int>(st.range(0));
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  auto data = std::make_unique<hodyn::RegressorData<Tree, kMaxOrder>>();
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::momentum_regressor(*p.model, *data, p.motion[i], order);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(data->regressor[0].data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_MomentumRegressor)->DenseRange(0, 1);

void BM_InverseDynamics(benchmark::State& st) {
  auto& p = pool();
  const int order = static_cast<int>(st.range(0));
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  auto data = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder>>();
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::inverse_dynamics(*p.model, *data, p.motion[i], order);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(data->joint_torque[0].data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_InverseDynamics)->DenseRange(0, kMaxOrder);

}  // namespace

BENCHMARK_MAIN();
