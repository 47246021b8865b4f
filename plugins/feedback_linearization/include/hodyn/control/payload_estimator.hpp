// hodyn/control/payload_estimator.hpp — online estimation of a payload carried
// by one body (the end effector), for the feedback-linearization controller
// (feedback_linearization.hpp; docs/payload-estimation.md).
//
// The payload is a point mass: θ = (m, h), h = m c its first moment in the
// payload body's `set_body` frame (c its position). The dynamics are linear in
// the body's ten parameters (inverse_dynamics_regressor.hpp):
// ID(π + Δπ) = ID(π) + Y Δπ, so with the controller's CURRENT model (nominal
// body ⊕ the point mass θ̂) and Φ = the (m, h) columns of the body's
// regressor,
//
//   y = τ̄_f − ID_current(q, ν, a_f) + Φ θ̂ = Φ θ,
//
// the regression needs no second copy of the model. The point mass's
// rotational inertia about the body origin, −[h]²/m = m (|c|² 1 − c cᵀ), is in
// the model fed back (inertia_parameters), while the regression ignores the
// payload's own inertia columns about its centre of mass (zero for a point
// mass, small for a compact payload).
//
// Accelerations are never differentiated: each component of ν = (V₁; q̇) and of
// the measured τ̄ = (W_prop (base frame); τ) passes a first-order low-pass of
// bandwidth λ (exact discretisation, α = 1 − e^(−λΔt)),
//
//   ν_f += α (ν − ν_f),   a_f = λ (ν − ν_f)   (= the filtered ν̇),
//   τ̄_f += α (τ̄ − τ̄_f),
//
// and ID is evaluated at (q_f, ν_f, a_f), q_f the same filter on q: every
// argument then lags by the filter's delay 1/λ, as τ̄_f does, so to first
// order filter(ID(q, ν, ν̇)) = ID(q_f, ν_f, a_f) (evaluating the gravity and
// Coriolis terms at the unfiltered q, ν biased the first moment by centimetres
// in the unit test). The base pose is not filtered (its rotation enters
// through gravity only, and turns slowly).
//
// Recursive least squares with exponential forgetting (time constant T_f,
// μ = e^(−Δt/T_f) per step): P ← P/μ once per step, then one scalar update per
// weighted row (φᵢ = wᵢ Φᵢ, yᵢ = wᵢ yᵢ; no matrix inverse):
//
//   k = P φ / (1 + φᵀ P φ),   θ ← θ + k (y − φᵀ θ),   P ← P − k φᵀ P,
//
// P symmetrized and its trace clamped to `max_covariance_trace` (bounded gain
// while nothing excites). Row weights wᵢ: 1/force_scale on the three forces
// (1/N), 1/moment_scale on the three moments and 1/joint_scale on the joint
// torques (1/(N m)). After each step θ is projected onto
// 0 ≤ m ≤ max_mass, |h| ≤ m · max_offset (|c| ≤ max_offset).
// A step is skipped (and counted, the filters left as they were) when the
// largest weighted residual of the raw sample, wᵢ (τ̄ − ID_current)ᵢ, exceeds
// `residual_gate` (an outlier) or anything is non-finite; the
// caller skips it while its input is bad, and the filters restart after that
// (restart_filters()). θ never takes a NaN: a non-finite result is dropped.
//
// Fixed size, no heap, no exceptions; Scalar = double or float.
#pragma once

#include <cmath>

#include "hodyn/inertial_parameters.hpp"
#include "hodyn/inverse_dynamics.hpp"
#include "hodyn/inverse_dynamics_regressor.hpp"
#include "hodyn/model.hpp"
#include "hodyn/motion.hpp"
#include "hodyn/status.hpp"

