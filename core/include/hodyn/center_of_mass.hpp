// hodyn/center_of_mass.hpp — the whole robot's centre of mass, its time
// derivatives of any order, its Jacobian and the Jacobian's rate (seed 004
// Rem. 3: the generalized gravity force is m J_comᵀ γ).
//
// On a KinematicsData of order r, `center_of_mass` computes
//   body_com[j][k]   c_j^(k), k = 0..r+1: body j's centre of mass in the world,
//                    ċ = ω × c + v per body (kinematics.hpp: point_derivatives);
//   position[k]      c^(k) = Σ m_j c_j^(k) / m;
//   jacobian         J_com (3 x (6+n); 3 x n for a fixed base), ċ = J_com ν, ν = (V₁; q̇):
//                    base block [−[c] 1₃], joint i (ω_i × h_i + m_i v_i)/m with
//                    S_i = (ω_i; v_i) and m_i, h_i = Σ m_j c_j over the bodies
//                    joint i moves (its subtree);
//   jacobian_derivative  J̇_com: base block [−[ċ] 0], joint i
//                    (ω̇_i × h_i + ω_i × ḣ_i + m_i v̇_i)/m.
// A ball joint has three columns, one per screw S_i,a (a = x, y, z of its
// child's frame: KinematicsData::ball_screw); the kinematics carry the balls'
// rotations, so nothing else changes.
// Zero heap; a robot without mass gives kInvalidModel and zero outputs.
#pragma once

#include <array>

#include <Eigen/Core>

#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/jacobians.hpp"
#include "hodyn/kinematics.hpp"
#include "hodyn/model.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

/// Results of `center_of_mass` (fixed size, reusable): entries 0..order+1 of
/// position and body_com are valid after a successful call of that order
/// (those above keep an earlier call's; a failed call zeroes everything).
template <class Tree, int MaxOrder, class Scalar = double>
struct CenterOfMassData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kNumDofs = TreeTraits<Tree>::kNumDofs;
  using PointDerivatives = std::array<Vector3<Scalar>, MaxOrder + 2>;
  using Jacobian = Eigen::Matrix<Scalar, 3, kNumDofs>;

  PointDerivatives position{};                      ///< c^(k), world
  Jacobian jacobian = Jacobian::Zero();             ///< J_com
  Jacobian jacobian_derivative = Jacobian::Zero();  ///< J̇_com
  Scalar total_mass{0};
  std::array<PointDerivatives, kNumBodies> body_com{};  ///< c_j^(k), world
  int order = -1;

  // ---- workspace: m_i, h_i, ḣ_i of every subtree ----
  std::array<Scalar, kNumBodies> subtree_mass{};
  std::array<Vector3<Scalar>, kNumBodies> subtree_moment{};
  std::array<Vector3<Scalar>, kNumBodies> subtree_moment_rate{};

  CenterOfMassData() { clear_results(); }
  void clear_results() {
    for (auto& p : position) p.setZero();
    for (auto& b : body_com)
      for (auto& p : b) p.setZero();
    jacobian.setZero();
    jacobian_derivative.setZero();
    total_mass = Scalar(0);
    order = -1;
  }
};

