// Derivatives with respect to model parameters (issue 17 item 4): the ORDER-0
// templated algorithms run on hodyn::DualNumber give ∂/∂p of inverse dynamics
// (base wrench Q₁, joint torques τ), forward dynamics (V̇₁, q̈) and hybrid
// dynamics (Q₁, τ, q̈) of the 12-DoF aerial manipulator for three kinds of
// scalar parameter p:
//   - the mass of body 3 (Model::set_body with a dual mass; centre of mass and
//     rotational inertia about it held),
//   - the length of link 1, the distance from joint 1's axis down to joint
//     2's: the home poses of bodies 2 and 3 and the axis points of joints 2
//     and 3 move together along −z (home poses and screws are world-frame,
//     model.hpp),
//   - the angle α of joint 5's axis, e = (cos α, sin α, 0) (the x axis turned
//     about z; nominal α = 0.2 rad). An axis-aligned joint kind keeps its
//     coordinate axis, so this case runs on the same robot with joint 5
//     declared a general kRevolute joint.
// Oracle: central differences (f(p + h) − f(p − h)) / 2h of the double
// algorithms with the same parameter change, h = 1e-6, required to agree to
// 1e-7 relative to the largest partial of each output vector. Observed
// (GCC 12, -O2, x86-64): 1.0e-10 .. 8.7e-9 relative over the nine cases
// (the largest for the axis angle in inverse dynamics, whose partials are
// small, ≤ 0.34, beside a base force of ~40 N whose rounding the difference
// divides by h; the test prints each). Also: inverse dynamics is linear in a
// mass, so (τ(m + Δ) − τ(m)) / Δ equals ∂τ/∂m for any Δ (checked to 1e-12
// with Δ = 1 and 0.1; observed 2e-15 and 3.6e-14); and one forward-dynamics
// call with two parameters seeded (N = 2) equals two calls with one each
// (N = 1) to 1e-14 relative (observed 1.1e-13 on values up to 344; not bit
// for bit, presumably because Eigen picks how to unroll small sums from the
// scalar's cost, which depends on N). The test runs in a few milliseconds.
#include <hodyn/dual_number.hpp>
#include <hodyn/hodyn.hpp>

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {

using hodyn::Status;
using AerialTree = hodyn::AerialManipulatorTree;
using D1 = hodyn::DualNumber<double, 1>;
using D2 = hodyn::DualNumber<double, 2>;

/// The aerial manipulator with joint 5 (arm 2, revolute about x) declared a
/// general revolute joint, so that its axis may leave the x axis.
struct GeneralAxisTree {
  static constexpr int kNumBodies = 7;
  static constexpr std::array<int, kNumBodies> kParent{-1, 0, 1, 2, 0, 4, 5};
  static constexpr std::array<hodyn::JointKind, kNumBodies> kJoint{
      hodyn::JointKind::kFloatingBase, hodyn::JointKind::kRevoluteY, hodyn::JointKind::kRevoluteX,
      hodyn::JointKind::kRevoluteZ,    hodyn::JointKind::kRevoluteY, hodyn::JointKind::kRevolute,
      hodyn::JointKind::kRevoluteZ};
};

enum class Parameter { kMass, kLinkLength, kAxisAngle };
constexpr int kMassBody = 3;
constexpr int kAngleJoint = 5;
constexpr double kLinkLength = 0.12;  // 2 d of Table 3: joint 1's axis to joint 2's
constexpr double kAngle = 0.2;        // nominal α of joint 5's axis (rad)

/// The nominal value of a parameter (Table 3; α as chosen above).
template <class Tree>
double nominal_value(const hodyn::Model<Tree, double>& m, Parameter which) {
  switch (which) {
    case Parameter::kMass:
      return m.mass(kMassBody);
    case Parameter::kLinkLength:
      return kLinkLength;
    case Parameter::kAxisAngle:
      return kAngle;
  }
  return 0;
}

/// Sets parameter `which` of `model` (built from `nominal`, the same robot in
/// double) to `p`.
template <class Tree, class S>
Status set_parameter(hodyn::Model<Tree, S>& model, const hodyn::Model<Tree, double>& nominal,
                     Parameter which, const S& p) {
  switch (which) {
    case Parameter::kMass: {
      const hodyn::SpatialInertia<double>& in = nominal.body_inertia(kMassBody);
      const auto inertia = hodyn::SpatialInertia<S>::from_mass_com_inertia(
          p, in.com().template cast<S>(), in.inertia_about_com().template cast<S>());
      return model.set_body(kMassBody, nominal.home_pose(kMassBody).template cast<S>(), inertia);
    }
    case Parameter::kLinkLength: {
      const S drop = p - S(kLinkLength);  // bodies 2, 3 (joint 2's subtree) move down by it
      for (int j : {2, 3}) {
        hodyn::Pose<S> pose = nominal.home_pose(j).template cast<S>();
        pose.translation.z() -= drop;
        Status s = model.set_body(j, pose, nominal.body_inertia(j).template cast<S>());
        if (s != Status::kOk) return s;
        hodyn::Vector3<S> point = nominal.joint_axis_point(j).template cast<S>();
        point.z() -= drop;
        const hodyn::Vector3<double> direction = hodyn::angular(nominal.joint_screw(j));
        s = model.set_revolute_axis(j, direction.template cast<S>(), point);
        if (s != Status::kOk) return s;
      }
      return Status::kOk;
    }
    case Parameter::kAxisAngle: {
      using std::cos;
      using std::sin;
      const hodyn::Vector3<S> e(cos(p), sin(p), S(0));
      return model.set_revolute_axis(kAngleJoint, e,
                                     nominal.joint_axis_point(kAngleJoint).template cast<S>());
    }
  }
  return Status::kInvalidArgument;
}

/// The same robot as `m` on GeneralAxisTree, with joint 5's axis at α = kAngle.
Status make_general_axis_model(const hodyn::AerialManipulatorModel<double>& m,
                               hodyn::Model<GeneralAxisTree, double>& out) {
  Status s = out.set_gravity(m.gravity());
  for (int j = 0; j < 7 && s == Status::kOk; ++j) {
    s = out.set_body(j, m.home_pose(j), m.body_inertia(j));
    if (s == Status::kOk && j > 0) s = out.set_joint_screw(j, m.joint_screw(j));
  }
  if (s != Status::kOk) return s;
  return set_parameter(out, out, Parameter::kAxisAngle, kAngle);
}

/// A state, accelerations and inputs away from every symmetry (double).
struct State {
  hodyn::Pose<double> base_pose;
  hodyn::Twist<double> twist, twist_dot, wrench;
  Eigen::Matrix<double, 6, 1> q, q_dot, q_ddot, tau;
  State() {
    base_pose.rotation = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 3).normalized()).matrix();
    base_pose.translation << 0.3, -0.2, 1.1;
    twist << 0.1, -0.2, 0.3, 0.4, 0.1, -0.3;
    twist_dot << -0.5, 0.2, 0.7, 0.3, -0.6, 0.4;
    wrench << 0.1, 0.2, -0.1, 0.5, -0.3, 30.0;
    q << 0.3, -0.5, 0.8, -0.2, 0.6, -0.9;
    q_dot << 0.4, 0.3, -0.6, 0.5, -0.2, 0.7;
    q_ddot << -1.0, 0.8, 0.5, -0.4, 1.2, -0.7;
    tau << 0.2, -0.1, 0.05, 0.15, -0.2, 0.1;
  }
};

