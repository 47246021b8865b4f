// bench_inverse_dynamics.hpp — shared fixture of the inverse-dynamics benchmarks
// (bench_inverse_dynamics*.cpp, and the inputs of bench_dynamics*.cpp,
// bench_baselines*.cpp, bench_mujoco.cpp).
//
// One model, workspace and pool of 64 random motions (fixed seed: random base
// rotation and position, base twist and joint derivatives N(0,1)) per tree and
// workspace MaxOrder, built once per process on the heap (megabytes for
// N ≈ 1000); the core itself never allocates. run() checks the Status on the
// whole pool outside the timed loop, then times one inverse_dynamics call per
// iteration, cycling through the pool so that branch predictors and caches see
// varying data.
//
// Workspace MaxOrder. A user who needs r ≤ 5 compiles MaxOrder = 5, so the
// r = 0..5 benchmarks keep kMaxOrder = 5 (their names are unchanged since the
// first runs, so results stay comparable). Orders 6..10 need kHighMaxOrder = 10;
// the *MaxOrder10 families run r = 0..10 on that workspace, so every run also
// measures what the bigger workspace costs at r ≤ 5 (bench/report.py prints
// the ratio) instead of assuming it is free.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include <Eigen/Geometry>

#include <hodyn/hodyn.hpp>

namespace hodyn_bench {

inline constexpr int kMaxOrder = 5;           // workspace of the r ≤ 5 benchmarks
inline constexpr int kHighMaxOrder = 10;      // workspace of the r ≤ 10 (*MaxOrder10) benchmarks
inline constexpr int kBranches = 5;           // seed 000 Table 4: 5 chains, N = 1 + 5n
inline constexpr std::size_t kPoolSize = 64;  // power of two: the index wraps with a mask
inline constexpr std::uint64_t kSeed = 0x68'6f'64'79'6eULL;  // "hodyn"

/// Model, workspace and input pool of one tree, built once per process.
template <class Tree, int MaxOrder = kMaxOrder>
struct Fixture {
  using ModelT = hodyn::Model<Tree, double>;
  using DataT = hodyn::InverseDynamicsData<Tree, MaxOrder, double>;
  using MotionT = hodyn::MotionDerivatives<Tree, MaxOrder, double>;

  std::unique_ptr<ModelT> model = std::make_unique<ModelT>();
  std::unique_ptr<DataT> data = std::make_unique<DataT>();
  std::vector<MotionT> pool;
  hodyn::Status build_status = hodyn::Status::kOk;

