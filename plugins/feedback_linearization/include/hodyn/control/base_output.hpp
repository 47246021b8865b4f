// hodyn/control/base_output.hpp — the base position's time derivatives from the
// spatial twist's, and back.
//
// With the spatial twist V = (ω; v), v = ẋ − ω × x (STATE-FORMAT), the base
// origin's position x obeys ẋ = v + ω × x, so by Leibniz
//   x^(n+1) = v^(n) + Σ_{i=0..n} C(n,i) ω^(i) × x^(n−i).
// The controller measures (x, V), gets V̇, V̈ from forward dynamics, commands
// the snap x⁗ and needs the twist derivative V⃛ that produces it:
//   v⃛ = x⁗ − ω⃛ × x − 3 ω̈ × ẋ − 3 ω̇ × ẍ − ω × x⃛.
#pragma once

#include <array>
#include <cstddef>

#include "hodyn/spatial_algebra.hpp"

namespace hodyn {
namespace control {

/// x^(0..3) from x and the twist derivatives V^(0..2) (`twist` may hold
/// more, e.g. forward dynamics' V^(0..3), read in place).
template <class Scalar, std::size_t N>
std::array<Vector3<Scalar>, 4> base_position_derivatives(
    const Vector3<Scalar>& x, const std::array<Twist<Scalar>, N>& twist) {
  static_assert(N >= 3, "needs V, V', V''");
  const Vector3<Scalar> w0 = angular(twist[0]), w1 = angular(twist[1]), w2 = angular(twist[2]);
  std::array<Vector3<Scalar>, 4> d;
  d[0] = x;
  d[1] = linear(twist[0]) + w0.cross(d[0]);
  d[2] = linear(twist[1]) + w1.cross(d[0]) + w0.cross(d[1]);
  d[3] = linear(twist[2]) + w2.cross(d[0]) + Scalar(2) * w1.cross(d[1]) + w0.cross(d[2]);
  return d;
}

/// The linear part of V⃛ for which the base origin has snap `snap`, given
/// x^(0..3), ω^(0..2) and the commanded ω⃛.
template <class Scalar>
Vector3<Scalar> linear_twist_third_derivative(const std::array<Vector3<Scalar>, 4>& x,
                                              const std::array<Vector3<Scalar>, 4>& omega,
                                              const Vector3<Scalar>& snap) {
  return snap - omega[3].cross(x[0]) - Scalar(3) * omega[2].cross(x[1]) -
         Scalar(3) * omega[1].cross(x[2]) - omega[0].cross(x[3]);
}

}  // namespace control
}  // namespace hodyn
