// bench_generated_model.cpp — a robot generated from its URDF by hodyn-urdf
// against the same robot written by hand, in one run (issue 14's target:
// generated models are exactly as fast, ratio ≤ 1.02).
//
//   BM_HandWritten/<what>/<r>   make_aerial_manipulator (core/include/hodyn/models)
//   BM_Generated/<what>/<r>     aerial_manipulator_urdf::make_model, generated at build
//                               time from core/robots/aerial_manipulator/aerial_manipulator.urdf
//   <what>: 0 = inverse dynamics of order r (r = 0..2), 1 = forward dynamics of
//   order r (r = 0, 1), 2 = the mass matrix (r = 0).
//
// Same pool of 64 random states for both (bench_inverse_dynamics.hpp; the
// generated tree has the same topology and joint kinds, so the states carry
// over entry by entry). The two models differ only in their body frames
// (link frames at the joint axes vs frames at the centres of mass), which the
// algorithms never see after the model is built. bench/report.py prints the
// generated / hand-written ratio of the medians.
#include "bench_inverse_dynamics.hpp"

#include <aerial_manipulator_urdf.hpp>

namespace hodyn_bench {
namespace {

using Generated = aerial_manipulator_urdf::Tree;
static_assert(Generated::kNumBodies == hodyn::AerialManipulatorTree::kNumBodies,
              "the URDF and the hand-written robot must have the same bodies");

template <class Tree>
struct Case {
  Fixture<Tree, kMaxOrder>* ids = nullptr;
  std::vector<hodyn::ForwardDynamicsInput<Tree, kMaxOrder>> forward;
  std::unique_ptr<hodyn::ForwardDynamicsData<Tree, kMaxOrder>> fd =
      std::make_unique<hodyn::ForwardDynamicsData<Tree, kMaxOrder>>();
  std::unique_ptr<hodyn::EquationsOfMotionData<Tree>> eom =
      std::make_unique<hodyn::EquationsOfMotionData<Tree>>();
};

template <class Tree, class Make>
Case<Tree>& make_case(Make make) {
  static Fixture<Tree, kMaxOrder> ids(make);
  static Case<Tree> c = [&] {
    Case<Tree> out;
    out.ids = &ids;
    // Forward-dynamics inputs: the wrenches and torques inverse dynamics of
    // order kMaxOrder gives for each state, so every call solves a consistent problem.
    auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, kMaxOrder>>();
    for (const auto& m : ids.pool) {
      if (hodyn::inverse_dynamics(*ids.model, *id, m, kMaxOrder) != hodyn::Status::kOk)
        ids.build_status = hodyn::Status::kNonFiniteResult;
      hodyn::ForwardDynamicsInput<Tree, kMaxOrder> in;
      in.base_pose = m.base_pose;
      in.base_twist = m.base_twist[0];
      in.q = m.q[0];
      in.q_dot = m.q[1];
      in.base_wrench = id->base_wrench;
      in.joint_torque = id->joint_torque;
      out.forward.push_back(in);
    }
    return out;
  }();
  return c;
}

Case<hodyn::AerialManipulatorTree>& hand_written() {
  return make_case<hodyn::AerialManipulatorTree>(
      [](hodyn::AerialManipulatorModel<double>& m) { return hodyn::make_aerial_manipulator(m); });
}
Case<Generated>& generated() {
  return make_case<Generated>(
      [](hodyn::Model<Generated, double>& m) { return aerial_manipulator_urdf::make_model(m); });
}

template <class Tree>
void run_case(benchmark::State& state, Case<Tree>& c) {
  const int what = static_cast<int>(state.range(0));
  const int order = static_cast<int>(state.range(1));
  if (c.ids->build_status != hodyn::Status::kOk) {
    state.SkipWithError(hodyn::to_string(c.ids->build_status));
    return;
  }
  const auto& model = *c.ids->model;
  std::size_t i = 0;
  if (what == 0) {
    auto& data = *c.ids->data;
    for (const auto& m : c.ids->pool)
      if (hodyn::inverse_dynamics(model, data, m, order) != hodyn::Status::kOk) {
        state.SkipWithError("inverse dynamics failed");
        return;
      }
    for (auto _ : state) {
      hodyn::Status s = hodyn::inverse_dynamics(model, data, c.ids->pool[i], order);
      i = (i + 1) & (kPoolSize - 1);
      benchmark::DoNotOptimize(s);
      benchmark::DoNotOptimize(data.base_wrench.data());
      benchmark::DoNotOptimize(data.joint_torque.data());
      benchmark::ClobberMemory();
    }
  } else if (what == 1) {
    for (const auto& in : c.forward)
      if (hodyn::forward_dynamics(model, *c.fd, in, order) != hodyn::Status::kOk) {
        state.SkipWithError("forward dynamics failed");
        return;
      }
    for (auto _ : state) {
      hodyn::Status s = hodyn::forward_dynamics(model, *c.fd, c.forward[i], order);
      i = (i + 1) & (kPoolSize - 1);
      benchmark::DoNotOptimize(s);
      benchmark::DoNotOptimize(c.fd->motion.q.data());
      benchmark::ClobberMemory();
    }
  } else {
    for (auto _ : state) {
      const auto& m = c.ids->pool[i];
      hodyn::Status s = hodyn::mass_matrix(model, *c.eom, m.base_pose, m.q[0]);
      i = (i + 1) & (kPoolSize - 1);
      benchmark::DoNotOptimize(s);
      benchmark::DoNotOptimize(c.eom->result.mass_matrix.data());
      benchmark::ClobberMemory();
    }
  }
  state.counters["order"] = order;
}

void BM_HandWritten(benchmark::State& state) { run_case(state, hand_written()); }
void BM_Generated(benchmark::State& state) { run_case(state, generated()); }

// Registered alternately (hand-written, generated, next case, …) so that the
// two of a pair run next to each other and drift of the machine hits both alike.
int register_pairs() {
  const int cases[][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {2, 0}};
  for (const auto& c : cases) {
    for (auto* b : {benchmark::RegisterBenchmark("hodyn_bench::BM_HandWritten", BM_HandWritten),
                    benchmark::RegisterBenchmark("hodyn_bench::BM_Generated", BM_Generated)}) {
      b->ArgNames({"what", "r"})->Args({c[0], c[1]});
      configure(b);
    }
  }
  return 0;
}
const int registered = register_pairs();

}  // namespace
}  // namespace hodyn_bench
