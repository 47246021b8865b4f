// A universal (Cardan) joint declared with hodyn-urdf --universal (URDF has
// no Cardan joint): tests/urdf/data/cli/cardan_arm.urdf — a floating base, an
// upper arm on a revolute shoulder, a Cardan joint written as two joints
// cardan_1 → cardan_2 about non-orthogonal axes that meet in one point (e1 a
// negative URDF axis, e2's origin off the meeting point), with a massless
// cross link between them, then a hand (a camera lumped into it) and a
// finger — generated at build time (tests/urdf/CMakeLists.txt) as it is (two
// revolute joints, the oracle) and with UNIVERSAL cardan_1,cardan_2 (one
// universal joint), and once more with FIXED_BASE UNIVERSAL. The headers
// compile with -Werror (the universal one in double and float).
//
//   - the axes and the point by hand from the URDF's numbers (its comment),
//     not from the tool;
//   - the two robots are one mechanism with the same coordinates: the
//     universal joint's θ₁, θ₂ are the two URDF joints' angles (Model:
//     exp([Y₁]θ₁) exp([Y₂]θ₂), the chain's product), so at the same q, q̇, …
//     inverse dynamics of orders 0..2 (base wrench and torques), M̄ and forward
//     dynamics are equal entry by entry;
//   - the parameters JSON loads (hodyn::robot_json) into a Model equal to
//     make_model's, and the loader refuses malformed universal joints;
//   - a ball and a universal joint in one robot (ball_cardan.urdf, SPHERICAL
//     and UNIVERSAL): the same as that robot with the ball only (the Cardan
//     pair as two revolute joints), entry by entry.
#include <hodyn/equations_of_motion.hpp>
#include <hodyn/forward_dynamics.hpp>
#include <hodyn/inverse_dynamics.hpp>
#include <hodyn/urdf/robot_json.hpp>

#include <ball_cardan_ball_only_urdf.hpp>
#include <ball_cardan_urdf.hpp>
#include <cardan_arm_fixed_urdf.hpp>
#include <cardan_arm_plain_urdf.hpp>
#include <cardan_arm_urdf.hpp>

#include "support/error_metrics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace uni = cardan_arm_urdf;
namespace plain = cardan_arm_plain_urdf;
using hodyn::JointKind;
using hodyn::Status;
using nlohmann::json;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec10 = Eigen::Matrix<double, 10, 1>;
using Mat10 = Eigen::Matrix<double, 10, 10>;
constexpr int kR = 2;  // inverse dynamics orders 0..2

static_assert(uni::Tree::kNumBodies == 4 && plain::Tree::kNumBodies == 5);
static_assert(uni::Tree::kJoint[2] == JointKind::kUniversal);
static_assert(uni::Tree::kParent[2] == 1 && uni::Tree::kParent[3] == 2);
static_assert(uni::kNumDofs == 10 && plain::kNumDofs == 10);
static_assert(uni::joint_index("shoulder") == 0 && uni::joint_index("cardan_1") == 1 &&
              uni::joint_index("finger") == 3);
static_assert(uni::joint_index("cardan_2") == -1);
static_assert(plain::joint_index("cardan_2") == 2 && plain::joint_index("finger") == 3);
static_assert(uni::body_index("hand") == 2 && uni::body_index("camera") == 2 &&
              uni::body_index("cross_link") == -1 && plain::body_index("cross_link") == 2);
static_assert(uni::kUniversalJoints.size() == 1 && uni::kUniversalJoints[0].body == 2);
static_assert(!uni::kJointLimits[1].bounded && plain::kJointLimits[2].bounded);
// With FIXED_BASE too: ν = q̇, 1 + 2 + 1 entries.
static_assert(cardan_arm_fixed_urdf::Tree::kJoint[0] == JointKind::kFixedBase &&
              cardan_arm_fixed_urdf::Tree::kJoint[2] == JointKind::kUniversal &&
              cardan_arm_fixed_urdf::kNumDofs == 4);

Mat3 rpy(double r, double p, double y) {  // URDF: Rz(yaw) Ry(pitch) Rx(roll)
  return (Eigen::AngleAxisd(y, Vec3::UnitZ()) * Eigen::AngleAxisd(p, Vec3::UnitY()) *
          Eigen::AngleAxisd(r, Vec3::UnitX()))
      .toRotationMatrix();
}

