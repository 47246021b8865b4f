// hodyn/identification/base_parameters.hpp — the identifiable (base)
// inertial parameters of a robot (issue 18 item 3; Gautier 1990's numerical
// method): the regressors Y^(0) of `inverse_dynamics_regressor` stacked over
// K random states (seeded) give W (K(6+n) × 10N); its column-pivoted QR
//
//   W P = Q R,   R = [R₁ R₂],  R₁ b × b upper triangular,
//
// with rank b the number of pivots |R_ii| > tolerance · |R_00| (columns of W
// scaled to unit norm first, so the pivots do not depend on units), gives
//
//   W π = W_b π_b + W_d π_d = W_b (π_b + K_d π_d) = W_b β,   K_d = R₁⁻¹ R₂,
//
// π_b = Pᵀπ's first b entries (the independent parameters), π_d the rest, and
// the regressor in base-parameter form Y_b = Y P[:, :b] for every state:
// Y π = Y_b β. β = B π with B = [1 K_d] Pᵀ (b × 10N). The QR gives the
// rank; the independent set is then chosen in a fixed order (preference_order:
// the first columns that add to the span), so that it and K_d depend on the
// model, not on the seed.
//
// Optionally W carries joint-friction columns after the 10N inertial ones
// (BaseParameterOptions::friction; hodyn/joint_actuation_regressor.hpp at order
// 0, Coulomb as sign(q̇)): the viscous f_v,1..n, then the Coulomb f_c,1..n, so
// π extends to (π; f_v; f_c) and every map below takes the longer vector.
//
// Desktop code (std::vector, Eigen dynamic matrices); bad input gives a
// Status, never a crash or NaN.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "hodyn/inertial_parameters.hpp"
#include "hodyn/inverse_dynamics_regressor.hpp"
#include "hodyn/joint_actuation_regressor.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"
#include "hodyn/tree.hpp"

