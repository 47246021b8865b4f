// The closed-chain scenario (issue 19 item 3, docs/dual-arm-carry.md): both
// arms of the 12-DoF robot carry one bar along the Table 3 base path; the
// closed plant (sim::RobotConstrainedPlant) integrates constrained forward
// dynamics with Baumgarte stabilisation, the controller uses constrained
// inverse dynamics. Targets: stable, base position RMS ≤ 5 mm, bar pose error
// ≤ 1 cm / 1°, constraint violation ≤ 1e-6 m; a commanded squeeze reached in
// the plant; and the closed plant without damping or inputs conserving energy.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <random>

#include <Eigen/Geometry>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <hodyn/closed_loop/dual_arm_carry.hpp>
#include <hodyn/kinematics.hpp>
#include <hodyn/loop_closure.hpp>
#include <hodyn/simulator/constrained_plant.hpp>

namespace {

using namespace hodyn;
using namespace hodyn::closed_loop;
using Robot = AerialManipulatorRobot;
using Tree = AerialManipulatorTree;
using Plant = sim::RobotConstrainedPlant<Robot, 1>;
constexpr double kDeg = 3.14159265358979323846 / 180.0;

DualArmCarrySummary carry(double squeeze, double duration) {
  DualArmCarryOptions o;
  o.duration = duration;
  o.squeeze = squeeze;
  o.record_every = 0;
  DualArmCarrySummary s;
  EXPECT_EQ(run_dual_arm_carry(o, s, nullptr), Status::kOk);
  std::cout << "squeeze " << squeeze << " N, " << duration << " s: base RMS " << s.run.position.rms
            << " m (max " << s.run.position.max << "), attitude max " << s.run.attitude.max
            << " rad, bar max " << s.object_pose_error_max_m << " m / "
            << s.object_pose_error_max_rad << " rad, violation " << s.constraint_violation_max_m
            << " m / " << s.constraint_violation_max_rad << " rad, squeeze measured mean "
            << s.squeeze_measured_mean_n << " N, internal force error max "
            << s.internal_force_error_max_n << " N, moment max " << s.internal_moment_max_nm
            << " N m, wall " << s.wall_time_s << " s\n";
  return s;
}

/// The world poses of the weld's two frames at (base pose, q).
void closure_frames(const DualArmCarrySetup& setup, const Pose<double>& base,
                    const Eigen::Matrix<double, 6, 1>& q, Pose<double>& a, Pose<double>& b) {
  auto kin = std::make_unique<KinematicsData<Tree, 0, double>>();
  MotionDerivatives<Tree, 0, double> m;
  m.base_pose = base;
  m.q[0] = q;
  ASSERT_EQ(forward_kinematics(setup.robot.model, *kin, m, 0), Status::kOk);
  const auto& w = setup.closures[0];
  a = kin->body_pose[static_cast<std::size_t>(w.frame_a.body)] * w.frame_a.placement;
  b = kin->body_pose[static_cast<std::size_t>(w.frame_b.body)] * w.frame_b.placement;
}

TEST(DualArmCarry, BarClosesTheChainAtTheGraspWithAnyBasePose) {
  DualArmCarrySetup setup;
  ASSERT_EQ(make_dual_arm_carry(0.25, setup), Status::kOk);
  // The bar's mass is on the tips: the model's total mass grows by 0.25 kg.
  const auto plain = sim::default_description<Robot>();
  double before = 0, after = 0;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    before += plain.model.body_inertia(j).mass;
    after += setup.robot.model.body_inertia(j).mass;
  }
  EXPECT_NEAR(after - before, 0.25, 1e-12);
  EXPECT_NEAR(setup.robot.model.body_inertia(3).mass - plain.model.body_inertia(3).mass, 0.125,
              1e-12);
  EXPECT_EQ(setup.closures[0].frame_a.body, 3);
  EXPECT_EQ(setup.closures[0].frame_b.body, 6);
  // Frame a at the midpoint of the two grippers (6 cm below each tip's centre
  // of mass), x towards arm 2's gripper; frames a and b coincide.
  Pose<double> base;
  base.rotation = Eigen::AngleAxisd(0.7, Vector3<double>(1, 2, 3).normalized()).toRotationMatrix();
  base.translation << 0.3, -1.2, 2.0;
  Pose<double> a, b;
  closure_frames(setup, base, setup.q_grasp, a, b);
  auto kin = std::make_unique<KinematicsData<Tree, 0, double>>();
  MotionDerivatives<Tree, 0, double> m;
  m.base_pose = base;
  m.q[0] = setup.q_grasp;
  ASSERT_EQ(forward_kinematics(plain.model, *kin, m, 0), Status::kOk);
  const Vector3<double> g1 = kin->body_pose[3].act(Vector3<double>(0, 0, -0.06));
  const Vector3<double> g2 = kin->body_pose[6].act(Vector3<double>(0, 0, -0.06));
  EXPECT_LE((a.translation - 0.5 * (g1 + g2)).norm(), 1e-14);
  EXPECT_LE((a.rotation.col(0) - (g2 - g1).normalized()).norm(), 1e-14);
  EXPECT_NEAR(setup.bar_length, (g2 - g1).norm(), 1e-14);
  EXPECT_LE((b.translation - a.translation).norm(), 1e-14);
  EXPECT_LE((b.rotation - a.rotation).norm(), 1e-14);
  // Another arm configuration opens it.
  Eigen::Matrix<double, 6, 1> q = setup.q_grasp;
  q(1) += 0.05;
  closure_frames(setup, base, q, a, b);
  EXPECT_GT((b.translation - a.translation).norm(), 1e-3);
}

