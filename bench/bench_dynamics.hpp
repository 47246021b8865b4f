// bench_dynamics.hpp — shared inputs of the forward/hybrid dynamics benchmarks
// (bench_dynamics.cpp: MaxOrder 5, bench_dynamics_high_order.cpp: MaxOrder 10).
//
// Inputs cycle through the pool of 64 random states of the inverse-dynamics
// suite (bench_inverse_dynamics.hpp) on the workspace of the same MaxOrder;
// the wrench and torque inputs are those inverse dynamics of order MaxOrder
// produces for each state, so every call solves a consistent problem. Hybrid
// dynamics: the arm joints 1, 2, 4, 5 torque-driven, the wrist joints 3, 6
// motion-prescribed, the base driven by its wrench.
#pragma once

#include "bench_inverse_dynamics.hpp"

namespace hodyn_bench {

template <int MaxOrder>
struct DynamicsPool {
  using Tree = hodyn::AerialManipulatorTree;
  using InputT = hodyn::HybridDynamicsInput<Tree, MaxOrder>;

  std::unique_ptr<hodyn::AerialManipulatorModel<double>> model =
      std::make_unique<hodyn::AerialManipulatorModel<double>>();
  std::vector<hodyn::ForwardDynamicsInput<Tree, MaxOrder>> forward;
  std::vector<InputT> hybrid;
  std::unique_ptr<hodyn::ForwardDynamicsData<Tree, MaxOrder>> data =
      std::make_unique<hodyn::ForwardDynamicsData<Tree, MaxOrder>>();
  hodyn::Status status = hodyn::Status::kOk;

  DynamicsPool() {
    auto& f = aerial_manipulator_fixture<MaxOrder>();
    status = hodyn::make_aerial_manipulator(*model);
    auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, MaxOrder>>();
    for (const auto& m : f.pool) {
      if (status == hodyn::Status::kOk) status = hodyn::inverse_dynamics(*model, *id, m, MaxOrder);
      InputT in;
      in.base_pose = m.base_pose;
      in.base_twist = m.base_twist[0];
      in.q = m.q[0];
      in.q_dot = m.q[1];
      for (int k = 0; k <= MaxOrder; ++k) {
        const auto i = static_cast<std::size_t>(k);
        in.base_wrench[i] = id->base_wrench[i];
        in.joint_torque[i] = id->joint_torque[i];
        in.joint_acceleration[i] = m.q[i + 2];
      }
      in.motion_prescribed = {false, false, true, false, false, true};
      forward.push_back(in);
      hybrid.push_back(in);
    }
  }
};

template <int MaxOrder>
DynamicsPool<MaxOrder>& dynamics_pool() {
  static DynamicsPool<MaxOrder> p;  // one per process and MaxOrder
  return p;
}

/// Times `solve(model, data, input, order)` over the pool of inputs, one call
/// per iteration, after checking the Status on the whole pool.
template <int MaxOrder, class Inputs, class Solve>
void run_pool(benchmark::State& st, const Inputs& inputs, Solve solve, const char* what) {
  auto& p = dynamics_pool<MaxOrder>();
  const int order = static_cast<int>(st.range(0));
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  for (const auto& in : inputs)
    if (solve(*p.model, *p.data, in, order) != hodyn::Status::kOk) return st.SkipWithError(what);
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = solve(*p.model, *p.data, inputs[i], order);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(p.data->motion.q.data());
    benchmark::ClobberMemory();
  }
  st.counters["order"] = order;
  st.counters["max_order"] = MaxOrder;
}

/// One forward_dynamics call of order r (orders 0..r together) per iteration.
template <int MaxOrder>
void run_forward_dynamics(benchmark::State& st) {
  run_pool<MaxOrder>(
      st, dynamics_pool<MaxOrder>().forward,
      [](const auto& m, auto& d, const auto& in, int r) {
        return hodyn::forward_dynamics(m, d, in, r);
      },
      "forward_dynamics failed on the pool");
}

/// One hybrid_dynamics call of order r per iteration.
template <int MaxOrder>
void run_hybrid_dynamics(benchmark::State& st) {
  run_pool<MaxOrder>(
      st, dynamics_pool<MaxOrder>().hybrid,
      [](const auto& m, auto& d, const auto& in, int r) {
        return hodyn::hybrid_dynamics(m, d, in, r);
      },
      "hybrid_dynamics failed on the pool");
}

}  // namespace hodyn_bench
