// hodyn/detail/compile_time.hpp — compile-time loops and the run-time → compile-time
// dispatch of the derivative order.
//
// The algorithms take the order r at run time (any r up to MaxOrder) but run
// a kernel instantiated for that r, so every Leibniz sum has a constant trip
// count and constant binomial coefficients, and is unrolled by the compiler.
#pragma once

#include <type_traits>
#include <utility>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(HODYN_NO_FORCE_INLINE)
#define HODYN_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HODYN_ALWAYS_INLINE inline
#endif

namespace hodyn::detail {

template <int N>
using Int = std::integral_constant<int, N>;

/// f(Int<Begin>{}), f(Int<Begin+1>{}), …, f(Int<End−1>{}).
template <int Begin, int End, class F>
HODYN_ALWAYS_INLINE void static_for(F&& f) {
  if constexpr (Begin < End) {
    f(Int<Begin>{});
    static_for<Begin + 1, End>(f);
  }
}

/// Calls f(Int<order>{}) for 0 ≤ order ≤ MaxOrder (the caller checks the range).
template <int MaxOrder, int R = 0, class F>
HODYN_ALWAYS_INLINE void dispatch_order(int order, F&& f) {
  if constexpr (R == MaxOrder) {
    f(Int<R>{});
  } else {
    if (order == R) {
      f(Int<R>{});
    } else {
      dispatch_order<MaxOrder, R + 1>(order, f);
    }
  }
}

}  // namespace hodyn::detail
