// bench_inverse_dynamics.cpp — per-call cost of hodyn::inverse_dynamics.
//
//   BM_InverseDynamics/<r>                      12-DoF aerial manipulator, r = 0..5
//                                               (MaxOrder 5 workspace)
//   BM_InverseDynamicsSphericalWrist/<r>        the same DoF count with a ball joint per
//                                               arm (3 bodies; issue 19), r = 0..5
//   BM_InverseDynamicsUniversalShoulder/<r>     the same DoF count with a universal joint
//                                               at each shoulder (5 bodies; issue 19), r = 0..5
//   BM_InverseDynamicsMaxOrder10/<r>            the same on a MaxOrder 10 workspace,
//                                               r = 0..10
//   BM_InverseDynamicsBranched<n>/<r>           seed 000 Table 4 scaling: 5 chains
//                                               of n links, N = 1 + 5n bodies,
//                                               n ∈ {1, 4, 20, 50, 100, 200}
//                                               (N = 6, 21, 101, 251, 501, 1001),
//                                               r = 0..5 (MaxOrder 5)
//   BM_InverseDynamicsBranchedMaxOrder10<20>/<r>  N = 101, r = 0..10 (MaxOrder 10)
//
// Why two workspaces: see bench_inverse_dynamics.hpp (r ≤ 5 on MaxOrder 5, as
// a user needing r ≤ 5 compiles it; r ≤ 10 on MaxOrder 10, including r ≤ 5 so
// that the cost of the bigger workspace is measured, not assumed).
//
// Translation units (one binary, compiled in parallel, each well under a
// minute): this file (aerial manipulator, n = 1, 4),
// bench_inverse_dynamics_branched.cpp (n = 20, 50),
// bench_inverse_dynamics_branched_large.cpp (n = 100, 200),
// bench_inverse_dynamics_high_order.cpp (MaxOrder 10, N = 101).
//
// One inverse_dynamics(model, data, motion, r) call per iteration on a pool of
// 64 random motions (see bench_inverse_dynamics.hpp). Counters: bodies (N),
// order (r), max_order (the workspace's MaxOrder). Run through scripts/bench.sh
// (which adds a 0.2 s warm-up).
#include "bench_inverse_dynamics.hpp"

namespace hodyn_bench {
namespace {

void BM_InverseDynamics(benchmark::State& state) { run(state, aerial_manipulator_fixture()); }

void BM_InverseDynamicsSphericalWrist(benchmark::State& state) {
  run(state, spherical_wrist_fixture());
}

void BM_InverseDynamicsUniversalShoulder(benchmark::State& state) {
  run(state, universal_shoulder_fixture());
}

void BM_InverseDynamicsMaxOrder10(benchmark::State& state) {
  run(state, aerial_manipulator_fixture<kHighMaxOrder>());
}

}  // namespace
}  // namespace hodyn_bench

using hodyn_bench::BM_InverseDynamics;
using hodyn_bench::BM_InverseDynamicsBranched;
using hodyn_bench::BM_InverseDynamicsMaxOrder10;
using hodyn_bench::BM_InverseDynamicsSphericalWrist;
using hodyn_bench::BM_InverseDynamicsUniversalShoulder;
using hodyn_bench::configure;
using hodyn_bench::kHighMaxOrder;
using hodyn_bench::kMaxOrder;

BENCHMARK(BM_InverseDynamics)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK(BM_InverseDynamicsSphericalWrist)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK(BM_InverseDynamicsUniversalShoulder)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK(BM_InverseDynamicsMaxOrder10)->DenseRange(0, kHighMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 1)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 4)->DenseRange(0, kMaxOrder)->Apply(configure);
