// hodyn-eval — shared declarations of the command-line tool.
//
// The tool reads a state of the 12-DoF aerial manipulator as JSON
// (docs/state-format.md), runs the core's inverse dynamics and prints the
// result as JSON. It is a desktop tool: std::string, std::vector and
// exceptions are used freely here (never in the core).
//
// Layout: state_json.cpp (parse_state / print_result / print_state),
// demo.cpp (the Table 3 demo state, --demo, --sizes), main.cpp (options).
// Forward dynamics (--forward) plugs in next to run_inverse once the core
// provides it: parse the W_prop / W_prop_body / tau keys in parse_state, add a
// run_forward, and pass its result to print_result.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include <hodyn/hodyn.hpp>

namespace hodyn_eval {

/// Highest derivative order compiled into the tool.
inline constexpr int kMaxOrder = 5;

using Tree = hodyn::AerialManipulatorTree;
using Model = hodyn::AerialManipulatorModel<double>;
using Motion = hodyn::MotionDerivatives<Tree, kMaxOrder, double>;
using Loads = hodyn::ExternalLoads<Tree, kMaxOrder, double>;
using InverseData = hodyn::InverseDynamicsData<Tree, kMaxOrder, double>;
using JointVector = Model::JointVector;

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

/// A parsed state: everything one evaluation needs.
struct State {
  int order = 0;          ///< derivative order R to evaluate
  double gravity = 9.81;  ///< model gravity g, G0 = (0,0,0, 0,0,−g)
  Motion motion;          ///< C1, V1^(0..R+1), q^(0..R+2)
  Loads loads;            ///< W_app, W_app_body, tau_ext
  bool has_loads = false;
  std::string comment;  ///< optional "comment" key (kept for print_state)
};

/// Throws InputError unless 0 <= order <= kMaxOrder.
void check_order(std::int64_t order);

/// Parses and validates a state (STATE-FORMAT). `order_override` >= 0 is the
/// --order option; otherwise the JSON "order" is used, else 0. Throws InputError.
State parse_state(const nlohmann::json& in, int order_override);

/// The aerial manipulator of Table 3 with gravity g. Throws CoreError.
Model make_model(double gravity);

/// Inverse dynamics of orders 0..state.order into `data`. Throws CoreError.
void run_inverse(const Model& model, const State& state, InverseData& data);

/// Prints the result JSON (17 significant digits) for orders 0..order.
void print_result(std::ostream& os, int order, const InverseData& inverse);

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
