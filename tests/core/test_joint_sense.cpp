// Joint sense: an axis-aligned joint given its negative coordinate axis
// (e.g. kRevoluteZ about (0, 0, −1), what a URDF `<axis xyz="0 0 -1"/>` asks
// for) must behave exactly like the general joint kind about the same
// negative axis, which runs none of the sense code (its sense is +1) and is
// checked against the Taylor oracle in the oracle suites. Every algorithm is
// compared: inverse dynamics of orders 0..4 (coefficient lanes and scalar
// kernels, with and without applied loads), forward dynamics of orders 0..2,
// hybrid dynamics, the mass matrix and the closed forms with their rates.
#include <hodyn/hodyn.hpp>

#include "support/error_metrics.hpp"
#include "support/random.hpp"

#include <gtest/gtest.h>

#include <array>

namespace {

using hodyn::JointKind;
using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using Vec3 = Eigen::Vector3d;

// Two trees of one topology: every aligned kind in `Fast`, the general kind
// in `General`. Bodies: base; 1-2-3 a chain off the base; 4 off body 1; 5-6
// a second branch off the base; 7 a prismatic tool on 3.
constexpr std::array<int, 8> kParent{-1, 0, 1, 2, 1, 0, 5, 3};
struct Fast {
  static constexpr int kNumBodies = 8;
  static constexpr std::array<int, 8> kParent = ::kParent;
  static constexpr std::array<JointKind, 8> kJoint{
      JointKind::kFloatingBase, JointKind::kRevoluteZ,  JointKind::kRevoluteX,
      JointKind::kRevoluteY,    JointKind::kPrismaticX, JointKind::kRevoluteY,
      JointKind::kPrismaticY,   JointKind::kPrismaticZ};
};
struct General {
  static constexpr int kNumBodies = 8;
  static constexpr std::array<int, 8> kParent = ::kParent;
  static constexpr std::array<JointKind, 8> kJoint{
      JointKind::kFloatingBase, JointKind::kRevolute,  JointKind::kRevolute,
      JointKind::kRevolute,     JointKind::kPrismatic, JointKind::kRevolute,
      JointKind::kPrismatic,    JointKind::kPrismatic};
};
// Axis directions: negative for joints 1, 3, 4, 7 and positive for the others,
// so both senses meet in one chain.
const std::array<Vec3, 8> kAxis{Vec3::Zero(),      Vec3(0, 0, -1), Vec3(1, 0, 0),
                                Vec3(0, -1, 0),    Vec3(-1, 0, 0), Vec3(0, 1, 0),
                                Vec3(0, 1, 0),     Vec3(0, 0, -1)};

template <class Tree, class Scalar = double>
hodyn::Model<Tree, Scalar> make_model(unsigned seed) {
  hodyn::test::Rng rng(seed);
  hodyn::Model<Tree, double> m;
  for (int j = 0; j < 8; ++j) {
    const auto inertia = SpatialInertia<double>::from_mass_com_inertia(
        rng.uniform(0.2, 2.0), 0.1 * rng.vec3(), rng.inertia_about_com(0.01));
    EXPECT_EQ(m.set_body(j, rng.pose(0.3), inertia), Status::kOk) << j;
    if (j == 0) continue;
    const Status s = hodyn::is_revolute(Tree::kJoint[j])
                         ? m.set_revolute_axis(j, kAxis[j], 0.3 * rng.vec3())
                         : m.set_prismatic_axis(j, kAxis[j]);
    EXPECT_EQ(s, Status::kOk) << j;
  }
  return m.template cast<Scalar>();
}

constexpr int kMaxOrder = 4;
template <class Tree>
using Motion = hodyn::MotionDerivatives<Tree, kMaxOrder>;

template <class Tree>
Motion<Tree> random_motion(unsigned seed) {
  hodyn::test::Rng rng(seed);
  Motion<Tree> m;
  m.base_pose = rng.pose(1.0);
  for (auto& v : m.base_twist) v = rng.vec6();
  for (auto& q : m.q)
    for (int i = 0; i < q.size(); ++i) q(i) = rng.normal();
  return m;
}

// The same numbers in the other tree's types.
template <class To, class From>
Motion<To> same_motion(const Motion<From>& from) {
  Motion<To> to;
  to.base_pose = from.base_pose;
  to.base_twist = from.base_twist;
  for (std::size_t k = 0; k < from.q.size(); ++k) to.q[k] = from.q[k];
  return to;
}

double rel(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / (1.0 + b.cwiseAbs().maxCoeff());
}

class JointSense : public ::testing::Test {
 protected:
  hodyn::Model<Fast> fast_ = make_model<Fast>(7);
  hodyn::Model<General> general_ = make_model<General>(7);
};

TEST_F(JointSense, ModelRecordsTheSense) {
  for (int j = 1; j < 8; ++j) {
    const double expected = (j == 1 || j == 3 || j == 4 || j == 7) ? -1.0 : 1.0;
    EXPECT_EQ(fast_.joint_sense(j), expected) << j;
    EXPECT_EQ(general_.joint_sense(j), 1.0) << j;
    // Same screw as set, whichever kind carries it.
    EXPECT_LT(rel(fast_.joint_screw(j), general_.joint_screw(j)), 1e-15) << j;
  }
}

TEST_F(JointSense, InverseDynamicsMatchesTheGeneralKind) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto mf = random_motion<Fast>(seed);
    const auto mg = same_motion<General>(mf);
    hodyn::InverseDynamicsData<Fast, kMaxOrder> df;
    hodyn::InverseDynamicsData<General, kMaxOrder> dg;
    for (int r = 0; r <= kMaxOrder; ++r) {
      ASSERT_EQ(hodyn::inverse_dynamics(fast_, df, mf, r), Status::kOk);
      ASSERT_EQ(hodyn::inverse_dynamics(general_, dg, mg, r), Status::kOk);
      for (int k = 0; k <= r; ++k) {
        EXPECT_LT(rel(df.joint_torque[k], dg.joint_torque[k]), 1e-12) << "r " << r << " k " << k;
        EXPECT_LT(rel(df.base_wrench[k], dg.base_wrench[k]), 1e-12) << "r " << r << " k " << k;
      }
    }
  }
}

