// bench_constrained_dynamics.cpp — dynamics of the 12-DoF aerial manipulator
// with its two arm tips joined (issue 19 target: constrained forward dynamics
// of the dual-arm carry ≤ 2 µs). The closure stands for the carried bar: a
// weld (m = 6) or a point (m = 3) between the tips, closed at each state.
//
//   BM_ConstrainedForwardDynamics/kind     constrained_forward_dynamics, Baumgarte on
//   BM_ConstrainedInverseDynamics/kind     constrained_inverse_dynamics, least effort
//   BM_ConstrainedHybridDynamics/kind      constrained_hybrid_dynamics, base motion given
//   BM_ForwardDynamics                     the open tree's forward_dynamics (yardstick)
// kind 0 = weld, 1 = point. Inputs cycle through 64 random states (pose,
// rates ~ N(0, 1)). Run pinned, e.g.
//   taskset -c 1 bench_constrained_dynamics --benchmark_enable_random_interleaving=true
//     --benchmark_repetitions=10 --benchmark_min_time=0.05 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <hodyn/constrained_dynamics.hpp>
#include <hodyn/constrained_hybrid_dynamics.hpp>
#include <hodyn/forward_dynamics.hpp>
#include <hodyn/kinematics.hpp>
#include <hodyn/models/aerial_manipulator.hpp>

#include <Eigen/Geometry>

#include <array>
#include <cstddef>
#include <memory>
#include <random>
#include <vector>

namespace {

using Tree = hodyn::AerialManipulatorTree;
using Model = hodyn::AerialManipulatorModel<double>;
using Closures = std::array<hodyn::LoopClosure<double>, 1>;
constexpr std::size_t kPoolSize = 64;

struct Sample {
  hodyn::ForwardDynamicsInput<Tree, 0, double> forward;
  hodyn::HybridDynamicsInput<Tree, 0, double> hybrid;
  hodyn::MotionDerivatives<Tree, 0, double> motion;
  std::array<Closures, 2> closures;  // weld, point
};

struct Pool {
  std::unique_ptr<Model> model = std::make_unique<Model>();
  std::vector<Sample> samples;
  hodyn::Status status = hodyn::Status::kOk;

  Pool() {
    status = hodyn::make_aerial_manipulator(*model);
    std::mt19937 gen(20261127u);
    std::normal_distribution<double> g(0.0, 1.0);
    auto kin = std::make_unique<hodyn::KinematicsData<Tree, 0, double>>();
    for (std::size_t i = 0; i < kPoolSize; ++i) {
      Sample s;
      Eigen::Quaterniond r(g(gen), g(gen), g(gen), g(gen));
      r.normalize();
      auto& in = s.forward;
      in.base_pose.rotation = r.toRotationMatrix();
      in.base_pose.translation << g(gen), g(gen), g(gen);
      for (int c = 0; c < 6; ++c) in.base_twist(c) = g(gen);
      for (int c = 0; c < 6; ++c) {
        in.q(c) = g(gen);
        in.q_dot(c) = g(gen);
        in.joint_torque[0](c) = g(gen);
      }
      in.base_wrench[0] << 0, 0, 0, 0, 0, 40;
      static_cast<hodyn::ForwardDynamicsInput<Tree, 0, double>&>(s.hybrid) = in;
      s.hybrid.base_input = hodyn::BaseInput::kMotion;
      s.motion.base_pose = in.base_pose;
      s.motion.base_twist[0] = in.base_twist;
      s.motion.q[0] = in.q;
      s.motion.q[1] = in.q_dot;
      for (int c = 0; c < 6; ++c) s.motion.q[2](c) = g(gen);
      if (hodyn::forward_kinematics(*model, *kin, s.motion, 0) != hodyn::Status::kOk)
        status = hodyn::Status::kInvalidArgument;
      for (int k = 0; k < 2; ++k) {
        auto& c = s.closures[static_cast<std::size_t>(k)][0];
        c.kind = k == 0 ? hodyn::LoopClosureKind::kWeld : hodyn::LoopClosureKind::kPoint;
        c.frame_a.body = 3;
        c.frame_a.placement.translation << 0, 0, -0.06;  // the tip of arm 1
        c.frame_b.body = 6;
        c.frame_b.placement = kin->body_pose[6].inverse() * kin->body_pose[3] * c.frame_a.placement;
      }
      samples.push_back(s);
    }
  }
};

Pool& pool() {
  static Pool p;
  return p;
}

void BM_ConstrainedForwardDynamics(benchmark::State& st) {
  auto& p = pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  const auto kind = static_cast<std::size_t>(st.range(0));
  auto data = std::make_unique<hodyn::ConstrainedDynamicsData<Tree, 1>>();
  const hodyn::ConstraintStabilization<double> gains{20.0, 100.0};
  std::size_t i = 0;
  for (auto _ : st) {
    const Sample& s = p.samples[i];
    hodyn::Status r =
        hodyn::constrained_forward_dynamics(*p.model, s.closures[kind], s.forward, gains, *data);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(data->acceleration.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ConstrainedForwardDynamics)->DenseRange(0, 1);

void BM_ConstrainedInverseDynamics(benchmark::State& st) {
  auto& p = pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  const auto kind = static_cast<std::size_t>(st.range(0));
  auto data = std::make_unique<hodyn::ConstrainedDynamicsData<Tree, 1>>();
  hodyn::ConstrainedInverseDynamicsOptions<Tree, 1> options;
  options.objective = hodyn::ConstraintForceObjective::kMinimumActuatorEffort;
  std::size_t i = 0;
  for (auto _ : st) {
    const Sample& s = p.samples[i];
    hodyn::Status r =
        hodyn::constrained_inverse_dynamics(*p.model, s.closures[kind], s.motion, options, *data);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(data->generalized_force.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ConstrainedInverseDynamics)->DenseRange(0, 1);

void BM_ConstrainedHybridDynamics(benchmark::State& st) {
  auto& p = pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  const auto kind = static_cast<std::size_t>(st.range(0));
  auto data = std::make_unique<hodyn::ConstrainedHybridDynamicsData<Tree, 1>>();
  const hodyn::ConstraintStabilization<double> gains{20.0, 100.0};
  std::size_t i = 0;
  for (auto _ : st) {
    const Sample& s = p.samples[i];
    hodyn::Status r =
        hodyn::constrained_hybrid_dynamics(*p.model, s.closures[kind], s.hybrid, gains, *data);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(data->acceleration.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ConstrainedHybridDynamics)->DenseRange(0, 1);

void BM_ForwardDynamics(benchmark::State& st) {
  auto& p = pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  auto data = std::make_unique<hodyn::ForwardDynamicsData<Tree, 0>>();
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status r = hodyn::forward_dynamics(*p.model, *data, p.samples[i].forward, 0);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(data->motion.q[2].data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ForwardDynamics);

}  // namespace
