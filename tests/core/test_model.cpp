// Model, trees and the built-in models (aerial manipulator, branched chains).
// Screws and CoMs of the aerial manipulator are compared with the published
// table of seed 000 (digest §10.1; hodyn body j = paper body j+1).
#include <hodyn/model.hpp>
#include <hodyn/models/aerial_manipulator.hpp>
#include <hodyn/models/branched_chains.hpp>
#include <hodyn/tree.hpp>

#include "support/dense_formulas.hpp"
#include "support/error_metrics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <limits>
#include <memory>

namespace {

using hodyn::JointKind;
using hodyn::Pose;
using hodyn::SpatialInertia;
using hodyn::Status;
using Mat3 = Eigen::Matrix3d;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using AM = hodyn::AerialManipulatorModel<double>;

// Shared helpers from tests/support/ (dense_formulas.hpp, error_metrics.hpp).
using hodyn::test::max_abs;
using hodyn::test::v6;

// ---- aerial manipulator ---------------------------------------------------

TEST(AerialManipulator, BuildsWithTotalMassFour) {
  AM model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  EXPECT_NEAR(model.total_mass(), 4.0, 1e-15);
  EXPECT_EQ(model.gravity(), Vec3(0, 0, -9.81));
  static_assert(AM::kNumBodies == 7 && AM::kNumJoints == 6 && AM::kNumDofs == 12);
}

TEST(AerialManipulator, ScrewsMatchThePublishedTable) {
  AM model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  // Seed 000 digest §10.1, Y_j = (e; p × e); paper bodies B2..B7.
  const std::array<Vec6, 7> expected{
      Vec6::Zero(),
      v6(0, 1, 0, 0.10, 0, 0.09),   // B2
      v6(1, 0, 0, 0, -0.22, 0),     // B3
      v6(0, 0, 1, 0, -0.09, 0),     // B4
      v6(0, 1, 0, 0.10, 0, -0.09),  // B5
      v6(1, 0, 0, 0, -0.22, 0),     // B6
      v6(0, 0, 1, 0, 0.09, 0),      // B7
  };
  for (int j = 1; j < 7; ++j)
    EXPECT_LT((model.joint_screw(j) - expected[j]).norm(), 1e-14)
        << "body " << j << ": " << model.joint_screw(j).transpose();
}

TEST(AerialManipulator, HomeCentresOfMass) {
  AM model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  const std::array<Vec3, 7> com{Vec3(0, 0, 0),        Vec3(0.09, 0, -0.16),  Vec3(0.09, 0, -0.28),
                                Vec3(0.09, 0, -0.40), Vec3(-0.09, 0, -0.16), Vec3(-0.09, 0, -0.28),
                                Vec3(-0.09, 0, -0.40)};
  for (int j = 0; j < 7; ++j) {
    EXPECT_LT((model.home_com(j) - com[j]).norm(), 1e-14) << "body " << j;
    // Body frames sit at the CoM, aligned with the world.
    EXPECT_LT((model.home_pose(j).translation - com[j]).norm(), 1e-14);
    EXPECT_EQ(model.home_pose(j).rotation, Mat3::Identity());
    EXPECT_LT(model.body_inertia(j).first_moment.norm(), 1e-15);
  }
  EXPECT_EQ(model.body_inertia(0).mass, 2.5);
  EXPECT_LT(max_abs(model.body_inertia(0).rotational_inertia -
                    Vec3(0.03, 0.03, 0.05).asDiagonal().toDenseMatrix()),
            1e-15);
  for (int j = 1; j < 7; ++j) {
    EXPECT_EQ(model.body_inertia(j).mass, 0.25);
    EXPECT_LT(max_abs(model.body_inertia(j).rotational_inertia -
                      Vec3(0.002, 0.002, 0.001).asDiagonal().toDenseMatrix()),
              1e-15);
  }
}

TEST(AerialManipulator, TreeTopology) {
  using T = hodyn::AerialManipulatorTree;
  static_assert(hodyn::is_valid_tree<T>());
  const std::array<int, 7> parent{-1, 0, 1, 2, 0, 4, 5};
  for (int j = 0; j < 7; ++j) EXPECT_EQ(T::kParent[j], parent[j]);
  EXPECT_EQ(T::kJoint[1], JointKind::kRevoluteY);
  EXPECT_EQ(T::kJoint[2], JointKind::kRevoluteX);
  EXPECT_EQ(T::kJoint[3], JointKind::kRevoluteZ);
  EXPECT_EQ(T::kJoint[4], JointKind::kRevoluteY);
  EXPECT_EQ(T::kJoint[5], JointKind::kRevoluteX);
  EXPECT_EQ(T::kJoint[6], JointKind::kRevoluteZ);
}

TEST(AerialManipulator, RejectsNonPhysicalParameters) {
  AM model;
  hodyn::AerialManipulatorParameters p;
  p.link_mass = -1.0;
  EXPECT_EQ(hodyn::make_aerial_manipulator(model, p), Status::kInvalidModel);
  p = {};
  p.base_inertia = {0.03, 0.03, -0.05};
  EXPECT_EQ(hodyn::make_aerial_manipulator(model, p), Status::kInvalidModel);
  p = {};
  p.gravity = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(hodyn::make_aerial_manipulator(model, p), Status::kInvalidModel);
}

// ---- setters --------------------------------------------------------------

// Snapshot of everything observable in a model.
template <class Tree>
struct Snapshot {
  std::array<Eigen::Matrix4d, Tree::kNumBodies> pose;
  std::array<Vec6, Tree::kNumBodies> screw;
  std::array<Vec3, Tree::kNumBodies> com, axis, axis_point, h;
  std::array<Mat3, Tree::kNumBodies> inertia, home_inertia;
  std::array<double, Tree::kNumBodies> mass;
  Vec3 gravity;
  explicit Snapshot(const hodyn::Model<Tree, double>& m) {
    for (int j = 0; j < Tree::kNumBodies; ++j) {
      pose[j] = m.home_pose(j).matrix();
      screw[j] = m.joint_screw(j);
      com[j] = m.home_com(j);
      axis[j] = m.joint_axis(j);
      axis_point[j] = m.joint_axis_point(j);
      h[j] = m.body_inertia(j).first_moment;
      inertia[j] = m.body_inertia(j).rotational_inertia;
      home_inertia[j] = m.home_inertia(j).matrix();
      mass[j] = m.body_inertia(j).mass;
    }
    gravity = m.gravity();
  }
  bool operator==(const Snapshot& o) const {
    for (int j = 0; j < Tree::kNumBodies; ++j)
      if (pose[j] != o.pose[j] || screw[j] != o.screw[j] || com[j] != o.com[j] ||
          axis[j] != o.axis[j] || axis_point[j] != o.axis_point[j] || h[j] != o.h[j] ||
          inertia[j] != o.inertia[j] || home_inertia[j] != o.home_inertia[j] ||
          mass[j] != o.mass[j])
        return false;
    return gravity == o.gravity;
  }
};

class ModelSetters : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hodyn::make_aerial_manipulator(model_), Status::kOk);
    before_ = std::make_unique<Snapshot<hodyn::AerialManipulatorTree>>(model_);
  }
  void expect_unchanged() const {
    EXPECT_TRUE(Snapshot<hodyn::AerialManipulatorTree>(model_) == *before_)
        << "a rejected setter changed the model";
  }
  AM model_;
  std::unique_ptr<Snapshot<hodyn::AerialManipulatorTree>> before_;
  const double nan_ = std::numeric_limits<double>::quiet_NaN();
  const SpatialInertia<double> good_inertia_ = SpatialInertia<double>::from_mass_com_inertia(
      0.3, Vec3(0.01, 0.02, -0.03), Vec3(0.002, 0.003, 0.004).asDiagonal().toDenseMatrix());
};

