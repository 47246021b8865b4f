// hodyn-eval — shared declarations of the command-line tool.
//
// The tool reads a state of the 12-DoF aerial manipulator as JSON
// (docs/state-format.md), runs the core's inverse, forward and hybrid dynamics
// and the closed-form equations of motion, and prints the results as JSON. It
// is a desktop tool: std::string, std::vector and exceptions are used freely
// here (never in the core).
//
// Layout: state_json.cpp (parse_state / print_result / print_state),
// dynamics.cpp (make_model and the run_* wrappers of the core), linearization.cpp
// (--linearize: A and B of issue 17), regressor.cpp (--regressor: π and Y^(k)
// of issue 18), demo.cpp (the Table 3 demo state, --demo, --sizes), main.cpp
// (options).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include <hodyn/center_of_mass.hpp>
#include <hodyn/hodyn.hpp>
#include <hodyn/inertial_parameters.hpp>
#include <hodyn/inverse_dynamics_regressor.hpp>
#include <hodyn/jacobians.hpp>
#include <hodyn/kinematics.hpp>
#include <hodyn/linearization.hpp>

namespace hodyn_eval {

/// Highest derivative order compiled into the tool (the core's benchmarks and
/// oracles go to 10 as well).
inline constexpr int kMaxOrder = 10;

using Tree = hodyn::AerialManipulatorTree;
using Model = hodyn::AerialManipulatorModel<double>;
using Motion = hodyn::MotionDerivatives<Tree, kMaxOrder, double>;
using Loads = hodyn::ExternalLoads<Tree, kMaxOrder, double>;
using InverseData = hodyn::InverseDynamicsData<Tree, kMaxOrder, double>;
using ForwardData = hodyn::ForwardDynamicsData<Tree, kMaxOrder, double>;  // also hybrid
using EomData = hodyn::EquationsOfMotionData<Tree, double>;
using LinearizationData = hodyn::LinearizationData<Tree, double>;     // A, B and workspace
using Linearization = hodyn::Linearization<Tree, double>;             // A 24x24, B 24x12
using RegressorData = hodyn::RegressorData<Tree, kMaxOrder, double>;  // Y^(k) 12x70 + workspace
using Parameters = hodyn::ModelParameters<Tree, double>;              // π, 70 entries
using JointVector = Model::JointVector;
using Wrench = hodyn::Wrench<double>;

inline constexpr int kNumBodies = Tree::kNumBodies;  // hodyn body j = paper body j + 1
inline constexpr int kNumJoints = kNumBodies - 1;

/// Bad input: usage, JSON syntax, missing keys, wrong lengths… (exit code 2).
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The core returned a Status other than kOk (exit code 3).
struct CoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What to evaluate besides the inverse dynamics (command-line options).
struct Request {
  bool forward = false;     ///< --forward
  bool hybrid = false;      ///< --hybrid (hodyn extension)
  bool matrices = false;    ///< --matrices (hodyn extension)
  bool kinematics = false;  ///< --kinematics (hodyn extension)
  bool linearize = false;   ///< --linearize (issue 17: A and B)
  bool regressor = false;   ///< --regressor (issue 18 item 6: π and Y^(0..R))
  bool any() const { return forward || hybrid || matrices || kinematics || linearize || regressor; }
};

/// Inputs of forward / hybrid dynamics read from the state (missing ones are
/// taken from the inverse dynamics of the same state: a round trip).
struct DynamicsInputs {
  bool has_base_wrench = false;  ///< "W_prop" or "W_prop_body" given
  hodyn::WrenchFrame base_wrench_frame = hodyn::WrenchFrame::kWorld;
  std::array<Wrench, kMaxOrder + 1> base_wrench;  ///< Q1^(k) or d^k/dt^k (Ad_C1^T Q1)
  bool has_tau = false;                           ///< "tau" given
  std::array<JointVector, kMaxOrder + 1> tau;     ///< tau^(k)
  /// hybrid: prescribed[j-1] for hodyn joint j (paper body j+1) from "prescribed_joints".
  std::array<bool, kNumJoints> prescribed{};
  hodyn::BaseInput base_input = hodyn::BaseInput::kWrench;  ///< hybrid: "base_input"

