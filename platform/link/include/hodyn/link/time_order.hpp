// hodyn/link/time_order.hpp — comparisons of frame times (doubles) that cost
// no double arithmetic on a core whose FPU is single precision only.
//
// On a Cortex-M4F (__ARM_FP without bit 3) a double comparison is a library
// call (__aeabi_dcmp*: 20–40 instructions with the call); the controller
// host compares the sensor time with every stored reference's each period.
// There the comparisons run on the IEEE-754 bit patterns in integers, with
// the FPU's answers: false when either side is NaN, −0 == +0. Elsewhere
// they are the plain operators (the same code as before).
#pragma once

#include <cstdint>
#include <cstring>

namespace hodyn {
namespace link {

/// True on a core whose double arithmetic is software (single-precision FPU).
#if defined(__ARM_FP) && ((__ARM_FP & 8) == 0)
inline constexpr bool kSoftwareDouble = true;
#else
inline constexpr bool kSoftwareDouble = false;
#endif

namespace detail {

/// The bit pattern of `x` as an integer ordered as the values are (for a
/// non-NaN x): sign-magnitude to two's complement, −0 and +0 both 0.
inline std::int64_t ordered_bits(double x) noexcept {
  std::int64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits < 0 ? -(bits & INT64_MAX) : bits;
}

/// isnan(x) from the bit pattern: exponent all ones, mantissa not zero.
inline bool is_nan_bits(double x) noexcept {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits & 0x7FFFFFFFFFFFFFFFu) > 0x7FF0000000000000u;
}

/// Neither is NaN (the FPU's "ordered").
inline bool ordered(double a, double b) noexcept { return !is_nan_bits(a) && !is_nan_bits(b); }

/// a < b, a <= b, a == b in integers (what a single-precision core runs).
inline bool less_bits(double a, double b) noexcept {
  return ordered(a, b) && ordered_bits(a) < ordered_bits(b);
}
inline bool less_equal_bits(double a, double b) noexcept {
  return ordered(a, b) && ordered_bits(a) <= ordered_bits(b);
}
inline bool equal_bits(double a, double b) noexcept {
  return ordered(a, b) && ordered_bits(a) == ordered_bits(b);
}

}  // namespace detail

/// a < b as the FPU answers it.
inline bool time_less(double a, double b) noexcept {
  if constexpr (kSoftwareDouble)
    return detail::less_bits(a, b);
  else
    return a < b;
}

/// a <= b as the FPU answers it.
inline bool time_less_equal(double a, double b) noexcept {
  if constexpr (kSoftwareDouble)
    return detail::less_equal_bits(a, b);
  else
    return a <= b;
}

/// a == b as the FPU answers it.
inline bool time_equal(double a, double b) noexcept {
  if constexpr (kSoftwareDouble)
    return detail::equal_bits(a, b);
  else
    return a == b;
}

/// A time prepared for several comparisons (the host compares the sensor
/// time and each stored reference's with several others every period):
/// where double is software (`Soft`) its ordered bit pattern and NaN-ness,
/// computed once instead of in every comparison; elsewhere the value.
struct TimeKey {
  double value = 0.0;
  std::int64_t bits = 0;
  bool nan = false;
};

template <bool Soft = kSoftwareDouble>
inline TimeKey time_key(double t) noexcept {
  TimeKey key;
  key.value = t;
  if constexpr (Soft) {
    key.bits = detail::ordered_bits(t);
    key.nan = detail::is_nan_bits(t);
  }
  return key;
}

/// The comparisons of time_less & co. on prepared times (keys made with the same `Soft`).
template <bool Soft = kSoftwareDouble>
inline bool time_less(const TimeKey& a, const TimeKey& b) noexcept {
  if constexpr (Soft)
    return !a.nan && !b.nan && a.bits < b.bits;
  else
    return a.value < b.value;
}
template <bool Soft = kSoftwareDouble>
inline bool time_less_equal(const TimeKey& a, const TimeKey& b) noexcept {
  if constexpr (Soft)
    return !a.nan && !b.nan && a.bits <= b.bits;
  else
    return a.value <= b.value;
}
template <bool Soft = kSoftwareDouble>
inline bool time_equal(const TimeKey& a, const TimeKey& b) noexcept {
  if constexpr (Soft)
    return !a.nan && !b.nan && a.bits == b.bits;
  else
    return a.value == b.value;
}

}  // namespace link
}  // namespace hodyn
