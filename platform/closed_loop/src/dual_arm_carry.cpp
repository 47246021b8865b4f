// The dual-arm carry: the bar, the closed plant, the constrained controller
// and the run (see dual_arm_carry.hpp, docs/dual-arm-carry.md).
#include "hodyn/closed_loop/dual_arm_carry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include <Eigen/LU>
#include <Eigen/QR>

#include "hodyn/closed_loop/report.hpp"
#include "hodyn/closed_loop/tracking.hpp"
#include "hodyn/kinematics.hpp"
#include "hodyn/logarithm.hpp"
#include "hodyn/reference/table3_trajectory.hpp"
#include "hodyn/simulator/constrained_plant.hpp"

namespace hodyn {
namespace closed_loop {
namespace {

using Robot = AerialManipulatorRobot;
using Tree = AerialManipulatorTree;
using Plant = sim::RobotConstrainedPlant<Robot, 1>;
using State = Plant::State;
using Input = Plant::Input;
using JointVector = Eigen::Matrix<double, 6, 1>;
using RotorVector = sim::PlantTraits<Robot>::RotorVector;

constexpr double kGripperDepth =
    0.06;                             ///< gripper 6 cm below a tip's centre of mass (scenario.hpp)
constexpr double kMaxBarMass = 2.0;   ///< kg
constexpr double kMaxSqueeze = 20.0;  ///< N
constexpr double kDeg = 180.0 / 3.14159265358979323846;
/// The grasp (deg): shoulders 30° inwards, both elbows 30° towards +y, wrists
/// at 0. The weld's arm block has σ_min = 0.037 here; Table 3's start q0 is
/// nearly singular (σ_min = 4.8e-4) and every grasp mirrored about the
/// base's x–z plane (q₂ = −q₅) exactly so (docs/dual-arm-carry.md).
constexpr std::array<double, 6> kGraspDegrees{30.0, 30.0, 0.0, -30.0, 30.0, 0.0};

/// A uniform thin rod of `mass` from `from` to `to` (world points), as the
/// inertia of a body whose world pose is `body`.
SpatialInertia<double> rod_in_body(const Pose<double>& body, const Vector3<double>& from,
                                   const Vector3<double>& to, double mass) {
  const double length = (to - from).norm();
  const Vector3<double> axis = (to - from) / length;
  const Matrix3<double> about_com_world =
      mass * length * length / 12.0 * (Matrix3<double>::Identity() - axis * axis.transpose());
  const Matrix3<double>& r = body.rotation;
  return SpatialInertia<double>::from_mass_com_inertia(mass, body.inverse().act(0.5 * (from + to)),
                                                       r.transpose() * about_com_world * r);
}

SpatialInertia<double> sum(const SpatialInertia<double>& a, const SpatialInertia<double>& b) {
  SpatialInertia<double> s = a;
  s.mass += b.mass;
  s.first_moment += b.first_moment;
  s.rotational_inertia += b.rotational_inertia;
  return s;
}

/// Table 3's base path with the joints held at the grasp angles (what the
/// closure allows): the reference RobotRunStatistics reads.
struct CarryReference {
  Table3Trajectory table3{};
  JointVector q_grasp = JointVector::Zero();
  Pose<double> base_pose(double t) const { return table3.base_pose(t); }
  JointVector joints(double, int k) const { return k == 0 ? q_grasp : JointVector::Zero(); }
};

/// The controller (see dual_arm_carry.hpp): exact state in, plant input out.
class CarryController {
 public:
  // Base gains: critically damped second-order error dynamics at 8 rad/s
  // (position) and 20 rad/s (attitude), the feedback-linearization plugin's
  // bandwidths (its default TrackingGains).
  static constexpr double kPositionBandwidth = 8.0, kAttitudeBandwidth = 20.0;

  Status configure(const DualArmCarrySetup& setup, const sim::RobotActuatorConstants<Robot>& act,
                   double dt, double squeeze, const ConstraintStabilization<double>& gains) {
    model_ = setup.robot.model;
    closures_ = setup.closures;
    act_ = act;
    dt_ = dt;
    gains_ = gains;
    options_.objective = ConstraintForceObjective::kMinimumConstraintForce;
    options_.commanded_multiplier = Multipliers::Zero(6);
    options_.commanded_multiplier(3) = squeeze;
    Eigen::FullPivLU<Eigen::Matrix<double, 6, 6>> lu(act.allocation.leftCols<6>());
    if (act.allocation.cols() != 6 || !lu.isInvertible()) return Status::kInvalidArgument;
    allocation_inverse_ = lu.inverse();
    for (int i = 0; i < 6; ++i)
      lag_gain_(i) = 1.0 / (1.0 - std::exp(-dt / act.rotor_time_constant(i)));
    has_previous_torque_ = false;
    return Status::kOk;
  }

