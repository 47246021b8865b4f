// One step of the feedback-linearization controller on hodyn's second robot,
// octo_arm (core/robots/octo_arm: 8 rotors, a 4-joint arm with rigid,
// elastic and prismatic joints; issue 15 target: ≤ 2.5 µs per step).
//
//   BM_ControllerStepOctoArm<double|float>  FeedbackLinearization<octo_arm::Robot>::update()
//
// The state: octo_arm at rest, level, at q = (0.3, 0.4, 0.08, −0.5) in static
// equilibrium (elastic joint deflected by its static torque, rotors at the
// minimum-norm speeds of the static wrench), a reference holding it; the
// controller is reset every 128 steps as in bench_controller.cpp (there is no
// plant, and the open-loop extension states drift off equilibrium after some
// hundred steps). Every step must return kOk (checked).
#include <benchmark/benchmark.h>

#include <hodyn/control/feedback_linearization.hpp>
#include <octo_arm_robot.hpp>

namespace {

using namespace hodyn;
using Robot = octo_arm::Robot;

template <class Scalar>
void BM_ControllerStepOctoArm(benchmark::State& state) {
  using Controller = control::FeedbackLinearization<Robot, Scalar>;
  using DoubleController = control::FeedbackLinearization<Robot, double>;
  static Controller controller;
  static DoubleController model_only;
  if (controller.configure(control::FeedbackLinearizationConfig{}) != Status::kOk ||
      model_only.configure(control::FeedbackLinearizationConfig{}) != Status::kOk) {
    state.SkipWithError("configure failed");
    return;
  }
  // Equilibrium in double, then cast.
  typename DoubleController::JointVector q;
  q << 0.3, 0.4, 0.08, -0.5;
  MotionDerivatives<Robot::Tree, 0> rest;
  rest.base_pose.translation = Vector3<double>(0.5, -0.2, 1.5);
  rest.q[0] = q;
  InverseDynamicsData<Robot::Tree, 0> id;
  typename DoubleController::RotorVector x;
  if (inverse_dynamics(model_only.model(), id, rest, 0) != Status::kOk ||
      model_only.allocation().speeds_squared(id.base_wrench_body[0], x) != Status::kOk) {
    state.SkipWithError("no equilibrium");
    return;
  }
  typename Controller::Measurement m;
  m.base_pose.translation = rest.base_pose.translation.template cast<Scalar>();
  m.q = q.template cast<Scalar>();
  for (int j = 0; j < 4; ++j) {
    const JointActuator& a = model_only.robot().actuator(j);
    const double theta =
        a.drive == JointDrive::kElastic ? q(j) + id.joint_torque[0](j) / a.stiffness : q(j);
    m.motor_position(j) = static_cast<Scalar>(theta);
  }
  m.rotor_speed = x.cwiseSqrt().template cast<Scalar>();
  typename Controller::Reference r;
  r.position[0] = m.base_pose.translation;
  r.joints[0] = m.q;
  typename Controller::Output out;
  long not_ok = 0;
  Status last_bad = Status::kOk;
  double t = 0.0;
  unsigned step = 0;
  for (auto _ : state) {
    if ((++step & 127u) == 0) controller.reset();
    t += 1e-3;
    m.time = t;
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

}  // namespace

BENCHMARK_TEMPLATE(BM_ControllerStepOctoArm, double)->Unit(benchmark::kNanosecond);
BENCHMARK_TEMPLATE(BM_ControllerStepOctoArm, float)->Unit(benchmark::kNanosecond);