  template <class MakeModel>
  explicit Fixture(MakeModel&& make) {
    build_status = make(*model);
    std::mt19937_64 rng(kSeed);
    std::normal_distribution<double> normal(0.0, 1.0);
    pool.resize(kPoolSize);
    for (MotionT& m : pool) {
      // Uniform random rotation: normalized 4-D Gaussian quaternion.
      Eigen::Quaterniond quat(normal(rng), normal(rng), normal(rng), normal(rng));
      quat.normalize();
      m.base_pose.rotation = quat.toRotationMatrix();
      for (int i = 0; i < 3; ++i) m.base_pose.translation(i) = normal(rng);
      for (auto& v : m.base_twist)
        for (Eigen::Index i = 0; i < v.size(); ++i) v(i) = normal(rng);
      for (auto& q : m.q)
        for (Eigen::Index i = 0; i < q.size(); ++i) q(i) = normal(rng);
      for (auto& r : m.joint_rotation) {  // ball joints only (none: no draw)
        Eigen::Quaterniond b(normal(rng), normal(rng), normal(rng), normal(rng));
        r = b.normalized().toRotationMatrix();
      }
    }
  }
};

/// The 12-DoF aerial manipulator, one fixture per MaxOrder for the whole
/// process (every translation unit shares it: an inline function's static),
/// built on first use and shared by every r and repetition.
template <int MaxOrder = kMaxOrder>
Fixture<hodyn::AerialManipulatorTree, MaxOrder>& aerial_manipulator_fixture() {
  static Fixture<hodyn::AerialManipulatorTree, MaxOrder> f(
      [](hodyn::AerialManipulatorModel<double>& m) { return hodyn::make_aerial_manipulator(m); });
  return f;
}

/// The 12-DoF robot with a ball joint for each arm (issue 19's "spherical
/// wrist" variant: the same DoF count, 3 bodies instead of 7): the base of
/// the aerial manipulator, each arm one body (the inertia and home pose of its
/// last link) on a ball at the arm's first joint axis point. A timing
/// variant: its dynamics are another robot's.
struct SphericalWristTree {
  static constexpr int kNumBodies = 3;
  static constexpr std::array<int, 3> kParent{-1, 0, 0};
  static constexpr std::array<hodyn::JointKind, 3> kJoint{
      hodyn::JointKind::kFloatingBase, hodyn::JointKind::kSpherical, hodyn::JointKind::kSpherical};
};

template <int MaxOrder = kMaxOrder>
Fixture<SphericalWristTree, MaxOrder>& spherical_wrist_fixture() {
  static Fixture<SphericalWristTree, MaxOrder> f([](hodyn::Model<SphericalWristTree, double>& m) {
    hodyn::AerialManipulatorModel<double> am;
    hodyn::Status s = hodyn::make_aerial_manipulator(am);
    if (s == hodyn::Status::kOk) s = m.set_body(0, am.home_pose(0), am.body_inertia(0));
    for (int arm = 0; arm < 2 && s == hodyn::Status::kOk; ++arm) {
      const int last = 3 + 3 * arm, first = 1 + 3 * arm;
      s = m.set_body(1 + arm, am.home_pose(last), am.body_inertia(last));
      if (s == hodyn::Status::kOk) s = m.set_spherical_joint(1 + arm, am.joint_axis_point(first));
    }
    if (s == hodyn::Status::kOk) s = m.set_gravity(am.gravity());
    return s;
  });
  return f;
}

/// The 12-DoF robot with a universal joint at each shoulder (issue 19: the
/// same DoF count, 5 bodies instead of 7): each arm's first two revolute
/// joints (y, then x) become one universal joint at the first joint's axis
/// point, carrying the second link; the third link stays on its revolute z
/// joint. A timing variant, like the spherical wrist: its dynamics are
/// another robot's (the two axes of the original need not meet).
struct UniversalShoulderTree {
  static constexpr int kNumBodies = 5;
  static constexpr std::array<int, 5> kParent{-1, 0, 1, 0, 3};
  static constexpr std::array<hodyn::JointKind, 5> kJoint{
      hodyn::JointKind::kFloatingBase, hodyn::JointKind::kUniversal, hodyn::JointKind::kRevoluteZ,
      hodyn::JointKind::kUniversal, hodyn::JointKind::kRevoluteZ};
};

template <int MaxOrder = kMaxOrder>
Fixture<UniversalShoulderTree, MaxOrder>& universal_shoulder_fixture() {
  static Fixture<UniversalShoulderTree, MaxOrder> f(
      [](hodyn::Model<UniversalShoulderTree, double>& m) {
        hodyn::AerialManipulatorModel<double> am;
        hodyn::Status s = hodyn::make_aerial_manipulator(am);
        if (s == hodyn::Status::kOk) s = m.set_body(0, am.home_pose(0), am.body_inertia(0));
        for (int arm = 0; arm < 2 && s == hodyn::Status::kOk; ++arm) {
          const int first = 1 + 3 * arm, shoulder = 1 + 2 * arm;
          s = m.set_body(shoulder, am.home_pose(first + 1), am.body_inertia(first + 1));
          if (s == hodyn::Status::kOk)
            s = m.set_universal_joint(shoulder, am.joint_axis_point(first), am.joint_axis(first),
                                      am.joint_axis(first + 1));
          if (s == hodyn::Status::kOk)
            s = m.set_body(shoulder + 1, am.home_pose(first + 2), am.body_inertia(first + 2));
          if (s == hodyn::Status::kOk)
            s = m.set_revolute_axis(shoulder + 1, am.joint_axis(first + 2),
                                    am.joint_axis_point(first + 2));
        }
        if (s == hodyn::Status::kOk) s = m.set_gravity(am.gravity());
        return s;
      });
  return f;
}

/// Seed 000 Table 4 family: kBranches chains of n links, N = 1 + 5n bodies.
template <int BodiesPerBranch>
using BranchedTree = hodyn::BranchedChainsTree<kBranches, BodiesPerBranch>;

template <int BodiesPerBranch, int MaxOrder = kMaxOrder>
Fixture<BranchedTree<BodiesPerBranch>, MaxOrder>& branched_fixture() {
  using Tree = BranchedTree<BodiesPerBranch>;
  static Fixture<Tree, MaxOrder> f(
      [](hodyn::Model<Tree, double>& m) { return hodyn::make_branched_chains(m); });
  return f;
}

template <class Tree, int MaxOrder>
void run(benchmark::State& state, Fixture<Tree, MaxOrder>& f) {
  const int order = static_cast<int>(state.range(0));
  if (f.build_status != hodyn::Status::kOk) {
    state.SkipWithError(hodyn::to_string(f.build_status));
    return;
  }
  // Status checked outside the timed loop, on every state of the pool.
  for (const auto& m : f.pool) {
    const hodyn::Status s = hodyn::inverse_dynamics(*f.model, *f.data, m, order);
    if (s != hodyn::Status::kOk) {
      state.SkipWithError(hodyn::to_string(s));
      return;
    }
  }

  const auto& model = *f.model;
  auto& data = *f.data;
  const auto* pool = f.pool.data();
  std::size_t i = 0;
  for (auto _ : state) {
    hodyn::Status s = hodyn::inverse_dynamics(model, data, pool[i], order);
    i = (i + 1) & (kPoolSize - 1);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(data.base_wrench.data());
    benchmark::DoNotOptimize(data.base_wrench_body.data());
    benchmark::DoNotOptimize(data.joint_torque.data());
    benchmark::ClobberMemory();
  }
  state.counters["bodies"] = Tree::kNumBodies;
  state.counters["order"] = order;
  state.counters["max_order"] = MaxOrder;
}

// Warm-up: Benchmark 1.7 has MinWarmUpTime(), but setting it per benchmark
// appends "/min_warmup_time:0.200" to every name; scripts/bench.sh passes
// --benchmark_min_warmup_time=0.2 instead, which warms up the same way and
// keeps the names BM_InverseDynamics/<r>.
inline void configure(benchmark::internal::Benchmark* b) { b->Unit(benchmark::kNanosecond); }

/// BM_InverseDynamicsBranched<n>/<r>: 5 chains of n links, N = 1 + 5n bodies,
/// MaxOrder 5 workspace.
template <int BodiesPerBranch>
void BM_InverseDynamicsBranched(benchmark::State& state) {
  run(state, branched_fixture<BodiesPerBranch>());
}

/// BM_InverseDynamicsBranchedMaxOrder10<n>/<r>: the same on a MaxOrder 10 workspace.
template <int BodiesPerBranch>
void BM_InverseDynamicsBranchedMaxOrder10(benchmark::State& state) {
  run(state, branched_fixture<BodiesPerBranch, kHighMaxOrder>());
}

}  // namespace hodyn_bench
