// A ball joint declared with hodyn-urdf --spherical (URDF has no ball joint):
// tests/urdf/data/cli/ball_wrist.urdf — a floating base, an upper arm on a
// revolute shoulder, a wrist written as three joints wrist_1 → wrist_2 →
// wrist_3 about non-orthogonal axes that meet in one point, with massless links
// between them, then a hand (a camera lumped into it) and a finger — generated
// twice at build time (tests/urdf/CMakeLists.txt): as it is (three revolute
// joints, the oracle) and with SPHERICAL wrist_1,wrist_2,wrist_3 (one ball),
// and once more with FIXED_BASE SPHERICAL. The headers compile with -Werror
// (the ball's in double and float).
//
//   - the axes and the centre by hand from the URDF's numbers (its comment),
//     not from the tool: the plain robot's three wrist axes, and the ball's
//     centre, where they meet;
//   - the two robots are one mechanism: at the ball's rotation
//     R = Rot(e1, a) Rot(e2, b) Rot(e3, c) (e_i the wrist axes in the world at
//     home) and ω = vee(Rᵀ Ṙ) — built in series arithmetic from a(t), b(t),
//     c(t) — inverse dynamics of orders 0..2 gives the same base wrench, the
//     same shoulder and finger torques, and the three wrist torques
//     τ_abc = Eᵀ τ_ball (power balance, ω = E (ȧ, ḃ, ċ), E's columns
//     Rot(e3, c)ᵀ Rot(e2, b)ᵀ e1, Rot(e3, c)ᵀ e2, e3), each order by Leibniz
//     on the series E(t)ᵀ τ_ball(t);
//   - the mass matrices: M̄_plain = Bᵀ M̄_ball B, B = diag(1₆, 1, E, 1);
//   - forward dynamics: the ball's ω̇ = E θ̈ + Ė θ̇ from the plain robot's θ̈
//     under τ_plain = Eᵀ τ_ball, the base and the other joints alike;
//   - the parameters JSON of the ball robot loads (hodyn::robot_json) into a
//     Model that equals make_model's, and the loader refuses "axis" or
//     "point" on the ball, "centre" on a revolute joint, a missing "centre".
#include <hodyn/equations_of_motion.hpp>
#include <hodyn/forward_dynamics.hpp>
#include <hodyn/inverse_dynamics.hpp>
#include <hodyn/taylor_series.hpp>
#include <hodyn/urdf/robot_json.hpp>

#include <ball_wrist_fixed_urdf.hpp>
#include <ball_wrist_plain_urdf.hpp>
#include <ball_wrist_urdf.hpp>

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace ball = ball_wrist_urdf;
namespace plain = ball_wrist_plain_urdf;
using hodyn::JointKind;
using hodyn::Status;
using nlohmann::json;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec11 = Eigen::Matrix<double, 11, 1>;
using Mat11 = Eigen::Matrix<double, 11, 11>;
constexpr int kR = 2;                      // inverse dynamics orders 0..2
using S = hodyn::TaylorSeries<double, 6>;  // time series of the Euler angles
using M3S = Eigen::Matrix<S, 3, 3>;
using V3S = Eigen::Matrix<S, 3, 1>;

static_assert(ball::Tree::kNumBodies == 4 && plain::Tree::kNumBodies == 6);
static_assert(ball::Tree::kJoint[2] == JointKind::kSpherical);
static_assert(ball::Tree::kParent[2] == 1 && ball::Tree::kParent[3] == 2);
static_assert(ball::kNumDofs == 11 && plain::kNumDofs == 11);
static_assert(ball::joint_index("shoulder") == 0 && ball::joint_index("wrist_1") == 1 &&
              ball::joint_index("finger") == 4);
static_assert(ball::joint_index("wrist_2") == -1 && ball::joint_index("wrist_3") == -1);
static_assert(plain::joint_index("wrist_3") == 3 && plain::joint_index("finger") == 4);
static_assert(ball::body_index("hand") == 2 && ball::body_index("camera") == 2 &&
              ball::body_index("wrist_link_1") == -1 && ball::body_index("wrist_link_2") == -1);