/// The Cardan axes (world, home) and their meeting point, from the URDF's numbers.
struct Cardan {
  Vec3 e1, e2, point;
};
Cardan cardan_by_hand() {
  const Mat3 r_arm = rpy(0, 0, 0.3);
  const Vec3 p_arm(0.1, 0, -0.05);
  const Mat3 r1 = r_arm * rpy(0.2, -0.1, 0.4);
  const Vec3 p1 = p_arm + r_arm * Vec3(0.3, 0, 0);
  return {r1 * Vec3(0, 0, -1), r1 * Vec3(1, 1, 1).normalized(), p1 + r1 * Vec3(0, 0, 0.03)};
}

double rel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-300);
}

struct Robots {
  hodyn::Model<plain::Tree, double> plain;
  hodyn::Model<uni::Tree, double> uni;
};
std::unique_ptr<Robots> make_robots() {
  auto r = std::make_unique<Robots>();
  EXPECT_EQ(plain::make_model(r->plain), Status::kOk);
  EXPECT_EQ(uni::make_model(r->uni), Status::kOk);
  return r;
}

/// The same random motion of order kR for both robots (the same coordinates).
template <class Tree>
void random_motion(unsigned seed, hodyn::MotionDerivatives<Tree, kR, double>& m) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  m.base_pose.rotation =
      Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
  m.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (auto& v : m.base_twist)
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
  for (auto& q : m.q)
    for (int i = 0; i < 4; ++i) q(i) = 2 * g(gen);
}

TEST(GeneratedUniversal, AxesAndPointByHand) {
  const auto robots = make_robots();
  const Cardan c = cardan_by_hand();
  const double e1 = (robots->uni.joint_axis(2) - c.e1).norm();
  const double e2 = (robots->uni.joint_second_axis(2) - c.e2).norm();
  const double ea = (robots->uni.joint_axis_point(2) - c.point).norm();
  // The two-joint robot's axes are the same lines (a revolute point anywhere on its axis).
  const auto miss = [&](int j, const Vec3& e) {
    const Vec3 d = robots->plain.joint_axis_point(j) - c.point;
    return (d - e * e.dot(d)).norm();
  };
  const double p1 = (robots->plain.joint_axis(2) * robots->plain.joint_sense(2) - c.e1).norm();
  const double p2 = (robots->plain.joint_axis(3) * robots->plain.joint_sense(3) - c.e2).norm();
  const double m1 = miss(2, c.e1), m2 = miss(3, c.e2);
  for (const double x : {e1, e2, ea, p1, p2, m1, m2}) EXPECT_LE(x, 1e-15);
  EXPECT_NEAR(c.e1.dot(c.e2), -1 / std::sqrt(3.0), 1e-15);  // not orthogonal
  // e2's URDF origin is not the meeting point (the tool intersects the lines).
  EXPECT_GT((robots->plain.home_pose(3).translation - c.point).norm(), 0.03);
  // The hand's home pose: the same in both robots (cardan_2's child link).
  EXPECT_EQ(robots->uni.home_pose(2).translation, robots->plain.home_pose(3).translation);
  EXPECT_EQ(robots->uni.home_pose(2).rotation, robots->plain.home_pose(3).rotation);
  // The fixed-base header sets the same joint.
  auto fixed = std::make_unique<hodyn::Model<cardan_arm_fixed_urdf::Tree, double>>();
  ASSERT_EQ(cardan_arm_fixed_urdf::make_model(*fixed), Status::kOk);
  EXPECT_EQ(fixed->joint_axis_point(2), robots->uni.joint_axis_point(2));
  EXPECT_EQ(fixed->joint_second_axis(2), robots->uni.joint_second_axis(2));
  // The header in float: make_model sets the same joint.
  auto single = std::make_unique<hodyn::Model<uni::Tree, float>>();
  ASSERT_EQ(uni::make_model(*single), Status::kOk);
  EXPECT_LE((single->joint_axis_point(2).cast<double>() - c.point).norm(), 1e-7);
  EXPECT_LE((single->joint_second_axis(2).cast<double>() - c.e2).norm(), 1e-7);
  std::cout << "axes and point by hand: e1 " << e1 << ", e2 " << e2 << ", point " << ea
            << "; two-joint robot's axes " << std::max(p1, p2) << ", lines miss the point by "
            << std::max(m1, m2) << " m" << std::endl;
}