TEST_F(JointSense, InverseDynamicsWithLoadsMatchesTheGeneralKind) {
  // Applied body and world wrenches and external torques: the scalar kernels'
  // load paths, which read q again for the pose of the loaded body.
  hodyn::test::Rng rng(99);
  hodyn::ExternalLoads<Fast, kMaxOrder> lf;
  hodyn::ExternalLoads<General, kMaxOrder> lg;
  for (int j : {3, 7}) {
    lf.has_world_wrench[j] = lg.has_world_wrench[j] = true;
    lf.has_body_wrench[j] = lg.has_body_wrench[j] = true;
    for (int k = 0; k <= kMaxOrder; ++k) {
      lf.world_wrench[j][k] = lg.world_wrench[j][k] = rng.vec6();
      lf.body_wrench[j][k] = lg.body_wrench[j][k] = rng.vec6();
    }
  }
  for (int k = 0; k <= kMaxOrder; ++k)
    for (int i = 0; i < 7; ++i) lf.joint_torque[k](i) = lg.joint_torque[k](i) = rng.normal();
  const auto mf = random_motion<Fast>(5);
  const auto mg = same_motion<General>(mf);
  hodyn::InverseDynamicsData<Fast, kMaxOrder> df;
  hodyn::InverseDynamicsData<General, kMaxOrder> dg;
  for (int r = 0; r <= kMaxOrder; ++r) {
    ASSERT_EQ(hodyn::inverse_dynamics(fast_, df, mf, &lf, r), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(general_, dg, mg, &lg, r), Status::kOk);
    for (int k = 0; k <= r; ++k) {
      EXPECT_LT(rel(df.joint_torque[k], dg.joint_torque[k]), 1e-12) << "r " << r << " k " << k;
      EXPECT_LT(rel(df.base_wrench[k], dg.base_wrench[k]), 1e-12) << "r " << r << " k " << k;
    }
  }
}

