// MuJoCo reading a URDF by itself, for tests/urdf/test_mujoco_agreement.cpp:
// the floating copy of a URDF (or, for a fixed-base arm, the URDF as it is:
// MuJoCo welds a root link without a floating joint to its world body) and its
// loading with MuJoCo's compiler settings pinned, the map between MuJoCo's and
// hodyn's generalized velocities, and the completion of MuJoCo's principal
// axes of inertia.
//
// Fixed base (JointKind::kFixedBase, ν = q̇): MuJoCo's dofs are the joints
// only, so ν' = P q̇ (P the joint permutation, by name) and every conversion is
// that permutation; the mount's wrench on the root is MuJoCo's cfrc_int of the
// root body (mj_rnePostConstraint: the force its parent, the world, exerts on
// it, (moment; force) in world axes about subtree_com of its tree's root).
//
// Velocity coordinates (the conversions every comparison goes through):
//   hodyn   ν  = (V₁; q̇), V₁ = (ω; v) the spatial base twist in world axes, v the
//               velocity of the base point at the world origin: v = ṗ − ω × p
//               (docs/design.md, core/include/hodyn/motion.hpp).
//   MuJoCo  ν' = (ṗ; ω_b; q̇') for a free joint: ṗ the velocity of the body origin in
//               world axes, ω_b = Rᵀ ω the angular velocity in body axes, then one
//               entry per hinge or slide (MuJoCo's dof order, matched by joint name),
//               three per ball: the child body's angular velocity in its own axes,
//               hodyn's ball entries of q̇ (docs/joint-kinds.md) when the MuJoCo body
//               frame is parallel to hodyn's joint frame (match_joint_entries).
// ν' = T ν with T = [−[p] 1 0; Rᵀ 0 0; 0 0 P] (P the joint permutation), so
//   qvel  = T ν,
//   qacc  = T ν̇ + Ṫ ν = T ν̇ + (ω × ṗ; 0; 0)    (d/dt(−[p]ω + v) = −ṗ × ω − p × ω̇ + v̇,
//                                               d/dt(Rᵀ)ω = −Rᵀ[ω]ω = 0),
//   force τ = Tᵀ τ'   (the power τᵀν = τ'ᵀν' for every ν; τ' = (f; m_b; τ') is MuJoCo's:
//                      world-axes force, moment about the body origin in body axes),
//   mass  M = Tᵀ M' T (the kinetic energy ½ νᵀ M ν = ½ ν'ᵀ M' ν').
// T⁻¹ = [0 R 0; 1 [p]R 0; 0 0 Pᵀ] (rows ω, v, q̇): ω = R ω_b, v = ṗ + p × ω.
//
// MuJoCo's principal axes. MuJoCo stores a body inertia as principal moments in
// a principal frame; for a URDF's full tensor it finds them with mju_eig3, a
// Jacobi iteration that stops once the next rotation would be below ~1.4e-6 rad
// (cosine > 1 − 1000·mjMINVAL) or the largest off-diagonal entry below 1e-12,
// and drops what is left off the diagonal (up to 3e-7 of the largest moment
// for the tensors of tests/urdf/data, measured: enough to move forward
// dynamics by ~1e-7 relative). finish_principal_axes() completes that
// diagonalization from the URDF's own six numbers, so that MuJoCo's model is
// the file's to rounding; see its comment.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace hodyn {
namespace test {

struct MujocoDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MujocoModelPtr = std::unique_ptr<mjModel, MujocoDeleter>;
using MujocoDataPtr = std::unique_ptr<mjData, MujocoDeleter>;

inline std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return in ? s.str() : std::string();
}

