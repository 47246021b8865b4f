// The geometric LQR (plugins/lqr, docs/lqr.md): the Riccati solver against a
// closed form, the designed gains against the DARE and the closed-loop
// spectrum (Eigen's EigenSolver, test only), the wrench-lag augmentation
// against `discretize`, the error state's conventions, the plugin's statuses
// on bad parameters and bad frames, and a heap-free update.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <Eigen/Eigenvalues>

#include "hodyn/control/geometric_lqr.hpp"
#include "hodyn/control/geometric_lqr_plugin.hpp"
#include "hodyn/plugin/frames.hpp"
#include "support/heap_counter.hpp"

#ifdef HODYN_LQR_PLUGIN_PATH
#include <dlfcn.h>
#endif

namespace {

using namespace hodyn;
using namespace hodyn::control;
using Lqr = GeometricLqr;

// The DARE residual of P for (A, B, Q, R), relative to ‖P‖_F, computed here
// with Eigen's dense solver (not the SDA under test).
template <class Design>
double dare_residual(const Design& d) {
  const Eigen::MatrixXd a = d.a, b = d.b, q = d.q, r = d.r, p = d.riccati.p;
  const Eigen::MatrixXd s = r + b.transpose() * p * b;
  const Eigen::MatrixXd right =
      q + a.transpose() * p * a - a.transpose() * p * b * s.ldlt().solve(b.transpose() * p * a);
  return (p - right).norm() / p.norm();
}

template <class Design>
double closed_loop_spectral_radius(const Design& d) {
  const Eigen::MatrixXd a_cl = Eigen::MatrixXd(d.a) - Eigen::MatrixXd(d.b) * d.riccati.k;
  const Eigen::EigenSolver<Eigen::MatrixXd> eig(a_cl, false);
  return eig.eigenvalues().cwiseAbs().maxCoeff();
}

Lqr::ReferenceState table3_point(double t) {
  const Table3Trajectory tr{};
  Lqr::ReferenceState p;
  p.pose = tr.base_pose(t);
  p.twist = tr.base_twist(t, 0);
  p.twist_dot = tr.base_twist(t, 1);
  p.q = tr.joints(t, 0);
  p.q_dot = tr.joints(t, 1);
  p.q_ddot = tr.joints(t, 2);
  return p;
}

TEST(DiscreteRiccati, ScalarCaseIsTheGoldenRatio) {
  // a = b = q = r = 1: p = 1 + p − p²/(1 + p) ⇒ p² − p − 1 = 0, p = (1 + √5)/2, k = p/(1 + p).
  Eigen::Matrix<double, 1, 1> a, b, q, r;
  a << 1.0;
  b << 1.0;
  q << 1.0;
  r << 1.0;
  DiscreteRiccati<1, 1> out;
  ASSERT_EQ(solve_discrete_riccati(a, b, q, r, out), Status::kOk);
  const double golden = 0.5 * (1.0 + std::sqrt(5.0));
  EXPECT_NEAR(out.p(0, 0), golden, 1e-14);
  EXPECT_NEAR(out.k(0, 0), golden / (1.0 + golden), 1e-14);
}

TEST(DiscreteRiccati, BadInputGivesStatusAndZeros) {
  Eigen::Matrix<double, 2, 2> a = Eigen::Matrix2d::Identity(), q = Eigen::Matrix2d::Identity();
  Eigen::Matrix<double, 2, 1> b(1.0, 0.0);
  Eigen::Matrix<double, 1, 1> r;
  r << -1.0;
  DiscreteRiccati<2, 1> out;
  EXPECT_EQ(solve_discrete_riccati(a, b, q, r, out), Status::kInvalidArgument);  // R < 0
  r << 1.0;
  a(0, 1) = std::nan("");
  EXPECT_EQ(solve_discrete_riccati(a, b, q, r, out), Status::kInvalidArgument);
  EXPECT_TRUE(out.p.isZero(0.0));
  // Not stabilizable: an unstable mode (2) that B does not reach; Q sees it.
  a << 1.0, 0.0, 0.0, 2.0;
  EXPECT_EQ(solve_discrete_riccati(a, b, q, r, out), Status::kNonFiniteResult);
  EXPECT_TRUE(out.p.isZero(0.0));
  EXPECT_TRUE(out.k.isZero(0.0));
}

class GainDesign : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(AerialManipulatorRobot::describe<double>(robot), Status::kOk); }
  Lqr::Description robot;
};