/// Centre of mass c^(0..order+1), J_com and J̇_com on kinematics of order ≥ `order`.
template <class Tree, int MaxOrder, class Scalar>
Status center_of_mass(const Model<Tree, Scalar>& model,
                      const KinematicsData<Tree, MaxOrder, Scalar>& kinematics,
                      CenterOfMassData<Tree, MaxOrder, Scalar>& data, int order) noexcept {
  if (order < 0 || order > MaxOrder || order > kinematics.order) {
    data.clear_results();
    return Status::kOrderOutOfRange;
  }
  constexpr int kN = Tree::kNumBodies;
  using V3 = detail::V3<Scalar>;
  const Scalar mass = model.total_mass();
  if (!(ScalarTraits<Scalar>::primal(mass) > 0)) {
    data.clear_results();
    return Status::kInvalidModel;
  }
  // In the small 3-vectors of detail/small_algebra.hpp: with Eigen's
  // Vector3 this function packed and spilled odd-sized vectors (store
  // forwarding stalls: 70 % of the Jacobians-and-J_com benchmark).
  const auto angular_of = [](const Twist<Scalar>& t) { return V3{t(0), t(1), t(2)}; };
  const auto linear_of = [](const Twist<Scalar>& t) { return V3{t(3), t(4), t(5)}; };
  const auto store = [](const V3& x, Vector3<Scalar>& out) {
    out(0) = x.x;
    out(1) = x.y;
    out(2) = x.z;
  };
  const int n = order + 1;
  for (int j = 0; j < kN; ++j) {
    const auto& v = kinematics.body_twist[j];
    // c_j^(0) = C_j c_j (body frame), then ċ = ω × c + v (point_derivatives)
    const Vector3<Scalar> c_body = model.body_inertia(j).com();
    std::array<V3, MaxOrder + 2> x;
    x[0] = V3::from(kinematics.body_pose[j].act(c_body));
    for (int k = 0; k < n; ++k) {
      V3 sum = linear_of(v[static_cast<std::size_t>(k)]) + detail::cross(angular_of(v[0]), x[k]);
      for (int i = 1; i <= k; ++i)
        sum += binomial<Scalar>(k, i) *
               detail::cross(angular_of(v[static_cast<std::size_t>(i)]), x[k - i]);
      x[k + 1] = sum;
    }
    for (int k = 0; k <= n; ++k) store(x[k], data.body_com[j][static_cast<std::size_t>(k)]);
    const Scalar m = model.mass(j);
    data.subtree_mass[j] = m;
    store(m * x[0], data.subtree_moment[j]);
    store(m * x[1], data.subtree_moment_rate[j]);
  }
  for (int j = kN - 1; j > 0; --j) {  // backward pass: subtree sums
    const int p = Tree::kParent[j];
    data.subtree_mass[p] += data.subtree_mass[j];
    data.subtree_moment[p] += data.subtree_moment[j];
    data.subtree_moment_rate[p] += data.subtree_moment_rate[j];
  }
  const Scalar inverse_mass = Scalar(1) / mass;
  for (int k = 0; k <= n; ++k) {
    V3 sum{};
    for (int j = 0; j < kN; ++j)
      sum += model.mass(j) * V3::from(data.body_com[j][static_cast<std::size_t>(k)]);
    store(inverse_mass * sum, data.position[static_cast<std::size_t>(k)]);
  }
  const Vector3<Scalar>& c = data.position[0];
  const Vector3<Scalar>& c_dot = data.position[1];
  if constexpr (!TreeTraits<Tree>::kFixedBase) {  // ċ = ω × c + v + …: the base columns
    data.jacobian.template leftCols<3>() = -skew<Scalar>(c);
    data.jacobian.template block<3, 3>(0, 3).setIdentity();
    data.jacobian_derivative.template leftCols<3>() = -skew<Scalar>(c_dot);
    data.jacobian_derivative.template block<3, 3>(0, 3).setZero();
  }
  for (int i = 1; i < kN; ++i) {
    const V3 h = V3::from(data.subtree_moment[i]);
    const V3 h_dot = V3::from(data.subtree_moment_rate[i]);
    const Scalar& m = data.subtree_mass[i];
    detail::for_each_joint_screw(kinematics, i, [&](const auto& screw, int col) {
      const V3 w = angular_of(screw[0]), u = linear_of(screw[0]);
      const V3 w_dot = angular_of(screw[1]), u_dot = linear_of(screw[1]);
      const V3 column = inverse_mass * (detail::cross(w, h) + m * u);
      const V3 column_rate =
          inverse_mass * (detail::cross(w_dot, h) + detail::cross(w, h_dot) + m * u_dot);
      data.jacobian(0, col) = column.x;
      data.jacobian(1, col) = column.y;
      data.jacobian(2, col) = column.z;
      data.jacobian_derivative(0, col) = column_rate.x;
      data.jacobian_derivative(1, col) = column_rate.y;
      data.jacobian_derivative(2, col) = column_rate.z;
    });
  }
  data.total_mass = mass;
  bool finite = detail::all_finite(data.jacobian) && detail::all_finite(data.jacobian_derivative);
  for (int k = 0; k <= order + 1; ++k) finite = finite && detail::all_finite(data.position[k]);
  if (!finite) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = order;
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
