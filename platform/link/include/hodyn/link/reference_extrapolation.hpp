// hodyn/link/reference_extrapolation.hpp — a reference carried forward in
// time along its own derivatives (docs/hil.md, "Reference rate").
//
// A REFERENCE frame carries the motion to track with its time derivatives:
// base position x_d^(0..4) (up to snap), orientation R_d with the world
// angular velocity ω_d^(0..3), joint positions q_d^(0..4). A simulator that
// sends it only every N-th period (hodyn-sim --reference-every N) leaves the
// controller host to evaluate it at the sensor times in between:
//
//   x^(k)(t0 + τ) = Σ_{m=0}^{4-k} x^(k+m)(t0) τ^m / m!     (Taylor, also q, ω)
//   R(t0 + τ)     = exp([Ω]×) R(t0),                        (Magnus, R' = [ω]× R)
//   Ω = ∫_0^τ ω ds − τ³/12 ω^(0) × (ω^(1) + τ/2 ω^(2))     (Magnus terms 1, 2)
//
// Exact for polynomial positions of degree ≤ 4 and for a constant-axis
// rotation with polynomial ω of degree ≤ 3; otherwise the error is of the
// order of the first derivative not carried (x^(5) τ^5 / 120) and, for the
// orientation, of the third Magnus term (~τ⁴ |ω|² |ω'|).
#pragma once

#include <cstdint>
#include <type_traits>

#include "hodyn/plugin/abi.h"
#include "hodyn/plugin/float_frames.hpp"

namespace hodyn {
namespace link {

/// Writes into `to` the reference `from` carried to time `t` (τ = t − from.time;
/// any sign, meant for 0 ≤ τ of a few periods). `to.time` = t; counts and the
/// joints past `num_joints` (≤ HODYN_MAX_JOINTS, else none are moved) are copied.
/// `to` may not alias `from`. Computed in float on a core whose FPU is single
/// precision only (Cortex-M4F: double is software there, and its controllers
/// are float), so the carried values have float precision there; else in double.
void extrapolate_reference(const hodyn_reference& from, double t, hodyn_reference& to) noexcept;

namespace detail {
/// The same computed in `Scalar` (float or double), for tests.
template <class Scalar>
void extrapolate_reference(const hodyn_reference& from, double t, hodyn_reference& to) noexcept;

/// The precision extrapolate_reference() computes in on this core.
#if defined(__ARM_FP) && ((__ARM_FP & 8) == 0)
using ExtrapolationScalar = float;  // single-precision FPU only
#else
using ExtrapolationScalar = double;
#endif

/// A reference's values in `T`, ready to be carried (column by column);
/// `Value`: the frame's (double, or float for plugin::ReferenceF32).
template <class T, class Value = double>
struct PreparedReference {
  double time;
  std::uint32_t num_joints;  ///< the joints moved: 0 for a count above HODYN_MAX_JOINTS
  T position[3][HODYN_REFERENCE_ORDER + 1];
  T angular_velocity[3][HODYN_REFERENCE_ORDER];
  T joint[HODYN_MAX_JOINTS][HODYN_REFERENCE_ORDER + 1];
  T orientation[4];
  Value orientation_bits[4];  ///< as received: what `to` keeps when it is not a rotation
};
}  // namespace detail

/// extrapolate_reference() for a host that carries the same reference to
/// many sensor times (a REFERENCE every N-th period): `from` is converted to
/// the working precision once, and `to` copied from it once, after which each
/// carry() writes only the entries that move (time, the orientation and the
/// derivative rows below the highest). The values are bit for bit those of
/// extrapolate_reference(from, t, to) (the same code computes both).
/// Heap-free; ~370 bytes (float) or ~740 (double). `Frame`: hodyn_reference,
/// or plugin::ReferenceF32 for a float controller's host (the same
/// arithmetic, in ExtrapolationScalar, rounded to float at the end; on a
/// single-precision FPU no conversion at all).
template <class Frame>
class BasicReferenceExtrapolator {
 public:
  using Value = std::remove_all_extents_t<decltype(Frame::base_orientation)>;
  /// Writes `from` carried to `t` into `to` (no aliasing). Between calls
  /// with the same `from` and `to` objects, `from` must not change and
  /// nothing else may write `to`; else call forget() first.
  void carry(const Frame& from, double t, Frame& to) noexcept;
  /// carry() for a caller that has computed `tau` = t − from.time already
  /// (the same double subtraction: a library call where double is software).
  void carry(const Frame& from, double t, double tau, Frame& to) noexcept;
  /// The next carry() starts afresh (`from` or `to` changed).
  void forget() noexcept { from_ = nullptr; }

 private:
  const Frame* from_ = nullptr;
  Frame* to_ = nullptr;
  detail::PreparedReference<detail::ExtrapolationScalar, Value> prepared_{};
};
using ReferenceExtrapolator = BasicReferenceExtrapolator<hodyn_reference>;
using ReferenceExtrapolatorF32 = BasicReferenceExtrapolator<plugin::ReferenceF32>;
extern template class BasicReferenceExtrapolator<hodyn_reference>;
extern template class BasicReferenceExtrapolator<plugin::ReferenceF32>;

}  // namespace link
}  // namespace hodyn
