// hodyn/detail/compile_time.hpp — HODYN_ALWAYS_INLINE for the tiny vector
// operations of the inner loops (a call there would cost more than the work),
// and a loop over compile-time indices.
#pragma once

#include <type_traits>
#include <utility>

#if defined(__GNUC__) || defined(__clang__)
#define HODYN_ALWAYS_INLINE inline __attribute__((always_inline))
#define HODYN_NOINLINE __attribute__((noinline))
#else
#define HODYN_ALWAYS_INLINE inline
#define HODYN_NOINLINE
#endif

// Before a loop of compile-time length: unroll it whole (g++ and clang++),
// which also folds the constants it indexes. Cheaper to compile than a
// for_each_index over a lambda, for the same code.
#if defined(__GNUC__) || defined(__clang__)
#define HODYN_UNROLL _Pragma("GCC unroll 16")
#else
#define HODYN_UNROLL
#endif

namespace hodyn::detail {

/// f(std::integral_constant<int, i>{}) for i = Begin, …, End − 1, unrolled.
template <int Begin, class F, int... Is>
HODYN_ALWAYS_INLINE void for_each_index_unrolled(F& f, std::integer_sequence<int, Is...>) {
  (f(std::integral_constant<int, Begin + Is>{}), ...);
}
template <int Begin, int End, class F>
HODYN_ALWAYS_INLINE void for_each_index(F&& f) {
  if constexpr (End > Begin)
    for_each_index_unrolled<Begin>(f, std::make_integer_sequence<int, End - Begin>{});
}

}  // namespace hodyn::detail