TEST(DualArmCarry, ArmsAreLockedByTheWeldAtTheGrasp) {
  // The weld's six arm columns are independent at the grasp: the closed chain's six
  // degrees of freedom are the base's (why the joints hold the grasp).
  DualArmCarrySetup setup;
  ASSERT_EQ(make_dual_arm_carry(0.25, setup), Status::kOk);
  auto kin = std::make_unique<KinematicsData<Tree, 0, double>>();
  auto closure = std::make_unique<LoopClosureData<Tree, 1, 0, double>>();
  MotionDerivatives<Tree, 0, double> m;
  m.q[0] = setup.q_grasp;
  ASSERT_EQ(forward_kinematics(setup.robot.model, *kin, m, 0), Status::kOk);
  ASSERT_EQ(loop_closure_kinematics(*kin, setup.closures, *closure, 0), Status::kOk);
  const Eigen::MatrixXd a = closure->jacobian[0];
  ASSERT_EQ(a.rows(), 6);
  EXPECT_LE(a.leftCols(6).cwiseAbs().maxCoeff(), 1e-15);  // base columns
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(a.rightCols(6));
  std::cout << "arm columns of A: singular values " << svd.singularValues().transpose() << "\n";
  EXPECT_GT(svd.singularValues()(5), 0.03);
}

TEST(DualArmCarry, CarriesTheBarAlongTable3WithinTargets) {
  const DualArmCarrySummary s = carry(0.0, 30.0);
  EXPECT_TRUE(s.run.stable);
  EXPECT_LE(s.run.position.rms, 0.005);
  EXPECT_LE(s.object_pose_error_max_m, 0.01);
  EXPECT_LE(s.object_pose_error_max_rad, 1.0 * kDeg);
  EXPECT_LE(s.constraint_violation_max_m, 1e-6);
  EXPECT_EQ(s.run.saturated_steps, 0);
  // The arms hold the grasp (what the closure allows).
  for (const ErrorStats& j : s.run.joints) EXPECT_LE(j.max, 1e-6);
  // It flew the path: 1 m circle in 20 s (the base error is on the moving base).
  EXPECT_EQ(s.run.steps, 30000);
  // Zero squeeze: the controller's λ is λ_c = 0, and the plant's internal
  // force at the bar's midpoint stays at zero within 0.05 N / 0.01 N m (the
  // half bar's weight is 1.2 N: a controller that ignored the closure would
  // miss it by that much).
  EXPECT_LE(s.controller_multiplier_error_max, 1e-9);
  EXPECT_LE(s.internal_force_error_max_n, 0.05);
  EXPECT_LE(s.internal_moment_max_nm, 0.01);
}