TEST(GeneratedUniversal, InverseDynamicsOrdersZeroToTwoEqualTwoRevoluteJoints) {
  const auto robots = make_robots();
  double worst_base = 0, worst_tau = 0;
  for (unsigned seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
    auto mp = std::make_unique<hodyn::MotionDerivatives<plain::Tree, kR, double>>();
    auto mu = std::make_unique<hodyn::MotionDerivatives<uni::Tree, kR, double>>();
    random_motion(seed, *mp);
    random_motion(seed, *mu);
    auto dp = std::make_unique<hodyn::InverseDynamicsData<plain::Tree, kR, double>>();
    auto du = std::make_unique<hodyn::InverseDynamicsData<uni::Tree, kR, double>>();
    ASSERT_EQ(hodyn::inverse_dynamics(robots->plain, *dp, *mp, kR), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(robots->uni, *du, *mu, kR), Status::kOk);
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double eb = rel(du->base_wrench[K], dp->base_wrench[K]);
      const double et = rel(du->joint_torque[K], dp->joint_torque[K]);
      EXPECT_LE(eb, 1e-12) << "base wrench, order " << k << ", seed " << seed;
      EXPECT_LE(et, 1e-12) << "joint torques, order " << k << ", seed " << seed;
      worst_base = std::max(worst_base, eb);
      worst_tau = std::max(worst_tau, et);
    }
  }
  std::cout << "universal vs two revolute joints, inverse dynamics orders 0..2: base wrench "
            << worst_base << ", joint torques " << worst_tau << " (relative)" << std::endl;
}

TEST(GeneratedUniversal, MassMatrixAndForwardDynamicsEqualTwoRevoluteJoints) {
  const auto robots = make_robots();
  double worst_m = 0, worst_fd = 0;
  for (unsigned seed : {11u, 12u, 13u, 14u, 15u, 16u, 17u, 18u}) {
    auto m = std::make_unique<hodyn::MotionDerivatives<plain::Tree, kR, double>>();
    random_motion(seed, *m);
    auto mp = std::make_unique<hodyn::EquationsOfMotionData<plain::Tree, double>>();
    auto mu = std::make_unique<hodyn::EquationsOfMotionData<uni::Tree, double>>();
    ASSERT_EQ(hodyn::mass_matrix(robots->plain, *mp, m->base_pose, m->q[0]), Status::kOk);
    ASSERT_EQ(hodyn::mass_matrix(robots->uni, *mu, m->base_pose, m->q[0]), Status::kOk);
    const Mat10 m_plain = mp->result.mass_matrix;
    const Mat10 m_uni = mu->result.mass_matrix;
    const double em = rel(m_uni, m_plain);
    EXPECT_LE(em, 1e-12) << "M̄, seed " << seed;
    worst_m = std::max(worst_m, em);

    // Forward dynamics under the same random wrench and torques.
    std::mt19937 gen(seed + 100u);
    std::normal_distribution<double> g(0.0, 1.0);
    auto in_u = std::make_unique<hodyn::ForwardDynamicsInput<uni::Tree, 0, double>>();
    auto in_p = std::make_unique<hodyn::ForwardDynamicsInput<plain::Tree, 0, double>>();
    in_u->base_pose = in_p->base_pose = m->base_pose;
    in_u->base_twist = in_p->base_twist = m->base_twist[0];
    in_u->q = in_p->q = m->q[0];
    in_u->q_dot = in_p->q_dot = m->q[1];
    for (int i = 0; i < 6; ++i) in_u->base_wrench[0](i) = in_p->base_wrench[0](i) = 5 * g(gen);
    for (int i = 0; i < 4; ++i) in_u->joint_torque[0](i) = in_p->joint_torque[0](i) = g(gen);
    auto fu = std::make_unique<hodyn::ForwardDynamicsData<uni::Tree, 0, double>>();
    auto fp = std::make_unique<hodyn::ForwardDynamicsData<plain::Tree, 0, double>>();
    ASSERT_EQ(hodyn::forward_dynamics(robots->uni, *fu, *in_u, 0), Status::kOk);
    ASSERT_EQ(hodyn::forward_dynamics(robots->plain, *fp, *in_p, 0), Status::kOk);
    Vec10 nu_dot_uni, nu_dot_plain;
    nu_dot_uni << fu->motion.base_twist[1], fu->motion.q[2];
    nu_dot_plain << fp->motion.base_twist[1], fp->motion.q[2];
    const double ef = rel(nu_dot_uni, nu_dot_plain);
    EXPECT_LE(ef, 1e-12) << "forward dynamics, seed " << seed;
    worst_fd = std::max(worst_fd, ef);
  }
  std::cout << "universal vs two revolute joints: M̄ " << worst_m << ", forward dynamics ν̇ "
            << worst_fd << " (relative)" << std::endl;
}

