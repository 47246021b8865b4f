// tests/support/reference_dynamics.hpp — independent, dense reference inverse
// dynamics of a floating-base tree, for use as a test oracle.
//
// Written straight from the textbook definitions with explicit 4x4 poses and
// dense 6x6 adjoints and inertias, and with NO recursive kinematics:
//
//   F_0 = C1 · (A0_0)^-1,   F_j = F_p(j) · expm([Y_j] q_j),   C_j = F_j · A0_j
//   [V_j] = Ċ_j C_j^-1                      (differentiating the pose series)
//   M_j   = Ad_{C_j^-1}^T Mb_j Ad_{C_j^-1}
//   Π_j   = M_j V_j,   Π̇_j by differentiating the series
//   W_j   = Π̇_j − M_j G − W_app,j + Σ_{c ∈ children(j)} W_c     (j = N−1 … 0)
//   S_j   = Ad_{F_j} Y_j,   Q1 = W_0,   τ_j = S_j^T W_j  (j ≥ 1)
//
// Conventions are the project's (DESIGN.md §2): spatial twists (ω; v) in the
// world frame, wrenches (n; f) with the moment about the world origin,
// Ad_C = [R 0; [p]R R], Mb = [[I_c − m[c]², m[c]], [−m[c], m I]] (CoM c in
// the body frame), gravity wrench M G with G = (0,0,0, g_lin).
//
// The scalar S of the dynamics is meant to be a truncated Taylor series
// (support/taylor.hpp) in time t around the evaluation instant. EXACTNESS: with
// degree-D series the pose series are exact through t^D, twists through t^{D−1}
// (one differentiation), and Π̇, the wrenches W, Q1 and τ exactly through t^{D−2}
// (two differentiations). Coefficient k of an output times k! is the k-th time
// derivative, so degree D gives inverse-dynamics derivatives of order 0..D−2.
// The top coefficients of V (degree D) and of W, Q1, τ (degrees D−1, D) are
// garbage by construction; never compare them.
//
// Body indexing is 0-based: body 0 is the floating base. Joint j (of body j,
// j ≥ 1) has generalized coordinate q[j−1]; τ uses the same indexing.
//
// Test code: allocates freely (std::vector), asserts on misuse.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cassert>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "support/taylor.hpp"

