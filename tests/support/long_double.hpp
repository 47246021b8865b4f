// Whether long double is more precise than double. It is on x86-64 (80-bit
// x87 format) and on aarch64 Linux (128-bit IEEE quad, in software); it is not
// on 32-bit ARM (AAPCS: long double is IEEE double), where the long-double
// oracle checks of the tests have no extra precision to work with
// (docs/cross-linux.md).
#pragma once

#include <limits>

namespace hodyn {
namespace test {

inline constexpr bool kLongDoubleIsExtended =
    std::numeric_limits<long double>::digits > std::numeric_limits<double>::digits;

}  // namespace test
}  // namespace hodyn
