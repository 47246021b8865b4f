// A reference carried forward along its derivatives (reference_extrapolation.hpp).
//
// Every value is its reference value plus an increment: x^(k)(τ) = x^(k) + Δ
// with Δ = Σ_{m=1}^{M} x^(k+m) τ^m / m!, R(τ) = R + (exp([Ω]×) − 1) R, all in
// the scalar T and stored as double. On a core whose FPU is single precision
// only (Cortex-M4F: __ARM_FP without bit 3) double arithmetic is in software
// (~20–100 instructions an operation; a double addition per value cost the
// F405's link part 4 300 instructions a period more) and T is float: the
// carried reference then has float precision (6e-8 relative), which is what
// the float controller of those images converts every reference value to
// anyway.
#include "hodyn/link/reference_extrapolation.hpp"

#include <cmath>
#include <cstddef>

namespace hodyn {
namespace link {
namespace detail {
namespace {

constexpr std::size_t kOrder = HODYN_REFERENCE_ORDER;

// step[m] = τ / (m + 1): the Horner factors of Σ c_m τ^m / m! (no division later).
template <class T>
struct Steps {
  T step[kOrder + 1];
  explicit Steps(T tau) noexcept {
    for (std::size_t m = 0; m <= kOrder; ++m) step[m] = tau / static_cast<T>(m + 1);
  }
};

// Horner steps m = M, M−1, …, 1 of row K: acc ← c[K+m] + acc τ/(m+1).
template <std::size_t K, std::size_t M, class T, std::size_t N>
inline T horner_steps(const T (&c)[N], const Steps<T>& s, T acc) noexcept {
  if constexpr (M == 0) {
    (void)c;
    (void)s;
    return acc;
  } else {
    return horner_steps<K, M - 1>(c, s, c[K + M] + acc * s.step[M]);
  }
}

// Every derivative row k < Order of column j carried forward (row Order, the
// highest derivative, does not move): row k + Σ_{m=1}^{Order-k} row (k+m)
// τ^m / m!, by Horner in T from the column c in T. Unrolled at compile time
// (rows and steps): the loops, which GCC kept, cost ~80 instructions a joint
// on the Cortex-M4 against ~20; the same operations in the same order.
template <std::size_t Order, std::size_t Columns, std::size_t K = 0, class T, class Value>
inline void shift(const T (&c)[Order + 1], Value (&to)[Order + 1][Columns], std::size_t j,
                  const Steps<T>& s) noexcept {
  if constexpr (K < Order) {
    const T acc = horner_steps<K, Order - K - 1>(c, s, c[Order]);
    to[K][j] = static_cast<Value>(c[K] + acc * s.step[0]);
    shift<Order, Columns, K + 1>(c, to, j, s);
  }
}

}  // namespace

// `from` in T, once per reference (a conversion from double is a library
// call on a Cortex-M4F: ~60 of them a reference; none from a float frame).
template <class T, class Frame, class Value>
void prepare_reference(const Frame& from, PreparedReference<T, Value>& p) noexcept {
  p.time = from.time;
  p.num_joints = from.num_joints <= HODYN_MAX_JOINTS ? from.num_joints : 0u;
  for (std::size_t j = 0; j < 3; ++j) {
    for (std::size_t k = 0; k <= kOrder; ++k)
      p.position[j][k] = static_cast<T>(from.base_position[k][j]);
    for (std::size_t k = 0; k < kOrder; ++k)
      p.angular_velocity[j][k] = static_cast<T>(from.base_angular_velocity[k][j]);
  }
  for (std::size_t j = 0; j < p.num_joints; ++j)
    for (std::size_t k = 0; k <= kOrder; ++k)
      p.joint[j][k] = static_cast<T>(from.joint_position[k][j]);
  for (std::size_t k = 0; k < 4; ++k) {
    p.orientation[k] = static_cast<T>(from.base_orientation[k]);
    p.orientation_bits[k] = from.base_orientation[k];
  }
}

// Writes the entries that move into `to`, which holds a copy of the prepared
// reference otherwise (its counts, highest derivatives, joints past the count).
template <class T, class Frame, class Value>
void carry_prepared(const PreparedReference<T, Value>& p, double t, double tau,
                    Frame& to) noexcept {
  const Steps<T> s(static_cast<T>(tau));
  to.time = t;
  const auto& w = p.angular_velocity;  // ω^(0..3), column j: w[j]
  for (std::size_t j = 0; j < 3; ++j) {
    shift<kOrder, 3>(p.position[j], to.base_position, j, s);
    shift<kOrder - 1, 3>(w[j], to.base_angular_velocity, j, s);
  }
  for (std::size_t j = 0; j < p.num_joints; ++j)
    shift<kOrder, HODYN_MAX_JOINTS>(p.joint[j], to.joint_position, j, s);

  // Ω = ∫_0^τ ω ds + Ω₂: ∫ ω = Σ_k ω^(k) τ^(k+1)/(k+1)!; the second Magnus
  // term ½∫∫_{s2<s1} ω(s1)×ω(s2) is −τ³/12 ω0×ω1 − τ⁴/24 ω0×ω2 + O(τ⁵).
  T w0[3], v[3];  // ω0 and ω1 + τ/2 ω2
  for (std::size_t i = 0; i < 3; ++i) {
    w0[i] = w[i][0];
    v[i] = w[i][1] + s.step[1] * w[i][2];
  }
  const T magnus2 = -s.step[0] * s.step[0] * s.step[0] / T(12);
  T phi[3];
  for (std::size_t j = 0; j < 3; ++j) {
    T integral = T(0);
    for (std::size_t k = kOrder; k-- > 0;) integral = (integral + w[j][k]) * s.step[k];
    const std::size_t a = (j + 1) % 3, b = (j + 2) % 3;
    phi[j] = integral + magnus2 * (w0[a] * v[b] - w0[b] * v[a]);
  }

  // exp([Ω]×) as the unit quaternion (cos θ/2, sin(θ/2) Ω/θ), minus 1: e.
  // Small angles (all a few periods give) by their series, exact to ~1e-13.
  const T theta2 = phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2];
  T c_minus_1 = T(0), sinc = T(0);  // cos(θ/2) − 1, sin(θ/2)/θ
  if (theta2 < T(0.04)) {           // θ < 0.2 rad: h = θ/2 < 0.1, next terms < h^8/8!
    const T h2 = T(0.25) * theta2;
    c_minus_1 = -h2 / T(2) * (T(1) - h2 / T(12) * (T(1) - h2 / T(30)));
    sinc = T(0.5) * (T(1) - h2 / T(6) * (T(1) - h2 / T(20) * (T(1) - h2 / T(42))));
  } else {
    const T theta = std::sqrt(theta2);
    c_minus_1 = std::cos(T(0.5) * theta) - T(1);
    sinc = std::sin(T(0.5) * theta) / theta;
  }
  const T e[4] = {c_minus_1, sinc * phi[0], sinc * phi[1], sinc * phi[2]};

