// hodyn/physical_consistency.hpp — which inertial parameters some mass
// distribution has, and the nearest ones to those that no mass distribution
// has (Wensing, Kim & Slotine 2017, "Linear matrix inequalities for physically
// consistent inertial parameter identification"; docs/physical-consistency.md).
//
// A body's parameters π = (m, h, I) (hodyn/inertial_parameters.hpp: mass, first
// moment, rotational inertia about the frame origin) determine its
// pseudo-inertia, the second-moment matrix of the mass distribution
//
//   J(π) = ∫ (r; 1)(r; 1)ᵀ dm = [ Σ   h ]      Σ = ∫ r rᵀ dm = ½ tr(I) 1 − I,
//                               [ hᵀ  m ]      I = tr(Σ) 1 − Σ.
//
// J ⪰ 0 for every non-negative mass distribution, and J ⪰ 0 with m > 0 is
// reached by six point masses (docs: the construction); J ≻ 0 by a uniform
// solid ellipsoid. `check_physical_consistency` tests J ⪰ 0, the linear
// matrix inequality of the paper. It implies what the usual checks test —
// m ≥ 0, the rotational inertia about the centre of mass positive
// semi-definite — and also the triangle inequalities of its principal moments
// (I_a + I_b ≥ I_c), which `Model::set_body` does not test.
//
// Boundary: J ⪰ 0 with m = 0 forces h = 0 but lets Σ ⪰ 0 be anything; only
// Σ = 0 (the massless body) is a mass distribution, Σ ≠ 0 is the limit of a
// vanishing mass moving off to infinity. The check accepts it (the set J ⪰ 0
// is closed, so the projection below has a nearest point to return);
// `project_to_physically_consistent` with min_eigenvalue > 0 never returns it.
//
// Floating-point scalars only (float, double); fixed size, no heap, no
// exceptions; bad input gives a Status and, for the projection, a zero output.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include "hodyn/inertial_parameters.hpp"
#include "hodyn/status.hpp"