namespace both = ball_cardan_urdf;
namespace ball_only = ball_cardan_ball_only_urdf;
static_assert(both::Tree::kNumBodies == 5 && ball_only::Tree::kNumBodies == 6);
static_assert(both::Tree::kJoint[2] == JointKind::kSpherical &&
              both::Tree::kJoint[4] == JointKind::kUniversal &&
              ball_only::Tree::kJoint[2] == JointKind::kSpherical);
static_assert(both::kNumDofs == 6 + 1 + 3 + 1 + 2 && ball_only::kNumDofs == both::kNumDofs);
static_assert(both::joint_index("finger") == 4 && both::joint_index("tip_1") == 5 &&
              both::joint_index("tip_2") == -1 && ball_only::joint_index("tip_2") == 6);
static_assert(both::kBallJoints[0].body == 2 && both::kUniversalJoints[0].body == 4);

/// The same random motion of order kR for both, the ball's rotation included.
template <class Tree>
void random_ball_motion(unsigned seed, hodyn::MotionDerivatives<Tree, kR, double>& m) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  m.base_pose.rotation =
      Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
  m.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (auto& v : m.base_twist)
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
  m.joint_rotation[0] =
      Eigen::Quaterniond(g(gen), g(gen), g(gen), g(gen)).normalized().toRotationMatrix();
  for (auto& q : m.q)
    for (int i = 0; i < 7; ++i) q(i) = g(gen);  // the ball's δ too
}

