// hodyn/mass_matrix_derivatives.hpp — M̄ and its time derivatives M̄^(1..n) by
// the composite-rigid-body recursion in the world frame (seed 001 eq. 46 and
// its derivatives; seed 004 §VI for the Jacobian columns).
//
// With the world joint screws S_i^(k) of forward_kinematics (the columns of
// the Jacobians; the base's columns are constant unit twists) and the world
// composite inertias M^C_i of the subtree of body i,
//   M̄_{l,i} = S_lᵀ M^C_i S_i      (l = i or an ancestor of i; 0 otherwise),
// so, with F_i^(p) = (M^C_i S_i)^(p) = Σ_b C(p,b) M^C_i^(b) S_i^(p−b),
//   M̄^(n)_{l,i} = Σ_a C(n,a) (S_l^(a))ᵀ F_i^(n−a),
// and the floating base's rows are F_i^(n) and its block M^C_0^(n).
// A body's world inertia moves with its twist V = (ω; v) as Ṁ = −ad_Vᵀ M − M ad_V,
// on its ten parameters (mass m, first moment h, rotational inertia I about
// the world origin; spatial_inertia.hpp):
//   ḣ = ω × h + m v,   İ = [ω] I − I [ω] + 2 (h·v) 1 − v hᵀ − h vᵀ,
// linear in V, so the k-th derivatives follow by Leibniz' rule from
// V^(0..n−1), and the composites are sums over the subtree at every order.
// Cost O(N n² + D_tree n²) on top of the kinematics (D_tree: pairs of related
// joints), against O(N n² D²) for the dense closed forms
// (closed_form_derivatives.hpp), which also give C^(n), h^(n), g^(n).
//
// Ball joints: each of a ball's three screws S_x, S_y, S_z (the kinematics'
// ball_screw, turning with the child: Ṡ_i = ad_{V_j} S_i) is a column of its
// own, with the same sums; a tree of 1-DoF joints keeps its own loop.
//
// Reads KinematicsData of order ≥ max(order − 1, 0) (S^(0..order),
// V^(0..order−1)). No heap; a Status and zero outputs on bad arguments.
#pragma once

#include <array>
#include <type_traits>

#include <Eigen/Core>

#include "hodyn/binomial.hpp"
#include "hodyn/detail/compile_time.hpp"
#include "hodyn/detail/isa.hpp"
#include "hodyn/detail/small_algebra.hpp"
#include "hodyn/detail/validation.hpp"
#include "hodyn/kinematics.hpp"
#include "hodyn/model.hpp"
#include "hodyn/spatial_algebra.hpp"
#include "hodyn/status.hpp"
#include "hodyn/symmetric_matrix3.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
HODYN_ISA_NAMESPACE_BEGIN

template <class Tree, int MaxOrder, class Scalar = double>
struct MassMatrixDerivativesData {
  static constexpr int kNumBodies = Tree::kNumBodies;
  static constexpr int kDofs = TreeTraits<Tree>::kNumDofs;
  using Matrix = Eigen::Matrix<Scalar, kDofs, kDofs>;

  // ---- results, entries 0..order ----
  std::array<Matrix, MaxOrder + 1> mass_matrix{};  ///< M̄^(n)
  int order = -1;  ///< order of the last successful call, −1 if none

  // ---- workspace: world composite inertias of each subtree, derivatives 0..order ----
  struct Composite {
    Scalar mass{0};                                 ///< m (its derivatives are zero)
    detail::V3<Scalar> first_moment{};              ///< h^(k)
    SymmetricMatrix3<Scalar> rotational_inertia{};  ///< I^(k), about the world origin
  };
  std::array<std::array<Composite, MaxOrder + 1>, kNumBodies> composite{};
  std::array<Wrench<Scalar>, MaxOrder + 1> force{};  ///< F_i^(p) of the body in hand

  MassMatrixDerivativesData() { clear_results(); }
  /// Zeroes every M̄^(n) and marks the data empty (bad arguments, non-finite results).
  void clear_results() {
    for (auto& m : mass_matrix) m.setZero();
    order = -1;
  }
};

