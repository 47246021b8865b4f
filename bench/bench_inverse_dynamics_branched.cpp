// bench_inverse_dynamics_branched.cpp — BM_InverseDynamicsBranched<n>/<r> for
// n ∈ {20, 50} (N = 101, 251), r = 0..5 (MaxOrder 5); linked into
// bench_inverse_dynamics (see bench_inverse_dynamics.cpp for the split).
#include "bench_inverse_dynamics.hpp"

using hodyn_bench::BM_InverseDynamicsBranched;
using hodyn_bench::configure;
using hodyn_bench::kMaxOrder;

BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 20)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 50)->DenseRange(0, kMaxOrder)->Apply(configure);