TEST_F(JointSense, ForwardAndHybridDynamicsMatchTheGeneralKind) {
  hodyn::test::Rng rng(3);
  for (int trial = 0; trial < 10; ++trial) {
    hodyn::HybridDynamicsInput<Fast, 2> inf;
    inf.base_pose = rng.pose(1.0);
    inf.base_twist = rng.vec6();
    for (int i = 0; i < 7; ++i) inf.q(i) = rng.normal(), inf.q_dot(i) = rng.normal();
    for (int k = 0; k <= 2; ++k) {
      inf.base_wrench[k] = 10.0 * rng.vec6();
      for (int i = 0; i < 7; ++i)
        inf.joint_torque[k](i) = rng.normal(), inf.joint_acceleration[k](i) = rng.normal();
    }
    inf.motion_prescribed = {false, true, false, true, false, false, true};
    hodyn::HybridDynamicsInput<General, 2> ing;
    ing.base_pose = inf.base_pose;
    ing.base_twist = inf.base_twist;
    ing.q = inf.q;
    ing.q_dot = inf.q_dot;
    ing.base_wrench = inf.base_wrench;
    ing.joint_torque = inf.joint_torque;
    ing.joint_acceleration = inf.joint_acceleration;
    ing.motion_prescribed = inf.motion_prescribed;
    hodyn::ForwardDynamicsData<Fast, 2> df;
    hodyn::ForwardDynamicsData<General, 2> dg;
    for (int r = 0; r <= 2; ++r) {
      ASSERT_EQ(hodyn::forward_dynamics(fast_, df, inf, r), Status::kOk);
      ASSERT_EQ(hodyn::forward_dynamics(general_, dg, ing, r), Status::kOk);
      for (int k = 0; k <= r; ++k) {
        EXPECT_LT(rel(df.motion.q[k + 2], dg.motion.q[k + 2]), 1e-11) << "FD r " << r << " k " << k;
        EXPECT_LT(rel(df.motion.base_twist[k + 1], dg.motion.base_twist[k + 1]), 1e-11);
      }
      ASSERT_EQ(hodyn::hybrid_dynamics(fast_, df, inf, r), Status::kOk);
      ASSERT_EQ(hodyn::hybrid_dynamics(general_, dg, ing, r), Status::kOk);
      for (int k = 0; k <= r; ++k) {
        EXPECT_LT(rel(df.motion.q[k + 2], dg.motion.q[k + 2]), 1e-11) << "HD r " << r << " k " << k;
        EXPECT_LT(rel(df.joint_torque[k], dg.joint_torque[k]), 1e-11) << "HD r " << r << " k " << k;
      }
    }
  }
}

TEST_F(JointSense, ClosedFormsMatchTheGeneralKind) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const auto big = random_motion<Fast>(seed);
    hodyn::MotionDerivatives<Fast, 1> mf;
    mf.base_pose = big.base_pose;
    for (int k = 0; k < 3; ++k) mf.base_twist[k] = big.base_twist[k];
    for (int k = 0; k < 4; ++k) mf.q[k] = big.q[k];
    hodyn::MotionDerivatives<General, 1> mg;
    mg.base_pose = mf.base_pose;
    mg.base_twist = mf.base_twist;
    for (int k = 0; k < 4; ++k) mg.q[k] = mf.q[k];
    hodyn::EquationsOfMotionData<Fast> ef;
    hodyn::EquationsOfMotionData<General> eg;
    ASSERT_EQ(hodyn::mass_matrix(fast_, ef, mf.base_pose, mf.q[0]), Status::kOk);
    ASSERT_EQ(hodyn::mass_matrix(general_, eg, mg.base_pose, mg.q[0]), Status::kOk);
    EXPECT_LT(rel(ef.result.mass_matrix, eg.result.mass_matrix), 1e-12) << seed;
    ASSERT_EQ(hodyn::equations_of_motion(fast_, ef, mf, true), Status::kOk);
    ASSERT_EQ(hodyn::equations_of_motion(general_, eg, mg, true), Status::kOk);
    const auto& a = ef.result;
    const auto& b = eg.result;
    EXPECT_LT(rel(a.mass_matrix, b.mass_matrix), 1e-12) << seed;
    EXPECT_LT(rel(a.coriolis_matrix, b.coriolis_matrix), 1e-12) << seed;
    EXPECT_LT(rel(a.gravity, b.gravity), 1e-12) << seed;
    EXPECT_LT(rel(a.mass_matrix_rate, b.mass_matrix_rate), 1e-12) << seed;
    EXPECT_LT(rel(a.coriolis_rate, b.coriolis_rate), 1e-12) << seed;
    EXPECT_LT(rel(a.gravity_rate, b.gravity_rate), 1e-12) << seed;
  }
}