enum class Algorithm { kInverse, kForward, kHybrid };
constexpr int kMaxOutputs = 18;
int output_count(Algorithm a) { return a == Algorithm::kHybrid ? 18 : 12; }
const char* name(Algorithm a) {
  return a == Algorithm::kInverse ? "inverse" : a == Algorithm::kForward ? "forward" : "hybrid";
}
const char* name(Parameter p) {
  return p == Parameter::kMass         ? "mass"
         : p == Parameter::kLinkLength ? "link length"
                                       : "axis angle";
}

template <class S>
using Outputs = Eigen::Matrix<S, kMaxOutputs, 1>;

/// Runs one ORDER-0 algorithm on scalar S: inverse dynamics → (Q₁, τ);
/// forward dynamics → (V̇₁, q̈); hybrid dynamics with the base motion and
/// joints 1, 2, 4 prescribed → (Q₁, τ, q̈).
template <class Tree, class S>
Status evaluate(const hodyn::Model<Tree, S>& model, Algorithm algorithm, const State& x,
                Outputs<S>& out) {
  out.setZero();
  const hodyn::Pose<S> pose = x.base_pose.template cast<S>();
  if (algorithm == Algorithm::kInverse) {
    hodyn::MotionDerivatives<Tree, 0, S> motion;
    motion.base_pose = pose;
    motion.base_twist[0] = x.twist.template cast<S>();
    motion.base_twist[1] = x.twist_dot.template cast<S>();
    motion.q[0] = x.q.template cast<S>();
    motion.q[1] = x.q_dot.template cast<S>();
    motion.q[2] = x.q_ddot.template cast<S>();
    hodyn::InverseDynamicsData<Tree, 0, S> data;
    const Status s = hodyn::inverse_dynamics(model, data, motion, 0);
    out.template head<6>() = data.base_wrench[0];
    out.template segment<6>(6) = data.joint_torque[0];
    return s;
  }
  hodyn::HybridDynamicsInput<Tree, 0, S> in;
  in.base_pose = pose;
  in.base_twist = x.twist.template cast<S>();
  in.q = x.q.template cast<S>();
  in.q_dot = x.q_dot.template cast<S>();
  in.base_wrench[0] = x.wrench.template cast<S>();
  in.joint_torque[0] = x.tau.template cast<S>();
  hodyn::ForwardDynamicsData<Tree, 0, S> data;
  if (algorithm == Algorithm::kForward) {
    const Status s = hodyn::forward_dynamics(model, data, in, 0);
    out.template head<6>() = data.motion.base_twist[1];
    out.template segment<6>(6) = data.motion.q[2];
    return s;
  }
  in.base_input = hodyn::BaseInput::kMotion;
  in.base_acceleration[0] = x.twist_dot.template cast<S>();
  in.motion_prescribed = {true, true, false, true, false, false};
  in.joint_acceleration[0] = x.q_ddot.template cast<S>();
  const Status s = hodyn::hybrid_dynamics(model, data, in, 0);
  out.template head<6>() = data.base_wrench[0];
  out.template segment<6>(6) = data.joint_torque[0];
  out.template segment<6>(12) = data.motion.q[2];
  return s;
}

