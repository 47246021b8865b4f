// tests/firmware/test_controller.cpp — the feedback-linearization controller
// (plugins/feedback_linearization, FeedbackLinearization<Scalar>) on target:
//   exactness   the command, fed to forward dynamics of order 2 with the
//               motor equation (tests/plugins/controller_fixture.hpp,
//               produced_snap), produces the reference snap;
//   hold        at an equilibrium with a holding reference the command is the
//               equilibrium (u = τ_el, ω = measured);
//   bad input   not configured → disarmed (zero command); a NaN sensor →
//               kNonFiniteInput, mode hold, finite command within the limits;
//   saturation  an absurd joint snap → kActuatorSaturated, command in range;
//   registry    the plugin registered itself statically ("feedback_linearization");
//   stack       the high-water mark of one update() (stack painting);
//   payload     estimation on (docs/payload-estimation.md): at rest, the rotors
//               and motors holding the robot plus a 0.1 kg point mass on body 3
//               that the model lacks (the truth: inverse dynamics of the model
//               with the point mass added as a spatial inertia), the estimate
//               is within 5 % after 0.5 s and the model carries it.
// Tolerances: the law runs forward dynamics (a solve with M̄, κ ~ 1e4) and
// inverse dynamics; errors are c·eps·κ relative to the size of the
// quantities, with kSolveGrowth = 50 as in test_dynamics.cpp and κ computed
// here from the controller's model. The snap check goes through two solves in
// series (the controller's forward dynamics, then the checking forward
// dynamics of order 2), whose errors add: 2 · kSolveGrowth. The measured
// values are printed.
#include <hodyn/control/feedback_linearization.hpp>
#include <hodyn/plugin/registry.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>

#include "hodyn/baremetal/stack_paint.hpp"
#include "hodyn/baremetal/systick.hpp"

#include "self_test.hpp"
#include "spd_matrix.hpp"

