// bench_baselines_nested_dual_4_5.cpp — part of bench_baselines (see bench_baselines.hpp):
//   BM_InverseDynamicsNestedDual/<r>   r = 4, 5 (16 and 32 doubles per scalar)
#include "bench_baselines.hpp"

namespace hodyn_bench::baselines {
namespace {

[[maybe_unused]] const bool kRegistered = register_nested_dual(order_range<4, kMaxOrder>());

}  // namespace
}  // namespace hodyn_bench::baselines
