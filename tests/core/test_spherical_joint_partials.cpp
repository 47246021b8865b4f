// Spherical (ball) joints in the state partials (issue 19, docs/joint-kinds.md
// "4. The slices", item 4): ∂J/∂q by coordinate
// (spatial_jacobian_coordinate_partial), the analytic partials of inverse
// dynamics (inverse_dynamics_derivatives) and the linearization ż = A z + B δu
// (linearize), on the ball tree of support/ball_trees.hpp at random states
// with δ ≠ 0 and R_j far from the identity (one turned by π − 10⁻³).
//
// A ball's coordinates are δ about its current rotation R = R_j exp([δ_in]):
// the partials are d/dε at R exp([ε e_a]). Oracles, none of them the code
// under test:
// (a) forward-mode duals (TaylorSeries<double, 1>) through the order-0
//     inverse dynamics, forward dynamics and kinematics, with R folded into
//     `joint_rotation` and the dual part seeded in the ball's δ entries of
//     q[0] (exp([δ]) is a power series there: exact at δ = 0);
// (b) central differences on the manifolds (base C₁ exp([±ξ]), a ball
//     R exp([±h e_a]), rotations by Eigen's AngleAxis);
// (c) the ball's δ rows of A from the rotations themselves: δ(t) =
//     log(R(t)ᵀ R'(t)) with R(t) = R exp([ω t]), R'(t) = R exp([δ₀])
//     exp([(ω + δω) t]), differentiated in t and in (δ₀, δω);
// (d) bad rotations and NaN: the statuses of the other ball calls, zero
//     outputs; the calls are heap-free.
#include <hodyn/hodyn.hpp>
#include <hodyn/inverse_dynamics_derivatives.hpp>
#include <hodyn/jacobians.hpp>
#include <hodyn/linearization.hpp>
#include <hodyn/taylor_series.hpp>

#include "support/ball_trees.hpp"
#include "support/heap_counter.hpp"
#include "support/se3_exponential.hpp"
#include "support/state_partials.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <utility>

namespace {

using namespace hodyn::test::ball_trees;  // BallTree, make_models, random_state
using hodyn::Twist;
using hodyn::test::se3_exp;
using namespace hodyn::test::state_partials;  // the order-0 oracles, kDofs, Vec, Mat, Motion, Input

// BallTree welded at its root: the fixed-base path of the same calls.
struct FixedBallTree {
  static constexpr int kNumBodies = 5;
  static constexpr std::array<int, 5> kParent{-1, 0, 1, 2, 0};
  static constexpr std::array<JointKind, 5> kJoint{JointKind::kFixedBase, JointKind::kRevolute,
                                                   JointKind::kSpherical, JointKind::kRevolute,
                                                   JointKind::kSpherical};
};

template <class Tree>
constexpr int kBalls = hodyn::TreeTraits<Tree>::kNumSphericalJoints;

/// The first q entry of ball b (its rank among the tree's balls).
template <class Tree>
int ball_entry(int b) {
  for (int j = 1; j < Tree::kNumBodies; ++j)
    if (hodyn::TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)] == b)
      return hodyn::TreeTraits<Tree>::joint_entry(j);
  return -1;
}
/// The ball whose δ (or ω) entry e of q is, −1 for a 1-DoF joint's entry.
template <class Tree>
int ball_at(int e) {
  for (int b = 0; b < kBalls<Tree>; ++b)
    if (e >= ball_entry<Tree>(b) && e < ball_entry<Tree>(b) + 3) return b;
  return -1;
}

using MixedTree = MixedTreeOf<JointKind::kFloatingBase>;
using MixedFixedTree = MixedTreeOf<JointKind::kFixedBase>;

/// A random state of any tree: base pose and twists, every entry of q[k]
/// (δ ≠ 0), R_j of random axis with every other ball turned by π − 10⁻³.
template <class Tree>
hodyn::MotionDerivatives<Tree, 0, double> random_motion(unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  hodyn::MotionDerivatives<Tree, 0, double> m;
  m.base_pose.rotation = random_rotation(gen);
  m.base_pose.translation = Vec3(g(gen), g(gen), g(gen));
  for (auto& v : m.base_twist)
    for (int i = 0; i < 6; ++i) v(i) = g(gen);
  for (auto& q : m.q)
    for (int i = 0; i < kJointDofs<Tree>; ++i) q(i) = g(gen);
  for (std::size_t b = 0; b < m.joint_rotation.size(); ++b)
    m.joint_rotation[b] =
        b % 2 == 1 ? Mat3(Eigen::AngleAxisd(M_PI - 1e-3, Vec3(g(gen), g(gen), g(gen)).normalized()))
                   : random_rotation(gen);
  return m;
}