// set_body under an unchanged home pose takes a shorter path (only body j's
// mass properties, not every joint frame): every derived member must equal,
// bit for bit, what the full update gives (set_body with another pose first,
// then back, so the second call is a full update).
TEST_F(ModelSetters, NewInertiaUnderTheSameHomePoseEqualsTheFullUpdate) {
  for (int j = 0; j < AM::kNumBodies; ++j) {
    AM shortcut = model_;
    ASSERT_EQ(shortcut.set_body(j, model_.home_pose(j), good_inertia_), Status::kOk);
    AM full = model_;
    Pose<double> moved = model_.home_pose(j);
    moved.translation += Vec3(0.01, -0.02, 0.03);
    ASSERT_EQ(full.set_body(j, moved, model_.body_inertia(j)), Status::kOk);
    ASSERT_EQ(full.set_body(j, model_.home_pose(j), good_inertia_), Status::kOk);
    EXPECT_TRUE(Snapshot<hodyn::AerialManipulatorTree>(shortcut) ==
                Snapshot<hodyn::AerialManipulatorTree>(full))
        << "body " << j;
    EXPECT_FALSE(Snapshot<hodyn::AerialManipulatorTree>(shortcut) == *before_) << "body " << j;
    for (int k = 0; k < AM::kNumBodies; ++k) {
      EXPECT_EQ(shortcut.local_com(k), full.local_com(k)) << "body " << j << ", " << k;
      EXPECT_EQ(shortcut.local_origin(k), full.local_origin(k)) << "body " << j << ", " << k;
      EXPECT_EQ(shortcut.com_from_axis_point(k), full.com_from_axis_point(k))
          << "body " << j << ", " << k;
      EXPECT_EQ(shortcut.joint_frame_inertia(k).matrix(), full.joint_frame_inertia(k).matrix())
          << "body " << j << ", " << k;
    }
    EXPECT_EQ(shortcut.base_home_pose_inverse().matrix(), full.base_home_pose_inverse().matrix());
    EXPECT_EQ(shortcut.base_home_is_identity(), full.base_home_is_identity());
  }
}

