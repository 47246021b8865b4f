// bench_inverse_dynamics_branched_large.cpp — BM_InverseDynamicsBranched<n>/<r>
// for n ∈ {100, 200} (N = 501, 1001), r = 0..5 (MaxOrder 5); linked into
// bench_inverse_dynamics (see bench_inverse_dynamics.cpp for the split).
#include "bench_inverse_dynamics.hpp"

using hodyn_bench::BM_InverseDynamicsBranched;
using hodyn_bench::configure;
using hodyn_bench::kMaxOrder;

BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 100)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 200)->DenseRange(0, kMaxOrder)->Apply(configure);
