// A helical joint declared with hodyn-urdf --helical (URDF has no screw joint):
// tests/urdf/data/cli/lead_screw.urdf, a nut on a vertical lead screw,
// generated with FIXED_BASE HELICAL lead_screw=0.01 (tests/urdf/CMakeLists.txt),
// its header compiled with -Werror in double and float and its parameters JSON
// loaded with hodyn::robot_json, both against physics worked out by hand (the
// URDF's comment), not against the tool's output:
//   - the joint turns about the world z axis through (0.1, −0.2, 0.3), the
//     joint's URDF origin, and lifts the nut h θ: at turn θ the nut's frame is
//     at (0.1, −0.2, 0.3 + h θ) with rotation Rz(0.4 + θ);
//   - nothing about the axis changes with θ, so the mass matrix is the
//     constant J = I_zz + m ρ² + m h² (the turn's inertia about the axis plus
//     the lift's), there are no velocity terms, and gravity asks for the
//     holding torque m g h: τ = J θ̈ + m g h, τ^(k) = J θ^(k+2) for k ≥ 1;
//     forward dynamics θ̈ = (τ − m g h) / J;
//   - a re-identified JSON (another pitch, another nut mass) follows the same
//     formula with the new numbers: the loader hands the pitch to the Model;
//   - the loader refuses a helical joint without "pitch" or "point", a "pitch"
//     that is not a number, and "pitch" on a revolute joint, leaving the
//     Model as it was.
#include <hodyn/forward_dynamics.hpp>
#include <hodyn/inverse_dynamics.hpp>
#include <hodyn/kinematics.hpp>
#include <hodyn/urdf/robot_json.hpp>

#include <branching_urdf.hpp>
#include <lead_screw_urdf.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace ls = lead_screw_urdf;
using hodyn::JointKind;
using hodyn::Status;
using nlohmann::json;

// The hand-worked numbers of lead_screw.urdf and of the --helical option.
constexpr double kMass = 0.4;     // kg, the nut
constexpr double kRadius = 0.03;  // m, its centre of mass from the axis
constexpr double kIzz = 2e-4;     // kg m², about its centre of mass, vertical
constexpr double kPitch = 0.01;   // m/rad, --helical lead_screw=0.01
constexpr double kG = 9.81;       // m/s², the generated gravity
constexpr double kYaw = 0.4;      // rad, the joint origin's yaw
const Eigen::Vector3d kAxisPoint(0.1, -0.2, 0.3);

static_assert(ls::Tree::kNumBodies == 2);
static_assert(ls::Tree::kJoint[0] == JointKind::kFixedBase);
static_assert(ls::Tree::kJoint[1] == JointKind::kHelical);
static_assert(ls::kNumDofs == 1);
static_assert(ls::parameters::kJointPitch[1] == kPitch && ls::parameters::kJointPitch[0] == 0.0);
static_assert(ls::joint_index("lead_screw") == 0);
static_assert(!ls::kJointLimits[0].bounded);  // continuous in the URDF

/// J = I_zz + m ρ² + m h², the screw's inertia about its one coordinate.
double screw_inertia(double mass, double pitch) {
  return kIzz + mass * kRadius * kRadius + mass * pitch * pitch;
}

/// Inverse dynamics of `model` at orders 0..2 on a few states against
/// τ = J θ̈ + m g h, τ^(k) = J θ^(k+2), to `tol` N·m (the lift's share m h² θ̈
/// alone is 8e-5 N·m at θ̈ = 2.1).
template <class Scalar>
void expect_screw_dynamics(const hodyn::Model<ls::Tree, Scalar>& model, double mass, double pitch,
                           double tol) {
  constexpr int kOrder = 2;
  auto motion = std::make_unique<hodyn::MotionDerivatives<ls::Tree, kOrder, Scalar>>();
  auto data = std::make_unique<hodyn::InverseDynamicsData<ls::Tree, kOrder, Scalar>>();
  const double states[3][kOrder + 3] = {
      {0.0, 0.0, 0.0, 0.0, 0.0}, {0.7, -1.3, 2.1, 0.4, -3.0}, {-4.2, 6.5, -0.8, 1.9, 2.6}};
  const double inertia = screw_inertia(mass, pitch);
  const double holding = mass * kG * pitch;
  for (const auto& theta : states) {
    for (int k = 0; k < kOrder + 3; ++k)
      motion->q[static_cast<std::size_t>(k)](0) = Scalar(theta[k]);
    ASSERT_EQ(hodyn::inverse_dynamics(model, *data, *motion, kOrder), Status::kOk);
    const double tau = inertia * theta[2] + holding;
    EXPECT_NEAR(double(data->joint_torque[0](0)), tau, tol) << "θ = " << theta[0];
    for (int k = 1; k <= kOrder; ++k) {
      const double rate = inertia * theta[k + 2];
      EXPECT_NEAR(double(data->joint_torque[static_cast<std::size_t>(k)](0)), rate, tol)
          << "order " << k << ", θ = " << theta[0];
    }
  }
}