/// The URDF text with MuJoCo's own URDF extension `<mujoco><compiler …/></mujoco>`
/// added before `</robot>` (MuJoCo's parser collects links and joints wherever
/// they are), pinning every compiler setting that could change masses or
/// inertias: inertias only from <inertial> (inertiafromgeom="false"), no
/// balancing, no lower bounds on mass or inertia, no rescaling of the total
/// mass, visual geoms discarded; fusestatic as asked (true: MuJoCo lumps fixed
/// links itself; false: they stay separate bodies welded to their parents, and
/// MuJoCo's recursions carry them). With `floating` also
///  - a link named `world` (MuJoCo maps it to its world body, xml_urdf.cc);
///  - a `floating` joint from `world` to `root_link` at the identity, which
///    MuJoCo turns into a free joint, so the root link's frame is the free
///    body's frame and qpos[0..6] its pose.
/// Without it the root link has no joint and MuJoCo welds it to the world at
/// the identity (a fixed-base arm). Returns "" when the text has no `</robot>`.
inline std::string mujoco_urdf(const std::string& urdf, const std::string& root_link,
                               bool fuse_static, bool floating) {
  const std::size_t end = urdf.rfind("</robot>");
  if (end == std::string::npos) return "";
  std::string block =
      "  <mujoco>\n"
      "    <compiler inertiafromgeom=\"false\" balanceinertia=\"false\" boundmass=\"0\"\n"
      "              boundinertia=\"0\" settotalmass=\"-1\" discardvisual=\"true\"\n"
      "              fusestatic=\"" +
      std::string(fuse_static ? "true" : "false") +
      "\"/>\n"
      "  </mujoco>\n";
  if (floating)
    block +=
        "  <link name=\"world\"/>\n"
        "  <joint name=\"hodyn_floating_base\" type=\"floating\">\n"
        "    <parent link=\"world\"/>\n"
        "    <child link=\"" +
        root_link +
        "\"/>\n"
        "  </joint>\n";
  return urdf.substr(0, end) + block + urdf.substr(end);
}

/// The floating copy (mujoco_urdf with `floating`).
inline std::string floating_urdf(const std::string& urdf, const std::string& root_link,
                                 bool fuse_static) {
  return mujoco_urdf(urdf, root_link, fuse_static, true);
}

/// Switches off everything of MuJoCo's but rigid-body dynamics: contacts,
/// every constraint (joint limits, equality, frictionloss), passive forces
/// (damping, springs) and actuation. Gravity stays on.
inline void pin_rigid_body_dynamics(mjModel* m) {
  m->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_EQUALITY | mjDSBL_FRICTIONLOSS | mjDSBL_LIMIT |
                         mjDSBL_CONTACT | mjDSBL_PASSIVE | mjDSBL_ACTUATION;
}

/// Writes the copy of `urdf_path` (mujoco_urdf: floating, or as it is with
/// the compiler settings pinned) to `copy_path`, loads it with MuJoCo's URDF
/// parser and switches off everything but rigid-body dynamics: contacts, every
/// constraint (joint limits, the URDF's friction as frictionloss), passive
/// forces (the URDF's damping) and actuation (some MuJoCo versions add a motor
/// per URDF joint; 2.2.2 adds none). Gravity stays on. Null and `error` on
/// failure.
inline MujocoModelPtr load_urdf_copy(const std::string& urdf_path, const std::string& copy_path,
                                     const std::string& root_link, bool fuse_static, bool floating,
                                     std::string& error) {
  const std::string text = read_text_file(urdf_path);
  if (text.empty()) {
    error = "cannot read " + urdf_path;
    return nullptr;
  }
  const std::string copy = mujoco_urdf(text, root_link, fuse_static, floating);
  if (copy.empty()) {
    error = "no </robot> in " + urdf_path;
    return nullptr;
  }
  {
    std::ofstream out(copy_path, std::ios::binary);
    out << copy;
    if (!out) {
      error = "cannot write " + copy_path;
      return nullptr;
    }
  }
  std::array<char, 1000> message{};
  MujocoModelPtr m(
      mj_loadXML(copy_path.c_str(), nullptr, message.data(), static_cast<int>(message.size())));
  if (!m) {
    error = "mj_loadXML(" + copy_path + "): " + message.data();
    return nullptr;
  }
  pin_rigid_body_dynamics(m.get());
  return m;
}

