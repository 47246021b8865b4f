// tests/firmware/test_controller_octo_arm.cpp — the feedback-linearization
// controller built for the second robot, octo_arm (core/robots/octo_arm: 8
// tilted rotors, an arm of 4 joints — rigid, elastic, prismatic, rigid), on
// target, in the image's scalar:
//   robot       octo_arm::Robot::describe gives 4 joints (one prismatic, one
//               elastic) and 8 rotors; the controller configures from it;
//   registry    its plugin is registered statically for octo_arm's robot id
//               (the name this image's firmware looks up) and names octo_arm;
//   hover       at rest at home (q = 0), level, with the rotors at the
//               minimum-norm squared speeds of the holding wrench and the
//               elastic joint deflected by its gravity torque, one update
//               gives rotor speeds inside every rotor's limits whose wrench
//               A ω² holds the weight — force (0, 0, m g), moment c × (m g)
//               about the base origin, with m and the centre of mass c summed
//               here from the generated tables (kInertia, kHomePose), not from
//               the dynamics — and joint commands u = τ (the holding torques);
//   bad input   a NaN prismatic-joint rate → kNonFiniteInput, kHold with the
//               last good rotor speeds and torques within the safe fraction;
//   stack       the high-water mark of one update() (stack painting).
// Tolerances as in test_controller.cpp: c · eps · κ(M̄) relative to the size
// of the quantity (the step runs a forward and an inverse dynamics solve with
// M̄), kSolveGrowth = 50; ω² doubles ω's relative error. The measured values
// are printed.
#include <octo_arm_robot.hpp>

#include <hodyn/control/feedback_linearization.hpp>
#include <hodyn/plugin/registry.hpp>
#include <hodyn/plugin/robot_identity.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "hodyn/baremetal/stack_paint.hpp"
#include "hodyn/baremetal/systick.hpp"

#include "self_test.hpp"
#include "spd_matrix.hpp"