namespace hodyn {
namespace test {

// ---------------------------------------------------------------------------
// Small dense Lie-group helpers (namespace ref to avoid clashing with core names)
// ---------------------------------------------------------------------------
namespace ref {

template <class S>
using Vec3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using Vec6 = Eigen::Matrix<S, 6, 1>;
template <class S>
using Mat3 = Eigen::Matrix<S, 3, 3>;
template <class S>
using Mat4 = Eigen::Matrix<S, 4, 4>;
template <class S>
using Mat6 = Eigen::Matrix<S, 6, 6>;

/// [w] with [w] x = w × x.
template <class S>
Mat3<S> skew(const Vec3<S>& w) {
  Mat3<S> m;
  m << S(0), -w(2), w(1),  //
      w(2), S(0), -w(0),   //
      -w(1), w(0), S(0);
  return m;
}

/// 4x4 Lie-algebra matrix [V] = [[ω] v; 0 0] of V = (ω; v).
template <class S>
Mat4<S> hat(const Vec6<S>& V) {
  Mat4<S> m = Mat4<S>::Zero();
  m.template topLeftCorner<3, 3>() = skew<S>(V.template head<3>());
  m.template topRightCorner<3, 1>() = V.template tail<3>();
  return m;
}

/// Inverse of hat; the angular part is read from the skew-symmetric part.
template <class S>
Vec6<S> vee(const Mat4<S>& m) {
  Vec6<S> V;
  V(0) = (m(2, 1) - m(1, 2)) / S(2);
  V(1) = (m(0, 2) - m(2, 0)) / S(2);
  V(2) = (m(1, 0) - m(0, 1)) / S(2);
  V.template tail<3>() = m.template topRightCorner<3, 1>();
  return V;
}

/// Homogeneous pose from R and p.
template <class S>
Mat4<S> pose(const Mat3<S>& R, const Vec3<S>& p) {
  Mat4<S> C = Mat4<S>::Identity();
  C.template topLeftCorner<3, 3>() = R;
  C.template topRightCorner<3, 1>() = p;
  return C;
}

/// Closed-form inverse of a pose: [Rᵀ, −Rᵀp; 0 1].
template <class S>
Mat4<S> pose_inverse(const Mat4<S>& C) {
  const Mat3<S> Rt = C.template topLeftCorner<3, 3>().transpose();
  const Vec3<S> p = C.template topRightCorner<3, 1>();
  return pose<S>(Rt, Vec3<S>(-(Rt * p)));
}

/// Dense Ad_C = [R 0; [p]R R].
template <class S>
Mat6<S> adjoint(const Mat4<S>& C) {
  const Mat3<S> R = C.template topLeftCorner<3, 3>();
  const Vec3<S> p = C.template topRightCorner<3, 1>();
  Mat6<S> A = Mat6<S>::Zero();
  A.template topLeftCorner<3, 3>() = R;
  A.template bottomRightCorner<3, 3>() = R;
  A.template bottomLeftCorner<3, 3>() = skew<S>(p) * R;
  return A;
}

/// Dense ad_V = [[ω] 0; [v] [ω]].
template <class S>
Mat6<S> ad(const Vec6<S>& V) {
  Mat6<S> A = Mat6<S>::Zero();
  A.template topLeftCorner<3, 3>() = skew<S>(V.template head<3>());
  A.template bottomRightCorner<3, 3>() = skew<S>(V.template head<3>());
  A.template bottomLeftCorner<3, 3>() = skew<S>(V.template tail<3>());
  return A;
}

/// Body-frame spatial inertia about the frame origin, (ω; v) ordering:
/// [[I_c − m[c]², m[c]], [−m[c], m I]], I_c = rotational inertia about the CoM.
template <class S>
Mat6<S> body_inertia(const S& m, const Vec3<S>& c, const Mat3<S>& Ic) {
  const Mat3<S> cx = skew<S>(c);
  Mat6<S> M;
  M.template topLeftCorner<3, 3>() = Ic - m * cx * cx;
  M.template topRightCorner<3, 3>() = m * cx;
  M.template bottomLeftCorner<3, 3>() = -m * cx;
  M.template bottomRightCorner<3, 3>() = m * Mat3<S>::Identity();
  return M;
}

/// Closed-form SE(3) exponential expm([Y] q) for a constant screw Y = (w; v)
/// and a (series) coordinate q. w = 0: pure translation v q. Otherwise with
/// a = |w|, u = w/a, θ = a q (Rodrigues):
///   R = I + sin θ [u] + (1 − cos θ)[u]²,
///   p = (I θ + (1 − cos θ)[u] + (θ − sin θ)[u]²) v / a.
template <class S, class R>
Mat4<S> se3_exp(const Vec6<R>& Y, const S& q) {
  using std::sqrt;
  const Vec3<R> w = Y.template head<3>();
  const Vec3<R> v = Y.template tail<3>();
  const R a = sqrt(w.squaredNorm());
  Mat4<S> E = Mat4<S>::Identity();
  if (a == R(0)) {
    for (int i = 0; i < 3; ++i) E(i, 3) = q * v(i);
    return E;
  }
  const Vec3<R> u = w / a;
  const Mat3<R> U = skew<R>(u);
  const Mat3<R> U2 = U * U;
  const S th = q * a;
  using std::cos;
  using std::sin;
  const S s = sin(th), c1 = S(1) - cos(th), ts = th - s;
  const Vec3<R> va = v / a;
  const Vec3<R> Uv = U * va, U2v = U2 * va;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) E(i, j) = S(i == j ? R(1) : R(0)) + s * U(i, j) + c1 * U2(i, j);
    E(i, 3) = th * va(i) + c1 * Uv(i) + ts * U2v(i);
  }
  return E;
}

/// Entrywise time derivative of a matrix of series (top coefficient → 0).
template <class S, int Rows, int Cols>
Eigen::Matrix<S, Rows, Cols> series_derivative(const Eigen::Matrix<S, Rows, Cols>& m) {
  Eigen::Matrix<S, Rows, Cols> d;
  d.resize(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) d(i, j) = m(i, j).derivative();
  return d;
}

/// Entrywise k-th time derivative value (k! c_k) of a matrix of series.
template <class S, int Rows, int Cols>
Eigen::Matrix<typename S::value_type, Rows, Cols> derivative_values(
    const Eigen::Matrix<S, Rows, Cols>& m, int k) {
  Eigen::Matrix<typename S::value_type, Rows, Cols> d;
  d.resize(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) d(i, j) = m(i, j).derivative_value(k);
  return d;
}

/// Entrywise Taylor coefficient c_k of a matrix of series.
template <class S, int Rows, int Cols>
Eigen::Matrix<typename S::value_type, Rows, Cols> coefficients(
    const Eigen::Matrix<S, Rows, Cols>& m, int k) {
  Eigen::Matrix<typename S::value_type, Rows, Cols> d;
  d.resize(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) d(i, j) = m(i, j).coeff(k);
  return d;
}

}  // namespace ref