TEST_F(GainDesign, HoverAndTable3GainsSolveTheDareAndStabilize) {
  auto design = std::make_unique<Lqr::GainDesign>();
  Lqr::ReferenceState hover = table3_point(0.0);
  hover.twist.setZero();
  hover.twist_dot.setZero();
  hover.q_dot.setZero();
  hover.q_ddot.setZero();
  const LqrWeights w{};
  for (const double t : {-1.0, 0.0, 7.3, 21.0, 30.0}) {
    const Lqr::ReferenceState p = t < 0.0 ? hover : table3_point(t);
    ASSERT_EQ(Lqr::design_gain(robot.model, p, 1e-3, 0.03, w, Lqr::JointVector::Ones(), *design),
              Status::kOk)
        << t;
    const double residual = dare_residual(*design);
    const double rho = closed_loop_spectral_radius(*design);
    EXPECT_LT(residual, 1e-9) << "t = " << t;
    EXPECT_LT(rho, 1.0) << "t = " << t;
    EXPECT_GT(rho, 0.9) << "t = " << t;  // 1 kHz: the slow modes stay near 1
    // P symmetric positive definite (every state is weighted but δW, whose lag is stable).
    const Eigen::MatrixXd p_matrix = design->riccati.p;
    EXPECT_LT((p_matrix - p_matrix.transpose()).norm(), 1e-12 * p_matrix.norm());
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(p_matrix).eigenvalues().minCoeff(),
              0.0);
    EXPECT_LE(design->riccati.iterations, 30);
    std::printf("t = %5.1f s: DARE residual %.2e, rho(A - BK) = %.6f, %d doublings\n", t, residual,
                rho, design->riccati.iterations);
  }
}

