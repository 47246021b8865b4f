// hodyn/control/rotor_allocation.hpp — propeller speeds for a desired base
// wrench on a fully actuated rotor set of N ≥ 6 rotors (models/rotor_set.hpp;
// seed 000 eq. 28 for the TiltHex), within each rotor's speed limits.
//
// The base-frame propulsion wrench is W = A x with x = (ω_1², …, ω_N²) and the
// 6xN allocation matrix A of rank 6. Inside the limits the allocator returns
//     x = A⁺ W,   A⁺ = Aᵀ (A Aᵀ)⁻¹          (the minimum-norm x with A x = W)
// — for N = 6, A⁺ = A⁻¹ exactly. For N > 6 the rule for the N − 6 spare
// degrees of freedom is therefore: least Σ ω⁴ (the squared speeds spread as
// evenly as the geometry allows, no rotor idles while another works harder).
// When some x_i leaves [ω_min,i², ω_max,i²] no admissible x gives W with that
// rule; the allocator then solves
//     min ‖S (A x − W)‖²   subject to  ω_min,i² ≤ x_i ≤ ω_max,i²
// by clamp-and-resolve (fix the violating speeds at their bound, re-solve the
// weighted least squares for the others, repeat; at most N rounds). For
// N > 6 the free speeds are under-determined; a Tikhonov term ε‖x_F‖² with
// ε = 1e-10 of the normal matrix' largest diagonal picks the minimum-norm
// solution among them (N = 6: ε = 0, the numbers of the 6-rotor allocator).
// The weights S put the moments (attitude) and the vertical force (altitude)
// before the lateral forces: S = diag(2/a, 2/a, 2/a, 1, 1, 2), a the rotors'
// RMS distance from the base origin (the TiltHex's arm length), so a moment
// error counts like the force at a rotor.
//
// Fixed size, no heap; A⁺ is computed once in configure().
#pragma once

#include <array>
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/SVD>

#include "hodyn/models/actuation.hpp"
#include "hodyn/models/rotor_set.hpp"
#include "hodyn/models/tilthex_rotor_set.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace control {

template <class Scalar = double, int N = 6>
class RotorAllocation {
 public:
  static_assert(N >= 6, "a fully actuated rotor set has at least 6 rotors");
  static constexpr int kNumRotors = N;
  using RotorVector = Eigen::Matrix<Scalar, N, 1>;
  using AllocationMatrix = Eigen::Matrix<Scalar, 6, N>;
  using InverseMatrix = Eigen::Matrix<Scalar, N, 6>;

  /// Largest condition number of A accepted by configure().
  static constexpr double kMaxCondition = 1.0e6;

  /// Builds A and A⁺ from `rotors`. Invalid rotors give their check_rotor
  /// status; a rank-deficient or badly conditioned geometry (e.g. the literal
  /// eq. 28 with equal tilts, rank 3) gives kSingularAllocation. A rejected
  /// set leaves the allocator as it was.
  Status configure(const RotorSet<N, Scalar>& rotors) noexcept {
    const Status valid = check_rotor_set(rotors);
    if (valid != Status::kOk) return valid;
    RotorSet<N, double> set;
    for (int i = 0; i < N; ++i) {
      const Rotor<Scalar>& r = rotors[i];
      Rotor<double>& d = set[i];
      d.position = r.position.template cast<double>();
      d.axis = r.axis.template cast<double>();
      d.spin = r.spin;
      d.thrust_coefficient = static_cast<double>(r.thrust_coefficient);
      d.drag_coefficient = static_cast<double>(r.drag_coefficient);
    }
    const Eigen::Matrix<double, 6, N> a = rotor_allocation(set);
    if (!a.allFinite()) return Status::kInvalidArgument;
    Vector6<double> sigma;
    Eigen::Matrix<double, N, 6> a_pinv;
    if constexpr (N == 6) {
      const Eigen::JacobiSVD<Eigen::Matrix<double, 6, N>> svd(
          a, Eigen::ComputeFullU | Eigen::ComputeFullV);
      sigma = svd.singularValues().template head<6>();
      // A⁺ = V Σ⁺ Uᵀ in fixed-size products (no dynamic-size solver, whose heap
      // fallback a bare-metal link must not contain).
      a_pinv = svd.matrixV().template leftCols<6>() * sigma.cwiseInverse().asDiagonal() *
               svd.matrixU().transpose();
    } else {
      // N > 6: the SVD of a square matrix. For 6 x N Eigen's JacobiSVD runs a
      // QR preconditioner whose blocked Householder kernels reference malloc
      // (no bare-metal link). A padded with N − 6 zero rows has A's singular
      // values (then N − 6 zeros), its right singular vectors, and its left
      // ones in the top-left 6 x 6 block of U.
      Eigen::Matrix<double, N, N> padded = Eigen::Matrix<double, N, N>::Zero();
      padded.template topRows<6>() = a;
      const Eigen::JacobiSVD<Eigen::Matrix<double, N, N>, Eigen::NoQRPreconditioner> svd(
          padded, Eigen::ComputeFullU | Eigen::ComputeFullV);
      sigma = svd.singularValues().template head<6>();
      a_pinv = svd.matrixV().template leftCols<6>() * sigma.cwiseInverse().asDiagonal() *
               svd.matrixU().template topLeftCorner<6, 6>().transpose();
    }
    if (!(sigma(5) > 0.0) || sigma(0) / sigma(5) > kMaxCondition)
      return Status::kSingularAllocation;
    double distance_squared = 0.0;
    for (int i = 0; i < N; ++i) distance_squared += set[i].position.squaredNorm();
    const double arm = std::sqrt(distance_squared / N);
    if (!(arm > 0.0)) return Status::kInvalidArgument;

    allocation_ = a.template cast<Scalar>();
    inverse_ = a_pinv.template cast<Scalar>();
    const double s_moment = 2.0 / arm;
    weights_ << Scalar(s_moment), Scalar(s_moment), Scalar(s_moment), Scalar(1), Scalar(1),
        Scalar(2);
    for (int i = 0; i < N; ++i) {
      min_squared_(i) = rotors[i].min_speed * rotors[i].min_speed;
      max_squared_(i) = rotors[i].max_speed * rotors[i].max_speed;
    }
    condition_ = sigma(0) / sigma(5);
    configured_ = true;
    return Status::kOk;
  }