// ---------------------------------------------------------------------------
// Model
// ---------------------------------------------------------------------------
/// Helical: a screw (e; a × e + h e) with |e| = 1 and any pitch h; se3_exp
/// takes it as it is.
enum class RefJointType { Revolute, Prismatic, Helical };

/// A floating-base tree with constant parameters in the real type R
/// (double or long double). Body 0 is the base; parent[j] < j for j ≥ 1.
template <class R>
struct ReferenceTree {
  using Real = R;
  int num_bodies = 0;
  std::vector<int> parent;                // parent[0] = -1
  std::vector<RefJointType> joint_type;   // [0] unused
  std::vector<ref::Vec6<R>> Y;            // home spatial screws, world frame; [0] = 0
  std::vector<ref::Mat4<R>> A0;           // home pose of each body (incl. base) in world
  std::vector<ref::Mat6<R>> Mb;           // body-frame spatial inertia
  ref::Vec6<R> G = ref::Vec6<R>::Zero();  // gravity "twist" (0,0,0, g_lin)

  int num_joints() const { return num_bodies - 1; }
  R mass(int j) const { return Mb[static_cast<std::size_t>(j)](3, 3); }
  /// CoM of body j in its body frame, read from Mb's m[c] block.
  ref::Vec3<R> com_body(int j) const {
    const auto& M = Mb[static_cast<std::size_t>(j)];
    const R m = M(3, 3);
    return ref::Vec3<R>(M(2, 4) / m, M(0, 5) / m, M(1, 3) / m);
  }
  std::vector<std::vector<int>> children() const {
    std::vector<std::vector<int>> ch(static_cast<std::size_t>(num_bodies));
    for (int j = 1; j < num_bodies; ++j) ch[static_cast<std::size_t>(parent[static_cast<std::size_t>(j)])].push_back(j);
    return ch;
  }
  /// Sets the base (clears the tree).
  void set_base(const ref::Mat4<R>& A0_base, const ref::Mat6<R>& Mb_base) {
    num_bodies = 1;
    parent.assign(1, -1);
    joint_type.assign(1, RefJointType::Revolute);
    Y.assign(1, ref::Vec6<R>::Zero());
    A0.assign(1, A0_base);
    Mb.assign(1, Mb_base);
  }
  /// Appends body j = num_bodies; returns its index.
  int add_body(int parent_index, RefJointType type, const ref::Vec6<R>& screw,
               const ref::Mat4<R>& home_pose, const ref::Mat6<R>& inertia) {
    assert(parent_index >= 0 && parent_index < num_bodies);
    parent.push_back(parent_index);
    joint_type.push_back(type);
    Y.push_back(screw);
    A0.push_back(home_pose);
    Mb.push_back(inertia);
    return num_bodies++;
  }
  /// Consistency: sizes, parent order, unit axis (revolute) / zero angular part (prismatic).
  bool valid() const {
    const auto n = static_cast<std::size_t>(num_bodies);
    if (num_bodies < 1 || parent.size() != n || joint_type.size() != n || Y.size() != n ||
        A0.size() != n || Mb.size() != n)
      return false;
    for (int j = 1; j < num_bodies; ++j) {
      const auto J = static_cast<std::size_t>(j);
      if (parent[J] < 0 || parent[J] >= j) return false;
      const R wn = Y[J].template head<3>().norm();
      if (joint_type[J] != RefJointType::Prismatic && std::fabs(wn - R(1)) > R(1e-12)) return false;
      if (joint_type[J] == RefJointType::Prismatic &&
          (wn != R(0) || std::fabs(Y[J].template tail<3>().norm() - R(1)) > R(1e-12)))
        return false;
    }
    return true;
  }
};

