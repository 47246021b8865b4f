// Shared pieces of the three Taylor-oracle suites (test_inverse_dynamics_oracle,
// test_forward_dynamics_oracle, test_equations_of_motion):
//   - the orders tested (kR) and the series scalar S7 that is exact through kR;
//   - the models: the aerial manipulator and a random 9-body tree of fixed
//     topology (OracleTree), whose reference tree (support/reference_dynamics.hpp)
//     and core model are built from the same random parameters;
//   - random states (stress test: every derivative ~ N(0, 1)), their transfer
//     into the core's MotionDerivatives, and the reference inverse dynamics run
//     along them in series arithmetic;
//   - Worst, the worst error per order of a test, printed and recorded.
// A suite brings all of it in with `using namespace hodyn::test::oracle;`,
// which also brings the names below that the suites use unqualified.
#pragma once

#include <hodyn/hodyn.hpp>

#include "support/error_metrics.hpp"
#include "support/reference_dynamics.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace hodyn {
namespace test {
namespace oracle {

using hodyn::Pose;
using hodyn::Status;
using hodyn::test::ReferenceTree;
using hodyn::test::rel_err;
using hodyn::test::Taylor;
namespace ref = hodyn::test::ref;

inline constexpr int kR = 5;       // highest order tested (MaxOrder of the core calls)
inline constexpr int kD = kR + 2;  // series degree of the reference: exact through order kR
using S7 = Taylor<double, kD>;

template <class R>
using VecX = Eigen::Matrix<R, Eigen::Dynamic, 1>;

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

using AMTree = hodyn::AerialManipulatorTree;

// Fixed topology for the random tree: two branches off the base, a fork at
// body 1, general axes plus two axis-aligned fast-path kinds.
struct OracleTree {
  static constexpr int kNumBodies = 9;
  static constexpr std::array<int, kNumBodies> kParent{-1, 0, 1, 1, 0, 4, 5, 2, 7};
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFloatingBase, JointKind::kRevolute,   JointKind::kPrismatic,
      JointKind::kRevolute,     JointKind::kRevoluteZ,  JointKind::kPrismatic,
      JointKind::kRevolute,     JointKind::kPrismaticY, JointKind::kRevolute};
};

// The same topology with its root welded to the world (fixed-base suites).
struct OracleFixedTree {
  static constexpr int kNumBodies = 9;
  static constexpr std::array<int, kNumBodies> kParent = OracleTree::kParent;
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFixedBase, JointKind::kRevolute,   JointKind::kPrismatic,
      JointKind::kRevolute,  JointKind::kRevoluteZ,  JointKind::kPrismatic,
      JointKind::kRevolute,  JointKind::kPrismaticY, JointKind::kRevolute};
};

// OracleTree's topology with four helical joints (issue 19): one with a
// helical child and a fork below it, one at a leaf.
struct HelicalTree {
  static constexpr int kNumBodies = 9;
  static constexpr std::array<int, kNumBodies> kParent = OracleTree::kParent;
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFloatingBase, JointKind::kHelical,    JointKind::kHelical,
      JointKind::kRevolute,     JointKind::kRevoluteZ,  JointKind::kPrismatic,
      JointKind::kHelical,      JointKind::kPrismaticY, JointKind::kHelical};
};
struct HelicalFixedTree {
  static constexpr int kNumBodies = 9;
  static constexpr std::array<int, kNumBodies> kParent = OracleTree::kParent;
  static constexpr std::array<JointKind, kNumBodies> kJoint{
      JointKind::kFixedBase, JointKind::kHelical,    JointKind::kHelical,
      JointKind::kRevolute,  JointKind::kRevoluteZ,  JointKind::kPrismatic,
      JointKind::kHelical,   JointKind::kPrismaticY, JointKind::kHelical};
};

