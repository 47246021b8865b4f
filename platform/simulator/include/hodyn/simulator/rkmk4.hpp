// hodyn/simulator/rkmk4.hpp — one step of the 4th-order Runge–Kutta–Munthe-Kaas
// method on SE(3) × Rⁿ (Munthe-Kaas, BIT 1999; Iserles, Munthe-Kaas, Nørsett
// and Zanna, Acta Numerica 2000, the RKMK4 variant with two commutators).
//
// The pose moves by the left action C = exp([u]) C₀ of the spatial twist,
// [Ċ C⁻¹] = V, so u̇ = dexp⁻¹_u(V) = V − ½[u, V] + (1/12)[u, [u, V]] − …
// Classical RK4 on u, with dexp⁻¹ truncated and the commutators collected to
// the lowest order that keeps order 4, gives, for the group part (K_i = h V_i,
// V_i the twist of stage i, [·,·] = ad):
//   u₁ = 0
//   u₂ = ½ K₁
//   u₃ = ½ K₂ − ⅛ [K₁, K₂]
//   u₄ = K₃
//   v  = ⅙ (K₁ + 2K₂ + 2K₃ + K₄) − (1/12) [K₁, K₄],     C₁ = exp(v) C₀,
// stage i evaluated at C = exp(u_i) C₀ and time t₀ + c_i h, c = (0, ½, ½, 1).
// The vector part x ∈ Rⁿ (an abelian group: exp = +, no commutators) takes the
// classical RK4 stages x₀ + ½k₁, x₀ + ½k₂, x₀ + k₃ and weights (1, 2, 2, 1)/6.
// The measured global order is 3.9–4.0 (tests/simulator/test_plant_integrator.cpp,
// docs/simulator.md).
#pragma once

#include "hodyn/pose.hpp"
#include "hodyn/simulator/se3_exponential.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"

namespace hodyn::sim {

/// Advances (C, x) from t by h. `field(t, C, x, x_dot)` returns a Status and
/// writes ẋ; `twist_of(x)` returns the spatial base twist V stored in x.
/// On a failed evaluation or a non-finite result the status is returned and
/// (C, x) are left unchanged (kNonFiniteResult for a non-finite result).
template <class Vector, class Field, class TwistOf>
Status rkmk4_step(Field&& field, TwistOf&& twist_of, double t, double h, Pose<double>& pose,
                  Vector& x) {
  Vector k1, k2, k3, k4, stage;
  Status s = field(t, pose, x, k1);
  if (s != Status::kOk) return s;
  const Twist<double> g1 = h * twist_of(x);
  k1 *= h;

  stage = x + 0.5 * k1;
  const Twist<double> u2 = 0.5 * g1;
  s = field(t + 0.5 * h, se3_exponential(u2) * pose, stage, k2);
  if (s != Status::kOk) return s;
  const Twist<double> g2 = h * twist_of(stage);
  k2 *= h;

  stage = x + 0.5 * k2;
  const Twist<double> u3 = 0.5 * g2 - 0.125 * ad<double>(g1, g2);
  s = field(t + 0.5 * h, se3_exponential(u3) * pose, stage, k3);
  if (s != Status::kOk) return s;
  const Twist<double> g3 = h * twist_of(stage);
  k3 *= h;

  stage = x + k3;
  s = field(t + h, se3_exponential(g3) * pose, stage, k4);
  if (s != Status::kOk) return s;
  const Twist<double> g4 = h * twist_of(stage);
  k4 *= h;

  const Twist<double> v = (g1 + 2.0 * g2 + 2.0 * g3 + g4) / 6.0 - ad<double>(g1, g4) / 12.0;
  const Pose<double> next_pose = se3_exponential(v) * pose;
  const Vector next_x = x + (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0;
  if (!next_x.allFinite() || !next_pose.rotation.allFinite() || !next_pose.translation.allFinite())
    return Status::kNonFiniteResult;
  pose = next_pose;
  x = next_x;
  return Status::kOk;
}

}  // namespace hodyn::sim