/// The floating copy, loaded (load_urdf_copy with `floating`).
inline MujocoModelPtr load_floating_urdf(const std::string& urdf_path, const std::string& copy_path,
                                         const std::string& root_link, bool fuse_static,
                                         std::string& error) {
  return load_urdf_copy(urdf_path, copy_path, root_link, fuse_static, true, error);
}

/// Where hodyn's coordinates sit in MuJoCo's: the free joint's qpos and dof
/// addresses, and for entry l of hodyn's joint vectors (q, q̇, τ; one per
/// 1-DoF joint, so for hodyn joint i (body i + 1) of a 1-DoF tree the MuJoCo
/// joint of the same URDF name) the MuJoCo dof and qpos address. A ball's
/// three entries have its three dofs and joint_qpos −1: its configuration is
/// the quaternion at ball_qpos (hodyn's balls in their order,
/// TreeTraits::kSphericalIndex), hodyn's q[0] entries δ have no MuJoCo
/// counterpart. A universal joint's two entries are two MuJoCo hinges.
struct MujocoCoordinates {
  int free_qpos = -1;
  int free_dof = -1;
  std::vector<int> joint_qpos;
  std::vector<int> joint_dof;
  std::vector<int> ball_qpos;
};

/// match_coordinates for joints of several entries: `mujoco_joints` names, in
/// the order of hodyn's joint entries, the MuJoCo joint of each entry — a
/// hinge or slide for one entry, a ball (mjJNT_BALL, named once) for three,
/// a universal joint as its two hinges. `floating`: the free joint is
/// "hodyn_floating_base" on top-level body `root_link` and MuJoCo has no other
/// dof (nv = 6 + entries); else (a fixed base, ν = q̇) `root_link` is a
/// jointless child of the world, MuJoCo has no free joint and nv = entries
/// (free_qpos, free_dof stay −1, and T below is the permutation P). "" on
/// success, else what does not match.
inline std::string match_joint_entries(const mjModel* m, const std::string& root_link,
                                       const std::vector<std::string>& mujoco_joints,
                                       MujocoCoordinates& out, bool floating = true) {
  out = MujocoCoordinates{};
  const int root_body = mj_name2id(m, mjOBJ_BODY, root_link.c_str());
  if (root_body < 0 || m->body_parentid[root_body] != 0) return "no top-level body " + root_link;
  if (floating) {
    const int free_joint = mj_name2id(m, mjOBJ_JOINT, "hodyn_floating_base");
    if (free_joint < 0 || m->jnt_type[free_joint] != mjJNT_FREE) return "no free joint";
    if (m->jnt_bodyid[free_joint] != root_body)
      return "the free joint is not on top-level body " + root_link;
    out.free_qpos = m->jnt_qposadr[free_joint];
    out.free_dof = m->jnt_dofadr[free_joint];
  } else {
    if (m->body_jntnum[root_body] != 0) return "body " + root_link + " is not welded to the world";
    for (int j = 0; j < m->njnt; ++j)
      if (m->jnt_type[j] == mjJNT_FREE) return "MuJoCo has a free joint";
  }
  int balls = 0;
  for (const std::string& name : mujoco_joints) {
    const int j = mj_name2id(m, mjOBJ_JOINT, name.c_str());
    if (j < 0) return "MuJoCo has no joint " + name;
    if (m->jnt_type[j] == mjJNT_BALL) {
      for (int a = 0; a < 3; ++a) {
        out.joint_qpos.push_back(-1);
        out.joint_dof.push_back(m->jnt_dofadr[j] + a);
      }
      out.ball_qpos.push_back(m->jnt_qposadr[j]);
      ++balls;
      continue;
    }
    if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE)
      return "joint " + name + " is neither hinge, slide nor ball in MuJoCo";
    out.joint_qpos.push_back(m->jnt_qposadr[j]);
    out.joint_dof.push_back(m->jnt_dofadr[j]);
  }
  const int entries = static_cast<int>(out.joint_dof.size());
  const int base = floating ? 6 : 0;
  if (m->nv != base + entries || m->nq != (floating ? 7 : 0) + entries + balls)
    return "MuJoCo has nq = " + std::to_string(m->nq) + ", nv = " + std::to_string(m->nv) +
           ", hodyn " + std::to_string(entries) + " joint entries";
  return "";
}