HODYN_ISA_NAMESPACE_END
namespace detail {
HODYN_ISA_NAMESPACE_BEGIN

/// related[l][i]: joint l moves body i or joint i moves body l (one body is
/// the other or its ancestor), i.e. M̄_{l,i} can be non-zero.
template <class Tree>
constexpr std::array<std::array<bool, Tree::kNumBodies>, Tree::kNumBodies> related_joints() {
  std::array<std::array<bool, Tree::kNumBodies>, Tree::kNumBodies> t{};
  for (int i = 0; i < Tree::kNumBodies; ++i)
    for (int b = i; b >= 0; b = Tree::kParent[b]) t[b][i] = t[i][b] = true;
  return t;
}

/// M X on the ten parameters: (I ω + h × v; m v − h × ω).
template <class C, class S>
HODYN_ALWAYS_INLINE SV<S> composite_times(const C& c, const SV<S>& x) {
  return {c.rotational_inertia * x.ang + cross(c.first_moment, x.lin),
          c.mass * x.lin - cross(c.first_moment, x.ang)};
}

/// The recursion of mass_matrix_derivatives (arguments checked); FixedOrder ≥ 0
/// makes the order a compile-time constant, so the Leibniz sums unroll.
template <int FixedOrder, class Tree, int MaxOrder, class Scalar>
Status mass_matrix_derivatives_kernel(int run_order, const Model<Tree, Scalar>& model,
                                      const KinematicsData<Tree, MaxOrder, Scalar>& kinematics,
                                      MassMatrixDerivativesData<Tree, MaxOrder, Scalar>& data) {
  using S = Scalar;
  using ::hodyn::detail::SV;
  using ::hodyn::detail::V3;
  using Sym3 = SymmetricMatrix3<S>;
  using Traits = TreeTraits<Tree>;
  constexpr int kN = Tree::kNumBodies;
  const int order = FixedOrder >= 0 ? FixedOrder : run_order;
  data.order = -1;  // every entry 0..order is written below: no clearing pass

  // Each body's world inertia and its derivatives (Leibniz on Ṁ = D(V, M)).
  for (int j = 0; j < kN; ++j) {
    auto& c = data.composite[j];
    // World parameters (spatial_inertia.hpp `transformed`, on symmetric storage):
    // h = R h_b + m p,  I = R I_b Rᵀ − (R h_b pᵀ + p (R h_b)ᵀ) + 2 (R h_b · p) 1 − m [p]².
    const SpatialInertia<S>& body = model.body_inertia(j);
    const Pose<S>& pose = kinematics.body_pose[j];
    const detail::M3<S> r = detail::M3<S>::from(pose.rotation);
    const V3<S> p = V3<S>::from(pose.translation);
    const S m = body.mass;
    const V3<S> rh = r * V3<S>::from(body.first_moment);
    Sym3 world = Sym3::from_matrix(body.rotational_inertia).congruence(r);
    const S rhp = S(2) * dot(rh, p), pp = m * dot(p, p);
    world.xx += rhp + pp - S(2) * rh.x * p.x - m * p.x * p.x;
    world.yy += rhp + pp - S(2) * rh.y * p.y - m * p.y * p.y;
    world.zz += rhp + pp - S(2) * rh.z * p.z - m * p.z * p.z;
    world.xy -= rh.x * p.y + p.x * rh.y + m * p.x * p.y;
    world.xz -= rh.x * p.z + p.x * rh.z + m * p.x * p.z;
    world.yz -= rh.y * p.z + p.y * rh.z + m * p.y * p.z;
    c[0].mass = m;
    c[0].first_moment = rh + m * p;
    c[0].rotational_inertia = world;
    const auto& v = kinematics.body_twist[j];
    for (int k = 0; k < order; ++k) {
      V3<S> h = m * V3<S>::from(linear(v[k]));
      Sym3 inertia{};
      for (int i = 0; i <= k; ++i) {
        const V3<S> w = V3<S>::from(angular(v[i]));
        const V3<S> u = V3<S>::from(linear(v[i]));
        const V3<S>& hx = c[k - i].first_moment;
        // [ω] I − I [ω] + 2 (h·v) 1 − v hᵀ − h vᵀ
        Sym3 t = c[k - i].rotational_inertia.skew_commutator(w);
        const S hu = dot(hx, u);
        t.xx += S(2) * (hu - u.x * hx.x);
        t.yy += S(2) * (hu - u.y * hx.y);
        t.zz += S(2) * (hu - u.z * hx.z);
        t.xy -= u.x * hx.y + hx.x * u.y;
        t.xz -= u.x * hx.z + hx.x * u.z;
        t.yz -= u.y * hx.z + hx.y * u.z;
        if (i == 0 || i == k) {  // C(k, 0) = C(k, k) = 1
          h += cross(w, hx);
          inertia += t;
        } else {
          const S b = binomial<S>(k, i);
          h += b * cross(w, hx);
          inertia += t.scaled(b);
        }
      }
      c[k + 1].mass = S(0);
      c[k + 1].first_moment = h;
      c[k + 1].rotational_inertia = inertia;
    }
  }
  // Subtree sums, children before parents.
  for (int j = kN - 1; j > 0; --j) {
    auto& p = data.composite[Tree::kParent[j]];
    const auto& c = data.composite[j];
    for (int k = 0; k <= order; ++k) {
      p[k].mass += c[k].mass;
      p[k].first_moment += c[k].first_moment;
      p[k].rotational_inertia += c[k].rotational_inertia;
    }
  }
  // Joint columns: F_i^(p), then S_l^(a)ᵀ F_i^(n−a) up the ancestors.
  if constexpr (Traits::kSingleDofJoints) {
    for (int i = 1; i < kN; ++i) {
      const auto& s = kinematics.joint_screw[i];
      const auto& c = data.composite[i];
      for (int p = 0; p <= order; ++p) {
        SV<S> f = detail::composite_times(c[0], SV<S>::from(s[p]));
        for (int b = 1; b <= p; ++b) {
          const SV<S> x = detail::composite_times(c[b], SV<S>::from(s[p - b]));
          const S w = binomial<S>(p, b);
          f.ang += w * x.ang;
          f.lin += w * x.lin;
        }
        data.force[p] = f.eigen();
      }
      const int col = Traits::joint_dof(i);
      for (int l = i; l > 0; l = Tree::kParent[l]) {
        const int row = Traits::joint_dof(l);
        const auto& sl = kinematics.joint_screw[l];
        for (int n = 0; n <= order; ++n) {
          S sum = sl[0].dot(data.force[n]);
          for (int a = 1; a <= n; ++a) sum += binomial<S>(n, a) * sl[a].dot(data.force[n - a]);
          data.mass_matrix[n](row, col) = sum;
          data.mass_matrix[n](col, row) = sum;
        }
      }
      // Joints on other branches: no shared subtree, M̄_{l,i} = 0.
      constexpr auto kRelated = detail::related_joints<Tree>();
      for (int l = 1; l < kN; ++l)
        if (!kRelated[l][i])
          for (int n = 0; n <= order; ++n) data.mass_matrix[n](Traits::joint_dof(l), col) = S(0);
      if constexpr (!Traits::kFixedBase)  // base rows: S_base = unit twists, constant
        for (int n = 0; n <= order; ++n) {
          data.mass_matrix[n].template block<6, 1>(0, col) = data.force[n];
          data.mass_matrix[n].template block<1, 6>(col, 0) = data.force[n].transpose();
        }
    }
  } else {
    // The same with several columns per joint: a ball's three screws S_x, S_y,
    // S_z (kinematics' ball_screw, Ṡ_i = ad_{V_j} S_i), each a column of its
    // own and, at every ancestor ball, three rows.
    constexpr auto kRelated = detail::related_joints<Tree>();
    for (int i = 1; i < kN; ++i) {
      const auto& c = data.composite[i];
      detail::for_each_joint_screw(kinematics, i, [&](const auto& s, int col) {
        for (int p = 0; p <= order; ++p) {
          SV<S> f = detail::composite_times(c[0], SV<S>::from(s[p]));
          for (int b = 1; b <= p; ++b) {
            const SV<S> x = detail::composite_times(c[b], SV<S>::from(s[p - b]));
            const S w = binomial<S>(p, b);
            f.ang += w * x.ang;
            f.lin += w * x.lin;
          }
          data.force[p] = f.eigen();
        }
        for (int l = i; l > 0; l = Tree::kParent[l])
          detail::for_each_joint_screw(kinematics, l, [&](const auto& sl, int row) {
            for (int n = 0; n <= order; ++n) {
              S sum = sl[0].dot(data.force[n]);
              for (int a = 1; a <= n; ++a) sum += binomial<S>(n, a) * sl[a].dot(data.force[n - a]);
              data.mass_matrix[n](row, col) = sum;
              data.mass_matrix[n](col, row) = sum;
            }
          });
        for (int l = 1; l < kN; ++l)
          if (!kRelated[l][i])
            for (int e = 0; e < joint_dofs(Tree::kJoint[l]); ++e)
              for (int n = 0; n <= order; ++n)
                data.mass_matrix[n](Traits::joint_dof(l) + e, col) = S(0);
        if constexpr (!Traits::kFixedBase)
          for (int n = 0; n <= order; ++n) {
            data.mass_matrix[n].template block<6, 1>(0, col) = data.force[n];
            data.mass_matrix[n].template block<1, 6>(col, 0) = data.force[n].transpose();
          }
      });
    }
  }
  if constexpr (!Traits::kFixedBase)
    for (int n = 0; n <= order; ++n) {
      const auto& c = data.composite[0][n];
      const Matrix3<S> hx = skew<S>(c.first_moment.eigen());
      auto& m = data.mass_matrix[n];
      m.template topLeftCorner<3, 3>() = c.rotational_inertia.matrix();
      m.template block<3, 3>(0, 3) = hx;
      m.template block<3, 3>(3, 0) = -hx;
      m.template block<3, 3>(3, 3) = c.mass * Matrix3<S>::Identity();
    }
  bool finite = true;
  for (int n = 0; n <= order; ++n) {
    if constexpr (std::is_same<S, double>::value || std::is_same<S, float>::value)
      finite = finite && detail::finite_lanes(data.mass_matrix[n].data(),
                                              Traits::kNumDofs * Traits::kNumDofs);
    else
      finite = finite && detail::all_finite(data.mass_matrix[n]);
  }
  if (!finite) {
    data.clear_results();
    return Status::kNonFiniteResult;
  }
  data.order = order;
  return Status::kOk;
}

HODYN_ISA_NAMESPACE_END
}  // namespace detail
HODYN_ISA_NAMESPACE_BEGIN