/// The outputs of the double algorithm with parameter `which` set to p.
template <class Tree>
Outputs<double> evaluate_at(const hodyn::Model<Tree, double>& nominal, Parameter which, double p,
                            Algorithm algorithm, const State& x) {
  hodyn::Model<Tree, double> model = nominal;
  EXPECT_EQ(set_parameter(model, nominal, which, p), Status::kOk);
  Outputs<double> out;
  EXPECT_EQ(evaluate(model, algorithm, x, out), Status::kOk);
  return out;
}

/// The dual outputs with parameter `which` seeded as variable 0 (of N = 1).
template <class Tree>
Outputs<D1> evaluate_dual(const hodyn::Model<Tree, double>& nominal, Parameter which, double p,
                          Algorithm algorithm, const State& x) {
  hodyn::Model<Tree, D1> model = nominal.template cast<D1>();
  EXPECT_EQ(set_parameter(model, nominal, which, D1::variable(p, 0)), Status::kOk);
  Outputs<D1> out;
  EXPECT_EQ(evaluate(model, algorithm, x, out), Status::kOk);
  return out;
}

double largest(const Outputs<double>& v) { return v.cwiseAbs().maxCoeff(); }

/// Dual partials against central differences, and dual values against the
/// double algorithm; prints the relative error.
template <class Tree>
void check_against_central_differences(const hodyn::Model<Tree, double>& nominal, Parameter which,
                                       Algorithm algorithm) {
  const State x;
  const double p0 = nominal_value(nominal, which);
  constexpr double h = 1e-6;
  const Outputs<D1> dual = evaluate_dual(nominal, which, p0, algorithm, x);
  const Outputs<double> plus = evaluate_at(nominal, which, p0 + h, algorithm, x);
  const Outputs<double> minus = evaluate_at(nominal, which, p0 - h, algorithm, x);
  const Outputs<double> value = evaluate_at(nominal, which, p0, algorithm, x);
  const Outputs<double> central = (plus - minus) / (2 * h);
  Outputs<double> partial, dual_value;
  for (int i = 0; i < kMaxOutputs; ++i) {
    partial(i) = dual(i).derivative(0);
    dual_value(i) = dual(i).value();
  }
  const int n = output_count(algorithm);
  const double scale = largest(partial);
  const double error = largest(partial - central) / scale;
  std::printf(
      "  d/d(%s) of %s dynamics: max |partial| %.3g, central-difference error %.2g relative\n",
      name(which), name(algorithm), scale, error);
  EXPECT_GT(scale, 1e-2) << "the parameter must matter for the check to mean something";
  EXPECT_LE(error, 1e-7) << name(which) << " / " << name(algorithm);
  // The value part is the double algorithm's result (to rounding: the double
  // build evaluates sin/cos of the joint angles with its own batch kernel).
  EXPECT_LE(largest(dual_value - value), 1e-12 * std::max(1.0, largest(value)));
  for (int i = n; i < kMaxOutputs; ++i) EXPECT_EQ(partial(i), 0.0);
}

class ParameterDerivatives : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hodyn::make_aerial_manipulator(robot_), Status::kOk);
    ASSERT_EQ(make_general_axis_model(robot_, general_), Status::kOk);
  }
  hodyn::AerialManipulatorModel<double> robot_;
  hodyn::Model<GeneralAxisTree, double> general_;
};

