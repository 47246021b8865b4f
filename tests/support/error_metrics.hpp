// Error metrics of the unit tests: the largest absolute entry of a matrix and
// the normwise relative error of a vector against a reference.
#pragma once

#include <Eigen/Core>

#include <algorithm>

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

}  // namespace test
}  // namespace hodyn
