// bench_mujoco.cpp — hodyn against MuJoCo (2.2.2, libmujoco-dev) on the same
// aerial manipulator (bench/aerial_manipulator.xml), in one binary:
//
//   BM_InverseDynamicsAnalytic/0   hodyn::inverse_dynamics, order 0
//   BM_MujocoInverse               mj_inverse (qpos, qvel, qacc → qfrc_inverse):
//                                  kinematics, CRB mass matrix and its
//                                  factorization (MuJoCo's mj_invPosition does
//                                  them), RNE; no constraints in this model
//   BM_ForwardDynamicsAnalytic/0   hodyn::forward_dynamics, order 0
//   BM_MujocoForward               mj_forward with contact, constraint,
//                                  passive and sensor stages disabled in the
//                                  MJCF: fwdPosition (kinematics, CRB, LDLᵀ),
//                                  fwdVelocity (RNE bias), fwdActuation,
//                                  fwdAcceleration (qacc = M⁻¹ qfrc_smooth)
//   BM_MujocoForwardStages         the same four stages called one by one
//                                  (mj_fwdPosition + mj_fwdVelocity +
//                                  mj_fwdActuation + mj_fwdAcceleration)
//
// Inputs: the 64-state pool of bench_inverse_dynamics.hpp, converted to
// MuJoCo's free-joint conventions (mujoco_aerial_manipulator.hpp); the forward
// problems apply the forces hodyn's inverse dynamics gives for each state.
// MuJoCo keeps its state in mjData, so each MuJoCo iteration also copies the
// state (13 + 12 + 12 doubles) into it; hodyn reads its input in place.
// Setup checks the MJCF against hodyn's model (total mass, hover force,
// inverse and forward dynamics at random states) and skips on a disagreement
// above 1e-6.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "bench_inverse_dynamics.hpp"
#include "mujoco_aerial_manipulator.hpp"

#ifndef HODYN_MUJOCO_MODEL
#error "HODYN_MUJOCO_MODEL (path of aerial_manipulator.xml) must be defined"
#endif

namespace hodyn_bench {
namespace {

using Tree = hodyn::AerialManipulatorTree;
constexpr double kAgreementTolerance = 1e-6;

Fixture<Tree>& aerial_fixture() { return aerial_manipulator_fixture(); }

struct MujocoPool {
  MujocoModelPtr model;
  MujocoDataPtr data;
  std::vector<MujocoState> states;
  std::vector<std::array<double, kMujocoNv>> forces;  // hodyn's order-0 ID, MuJoCo coordinates
  std::vector<hodyn::ForwardDynamicsInput<Tree, 0>> forward_inputs;
  std::unique_ptr<hodyn::ForwardDynamicsData<Tree, 0>> forward_data =
      std::make_unique<hodyn::ForwardDynamicsData<Tree, 0>>();
  std::string error;
  double agreement = 0.0;

