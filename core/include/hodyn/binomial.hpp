// hodyn/binomial.hpp — binomial coefficients C(n, k) for the Leibniz sums.
#pragma once

#include <array>
#include <type_traits>

namespace hodyn {

/// Largest n for which C(n, k) is tabulated (enough for derivative order 60).
inline constexpr int kMaxBinomialRow = 64;

namespace detail {
struct BinomialTable {
  std::array<std::array<double, kMaxBinomialRow + 1>, kMaxBinomialRow + 1> c{};
  constexpr BinomialTable() {
    for (int n = 0; n <= kMaxBinomialRow; ++n) {
      c[n][0] = 1.0;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k < n ? c[n - 1][k] : 0.0);
    }
  }
};
inline constexpr BinomialTable kBinomial{};
}  // namespace detail

/// C(n, k) as a scalar, for 0 ≤ k ≤ n ≤ kMaxBinomialRow.
template <class Scalar>
inline Scalar binomial(int n, int k) {
  return Scalar(detail::kBinomial.c[n][k]);
}

}  // namespace hodyn