TEST_F(ModelSetters, NonUnitAxisIsRejected) {
  EXPECT_EQ(model_.set_revolute_axis(1, Vec3(0, 1.01, 0), Vec3(0.09, 0, -0.1)),
            Status::kInvalidModel);
  EXPECT_EQ(model_.set_joint_screw(2, v6(0.5, 0, 0, 0, 0, 0)), Status::kInvalidModel);
  expect_unchanged();
}

TEST_F(ModelSetters, AxisNotMatchingAlignedKindIsRejected) {
  // Joint 1 is kRevoluteY: an x axis (unit, valid otherwise) must be refused.
  EXPECT_EQ(model_.set_revolute_axis(1, Vec3(1, 0, 0), Vec3(0.09, 0, -0.1)), Status::kInvalidModel);
  // Nor a tilted axis near y (only ±y within the orthonormality tolerance).
  EXPECT_EQ(model_.set_revolute_axis(1, Vec3(0, 0.6, 0.8), Vec3(0.09, 0, -0.1)),
            Status::kInvalidModel);
  // A prismatic screw on a revolute joint.
  EXPECT_EQ(model_.set_prismatic_axis(1, Vec3(0, 1, 0)), Status::kInvalidModel);
  expect_unchanged();
}

TEST_F(ModelSetters, NegativeAlignedAxisSetsTheSense) {
  // kRevoluteY about −y through (0.09, 0, −0.1): accepted with sense −1; the
  // screw keeps the direction as given, the fast-path axis stays +y, and the
  // axis point is the same as for +y.
  ASSERT_EQ(model_.set_revolute_axis(1, Vec3(0, -1, 0), Vec3(0.09, 0, -0.1)), Status::kOk);
  EXPECT_EQ(model_.joint_sense(1), -1.0);
  EXPECT_EQ(model_.joint_axis(1), Vec3(0, 1, 0));
  EXPECT_LT(max_abs(model_.joint_screw(1) - v6(0, -1, 0, -0.1, 0, -0.09)), 1e-15);
  EXPECT_LT(max_abs(model_.joint_axis_point(1) - Vec3(0.09, 0, -0.1)), 1e-15);
  // Back to +y: sense +1 again; the other joints were never touched.
  ASSERT_EQ(model_.set_revolute_axis(1, Vec3(0, 1, 0), Vec3(0.09, 0, -0.1)), Status::kOk);
  EXPECT_EQ(model_.joint_sense(1), 1.0);
  for (int j = 0; j < 7; ++j) EXPECT_EQ(model_.joint_sense(j), 1.0) << j;
  // The sense survives a cast.
  ASSERT_EQ(model_.set_revolute_axis(3, Vec3(0, 0, -1), model_.joint_axis_point(3)), Status::kOk);
  EXPECT_EQ(model_.cast<float>().joint_sense(3), -1.0f);
}