/// Reference tree with Tree's topology and kinds, from random parameters
/// (drawn in double, converted to R): random axes and points, CoM offsets,
/// SPD inertias, base home pose ≠ I, general gravity direction.
template <class Tree, class R>
ReferenceTree<R> random_reference_tree(unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::uniform_real_distribution<double> unif(-1.0, 1.0);
  auto uvec = [&](double scale) {
    return Eigen::Vector3d(scale * unif(gen), scale * unif(gen), scale * unif(gen));
  };
  auto unit = [&]() {
    Eigen::Vector3d e;
    do {
      e = Eigen::Vector3d(gauss(gen), gauss(gen), gauss(gen));
    } while (e.norm() < 1e-3);
    return e;
  };
  // Rotations are built in R, so they are orthonormal to R's precision.
  auto rotation = [&]() {
    Eigen::Quaternion<R> q(R(gauss(gen)), R(gauss(gen)), R(gauss(gen)), R(gauss(gen)));
    q.normalize();
    return ref::Mat3<R>(q.toRotationMatrix());
  };
  auto normalized = [](const Eigen::Vector3d& e) {
    ref::Vec3<R> er = e.template cast<R>();
    using std::sqrt;
    return ref::Vec3<R>(er / sqrt(er.squaredNorm()));
  };
  auto inertia = [&]() {
    const double m = 0.5 + 0.75 * (unif(gen) + 1.0);
    const Eigen::Vector3d c = uvec(0.1);
    const double a = 0.01 + 0.02 * (unif(gen) + 1.0), b = 0.01 + 0.02 * (unif(gen) + 1.0),
                 d = 0.01 + 0.02 * (unif(gen) + 1.0);
    const ref::Mat3<R> q = rotation();
    ref::Mat3<R> ic = q * ref::Vec3<R>(R(b + d), R(a + d), R(a + b)).asDiagonal() * q.transpose();
    ic = (ic + ic.transpose()) / R(2);
    return ref::body_inertia<R>(R(m), c.template cast<R>(), ic);
  };
  auto pose = [&](double scale) {
    const ref::Mat3<R> rot = rotation();
    const Eigen::Vector3d p = uvec(scale);
    return ref::pose<R>(rot, p.template cast<R>());
  };

  ReferenceTree<R> t;
  {
    const auto a0 = pose(0.5);
    t.set_base(a0, inertia());
  }
  for (int j = 1; j < Tree::kNumBodies; ++j) {
    const JointKind kind = Tree::kJoint[static_cast<std::size_t>(j)];
    const int axis = hodyn::aligned_axis(kind);
    ref::Vec3<R> e;
    if (axis >= 0) {
      e.setZero();
      e(axis) = R(1);
      (void)unit();
    } else {
      e = normalized(unit());
    }
    const ref::Vec3<R> point = uvec(0.5).template cast<R>();
    ref::Vec6<R> y;
    const bool prismatic = hodyn::is_prismatic(kind);
    // A helical joint's pitch: ±(0.02..0.2) m/rad (drawn only for helical
    // joints, so the trees without one are the ones they always were).
    double pitch = 0.0;
    if (hodyn::is_helical(kind))
      pitch = (unif(gen) < 0.0 ? -1.0 : 1.0) * (0.02 + 0.09 * (unif(gen) + 1.0));
    // Fixed-size halves, not `y << e, ...`: g++ 12 at -O3 reads the 3-vector
    // with a 4-float packet in the comma initializer's dynamic-size block
    // and stops a -Werror build with a -Warray-bounds warning (float trees).
    if (prismatic) {
      y.template head<3>().setZero();
      y.template tail<3>() = e;
    } else {
      y.template head<3>() = e;
      y.template tail<3>() = point.cross(e);
      if (hodyn::is_helical(kind)) y.template tail<3>() += R(pitch) * e;
    }
    const auto home = pose(0.5);
    const RefJointType type = prismatic                 ? RefJointType::Prismatic
                              : hodyn::is_helical(kind) ? RefJointType::Helical
                                                        : RefJointType::Revolute;
    t.add_body(Tree::kParent[static_cast<std::size_t>(j)], type, y, home, inertia());
  }
  const ref::Vec3<R> gdir = normalized(unit());
  t.G << R(0), R(0), R(0), gdir * (R(981) / R(100));
  return t;
}