  /// The command for state `x` at time t; `torque` gets τ_d, `multiplier` λ.
  Status update(const State& x, const CarryReference& ref, double t, Input& input) {
    const Table3Trajectory& tr = ref.table3;
    const Pose<double>& c = x.base_pose;
    const Vector3<double> p = c.translation;
    const Vector3<double> w = x.base_twist.head<3>();
    const Vector3<double> p_dot = Vector3<double>(x.base_twist.tail<3>()) + w.cross(p);
    const double kp_p = kPositionBandwidth * kPositionBandwidth, kd_p = 2.0 * kPositionBandwidth;
    const double kp_r = kAttitudeBandwidth * kAttitudeBandwidth, kd_r = 2.0 * kAttitudeBandwidth;
    const Vector3<double> a_c = tr.base_position(t, 2) + kd_p * (tr.base_position(t, 1) - p_dot) +
                                kp_p * (tr.base_position(t, 0) - p);
    const Matrix3<double> rd = tr.base_pose(t).rotation;
    const Vector3<double> alpha_c = tr.base_angular_velocity(t, 1) +
                                    kd_r * (tr.base_angular_velocity(t, 0) - w) +
                                    kp_r * so3_log(Matrix3<double>(rd * c.rotation.transpose()));
    // V̇₁ = (ω̇; v̇), v = ṗ − ω × p ⇒ v̇ = p̈ − ω̇ × p − ω × ṗ.
    Twist<double> v_dot;
    v_dot << alpha_c, a_c - alpha_c.cross(p) - w.cross(p_dot);

    // The joints' accelerations the closure dictates: A ν̇ = −Ȧν − k_v Aν − k_p f.
    motion_.base_pose = c;
    motion_.base_twist[0] = x.base_twist;
    motion_.base_twist[1].setZero();
    motion_.q[0] = x.q;
    motion_.q[1] = x.q_dot;
    motion_.q[2].setZero();
    Status s = forward_kinematics(model_, kinematics_, motion_, 0);
    if (s == Status::kOk) s = loop_closure_kinematics(kinematics_, closures_, closure_, 0);
    if (s != Status::kOk) return s;
    const auto& a = closure_.jacobian[0];
    const Multipliers rhs = gains_.target(closure_.velocity[0], closure_.error) -
                            closure_.velocity[1] - a.leftCols<6>() * v_dot;
    const Eigen::Matrix<double, Eigen::Dynamic, 6> arm = a.rightCols<6>();
    const JointVector q_ddot = arm.completeOrthogonalDecomposition().solve(Eigen::VectorXd(rhs));

    // Constrained inverse dynamics: (Q₁ world; τ) and λ nearest λ_c.
    motion_.base_twist[1] = v_dot;
    motion_.q[2] = q_ddot;
    s = constrained_inverse_dynamics(model_, closures_, motion_, options_, data_);
    if (s != Status::kOk) return s;
    multiplier_error_ = (data_.multiplier - options_.commanded_multiplier).cwiseAbs().maxCoeff();
    const Wrench<double> q1 = data_.generalized_force.head<6>();
    const JointVector tau = data_.generalized_force.tail<6>();

    // Rotors: ω² of W_prop = Ad_C₁ᵀ Q₁ (base frame), the lag inverted over one
    // period: ω(t + Δt) = ω_d when ω_cmd = ω + (ω_d − ω) / (1 − e^(−Δt/T)).
    const RotorVector squared = allocation_inverse_ * coadjoint(c, q1);
    for (int i = 0; i < 6; ++i) {
      const double lo = act_.min_rotor_speed(i), hi = act_.max_rotor_speed(i);
      const double wd = std::sqrt(std::clamp(squared(i), lo * lo, hi * hi));
      desired_speed_(i) = wd;
      input.rotor_speed_command(i) = x.rotor_speed(i) + lag_gain_(i) * (wd - x.rotor_speed(i));
    }
    // Elastic joints: the motor to θ_d = q + τ_d / K (θ̇_d with τ̇_d by a
    // backward difference), u = τ_d + F θ̇ + B q̈_c + k_d (θ̇_d − θ̇), k_d for a
    // critically damped motor against the spring; rigid joints: u = τ_d.
    const JointVector tau_rate =
        has_previous_torque_ ? JointVector((tau - previous_torque_) / dt_) : JointVector::Zero();
    previous_torque_ = tau;
    has_previous_torque_ = true;
    for (int j = 0; j < 6; ++j) {
      if (!act_.elastic(j)) {
        input.motor_torque(j) = tau(j);
        continue;
      }
      const double k = act_.stiffness(j), b = act_.motor_inertia(j);
      const double kd = std::max(0.0, 2.0 * std::sqrt(b * k) - act_.damping(j));
      const double theta_dot_d = x.q_dot(j) + tau_rate(j) / k;
      input.motor_torque(j) = tau(j) + act_.motor_friction(j) * x.motor_velocity(j) +
                              b * q_ddot(j) + kd * (theta_dot_d - x.motor_velocity(j));
    }
    torque_ = tau;
    return Status::kOk;
  }