namespace hodyn {
namespace control {

/// Settings of the payload estimator (SI units).
struct PayloadEstimatorConfig {
  int body = 0;                      ///< payload body 1..num_joints; 0: the last body
  double bandwidth = 50.0;           ///< λ of the acceleration / force filters (rad/s)
  double forgetting_time = 0.05;     ///< T_f of the exponential forgetting (s)
  double max_mass = 0.5;             ///< kg: 0 ≤ m ≤ max_mass
  double max_offset = 0.3;           ///< m: |c| ≤ max_offset in the body frame
  double initial_covariance = 1.0;   ///< P₀ = p₀ 1 (weighted units: kg², kg² m²)
  double max_covariance_trace = 10;  ///< tr P ≤ this
  double force_scale = 1.0;          ///< N: a force row's weight is 1/force_scale
  double moment_scale = 0.2;         ///< N m: a moment row's weight is 1/moment_scale
  double joint_scale = 0.2;          ///< N m (N): a joint row's weight is 1/joint_scale
  double residual_gate = 20.0;       ///< largest weighted raw residual accepted

  bool valid() const noexcept {
    const double positive[] = {bandwidth,          forgetting_time,      max_mass,    max_offset,
                               initial_covariance, max_covariance_trace, force_scale, moment_scale,
                               joint_scale,        residual_gate};
    for (double v : positive)
      if (!(v > 0.0 && std::isfinite(v))) return false;
    return initial_covariance * 4.0 <= max_covariance_trace;
  }
};

/// The estimator of a point-mass payload on one body of a `Tree`.
template <class Tree, class Scalar = double>
class PayloadEstimator {
  HODYN_REQUIRE_SINGLE_DOF_JOINTS(Tree, "PayloadEstimator");  // rows per joint

 public:
  static constexpr int kNumJoints = TreeTraits<Tree>::kNumJoints;
  static constexpr int kRows = 6 + kNumJoints;
  using JointVector = Eigen::Matrix<Scalar, kNumJoints, 1>;
  using Generalized = Eigen::Matrix<Scalar, kRows, 1>;  ///< (base 6; joints)
  using Parameters = Eigen::Matrix<Scalar, 4, 1>;       ///< θ = (m, h)

  /// What happened in one update().
  enum class Step : std::uint8_t {
    kUpdated,      ///< θ̂ moved
    kFiltersOnly,  ///< filters (re)started: no estimate this step
    kRejected,     ///< residual gate or non-finite data: step skipped
  };

  /// The scratch of one update(): the motion at the filtered state and the
  /// inverse dynamics there (whose kinematics also give the regressor's
  /// columns: inverse_dynamics_with_body_columns). Nothing in it is kept from
  /// one update to the next, so a caller may lend storage that it uses for
  /// something else in between (the controller: its rest-torque workspace,
  /// docs/payload-estimation.md "On the flight controller").
  using Motion = MotionDerivatives<Tree, 0, Scalar>;
  using Dynamics = InverseDynamicsData<Tree, 0, Scalar>;
  struct Workspace {
    Motion motion{};
    Dynamics dynamics{};
  };

  PayloadEstimator() noexcept { reset(); }

  /// Validates the settings and takes `nominal` (the body's nominal inertia);
  /// `body` must be 1..num_joints (resolve 0 before). Resets.
  Status configure(const PayloadEstimatorConfig& config, int body,
                   const SpatialInertia<Scalar>& nominal, double dt) noexcept {
    if (!config.valid() || body < 1 || body > kNumJoints || !(dt > 0.0) || !std::isfinite(dt))
      return Status::kInvalidArgument;
    config_ = config;
    body_ = body;
    nominal_ = to_parameters(nominal);
    dt_ = Scalar(dt);
    alpha_ = Scalar(1.0 - std::exp(-config.bandwidth * dt));
    lambda_ = Scalar(config.bandwidth);
    forget_ = Scalar(std::exp(dt / config.forgetting_time));  // 1/μ
    for (int r = 0; r < kRows; ++r)
      weight_(r) = Scalar(1.0 / (r < 3   ? config.moment_scale
                                 : r < 6 ? config.force_scale
                                         : config.joint_scale));
    reset();
    return Status::kOk;
  }

  /// Forgets the estimate (θ̂ = 0: the nominal model) and the filters.
  void reset() noexcept {
    theta_.setZero();
    covariance_ = Eigen::Matrix<Scalar, 4, 4>::Identity() * Scalar(config_.initial_covariance);
    restart_filters();
    rejected_ = 0;
    updates_ = 0;
  }
  /// The filters start again from the next sample (after bad input).
  void restart_filters() noexcept { filters_ready_ = false; }

