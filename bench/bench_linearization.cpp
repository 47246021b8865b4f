// bench_linearization.cpp — the state partials and the geometric linearization
// of the 12-DoF aerial manipulator (docs/linearization.md; issue 17 targets in
// brackets, for a Zen 4 / AVX2-only build):
//
//   BM_InverseDynamicsOrder0            inverse_dynamics r = 0, for scale
//   BM_InverseDynamicsDerivatives       inverse_dynamics_derivatives: ∂τ̄/∂(ξ, q),
//                                       ∂τ̄/∂(V₁, q̇) and M̄, all partials of ID
//                                                        [≤ 1.5 µs / ≤ 2.5 µs]
//   BM_InverseDynamicsDualNumbers       the same partials by forward-mode
//                                       DualNumber<double, 36> through the order-0
//                                       inverse dynamics (seeding included)
//                                                        [analytic ≥ 10× faster]
//   BM_Linearization                    linearize: one kinematic pass (M̄, bias,
//                                       Gauss-Jordan M̄⁻¹, accelerations, partials),
//                                       A (24x24) and B (24x12) [≤ 2.5 µs / ≤ 3.6 µs]
//   BM_LinearizationZeroOrderHold       linearize + discretize at 1 ms (36x36 exp)
//
// States cycle through the pool of 64 random states of the inverse-dynamics
// suite (bench_inverse_dynamics.hpp); the linearizations take that state with
// the inverse dynamics of its accelerations as input. Run through scripts/bench.sh.
#include <hodyn/dual_number.hpp>
#include <hodyn/inverse_dynamics_derivatives.hpp>
#include <hodyn/linearization.hpp>

#include "bench_inverse_dynamics.hpp"

#include <algorithm>
#include <cmath>

namespace hodyn_bench {
namespace {

using Tree = hodyn::AerialManipulatorTree;
constexpr int kDofs = hodyn::TreeTraits<Tree>::kNumDofs;  // 12
constexpr int kDirections = 3 * kDofs;                    // (ξ, q), (V₁, q̇), (V̇₁, q̈)
using Dual = hodyn::DualNumber<double, kDirections>;

struct Workspace {
  std::unique_ptr<hodyn::InverseDynamicsData<Tree, 0>> id =
      std::make_unique<hodyn::InverseDynamicsData<Tree, 0>>();
  std::unique_ptr<hodyn::InverseDynamicsDerivativesData<Tree>> derivatives =
      std::make_unique<hodyn::InverseDynamicsDerivativesData<Tree>>();
  std::unique_ptr<hodyn::InverseDynamicsData<Tree, 0, Dual>> id_dual =
      std::make_unique<hodyn::InverseDynamicsData<Tree, 0, Dual>>();
  std::unique_ptr<hodyn::Model<Tree, Dual>> model_dual;
  std::unique_ptr<hodyn::LinearizationData<Tree>> linearization =
      std::make_unique<hodyn::LinearizationData<Tree>>();
  std::unique_ptr<hodyn::DiscretizationData<Tree>> zoh =
      std::make_unique<hodyn::DiscretizationData<Tree>>();
  std::vector<hodyn::MotionDerivatives<Tree, 0>> motions;
  std::vector<hodyn::ForwardDynamicsInput<Tree, 0>> inputs;
  hodyn::Status status = hodyn::Status::kOk;

  Workspace() {
    auto& f = aerial_manipulator_fixture();
    status = f.build_status;
    model_dual = std::make_unique<hodyn::Model<Tree, Dual>>(f.model->template cast<Dual>());
    for (const auto& m : f.pool) {
      hodyn::MotionDerivatives<Tree, 0> motion;
      motion.base_pose = m.base_pose;
      for (int k = 0; k < 2; ++k) motion.base_twist[k] = m.base_twist[k];
      for (int k = 0; k < 3; ++k) motion.q[k] = m.q[k];
      motions.push_back(motion);
      if (status == hodyn::Status::kOk) status = hodyn::inverse_dynamics(*f.model, *id, motion, 0);
      hodyn::ForwardDynamicsInput<Tree, 0> in;
      in.base_pose = m.base_pose;
      in.base_twist = m.base_twist[0];
      in.q = m.q[0];
      in.q_dot = m.q[1];
      in.base_wrench[0] = id->base_wrench[0];
      in.joint_torque[0] = id->joint_torque[0];
      inputs.push_back(in);
    }
  }
};

Workspace& workspace() {
  static Workspace w;
  return w;
}

/// The 36 partials by duals: directions 0..11 (ξ, q), 12..23 (V₁, q̇), 24..35 (V̇₁, q̈).
hodyn::Status dual_partials(const hodyn::Model<Tree, Dual>& model,
                            hodyn::InverseDynamicsData<Tree, 0, Dual>& data,
                            const hodyn::MotionDerivatives<Tree, 0>& m) {
  hodyn::MotionDerivatives<Tree, 0, Dual> d;
  d.base_pose = m.base_pose.template cast<Dual>();
  // C₁ (1 + [ξ]): R (1 + [ω]) and p + R v, ξ = directions 0..5.
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      // (R [ω])_rc = Σ_k R_rk ε_kmc ω_m: ∂/∂ω_m = R_rk ε_kmc.
      auto& g = d.base_pose.rotation(r, c).gradient();
      for (int mi = 0; mi < 3; ++mi) {
        double v = 0;
        for (int k = 0; k < 3; ++k) {
          const int e = (k == mi || mi == c || k == c) ? 0 : ((mi - k + 3) % 3 == 1 ? 1 : -1);
          v += m.base_pose.rotation(r, k) * e;
        }
        g[static_cast<std::size_t>(mi)] = v;
      }
    }
    for (int mi = 0; mi < 3; ++mi)
      d.base_pose.translation(r).gradient()[static_cast<std::size_t>(3 + mi)] =
          m.base_pose.rotation(r, mi);
  }
  for (int i = 0; i < 6; ++i) {
    d.base_twist[0](i) = Dual::variable(m.base_twist[0](i), kDofs + i);
    d.base_twist[1](i) = Dual::variable(m.base_twist[1](i), 2 * kDofs + i);
    d.q[0](i) = Dual::variable(m.q[0](i), 6 + i);
    d.q[1](i) = Dual::variable(m.q[1](i), kDofs + 6 + i);
    d.q[2](i) = Dual::variable(m.q[2](i), 2 * kDofs + 6 + i);
  }
  return hodyn::inverse_dynamics(model, data, d, 0);
}

