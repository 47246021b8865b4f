// hodyn/reference/table3_trajectory.hpp — the reference motion of seed 000 §7
// (Table 3) for the 12-DoF aerial manipulator, with exact time derivatives.
//
// Table 3 leaves several details out (digest 000 §10.3, erratum E6); hodyn
// reads them as
//   base position  x(t) = c + ρ (cos(2πt/T_c), sin(2πt/T_c), 0),  ρ = 1 m,
//                  T_c = 20 s, centre c = 0 (so z = 0),
//   base yaw       ψ(t) = A sin(2πt/T_ψ),  A = 25°, T_ψ = 30 s, roll = pitch = 0,
//                  so C₁(t) = (R_z(ψ(t)), x(t)),
//   joints         q_j(t) = q0_j + η_j/2 (1 − cos(π t/T)),  T = 30 s,
//                  q0 = (10, −5, 15, −10, 7, −12)°, η = (60, 50, 40, 55, 45, 35)°
//                  for hodyn joints 1..6 (paper bodies B2..B7),
//   gravity        g = 9.81 m/s² (a field here for completeness; the model
//                  carries the gravity the dynamics use).
//
// Every derivative is closed form: dᵏ/dtᵏ sin(wt) = wᵏ sin(wt + kπ/2) with the
// phase taken exactly (k mod 4). The spatial base twist [V₁] = Ċ₁ C₁⁻¹ is
// (ω; v) with ω = ψ̇ e_z and v = ẋ − ω × x, so by Leibniz
//   ω^(k) = ψ^(k+1) e_z,   v^(k) = x^(k+1) − Σ_{i=0..k} C(k,i) ω^(i) × x^(k−i).
//
// Fixed size, no heap, no exceptions; Scalar may be double, float or any type
// with sin/cos found by argument-dependent lookup. The parameters are doubles
// (run-time values); they are converted to Scalar once per use, so a float
// trajectory rounds them exactly once.
#pragma once

#include <array>
#include <cmath>
#include <limits>

#include "hodyn/binomial.hpp"
#include "hodyn/models/aerial_manipulator.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/pose.hpp"
#include "hodyn/spatial_algebra.hpp"

namespace hodyn {

/// Table 3 reference trajectory of the aerial manipulator (see the file comment
/// for the formulas and for how the details Table 3 leaves out are read).
struct Table3Trajectory {
  static constexpr int kNumJoints = AerialManipulatorTree::kNumBodies - 1;
  /// Highest derivative order k the accessors answer (base_twist(t, k) reads
  /// x^(k+1), so k + 1 ≤ kMaxDerivative there). Orders outside [0, bound] give NaN.
  static constexpr int kMaxDerivative = 24;
  static_assert(kMaxDerivative <= kMaxBinomialRow, "binomial table too small");

  static constexpr double kPi = 3.14159265358979323846;
  static constexpr double kDegree = kPi / 180.0;

  template <class Scalar>
  using JointVector = Eigen::Matrix<Scalar, kNumJoints, 1>;

  // ---- parameters (SI units, angles in rad); defaults: Table 3 as read above ----
  double circle_radius = 1.0;                  ///< ρ (m)
  double circle_period = 20.0;                 ///< T_c (s): "trajectory phase 2π/20 rad/s"
  std::array<double, 3> circle_centre{0.0, 0.0, 0.0};  ///< c (m); z = c_z
  double yaw_amplitude = 25.0 * kDegree;       ///< A (rad)
  double yaw_period = 30.0;                    ///< T_ψ (s): "yaw frequency 2π/30 rad/s"
  double horizon = 30.0;                       ///< T (s): joint ramp time and run length
  double time_step = 0.01;                     ///< Δt (s) of the paper's simulation
  double gravity = 9.81;                       ///< g (m/s²), not given in Table 3
  /// q0_j (rad), hodyn joints 1..6 = paper bodies B2..B7.
  std::array<double, kNumJoints> q0{10.0 * kDegree, -5.0 * kDegree, 15.0 * kDegree,
                                    -10.0 * kDegree, 7.0 * kDegree,  -12.0 * kDegree};
  /// η_j (rad): joint j travels from q0_j at t = 0 to q0_j + η_j at t = T.
  std::array<double, kNumJoints> eta{60.0 * kDegree, 50.0 * kDegree, 40.0 * kDegree,
                                     55.0 * kDegree, 45.0 * kDegree, 35.0 * kDegree};