namespace hodyn {
namespace identification {

/// Which rows of Y^(0) are stacked.
enum class RegressorRows : std::uint8_t {
  kAll,        ///< Q₁ (6) and τ (n): a floating robot's full equations of motion
  kJointsOnly  ///< τ only: a fixed-base arm with joint torque sensing
};

/// Joint-friction columns appended to the inertial ones (none by default).
struct FrictionColumns {
  bool viscous = false;  ///< f_v,1..n: τ_i += f_v,i q̇_i
  bool coulomb = false;  ///< f_c,1..n: τ_i += f_c,i sign(q̇_i)
};

struct BaseParameterOptions {
  int num_states = 200;    ///< K random states stacked
  std::uint64_t seed = 1;  ///< of the states' generator (std::mt19937_64)
  RegressorRows rows = RegressorRows::kAll;
  /// A pivot |R_ii| of the unit-column W counts if > tolerance · |R_00|.
  /// Structural zeros come out near 1e-15; the 12-DoF robot's smallest kept
  /// pivot is ~1e-2 (tests): 1e-8 sits in the gap with margin both ways.
  double tolerance = 1e-8;
  double joint_range = 3.14159265358979;  ///< q uniform in ±joint_range (rad or m)
  double rate_scale = 2.0;     ///< ν, ν̇ and the base position: normal, this standard deviation
  FrictionColumns friction{};  ///< joint-friction columns after the 10 N inertial ones
};

/// The identifiable set of a model's parameters (see the file comment).
struct BaseParameters {
  int num_parameters = 0;           ///< 10 N, plus n per friction kind of `friction`
  int num_inertial_parameters = 0;  ///< 10 N: the first columns
  FrictionColumns friction{};       ///< the friction columns that follow (names)
  int rank = 0;                     ///< b
  /// permutation[i]: the π index of column i of W P; the first `rank` are π_b.
  std::vector<int> permutation;
  Eigen::MatrixXd combination;         ///< K_d, b × (num_parameters − b)
  Eigen::MatrixXd base_map;            ///< B = [1 K_d] Pᵀ, b × 10N: β = B π
  double smallest_kept_pivot = 0.0;    ///< |R_bb| / |R_00|
  double largest_dropped_pivot = 0.0;  ///< |R_b+1,b+1| / |R_00| (0 at full rank)
};

/// "m", "hx", "hy", "hz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz".
inline const char* parameter_kind_name(int p) {
  static const char* const kNames[10] = {"m",   "hx",  "hy",  "hz",  "Ixx",
                                         "Ixy", "Iyy", "Ixz", "Iyz", "Izz"};
  return p >= 0 && p < 10 ? kNames[p] : "?";
}
/// "body3.m" for π index 30.
inline std::string parameter_name(int index) {
  return "body" + std::to_string(index / 10) + "." + parameter_kind_name(index % 10);
}
/// The name of column `index` of bp's W: parameter_name for the inertial ones,
/// "joint3.fv" / "joint3.fc" (joint 3 = q3, the joint of body 3) for friction.
inline std::string parameter_name(const BaseParameters& bp, int index) {
  const int n_inertial = bp.num_inertial_parameters;
  if (index < n_inertial || n_inertial <= 0) return parameter_name(index);
  const int kinds = (bp.friction.viscous ? 1 : 0) + (bp.friction.coulomb ? 1 : 0);
  const int joints = kinds > 0 ? (bp.num_parameters - n_inertial) / kinds : 0;
  if (joints <= 0) return "?";
  const int f = index - n_inertial;
  const bool viscous = bp.friction.viscous && f < joints;
  return "joint" + std::to_string(f % joints + 1) + (viscous ? ".fv" : ".fc");
}
/// β_i written out: "body0.m + 1*body1.m + ..." (terms |K_d| > 1e-12 · max).
inline std::string base_parameter_name(const BaseParameters& bp, int i, int digits = 6) {
  std::string s = parameter_name(bp, bp.permutation[static_cast<std::size_t>(i)]);
  const int nd = bp.num_parameters - bp.rank;
  const double scale = bp.combination.size() > 0 ? bp.combination.cwiseAbs().maxCoeff() : 0.0;
  for (int d = 0; d < nd; ++d) {
    const double k = bp.combination(i, d);
    if (!(std::abs(k) > 1e-12 * scale)) continue;
    char buf[64];
    std::snprintf(buf, sizeof buf, " %c %.*g*", k < 0 ? '-' : '+', digits, std::abs(k));
    s += buf;
    s += parameter_name(bp, bp.permutation[static_cast<std::size_t>(bp.rank + d)]);
  }
  return s;
}

/// One random state of `model`'s tree: base pose (uniform rotation), V₁, V̇₁,
/// q, q̇, q̈ (a fixed base: its home, at rest). Higher derivatives zero.
template <class Tree, int MaxOrder>
void random_motion(std::mt19937_64& gen, const BaseParameterOptions& o,
                   MotionDerivatives<Tree, MaxOrder, double>& motion) {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "the identification tools");  // rows and columns per joint
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::uniform_real_distribution<double> unif(-1.0, 1.0);
  motion = MotionDerivatives<Tree, MaxOrder, double>{};
  if constexpr (!TreeTraits<Tree>::kFixedBase) {
    Eigen::Quaterniond r(gauss(gen), gauss(gen), gauss(gen), gauss(gen));
    r.normalize();
    motion.base_pose.rotation = r.toRotationMatrix();
    for (int i = 0; i < 3; ++i) motion.base_pose.translation(i) = o.rate_scale * gauss(gen);
    for (int k = 0; k < 2; ++k)
      for (int i = 0; i < 6; ++i) motion.base_twist[k](i) = o.rate_scale * gauss(gen);
  }
  for (int j = 0; j < TreeTraits<Tree>::kNumJoints; ++j) {
    motion.q[0](j) = o.joint_range * unif(gen);
    motion.q[1](j) = o.rate_scale * gauss(gen);
    motion.q[2](j) = o.rate_scale * gauss(gen);
  }
}

/// The rows of Y^(0) chosen by `rows`, as a dense matrix.
template <class Tree, class Matrix>
Eigen::MatrixXd selected_rows(const Matrix& y, RegressorRows rows) {
  const int n = TreeTraits<Tree>::kNumJoints;
  if (rows == RegressorRows::kJointsOnly) return y.bottomRows(n);
  return y;
}

/// Y^(0) of `model` at `motion`, the rows `rows` (kOk or the regressor's status).
template <class Tree>
Status regressor_rows(const Model<Tree, double>& model, RegressorData<Tree, 0, double>& data,
                      const MotionDerivatives<Tree, 0, double>& motion, RegressorRows rows,
                      Eigen::MatrixXd& out) {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "the identification tools");  // rows and columns per joint
  const Status s = inverse_dynamics_regressor(model, data, motion, 0);
  if (s != Status::kOk) return s;
  out = selected_rows<Tree>(data.regressor[0], rows);
  return Status::kOk;
}

