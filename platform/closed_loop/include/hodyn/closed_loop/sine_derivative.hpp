// hodyn/closed_loop/sine_derivative.hpp — the k-th time derivative of a
// sinusoid, for the reference trajectories of the closed-loop scenarios
// (robot_reference.hpp, identification_reference.hpp).
#pragma once

#include <cmath>

namespace hodyn {
namespace closed_loop {

/// dᵏ/dtᵏ sin(wt + ϕ + n·π/2) = wᵏ sin(wt + ϕ + (k + n)π/2), k ≥ 0: the
/// quarter turns are taken exactly ((k + n) mod 4 picks ±sin or ±cos), not
/// added to the angle. n = 1 gives the cosine's derivatives.
inline double sine_derivative(double w, double t, int k, double phase = 0.0,
                              int quarter_turns = 0) {
  const double s = std::sin(w * t + phase), c = std::cos(w * t + phase);
  const double wk = std::pow(w, static_cast<double>(k));
  switch ((k + quarter_turns) % 4) {
    case 0:
      return wk * s;
    case 1:
      return wk * c;
    case 2:
      return -wk * s;
    default:
      return -wk * c;
  }
}

}  // namespace closed_loop
}  // namespace hodyn