/// Everything the oracle computes, per body (index 0 = base).
template <class S>
struct ReferenceResult {
  ref::Vec6<S> Q1;                       // spatial base wrench W_0 (exact to t^{D−2})
  std::vector<S> tau;                    // joint efforts, tau[j−1] for body j (exact to t^{D−2})
  std::vector<ref::Mat4<S>> F;           // F_j (PoE frame of joint j); F_0 = C1 A0_0^-1
  std::vector<ref::Mat4<S>> C;           // body poses C_j = F_j A0_j (exact to t^D)
  std::vector<ref::Vec6<S>> V;           // spatial twists (exact to t^{D−1})
  std::vector<ref::Vec6<S>> screw;       // S_j = Ad_{F_j} Y_j; screw[0] = 0 (unused)
  std::vector<ref::Mat6<S>> M;           // spatial inertias in world (exact to t^D)
  std::vector<ref::Vec6<S>> momentum;    // Π_j = M_j V_j (exact to t^{D−1})
  std::vector<ref::Vec6<S>> momentum_rate;  // Π̇_j (exact to t^{D−2})
  std::vector<ref::Vec6<S>> W;           // wrench on body j by its parent (W_0 = Q1)
  S kinetic_energy;                      // T = ½ Σ V_jᵀ M_j V_j (exact to t^{D−1})
  S potential_energy;                    // U = −Σ m_j g_lin·c_j (exact to t^D)
  int exact_degree = 0;                  // D − 2: highest exact coefficient of Q1, tau, W
};

