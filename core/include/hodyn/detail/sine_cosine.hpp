// hodyn/detail/sine_cosine.hpp — cos and sin of the joint angles, for all
// joints of a tree in one pass that the compiler vectorizes.
//
// Why not std::sin / std::cos: glibc's x86-64 implementations save and restore
// the SSE rounding mode (stmxcsr/ldmxcsr) on every call, which serializes the
// floating-point pipeline; the six calls of the aerial manipulator cost ~20 ns
// each and were ~10 % of inverse dynamics of order 4 (measured with perf).
// Here, in double arithmetic (float is computed in double and rounded):
//   - Cody–Waite reduction x = n π/2 + t with π/2 split into three doubles of
//     33, 33 and 53 significant bits (n·P1 and n·P2 are exact for |n| < 2^20),
//     n rounded to nearest with the 1.5·2^52 trick (IEEE round-to-nearest);
//   - sin t and cos t for |t| ≤ π/4 from their Taylor series through t^17 and
//     t^18 (truncation below 1e-19 relative) in z = t²: the two leading
//     terms by Horner's rule, the rest by Estrin's scheme (a shorter chain of
//     dependent operations);
//   - the quadrant n mod 4 (read off the bits of n + 1.5·2^52) swaps and
//     negates with bit masks, not branches: no branch to mispredict, and the
//     loop vectorizes on 2-lane SSE2 and NEON too (issue 22; the timings
//     are in docs/design.md, "Closed forms").
// Arguments with |x| > 1e5 (or not finite) take std::sin / std::cos. Checked
// against libm to 1 ulp over [−40, 40] and at multiples of π/2
// (tests/core/test_sine_cosine.cpp).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "hodyn/detail/isa.hpp"

#include "hodyn/detail/coefficient_lanes.hpp"
#include "hodyn/detail/compile_time.hpp"

namespace hodyn::detail {
HODYN_ISA_NAMESPACE_BEGIN

/// cos x, sin x for |x| ≤ 1e5 (see the file comment; larger or non-finite x
/// is the caller's to avoid); branch-free.
HODYN_ALWAYS_INLINE void sine_cosine_reduced(double x, double& c, double& s) {
  constexpr double kTwoOverPi = 0.6366197723675814;
  constexpr double kPiOver2High = 0x1.921fb544p+0;       // 33 significant bits
  constexpr double kPiOver2Middle = 0x1.0b4611a6p-34;    // the next 33
  constexpr double kPiOver2Low = 0x1.3198a2e037073p-69;  // the rest, rounded
  constexpr double kRound = 0x1.8p52;                    // 1.5 · 2^52
  // big = 1.5 · 2^52 + n exactly: its significand's low bits are n in two's
  // complement (2^51 ≡ 0 mod 4), so n mod 4 is an integer AND on its bits — no
  // conversion to an integer, which SSE2 has no instruction for in 64-bit lanes.
  const double big = x * kTwoOverPi + kRound;
  const double n = big - kRound;
  std::uint64_t big_bits;
  std::memcpy(&big_bits, &big, sizeof big_bits);
  const std::uint64_t quadrant = big_bits & 3u;  // n mod 4
  const double t = ((x - n * kPiOver2High) - n * kPiOver2Middle) - n * kPiOver2Low;
  const double z = t * t;
  // sin t = t + t z Σ (−1)^k z^(k−1) / (2k+1)!,  cos t = 1 + z Σ (−1)^k z^(k−1) / (2k)!
  // The two leading terms by Horner's rule (one rounding at the size of the
  // result: Estrin all through was 2 ulps off libm near |t| = π/4), the
  // tail by Estrin's scheme (pairs, then pairs of pairs in z², z⁴): the same
  // coefficients with half the chain of dependent operations.
  const double z2 = z * z, z4 = z2 * z2;
  const double sin_tail = (-1.0 / 5040 + z * (1.0 / 362880)) +
                          z2 * (-1.0 / 39916800 + z * (1.0 / 6227020800)) +
                          z4 * (-1.0 / 1307674368000 + z * (1.0 / 355687428096000.0));
  const double sp = -1.0 / 6 + z * (1.0 / 120 + z * sin_tail);
  const double cos_tail = (-1.0 / 720 + z * (1.0 / 40320)) +
                          z2 * (-1.0 / 3628800 + z * (1.0 / 479001600)) +
                          z4 * ((-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0)) +
                                z2 * (-1.0 / 6402373705728000.0));
  const double cp = -0.5 + z * (1.0 / 24 + z * cos_tail);
  const double sin_t = t + t * z * sp;
  const double cos_t = 1.0 + z * cp;
  // x = n π/2 + t: quadrant 1 swaps (cos, sin) → (−sin, cos), 2 negates both.
  // Branch-free, on the bits (a branch per quadrant was mispredicted on
  // every other random angle, and it kept the loop from vectorizing): the
  // swap is a mask of the quadrant's low bit, each negation an XOR of the
  // sign bit.
  std::uint64_t sin_bits, cos_bits;
  std::memcpy(&sin_bits, &sin_t, sizeof sin_bits);
  std::memcpy(&cos_bits, &cos_t, sizeof cos_bits);
  const std::uint64_t swap = std::uint64_t(0) - (quadrant & 1u);  // all ones in quadrants 1, 3
  const std::uint64_t c_bits =
      ((sin_bits & swap) | (cos_bits & ~swap)) ^ (((quadrant + 1u) & 2u) << 62);
  const std::uint64_t s_bits = ((cos_bits & swap) | (sin_bits & ~swap)) ^ ((quadrant & 2u) << 62);
  std::memcpy(&c, &c_bits, sizeof c);
  std::memcpy(&s, &s_bits, sizeof s);
}

