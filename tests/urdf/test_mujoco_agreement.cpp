// hodyn's URDF import against a URDF parser nobody here wrote: MuJoCo's.
//
// For each URDF, hodyn's model comes from the header hodyn-urdf generates
// (hodyn_urdf_generate, tests/urdf/CMakeLists.txt); MuJoCo (libmujoco, 2.2)
// reads the same file with its own URDF parser — a copy with a `world` link
// and a floating joint to the root link, compiler settings pinned, contacts,
// constraints (joint limits), passive forces and actuation off
// (mujoco_urdf.hpp). Nothing of hodyn's translation reaches MuJoCo.
//
// Oracles, on 100 random states per robot (base pose uniform in SO(3) ×
// N(0,1)³ m; V₁, V̇₁, q, q̇, q̈ ~ N(0,1); random forces for forward dynamics),
// in hodyn's coordinates ν = (V₁; q̇) through the velocity map T of
// mujoco_urdf.hpp (ν_mujoco = T ν):
//   - inverse dynamics, order 0: (Q₁; τ) against Tᵀ · mj_inverse's qfrc_inverse,
//     and Ad_C₁ᵀQ₁ against MuJoCo's free-joint force read in the base frame;
//   - forward dynamics, order 0: (V̇₁; q̈) against T⁻¹(qacc − Ṫν) of mj_forward
//     with the same forces (qfrc_applied = T⁻ᵀ(Q₁; τ)), for a world-frame and a
//     base-frame propulsion wrench input;
//   - the mass matrix M̄ against Tᵀ M_mujoco T (mj_fullM of qM after mj_forward);
// each to 1e-9 relative (‖x − y‖₂ / ‖y‖₂, matrices in the Frobenius norm, the
// worst state counts). MuJoCo's principal axes are completed first
// (finish_principal_axes: MuJoCo's own diagonalization of the URDF's full
// inertia tensors leaves off-diagonal terms up to 3e-7 of the largest moment
// in these files, which alone moves its forward dynamics ~1e-7, measured
// and printed below); the test also prints the
// numbers for MuJoCo's model exactly as it compiles, with fixed links as
// separate welded bodies (fusestatic false) and lumped by MuJoCo (true), for
// information — they measure MuJoCo's import precision, not hodyn's.
// Plus: same joint names, kinds and parents; total mass equal to the sum of
// the file's <mass> values; gravity; no MuJoCo warning.
//
// Fixed-base arms (hodyn_urdf_generate(... FIXED_BASE): JointKind::kFixedBase,
// ν = q̇): the Kinova Gen3 file and examples/panda/panda.urdf (7 revolute
// joints, Gaz et al.'s parameters) against MuJoCo loading the URDF as it is —
// no floating joint, so MuJoCo welds the root link to its world body (checked:
// no free joint, nq = nv = number of joints, the root a jointless child of the
// world). MuJoCo's dofs are the joints, matched by name. On 100 random states
// (q, q̇, q̈ ~ N(0,1); hodyn's base fields filled with random values, which a
// fixed root must ignore): τ against qfrc_inverse of mj_inverse; q̈ against
// qacc of mj_forward with qfrc_applied = τ; M̄ against mj_fullM; and the
// mount's wrench on the root — hodyn's base_wrench from inverse and from
// forward dynamics — against cfrc_int of the root body after
// mj_rnePostConstraint (the world's wrench on it), moved to the world origin.
// MuJoCo terms hodyn does not model are off or absent: armature (checked 0),
// damping (passive forces off), frictionloss and joint limits (disabled),
// actuators (disabled); MuJoCo 2.2 has no gravity compensation.
#include <hodyn/equations_of_motion.hpp>
#include <hodyn/forward_dynamics.hpp>
#include <hodyn/inverse_dynamics.hpp>

#include <aerial_manipulator_urdf.hpp>
#include <branching_tree_urdf.hpp>
#include <kinova_gen3_fixed_urdf.hpp>
#include <kinova_gen3_urdf.hpp>
#include <octo_arm.hpp>
#include <panda_fixed_urdf.hpp>
#include <serial_chain_urdf.hpp>

#include "support/error_metrics.hpp"
#include "support/random.hpp"
#include "urdf/mujoco_urdf.hpp"

#include <Eigen/Cholesky>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