  /// One sample: the controller's current model (nominal ⊕ θ̂), the measured
  /// state and the measured generalized force τ̄ = (W_prop in the base frame;
  /// joint torques); `ws` the scratch (any content). Needs a configured
  /// estimator.
  Step update(const Model<Tree, Scalar>& model, const Pose<Scalar>& base_pose,
              const Twist<Scalar>& base_twist, const JointVector& q, const JointVector& q_dot,
              const Generalized& force, Workspace& ws) noexcept {
    return update(model, base_pose, base_twist, q, q_dot, force, ws.motion, ws.dynamics);
  }
  /// The same with the scratch in two pieces (any content in; `motion`'s
  /// entries and `dynamics` are overwritten).
  Step update(const Model<Tree, Scalar>& model, const Pose<Scalar>& base_pose,
              const Twist<Scalar>& base_twist, const JointVector& q, const JointVector& q_dot,
              const Generalized& force, Motion& motion, Dynamics& dynamics) noexcept {
    Generalized nu;
    nu << base_twist, q_dot;
    Scalar finite = (nu - nu).sum() + (force - force).sum();
    if (finite != Scalar(0)) {
      restart_filters();
      ++rejected_;
      return Step::kRejected;
    }
    if (!filters_ready_) {
      velocity_filtered_ = nu;
      force_filtered_ = force;
      position_filtered_ = q;
      filters_ready_ = true;
      return Step::kFiltersOnly;
    }
    // The filters move only if the sample passes the gate (below).
    const Generalized velocity_filtered = velocity_filtered_ + alpha_ * (nu - velocity_filtered_);
    const Generalized force_filtered = force_filtered_ + alpha_ * (force - force_filtered_);
    const Generalized acceleration = lambda_ * (nu - velocity_filtered);
    const JointVector position_filtered = position_filtered_ + alpha_ * (q - position_filtered_);

    motion.base_pose = base_pose;
    motion.base_twist[0] = velocity_filtered.template head<6>();
    motion.base_twist[1] = acceleration.template head<6>();
    motion.q[0] = position_filtered;
    motion.q[1] = velocity_filtered.template tail<kNumJoints>();
    motion.q[2] = acceleration.template tail<kNumJoints>();
    // One pass: ID_current and the body's (m, h) columns from its kinematics.
    BodyColumns<Tree, 4, Scalar> columns;
    if (inverse_dynamics_with_body_columns(model, dynamics, motion, body_, columns) !=
        Status::kOk) {
      ++rejected_;
      return Step::kRejected;
    }
    // Rows: base-frame wrench (moments, forces), then the joint torques.
    Eigen::Matrix<Scalar, kRows, 4> phi;
    phi.template topRows<6>() = columns.base_frame_regressor;
    phi.template bottomRows<kNumJoints>() = columns.regressor.template bottomRows<kNumJoints>();
    Generalized model_force;
    model_force << dynamics.base_wrench_body[0], dynamics.joint_torque[0];
    // The gate: the raw sample's weighted residual τ̄ − ID_current (a spike
    // would pass through the filter attenuated, so it is caught before).
    const Generalized raw = weight_.cwiseProduct(force - model_force);
    // y − Φ θ̂ = τ̄_f − ID_current: the a-priori residual, weighted.
    const Generalized residual = weight_.cwiseProduct(force_filtered - model_force);
    phi = weight_.asDiagonal() * phi;
    finite = (residual - residual).sum() + (phi - phi).sum();
    if (finite != Scalar(0) || raw.cwiseAbs().maxCoeff() > Scalar(config_.residual_gate)) {
      ++rejected_;
      return Step::kRejected;
    }
    velocity_filtered_ = velocity_filtered;
    force_filtered_ = force_filtered;
    position_filtered_ = position_filtered;
    const Generalized y = residual + phi * theta_;

    Parameters theta = theta_;
    Eigen::Matrix<Scalar, 4, 4> p = covariance_ * forget_;
    for (int r = 0; r < kRows; ++r) {
      const Parameters row = phi.row(r).transpose();
      const Parameters p_row = p * row;
      const Scalar gain_denominator = Scalar(1) + row.dot(p_row);
      const Parameters gain = p_row / gain_denominator;
      theta += gain * (y(r) - row.dot(theta));
      p -= gain * p_row.transpose();
    }
    p = Scalar(0.5) * (p + p.transpose()).eval();
    const Scalar trace = p.trace();
    const Scalar max_trace = Scalar(config_.max_covariance_trace);
    if (trace > max_trace) p *= max_trace / trace;
    finite = (theta - theta).sum() + (p - p).sum();
    if (finite != Scalar(0) || !(trace > Scalar(0))) {
      ++rejected_;
      return Step::kRejected;
    }
    theta_ = project(theta);
    covariance_ = p;
    ++updates_;
    return Step::kUpdated;
  }

