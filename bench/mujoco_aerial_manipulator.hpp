// mujoco_aerial_manipulator.hpp — the aerial manipulator in MuJoCo
// (bench/aerial_manipulator.xml) and the conversions between hodyn's and
// MuJoCo's conventions, for bench_mujoco.cpp and the bench_model ctest check
// (mujoco_model_check.cpp).
//
// Conventions. hodyn: base pose C₁ = (R, p); spatial base twist V₁ = (ω; v),
// world axes, v = ṗ − ω × p (velocity of the body point at the world origin);
// base wrench Q₁ = (n; f), world axes, moment about the world origin; its
// base-frame form Ad_C₁ᵀ Q₁ = (Rᵀ(n − p × f); Rᵀ f). MuJoCo's free joint:
// qpos = (p, quaternion w x y z), qvel = (ṗ in world axes, ω in BODY axes),
// qacc = d/dt qvel, generalized force = (f in world axes, moment about the
// body origin in body axes). So
//   qvel = (v + ω × p, Rᵀ ω),
//   qacc = (v̇ + ω̇ × p + ω × ṗ, Rᵀ ω̇)      (d/dt (Rᵀ ω) = Rᵀ ω̇: Ṙᵀ ω = −Rᵀ[ω]ω = 0),
//   qfrc = (R · (Ad_C₁ᵀ Q₁).f, (Ad_C₁ᵀ Q₁).n),
// and the six hinges map one to one (q, q̇, q̈, τ), in hodyn's body order.
#pragma once

#include <mujoco/mujoco.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <random>
#include <string>

#include <hodyn/hodyn.hpp>