/// Matches joints by name; "" on success, else what does not match (a hodyn
/// joint MuJoCo lacks, a joint type other than hinge/slide, a MuJoCo dof hodyn
/// lacks, the free joint not on the body named `root_link`).
template <std::size_t N>
std::string match_coordinates(const mjModel* m, const std::string& root_link,
                              const std::array<const char*, N>& hodyn_joint_names,
                              MujocoCoordinates& out) {
  out = MujocoCoordinates{};
  const int free_joint = mj_name2id(m, mjOBJ_JOINT, "hodyn_floating_base");
  if (free_joint < 0 || m->jnt_type[free_joint] != mjJNT_FREE) return "no free joint";
  const int root_body = mj_name2id(m, mjOBJ_BODY, root_link.c_str());
  if (root_body < 0 || m->jnt_bodyid[free_joint] != root_body || m->body_parentid[root_body] != 0)
    return "the free joint is not on top-level body " + root_link;
  out.free_qpos = m->jnt_qposadr[free_joint];
  out.free_dof = m->jnt_dofadr[free_joint];
  for (const char* name : hodyn_joint_names) {
    const int j = mj_name2id(m, mjOBJ_JOINT, name);
    if (j < 0) return std::string("MuJoCo has no joint ") + name;
    if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE)
      return std::string("joint ") + name + " is neither hinge nor slide in MuJoCo";
    out.joint_qpos.push_back(m->jnt_qposadr[j]);
    out.joint_dof.push_back(m->jnt_dofadr[j]);
  }
  if (m->nv != 6 + static_cast<int>(N) || m->nq != 7 + static_cast<int>(N))
    return "MuJoCo has nq = " + std::to_string(m->nq) + ", nv = " + std::to_string(m->nv) +
           ", hodyn " + std::to_string(N) + " joints";
  return "";
}

/// The fixed-base counterpart of match_coordinates (free_qpos, free_dof stay
/// −1): no free joint, nq = nv = N (MuJoCo welded the root, it added no dof),
/// each hodyn joint the hinge or slide of its name, and `root_body` the MuJoCo
/// body of `root_link` — a child of the world body without a joint — or −1
/// when MuJoCo fused it into the world (fusestatic). "" on success.
template <std::size_t N>
std::string match_fixed_coordinates(const mjModel* m, const std::string& root_link,
                                    const std::array<const char*, N>& hodyn_joint_names,
                                    MujocoCoordinates& out, int& root_body) {
  out = MujocoCoordinates{};
  root_body = mj_name2id(m, mjOBJ_BODY, root_link.c_str());
  for (int j = 0; j < m->njnt; ++j)
    if (m->jnt_type[j] == mjJNT_FREE || m->jnt_type[j] == mjJNT_BALL)
      return "MuJoCo has a free or ball joint";
  if (m->nq != static_cast<int>(N) || m->nv != static_cast<int>(N))
    return "MuJoCo has nq = " + std::to_string(m->nq) + ", nv = " + std::to_string(m->nv) +
           ", hodyn " + std::to_string(N) + " joints (the root is not welded)";
  if (root_body >= 0 && (m->body_parentid[root_body] != 0 || m->body_jntnum[root_body] != 0))
    return "body " + root_link + " is not welded to the world body";
  for (const char* name : hodyn_joint_names) {
    const int j = mj_name2id(m, mjOBJ_JOINT, name);
    if (j < 0) return std::string("MuJoCo has no joint ") + name;
    if (m->jnt_type[j] != mjJNT_HINGE && m->jnt_type[j] != mjJNT_SLIDE)
      return std::string("joint ") + name + " is neither hinge nor slide in MuJoCo";
    out.joint_qpos.push_back(m->jnt_qposadr[j]);
    out.joint_dof.push_back(m->jnt_dofadr[j]);
  }
  return "";
}