TEST(GeneratedUniversal, BallAndUniversalInOneRobotEqualTheBallOnlyRobot) {
  auto with = std::make_unique<hodyn::Model<both::Tree, double>>();
  auto without = std::make_unique<hodyn::Model<ball_only::Tree, double>>();
  ASSERT_EQ(both::make_model(*with), Status::kOk);
  ASSERT_EQ(ball_only::make_model(*without), Status::kOk);
  auto single = std::make_unique<hodyn::Model<both::Tree, float>>();
  ASSERT_EQ(both::make_model(*single), Status::kOk);
  EXPECT_EQ(with->joint_axis_point(2), without->joint_axis_point(2));  // the same ball
  double worst_id = 0, worst_m = 0, worst_fd = 0, worst_raw = 0;
  for (unsigned seed : {21u, 22u, 23u, 24u, 25u}) {
    auto mw = std::make_unique<hodyn::MotionDerivatives<both::Tree, kR, double>>();
    auto mo = std::make_unique<hodyn::MotionDerivatives<ball_only::Tree, kR, double>>();
    random_ball_motion(seed, *mw);
    random_ball_motion(seed, *mo);
    auto dw = std::make_unique<hodyn::InverseDynamicsData<both::Tree, kR, double>>();
    auto dn = std::make_unique<hodyn::InverseDynamicsData<ball_only::Tree, kR, double>>();
    ASSERT_EQ(hodyn::inverse_dynamics(*with, *dw, *mw, kR), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(*without, *dn, *mo, kR), Status::kOk);
    for (int k = 0; k <= kR; ++k) {
      const auto K = static_cast<std::size_t>(k);
      const double e = std::max(rel(dw->base_wrench[K], dn->base_wrench[K]),
                                rel(dw->joint_torque[K], dn->joint_torque[K]));
      EXPECT_LE(e, 1e-12) << "inverse dynamics, order " << k << ", seed " << seed;
      worst_id = std::max(worst_id, e);
    }
    auto ew = std::make_unique<hodyn::EquationsOfMotionData<both::Tree, double>>();
    auto en = std::make_unique<hodyn::EquationsOfMotionData<ball_only::Tree, double>>();
    ASSERT_EQ(hodyn::mass_matrix(*with, *ew, *mw), Status::kOk);
    ASSERT_EQ(hodyn::mass_matrix(*without, *en, *mo), Status::kOk);
    const Eigen::MatrixXd m_with = ew->result.mass_matrix, m_without = en->result.mass_matrix;
    const double em = rel(m_with, m_without);
    EXPECT_LE(em, 1e-12) << "M̄, seed " << seed;
    worst_m = std::max(worst_m, em);
    auto iw = std::make_unique<hodyn::ForwardDynamicsInput<both::Tree, 0, double>>();
    auto in = std::make_unique<hodyn::ForwardDynamicsInput<ball_only::Tree, 0, double>>();
    iw->base_pose = in->base_pose = mw->base_pose;
    iw->base_twist = in->base_twist = mw->base_twist[0];
    iw->joint_rotation = in->joint_rotation = mw->joint_rotation;
    iw->q = in->q = mw->q[0];
    iw->q_dot = in->q_dot = mw->q[1];
    iw->base_wrench[0] = in->base_wrench[0] = dw->base_wrench[0];
    iw->joint_torque[0] = in->joint_torque[0] = dw->joint_torque[0];
    auto fw = std::make_unique<hodyn::ForwardDynamicsData<both::Tree, 0, double>>();
    auto fn = std::make_unique<hodyn::ForwardDynamicsData<ball_only::Tree, 0, double>>();
    ASSERT_EQ(hodyn::forward_dynamics(*with, *fw, *iw, 0), Status::kOk);
    ASSERT_EQ(hodyn::forward_dynamics(*without, *fn, *in, 0), Status::kOk);
    // In force space, ‖M̄ (ν̇_with − ν̇_without)‖ / ‖M̄ ν̇_without‖: the tip's
    // small inertia (1e-6 kg m²) makes ν̇ itself as ill-conditioned as M̄ (the
    // raw relative difference of ν̇ is printed for information).
    Eigen::VectorXd nu_dot_with(both::kNumDofs), nu_dot_without(both::kNumDofs);
    nu_dot_with << fw->motion.base_twist[1], fw->motion.q[2];
    nu_dot_without << fn->motion.base_twist[1], fn->motion.q[2];
    const double ef = rel(m_without * nu_dot_with, m_without * nu_dot_without);
    EXPECT_LE(ef, 1e-12) << "forward dynamics, seed " << seed;
    worst_raw = std::max(worst_raw, rel(nu_dot_with, nu_dot_without));
    worst_fd = std::max(worst_fd, ef);
  }
  // The JSON of the robot with both loads into a Model equal to make_model's.
  auto loaded = std::make_unique<hodyn::Model<both::Tree, double>>();
  std::string error;
  ASSERT_EQ(hodyn::urdf::load_robot_json_file(HODYN_BALL_CARDAN_JSON, *loaded, both::kBodyNames,
                                              both::kJointNames, &error),
            Status::kOk)
      << error;
  EXPECT_EQ(loaded->joint_axis_point(2), with->joint_axis_point(2));
  EXPECT_EQ(loaded->joint_axis_point(4), with->joint_axis_point(4));
  EXPECT_EQ(loaded->joint_axis(4), with->joint_axis(4));
  EXPECT_EQ(loaded->joint_second_axis(4), with->joint_second_axis(4));
  std::cout << "ball and universal vs ball only: inverse dynamics orders 0..2 " << worst_id
            << ", M̄ " << worst_m << ", forward dynamics " << worst_fd
            << " (relative; forward dynamics as M̄ ν̇, ν̇ itself " << worst_raw << ")" << std::endl;
}

