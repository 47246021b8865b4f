// tests/support/taylor.hpp — the tests' name for the public series scalar
// (hodyn/taylor_series.hpp) and a printer for test messages.
#pragma once

#include <ostream>

#include <hodyn/taylor_series.hpp>

namespace hodyn {
namespace series {  // beside the type, for argument-dependent lookup

/// Prints the coefficients, e.g. "[1, 0.5, 0]" (gtest failure messages).
template <class T, int D>
std::ostream& operator<<(std::ostream& os, const TaylorSeries<T, D>& x) {
  os << "[";
  for (int k = 0; k <= D; ++k) os << (k ? ", " : "") << x.coeff(k);
  return os << "]";
}

}  // namespace series

namespace test {
template <class T, int Degree>
using Taylor = TaylorSeries<T, Degree>;
}  // namespace test

}  // namespace hodyn