/// The fixed-base tree with the ball tree's bodies, joints and gravity.
hodyn::Model<FixedBallTree, double> welded(const hodyn::Model<BallTree, double>& ball) {
  hodyn::Model<FixedBallTree, double> m;
  for (int j = 0; j < 5; ++j)
    EXPECT_EQ(m.set_body(j, ball.home_pose(j), ball.body_inertia(j)), Status::kOk);
  for (int j : {1, 3})
    EXPECT_EQ(m.set_revolute_axis(j, ball.joint_axis(j), ball.joint_axis_point(j)), Status::kOk);
  for (int j : {2, 4}) EXPECT_EQ(m.set_spherical_joint(j, ball.joint_axis_point(j)), Status::kOk);
  EXPECT_EQ(m.set_gravity(ball.gravity()), Status::kOk);
  return m;
}

/// The joint part of a ball-tree state (the fixed root ignores the base fields).
Motion<FixedBallTree> joints_of(const BallMotion<0>& b) {
  Motion<FixedBallTree> m;
  m.q = b.q;
  m.joint_rotation = b.joint_rotation;
  return m;
}

Mat3 so3_exp(const Vec3& w) {
  const double t = w.norm();
  if (t == 0) return Mat3::Identity();
  return Eigen::AngleAxisd(t, w / t).toRotationMatrix();
}
Vec3 so3_log(const Mat3& r) {
  const Eigen::AngleAxisd aa(r);
  return aa.angle() * aa.axis();
}

/// The same state with every ball's δ folded into its rotation: R = R_j exp([δ]), δ = 0.
template <class Tree, int MO>
Motion<Tree, MO> folded(const Motion<Tree, MO>& m) {
  Motion<Tree, MO> f = m;
  for (int b = 0; b < kBalls<Tree>; ++b) {
    const auto B = static_cast<std::size_t>(b);
    f.joint_rotation[B] =
        m.joint_rotation[B] * so3_exp(m.q[0].template segment<3>(ball_entry<Tree>(b)));
    f.q[0].template segment<3>(ball_entry<Tree>(b)).setZero();
  }
  return f;
}

/// The configuration block by central differences on the manifolds (step h).
template <class Tree>
Mat<Tree> central_configuration(const hodyn::Model<Tree, double>& model, const Motion<Tree>& motion,
                                double h) {
  constexpr int nb = kBase<Tree>;
  const Motion<Tree> base = folded(motion);
  Mat<Tree> d;
  for (int col = 0; col < kDofs<Tree>; ++col) {
    Motion<Tree> p = base, m = base;
    if (col < nb) {
      Twist<double> xi = Twist<double>::Zero();
      xi(col) = h;
      p.base_pose = base.base_pose * se3_exp(xi);
      m.base_pose = base.base_pose * se3_exp(-xi);
    } else {
      const int ball = ball_at<Tree>(col - nb);
      if (ball >= 0) {
        const auto B = static_cast<std::size_t>(ball);
        const Vec3 e = h * Vec3::Unit(col - nb - ball_entry<Tree>(ball));
        p.joint_rotation[B] = base.joint_rotation[B] * so3_exp(e);
        m.joint_rotation[B] = base.joint_rotation[B] * so3_exp(-e);
      } else {
        p.q[0](col - nb) += h;
        m.q[0](col - nb) -= h;
      }
    }
    d.col(col) = (generalized_force(model, p) - generalized_force(model, m)) / (2 * h);
  }
  return d;
}