TEST_F(ModelSetters, PitchOnRevoluteIsRejected) {
  // Y = (e; p × e + h e) with h = 0.1 is a helical screw, not a revolute one.
  const Vec3 e(0, 1, 0);
  const Vec3 p(0.09, 0, -0.1);
  Vec6 y;
  y << e, p.cross(e) + 0.1 * e;
  EXPECT_EQ(model_.set_joint_screw(1, y), Status::kInvalidModel);
  expect_unchanged();
}

TEST_F(ModelSetters, NaNIsRejected) {
  EXPECT_EQ(model_.set_revolute_axis(1, Vec3(0, 1, 0), Vec3(nan_, 0, 0)), Status::kInvalidModel);
  Pose<double> pose = model_.home_pose(2);
  pose.translation(1) = nan_;
  EXPECT_EQ(model_.set_body(2, pose, good_inertia_), Status::kInvalidModel);
  auto bad = good_inertia_;
  bad.rotational_inertia(1, 1) = nan_;
  EXPECT_EQ(model_.set_body(2, model_.home_pose(2), bad), Status::kInvalidModel);
  bad = good_inertia_;
  bad.mass = std::numeric_limits<double>::infinity();
  EXPECT_EQ(model_.set_body(2, model_.home_pose(2), bad), Status::kInvalidModel);
  EXPECT_EQ(model_.set_gravity(Vec3(0, nan_, -9.81)), Status::kInvalidModel);
  expect_unchanged();
}

TEST_F(ModelSetters, NegativeMassIsRejected) {
  auto bad = good_inertia_;
  bad.mass = -0.1;
  EXPECT_EQ(model_.set_body(3, model_.home_pose(3), bad), Status::kInvalidModel);
  expect_unchanged();
}

TEST_F(ModelSetters, NonPsdInertiaIsRejected) {
  const auto bad = SpatialInertia<double>::from_mass_com_inertia(
      0.3, Vec3(0.01, 0.0, 0.0), Vec3(0.002, 0.003, -0.001).asDiagonal().toDenseMatrix());
  EXPECT_EQ(model_.set_body(3, model_.home_pose(3), bad), Status::kInvalidModel);
  // Indefinite but with positive diagonal: [[1, 2], [2, 1]] block.
  Mat3 ic;
  ic << 0.001, 0.002, 0, 0.002, 0.001, 0, 0, 0, 0.001;
  EXPECT_EQ(model_.set_body(3, model_.home_pose(3),
                            SpatialInertia<double>::from_mass_com_inertia(0.3, Vec3::Zero(), ic)),
            Status::kInvalidModel);
  expect_unchanged();
}