/// M̄^(n), n = 0..order, from the kinematics (see the file comment).
template <class Tree, int MaxOrder, class Scalar>
Status mass_matrix_derivatives(const Model<Tree, Scalar>& model,
                               const KinematicsData<Tree, MaxOrder, Scalar>& kinematics,
                               MassMatrixDerivativesData<Tree, MaxOrder, Scalar>& data,
                               int order) noexcept {
  if (order < 0 || order > MaxOrder || kinematics.order < 0 || kinematics.order < order - 1) {
    data.clear_results();
    return Status::kOrderOutOfRange;
  }
  switch (order) {
    case 0:
      return detail::mass_matrix_derivatives_kernel<0>(0, model, kinematics, data);
    case 1:
      if constexpr (MaxOrder >= 1)
        return detail::mass_matrix_derivatives_kernel<1>(1, model, kinematics, data);
      break;
    case 2:
      if constexpr (MaxOrder >= 2)
        return detail::mass_matrix_derivatives_kernel<2>(2, model, kinematics, data);
      break;
    case 3:
      if constexpr (MaxOrder >= 3)
        return detail::mass_matrix_derivatives_kernel<3>(3, model, kinematics, data);
      break;
    default:
      break;
  }
  return detail::mass_matrix_derivatives_kernel<-1>(order, model, kinematics, data);
}

HODYN_ISA_NAMESPACE_END
}  // namespace hodyn