/// The core model of a reference tree (same topology as Tree).
template <class Tree, class R>
hodyn::Model<Tree, R> core_model(const ReferenceTree<R>& t) {
  hodyn::Model<Tree, R> m;
  EXPECT_EQ(t.num_bodies, Tree::kNumBodies);
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const auto J = static_cast<std::size_t>(j);
    EXPECT_EQ(t.parent[J], Tree::kParent[J]) << j;
    if (j > 0) {
      EXPECT_EQ(t.joint_type[J] == RefJointType::Prismatic, hodyn::is_prismatic(Tree::kJoint[J]))
          << j;
    }
    const ref::Mat6<R>& mb = t.Mb[J];
    SpatialInertia<R> s;
    s.mass = mb(3, 3);
    s.first_moment = hodyn::Vector3<R>(mb(2, 4), mb(0, 5), mb(1, 3));
    s.rotational_inertia = mb.template topLeftCorner<3, 3>();
    EXPECT_EQ(m.set_body(j, Pose<R>::from_matrix(t.A0[J]), s), Status::kOk) << j;
    if (j > 0) {
      EXPECT_EQ(m.set_joint_screw(j, t.Y[J]), Status::kOk) << j;
    }
  }
  EXPECT_EQ(m.set_gravity(t.G.template tail<3>()), Status::kOk);
  return m;
}

/// The core's built-in aerial manipulator (reference: make_aerial_manipulator).
inline hodyn::AerialManipulatorModel<double> core_aerial_manipulator() {
  hodyn::AerialManipulatorModel<double> m;
  EXPECT_EQ(hodyn::make_aerial_manipulator(m), Status::kOk);
  return m;
}

/// Two ball joints on a floating base, one with a revolute child.
struct TwoBallTree {
  static constexpr int kNumBodies = 5;
  static constexpr std::array<int, 5> kParent{-1, 0, 1, 2, 0};
  static constexpr std::array<JointKind, 5> kJoint{JointKind::kFloatingBase, JointKind::kRevolute,
                                                   JointKind::kSpherical, JointKind::kRevolute,
                                                   JointKind::kSpherical};
};

/// TwoBallTree with random parameters from `seed`: home poses, masses 0.5–1.5
/// kg, centres of mass, principal inertias, axes and joint points.
inline hodyn::Model<TwoBallTree, double> two_ball_model(unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto vec = [&](double s) { return Eigen::Vector3d(s * u(gen), s * u(gen), s * u(gen)); };
  hodyn::Model<TwoBallTree, double> model;
  for (int j = 0; j < TwoBallTree::kNumBodies; ++j) {
    Pose<double> home;
    home.rotation =
        Eigen::Quaterniond(u(gen), u(gen), u(gen), u(gen)).normalized().toRotationMatrix();
    home.translation = vec(0.5);
    const Eigen::Vector3d d(0.02 + 0.01 * u(gen), 0.02 + 0.01 * u(gen), 0.02 + 0.01 * u(gen));
    const Eigen::Matrix3d ic = Eigen::Vector3d(d(1) + d(2), d(0) + d(2), d(0) + d(1)).asDiagonal();
    EXPECT_EQ(model.set_body(j, home,
                             hodyn::SpatialInertia<double>::from_mass_com_inertia(
                                 1.0 + 0.5 * u(gen), vec(0.1), ic)),
              Status::kOk);
  }
  EXPECT_EQ(model.set_revolute_axis(1, vec(1).normalized(), vec(0.5)), Status::kOk);
  EXPECT_EQ(model.set_spherical_joint(2, vec(0.5)), Status::kOk);
  EXPECT_EQ(model.set_revolute_axis(3, vec(1).normalized(), vec(0.5)), Status::kOk);
  EXPECT_EQ(model.set_spherical_joint(4, vec(0.5)), Status::kOk);
  EXPECT_EQ(model.set_gravity(Eigen::Vector3d(0, 0, -9.81)), Status::kOk);
  return model;
}

