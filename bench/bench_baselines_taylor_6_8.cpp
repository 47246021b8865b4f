// bench_baselines_taylor_6_8.cpp — part of bench_baselines (see bench_baselines.hpp):
//   BM_InverseDynamicsTaylorAD/<r>   r = 6..8 (checked against the MaxOrder 10 analytic;
//                                    r = 9, 10: bench_baselines_taylor_9_10.cpp)
#include "bench_baselines.hpp"

namespace hodyn_bench::baselines {
namespace {

[[maybe_unused]] const bool kRegistered = register_taylor_ad(order_range<6, 8>());

}  // namespace
}  // namespace hodyn_bench::baselines
