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

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

namespace {

using namespace hodyn::test::ball_trees;  // BallTree, make_models, random_state
using hodyn::Twist;
using Dual = hodyn::TaylorSeries<double, 1>;
using Vec14 = Eigen::Matrix<double, 14, 1>;
using Mat14 = Eigen::Matrix<double, 14, 14>;
using hodyn::test::se3_exp;

constexpr int kDofs = 14;
constexpr std::array<int, 2> kBallEntry{1, 5};  // first q entry of balls 2 and 4

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
template <int MO>
BallMotion<MO> folded(const BallMotion<MO>& m) {
  BallMotion<MO> f = m;
  for (int b = 0; b < 2; ++b) {
    const auto B = static_cast<std::size_t>(b);
    f.joint_rotation[B] = m.joint_rotation[B] * so3_exp(m.q[0].template segment<3>(kBallEntry[B]));
    f.q[0].template segment<3>(kBallEntry[B]).setZero();
  }
  return f;
}

template <class S>
Eigen::Matrix<S, kDofs, 1> generalized_force(const hodyn::Model<BallTree, S>& model,
                                             const hodyn::MotionDerivatives<BallTree, 0, S>& m) {
  auto id = std::make_unique<hodyn::InverseDynamicsData<BallTree, 0, S>>();
  EXPECT_EQ(hodyn::inverse_dynamics(model, *id, m, 0), Status::kOk);
  Eigen::Matrix<S, kDofs, 1> f;
  f << id->base_wrench[0], id->joint_torque[0];
  return f;
}

hodyn::MotionDerivatives<BallTree, 0, Dual> to_dual(const BallMotion<0>& m) {
  hodyn::MotionDerivatives<BallTree, 0, Dual> d;
  d.base_pose = m.base_pose.cast<Dual>();
  for (int k = 0; k < 2; ++k) d.base_twist[k] = m.base_twist[k].cast<Dual>();
  for (int k = 0; k < 3; ++k) d.q[k] = m.q[k].cast<Dual>();
  for (int b = 0; b < 2; ++b) d.joint_rotation[b] = m.joint_rotation[b].cast<Dual>();
  return d;
}

/// ∂τ̄/∂(ξ; δ, q), ∂τ̄/∂(V₁; q̇), ∂τ̄/∂(V̇₁; q̈) by duals at the folded state.
void dual_partials(const hodyn::Model<BallTree, double>& model, const BallMotion<0>& motion,
                   Mat14& dq, Mat14& dv, Mat14& mm) {
  const hodyn::Model<BallTree, Dual> model_d = model.cast<Dual>();
  const auto base = to_dual(folded(motion));
  const auto eps = Dual::variable(0.0, 1.0);
  for (int block = 0; block < 3; ++block) {
    for (int col = 0; col < kDofs; ++col) {
      auto m = base;
      if (col < 6 && block == 0) {  // C₁ (1 + ε[e_k])
        Twist<Dual> e = Twist<Dual>::Zero();
        e(col) = eps;
        m.base_pose.translation =
            base.base_pose.translation + base.base_pose.rotation * e.template tail<3>();
        m.base_pose.rotation = base.base_pose.rotation +
                               Eigen::Matrix<Dual, 3, 3>(base.base_pose.rotation *
                                                         hodyn::skew<Dual>(e.template head<3>()));
      } else if (col < 6) {
        m.base_twist[static_cast<std::size_t>(block - 1)](col) += eps;
      } else {
        m.q[static_cast<std::size_t>(block)](col - 6) += eps;  // a ball's δ_a at δ = 0
      }
      const auto f = generalized_force(model_d, m);
      Mat14& out = block == 0 ? dq : block == 1 ? dv : mm;
      for (int r = 0; r < kDofs; ++r) out(r, col) = f(r).coeff(1);
    }
  }
}

/// The configuration block by central differences on the manifolds (step h).
Mat14 central_configuration(const hodyn::Model<BallTree, double>& model,
                            const BallMotion<0>& motion, double h) {
  const BallMotion<0> base = folded(motion);
  Mat14 d;
  for (int col = 0; col < kDofs; ++col) {
    BallMotion<0> p = base, m = base;
    if (col < 6) {
      Twist<double> xi = Twist<double>::Zero();
      xi(col) = h;
      p.base_pose = base.base_pose * se3_exp(xi);
      m.base_pose = base.base_pose * se3_exp(-xi);
    } else {
      int ball = -1;
      for (int b = 0; b < 2; ++b)
        if (col - 6 >= kBallEntry[static_cast<std::size_t>(b)] &&
            col - 6 < kBallEntry[static_cast<std::size_t>(b)] + 3)
          ball = b;
      if (ball >= 0) {
        const auto B = static_cast<std::size_t>(ball);
        const Vec3 e = h * Vec3::Unit(col - 6 - kBallEntry[B]);
        p.joint_rotation[B] = base.joint_rotation[B] * so3_exp(e);
        m.joint_rotation[B] = base.joint_rotation[B] * so3_exp(-e);
      } else {
        p.q[0](col - 6) += h;
        m.q[0](col - 6) -= h;
      }
    }
    d.col(col) = (generalized_force(model, p) - generalized_force(model, m)) / (2 * h);
  }
  return d;
}

double relative(const Mat14& a, const Mat14& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

TEST(SphericalJointPartials, InverseDynamicsDerivativesAgainstDualsAndCentralDifferences) {
  double worst[3] = {0, 0, 0}, worst_central = 0, worst_force = 0;
  for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
    const Models models = make_models(seed);
    BallMotion<0> motion;
    random_state(seed + 200u, motion);
    auto data = std::make_unique<hodyn::InverseDynamicsDerivativesData<BallTree, double>>();
    ASSERT_EQ(hodyn::inverse_dynamics_derivatives(models.ball, *data, motion), Status::kOk);
    const auto& r = data->result;
    Mat14 dq, dv, mm;
    dual_partials(models.ball, motion, dq, dv, mm);
    const Mat14* analytic[3] = {&r.d_configuration, &r.d_velocity, &r.mass_matrix};
    const Mat14* dual[3] = {&dq, &dv, &mm};
    for (int b = 0; b < 3; ++b) {
      const double e = relative(*analytic[b], *dual[b]);
      EXPECT_LT(e, 1e-12) << "seed " << seed << " block " << b;
      worst[b] = std::max(worst[b], e);
    }
    const double ec = relative(r.d_configuration, central_configuration(models.ball, motion, 1e-6));
    EXPECT_LT(ec, 1e-7) << "seed " << seed;
    worst_central = std::max(worst_central, ec);
    const Vec14 f = generalized_force(models.ball, motion);
    const double ef = (r.generalized_force - f).cwiseAbs().maxCoeff() / f.cwiseAbs().maxCoeff();
    EXPECT_LT(ef, 1e-13);
    worst_force = std::max(worst_force, ef);
  }
  std::printf(
      "  ball ∂ID vs duals: pose/δ,q %.2e  V/ω,q̇ %.2e  M %.2e | configuration vs central "
      "differences %.2e | τ̄ %.2e\n",
      worst[0], worst[1], worst[2], worst_central, worst_force);
}

TEST(SphericalJointPartials, JacobianPartialAgainstDuals) {
  double worst = 0;
  for (unsigned seed : {1u, 2u, 3u}) {
    const Models models = make_models(seed);
    BallMotion<0> motion;
    random_state(seed + 300u, motion);
    auto kin = std::make_unique<hodyn::KinematicsData<BallTree, 0, double>>();
    ASSERT_EQ(hodyn::forward_kinematics(models.ball, *kin, motion, 0), Status::kOk);
    const hodyn::Model<BallTree, Dual> model_d = models.ball.cast<Dual>();
    const auto base = to_dual(folded(motion));
    auto kin_d = std::make_unique<hodyn::KinematicsData<BallTree, 0, Dual>>();
    for (int c = 0; c < 8; ++c) {
      auto m = base;
      m.q[0](c) += Dual::variable(0.0, 1.0);
      ASSERT_EQ(hodyn::forward_kinematics(model_d, *kin_d, m, 0), Status::kOk);
      for (int body = 0; body < 5; ++body) {
        hodyn::JacobianMatrix<BallTree, Dual> jd;
        ASSERT_EQ(hodyn::spatial_jacobian(*kin_d, body, jd), Status::kOk);
        Eigen::Matrix<double, 6, 14> expected;
        for (int i = 0; i < 6; ++i)
          for (int k = 0; k < 14; ++k) expected(i, k) = jd(i, k).coeff(1);
        hodyn::JacobianMatrix<BallTree, double> partial;
        ASSERT_EQ(hodyn::spatial_jacobian_coordinate_partial(*kin, body, c, partial), Status::kOk);
        const double e = (partial - expected).cwiseAbs().maxCoeff();
        EXPECT_LT(e, 1e-13) << "seed " << seed << " coordinate " << c << " body " << body;
        worst = std::max(worst, e);
      }
    }
    hodyn::JacobianMatrix<BallTree, double> partial;
    EXPECT_EQ(hodyn::spatial_jacobian_coordinate_partial(*kin, 2, 8, partial),
              Status::kInvalidArgument);
    EXPECT_EQ(hodyn::spatial_jacobian_coordinate_partial(*kin, 2, -1, partial),
              Status::kInvalidArgument);
    EXPECT_EQ(partial.cwiseAbs().maxCoeff(), 0.0);
  }
  std::printf("  ball ∂J/∂q vs duals: %.2e (absolute)\n", worst);
}

// ---- the linearization ----------------------------------------------------

using Input = hodyn::ForwardDynamicsInput<BallTree, 0, double>;
using Lin = hodyn::Linearization<BallTree, double>;

Input input_from(const BallMotion<0>& m) {
  Input in;
  in.base_pose = m.base_pose;
  in.base_twist = m.base_twist[0];
  in.q = m.q[0];
  in.q_dot = m.q[1];
  in.joint_rotation = m.joint_rotation;
  in.base_wrench_frame = hodyn::WrenchFrame::kBase;
  in.base_wrench[0] = 3.0 * m.base_twist[1];
  in.joint_torque[0] = m.q[2];
  return in;
}

Vec14 accelerations(const hodyn::Model<BallTree, double>& model, const Input& in) {
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<BallTree, 0, double>>();
  EXPECT_EQ(hodyn::forward_dynamics(model, *fd, in, 0), Status::kOk);
  Vec14 a;
  a << fd->motion.base_twist[1], fd->motion.q[2];
  return a;
}

/// Column `col` of the velocity rows of [A B] by central differences of forward
/// dynamics at x ⊕ z (a ball: R exp([±h e_a]) with R = R_j exp([δ_in])).
Vec14 central_column(const hodyn::Model<BallTree, double>& model, const Input& in0, int col,
                     double h) {
  Input in = in0;
  for (int b = 0; b < 2; ++b) {  // fold δ_in
    const auto B = static_cast<std::size_t>(b);
    in.joint_rotation[B] = in0.joint_rotation[B] * so3_exp(in0.q.segment<3>(kBallEntry[B]));
    in.q.segment<3>(kBallEntry[B]).setZero();
  }
  Input p = in, m = in;
  const int n = kDofs;
  if (col < 6) {
    Twist<double> xi = Twist<double>::Zero();
    xi(col) = h;
    p.base_pose = in.base_pose * se3_exp(xi);
    m.base_pose = in.base_pose * se3_exp(-xi);
  } else if (col < n) {
    const int entry = col - 6;
    int ball = -1;
    for (int b = 0; b < 2; ++b)
      if (entry >= kBallEntry[static_cast<std::size_t>(b)] &&
          entry < kBallEntry[static_cast<std::size_t>(b)] + 3)
        ball = b;
    if (ball >= 0) {
      const auto B = static_cast<std::size_t>(ball);
      const Vec3 e = h * Vec3::Unit(entry - kBallEntry[B]);
      p.joint_rotation[B] = in.joint_rotation[B] * so3_exp(e);
      m.joint_rotation[B] = in.joint_rotation[B] * so3_exp(-e);
    } else {
      p.q(entry) += h;
      m.q(entry) -= h;
    }
  } else if (col < n + 6) {
    p.base_twist(col - n) += h;
    m.base_twist(col - n) -= h;
  } else if (col < 2 * n) {
    p.q_dot(col - n - 6) += h;
    m.q_dot(col - n - 6) -= h;
  } else if (col < 2 * n + 6) {
    p.base_wrench[0](col - 2 * n) += h;
    m.base_wrench[0](col - 2 * n) -= h;
  } else {
    p.joint_torque[0](col - 2 * n - 6) += h;
    m.joint_torque[0](col - 2 * n - 6) -= h;
  }
  return (accelerations(model, p) - accelerations(model, m)) / (2 * h);
}

/// dδ/dt of ball `ball` at z, with δ(t) = log(R(t)ᵀ R'(t)), R(t) = R exp([ω t]),
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

TEST(SphericalJointPartials, LinearizationAgainstCentralDifferencesAndRotations) {
  double worst_velocity = 0, worst_ball_rows = 0, worst_other_rows = 0;
  for (unsigned seed : {1u, 2u, 3u}) {
    const Models models = make_models(seed);
    BallMotion<0> motion;
    random_state(seed + 400u, motion);
    const Input in = input_from(motion);
    auto lin = std::make_unique<hodyn::LinearizationData<BallTree, double>>();
    ASSERT_EQ(hodyn::linearize(models.ball, *lin, in), Status::kOk);
    const Lin& l = lin->result;
    // Velocity rows of [A B].
    Eigen::Matrix<double, 14, 42> rows, central;
    rows << l.a.bottomRows<14>(), l.b.bottomRows<14>();
    for (int c = 0; c < 42; ++c) central.col(c) = central_column(models.ball, in, c, 1e-6);
    const double ev = (rows - central).cwiseAbs().maxCoeff() / central.cwiseAbs().maxCoeff();
    EXPECT_LT(ev, 1e-7) << "seed " << seed;
    worst_velocity = std::max(worst_velocity, ev);
    // The balls' δ rows: d/dz of dδ/dt from the rotations, by central differences in z.
    for (int b = 0; b < 2; ++b) {
      const auto B = static_cast<std::size_t>(b);
      const int e = kBallEntry[B];
      const Mat3 r = motion.joint_rotation[B] * so3_exp(motion.q[0].segment<3>(e));
      const Vec3 w = motion.q[1].segment<3>(e);
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
      got << l.a.block<3, 3>(6 + e, 6 + e), l.a.block<3, 3>(6 + e, 14 + 6 + e);
      const double eb = (got - expected).cwiseAbs().maxCoeff();
      EXPECT_LT(eb, 1e-6) << "seed " << seed << " ball " << b;
      worst_ball_rows = std::max(worst_ball_rows, eb);
      // Nothing else in those rows, and no B entries.
      Eigen::Matrix<double, 3, 28> rest = l.a.middleRows<3>(6 + e);
      rest.block<3, 3>(0, 6 + e).setZero();
      rest.block<3, 3>(0, 20 + e).setZero();
      worst_other_rows = std::max(worst_other_rows, rest.cwiseAbs().maxCoeff());
      worst_other_rows = std::max(worst_other_rows, l.b.middleRows<3>(6 + e).cwiseAbs().maxCoeff());
    }
  }
  EXPECT_EQ(worst_other_rows, 0.0);
  std::printf(
      "  ball linearization: [A B] velocity rows vs central differences %.2e (relative), "
      "δ rows vs the rotations %.2e (absolute)\n",
      worst_velocity, worst_ball_rows);
}

TEST(SphericalJointPartials, BadRotationsAndHeapFree) {
  const Models models = make_models(7u);
  BallMotion<0> motion;
  random_state(8u, motion);
  auto d = std::make_unique<hodyn::InverseDynamicsDerivativesData<BallTree, double>>();
  auto lin = std::make_unique<hodyn::LinearizationData<BallTree, double>>();
  Input in = input_from(motion);
  {
    hodyn::test::HeapProbe probe;
    const Status s1 = hodyn::inverse_dynamics_derivatives(models.ball, *d, motion);
    const Status s2 = hodyn::linearize(models.ball, *lin, in);
    EXPECT_EQ(probe.count(), 0);
    EXPECT_EQ(s1, Status::kOk);
    EXPECT_EQ(s2, Status::kOk);
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
    Input bad_in = in;
    bad_in.joint_rotation[1] = c.rotation;
    ASSERT_EQ(hodyn::linearize(models.ball, *lin, in), Status::kOk);
    EXPECT_EQ(hodyn::linearize(models.ball, *lin, bad_in), c.status);
    EXPECT_TRUE(lin_zero());
  }
}

}  // namespace
