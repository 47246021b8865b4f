// hodyn/control/rotor_allocation.hpp — propeller speeds for a desired base
// wrench on the fully actuated TiltHex (seed 000 eq. 28), within motor limits.
//
// The base-frame propulsion wrench is W = A x with x = (ω_1², …, ω_6²) and the
// 6x6 allocation matrix A (models/tilthex.hpp). A is square and invertible, so
// inside the limits x = A⁻¹ W exactly. When some x_i leaves
// [ω_min², ω_max²] no speed vector produces W; the allocator then solves
//     min ‖S (A x − W)‖²   subject to  ω_min² ≤ x_i ≤ ω_max²
// by clamp-and-resolve (fix the violating speeds at their bound, re-solve the
// weighted least squares for the others, repeat; at most six rounds). The
// weights S put the moments (attitude) and the vertical force (altitude)
// before the lateral forces: S = diag(2/a, 2/a, 2/a, 1, 1, 2), a the arm
// length, so a moment error counts like the force at the arm's tip.
//
// Fixed size, no heap; the inverse is computed once in configure().
#pragma once

#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "hodyn/models/actuation.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace control {

template <class Scalar = double>
class RotorAllocation {
 public:
  static constexpr int kNumRotors = 6;
  using RotorVector = Eigen::Matrix<Scalar, kNumRotors, 1>;

  /// Largest condition number of A accepted by configure().
  static constexpr double kMaxCondition = 1.0e6;

  /// Builds A and A⁻¹. A singular or badly conditioned geometry (e.g. the
  /// literal eq. 28 with equal tilts, rank 3) gives kSingularAllocation and
  /// leaves the allocator as it was.
  Status configure(const TiltHexParameters& geometry, const RotorParameters& limits) noexcept {
    if (!(limits.min_speed >= 0.0) || !(limits.max_speed > limits.min_speed) ||
        !std::isfinite(limits.max_speed) || !(geometry.arm_length > 0.0))
      return Status::kInvalidArgument;
    const Matrix6<double> a = tilthex_allocation<double>(geometry);
    if (!a.allFinite()) return Status::kInvalidArgument;
    const Eigen::JacobiSVD<Matrix6<double>> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const auto& sigma = svd.singularValues();
    if (!(sigma(5) > 0.0) || sigma(0) / sigma(5) > kMaxCondition)
      return Status::kSingularAllocation;
    allocation_ = a.cast<Scalar>();
    // A⁻¹ = V Σ⁻¹ Uᵀ from the SVD above, in fixed-size products: a.inverse()
    // (partial-pivoting LU) instantiates Eigen's blocked triangular solves,
    // whose heap fallback a bare-metal link must not contain.
    const Matrix6<double> a_inverse =
        svd.matrixV() * sigma.cwiseInverse().asDiagonal() * svd.matrixU().transpose();
    inverse_ = a_inverse.cast<Scalar>();
    const double s_moment = 2.0 / geometry.arm_length;
    weights_ << Scalar(s_moment), Scalar(s_moment), Scalar(s_moment), Scalar(1), Scalar(1),
        Scalar(2);
    min_squared_ = Scalar(limits.min_speed * limits.min_speed);
    max_squared_ = Scalar(limits.max_speed * limits.max_speed);
    condition_ = sigma(0) / sigma(5);
    configured_ = true;
    return Status::kOk;
  }

  bool configured() const noexcept { return configured_; }
  const Matrix6<Scalar>& matrix() const noexcept { return allocation_; }
  const Matrix6<Scalar>& inverse() const noexcept { return inverse_; }
  double condition_number() const noexcept { return condition_; }

  /// x = A⁻¹ W without limits (what the speeds would have to be).
  RotorVector unconstrained(const Wrench<Scalar>& wrench) const noexcept {
    return inverse_ * wrench;
  }

  /// Squared speeds within the limits for the wrench `wrench`; kActuatorSaturated
  /// when a limit is active (x is then the weighted least-squares compromise).
  Status speeds_squared(const Wrench<Scalar>& wrench, RotorVector& x) const noexcept {
    x = inverse_ * wrench;
    if (within_limits(x)) return Status::kOk;
    std::array<bool, kNumRotors> fixed{};
    for (int round = 0; round < kNumRotors; ++round) {
      bool newly_fixed = false;
      for (int i = 0; i < kNumRotors; ++i) {
        if (fixed[i]) continue;
        if (x(i) < min_squared_ || x(i) > max_squared_) {
          x(i) = x(i) < min_squared_ ? min_squared_ : max_squared_;
          fixed[i] = true;
          newly_fixed = true;
        }
      }
      if (!newly_fixed) break;
      solve_free(wrench, fixed, x);
    }
    for (int i = 0; i < kNumRotors; ++i) x(i) = clamp(x(i));
    return Status::kActuatorSaturated;
  }

  Scalar clamp(Scalar x) const noexcept {
    return x < min_squared_ ? min_squared_ : (x > max_squared_ ? max_squared_ : x);
  }

 private:
  bool within_limits(const RotorVector& x) const noexcept {
    for (int i = 0; i < kNumRotors; ++i)
      if (!(x(i) >= min_squared_ && x(i) <= max_squared_)) return false;
    return true;
  }

  // Weighted least squares over the free speeds, the fixed ones held:
  // (A_Fᵀ S² A_F) x_F = A_Fᵀ S² (W − A_B x_B); fixed rows become identity rows.
  void solve_free(const Wrench<Scalar>& wrench, const std::array<bool, kNumRotors>& fixed,
                  RotorVector& x) const noexcept {
    Wrench<Scalar> residual = wrench;
    for (int i = 0; i < kNumRotors; ++i)
      if (fixed[i]) residual -= allocation_.col(i) * x(i);
    const Matrix6<Scalar> weighted = weights_.asDiagonal() * allocation_;
    Matrix6<Scalar> normal = weighted.transpose().lazyProduct(weighted);
    Vector6<Scalar> rhs = weighted.transpose() * (weights_.asDiagonal() * residual);
    for (int i = 0; i < kNumRotors; ++i) {
      if (!fixed[i]) continue;
      normal.row(i).setZero();
      normal.col(i).setZero();
      normal(i, i) = Scalar(1);
      rhs(i) = x(i);
    }
    const Eigen::LDLT<Matrix6<Scalar>> ldlt(normal);
    const RotorVector solution = ldlt.solve(rhs);
    for (int i = 0; i < kNumRotors; ++i)
      if (!fixed[i]) x(i) = solution(i);
  }

  Matrix6<Scalar> allocation_ = Matrix6<Scalar>::Zero();
  Matrix6<Scalar> inverse_ = Matrix6<Scalar>::Zero();
  Vector6<Scalar> weights_ = Vector6<Scalar>::Ones();
  Scalar min_squared_ = Scalar(0);
  Scalar max_squared_ = Scalar(0);
  double condition_ = 0.0;
  bool configured_ = false;
};

}  // namespace control
}  // namespace hodyn