static_assert(ball::kBallJoints.size() == 1 && ball::kBallJoints[0].body == 2);
static_assert(!ball::kJointLimits[1].bounded && plain::kJointLimits[2].bounded);
// With FIXED_BASE too: ν = q̇, 1 + 3 + 1 entries.
static_assert(ball_wrist_fixed_urdf::Tree::kJoint[0] == JointKind::kFixedBase &&
              ball_wrist_fixed_urdf::Tree::kJoint[2] == JointKind::kSpherical &&
              ball_wrist_fixed_urdf::kNumDofs == 5);

Mat3 rpy(double r, double p, double y) {  // URDF: Rz(yaw) Ry(pitch) Rx(roll)
  return (Eigen::AngleAxisd(y, Vec3::UnitZ()) * Eigen::AngleAxisd(p, Vec3::UnitY()) *
          Eigen::AngleAxisd(r, Vec3::UnitX()))
      .toRotationMatrix();
}

/// The wrist axes (world, home) and their meeting point, from the URDF's numbers.
struct Wrist {
  Mat3 axes;  // columns e1, e2, e3
  Vec3 centre;
};
Wrist wrist_by_hand() {
  const Mat3 r_arm = rpy(0, 0, 0.3);
  const Vec3 p_arm(0.1, 0, -0.05);
  const Mat3 r1 = r_arm * rpy(0.2, -0.1, 0.4);
  const Vec3 p1 = p_arm + r_arm * Vec3(0.3, 0, 0);
  Wrist w;
  w.axes.col(0) = r1 * Vec3(0, 0, 1);
  w.axes.col(1) = r1 * Vec3(1, 1, 0).normalized();
  w.axes.col(2) = r1 * Vec3(0, 1, 1).normalized();
  w.centre = p1 + r1 * Vec3(0, 0, 0.05);
  return w;
}

double rel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-300);
}

/// Rot(e, θ) = 1 + sin θ [e] + (1 − cos θ) [e]² on series.
M3S rot(const Vec3& e, const S& theta) {
  Mat3 k;
  k << 0, -e.z(), e.y(), e.z(), 0, -e.x(), -e.y(), e.x(), 0;
  const S s = sin(theta), c = S(1.0) - cos(theta);
  M3S r;
  const Mat3 k2 = k * k;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = S(i == j ? 1.0 : 0.0) + s * k(i, j) + c * k2(i, j);
  return r;
}

/// E: ω = E (ȧ, ḃ, ċ), columns Rot(e3, c)ᵀ Rot(e2, b)ᵀ e1, Rot(e3, c)ᵀ e2, e3.
M3S euler_rate_map(const Mat3& e, const S& b, const S& c) {
  const M3S r2t = rot(e.col(1), b).transpose(), r3t = rot(e.col(2), c).transpose();
  M3S m;
  m.col(0) = r3t * (r2t * e.col(0).cast<S>());
  m.col(1) = r3t * e.col(1).cast<S>();
  m.col(2) = e.col(2).cast<S>();
  return m;
}

Mat3 values(const M3S& m, int k) {
  Mat3 v;
  for (int i = 0; i < 9; ++i) v(i) = m(i).derivative_value(k);
  return v;
}

/// A state of both robots: the plain robot's coordinates θ(t) (shoulder, a, b,
/// c, finger) as series, the base's pose and twist derivatives.
struct State {
  std::array<S, 5> theta;
  hodyn::Pose<double> base_pose;
  std::array<Eigen::Matrix<double, 6, 1>, kR + 2> base_twist;
};