/// The reference inverse dynamics. S = Taylor<R, D> with D ≥ 2.
///   tree  : the model;
///   C1    : base pose series (4x4);
///   q     : joint series, size num_joints(), q[j−1] for body j;
///   W_app : optional applied spatial wrenches (world frame, moment about the
///           world origin), size num_bodies or empty.
template <class S, class R>
ReferenceResult<S> reference_inverse_dynamics(const ReferenceTree<R>& tree,
                                              const ref::Mat4<S>& C1, const std::vector<S>& q,
                                              const std::vector<ref::Vec6<S>>& W_app = {}) {
  static_assert(S::degree >= 2, "need series degree >= 2 for two differentiations");
  assert(tree.valid());
  const int N = tree.num_bodies;
  const auto NN = static_cast<std::size_t>(N);
  assert(q.size() == static_cast<std::size_t>(N - 1));
  assert(W_app.empty() || W_app.size() == NN);

  auto cast6 = [](const ref::Mat6<R>& m) { return ref::Mat6<S>(m.template cast<S>()); };
  auto cast4 = [](const ref::Mat4<R>& m) { return ref::Mat4<S>(m.template cast<S>()); };
  const ref::Vec6<S> G = tree.G.template cast<S>();

  ReferenceResult<S> out;
  out.exact_degree = S::degree - 2;
  out.F.resize(NN);
  out.C.resize(NN);
  out.V.resize(NN);
  out.screw.assign(NN, ref::Vec6<S>::Zero());
  out.M.resize(NN);
  out.momentum.resize(NN);
  out.momentum_rate.resize(NN);
  out.W.resize(NN);
  out.tau.resize(NN - 1);
  out.kinetic_energy = S(R(0));
  out.potential_energy = S(R(0));

  for (int j = 0; j < N; ++j) {
    const auto J = static_cast<std::size_t>(j);
    // Poses by product of exponentials.
    if (j == 0) {
      out.F[0] = C1 * ref::pose_inverse<S>(cast4(tree.A0[0]));
    } else {
      const auto P = static_cast<std::size_t>(tree.parent[J]);
      out.F[J] = out.F[P] * ref::se3_exp<S, R>(tree.Y[J], q[J - 1]);
      out.screw[J] = ref::adjoint<S>(out.F[J]) * tree.Y[J].template cast<S>();
    }
    out.C[J] = out.F[J] * cast4(tree.A0[J]);
    // Spatial twist by differentiating the pose series: [V] = Ċ C^-1.
    const ref::Mat4<S> Cinv = ref::pose_inverse<S>(out.C[J]);
    out.V[J] = ref::vee<S>(ref::Mat4<S>(ref::series_derivative(out.C[J]) * Cinv));
    // Spatial inertia M = Ad_{C^-1}^T Mb Ad_{C^-1}.
    const ref::Mat6<S> AdCinv = ref::adjoint<S>(Cinv);
    out.M[J] = AdCinv.transpose() * cast6(tree.Mb[J]) * AdCinv;
    out.momentum[J] = out.M[J] * out.V[J];
    out.momentum_rate[J] = ref::series_derivative(out.momentum[J]);
    // Energies.
    out.kinetic_energy += S(R(0.5)) * out.V[J].dot(out.momentum[J]);
    const ref::Vec3<R> cb = tree.com_body(j);
    const ref::Vec3<S> cw = out.C[J].template topLeftCorner<3, 3>() * cb.template cast<S>() +
                            out.C[J].template topRightCorner<3, 1>();
    out.potential_energy -= tree.mass(j) * G.template tail<3>().dot(cw);
    // Own part of the wrench.
    out.W[J] = out.momentum_rate[J] - out.M[J] * G;
    if (!W_app.empty()) out.W[J] -= W_app[J];
  }
  // Post-order accumulation: children have larger indices than their parents.
  for (int j = N - 1; j >= 1; --j) {
    const auto J = static_cast<std::size_t>(j);
    out.W[static_cast<std::size_t>(tree.parent[J])] += out.W[J];
  }
  for (int j = 1; j < N; ++j) {
    const auto J = static_cast<std::size_t>(j);
    out.tau[J - 1] = out.screw[J].dot(out.W[J]);
  }
  out.Q1 = out.W[0];
  return out;
}

// ---------------------------------------------------------------------------
// Trajectory series builders
// ---------------------------------------------------------------------------

/// Base pose series C1(t) from C1(0) and the spatial twist derivatives
/// V1^(0..K) (missing orders are zero), by solving Ċ = [V] C coefficient by
/// coefficient: C_{k+1} = 1/(k+1) Σ_{i=0..k} [V]_i C_{k−i}, [V]_i = [V1^(i)]/i!.
/// Orders up to D−1 are used; the result is exact through t^D.
template <class S, class R>
ref::Mat4<S> base_pose_series(const ref::Mat4<R>& C1_0,
                              const std::vector<ref::Vec6<R>>& V1_derivatives) {
  constexpr int D = S::degree;
  std::vector<ref::Mat4<R>> Vh(static_cast<std::size_t>(D), ref::Mat4<R>::Zero());
  R fact(1);
  for (int i = 0; i < D; ++i) {
    if (i > 0) fact *= R(i);
    if (static_cast<std::size_t>(i) < V1_derivatives.size())
      Vh[static_cast<std::size_t>(i)] = ref::hat<R>(V1_derivatives[static_cast<std::size_t>(i)]) / fact;
  }
  std::vector<ref::Mat4<R>> Ck(static_cast<std::size_t>(D + 1), ref::Mat4<R>::Zero());
  Ck[0] = C1_0;
  for (int k = 0; k < D; ++k) {
    ref::Mat4<R> acc = ref::Mat4<R>::Zero();
    for (int i = 0; i <= k; ++i)
      acc += Vh[static_cast<std::size_t>(i)] * Ck[static_cast<std::size_t>(k - i)];
    Ck[static_cast<std::size_t>(k + 1)] = acc / R(k + 1);
  }
  ref::Mat4<S> C;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      typename S::Coefficients co;
      for (int k = 0; k <= D; ++k)
        co[static_cast<std::size_t>(k)] = Ck[static_cast<std::size_t>(k)](r, c);
      C(r, c) = S(co);
    }
  return C;
}