  /// The plant state at rest on the reference at t with the command's
  /// equilibrium: rotors at ω_d, motors at θ = q + τ_d / K.
  Status start_state(const CarryReference& ref, double t, State& x) {
    Input unused;
    const Status s = update(x, ref, t, unused);
    if (s != Status::kOk) return s;
    x.rotor_speed = desired_speed_;
    for (int j = 0; j < 6; ++j) {
      x.motor_position(j) = x.q(j) + (act_.elastic(j) ? torque_(j) / act_.stiffness(j) : 0.0);
      x.motor_velocity(j) = x.q_dot(j);
    }
    has_previous_torque_ = false;
    return Status::kOk;
  }

  double multiplier_error() const { return multiplier_error_; }

 private:
  using Multipliers = ConstrainedDynamicsData<Tree, 1, double>::Multipliers;
  Model<Tree, double> model_{};
  std::array<LoopClosure<double>, 1> closures_{};
  sim::RobotActuatorConstants<Robot> act_{};
  double dt_ = 1e-3;
  ConstraintStabilization<double> gains_{};
  ConstrainedInverseDynamicsOptions<Tree, 1, double> options_{};
  Eigen::Matrix<double, 6, 6> allocation_inverse_ = Eigen::Matrix<double, 6, 6>::Identity();
  RotorVector lag_gain_ = RotorVector::Ones();
  RotorVector desired_speed_ = RotorVector::Zero();
  JointVector torque_ = JointVector::Zero(), previous_torque_ = JointVector::Zero();
  bool has_previous_torque_ = false;
  double multiplier_error_ = 0.0;
  MotionDerivatives<Tree, 0, double> motion_{};
  KinematicsData<Tree, 0, double> kinematics_{};
  LoopClosureData<Tree, 1, 0, double> closure_{};
  ConstrainedDynamicsData<Tree, 1, double> data_{};
};

}  // namespace

Status make_dual_arm_carry(double bar_mass, DualArmCarrySetup& out) {
  if (!(bar_mass > 0.0 && bar_mass <= kMaxBarMass)) return Status::kInvalidArgument;
  DualArmCarrySetup setup;
  setup.robot = sim::default_description<Robot>();
  for (int j = 0; j < 6; ++j) setup.q_grasp(j) = kGraspDegrees[static_cast<std::size_t>(j)] / kDeg;
  setup.bar_mass = bar_mass;
  // The grippers at the grasp (base at the origin: the placements are body-fixed).
  auto kinematics = std::make_unique<KinematicsData<Tree, 0, double>>();
  MotionDerivatives<Tree, 0, double> motion;
  motion.q[0] = setup.q_grasp;
  Status s = forward_kinematics(setup.robot.model, *kinematics, motion, 0);
  if (s != Status::kOk) return s;
  const Pose<double> tip1 = kinematics->body_pose[3], tip2 = kinematics->body_pose[6];
  const Vector3<double> grip1 = tip1.act(Vector3<double>(0.0, 0.0, -kGripperDepth));
  const Vector3<double> grip2 = tip2.act(Vector3<double>(0.0, 0.0, -kGripperDepth));
  const Vector3<double> middle = 0.5 * (grip1 + grip2);
  setup.bar_length = (grip2 - grip1).norm();
  // The bar frame: x from gripper 1 to gripper 2, z the world z made orthogonal.
  Pose<double> bar;
  const Vector3<double> ex = (grip2 - grip1) / setup.bar_length;
  Vector3<double> ez = Vector3<double>::UnitZ() - ex.z() * ex;
  ez.normalize();
  bar.rotation.col(0) = ex;
  bar.rotation.col(1) = ez.cross(ex);
  bar.rotation.col(2) = ez;
  bar.translation = middle;
  // Each half merged into the tip that holds it.
  auto& model = setup.robot.model;
  const double half = 0.5 * bar_mass;
  s = model.set_body(3, model.home_pose(3),
                     sum(model.body_inertia(3), rod_in_body(tip1, grip1, middle, half)));
  if (s == Status::kOk)
    s = model.set_body(6, model.home_pose(6),
                       sum(model.body_inertia(6), rod_in_body(tip2, middle, grip2, half)));
  if (s != Status::kOk) return s;
  LoopClosure<double>& weld = setup.closures[0];
  weld.kind = LoopClosureKind::kWeld;
  weld.frame_a.body = 3;
  weld.frame_a.placement = tip1.inverse() * bar;
  weld.frame_b.body = 6;
  weld.frame_b.placement = tip2.inverse() * bar;
  out = setup;
  return Status::kOk;
}

Status run_dual_arm_carry(const DualArmCarryOptions& o, DualArmCarrySummary& summary,
                          std::vector<Sample>* samples) {
  const auto wall_start = std::chrono::steady_clock::now();
  summary = DualArmCarrySummary{};
  RunSummary& run = summary.run;
  run.robot = Robot::kName;
  run.scenario = Scenario::kDualArmCarry;
  run.duration = o.duration;
  run.control_rate_hz = o.control_rate_hz;
  run.plant_rate_hz = o.plant_rate_hz;
  run.settle_time = o.settle_time;
  const double dt = 1.0 / o.control_rate_hz;
  const double substeps = o.plant_rate_hz / o.control_rate_hz;
  if (!(o.duration > 0.0) || !(o.control_rate_hz > 0.0) || !std::isfinite(substeps) ||
      std::abs(substeps - std::round(substeps)) > 1e-9 || substeps < 1.0 ||
      !(std::abs(o.squeeze) <= kMaxSqueeze) || !(o.stabilization_rate >= 0.0) ||
      !std::isfinite(o.stabilization_rate))
    return Status::kInvalidArgument;

  auto setup = std::make_unique<DualArmCarrySetup>();
  Status s = make_dual_arm_carry(o.bar_mass, *setup);
  if (s != Status::kOk) return s;
  // The plant's bar: the controller's, or another mass on the same geometry.
  auto plant_setup = std::make_unique<DualArmCarrySetup>(*setup);
  if (o.plant_bar_mass != 0.0) {
    s = make_dual_arm_carry(o.plant_bar_mass, *plant_setup);
    if (s != Status::kOk) return s;
  }
  const ConstraintStabilization<double> gains{2.0 * o.stabilization_rate,
                                              o.stabilization_rate * o.stabilization_rate};
  sim::RobotPlantParameters<Robot> params;
  params.robot = plant_setup->robot;
  params.step = 1.0 / o.plant_rate_hz;
  static Plant plant;  // large: keep off the stack
  s = plant.configure(params, plant_setup->closures, gains);
  if (s != Status::kOk) return s;
  static CarryController controller;
  s = controller.configure(*setup, plant.actuators(), dt, o.squeeze, gains);
  if (s != Status::kOk) return s;

  CarryReference reference;
  reference.q_grasp = setup->q_grasp;
  // The bar's reference: its pose in the base frame at the grasp (the base at the
  // origin in make_dual_arm_carry), carried by the reference base pose.
  State start;
  start.base_pose = reference.base_pose(0.0);
  start.base_twist = reference.table3.base_twist(0.0, 0);
  start.q = setup->q_grasp;
  s = controller.start_state(reference, 0.0, start);
  if (s == Status::kOk) s = plant.set_state(start);
  if (s != Status::kOk) return s;
  Plant::Rates rates;
  Input input;
  s = plant.evaluate(input, rates);
  if (s != Status::kOk) return s;
  const Pose<double> bar_in_base = start.base_pose.inverse() * rates.pose_a[0];

  const long steps = std::lround(o.duration * o.control_rate_hz);
  std::vector<double> step_times;
  step_times.reserve(static_cast<std::size_t>(steps));
  if (samples != nullptr) {
    samples->clear();
    if (o.record_every > 0) samples->reserve(static_cast<std::size_t>(steps / o.record_every + 1));
  }
  RobotRunStatistics<Robot> statistics(o.settle_time, -1.0);
  hodyn_command command{};
  command.mode = HODYN_MODE_TRACKING;
  double bar_sum_squares = 0.0, squeeze_sum = 0.0;
  long after_settle = 0;
  bool finite = true;
  for (long k = 0; k < steps; ++k) {
    const double t = static_cast<double>(k) * dt;
    const State& x = plant.state();
    const auto t0 = std::chrono::steady_clock::now();
    s = controller.update(x, reference, t, input);
    const auto t1 = std::chrono::steady_clock::now();
    if (s != Status::kOk) break;
    step_times.push_back(std::chrono::duration<double>(t1 - t0).count());
    summary.controller_multiplier_error_max =
        std::max(summary.controller_multiplier_error_max, controller.multiplier_error());
    s = plant.evaluate(input, rates);
    if (s != Status::kOk) break;

    const auto e = statistics.add_state(reference, t, x);
    command.mode = plant.last_step_saturated() ? HODYN_MODE_SATURATED : HODYN_MODE_TRACKING;
    statistics.add_command(command);
    summary.constraint_violation_max_m =
        std::max(summary.constraint_violation_max_m, rates.violation_m);
    summary.constraint_violation_max_rad =
        std::max(summary.constraint_violation_max_rad, rates.violation_rad);
    finite = finite && std::isfinite(rates.violation_m) && rates.multiplier.allFinite();
    if (t >= o.settle_time) {
      const Pose<double> bar_reference = e.reference_pose * bar_in_base;
      const Pose<double>& bar = rates.pose_a[0];
      const double position = (bar_reference.translation - bar.translation).norm();
      const double angle =
          so3_log(Matrix3<double>(bar_reference.rotation * bar.rotation.transpose())).norm();
      summary.object_pose_error_max_m = std::max(summary.object_pose_error_max_m, position);
      summary.object_pose_error_max_rad = std::max(summary.object_pose_error_max_rad, angle);
      bar_sum_squares += position * position;
      const Vector3<double> force = rates.multiplier.segment<3>(3);
      squeeze_sum += force.x();
      summary.internal_force_error_max_n = std::max(
          summary.internal_force_error_max_n, (force - Vector3<double>(o.squeeze, 0, 0)).norm());
      summary.internal_moment_max_nm =
          std::max(summary.internal_moment_max_nm, rates.multiplier.head<3>().norm());
      ++after_settle;
    }

    if (samples != nullptr && o.record_every > 0 && k % o.record_every == 0) {
      Sample row;
      row.time = t;
      row.num_joints = 6;
      row.num_rotors = 6;
      for (int i = 0; i < 3; ++i) {
        row.position[static_cast<std::size_t>(i)] = x.base_pose.translation(i);
        row.position_reference[static_cast<std::size_t>(i)] = e.reference_pose.translation(i);
        row.attitude_error[static_cast<std::size_t>(i)] = e.attitude(i);
      }
      row.yaw = std::atan2(x.base_pose.rotation(1, 0), x.base_pose.rotation(0, 0));
      row.yaw_reference =
          std::atan2(e.reference_pose.rotation(1, 0), e.reference_pose.rotation(0, 0));
      Eigen::Quaterniond r(x.base_pose.rotation);
      if (r.w() < 0.0) r.coeffs() = -r.coeffs();
      row.base_quaternion = {r.w(), r.x(), r.y(), r.z()};
      for (int i = 0; i < 6; ++i) {
        const auto ii = static_cast<std::size_t>(i);
        row.q[ii] = x.q(i);
        row.q_reference[ii] = e.q_reference(i);
        row.motor_torque[ii] = input.motor_torque(i);
        row.q_dot[ii] = x.q_dot(i);
        row.joint_torque[ii] = rates.joint_torque(i);
        row.rotor_speed[ii] = x.rotor_speed(i);
        row.rotor_command[ii] = input.rotor_speed_command(i);
        row.base_twist[ii] = x.base_twist(i);
        row.propulsion_wrench[ii] = rates.propulsion_wrench(i);
      }
      row.mode = static_cast<int>(command.mode);
      samples->push_back(row);
    }

    s = plant.step(input, dt);
    if (s != Status::kOk) break;
    statistics.add_plant_step(plant.last_step_saturated());
  }
  if (s != Status::kOk) return s;
  run.steps = steps;
  statistics.finish(dt, run);
  run.stable = run.stable && finite;
  run.step_median = percentile(step_times, 0.5);
  run.step_p99 = percentile(step_times, 0.99);
  run.step_max = step_times.empty() ? 0.0 : *std::max_element(step_times.begin(), step_times.end());
  run.controller_workspace_bytes = sizeof(CarryController);
  summary.object_position_error_rms_m =
      after_settle > 0 ? std::sqrt(bar_sum_squares / static_cast<double>(after_settle)) : 0.0;
  summary.squeeze_commanded_n = o.squeeze;
  summary.squeeze_measured_mean_n =
      after_settle > 0 ? squeeze_sum / static_cast<double>(after_settle) : 0.0;
  summary.bar_mass_kg = setup->bar_mass;
  summary.plant_bar_mass_kg = plant_setup->bar_mass;
  summary.bar_length_m = setup->bar_length;
  summary.stabilization_velocity_gain = gains.velocity_gain;
  summary.stabilization_position_gain = gains.position_gain;
  summary.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return Status::kOk;
}

void print_dual_arm_carry_summary(const DualArmCarrySummary& s, std::FILE* out) {
  print_run_summary(s.run, out);
  std::fprintf(out,
               "  bar %.3f kg (plant %.3f kg), %.4f m; Baumgarte k_v %.4g 1/s, k_p %.4g 1/s^2\n",
               s.bar_mass_kg, s.plant_bar_mass_kg, s.bar_length_m, s.stabilization_velocity_gain,
               s.stabilization_position_gain);
  std::fprintf(out, "  constraint violation max %.3e m, %.3e rad\n", s.constraint_violation_max_m,
               s.constraint_violation_max_rad);
  std::fprintf(out, "  bar pose error   RMS %9.4f mm    max %9.4f mm, max %.5f deg\n",
               s.object_position_error_rms_m * 1e3, s.object_pose_error_max_m * 1e3,
               s.object_pose_error_max_rad * kDeg);
  std::fprintf(out,
               "  squeeze commanded %.4g N, measured mean %.4g N; internal force error max "
               "%.4g N, moment max %.4g N m\n",
               s.squeeze_commanded_n, s.squeeze_measured_mean_n, s.internal_force_error_max_n,
               s.internal_moment_max_nm);
  std::fprintf(out, "  run wall time %.2f s\n", s.wall_time_s);
}

std::string dual_arm_carry_json_members(const DualArmCarrySummary& s, const std::string& indent) {
  std::string o = run_summary_json_members(s.run, indent);
  const auto member = [&](const char* key, double value) {
    o += ",\n" + indent + "\"" + key + "\": " + json_number(value);
  };
  member("constraint_violation_max_m", s.constraint_violation_max_m);
  member("constraint_violation_max_rad", s.constraint_violation_max_rad);
  member("object_pose_error_max_m", s.object_pose_error_max_m);
  member("object_pose_error_max_rad", s.object_pose_error_max_rad);
  member("object_position_error_rms_m", s.object_position_error_rms_m);
  member("squeeze_commanded_n", s.squeeze_commanded_n);
  member("squeeze_measured_mean_n", s.squeeze_measured_mean_n);
  member("internal_force_error_max_n", s.internal_force_error_max_n);
  member("internal_moment_max_nm", s.internal_moment_max_nm);
  member("bar_mass_kg", s.bar_mass_kg);
  member("plant_bar_mass_kg", s.plant_bar_mass_kg);
  member("bar_length_m", s.bar_length_m);
  member("stabilization_velocity_gain", s.stabilization_velocity_gain);
  member("stabilization_position_gain", s.stabilization_position_gain);
  return o;
}

}  // namespace closed_loop
}  // namespace hodyn