TEST_F(GainDesign, WrenchLagAugmentsTheZohOfLinearize) {
  // The (z, δW) model is block triangular: its z block is exp(A dt) of
  // `discretize`, its δW block the rotor lag e^(−dt/T), and over one step the
  // wrench command reaches δW by 1 − e^(−dt/T).
  auto design = std::make_unique<Lqr::GainDesign>();
  ASSERT_EQ(Lqr::design_gain(robot.model, table3_point(4.0), 1e-3, 0.03, LqrWeights{},
                             Lqr::JointVector::Ones(), *design),
            Status::kOk);
  auto zoh = std::make_unique<DiscretizationData<Lqr::Tree>>();
  ASSERT_EQ(discretize(design->linearization.result, 1e-3, *zoh), Status::kOk);
  const double lag = std::exp(-1e-3 / 0.03);
  EXPECT_LT((design->a.topLeftCorner<24, 24>() - zoh->result.a).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((design->a.block<6, 6>(24, 24) - lag * Eigen::Matrix<double, 6, 6>::Identity())
                .cwiseAbs()
                .maxCoeff(),
            1e-15);
  EXPECT_LT((design->b.block<6, 6>(24, 0) - (1.0 - lag) * Eigen::Matrix<double, 6, 6>::Identity())
                .cwiseAbs()
                .maxCoeff(),
            1e-15);
  EXPECT_TRUE((design->a.block<6, 24>(24, 0).isZero(0.0)));
  // The joint torque input acts on z as in `discretize` (δτ columns).
  EXPECT_LT((design->b.block<24, 6>(0, 6) - zoh->result.b.rightCols<6>()).cwiseAbs().maxCoeff(),
            1e-13);
  // Feedforward = inverse dynamics: with it, FD returns the reference's acceleration.
  EXPECT_LT((design->linearization.motion.base_twist[1] - table3_point(4.0).twist_dot).norm(),
            1e-10);
}

TEST(GeometricLqr, ErrorStateFollowsLinearizeConventions) {
  auto lqr = std::make_unique<Lqr>();
  GeometricLqrConfig c;
  c.schedule_points = 2;
  ASSERT_EQ(lqr->configure(c), Status::kOk);
  Lqr::ReferenceState ref = table3_point(3.0);
  // The measured pose is C_ref exp([ξ]) with ξ in the base frame.
  Twist<double> xi;
  xi << 0.01, -0.02, 0.03, 0.04, -0.05, 0.06;
  Lqr::Measurement m;
  m.time = 1.0;
  const Matrix3<double> r =
      (Eigen::AngleAxisd(xi.head<3>().norm(), xi.head<3>().normalized())).toRotationMatrix();
  // exp of a twist: translation V(w) v (SE(3) left Jacobian).
  const Vector3<double> w = xi.head<3>();
  const double th = w.norm();
  const Matrix3<double> k = skew<double>(w);
  const Matrix3<double> v_of = Matrix3<double>::Identity() + (1 - std::cos(th)) / (th * th) * k +
                               (th - std::sin(th)) / (th * th * th) * k * k;
  Pose<double> e;
  e.rotation = r;
  e.translation = v_of * xi.tail<3>();
  m.base_pose = ref.pose * e;
  m.base_twist = ref.twist + Twist<double>::Constant(0.1);
  m.q = ref.q + Lqr::JointVector::Constant(0.2);
  m.q_dot = ref.q_dot - Lqr::JointVector::Constant(0.3);
  m.rotor_speed.setConstant(100.0);
  Wrench<double> w_ref = Wrench<double>::Constant(1.0);
  Lqr::StateVector x;
  lqr->error_state(m, ref, w_ref, x);
  EXPECT_LT((x.head<6>() - xi).norm(), 1e-14);
  EXPECT_LT((x.segment<6>(6).array() - 0.2).abs().maxCoeff(), 1e-14);
  EXPECT_LT((x.segment<6>(12).array() - 0.1).abs().maxCoeff(), 1e-14);
  EXPECT_LT((x.segment<6>(18).array() + 0.3).abs().maxCoeff(), 1e-14);
  const Lqr::RotorVector sq = m.rotor_speed.cwiseProduct(m.rotor_speed);
  EXPECT_LT((x.segment<6>(24) - (lqr->allocation().matrix() * sq - w_ref)).norm(), 1e-9);
  EXPECT_TRUE(x.tail<Lqr::kIntegral>().isZero(0.0));  // ι after configure()
}

TEST(GeometricLqr, ScheduleInterpolatesBetweenDesignedGains) {
  auto lqr = std::make_unique<Lqr>();
  GeometricLqrConfig c;
  c.schedule_points = 4;  // t = 0, 10, 20, 30 s
  ASSERT_EQ(lqr->configure(c), Status::kOk);
  EXPECT_EQ(lqr->design_report().points, 5);
  Lqr::StateVector x = Lqr::StateVector::Zero();
  x(3) = 0.01;
  x(10) = -0.02;
  Lqr::InputVector du;
  lqr->feedback(10.0, x, du);
  EXPECT_LT((du + lqr->gain(1) * x).norm(), 1e-14);
  lqr->feedback(12.5, x, du);
  EXPECT_LT((du + (0.75 * lqr->gain(1) + 0.25 * lqr->gain(2)) * x).norm(), 1e-13);
  lqr->feedback(99.0, x, du);  // beyond the horizon: the last gain
  EXPECT_LT((du + lqr->gain(3) * x).norm(), 1e-14);
  lqr->feedback(std::nan(""), x, du);  // never NaN out of a NaN time
  EXPECT_LT((du + lqr->gain(0) * x).norm(), 1e-14);
  // The gains differ along the reference (else scheduling would be moot).
  EXPECT_GT((lqr->gain(0) - lqr->gain(3)).norm(), 1e-3 * lqr->gain(0).norm());
}

TEST(GeometricLqr, UnscheduledFeedbackIsTheHoverGain) {
  auto lqr = std::make_unique<Lqr>();
  GeometricLqrConfig c;
  c.gain_schedule = false;
  ASSERT_EQ(lqr->configure(c), Status::kOk);
  Lqr::StateVector x;
  for (int i = 0; i < Lqr::kState; ++i) x(i) = 0.01 * std::sin(1.0 + i);  // every column
  Lqr::InputVector du;
  for (const double t : {0.0, 12.5, 99.0}) {  // the time does not matter
    lqr->feedback(t, x, du);
    EXPECT_LT((du + lqr->hover_gain() * x).norm(), 1e-14 * (1.0 + du.norm()));
  }
  EXPECT_GT(du.norm(), 0.0);
}

// ---- the plugin ----

hodyn_parameter parameter(const char* name, double value) {
  hodyn_parameter p{};
  plugin::copy_name(p.name, name);
  p.value = value;
  return p;
}

hodyn_sensors hover_sensors(const Lqr& lqr, double t) {
  const Table3Trajectory tr{};
  hodyn_sensors s{};
  s.time = t;
  s.num_joints = 6;
  s.num_rotors = 6;
  const Pose<double> c = tr.base_pose(0.0);
  for (int i = 0; i < 3; ++i) s.base_position[i] = c.translation(i);
  plugin::quaternion_from_rotation(c.rotation, s.base_orientation);
  for (int j = 0; j < 6; ++j) {
    s.joint_position[j] = tr.joint(j, 0.0);
    s.motor_position[j] = tr.joint(j, 0.0);
  }
  for (int i = 0; i < 6; ++i) s.rotor_speed[i] = lqr.hover_speed()(i);
  return s;
}

hodyn_reference hover_reference(double t) {
  const Table3Trajectory tr{};
  hodyn_reference r{};
  r.time = t;
  r.num_joints = 6;
  const Pose<double> c = tr.base_pose(0.0);
  for (int i = 0; i < 3; ++i) r.base_position[0][i] = c.translation(i);
  plugin::quaternion_from_rotation(c.rotation, r.base_orientation);
  for (int j = 0; j < 6; ++j) r.joint_position[0][j] = tr.joint(j, 0.0);
  return r;
}

TEST(GeometricLqrPlugin, BadParametersGiveStatusesAndChangeNothing) {
  auto plugin_object = std::make_unique<GeometricLqrPlugin>();
  GeometricLqrPlugin& p = *plugin_object;
  ASSERT_TRUE(p.controller().configured());
  const Lqr::Gain before = p.controller().gain(3);
  const hodyn_parameter unknown = parameter("no_such_gain", 1.0);
  EXPECT_EQ(p.configure(&unknown, 1), Status::kInvalidArgument);
  const hodyn_parameter points = parameter("schedule_points", 17.0);
  EXPECT_EQ(p.configure(&points, 1), Status::kInvalidArgument);
  const hodyn_parameter effort = parameter("force_effort", 0.0);  // R must stay positive
  EXPECT_EQ(p.configure(&effort, 1), Status::kInvalidArgument);
  const hodyn_parameter weight = parameter("position_weight", -1.0);
  EXPECT_EQ(p.configure(&weight, 1), Status::kInvalidArgument);
  const hodyn_parameter nan = parameter("attitude_weight", std::nan(""));
  EXPECT_EQ(p.configure(&nan, 1), Status::kNonFiniteInput);
  const hodyn_parameter set[] = {parameter("joint_weight", 10.0), parameter("rate_hz", 100.0)};
  EXPECT_EQ(p.configure(set, 2), Status::kInvalidArgument);  // the whole set is refused
  EXPECT_EQ(p.configure(nullptr, 1), Status::kInvalidArgument);
  EXPECT_EQ(p.controller().config().weights.joint, LqrWeights{}.joint);
  EXPECT_TRUE(p.controller().gain(3) == before);
  // Every advertised default lies within its range and configures.
  for (std::size_t i = 0; i < p.parameter_count(); ++i) {
    hodyn_parameter_info info{};
    ASSERT_EQ(p.parameter_info(i, info), Status::kOk);
    EXPECT_GE(info.default_value, info.min_value) << info.name;
    EXPECT_LE(info.default_value, info.max_value) << info.name;
  }
  hodyn_parameter_info info{};
  EXPECT_EQ(p.parameter_info(p.parameter_count(), info), Status::kInvalidArgument);
  const hodyn_parameter good[] = {parameter("schedule_points", 3.0), parameter("rate_hz", 500.0)};
  EXPECT_EQ(p.configure(good, 2), Status::kOk);
  EXPECT_EQ(p.controller().design_report().points, 4);
}

TEST(GeometricLqrPlugin, BadFramesGiveSafeFiniteCommands) {
  auto plugin_object = std::make_unique<GeometricLqrPlugin>();
  GeometricLqrPlugin& p = *plugin_object;
  hodyn_command cmd{};
  hodyn_sensors s = hover_sensors(p.controller(), 0.001);
  hodyn_reference r = hover_reference(0.001);
  ASSERT_EQ(p.update(s, r, cmd), Status::kOk);
  EXPECT_EQ(cmd.mode, HODYN_MODE_TRACKING);
  const auto finite = [](const hodyn_command& c) {
    for (double v : c.rotor_speed)
      if (!std::isfinite(v)) return false;
    for (double v : c.motor_torque)
      if (!std::isfinite(v)) return false;
    return true;
  };
  s.time = 0.002;
  s.base_position[1] = std::nan("");
  EXPECT_EQ(p.update(s, r, cmd), Status::kNonFiniteInput);
  EXPECT_EQ(cmd.mode, HODYN_MODE_HOLD);
  EXPECT_TRUE(finite(cmd));
  s = hover_sensors(p.controller(), 0.001);  // not newer than the last good frame
  EXPECT_EQ(p.update(s, r, cmd), Status::kStaleInput);
  s.time = 0.003;
  s.num_joints = 5;
  EXPECT_EQ(p.update(s, r, cmd), Status::kInvalidArgument);
  s.num_joints = 6;
  r.joint_position[2][4] = INFINITY;
  EXPECT_EQ(p.update(s, r, cmd), Status::kNonFiniteInput);
  r = hover_reference(0.003);
  r.base_orientation[0] = 0.5;  // not a unit quaternion
  EXPECT_NE(p.update(s, r, cmd), Status::kOk);
  EXPECT_TRUE(finite(cmd));
  r = hover_reference(0.003);
  s.base_angular_velocity[2] = 1e3;
  EXPECT_EQ(p.update(s, r, cmd), Status::kSensorOutOfRange);
  s = hover_sensors(p.controller(), 0.004);
  EXPECT_EQ(p.update(s, r, cmd), Status::kOk);
  // Past hold_timeout of bad frames: the hover speeds.
  s.base_position[0] = std::nan("");
  for (int k = 0; k < 150; ++k) {
    s.time = 0.005 + 1e-3 * k;
    (void)p.update(s, r, cmd);
  }
  EXPECT_EQ(cmd.mode, HODYN_MODE_HOVER);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(cmd.rotor_speed[i], p.controller().hover_speed()(i));
}

TEST(GeometricLqrPlugin, UpdateIsHeapFree) {
  auto plugin_object = std::make_unique<GeometricLqrPlugin>();
  GeometricLqrPlugin& p = *plugin_object;
  const Table3Trajectory tr{};
  hodyn_command cmd{};
  hodyn_sensors s = hover_sensors(p.controller(), 0.0);
  hodyn_reference r{};
  long allocations = 0;
  for (int k = 1; k <= 200; ++k) {
    const double t = 0.05 * k;
    plugin::table3_reference(tr, t, r);
    s.time = t;
    hodyn::test::HeapProbe probe;
    (void)p.update(s, r, cmd);
    allocations += probe.count();
  }
  EXPECT_EQ(allocations, 0);
}

#ifdef HODYN_LQR_PLUGIN_PATH
// The loadable module hodyn_lqr.so (plugins/lqr: hodyn_lqr_plugin) through the
// C ABI: it opens, names itself "lqr", carries this robot, and its commands
// along the Table 3 reference are bit for bit those of the object linked here.
TEST(GeometricLqrPlugin, SharedLibraryBehavesLikeTheLinkedObject) {
  void* handle = dlopen(HODYN_LQR_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  auto entry = reinterpret_cast<hodyn_plugin_entry_fn>(dlsym(handle, HODYN_PLUGIN_ENTRY_SYMBOL));
  ASSERT_NE(entry, nullptr);
  const hodyn_plugin_api* api = entry();
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, static_cast<uint32_t>(HODYN_PLUGIN_ABI_VERSION));
  EXPECT_STREQ(api->name, "lqr");
  EXPECT_EQ(api->num_joints, 6u);
  EXPECT_EQ(api->num_rotors, 6u);
  ASSERT_GE(api->instance_size, sizeof(GeometricLqrPlugin));
  // Test code: the buffer the host provides, on the heap (the plugin never allocates).
  const std::size_t align = api->instance_align < alignof(std::max_align_t)
                                ? alignof(std::max_align_t)
                                : api->instance_align;
  const std::size_t size = (api->instance_size + align - 1) / align * align;
  void* storage = std::aligned_alloc(align, size);
  ASSERT_NE(storage, nullptr);
  ASSERT_EQ(api->init(storage, size), 0);
  EXPECT_GT(api->parameter_count(storage), 0u);
  auto linked = std::make_unique<GeometricLqrPlugin>();
  const Table3Trajectory tr{};
  hodyn_sensors s = hover_sensors(linked->controller(), 0.0);
  hodyn_reference r{};
  hodyn_command a{}, b{};
  for (int k = 1; k <= 20; ++k) {
    const double t = 0.05 * k;
    plugin::table3_reference(tr, t, r);
    s.time = t;
    const int32_t shared_status = api->update(storage, &s, &r, &a);
    EXPECT_EQ(shared_status, static_cast<int32_t>(linked->update(s, r, b))) << k;
    EXPECT_EQ(std::memcmp(a.rotor_speed, b.rotor_speed, sizeof(a.rotor_speed)), 0) << k;
    EXPECT_EQ(std::memcmp(a.motor_torque, b.motor_torque, sizeof(a.motor_torque)), 0) << k;
  }
  // The control law ran (the sensors stay at the start while the reference
  // moves on, so its limits are active by now).
  EXPECT_TRUE(a.mode == HODYN_MODE_TRACKING || a.mode == HODYN_MODE_SATURATED) << a.mode;
  EXPECT_EQ(a.mode, b.mode);
  api->fini(storage);
  std::free(storage);
  dlclose(handle);
}
#endif

}  // namespace
