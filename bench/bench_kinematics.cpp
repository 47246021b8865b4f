// bench_kinematics.cpp — per-call cost of the kinematics of the 12-DoF aerial
// manipulator (docs/kinematics.md; issue 16 targets in brackets).
//
//   BM_ForwardKinematics/<r>     forward_kinematics, orders 0..r together: the
//                                poses and V_j^(0..r+1) of all 7 bodies, r = 0..5
//                                (MaxOrder 5 workspace)            [r = 2: ≤ 150 ns]
//   BM_JacobiansAndComJacobian   on a forward kinematics of order 0 (not timed):
//                                spatial_jacobian J_j and J̇_j of all 7 bodies
//                                and center_of_mass (c, ċ, J_com, J̇_com)   [≤ 300 ns]
//   BM_CentroidalMomentum        centroidal_momentum: A_G, Ȧ_G, h_G (kinematics
//                                of order 0 not timed)
//   BM_KinematicsStep            forward kinematics r = 0 + the Jacobians and
//                                J_com above: what a task-space controller calls
//   BM_ClosedFormDerivatives/<n> closed_form_derivatives: M̄^(0..n), C^(0..n),
//                                h^(0..n), g^(0..n), n = 0..3 (dense)
//   BM_MassMatrixDerivatives/<n> forward_kinematics of order max(n − 1, 0) and
//                                mass_matrix_derivatives: M̄^(0..n) by the
//                                composite-rigid-body recursion, n = 0..3
//                                                        [n = 2: ≤ 2× BM_MassMatrixAlone]
//   BM_MassMatrixAlone           mass_matrix (composite rigid bodies, joint frames), for the ratio
//
// Inputs cycle through the pool of 64 random states of the inverse-dynamics
// suite (bench_inverse_dynamics.hpp). Run through scripts/bench.sh.
#include <hodyn/center_of_mass.hpp>
#include <hodyn/centroidal_momentum.hpp>
#include <hodyn/closed_form_derivatives.hpp>
#include <hodyn/equations_of_motion.hpp>
#include <hodyn/jacobians.hpp>
#include <hodyn/kinematics.hpp>
#include <hodyn/mass_matrix_derivatives.hpp>

#include "bench_inverse_dynamics.hpp"

namespace hodyn_bench {
namespace {

using Tree = hodyn::AerialManipulatorTree;
constexpr int kBodies = Tree::kNumBodies;

struct KinematicsWorkspace {
  std::unique_ptr<hodyn::KinematicsData<Tree, kMaxOrder>> kinematics =
      std::make_unique<hodyn::KinematicsData<Tree, kMaxOrder>>();
  std::vector<hodyn::KinematicsData<Tree, kMaxOrder>> order0;  ///< one per pool state
  std::unique_ptr<hodyn::CenterOfMassData<Tree, kMaxOrder>> com =
      std::make_unique<hodyn::CenterOfMassData<Tree, kMaxOrder>>();
  std::unique_ptr<hodyn::CentroidalMomentumData<Tree>> centroidal =
      std::make_unique<hodyn::CentroidalMomentumData<Tree>>();
  std::array<hodyn::JacobianMatrix<Tree>, kBodies> jacobian{}, jacobian_rate{};
  hodyn::Status status = hodyn::Status::kOk;

