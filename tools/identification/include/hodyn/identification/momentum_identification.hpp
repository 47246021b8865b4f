// hodyn/identification/momentum_identification.hpp — least-squares estimate of
// a robot's base parameters β from a flight log without accelerations (issue
// 18 item 5, docs/identification.md). The generalized momentum p = M̄ν obeys
// ṗ = τ̄ + Cᵀν − g (docs/regressors.md), and Cᵀν − g = Y_p^(1)π − Y^(0)π
// evaluated at ν̇ = 0, so over a window [t₀, t₁]
//
//   (Y_p(t₁) − Y_p(t₀) − ∫ (Y_p^(1) − Y^(0))|ν̇=0 dt) π = ∫ τ̄ dt,
//
// the integrals by composite Simpson over the log's samples. Every Y here
// is a linear image of Y^(0) (M̄, C, g are functions of β only), so each
// window gives (6 + n) rows of A_b β = b with A_b = A P[:, :b]. β̂ is the
// minimum-norm correction of the nominal β₀ (scaled columns, SVD, singular
// values below `svd_tolerance` of the largest dropped: those directions keep
// their nominal value and are reported as not excited). Then the physical
// consistency: the π nearest the nominal π₀ (in a length-scaled metric) with
// B π = β̂, each body projected once onto J ⪰ 0 (project_to_physically_
// consistent: nearest in the Frobenius norm), β_c = B π_c (= β̂ when that π
// is consistent; not the constrained least-squares optimum an LMI solver
// would give).
//
// Joint friction (a BaseParameters with friction columns, base_parameters.hpp):
// the links feel τ̄ − τ_f, τ_f = Y_f (f_v; f_c) (sign model), so each window
// gains the columns + ∫ Y_f dt after the inertial ones (G extended by −Y_f)
// and β, π carry the friction parameters last; their nominal values are 0,
// and the consistency step leaves them as estimated.
//
// Desktop code (std::vector, Eigen dynamic matrices); errors as a Status,
// never NaN.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "hodyn/identification/base_parameters.hpp"
#include "hodyn/inverse_dynamics_regressor.hpp"
#include "hodyn/physical_consistency.hpp"

