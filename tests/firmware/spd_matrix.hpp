// tests/firmware/spd_matrix.hpp — Cholesky solve and condition number of a
// small symmetric positive definite matrix (the mass matrix M̄), written out:
// Eigen's LLT and SelfAdjointEigenSolver instantiate blocked kernels whose
// heap fallback the firmware link forbids.
#pragma once

#include <Eigen/Core>

#include <cmath>

namespace hodyn {
namespace firmware_test {

template <int N>
class SpdMatrix {
 public:
  using Matrix = Eigen::Matrix<double, N, N>;
  using Vector = Eigen::Matrix<double, N, 1>;

  /// Factorises A = L Lᵀ (Cholesky–Banachiewicz). False if A is not SPD.
  bool factorize(const Matrix& a) noexcept {
    a_ = a;
    l_.setZero();
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j <= i; ++j) {
        double s = a(i, j);
        for (int k = 0; k < j; ++k) s -= l_(i, k) * l_(j, k);
        if (i == j) {
          if (!(s > 0.0)) return ok_ = false;
          l_(i, i) = std::sqrt(s);
        } else {
          l_(i, j) = s / l_(j, j);
        }
      }
    }
    return ok_ = true;
  }
  bool ok() const noexcept { return ok_; }

  /// x = A⁻¹ b by forward and back substitution.
  Vector solve(const Vector& b) const noexcept {
    Vector y;
    for (int i = 0; i < N; ++i) {
      double s = b(i);
      for (int k = 0; k < i; ++k) s -= l_(i, k) * y(k);
      y(i) = s / l_(i, i);
    }
    Vector x;
    for (int i = N - 1; i >= 0; --i) {
      double s = y(i);
      for (int k = i + 1; k < N; ++k) s -= l_(k, i) * x(k);
      x(i) = s / l_(i, i);
    }
    return x;
  }

  /// κ₂(A) = λmax / λmin by power iteration on A and on A⁻¹ (200 steps each:
  /// a few significant digits, all a tolerance needs); also sets
  /// lambda_min() and lambda_max().
  double condition_number() noexcept {
    Vector v = Vector::Ones().normalized(), w = v;
    double lambda_max = 0.0, inverse_lambda_min = 0.0;
    for (int it = 0; it < 200; ++it) {
      const Vector av = a_ * v;
      lambda_max = av.norm();
      v = av / lambda_max;
      const Vector iw = solve(w);
      inverse_lambda_min = iw.norm();
      w = iw / inverse_lambda_min;
    }
    lambda_max_ = lambda_max;
    lambda_min_ = 1.0 / inverse_lambda_min;
    return lambda_max * inverse_lambda_min;
  }
  double lambda_min() const noexcept { return lambda_min_; }
  double lambda_max() const noexcept { return lambda_max_; }

 private:
  Matrix a_ = Matrix::Zero();
  Matrix l_ = Matrix::Zero();
  bool ok_ = false;
  double lambda_min_ = 0.0;
  double lambda_max_ = 0.0;
};

}  // namespace firmware_test
}  // namespace hodyn