TEST(DualArmCarry, CommandedSqueezeIsReachedAndLeavesTheBaseAlone) {
  const DualArmCarrySummary zero = carry(0.0, 10.0);
  const DualArmCarrySummary squeezed = carry(5.0, 10.0);
  EXPECT_TRUE(squeezed.run.stable);
  // The constrained ID returns λ_c exactly; the plant's λ (its own constrained
  // FD under the elastic joints' torques) reaches the commanded 5 N.
  EXPECT_LE(squeezed.controller_multiplier_error_max, 1e-9);
  EXPECT_NEAR(squeezed.squeeze_measured_mean_n, 5.0, 0.01);
  EXPECT_LE(squeezed.internal_force_error_max_n, 0.05);
  EXPECT_LE(squeezed.internal_moment_max_nm, 0.01);
  EXPECT_NEAR(zero.squeeze_measured_mean_n, 0.0, 0.01);
  // A squeeze is internal: the base and the bar fly as without it.
  EXPECT_NEAR(squeezed.run.position.rms, zero.run.position.rms, 1e-5);
  EXPECT_NEAR(squeezed.object_pose_error_max_m, zero.object_pose_error_max_m, 1e-5);
  EXPECT_LE(squeezed.constraint_violation_max_m, 1e-6);
}

TEST(DualArmCarry, UnannouncedHeavierBarStaysWithinTargets) {
  // The plant's bar is 0.30 kg, the controller's model 0.25 kg (+0.05 kg,
  // 0.49 N it does not know of): the base sags, the chain stays closed.
  DualArmCarryOptions o;
  o.record_every = 0;
  o.plant_bar_mass = 0.30;
  DualArmCarrySummary s;
  ASSERT_EQ(run_dual_arm_carry(o, s, nullptr), Status::kOk);
  std::cout << "plant bar 0.30 kg, model 0.25 kg: base RMS " << s.run.position.rms << " m (max "
            << s.run.position.max << "), attitude max " << s.run.attitude.max << " rad, bar max "
            << s.object_pose_error_max_m << " m / " << s.object_pose_error_max_rad
            << " rad, violation " << s.constraint_violation_max_m << " m, internal force error max "
            << s.internal_force_error_max_n << " N\n";
  EXPECT_NEAR(s.plant_bar_mass_kg, 0.30, 1e-15);
  EXPECT_TRUE(s.run.stable);
  EXPECT_LE(s.run.position.rms, 0.005);
  EXPECT_LE(s.object_pose_error_max_m, 0.01);
  EXPECT_LE(s.object_pose_error_max_rad, 1.0 * kDeg);
  EXPECT_LE(s.constraint_violation_max_m, 1e-6);
  EXPECT_GT(s.run.position.rms, 1e-4);  // the mismatch is felt
}

TEST(DualArmCarry, BadOptionsAreRefused) {
  DualArmCarrySummary s;
  DualArmCarryOptions o;
  o.duration = 0.1;
  o.squeeze = 25.0;
  EXPECT_EQ(run_dual_arm_carry(o, s, nullptr), Status::kInvalidArgument);
  o.squeeze = std::nan("");
  EXPECT_EQ(run_dual_arm_carry(o, s, nullptr), Status::kInvalidArgument);
  o.squeeze = 0.0;
  o.bar_mass = 0.0;
  EXPECT_EQ(run_dual_arm_carry(o, s, nullptr), Status::kInvalidArgument);
  o.bar_mass = 0.25;
  o.plant_rate_hz = 7500.0;  // not a multiple of 1 kHz
  EXPECT_EQ(run_dual_arm_carry(o, s, nullptr), Status::kInvalidArgument);
  DualArmCarrySetup setup;
  EXPECT_EQ(make_dual_arm_carry(-1.0, setup), Status::kInvalidArgument);
}

