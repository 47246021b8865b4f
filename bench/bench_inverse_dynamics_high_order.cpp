// bench_inverse_dynamics_high_order.cpp — BM_InverseDynamicsBranchedMaxOrder10<20>/<r>:
// N = 101 (5 chains of 20 links) on a MaxOrder 10 workspace, r = 0..10; linked
// into bench_inverse_dynamics (see bench_inverse_dynamics.cpp for the split).
#include "bench_inverse_dynamics.hpp"

using hodyn_bench::BM_InverseDynamicsBranchedMaxOrder10;
using hodyn_bench::configure;
using hodyn_bench::kHighMaxOrder;

BENCHMARK_TEMPLATE(BM_InverseDynamicsBranchedMaxOrder10, 20)
    ->DenseRange(0, kHighMaxOrder)
    ->Apply(configure);
