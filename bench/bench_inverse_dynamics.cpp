// bench_inverse_dynamics.cpp — per-call cost of hodyn::inverse_dynamics.
//
//   BM_InverseDynamics/<r>               12-DoF aerial manipulator, r = 0..5
//   BM_InverseDynamicsBranched<n>/<r>    5 chains of n links (N = 1 + 5n bodies),
//                                        n ∈ {1, 4} here, n ∈ {20, 100} in
//                                        bench_inverse_dynamics_branched.cpp
//                                        (split so the two halves compile in parallel)
//
// One inverse_dynamics(model, data, motion, r) call per iteration on a pool of
// 64 random motions (see bench_inverse_dynamics.hpp). Counters: bodies (N),
// order (r). Run through scripts/bench.sh (which adds a 0.2 s warm-up).
#include "bench_inverse_dynamics.hpp"

namespace hodyn_bench {
namespace {

void BM_InverseDynamics(benchmark::State& state) {
  auto& f = fixture<hodyn::AerialManipulatorTree>(
      [](hodyn::AerialManipulatorModel<double>& m) { return hodyn::make_aerial_manipulator(m); });
  run(state, f);
}

}  // namespace
}  // namespace hodyn_bench

using hodyn_bench::BM_InverseDynamics;
using hodyn_bench::BM_InverseDynamicsBranched;
using hodyn_bench::configure;
using hodyn_bench::kMaxOrder;

BENCHMARK(BM_InverseDynamics)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 1)->Arg(0)->Arg(2)->Arg(5)->Apply(configure);
BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 4)->Arg(0)->Arg(2)->Arg(5)->Apply(configure);