  // ---- accessors: k-th time derivative at time t, 0 ≤ k ≤ kMaxDerivative ----

  /// x^(k)(t), the base position (m/sᵏ).
  template <class Scalar>
  Vector3<Scalar> base_position(Scalar t, int k = 0) const {
    if (!order_ok(k)) return Vector3<Scalar>::Constant(nan<Scalar>());
    const Scalar w = Scalar(2.0 * kPi / circle_period);
    using std::cos;
    using std::sin;
    const Scalar s = sin(w * t), c = cos(w * t);
    const Scalar wk = power<Scalar>(2.0 * kPi / circle_period, k);
    const Scalar rho = Scalar(circle_radius);
    Vector3<Scalar> x(rho * cos_derivative(s, c, wk, k), rho * sin_derivative(s, c, wk, k),
                      Scalar(0));
    if (k == 0) x += Vector3<Scalar>(Scalar(circle_centre[0]), Scalar(circle_centre[1]),
                                     Scalar(circle_centre[2]));
    return x;
  }

  /// ψ^(k)(t), the base yaw (rad/sᵏ).
  template <class Scalar>
  Scalar yaw(Scalar t, int k = 0) const {
    if (!order_ok(k)) return nan<Scalar>();
    const Scalar w = Scalar(2.0 * kPi / yaw_period);
    using std::cos;
    using std::sin;
    const Scalar s = sin(w * t), c = cos(w * t);
    return Scalar(yaw_amplitude) *
           sin_derivative(s, c, power<Scalar>(2.0 * kPi / yaw_period, k), k);
  }

  /// ω^(k)(t) = ψ^(k+1) e_z, the base angular velocity (world frame), k + 1 ≤ kMaxDerivative.
  template <class Scalar>
  Vector3<Scalar> base_angular_velocity(Scalar t, int k = 0) const {
    return Vector3<Scalar>(Scalar(0), Scalar(0), yaw(t, k + 1));
  }

  /// C₁(t) = (R_z(ψ), x): roll = pitch = 0.
  template <class Scalar>
  Pose<Scalar> base_pose(Scalar t) const {
    using std::cos;
    using std::sin;
    const Scalar psi = yaw(t, 0);
    const Scalar c = cos(psi), s = sin(psi);
    Pose<Scalar> pose;
    pose.rotation << c, -s, Scalar(0), s, c, Scalar(0), Scalar(0), Scalar(0), Scalar(1);
    pose.translation = base_position(t, 0);
    return pose;
  }

  /// V₁^(k)(t), the k-th derivative of the spatial base twist (ω; v), k + 1 ≤ kMaxDerivative.
  template <class Scalar>
  Twist<Scalar> base_twist(Scalar t, int k = 0) const {
    if (k < 0 || k + 1 > kMaxDerivative) return Twist<Scalar>::Constant(nan<Scalar>());
    std::array<Vector3<Scalar>, kMaxDerivative + 1> x;
    std::array<Scalar, kMaxDerivative + 1> psi;
    for (int i = 0; i <= k + 1; ++i) {
      x[static_cast<std::size_t>(i)] = base_position(t, i);
      psi[static_cast<std::size_t>(i)] = yaw(t, i);
    }
    return twist_from(x.data(), psi.data(), k);
  }

  /// q_j^(k)(t) of hodyn joint j + 1 (j = 0..5), rad/sᵏ.
  template <class Scalar>
  Scalar joint(int j, Scalar t, int k = 0) const {
    if (!order_ok(k) || j < 0 || j >= kNumJoints) return nan<Scalar>();
    const auto jj = static_cast<std::size_t>(j);
    const Scalar w = Scalar(kPi / horizon);
    using std::cos;
    using std::sin;
    const Scalar s = sin(w * t), c = cos(w * t);
    const Scalar half_eta = Scalar(0.5 * eta[jj]);
    if (k == 0) return Scalar(q0[jj]) + half_eta * (Scalar(1) - c);
    return -half_eta * cos_derivative(s, c, power<Scalar>(kPi / horizon, k), k);
  }