template <class A, class B>
double relative(const A& a, const B& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

struct IdErrors {
  double dual[3] = {0, 0, 0}, central = 0, force = 0;
};

/// ∂ID of `model` at `motion` against the duals and central differences.
template <class Tree>
void check_inverse_dynamics_derivatives(const hodyn::Model<Tree, double>& model,
                                        const Motion<Tree>& motion, IdErrors& worst) {
  auto data = std::make_unique<hodyn::InverseDynamicsDerivativesData<Tree, double>>();
  ASSERT_EQ(hodyn::inverse_dynamics_derivatives(model, *data, motion), Status::kOk);
  const auto& r = data->result;
  Mat<Tree> dq, dv, mm;
  dual_partials(model, folded(motion), dq, dv, mm);  // the dual part in δ at δ = 0
  const Mat<Tree>* analytic[3] = {&r.d_configuration, &r.d_velocity, &r.mass_matrix};
  const Mat<Tree>* dual[3] = {&dq, &dv, &mm};
  for (int b = 0; b < 3; ++b) {
    const double e = relative(*analytic[b], *dual[b]);
    EXPECT_LT(e, 1e-12) << "block " << b;
    worst.dual[b] = std::max(worst.dual[b], e);
  }
  const double ec = relative(r.d_configuration, central_configuration(model, motion, 1e-6));
  EXPECT_LT(ec, 1e-7);
  worst.central = std::max(worst.central, ec);
  const Vec<Tree> f = generalized_force(model, motion);
  const double ef = (r.generalized_force - f).cwiseAbs().maxCoeff() / f.cwiseAbs().maxCoeff();
  EXPECT_LT(ef, 1e-13);
  worst.force = std::max(worst.force, ef);
}

void print(const char* what, const IdErrors& w) {
  std::printf(
      "  %s ∂ID vs duals: pose/δ,q %.2e  V/ω,q̇ %.2e  M %.2e | configuration vs central "
      "differences %.2e | τ̄ %.2e\n",
      what, w.dual[0], w.dual[1], w.dual[2], w.central, w.force);
}

TEST(SphericalJointPartials, InverseDynamicsDerivativesAgainstDualsAndCentralDifferences) {
  IdErrors floating, fixed, mixed, mixed_fixed;
  for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
    SCOPED_TRACE(seed);
    const Models models = make_models(seed);
    BallMotion<0> motion;
    random_state(seed + 200u, motion);
    check_inverse_dynamics_derivatives(models.ball, motion, floating);
    check_inverse_dynamics_derivatives(welded(models.ball), joints_of(motion), fixed);
    check_inverse_dynamics_derivatives(mixed_model<MixedTree>(seed + 20u),
                                       random_motion<MixedTree>(seed + 220u), mixed);
    check_inverse_dynamics_derivatives(mixed_model<MixedFixedTree>(seed + 40u),
                                       random_motion<MixedFixedTree>(seed + 240u), mixed_fixed);
  }
  print("ball tree", floating);
  print("fixed-base ball tree", fixed);
  print("mixed tree", mixed);
  print("fixed-base mixed tree", mixed_fixed);
}

/// ∂J/∂q of every body by every coordinate against duals through the kinematics.
template <class Tree>
double check_jacobian_partial(const hodyn::Model<Tree, double>& model, const Motion<Tree>& motion) {
  auto kin = std::make_unique<hodyn::KinematicsData<Tree, 0, double>>();
  EXPECT_EQ(hodyn::forward_kinematics(model, *kin, motion, 0), Status::kOk);
  const hodyn::Model<Tree, Dual> model_d = model.template cast<Dual>();
  const auto base = to_dual(folded(motion));
  auto kin_d = std::make_unique<hodyn::KinematicsData<Tree, 0, Dual>>();
  double worst = 0;
  for (int c = 0; c < kJointDofs<Tree>; ++c) {
    auto m = base;
    m.q[0](c) += Dual::variable(0.0, 1.0);  // a ball's δ_a at δ = 0
    EXPECT_EQ(hodyn::forward_kinematics(model_d, *kin_d, m, 0), Status::kOk);
    for (int body = 0; body < Tree::kNumBodies; ++body) {
      hodyn::JacobianMatrix<Tree, Dual> jd;
      EXPECT_EQ(hodyn::spatial_jacobian(*kin_d, body, jd), Status::kOk);
      Eigen::Matrix<double, 6, kDofs<Tree>> expected;
      for (int i = 0; i < 6; ++i)
        for (int k = 0; k < kDofs<Tree>; ++k) expected(i, k) = jd(i, k).coeff(1);
      hodyn::JacobianMatrix<Tree, double> partial;
      EXPECT_EQ(hodyn::spatial_jacobian_coordinate_partial(*kin, body, c, partial), Status::kOk);
      const double e = (partial - expected).cwiseAbs().maxCoeff();
      EXPECT_LT(e, 1e-13) << "coordinate " << c << " body " << body;
      worst = std::max(worst, e);
      if constexpr (hodyn::TreeTraits<Tree>::kSingleDofJoints) {  // the joint form agrees
        hodyn::JacobianMatrix<Tree, double> by_joint;
        EXPECT_EQ(hodyn::spatial_jacobian_partial(*kin, body, c + 1, by_joint), Status::kOk);
        EXPECT_EQ((by_joint - partial).cwiseAbs().maxCoeff(), 0.0);
      }
    }
  }
  hodyn::JacobianMatrix<Tree, double> partial;
  EXPECT_EQ(hodyn::spatial_jacobian_coordinate_partial(*kin, 1, kJointDofs<Tree>, partial),
            Status::kInvalidArgument);
  EXPECT_EQ(hodyn::spatial_jacobian_coordinate_partial(*kin, 1, -1, partial),
            Status::kInvalidArgument);
  EXPECT_EQ(hodyn::spatial_jacobian_coordinate_partial(*kin, Tree::kNumBodies, 0, partial),
            Status::kInvalidArgument);
  EXPECT_EQ(partial.cwiseAbs().maxCoeff(), 0.0);
  return worst;
}

