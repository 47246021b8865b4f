// bench_dynamics_high_order.cpp — forward and hybrid dynamics of the 12-DoF
// aerial manipulator on a MaxOrder 10 workspace, r = 0..10; linked into
// bench_dynamics (see bench_dynamics.cpp; why two workspaces:
// bench_inverse_dynamics.hpp).
//
//   BM_ForwardDynamicsMaxOrder10/<r>   forward_dynamics, orders 0..r together
//   BM_HybridDynamicsMaxOrder10/<r>    hybrid_dynamics, same split as BM_HybridDynamics
#include "bench_dynamics.hpp"

namespace hodyn_bench {
namespace {

void BM_ForwardDynamicsMaxOrder10(benchmark::State& st) { run_forward_dynamics<kHighMaxOrder>(st); }

void BM_HybridDynamicsMaxOrder10(benchmark::State& st) { run_hybrid_dynamics<kHighMaxOrder>(st); }

}  // namespace
}  // namespace hodyn_bench

using hodyn_bench::BM_ForwardDynamicsMaxOrder10;
using hodyn_bench::BM_HybridDynamicsMaxOrder10;
using hodyn_bench::configure;
using hodyn_bench::kHighMaxOrder;

BENCHMARK(BM_ForwardDynamicsMaxOrder10)->DenseRange(0, kHighMaxOrder)->Apply(configure);
BENCHMARK(BM_HybridDynamicsMaxOrder10)->DenseRange(0, kHighMaxOrder)->Apply(configure);