  /// q^(k)(t) of all six joints.
  template <class Scalar>
  JointVector<Scalar> joints(Scalar t, int k = 0) const {
    JointVector<Scalar> q;
    for (int j = 0; j < kNumJoints; ++j) q(j) = joint(j, t, k);
    return q;
  }

  /// The inputs of inverse dynamics of order `order` at time t: base_pose,
  /// base_twist[0..order+1] and q[0..order+2]. `order` is clamped to
  /// [0, MaxOrder]; entries above it are left untouched.
  template <int MaxOrder, class Scalar = double>
  void sample(Scalar t, int order,
              MotionDerivatives<AerialManipulatorTree, MaxOrder, Scalar>& out) const {
    static_assert(MaxOrder + 2 <= kMaxDerivative, "raise Table3Trajectory::kMaxDerivative");
    const int r = order < 0 ? 0 : (order > MaxOrder ? MaxOrder : order);
    std::array<Vector3<Scalar>, MaxOrder + 3> x;
    std::array<Scalar, MaxOrder + 3> psi;
    for (int i = 0; i <= r + 2; ++i) {
      x[static_cast<std::size_t>(i)] = base_position(t, i);
      psi[static_cast<std::size_t>(i)] = yaw(t, i);
    }
    out.base_pose = base_pose(t);
    for (int k = 0; k <= r + 1; ++k)
      out.base_twist[static_cast<std::size_t>(k)] = twist_from(x.data(), psi.data(), k);
    for (int k = 0; k <= r + 2; ++k) out.q[static_cast<std::size_t>(k)] = joints(t, k);
  }

 private:
  static constexpr bool order_ok(int k) { return k >= 0 && k <= kMaxDerivative; }

  template <class Scalar>
  static Scalar nan() {
    return Scalar(std::numeric_limits<double>::quiet_NaN());
  }

  /// wᵏ, computed in double and rounded once to Scalar.
  template <class Scalar>
  static Scalar power(double w, int k) {
    return Scalar(std::pow(w, static_cast<double>(k)));
  }

  /// dᵏ/dtᵏ sin(wt) from s = sin(wt), c = cos(wt), wk = wᵏ.
  template <class Scalar>
  static Scalar sin_derivative(const Scalar& s, const Scalar& c, const Scalar& wk, int k) {
    switch (k % 4) {
      case 0: return wk * s;
      case 1: return wk * c;
      case 2: return -wk * s;
      default: return -wk * c;
    }
  }

  /// dᵏ/dtᵏ cos(wt).
  template <class Scalar>
  static Scalar cos_derivative(const Scalar& s, const Scalar& c, const Scalar& wk, int k) {
    switch (k % 4) {
      case 0: return wk * c;
      case 1: return -wk * s;
      case 2: return -wk * c;
      default: return wk * s;
    }
  }

  /// V₁^(k) from x^(0..k+1) and ψ^(0..k+1) (Leibniz, see the file comment).
  template <class Scalar>
  static Twist<Scalar> twist_from(const Vector3<Scalar>* x, const Scalar* psi, int k) {
    Vector3<Scalar> v = x[k + 1];
    for (int i = 0; i <= k; ++i) {
      const Vector3<Scalar> omega_i(Scalar(0), Scalar(0), psi[i + 1]);
      v -= binomial<Scalar>(k, i) * omega_i.cross(x[k - i]);
    }
    // Entry by entry: spatial_vector<float>'s comma initializer trips GCC 12's
    // -Warray-bounds (a packet load from a Vector3f that can never run).
    Twist<Scalar> twist;
    twist(0) = Scalar(0);
    twist(1) = Scalar(0);
    twist(2) = psi[k + 1];
    twist(3) = v(0);
    twist(4) = v(1);
    twist(5) = v(2);
    return twist;
  }
};

}  // namespace hodyn