  /// θ projected onto 0 ≤ m ≤ max_mass, |h| ≤ m · max_offset.
  Parameters project(const Parameters& theta) const noexcept {
    Parameters out = theta;
    const Scalar max_mass = Scalar(config_.max_mass);
    if (out(0) < Scalar(0)) out(0) = Scalar(0);
    if (out(0) > max_mass) out(0) = max_mass;
    const Scalar h = out.template tail<3>().norm();
    const Scalar h_max = out(0) * Scalar(config_.max_offset);
    if (h > h_max) out.template tail<3>() *= h > Scalar(0) ? h_max / h : Scalar(0);
    return out;
  }

  /// The body's ten parameters with the point mass θ̂ added (its rotational
  /// inertia about the body origin m (|c|² 1 − c cᵀ)).
  BodyParameters<Scalar> body_parameters() const noexcept {
    BodyParameters<Scalar> pi = nominal_;
    const Scalar m = theta_(0);
    pi(0) += m;
    pi.template segment<3>(1) += theta_.template tail<3>();
    if (m > Scalar(0)) {
      const Vector3<Scalar> c = theta_.template tail<3>() / m;
      const Matrix3<Scalar> inertia =
          m * (c.squaredNorm() * Matrix3<Scalar>::Identity() - c * c.transpose());
      for (int i = 0; i < 3; ++i)
        for (int j = i; j < 3; ++j) pi(inertia_parameter_index(i, j)) += inertia(i, j);
    }
    return pi;
  }
  /// Writes nominal ⊕ θ̂ into `model`'s payload body (set_body; a refusal
  /// leaves the model as it was and is returned).
  Status apply(Model<Tree, Scalar>& model) const noexcept {
    return model.set_body(body_, model.home_pose(body_),
                          from_parameters<Scalar>(body_parameters()));
  }

  int body() const noexcept { return body_; }
  const Parameters& estimate() const noexcept { return theta_; }
  Scalar mass() const noexcept { return theta_(0); }
  /// c = h / m (zero while m = 0).
  Vector3<Scalar> offset() const noexcept {
    return theta_(0) > Scalar(0) ? Vector3<Scalar>(theta_.template tail<3>() / theta_(0))
                                 : Vector3<Scalar>::Zero();
  }
  const Eigen::Matrix<Scalar, 4, 4>& covariance() const noexcept { return covariance_; }
  long rejected_steps() const noexcept { return rejected_; }
  long updates() const noexcept { return updates_; }
  const PayloadEstimatorConfig& config() const noexcept { return config_; }

 private:
  PayloadEstimatorConfig config_{};
  int body_ = 1;
  BodyParameters<Scalar> nominal_ = BodyParameters<Scalar>::Zero();
  Scalar dt_ = Scalar(1e-3), alpha_ = Scalar(0), lambda_ = Scalar(0), forget_ = Scalar(1);
  Generalized weight_ = Generalized::Ones();
  // ---- state ----
  Parameters theta_ = Parameters::Zero();
  Eigen::Matrix<Scalar, 4, 4> covariance_ = Eigen::Matrix<Scalar, 4, 4>::Identity();
  bool filters_ready_ = false;
  Generalized velocity_filtered_ = Generalized::Zero(), force_filtered_ = Generalized::Zero();
  JointVector position_filtered_ = JointVector::Zero();
  long rejected_ = 0, updates_ = 0;
  // (no workspace: update() takes one, Workspace)
};

}  // namespace control
}  // namespace hodyn