// ---------------------------------------------------------------------------
// States (stress test: every derivative ~ N(0, 1))
// ---------------------------------------------------------------------------

/// A motion at t0: base pose C1 and the derivatives of V1 and q.
template <class R>
struct State {
  ref::Mat4<R> C1;
  std::vector<ref::Vec6<R>> V1;  // V1^(0..kR+1)
  std::vector<VecX<R>> q;        // q^(0..kR+2)
};

/// Random pose, and every derivative ~ N(0, 1), from seed (num_joints joints).
template <class R>
State<R> random_state(unsigned seed, int num_joints) {
  std::mt19937 gen(seed * 7919u + 17u);
  std::normal_distribution<double> g(0.0, 1.0);
  State<R> s;
  Eigen::Quaternion<R> qt(R(g(gen)), R(g(gen)), R(g(gen)), R(g(gen)));
  qt.normalize();  // in R: the rotation is orthonormal to R's precision
  const Eigen::Vector3d p(g(gen), g(gen), g(gen));
  s.C1 = ref::pose<R>(ref::Mat3<R>(qt.toRotationMatrix()), p.cast<R>());
  for (int k = 0; k <= kR + 1; ++k) {
    ref::Vec6<R> v;
    for (int i = 0; i < 6; ++i) v(i) = R(g(gen));
    s.V1.push_back(v);
  }
  for (int k = 0; k <= kR + 2; ++k) {
    VecX<R> x(num_joints);
    for (int i = 0; i < num_joints; ++i) x(i) = R(g(gen));
    s.q.push_back(x);
  }
  return s;
}

/// The state's derivatives as the core's motion input (orders up to MO).
template <class Tree, int MO, class R>
void fill_motion(const State<R>& s, hodyn::MotionDerivatives<Tree, MO, R>& m) {
  m.base_pose = Pose<R>::from_matrix(s.C1);
  for (int k = 0; k <= MO + 1; ++k)
    m.base_twist[static_cast<std::size_t>(k)] = s.V1[static_cast<std::size_t>(k)];
  for (int k = 0; k <= MO + 2; ++k)
    m.q[static_cast<std::size_t>(k)] = s.q[static_cast<std::size_t>(k)];
}

/// The reference inverse dynamics in series arithmetic S along the motion of s.
template <class S, class R>
hodyn::test::ReferenceResult<S> reference(const ReferenceTree<R>& tree, const State<R>& s,
                                          const std::vector<ref::Vec6<S>>& w_app = {}) {
  const ref::Mat4<S> c1 = hodyn::test::base_pose_series<S>(s.C1, s.V1);
  const std::vector<S> q = hodyn::test::joint_series<S, R>(s.q);
  return hodyn::test::reference_inverse_dynamics(tree, c1, q, w_app);
}

/// The k-th derivatives of a list of joint-force series.
template <class S>
VecX<typename S::value_type> tau_derivative(const std::vector<S>& tau, int k) {
  VecX<typename S::value_type> t(static_cast<Eigen::Index>(tau.size()));
  for (std::size_t i = 0; i < tau.size(); ++i)
    t(static_cast<Eigen::Index>(i)) = tau[i].derivative_value(k);
  return t;
}

/// Worst error per order over a test, printed and recorded at the end.
struct Worst {
  std::string name;
  std::array<double, kR + 1> e{};
  void update(int k, double x) {
    e[static_cast<std::size_t>(k)] = std::max(e[static_cast<std::size_t>(k)], x);
  }
  void report() const {
    std::ostringstream os;
    os << name << " worst relative error per order:";
    for (int k = 0; k <= kR; ++k) os << " " << e[static_cast<std::size_t>(k)];
    std::cout << os.str() << std::endl;
    for (int k = 0; k <= kR; ++k) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3g", e[static_cast<std::size_t>(k)]);
      ::testing::Test::RecordProperty(name + "_order" + std::to_string(k), buf);
    }
  }
};

}  // namespace oracle
}  // namespace test
}  // namespace hodyn