TEST(SphericalJointPartials, JacobianPartialAgainstDuals) {
  double worst[4] = {0, 0, 0, 0};
  for (unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    const Models models = make_models(seed);
    BallMotion<0> motion;
    random_state(seed + 300u, motion);
    worst[0] = std::max(worst[0], check_jacobian_partial(models.ball, motion));
    worst[1] = std::max(worst[1], check_jacobian_partial(mixed_model<MixedTree>(seed + 20u),
                                                         random_motion<MixedTree>(seed + 320u)));
    worst[2] =
        std::max(worst[2], check_jacobian_partial(mixed_model<MixedFixedTree>(seed + 40u),
                                                  random_motion<MixedFixedTree>(seed + 340u)));
    worst[3] = std::max(
        worst[3], check_jacobian_partial(models.euler, random_motion<EulerTree>(seed + 360u)));
  }
  std::printf(
      "  ∂J/∂q by coordinate vs duals (absolute): ball tree %.2e, mixed %.2e, fixed-base mixed "
      "%.2e, three-revolute tree (1-DoF) %.2e\n",
      worst[0], worst[1], worst[2], worst[3]);
}

// ---- the linearization ----------------------------------------------------

/// Column `col` of the velocity rows of [A B] by central differences of forward
/// dynamics at x ⊕ z (a ball: R exp([±h e_a]) with R = R_j exp([δ_in])).
template <class Tree>
Vec<Tree> central_column(const hodyn::Model<Tree, double>& model, const Input<Tree>& in0, int col,
                         double h) {
  constexpr int n = kDofs<Tree>, nb = kBase<Tree>;
  Input<Tree> in = in0;
  for (int b = 0; b < kBalls<Tree>; ++b) {  // fold δ_in
    const auto B = static_cast<std::size_t>(b);
    in.joint_rotation[B] =
        in0.joint_rotation[B] * so3_exp(in0.q.template segment<3>(ball_entry<Tree>(b)));
    in.q.template segment<3>(ball_entry<Tree>(b)).setZero();
  }
  Input<Tree> p = in, m = in;
  if (col < nb) {
    Twist<double> xi = Twist<double>::Zero();
    xi(col) = h;
    p.base_pose = in.base_pose * se3_exp(xi);
    m.base_pose = in.base_pose * se3_exp(-xi);
  } else if (col < n) {
    const int entry = col - nb;
    const int ball = ball_at<Tree>(entry);
    if (ball >= 0) {
      const auto B = static_cast<std::size_t>(ball);
      const Vec3 e = h * Vec3::Unit(entry - ball_entry<Tree>(ball));
      p.joint_rotation[B] = in.joint_rotation[B] * so3_exp(e);
      m.joint_rotation[B] = in.joint_rotation[B] * so3_exp(-e);
    } else {
      p.q(entry) += h;
      m.q(entry) -= h;
    }
  } else if (col < n + nb) {
    p.base_twist(col - n) += h;
    m.base_twist(col - n) -= h;
  } else if (col < 2 * n) {
    p.q_dot(col - n - nb) += h;
    m.q_dot(col - n - nb) -= h;
  } else if (col < 2 * n + nb) {
    p.base_wrench[0](col - 2 * n) += h;
    m.base_wrench[0](col - 2 * n) -= h;
  } else {
    p.joint_torque[0](col - 2 * n - nb) += h;
    m.joint_torque[0](col - 2 * n - nb) -= h;
  }
  return (accelerations(model, p) - accelerations(model, m)) / (2 * h);
}