namespace {

using hodyn::Status;
using hodyn::test::MujocoCoordinates;
using hodyn::test::rel_err;

constexpr int kStates = 100;
constexpr double kTolerance = 1e-9;

/// Everything MuJoCo warns about during a robot's checks (must stay empty).
std::string& mujoco_warnings() {
  static std::string text;
  return text;
}
void record_mujoco_warning(const char* message) {
  mujoco_warnings() += message;
  mujoco_warnings() += "\n";
}

/// A generated robot header (namespace ns of hodyn_urdf_generate) and its URDF.
template <class Tree>
struct RobotUnderTest {
  static constexpr std::size_t kNumBodies = Tree::kNumBodies;
  const char* label;
  std::string urdf_path;
  std::array<const char*, kNumBodies> body_names;
  std::array<const char*, kNumBodies - 1> joint_names;
  Status (*make_model)(hodyn::Model<Tree, double>&);
};
#define HODYN_ROBOT_UNDER_TEST(ns, label, path) \
  RobotUnderTest<ns::Tree> { label, path, ns::kBodyNames, ns::kJointNames, &ns::make_model<double> }

/// Worst relative error per quantity over the states, and the first failure
/// of a call or of a sanity check ("" if none).
struct Agreement {
  double inverse = 0.0;        ///< (Q₁; τ)
  double inverse_body = 0.0;   ///< Ad_C₁ᵀ Q₁
  double forward_world = 0.0;  ///< (V̇₁; q̈), world-frame wrench input
  double forward_base = 0.0;   ///< (V̇₁; q̈), base-frame wrench input
  double mass_matrix = 0.0;    ///< M̄
  std::string failure;
};

Eigen::VectorXd mujoco_vector(const mjtNum* x, int n) {
  return Eigen::Map<const Eigen::VectorXd>(x, n);
}

/// hodyn and MuJoCo on kStates random states drawn from `seed`.
template <class Tree>
Agreement compare(const mjModel* mj, const MujocoCoordinates& c,
                  const hodyn::Model<Tree, double>& model, unsigned seed) {
  constexpr int kJoints = Tree::kNumBodies - 1;
  const int nv = mj->nv;
  Agreement out;
  hodyn::test::MujocoDataPtr d(mj_makeData(mj));
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, 0>>();
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, 0>>();
  auto input = std::make_unique<hodyn::ForwardDynamicsInput<Tree, 0>>();
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<Tree, 0>>();
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree>>();
  const double weight = model.total_mass() * 9.81;
  hodyn::test::Rng rng(seed);
  for (int state = 0; state < kStates && out.failure.empty(); ++state) {
    auto& m = *motion;
    m.base_pose = rng.pose(1.0);
    for (auto& v : m.base_twist) v = rng.vec6();
    for (auto& q : m.q)
      for (int i = 0; i < kJoints; ++i) q(i) = rng.normal();
    const Eigen::Matrix3d& r = m.base_pose.rotation;
    const Eigen::Vector3d& p = m.base_pose.translation;
    const Eigen::Vector3d omega = m.base_twist[0].template head<3>();
    const Eigen::Vector3d v = m.base_twist[0].template tail<3>();
    const Eigen::MatrixXd t = hodyn::test::velocity_map(c, nv, r, p);
    const Eigen::MatrixXd t_inverse = hodyn::test::velocity_map_inverse(c, nv, r, p);
    if (!((t * t_inverse - Eigen::MatrixXd::Identity(nv, nv)).norm() <= 1e-14)) {
      out.failure = "T T⁻¹ is not the identity";
      break;
    }
    Eigen::VectorXd nu(nv), nu_dot(nv);
    nu << m.base_twist[0], m.q[1];
    nu_dot << m.base_twist[1], m.q[2];
    const Eigen::VectorXd t_dot_nu = hodyn::test::velocity_map_rate_times(c, nv, p, omega, v);
    const Eigen::VectorXd qpos = hodyn::test::mujoco_qpos(c, mj->nq, r, p, m.q[0]);

    // Inverse dynamics: qpos, qvel = T ν, qacc = T ν̇ + Ṫ ν; (Q₁; τ) = Tᵀ qfrc_inverse.
    if (hodyn::inverse_dynamics(model, *id, m, 0) != Status::kOk) {
      out.failure = "hodyn inverse dynamics failed";
      break;
    }
    Eigen::Map<Eigen::VectorXd>(d->qpos, mj->nq) = qpos;
    Eigen::Map<Eigen::VectorXd>(d->qvel, nv) = t * nu;
    Eigen::Map<Eigen::VectorXd>(d->qacc, nv) = t * nu_dot + t_dot_nu;
    mj_inverse(mj, d.get());
    const Eigen::VectorXd qfrc_inverse = mujoco_vector(d->qfrc_inverse, nv);
    Eigen::VectorXd generalized_force(nv);
    generalized_force << id->base_wrench[0], id->joint_torque[0];
    out.inverse = std::max(out.inverse, rel_err(generalized_force, t.transpose() * qfrc_inverse));
    // Base frame: MuJoCo's free-joint force is (f world; moment about the body
    // origin, body axes), so Ad_C₁ᵀ Q₁ = (moment; Rᵀ f).
    hodyn::Wrench<double> body_wrench;
    body_wrench << qfrc_inverse.segment<3>(c.free_dof + 3),
        r.transpose() * qfrc_inverse.segment<3>(c.free_dof);
    out.inverse_body = std::max(out.inverse_body, rel_err(id->base_wrench_body[0], body_wrench));

    // Forward dynamics with random forces, world-frame then base-frame wrench.
    auto& in = *input;
    in.base_pose = m.base_pose;
    in.base_twist = m.base_twist[0];
    in.q = m.q[0];
    in.q_dot = m.q[1];
    for (const auto frame : {hodyn::WrenchFrame::kWorld, hodyn::WrenchFrame::kBase}) {
      in.base_wrench_frame = frame;
      in.base_wrench[0] = weight * rng.vec6();
      for (int i = 0; i < kJoints; ++i) in.joint_torque[0](i) = rng.normal();
      if (hodyn::forward_dynamics(model, *fd, in, 0) != Status::kOk) {
        out.failure = "hodyn forward dynamics failed";
        break;
      }
      Eigen::VectorXd qfrc_applied(nv);
      if (frame == hodyn::WrenchFrame::kWorld) {
        Eigen::VectorXd force(nv);  // τ' = T⁻ᵀ τ
        force << in.base_wrench[0], in.joint_torque[0];
        qfrc_applied = t_inverse.transpose() * force;
      } else {  // (n_b; f_b) in the base frame → (R f_b world; n_b about the origin, body axes)
        qfrc_applied.setZero();
        qfrc_applied.segment<3>(c.free_dof) = r * in.base_wrench[0].template tail<3>();
        qfrc_applied.segment<3>(c.free_dof + 3) = in.base_wrench[0].template head<3>();
        for (int i = 0; i < kJoints; ++i)
          qfrc_applied(c.joint_dof[static_cast<std::size_t>(i)]) = in.joint_torque[0](i);
      }
      Eigen::Map<Eigen::VectorXd>(d->qpos, mj->nq) = qpos;
      Eigen::Map<Eigen::VectorXd>(d->qvel, nv) = t * nu;
      Eigen::Map<Eigen::VectorXd>(d->qfrc_applied, nv) = qfrc_applied;
      mj_forward(mj, d.get());
      const Eigen::VectorXd acceleration =
          t_inverse * (mujoco_vector(d->qacc, nv) - t_dot_nu);  // ν̇ = T⁻¹(qacc − Ṫν)
      Eigen::VectorXd hodyn_acceleration(nv);
      hodyn_acceleration << fd->motion.base_twist[1], fd->motion.q[2];
      double& worst = frame == hodyn::WrenchFrame::kWorld ? out.forward_world : out.forward_base;
      worst = std::max(worst, rel_err(hodyn_acceleration, acceleration));
    }
    std::fill(d->qfrc_applied, d->qfrc_applied + nv, 0.0);
    if (!out.failure.empty()) break;

    // Mass matrix: qM of the last mj_forward (same qpos), M̄ = Tᵀ M' T.
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> mujoco_mass(nv, nv);
    mj_fullM(mj, mujoco_mass.data(), d->qM);
    if (hodyn::mass_matrix(model, *eom, m.base_pose, m.q[0]) != Status::kOk) {
      out.failure = "hodyn mass_matrix failed";
      break;
    }
    const Eigen::MatrixXd hodyn_mass = eom->result.mass_matrix;
    if (Eigen::LLT<Eigen::MatrixXd>(hodyn_mass).info() != Eigen::Success ||
        !hodyn_mass.isApprox(hodyn_mass.transpose(), 1e-15)) {
      out.failure = "hodyn's M̄ is not symmetric positive definite";
      break;
    }
    out.mass_matrix =
        std::max(out.mass_matrix, rel_err(hodyn_mass, t.transpose() * mujoco_mass * t));
  }
  return out;
}

std::string format_agreement(const Agreement& a) {
  std::array<char, 200> line{};
  std::snprintf(line.data(), line.size(),
                "ID %.2e (base frame %.2e)  FD %.2e (base-frame input %.2e)  M %.2e", a.inverse,
                a.inverse_body, a.forward_world, a.forward_base, a.mass_matrix);
  return line.data();
}

/// `body` or its nearest ancestor that has a joint or is a child of the world
/// (fixed links are bodies without joints, welded to their parents when
/// fusestatic is false; a fixed-base root is a jointless child of the world).
int moving_ancestor(const mjModel* mj, int body) {
  while (body > 0 && mj->body_jntnum[body] == 0 && mj->body_parentid[body] != 0)
    body = mj->body_parentid[body];
  return body;
}

/// Same joints (kind, parent body — MuJoCo's nearest ancestor with a joint),
/// no armature (MuJoCo would add it to the mass matrix), total mass equal to
/// the sum of the file's <mass> values in hodyn and in both MuJoCo models
/// (`fused` less `fused_into_world`: the mass of a welded root and its fixed
/// links, which fusestatic merges into MuJoCo's massless world body), same
/// gravity.
template <class Tree>
void check_same_robot(const RobotUnderTest<Tree>& robot, const hodyn::Model<Tree, double>& model,
                      const mjModel* mj, const mjModel* fused, const std::string& urdf,
                      double fused_into_world = 0.0) {
  constexpr int kJoints = Tree::kNumBodies - 1;
  // Same joints: kind, parent body (MuJoCo's nearest ancestor with a joint),
  // and no armature (MuJoCo would add it to the mass matrix).
  for (int i = 0; i < kJoints; ++i) {
    const char* name = robot.joint_names[static_cast<std::size_t>(i)];
    SCOPED_TRACE(name);
    const int joint = mj_name2id(mj, mjOBJ_JOINT, name);
    const hodyn::JointKind kind = Tree::kJoint[static_cast<std::size_t>(i + 1)];
    EXPECT_EQ(hodyn::is_revolute(kind), mj->jnt_type[joint] == mjJNT_HINGE);
    EXPECT_EQ(hodyn::is_prismatic(kind), mj->jnt_type[joint] == mjJNT_SLIDE);
    const int body = mj->jnt_bodyid[joint];
    EXPECT_STREQ(mj_id2name(mj, mjOBJ_BODY, body),
                 robot.body_names[static_cast<std::size_t>(i + 1)]);
    const int parent = moving_ancestor(mj, mj->body_parentid[body]);
    const int hodyn_parent = Tree::kParent[static_cast<std::size_t>(i + 1)];
    EXPECT_STREQ(mj_id2name(mj, mjOBJ_BODY, parent),
                 robot.body_names[static_cast<std::size_t>(hodyn_parent)]);
  }
  for (int dof = 0; dof < mj->nv; ++dof) EXPECT_EQ(mj->dof_armature[dof], 0.0);

  // Total mass: the file's <mass> values, hodyn's lumped model, MuJoCo's bodies.
  std::string error;
  const double file_mass = hodyn::test::urdf_total_mass(urdf, error);
  ASSERT_EQ(error, "");
  double mujoco_mass = 0.0, fused_mass = 0.0;
  for (int b = 0; b < mj->nbody; ++b) mujoco_mass += mj->body_mass[b];
  for (int b = 0; b < fused->nbody; ++b) fused_mass += fused->body_mass[b];
  EXPECT_NEAR(model.total_mass(), file_mass, 1e-12 * file_mass);
  EXPECT_NEAR(mujoco_mass, file_mass, 1e-12 * file_mass);
  EXPECT_NEAR(fused_mass + fused_into_world, file_mass, 1e-12 * file_mass);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(model.gravity()(i), mj->opt.gravity[i]);
}

template <class Tree>
void check_agreement(const RobotUnderTest<Tree>& robot, unsigned seed) {
  constexpr int kJoints = Tree::kNumBodies - 1;
  SCOPED_TRACE(robot.label);
  mujoco_warnings().clear();
  mju_user_warning = record_mujoco_warning;

  auto model = std::make_unique<hodyn::Model<Tree, double>>();
  ASSERT_EQ(robot.make_model(*model), Status::kOk);
  const std::string urdf = hodyn::test::read_text_file(robot.urdf_path);
  ASSERT_FALSE(urdf.empty()) << robot.urdf_path;
  const std::string root = robot.body_names[0];
  const std::string copy_base =
      std::string(HODYN_MUJOCO_URDF_COPY_DIR) + "/" + robot.label + "_floating";

  std::string error;
  hodyn::test::MujocoModelPtr welded = hodyn::test::load_floating_urdf(
      robot.urdf_path, copy_base + "_welded.urdf", root, false, error);
  ASSERT_TRUE(welded) << error;
  hodyn::test::MujocoModelPtr fused = hodyn::test::load_floating_urdf(
      robot.urdf_path, copy_base + "_fused.urdf", root, true, error);
  ASSERT_TRUE(fused) << error;
  hodyn::test::MujocoModelPtr completed = hodyn::test::load_floating_urdf(
      robot.urdf_path, copy_base + "_welded.urdf", root, false, error);
  ASSERT_TRUE(completed) << error;
  const hodyn::test::PrincipalAxesCompletion completion =
      hodyn::test::finish_principal_axes(completed.get(), urdf);
  ASSERT_EQ(completion.error, "");
  // What MuJoCo dropped is no more than its Jacobi stopping rule allows (next
  // rotation below ~1.4e-6 rad: off-diagonal terms below ~1.4e-6 of the
  // largest moment); more would mean the completion changed MuJoCo's model.
  EXPECT_LE(completion.largest_dropped, 1e-5);

  MujocoCoordinates coordinates, fused_coordinates;
  ASSERT_EQ(hodyn::test::match_coordinates(welded.get(), root, robot.joint_names, coordinates), "");
  ASSERT_EQ(hodyn::test::match_coordinates(fused.get(), root, robot.joint_names, fused_coordinates),
            "");

  check_same_robot(robot, *model, welded.get(), fused.get(), urdf);
  if (::testing::Test::HasFatalFailure()) return;
  const Agreement strict = compare(completed.get(), coordinates, *model, seed);
  const Agreement as_welded = compare(welded.get(), coordinates, *model, seed);
  const Agreement as_fused = compare(fused.get(), fused_coordinates, *model, seed);
  ASSERT_EQ(strict.failure, "");
  ASSERT_EQ(as_welded.failure, "");
  ASSERT_EQ(as_fused.failure, "");
  EXPECT_EQ(mujoco_warnings(), "");
  mju_user_warning = nullptr;

  std::printf(
      "[mujoco agreement] %s (%d joints, %d states, max relative error)\n"
      "  principal axes completed:    %s\n"
      "  MuJoCo as compiled, welded:  %s\n"
      "  MuJoCo as compiled, fused:   %s\n"
      "  MuJoCo's principal axes on %d bodies: off-diagonal dropped <= %.1e of the largest "
      "moment, completing rotation <= %.1e rad\n",
      robot.label, kJoints, kStates, format_agreement(strict).c_str(),
      format_agreement(as_welded).c_str(), format_agreement(as_fused).c_str(), completion.bodies,
      completion.largest_dropped, completion.largest_rotation);

  EXPECT_LE(strict.inverse, kTolerance);
  EXPECT_LE(strict.inverse_body, kTolerance);
  EXPECT_LE(strict.forward_world, kTolerance);
  EXPECT_LE(strict.forward_base, kTolerance);
  EXPECT_LE(strict.mass_matrix, kTolerance);
}

// ---- fixed-base arms: the root welded to the world, ν = q̇ ----

/// Worst relative error per quantity of a fixed-base arm, and the first failure.
struct FixedAgreement {
  double inverse = 0.0;      ///< τ
  double mount_id = -1.0;    ///< inverse dynamics' base_wrench (−1: MuJoCo fused the root)
  double forward = 0.0;      ///< q̈
  double mount_fd = -1.0;    ///< forward dynamics' base_wrench (−1: MuJoCo fused the root)
  double mass_matrix = 0.0;  ///< M̄
  std::string failure;
};

/// x in MuJoCo's dof order: entry joint_dof[i] is hodyn's entry i.
Eigen::VectorXd to_mujoco_dofs(const MujocoCoordinates& c, const Eigen::VectorXd& x) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(x.size());
  for (std::size_t i = 0; i < c.joint_dof.size(); ++i)
    out(c.joint_dof[i]) = x(static_cast<Eigen::Index>(i));
  return out;
}

