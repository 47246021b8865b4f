// The payload estimator (hodyn/control/payload_estimator.hpp): on data from a
// model that carries a known point mass (inverse dynamics of that model with
// the true accelerations, which the estimator never sees) it converges to the
// mass and offset; the bounds hold; NaN and outliers are rejected; reset
// forgets; float works; no heap.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "hodyn/control/payload_estimator.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"
#include "support/heap_counter.hpp"

#include "controller_fixture.hpp"

namespace {

using namespace hodyn;
using Tree = AerialManipulatorRobot::Tree;
template <class S>
using Estimator = control::PayloadEstimator<Tree, S>;
// The estimator's scratch (nothing in it survives an update; one per scalar).
template <class S>
typename Estimator<S>::Workspace& scratch() {
  static typename Estimator<S>::Workspace ws;
  return ws;
}
constexpr int kBody = 3;  // the 12-DoF robot's payload body
constexpr double kDt = 1e-3;

template <class S>
Model<Tree, S> nominal_model() {
  DescriptionOf<AerialManipulatorRobot, S> robot;
  EXPECT_EQ(AerialManipulatorRobot::template describe<S>(robot), Status::kOk);
  return robot.model;
}

// The true plant: the nominal model with a point mass `mass` at `offset` on kBody.
Model<Tree, double> loaded_model(double mass, const Vector3<double>& offset) {
  Model<Tree, double> model = nominal_model<double>();
  BodyParameters<double> pi = to_parameters(model.body_inertia(kBody));
  const Matrix3<double> inertia =
      mass * (offset.squaredNorm() * Matrix3<double>::Identity() - offset * offset.transpose());
  pi(0) += mass;
  pi.segment<3>(1) += mass * offset;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) pi(inertia_parameter_index(i, j)) += inertia(i, j);
  EXPECT_EQ(model.set_body(kBody, model.home_pose(kBody), from_parameters<double>(pi)),
            Status::kOk);
  return model;
}

// A smooth exciting motion: base twist and joints as sines (pose fixed, tilted).
struct Sample {
  MotionDerivatives<Tree, 0, double> motion;
  Eigen::Matrix<double, 12, 1> force;
};
Sample sample_at(const Model<Tree, double>& truth, double t) {
  Sample s;
  s.motion.base_pose.rotation =
      Eigen::AngleAxisd(0.1, Vector3<double>(1, 1, 0).normalized()).toRotationMatrix();
  s.motion.base_pose.translation = Vector3<double>(0.5, 0.0, 1.0);
  const double a[6] = {0.3, 0.2, 0.25, 0.4, 0.3, 0.2}, w[6] = {1.1, 0.7, 0.9, 1.3, 0.8, 1.7};
  for (int i = 0; i < 6; ++i) {
    s.motion.base_twist[0](i) = a[i] * std::sin(w[i] * t + i);
    s.motion.base_twist[1](i) = a[i] * w[i] * std::cos(w[i] * t + i);
  }
  for (int j = 0; j < 6; ++j) {
    const double wj = 0.8 + 0.25 * j;
    s.motion.q[0](j) = 0.5 * std::sin(wj * t + j);
    s.motion.q[1](j) = 0.5 * wj * std::cos(wj * t + j);
    s.motion.q[2](j) = -0.5 * wj * wj * std::sin(wj * t + j);
  }
  InverseDynamicsData<Tree, 0, double> id;
  EXPECT_EQ(inverse_dynamics(truth, id, s.motion, 0), Status::kOk);
  s.force << id.base_wrench_body[0], id.joint_torque[0];
  return s;
}