State random_state(unsigned seed, const Mat3& axes) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  State s;
  s.base_pose.rotation =
      Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
  s.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (auto& v : s.base_twist)
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
  for (;;) {  // away from the Euler chart's singularity: |det E| ≥ 0.2 (1/2 at home)
    for (auto& t : s.theta) {
      std::vector<double> d;
      for (int k = 0; k <= 6; ++k) d.push_back(g(gen));
      t = S::from_derivatives(d);
    }
    if (std::abs(values(euler_rate_map(axes, s.theta[2], s.theta[3]), 0).determinant()) >= 0.2)
      return s;
  }
}

/// The ball robot's rotation R(t) = Rot(e1, a) Rot(e2, b) Rot(e3, c) and ω = vee(Rᵀ Ṙ).
struct BallMotion {
  M3S r;
  V3S omega;
};
BallMotion ball_motion(const Mat3& e, const State& s) {
  BallMotion m;
  m.r = rot(e.col(0), s.theta[1]) * rot(e.col(1), s.theta[2]) * rot(e.col(2), s.theta[3]);
  M3S rdot;
  for (int i = 0; i < 9; ++i) rdot(i) = m.r(i).derivative();
  const M3S w = m.r.transpose() * rdot;
  m.omega << w(2, 1), w(0, 2), w(1, 0);
  return m;
}

template <class Motion>
void set_base(const State& s, Motion& m) {
  m.base_pose = s.base_pose;
  for (std::size_t k = 0; k < m.base_twist.size(); ++k) m.base_twist[k] = s.base_twist[k];
}

/// Both motions of order kR at t = 0, and B (ν_ball = B ν_plain) with E(t).
struct Pair {
  std::unique_ptr<hodyn::MotionDerivatives<plain::Tree, kR, double>> plain =
      std::make_unique<hodyn::MotionDerivatives<plain::Tree, kR, double>>();
  std::unique_ptr<hodyn::MotionDerivatives<ball::Tree, kR, double>> ball =
      std::make_unique<hodyn::MotionDerivatives<ball::Tree, kR, double>>();
  M3S e;
  Mat11 b = Mat11::Identity();
};
Pair pair_at(const Mat3& axes, const State& s) {
  Pair p;
  set_base(s, *p.plain);
  set_base(s, *p.ball);
  const BallMotion bm = ball_motion(axes, s);
  for (int k = 0; k <= kR + 2; ++k) {
    const auto K = static_cast<std::size_t>(k);
    for (int i = 0; i < 5; ++i)
      p.plain->q[K](i) = s.theta[static_cast<std::size_t>(i)].derivative_value(k);
    p.ball->q[K](0) = p.plain->q[K](0);
    p.ball->q[K](4) = p.plain->q[K](4);
    for (int i = 0; i < 3; ++i)  // δ = 0; ω^(k−1)
      p.ball->q[K](1 + i) = k == 0 ? 0.0 : bm.omega(i).derivative_value(k - 1);
  }
  p.ball->joint_rotation[0] = values(bm.r, 0);
  p.e = euler_rate_map(axes, s.theta[2], s.theta[3]);
  p.b.block<3, 3>(7, 7) = values(p.e, 0);
  return p;
}

struct Robots {
  hodyn::Model<plain::Tree, double> plain;
  hodyn::Model<ball::Tree, double> ball;
};
std::unique_ptr<Robots> make_robots() {
  auto r = std::make_unique<Robots>();
  EXPECT_EQ(plain::make_model(r->plain), Status::kOk);
  EXPECT_EQ(ball::make_model(r->ball), Status::kOk);
  return r;
}

