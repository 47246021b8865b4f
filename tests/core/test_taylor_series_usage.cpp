// The public series scalar used as docs/taylor-series.md shows, through the
// public header alone: the third time derivative of a point on the 12-DoF
// robot's last link, from forward kinematics of ORDER 0 run on series, equals
// the one frame_kinematics computes at order 2 with the recursion.
#include <hodyn/hodyn.hpp>
#include <hodyn/taylor_series.hpp>

#include <gtest/gtest.h>

#include <array>

namespace {

using Tree = hodyn::AerialManipulatorTree;
using S = hodyn::TaylorSeries<double, 4>;

TEST(TaylorSeriesUsage, ExactDerivativesOfAPointThroughOrderZeroKinematics) {
  hodyn::AerialManipulatorModel<double> model;
  ASSERT_EQ(hodyn::make_aerial_manipulator(model), hodyn::Status::kOk);

  // A motion: q_j(t) with derivatives q_j^(0..4), the base at rest at a pose.
  hodyn::MotionDerivatives<Tree, 2> motion;
  motion.base_pose.translation << 0.2, -0.1, 1.0;
  for (int k = 0; k <= 4; ++k)
    for (int j = 0; j < 6; ++j) motion.q[k](j) = 0.1 * (j + 1) * (k % 2 ? -1.0 : 1.0) / (k + 1);

  // The recursion: the point's derivatives 0..3 (order 2 gives 0..order+1).
  hodyn::KinematicsData<Tree, 2> kin;
  ASSERT_EQ(hodyn::forward_kinematics(model, kin, motion, 2), hodyn::Status::kOk);
  std::array<hodyn::BodyFrame<double>, 1> tool;
  tool[0].body = 6;
  tool[0].placement.translation << 0.05, 0.0, -0.02;
  hodyn::FrameKinematicsData<1, 2> frames;
  ASSERT_EQ(hodyn::frame_kinematics(kin, tool, frames, 2), hodyn::Status::kOk);

  // The series: the same call at order 0 on TaylorSeries scalars.
  const hodyn::Model<Tree, S> model_s = model.cast<S>();
  hodyn::MotionDerivatives<Tree, 0, S> motion_s;
  motion_s.base_pose = motion.base_pose.cast<S>();
  for (int j = 0; j < 6; ++j) {
    std::array<double, 5> d;
    for (int k = 0; k <= 4; ++k) d[static_cast<std::size_t>(k)] = motion.q[k](j);
    motion_s.q[0](j) = S::from_derivatives(d);
    motion_s.q[1](j) = motion_s.q[0](j).derivative();
    motion_s.q[2](j) = motion_s.q[1](j).derivative();
  }
  hodyn::KinematicsData<Tree, 0, S> kin_s;
  ASSERT_EQ(hodyn::forward_kinematics(model_s, kin_s, motion_s, 0), hodyn::Status::kOk);
  const hodyn::Pose<S> c = kin_s.body_pose[6] * tool[0].placement.cast<S>();
  for (int k = 0; k <= 3; ++k)
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(c.translation(i).derivative_value(k), frames.position[0][k](i), 1e-12)
          << "p^(" << k << ")_" << i;
}

}  // namespace