namespace hodyn {
namespace identification {

/// One logged sample: the state and the applied generalized force.
struct LogSample {
  double time = 0.0;
  Eigen::Vector3d position = Eigen::Vector3d::Zero();            ///< C₁'s translation (world)
  Eigen::Quaterniond attitude = Eigen::Quaterniond::Identity();  ///< C₁'s rotation
  Eigen::Matrix<double, 6, 1> base_twist = Eigen::Matrix<double, 6, 1>::Zero();  ///< V₁ spatial
  Eigen::VectorXd q, q_dot, joint_torque;                                        ///< n each
  Eigen::Matrix<double, 6, 1> propulsion_wrench =
      Eigen::Matrix<double, 6, 1>::Zero();  ///< (n; f), base frame
};

struct MomentumIdentificationOptions {
  double window = 0.5;          ///< s, windows back to back
  double svd_tolerance = 1e-6;  ///< relative singular value kept in the scaled LS
  double min_eigenvalue = 0.0;  ///< of each body's pseudo-inertia after projection
};

struct MomentumIdentificationResult {
  Eigen::VectorXd least_squares;  ///< β̂ (b)
  Eigen::VectorXd consistent;     ///< β_c = B π̂_c (b)
  Eigen::VectorXd consistent_pi;  ///< π̂_c (10 N, then the friction parameters if any)
  Eigen::VectorXd relative_std;   ///< σ(β̂_i)/|β̂_i| from the residual (−1: not excited)
  std::vector<bool> excited;      ///< per β: outside the dropped singular directions
  int excited_rank = 0;           ///< singular values kept
  int windows = 0;
  int rows = 0;
  double residual_rms = 0.0;       ///< of A_b β̂ − b
  double residual_relative = 0.0;  ///< ‖A_b β̂ − b‖ / ‖b‖
  int bodies_projected = 0;        ///< bodies the consistency projection changed
};

/// τ̄ of a sample: the propulsion wrench as Q₁ (world axes, moment about the
/// world origin: f_w = R f, n_w = R n + p × f_w) and the joint torques.
inline Eigen::VectorXd generalized_force(const LogSample& s) {
  const Eigen::Matrix3d r = s.attitude.normalized().toRotationMatrix();
  const Eigen::Vector3d f = r * s.propulsion_wrench.tail<3>();
  const Eigen::Vector3d n = r * s.propulsion_wrench.head<3>() + s.position.cross(f);
  Eigen::VectorXd out(6 + s.joint_torque.size());
  out << n, f, s.joint_torque;
  return out;
}

/// Y_p and G = Y_p^(1) − Y^(0) (both at ν̇ = 0) of a sample, on `model`'s
/// kinematics.
template <class Tree>
Status momentum_rows(const Model<Tree, double>& model, const LogSample& s,
                     RegressorData<Tree, 1, double>& momentum,
                     RegressorData<Tree, 0, double>& inverse, Eigen::MatrixXd& yp,
                     Eigen::MatrixXd& g) {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "the identification tools");  // rows and columns per joint
  constexpr int n = TreeTraits<Tree>::kNumJoints;
  if (s.q.size() != n || s.q_dot.size() != n || s.joint_torque.size() != n)
    return Status::kInvalidArgument;
  MotionDerivatives<Tree, 1, double> m1;
  m1.base_pose.rotation = s.attitude.normalized().toRotationMatrix();
  m1.base_pose.translation = s.position;
  m1.base_twist[0] = s.base_twist;
  m1.q[0] = s.q;
  m1.q[1] = s.q_dot;
  Status st = momentum_regressor(model, momentum, m1, 1);
  if (st != Status::kOk) return st;
  MotionDerivatives<Tree, 0, double> m0;
  m0.base_pose = m1.base_pose;
  m0.base_twist[0] = s.base_twist;
  m0.q[0] = s.q;
  m0.q[1] = s.q_dot;
  st = inverse_dynamics_regressor(model, inverse, m0, 0);
  if (st != Status::kOk) return st;
  yp = momentum.regressor[0];
  g = momentum.regressor[1] - inverse.regressor[0];
  return Status::kOk;
}

/// Y_p and G of momentum_rows extended by the friction columns of `bp`
/// (Y_p by zeros, G by −Y_f: file comment); unchanged without friction.
template <class Tree>
Status extended_momentum_rows(const Model<Tree, double>& model, const BaseParameters& bp,
                              const LogSample& s, RegressorData<Tree, 1, double>& momentum,
                              RegressorData<Tree, 0, double>& inverse,
                              FrictionRegressorData<Tree, 0, double>& friction, Eigen::MatrixXd& yp,
                              Eigen::MatrixXd& g) {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "the identification tools");  // rows and columns per joint
  Status st = momentum_rows(model, s, momentum, inverse, yp, g);
  if (st != Status::kOk) return st;
  const Eigen::Index inertial = yp.cols();
  const Eigen::Index extra = bp.num_parameters - inertial;
  if (extra <= 0) return Status::kOk;
  constexpr int n = TreeTraits<Tree>::kNumJoints;
  MotionDerivatives<Tree, 0, double> m0;  // the friction columns read q̇ only
  m0.q[1] = s.q_dot;
  st = joint_friction_regressor(friction, m0, 0);
  if (st != Status::kOk) return st;
  const auto& yf = friction.regressor[0];  // (Q₁; τ) rows × (f_v; f_c)
  yp.conservativeResize(Eigen::NoChange, bp.num_parameters);
  yp.rightCols(extra).setZero();
  g.conservativeResize(Eigen::NoChange, bp.num_parameters);
  Eigen::Index at = inertial;
  if (bp.friction.viscous) {
    g.middleCols(at, n) = -yf.leftCols(n);
    at += n;
  }
  if (bp.friction.coulomb) g.middleCols(at, n) = -yf.rightCols(n);
  return Status::kOk;
}