TEST(GeneratedSpherical, AxesAndCentreByHand) {
  const auto robots = make_robots();
  const Wrist w = wrist_by_hand();
  double worst = 0;
  for (int i = 0; i < 3; ++i) {  // plain bodies 2, 3, 4: the wrist joints
    const double ea = (robots->plain.joint_axis(2 + i) - w.axes.col(i)).norm();
    // A revolute axis passes through the centre: its point minus the centre ∥ e.
    const Vec3 d = robots->plain.joint_axis_point(2 + i) - w.centre;
    const double ep = (d - w.axes.col(i) * w.axes.col(i).dot(d)).norm();
    EXPECT_LE(ea, 1e-15) << "wrist axis " << i;
    EXPECT_LE(ep, 1e-15) << "wrist axis " << i << " misses the centre";
    worst = std::max({worst, ea, ep});
  }
  const double ec = (robots->ball.joint_axis_point(2) - w.centre).norm();
  EXPECT_LE(ec, 1e-15);
  EXPECT_NEAR(w.axes.determinant(), 0.5, 1e-15);  // non-orthogonal, spanning
  // The hand's home pose: the same in both robots (J3's child link).
  EXPECT_LE((robots->ball.home_pose(2).translation - robots->plain.home_pose(4).translation).norm(),
            1e-16);
  EXPECT_LE((robots->ball.home_pose(2).rotation - robots->plain.home_pose(4).rotation).norm(),
            1e-16);
  // The fixed-base header sets the same ball.
  auto fixed = std::make_unique<hodyn::Model<ball_wrist_fixed_urdf::Tree, double>>();
  ASSERT_EQ(ball_wrist_fixed_urdf::make_model(*fixed), Status::kOk);
  EXPECT_EQ(fixed->joint_axis_point(2), robots->ball.joint_axis_point(2));
  // The header in float: make_model sets the same ball.
  auto single = std::make_unique<hodyn::Model<ball::Tree, float>>();
  ASSERT_EQ(ball::make_model(*single), Status::kOk);
  EXPECT_LE((single->joint_axis_point(2).cast<double>() - w.centre).norm(), 1e-7);
  std::cout << "axes and centre by hand: worst " << std::max(worst, ec) << " m" << std::endl;
}

TEST(GeneratedSpherical, InverseDynamicsOrdersZeroToTwoEqualThreeRevoluteJoints) {
  const auto robots = make_robots();
  const Mat3 axes = wrist_by_hand().axes;
  double worst_base = 0, worst_tau = 0;
  for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
    const State s = random_state(seed, axes);
    const Pair p = pair_at(axes, s);
    auto dp = std::make_unique<hodyn::InverseDynamicsData<plain::Tree, kR, double>>();
    auto db = std::make_unique<hodyn::InverseDynamicsData<ball::Tree, kR, double>>();
    ASSERT_EQ(hodyn::inverse_dynamics(robots->plain, *dp, *p.plain, kR), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(robots->ball, *db, *p.ball, kR), Status::kOk);
    // τ_abc(t) = E(t)ᵀ τ_ball(t): the ball's torque series from its k = 0..kR values.
    V3S tau_ball;
    for (int i = 0; i < 3; ++i) {
      std::vector<double> d;
      for (int k = 0; k <= kR; ++k)
        d.push_back(db->joint_torque[static_cast<std::size_t>(k)](1 + i));
      tau_ball(i) = S::from_derivatives(d);
    }
    const V3S tau_abc = p.e.transpose() * tau_ball;
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double eb = rel(db->base_wrench[K], dp->base_wrench[K]);
      Eigen::Matrix<double, 5, 1> tb;
      tb << db->joint_torque[K](0), tau_abc(0).derivative_value(k), tau_abc(1).derivative_value(k),
          tau_abc(2).derivative_value(k), db->joint_torque[K](4);
      const double et = rel(tb, dp->joint_torque[K]);
      EXPECT_LE(eb, 1e-12) << "base wrench, order " << k << ", seed " << seed;
      EXPECT_LE(et, 1e-12) << "joint torques (wrist: Eᵀ τ_ball), order " << k << ", seed " << seed;
      worst_base = std::max(worst_base, eb);
      worst_tau = std::max(worst_tau, et);
    }
  }
  std::cout << "ball vs three revolute joints, inverse dynamics orders 0..2: base wrench "
            << worst_base << ", joint torques " << worst_tau << " (relative)" << std::endl;
}