/// [Y^(0) Y_f^(0)]: the rows `rows` of Y^(0) and the selected friction columns
/// (sign model, 0 at q̇ = 0; hodyn/joint_actuation_regressor.hpp) after them.
template <class Tree>
Status extended_regressor_rows(const Model<Tree, double>& model,
                               RegressorData<Tree, 0, double>& data,
                               FrictionRegressorData<Tree, 0, double>& friction_data,
                               const MotionDerivatives<Tree, 0, double>& motion, RegressorRows rows,
                               FrictionColumns friction, Eigen::MatrixXd& out) {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "the identification tools");  // rows and columns per joint
  Eigen::MatrixXd y;
  Status s = regressor_rows(model, data, motion, rows, y);
  if (s != Status::kOk) return s;
  if (!friction.viscous && !friction.coulomb) {
    out = y;
    return Status::kOk;
  }
  s = joint_friction_regressor(friction_data, motion, 0);
  if (s != Status::kOk) return s;
  constexpr int n = TreeTraits<Tree>::kNumJoints;
  const Eigen::MatrixXd yf = selected_rows<Tree>(friction_data.regressor[0], rows);
  const int kinds = (friction.viscous ? 1 : 0) + (friction.coulomb ? 1 : 0);
  out.resize(y.rows(), y.cols() + kinds * n);
  out.leftCols(y.cols()) = y;
  Eigen::Index at = y.cols();
  if (friction.viscous) {
    out.middleCols(at, n) = yf.leftCols(n);
    at += n;
  }
  if (friction.coulomb) out.middleCols(at, n) = yf.rightCols(n);
  return Status::kOk;
}

/// The order in which columns are offered to the independent set: bodies in
/// tree order, each body's inertia (I_zz, I_yy, I_xx, I_yz, I_xz, I_xy), then
/// h (z, y, x), then m; then the columns past the first `num_inertial` (10 N;
/// −1: all whole groups of ten) in their order (friction).
inline std::vector<int> preference_order(int num_parameters, int num_inertial = -1) {
  static const int kWithinBody[10] = {9, 6, 4, 8, 7, 5, 3, 2, 1, 0};
  const int bodies = (num_inertial < 0 ? num_parameters : num_inertial) / 10;
  std::vector<int> order;
  for (int body = 0; body < bodies; ++body)
    for (int k : kWithinBody) order.push_back(10 * body + k);
  for (int c = bodies * 10; c < num_parameters; ++c) order.push_back(c);
  return order;
}