json universal_json() {
  std::ifstream in(HODYN_CARDAN_ARM_JSON);
  return json::parse(in);
}

/// The same model: every number bit for bit, except, with `derived_ulps` > 0,
/// the two that Model computes from the given ones with sums of products —
/// the rotational inertia about the frame origin (I_c + m [c]ᵀ[c]) and the
/// joint screw (e; p × e) — within that many ulps (normwise). Two copies of
/// that arithmetic, the loader's (the library) and make_model's (inlined
/// here), round alike unless the compiler contracts them into FMAs
/// differently (-march=native: 0.02 ulp normwise, issue 21 item 5).
/// Returns the largest of those distances.
template <class A, class B>
double expect_same_model(const A& a, const B& b, double derived_ulps = 0) {
  using hodyn::test::normwise_ulps;
  double worst = 0;
  for (int j = 0; j < uni::Tree::kNumBodies; ++j) {
    EXPECT_EQ(a.home_pose(j).rotation, b.home_pose(j).rotation) << j;
    EXPECT_EQ(a.home_pose(j).translation, b.home_pose(j).translation) << j;
    EXPECT_EQ(a.body_inertia(j).mass, b.body_inertia(j).mass) << j;
    EXPECT_EQ(a.home_com(j), b.home_com(j)) << j;
    EXPECT_EQ(a.body_inertia(j).first_moment, b.body_inertia(j).first_moment) << j;
    const double inertia_ulps =
        normwise_ulps(a.body_inertia(j).rotational_inertia, b.body_inertia(j).rotational_inertia);
    EXPECT_LE(inertia_ulps, derived_ulps) << j << ":\n"
                                          << a.body_inertia(j).rotational_inertia << "\nvs\n"
                                          << b.body_inertia(j).rotational_inertia;
    worst = std::max(worst, inertia_ulps);
    if (j == 0) continue;
    const double screw_ulps = normwise_ulps(a.joint_screw(j), b.joint_screw(j));
    EXPECT_LE(screw_ulps, derived_ulps) << j;
    worst = std::max(worst, screw_ulps);
    EXPECT_EQ(a.joint_axis(j), b.joint_axis(j)) << j;
    EXPECT_EQ(a.joint_axis_point(j), b.joint_axis_point(j)) << j;
  }
  EXPECT_EQ(a.joint_second_axis(2), b.joint_second_axis(2));
  EXPECT_EQ(a.gravity(), b.gravity());
  return worst;
}

