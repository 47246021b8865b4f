// bench_baselines_taylor_9_10.cpp — part of bench_baselines (see bench_baselines.hpp):
//   BM_InverseDynamicsTaylorAD/<r>   r = 9, 10 (checked against the MaxOrder 10 analytic;
//                                    r = 6..8: bench_baselines_taylor_6_8.cpp)
#include "bench_baselines.hpp"

namespace hodyn_bench::baselines {
namespace {

[[maybe_unused]] const bool kRegistered = register_taylor_ad(order_range<9, kHighMaxOrder>());

}  // namespace
}  // namespace hodyn_bench::baselines
