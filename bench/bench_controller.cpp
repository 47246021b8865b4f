// One step of the feedback-linearization controller (plugins/feedback_linearization):
// forward dynamics (V̇, V̈, q̈, q⃛ and the drift snap, order 2), the snap law, the
// second-order inverse dynamics Ẅ_prop, τ̈_el (as M̄ (ν⃛ − ν⃛₀), one order-0
// call), motor torques, the extension update and the TiltHex allocation with
// the lag inversion — what runs every millisecond in flight.
//
//   BM_StepDynamicsOnly         the step's dynamics alone (the floor), and
//   BM_StepDynamicsTwoCalls     the same as the step ran it before 2026-11-27
//
//   BM_ControllerStep<double>   the math library's update() (header-only,
//                               compiled here with the benchmark's flags),
//                               FeedbackLinearization<AerialManipulatorRobot>
//   BM_ControllerStep<float>    the same in float (the Cortex-M4F build)
//   BM_ControllerStepPayload<S> the same with online payload estimation on
//                               (body 3; docs/payload-estimation.md)
//   BM_PayloadEstimatorUpdate<S> one payload-estimator update alone (body 3)
//   BM_PluginStep               through the C ABI of the plugin library:
//                               ABI frames in, quaternion → rotation, command out
//   BM_RotorAllocation          A⁻¹W with limits alone
//
// The state: the Table 3 configuration at t = 5 s (base pose, joint angles) in
// static equilibrium (motor positions holding the gravity torques, propellers
// holding the weight) and a reference holding it. The benchmark feeds the same
// measurement every step, with no plant closing the loop; the controller's
// wrench extension, integrated open loop, leaves rounding-level equilibrium
// after some hundred steps, so the controller is reset every 128 steps (the
// reset is a few stores, < 0.5 ns per step amortized; the next step then
// re-reads the propeller speeds). The step's arithmetic does not depend on
// the values (no data-dependent branch on the tracking path), so this is the
// cost of any tracking step. Every step must return kOk (checked).
#include <benchmark/benchmark.h>

#include <type_traits>

#include <hodyn/control/feedback_linearization.hpp>
#include <hodyn/control/feedback_linearization_plugin.hpp>
#include <hodyn/plugin/frames.hpp>
#include <hodyn/plugin/plugin_instance.hpp>
#include <hodyn/plugin/registry.hpp>
#include <hodyn/reference/table3_trajectory.hpp>