TEST(GeneratedUniversal, ParametersJsonLoadsTheUniversalJoint) {
  const json doc = universal_json();
  const json& joint = doc["joints"][1];
  EXPECT_EQ(joint["kind"], "universal");
  EXPECT_EQ(joint["name"], "cardan_1");
  EXPECT_EQ(joint["urdf_joints"], json({"cardan_1", "cardan_2"}));
  EXPECT_FALSE(joint.contains("centre"));
  const Cardan c = cardan_by_hand();
  for (int i = 0; i < 3; ++i) {
    const auto I = static_cast<std::size_t>(i);
    EXPECT_NEAR(joint["axis"][I].get<double>(), c.e1(i), 1e-15);
    EXPECT_NEAR(joint["second_axis"][I].get<double>(), c.e2(i), 1e-15);
    EXPECT_NEAR(joint["point"][I].get<double>(), c.point(i), 1e-15);
  }
  auto loaded = std::make_unique<hodyn::Model<uni::Tree, double>>();
  std::array<hodyn::JointLimits, uni::kNumJoints> limits{};
  std::string error;
  ASSERT_EQ(hodyn::urdf::load_robot_json_file(HODYN_CARDAN_ARM_JSON, *loaded, uni::kBodyNames,
                                              uni::kJointNames, &error, &limits),
            Status::kOk)
      << error;
  const auto robots = make_robots();
  const double apart = expect_same_model(*loaded, robots->uni, 4.0);
  std::printf("parameters JSON vs make_model: inertias and screws within %.2g ulps (normwise)\n",
              apart);
  EXPECT_FALSE(limits[1].bounded);
  EXPECT_TRUE(std::isinf(limits[1].effort) && std::isinf(limits[1].velocity));
  EXPECT_TRUE(limits[0].bounded && limits[2].bounded);

  // Refusals: the status, one line naming joint and key, the model unchanged.
  const auto refused = [&](const json& bad, Status status, const std::string& expected) {
    auto m = std::make_unique<hodyn::Model<uni::Tree, double>>(*loaded);
    std::string e;
    EXPECT_EQ(hodyn::urdf::load_robot_json(bad, *m, uni::kBodyNames, uni::kJointNames, &e), status)
        << expected;
    EXPECT_NE(e.find(expected), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    expect_same_model(*m, *loaded);
    std::cout << "refused: " << e << std::endl;
  };
  const json u = doc["joints"][1];
  const auto with = [&](const char* key, const json& value) {
    json bad = doc;
    if (value.is_discarded())
      bad["joints"][1].erase(key);
    else
      bad["joints"][1][key] = value;
    return bad;
  };
  const json gone = json(json::value_t::discarded);
  for (const char* key : {"axis", "second_axis", "point"})
    refused(with(key, gone), Status::kInvalidArgument, std::string("joint 1: "));
  refused(with("second_axis", gone), Status::kInvalidArgument, "second_axis");
  refused(with("axis", json({0.0, 0.0, 1.1})), Status::kInvalidModel,
          "joint 1: axis: not a unit vector");
  refused(with("second_axis", json({0.6, 0.8, 0.01})), Status::kInvalidModel,
          "joint 1: second_axis: not a unit vector");
  refused(with("second_axis", u["axis"]), Status::kInvalidModel,
          "joint 1: axis and second_axis: parallel");
  json minus = u["axis"];
  for (auto& x : minus) x = -x.get<double>();
  refused(with("second_axis", minus), Status::kInvalidModel, "parallel");
  refused(with("point", json({0.0, nullptr, 0.0})), Status::kInvalidArgument, "joint 1:");
  refused(with("axis", json({1.0, 0.0})), Status::kInvalidArgument, "joint 1: not 3 numbers");
  refused(with("centre", json({0.0, 0.0, 0.0})), Status::kInvalidArgument,
          "joint 1: centre: only spherical joints have one (the compiled kind is universal");
  refused(with("pitch", 0.01), Status::kInvalidArgument, "joint 1: pitch");
  refused(with("urdf_joints", 3), Status::kInvalidArgument, "joint 1:");
  refused(with("extra", 3), Status::kInvalidArgument, "joint 1: unknown key \"extra\"");
  {
    json bad = doc;
    bad["joints"][0]["second_axis"] = json({0.0, 0.0, 1.0});
    refused(bad, Status::kInvalidArgument,
            "joint 0: second_axis: only universal joints have one (the compiled kind is");
  }
  // The two-joint robot's kind does not load into the universal tree (topology).
  refused(with("kind", "revolute"), Status::kInvalidModel, "joint 1: kind");

  // Non-finite numbers: a JSON document built in memory can hold them (the
  // loader takes an nlohmann::json) ...
  for (const double bad_value :
       {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()})
    for (const char* key : {"point", "axis", "second_axis"}) {
      json bad = doc;
      bad["joints"][1][key][1] = bad_value;
      refused(bad, Status::kInvalidModel, std::string("joint 1: ") + key + ": not finite");
    }
  // ... a file cannot: a number beyond the double range is not read as ∞.
  json huge = doc;
  huge["joints"][1]["point"][0] = 12345.5;
  std::string huge_text = huge.dump();
  huge_text.replace(huge_text.find("12345.5"), 7, "1e999");
  const std::string path = std::string(HODYN_CARDAN_ARM_JSON) + ".huge.json";
  {
    std::ofstream out(path);
    out << huge_text;
  }
  auto m = std::make_unique<hodyn::Model<uni::Tree, double>>(*loaded);
  std::string e;
  EXPECT_EQ(hodyn::urdf::load_robot_json_file(path, *m, uni::kBodyNames, uni::kJointNames, &e),
            Status::kInvalidArgument);
  EXPECT_NE(e.find("not valid JSON"), std::string::npos) << e;
  expect_same_model(*m, *loaded);
  std::cout << "refused: " << e << std::endl;
  std::remove(path.c_str());
}

}  // namespace