// ---- the closed plant itself ------------------------------------------------

/// The plant's parameters with the bar, no propulsion (c_f = c_d = 0), no
/// damping or friction in the joints.
sim::RobotPlantParameters<Robot> passive_parameters(const DualArmCarrySetup& setup) {
  sim::RobotPlantParameters<Robot> p;
  p.robot = setup.robot;
  for (auto& r : p.robot.rotors.rotors) {
    r.thrust_coefficient = 0.0;
    r.drag_coefficient = 0.0;
  }
  for (auto& j : p.robot.actuators) {
    j.damping = 0.0;
    j.motor_friction = 0.0;
  }
  return p;
}

/// T + U of the plant's state: the links' ½ Vᵀ M V from each body's world
/// twist and inertia, −m gᵀ c per body, and the elastic joints' motors and
/// springs ½ B θ̇² + ½ K (θ − q)².
double plant_energy(const sim::RobotPlantParameters<Robot>& p, const Plant::State& x) {
  const auto& model = p.robot.model;
  auto kin = std::make_unique<KinematicsData<Tree, 0, double>>();
  MotionDerivatives<Tree, 0, double> m;
  m.base_pose = x.base_pose;
  m.base_twist[0] = x.base_twist;
  m.q[0] = x.q;
  m.q[1] = x.q_dot;
  EXPECT_EQ(forward_kinematics(model, *kin, m, 0), Status::kOk);
  double e = 0.0;
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const auto jj = static_cast<std::size_t>(j);
    const SpatialInertia<double> world = model.body_inertia(j).transformed(kin->body_pose[jj]);
    const Twist<double>& v = kin->body_twist[jj][0];
    e += 0.5 * v.dot(world.momentum(v));
    e -= model.gravity().dot(world.first_moment);  // −m gᵀ c, c the world centre of mass
  }
  for (int j = 0; j < 6; ++j) {
    const JointActuator& a = p.robot.actuators[static_cast<std::size_t>(j)];
    e += 0.5 * a.motor_inertia * x.motor_velocity(j) * x.motor_velocity(j);
    e += 0.5 * a.stiffness * (x.motor_position(j) - x.q(j)) * (x.motor_position(j) - x.q(j));
  }
  return e;
}

/// A state on the closure (the grasp, base anywhere) with a random consistent ν
/// (projected on null A) and swinging motors.
Plant::State moving_state(const DualArmCarrySetup& setup,
                          const std::array<LoopClosure<double>, 1>& closures) {
  std::mt19937 gen(19u);
  std::normal_distribution<double> g(0.0, 1.0);
  Plant::State x;
  x.base_pose.translation << 0.2, -0.1, 1.0;
  x.q = setup.q_grasp;
  Eigen::Matrix<double, 12, 1> nu;
  for (int i = 0; i < 12; ++i) nu(i) = g(gen);
  auto kin = std::make_unique<KinematicsData<Tree, 0, double>>();
  auto closure = std::make_unique<LoopClosureData<Tree, 1, 0, double>>();
  MotionDerivatives<Tree, 0, double> m;
  m.base_pose = x.base_pose;
  m.q[0] = x.q;
  EXPECT_EQ(forward_kinematics(setup.robot.model, *kin, m, 0), Status::kOk);
  EXPECT_EQ(loop_closure_kinematics(*kin, closures, *closure, 0), Status::kOk);
  const Eigen::MatrixXd a = closure->jacobian[0];
  nu -= a.completeOrthogonalDecomposition().solve(Eigen::VectorXd(a * nu));
  x.base_twist = nu.head<6>();
  x.q_dot = nu.tail<6>();
  for (int j = 0; j < 6; ++j) {
    x.motor_position(j) = x.q(j) + 0.02 * g(gen);
    x.motor_velocity(j) = x.q_dot(j) + 0.5 * g(gen);
  }
  return x;
}