// Runs the estimator for `seconds` on the loaded plant, feeding the estimate
// back into `model` as the controller does.
template <class S>
void run(Estimator<S>& e, Model<Tree, S>& model, const Model<Tree, double>& truth, double seconds,
         double t0 = 0.0) {
  const long n = std::lround(seconds / kDt);
  for (long k = 0; k < n; ++k) {
    const Sample s = sample_at(truth, t0 + static_cast<double>(k) * kDt);
    Pose<S> pose;
    pose.rotation = s.motion.base_pose.rotation.cast<S>();
    pose.translation = s.motion.base_pose.translation.cast<S>();
    const auto step =
        e.update(model, pose, s.motion.base_twist[0].cast<S>(), s.motion.q[0].cast<S>(),
                 s.motion.q[1].cast<S>(), s.force.cast<S>(), scratch<S>());
    if (step == Estimator<S>::Step::kUpdated) {
      ASSERT_EQ(e.apply(model), Status::kOk);
    }
  }
}

template <class S>
Estimator<S> configured(const control::PayloadEstimatorConfig& c = {}) {
  Estimator<S> e;
  EXPECT_EQ(e.configure(c, kBody, nominal_model<S>().body_inertia(kBody), kDt), Status::kOk);
  return e;
}

TEST(PayloadEstimator, ConvergesToAKnownPointMass) {
  const Vector3<double> offset(0.02, -0.01, -0.06);
  const Model<Tree, double> truth = loaded_model(0.1, offset);
  Model<Tree, double> model = nominal_model<double>();
  // A long memory (1 s) for the offset, which this motion excites weakly;
  // the defaults' 0.05 s find the mass (below) but not the offset to 1 cm.
  control::PayloadEstimatorConfig c;
  c.forgetting_time = 1.0;
  Estimator<double> e = configured<double>(c);
  run(e, model, truth, 3.0);
  EXPECT_NEAR(e.mass(), 0.1, 0.003);  // 3 %
  EXPECT_LT((e.offset() - offset).norm(), 0.01);
  EXPECT_EQ(e.rejected_steps(), 0);
  Model<Tree, double> fast_model = nominal_model<double>();
  Estimator<double> fast = configured<double>();
  run(fast, fast_model, truth, 0.5);
  EXPECT_NEAR(fast.mass(), 0.1, 0.003);
  // The model fed back is the plant's body.
  EXPECT_NEAR(to_parameters(model.body_inertia(kBody))(0),
              to_parameters(truth.body_inertia(kBody))(0), 0.003);
}

TEST(PayloadEstimator, FloatConverges) {
  const Model<Tree, double> truth = loaded_model(0.2, Vector3<double>(0.0, 0.0, -0.06));
  Model<Tree, float> model = nominal_model<float>();
  Estimator<float> e = configured<float>();
  run(e, model, truth, 3.0);
  EXPECT_NEAR(e.mass(), 0.2f, 0.006f);
}

TEST(PayloadEstimator, BoundsHold) {
  control::PayloadEstimatorConfig c;
  c.max_mass = 0.3;
  c.max_offset = 0.05;
  // 1 kg at 0.2 m: both beyond the bounds.
  const Model<Tree, double> truth = loaded_model(1.0, Vector3<double>(0.0, 0.2, 0.0));
  Model<Tree, double> model = nominal_model<double>();
  Estimator<double> e = configured<double>(c);
  for (int i = 0; i < 20; ++i) {
    run(e, model, truth, 0.1, 0.1 * i);
    EXPECT_GE(e.mass(), 0.0);
    EXPECT_LE(e.mass(), 0.3 + 1e-12);
    EXPECT_LE(e.offset().norm(), 0.05 + 1e-9);
  }
  EXPECT_NEAR(e.mass(), 0.3, 1e-12);  // pinned at the bound
  // A negative mass projects to zero mass and first moment.
  Estimator<double>::Parameters theta(-0.2, 0.1, 0.0, 0.0);
  EXPECT_EQ(e.project(theta), Estimator<double>::Parameters::Zero());
}