  MujocoPool() {
    model = load_mujoco_model(HODYN_MUJOCO_MODEL, error);
    if (!error.empty()) return;
    data.reset(mj_makeData(model.get()));
    const std::string check = check_mujoco_model(model.get(), kAgreementTolerance, agreement);
    if (!check.empty()) {
      error = "MJCF disagrees with hodyn: " + check;
      return;
    }
    auto& f = aerial_fixture();
    auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, 0>>();
    for (const auto& m : f.pool) {
      hodyn::MotionDerivatives<Tree, 0> m0;
      m0.base_pose = m.base_pose;
      m0.base_twist = {m.base_twist[0], m.base_twist[1]};
      m0.q = {m.q[0], m.q[1], m.q[2]};
      if (hodyn::inverse_dynamics(*f.model, *id, m0, 0) != hodyn::Status::kOk) {
        error = "hodyn inverse dynamics failed on the pool";
        return;
      }
      states.push_back(to_mujoco(m0));
      forces.push_back(to_mujoco_force(m0.base_pose.rotation, *id));
      hodyn::ForwardDynamicsInput<Tree, 0> in;
      in.base_pose = m0.base_pose;
      in.base_twist = m0.base_twist[0];
      in.q = m0.q[0];
      in.q_dot = m0.q[1];
      in.base_wrench[0] = id->base_wrench[0];
      in.joint_torque[0] = id->joint_torque[0];
      forward_inputs.push_back(in);
    }
  }
};

MujocoPool& mujoco_pool() {
  static MujocoPool p;
  return p;
}

bool skip_on_error(benchmark::State& state, const MujocoPool& p) {
  if (p.error.empty()) return false;
  state.SkipWithError(p.error.c_str());
  return true;
}

void BM_InverseDynamicsAnalytic(benchmark::State& state) { run(state, aerial_fixture()); }

void BM_ForwardDynamicsAnalytic(benchmark::State& state) {
  auto& p = mujoco_pool();
  if (skip_on_error(state, p)) return;
  const auto& model = *aerial_fixture().model;
  for (const auto& in : p.forward_inputs)
    if (hodyn::forward_dynamics(model, *p.forward_data, in, 0) != hodyn::Status::kOk)
      return state.SkipWithError("forward_dynamics failed on the pool");
  std::size_t i = 0;
  for (auto _ : state) {
    hodyn::Status s = hodyn::forward_dynamics(model, *p.forward_data, p.forward_inputs[i], 0);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(p.forward_data->motion.q.data());
    benchmark::ClobberMemory();
  }
  state.counters["order"] = 0;
}

void BM_MujocoInverse(benchmark::State& state) {
  auto& p = mujoco_pool();
  if (skip_on_error(state, p)) return;
  const mjModel* m = p.model.get();
  mjData* d = p.data.get();
  std::size_t i = 0;
  for (auto _ : state) {
    load_state(m, d, p.states[i]);
    mj_inverse(m, d);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(d->qfrc_inverse);
    benchmark::ClobberMemory();
  }
  state.counters["mjcf_max_deviation"] = p.agreement;
}

template <bool kStages>
void BM_MujocoForwardImpl(benchmark::State& state) {
  auto& p = mujoco_pool();
  if (skip_on_error(state, p)) return;
  const mjModel* m = p.model.get();
  mjData* d = p.data.get();
  std::size_t i = 0;
  for (auto _ : state) {
    const MujocoState& s = p.states[i];
    std::copy(s.qpos.begin(), s.qpos.end(), d->qpos);
    std::copy(s.qvel.begin(), s.qvel.end(), d->qvel);
    std::copy(p.forces[i].begin(), p.forces[i].end(), d->qfrc_applied);
    if constexpr (kStages) {
      mj_fwdPosition(m, d);
      mj_fwdVelocity(m, d);
      mj_fwdActuation(m, d);
      mj_fwdAcceleration(m, d);
    } else {
      mj_forward(m, d);
    }
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(d->qacc);
    benchmark::DoNotOptimize(d->qacc_smooth);
    benchmark::ClobberMemory();
  }
}

void BM_MujocoForward(benchmark::State& state) { BM_MujocoForwardImpl<false>(state); }
void BM_MujocoForwardStages(benchmark::State& state) { BM_MujocoForwardImpl<true>(state); }

}  // namespace
}  // namespace hodyn_bench

using hodyn_bench::BM_ForwardDynamicsAnalytic;
using hodyn_bench::BM_InverseDynamicsAnalytic;
using hodyn_bench::BM_MujocoForward;
using hodyn_bench::BM_MujocoForwardStages;
using hodyn_bench::BM_MujocoInverse;
using hodyn_bench::configure;

BENCHMARK(BM_InverseDynamicsAnalytic)->Arg(0)->Apply(configure);
BENCHMARK(BM_MujocoInverse)->Apply(configure);
BENCHMARK(BM_ForwardDynamicsAnalytic)->Arg(0)->Apply(configure);
BENCHMARK(BM_MujocoForward)->Apply(configure);
BENCHMARK(BM_MujocoForwardStages)->Apply(configure);
