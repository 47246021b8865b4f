// tools/urdf/src/articulated_check.cpp — see articulated_check.hpp.
#include "articulated_check.hpp"

#include "tool_error.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

namespace hodyn_urdf {

namespace {

using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

Eigen::Matrix3d skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

/// Spatial inertia about the world origin, (angular; linear) ordering:
/// [I_c + m [c][c]ᵀ, m [c]; m [c]ᵀ, m 1] with c the CoM in the world.
Matrix6 world_inertia(const RobotBody& b) {
  const Eigen::Vector3d c = b.home.rotation * b.com + b.home.translation;
  const Eigen::Matrix3d ic = b.home.rotation * b.inertia * b.home.rotation.transpose();
  const Eigen::Matrix3d cx = skew(c);
  Matrix6 m;
  m << ic + b.mass * cx * cx.transpose(), b.mass * cx, b.mass * cx.transpose(),
      b.mass * Eigen::Matrix3d::Identity();
  return m;
}

/// The same inertia about the point o: Tᵀ M T, T = [1 0; [o] 1].
Matrix6 about_point(const Matrix6& m, const Eigen::Vector3d& o) {
  Matrix6 t = Matrix6::Identity();
  t.bottomLeftCorner<3, 3>() = skew(o);
  return t.transpose() * m * t;
}

bool positive_definite(const Eigen::Matrix3d& m, double scale) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> s(0.5 * (m + m.transpose()),
                                                         Eigen::EigenvaluesOnly);
  return s.eigenvalues()(0) > kSingularTolerance * scale;
}

}  // namespace

void check_articulated_inertias(const RobotModel& model) {
  const std::size_t n = model.bodies.size();
  std::vector<Matrix6> articulated(n);
  std::vector<double> subtree_mass(n);
  for (std::size_t j = 0; j < n; ++j) {
    articulated[j] = world_inertia(model.bodies[j]);
    subtree_mass[j] = model.bodies[j].mass;
  }
  for (std::size_t j = n; j-- > 1;) {
    const RobotBody& b = model.bodies[j];
    const auto p = static_cast<std::size_t>(b.parent);
    const Matrix6& ma = articulated[j];
    if (hodyn::is_spherical(b.kind)) {
      // A ball: the screws (e_k; c × e_k) of the three world axes through its
      // centre c; D = Sᵀ M^A S (3 × 3) must be positive definite.
      Eigen::Matrix<double, 6, 3> s;
      s.topRows<3>().setIdentity();
      s.bottomRows<3>() = skew(b.point);  // c × e_k
      const Eigen::Matrix<double, 6, 3> u = ma * s;
      const Eigen::Matrix3d d = s.transpose() * u;
      const double scale = about_point(ma, b.point).topLeftCorner<3, 3>().trace();
      if (!positive_definite(d, scale)) {
        if (subtree_mass[j] == 0)
          throw ToolError("link " + quoted(b.link) +
                          " is massless and so is everything it carries: ball joint " +
                          quoted(b.joint) + " moves no inertia");
        throw ToolError("ball joint " + quoted(b.joint) + ": link " + quoted(b.link) +
                        " and what it carries have no inertia about some axis through the "
                        "ball's centre at home (point masses at the centre): the dynamics are "
                        "singular");
      }
      articulated[p] += ma - u * d.inverse() * u.transpose();
      subtree_mass[p] += subtree_mass[j];
      continue;
    }
    if (hodyn::is_universal(b.kind)) {
      // A universal joint: two revolute steps through the massless link
      // between them — e₂ (the child's side) first, then e₁ — each
      // D = sᵀ M^A s > 0, as the URDF's two joints would be checked.
      const double scale = about_point(ma, b.point).topLeftCorner<3, 3>().trace();
      Matrix6 reduced = ma;
      for (const Eigen::Vector3d* e : {&b.second_axis, &b.axis}) {
        Vector6 s;
        s << *e, b.point.cross(*e);
        const Vector6 u = reduced * s;
        const double d = s.dot(u);
        if (!(d > kSingularTolerance * scale)) {
          if (subtree_mass[j] == 0)
            throw ToolError("link " + quoted(b.link) +
                            " is massless and so is everything it carries: universal joint " +
                            quoted(b.joint) + " moves no inertia");
          throw ToolError("universal joint " + quoted(b.joint) + ": link " + quoted(b.link) +
                          " and what it carries have no inertia about its " +
                          (e == &b.axis ? "first" : "second") +
                          " axis at home (point masses on the axis): the dynamics are singular");
        }
        reduced -= u * u.transpose() / d;
      }
      articulated[p] += reduced;
      subtree_mass[p] += subtree_mass[j];
      continue;
    }
    // The home screw: (e; a × e) revolute, (0; e) prismatic, (e; a × e + h e) helical.
    Vector6 s;
    if (hodyn::joint_rotates(b.kind))
      s << b.axis, b.point.cross(b.axis) + b.pitch * b.axis;
    else
      s << Eigen::Vector3d::Zero(), b.axis;
    const Matrix6 local = about_point(ma, b.home.translation);
    // D's scale: the rotational inertia for a turn, the mass for a slide;
    // a screw does both, the slide weighted by h² (m²/rad²).
    const double turn = local.topLeftCorner<3, 3>().trace();
    const double slide = local.bottomRightCorner<3, 3>().trace();
    const double scale = hodyn::is_revolute(b.kind)    ? turn
                         : hodyn::is_prismatic(b.kind) ? slide
                                                       : turn + b.pitch * b.pitch * slide;
    const Vector6 u = ma * s;
    const double d = s.dot(u);
    if (!(d > kSingularTolerance * scale)) {
      if (subtree_mass[j] == 0)
        throw ToolError("link " + quoted(b.link) +
                        " is massless and so is everything it carries: joint " + quoted(b.joint) +
                        " moves no inertia (give a link an <inertial> or make the joint fixed)");
      throw ToolError("joint " + quoted(b.joint) + ": link " + quoted(b.link) +
                      " and what it carries have no inertia about the joint axis at home "
                      "(a massless link whose child joints absorb this joint's motion, or point "
                      "masses on the axis): the dynamics are singular");
    }
    articulated[p] += ma - u * u.transpose() / d;
    subtree_mass[p] += subtree_mass[j];
  }
  if (!(model.total_mass > 0))
    throw ToolError("the robot has no mass (no link has an <inertial> with a positive mass)");
  if (model.fixed_base) return;  // the mount carries the root: no base inertia to invert
  // Base: M^A_0 positive definite ⇔ its linear block C and the Schur complement
  // A − B C⁻¹ Bᵀ are (base frame = world at home).
  const Matrix6& m0 = articulated[0];
  const Eigen::Matrix3d c = m0.bottomRightCorner<3, 3>();
  const bool linear_ok = positive_definite(c, c.trace());
  const bool angular_ok =
      linear_ok &&
      positive_definite(m0.topLeftCorner<3, 3>() -
                            m0.topRightCorner<3, 3>() * c.inverse() * m0.bottomLeftCorner<3, 3>(),
                        m0.topLeftCorner<3, 3>().trace());
  if (!angular_ok)
    throw ToolError("root link " + quoted(model.root) +
                    ": the floating base's articulated inertia is singular at home (a massless "
                    "base whose child joints absorb its motion)");
}

}  // namespace hodyn_urdf
