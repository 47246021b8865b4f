// The geometric LQR plugin (plugins/lqr, docs/lqr.md), issue 17's target
// "plugin step (gain lookup + feedback) ≤ 1 µs; a full re-linearization +
// Riccati solve at configure time reported":
//
//   BM_LqrGainLookupAndFeedback  K(t) interpolated between two of the 16
//                                scheduled 12×30 gains, δu = −K(t) x
//   BM_LqrErrorStateAndFeedback  + the error state (ξ = se3_log(C_ref⁻¹ C₁),
//                                δq, δV, δq̇, δW from the rotor speeds)
//   BM_LqrPluginUpdate           the whole update() through the C ABI: frames,
//                                checks, the feedforward inverse dynamics,
//                                error, feedback, allocation, torque loops
//   BM_LqrDesignOnePoint         one re-linearization + ZOH (42×42
//                                exponential) + Riccati solve (SDA)
//   BM_LqrConfigure              configure(): 16 schedule points + hover
//
// The state: hover at the Table 3 start, the reference at a time that moves
// every step through the schedule (so the lookup varies).
#include <benchmark/benchmark.h>

#include <memory>

#include <hodyn/control/geometric_lqr.hpp>
#include <hodyn/control/geometric_lqr_plugin.hpp>
#include <hodyn/inverse_dynamics.hpp>
#include <hodyn/plugin/frames.hpp>
#include <hodyn/plugin/plugin_instance.hpp>
#include <hodyn/plugin/registry.hpp>
#include <hodyn/reference/table3_trajectory.hpp>