TEST_F(ParameterDerivatives, MassAgainstCentralDifferences) {
  for (Algorithm a : {Algorithm::kInverse, Algorithm::kForward, Algorithm::kHybrid})
    check_against_central_differences(robot_, Parameter::kMass, a);
}

TEST_F(ParameterDerivatives, LinkLengthAgainstCentralDifferences) {
  for (Algorithm a : {Algorithm::kInverse, Algorithm::kForward, Algorithm::kHybrid})
    check_against_central_differences(robot_, Parameter::kLinkLength, a);
}

TEST_F(ParameterDerivatives, JointAxisAngleAgainstCentralDifferences) {
  for (Algorithm a : {Algorithm::kInverse, Algorithm::kForward, Algorithm::kHybrid})
    check_against_central_differences(general_, Parameter::kAxisAngle, a);
}

// Inverse dynamics is linear in a body's mass (centre of mass and rotational
// inertia about it held): every term of the Newton–Euler sums is m times a
// kinematic quantity, or I_c times one. So a finite difference with ANY step
// is the exact partial.
TEST_F(ParameterDerivatives, MassPartialOfInverseDynamicsIsTheExactDifferenceQuotient) {
  const State x;
  const double m0 = robot_.mass(kMassBody);
  const Outputs<D1> dual = evaluate_dual(robot_, Parameter::kMass, m0, Algorithm::kInverse, x);
  const Outputs<double> at_m0 = evaluate_at(robot_, Parameter::kMass, m0, Algorithm::kInverse, x);
  for (double delta : {1.0, 0.1}) {
    const Outputs<double> moved =
        evaluate_at(robot_, Parameter::kMass, m0 + delta, Algorithm::kInverse, x);
    const Outputs<double> quotient = (moved - at_m0) / delta;
    double error = 0;
    for (int i = 0; i < 12; ++i) {
      error = std::max(error, std::abs(dual(i).derivative(0) - quotient(i)));
      EXPECT_NEAR(dual(i).derivative(0), quotient(i), 1e-12) << "output " << i << ", Δ " << delta;
    }
    std::printf("  d/dm of inverse dynamics vs (τ(m+%g) − τ(m))/%g: max error %.2g\n", delta, delta,
                error);
  }
}

// Two parameters seeded in one call (N = 2: body 3's mass and joint 5's axis
// angle) give the partials of two calls with one parameter each (N = 1).
TEST_F(ParameterDerivatives, TwoSeedsInOneCallEqualTwoSingleSeedCalls) {
  const State x;
  const double m0 = general_.mass(kMassBody);
  hodyn::Model<GeneralAxisTree, D2> both = general_.cast<D2>();
  ASSERT_EQ(set_parameter(both, general_, Parameter::kMass, D2::variable(m0, 0)), Status::kOk);
  ASSERT_EQ(set_parameter(both, general_, Parameter::kAxisAngle, D2::variable(kAngle, 1)),
            Status::kOk);
  Outputs<D2> out2;
  ASSERT_EQ(evaluate(both, Algorithm::kForward, x, out2), Status::kOk);
  const Outputs<D1> mass = evaluate_dual(general_, Parameter::kMass, m0, Algorithm::kForward, x);
  const Outputs<D1> angle =
      evaluate_dual(general_, Parameter::kAxisAngle, kAngle, Algorithm::kForward, x);
  int bit_identical = 0;
  double difference = 0;
  for (int i = 0; i < 12; ++i) {
    difference = std::max({difference, std::abs(out2(i).derivative(0) - mass(i).derivative(0)),
                           std::abs(out2(i).derivative(1) - angle(i).derivative(0))});
    // Not bit-identical: the compiler contracts and orders the N-long sums
    // differently for N = 1 and 2 (aarch64 fuses multiply-adds, x86-64 here
    // does not): 1.1e-14 relative on aarch64 under qemu, 5.7e-14 absolute on x86-64.
    EXPECT_NEAR(out2(i).value(), mass(i).value(), 1e-12 * (1 + std::abs(mass(i).value())));
    EXPECT_NEAR(out2(i).derivative(0), mass(i).derivative(0),
                1e-12 * (1 + std::abs(mass(i).derivative(0))));
    EXPECT_NEAR(out2(i).derivative(1), angle(i).derivative(0),
                1e-12 * (1 + std::abs(angle(i).derivative(0))));
    bit_identical += out2(i).derivative(0) == mass(i).derivative(0) &&
                     out2(i).derivative(1) == angle(i).derivative(0);
  }
  std::printf("  N = 2 vs two N = 1 calls: max difference %.2g, %d of 12 outputs bit-identical\n",
              difference, bit_identical);
  EXPECT_GT(std::abs(out2(6).derivative(1)), 1e-3);  // the angle moves q̈
}

}  // namespace
