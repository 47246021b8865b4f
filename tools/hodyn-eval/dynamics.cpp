// hodyn-eval — the calls into the core: the model, inverse, forward and hybrid
// dynamics and the closed-form equations of motion.
#include <algorithm>
#include <string>

#include "hodyn_eval.hpp"

namespace hodyn_eval {
namespace {

void check(hodyn::Status st, const char* what) {
  if (st != hodyn::Status::kOk) throw CoreError(std::string(what) + ": " + hodyn::to_string(st));
}

const Loads* loads_of(const State& state) { return state.has_loads ? &state.loads : nullptr; }

}  // namespace

/// The inputs shared by forward and hybrid dynamics and the linearization: the
/// state (C1, V1^(0), q^(0), q^(1)), the propulsion wrench and the joint
/// torques, each from the state or, when absent, from the inverse dynamics of
/// the state.
void fill_forward_input(const State& state, const InverseData* inverse, const char* what,
                        bool needs_base_wrench, bool needs_tau,
                        hodyn::ForwardDynamicsInput<Tree, kMaxOrder, double>& in) {
  const DynamicsInputs& given = state.inputs;
  if (((needs_base_wrench && !given.has_base_wrench) || (needs_tau && !given.has_tau)) &&
      inverse == nullptr)
    throw InputError(std::string(what) +
                     ": the round trip needs the inverse dynamics of the state");
  in.base_pose = state.motion.base_pose;
  in.base_twist = state.motion.base_twist[0];
  in.q = state.motion.q[0];
  in.q_dot = state.motion.q[1];
  for (int k = 0; k <= state.order; ++k) {
    const auto i = static_cast<std::size_t>(k);
    in.base_wrench[i] = given.has_base_wrench ? given.base_wrench[i]
                        : inverse != nullptr  ? inverse->base_wrench[i]
                                              : Wrench::Zero();
    in.joint_torque[i] = given.has_tau        ? given.tau[i]
                         : inverse != nullptr ? inverse->joint_torque[i]
                                              : JointVector::Zero();
  }
  in.base_wrench_frame =
      given.has_base_wrench ? given.base_wrench_frame : hodyn::WrenchFrame::kWorld;
}

Model make_model(double gravity) {
  Model model;
  hodyn::AerialManipulatorParameters p;
  p.gravity = gravity;
  check(hodyn::make_aerial_manipulator(model, p), "building the aerial manipulator model");
  return model;
}

void run_inverse(const Model& model, const State& state, InverseData& data) {
  check(hodyn::inverse_dynamics(model, data, state.motion, loads_of(state), state.order),
        "inverse dynamics");
}

void run_forward(const Model& model, const State& state, const InverseData* inverse,
                 ForwardData& data) {
  hodyn::ForwardDynamicsInput<Tree, kMaxOrder, double> in;
  fill_forward_input(state, inverse, "--forward", true, true, in);
  check(hodyn::forward_dynamics(model, data, in, loads_of(state), state.order), "forward dynamics");
}

void run_hybrid(const Model& model, const State& state, const InverseData* inverse,
                ForwardData& data) {
  const DynamicsInputs& given = state.inputs;
  hodyn::HybridDynamicsInput<Tree, kMaxOrder, double> in;
  const bool base_motion = given.base_input == hodyn::BaseInput::kMotion;
  fill_forward_input(state, inverse, "--hybrid", !base_motion, !given.all_prescribed(), in);
  in.base_input = given.base_input;
  for (int j = 0; j < kNumJoints; ++j)
    in.motion_prescribed[static_cast<std::size_t>(j)] =
        given.prescribed[static_cast<std::size_t>(j)];
  for (int k = 0; k <= state.order; ++k) {
    const auto i = static_cast<std::size_t>(k);
    if (base_motion) in.base_acceleration[i] = state.motion.base_twist[i + 1];
    if (given.any_prescribed()) in.joint_acceleration[i] = state.motion.q[i + 2];
  }
  check(hodyn::hybrid_dynamics(model, data, in, loads_of(state), state.order), "hybrid dynamics");
}

void run_matrices(const Model& model, const State& state, bool with_rates, EomData& data) {
  hodyn::MotionDerivatives<Tree, 1, double> motion;
  motion.base_pose = state.motion.base_pose;
  const int kin = with_rates ? 1 : 0;
  for (int k = 0; k <= kin; ++k)
    motion.base_twist[static_cast<std::size_t>(k)] =
        state.motion.base_twist[static_cast<std::size_t>(k)];
  for (int k = 0; k <= kin + 1; ++k)
    motion.q[static_cast<std::size_t>(k)] = state.motion.q[static_cast<std::size_t>(k)];
  hodyn::ExternalLoads<Tree, 1, double> loads;
  if (state.has_loads) {
    for (int j = 0; j < kNumBodies; ++j) {
      const auto b = static_cast<std::size_t>(j);
      loads.has_world_wrench[b] = state.loads.has_world_wrench[b];
      loads.has_body_wrench[b] = state.loads.has_body_wrench[b];
      for (std::size_t k = 0; k < 2; ++k) {
        loads.world_wrench[b][k] = state.loads.world_wrench[b][k];
        loads.body_wrench[b][k] = state.loads.body_wrench[b][k];
      }
    }
    for (std::size_t k = 0; k < 2; ++k) loads.joint_torque[k] = state.loads.joint_torque[k];
  }
  check(hodyn::equations_of_motion(model, data, motion, state.has_loads ? &loads : nullptr,
                                   with_rates),
        "equations of motion");
}

void run_kinematics(const Model& model, const State& state, KinematicsResults& out) {
  check(hodyn::forward_kinematics(model, out.kinematics, state.motion, state.order),
        "forward kinematics");
  check(hodyn::center_of_mass(model, out.kinematics, out.com, state.order), "centre of mass");
  for (int j = 0; j < kNumBodies; ++j) {
    const auto b = static_cast<std::size_t>(j);
    check(hodyn::spatial_jacobian(out.kinematics, j, out.jacobian[b]), "body Jacobian");
    check(hodyn::spatial_jacobian(out.kinematics, j, out.jacobian_rate[b], 1), "Jacobian rate");
  }
}

double acceleration_relative_error(const ForwardData& result, const Motion& state, int order) {
  double worst = 0.0;
  for (int k = 0; k <= order; ++k) {
    const auto v = static_cast<std::size_t>(k + 1), q = static_cast<std::size_t>(k + 2);
    const double scale =
        std::max(state.base_twist[v].cwiseAbs().maxCoeff(), state.q[q].cwiseAbs().maxCoeff());
    const double err =
        std::max((result.motion.base_twist[v] - state.base_twist[v]).cwiseAbs().maxCoeff(),
                 (result.motion.q[q] - state.q[q]).cwiseAbs().maxCoeff());
    worst = std::max(worst, err / (scale > 0 ? scale : 1.0));
  }
  return worst;
}

}  // namespace hodyn_eval