/// x from MuJoCo's dof order to hodyn's (the inverse of to_mujoco_dofs).
Eigen::VectorXd from_mujoco_dofs(const MujocoCoordinates& c, const mjtNum* x) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(c.joint_dof.size()));
  for (std::size_t i = 0; i < c.joint_dof.size(); ++i)
    out(static_cast<Eigen::Index>(i)) = x[c.joint_dof[i]];
  return out;
}

/// hodyn and MuJoCo on kStates random states drawn from `seed`; `root_body`
/// is MuJoCo's body of the root link, −1 when fused into the world.
template <class Tree>
FixedAgreement compare_fixed(const mjModel* mj, const MujocoCoordinates& c, int root_body,
                             const hodyn::Model<Tree, double>& model, unsigned seed) {
  static_assert(hodyn::TreeTraits<Tree>::kFixedBase, "a fixed-base tree");
  constexpr int kJoints = Tree::kNumBodies - 1;
  const int nv = mj->nv;
  FixedAgreement out;
  if (root_body >= 0) out.mount_id = out.mount_fd = 0.0;
  hodyn::test::MujocoDataPtr d(mj_makeData(mj));
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, 0>>();
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, 0>>();
  auto input = std::make_unique<hodyn::ForwardDynamicsInput<Tree, 0>>();
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<Tree, 0>>();
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree>>();
  hodyn::test::Rng rng(seed);
  for (int state = 0; state < kStates && out.failure.empty(); ++state) {
    auto& m = *motion;
    // Base fields a fixed root ignores: random values, not its mount at rest.
    m.base_pose = rng.pose(1.0);
    for (auto& v : m.base_twist) v = rng.vec6();
    for (auto& q : m.q)
      for (int i = 0; i < kJoints; ++i) q(i) = rng.normal();
    Eigen::VectorXd qpos = Eigen::VectorXd::Zero(mj->nq);  // each joint's angle at its address
    for (int i = 0; i < kJoints; ++i) qpos(c.joint_qpos[static_cast<std::size_t>(i)]) = m.q[0](i);
    const Eigen::VectorXd qvel = to_mujoco_dofs(c, m.q[1]);

    // Inverse dynamics: τ against qfrc_inverse; the mount's wrench against cfrc_int.
    if (hodyn::inverse_dynamics(model, *id, m, 0) != Status::kOk) {
      out.failure = "hodyn inverse dynamics failed";
      break;
    }
    Eigen::Map<Eigen::VectorXd>(d->qpos, mj->nq) = qpos;
    Eigen::Map<Eigen::VectorXd>(d->qvel, nv) = qvel;
    Eigen::Map<Eigen::VectorXd>(d->qacc, nv) = to_mujoco_dofs(c, m.q[2]);
    mj_inverse(mj, d.get());
    out.inverse =
        std::max(out.inverse, rel_err(id->joint_torque[0], from_mujoco_dofs(c, d->qfrc_inverse)));
    if (root_body >= 0) {
      mj_rnePostConstraint(mj, d.get());
      out.mount_id = std::max(
          out.mount_id,
          rel_err(id->base_wrench[0], hodyn::test::mujoco_mount_wrench(mj, d.get(), root_body)));
    }

    // Forward dynamics with random torques (and random ignored base inputs).
    auto& in = *input;
    in.base_pose = m.base_pose;
    in.base_twist = m.base_twist[0];
    in.base_wrench[0] = rng.vec6();
    in.q = m.q[0];
    in.q_dot = m.q[1];
    for (int i = 0; i < kJoints; ++i) in.joint_torque[0](i) = 10.0 * rng.normal();
    if (hodyn::forward_dynamics(model, *fd, in, 0) != Status::kOk) {
      out.failure = "hodyn forward dynamics failed";
      break;
    }
    Eigen::Map<Eigen::VectorXd>(d->qpos, mj->nq) = qpos;
    Eigen::Map<Eigen::VectorXd>(d->qvel, nv) = qvel;
    Eigen::Map<Eigen::VectorXd>(d->qfrc_applied, nv) = to_mujoco_dofs(c, in.joint_torque[0]);
    mj_forward(mj, d.get());
    out.forward = std::max(out.forward, rel_err(fd->motion.q[2], from_mujoco_dofs(c, d->qacc)));
    if (root_body >= 0) {
      mj_rnePostConstraint(mj, d.get());  // cfrc_int of the accelerations just solved
      out.mount_fd = std::max(
          out.mount_fd,
          rel_err(fd->base_wrench[0], hodyn::test::mujoco_mount_wrench(mj, d.get(), root_body)));
    }
    std::fill(d->qfrc_applied, d->qfrc_applied + nv, 0.0);

    // Mass matrix: qM of the last mj_forward (same qpos), dofs permuted.
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> mujoco_mass(nv, nv);
    mj_fullM(mj, mujoco_mass.data(), d->qM);
    if (hodyn::mass_matrix(model, *eom, m.base_pose, m.q[0]) != Status::kOk) {
      out.failure = "hodyn mass_matrix failed";
      break;
    }
    const Eigen::MatrixXd hodyn_mass = eom->result.mass_matrix;
    if (hodyn_mass.rows() != kJoints || hodyn_mass.cols() != kJoints ||
        Eigen::LLT<Eigen::MatrixXd>(hodyn_mass).info() != Eigen::Success ||
        !hodyn_mass.isApprox(hodyn_mass.transpose(), 1e-15)) {
      out.failure = "hodyn's M̄ is not a symmetric positive definite joints x joints matrix";
      break;
    }
    Eigen::MatrixXd permuted(kJoints, kJoints);
    for (int i = 0; i < kJoints; ++i)
      for (int k = 0; k < kJoints; ++k)
        permuted(i, k) = mujoco_mass(c.joint_dof[static_cast<std::size_t>(i)],
                                     c.joint_dof[static_cast<std::size_t>(k)]);
    out.mass_matrix = std::max(out.mass_matrix, rel_err(hodyn_mass, permuted));
  }
  return out;
}

