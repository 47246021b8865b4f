// bench_forward_dynamics_branched.cpp — seed 000 Table 4 for forward dynamics:
// BM_ForwardDynamicsBranched<n>/<r>, forward_dynamics of orders 0..r together
// on 5 chains of n links (N = 1 + 5n = 6, 21, 101, 251, 501, 1001 bodies),
// r = 0..5, MaxOrder 5 workspace.
//
// Inputs: the 64 random motions of the inverse-dynamics fixture of the same
// tree (bench_inverse_dynamics.hpp); each becomes a forward-dynamics input
// with the state (C₁, V₁, q, q̇) of the motion and the propulsion wrench and
// joint torques (orders 0..5) that inverse dynamics computes for it, so every
// call solves a consistent problem (its answer is the motion's V₁^(k+1),
// q^(k+2)). Built once per tree, outside the timed loop; the status of every
// pool entry is checked there too.
#include <hodyn/forward_dynamics.hpp>
#include <hodyn/inverse_dynamics.hpp>

#include "bench_inverse_dynamics.hpp"

namespace hodyn_bench {
namespace {

template <int BodiesPerBranch>
struct ForwardFixture {
  using Tree = BranchedTree<BodiesPerBranch>;
  using Input = hodyn::ForwardDynamicsInput<Tree, kMaxOrder>;
  std::vector<Input> pool;
  std::unique_ptr<hodyn::ForwardDynamicsData<Tree, kMaxOrder>> data =
      std::make_unique<hodyn::ForwardDynamicsData<Tree, kMaxOrder>>();
  hodyn::Status status = hodyn::Status::kOk;

  ForwardFixture() {
    auto& f = branched_fixture<BodiesPerBranch>();
    status = f.build_status;
    pool.resize(f.pool.size());
    for (std::size_t i = 0; i < f.pool.size() && status == hodyn::Status::kOk; ++i) {
      const auto& m = f.pool[i];
      status = hodyn::inverse_dynamics(*f.model, *f.data, m, kMaxOrder);
      Input& in = pool[i];
      in.base_pose = m.base_pose;
      in.base_twist = m.base_twist[0];
      in.q = m.q[0];
      in.q_dot = m.q[1];
      for (std::size_t k = 0; k <= kMaxOrder; ++k) {
        in.base_wrench[k] = f.data->base_wrench[k];
        in.joint_torque[k] = f.data->joint_torque[k];
      }
    }
  }
};

template <int BodiesPerBranch>
ForwardFixture<BodiesPerBranch>& forward_fixture() {
  static ForwardFixture<BodiesPerBranch> f;
  return f;
}

template <int BodiesPerBranch>
void BM_ForwardDynamicsBranched(benchmark::State& state) {
  auto& f = forward_fixture<BodiesPerBranch>();
  const auto& model = *branched_fixture<BodiesPerBranch>().model;
  const int order = static_cast<int>(state.range(0));
  if (f.status != hodyn::Status::kOk) return state.SkipWithError(hodyn::to_string(f.status));
  for (const auto& in : f.pool) {
    const hodyn::Status s = hodyn::forward_dynamics(model, *f.data, in, order);
    if (s != hodyn::Status::kOk) return state.SkipWithError(hodyn::to_string(s));
  }
  auto& data = *f.data;
  const auto* pool = f.pool.data();
  std::size_t i = 0;
  for (auto _ : state) {
    hodyn::Status s = hodyn::forward_dynamics(model, data, pool[i], order);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(data.motion.q.data());
    benchmark::ClobberMemory();
  }
  state.counters["bodies"] = BranchedTree<BodiesPerBranch>::kNumBodies;
  state.counters["order"] = order;
}

}  // namespace
}  // namespace hodyn_bench

using hodyn_bench::BM_ForwardDynamicsBranched;
using hodyn_bench::configure;
using hodyn_bench::kMaxOrder;
BENCHMARK_TEMPLATE(BM_ForwardDynamicsBranched, 1)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_ForwardDynamicsBranched, 4)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_ForwardDynamicsBranched, 20)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_ForwardDynamicsBranched, 50)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_ForwardDynamicsBranched, 100)->DenseRange(0, kMaxOrder)->Apply(configure);
BENCHMARK_TEMPLATE(BM_ForwardDynamicsBranched, 200)->DenseRange(0, kMaxOrder)->Apply(configure);