  /// The TiltHex of seed 000 eq. 28 (N = 6 only): tilthex_rotor_set(geometry, limits).
  template <int M = N, typename = std::enable_if_t<M == 6>>
  Status configure(const TiltHexParameters& geometry, const RotorParameters& limits) noexcept {
    if (!(limits.min_speed >= 0.0) || !(limits.max_speed > limits.min_speed) ||
        !std::isfinite(limits.max_speed) || !(geometry.arm_length > 0.0))
      return Status::kInvalidArgument;
    const Status s = configure(tilthex_rotor_set<Scalar>(geometry, limits));
    return s == Status::kInvalidModel ? Status::kInvalidArgument : s;
  }

  bool configured() const noexcept { return configured_; }
  const AllocationMatrix& matrix() const noexcept { return allocation_; }
  /// A⁺ (A⁻¹ for N = 6).
  const InverseMatrix& inverse() const noexcept { return inverse_; }
  double condition_number() const noexcept { return condition_; }

  /// x = A⁺ W without limits (what the squared speeds would have to be).
  RotorVector unconstrained(const Wrench<Scalar>& wrench) const noexcept {
    return inverse_ * wrench;
  }

  /// Squared speeds within the limits for the wrench `wrench`; kActuatorSaturated
  /// when a limit is active (x is then the weighted least-squares compromise).
  Status speeds_squared(const Wrench<Scalar>& wrench, RotorVector& x) const noexcept {
    x = inverse_ * wrench;
    if (within_limits(x)) return Status::kOk;
    std::array<bool, N> fixed{};
    for (int round = 0; round < N; ++round) {
      bool newly_fixed = false;
      for (int i = 0; i < N; ++i) {
        if (fixed[static_cast<std::size_t>(i)]) continue;
        if (x(i) < min_squared_(i) || x(i) > max_squared_(i)) {
          x(i) = x(i) < min_squared_(i) ? min_squared_(i) : max_squared_(i);
          fixed[static_cast<std::size_t>(i)] = true;
          newly_fixed = true;
        }
      }
      if (!newly_fixed) break;
      solve_free(wrench, fixed, x);
    }
    for (int i = 0; i < N; ++i) x(i) = clamp(i, x(i));
    return Status::kActuatorSaturated;
  }

  /// x_i clamped to rotor i's [ω_min², ω_max²].
  Scalar clamp(int i, Scalar x) const noexcept {
    return x < min_squared_(i) ? min_squared_(i) : (x > max_squared_(i) ? max_squared_(i) : x);
  }
  /// Rotor 0's bounds (all rotors of the TiltHex share them).
  Scalar clamp(Scalar x) const noexcept { return clamp(0, x); }

 private:
  bool within_limits(const RotorVector& x) const noexcept {
    for (int i = 0; i < N; ++i)
      if (!(x(i) >= min_squared_(i) && x(i) <= max_squared_(i))) return false;
    return true;
  }

  // Weighted least squares over the free speeds, the fixed ones held:
  // (A_Fᵀ S² A_F + ε I) x_F = A_Fᵀ S² (W − A_B x_B); fixed rows become identity rows.
  void solve_free(const Wrench<Scalar>& wrench, const std::array<bool, N>& fixed,
                  RotorVector& x) const noexcept {
    Wrench<Scalar> residual = wrench;
    for (int i = 0; i < N; ++i)
      if (fixed[static_cast<std::size_t>(i)]) residual -= allocation_.col(i) * x(i);
    const AllocationMatrix weighted = weights_.asDiagonal() * allocation_;
    Eigen::Matrix<Scalar, N, N> normal = weighted.transpose().lazyProduct(weighted);
    RotorVector rhs = weighted.transpose() * (weights_.asDiagonal() * residual);
    if (N > 6) {
      const Scalar epsilon = Scalar(1e-10) * normal.diagonal().maxCoeff();
      normal.diagonal().array() += epsilon;
    }
    for (int i = 0; i < N; ++i) {
      if (!fixed[static_cast<std::size_t>(i)]) continue;
      normal.row(i).setZero();
      normal.col(i).setZero();
      normal(i, i) = Scalar(1);
      rhs(i) = x(i);
    }
    const Eigen::LDLT<Eigen::Matrix<Scalar, N, N>> ldlt(normal);
    const RotorVector solution = ldlt.solve(rhs);
    for (int i = 0; i < N; ++i)
      if (!fixed[static_cast<std::size_t>(i)]) x(i) = solution(i);
  }

  AllocationMatrix allocation_ = AllocationMatrix::Zero();
  InverseMatrix inverse_ = InverseMatrix::Zero();
  Vector6<Scalar> weights_ = Vector6<Scalar>::Ones();
  RotorVector min_squared_ = RotorVector::Zero();
  RotorVector max_squared_ = RotorVector::Zero();
  double condition_ = 0.0;
  bool configured_ = false;
};

}  // namespace control
}  // namespace hodyn