/// The estimate (file comment). kInvalidArgument: fewer than two samples per
/// window or no whole window, a bad option, samples not increasing in time,
/// a `bp` of another model (its inertial columns not 10 N, friction columns
/// not n per kind); the regressors' status for a bad state.
template <class Tree>
Status identify_base_parameters(const Model<Tree, double>& model, const BaseParameters& bp,
                                const std::vector<LogSample>& log,
                                const MomentumIdentificationOptions& o,
                                MomentumIdentificationResult& out) {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "the identification tools");  // rows and columns per joint
  out = MomentumIdentificationResult{};
  constexpr int kRows = 6 + TreeTraits<Tree>::kNumJoints;
  const int inertial = 10 * TreeTraits<Tree>::kNumBodies;
  const int p = bp.num_parameters;
  const int friction_kinds = (bp.friction.viscous ? 1 : 0) + (bp.friction.coulomb ? 1 : 0);
  const bool friction_ok =
      p == inertial || (bp.num_inertial_parameters == inertial &&
                        p == inertial + friction_kinds * TreeTraits<Tree>::kNumJoints);
  if (!friction_ok || bp.rank < 1 || !(o.window > 0.0) ||
      !(o.svd_tolerance > 0.0 && o.svd_tolerance < 1.0) || !(o.min_eigenvalue >= 0.0))
    return Status::kInvalidArgument;
  if (log.size() < 2) return Status::kInvalidArgument;
  for (std::size_t k = 1; k < log.size(); ++k)
    if (!(log[k].time > log[k - 1].time)) return Status::kInvalidArgument;

  auto momentum = std::make_unique<RegressorData<Tree, 1, double>>();
  auto inverse = std::make_unique<RegressorData<Tree, 0, double>>();
  auto friction = std::make_unique<FrictionRegressorData<Tree, 0, double>>();
  // Windows back to back; the integrals by composite Simpson over the window's
  // even number of intervals (trapezoid for a last odd one or uneven steps),
  // O(h⁴) on smooth signals. Per sample of the current window only: Y_p,
  // G = Y_p^(1) − Y^(0) (ν̇ = 0) and τ̄ (a 1 kHz log of 30 s holds 30 000).
  std::vector<Eigen::MatrixXd> g;
  std::vector<Eigen::VectorXd> f;
  std::vector<double> time;
  Eigen::MatrixXd yp_start, yp, g_k;
  std::vector<Eigen::MatrixXd> blocks_a;
  std::vector<Eigen::VectorXd> blocks_b;
  std::size_t start = 0;
  {
    const Status st =
        extended_momentum_rows(model, bp, log[0], *momentum, *inverse, *friction, yp_start, g_k);
    if (st != Status::kOk) return st;
    g.push_back(g_k);
    f.push_back(generalized_force(log[0]));
    time.push_back(log[0].time);
  }
  for (std::size_t k = 1; k < log.size(); ++k) {
    const Status st =
        extended_momentum_rows(model, bp, log[k], *momentum, *inverse, *friction, yp, g_k);
    if (st != Status::kOk) return st;
    g.push_back(g_k);
    f.push_back(generalized_force(log[k]));
    time.push_back(log[k].time);
    if (log[k].time - log[start].time < o.window * (1.0 - 1e-9)) continue;
    Eigen::MatrixXd integral_g = Eigen::MatrixXd::Zero(kRows, p);
    Eigen::VectorXd integral_f = Eigen::VectorXd::Zero(kRows);
    const std::size_t last = g.size() - 1;
    std::size_t i = 0;
    for (; i + 2 <= last; i += 2) {
      const double h0 = time[i + 1] - time[i], h1 = time[i + 2] - time[i + 1];
      if (std::abs(h0 - h1) > 1e-6 * (h0 + h1)) {  // uneven: two trapezoids
        integral_g += 0.5 * h0 * (g[i] + g[i + 1]) + 0.5 * h1 * (g[i + 1] + g[i + 2]);
        integral_f += 0.5 * h0 * (f[i] + f[i + 1]) + 0.5 * h1 * (f[i + 1] + f[i + 2]);
        continue;
      }
      const double w = (h0 + h1) / 6.0;
      integral_g += w * (g[i] + 4.0 * g[i + 1] + g[i + 2]);
      integral_f += w * (f[i] + 4.0 * f[i + 1] + f[i + 2]);
    }
    if (i < last) {
      const double h = time[last] - time[i];
      integral_g += 0.5 * h * (g[i] + g[last]);
      integral_f += 0.5 * h * (f[i] + f[last]);
    }
    blocks_a.push_back(base_regressor(bp, yp - yp_start - integral_g));
    blocks_b.push_back(integral_f);
    start = k;
    yp_start = yp;
    g.erase(g.begin(), g.end() - 1);  // the window's end starts the next
    f.erase(f.begin(), f.end() - 1);
    time.erase(time.begin(), time.end() - 1);
  }
  if (blocks_a.empty()) return Status::kInvalidArgument;
  const int b = bp.rank;
  const int m = static_cast<int>(blocks_a.size()) * kRows;
  Eigen::MatrixXd a(m, b);
  Eigen::VectorXd rhs(m);
  for (std::size_t w = 0; w < blocks_a.size(); ++w) {
    a.middleRows(static_cast<Eigen::Index>(w) * kRows, kRows) = blocks_a[w];
    rhs.segment(static_cast<Eigen::Index>(w) * kRows, kRows) = blocks_b[w];
  }
  if (!a.allFinite() || !rhs.allFinite()) return Status::kNonFiniteResult;
  out.windows = static_cast<int>(blocks_a.size());
  out.rows = m;

  // Scaled minimum-norm correction of the nominal β₀ (friction: nominal 0).
  Eigen::VectorXd pi0 = Eigen::VectorXd::Zero(p);
  pi0.head(inertial) = parameter_vector(model);
  const Eigen::VectorXd beta0 = base_parameter_values(bp, pi0);
  Eigen::VectorXd scale = a.colwise().norm().transpose();
  for (int i = 0; i < b; ++i)
    if (!(scale(i) > 0.0)) scale(i) = 1.0;
  const Eigen::MatrixXd as = a * scale.cwiseInverse().asDiagonal();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(as, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::VectorXd& sigma = svd.singularValues();
  if (!(sigma(0) > 0.0)) return Status::kInvalidArgument;
  int kept = 0;
  while (kept < sigma.size() && sigma(kept) > o.svd_tolerance * sigma(0)) ++kept;
  out.excited_rank = kept;
  const Eigen::VectorXd r0 = rhs - a * beta0;
  const Eigen::MatrixXd u = svd.matrixU().leftCols(kept);
  const Eigen::MatrixXd v = svd.matrixV().leftCols(kept);
  const Eigen::VectorXd delta_scaled =
      v * (sigma.head(kept).cwiseInverse().asDiagonal() * (u.transpose() * r0));
  out.least_squares = beta0 + scale.cwiseInverse().asDiagonal() * delta_scaled;
  const Eigen::VectorXd residual = a * out.least_squares - rhs;
  out.residual_rms = std::sqrt(residual.squaredNorm() / m);
  out.residual_relative = residual.norm() / std::max(rhs.norm(), 1e-300);
  // σ(β̂) = s · sqrt(diag(V Σ⁻² Vᵀ)) / scale, s² = ‖r‖² / (m − kept).
  const double s2 = m > kept ? residual.squaredNorm() / (m - kept) : 0.0;
  out.relative_std = Eigen::VectorXd::Constant(b, -1.0);
  out.excited.assign(static_cast<std::size_t>(b), false);
  const Eigen::MatrixXd dropped = svd.matrixV().rightCols(b - kept);
  for (int i = 0; i < b; ++i) {
    // Not excited: a dropped singular direction has a sizeable component on β_i.
    const double leak = dropped.cols() > 0 ? dropped.row(i).norm() : 0.0;
    out.excited[static_cast<std::size_t>(i)] = leak < 1e-3;
    const double var = (v.row(i).array() / sigma.head(kept).transpose().array()).square().sum();
    const double sd = std::sqrt(s2 * var) / scale(i);
    if (out.excited[static_cast<std::size_t>(i)] && std::abs(out.least_squares(i)) > 0.0)
      out.relative_std(i) = sd / std::abs(out.least_squares(i));
  }

  // Physical consistency: the π nearest the nominal π₀ that has β̂, in the
  // metric ‖diag(w)(π − π₀)‖ with w = (1, 1/L, 1/L, 1/L, 1/L², …), L = 0.1 m
  // (kg, kg m, kg m² made comparable for a robot of links ~10 cm), then each
  // body projected once onto the consistent set (project_to_physically_
  // consistent: the nearest pseudo-inertia J ⪰ 0 in the Frobenius norm).
  // β_c = B π_c equals β̂ when that π is already consistent; otherwise it is
  // a consistent estimate near β̂, not the constrained least-squares optimum
  // (no LMI solver here).
  Eigen::VectorXd inverse_weight2(p);  // 1 / w²; friction columns 1
  for (int c = 0; c < p; ++c) {
    if (c >= inertial) {
      inverse_weight2(c) = 1.0;
      continue;
    }
    const int kind = c % 10;
    const double length = 0.1;
    inverse_weight2(c) = kind == 0 ? 1.0 : kind <= 3 ? length * length : std::pow(length, 4);
  }
  const Eigen::MatrixXd bw = bp.base_map * inverse_weight2.asDiagonal();
  Eigen::VectorXd pi =
      pi0 + bw.transpose() *
                (bw * bp.base_map.transpose()).ldlt().solve(out.least_squares - bp.base_map * pi0);
  for (int j = 0; j < TreeTraits<Tree>::kNumBodies; ++j) {
    const BodyParameters<double> body = pi.segment<10>(10 * j);
    BodyParameters<double> projected;
    const Status st = project_to_physically_consistent(body, o.min_eigenvalue, projected);
    if (st != Status::kOk) return st;
    if ((projected - body).norm() > 1e-12 * std::max(1.0, body.norm())) ++out.bodies_projected;
    pi.segment<10>(10 * j) = projected;
  }
  out.consistent_pi = pi;
  out.consistent = base_parameter_values(bp, pi);
  if (!out.least_squares.allFinite() || !out.consistent.allFinite()) {
    out = MomentumIdentificationResult{};
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

}  // namespace identification
}  // namespace hodyn
