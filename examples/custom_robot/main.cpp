// custom_robot: hodyn on a robot of your own, from its URDF.
//
// CMakeLists.txt runs hodyn_urdf_generate() on custom_robot.urdf; the
// generated header <custom_robot.hpp> gives the tree type custom_robot::Tree,
// the names and limits, and custom_robot::make_model<Scalar>(). This program
// builds the model and, at one state, runs
//   1. inverse dynamics at rest: the propulsion force must be the robot's
//      weight (m g upwards), with no moment about the vertical;
//   2. inverse dynamics of order 2, then forward dynamics of order 2 from its
//      wrench and torques: the motion must come back (FD(ID(x)) = x);
//   3. the mass matrix M̄: symmetric positive definite, and
//      M̄ ν̇ = ID(q, ν, ν̇) − ID(q, ν, 0) (the inertial part of inverse dynamics);
// and prints the results. Exit status 0 only when every check passes.
//
// Conventions (hodyn): twists (angular; linear) in the world frame, wrenches
// (moment; force) about the world origin, ν = (V₁; q̇); body 0 is the
// floating base, joint j is entry j−1 of q.
#include <hodyn/equations_of_motion.hpp>
#include <hodyn/forward_dynamics.hpp>
#include <hodyn/inverse_dynamics.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

// Your robot: these two lines name the header and the namespace you gave
// hodyn_urdf_generate(... NAME custom_robot) in CMakeLists.txt.
#include <custom_robot.hpp>  // generated from custom_robot.urdf

#include <cmath>
#include <cstdio>

namespace {

namespace robot = custom_robot;  // ← and this one
using Tree = robot::Tree;
constexpr int kOrder = 2;  // derivative order of the round trip
constexpr int kDofs = robot::kNumDofs;
using Vector = Eigen::Matrix<double, kDofs, 1>;
using Matrix = Eigen::Matrix<double, kDofs, kDofs>;

int failures = 0;

void check(bool ok, const char* what, double value, double bound) {
  std::printf("  [%s] %-52s %.3e (bound %.1e)\n", ok ? "ok" : "FAILED", what, value, bound);
  if (!ok) ++failures;
}

template <class V>
void print_vector(const char* name, const V& v) {
  std::printf("  %-14s", name);
  for (int i = 0; i < v.size(); ++i) std::printf(" %10.5f", v(i));
  std::printf("\n");
}

// One state with every derivative non-zero: base tilted, moved and moving,
// every joint away from home and moving (values small enough for a prismatic
// joint in metres; any number of joints).
hodyn::MotionDerivatives<Tree, kOrder> example_state() {
  hodyn::MotionDerivatives<Tree, kOrder> m;
  m.base_pose.rotation = (Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()) *
                          Eigen::AngleAxisd(0.1, Eigen::Vector3d::UnitY()) *
                          Eigen::AngleAxisd(-0.05, Eigen::Vector3d::UnitX()))
                             .toRotationMatrix();
  m.base_pose.translation << 1.0, -0.5, 2.0;
  for (int k = 0; k <= kOrder + 1; ++k) {  // V₁^(k), k = 0..r+1
    const double s = 1.0 / (k + 1);
    m.base_twist[k] << 0.1 * s, -0.2 * s, 0.3 * s, 0.5 * s, 0.1 * s, -0.2 * s;
  }
  for (int i = 0; i < robot::kNumJoints; ++i) {
    m.q[0](i) = 0.04 + 0.1 * ((i % 3) - 1);  // rad or m
    for (int k = 1; k <= kOrder + 2; ++k)    // q^(k), k = 1..r+2
      m.q[k](i) = (0.05 + 0.1 * (i % 2) - 0.07 * (i % 3)) / k;
  }
  return m;
}

double relative(double error, double scale) { return error / (scale > 1.0 ? scale : 1.0); }

}  // namespace