  KinematicsWorkspace() {
    auto& f = aerial_manipulator_fixture();
    status = f.build_status;
    order0.resize(f.pool.size());
    for (std::size_t i = 0; i < f.pool.size() && status == hodyn::Status::kOk; ++i)
      status = hodyn::forward_kinematics(*f.model, order0[i], f.pool[i], 0);
  }
};

KinematicsWorkspace& workspace() {
  static KinematicsWorkspace w;
  return w;
}

/// J_j, J̇_j of every body, then c, ċ, J_com, J̇_com.
hodyn::Status jacobians_and_com(const hodyn::AerialManipulatorModel<double>& model,
                                const hodyn::KinematicsData<Tree, kMaxOrder>& kin,
                                KinematicsWorkspace& w) {
  hodyn::Status s = hodyn::Status::kOk;
  for (int j = 0; j < kBodies; ++j) {
    const auto b = static_cast<std::size_t>(j);
    s = hodyn::spatial_jacobian(kin, j, w.jacobian[b]);
    if (s != hodyn::Status::kOk) return s;
    s = hodyn::spatial_jacobian(kin, j, w.jacobian_rate[b], 1);
    if (s != hodyn::Status::kOk) return s;
  }
  return hodyn::center_of_mass(model, kin, *w.com, 0);
}

void BM_ForwardKinematics(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  auto& w = workspace();
  const int order = static_cast<int>(st.range(0));
  if (w.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(w.status));
  for (const auto& m : f.pool)
    if (hodyn::forward_kinematics(*f.model, *w.kinematics, m, order) != hodyn::Status::kOk)
      return st.SkipWithError("forward_kinematics failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    const hodyn::Status s = hodyn::forward_kinematics(*f.model, *w.kinematics, f.pool[i], order);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
    i = (i + 1) % f.pool.size();
  }
}

void BM_JacobiansAndComJacobian(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  auto& w = workspace();
  if (w.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(w.status));
  for (const auto& kin : w.order0)
    if (jacobians_and_com(*f.model, kin, w) != hodyn::Status::kOk)
      return st.SkipWithError("Jacobians failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    const hodyn::Status s = jacobians_and_com(*f.model, w.order0[i], w);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
    i = (i + 1) % w.order0.size();
  }
}

void BM_CentroidalMomentum(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  auto& w = workspace();
  if (w.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(w.status));
  for (const auto& kin : w.order0)
    if (hodyn::centroidal_momentum(*f.model, kin, *w.centroidal) != hodyn::Status::kOk)
      return st.SkipWithError("centroidal_momentum failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    const hodyn::Status s = hodyn::centroidal_momentum(*f.model, w.order0[i], *w.centroidal);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
    i = (i + 1) % w.order0.size();
  }
}

void BM_KinematicsStep(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  auto& w = workspace();
  if (w.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(w.status));
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::forward_kinematics(*f.model, *w.kinematics, f.pool[i], 0);
    if (s == hodyn::Status::kOk) s = jacobians_and_com(*f.model, *w.kinematics, w);
    if (s != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(s));
    benchmark::ClobberMemory();
    i = (i + 1) % f.pool.size();
  }
}

void BM_ClosedFormDerivatives(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  const int order = static_cast<int>(st.range(0));
  static auto data = std::make_unique<hodyn::ClosedFormDerivativesData<Tree, kMaxOrder>>();
  for (const auto& m : f.pool)
    if (hodyn::closed_form_derivatives(*f.model, *data, m, order) != hodyn::Status::kOk)
      return st.SkipWithError("closed_form_derivatives failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    const hodyn::Status s = hodyn::closed_form_derivatives(*f.model, *data, f.pool[i], order);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
    i = (i + 1) % f.pool.size();
  }
}

void BM_MassMatrixDerivatives(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  auto& w = workspace();
  const int order = static_cast<int>(st.range(0));
  const int kinematic_order = order > 0 ? order - 1 : 0;
  static auto data = std::make_unique<hodyn::MassMatrixDerivativesData<Tree, kMaxOrder>>();
  const auto call = [&](const hodyn::MotionDerivatives<Tree, kMaxOrder>& m) {
    hodyn::Status s = hodyn::forward_kinematics(*f.model, *w.kinematics, m, kinematic_order);
    if (s == hodyn::Status::kOk)
      s = hodyn::mass_matrix_derivatives(*f.model, *w.kinematics, *data, order);
    return s;
  };
  for (const auto& m : f.pool)
    if (call(m) != hodyn::Status::kOk)
      return st.SkipWithError("mass_matrix_derivatives failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    const hodyn::Status s = call(f.pool[i]);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
    i = (i + 1) % f.pool.size();
  }
}

void BM_MassMatrixAlone(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  static auto data = std::make_unique<hodyn::EquationsOfMotionData<Tree>>();
  for (const auto& m : f.pool)
    if (hodyn::mass_matrix(*f.model, *data, m.base_pose, m.q[0]) != hodyn::Status::kOk)
      return st.SkipWithError("mass_matrix failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    const hodyn::Status s =
        hodyn::mass_matrix(*f.model, *data, f.pool[i].base_pose, f.pool[i].q[0]);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
    i = (i + 1) % f.pool.size();
  }
}

}  // namespace
}  // namespace hodyn_bench

BENCHMARK(hodyn_bench::BM_ForwardKinematics)->DenseRange(0, 5)->Unit(benchmark::kNanosecond);
BENCHMARK(hodyn_bench::BM_JacobiansAndComJacobian)->Unit(benchmark::kNanosecond);
BENCHMARK(hodyn_bench::BM_CentroidalMomentum)->Unit(benchmark::kNanosecond);
BENCHMARK(hodyn_bench::BM_KinematicsStep)->Unit(benchmark::kNanosecond);
BENCHMARK(hodyn_bench::BM_ClosedFormDerivatives)->DenseRange(0, 3)->Unit(benchmark::kNanosecond);
BENCHMARK(hodyn_bench::BM_MassMatrixDerivatives)->DenseRange(0, 3)->Unit(benchmark::kNanosecond);
BENCHMARK(hodyn_bench::BM_MassMatrixAlone)->Unit(benchmark::kNanosecond);