/// The base parameters from a stacked regressor W (rows × 10N). kInvalidArgument
/// for an empty or non-finite W, or a tolerance outside (0, 1). W's first
/// `num_inertial` columns are 10-parameter bodies (−1: every whole ten).
inline Status base_parameters_from_stack(const Eigen::MatrixXd& w, double tolerance,
                                         BaseParameters& out, int num_inertial = -1) {
  out = BaseParameters{};
  if (w.rows() == 0 || w.cols() == 0 || !w.allFinite() || !(tolerance > 0.0 && tolerance < 1.0))
    return Status::kInvalidArgument;
  const int p = static_cast<int>(w.cols());
  Eigen::VectorXd norms = w.colwise().norm().transpose();
  Eigen::MatrixXd unit = w;
  for (int c = 0; c < p; ++c)
    if (norms(c) > 0.0) unit.col(c) /= norms(c);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(unit);
  const Eigen::MatrixXd r = qr.matrixR()
                                .topRows(std::min<Eigen::Index>(unit.rows(), p))
                                .template triangularView<Eigen::Upper>();
  const double r00 = r.rows() > 0 ? std::abs(r(0, 0)) : 0.0;
  if (!(r00 > 0.0)) return Status::kInvalidArgument;  // W = 0: nothing identifiable
  int b = 0;
  while (b < r.rows() && std::abs(r(b, b)) > tolerance * r00) ++b;
  out.num_parameters = p;
  out.rank = b;
  out.smallest_kept_pivot = std::abs(r(b - 1, b - 1)) / r00;
  out.largest_dropped_pivot = b < r.rows() ? std::abs(r(b, b)) / r00 : 0.0;
  // The independent set: the first columns in `preference_order` that add to
  // the span (parents before children, a body's I before its h before its m:
  // a child's m, its first moment along the joint axis and one inertia
  // regroup into its parent with coefficients the size of the link lengths,
  // as in Khalil's regrouping), found by Gram–Schmidt on the unit columns
  // with the same tolerance. It depends on the model only, not on the random states
  // (which the pivots of the QR do). If it disagrees with the QR's rank (an
  // ill-conditioned stack), the QR's pivots are kept.
  std::vector<int> independent, dependent;
  Eigen::MatrixXd basis(unit.rows(), b);
  for (int c : preference_order(p, num_inertial)) {
    Eigen::VectorXd v = unit.col(c);
    const int kept = static_cast<int>(independent.size());
    for (int pass = 0; pass < 2; ++pass)  // twice is enough (Kahan–Parlett)
      v -= basis.leftCols(kept) * (basis.leftCols(kept).transpose() * v);
    const double residual = v.norm();
    if (kept < b && residual > tolerance * r00 && norms(c) > 0.0) {
      basis.col(kept) = v / residual;
      independent.push_back(c);
    } else {
      dependent.push_back(c);
    }
  }
  const auto& perm = qr.colsPermutation().indices();
  out.permutation.resize(static_cast<std::size_t>(p));
  if (static_cast<int>(independent.size()) == b) {
    for (int i = 0; i < b; ++i)
      out.permutation[static_cast<std::size_t>(i)] = independent[static_cast<std::size_t>(i)];
    for (int d = 0; d < p - b; ++d)
      out.permutation[static_cast<std::size_t>(b + d)] = dependent[static_cast<std::size_t>(d)];
  } else {
    for (int c = 0; c < p; ++c) out.permutation[static_cast<std::size_t>(c)] = perm(c);
  }
  // K_d: W_b K_d = W_d (exact: W_d lies in the span of W_b), solved on the
  // unit columns and scaled back, K_d = D_b⁻¹ K̂_d D_d.
  const int nd = p - b;
  Eigen::MatrixXd wb(unit.rows(), b), wd(unit.rows(), nd);
  for (int i = 0; i < b; ++i) wb.col(i) = unit.col(out.permutation[static_cast<std::size_t>(i)]);
  for (int d = 0; d < nd; ++d)
    wd.col(d) = unit.col(out.permutation[static_cast<std::size_t>(b + d)]);
  Eigen::MatrixXd k =
      nd > 0 ? Eigen::MatrixXd(wb.colPivHouseholderQr().solve(wd)) : Eigen::MatrixXd::Zero(b, 0);
  for (int i = 0; i < b; ++i) k.row(i) /= norms(out.permutation[static_cast<std::size_t>(i)]);
  for (int d = 0; d < nd; ++d) k.col(d) *= norms(out.permutation[static_cast<std::size_t>(b + d)]);
  for (Eigen::Index i = 0; i < k.size(); ++i)  // zero columns of W: K_d entries 0
    if (!std::isfinite(k(i))) k(i) = 0.0;
  out.combination = k;
  out.base_map = Eigen::MatrixXd::Zero(b, p);
  for (int i = 0; i < b; ++i) out.base_map(i, out.permutation[static_cast<std::size_t>(i)]) = 1.0;
  for (int d = 0; d < nd; ++d)
    out.base_map.col(out.permutation[static_cast<std::size_t>(b + d)]) = k.col(d);
  if (!out.combination.allFinite()) {
    out = BaseParameters{};
    return Status::kNonFiniteResult;
  }
  return Status::kOk;
}