  DynamicsInputs() {
    for (auto& w : base_wrench) w.setZero();
    for (auto& t : tau) t.setZero();
  }
  bool all_prescribed() const {
    for (bool p : prescribed)
      if (!p) return false;
    return true;
  }
  bool any_prescribed() const {
    for (bool p : prescribed)
      if (p) return true;
    return false;
  }
};

/// A parsed state: everything one evaluation needs.
struct State {
  int order = 0;          ///< derivative order R to evaluate
  double gravity = 9.81;  ///< model gravity g, G0 = (0,0,0, 0,0,−g)
  Motion motion;          ///< C1, V1^(0..R+1), q^(0..R+2)
  /// The state holds V1^(0..R+1) and q^(0..R+2), so that the inverse dynamics
  /// can run (--forward with W_prop and tau given needs only V1^(0), q^(0..1)).
  bool full_motion = true;
  Loads loads;  ///< W_app, W_app_body, tau_ext
  bool has_loads = false;
  DynamicsInputs inputs;  ///< W_prop / W_prop_body, tau, prescribed_joints, base_input
  std::string comment;    ///< optional "comment" key (kept for print_state)
};

/// --kinematics: poses, twists V_j^(0..R+1), body Jacobians and their rates,
/// the centre of mass c^(0..R+1) and J_com (12 columns: ν = (V1; q̇)).
struct KinematicsResults {
  hodyn::KinematicsData<Tree, kMaxOrder, double> kinematics;
  hodyn::CenterOfMassData<Tree, kMaxOrder, double> com;
  std::array<hodyn::JacobianMatrix<Tree>, kNumBodies> jacobian;
  std::array<hodyn::JacobianMatrix<Tree>, kNumBodies> jacobian_rate;
};

/// --regressor: the model's inertial parameters π and the regressors Y^(0..R),
/// (Q1^(k); tau^(k)) = Y^(k) π.
struct RegressorResults {
  Parameters parameters;  ///< π: ten per body, bodies 1..7, each in its set_body frame
  RegressorData data;     ///< data.regressor[k] = Y^(k), 12 x 70
};

/// The results to print; null pointers are left out of the output.
struct Results {
  int order = 0;
  const InverseData* inverse = nullptr;
  const ForwardData* forward = nullptr;
  const ForwardData* hybrid = nullptr;
  const EomData* matrices = nullptr;
  const KinematicsResults* kinematics = nullptr;
  const Linearization* linearization = nullptr;
  const RegressorResults* regressor = nullptr;
  bool matrix_rates = false;  ///< print M_dot, C_dot, h_dot, g_dot, applied_dot
};

/// Throws InputError unless 0 <= order <= kMaxOrder.
void check_order(std::int64_t order);

/// Parses and validates a state (STATE-FORMAT). `order_override` >= 0 is the
/// --order option; otherwise the JSON "order" is used, else 0. `request`
/// decides how many derivatives the state must hold. Throws InputError.
State parse_state(const nlohmann::json& in, int order_override, const Request& request = {});

/// The aerial manipulator of Table 3 with gravity g. Throws CoreError.
Model make_model(double gravity);

/// Inverse dynamics of orders 0..state.order into `data`. Throws CoreError.
void run_inverse(const Model& model, const State& state, InverseData& data);

/// Forward dynamics of orders 0..state.order; W_prop / tau missing from the
/// state are taken from `inverse` (which must then be non-null). Throws CoreError.
void run_forward(const Model& model, const State& state, const InverseData* inverse,
                 ForwardData& data);

/// The input of forward dynamics at the state (C1, V1^(0), q^(0), q^(1)):
/// W_prop / W_prop_body and tau of orders 0..state.order from the state or,
/// when absent, from `inverse` (InputError if it is then null; `what` names the
/// option in that message). Shared by --forward, --hybrid and --linearize.
void fill_forward_input(const State& state, const InverseData* inverse, const char* what,
                        bool needs_base_wrench, bool needs_tau,
                        hodyn::ForwardDynamicsInput<Tree, kMaxOrder, double>& in);

/// Hybrid dynamics (prescribed_joints, base_input); missing W_prop / tau as in
/// run_forward. Throws CoreError.
void run_hybrid(const Model& model, const State& state, const InverseData* inverse,
                ForwardData& data);

/// Closed-form M, C, h, g, applied at the state (C1, V1^(0), q^(0), q^(1)); with
/// `with_rates` also their first derivatives (reads V1^(1), q^(2)). Throws CoreError.
void run_matrices(const Model& model, const State& state, bool with_rates, EomData& data);

/// Forward kinematics of orders 0..state.order, the Jacobians J_j, J̇_j of
/// every body and the centre of mass. Throws CoreError.
void run_kinematics(const Model& model, const State& state, KinematicsResults& out);

/// --linearize: A and B of issue 17 item 3 at the state's C1, V1^(0), q^(0),
/// q^(1) and the order-0 input of fill_forward_input (the same rule as
/// --forward). Throws InputError / CoreError.
void run_linearize(const Model& model, const State& state, const InverseData* inverse,
                   LinearizationData& data);

/// --regressor: π of the model and Y^(0..state.order) along the state's motion
/// (V1^(0..R+1), q^(0..R+2)), with gravity and without applied loads (a state
/// with loads is refused by parse_state). Throws CoreError.
void run_regressor(const Model& model, const State& state, RegressorResults& out);

/// Worst relative error of the vectors a[first..first+count) against b:
/// max_k ||a_k - b_k||_inf / ||b_k||_inf (absolute where b_k = 0).
template <class ArrayA, class ArrayB>
double worst_relative_error(const ArrayA& a, const ArrayB& b, int first, int count) {
  double worst = 0.0;
  for (int k = first; k < first + count; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const double scale = b[i].cwiseAbs().maxCoeff();
    const double err = (a[i] - b[i]).cwiseAbs().maxCoeff() / (scale > 0 ? scale : 1.0);
    worst = err > worst ? err : worst;
  }
  return worst;
}

/// Worst relative error of the generalized accelerations of a forward / hybrid
/// result, ν^(k+1) = (V1^(k+1); q^(k+2)) for k = 0..order, against the state:
/// max_k ||Δν^(k+1)||_inf / ||ν^(k+1)||_inf (one scale per order: the joint
/// parts alone can be tiny, e.g. q^(4) ~ 1e-5 at the demo state).
double acceleration_relative_error(const ForwardData& result, const Motion& state, int order);

/// Prints the result JSON (17 significant digits) for orders 0..results.order.
void print_result(std::ostream& os, const Results& results);

/// Prints `state` in the input format (shortest round-trip numbers, so that
/// reading it back gives the same doubles). Only the entries the order needs;
/// applied loads are not printed (the demo state has none).
void print_state(std::ostream& os, const State& state);

/// The demo state: seed 000 Table 3 reference trajectory at time t, with exact
/// analytic derivatives (V1 up to order+1, q up to order+2).
State table3_state(double t, int order);

/// --demo: readable summary of the Table 3 state at t = 7.5 s, orders 0..2.
void run_demo(std::ostream& os);

/// --sizes: sizeof of the core's workspaces and inputs at kMaxOrder.
void print_sizes(std::ostream& os);

}  // namespace hodyn_eval
