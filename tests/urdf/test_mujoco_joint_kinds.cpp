// hodyn's ball (JointKind::kSpherical) and universal (JointKind::kUniversal)
// joints against MuJoCo's (libmujoco, 2.2): its ball joint, and a MuJoCo body
// with two hinge joints (issue 19: "check against what nobody here wrote").
//
// The robots are written as MJCF strings in this file (seeded random numbers,
// loaded from memory through MuJoCo's VFS) and hodyn's Model is built from
// the same numbers:
//   BallRobot:      a floating base (free joint), a ball-jointed child with a
//                   hinge child, and a second ball at the leaf;
//   UniversalRobot: a floating base, a universal-jointed child (two hinges,
//                   oblique non-perpendicular axes) with a hinge child, and a
//                   universal at the leaf;
// and both welded to the world (JointKind::kFixedBase, ν = q̇; a MuJoCo root
// body without a joint, T the dof permutation).
// Every MuJoCo body has the identity quat, so at home its frame is parallel to
// its parent's and to the world — hodyn's joint frames, parallel to the world
// at home, turn as MuJoCo's body frames do: MuJoCo's ball quaternion is
// hodyn's R_j exp([δ]) and its three qvel entries are hodyn's child-frame ω;
// MuJoCo composes a body's joints in order, each axis in the body frame as
// the earlier ones turned it, which is exp([Y₁]θ₁) exp([Y₂]θ₂) (checked below
// on MuJoCo's own xmat after mj_kinematics). Joint anchors are offset from
// the body origins and the inertial frames are rotated (pos, quat,
// diaginertia: MuJoCo keeps those numbers as given; a fullinertia would go
// through mju_eig3, which leaves off-diagonal terms up to ~1e-6 of the
// largest moment, see mujoco_urdf.hpp; the test checks MuJoCo's compiled
// inertias against the numbers given).
//
// Oracles, on 50 random states per robot (base pose uniform in SO(3) × N(0,1)³;
// ball rotations uniform in SO(3), the first ball of state 0 at the x-y-z
// Euler lock Rx(a) Ry(π/2) Rz(c), δ ~ N(0, 0.3²) folded into MuJoCo's
// quaternion; V₁, V̇₁, ω, ω̇, θ, θ̇, θ̈ ~ N(0,1)), through the free-joint map T
// of mujoco_urdf.hpp (match_joint_entries, velocity_map, mujoco_qpos):
//   - inverse dynamics, order 0: (Q₁; τ) against Tᵀ qfrc_inverse of mj_inverse
//     (floating: and Ad_C₁ᵀQ₁ against MuJoCo's free-joint force in the base frame);
//   - forward dynamics, order 0: (V̇₁; ν̇_joints) against T⁻¹(qacc − Ṫν) of
//     mj_forward with qfrc_applied = T⁻ᵀ(Q₁; τ), random Q₁, τ (floating: also
//     a base-frame wrench input, (R f_b; n_b) at the free joint);
//   - the mass matrix M̄ against Tᵀ M_mujoco T (mj_fullM);
//   - every body's pose and spatial twist of forward_kinematics against
//     MuJoCo's xpos, xmat and cvel (moved from subtree_com to the origin);
// each to 1e-9 relative (‖x − y‖₂ / ‖y‖₂, the worst state). Contacts,
// constraints, passive forces and actuation are off (pin_rigid_body_dynamics),
// armature and damping 0 (checked), gravity (0, 0, −9.81) in both.
#include <hodyn/equations_of_motion.hpp>
#include <hodyn/forward_dynamics.hpp>
#include <hodyn/inverse_dynamics.hpp>
#include <hodyn/kinematics.hpp>

#include "support/error_metrics.hpp"
#include "support/random.hpp"
#include "urdf/mujoco_urdf.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using hodyn::JointKind;
using hodyn::Status;
using hodyn::test::MujocoCoordinates;
using hodyn::test::rel_err;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

constexpr int kStates = 50;
constexpr double kTolerance = 1e-9;
constexpr double kPi = 3.14159265358979323846;

struct BallRobot {
  static constexpr int kNumBodies = 4;
  static constexpr std::array<int, 4> kParent{-1, 0, 1, 2};
  static constexpr std::array<JointKind, 4> kJoint{JointKind::kFloatingBase, JointKind::kSpherical,
                                                   JointKind::kRevolute, JointKind::kSpherical};
};

struct UniversalRobot {
  static constexpr int kNumBodies = 4;
  static constexpr std::array<int, 4> kParent{-1, 0, 1, 2};
  static constexpr std::array<JointKind, 4> kJoint{JointKind::kFloatingBase, JointKind::kUniversal,
                                                   JointKind::kRevolute, JointKind::kUniversal};
};

