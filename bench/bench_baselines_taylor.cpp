// bench_baselines_taylor.cpp — part of bench_baselines (see bench_baselines.hpp):
//   BM_InverseDynamicsAnalytic/<r>   r = 0..5 (MaxOrder 5), r = 6..10 (MaxOrder 10)
//   BM_InverseDynamicsTaylorAD/<r>   r = 0..5 (r = 6..8, 9..10: bench_baselines_taylor_6_8.cpp,
//                                    bench_baselines_taylor_9_10.cpp)
#include "bench_baselines.hpp"

namespace hodyn_bench::baselines {
namespace {

bool register_analytic_and_taylor_ad() {
  benchmark::RegisterBenchmark("BM_InverseDynamicsAnalytic", BM_InverseDynamicsAnalytic<kMaxOrder>)
      ->DenseRange(0, kMaxOrder)
      ->Apply(configure);
  benchmark::RegisterBenchmark("BM_InverseDynamicsAnalytic",
                               BM_InverseDynamicsAnalytic<kHighMaxOrder>)
      ->DenseRange(kMaxOrder + 1, kHighMaxOrder)
      ->Apply(configure);
  return register_taylor_ad(order_range<0, kMaxOrder>());
}

[[maybe_unused]] const bool kRegistered = register_analytic_and_taylor_ad();

}  // namespace
}  // namespace hodyn_bench::baselines
