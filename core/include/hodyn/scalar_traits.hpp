// hodyn/scalar_traits.hpp — what the core needs to know about a scalar type.
//
// Every algorithm of the core is a template on the scalar type: `double` on the
// desktop and on Cortex-M7, `float` on Cortex-M4F, and truncated Taylor series
// or dual numbers in the tests. The algorithms themselves only use arithmetic,
// `sin`/`cos`/`sqrt` found by argument-dependent lookup, and this trait for the
// few places where a value must be inspected (input validation).
//
// A custom scalar specializes `hodyn::ScalarTraits<MyScalar>`.
#pragma once

#include <cmath>
#include <type_traits>

namespace hodyn {

template <class Scalar, class Enable = void>
struct ScalarTraits;

/// Built-in floating-point types.
template <class Scalar>
struct ScalarTraits<Scalar, std::enable_if_t<std::is_floating_point<Scalar>::value>> {
  /// True when the value (every part of it, for a compound scalar) is finite.
  static bool is_finite(const Scalar& x) noexcept { return std::isfinite(x); }
  /// The plain number carried by the scalar (the value itself; for a series,
  /// its constant term). Used for tolerance checks only.
  static Scalar primal(const Scalar& x) noexcept { return x; }
  /// Tolerance for "this rotation matrix is orthonormal": ||RᵀR − I||_max.
  static constexpr Scalar orthonormality_tolerance() noexcept {
    return std::is_same<Scalar, float>::value ? Scalar(1e-4f) : Scalar(1e-9);
  }
};

}  // namespace hodyn