namespace {

using namespace hodyn;

constexpr double kTime = 5.0;

// The state of the robot on the reference at kTime: base and joints from
// Table 3, motor positions holding the inverse-dynamics torques, propellers
// at the speeds of the inverse-dynamics wrench.
template <class Controller>
typename Controller::Measurement reference_state(const Controller& c) {
  using Scalar = typename Controller::RotorVector::Scalar;
  const Table3Trajectory traj;
  MotionDerivatives<AerialManipulatorTree, 0> motion;
  traj.sample<0>(kTime, 0, motion);
  for (auto& v : motion.base_twist) v.setZero();  // at rest in this configuration
  for (std::size_t k = 1; k < motion.q.size(); ++k) motion.q[k].setZero();
  const auto model = c.model().template cast<double>();
  InverseDynamicsData<AerialManipulatorTree, 0> id;
  (void)inverse_dynamics(model, id, motion, 0);
  typename Controller::Measurement m;
  m.time = kTime;
  m.base_pose.rotation = motion.base_pose.rotation.template cast<Scalar>();
  m.base_pose.translation = motion.base_pose.translation.template cast<Scalar>();
  m.base_twist = motion.base_twist[0].template cast<Scalar>();
  m.q = motion.q[0].template cast<Scalar>();
  m.q_dot = motion.q[1].template cast<Scalar>();
  const double k = ElasticJointParameters{}.stiffness;  // both controllers' default
  m.motor_position = (motion.q[0] + id.joint_torque[0] / k).template cast<Scalar>();
  m.motor_velocity = m.q_dot;
  const Matrix6<double> a_inv = tilthex_allocation<double>().inverse();
  m.rotor_speed = (a_inv * id.base_wrench_body[0]).cwiseSqrt().template cast<Scalar>();
  return m;
}

/// A reference holding the measured configuration (zero derivatives).
template <class Controller>
typename Controller::Reference holding(const typename Controller::Measurement& m) {
  typename Controller::Reference r;
  r.position[0] = m.base_pose.translation;
  r.orientation = m.base_pose.rotation;
  r.joints[0] = m.q;
  return r;
}

template <class Controller>
void run_controller_step(benchmark::State& state, bool estimate_payload = false) {
  static Controller controller;
  using Config = std::decay_t<decltype(controller.config())>;
  Config config{};
  config.payload_estimation = estimate_payload;
  config.payload.body = 3;  // the 12-DoF robot's payload body
  if (controller.configure(config) != Status::kOk) {
    state.SkipWithError("configure failed");
    return;
  }
  auto m = reference_state(controller);
  const auto r = holding<Controller>(m);
  typename Controller::Output out;
  long not_ok = 0;
  Status last_bad = Status::kOk;
  double t = kTime;
  unsigned step = 0;
  for (auto _ : state) {
    if ((++step & 127u) == 0) controller.reset();
    t += 1e-3;
    m.time = t;  // fresh frames (older ones are rejected as stale)
    const Status s = controller.update(m, r, out);
    if (s != Status::kOk) {
      ++not_ok;
      last_bad = s;
    }
    benchmark::DoNotOptimize(out);
  }
  if (not_ok > 0) state.SkipWithError(to_string(last_bad));
  state.counters["workspace_bytes"] = static_cast<double>(sizeof(controller));
}

template <class Scalar>
void BM_ControllerStep(benchmark::State& state) {
  run_controller_step<control::FeedbackLinearization<AerialManipulatorRobot, Scalar>>(state);
}

template <class Scalar>
void BM_ControllerStepPayload(benchmark::State& state) {
  run_controller_step<control::FeedbackLinearization<AerialManipulatorRobot, Scalar>>(state, true);
}

void BM_PluginStep(benchmark::State& state) {
  static plugin::PluginInstance<64 * 1024> instance;
  if (instance.open(plugin::plugin_registry().find("feedback_linearization")) != Status::kOk) {
    state.SkipWithError("no plugin");
    return;
  }
  control::FeedbackLinearization<AerialManipulatorRobot, double> model_only;
  (void)model_only.configure(control::FeedbackLinearizationConfig{});
  const auto m = reference_state(model_only);
  hodyn_sensors s{};
  s.num_joints = 6;
  s.num_rotors = 6;
  for (int i = 0; i < 3; ++i) s.base_position[i] = m.base_pose.translation(i);
  plugin::quaternion_from_rotation(m.base_pose.rotation, s.base_orientation);
  const Vector3<double> w = m.base_twist.head<3>();
  const Vector3<double> v = m.base_twist.tail<3>() + w.cross(m.base_pose.translation);
  const Vector3<double> w_body = m.base_pose.rotation.transpose() * w;
  for (int i = 0; i < 3; ++i) {
    s.base_linear_velocity[i] = v(i);
    s.base_angular_velocity[i] = w_body(i);
  }
  for (int j = 0; j < 6; ++j) {
    s.joint_position[j] = m.q(j);
    s.joint_velocity[j] = m.q_dot(j);
    s.motor_position[j] = m.motor_position(j);
    s.motor_velocity[j] = m.motor_velocity(j);
    s.rotor_speed[j] = m.rotor_speed(j);
  }
  hodyn_reference r{};
  r.num_joints = 6;
  for (int i = 0; i < 3; ++i) r.base_position[0][i] = s.base_position[i];
  for (int i = 0; i < 4; ++i) r.base_orientation[i] = s.base_orientation[i];
  for (int j = 0; j < 6; ++j) r.joint_position[0][j] = s.joint_position[j];
  hodyn_command cmd;
  long not_ok = 0;
  double t = kTime;
  unsigned step = 0;
  for (auto _ : state) {
    if ((++step & 127u) == 0) instance.reset();
    t += 1e-3;
    s.time = t;
    not_ok += instance.update(s, r, cmd) != Status::kOk;
    benchmark::DoNotOptimize(cmd);
  }
  if (not_ok > 0) state.SkipWithError("a step left the tracking path");
  state.counters["instance_bytes"] = static_cast<double>(instance.api()->instance_size);
}

void BM_RotorAllocation(benchmark::State& state) {
  control::RotorAllocation<double> alloc;
  (void)alloc.configure(TiltHexParameters{}, RotorParameters{});
  Wrench<double> w;
  w << 0.1, -0.2, 0.05, 1.0, -0.5, 40.0;
  control::RotorAllocation<double>::RotorVector x;
  for (auto _ : state) {
    benchmark::DoNotOptimize(w);
    benchmark::DoNotOptimize(alloc.speeds_squared(w, x));
    benchmark::DoNotOptimize(x);
  }
}

}  // namespace

