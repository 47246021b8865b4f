// bench_baselines_central_difference.cpp — part of bench_baselines (see bench_baselines.hpp):
//   BM_InverseDynamicsCentralDifference/<r>   r = 1..4, with the stencil's accuracy
#include "bench_baselines.hpp"

namespace hodyn_bench::baselines {
namespace {

[[maybe_unused]] const bool kRegistered = register_central_difference(order_range<1, 4>());

}  // namespace
}  // namespace hodyn_bench::baselines