// The same robots welded to the world (JointKind::kFixedBase, ν = q̇; in
// MuJoCo the root body has no joint).
struct BallFixedRobot {
  static constexpr int kNumBodies = 4;
  static constexpr std::array<int, 4> kParent{-1, 0, 1, 2};
  static constexpr std::array<JointKind, 4> kJoint{JointKind::kFixedBase, JointKind::kSpherical,
                                                   JointKind::kRevolute, JointKind::kSpherical};
};

struct UniversalFixedRobot {
  static constexpr int kNumBodies = 4;
  static constexpr std::array<int, 4> kParent{-1, 0, 1, 2};
  static constexpr std::array<JointKind, 4> kJoint{JointKind::kFixedBase, JointKind::kUniversal,
                                                   JointKind::kRevolute, JointKind::kUniversal};
};

/// One body of a robot, in the numbers both sides are built from.
struct BodySpec {
  int parent = -1;
  JointKind kind = JointKind::kFloatingBase;
  Vec3 pos = Vec3::Zero();        ///< origin relative to the parent's origin (parallel frames)
  Vec3 joint_pos = Vec3::Zero();  ///< joint anchor (ball centre, axis point) in the body frame
  Vec3 axis1 = Vec3::UnitZ();     ///< hinge axis, or a universal joint's e₁
  Vec3 axis2 = Vec3::UnitX();     ///< a universal joint's e₂
  double mass = 1.0;
  Vec3 com = Vec3::Zero();  ///< centre of mass in the body frame
  Eigen::Quaterniond inertial_quat = Eigen::Quaterniond::Identity();
  Vec3 principal = Vec3::Ones();  ///< principal moments about the centre of mass
};

/// Random bodies for a tree: positions ~0.3 m, anchors offset from the body
/// origins, unit hinge axes, universal axes at an angle in [0.6, 1.3] rad
/// (oblique: never 90°), masses in [0.5, 2], rotated principal frames.
template <class Tree>
std::vector<BodySpec> random_bodies(unsigned seed) {
  hodyn::test::Rng rng(seed);
  std::vector<BodySpec> bodies(Tree::kNumBodies);
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    BodySpec& b = bodies[static_cast<std::size_t>(j)];
    b.parent = Tree::kParent[static_cast<std::size_t>(j)];
    b.kind = Tree::kJoint[static_cast<std::size_t>(j)];
    if (j > 0) {
      b.pos = 0.3 * rng.vec3();
      b.joint_pos = 0.1 * rng.vec3();
      b.axis1 = rng.unit3();
      const Vec3 perpendicular = b.axis1.cross(rng.unit3()).normalized();
      const double angle = rng.uniform(0.6, 1.3);
      b.axis2 = (std::cos(angle) * b.axis1 + std::sin(angle) * perpendicular).normalized();
    }
    b.mass = rng.uniform(0.5, 2.0);
    b.com = 0.1 * rng.vec3();
    b.inertial_quat = Eigen::Quaterniond(rng.rotation());
    const double x = rng.uniform(0.01, 0.1), y = rng.uniform(0.01, 0.1), z = rng.uniform(0.01, 0.1);
    b.principal = Vec3(y + z, x + z, x + y);
  }
  return bodies;
}

std::string numbers(std::initializer_list<double> values) {
  std::string out;
  for (const double v : values) {
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%.17g", v);
    if (!out.empty()) out += ' ';
    out += text.data();
  }
  return out;
}
std::string numbers(const Vec3& v) { return numbers({v.x(), v.y(), v.z()}); }

/// The MuJoCo joint names of hodyn's joint entries (a ball named once, a
/// universal joint as its two hinges), in hodyn's order.
std::vector<std::string> entry_joint_names(const std::vector<BodySpec>& bodies) {
  std::vector<std::string> names;
  for (std::size_t j = 1; j < bodies.size(); ++j) {
    const std::string name = "j" + std::to_string(j);
    if (bodies[j].kind == JointKind::kUniversal) {
      names.push_back(name + "a");
      names.push_back(name + "b");
    } else {
      names.push_back(name);
    }
  }
  return names;
}