template <class Call>
void loop(benchmark::State& st, const Workspace& w, Call&& call) {
  if (w.status != hodyn::Status::kOk) return st.SkipWithError(hodyn::to_string(w.status));
  for (std::size_t i = 0; i < w.motions.size(); ++i)
    if (call(i) != hodyn::Status::kOk) return st.SkipWithError("failed on the pool");
  std::size_t i = 0;
  for (auto _ : st) {
    const hodyn::Status s = call(i);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
    i = (i + 1) & (kPoolSize - 1);
  }
}

void BM_InverseDynamicsOrder0(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  auto& w = workspace();
  loop(st, w,
       [&](std::size_t i) { return hodyn::inverse_dynamics(*f.model, *w.id, w.motions[i], 0); });
}

void BM_InverseDynamicsDerivatives(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  auto& w = workspace();
  loop(st, w, [&](std::size_t i) {
    return hodyn::inverse_dynamics_derivatives(*f.model, *w.derivatives, w.motions[i]);
  });
}

/// Largest |analytic − dual| over the pool's first state (the benchmark's own check).
double dual_mismatch(Workspace& w) {
  auto& f = aerial_manipulator_fixture();
  const auto& m = w.motions[0];
  if (dual_partials(*w.model_dual, *w.id_dual, m) != hodyn::Status::kOk ||
      hodyn::inverse_dynamics_derivatives(*f.model, *w.derivatives, m) != hodyn::Status::kOk)
    return 1e300;
  const auto& r = w.derivatives->result;
  double worst = 0;
  for (int row = 0; row < kDofs; ++row) {
    const Dual& x = row < 6 ? w.id_dual->base_wrench[0](row) : w.id_dual->joint_torque[0](row - 6);
    for (int c = 0; c < kDofs; ++c) {
      worst = std::max(worst, std::abs(x.derivative(c) - r.d_configuration(row, c)));
      worst = std::max(worst, std::abs(x.derivative(kDofs + c) - r.d_velocity(row, c)));
      worst = std::max(worst, std::abs(x.derivative(2 * kDofs + c) - r.mass_matrix(row, c)));
    }
  }
  return worst;
}

void BM_InverseDynamicsDualNumbers(benchmark::State& st) {
  auto& w = workspace();
  if (dual_mismatch(w) > 1e-10) return st.SkipWithError("dual partials disagree with analytic");
  loop(st, w,
       [&](std::size_t i) { return dual_partials(*w.model_dual, *w.id_dual, w.motions[i]); });
}

void BM_Linearization(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  auto& w = workspace();
  loop(st, w,
       [&](std::size_t i) { return hodyn::linearize(*f.model, *w.linearization, w.inputs[i]); });
}

void BM_LinearizationZeroOrderHold(benchmark::State& st) {
  auto& f = aerial_manipulator_fixture();
  auto& w = workspace();
  loop(st, w, [&](std::size_t i) {
    const hodyn::Status s = hodyn::linearize(*f.model, *w.linearization, w.inputs[i]);
    if (s != hodyn::Status::kOk) return s;
    return hodyn::discretize(w.linearization->result, 1e-3, *w.zoh);
  });
}

BENCHMARK(BM_InverseDynamicsOrder0)->Apply(configure);
BENCHMARK(BM_InverseDynamicsDerivatives)->Apply(configure);
BENCHMARK(BM_InverseDynamicsDualNumbers)->Apply(configure);
BENCHMARK(BM_Linearization)->Apply(configure);
BENCHMARK(BM_LinearizationZeroOrderHold)->Apply(configure);

}  // namespace
}  // namespace hodyn_bench

BENCHMARK_MAIN();