/// dδ/dt of a ball at z, with δ(t) = log(R(t)ᵀ R'(t)), R(t) = R exp([ω t]),
/// R'(t) = R exp([δ₀]) exp([(ω + δω) t]), by a central difference in t.
Vec3 ball_delta_rate(const Mat3& r, const Vec3& w, const Vec3& delta0, const Vec3& dw) {
  const double dt = 1e-5;
  const auto delta = [&](double t) {
    const Mat3 nominal = r * so3_exp(w * t);
    const Mat3 perturbed = r * so3_exp(delta0) * so3_exp((w + dw) * t);
    return so3_log(nominal.transpose() * perturbed);
  };
  return (delta(dt) - delta(-dt)) / (2 * dt);
}

struct LinErrors {
  double velocity = 0, ball_rows = 0, other_rows = 0;
};

template <class Tree>
void check_linearization(const hodyn::Model<Tree, double>& model, const Motion<Tree>& motion,
                         LinErrors& worst) {
  constexpr int n = kDofs<Tree>, nb = kBase<Tree>;
  const Input<Tree> in = input_from(motion);
  auto lin = std::make_unique<hodyn::LinearizationData<Tree, double>>();
  ASSERT_EQ(hodyn::linearize(model, *lin, in), Status::kOk);
  const auto& l = lin->result;
  // Velocity rows of [A B].
  Eigen::Matrix<double, n, 3 * n> rows, central;
  rows << l.a.template bottomRows<n>(), l.b.template bottomRows<n>();
  for (int c = 0; c < 3 * n; ++c) central.col(c) = central_column(model, in, c, 1e-6);
  const double ev = (rows - central).cwiseAbs().maxCoeff() / central.cwiseAbs().maxCoeff();
  EXPECT_LT(ev, 1e-7);
  worst.velocity = std::max(worst.velocity, ev);
  // The balls' δ rows: d/dz of dδ/dt from the rotations, by central differences in z.
  for (int b = 0; b < kBalls<Tree>; ++b) {
    const auto B = static_cast<std::size_t>(b);
    const int e = ball_entry<Tree>(b);
    const Mat3 r = motion.joint_rotation[B] * so3_exp(motion.q[0].template segment<3>(e));
    const Vec3 w = motion.q[1].template segment<3>(e);
    Eigen::Matrix<double, 3, 6> expected;  // columns: δ_a, then ω_a
    const double h = 1e-4;
    for (int a = 0; a < 3; ++a) {
      const Vec3 u = h * Vec3::Unit(a);
      expected.col(a) =
          (ball_delta_rate(r, w, u, Vec3::Zero()) - ball_delta_rate(r, w, -u, Vec3::Zero())) /
          (2 * h);
      expected.col(3 + a) =
          (ball_delta_rate(r, w, Vec3::Zero(), u) - ball_delta_rate(r, w, Vec3::Zero(), -u)) /
          (2 * h);
    }
    Eigen::Matrix<double, 3, 6> got;
    got << l.a.template block<3, 3>(nb + e, nb + e), l.a.template block<3, 3>(nb + e, n + nb + e);
    const double eb = (got - expected).cwiseAbs().maxCoeff();
    EXPECT_LT(eb, 1e-6) << "ball " << b;
    worst.ball_rows = std::max(worst.ball_rows, eb);
    // Nothing else in those rows, and no B entries.
    Eigen::Matrix<double, 3, 2 * n> rest = l.a.template middleRows<3>(nb + e);
    rest.template block<3, 3>(0, nb + e).setZero();
    rest.template block<3, 3>(0, n + nb + e).setZero();
    worst.other_rows = std::max(worst.other_rows, rest.cwiseAbs().maxCoeff());
    worst.other_rows =
        std::max(worst.other_rows, l.b.template middleRows<3>(nb + e).cwiseAbs().maxCoeff());
  }
}

