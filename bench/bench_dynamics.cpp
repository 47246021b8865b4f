// bench_dynamics.cpp — per-call cost of forward dynamics, hybrid dynamics and
// the closed-form equations of motion on the 12-DoF aerial manipulator.
//
//   BM_ForwardDynamics/<r>        forward_dynamics, orders 0..r together, r = 0..5
//                                 (MaxOrder 5 workspace)
//   BM_HybridDynamics/<r>         hybrid_dynamics: the arm joints 1, 2, 4, 5
//                                 torque-driven, the wrist joints 3, 6 motion-
//                                 prescribed, base driven by its wrench, r = 0..5
//   BM_MassMatrix                 mass_matrix (composite rigid bodies)
//   BM_InverseDynamicsYardstick   inverse_dynamics order 0 on the same pool
//                                 workspace as BM_InverseDynamics/0: issue 22's
//                                 target is BM_MassMatrix ≤ 0.7× this, one run
//   BM_EquationsOfMotion/<rates>  equations_of_motion: M̄, C, h, g (+ first
//                                 derivatives when rates = 1)
//
// r = 0..10 on a MaxOrder 10 workspace: bench_dynamics_high_order.cpp
// (BM_ForwardDynamicsMaxOrder10/<r>, BM_HybridDynamicsMaxOrder10/<r>), in
// the same binary; why two workspaces: bench_inverse_dynamics.hpp.
//
// Inputs cycle through the same pool of 64 random states as the inverse-
// dynamics suite (bench_dynamics.hpp). Run through scripts/bench.sh.
#include "bench_dynamics.hpp"

namespace hodyn_bench {
namespace {

using Tree = hodyn::AerialManipulatorTree;

/// States (pose, twist and joint derivatives to order 1) for the closed-form matrices.
struct EquationsOfMotionPool {
  std::unique_ptr<hodyn::AerialManipulatorModel<double>> model =
      std::make_unique<hodyn::AerialManipulatorModel<double>>();
  std::vector<hodyn::MotionDerivatives<Tree, 1>> state;
  std::unique_ptr<hodyn::EquationsOfMotionData<Tree>> eom =
      std::make_unique<hodyn::EquationsOfMotionData<Tree>>();
  hodyn::Status status = hodyn::Status::kOk;

  EquationsOfMotionPool() {
    status = hodyn::make_aerial_manipulator(*model);
    for (const auto& m : aerial_manipulator_fixture().pool) {
      hodyn::MotionDerivatives<Tree, 1> s;
      s.base_pose = m.base_pose;
      for (std::size_t k = 0; k < 3; ++k) s.base_twist[k] = m.base_twist[k];
      for (std::size_t k = 0; k < 4; ++k) s.q[k] = m.q[k];
      state.push_back(s);
    }
  }
};

EquationsOfMotionPool& eom_pool() {
  static EquationsOfMotionPool p;
  return p;
}

void BM_ForwardDynamics(benchmark::State& st) { run_forward_dynamics<kMaxOrder>(st); }

void BM_HybridDynamics(benchmark::State& st) { run_hybrid_dynamics<kMaxOrder>(st); }

void BM_MassMatrix(benchmark::State& st) {
  auto& p = eom_pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  std::size_t i = 0;
  for (auto _ : st) {
    const auto& s = p.state[i];
    hodyn::Status status = hodyn::mass_matrix(*p.model, *p.eom, s.base_pose, s.q[0]);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(p.eom->result.mass_matrix.data());
    benchmark::ClobberMemory();
  }
}

void BM_InverseDynamicsYardstick(benchmark::State& st) {
  st.SetLabel("inverse_dynamics r = 0");
  run(st, aerial_manipulator_fixture());
}

void BM_EquationsOfMotion(benchmark::State& st) {
  auto& p = eom_pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  const bool rates = st.range(0) != 0;
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status status = hodyn::equations_of_motion(*p.model, *p.eom, p.state[i], rates);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(p.eom->result.coriolis_matrix.data());
    benchmark::ClobberMemory();
  }
  st.counters["rates"] = rates ? 1 : 0;
}

}  // namespace
}  // namespace hodyn_bench

// Registered by their unqualified names (BM_ForwardDynamics/<r>, …), the names
// bench/report.py and RESULTS.md use.
using hodyn_bench::BM_EquationsOfMotion;
using hodyn_bench::BM_ForwardDynamics;
using hodyn_bench::BM_HybridDynamics;
using hodyn_bench::BM_InverseDynamicsYardstick;
using hodyn_bench::BM_MassMatrix;
using hodyn_bench::configure;
using hodyn_bench::kMaxOrder;

BENCHMARK(BM_ForwardDynamics)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK(BM_HybridDynamics)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK(BM_MassMatrix)->Apply(configure);
BENCHMARK(BM_InverseDynamicsYardstick)->Arg(0)->Apply(configure);
BENCHMARK(BM_EquationsOfMotion)->Arg(0)->Arg(1)->Apply(configure);