/// Joint series from derivatives: q_derivatives[k] is the vector of q^(k) over
/// all joints (k = 0..K, missing orders are zero). Returns one series per joint.
template <class S, class R>
std::vector<S> joint_series(const std::vector<Eigen::Matrix<R, Eigen::Dynamic, 1>>& q_derivatives) {
  assert(!q_derivatives.empty());
  const auto n = static_cast<std::size_t>(q_derivatives[0].size());
  std::vector<S> q(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<R> d;
    for (const auto& qk : q_derivatives) d.push_back(qk(static_cast<Eigen::Index>(i)));
    q[i] = S::from_derivatives(d);
  }
  return q;
}

/// Spatial twist derivatives V^(0..D−1) of a pose series ([V] = Ċ C^-1).
template <class S>
std::vector<ref::Vec6<typename S::value_type>> twist_derivatives(const ref::Mat4<S>& C) {
  const ref::Vec6<S> V = ref::vee<S>(ref::Mat4<S>(ref::series_derivative(C) * ref::pose_inverse<S>(C)));
  std::vector<ref::Vec6<typename S::value_type>> out;
  for (int k = 0; k < S::degree; ++k) out.push_back(ref::derivative_values(V, k));
  return out;
}

// ---------------------------------------------------------------------------
// Reference models
// ---------------------------------------------------------------------------

/// Seed 000's 12-DoF aerial manipulator (notes 000 §10.1): 7 bodies, parents
/// (−,0,1,2,0,4,5), all frames at the CoM aligned with the world at home,
/// A0_0 = I, base 2.5 kg, J = diag(0.03,0.03,0.05); links 0.25 kg,
/// J = diag(0.002,0.002,0.001); G = (0,0,0, 0,0,−9.81). Screws are the table's
/// literal values; all lengths are built as exact ratios in R.
template <class R>
ReferenceTree<R> make_aerial_manipulator() {
  using ref::Mat3;
  using ref::Mat4;
  using ref::Vec3;
  using ref::Vec6;
  auto cm = [](int centimetres) { return R(centimetres) / R(100); };
  auto at = [](const Vec3<R>& p) { return ref::pose<R>(Mat3<R>::Identity(), p); };
  auto diag3 = [](R a, R b, R c) { return Mat3<R>(Vec3<R>(a, b, c).asDiagonal()); };
  auto screw = [](R a, R b, R c, R d, R e, R f) {
    Vec6<R> y;
    y << a, b, c, d, e, f;
    return y;
  };
  const R mb = R(25) / R(10), ml = R(25) / R(100);
  const ref::Mat6<R> Mb_base =
      ref::body_inertia<R>(mb, Vec3<R>::Zero(), diag3(R(3) / R(100), R(3) / R(100), R(5) / R(100)));
  const ref::Mat6<R> Mb_link = ref::body_inertia<R>(
      ml, Vec3<R>::Zero(), diag3(R(2) / R(1000), R(2) / R(1000), R(1) / R(1000)));
  const R z = R(0), one = R(1);
  ReferenceTree<R> t;
  t.set_base(Mat4<R>::Identity(), Mb_base);
  // Arm 1 (x = +0.09): B2 –y– , B3 –x–, B4 –z–.
  t.add_body(0, RefJointType::Revolute, screw(z, one, z, cm(10), z, cm(9)),
             at(Vec3<R>(cm(9), z, -cm(16))), Mb_link);
  t.add_body(1, RefJointType::Revolute, screw(one, z, z, z, -cm(22), z),
             at(Vec3<R>(cm(9), z, -cm(28))), Mb_link);
  t.add_body(2, RefJointType::Revolute, screw(z, z, one, z, -cm(9), z),
             at(Vec3<R>(cm(9), z, -cm(40))), Mb_link);
  // Arm 2 (x = −0.09).
  t.add_body(0, RefJointType::Revolute, screw(z, one, z, cm(10), z, -cm(9)),
             at(Vec3<R>(-cm(9), z, -cm(16))), Mb_link);
  t.add_body(4, RefJointType::Revolute, screw(one, z, z, z, -cm(22), z),
             at(Vec3<R>(-cm(9), z, -cm(28))), Mb_link);
  t.add_body(5, RefJointType::Revolute, screw(z, z, one, z, cm(9), z),
             at(Vec3<R>(-cm(9), z, -cm(40))), Mb_link);
  t.G << z, z, z, z, z, -R(981) / R(100);
  return t;
}