/// The base parameters of `model` (file comment): Y^(0) over
/// options.num_states random states. Errors: kInvalidArgument (num_states < 1,
/// bad tolerance), the regressor's status.
template <class Tree>
Status compute_base_parameters(const Model<Tree, double>& model,
                               const BaseParameterOptions& options, BaseParameters& out) {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "the identification tools");  // rows and columns per joint
  out = BaseParameters{};
  if (options.num_states < 1 || !(options.joint_range > 0.0) || !(options.rate_scale > 0.0))
    return Status::kInvalidArgument;
  constexpr int kRows = 6 + TreeTraits<Tree>::kNumJoints;
  const int rows_per_state =
      options.rows == RegressorRows::kJointsOnly ? TreeTraits<Tree>::kNumJoints : kRows;
  if (rows_per_state == 0) return Status::kInvalidArgument;
  constexpr int kInertial = 10 * TreeTraits<Tree>::kNumBodies;
  const int columns =
      kInertial + TreeTraits<Tree>::kNumJoints *
                      ((options.friction.viscous ? 1 : 0) + (options.friction.coulomb ? 1 : 0));
  Eigen::MatrixXd w(static_cast<Eigen::Index>(options.num_states) * rows_per_state, columns);
  auto data = std::make_unique<RegressorData<Tree, 0, double>>();
  auto friction = std::make_unique<FrictionRegressorData<Tree, 0, double>>();
  std::mt19937_64 gen(options.seed);
  MotionDerivatives<Tree, 0, double> motion;
  Eigen::MatrixXd y;
  for (int k = 0; k < options.num_states; ++k) {
    random_motion<Tree, 0>(gen, options, motion);
    const Status s =
        extended_regressor_rows(model, *data, *friction, motion, options.rows, options.friction, y);
    if (s != Status::kOk) return s;
    w.middleRows(static_cast<Eigen::Index>(k) * rows_per_state, rows_per_state) = y;
  }
  const Status s = base_parameters_from_stack(w, options.tolerance, out, kInertial);
  if (s == Status::kOk) {
    out.num_inertial_parameters = kInertial;
    out.friction = options.friction;
  }
  return s;
}

/// β = B π (π: 10 N entries; else an empty vector).
inline Eigen::VectorXd base_parameter_values(const BaseParameters& bp, const Eigen::VectorXd& pi) {
  if (pi.size() != bp.num_parameters) return Eigen::VectorXd();
  return bp.base_map * pi;
}

/// Y_b = Y P[:, :b]: the regressor in base-parameter form (Y π = Y_b β). Y
/// with 10 N columns; else an empty matrix.
inline Eigen::MatrixXd base_regressor(const BaseParameters& bp, const Eigen::MatrixXd& y) {
  if (y.cols() != bp.num_parameters) return Eigen::MatrixXd();
  Eigen::MatrixXd yb(y.rows(), bp.rank);
  for (int i = 0; i < bp.rank; ++i) yb.col(i) = y.col(bp.permutation[static_cast<std::size_t>(i)]);
  return yb;
}

/// A model's π as a dynamic vector (model_parameters).
template <class Tree>
Eigen::VectorXd parameter_vector(const Model<Tree, double>& model) {
  const auto pi = model_parameters(model);
  Eigen::VectorXd out(static_cast<Eigen::Index>(pi.size()));
  for (Eigen::Index i = 0; i < out.size(); ++i) out(i) = pi[static_cast<std::size_t>(i)];
  return out;
}

}  // namespace identification
}  // namespace hodyn