namespace hodyn {

template <class Scalar>
using PseudoInertia = Eigen::Matrix<Scalar, 4, 4>;

/// Default tolerance of `check_physical_consistency`: the smallest eigenvalue
/// of J may be as low as −tolerance × (largest |eigenvalue| of J); 1024 ε
/// (2.3e-13 in double, 1.2e-4 in float). Bodies on the boundary (a point mass,
/// a rod, a plate: J singular) built with from_mass_com_inertia, re-expressed
/// in a random frame with `transformed` and read with to_parameters reached
/// 86 ε (docs/physical-consistency.md). Data rounded to d digits need
/// ~10^−d.
template <class Scalar>
constexpr Scalar physical_consistency_tolerance() {
  return Scalar(1024) * std::numeric_limits<Scalar>::epsilon();
}

/// J(π) = [[½ tr(I) 1 − I, h], [hᵀ, m]] (any π, realisable or not).
template <class Derived>
PseudoInertia<typename Derived::Scalar> pseudo_inertia(const Eigen::MatrixBase<Derived>& p) {
  using Scalar = typename Derived::Scalar;
  static_assert(Derived::RowsAtCompileTime == 10 && Derived::ColsAtCompileTime == 1,
                "a body's parameters are a 10-vector");
  const Scalar half_trace = Scalar(0.5) * (p(4) + p(6) + p(9));
  PseudoInertia<Scalar> j;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      j(r, c) = (r == c ? half_trace : Scalar(0)) - p(inertia_parameter_index(r, c));
  for (int r = 0; r < 3; ++r) {
    j(r, 3) = p(1 + r);
    j(3, r) = p(1 + r);
  }
  j(3, 3) = p(0);
  return j;
}

/// π of a pseudo-inertia: m = J₃₃, h = J₀..₂,₃, I = tr(Σ) 1 − Σ, from the
/// symmetric part of J. The inverse of `pseudo_inertia` (a linear bijection
/// between R¹⁰ and the symmetric 4x4 matrices).
template <class Derived>
BodyParameters<typename Derived::Scalar> parameters_from_pseudo_inertia(
    const Eigen::MatrixBase<Derived>& j) {
  using Scalar = typename Derived::Scalar;
  static_assert(Derived::RowsAtCompileTime == 4 && Derived::ColsAtCompileTime == 4,
                "a pseudo-inertia is 4x4");
  const Scalar half(0.5);
  const Scalar trace_sigma = j(0, 0) + j(1, 1) + j(2, 2);
  BodyParameters<Scalar> p;
  p(0) = j(3, 3);
  for (int r = 0; r < 3; ++r) p(1 + r) = half * (j(r, 3) + j(3, r));
  for (int r = 0; r < 3; ++r)
    for (int c = r; c < 3; ++c)
      p(inertia_parameter_index(r, c)) =
          (r == c ? trace_sigma - j(r, r) : -half * (j(r, c) + j(c, r)));
  return p;
}

namespace detail {

template <class Derived>
bool all_parameters_finite(const Eigen::MatrixBase<Derived>& p) {
  for (Eigen::Index i = 0; i < p.size(); ++i)
    if (!std::isfinite(p(i))) return false;
  return true;
}

template <class Derived>
void require_real_body_parameters() {
  static_assert(std::is_floating_point<typename Derived::Scalar>::value,
                "physical consistency needs a floating-point scalar (float, double)");
  static_assert(Derived::RowsAtCompileTime == 10 && Derived::ColsAtCompileTime == 1,
                "a body's parameters are a 10-vector");
}

}  // namespace detail

/// kOk when J(π) ⪰ 0 within `tolerance` (relative: λ_min(J) ≥ −tolerance ×
/// max|λ(J)|, eigenvalues in the units of π, SI: kg, kg m, kg m²);
/// kNotPhysicallyConsistent otherwise; kNonFiniteInput for a NaN or Inf in π;
/// kNonFiniteResult if finite π overflow J; kInvalidArgument for a negative
/// or non-finite tolerance.
template <class Derived>
Status check_physical_consistency(const Eigen::MatrixBase<Derived>& p,
                                  typename Derived::Scalar tolerance =
                                      physical_consistency_tolerance<typename Derived::Scalar>()) {
  detail::require_real_body_parameters<Derived>();
  using Scalar = typename Derived::Scalar;
  if (!std::isfinite(tolerance) || tolerance < Scalar(0)) return Status::kInvalidArgument;
  if (!detail::all_parameters_finite(p)) return Status::kNonFiniteInput;
  const PseudoInertia<Scalar> j = pseudo_inertia(p);
  if (!detail::all_parameters_finite(j)) return Status::kNonFiniteResult;
  const Eigen::SelfAdjointEigenSolver<PseudoInertia<Scalar>> eigen(j, Eigen::EigenvaluesOnly);
  if (eigen.info() != Eigen::Success) return Status::kNonFiniteResult;
  const auto& lambda = eigen.eigenvalues();  // ascending
  const Scalar scale = std::fmax(std::fabs(lambda(0)), std::fabs(lambda(3)));
  return lambda(0) >= -tolerance * scale ? Status::kOk : Status::kNotPhysicallyConsistent;
}

/// `check_physical_consistency(p, tolerance) == Status::kOk`.
template <class Derived>
bool is_physically_consistent(const Eigen::MatrixBase<Derived>& p,
                              typename Derived::Scalar tolerance =
                                  physical_consistency_tolerance<typename Derived::Scalar>()) {
  return check_physical_consistency(p, tolerance) == Status::kOk;
}

/// Checks every body of a model's parameter vector (10 per body, tree order:
/// `model_parameters`) and returns the status of the first body that is not
/// kOk, its index in `failing_body` (−1 when all pass). A tolerance refused
/// gives kInvalidArgument with failing_body −1.
template <class Derived>
Status check_model_physical_consistency(
    const Eigen::MatrixBase<Derived>& p, int& failing_body,
    typename Derived::Scalar tolerance =
        physical_consistency_tolerance<typename Derived::Scalar>()) {
  static_assert(Derived::ColsAtCompileTime == 1 && Derived::RowsAtCompileTime > 0 &&
                    Derived::RowsAtCompileTime % 10 == 0,
                "a model's parameter vector has 10 entries per body");
  using Scalar = typename Derived::Scalar;
  failing_body = -1;
  if (!std::isfinite(tolerance) || tolerance < Scalar(0)) return Status::kInvalidArgument;
  for (int body = 0; body < Derived::RowsAtCompileTime / 10; ++body) {
    const Status s = check_physical_consistency(p.template segment<10>(10 * body), tolerance);
    if (s != Status::kOk) {
      failing_body = body;
      return s;
    }
  }
  return Status::kOk;
}

/// The parameters nearest to π whose pseudo-inertia has every eigenvalue
/// ≥ min_eigenvalue (≥ 0, in the units of π), nearest in the Frobenius norm of
/// J: ‖J(π) − J(π')‖_F, a norm on π because J is a linear bijection. It is
/// the eigenvalue clamp J + Σ_{λᵢ < μ} (μ − λᵢ) vᵢ vᵢᵀ (the projection onto
/// the convex set {J ⪰ μ 1}); π already there is returned unchanged. Not
/// invariant to a change of frame or of units (J mixes kg, kg m, kg m²);
/// docs/physical-consistency.md says why this metric and not the Riemannian
/// one of Lee & Park. kOk with the result in `projected`; else
/// kInvalidArgument (min_eigenvalue < 0 or not finite), kNonFiniteInput (NaN
/// or Inf in π) or kNonFiniteResult (overflow), and `projected` zero (the
/// massless body). `projected` may be π itself.
template <class Derived>
Status project_to_physically_consistent(const Eigen::MatrixBase<Derived>& p,
                                        typename Derived::Scalar min_eigenvalue,
                                        BodyParameters<typename Derived::Scalar>& projected) {
  detail::require_real_body_parameters<Derived>();
  using Scalar = typename Derived::Scalar;
  using Matrix4 = PseudoInertia<Scalar>;
  const BodyParameters<Scalar> input = p;  // before `projected` is written: it may be p
  projected.setZero();
  if (!std::isfinite(min_eigenvalue) || min_eigenvalue < Scalar(0)) return Status::kInvalidArgument;
  if (!detail::all_parameters_finite(input)) return Status::kNonFiniteInput;
  Matrix4 j = pseudo_inertia(input);
  if (!detail::all_parameters_finite(j)) return Status::kNonFiniteResult;
  const Eigen::SelfAdjointEigenSolver<Matrix4> eigen(j, Eigen::ComputeEigenvectors);
  if (eigen.info() != Eigen::Success) return Status::kNonFiniteResult;
  const auto& lambda = eigen.eigenvalues();  // ascending
  if (lambda(0) >= min_eigenvalue) {
    projected = input;
    return Status::kOk;
  }
  // Raise only the eigenvalues below μ, as a correction added to J: the part
  // of J already in the set is kept as given, not rebuilt as V Λ Vᵀ.
  for (int i = 0; i < 4 && lambda(i) < min_eigenvalue; ++i) {
    const auto v = eigen.eigenvectors().col(i);
    j.noalias() += (min_eigenvalue - lambda(i)) * (v * v.transpose());
  }
  const BodyParameters<Scalar> result = parameters_from_pseudo_inertia(j);
  if (!detail::all_parameters_finite(result)) return Status::kNonFiniteResult;
  projected = result;
  return Status::kOk;
}

}  // namespace hodyn