TEST_F(ModelSetters, NonOrthonormalHomeRotationIsRejected) {
  Pose<double> pose = model_.home_pose(4);
  pose.rotation = 1.01 * Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  EXPECT_EQ(model_.set_body(4, pose, good_inertia_), Status::kInvalidModel);
  pose.rotation = Vec3(1, 1, -1).asDiagonal();  // a reflection, det = −1
  EXPECT_EQ(model_.set_body(4, pose, good_inertia_), Status::kInvalidModel);
  expect_unchanged();
}

TEST_F(ModelSetters, OutOfRangeBodyIndexIsRejected) {
  EXPECT_EQ(model_.set_body(-1, Pose<double>::identity(), good_inertia_), Status::kInvalidArgument);
  EXPECT_EQ(model_.set_body(7, Pose<double>::identity(), good_inertia_), Status::kInvalidArgument);
  EXPECT_EQ(model_.set_joint_screw(0, v6(0, 1, 0, 0, 0, 0)),
            Status::kInvalidArgument);  // the base has no joint
  EXPECT_EQ(model_.set_joint_screw(7, v6(0, 0, 1, 0, 0, 0)), Status::kInvalidArgument);
  EXPECT_EQ(model_.set_revolute_axis(-3, Vec3(0, 1, 0), Vec3::Zero()), Status::kInvalidArgument);
  EXPECT_EQ(model_.set_prismatic_axis(100, Vec3(0, 0, 1)), Status::kInvalidArgument);
  expect_unchanged();
}

TEST_F(ModelSetters, AcceptedSetterUpdatesDerivedQuantities) {
  // A valid body with a rotated home frame and a CoM offset.
  Pose<double> pose;
  pose.rotation = Eigen::AngleAxisd(0.4, Vec3(0.2, -1, 0.5).normalized()).toRotationMatrix();
  pose.translation = Vec3(0.1, 0.2, -0.3);
  ASSERT_EQ(model_.set_body(2, pose, good_inertia_), Status::kOk);
  EXPECT_LT(
      (model_.home_com(2) - (pose.rotation * Vec3(0.01, 0.02, -0.03) + pose.translation)).norm(),
      1e-15);
  const Mat3 expected_i =
      pose.rotation * Vec3(0.002, 0.003, 0.004).asDiagonal() * pose.rotation.transpose();
  EXPECT_LT(max_abs(model_.home_inertia(2).matrix() - expected_i), 1e-15);
  EXPECT_NEAR(model_.total_mass(), 4.0 - 0.25 + 0.3, 1e-15);
  // A new axis for joint 2 (kRevoluteX) through another point.
  ASSERT_EQ(model_.set_revolute_axis(2, Vec3(1, 0, 0), Vec3(0.5, 0.3, -0.2)), Status::kOk);
  EXPECT_LT((model_.joint_screw(2) - v6(1, 0, 0, 0, -0.2, -0.3)).norm(), 1e-15);
  // Axis point: the point of the axis closest to the origin.
  EXPECT_LT((model_.joint_axis_point(2) - Vec3(0, 0.3, -0.2)).norm(), 1e-15);
  EXPECT_LT((model_.com_from_axis_point(2) - (model_.home_com(2) - Vec3(0, 0.3, -0.2))).norm(),
            1e-15);
}

// ---- user-declared trees --------------------------------------------------

struct ThreeBodyChain {
  static constexpr int kNumBodies = 3;
  static constexpr std::array<int, 3> kParent{-1, 0, 1};
  static constexpr std::array<JointKind, 3> kJoint{JointKind::kFloatingBase, JointKind::kRevolute,
                                                   JointKind::kPrismatic};
};

