// bench_baselines_nested_dual_0_3.cpp — part of bench_baselines (see bench_baselines.hpp):
//   BM_InverseDynamicsNestedDual/<r>   r = 0..3 (r = 4, 5: bench_baselines_nested_dual_4_5.cpp)
#include "bench_baselines.hpp"

namespace hodyn_bench::baselines {
namespace {

[[maybe_unused]] const bool kRegistered = register_nested_dual(order_range<0, 3>());

}  // namespace
}  // namespace hodyn_bench::baselines