TEST(GeneratedSpherical, MassMatrixAndForwardDynamicsEqualThreeRevoluteJoints) {
  const auto robots = make_robots();
  const Mat3 axes = wrist_by_hand().axes;
  double worst_m = 0, worst_fd = 0;
  for (unsigned seed : {11u, 12u, 13u, 14u, 15u}) {
    const State s = random_state(seed, axes);
    const Pair p = pair_at(axes, s);
    auto mp = std::make_unique<hodyn::EquationsOfMotionData<plain::Tree, double>>();
    auto mb = std::make_unique<hodyn::EquationsOfMotionData<ball::Tree, double>>();
    ASSERT_EQ(hodyn::mass_matrix(robots->plain, *mp, p.plain->base_pose, p.plain->q[0]),
              Status::kOk);
    ASSERT_EQ(hodyn::mass_matrix(robots->ball, *mb, *p.ball), Status::kOk);
    const Mat11 m_plain = mp->result.mass_matrix;
    const Mat11 m_ball = mb->result.mass_matrix;
    const double em = rel(p.b.transpose() * m_ball * p.b, m_plain);
    EXPECT_LE(em, 1e-12) << "M̄_plain = Bᵀ M̄_ball B, seed " << seed;
    worst_m = std::max(worst_m, em);

    // Forward dynamics under a random ball torque, the plain robot under Eᵀ τ.
    std::mt19937 gen(seed + 100u);
    std::normal_distribution<double> g(0.0, 1.0);
    auto in_b = std::make_unique<hodyn::ForwardDynamicsInput<ball::Tree, 0, double>>();
    auto in_p = std::make_unique<hodyn::ForwardDynamicsInput<plain::Tree, 0, double>>();
    in_b->base_pose = in_p->base_pose = s.base_pose;
    in_b->base_twist = in_p->base_twist = s.base_twist[0];
    in_b->q = p.ball->q[0];
    in_b->q_dot = p.ball->q[1];
    in_b->joint_rotation = p.ball->joint_rotation;
    in_p->q = p.plain->q[0];
    in_p->q_dot = p.plain->q[1];
    for (int i = 0; i < 6; ++i) in_b->base_wrench[0](i) = in_p->base_wrench[0](i) = 5 * g(gen);
    for (int i = 0; i < 5; ++i) in_b->joint_torque[0](i) = g(gen);
    in_p->joint_torque[0] = in_b->joint_torque[0];
    in_p->joint_torque[0].segment<3>(1) =
        values(p.e, 0).transpose() * in_b->joint_torque[0].segment<3>(1);
    auto fb = std::make_unique<hodyn::ForwardDynamicsData<ball::Tree, 0, double>>();
    auto fp = std::make_unique<hodyn::ForwardDynamicsData<plain::Tree, 0, double>>();
    ASSERT_EQ(hodyn::forward_dynamics(robots->ball, *fb, *in_b, 0), Status::kOk);
    ASSERT_EQ(hodyn::forward_dynamics(robots->plain, *fp, *in_p, 0), Status::kOk);
    // ω̇ = E θ̈ + Ė θ̇ (Ė along θ(t) = θ + θ̇ t).
    std::array<S, 2> bc;
    for (int i = 0; i < 2; ++i)
      bc[static_cast<std::size_t>(i)] =
          S::from_derivatives(std::vector<double>{in_p->q(2 + i), in_p->q_dot(2 + i)});
    const Mat3 e_dot = values(euler_rate_map(axes, bc[0], bc[1]), 1);
    const Vec3 omega_dot =
        values(p.e, 0) * fp->motion.q[2].segment<3>(1) + e_dot * in_p->q_dot.segment<3>(1);
    Vec11 nu_dot_ball, nu_dot_plain;
    nu_dot_ball << fb->motion.base_twist[1], fb->motion.q[2];
    nu_dot_plain << fp->motion.base_twist[1], fp->motion.q[2](0), omega_dot, fp->motion.q[2](4);
    const double ef = rel(nu_dot_ball, nu_dot_plain);
    EXPECT_LE(ef, 1e-12) << "forward dynamics, seed " << seed;
    worst_fd = std::max(worst_fd, ef);
  }
  std::cout << "ball vs three revolute joints: M̄ " << worst_m << ", forward dynamics ν̇ " << worst_fd
            << " (relative)" << std::endl;
}