TEST(PayloadEstimator, NanAndOutliersAreRejected) {
  const Model<Tree, double> truth = loaded_model(0.1, Vector3<double>(0.0, 0.0, -0.06));
  Model<Tree, double> model = nominal_model<double>();
  Estimator<double> e = configured<double>();
  run(e, model, truth, 1.0);
  const auto before = e.estimate();
  const auto cov = e.covariance();
  Sample s = sample_at(truth, 1.0);
  Eigen::Matrix<double, 12, 1> bad = s.force;
  bad(5) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(e.update(model, s.motion.base_pose, s.motion.base_twist[0], s.motion.q[0],
                     s.motion.q[1], bad, scratch<double>()),
            Estimator<double>::Step::kRejected);
  EXPECT_EQ(e.estimate(), before);
  EXPECT_EQ(e.covariance(), cov);
  // The filters restart after the NaN: one filter-only step, then updates.
  EXPECT_EQ(e.update(model, s.motion.base_pose, s.motion.base_twist[0], s.motion.q[0],
                     s.motion.q[1], s.force, scratch<double>()),
            Estimator<double>::Step::kFiltersOnly);
  // An outlier of 500 N on the vertical force: beyond the gate, skipped.
  s = sample_at(truth, 1.001);
  bad = s.force;
  bad(5) += 500.0;
  EXPECT_EQ(e.update(model, s.motion.base_pose, s.motion.base_twist[0], s.motion.q[0],
                     s.motion.q[1], bad, scratch<double>()),
            Estimator<double>::Step::kRejected);
  EXPECT_EQ(e.estimate(), before);
  EXPECT_EQ(e.rejected_steps(), 2);
  // Non-finite state.
  Twist<double> v = s.motion.base_twist[0];
  v(0) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(e.update(model, s.motion.base_pose, v, s.motion.q[0], s.motion.q[1], s.force,
                     scratch<double>()),
            Estimator<double>::Step::kRejected);
  EXPECT_TRUE(e.estimate().allFinite());
  EXPECT_EQ(e.estimate(), before);
}

TEST(PayloadEstimator, ResetForgets) {
  const Model<Tree, double> truth = loaded_model(0.1, Vector3<double>(0.0, 0.0, -0.06));
  Model<Tree, double> model = nominal_model<double>();
  Estimator<double> e = configured<double>();
  run(e, model, truth, 1.0);
  EXPECT_GT(e.mass(), 0.05);
  e.reset();
  EXPECT_EQ(e.estimate(), Estimator<double>::Parameters::Zero());
  // θ̂ = 0 gives back the nominal body.
  EXPECT_EQ(e.body_parameters(), to_parameters(nominal_model<double>().body_inertia(kBody)));
}

TEST(PayloadEstimator, RefusesBadSettings) {
  Estimator<double> e;
  const auto nominal = nominal_model<double>().body_inertia(kBody);
  control::PayloadEstimatorConfig c;
  EXPECT_EQ(e.configure(c, 0, nominal, kDt), Status::kInvalidArgument);  // the base
  EXPECT_EQ(e.configure(c, 7, nominal, kDt), Status::kInvalidArgument);
  c.bandwidth = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(e.configure(c, kBody, nominal, kDt), Status::kInvalidArgument);
  c = {};
  c.max_mass = -1.0;
  EXPECT_EQ(e.configure(c, kBody, nominal, kDt), Status::kInvalidArgument);
}

TEST(PayloadEstimator, NoHeap) {
  const Model<Tree, double> truth = loaded_model(0.1, Vector3<double>(0.0, 0.0, -0.06));
  Model<Tree, double> model = nominal_model<double>();
  Estimator<double> e = configured<double>();
  const Sample s0 = sample_at(truth, 0.0), s1 = sample_at(truth, 0.001);
  auto& ws = scratch<double>();
  test::HeapProbe probe;
  (void)e.update(model, s0.motion.base_pose, s0.motion.base_twist[0], s0.motion.q[0],
                 s0.motion.q[1], s0.force, ws);
  const auto step = e.update(model, s1.motion.base_pose, s1.motion.base_twist[0], s1.motion.q[0],
                             s1.motion.q[1], s1.force, ws);
  (void)e.apply(model);
  EXPECT_EQ(probe.count(), 0);
  EXPECT_EQ(step, Estimator<double>::Step::kUpdated);
}

