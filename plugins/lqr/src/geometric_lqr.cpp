// GeometricLqr (hodyn/control/geometric_lqr.hpp): gain design at configure
// time, the control step, the safe command.
#include "hodyn/control/geometric_lqr.hpp"

#include <cmath>

#include "hodyn/detail/validation.hpp"
#include "hodyn/logarithm.hpp"

namespace hodyn {
namespace control {
namespace {

bool finite_nonnegative(double x) { return std::isfinite(x) && x >= 0.0; }
bool positive_finite(double x) { return std::isfinite(x) && x > 0.0; }

/// Scales x(offset .. offset + 2) down to norm `limit` when it is longer.
template <class Vector>
void clamp_norm3(Vector& x, int offset, double limit) {
  const double n = x.template segment<3>(offset).norm();
  if (n > limit) x.template segment<3>(offset) *= limit / n;
}

}  // namespace

bool LqrWeights::valid() const noexcept {
  const double q[] = {position,          attitude,      joint,  base_velocity,
                      base_rate,         joint_rate,    wrench, attitude_integral,
                      position_integral, joint_integral};
  for (double v : q)
    if (!finite_nonnegative(v)) return false;
  return positive_finite(force_effort) && positive_finite(moment_effort) &&
         positive_finite(joint_acceleration_effort);
}

GeometricLqr::ReferenceState GeometricLqr::reference_state(const Reference& r) noexcept {
  // Spatial twist of C(t) = (R, x): V = (ω; ẋ − ω × x), V̇ = (ω̇; ẍ − ω̇ × x − ω × ẋ).
  ReferenceState s;
  s.pose.rotation = r.orientation;
  s.pose.translation = r.position[0];
  const Vector3<double>& w = r.angular_velocity[0];
  const Vector3<double>& w_dot = r.angular_velocity[1];
  s.twist << w, r.position[1] - w.cross(r.position[0]);
  s.twist_dot << w_dot, r.position[2] - w_dot.cross(r.position[0]) - w.cross(r.position[1]);
  s.q = r.joints[0];
  s.q_dot = r.joints[1];
  s.q_ddot = r.joints[2];
  return s;
}

Status GeometricLqr::design_gain(const Model<Tree, double>& model, const ReferenceState& p,
                                 double dt, double rotor_time_constant, const LqrWeights& w,
                                 const JointVector& joint_inertia, GainDesign& d) noexcept {
  if (!positive_finite(dt) || !positive_finite(rotor_time_constant) || !w.valid())
    return Status::kInvalidArgument;
  for (int j = 0; j < kNumJoints; ++j)
    if (!positive_finite(joint_inertia(j))) return Status::kInvalidArgument;
  // u_ref: inverse dynamics of the reference (base wrench in the base frame, Ad_C₁ᵀ Q₁).
  d.motion.base_pose = p.pose;
  d.motion.base_twist[0] = p.twist;
  d.motion.base_twist[1] = p.twist_dot;
  d.motion.q[0] = p.q;
  d.motion.q[1] = p.q_dot;
  d.motion.q[2] = p.q_ddot;
  Status s = inverse_dynamics(model, d.inverse, d.motion, 0);
  if (s != Status::kOk) return s;
  d.feedforward << d.inverse.base_wrench_body[0], d.inverse.joint_torque[0];
  // A, B at the reference with its feedforward (FD then returns its acceleration).
  d.point.base_pose = p.pose;
  d.point.base_twist = p.twist;
  d.point.q = p.q;
  d.point.q_dot = p.q_dot;
  d.point.base_wrench_frame = WrenchFrame::kBase;
  d.point.base_wrench[0] = d.inverse.base_wrench_body[0];
  d.point.joint_torque[0] = d.inverse.joint_torque[0];
  s = linearize(model, d.linearization, d.point);
  if (s != Status::kOk) return s;
  const auto& lin = d.linearization.result;
  // Continuous (z, δW) model with the wrench lag, and Van Loan's ZOH pair:
  // exp([[A_c B_c], [0 0]] dt) = [[A_d B_d], [0 I]].
  constexpr int n = 2 * kDofs;  // 24
  const double lag = 1.0 / rotor_time_constant;
  d.augmented.setZero();
  d.augmented.topLeftCorner<n, n>() = lin.a * dt;
  d.augmented.block<n, 6>(0, n) = lin.b.leftCols<6>() * dt;  // B_W
  d.augmented.block<6, 6>(n, n).diagonal().setConstant(-lag * dt);
  d.augmented.block<6, 6>(n, kPlant).diagonal().setConstant(lag * dt);  // δW_cmd → δW
  d.augmented.block<n, kNumJoints>(0, kPlant + 6) = lin.b.rightCols<kNumJoints>() * dt;  // B_τ
  s = matrix_exponential(d.augmented, d.exponential, d.term);
  if (s != Status::kOk) return s;
  d.a.setZero();
  d.b.setZero();
  d.a.topLeftCorner<kPlant, kPlant>() = d.exponential.topLeftCorner<kPlant, kPlant>();
  d.b.topRows<kPlant>() = d.exponential.topRightCorner<kPlant, kInput>();
  // The integrators, as update() runs them: ι_[k+1] = ι_[k] + Δt (ξ, δq)_[k].
  d.a.bottomRightCorner<kIntegral, kIntegral>().setIdentity();
  d.a.block<kIntegral, kIntegral>(kPlant, 0).diagonal().setConstant(dt);
  // Q, R diagonal: ξ = (angular; linear), δq, δV = (angular; linear), δq̇, δW = (moment; force).
  Eigen::Matrix<double, kState, 1> q;
  q << Eigen::Vector3d::Constant(w.attitude), Eigen::Vector3d::Constant(w.position),
      JointVector::Constant(w.joint), Eigen::Vector3d::Constant(w.base_rate),
      Eigen::Vector3d::Constant(w.base_velocity), JointVector::Constant(w.joint_rate),
      Vector6<double>::Constant(w.wrench), Eigen::Vector3d::Constant(w.attitude_integral),
      Eigen::Vector3d::Constant(w.position_integral), JointVector::Constant(w.joint_integral);
  InputVector r;
  r << Eigen::Vector3d::Constant(w.moment_effort), Eigen::Vector3d::Constant(w.force_effort),
      w.joint_acceleration_effort * joint_inertia.cwiseProduct(joint_inertia).cwiseInverse();
  d.q = q.asDiagonal();
  d.r = r.asDiagonal();
  return solve_discrete_riccati(d.a, d.b, d.q, d.r, d.riccati, 60, 1e-13);
}

double GeometricLqr::schedule_time(int k) const noexcept {
  return points_ > 1 ? trajectory_.horizon * k / (points_ - 1) : 0.0;
}

Status GeometricLqr::configure(const GeometricLqrConfig& c) noexcept {
  if (!(c.rate_hz >= 500.0 && c.rate_hz <= 4000.0)) return Status::kInvalidArgument;
  if (c.schedule_points < 2 || c.schedule_points > kMaxSchedulePoints)
    return Status::kInvalidArgument;
  if (!c.weights.valid()) return Status::kInvalidArgument;
  if (!finite_nonnegative(c.torque_loop_gain) || c.torque_loop_gain > 50.0 ||
      !positive_finite(c.torque_loop_damping) || c.torque_loop_damping > 5.0)
    return Status::kInvalidArgument;
  const double limits[] = {c.max_position_error, c.max_attitude_error,   c.max_joint_error,
                           c.max_base_speed,     c.max_base_rate,        c.max_joint_rate,
                           c.hold_timeout,       c.safe_torque_fraction, c.max_integral,
                           c.integration_zone};
  for (double v : limits)
    if (!positive_finite(v)) return Status::kInvalidArgument;
  if (c.safe_torque_fraction > 1.0 || c.integration_zone > 1.0) return Status::kInvalidArgument;

  Description robot;
  Status s = Robot::describe<double>(robot);
  if (s != Status::kOk) return s;
  Allocation allocation;
  s = allocation.configure(robot.rotors);
  if (s != Status::kOk) return s;
  // One lag for the wrench: the rotors' mean time constant (equal on this robot).
  double lag = 0.0;
  for (int i = 0; i < kNumRotors; ++i) lag += robot.rotors[i].time_constant / kNumRotors;

  // The designs (stack: GainDesign and the gains; sizeof in docs/lqr.md; configure-time only).
  GainDesign design;
  const double dt = 1.0 / c.rate_hz;
  std::array<Gain, kMaxSchedulePoints> gains;
  DesignReport report;
  const auto account = [&report](const GainDesign& d) {
    ++report.points;
    if (d.riccati.iterations > report.max_iterations) report.max_iterations = d.riccati.iterations;
    if (d.riccati.step > report.max_step) report.max_step = d.riccati.step;
  };
  const Table3Trajectory trajectory{};
  // Hover: at rest at the reference's start pose and joints.
  ReferenceState hover;
  hover.pose = trajectory.base_pose(0.0);
  hover.q = trajectory.joints(0.0, 0);
  // The joints' inertias at hover (M̄'s joint diagonal) scale R of δτ: a first
  // design gives M̄, the second the hover gain.
  JointVector inertia = JointVector::Ones();
  s = design_gain(robot.model, hover, dt, lag, c.weights, inertia, design);
  if (s != Status::kOk) return s;
  inertia = design.linearization.derivatives.result.mass_matrix.diagonal().tail<kNumJoints>();
  s = design_gain(robot.model, hover, dt, lag, c.weights, inertia, design);
  if (s != Status::kOk) return s;
  account(design);
  const Gain hover_gain = design.riccati.k;
  for (int k = 0; k < c.schedule_points; ++k) {
    const double t = trajectory.horizon * k / (c.schedule_points - 1);
    ReferenceState p;
    p.pose = trajectory.base_pose(t);
    p.twist = trajectory.base_twist(t, 0);
    p.twist_dot = trajectory.base_twist(t, 1);
    p.q = trajectory.joints(t, 0);
    p.q_dot = trajectory.joints(t, 1);
    p.q_ddot = trajectory.joints(t, 2);
    s = design_gain(robot.model, p, dt, lag, c.weights, inertia, design);
    if (s != Status::kOk) return s;
    account(design);
    gains[static_cast<std::size_t>(k)] = design.riccati.k;
  }

  // Hover speeds and holding torques for the safe command: rest at home, level.
  MotionDerivatives<Tree, 0> rest;
  rest.base_pose = Pose<double>::identity();
  InverseDynamicsData<Tree, 0> statics;
  s = inverse_dynamics(robot.model, statics, rest, 0);
  if (s != Status::kOk) return s;
  RotorVector hover_squared;
  (void)allocation.speeds_squared(statics.base_wrench_body[0], hover_squared);

  config_ = c;
  robot_ = robot;
  allocation_ = allocation;
  trajectory_ = trajectory;
  gains_ = gains;
  hover_gain_ = hover_gain;
  report_ = report;
  dt_ = dt;
  points_ = c.schedule_points;
  for (int j = 0; j < kNumJoints; ++j) {
    const JointActuator& a = robot.actuator(j);
    const bool elastic = a.drive == JointDrive::kElastic;
    elastic_(j) = elastic ? 1.0 : 0.0;
    stiffness_(j) = elastic ? a.stiffness : 1.0;
    motor_inertia_(j) = elastic ? a.motor_inertia : 0.0;
    motor_friction_(j) = elastic ? a.motor_friction : 0.0;
    // d_τ = 2ζ √((1 + k_τ) B / K): the spring torque's loop (B/K) τ̈ + d_τ τ̇ + (1 + k_τ) τ.
    torque_damping_(j) =
        elastic ? 2.0 * c.torque_loop_damping *
                      std::sqrt((1.0 + c.torque_loop_gain) * a.motor_inertia / a.stiffness)
                : 0.0;
    torque_limit_(j) = a.torque_limit;
  }
  for (int i = 0; i < kNumRotors; ++i) {
    min_speed_(i) = robot.rotors[i].min_speed;
    max_speed_(i) = robot.rotors[i].max_speed;
  }
  hover_speed_ = hover_squared.cwiseSqrt();
  holding_torque_ = statics.joint_torque[0].cwiseMin(torque_limit_).cwiseMax(-torque_limit_);
  hold_steps_ = std::lround(c.hold_timeout * c.rate_hz);
  configured_ = true;
  reset();
  return Status::kOk;
}

void GeometricLqr::reset() noexcept {
  last_time_ = -1e300;
  integral_.setZero();
  bad_steps_ = 0;
  have_last_good_ = false;
  last_good_ = Output{};
  diagnostics_ = Diagnostics{};
}

namespace {
/// K x column by column, 12-row axpys into two accumulators (even and odd
/// columns: two independent chains). Eigen's GEMV on 12 rows took 149 ns
/// (SSE2), 79 (AVX2), 111 (AVX-512: 1.5 registers a column) for the two
/// products of a scheduled step (docs/lqr.md, "Cost").
GeometricLqr::InputVector gain_times(const GeometricLqr::Gain& k,
                                     const GeometricLqr::StateVector& x) noexcept {
  static_assert(GeometricLqr::kState % 2 == 0, "columns taken in pairs");
  GeometricLqr::InputVector even = GeometricLqr::InputVector::Zero();
  GeometricLqr::InputVector odd = GeometricLqr::InputVector::Zero();
  for (int c = 0; c < GeometricLqr::kState; c += 2) {
    even += x(c) * k.col(c);
    odd += x(c + 1) * k.col(c + 1);
  }
  return even + odd;
}
}  // namespace

void GeometricLqr::feedback(double reference_time, const StateVector& x,
                            InputVector& du) const noexcept {
  if (!config_.gain_schedule || points_ < 2) {
    du = -gain_times(hover_gain_, x);
    return;
  }
  // s = t (N − 1)/T clamped to [0, N − 1]; K = (1 − f) K_i + f K_{i+1}.
  double s = reference_time * (points_ - 1) / trajectory_.horizon;
  if (!(s > 0.0)) s = 0.0;  // also NaN
  if (s > points_ - 1) s = points_ - 1;
  int i = static_cast<int>(s);
  if (i > points_ - 2) i = points_ - 2;
  const double f = s - i;
  const auto k = static_cast<std::size_t>(i);
  du = (f - 1.0) * gain_times(gains_[k], x) - f * gain_times(gains_[k + 1], x);
}

void GeometricLqr::error_state(const Measurement& m, const ReferenceState& ref,
                               const Wrench<double>& w_ref, StateVector& x) const noexcept {
  x.segment<6>(0) = se3_log(Pose<double>(ref.pose.inverse() * m.base_pose));
  x.segment<kNumJoints>(6) = m.q - ref.q;
  x.segment<6>(6 + kNumJoints) = m.base_twist - ref.twist;
  x.segment<kNumJoints>(12 + kNumJoints) = m.q_dot - ref.q_dot;
  const RotorVector squared = m.rotor_speed.cwiseProduct(m.rotor_speed);
  x.segment<6>(2 * kDofs) = allocation_.matrix() * squared - w_ref;
  x.tail<kIntegral>() = integral_;
}

Status GeometricLqr::check_measurement(const Measurement& m) const noexcept {
  if (!std::isfinite(m.time)) return Status::kNonFiniteInput;
  const Status pose = hodyn::detail::check_pose(m.base_pose);
  if (pose != Status::kOk) return pose;
  if (!hodyn::detail::all_finite(m.base_twist) || !hodyn::detail::all_finite(m.q) ||
      !hodyn::detail::all_finite(m.q_dot) || !hodyn::detail::all_finite(m.motor_position) ||
      !hodyn::detail::all_finite(m.motor_velocity) || !hodyn::detail::all_finite(m.rotor_speed))
    return Status::kNonFiniteInput;
  if (m.time <= last_time_) return Status::kStaleInput;
  const Vector3<double> w = angular(m.base_twist);
  const Vector3<double> velocity = linear(m.base_twist) + w.cross(m.base_pose.translation);
  if (w.norm() > config_.max_base_rate || velocity.norm() > config_.max_base_speed ||
      m.q_dot.cwiseAbs().maxCoeff() > config_.max_joint_rate)
    return Status::kSensorOutOfRange;
  for (int i = 0; i < kNumRotors; ++i)
    if (m.rotor_speed(i) < 0.0 || m.rotor_speed(i) > 2.0 * max_speed_(i))
      return Status::kSensorOutOfRange;
  return Status::kOk;
}

void GeometricLqr::safe_command(Output& out) noexcept {
  if (!configured_) {
    out = Output{};
    return;
  }
  ++bad_steps_;
  const bool hold = have_last_good_ && bad_steps_ <= hold_steps_;
  out.mode = hold ? CommandMode::kHold : CommandMode::kHover;
  out.rotor_speed = hold ? last_good_.rotor_speed : hover_speed_;
  const JointVector limit = torque_limit_ * config_.safe_torque_fraction;
  out.motor_torque = have_last_good_ ? last_good_.motor_torque : holding_torque_;
  out.motor_torque = out.motor_torque.cwiseMin(limit).cwiseMax(-limit);
}

Status GeometricLqr::update(const Measurement& m, const Reference& r, double reference_time,
                            Output& out) noexcept {
  if (!configured_) {
    out = Output{};
    return Status::kNotConfigured;
  }
  Status input = check_measurement(m);
  if (input == Status::kOk) {
    const bool finite = std::isfinite(reference_time) && hodyn::detail::all_finite(r.orientation);
    bool all = finite;
    for (const auto& v : r.position) all = all && hodyn::detail::all_finite(v);
    for (const auto& v : r.angular_velocity) all = all && hodyn::detail::all_finite(v);
    for (const auto& v : r.joints) all = all && hodyn::detail::all_finite(v);
    if (!all)
      input = Status::kNonFiniteInput;
    else if (!hodyn::detail::is_rotation(r.orientation))
      input = Status::kNonOrthonormalRotation;
  }
  if (input != Status::kOk) {
    safe_command(out);
    return input;
  }
  last_time_ = m.time;

  // u_ref: inverse dynamics of the reference.
  const ReferenceState ref = reference_state(r);
  motion_.base_pose = ref.pose;
  motion_.base_twist[0] = ref.twist;
  motion_.base_twist[1] = ref.twist_dot;
  motion_.q[0] = ref.q;
  motion_.q[1] = ref.q_dot;
  motion_.q[2] = ref.q_ddot;
  const Status id = inverse_dynamics(robot_.model, inverse_, motion_, 0);
  if (id != Status::kOk) {
    safe_command(out);
    return id;
  }
  const Wrench<double>& w_ref = inverse_.base_wrench_body[0];
  const JointVector& tau_ref = inverse_.joint_torque[0];

  // (z, δW), clamped; δu = −K(t) (z, δW).
  StateVector& x = diagnostics_.error;
  error_state(m, ref, w_ref, x);
  clamp_norm3(x, 0, config_.max_attitude_error);
  clamp_norm3(x, 3, config_.max_position_error);
  for (int j = 0; j < kNumJoints; ++j) {
    double& e = x(6 + j);
    if (e > config_.max_joint_error) e = config_.max_joint_error;
    if (e < -config_.max_joint_error) e = -config_.max_joint_error;
  }
  InputVector& du = diagnostics_.feedback;
  feedback(reference_time, x, du);
  // ι_[k+1] = ι_[k] + Δt (ξ, δq)_[k] (the design's integrator), within ±max_integral,
  // and only inside the integration zone (an error group beyond it — a start
  // far from the reference, a jump — is the proportional terms' to remove:
  // integrating it would only wind up an overshoot).
  const double zone = config_.integration_zone;
  if (x.head<3>().norm() <= zone * config_.max_attitude_error)
    integral_.head<3>() += dt_ * x.head<3>();
  if (x.segment<3>(3).norm() <= zone * config_.max_position_error)
    integral_.segment<3>(3) += dt_ * x.segment<3>(3);
  for (int j = 0; j < kNumJoints; ++j)
    if (std::fabs(x(6 + j)) <= zone * config_.max_joint_error) integral_(6 + j) += dt_ * x(6 + j);
  const double bound = config_.max_integral;
  integral_ = integral_.cwiseMin(bound).cwiseMax(-bound);
  diagnostics_.feedforward << w_ref, tau_ref;

  // Rotors: W_cmd = W_ref + δW_cmd through the allocation, speeds within limits.
  const Wrench<double> w_cmd = w_ref + du.head<6>();
  RotorVector squared;
  bool rotors_saturated = allocation_.speeds_squared(w_cmd, squared) != Status::kOk;
  RotorVector speed = squared.cwiseSqrt();
  for (int i = 0; i < kNumRotors; ++i) {
    if (speed(i) < min_speed_(i) || speed(i) > max_speed_(i)) {
      speed(i) = speed(i) < min_speed_(i) ? min_speed_(i) : max_speed_(i);
      rotors_saturated = true;
    }
  }
  // Joints: τ_cmd = τ_ref + δτ; an elastic joint's torque loop on τ_s = K (θ − q).
  const JointVector tau_cmd = tau_ref + du.tail<kNumJoints>();
  const JointVector spring = stiffness_.cwiseProduct(m.motor_position - m.q);
  const JointVector spring_rate = stiffness_.cwiseProduct(m.motor_velocity - m.q_dot);
  const JointVector elastic_command = tau_cmd + config_.torque_loop_gain * (tau_cmd - spring) -
                                      torque_damping_.cwiseProduct(spring_rate) +
                                      motor_friction_.cwiseProduct(m.motor_velocity) +
                                      motor_inertia_.cwiseProduct(ref.q_ddot);
  JointVector u = elastic_.cwiseProduct(elastic_command) +
                  (JointVector::Ones() - elastic_).cwiseProduct(tau_cmd);
  bool motors_saturated = false;
  for (int j = 0; j < kNumJoints; ++j) {
    if (u(j) > torque_limit_(j) || u(j) < -torque_limit_(j)) {
      u(j) = u(j) > 0.0 ? torque_limit_(j) : -torque_limit_(j);
      motors_saturated = true;
    }
  }
  if (!hodyn::detail::all_finite(speed) || !hodyn::detail::all_finite(u)) {
    safe_command(out);
    return Status::kNonFiniteResult;
  }
  const bool saturated = rotors_saturated || motors_saturated;
  out.rotor_speed = speed;
  out.motor_torque = u;
  out.mode = saturated ? CommandMode::kSaturated : CommandMode::kTracking;
  last_good_ = out;
  have_last_good_ = true;
  bad_steps_ = 0;
  diagnostics_.schedule_position =
      config_.gain_schedule
          ? std::fmin(std::fmax(reference_time * (points_ - 1) / trajectory_.horizon, 0.0),
                      points_ - 1.0)
          : 0.0;
  diagnostics_.rotors_saturated = rotors_saturated;
  diagnostics_.motors_saturated = motors_saturated;
  return saturated ? Status::kActuatorSaturated : Status::kOk;
}

}  // namespace control
}  // namespace hodyn