/// "n/a (root fused)" for a negative (not measured) error, else the number.
std::string format_error(double e) {
  if (e < 0.0) return "n/a (root fused)";
  std::array<char, 20> text{};
  std::snprintf(text.data(), text.size(), "%.2e", e);
  return text.data();
}

std::string format_fixed_agreement(const FixedAgreement& a) {
  std::array<char, 200> line{};
  std::snprintf(line.data(), line.size(), "ID %.2e (mount %s)  FD %.2e (mount %s)  M %.2e",
                a.inverse, format_error(a.mount_id).c_str(), a.forward,
                format_error(a.mount_fd).c_str(), a.mass_matrix);
  return line.data();
}

/// A fixed-base robot: MuJoCo loads the URDF as it is (no floating joint), so
/// it welds the root; principal axes completed (strict, asserted) and as
/// compiled, welded and fused (printed).
template <class Tree>
void check_fixed_agreement(const RobotUnderTest<Tree>& robot, unsigned seed) {
  constexpr int kJoints = Tree::kNumBodies - 1;
  static_assert(hodyn::TreeTraits<Tree>::kFixedBase, "FIXED_BASE header");
  static_assert(hodyn::TreeTraits<Tree>::kNumDofs == kJoints, "ν = q̇");
  SCOPED_TRACE(robot.label);
  mujoco_warnings().clear();
  mju_user_warning = record_mujoco_warning;

  auto model = std::make_unique<hodyn::Model<Tree, double>>();
  ASSERT_EQ(robot.make_model(*model), Status::kOk);
  const std::string urdf = hodyn::test::read_text_file(robot.urdf_path);
  ASSERT_FALSE(urdf.empty()) << robot.urdf_path;
  const std::string root = robot.body_names[0];
  const std::string copy_base =
      std::string(HODYN_MUJOCO_URDF_COPY_DIR) + "/" + robot.label + "_fixed";

  std::string error;
  auto load = [&](const char* suffix, bool fuse_static) {
    return hodyn::test::load_urdf_copy(robot.urdf_path, copy_base + suffix, root, fuse_static,
                                       false, error);
  };
  hodyn::test::MujocoModelPtr welded = load("_welded.urdf", false);
  ASSERT_TRUE(welded) << error;
  hodyn::test::MujocoModelPtr fused = load("_fused.urdf", true);
  ASSERT_TRUE(fused) << error;
  hodyn::test::MujocoModelPtr completed = load("_welded.urdf", false);
  ASSERT_TRUE(completed) << error;
  const hodyn::test::PrincipalAxesCompletion completion =
      hodyn::test::finish_principal_axes(completed.get(), urdf);
  ASSERT_EQ(completion.error, "");
  EXPECT_LE(completion.largest_dropped, 1e-5);  // as in check_agreement

  // MuJoCo welded the root: no free joint, nq = nv = joints, the root link a
  // jointless child of the world (fusestatic false) or fused into it (true).
  MujocoCoordinates coordinates, fused_coordinates;
  int root_body = -1, fused_root_body = -1;
  ASSERT_EQ(hodyn::test::match_fixed_coordinates(welded.get(), root, robot.joint_names, coordinates,
                                                 root_body),
            "");
  ASSERT_GE(root_body, 1) << "fusestatic false keeps the root link " << root << " as a body";
  ASSERT_EQ(hodyn::test::match_fixed_coordinates(fused.get(), root, robot.joint_names,
                                                 fused_coordinates, fused_root_body),
            "");
  EXPECT_EQ(welded->nq, kJoints);
  EXPECT_EQ(welded->nv, kJoints);

  // The bodies welded to the world in MuJoCo's welded model (the root link and
  // the fixed links below it) carry what fusestatic merges into the world.
  double welded_to_world = 0.0;
  for (int b = 1; b < welded->nbody; ++b)
    if (moving_ancestor(welded.get(), b) == root_body) welded_to_world += welded->body_mass[b];
  EXPECT_GT(welded_to_world, 0.0);
  check_same_robot(robot, *model, welded.get(), fused.get(), urdf,
                   fused_root_body < 0 ? welded_to_world : 0.0);
  if (::testing::Test::HasFatalFailure()) return;
  const FixedAgreement strict =
      compare_fixed(completed.get(), coordinates, root_body, *model, seed);
  const FixedAgreement as_welded =
      compare_fixed(welded.get(), coordinates, root_body, *model, seed);
  const FixedAgreement as_fused =
      compare_fixed(fused.get(), fused_coordinates, fused_root_body, *model, seed);
  ASSERT_EQ(strict.failure, "");
  ASSERT_EQ(as_welded.failure, "");
  ASSERT_EQ(as_fused.failure, "");
  EXPECT_EQ(mujoco_warnings(), "");
  mju_user_warning = nullptr;

  std::printf(
      "[mujoco agreement] %s, fixed base (%d joints, %d states, max relative error)\n"
      "  principal axes completed:    %s\n"
      "  MuJoCo as compiled, welded:  %s\n"
      "  MuJoCo as compiled, fused:   %s\n"
      "  MuJoCo's principal axes on %d bodies: off-diagonal dropped <= %.1e of the largest "
      "moment, completing rotation <= %.1e rad\n",
      robot.label, kJoints, kStates, format_fixed_agreement(strict).c_str(),
      format_fixed_agreement(as_welded).c_str(), format_fixed_agreement(as_fused).c_str(),
      completion.bodies, completion.largest_dropped, completion.largest_rotation);

  EXPECT_LE(strict.inverse, kTolerance);
  EXPECT_GE(strict.mount_id, 0.0);
  EXPECT_LE(strict.mount_id, kTolerance);
  EXPECT_LE(strict.forward, kTolerance);
  EXPECT_GE(strict.mount_fd, 0.0);
  EXPECT_LE(strict.mount_fd, kTolerance);
  EXPECT_LE(strict.mass_matrix, kTolerance);
}