/// Integrates the passive closed plant 2 s at 8 kHz with zero inputs: the
/// largest |E − E₀| and closure distance.
void passive_run(LoopClosureKind kind, double& energy_drift, double& e0, double& violation,
                 double& joint_motion) {
  DualArmCarrySetup setup;
  ASSERT_EQ(make_dual_arm_carry(0.25, setup), Status::kOk);
  std::array<LoopClosure<double>, 1> closures = setup.closures;
  closures[0].kind = kind;
  const auto params = passive_parameters(setup);
  static Plant plant;
  ASSERT_EQ(plant.configure(params, closures, {40.0, 400.0}), Status::kOk);
  const Plant::State start = moving_state(setup, closures);
  ASSERT_EQ(plant.set_state(start), Status::kOk);
  Plant::Input input;  // ω_cmd = 0 (no propulsion anyway), u = 0
  Plant::Rates rates;
  e0 = plant_energy(params, plant.state());
  energy_drift = violation = joint_motion = 0.0;
  for (int k = 0; k < 200; ++k) {
    ASSERT_EQ(plant.step(input, 0.01), Status::kOk);
    ASSERT_EQ(plant.evaluate(input, rates), Status::kOk);
    energy_drift = std::max(energy_drift, std::abs(plant_energy(params, plant.state()) - e0));
    violation = std::max(violation, rates.violation_m);
    joint_motion = std::max(joint_motion, (plant.state().q - start.q).cwiseAbs().maxCoeff());
  }
}

TEST(DualArmCarryPlant, PassiveClosedChainConservesEnergy) {
  // No propulsion, no damping, no motor input: the constraint forces do no
  // work, so T + U (links, motors, springs) stays put; gravity on.
  for (LoopClosureKind kind : {LoopClosureKind::kWeld, LoopClosureKind::kPoint}) {
    double drift = 0, e0 = 0, violation = 0, motion = 0;
    passive_run(kind, drift, e0, violation, motion);
    std::cout << (kind == LoopClosureKind::kWeld ? "weld" : "point")
              << ": 2 s passive, |E - E0| <= " << drift << " J (E0 " << e0
              << " J), closure distance <= " << violation << " m, joints moved " << motion
              << " rad\n";
    EXPECT_LE(drift, 1e-7 * std::max(1.0, std::abs(e0)));
    EXPECT_LE(violation, 1e-6);
    if (kind == LoopClosureKind::kPoint) {
      EXPECT_GT(motion, 0.1);  // the point closure lets the joints move
    }
  }
}

TEST(DualArmCarryPlant, BaumgarteRemovesAnInitialClosureError) {
  // Start 1e-3 rad off the grasp in one joint: the closure distance decays
  // as (1 + α t) e^(−α t) with α = 20/s (≈ 5e-4 of it after 0.5 s); without
  // stabilisation it stays.
  DualArmCarrySetup setup;
  ASSERT_EQ(make_dual_arm_carry(0.25, setup), Status::kOk);
  const auto params = passive_parameters(setup);
  static Plant plant;
  for (double alpha : {20.0, 0.0}) {
    ASSERT_EQ(plant.configure(params, setup.closures, {2 * alpha, alpha * alpha}), Status::kOk);
    Plant::State x;
    x.q = setup.q_grasp;
    x.q(1) += 1e-3;
    x.motor_position = x.q;
    ASSERT_EQ(plant.set_state(x), Status::kOk);
    Plant::Input input;
    Plant::Rates rates;
    ASSERT_EQ(plant.evaluate(input, rates), Status::kOk);
    const double initial = rates.violation_m;
    ASSERT_EQ(plant.step(input, 0.5), Status::kOk);
    ASSERT_EQ(plant.evaluate(input, rates), Status::kOk);
    std::cout << "alpha " << alpha << ": closure distance " << initial << " -> "
              << rates.violation_m << " m in 0.5 s\n";
    EXPECT_GT(initial, 1e-5);
    if (alpha > 0) {
      EXPECT_LE(rates.violation_m, 2e-3 * initial);
    } else {
      EXPECT_GT(rates.violation_m, 0.5 * initial);
    }
  }
}

}  // namespace