/// A random tree for stress tests (seeded, std::mt19937): random parents
/// p(j) < j, unit axes through random points, about 1/3 prismatic joints (at
/// least one), random home poses (base home pose ≠ I), random CoM offsets,
/// random physically consistent rotational inertias, general gravity direction
/// with |g| = 9.81. Draws happen in double and are converted to R, so the same
/// seed gives the same model for every R.
template <class R>
ReferenceTree<R> make_random_tree(unsigned seed, int num_bodies = 9) {
  using ref::Mat3;
  using ref::Vec3;
  assert(num_bodies >= 1);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> unif(-1.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  auto uvec = [&](double scale) {
    return Vec3<R>(R(scale * unif(gen)), R(scale * unif(gen)), R(scale * unif(gen)));
  };
  auto unit = [&]() {
    Eigen::Vector3d e;
    do {
      e = Eigen::Vector3d(gauss(gen), gauss(gen), gauss(gen));
    } while (e.norm() < 1e-3);
    const Vec3<R> er = e.cast<R>();
    return Vec3<R>(er / er.norm());
  };
  auto rotation = [&]() {
    Eigen::Quaternion<R> qt(R(gauss(gen)), R(gauss(gen)), R(gauss(gen)), R(gauss(gen)));
    qt.normalize();
    return Mat3<R>(qt.toRotationMatrix());
  };
  auto inertia = [&]() {
    const R m = R(0.5 + 0.75 * (unif(gen) + 1.0));  // 0.5 .. 2 kg
    const Vec3<R> c = uvec(0.1);
    // Principal moments as sums of positive second moments: triangle inequality holds.
    const double a = 0.01 + 0.02 * (unif(gen) + 1.0), b = 0.01 + 0.02 * (unif(gen) + 1.0),
                 d = 0.01 + 0.02 * (unif(gen) + 1.0);
    const Vec3<R> principal(R(b + d), R(a + d), R(a + b));
    const Mat3<R> Q = rotation();
    const Mat3<R> Ic = Q * principal.asDiagonal() * Q.transpose();
    return ref::body_inertia<R>(m, c, Mat3<R>((Ic + Ic.transpose()) / R(2)));
  };

  ReferenceTree<R> t;
  t.set_base(ref::pose<R>(rotation(), uvec(0.5)), inertia());
  bool any_prismatic = false;
  for (int j = 1; j < num_bodies; ++j) {
    const int p = std::uniform_int_distribution<int>(0, j - 1)(gen);
    bool prismatic = std::uniform_int_distribution<int>(0, 2)(gen) == 0;
    if (j == num_bodies - 1 && !any_prismatic) prismatic = true;
    any_prismatic = any_prismatic || prismatic;
    const Vec3<R> e = unit();
    const Vec3<R> point = uvec(0.5);
    ref::Vec6<R> Y;
    if (prismatic)
      Y << R(0), R(0), R(0), e;
    else
      Y << e, point.cross(e);
    t.add_body(p, prismatic ? RefJointType::Prismatic : RefJointType::Revolute, Y,
               ref::pose<R>(rotation(), uvec(0.5)), inertia());
  }
  const Vec3<R> gdir = unit();
  t.G << R(0), R(0), R(0), gdir * (R(981) / R(100));
  return t;
}

}  // namespace test
}  // namespace hodyn