/// The mount's wrench on MuJoCo body `root_body` (a child of the world) after
/// mj_rnePostConstraint, in hodyn's convention: (moment about the world origin;
/// force), world axes. cfrc_int is (moment about c; force) with c =
/// subtree_com of the body's tree root (here the body itself), so n_O = n_c + c × f.
inline Eigen::Matrix<double, 6, 1> mujoco_mount_wrench(const mjModel* m, const mjData* d,
                                                       int root_body) {
  const Eigen::Map<const Eigen::Matrix<double, 6, 1>> w(d->cfrc_int + 6 * root_body);
  const Eigen::Map<const Eigen::Vector3d> c(d->subtree_com + 3 * m->body_rootid[root_body]);
  Eigen::Matrix<double, 6, 1> out;
  out << w.head<3>() + c.cross(w.tail<3>()), w.tail<3>();
  return out;
}

inline Eigen::Matrix3d skew3(const Eigen::Vector3d& a) {
  Eigen::Matrix3d s;
  s << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return s;
}

/// T with ν' = T ν (see the top of this file) for base pose (R, p); without
/// a free joint (free_dof −1, a fixed base: ν = q̇) T = P.
inline Eigen::MatrixXd velocity_map(const MujocoCoordinates& c, int nv, const Eigen::Matrix3d& r,
                                    const Eigen::Vector3d& p) {
  Eigen::MatrixXd t = Eigen::MatrixXd::Zero(nv, nv);
  const int base = c.free_dof >= 0 ? 6 : 0;
  if (c.free_dof >= 0) {
    t.block<3, 3>(c.free_dof, 0) = -skew3(p);  // ṗ = −p × ω + v
    t.block<3, 3>(c.free_dof, 3) = Eigen::Matrix3d::Identity();
    t.block<3, 3>(c.free_dof + 3, 0) = r.transpose();  // ω_b = Rᵀ ω
  }
  for (std::size_t i = 0; i < c.joint_dof.size(); ++i)
    t(c.joint_dof[i], base + static_cast<int>(i)) = 1.0;  // q̇' = P q̇
  return t;
}

/// T⁻¹ (see the top of this file).
inline Eigen::MatrixXd velocity_map_inverse(const MujocoCoordinates& c, int nv,
                                            const Eigen::Matrix3d& r, const Eigen::Vector3d& p) {
  Eigen::MatrixXd t = Eigen::MatrixXd::Zero(nv, nv);
  const int base = c.free_dof >= 0 ? 6 : 0;
  if (c.free_dof >= 0) {
    t.block<3, 3>(0, c.free_dof + 3) = r;                        // ω = R ω_b
    t.block<3, 3>(3, c.free_dof) = Eigen::Matrix3d::Identity();  // v = ṗ + p × R ω_b
    t.block<3, 3>(3, c.free_dof + 3) = skew3(p) * r;
  }
  for (std::size_t i = 0; i < c.joint_dof.size(); ++i)
    t(base + static_cast<int>(i), c.joint_dof[i]) = 1.0;
  return t;
}