namespace {

using namespace hodyn;
using Lqr = control::GeometricLqr;

Lqr& configured_lqr() {
  static Lqr lqr;
  if (!lqr.configured()) (void)lqr.configure(control::GeometricLqrConfig{});
  return lqr;
}

void BM_LqrGainLookupAndFeedback(benchmark::State& state) {
  const Lqr& lqr = configured_lqr();
  Lqr::StateVector x = Lqr::StateVector::LinSpaced(-0.01, 0.01);
  Lqr::InputVector du;
  double t = 0.0;
  for (auto _ : state) {
    lqr.feedback(t, x, du);
    benchmark::DoNotOptimize(du.data());
    t += 0.0173;
    if (t > 30.0) t = 0.0;
  }
}
BENCHMARK(BM_LqrGainLookupAndFeedback);

void BM_LqrErrorStateAndFeedback(benchmark::State& state) {
  const Lqr& lqr = configured_lqr();
  const Table3Trajectory tr{};
  Lqr::ReferenceState ref;
  ref.pose = tr.base_pose(5.0);
  ref.twist = tr.base_twist(5.0, 0);
  ref.q = tr.joints(5.0, 0);
  ref.q_dot = tr.joints(5.0, 1);
  Lqr::Measurement m;
  m.base_pose = tr.base_pose(5.001);
  m.base_twist = tr.base_twist(5.001, 0);
  m.q = tr.joints(5.001, 0);
  m.q_dot = tr.joints(5.001, 1);
  m.rotor_speed = lqr.hover_speed();
  const Wrench<double> w_ref = Wrench<double>::Constant(1.0);
  Lqr::StateVector x;
  Lqr::InputVector du;
  double t = 0.0;
  for (auto _ : state) {
    lqr.error_state(m, ref, w_ref, x);
    lqr.feedback(t, x, du);
    benchmark::DoNotOptimize(du.data());
    t += 0.0173;
    if (t > 30.0) t = 0.0;
  }
}
BENCHMARK(BM_LqrErrorStateAndFeedback);

void BM_LqrPluginUpdate(benchmark::State& state) {
  const hodyn_plugin_api* api = plugin::plugin_registry().find("lqr", AerialManipulatorRobot::kId);
  static plugin::PluginInstance<64 * 1024> instance;
  if (api == nullptr || instance.open(api) != Status::kOk) {
    state.SkipWithError("lqr plugin not registered");
    return;
  }
  const Table3Trajectory tr{};
  hodyn_sensors s{};
  s.num_joints = 6;
  s.num_rotors = 6;
  const Pose<double> c = tr.base_pose(0.0);
  for (int i = 0; i < 3; ++i) s.base_position[i] = c.translation(i);
  plugin::quaternion_from_rotation(c.rotation, s.base_orientation);
  // On the reference at t = 0, in equilibrium: the rotors at the speeds of the
  // feedforward wrench, the springs holding the feedforward torques.
  const Lqr& lqr = configured_lqr();
  MotionDerivatives<Lqr::Tree, 0> motion;
  motion.base_pose = c;
  motion.base_twist[0] = tr.base_twist(0.0, 0);
  motion.base_twist[1] = tr.base_twist(0.0, 1);
  for (int k = 0; k < 3; ++k) motion.q[static_cast<std::size_t>(k)] = tr.joints(0.0, k);
  InverseDynamicsData<Lqr::Tree, 0> id;
  (void)inverse_dynamics(lqr.robot().model, id, motion, 0);
  const Lqr::RotorVector speed = lqr.allocation().unconstrained(id.base_wrench_body[0]).cwiseSqrt();
  const Vector3<double> velocity = tr.base_position(0.0, 1);
  const Vector3<double> rate = c.rotation.transpose() * tr.base_angular_velocity(0.0, 0);
  for (int i = 0; i < 3; ++i) {
    s.base_linear_velocity[i] = velocity(i);
    s.base_angular_velocity[i] = rate(i);
  }
  for (int j = 0; j < 6; ++j) {
    s.joint_position[j] = tr.joint(j, 0.0);
    s.joint_velocity[j] = s.motor_velocity[j] = tr.joint(j, 0.0, 1);
    s.motor_position[j] =
        tr.joint(j, 0.0) + id.joint_torque[0](j) / lqr.robot().actuator(j).stiffness;
  }
  for (int i = 0; i < 6; ++i) s.rotor_speed[i] = speed(i);
  hodyn_reference r{};
  plugin::table3_reference(tr, 0.0, r);
  hodyn_command cmd{};
  double t = 0.0;
  long bad = 0;
  Status last_bad = Status::kOk;
  for (auto _ : state) {
    t += 1e-3;
    s.time = t;
    r.time = t;  // the schedule moves; the frame's motion is the t = 0 one
    const Status st = instance.update(s, r, cmd);
    if (st != Status::kOk) {
      ++bad;
      last_bad = st;
    }
    benchmark::DoNotOptimize(&cmd);
  }
  if (bad != 0) state.SkipWithError(to_string(last_bad));
  instance.close();
}
BENCHMARK(BM_LqrPluginUpdate);

void BM_LqrDesignOnePoint(benchmark::State& state) {
  Lqr::Description robot;
  (void)AerialManipulatorRobot::describe<double>(robot);
  auto design = std::make_unique<Lqr::GainDesign>();
  const Table3Trajectory tr{};
  Lqr::ReferenceState p;
  p.pose = tr.base_pose(7.0);
  p.twist = tr.base_twist(7.0, 0);
  p.twist_dot = tr.base_twist(7.0, 1);
  p.q = tr.joints(7.0, 0);
  p.q_dot = tr.joints(7.0, 1);
  p.q_ddot = tr.joints(7.0, 2);
  for (auto _ : state) {
    const Status s = Lqr::design_gain(robot.model, p, 1e-3, 0.03, control::LqrWeights{},
                                      Lqr::JointVector::Ones(), *design);
    if (s != Status::kOk) state.SkipWithError("design failed");
    benchmark::DoNotOptimize(design->riccati.k.data());
  }
  state.counters["doublings"] = design->riccati.iterations;
}
BENCHMARK(BM_LqrDesignOnePoint)->Unit(benchmark::kMillisecond);

void BM_LqrConfigure(benchmark::State& state) {
  auto lqr = std::make_unique<Lqr>();
  for (auto _ : state) {
    if (lqr->configure(control::GeometricLqrConfig{}) != Status::kOk)
      state.SkipWithError("configure failed");
  }
  state.counters["designs"] = lqr->design_report().points;
}
BENCHMARK(BM_LqrConfigure)->Unit(benchmark::kMillisecond);

}  // namespace