json ball_json() {
  std::ifstream in(HODYN_BALL_WRIST_JSON);
  return json::parse(in);
}

TEST(GeneratedSpherical, ParametersJsonLoadsTheBall) {
  const json doc = ball_json();
  const json& joint = doc["joints"][1];
  EXPECT_EQ(joint["kind"], "spherical");
  EXPECT_EQ(joint["urdf_joints"], json({"wrist_1", "wrist_2", "wrist_3"}));
  EXPECT_FALSE(joint.contains("axis"));
  EXPECT_FALSE(joint.contains("point"));
  const Wrist w = wrist_by_hand();
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(joint["centre"][static_cast<std::size_t>(i)].get<double>(), w.centre(i), 1e-15);
  auto loaded = std::make_unique<hodyn::Model<ball::Tree, double>>();
  std::array<hodyn::JointLimits, ball::kNumJoints> limits{};
  std::string error;
  ASSERT_EQ(hodyn::urdf::load_robot_json_file(HODYN_BALL_WRIST_JSON, *loaded, ball::kBodyNames,
                                              ball::kJointNames, &error, &limits),
            Status::kOk)
      << error;
  const auto robots = make_robots();
  EXPECT_EQ(loaded->joint_axis_point(2), robots->ball.joint_axis_point(2));
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(loaded->home_pose(j).translation, robots->ball.home_pose(j).translation) << j;
    EXPECT_EQ(loaded->body_inertia(j).mass, robots->ball.body_inertia(j).mass) << j;
  }
  EXPECT_FALSE(limits[1].bounded);
  EXPECT_TRUE(std::isinf(limits[1].effort));

  // Refusals: the model stays as it was.
  const auto refused = [&](json bad, const std::string& expected) {
    auto m = std::make_unique<hodyn::Model<ball::Tree, double>>(*loaded);
    std::string e;
    EXPECT_EQ(hodyn::urdf::load_robot_json(bad, *m, ball::kBodyNames, ball::kJointNames, &e),
              Status::kInvalidArgument)
        << expected;
    EXPECT_NE(e.find(expected), std::string::npos) << e;
    EXPECT_EQ(m->joint_axis_point(2), loaded->joint_axis_point(2));
    std::cout << "refused: " << e << std::endl;
  };
  json bad = doc;
  bad["joints"][1]["axis"] = json({0.0, 0.0, 1.0});
  refused(bad, "joint 1: axis: a spherical joint has none");
  bad = doc;
  bad["joints"][1]["point"] = json({0.0, 0.0, 1.0});
  refused(bad, "joint 1: point: only revolute, helical and universal joints have one");
  bad = doc;
  bad["joints"][1].erase("centre");
  refused(bad, "joint 1:");
  bad = doc;
  bad["joints"][0]["centre"] = json({0.0, 0.0, 1.0});
  refused(bad, "joint 0: centre: only spherical joints have one");
  bad = doc;
  bad["joints"][1]["urdf_joints"] = 3;
  refused(bad, "joint 1:");
  // The plain robot's JSON does not load into the ball tree (topology).
  bad = doc;
  bad["joints"][1]["kind"] = "revolute";
  auto m = std::make_unique<hodyn::Model<ball::Tree, double>>();
  std::string e;
  EXPECT_EQ(hodyn::urdf::load_robot_json(bad, *m, ball::kBodyNames, ball::kJointNames, &e),
            Status::kInvalidModel);
  EXPECT_NE(e.find("kind"), std::string::npos) << e;
}

}  // namespace