/// MuJoCo's qpos of a hodyn configuration: free joint (p; quaternion w x y z
/// of R), then each joint's q at its MuJoCo address (hinge angle or slide
/// displacement along the URDF axis, the sign of the URDF and of hodyn), and
/// each ball's rotation (`ball_rotations`, hodyn's order: R_j exp([δ]) of the
/// configuration) as its quaternion; a ball's entries of q are skipped.
inline Eigen::VectorXd mujoco_qpos(const MujocoCoordinates& c, int nq, const Eigen::Matrix3d& r,
                                   const Eigen::Vector3d& p, const Eigen::VectorXd& q,
                                   const std::vector<Eigen::Matrix3d>& ball_rotations = {}) {
  Eigen::VectorXd qpos = Eigen::VectorXd::Zero(nq);
  const auto put_quaternion = [&qpos](int at, const Eigen::Matrix3d& rotation) {
    const Eigen::Quaterniond quat(rotation);
    qpos(at) = quat.w();
    qpos(at + 1) = quat.x();
    qpos(at + 2) = quat.y();
    qpos(at + 3) = quat.z();
  };
  if (c.free_qpos >= 0) {  // (nothing for a fixed base)
    qpos.segment<3>(c.free_qpos) = p;
    put_quaternion(c.free_qpos + 3, r);
  }
  for (std::size_t i = 0; i < c.joint_qpos.size(); ++i)
    if (c.joint_qpos[i] >= 0) qpos(c.joint_qpos[i]) = q(static_cast<Eigen::Index>(i));
  for (std::size_t b = 0; b < c.ball_qpos.size() && b < ball_rotations.size(); ++b)
    put_quaternion(c.ball_qpos[b], ball_rotations[b]);
  return qpos;
}

/// Ṫ ν = (ω × ṗ; 0; 0) at the free joint's dofs, ṗ = v + ω × p (zero
/// without a free joint).
inline Eigen::VectorXd velocity_map_rate_times(const MujocoCoordinates& c, int nv,
                                               const Eigen::Vector3d& p,
                                               const Eigen::Vector3d& omega,
                                               const Eigen::Vector3d& v) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(nv);
  const Eigen::Vector3d p_dot = v + omega.cross(p);
  if (c.free_dof >= 0) out.segment<3>(c.free_dof) = omega.cross(p_dot);
  return out;
}

// ---- a plain text scan of the URDF's inertial numbers (not hodyn-urdf) ----

/// The text without XML comments.
inline std::string without_comments(std::string text) {
  for (std::size_t a = text.find("<!--"); a != std::string::npos; a = text.find("<!--", a)) {
    const std::size_t b = text.find("-->", a);
    text.erase(a, b == std::string::npos ? std::string::npos : b + 3 - a);
  }
  return text;
}

/// The value of attribute `key` in the tag text `tag` (quoted with " or '),
/// as a double; false when absent or not a number.
inline bool attribute_number(const std::string& tag, const std::string& key, double& out) {
  for (std::size_t at = tag.find(key); at != std::string::npos; at = tag.find(key, at + 1)) {
    if (at == 0 || !std::isspace(static_cast<unsigned char>(tag[at - 1]))) continue;
    std::size_t i = at + key.size();
    while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
    if (i >= tag.size() || tag[i] != '=') continue;
    ++i;
    while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
    if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) continue;
    const std::size_t end = tag.find(tag[i], i + 1);
    if (end == std::string::npos) return false;
    const std::string value = tag.substr(i + 1, end - i - 1);
    char* stop = nullptr;
    out = std::strtod(value.c_str(), &stop);
    return stop != value.c_str();
  }
  return false;
}

/// The text of the first tag `<name …>` (name followed by white space) in `body`, or "".
inline std::string first_tag(const std::string& body, const std::string& name) {
  const std::string open = "<" + name;
  for (std::size_t a = body.find(open); a != std::string::npos; a = body.find(open, a + 1)) {
    const std::size_t after = a + open.size();
    if (after < body.size() && std::isspace(static_cast<unsigned char>(body[after])))
      return body.substr(a, body.find('>', a) - a);
  }
  return "";
}