void append_body(const std::vector<BodySpec>& bodies, int j, const std::string& indent,
                 std::string& xml) {
  const BodySpec& b = bodies[static_cast<std::size_t>(j)];
  const std::string name = "j" + std::to_string(j);
  const Eigen::Quaterniond& iq = b.inertial_quat;
  xml += indent + "<body name=\"b" + std::to_string(j) + "\" pos=\"" + numbers(b.pos) +
         "\" quat=\"1 0 0 0\">\n";
  const std::string in = indent + "  ";
  switch (b.kind) {
    case JointKind::kFloatingBase:
      xml += in + "<joint name=\"hodyn_floating_base\" type=\"free\"/>\n";
      break;
    case JointKind::kFixedBase:  // no joint: MuJoCo welds the body to the world
      break;
    case JointKind::kSpherical:
      xml += in + "<joint name=\"" + name + "\" type=\"ball\" pos=\"" + numbers(b.joint_pos) +
             "\"/>\n";
      break;
    case JointKind::kRevolute:
      xml += in + "<joint name=\"" + name + "\" type=\"hinge\" pos=\"" + numbers(b.joint_pos) +
             "\" axis=\"" + numbers(b.axis1) + "\"/>\n";
      break;
    case JointKind::kUniversal:  // two hinges in one body, in order e₁, e₂
      xml += in + "<joint name=\"" + name + "a\" type=\"hinge\" pos=\"" + numbers(b.joint_pos) +
             "\" axis=\"" + numbers(b.axis1) + "\"/>\n";
      xml += in + "<joint name=\"" + name + "b\" type=\"hinge\" pos=\"" + numbers(b.joint_pos) +
             "\" axis=\"" + numbers(b.axis2) + "\"/>\n";
      break;
    default:
      xml += in + "<!-- unsupported kind -->\n";
  }
  xml += in + "<inertial pos=\"" + numbers(b.com) + "\" quat=\"" +
         numbers({iq.w(), iq.x(), iq.y(), iq.z()}) + "\" mass=\"" + numbers({b.mass}) +
         "\" diaginertia=\"" + numbers(b.principal) + "\"/>\n";
  for (std::size_t c = 0; c < bodies.size(); ++c)
    if (bodies[c].parent == j) append_body(bodies, static_cast<int>(c), in, xml);
  xml += indent + "</body>\n";
}

std::string mjcf(const std::vector<BodySpec>& bodies, const std::string& model_name) {
  std::string xml = "<mujoco model=\"" + model_name +
                    "\">\n"
                    "  <compiler angle=\"radian\" inertiafromgeom=\"false\" "
                    "balanceinertia=\"false\" boundmass=\"0\" boundinertia=\"0\" "
                    "settotalmass=\"-1\"/>\n"
                    "  <option gravity=\"0 0 -9.81\"/>\n"
                    "  <worldbody>\n";
  append_body(bodies, 0, "    ", xml);
  xml += "  </worldbody>\n</mujoco>\n";
  return xml;
}

/// MuJoCo's model of an MJCF text, loaded from memory (a VFS file), with
/// everything but rigid-body dynamics off. Null and `error` on failure.
hodyn::test::MujocoModelPtr load_mjcf(const std::string& xml, const std::string& name,
                                      std::string& error) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const std::string file = name + ".xml";
  if (mj_makeEmptyFileVFS(vfs.get(), file.c_str(), static_cast<int>(xml.size())) != 0) {
    error = "mj_makeEmptyFileVFS failed";
    return nullptr;
  }
  const int index = mj_findFileVFS(vfs.get(), file.c_str());
  std::memcpy(vfs->filedata[index], xml.data(), xml.size());
  std::array<char, 1000> message{};
  hodyn::test::MujocoModelPtr m(
      mj_loadXML(file.c_str(), vfs.get(), message.data(), static_cast<int>(message.size())));
  mj_deleteVFS(vfs.get());
  if (!m) {
    error = std::string("mj_loadXML: ") + message.data();
    return nullptr;
  }
  hodyn::test::pin_rigid_body_dynamics(m.get());
  return m;
}

/// Body j's world origin at home (the frames are parallel: sums of the pos).
Vec3 home_origin(const std::vector<BodySpec>& bodies, int j) {
  Vec3 o = Vec3::Zero();
  for (int b = j; b >= 0; b = bodies[static_cast<std::size_t>(b)].parent)
    o += bodies[static_cast<std::size_t>(b)].pos;
  return o;
}

Mat3 inertia_about_com(const BodySpec& b) {
  const Mat3 r = b.inertial_quat.normalized().toRotationMatrix();
  return r * b.principal.asDiagonal() * r.transpose();
}

/// hodyn's model of the same numbers: body frames at the MuJoCo body origins,
/// parallel to the world at home; joints through the anchors.
template <class Tree>
Status make_model(const std::vector<BodySpec>& bodies, hodyn::Model<Tree, double>& model) {
  for (int j = 0; j < Tree::kNumBodies; ++j) {
    const BodySpec& b = bodies[static_cast<std::size_t>(j)];
    hodyn::Pose<double> home;
    home.rotation.setIdentity();
    home.translation = home_origin(bodies, j);
    Status s = model.set_body(
        j, home,
        hodyn::SpatialInertia<double>::from_mass_com_inertia(b.mass, b.com, inertia_about_com(b)));
    if (s != Status::kOk) return s;
    const Vec3 anchor = home.translation + b.joint_pos;
    if (b.kind == JointKind::kSpherical) s = model.set_spherical_joint(j, anchor);
    if (b.kind == JointKind::kRevolute) s = model.set_revolute_axis(j, b.axis1, anchor);
    if (b.kind == JointKind::kUniversal) s = model.set_universal_joint(j, anchor, b.axis1, b.axis2);
    if (s != Status::kOk) return s;
  }
  return Status::kOk;
}

