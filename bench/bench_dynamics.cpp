// bench_dynamics.cpp — per-call cost of forward dynamics, hybrid dynamics and
// the closed-form equations of motion on the 12-DoF aerial manipulator.
//
//   BM_ForwardDynamics/<r>        forward_dynamics, orders 0..r together, r = 0..5
//   BM_HybridDynamics/<r>         hybrid_dynamics: the arm joints 1, 2, 4, 5
//                                 torque-driven, the wrist joints 3, 6 motion-
//                                 prescribed, base driven by its wrench
//   BM_MassMatrix                 mass_matrix (composite rigid bodies)
//   BM_EquationsOfMotion/<rates>  equations_of_motion: M̄, C, h, g (+ first
//                                 derivatives when rates = 1)
//
// Inputs cycle through the same pool of 64 random states as the inverse-
// dynamics suite (bench_inverse_dynamics.hpp); the wrench and torque inputs
// are those inverse dynamics produces for each state, so every call solves a
// consistent problem. Run through scripts/bench.sh.
#include "bench_inverse_dynamics.hpp"

namespace hodyn_bench {
namespace {

using Tree = hodyn::AerialManipulatorTree;

struct DynamicsPool {
  std::unique_ptr<hodyn::AerialManipulatorModel<double>> model =
      std::make_unique<hodyn::AerialManipulatorModel<double>>();
  std::vector<hodyn::ForwardDynamicsInput<Tree, kMaxOrder>> forward;
  std::vector<hodyn::HybridDynamicsInput<Tree, kMaxOrder>> hybrid;
  std::vector<hodyn::MotionDerivatives<Tree, 1>> state;
  std::unique_ptr<hodyn::ForwardDynamicsData<Tree, kMaxOrder>> data =
      std::make_unique<hodyn::ForwardDynamicsData<Tree, kMaxOrder>>();
  std::unique_ptr<hodyn::EquationsOfMotionData<Tree>> eom =
      std::make_unique<hodyn::EquationsOfMotionData<Tree>>();
  hodyn::Status status = hodyn::Status::kOk;

  DynamicsPool() {
    auto& f = fixture<Tree>(
        [](hodyn::AerialManipulatorModel<double>& m) { return hodyn::make_aerial_manipulator(m); });
    status = hodyn::make_aerial_manipulator(*model);
    auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder>>();
    for (const auto& m : f.pool) {
      if (status == hodyn::Status::kOk) status = hodyn::inverse_dynamics(*model, *id, m, kMaxOrder);
      hodyn::HybridDynamicsInput<Tree, kMaxOrder> in;
      in.base_pose = m.base_pose;
      in.base_twist = m.base_twist[0];
      in.q = m.q[0];
      in.q_dot = m.q[1];
      for (int k = 0; k <= kMaxOrder; ++k) {
        in.base_wrench[k] = id->base_wrench[k];
        in.joint_torque[k] = id->joint_torque[k];
        in.joint_acceleration[k] = m.q[k + 2];
      }
      in.motion_prescribed = {false, false, true, false, false, true};
      forward.push_back(in);
      hybrid.push_back(in);
      hodyn::MotionDerivatives<Tree, 1> s;
      s.base_pose = m.base_pose;
      for (int k = 0; k < 3; ++k) s.base_twist[k] = m.base_twist[k];
      for (int k = 0; k < 4; ++k) s.q[k] = m.q[k];
      state.push_back(s);
    }
  }
};

DynamicsPool& pool() {
  static DynamicsPool p;
  return p;
}

void BM_ForwardDynamics(benchmark::State& st) {
  auto& p = pool();
  const int order = static_cast<int>(st.range(0));
  for (const auto& in : p.forward)
    if (hodyn::forward_dynamics(*p.model, *p.data, in, order) != hodyn::Status::kOk)
      return st.SkipWithError("forward_dynamics failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::forward_dynamics(*p.model, *p.data, p.forward[i], order);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(p.data->motion.q.data());
    benchmark::ClobberMemory();
  }
  st.counters["order"] = order;
}

void BM_HybridDynamics(benchmark::State& st) {
  auto& p = pool();
  const int order = static_cast<int>(st.range(0));
  for (const auto& in : p.hybrid)
    if (hodyn::hybrid_dynamics(*p.model, *p.data, in, order) != hodyn::Status::kOk)
      return st.SkipWithError("hybrid_dynamics failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::hybrid_dynamics(*p.model, *p.data, p.hybrid[i], order);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(p.data->motion.q.data());
    benchmark::ClobberMemory();
  }
  st.counters["order"] = order;
}

void BM_MassMatrix(benchmark::State& st) {
  auto& p = pool();
  std::size_t i = 0;
  for (auto _ : st) {
    const auto& s = p.state[i];
    hodyn::Status status = hodyn::mass_matrix(*p.model, *p.eom, s.base_pose, s.q[0]);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(p.eom->result.mass_matrix.data());
    benchmark::ClobberMemory();
  }
}

void BM_EquationsOfMotion(benchmark::State& st) {
  auto& p = pool();
  const bool rates = st.range(0) != 0;
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status status = hodyn::equations_of_motion(*p.model, *p.eom, p.state[i], rates);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(p.eom->result.coriolis_matrix.data());
    benchmark::ClobberMemory();
  }
  st.counters["rates"] = rates ? 1 : 0;
}

}  // namespace
}  // namespace hodyn_bench

BENCHMARK(hodyn_bench::BM_ForwardDynamics)->DenseRange(0, hodyn_bench::kMaxOrder)->Apply(hodyn_bench::configure);
BENCHMARK(hodyn_bench::BM_HybridDynamics)->DenseRange(0, hodyn_bench::kMaxOrder)->Apply(hodyn_bench::configure);
BENCHMARK(hodyn_bench::BM_MassMatrix)->Apply(hodyn_bench::configure);
BENCHMARK(hodyn_bench::BM_EquationsOfMotion)->Arg(0)->Arg(1)->Apply(hodyn_bench::configure);