TEST_F(JointSense, FloatModelKeepsTheSense) {
  // The float build (Cortex-M4F) runs the same conversion: agreement to float precision.
  const auto ff = make_model<Fast, float>(7);
  const auto gf = make_model<General, float>(7);
  const auto md = random_motion<Fast>(11);
  hodyn::MotionDerivatives<Fast, 2, float> mf;
  hodyn::MotionDerivatives<General, 2, float> mg;
  mf.base_pose = mg.base_pose = md.base_pose.cast<float>();
  for (int k = 0; k < 3; ++k) mf.base_twist[k] = mg.base_twist[k] = md.base_twist[k].cast<float>();
  for (int k = 0; k < 4; ++k) mf.q[k] = md.q[k].cast<float>(), mg.q[k] = md.q[k].cast<float>();
  hodyn::InverseDynamicsData<Fast, 2, float> df;
  hodyn::InverseDynamicsData<General, 2, float> dg;
  for (int r = 0; r <= 2; ++r) {
    ASSERT_EQ(hodyn::inverse_dynamics(ff, df, mf, r), Status::kOk);
    ASSERT_EQ(hodyn::inverse_dynamics(gf, dg, mg, r), Status::kOk);
    for (int k = 0; k <= r; ++k)
      EXPECT_LT(rel(df.joint_torque[k].cast<double>(), dg.joint_torque[k].cast<double>()), 1e-4)
          << "r " << r << " k " << k;
  }
}

// A negative joint is not "the positive joint at −q" by accident of symmetry:
// flipping the sense of a joint of a model with off-axis centres of mass
// changes the torques unless q is flipped too.
TEST_F(JointSense, SenseIsTheSignOfTheCoordinate) {
  hodyn::Model<Fast> flipped = fast_;
  ASSERT_EQ(flipped.set_revolute_axis(1, Vec3(0, 0, 1), fast_.joint_axis_point(1)), Status::kOk);
  auto m = random_motion<Fast>(4);
  hodyn::InverseDynamicsData<Fast, kMaxOrder> a, b;
  ASSERT_EQ(hodyn::inverse_dynamics(fast_, a, m, 2), Status::kOk);
  ASSERT_EQ(hodyn::inverse_dynamics(flipped, b, m, 2), Status::kOk);
  EXPECT_GT(rel(a.joint_torque[0], b.joint_torque[0]), 1e-6);  // differs as is
  for (auto& q : m.q) q(0) = -q(0);                            // θ = −q
  ASSERT_EQ(hodyn::inverse_dynamics(flipped, b, m, 2), Status::kOk);
  for (int k = 0; k <= 2; ++k) {
    Eigen::VectorXd tau = b.joint_torque[k];
    tau(0) = -tau(0);
    EXPECT_LT(rel(a.joint_torque[k], tau), 1e-13) << k;
    EXPECT_LT(rel(a.base_wrench[k], b.base_wrench[k]), 1e-13) << k;
  }
}

}  // namespace