/// MuJoCo's compiled model holds the numbers given: body positions, joint
/// anchors and centres of mass (absolute, metres), identity body quats,
/// masses, inertia tensors and hinge axes (relative): the worst difference.
double compiled_model_difference(const mjModel* m, const std::vector<BodySpec>& bodies) {
  double worst = 0.0;
  for (int j = 0; j < static_cast<int>(bodies.size()); ++j) {
    const BodySpec& b = bodies[static_cast<std::size_t>(j)];
    const int body = mj_name2id(m, mjOBJ_BODY, ("b" + std::to_string(j)).c_str());
    if (body < 0) return 1.0;
    const Eigen::Map<const Vec3> pos(m->body_pos + 3 * body);
    const Eigen::Map<const Vec3> ipos(m->body_ipos + 3 * body);
    const Eigen::Map<const Vec3> principal(m->body_inertia + 3 * body);
    const Eigen::Quaterniond quat(m->body_quat[4 * body], m->body_quat[4 * body + 1],
                                  m->body_quat[4 * body + 2], m->body_quat[4 * body + 3]);
    const Eigen::Quaterniond iquat(m->body_iquat[4 * body], m->body_iquat[4 * body + 1],
                                   m->body_iquat[4 * body + 2], m->body_iquat[4 * body + 3]);
    const Mat3 ri = iquat.normalized().toRotationMatrix();
    const Mat3 tensor = ri * principal.asDiagonal() * ri.transpose();
    worst = std::max({worst, (pos - b.pos).norm(), (ipos - b.com).norm(),
                      std::abs(m->body_mass[body] - b.mass) / b.mass,
                      rel_err(tensor, inertia_about_com(b)),
                      (quat.toRotationMatrix() - Mat3::Identity()).norm()});
    for (int k = 0; k < m->body_jntnum[body]; ++k) {
      const int jnt = m->body_jntadr[body] + k;
      if (m->jnt_type[jnt] == mjJNT_FREE) continue;
      const Eigen::Map<const Vec3> jpos(m->jnt_pos + 3 * jnt);
      const Eigen::Map<const Vec3> axis(m->jnt_axis + 3 * jnt);
      worst = std::max(worst, (jpos - b.joint_pos).norm());
      if (m->jnt_type[jnt] == mjJNT_HINGE)
        worst = std::max(worst, rel_err(axis, k == 0 ? b.axis1 : b.axis2));
    }
  }
  return worst;
}

/// Worst relative error per quantity over the states, and the first failure.
struct Agreement {
  double inverse = 0.0;        ///< (Q₁; τ)
  double forward = 0.0;        ///< (V̇₁; ν̇ of the joints)
  double inverse_body = -1.0;  ///< Ad_C₁ᵀ Q₁ (floating base; −1: not measured)
  double forward_base = -1.0;  ///< (V̇₁; ν̇), base-frame wrench input (floating base)
  double mass_matrix = 0.0;    ///< M̄
  double poses = 0.0;          ///< every body's pose (absolute: rotation and metres)
  double twists = 0.0;         ///< every body's spatial twist (ω; v at the world origin)
  std::string failure;
};

Mat3 exp_so3(const Vec3& delta) {
  const double angle = delta.norm();
  if (angle == 0.0) return Mat3::Identity();
  return Eigen::AngleAxisd(angle, delta / angle).toRotationMatrix();
}

/// A random state of the tree: base pose and twists, ball rotations (the
/// first ball of state 0 at the x-y-z Euler lock) with δ, joint entries.
template <class Tree>
void random_state(hodyn::test::Rng& rng, int state, hodyn::MotionDerivatives<Tree, 0>& m) {
  constexpr int kEntries = hodyn::TreeTraits<Tree>::kNumJointDofs;
  m.base_pose = rng.pose(1.0);
  for (auto& v : m.base_twist) v = rng.vec6();
  for (auto& q : m.q)
    for (int i = 0; i < kEntries; ++i) q(i) = rng.normal();
  for (std::size_t b = 0; b < m.joint_rotation.size(); ++b) {
    m.joint_rotation[b] = rng.rotation();
    if (state == 0 && b == 0)
      m.joint_rotation[b] = (Eigen::AngleAxisd(rng.normal(), Vec3::UnitX()) *
                             Eigen::AngleAxisd(0.5 * kPi, Vec3::UnitY()) *
                             Eigen::AngleAxisd(rng.normal(), Vec3::UnitZ()))
                                .toRotationMatrix();
  }
  for (int j = 1; j < Tree::kNumBodies; ++j)
    if (Tree::kJoint[static_cast<std::size_t>(j)] == JointKind::kSpherical) {
      const int e = hodyn::TreeTraits<Tree>::joint_entry(j);
      m.q[0].template segment<3>(e) = 0.3 * rng.vec3();  // δ
    }
}

