// bench_inverse_dynamics_branched.cpp — the large members of the branched-chains
// family, BM_InverseDynamicsBranched<n>/<r> for n ∈ {20, 100} (N = 101, 501),
// r ∈ {0, 2, 5}; linked into bench_inverse_dynamics (see that file).
#include "bench_inverse_dynamics.hpp"

using hodyn_bench::BM_InverseDynamicsBranched;
using hodyn_bench::configure;

BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 20)->Arg(0)->Arg(2)->Arg(5)->Apply(configure);
BENCHMARK_TEMPLATE(BM_InverseDynamicsBranched, 100)->Arg(0)->Arg(2)->Arg(5)->Apply(configure);