  // R(t) = exp([Ω]×) R(t0): the world-frame increment multiplies from the
  // left, q = q0 + e ⊗ q0, then normalized.
  const T* q = p.orientation;
  const T r[4] = {q[0] + (e[0] * q[0] - e[1] * q[1] - e[2] * q[2] - e[3] * q[3]),
                  q[1] + (e[0] * q[1] + e[1] * q[0] + e[2] * q[3] - e[3] * q[2]),
                  q[2] + (e[0] * q[2] - e[1] * q[3] + e[2] * q[0] + e[3] * q[1]),
                  q[3] + (e[0] * q[3] + e[1] * q[2] - e[2] * q[1] + e[3] * q[0])};
  const T norm2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3];
  if (!(norm2 > T(0))) {  // not a rotation (zeros, NaN): left as it was
    for (std::size_t k = 0; k < 4; ++k) to.base_orientation[k] = p.orientation_bits[k];
    return;
  }
  const T scale = T(1) / std::sqrt(norm2);
  for (std::size_t k = 0; k < 4; ++k) to.base_orientation[k] = static_cast<Value>(r[k] * scale);
}

template <class T>
void extrapolate_reference(const hodyn_reference& from, double t, hodyn_reference& to) noexcept {
  PreparedReference<T, double> prepared;
  prepare_reference(from, prepared);
  to = from;
  carry_prepared(prepared, t, t - prepared.time, to);
}

template void extrapolate_reference<double>(const hodyn_reference&, double,
                                            hodyn_reference&) noexcept;
template void extrapolate_reference<float>(const hodyn_reference&, double,
                                           hodyn_reference&) noexcept;

}  // namespace detail

void extrapolate_reference(const hodyn_reference& from, double t, hodyn_reference& to) noexcept {
  detail::extrapolate_reference<detail::ExtrapolationScalar>(from, t, to);
}

template <class Frame>
void BasicReferenceExtrapolator<Frame>::carry(const Frame& from, double t, Frame& to) noexcept {
  carry(from, t, t - from.time, to);
}

template <class Frame>
void BasicReferenceExtrapolator<Frame>::carry(const Frame& from, double t, double tau,
                                              Frame& to) noexcept {
  if (from_ != &from || to_ != &to) {
    detail::prepare_reference(from, prepared_);
    to = from;
    from_ = &from;
    to_ = &to;
  }
  detail::carry_prepared(prepared_, t, tau, to);
}

template class BasicReferenceExtrapolator<hodyn_reference>;
template class BasicReferenceExtrapolator<plugin::ReferenceF32>;

}  // namespace link
}  // namespace hodyn
