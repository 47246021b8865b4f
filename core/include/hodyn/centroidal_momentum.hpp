// hodyn/centroidal_momentum.hpp — the centroidal momentum matrix A_G and its
// rate Ȧ_G (Orin & Goswami's centroidal dynamics; not in the seeds: what
// floating-base controllers use).
//
// The robot's spatial momentum about the world origin is h_O = Σ M_j V_j,
// M_j = Ad_{C_j}⁻ᵀ M_j^b Ad_{C_j}⁻¹ the body's inertia in the world. With
// V_j = J_j ν (jacobians.hpp), h_O = A_O ν with base block Σ_j M_j and joint
// column i M_i^c S_i, M_i^c the composite inertia of the bodies joint i moves.
// Moved to the centre of mass c (angular part first, as every hodyn wrench):
//   h_G = (k_G; l) = X_c h_O,  X_c (n; f) = (n − c × f; f),  A_G = X_c A_O,
// and, with Ṁ_j = −ad_{V_j}ᵀ M_j − M_j ad_{V_j} (d/dt Ad_C⁻¹ = −Ad_C⁻¹ ad_V),
//   Ȧ_O = [ Σ Ṁ_j | Ṁ_i^c S_i + M_i^c Ṡ_i ],  Ȧ_G = X_c Ȧ_O + Ẋ_c A_O,
//   Ẋ_c (n; f) = (−ċ × f; 0);  ḣ_G = A_G ν̇ + Ȧ_G ν.
// Reads a KinematicsData of any order (V_j^(0), S_i^(0..1)); zero heap. A ball
// joint has three columns M_i^c S_i,a, one per screw (KinematicsData::ball_screw).
#pragma once

#include <array>

#include <Eigen/Core>

#include "hodyn/detail/isa.hpp"
#include "hodyn/kinematics.hpp"
#include "hodyn/model.hpp"
#include "hodyn/spatial_inertia.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

template <class Tree, class Scalar = double>
struct CentroidalMomentumData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kNumDofs = TreeTraits<Tree>::kNumDofs;
  using Matrix = Eigen::Matrix<Scalar, 6, kNumDofs>;

  Matrix matrix = Matrix::Zero();                    ///< A_G: h_G = A_G ν
  Matrix matrix_derivative = Matrix::Zero();         ///< Ȧ_G
  Wrench<Scalar> momentum = Wrench<Scalar>::Zero();  ///< h_G = (k_G; l) for the kinematics' ν
  Vector3<Scalar> center_of_mass = Vector3<Scalar>::Zero();

  // ---- workspace: composite inertias and their rates, world frame ----
  std::array<Matrix6<Scalar>, kNumBodies> composite{};
  std::array<Matrix6<Scalar>, kNumBodies> composite_rate{};

  void clear_results() {
    matrix.setZero();
    matrix_derivative.setZero();
    momentum.setZero();
    center_of_mass.setZero();
  }
};

/// A_G, Ȧ_G and h_G on a KinematicsData (of any order ≥ 0).
template <class Tree, int MaxOrder, class Scalar>
Status centroidal_momentum(const Model<Tree, Scalar>& model,
                           const KinematicsData<Tree, MaxOrder, Scalar>& kinematics,
                           CentroidalMomentumData<Tree, Scalar>& data) noexcept {
  data.clear_results();
  if (kinematics.order < 0) return Status::kOrderOutOfRange;
  const Scalar mass = model.total_mass();
  if (!(ScalarTraits<Scalar>::primal(mass) > 0)) return Status::kInvalidModel;
  constexpr int kN = Tree::kNumBodies;
  Vector3<Scalar> moment = Vector3<Scalar>::Zero(), moment_rate = Vector3<Scalar>::Zero();
  Wrench<Scalar> momentum = Wrench<Scalar>::Zero();
  for (int j = 0; j < kN; ++j) {
    const Pose<Scalar>& pose = kinematics.body_pose[j];
    const SpatialInertia<Scalar> world = model.body_inertia(j).transformed(pose);
    const Twist<Scalar>& v = kinematics.body_twist[j][0];
    const Matrix6<Scalar> m = world.matrix();
    const Matrix6<Scalar> ad_v = ad_matrix<Scalar>(v);
    data.composite[j] = m;
    data.composite_rate[j] = -(ad_v.transpose() * m) - m * ad_v;
    momentum += world.momentum(v);
    const Vector3<Scalar> c = pose.act(model.body_inertia(j).com());
    moment += model.mass(j) * c;
    moment_rate += model.mass(j) * Vector3<Scalar>(angular(v).cross(c) + linear(v));
  }
  for (int j = kN - 1; j > 0; --j) {
    data.composite[Tree::kParent[j]] += data.composite[j];
    data.composite_rate[Tree::kParent[j]] += data.composite_rate[j];
  }
  const Vector3<Scalar> c = moment / mass;
  const Vector3<Scalar> c_dot = moment_rate / mass;
  // A_O and Ȧ_O in place, then X_c and Ẋ_c.
  typename CentroidalMomentumData<Tree, Scalar>::Matrix a_o, a_o_dot;
  if constexpr (!TreeTraits<Tree>::kFixedBase) {
    a_o.template leftCols<6>() = data.composite[0];
    a_o_dot.template leftCols<6>() = data.composite_rate[0];
  }
  for (int i = 1; i < kN; ++i) {
    detail::for_each_joint_screw(kinematics, i, [&](const auto& screw, int col) {
      a_o.col(col) = data.composite[i] * screw[0];
      a_o_dot.col(col) = data.composite_rate[i] * screw[0] + data.composite[i] * screw[1];
    });
  }
  const Matrix3<Scalar> cx = skew<Scalar>(c);
  const Matrix3<Scalar> cx_dot = skew<Scalar>(c_dot);
  data.matrix.template topRows<3>() = a_o.template topRows<3>() - cx * a_o.template bottomRows<3>();
  data.matrix.template bottomRows<3>() = a_o.template bottomRows<3>();
  data.matrix_derivative.template topRows<3>() = a_o_dot.template topRows<3>() -
                                                 cx * a_o_dot.template bottomRows<3>() -
                                                 cx_dot * a_o.template bottomRows<3>();
  data.matrix_derivative.template bottomRows<3>() = a_o_dot.template bottomRows<3>();
  data.momentum =
      spatial_vector<Scalar>(angular(momentum) - c.cross(linear(momentum)), linear(momentum));
  data.center_of_mass = c;
  if (!detail::all_finite(data.matrix) || !detail::all_finite(data.matrix_derivative) ||
      !detail::all_finite(data.momentum)) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