/// R_j exp([δ]) of every ball, hodyn's order (what MuJoCo's quaternion holds).
template <class Tree>
std::vector<Mat3> ball_rotations(const hodyn::MotionDerivatives<Tree, 0>& m) {
  std::vector<Mat3> out;
  for (int j = 1; j < Tree::kNumBodies; ++j)
    if (Tree::kJoint[static_cast<std::size_t>(j)] == JointKind::kSpherical) {
      const int b = hodyn::TreeTraits<Tree>::kSphericalIndex[static_cast<std::size_t>(j)];
      const int e = hodyn::TreeTraits<Tree>::joint_entry(j);
      out.push_back(m.joint_rotation[static_cast<std::size_t>(b)] *
                    exp_so3(m.q[0].template segment<3>(e)));
    }
  return out;
}

template <class Tree>
Agreement compare(const mjModel* mj, const MujocoCoordinates& c,
                  const hodyn::Model<Tree, double>& model, unsigned seed) {
  constexpr int kEntries = hodyn::TreeTraits<Tree>::kNumJointDofs;
  constexpr bool kFloating = !hodyn::TreeTraits<Tree>::kFixedBase;
  const int nv = mj->nv;
  Agreement out;
  if (kFloating) out.inverse_body = out.forward_base = 0.0;
  hodyn::test::MujocoDataPtr d(mj_makeData(mj));
  auto motion = std::make_unique<hodyn::MotionDerivatives<Tree, 0>>();
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, 0>>();
  auto input = std::make_unique<hodyn::ForwardDynamicsInput<Tree, 0>>();
  auto fd = std::make_unique<hodyn::ForwardDynamicsData<Tree, 0>>();
  auto eom = std::make_unique<hodyn::EquationsOfMotionData<Tree>>();
  auto kinematics = std::make_unique<hodyn::KinematicsData<Tree, 0>>();
  const double weight = model.total_mass() * 9.81;
  hodyn::test::Rng rng(seed);
  for (int state = 0; state < kStates && out.failure.empty(); ++state) {
    auto& m = *motion;
    random_state(rng, state, m);
    const Mat3& r = m.base_pose.rotation;
    const Vec3& p = m.base_pose.translation;
    const Vec3 omega = m.base_twist[0].template head<3>();
    const Vec3 v = m.base_twist[0].template tail<3>();
    const Eigen::MatrixXd t = hodyn::test::velocity_map(c, nv, r, p);
    const Eigen::MatrixXd t_inverse = hodyn::test::velocity_map_inverse(c, nv, r, p);
    Eigen::VectorXd nu(nv), nu_dot(nv);  // a fixed base: ν = q̇, T = P (its base fields ignored)
    if constexpr (kFloating) {
      nu << m.base_twist[0], m.q[1];
      nu_dot << m.base_twist[1], m.q[2];
    } else {
      nu = m.q[1];
      nu_dot = m.q[2];
    }
    const Eigen::VectorXd t_dot_nu = hodyn::test::velocity_map_rate_times(c, nv, p, omega, v);
    const Eigen::VectorXd qpos =
        hodyn::test::mujoco_qpos(c, mj->nq, r, p, m.q[0], ball_rotations(m));

    // Inverse dynamics: (Q₁; τ) = Tᵀ qfrc_inverse.
    if (hodyn::inverse_dynamics(model, *id, m, 0) != Status::kOk) {
      out.failure = "hodyn inverse dynamics failed";
      break;
    }
    Eigen::Map<Eigen::VectorXd>(d->qpos, mj->nq) = qpos;
    Eigen::Map<Eigen::VectorXd>(d->qvel, nv) = t * nu;
    Eigen::Map<Eigen::VectorXd>(d->qacc, nv) = t * nu_dot + t_dot_nu;
    mj_inverse(mj, d.get());
    Eigen::VectorXd generalized_force(nv);
    if constexpr (kFloating)
      generalized_force << id->base_wrench[0], id->joint_torque[0];
    else
      generalized_force = id->joint_torque[0];
    out.inverse = std::max(
        out.inverse, rel_err(generalized_force, t.transpose() * Eigen::Map<const Eigen::VectorXd>(
                                                                    d->qfrc_inverse, nv)));
    if constexpr (kFloating) {            // MuJoCo's free-joint force read in the base frame:
      hodyn::Wrench<double> body_wrench;  // Ad_C₁ᵀ Q₁ = (moment about the origin; Rᵀ f)
      body_wrench << Eigen::Map<const Vec3>(d->qfrc_inverse + c.free_dof + 3),
          r.transpose() * Eigen::Map<const Vec3>(d->qfrc_inverse + c.free_dof);
      out.inverse_body = std::max(out.inverse_body, rel_err(id->base_wrench_body[0], body_wrench));
    }

    // Kinematics: hodyn's body frames are MuJoCo's (xpos, xmat after
    // mj_inverse); MuJoCo's cvel is (ω; velocity of the point at the tree's
    // subtree_com), moved to the world origin: v_O = v_c − ω × c.
    if (hodyn::forward_kinematics(model, *kinematics, m, 0) != Status::kOk) {
      out.failure = "hodyn forward kinematics failed";
      break;
    }
    for (int j = 0; j < Tree::kNumBodies; ++j) {
      const int body = mj_name2id(mj, mjOBJ_BODY, ("b" + std::to_string(j)).c_str());
      using RowMat3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
      const Mat3 xmat = Eigen::Map<const RowMat3>(d->xmat + 9 * body);
      const Vec3 xpos = Eigen::Map<const Vec3>(d->xpos + 3 * body);
      const hodyn::Pose<double>& pose = kinematics->body_pose[static_cast<std::size_t>(j)];
      out.poses =
          std::max({out.poses, (pose.rotation - xmat).norm(), (pose.translation - xpos).norm()});
      const Eigen::Map<const Eigen::Matrix<double, 6, 1>> cvel(d->cvel + 6 * body);
      const Eigen::Map<const Vec3> com(d->subtree_com + 3 * mj->body_rootid[body]);
      Eigen::Matrix<double, 6, 1> twist;
      twist << cvel.head<3>(), cvel.tail<3>() - cvel.head<3>().cross(com);
      if (j > 0 || kFloating)  // (a welded root is at rest: compare absolutely)
        out.twists = std::max(
            out.twists, rel_err(kinematics->body_twist[static_cast<std::size_t>(j)][0], twist));
      else
        out.twists = std::max(out.twists, twist.norm() + kinematics->body_twist[0][0].norm());
    }

    // Forward dynamics with random forces: qfrc_applied = T⁻ᵀ (Q₁; τ).
    auto& in = *input;
    in.base_pose = m.base_pose;
    in.base_twist = m.base_twist[0];
    in.q = m.q[0];
    in.q_dot = m.q[1];
    in.joint_rotation = m.joint_rotation;
    in.base_wrench_frame = hodyn::WrenchFrame::kWorld;
    in.base_wrench[0] = weight * rng.vec6();
    for (int i = 0; i < kEntries; ++i) in.joint_torque[0](i) = rng.normal();
    if (hodyn::forward_dynamics(model, *fd, in, 0) != Status::kOk) {
      out.failure = "hodyn forward dynamics failed";
      break;
    }
    Eigen::VectorXd force(nv);
    if constexpr (kFloating)
      force << in.base_wrench[0], in.joint_torque[0];
    else
      force = in.joint_torque[0];
    Eigen::Map<Eigen::VectorXd>(d->qpos, mj->nq) = qpos;
    Eigen::Map<Eigen::VectorXd>(d->qvel, nv) = t * nu;
    Eigen::Map<Eigen::VectorXd>(d->qfrc_applied, nv) = t_inverse.transpose() * force;
    mj_forward(mj, d.get());
    const Eigen::VectorXd acceleration =
        t_inverse * (Eigen::Map<const Eigen::VectorXd>(d->qacc, nv) - t_dot_nu);
    Eigen::VectorXd hodyn_acceleration(nv);
    if constexpr (kFloating)
      hodyn_acceleration << fd->motion.base_twist[1], fd->motion.q[2];
    else
      hodyn_acceleration = fd->motion.q[2];
    out.forward = std::max(out.forward, rel_err(hodyn_acceleration, acceleration));
    if constexpr (kFloating) {  // a base-frame wrench (n_b; f_b): (R f_b; n_b) at the free joint
      in.base_wrench_frame = hodyn::WrenchFrame::kBase;
      in.base_wrench[0] = weight * rng.vec6();
      if (hodyn::forward_dynamics(model, *fd, in, 0) != Status::kOk) {
        out.failure = "hodyn forward dynamics (base-frame wrench) failed";
        break;
      }
      Eigen::VectorXd applied = Eigen::VectorXd::Zero(nv);
      applied.segment<3>(c.free_dof) = r * in.base_wrench[0].template tail<3>();
      applied.segment<3>(c.free_dof + 3) = in.base_wrench[0].template head<3>();
      for (int i = 0; i < kEntries; ++i)
        applied(c.joint_dof[static_cast<std::size_t>(i)]) = in.joint_torque[0](i);
      Eigen::Map<Eigen::VectorXd>(d->qfrc_applied, nv) = applied;
      mj_forward(mj, d.get());
      hodyn_acceleration << fd->motion.base_twist[1], fd->motion.q[2];
      out.forward_base = std::max(
          out.forward_base,
          rel_err(hodyn_acceleration,
                  t_inverse * (Eigen::Map<const Eigen::VectorXd>(d->qacc, nv) - t_dot_nu)));
    }
    std::fill(d->qfrc_applied, d->qfrc_applied + nv, 0.0);

    // Mass matrix: qM of the last mj_forward (same qpos), M̄ = Tᵀ M' T.
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> mujoco_mass(nv, nv);
    mj_fullM(mj, mujoco_mass.data(), d->qM);
    if (hodyn::mass_matrix(model, *eom, m) != Status::kOk) {
      out.failure = "hodyn mass_matrix failed";
      break;
    }
    const Eigen::MatrixXd hodyn_mass = eom->result.mass_matrix;
    if (Eigen::LLT<Eigen::MatrixXd>(hodyn_mass).info() != Eigen::Success) {
      out.failure = "hodyn's M̄ is not positive definite";
      break;
    }
    out.mass_matrix =
        std::max(out.mass_matrix, rel_err(hodyn_mass, t.transpose() * mujoco_mass * t));
  }
  return out;
}