/// cos x, sin x of one angle, for the code that places one joint at a time:
/// the branch-free polynomial above where the batch (JointSineCosine) uses it
/// — double or float on a SIMD build, |x| ≤ 1e5 — else std::cos, std::sin
/// (other scalar types, huge or non-finite x, and Cortex-M, whose float
/// unit has no double arithmetic). One libm sincos call cost ~18 ns in the
/// state partials (7 % of them, measured with perf).
template <class S>
HODYN_ALWAYS_INLINE void sine_cosine_one(const S& x, S& c, S& s) {
  if constexpr (HODYN_COEFFICIENT_LANE_BYTES > 0 &&
                (std::is_same<S, double>::value || std::is_same<S, float>::value)) {
    const double xd = static_cast<double>(x);
    if (std::fabs(xd) <= 1e5) {
      double cd, sd;
      sine_cosine_reduced(xd, cd, sd);
      c = static_cast<S>(cd);
      s = static_cast<S>(sd);
      return;
    }
  }
  using std::cos;
  using std::sin;
  c = cos(x);
  s = sin(x);
}

/// c[i] = cos x[i], s[i] = sin x[i] for i < n ≤ N (float or double): one
/// vectorizable loop; libm for the arguments the reduction does not cover.
/// The loop runs on local arrays padded to a multiple of eight, so that the
/// compiler needs neither aliasing checks nor a scalar remainder (on the
/// caller's arrays of seven it vectorized two lanes wide). `Pad` (a power of
/// two) sets that multiple: the SIMD width in doubles suffices (the mass
/// matrix's six angles: three 2-lane steps with SSE2 or NEON instead of four).
template <std::size_t Pad = 8, std::size_t N, class S>
void sine_cosine(const std::array<S, N>& x, std::array<S, N>& c, std::array<S, N>& s, int n) {
  static_assert(std::is_same<S, double>::value || std::is_same<S, float>::value,
                "float or double (other scalar types call their own sin, cos)");
  static_assert(Pad > 0 && (Pad & (Pad - 1)) == 0, "a power of two");
  constexpr std::size_t kPadded = (N + Pad - 1) / Pad * Pad;
  alignas(64) double xs[kPadded] = {};
  alignas(64) double cs[kPadded];
  alignas(64) double ss[kPadded];
  for (std::size_t i = 0; i < N; ++i) {
    // Out-of-range, infinite and NaN arguments are replaced by 0 here (a NaN
    // or huge n must not reach the integer conversion) and by libm below.
    const double xi = static_cast<double>(x[i]);
    xs[i] = std::fabs(xi) <= 1e5 ? xi : 0.0;
  }
  for (std::size_t i = 0; i < kPadded; ++i) sine_cosine_reduced(xs[i], cs[i], ss[i]);
  for (std::size_t i = 0; i < N; ++i) {
    c[i] = static_cast<S>(cs[i]);
    s[i] = static_cast<S>(ss[i]);
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    if (std::fabs(static_cast<double>(x[i])) <= 1e5) continue;
    c[i] = std::cos(x[i]);
    s[i] = std::sin(x[i]);
  }
}

/// cos q_j and sin q_j of every joint of a tree (entry j; entry 0, the base,
/// holds cos 0 and sin 0): the batch above for float and double on targets
/// with a SIMD unit (where it vectorizes and libm's mode switches hurt); the
/// scalar type's own sin and cos otherwise — series and dual scalars of the
/// tests, and Cortex-M, whose float build has no double hardware for the
/// batch's double arithmetic.
template <class S, std::size_t N>
struct JointSineCosine {
  static constexpr bool kBatch = HODYN_COEFFICIENT_LANE_BYTES > 0 &&
                                 (std::is_same<S, double>::value || std::is_same<S, float>::value);
  std::array<S, N> angle{}, cosine{}, sine{};

  /// q(j) returns q_j for j = 1..N−1.
  template <class Q>
  void compute(const Q& q) {
    for (std::size_t j = 1; j < N; ++j) angle[j] = q(static_cast<int>(j));
    if constexpr (kBatch) {
      sine_cosine(angle, cosine, sine, static_cast<int>(N));
    } else {
      using std::cos;
      using std::sin;
      cosine[0] = S(1);  // (the base's entry: angle 0)
      sine[0] = S(0);
      for (std::size_t j = 1; j < N; ++j) {
        cosine[j] = cos(angle[j]);
        sine[j] = sin(angle[j]);
      }
    }
  }
  /// The same with the batch over the joints' N − 1 angles only, padded to
  /// the SIMD width in doubles (not to eight, nor with the base's entry):
  /// with 2-lane SSE2 or NEON the aerial manipulator's six angles take three
  /// vector steps instead of four (mass_matrix, issue 22); the results are
  /// the same, lane by lane.
  template <class Q>
  void compute_joints(const Q& q) {
    if constexpr (kBatch && N > 1) {
      constexpr std::size_t kPad =
          HODYN_COEFFICIENT_LANE_BYTES >= 16 ? HODYN_COEFFICIENT_LANE_BYTES / 8 : 2;
      std::array<S, N - 1> a, c, s;
      for (std::size_t j = 1; j < N; ++j) a[j - 1] = angle[j] = q(static_cast<int>(j));
      sine_cosine<kPad>(a, c, s, static_cast<int>(N - 1));
      cosine[0] = S(1);
      sine[0] = S(0);
      for (std::size_t j = 1; j < N; ++j) {
        cosine[j] = c[j - 1];
        sine[j] = s[j - 1];
      }
    } else {
      compute(q);
    }
  }
};

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn::detail