// The scratch keeps nothing between updates (the controller lends it the
// forward-dynamics workspace's storage): a scratch full of NaN bytes before
// every update gives the same estimate, bit for bit, as one used only here.
TEST(PayloadEstimator, ScratchContentDoesNotMatter) {
  const Model<Tree, double> truth = loaded_model(0.1, Vector3<double>(0.02, 0.0, -0.06));
  Model<Tree, double> model_a = nominal_model<double>(), model_b = nominal_model<double>();
  Estimator<double> a = configured<double>(), b = configured<double>();
  static Estimator<double>::Workspace own, poisoned;
  for (int k = 0; k < 300; ++k) {
    const Sample s = sample_at(truth, k * kDt);
    std::memset(static_cast<void*>(&poisoned), 0xff, sizeof poisoned);  // NaN doubles, -1 ints
    const auto step_a = a.update(model_a, s.motion.base_pose, s.motion.base_twist[0], s.motion.q[0],
                                 s.motion.q[1], s.force, own);
    const auto step_b = b.update(model_b, s.motion.base_pose, s.motion.base_twist[0], s.motion.q[0],
                                 s.motion.q[1], s.force, poisoned);
    ASSERT_EQ(step_a, step_b) << k;
    if (step_a == Estimator<double>::Step::kUpdated) {
      ASSERT_EQ(a.apply(model_a), Status::kOk);
      ASSERT_EQ(b.apply(model_b), Status::kOk);
    }
  }
  EXPECT_EQ(a.updates(), 299);
  EXPECT_EQ(a.estimate(), b.estimate());
  EXPECT_EQ(a.covariance(), b.covariance());
}

// ---- in the controller (FeedbackLinearizationConfig::payload_estimation) ----

// At rest, level, joints at q, with the rotors and motors holding the nominal
// robot plus 0.1 kg on body 3 (the controller's model does not have it).
test::Controller::Measurement loaded_rest(const test::Controller& c) {
  const Model<Tree, double> truth = loaded_model(0.1, Vector3<double>(0.0, 0.0, -0.06));
  test::Controller::Measurement m;
  m.base_pose.translation = Vector3<double>(0, 0, 1);
  m.q << 0.2, 0.1, 0.0, -0.2, -0.1, 0.0;
  MotionDerivatives<Tree, 0> motion;
  motion.base_pose = m.base_pose;
  motion.q[0] = m.q;
  InverseDynamicsData<Tree, 0> id;
  EXPECT_EQ(inverse_dynamics(truth, id, motion, 0), Status::kOk);
  for (int j = 0; j < 6; ++j)
    m.motor_position(j) = m.q(j) + id.joint_torque[0](j) / c.robot().actuator(j).stiffness;
  test::RotorVector squared;
  EXPECT_EQ(c.allocation().speeds_squared(id.base_wrench_body[0], squared), Status::kOk);
  m.rotor_speed = squared.cwiseSqrt();
  return m;
}

control::FeedbackLinearizationConfig estimating(int body) {
  control::FeedbackLinearizationConfig c;
  c.payload_estimation = true;
  c.payload.body = body;
  return c;
}