TEST(MujocoAgreement, MujocoVersion) {
  // The checks were written against MuJoCo 2.2 (Debian's libmujoco-dev):
  // free-joint conventions, the URDF parser's `world` link, mju_eig3.
  std::printf("[mujoco agreement] MuJoCo %s\n", mj_versionString());
  EXPECT_EQ(mj_version(), mjVERSION_HEADER);
}

TEST(MujocoAgreement, AerialManipulator) {
  check_agreement(HODYN_ROBOT_UNDER_TEST(aerial_manipulator_urdf, "aerial_manipulator",
                                         HODYN_AERIAL_MANIPULATOR_URDF),
                  101);
}

TEST(MujocoAgreement, BranchingTree) {
  check_agreement(
      HODYN_ROBOT_UNDER_TEST(branching_tree_urdf, "branching_tree",
                             std::string(HODYN_URDF_TEST_DATA) + "/branching_tree.urdf"),
      102);
}

TEST(MujocoAgreement, SerialChain) {
  check_agreement(HODYN_ROBOT_UNDER_TEST(serial_chain_urdf, "serial_chain",
                                         std::string(HODYN_URDF_TEST_DATA) + "/serial_chain.urdf"),
                  103);
}

TEST(MujocoAgreement, KinovaGen3) {
  check_agreement(
      HODYN_ROBOT_UNDER_TEST(kinova_gen3_urdf, "kinova_gen3",
                             std::string(HODYN_URDF_TEST_DATA) + "/kinova_gen3/kinova_gen3.urdf"),
      104);
}

// The second built-in robot: a negative axis (arm_pitch), a prismatic joint,
// a lumped tool, full inertia tensors, off-axis centres of mass.
TEST(MujocoAgreement, OctoArm) {
  check_agreement(HODYN_ROBOT_UNDER_TEST(octo_arm, "octo_arm", HODYN_OCTO_ARM_URDF), 105);
}

// Fixed-base arms (hodyn_urdf_generate(... FIXED_BASE)): the Kinova Gen3 file
// with its root "mount" (and base_link, lumped) welded to the world — upside
// down through mount_to_base — and the Panda with Gaz et al.'s parameters.
TEST(MujocoAgreement, KinovaGen3FixedBase) {
  check_fixed_agreement(
      HODYN_ROBOT_UNDER_TEST(kinova_gen3_fixed_urdf, "kinova_gen3",
                             std::string(HODYN_URDF_TEST_DATA) + "/kinova_gen3/kinova_gen3.urdf"),
      106);
}

TEST(MujocoAgreement, PandaFixedBase) {
  check_fixed_agreement(HODYN_ROBOT_UNDER_TEST(panda_fixed_urdf, "panda", HODYN_PANDA_URDF), 107);
}

}  // namespace
