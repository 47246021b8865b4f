// Error metrics of the unit tests: the largest absolute entry of a matrix, the
// normwise relative error of a vector against a reference and the same in ulps.
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <limits>

namespace hodyn {
namespace test {

inline double max_abs(const Eigen::MatrixXd& x) { return x.cwiseAbs().maxCoeff(); }

// |x − y| / |y| in the Euclidean norm (|y| floored at 1e-300), as a double
// whatever the scalar of x and y.
template <class A, class B>
double rel_err(const A& x, const B& y) {
  const auto d = (x - y).norm();
  const auto n = y.norm();
  return static_cast<double>(d / std::max(n, decltype(n)(1e-300)));
}

// |x − y| / (ε |y|), ε = 2⁻⁵² (double): how many units in the last place, in
// the Euclidean norm, x is from y. For two computations of one quantity that
// need not round alike — a file's printed digits against the code that made
// them, or one formula compiled twice where the compiler may contract
// a · b + c into an FMA differently (g++'s default -ffp-contract=fast with
// -march=native, docs/sanitizers.md "Build types"). 0 when x == y.
template <class A, class B>
double normwise_ulps(const A& x, const B& y) {
  const double d = static_cast<double>((x - y).norm());
  if (d == 0) return 0;
  return d / (std::numeric_limits<double>::epsilon() * static_cast<double>(y.norm()));
}

}  // namespace test
}  // namespace hodyn