template <class Scalar>
void expect_generated_screw(double tol) {
  hodyn::Model<ls::Tree, Scalar> model;
  ASSERT_EQ(ls::make_model(model), Status::kOk);
  EXPECT_EQ(model.joint_pitch(1), Scalar(kPitch));
  EXPECT_EQ(model.joint_sense(1), Scalar(1));
  // The axis is world z; its point nearest the world origin is (0.1, −0.2, 0).
  EXPECT_NEAR(double(model.joint_axis(1)(2)), 1.0, tol);
  EXPECT_NEAR(double(model.joint_axis_point(1)(0)), 0.1, tol);
  EXPECT_NEAR(double(model.joint_axis_point(1)(1)), -0.2, tol);
  EXPECT_NEAR(double(model.joint_axis_point(1)(2)), 0.0, tol);
  expect_screw_dynamics(model, kMass, kPitch, tol);
}

TEST(GeneratedHelical, ScrewDynamicsFromTheHeaderInDoubleAndFloat) {
  expect_generated_screw<double>(1e-12);
  expect_generated_screw<float>(1e-6);
}

TEST(GeneratedHelical, ForwardDynamicsAndKinematicsTurnAndLift) {
  hodyn::Model<ls::Tree, double> model;
  ASSERT_EQ(ls::make_model(model), Status::kOk);
  auto in = std::make_unique<hodyn::ForwardDynamicsInput<ls::Tree, 0, double>>();
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<ls::Tree, 0, double>>();
  in->q(0) = 1.1;
  in->q_dot(0) = -2.3;
  in->joint_torque[0](0) = 0.05;
  ASSERT_EQ(hodyn::forward_dynamics(model, *fd, *in, 0), Status::kOk);
  EXPECT_NEAR(fd->motion.q[2](0), (0.05 - kMass * kG * kPitch) / screw_inertia(kMass, kPitch),
              1e-12);

  auto motion = std::make_unique<hodyn::MotionDerivatives<ls::Tree, 1, double>>();
  auto kin = std::make_unique<hodyn::KinematicsData<ls::Tree, 1, double>>();
  for (const double theta : {0.0, 2.5, -7.0}) {
    motion->q[0](0) = theta;
    motion->q[1](0) = 0.6;
    ASSERT_EQ(hodyn::forward_kinematics(model, *kin, *motion, 0), Status::kOk);
    const hodyn::Pose<double>& nut = kin->body_pose[1];
    const Eigen::Vector3d lifted = kAxisPoint + Eigen::Vector3d(0, 0, kPitch * theta);
    EXPECT_LT((nut.translation - lifted).norm(), 1e-14) << "θ = " << theta;
    const Eigen::Matrix3d turned =
        Eigen::AngleAxisd(kYaw + theta, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    EXPECT_LT((nut.rotation - turned).norm(), 1e-14) << "θ = " << theta;
  }
}

std::string read_text(const char* path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

json read_json(const char* path) { return json::parse(read_text(path)); }

TEST(GeneratedHelical, ParametersJsonLoadsTheScrew) {
  const json doc = read_json(HODYN_LEAD_SCREW_JSON);
  const json& joint = doc["joints"][0];
  EXPECT_EQ(joint["kind"], "helical");
  EXPECT_EQ(joint["pitch"], kPitch);
  EXPECT_EQ(joint["axis"], json({0.0, 0.0, 1.0}));
  EXPECT_EQ(joint["point"], json({0.1, -0.2, 0.3}));
  hodyn::Model<ls::Tree, double> model;
  std::string error;
  ASSERT_EQ(hodyn::urdf::load_robot_json_file(HODYN_LEAD_SCREW_JSON, model, ls::kBodyNames,
                                              ls::kJointNames, &error),
            Status::kOk)
      << error;
  EXPECT_EQ(model.joint_pitch(1), kPitch);
  expect_screw_dynamics(model, kMass, kPitch, 1e-12);
}

TEST(GeneratedHelical, ReidentifiedPitchAndMassLoadWithoutRecompiling) {
  // A left-handed screw of 2 cm/rad and a heavier nut: the holding torque
  // changes sign, the lift's inertia grows.
  json doc = read_json(HODYN_LEAD_SCREW_JSON);
  doc["joints"][0]["pitch"] = -0.02;
  doc["bodies"][1]["mass"] = 0.5;
  hodyn::Model<ls::Tree, double> model;
  std::string error;
  ASSERT_EQ(hodyn::urdf::load_robot_json(doc, model, ls::kBodyNames, ls::kJointNames, &error),
            Status::kOk)
      << error;
  EXPECT_EQ(model.joint_pitch(1), -0.02);
  expect_screw_dynamics(model, 0.5, -0.02, 1e-12);
}

/// `doc` is refused with kInvalidArgument, one line holding `words`, and
/// `model` keeps its pitch.
template <class Tree, std::size_t kBodies, std::size_t kJoints>
void expect_refused(const json& doc, hodyn::Model<Tree, double>& model,
                    const std::array<const char*, kBodies>& bodies,
                    const std::array<const char*, kJoints>& joints,
                    const std::vector<std::string>& words) {
  const double mass1 = model.mass(1);
  std::string error;
  EXPECT_EQ(hodyn::urdf::load_robot_json(doc, model, bodies, joints, &error),
            Status::kInvalidArgument);
  for (const std::string& w : words)
    EXPECT_NE(error.find(w), std::string::npos) << "'" << w << "' not in: " << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_EQ(model.mass(1), mass1);
  std::cout << "refused: " << error << std::endl;
}

TEST(GeneratedHelical, LoaderRequiresThePitchOfAHelicalJointOnly) {
  const json good = read_json(HODYN_LEAD_SCREW_JSON);
  hodyn::Model<ls::Tree, double> screw;
  ASSERT_EQ(ls::make_model(screw), Status::kOk);
  json no_pitch = good;
  no_pitch["joints"][0].erase("pitch");
  no_pitch["bodies"][1]["mass"] = 9.0;  // would change the model if it loaded
  expect_refused(no_pitch, screw, ls::kBodyNames, ls::kJointNames, {"joint 0", "pitch"});
  json no_point = good;
  no_point["joints"][0].erase("point");
  no_point["bodies"][1]["mass"] = 9.0;
  expect_refused(no_point, screw, ls::kBodyNames, ls::kJointNames, {"joint 0", "point"});
  json text_pitch = good;
  text_pitch["joints"][0]["pitch"] = "0.01";
  text_pitch["bodies"][1]["mass"] = 9.0;
  expect_refused(text_pitch, screw, ls::kBodyNames, ls::kJointNames, {"joint 0"});
  EXPECT_EQ(screw.joint_pitch(1), kPitch);
  EXPECT_EQ(screw.mass(1), kMass);

  // "pitch" on a revolute joint (the elbow, general axis) and on a prismatic
  // one: the same refusal as "point" on a prismatic joint.
  const json branching = read_json(HODYN_BRANCHING_JSON);
  hodyn::Model<branching_urdf::Tree, double> arm;
  ASSERT_EQ(branching_urdf::make_model(arm), Status::kOk);
  json revolute_pitch = branching;
  revolute_pitch["joints"][2]["pitch"] = 0.01;
  expect_refused(revolute_pitch, arm, branching_urdf::kBodyNames, branching_urdf::kJointNames,
                 {"joint 2", "pitch", "only helical", "revolute"});
  json prismatic_pitch = branching;
  prismatic_pitch["joints"][4]["pitch"] = 0.01;
  expect_refused(prismatic_pitch, arm, branching_urdf::kBodyNames, branching_urdf::kJointNames,
                 {"joint 4", "pitch", "only helical", "prismatic_x"});
}

}  // namespace