/// One payload-estimator update alone (the estimator the step with
/// estimation on runs, body 3): the controller's model, the state and
/// generalized force of reference_state (rotor wrench A ω², elastic torques
/// K (θ − q)); every update must move the estimate (kUpdated, checked).
template <class Scalar>
void BM_PayloadEstimatorUpdate(benchmark::State& state) {
  using Controller = control::FeedbackLinearization<AerialManipulatorRobot, Scalar>;
  using Estimator = control::PayloadEstimator<AerialManipulatorTree, Scalar>;
  static Controller controller;
  if (controller.configure(control::FeedbackLinearizationConfig{}) != Status::kOk) {
    state.SkipWithError("configure failed");
    return;
  }
  static Estimator estimator;
  static typename Estimator::Workspace ws;
  control::PayloadEstimatorConfig config{};
  if (estimator.configure(config, 3, controller.model().body_inertia(3), 1e-3) != Status::kOk) {
    state.SkipWithError("estimator configure failed");
    return;
  }
  const auto m = reference_state(controller);
  typename Estimator::Generalized force;
  force.template head<6>() =
      controller.allocation().matrix() * m.rotor_speed.cwiseProduct(m.rotor_speed);
  force.template tail<6>() = Scalar(ElasticJointParameters{}.stiffness) * (m.motor_position - m.q);
  (void)estimator.update(controller.model(), m.base_pose, m.base_twist, m.q, m.q_dot, force, ws);
  long not_updated = 0;
  for (auto _ : state) {
    const auto step =
        estimator.update(controller.model(), m.base_pose, m.base_twist, m.q, m.q_dot, force, ws);
    not_updated += step != Estimator::Step::kUpdated;
    benchmark::DoNotOptimize(estimator.estimate());
  }
  if (not_updated > 0) state.SkipWithError("an update did not move the estimate");
}

BENCHMARK_TEMPLATE(BM_ControllerStep, double)->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_ControllerStep, float)->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_ControllerStepPayload, double)->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_ControllerStepPayload, float)->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_PayloadEstimatorUpdate, double)->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_PayloadEstimatorUpdate, float)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_PluginStep)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_RotorAllocation)->Unit(benchmark::kNanosecond);

namespace {

// The dynamics of a step alone (same workspaces as the controller), the way
// the step runs them since 2026-11-27 and the way it ran them before, so one
// run compares them (docs/forward-inverse-dynamics.md):
//   BM_StepDynamicsOnly      forward_inverse_dynamics: forward orders 0, 1 and
//                            inverse dynamics of order 2 at a given snap, one pass
//   BM_StepDynamicsTwoCalls  forward dynamics r = 2 (acceleration, jerk, drift
//                            snap), then inverse dynamics r = 0 without gravity
//                            at zero velocity on the snap difference (M̄ (ν⃛ − ν⃛₀))
ForwardDynamicsInput<AerialManipulatorTree, 2> step_dynamics_input(
    const control::FeedbackLinearization<AerialManipulatorRobot, double>& c) {
  const auto m = reference_state(c);
  ForwardDynamicsInput<AerialManipulatorTree, 2> in;
  in.base_pose = m.base_pose;
  in.base_twist = m.base_twist;
  in.q = m.q;
  in.q_dot = m.q_dot;
  in.base_wrench_frame = WrenchFrame::kBase;
  in.base_wrench[0] = c.allocation().matrix() * m.rotor_speed.cwiseProduct(m.rotor_speed);
  in.joint_torque[0] = 50.0 * (m.motor_position - m.q);
  return in;
}

void BM_StepDynamicsOnly(benchmark::State& state) {
  control::FeedbackLinearization<AerialManipulatorRobot, double> c;
  (void)c.configure(control::FeedbackLinearizationConfig{});
  const auto in = step_dynamics_input(c);
  static ForwardDynamicsData<AerialManipulatorTree, 2> fd;
  InverseTopOrder<AerialManipulatorTree> snap;  // a zero snap: the values do not matter
  for (auto _ : state) {
    benchmark::DoNotOptimize(forward_inverse_dynamics(c.model(), fd, in, snap, 2));
    benchmark::ClobberMemory();
  }
}

void BM_StepDynamicsTwoCalls(benchmark::State& state) {
  control::FeedbackLinearization<AerialManipulatorRobot, double> c;
  (void)c.configure(control::FeedbackLinearizationConfig{});
  const auto in = step_dynamics_input(c);
  auto no_gravity = c.model();
  (void)no_gravity.set_gravity(Vector3<double>::Zero());
  static ForwardDynamicsData<AerialManipulatorTree, 2> fd;
  static InverseDynamicsData<AerialManipulatorTree, 0> id;
  MotionDerivatives<AerialManipulatorTree, 0> motion;
  for (auto _ : state) {
    benchmark::DoNotOptimize(forward_dynamics(c.model(), fd, in, 2));
    motion.base_pose = in.base_pose;
    motion.base_twist[1] = fd.motion.base_twist[3];
    motion.q[0] = in.q;
    motion.q[2] = fd.motion.q[4];
    benchmark::DoNotOptimize(inverse_dynamics(no_gravity, id, motion, 0));
    benchmark::ClobberMemory();
  }
}

}  // namespace

BENCHMARK(BM_StepDynamicsOnly)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_StepDynamicsTwoCalls)->Unit(benchmark::kNanosecond);