struct BadParentOrder {  // parent of body 2 is body 2 itself
  static constexpr int kNumBodies = 3;
  static constexpr std::array<int, 3> kParent{-1, 0, 2};
  static constexpr std::array<JointKind, 3> kJoint{JointKind::kFloatingBase, JointKind::kRevolute,
                                                   JointKind::kRevolute};
};
struct BadBaseJoint {  // body 0 is not a floating base
  static constexpr int kNumBodies = 2;
  static constexpr std::array<int, 2> kParent{-1, 0};
  static constexpr std::array<JointKind, 2> kJoint{JointKind::kRevolute, JointKind::kRevolute};
};
struct BadSecondBase {  // a second floating base
  static constexpr int kNumBodies = 2;
  static constexpr std::array<int, 2> kParent{-1, 0};
  static constexpr std::array<JointKind, 2> kJoint{JointKind::kFloatingBase,
                                                   JointKind::kFloatingBase};
};
struct BadRootParent {  // body 0 with a parent
  static constexpr int kNumBodies = 2;
  static constexpr std::array<int, 2> kParent{0, 0};
  static constexpr std::array<JointKind, 2> kJoint{JointKind::kFloatingBase,
                                                   JointKind::kPrismaticZ};
};

static_assert(hodyn::is_valid_tree<ThreeBodyChain>());
static_assert(!hodyn::is_valid_tree<BadParentOrder>());
static_assert(!hodyn::is_valid_tree<BadBaseJoint>());
static_assert(!hodyn::is_valid_tree<BadSecondBase>());
static_assert(!hodyn::is_valid_tree<BadRootParent>());

TEST(UserTree, ThreeBodyChainBuilds) {
  hodyn::Model<ThreeBodyChain, double> model;
  static_assert(hodyn::Model<ThreeBodyChain, double>::kNumDofs == 8);
  // Default: general kinds get the z axis through the origin.
  EXPECT_EQ(model.joint_screw(1), v6(0, 0, 1, 0, 0, 0));
  EXPECT_EQ(model.joint_screw(2), v6(0, 0, 0, 0, 0, 1));
  const auto link = SpatialInertia<double>::from_mass_com_inertia(
      1.0, Vec3(0, 0, -0.1), Vec3(0.01, 0.01, 0.02).asDiagonal().toDenseMatrix());
  ASSERT_EQ(model.set_body(0, Pose<double>::identity(), link), Status::kOk);
  ASSERT_EQ(model.set_body(1, Pose<double>::from_translation(Vec3(0, 0, -0.2)), link), Status::kOk);
  ASSERT_EQ(model.set_body(2, Pose<double>::from_translation(Vec3(0, 0, -0.4)), link), Status::kOk);
  const Vec3 e1 = Vec3(1, 1, 0).normalized();
  ASSERT_EQ(model.set_revolute_axis(1, e1, Vec3(0, 0, -0.1)), Status::kOk);
  const Vec3 e2 = Vec3(0.3, -0.4, 1.2).normalized();
  ASSERT_EQ(model.set_prismatic_axis(2, e2), Status::kOk);
  Vec6 y1;
  y1 << e1, Vec3(0, 0, -0.1).cross(e1);
  EXPECT_LT((model.joint_screw(1) - y1).norm(), 1e-15);
  EXPECT_LT((model.joint_screw(2) - v6(0, 0, 0, e2(0), e2(1), e2(2))).norm(), 1e-15);
  EXPECT_NEAR(model.total_mass(), 3.0, 1e-15);
  // Wrong kinds: a revolute screw on the prismatic joint, and vice versa.
  EXPECT_EQ(model.set_joint_screw(2, y1), Status::kInvalidModel);
  EXPECT_EQ(model.set_prismatic_axis(1, e1), Status::kInvalidModel);
}

// ---- branched chains ------------------------------------------------------

