// hodyn/detail/compile_time.hpp — HODYN_ALWAYS_INLINE for the tiny vector
// operations of the inner loops (a call there would cost more than the work).
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define HODYN_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HODYN_ALWAYS_INLINE inline
#endif