namespace hodyn {
namespace firmware_test {
namespace {

using Robot = octo_arm::Robot;
using Tree = Robot::Tree;
using Controller = control::FeedbackLinearization<Robot, Scalar>;
using JointVector = Controller::JointVector;
using RotorVector = Controller::RotorVector;
using V3 = Vector3<Scalar>;
constexpr int kJoints = Controller::kNumJoints;
constexpr int kRotors = Controller::kNumRotors;
constexpr int kDof = 6 + kJoints;
constexpr double kSolveGrowth = 50.0;
constexpr const char* kPluginName =
    sizeof(Scalar) == 8 ? "feedback_linearization" : "feedback_linearization_float";

struct Workspaces {
  Controller::Description robot;
  Controller controller;
  Controller::Measurement measurement;
  Controller::Reference reference;
  Controller::Output output;
  MotionDerivatives<Tree, 0, Scalar> motion;
  InverseDynamicsData<Tree, 0, Scalar> id;
};
Workspaces g;

/// The wrench (moment about the base origin; force), base axes, that holds
/// the robot level at rest at home: from the generated tables only.
struct Weight {
  double mass = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();  ///< whole robot, base frame
  Vector6<double> wrench = Vector6<double>::Zero();
};

Weight weight_at_home() noexcept {
  namespace p = octo_arm::parameters;
  Weight w;
  for (std::size_t j = 0; j < p::kInertia.size(); ++j) {
    const auto& a = p::kHomePose[j];
    const auto& m = p::kInertia[j];
    Eigen::Matrix3d rotation;
    rotation << a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8];
    const Eigen::Vector3d com =
        Eigen::Vector3d(a[9], a[10], a[11]) + rotation * Eigen::Vector3d(m[1], m[2], m[3]);
    w.mass += m[0];
    w.com += m[0] * com;
  }
  w.com /= w.mass;
  const Eigen::Vector3d gravity(p::kGravity[0], p::kGravity[1], p::kGravity[2]);
  const Eigen::Vector3d force = -w.mass * gravity;  // the rotors cancel m g
  w.wrench << w.com.cross(force), force;
  return w;
}

/// Minimum-norm squared speeds x = Aᵀ (A Aᵀ)⁻¹ W (spd_matrix.hpp, not the
/// controller's allocator), A = rotor_allocation (core) in double.
Eigen::Matrix<double, kRotors, 1> minimum_norm_squares(const Eigen::Matrix<double, 6, kRotors>& a,
                                                       const Vector6<double>& wrench) noexcept {
  static SpdMatrix<6> gram;
  if (!gram.factorize(a * a.transpose())) {
    return Eigen::Matrix<double, kRotors, 1>::Constant(std::numeric_limits<double>::quiet_NaN());
  }
  return a.transpose() * gram.solve(wrench);
}

/// κ(M̄) at the measured state from order-0 inverse-dynamics columns.
double mass_matrix_condition() noexcept {
  Eigen::Matrix<double, kDof, kDof> mbar;
  g.motion = MotionDerivatives<Tree, 0, Scalar>{};
  g.motion.base_pose = g.measurement.base_pose;
  g.motion.q[0] = g.measurement.q;
  (void)inverse_dynamics(g.controller.model(), g.id, g.motion, 0);
  Eigen::Matrix<double, kDof, 1> bias;
  bias << g.id.base_wrench[0].cast<double>(), g.id.joint_torque[0].cast<double>();
  for (int i = 0; i < kDof; ++i) {
    g.motion.base_twist[1].setZero();
    g.motion.q[2].setZero();
    if (i < 6)
      g.motion.base_twist[1](i) = Scalar(1);
    else
      g.motion.q[2](i - 6) = Scalar(1);
    (void)inverse_dynamics(g.controller.model(), g.id, g.motion, 0);
    Eigen::Matrix<double, kDof, 1> col;
    col << g.id.base_wrench[0].cast<double>(), g.id.joint_torque[0].cast<double>();
    mbar.col(i) = col - bias;
  }
  mbar = 0.5 * (mbar + mbar.transpose()).eval();
  static SpdMatrix<kDof> spd;
  return spd.factorize(mbar) ? spd.condition_number() : std::numeric_limits<double>::infinity();
}

bool rotors_within_limits(const RotorVector& speed) noexcept {
  for (int i = 0; i < kRotors; ++i) {
    const auto& rotor = g.robot.rotors[i];
    if (!std::isfinite(static_cast<double>(speed(i)))) return false;
    if (!(speed(i) >= rotor.min_speed && speed(i) <= rotor.max_speed)) return false;
  }
  return true;
}

bool torques_within(const JointVector& u, double fraction) noexcept {
  for (int j = 0; j < kJoints; ++j) {
    const double v = static_cast<double>(u(j));
    if (!std::isfinite(v) || std::abs(v) > fraction * g.robot.actuators[j].torque_limit)
      return false;
  }
  return true;
}

void check_description(Checks& checks) noexcept {
  checks.expect(Robot::describe<Scalar>(g.robot) == Status::kOk,
                "octo_arm::Robot::describe -> kOk");
  int prismatic = 0, elastic = 0, rigid = 0;
  for (int j = 1; j < Tree::kNumBodies; ++j) prismatic += is_prismatic(Tree::kJoint[j]) ? 1 : 0;
  for (const JointActuator& a : g.robot.actuators)
    (a.drive == JointDrive::kElastic ? elastic : rigid) += 1;
  checks.expect(kJoints == 4 && kRotors == 8 && prismatic == 1 && elastic == 1 && rigid == 3,
                "4 joints (1 prismatic; 1 elastic, 3 rigid), 8 rotors");
  checks.expect(
      g.controller.configure(g.robot, control::FeedbackLinearizationConfig{}) == Status::kOk,
      "controller configured from describe()");
}

void check_registry(Checks& checks) noexcept {
  const hodyn_plugin_api* api = plugin::plugin_registry().find(kPluginName, Robot::kId);
  checks.expect(api != nullptr, "plugin registered statically for octo_arm's robot id");
  if (api == nullptr) return;
  const plugin::RobotIdentity expected = plugin::robot_identity<Robot>();
  checks.expect(plugin::compare_robots(expected, plugin::robot_of(*api)) == Status::kOk &&
                    api->robot_name != nullptr && std::strcmp(api->robot_name, "octo_arm") == 0,
                "the registered plugin names octo_arm (id, 4 joints, 8 rotors)");
}

}  // namespace

void run_octo_arm_controller_checks(Checks& checks) noexcept {
  namespace bm = baremetal;
  checks.group("octo_arm controller");
  check_description(checks);
  check_registry(checks);

  // At rest at home, level at 1 m: the rotors hold the weight (minimum-norm
  // squared speeds), the elastic joint is deflected by its gravity torque.
  const Weight weight = weight_at_home();
  const Eigen::Matrix<double, 6, kRotors> a = rotor_allocation(g.robot.rotors).cast<double>();
  const Eigen::Matrix<double, kRotors, 1> x_hold = minimum_norm_squares(a, weight.wrench);
  bool setup_ok = x_hold.allFinite();
  Controller::Measurement& m = g.measurement;
  m = Controller::Measurement{};
  m.time = 1e-3;
  m.base_pose.translation = V3(Scalar(0), Scalar(0), Scalar(1));
  for (int i = 0; i < kRotors; ++i) {
    const double lo = static_cast<double>(g.robot.rotors[i].min_speed);
    const double hi = static_cast<double>(g.robot.rotors[i].max_speed);
    setup_ok &= x_hold(i) >= lo * lo && x_hold(i) <= hi * hi;
    m.rotor_speed(i) = Scalar(std::sqrt(std::max(x_hold(i), 0.0)));
  }
  g.motion = MotionDerivatives<Tree, 0, Scalar>{};
  g.motion.base_pose = m.base_pose;
  g.motion.q[0] = m.q;
  setup_ok &= inverse_dynamics(g.controller.model(), g.id, g.motion, 0) == Status::kOk;
  const JointVector tau = g.id.joint_torque[0];
  for (int j = 0; j < kJoints; ++j) {
    const JointActuator& act = g.robot.actuators[j];
    if (act.drive == JointDrive::kElastic)
      m.motor_position(j) = m.q(j) + tau(j) / Scalar(act.stiffness);
  }
  checks.expect(setup_ok, "hover setup: holding speeds inside the limits, ID at rest");
  Controller::Reference& r = g.reference;
  r = Controller::Reference{};
  r.position[0] = m.base_pose.translation;
  r.orientation = m.base_pose.rotation;
  r.joints[0] = m.q;
  const double kappa = mass_matrix_condition();

  // One update; stack: paint below the current frame, the deepest word used.
  const std::size_t depth_before = bm::stack_depth_bytes();
  bm::paint_unused_stack();
  const std::uint64_t c0 = bm::cycles();
  const Status status = g.controller.update(m, r, g.output);
  const std::uint64_t cycles = bm::cycles() - c0;
  const std::size_t update_stack = bm::stack_high_water_bytes() - depth_before;
  checks.expect(status == Status::kOk && g.output.mode == control::CommandMode::kTracking,
                "hover update -> kOk, tracking");
  checks.expect(rotors_within_limits(g.output.rotor_speed),
                "rotor speeds inside every rotor's limits");

  Eigen::Matrix<double, kRotors, 1> x_out;
  for (int i = 0; i < kRotors; ++i) {
    const double w = static_cast<double>(g.output.rotor_speed(i));
    x_out(i) = w * w;
  }
  const Vector6<double> wrench = a * x_out;
  const double mg = weight.wrench.tail<3>().norm();
  const double force_error = (wrench.tail<3>() - weight.wrench.tail<3>()).norm() / mg;
  // Moments relative to m g times the rotors' RMS distance (their lever).
  double lever = 0.0;
  for (int i = 0; i < kRotors; ++i)
    lever += g.robot.rotors[i].position.cast<double>().squaredNorm();
  lever = std::sqrt(lever / kRotors);
  const double moment_error = (wrench.head<3>() - weight.wrench.head<3>()).norm() / (mg * lever);
  checks.expect_le(force_error / kappa, 2.0 * kSolveGrowth * kEps,
                   "A omega^2 holds the weight: force (0, 0, m g) (/kappa)");
  checks.expect_le(moment_error / kappa, 2.0 * kSolveGrowth * kEps,
                   "A omega^2 holds the weight: moment c x m g (/kappa)");
  double torque_error = 0.0, torque_scale = 0.0;
  for (int j = 0; j < kJoints; ++j) {
    torque_error =
        std::max(torque_error, std::abs(static_cast<double>(g.output.motor_torque(j) - tau(j))));
    torque_scale = std::max(torque_scale, std::abs(static_cast<double>(tau(j))));
  }
  checks.expect_le(torque_error / (torque_scale * kappa), kSolveGrowth * kEps,
                   "joint commands u = holding torques (/kappa)");
  checks.expect(torques_within(g.output.motor_torque, 1.0),
                "joint commands within the torque limits");
  checks.measure("robot mass", weight.mass, " kg");
  checks.measure("force error / (m g)", force_error);
  checks.measure("moment error / (m g lever)", moment_error);
  checks.measure("torque error / max |tau|", torque_error / torque_scale);
  checks.measure("condition number of M-bar", kappa);
  checks.measure_count("stack used by one update()", update_stack, " bytes");
  checks.measure_count("one update() (emulated, not a timing)", cycles, " cycles");
  checks.expect(update_stack > 0 && update_stack < bm::stack_size_bytes() / 2,
                "update() stack well inside the region");

  // NaN on the prismatic joint's rate: hold, finite and limited command.
  const Controller::Output good = g.output;
  Controller::Measurement bad = m;
  bad.time = 2e-3;
  bad.q_dot(2) = std::numeric_limits<Scalar>::quiet_NaN();
  checks.expect(g.controller.update(bad, r, g.output) == Status::kNonFiniteInput,
                "NaN prismatic rate -> kNonFiniteInput");
  checks.expect(g.output.mode == control::CommandMode::kHold &&
                    g.output.rotor_speed == good.rotor_speed &&
                    rotors_within_limits(g.output.rotor_speed),
                "NaN prismatic rate -> hold, last good rotor speeds");
  checks.expect(torques_within(g.output.motor_torque, g.controller.config().safe_torque_fraction),
                "NaN prismatic rate -> torques within the safe fraction");
}

}  // namespace firmware_test
}  // namespace hodyn