TEST(SphericalJointPartials, LinearizationAgainstCentralDifferencesAndRotations) {
  LinErrors floating, fixed, mixed, mixed_fixed;
  for (unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    const Models models = make_models(seed);
    BallMotion<0> motion;
    random_state(seed + 400u, motion);
    check_linearization(models.ball, motion, floating);
    check_linearization(welded(models.ball), joints_of(motion), fixed);
    check_linearization(mixed_model<MixedTree>(seed + 20u), random_motion<MixedTree>(seed + 420u),
                        mixed);
    check_linearization(mixed_model<MixedFixedTree>(seed + 40u),
                        random_motion<MixedFixedTree>(seed + 440u), mixed_fixed);
  }
  for (const LinErrors* w : {&floating, &fixed, &mixed, &mixed_fixed})
    EXPECT_EQ(w->other_rows, 0.0);
  for (const auto& [what, w] :
       {std::pair<const char*, LinErrors>{"ball tree", floating},
        std::pair<const char*, LinErrors>{"fixed-base ball tree", fixed},
        std::pair<const char*, LinErrors>{"mixed tree", mixed},
        std::pair<const char*, LinErrors>{"fixed-base mixed tree", mixed_fixed}})
    std::printf(
        "  %s linearization: [A B] velocity rows vs central differences %.2e (relative), "
        "δ rows vs the rotations %.2e (absolute)\n",
        what, w.velocity, w.ball_rows);
}

TEST(SphericalJointPartials, BadRotationsAndHeapFree) {
  const Models models = make_models(7u);
  BallMotion<0> motion;
  random_state(8u, motion);
  auto d = std::make_unique<hodyn::InverseDynamicsDerivativesData<BallTree, double>>();
  auto lin = std::make_unique<hodyn::LinearizationData<BallTree, double>>();
  Input<BallTree> in = input_from(motion);
  auto kin = std::make_unique<hodyn::KinematicsData<BallTree, 0, double>>();
  ASSERT_EQ(hodyn::forward_kinematics(models.ball, *kin, motion, 0), Status::kOk);
  auto partial = std::make_unique<hodyn::JacobianMatrix<BallTree, double>>();
  {
    hodyn::test::HeapProbe probe;
    const Status s1 = hodyn::inverse_dynamics_derivatives(models.ball, *d, motion);
    const Status s2 = hodyn::linearize(models.ball, *lin, in);
    const Status s3 = hodyn::spatial_jacobian_coordinate_partial(*kin, 3, 2, *partial);
    EXPECT_EQ(probe.count(), 0);
    EXPECT_EQ(s1, Status::kOk);
    EXPECT_EQ(s2, Status::kOk);
    EXPECT_EQ(s3, Status::kOk);
  }
  const auto zero = [&]() {
    const auto& r = d->result;
    return r.d_configuration.cwiseAbs().maxCoeff() == 0 &&
           r.d_velocity.cwiseAbs().maxCoeff() == 0 && r.mass_matrix.cwiseAbs().maxCoeff() == 0 &&
           r.generalized_force.cwiseAbs().maxCoeff() == 0;
  };
  const auto lin_zero = [&]() {
    return lin->result.a.cwiseAbs().maxCoeff() == 0 && lin->result.b.cwiseAbs().maxCoeff() == 0;
  };
  struct Case {
    Mat3 rotation;
    Status status;
  };
  Mat3 skewed = motion.joint_rotation[1];
  skewed(0, 1) += 1e-3;
  Mat3 nan = motion.joint_rotation[1];
  nan(2, 2) = std::numeric_limits<double>::quiet_NaN();
  const Mat3 mirror = -motion.joint_rotation[1];
  for (const Case& c :
       {Case{skewed, Status::kNonOrthonormalRotation}, Case{nan, Status::kNonFiniteInput},
        Case{mirror, Status::kNonOrthonormalRotation}}) {
    BallMotion<0> bad = motion;
    bad.joint_rotation[1] = c.rotation;
    ASSERT_EQ(hodyn::inverse_dynamics_derivatives(models.ball, *d, motion), Status::kOk);
    EXPECT_EQ(hodyn::inverse_dynamics_derivatives(models.ball, *d, bad), c.status);
    EXPECT_TRUE(zero());
    Input<BallTree> bad_in = in;
    bad_in.joint_rotation[1] = c.rotation;
    ASSERT_EQ(hodyn::linearize(models.ball, *lin, in), Status::kOk);
    EXPECT_EQ(hodyn::linearize(models.ball, *lin, bad_in), c.status);
    EXPECT_TRUE(lin_zero());
  }
}

}  // namespace