/// One URDF link's inertial numbers as written: mass and (ixx, iyy, izz, ixy, ixz, iyz).
struct UrdfInertial {
  std::string link;
  double mass = 0.0;
  std::array<double, 6> inertia{};
};

/// The links that have an <inertial>, in file order. `error` names the first
/// link whose <mass> or <inertia> cannot be read.
inline std::vector<UrdfInertial> urdf_inertials(const std::string& urdf, std::string& error) {
  const std::string text = without_comments(urdf);
  std::vector<UrdfInertial> out;
  for (std::size_t a = text.find("<link"); a != std::string::npos; a = text.find("<link", a + 1)) {
    const std::size_t tag_end = text.find('>', a);
    if (tag_end == std::string::npos) break;
    const std::string tag = text.substr(a, tag_end - a);
    if (tag.size() < 6 || !std::isspace(static_cast<unsigned char>(tag[5])) || tag.back() == '/')
      continue;  // <linkfoo …>, or an empty <link …/>
    const std::size_t close = text.find("</link>", tag_end);
    const std::string body = text.substr(tag_end, close - tag_end);
    const std::size_t n0 = tag.find("name");
    const std::size_t q0 = tag.find_first_of("\"'", n0);
    UrdfInertial link;
    link.link = tag.substr(q0 + 1, tag.find(tag[q0], q0 + 1) - q0 - 1);
    if (first_tag(body, "inertial").empty() && body.find("<inertial>") == std::string::npos)
      continue;
    const std::string mass = first_tag(body, "mass");
    const std::string inertia = first_tag(body, "inertia");
    static const char* const kKeys[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
    bool ok = attribute_number(mass, "value", link.mass);
    for (int i = 0; i < 6; ++i) ok = ok && attribute_number(inertia, kKeys[i], link.inertia[i]);
    if (!ok) {
      error = "cannot read the <inertial> of link " + link.link;
      return {};
    }
    out.push_back(link);
  }
  return out;
}

/// What finish_principal_axes() did.
struct PrincipalAxesCompletion {
  int bodies = 0;                 ///< bodies whose inertia was completed
  double largest_dropped = 0.0;   ///< max |off-diagonal| MuJoCo dropped / its largest moment
  double largest_rotation = 0.0;  ///< max angle (rad) of the completing rotation
  std::string error;
};

/// Completes MuJoCo's diagonalization of every URDF inertia tensor, body by
/// body (the model must be loaded with fusestatic="false", so that each URDF
/// link with an <inertial> is the MuJoCo body of its name). For link tensor I
/// (the file's six numbers, in the <inertial> origin frame):
///  1. mju_eig3(I) → (λ, V) is exactly what MuJoCo's compiler computed; λ must
///     equal m->body_inertia bit for bit (so both read the same numbers), and
///     m->body_iquat = q_rpy ⊗ q(V) with q_rpy MuJoCo's reading of the rpy;
///  2. D = Vᵀ I V is diagonal up to what MuJoCo dropped; cyclic Jacobi
///     rotations (to exact zeros off the diagonal) give D = W Λ Wᵀ, W ≈ 1;
///  3. body_iquat ← body_iquat ⊗ q(W), body_inertia ← Λ, so that
///     q_rpy V W Λ (q_rpy V W)ᵀ = q_rpy I q_rpyᵀ: the file's tensor.
/// MuJoCo's reading of everything else — the rpy of the inertial origin, the
/// centre of mass, the mass, the frames, the joints — is left as it is.
inline PrincipalAxesCompletion finish_principal_axes(mjModel* m, const std::string& urdf) {
  PrincipalAxesCompletion result;
  const std::vector<UrdfInertial> links = urdf_inertials(urdf, result.error);
  if (!result.error.empty()) return result;
  using Mat3R = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;  // MuJoCo's 3x3 layout
  for (const UrdfInertial& link : links) {
    const int b = mj_name2id(m, mjOBJ_BODY, link.link.c_str());
    if (b < 0) {
      result.error = "MuJoCo has no body " + link.link + " (fusestatic must be false)";
      return result;
    }
    const auto& t = link.inertia;
    Mat3R tensor;
    tensor << t[0], t[3], t[4], t[3], t[1], t[5], t[4], t[5], t[2];
    if (tensor.isZero(0.0)) continue;  // a massless frame: nothing to diagonalize
    std::array<mjtNum, 3> eigval{};
    std::array<mjtNum, 9> eigvec{};
    std::array<mjtNum, 4> quat{};
    mju_eig3(eigval.data(), eigvec.data(), quat.data(), tensor.data());
    for (int i = 0; i < 3; ++i)
      if (eigval[static_cast<std::size_t>(i)] != m->body_inertia[3 * b + i]) {
        result.error =
            "MuJoCo's principal moments of " + link.link + " are not mju_eig3 of the file's tensor";
        return result;
      }
    const Eigen::Matrix3d v = Eigen::Map<const Mat3R>(eigvec.data());
    Eigen::Matrix3d d = v.transpose() * tensor * v;
    d = 0.5 * (d + d.transpose()).eval();
    const double largest = d.diagonal().cwiseAbs().maxCoeff();
    result.largest_dropped = std::max({result.largest_dropped, std::abs(d(0, 1)) / largest,
                                       std::abs(d(0, 2)) / largest, std::abs(d(1, 2)) / largest});
    Eigen::Matrix3d w = Eigen::Matrix3d::Identity();
    for (int sweep = 0; sweep < 16 && !d.isDiagonal(0.0); ++sweep) {
      for (int p = 0; p < 2; ++p)
        for (int q = p + 1; q < 3; ++q) {
          if (std::abs(d(p, q)) <= 1e-18 * largest) {  // far below the diagonal's rounding
            d(p, q) = d(q, p) = 0.0;
            continue;
          }
          // Rotation G in the (p, q) plane with (Gᵀ D G)_pq = 0 (the smaller root).
          const double theta = (d(q, q) - d(p, p)) / (2.0 * d(p, q));
          const double tan =
              (theta >= 0.0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
          const double cos = 1.0 / std::sqrt(tan * tan + 1.0);
          Eigen::Matrix3d g = Eigen::Matrix3d::Identity();
          g(p, p) = g(q, q) = cos;
          g(p, q) = tan * cos;
          g(q, p) = -tan * cos;
          d = (g.transpose() * d * g).eval();
          d(p, q) = d(q, p) = 0.0;
          w = (w * g).eval();
        }
    }
    if (!d.isDiagonal(0.0)) {
      result.error = "Jacobi rotations did not converge for " + link.link;
      return result;
    }
    const Eigen::Quaterniond q_mj(m->body_iquat[4 * b], m->body_iquat[4 * b + 1],
                                  m->body_iquat[4 * b + 2], m->body_iquat[4 * b + 3]);
    const Eigen::Quaterniond q_new =
        Eigen::Quaterniond(q_mj.normalized().toRotationMatrix() * w).normalized();
    m->body_iquat[4 * b] = q_new.w();
    m->body_iquat[4 * b + 1] = q_new.x();
    m->body_iquat[4 * b + 2] = q_new.y();
    m->body_iquat[4 * b + 3] = q_new.z();
    for (int i = 0; i < 3; ++i) m->body_inertia[3 * b + i] = d(i, i);
    result.largest_rotation = std::max(result.largest_rotation, Eigen::AngleAxisd(w).angle());
    ++result.bodies;
  }
  return result;
}

/// Σ of the <mass> values of the URDF's links (read from the text).
inline double urdf_total_mass(const std::string& urdf, std::string& error) {
  double total = 0.0;
  for (const UrdfInertial& link : urdf_inertials(urdf, error)) total += link.mass;
  return total;
}

}  // namespace test
}  // namespace hodyn