template <int N>
void check_branched_chains() {
  using T = hodyn::BranchedChainsTree<5, N>;
  static_assert(T::kNumBodies == 1 + 5 * N);
  static_assert(hodyn::is_valid_tree<T>());
  EXPECT_EQ(T::kParent[0], -1);
  EXPECT_EQ(T::kJoint[0], JointKind::kFloatingBase);
  for (int br = 0; br < 5; ++br)
    for (int i = 0; i < N; ++i) {
      const int j = 1 + br * N + i;
      EXPECT_EQ(T::kParent[j], i == 0 ? 0 : j - 1) << "body " << j;
      const JointKind cycle[3] = {JointKind::kRevoluteY, JointKind::kRevoluteX,
                                  JointKind::kRevoluteZ};
      EXPECT_EQ(T::kJoint[j], cycle[i % 3]) << "body " << j;
    }
  auto model = std::make_unique<hodyn::Model<T, double>>();
  ASSERT_EQ((hodyn::make_branched_chains<5, N>(*model)), Status::kOk);
  EXPECT_NEAR(model->total_mass(), 2.5 + 0.25 * 5 * N, 1e-12);
  // Chains hang straight down from a circle of radius 0.09 m.
  for (int br = 0; br < 5; ++br) {
    const Vec3 top = model->home_com(1 + br * N);
    EXPECT_NEAR(std::hypot(top(0), top(1)), 0.09, 1e-15);
    for (int i = 0; i < N; ++i) {
      const Vec3 c = model->home_com(1 + br * N + i);
      EXPECT_NEAR(c(2), -0.16 - 0.12 * i, 1e-13);
      EXPECT_NEAR(c(0), top(0), 1e-15);
      EXPECT_NEAR(c(1), top(1), 1e-15);
    }
  }
}

TEST(BranchedChains, Shapes) {
  check_branched_chains<1>();
  check_branched_chains<2>();
  check_branched_chains<3>();
  check_branched_chains<7>();
}

// ---- cast -----------------------------------------------------------------

TEST(ModelCast, FloatKeepsValues) {
  AM model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), Status::kOk);
  // Make it less trivial: a rotated base home pose with a CoM offset.
  Pose<double> base;
  base.rotation = Eigen::AngleAxisd(0.3, Vec3(0.1, 0.7, -0.2).normalized()).toRotationMatrix();
  base.translation = Vec3(0.05, -0.02, 0.01);
  ASSERT_EQ(model.set_body(0, base,
                           SpatialInertia<double>::from_mass_com_inertia(
                               2.5, Vec3(0.01, 0.0, -0.02),
                               Vec3(0.03, 0.03, 0.05).asDiagonal().toDenseMatrix())),
            Status::kOk);
  const hodyn::AerialManipulatorModel<float> f = model.cast<float>();
  const hodyn::AerialManipulatorModel<double> d = f.cast<double>();
  constexpr double tol = 1e-6;
  EXPECT_LT((d.gravity() - model.gravity()).norm(), tol);
  EXPECT_NEAR(d.total_mass(), model.total_mass(), tol);
  for (int j = 0; j < 7; ++j) {
    EXPECT_LT(max_abs(d.home_pose(j).matrix() - model.home_pose(j).matrix()), tol);
    EXPECT_LT((d.joint_screw(j) - model.joint_screw(j)).norm(), tol);
    EXPECT_LT((d.home_com(j) - model.home_com(j)).norm(), tol);
    EXPECT_LT((d.joint_axis(j) - model.joint_axis(j)).norm(), tol);
    EXPECT_LT((d.joint_axis_point(j) - model.joint_axis_point(j)).norm(), tol);
    EXPECT_LT((d.com_from_axis_point(j) - model.com_from_axis_point(j)).norm(), tol);
    EXPECT_LT(max_abs(d.home_inertia(j).matrix() - model.home_inertia(j).matrix()), tol);
    EXPECT_NEAR(d.body_inertia(j).mass, model.body_inertia(j).mass, tol);
    EXPECT_LT((d.body_inertia(j).first_moment - model.body_inertia(j).first_moment).norm(), tol);
    EXPECT_LT(
        max_abs(d.body_inertia(j).rotational_inertia - model.body_inertia(j).rotational_inertia),
        tol);
  }
  EXPECT_LT(max_abs(d.base_home_pose_inverse().matrix() - base.inverse().matrix()), tol);
}

}  // namespace