TEST(ControllerPayloadEstimation, LearnsTheMassHoldsOnBadInputAndResets) {
  test::Controller c;
  ASSERT_EQ(c.configure(estimating(kBody)), Status::kOk);
  EXPECT_EQ(c.payload_estimator().body(), kBody);
  const double nominal_mass = to_parameters(c.model().body_inertia(kBody))(0);
  const test::Controller::Measurement m = loaded_rest(c);
  const test::Controller::Reference r = test::hold_reference(m);
  test::Controller::Output out;
  int step = 0;
  const auto tick = [&](const test::Controller::Measurement& x) {
    test::Controller::Measurement timed = x;
    timed.time = kDt * ++step;
    return c.update(timed, r, out);
  };
  for (int i = 0; i < 500; ++i) (void)tick(m);
  EXPECT_NEAR(c.diagnostics().payload_mass, 0.1, 0.005);
  EXPECT_NEAR(to_parameters(c.model().body_inertia(kBody))(0), nominal_mass + 0.1, 0.005);
  // Bad input: kHold, the estimator does not run.
  const long updates = c.payload_estimator().updates();
  const double mass = c.diagnostics().payload_mass;
  test::Controller::Measurement bad = m;
  bad.q_dot(2) = std::numeric_limits<double>::quiet_NaN();
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(tick(bad), Status::kNonFiniteInput);
    EXPECT_EQ(out.mode, control::CommandMode::kHold);
  }
  EXPECT_EQ(c.payload_estimator().updates(), updates);
  EXPECT_EQ(c.diagnostics().payload_mass, mass);
  // Good input again: the filters restart (one step without an update).
  (void)tick(m);
  EXPECT_EQ(c.payload_estimator().updates(), updates);
  (void)tick(m);
  EXPECT_EQ(c.payload_estimator().updates(), updates + 1);
  // Reset: the nominal body again.
  c.reset_payload_estimate();
  EXPECT_EQ(c.diagnostics().payload_mass, 0.0);
  EXPECT_EQ(to_parameters(c.model().body_inertia(kBody))(0), nominal_mass);
}

// The estimator's scratch shares the forward-dynamics workspace: with every
// update rejected (a zero-width gate) the model stays nominal, and the
// commands are bit for bit those of the controller without estimation, on
// a moving reference (the forward pass reads nothing the scratch left).
TEST(ControllerPayloadEstimation, SharedScratchLeavesTheStepAlone) {
  test::Controller on, off;
  control::FeedbackLinearizationConfig config = estimating(kBody);
  config.payload.residual_gate = 1e-300;
  ASSERT_EQ(on.configure(config), Status::kOk);
  ASSERT_EQ(off.configure(control::FeedbackLinearizationConfig{}), Status::kOk);
  test::Controller::Measurement m = loaded_rest(on);
  test::Controller::Output out_on, out_off;
  for (int i = 1; i <= 200; ++i) {
    const double t = kDt * i;
    m.time = t;
    m.q(1) = 0.1 + 0.05 * std::sin(3.0 * t);
    m.q_dot(1) = 0.15 * std::cos(3.0 * t);
    m.base_twist(2) = 0.2 * std::sin(5.0 * t);
    m.base_twist(3) = 0.1 * std::cos(2.0 * t);
    test::Controller::Reference r = test::hold_reference(m);
    const Status s_on = on.update(m, r, out_on);
    const Status s_off = off.update(m, r, out_off);
    ASSERT_EQ(s_on, s_off) << i;
    ASSERT_EQ(out_on.rotor_speed, out_off.rotor_speed) << i;
    ASSERT_EQ(out_on.motor_torque, out_off.motor_torque) << i;
  }
  EXPECT_EQ(on.payload_estimator().updates(), 0);
  EXPECT_GT(on.diagnostics().payload_rejected_steps, 190);
}

TEST(ControllerPayloadEstimation, OffLeavesTheModelAndRefusesABadBody) {
  test::Controller c;
  EXPECT_EQ(c.configure(estimating(7)), Status::kInvalidArgument);  // 6 joints
  EXPECT_FALSE(c.configured());
  ASSERT_EQ(c.configure(estimating(0)), Status::kOk);  // 0: the last body
  EXPECT_EQ(c.payload_estimator().body(), 6);
  ASSERT_EQ(c.configure(control::FeedbackLinearizationConfig{}), Status::kOk);
  const BodyParameters<double> nominal = to_parameters(c.model().body_inertia(kBody));
  const test::Controller::Measurement m = loaded_rest(c);
  const test::Controller::Reference r = test::hold_reference(m);
  test::Controller::Output out;
  for (int i = 1; i <= 100; ++i) {
    test::Controller::Measurement timed = m;
    timed.time = kDt * i;
    (void)c.update(timed, r, out);
  }
  EXPECT_EQ(c.payload_estimator().updates(), 0);
  EXPECT_EQ(c.diagnostics().payload_mass, 0.0);
  EXPECT_EQ(to_parameters(c.model().body_inertia(kBody)), nominal);
}

}  // namespace