/// Everything MuJoCo warns about (must stay empty).
std::string& mujoco_warnings() {
  static std::string text;
  return text;
}
void record_mujoco_warning(const char* message) {
  mujoco_warnings() += message;
  mujoco_warnings() += "\n";
}

template <class Tree>
void check_robot(const char* label, unsigned seed) {
  SCOPED_TRACE(label);
  mujoco_warnings().clear();
  mju_user_warning = record_mujoco_warning;
  const std::vector<BodySpec> bodies = random_bodies<Tree>(seed);
  const std::string xml = mjcf(bodies, label);
  std::string error;
  hodyn::test::MujocoModelPtr mj = load_mjcf(xml, label, error);
  ASSERT_TRUE(mj) << error << "\n" << xml;
  auto model = std::make_unique<hodyn::Model<Tree, double>>();
  ASSERT_EQ(make_model(bodies, *model), Status::kOk);

  MujocoCoordinates coordinates;
  constexpr bool kFloating = !hodyn::TreeTraits<Tree>::kFixedBase;
  ASSERT_EQ(hodyn::test::match_joint_entries(mj.get(), "b0", entry_joint_names(bodies), coordinates,
                                             kFloating),
            "");
  ASSERT_EQ(mj->nv, (kFloating ? 6 : 0) + hodyn::TreeTraits<Tree>::kNumJointDofs);
  for (int dof = 0; dof < mj->nv; ++dof) {
    EXPECT_EQ(mj->dof_armature[dof], 0.0);
    EXPECT_EQ(mj->dof_damping[dof], 0.0);
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(model->gravity()(i), mj->opt.gravity[i]);
  const double compiled = compiled_model_difference(mj.get(), bodies);
  EXPECT_LE(compiled, 1e-14) << "MuJoCo's compiled model is not the numbers given";

  const Agreement a = compare(mj.get(), coordinates, *model, seed + 1000);
  ASSERT_EQ(a.failure, "");
  EXPECT_EQ(mujoco_warnings(), "");
  mju_user_warning = nullptr;
  const auto measured = [](double e) {
    std::array<char, 24> text{};
    if (e < 0.0) return std::string("n/a");
    std::snprintf(text.data(), text.size(), "%.2e", e);
    return std::string(text.data());
  };
  std::printf(
      "[mujoco joint kinds] %s (ν %d, %d states, max relative error): ID %.2e (base frame %s)"
      "  FD %.2e (base-frame input %s)  M %.2e  (body poses %.1e absolute, twists %.1e;"
      " MuJoCo's compiled numbers vs given: %.1e)\n",
      label, mj->nv, kStates, a.inverse, measured(a.inverse_body).c_str(), a.forward,
      measured(a.forward_base).c_str(), a.mass_matrix, a.poses, a.twists, compiled);
  EXPECT_LE(a.inverse, kTolerance);
  EXPECT_LE(a.forward, kTolerance);
  EXPECT_LE(a.mass_matrix, kTolerance);
  EXPECT_LE(a.inverse_body, kTolerance);
  EXPECT_LE(a.forward_base, kTolerance);
  EXPECT_LE(a.poses, kTolerance);
  EXPECT_LE(a.twists, kTolerance);
}

TEST(MujocoJointKinds, MujocoVersion) {
  std::printf("[mujoco joint kinds] MuJoCo %s\n", mj_versionString());
  EXPECT_EQ(mj_version(), mjVERSION_HEADER);
}

// MuJoCo's own kinematics of the two robots: a body with two hinges turns by
// Rot(e₁, θ₁) Rot(e₂, θ₂) relative to its parent (e₂ carried by the first
// rotation; not Rot(e₂, θ₂) Rot(e₁, θ₁)), a ball body by its quaternion, and
// a body's origin sits where its joint anchor, turned, puts it.
TEST(MujocoJointKinds, MujocoComposesABodysJointsInOrder) {
  double worst_universal = 0.0, worst_ball = 0.0, smallest_swapped = 1e300;
  for (const bool universal : {false, true}) {
    const std::vector<BodySpec> bodies =
        universal ? random_bodies<UniversalRobot>(2) : random_bodies<BallRobot>(1);
    std::string error;
    hodyn::test::MujocoModelPtr mj = load_mjcf(mjcf(bodies, "composition"), "composition", error);
    ASSERT_TRUE(mj) << error;
    hodyn::test::MujocoDataPtr d(mj_makeData(mj.get()));
    hodyn::test::Rng rng(3);
    for (int state = 0; state < 20; ++state) {
      for (int i = 0; i < mj->nq; ++i) d->qpos[i] = 1.5 * rng.normal();
      for (int j = 0; j < mj->njnt; ++j)  // unit quaternions for the free and ball joints
        if (mj->jnt_type[j] == mjJNT_FREE || mj->jnt_type[j] == mjJNT_BALL) {
          const int at = mj->jnt_qposadr[j] + (mj->jnt_type[j] == mjJNT_FREE ? 3 : 0);
          Eigen::Map<Eigen::Vector4d>(d->qpos + at).normalize();
        }
      mj_kinematics(mj.get(), d.get());
      for (int j = 1; j < static_cast<int>(bodies.size()); ++j) {
        const BodySpec& b = bodies[static_cast<std::size_t>(j)];
        const int body = mj_name2id(mj.get(), mjOBJ_BODY, ("b" + std::to_string(j)).c_str());
        const int parent_body =
            mj_name2id(mj.get(), mjOBJ_BODY, ("b" + std::to_string(b.parent)).c_str());
        ASSERT_GE(body, 1);
        ASSERT_EQ(mj->body_parentid[body], parent_body);
        using RowMat3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
        const Mat3 parent = Eigen::Map<const RowMat3>(d->xmat + 9 * parent_body);
        const Mat3 child = Eigen::Map<const RowMat3>(d->xmat + 9 * body);
        const Vec3 parent_pos = Eigen::Map<const Vec3>(d->xpos + 3 * parent_body);
        const Vec3 child_pos = Eigen::Map<const Vec3>(d->xpos + 3 * body);
        const int jnt = mj->body_jntadr[body];
        const double* q = d->qpos + mj->jnt_qposadr[jnt];
        Mat3 expected;
        if (b.kind == JointKind::kSpherical) {
          expected = Eigen::Quaterniond(q[0], q[1], q[2], q[3]).toRotationMatrix();
        } else if (b.kind == JointKind::kUniversal) {
          const double theta2 = d->qpos[mj->jnt_qposadr[jnt + 1]];
          const Mat3 r1 = Eigen::AngleAxisd(q[0], b.axis1).toRotationMatrix();
          const Mat3 r2 = Eigen::AngleAxisd(theta2, b.axis2).toRotationMatrix();
          expected = r1 * r2;
          smallest_swapped =
              std::min(smallest_swapped, (parent.transpose() * child - r2 * r1).norm());
        } else {
          expected = Eigen::AngleAxisd(q[0], b.axis1).toRotationMatrix();
        }
        // The anchor is fixed in the parent: p_child + R_child a = p_parent + R_parent (pos + a).
        const double position =
            (child_pos + child * b.joint_pos - parent_pos - parent * (b.pos + b.joint_pos)).norm();
        double& worst = universal ? worst_universal : worst_ball;
        worst = std::max({worst, (parent.transpose() * child - expected).norm(), position});
      }
    }
  }
  std::printf(
      "[mujoco joint kinds] MuJoCo's kinematics: two hinges = Rot(e1,θ1) Rot(e2,θ2) to %.1e, "
      "ball = its quaternion to %.1e; the swapped product is off by >= %.2f\n",
      worst_universal, worst_ball, smallest_swapped);
  EXPECT_LE(worst_universal, 1e-14);
  EXPECT_LE(worst_ball, 1e-14);
  EXPECT_GE(smallest_swapped, 1e-3);
}

TEST(MujocoJointKinds, BallJoints) { check_robot<BallRobot>("ball robot", 1); }

TEST(MujocoJointKinds, UniversalJoints) { check_robot<UniversalRobot>("universal robot", 2); }

TEST(MujocoJointKinds, BallJointsFixedBase) {
  check_robot<BallFixedRobot>("ball robot, fixed base", 4);
}

TEST(MujocoJointKinds, UniversalJointsFixedBase) {
  check_robot<UniversalFixedRobot>("universal robot, fixed base", 5);
}

}  // namespace