int main() {
  std::printf("custom_robot: %d bodies, %d joints, %d dofs, %.3f kg\n", Tree::kNumBodies,
              robot::kNumJoints, kDofs, robot::kTotalMass);
  for (int j = 0; j < robot::kNumJoints; ++j) {
    const hodyn::JointLimits& l = robot::kJointLimits[static_cast<std::size_t>(j)];
    std::printf("  joint %d %-15s body %-10s limits [%g, %g]\n", j,
                robot::kJointNames[static_cast<std::size_t>(j)],
                robot::kBodyNames[static_cast<std::size_t>(j + 1)], l.lower, l.upper);
  }

  // Large workspaces as statics: no big stack frames (as on a flight computer).
  static hodyn::Model<Tree, double> model;
  if (robot::make_model(model) != hodyn::Status::kOk) {
    std::printf("make_model failed\n");
    return 1;
  }
  static hodyn::InverseDynamicsData<Tree, kOrder> id;
  static hodyn::ForwardDynamicsInput<Tree, kOrder> fd_in;
  static hodyn::ForwardDynamicsData<Tree, kOrder> fd;
  static hodyn::EquationsOfMotionData<Tree> eom;
  const hodyn::MotionDerivatives<Tree, kOrder> state = example_state();
  const double weight = robot::kTotalMass * 9.81;

  // 1. At rest (same pose and joint angles, nothing moving): hover wrench.
  std::printf("\n1. hover: inverse dynamics at rest\n");
  hodyn::MotionDerivatives<Tree, kOrder> rest;
  rest.base_pose = state.base_pose;
  rest.q[0] = state.q[0];
  hodyn::Status s = hodyn::inverse_dynamics(model, id, rest, 0);
  check(s == hodyn::Status::kOk, "inverse_dynamics status", static_cast<double>(s), 0.0);
  print_vector("Q1 (N m; N)", id.base_wrench[0]);
  print_vector("tau (N m; N)", id.joint_torque[0]);
  const Eigen::Vector3d force = id.base_wrench[0].tail<3>();
  check((force - Eigen::Vector3d(0, 0, weight)).norm() <= 1e-12 * weight,
        "|force - m g e_z| (N)", (force - Eigen::Vector3d(0, 0, weight)).norm(), 1e-12 * weight);
  check(std::abs(id.base_wrench[0](2)) <= 1e-12 * weight, "|moment_z| (N m)",
        std::abs(id.base_wrench[0](2)), 1e-12 * weight);

  // 2. FD(ID(x)) round trip of order 2.
  std::printf("\n2. round trip: forward dynamics of inverse dynamics, order %d\n", kOrder);
  s = hodyn::inverse_dynamics(model, id, state, kOrder);
  check(s == hodyn::Status::kOk, "inverse_dynamics status", static_cast<double>(s), 0.0);
  for (int k = 0; k <= kOrder; ++k) {
    std::printf("  order %d\n", k);
    print_vector("  Q1^(k)", id.base_wrench[k]);
    print_vector("  tau^(k)", id.joint_torque[k]);
  }
  fd_in.base_pose = state.base_pose;
  fd_in.base_twist = state.base_twist[0];
  fd_in.q = state.q[0];
  fd_in.q_dot = state.q[1];
  fd_in.base_wrench_frame = hodyn::WrenchFrame::kWorld;
  for (int k = 0; k <= kOrder; ++k) {
    fd_in.base_wrench[k] = id.base_wrench[k];
    fd_in.joint_torque[k] = id.joint_torque[k];
  }
  s = hodyn::forward_dynamics(model, fd, fd_in, kOrder);
  check(s == hodyn::Status::kOk, "forward_dynamics status", static_cast<double>(s), 0.0);
  for (int k = 0; k <= kOrder; ++k) {
    const double base_error = relative((fd.motion.base_twist[k + 1] - state.base_twist[k + 1]).norm(),
                                       state.base_twist[k + 1].norm());
    const double joint_error =
        relative((fd.motion.q[k + 2] - state.q[k + 2]).norm(), state.q[k + 2].norm());
    char what[64];
    std::snprintf(what, sizeof what, "order %d: V1^(%d), q^(%d) relative error", k, k + 1, k + 2);
    check(base_error <= 1e-10 && joint_error <= 1e-10, what,
          base_error > joint_error ? base_error : joint_error, 1e-10);
  }

  // 3. The mass matrix.
  std::printf("\n3. mass matrix\n");
  s = hodyn::mass_matrix(model, eom, state.base_pose, state.q[0]);
  check(s == hodyn::Status::kOk, "mass_matrix status", static_cast<double>(s), 0.0);
  const Matrix& mass = eom.result.mass_matrix;
  const double asymmetry = (mass - mass.transpose()).norm() / mass.norm();
  check(asymmetry <= 1e-14, "|M - M^T| / |M|", asymmetry, 1e-14);
  const Eigen::SelfAdjointEigenSolver<Matrix> eigen(mass);
  const double smallest = eigen.eigenvalues()(0);
  const double largest = eigen.eigenvalues()(kDofs - 1);
  std::printf("  eigenvalues %.4e .. %.4e, condition number %.1f\n", smallest, largest,
              largest / smallest);
  check(smallest > 0.0, "smallest eigenvalue > 0", smallest, 0.0);
  check(std::abs(mass(3, 3) - robot::kTotalMass) <= 1e-12 && std::abs(mass(5, 5) - robot::kTotalMass) <= 1e-12,
        "M linear block diagonal = total mass: error", std::abs(mass(5, 5) - robot::kTotalMass), 1e-12);
  // M̄ ν̇ against inverse dynamics with and without the accelerations.
  Vector nu_dot;
  nu_dot << state.base_twist[1], state.q[2];
  hodyn::MotionDerivatives<Tree, kOrder> still = state;  // same q, ν; ν̇ = 0
  still.base_twist[1].setZero();
  still.q[2].setZero();
  Vector with_acceleration, without_acceleration;
  s = hodyn::inverse_dynamics(model, id, state, 0);
  with_acceleration << id.base_wrench[0], id.joint_torque[0];
  const hodyn::Status s2 = hodyn::inverse_dynamics(model, id, still, 0);
  without_acceleration << id.base_wrench[0], id.joint_torque[0];
  const Vector inertial = with_acceleration - without_acceleration;
  const double consistency = (mass * nu_dot - inertial).norm() / inertial.norm();
  check(s == hodyn::Status::kOk && s2 == hodyn::Status::kOk && consistency <= 1e-12,
        "|M nu_dot - (ID(nu_dot) - ID(0))| / |.|", consistency, 1e-12);

  std::printf("\n%s: %d check(s) failed\n", failures == 0 ? "PASSED" : "FAILED", failures);
  return failures == 0 ? 0 : 1;
}