namespace hodyn_bench {

inline constexpr int kMujocoNq = 13;  // free joint 7 + 6 hinges
inline constexpr int kMujocoNv = 12;

/// One state in MuJoCo's coordinates.
struct MujocoState {
  std::array<double, kMujocoNq> qpos{};
  std::array<double, kMujocoNv> qvel{};
  std::array<double, kMujocoNv> qacc{};
};

/// hodyn motion (orders 0..2 are read) → MuJoCo qpos, qvel, qacc.
template <class Motion>
MujocoState to_mujoco(const Motion& m) {
  MujocoState s;
  const Eigen::Matrix3d& R = m.base_pose.rotation;
  const Eigen::Vector3d p = m.base_pose.translation;
  const Eigen::Vector3d omega = m.base_twist[0].template head<3>();
  const Eigen::Vector3d v = m.base_twist[0].template tail<3>();
  const Eigen::Vector3d omega_dot = m.base_twist[1].template head<3>();
  const Eigen::Vector3d v_dot = m.base_twist[1].template tail<3>();
  const Eigen::Quaterniond quat(R);
  const Eigen::Vector3d p_dot = v + omega.cross(p);
  const Eigen::Vector3d p_ddot = v_dot + omega_dot.cross(p) + omega.cross(p_dot);
  const Eigen::Vector3d omega_body = R.transpose() * omega;
  const Eigen::Vector3d omega_dot_body = R.transpose() * omega_dot;
  for (int i = 0; i < 3; ++i) {
    s.qpos[static_cast<std::size_t>(i)] = p(i);
    s.qvel[static_cast<std::size_t>(i)] = p_dot(i);
    s.qvel[static_cast<std::size_t>(3 + i)] = omega_body(i);
    s.qacc[static_cast<std::size_t>(i)] = p_ddot(i);
    s.qacc[static_cast<std::size_t>(3 + i)] = omega_dot_body(i);
  }
  s.qpos[3] = quat.w();
  s.qpos[4] = quat.x();
  s.qpos[5] = quat.y();
  s.qpos[6] = quat.z();
  for (int j = 0; j < 6; ++j) {
    s.qpos[static_cast<std::size_t>(7 + j)] = m.q[0](j);
    s.qvel[static_cast<std::size_t>(6 + j)] = m.q[1](j);
    s.qacc[static_cast<std::size_t>(6 + j)] = m.q[2](j);
  }
  return s;
}

/// hodyn order-0 inverse-dynamics result → MuJoCo generalized force.
template <class Data>
std::array<double, kMujocoNv> to_mujoco_force(const Eigen::Matrix3d& base_rotation,
                                              const Data& data) {
  std::array<double, kMujocoNv> f{};
  const auto& body = data.base_wrench_body[0];
  const Eigen::Vector3d force_world = base_rotation * body.template tail<3>();
  for (int i = 0; i < 3; ++i) {
    f[static_cast<std::size_t>(i)] = force_world(i);
    f[static_cast<std::size_t>(3 + i)] = body(i);
  }
  for (int j = 0; j < 6; ++j) f[static_cast<std::size_t>(6 + j)] = data.joint_torque[0](j);
  return f;
}

inline void load_state(const mjModel* model, mjData* data, const MujocoState& s) {
  std::copy(s.qpos.begin(), s.qpos.end(), data->qpos);
  std::copy(s.qvel.begin(), s.qvel.end(), data->qvel);
  std::copy(s.qacc.begin(), s.qacc.end(), data->qacc);
  (void)model;
}

struct MujocoDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MujocoModelPtr = std::unique_ptr<mjModel, MujocoDeleter>;
using MujocoDataPtr = std::unique_ptr<mjData, MujocoDeleter>;

/// Loads the MJCF; on failure returns null and sets `error`.
inline MujocoModelPtr load_mujoco_model(const char* path, std::string& error) {
  std::array<char, 1000> message{};
  MujocoModelPtr m(mj_loadXML(path, nullptr, message.data(), static_cast<int>(message.size())));
  if (!m)
    error = std::string("mj_loadXML(") + path + "): " + message.data();
  else if (m->nq != kMujocoNq || m->nv != kMujocoNv)
    error = "unexpected nq/nv in " + std::string(path);
  return m;
}

/// Agreement of the MJCF with hodyn's model, to `tolerance` (absolute, SI):
/// total mass 4 kg; hover at rest = 39.24 N on the free joint's z; inverse
/// dynamics (mj_inverse vs hodyn order 0) and forward dynamics (mj_forward with
/// hodyn's forces applied gives back the accelerations) at 64 random states.
/// Returns "" when everything agrees, else what disagrees. `worst` gets the
/// largest deviation seen.
inline std::string check_mujoco_model(const mjModel* model, double tolerance, double& worst) {
  worst = 0.0;
  MujocoDataPtr data(mj_makeData(model));
  auto hodyn_model = std::make_unique<hodyn::AerialManipulatorModel<double>>();
  if (hodyn::make_aerial_manipulator(*hodyn_model) != hodyn::Status::kOk) return "hodyn model";
  using Tree = hodyn::AerialManipulatorTree;
  auto id = std::make_unique<hodyn::InverseDynamicsData<Tree, 0>>();

  double total_mass = 0.0;
  for (int b = 0; b < model->nbody; ++b) total_mass += model->body_mass[b];
  worst = std::max(worst, std::abs(total_mass - 4.0));
  if (!(std::abs(total_mass - 4.0) <= tolerance))
    return "total mass " + std::to_string(total_mass) + " kg, expected 4";

  // Hover at rest, home pose.
  mj_resetData(model, data.get());
  mj_inverse(model, data.get());
  for (int i = 0; i < kMujocoNv; ++i) {
    const double expected = i == 2 ? 4.0 * 9.81 : 0.0;
    const double deviation = std::abs(data->qfrc_inverse[i] - expected);
    worst = std::max(worst, deviation);
    if (!(deviation <= tolerance))
      return "hover: qfrc_inverse[" + std::to_string(i) +
             "] = " + std::to_string(data->qfrc_inverse[i]);
  }

  // Random states (same distribution as the benchmark pool, own seed).
  std::mt19937_64 rng(20240611);
  std::normal_distribution<double> normal(0.0, 1.0);
  hodyn::MotionDerivatives<Tree, 0> m;
  for (int trial = 0; trial < 64; ++trial) {
    Eigen::Quaterniond quat(normal(rng), normal(rng), normal(rng), normal(rng));
    quat.normalize();
    m.base_pose.rotation = quat.toRotationMatrix();
    for (int i = 0; i < 3; ++i) m.base_pose.translation(i) = normal(rng);
    for (auto& v : m.base_twist)
      for (int i = 0; i < 6; ++i) v(i) = normal(rng);
    for (auto& q : m.q)
      for (int i = 0; i < 6; ++i) q(i) = normal(rng);
    if (hodyn::inverse_dynamics(*hodyn_model, *id, m, 0) != hodyn::Status::kOk)
      return "hodyn ID failed";
    const MujocoState s = to_mujoco(m);
    const auto expected_force = to_mujoco_force(m.base_pose.rotation, *id);

    load_state(model, data.get(), s);
    mj_inverse(model, data.get());
    for (int i = 0; i < kMujocoNv; ++i) {
      const double deviation =
          std::abs(data->qfrc_inverse[i] - expected_force[static_cast<std::size_t>(i)]);
      worst = std::max(worst, deviation);
      if (!(deviation <= tolerance))
        return "mj_inverse vs hodyn: state " + std::to_string(trial) + ", dof " +
               std::to_string(i) + ": " + std::to_string(data->qfrc_inverse[i]) + " vs " +
               std::to_string(expected_force[static_cast<std::size_t>(i)]);
    }

    load_state(model, data.get(), s);
    std::copy(expected_force.begin(), expected_force.end(), data->qfrc_applied);
    mj_forward(model, data.get());
    std::fill(data->qfrc_applied, data->qfrc_applied + kMujocoNv, 0.0);
    for (int i = 0; i < kMujocoNv; ++i) {
      const double deviation = std::abs(data->qacc[i] - s.qacc[static_cast<std::size_t>(i)]);
      worst = std::max(worst, deviation);
      if (!(deviation <= tolerance))
        return "mj_forward vs hodyn: state " + std::to_string(trial) + ", dof " +
               std::to_string(i) + ": " + std::to_string(data->qacc[i]) + " vs " +
               std::to_string(s.qacc[static_cast<std::size_t>(i)]);
    }
  }
  return "";
}

}  // namespace hodyn_bench