namespace hodyn {
namespace firmware_test {
namespace {

using Controller = control::FeedbackLinearization<AerialManipulatorRobot, Scalar>;
using JointVector = Controller::JointVector;
using RotorVector = Controller::RotorVector;
using V3 = Vector3<Scalar>;
using Tree = AerialManipulatorTree;
constexpr double kSolveGrowth = 50.0;

struct Workspaces {
  Controller controller;
  Controller unconfigured;
  Controller::Measurement measurement;
  Controller::Reference reference;
  Controller::Output output;
  MotionDerivatives<Tree, 0, Scalar> motion;
  InverseDynamicsData<Tree, 0, Scalar> id;
  ForwardDynamicsInput<Tree, 2, Scalar> fd_in;
  ForwardDynamicsData<Tree, 2, Scalar> fd;
  Model<Tree, Scalar> loaded;  ///< the plant with a payload (payload checks)
};
Workspaces g;

double max_abs(const JointVector& x) noexcept {
  return static_cast<double>(x.cwiseAbs().maxCoeff());
}

/// Robot at rest at `position`, level, joints at q: motors hold the gravity
/// torques of `plant`, propellers its weight (controller_fixture.hpp, in Scalar).
bool equilibrium(const JointVector& q, const Model<Tree, Scalar>& plant) noexcept {
  Controller::Measurement& m = g.measurement;
  m = Controller::Measurement{};
  m.base_pose.translation = V3(Scalar(0), Scalar(0), Scalar(1));
  m.q = q;
  g.motion = MotionDerivatives<Tree, 0, Scalar>{};
  g.motion.base_pose = m.base_pose;
  g.motion.q[0] = q;
  if (inverse_dynamics(plant, g.id, g.motion, 0) != Status::kOk) return false;
  const Scalar k = Scalar(g.controller.robot().actuator(0).stiffness);
  for (int j = 0; j < 6; ++j) m.motor_position(j) = q(j) + g.id.joint_torque[0](j) / k;
  RotorVector x;
  if (g.controller.allocation().speeds_squared(g.id.base_wrench_body[0], x) != Status::kOk)
    return false;
  m.rotor_speed = x.cwiseSqrt();
  return true;
}
bool equilibrium(const JointVector& q) noexcept { return equilibrium(q, g.controller.model()); }

/// A moving, tilted state with the propellers near hover (test_feedback_linearization.cpp).
void moving_measurement(Random& rng) noexcept {
  Controller::Measurement& m = g.measurement;
  m = Controller::Measurement{};
  Eigen::Matrix<Scalar, 3, 1> axis(Scalar(rng.uniform()), Scalar(rng.uniform()),
                                   Scalar(rng.uniform()));
  axis.normalize();
  m.base_pose.rotation = Eigen::AngleAxis<Scalar>(Scalar(0.2), axis).toRotationMatrix();
  m.base_pose.translation =
      V3(Scalar(1), Scalar(0), Scalar(0.5)) +
      Scalar(0.1) * V3(Scalar(rng.uniform()), Scalar(rng.uniform()), Scalar(rng.uniform()));
  for (int i = 0; i < 6; ++i) m.base_twist(i) = Scalar(0.3 * rng.uniform());
  for (int j = 0; j < 6; ++j) {
    m.q(j) = Scalar(0.6 * rng.uniform());
    m.q_dot(j) = Scalar(0.5 * rng.uniform());
    m.motor_position(j) = m.q(j) + Scalar(0.003 * rng.uniform());
    m.motor_velocity(j) = m.q_dot(j) + Scalar(0.01 * rng.uniform());
    m.rotor_speed(j) = Scalar(800.0 + 40.0 * rng.uniform());
  }
}

/// Forward dynamics input of the measured state with (W, Ẇ=0) and (τ_el, τ̇_el).
bool fill_forward_input(int order) noexcept {
  const Controller::Measurement& m = g.measurement;
  ForwardDynamicsInput<Tree, 2, Scalar>& in = g.fd_in;
  in.base_pose = m.base_pose;
  in.base_twist = m.base_twist;
  in.q = m.q;
  in.q_dot = m.q_dot;
  in.base_wrench_frame = WrenchFrame::kBase;
  const RotorVector x = m.rotor_speed.cwiseProduct(m.rotor_speed);
  in.base_wrench[0] = g.controller.allocation().matrix() * x;
  in.base_wrench[1].setZero();
  in.base_wrench[2].setZero();
  const Scalar k = Scalar(g.controller.robot().actuator(0).stiffness);
  in.joint_torque[0] = k * (m.motor_position - m.q);
  in.joint_torque[1] = k * (m.motor_velocity - m.q_dot);
  in.joint_torque[2].setZero();
  return forward_dynamics(g.controller.model(), g.fd, in, order) == Status::kOk;
}

/// The reference equal to the measured state and its derivatives up to jerk,
/// with the given snaps.
bool matching_reference(const V3& x_snap, const V3& w_snap, const JointVector& q_snap) noexcept {
  if (!fill_forward_input(1)) return false;
  const auto& v = g.fd.motion.base_twist;
  Controller::Reference& r = g.reference;
  r = Controller::Reference{};
  const V3 x0 = g.measurement.base_pose.translation;
  r.position[0] = x0;
  r.position[1] = v[0].tail<3>() + v[0].head<3>().cross(x0);
  r.position[2] = v[1].tail<3>() + v[1].head<3>().cross(x0) + v[0].head<3>().cross(r.position[1]);
  r.position[3] = v[2].tail<3>() + v[2].head<3>().cross(x0) +
                  Scalar(2) * v[1].head<3>().cross(r.position[1]) +
                  v[0].head<3>().cross(r.position[2]);
  r.position[4] = x_snap;
  r.orientation = g.measurement.base_pose.rotation;
  for (int i = 0; i < 3; ++i)
    r.angular_velocity[static_cast<std::size_t>(i)] = v[static_cast<std::size_t>(i)].head<3>();
  r.angular_velocity[3] = w_snap;
  for (int i = 0; i < 4; ++i)
    r.joints[static_cast<std::size_t>(i)] = g.fd.motion.q[static_cast<std::size_t>(i)];
  r.joints[4] = q_snap;
  return true;
}

struct Snap {
  V3 position, angular;
  JointVector joints;
};

/// The snaps the last command produces (controller_fixture.hpp, produced_snap).
bool produced_snap(Snap& s) noexcept {
  const Controller::Measurement& m = g.measurement;
  const JointActuator& joint = g.controller.robot().actuator(0);
  if (!fill_forward_input(0)) return false;
  g.fd_in.base_wrench[2] = g.controller.diagnostics().propulsion_wrench_second;
  const JointVector tau = Scalar(joint.stiffness) * (m.motor_position - m.q);
  const JointVector theta_ddot =
      (g.output.motor_torque - Scalar(joint.motor_friction) * m.motor_velocity - tau) /
      Scalar(joint.motor_inertia);
  g.fd_in.joint_torque[2] = Scalar(joint.stiffness) * (theta_ddot - g.fd.motion.q[2]);
  if (forward_dynamics(g.controller.model(), g.fd, g.fd_in, 2) != Status::kOk) return false;
  const auto& v = g.fd.motion.base_twist;
  std::array<V3, 4> w, lin;
  for (std::size_t k = 0; k < 4; ++k) {
    w[k] = v[k].head<3>();
    lin[k] = v[k].tail<3>();
  }
  const V3 x0 = m.base_pose.translation;
  const V3 x1 = lin[0] + w[0].cross(x0);
  const V3 x2 = lin[1] + w[1].cross(x0) + w[0].cross(x1);
  const V3 x3 = lin[2] + w[2].cross(x0) + Scalar(2) * w[1].cross(x1) + w[0].cross(x2);
  s.position = lin[3] + w[3].cross(x0) + Scalar(3) * w[2].cross(x1) + Scalar(3) * w[1].cross(x2) +
               w[0].cross(x3);
  s.angular = w[3];
  s.joints = g.fd.motion.q[4];
  return true;
}

/// κ(M̄) of the controller's model at the measured state (order-0 ID columns).
double mass_matrix_condition() noexcept {
  Eigen::Matrix<double, 12, 12> mbar;
  g.motion = MotionDerivatives<Tree, 0, Scalar>{};
  g.motion.base_pose = g.measurement.base_pose;
  g.motion.base_twist[0] = g.measurement.base_twist;
  g.motion.q[0] = g.measurement.q;
  g.motion.q[1] = g.measurement.q_dot;
  (void)inverse_dynamics(g.controller.model(), g.id, g.motion, 0);
  Eigen::Matrix<double, 12, 1> bias;
  bias << g.id.base_wrench[0].cast<double>(), g.id.joint_torque[0].cast<double>();
  for (int i = 0; i < 12; ++i) {
    g.motion.base_twist[1].setZero();
    g.motion.q[2].setZero();
    if (i < 6)
      g.motion.base_twist[1](i) = Scalar(1);
    else
      g.motion.q[2](i - 6) = Scalar(1);
    (void)inverse_dynamics(g.controller.model(), g.id, g.motion, 0);
    Eigen::Matrix<double, 12, 1> col;
    col << g.id.base_wrench[0].cast<double>(), g.id.joint_torque[0].cast<double>();
    mbar.col(i) = col - bias;
  }
  mbar = 0.5 * (mbar + mbar.transpose()).eval();
  static SpdMatrix<12> spd;
  return spd.factorize(mbar) ? spd.condition_number() : std::numeric_limits<double>::infinity();
}

bool command_safe() noexcept {
  const auto& robot = g.controller.robot();
  const Controller::Output& out = g.output;
  if (!out.rotor_speed.allFinite() || !out.motor_torque.allFinite()) return false;
  for (int i = 0; i < 6; ++i) {
    if (out.rotor_speed(i) < robot.rotors[i].min_speed) return false;
    if (out.rotor_speed(i) > robot.rotors[i].max_speed) return false;
    if (std::abs(static_cast<double>(out.motor_torque(i))) > robot.actuator(i).torque_limit)
      return false;
  }
  return true;
}

}  // namespace

namespace {
/// Payload estimation on target (the native tests: tests/plugins/test_payload_estimator.cpp).
void run_payload_checks(Checks& checks) noexcept {
  namespace bm = baremetal;
  checks.group("payload estimation");
  constexpr int kBody = 3;       // the 12-DoF robot's payload body
  const double true_mass = 0.1;  // kg
  control::FeedbackLinearizationConfig config;
  config.payload_estimation = true;
  config.payload.body = kBody;
  bool ok = g.controller.configure(config) == Status::kOk;
  checks.expect(ok, "payload_estimation = 1 accepted");
  // The plant: the nominal body plus a point mass (no inertia about its own
  // centre) at c, added as spatial inertias about the body origin.
  g.loaded = g.controller.model();
  const SpatialInertia<Scalar> nominal = g.loaded.body_inertia(kBody);
  const V3 c(Scalar(0.0), Scalar(0.0), Scalar(-0.06));
  const SpatialInertia<Scalar> point =
      SpatialInertia<Scalar>::from_mass_com_inertia(Scalar(true_mass), c, Matrix3<Scalar>::Zero());
  SpatialInertia<Scalar> body = nominal;
  body.mass += point.mass;
  body.first_moment += point.first_moment;
  body.rotational_inertia += point.rotational_inertia;
  ok &= g.loaded.set_body(kBody, g.loaded.home_pose(kBody), body) == Status::kOk;
  JointVector q;
  q << Scalar(0.2), Scalar(0.1), Scalar(0.0), Scalar(-0.2), Scalar(-0.1), Scalar(0.0);
  ok &= equilibrium(q, g.loaded);
  Controller::Reference& r = g.reference;
  r = Controller::Reference{};
  r.position[0] = g.measurement.base_pose.translation;
  r.orientation = g.measurement.base_pose.rotation;
  r.joints[0] = g.measurement.q;
  // 0.5 s at 1 kHz; the stack and the emulated cycles of the last update.
  const int steps = 500;
  bool all_ok = true;
  std::uint64_t cycles = 0;
  std::size_t update_stack = 0;
  for (int i = 1; i <= steps; ++i) {
    g.measurement.time = 1e-3 * i;
    const bool last = i == steps;
    const std::size_t depth_before = bm::stack_depth_bytes();
    if (last) bm::paint_unused_stack();
    const std::uint64_t c0 = bm::cycles();
    // The measurement is frozen (open loop): the controller's own extension
    // states drift from it and the rotors reach a limit (kActuatorSaturated,
    // from step 87 in double) -- a valid command, as the native test has it.
    const Status st = g.controller.update(g.measurement, r, g.output);
    all_ok &= st == Status::kOk || st == Status::kActuatorSaturated;
    cycles = bm::cycles() - c0;
    if (last) update_stack = bm::stack_high_water_bytes() - depth_before;
  }
  checks.expect(ok && all_ok,
                "500 steps at rest with the unknown payload: kOk or kActuatorSaturated");
  const double mass = static_cast<double>(g.controller.diagnostics().payload_mass);
  checks.expect_le(std::fabs(mass - true_mass) / true_mass, 0.05,
                   "mass estimate within 5 % of 0.1 kg after 0.5 s");
  checks.measure("mass estimate", mass, " kg");
  const double model_mass = static_cast<double>(g.controller.model().body_inertia(kBody).mass);
  checks.expect_le(std::fabs(model_mass - static_cast<double>(nominal.mass) - mass), 1e-6,
                   "the model's body 3 carries nominal + estimate");
  checks.expect(g.controller.payload_estimator().updates() >= steps - 2 &&
                    g.controller.diagnostics().payload_rejected_steps == 0,
                "the estimator updated every step after the first, nothing rejected");
  checks.measure_count("stack used by one update() with estimation", update_stack, " bytes");
  checks.measure_count("one update() with estimation (emulated, not a timing)", cycles, " cycles");
  // Reset: the nominal body again.
  g.controller.reset_payload_estimate();
  checks.expect(g.controller.model().body_inertia(kBody).mass == nominal.mass &&
                    g.controller.diagnostics().payload_mass == Scalar(0),
                "reset_payload_estimate() gives back the nominal body");
}
}  // namespace

void run_controller_checks(Checks& checks) noexcept {
  namespace bm = baremetal;
  checks.group("controller");
  checks.expect(plugin::plugin_registry().find("feedback_linearization") != nullptr,
                "plugin \"feedback_linearization\" registered statically");

  // Not configured: disarmed, all zero.
  g.output.rotor_speed.setConstant(Scalar(500));
  checks.expect(g.unconfigured.update(Controller::Measurement{}, Controller::Reference{},
                                      g.output) == Status::kNotConfigured,
                "not configured -> kNotConfigured");
  checks.expect(g.output.mode == control::CommandMode::kDisarmed &&
                    g.output.rotor_speed.norm() == Scalar(0) &&
                    g.output.motor_torque.norm() == Scalar(0),
                "not configured -> disarmed, zero command");

  checks.expect(g.controller.configure(control::FeedbackLinearizationConfig{}) == Status::kOk,
                "default configuration accepted");

  // Exactness: the command produces the reference snap (3 random states).
  Random rng(11u);
  double worst_snap = 0.0, kappa_max = 0.0;
  bool exact_ok = true;
  for (int trial = 0; trial < 3; ++trial) {
    exact_ok &= g.controller.configure(control::FeedbackLinearizationConfig{}) == Status::kOk;
    moving_measurement(rng);
    const V3 xs(Scalar(rng.uniform()), Scalar(rng.uniform()), Scalar(rng.uniform()));
    const V3 ws(Scalar(rng.uniform()), Scalar(rng.uniform()), Scalar(rng.uniform()));
    JointVector qs;
    for (int j = 0; j < 6; ++j) qs(j) = Scalar(rng.uniform());
    exact_ok &= matching_reference(xs, ws, qs);
    exact_ok &= g.controller.update(g.measurement, g.reference, g.output) == Status::kOk;
    exact_ok &= g.output.mode == control::CommandMode::kTracking;
    Snap s{V3::Zero(), V3::Zero(), JointVector::Zero()};
    exact_ok &= produced_snap(s);
    const double kappa = mass_matrix_condition();
    kappa_max = std::max(kappa_max, kappa);
    // Relative to the size of the snaps (|snap| ~ 1) and of the terms they
    // cancel: the gravity-scale accelerations (g = 9.81) behind them.
    const double scale = 9.81 + static_cast<double>(xs.norm() + ws.norm() + qs.norm());
    const double e =
        std::max({static_cast<double>((s.position - xs).norm()),
                  static_cast<double>((s.angular - ws).norm()), max_abs(s.joints - qs)}) /
        (scale * kappa);
    worst_snap = std::max(worst_snap, e);
  }
  checks.expect(exact_ok, "tracking update + forward dynamics succeed");
  checks.expect_le(worst_snap, 2.0 * kSolveGrowth * kEps,
                   "command produces the reference snap (/kappa)");
  checks.measure("snap error / (scale kappa)", worst_snap / kEps, " eps");
  checks.measure("condition number of M̄", kappa_max);

  // Hold at equilibrium: u = τ_el, ω = measured.
  (void)g.controller.configure(control::FeedbackLinearizationConfig{});
  JointVector q;
  q << Scalar(0.1), Scalar(-0.2), Scalar(0.3), Scalar(-0.1), Scalar(0.2), Scalar(-0.3);
  bool hold_ok = equilibrium(q);
  g.measurement.time = 1e-3;
  Controller::Reference& r = g.reference;
  r = Controller::Reference{};
  r.position[0] = g.measurement.base_pose.translation;
  r.orientation = g.measurement.base_pose.rotation;
  r.joints[0] = g.measurement.q;
  const Scalar k = Scalar(g.controller.robot().actuator(0).stiffness);
  const JointVector tau = k * (g.measurement.motor_position - g.measurement.q);
  const double kappa = mass_matrix_condition();
  // Stack: paint below the current frame, one update, the deepest word used.
  const std::size_t depth_before = bm::stack_depth_bytes();
  bm::paint_unused_stack();
  const std::uint64_t c0 = bm::cycles();
  hold_ok &= g.controller.update(g.measurement, g.reference, g.output) == Status::kOk;
  const std::uint64_t cycles = bm::cycles() - c0;
  const std::size_t update_stack = bm::stack_high_water_bytes() - depth_before;
  checks.expect(hold_ok, "equilibrium update returns kOk");
  checks.expect_le(max_abs(g.output.motor_torque - tau) / (max_abs(tau) * kappa),
                   kSolveGrowth * kEps, "equilibrium: u = tau_el (/kappa)");
  checks.expect_le(
      static_cast<double>((g.output.rotor_speed - g.measurement.rotor_speed).cwiseAbs().maxCoeff() /
                          g.measurement.rotor_speed.maxCoeff()) /
          kappa,
      kSolveGrowth * kEps, "equilibrium: omega = measured (/kappa)");
  checks.measure_count("stack used by one update()", update_stack, " bytes");
  checks.measure_count("one update() (emulated, not a timing)", cycles, " cycles");
  checks.expect(update_stack > 0 && update_stack < bm::stack_size_bytes() / 2,
                "update() stack well inside the region");

  // NaN sensor: hold, finite and limited command.
  const Controller::Output good = g.output;
  Controller::Measurement bad = g.measurement;
  bad.time = 2e-3;
  bad.q_dot(3) = std::numeric_limits<Scalar>::quiet_NaN();
  checks.expect(g.controller.update(bad, g.reference, g.output) == Status::kNonFiniteInput,
                "NaN sensor -> kNonFiniteInput");
  checks.expect(g.output.mode == control::CommandMode::kHold && command_safe(),
                "NaN sensor -> hold, safe command");
  checks.expect(g.output.rotor_speed == good.rotor_speed, "NaN sensor -> last good rotor speeds");
  const double safe_torque =
      g.controller.config().safe_torque_fraction * g.controller.robot().actuator(0).torque_limit;
  checks.expect(max_abs(g.output.motor_torque) <= safe_torque,
                "NaN sensor -> torques within the safe fraction");

  // Saturation: an absurd joint snap.
  Controller::Measurement next = g.measurement;
  next.time = 3e-3;
  g.reference.joints[4].setConstant(Scalar(1.0e8));
  checks.expect(g.controller.update(next, g.reference, g.output) == Status::kActuatorSaturated,
                "absurd joint snap -> kActuatorSaturated");
  checks.expect(g.output.mode == control::CommandMode::kSaturated && command_safe() &&
                    g.controller.diagnostics().motors_saturated,
                "saturated command reported and within the limits");

  run_payload_checks(checks);
}

}  // namespace firmware_test
}  // namespace hodyn
