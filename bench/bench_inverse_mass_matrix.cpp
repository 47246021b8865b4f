// bench_inverse_mass_matrix.cpp — M̄⁻¹ of the 12-DoF aerial manipulator
// (issue 17 target: M̄⁻¹ alone ≤ 0.5 µs):
//
//   BM_InverseMassMatrix          inverse_mass_matrix (the floating-base IMMA,
//                                 hodyn/inverse_mass_matrix.hpp)
//   BM_MassMatrixCholeskyInverse  mass_matrix (composite rigid bodies) and
//                                 Eigen's fixed-size LLT solved for the identity
//   BM_MassMatrixOnly             mass_matrix alone: a yardstick for the
//                                 machine's state (bench/RESULTS.md has its
//                                 idle-machine BM_MassMatrix)
//
// Inputs cycle through a pool of 64 random states (uniform random base
// orientation, base position and joint angles ~ N(0, 1)). Run pinned, e.g.
//   taskset -c 1 bench_inverse_mass_matrix --benchmark_enable_random_interleaving=true
//     --benchmark_repetitions=10 --benchmark_min_time=0.05
#include <benchmark/benchmark.h>

#include <hodyn/equations_of_motion.hpp>
#include <hodyn/inverse_mass_matrix.hpp>
#include <hodyn/models/aerial_manipulator.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include <cstddef>
#include <memory>
#include <random>
#include <vector>

namespace {

using Tree = hodyn::AerialManipulatorTree;
using Model = hodyn::AerialManipulatorModel<double>;
constexpr std::size_t kPoolSize = 64;  // power of two: the index wraps with a mask

struct Pool {
  std::unique_ptr<Model> model = std::make_unique<Model>();
  std::vector<hodyn::Pose<double>> pose;
  std::vector<Model::JointVector> q;
  hodyn::Status status = hodyn::Status::kOk;

  Pool() {
    status = hodyn::make_aerial_manipulator(*model);
    std::mt19937 gen(20261126u);
    std::normal_distribution<double> g(0.0, 1.0);
    for (std::size_t i = 0; i < kPoolSize; ++i) {
      Eigen::Quaterniond r(g(gen), g(gen), g(gen), g(gen));
      r.normalize();
      hodyn::Pose<double> p;
      p.rotation = r.toRotationMatrix();
      p.translation << g(gen), g(gen), g(gen);
      Model::JointVector x;
      for (int j = 0; j < x.size(); ++j) x(j) = g(gen);
      pose.push_back(p);
      q.push_back(x);
    }
  }
};

Pool& pool() {
  static Pool p;
  return p;
}

void BM_InverseMassMatrix(benchmark::State& st) {
  auto& p = pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  auto data = std::make_unique<hodyn::InverseMassMatrixData<Tree>>();
  for (std::size_t i = 0; i < kPoolSize; ++i)
    if (hodyn::inverse_mass_matrix(*p.model, *data, p.pose[i], p.q[i]) != hodyn::Status::kOk)
      return st.SkipWithError("inverse_mass_matrix failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::inverse_mass_matrix(*p.model, *data, p.pose[i], p.q[i]);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(data->result.data());
    benchmark::ClobberMemory();
  }
}

void BM_MassMatrixCholeskyInverse(benchmark::State& st) {
  auto& p = pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree>>();
  using Matrix = hodyn::EquationsOfMotion<Tree>::Matrix;
  auto inverse = std::make_unique<Matrix>();
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::mass_matrix(*p.model, *eom, p.pose[i], p.q[i]);
    const Eigen::LLT<Matrix> llt(eom->result.mass_matrix);
    *inverse = llt.solve(Matrix::Identity());
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(inverse->data());
    benchmark::ClobberMemory();
  }
}

void BM_MassMatrixOnly(benchmark::State& st) {
  auto& p = pool();
  if (p.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(p.status));
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree>>();
  std::size_t i = 0;
  for (auto _ : st) {
    hodyn::Status s = hodyn::mass_matrix(*p.model, *eom, p.pose[i], p.q[i]);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(eom->result.mass_matrix.data());
    benchmark::ClobberMemory();
  }
}

}  // namespace

BENCHMARK(BM_InverseMassMatrix)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_MassMatrixCholeskyInverse)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_MassMatrixOnly)->Unit(benchmark::kNanosecond);
