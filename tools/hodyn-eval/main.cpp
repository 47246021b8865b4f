// hodyn-eval — evaluate the dynamics of the 12-DoF aerial manipulator from a
// JSON state (docs/state-format.md): inverse, forward and hybrid dynamics and
// the closed-form equations of motion, the linearization A, B, the inertial-parameter regressors
// Y^(k). Exit codes: 0 ok, 2 bad usage or input, 3 the core returned an error status, 1 anything
// else.
#include <charconv>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>

#include <hodyn/robot_description/json_paths.hpp>

#include "hodyn_eval.hpp"

namespace {

using hodyn_eval::InputError;

constexpr int kExitInput = 2;
constexpr int kExitCore = 3;

const char* const kUsage =
    R"(Usage: hodyn-eval [--order R] [--forward] [--hybrid] [--matrices] [--kinematics]
                  [--linearize] [--regressor] [FILE|-]
       hodyn-eval --demo | --sizes | --emit-example-state [--order R] | --help

Evaluates the higher-order dynamics of the 12-DoF aerial manipulator (seed 000,
Table 3) for a state given as JSON in FILE (or on stdin for '-' or no FILE) and
prints the result as JSON on stdout: the inverse dynamics, and on request the
forward and hybrid dynamics, the closed-form equations of motion, the
kinematics, the linearization and the inertial-parameter regressors.

Options:
  --order R             derivative order R (0..10); default: the JSON "order", else 0
  --forward             forward dynamics: W_prop (or W_prop_body) and tau in, V1^(1..R+1)
                        and q^(2..R+2) out; absent inputs are taken from the inverse
                        dynamics of the state (a round trip)
  --hybrid              hybrid dynamics (hodyn extension): "prescribed_joints" take
                        q^(k+2) from "q", the others "tau"; "base_input": "wrench"
                        (W_prop) or "motion" (V1^(k+1) from "V1")
  --matrices            M, C, h = C nu, g, applied (12x12 / 12) at the state (hodyn
                        extension); with R >= 1 also their first derivatives
  --kinematics          body poses C_j, twists V_j^(0..R+1), Jacobians J_j and their
                        rates, the centre of mass c^(0..R+1) and J_com (hodyn extension)
  --linearize           A (24x24) and B (24x12) of zdot = A z + B du at C1, V1^(0),
                        q^(0..1) and the order-0 input taken as --forward takes it;
                        z = (xi, dq, dV, dqdot), du = (dW_prop base frame, dtau);
                        independent of R; no applied loads (hodyn extension)
  --regressor           the inertial parameters pi (70: ten per body 1..7, set_body
                        frames) and Y^(0..R), 12x70, (Q1^(k); tau^(k)) = Y^(k) pi;
                        needs V1^(0..R+1), q^(0..R+2); no applied loads (hodyn extension)
  --demo                print a readable summary of the Table 3 reference state
                        at t = 7.5 s (orders 0..2), round-trip checks, a hover check
                        and a rough timing
  --sizes               print sizeof of the core's workspaces and inputs (MaxOrder 10)
  --emit-example-state  print the demo state in the input format (order 2 unless
                        --order); regenerates examples/state_table3.json
  -h, --help            this text

Input (SI units; bodies numbered 1..7 as in the paper, 1 = base):
  {"model": "aerial_manipulator", "gravity": 9.81, "order": R,
   "C1": 4x4 row-major  |  "p1": [x,y,z], "R1": 3x3 rows,
   "V1": [V1^(0..R+1)]   spatial base twist (omega; v) derivatives,
   "q":  [q^(0..R+2)]    joint derivatives, q = (q2..q7),
   "W_app": {"4": [[6]*(R+1)]}, "W_app_body": {...}, "tau_ext": [[6]*(R+1)],  optional
   "W_prop": [Q1^(0..R)] | "W_prop_body": [...], "tau": [tau^(0..R)],  --forward/--hybrid
   "prescribed_joints": [2, 5], "base_input": "wrench" | "motion"}     --hybrid
Output (k = 0..R in each list, 17 significant digits):
  {"order": R, "inverse": {"Q1": [...], "W_prop_body": [...], "tau": [...]},
   "forward": {"V1": [V1^(1..R+1)], "q": [q^(2..R+2)]},                 --forward
   "hybrid": {"V1": [...], "q": [...], "Q1": [...], "tau": [...]},      --hybrid
   "matrices": {"M", "C", "h", "g", "applied" [, "M_dot", ...]},        --matrices
   "kinematics": {"C", "V", "J", "J_dot", "com", "J_com"},              --kinematics
   "linearization": {"A": 24 rows of 24, "B": 24 rows of 12},          --linearize
   "regressor": {"parameters": [70], "Y": [Y^(0..R), each 12 rows of 70]}}  --regressor
  "inverse" is left out when the state lacks V1^(R+1) or q^(R+2); that is allowed
  when nothing needs them, e.g. --forward with W_prop and tau (V1^(0), q^(0..1)).
See docs/state-format.md for the full format and hodyn's extensions.

Exit codes: 0 ok, 2 bad usage or input, 3 error status from the core.
)";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Mode { kEvaluate, kDemo, kSizes, kEmitExampleState, kHelp };

struct Options {
  Mode mode = Mode::kEvaluate;
  int order = -1;  // −1: not given
  hodyn_eval::Request request;
  std::string file = "-";
  bool file_given = false;
};

int parse_order_argument(const std::string& text) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end)
    throw UsageError("--order: expected an integer, got '" + text + "'");
  hodyn_eval::check_order(value);  // InputError: negative or above the compiled maximum
  return value;
}

Options parse_args(int argc, char** argv) {
  Options opt;
  bool mode_given = false;
  const auto set_mode = [&](Mode m) {
    if (mode_given) throw UsageError("only one of --demo, --sizes, --emit-example-state, --help");
    opt.mode = m;
    mode_given = true;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--order") {
      if (i + 1 >= argc) throw UsageError("--order needs a value");
      opt.order = parse_order_argument(argv[++i]);
    } else if (arg.rfind("--order=", 0) == 0) {
      opt.order = parse_order_argument(arg.substr(8));
    } else if (arg == "--forward") {
      opt.request.forward = true;
    } else if (arg == "--hybrid") {
      opt.request.hybrid = true;
    } else if (arg == "--matrices") {
      opt.request.matrices = true;
    } else if (arg == "--kinematics") {
      opt.request.kinematics = true;
    } else if (arg == "--linearize") {
      opt.request.linearize = true;
    } else if (arg == "--regressor") {
      opt.request.regressor = true;
    } else if (arg == "--demo") {
      set_mode(Mode::kDemo);
    } else if (arg == "--sizes") {
      set_mode(Mode::kSizes);
    } else if (arg == "--emit-example-state") {
      set_mode(Mode::kEmitExampleState);
    } else if (arg == "--help" || arg == "-h") {
      set_mode(Mode::kHelp);
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw UsageError("unknown option '" + arg + "'");
    } else {
      if (opt.file_given)
        throw UsageError("more than one input file ('" + opt.file + "', '" + arg + "')");
      opt.file = arg;
      opt.file_given = true;
    }
  }
  if (opt.mode != Mode::kEvaluate && opt.mode != Mode::kHelp && opt.file_given)
    throw UsageError("--demo, --sizes and --emit-example-state take no input file");
  if (opt.mode != Mode::kEvaluate && opt.mode != Mode::kHelp && opt.request.any())
    throw UsageError(
        "--forward, --hybrid, --matrices, --kinematics, --linearize and --regressor evaluate a "
        "state file; not with --demo, --sizes or --emit-example-state");
  return opt;
}

nlohmann::json read_json(const std::string& file) {
  std::string text;
  const std::string name = file == "-" ? "<stdin>" : file;
  if (file == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError("cannot open '" + file + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  // Strict: a syntax error, a number like 1e999 that overflows a double, or a
  // key given twice in one object (nlohmann::json alone keeps the last one)
  // is an error naming its JSON path.
  hodyn::robot_description::JsonParse parsed =
      hodyn::robot_description::parse_json_with_paths(text);
  if (!parsed.error.empty()) throw InputError(name + ": invalid JSON: " + parsed.error);
  return std::move(parsed.value);
}

/// One evaluation: parse → inverse dynamics (when the state allows) → forward /
/// hybrid dynamics, the equations of motion, the kinematics, the
/// linearization and the regressors as requested → print (nothing is printed before all succeed).
void evaluate(const Options& opt) {
  const hodyn_eval::State state =
      hodyn_eval::parse_state(read_json(opt.file), opt.order, opt.request);
  const hodyn_eval::Model model = hodyn_eval::make_model(state.gravity);
  hodyn_eval::Results results;
  results.order = state.order;
  // Desktop tool: the workspaces (tens of KiB together) live on the heap.
  std::unique_ptr<hodyn_eval::InverseData> inverse;
  std::unique_ptr<hodyn_eval::ForwardData> forward, hybrid;
  std::unique_ptr<hodyn_eval::EomData> matrices;
  std::unique_ptr<hodyn_eval::KinematicsResults> kinematics;
  std::unique_ptr<hodyn_eval::LinearizationData> linearization;
  std::unique_ptr<hodyn_eval::RegressorResults> regressor;
  if (state.full_motion) {
    inverse = std::make_unique<hodyn_eval::InverseData>();
    hodyn_eval::run_inverse(model, state, *inverse);
    results.inverse = inverse.get();
  }
  if (opt.request.forward) {
    forward = std::make_unique<hodyn_eval::ForwardData>();
    hodyn_eval::run_forward(model, state, inverse.get(), *forward);
    results.forward = forward.get();
  }
  if (opt.request.hybrid) {
    hybrid = std::make_unique<hodyn_eval::ForwardData>();
    hodyn_eval::run_hybrid(model, state, inverse.get(), *hybrid);
    results.hybrid = hybrid.get();
  }
  if (opt.request.matrices) {
    matrices = std::make_unique<hodyn_eval::EomData>();
    results.matrix_rates = state.order >= 1;
    hodyn_eval::run_matrices(model, state, results.matrix_rates, *matrices);
    results.matrices = matrices.get();
  }
  if (opt.request.kinematics) {
    kinematics = std::make_unique<hodyn_eval::KinematicsResults>();
    hodyn_eval::run_kinematics(model, state, *kinematics);
    results.kinematics = kinematics.get();
  }
  if (opt.request.linearize) {
    linearization = std::make_unique<hodyn_eval::LinearizationData>();
    hodyn_eval::run_linearize(model, state, inverse.get(), *linearization);
    results.linearization = &linearization->result;
  }
  if (opt.request.regressor) {
    regressor = std::make_unique<hodyn_eval::RegressorResults>();
    hodyn_eval::run_regressor(model, state, *regressor);
    results.regressor = regressor.get();
  }
  hodyn_eval::print_result(std::cout, results);
}

void print_error(const std::string& message) {
  // One line: newlines in a message (there should be none) become spaces.
  std::string line = message;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::cerr << "hodyn-eval: error: " << line << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options opt = parse_args(argc, argv);
    switch (opt.mode) {
      case Mode::kHelp:
        std::cout << kUsage;
        break;
      case Mode::kSizes:
        hodyn_eval::print_sizes(std::cout);
        break;
      case Mode::kDemo:
        hodyn_eval::run_demo(std::cout);
        break;
      case Mode::kEmitExampleState:
        hodyn_eval::print_state(std::cout,
                                hodyn_eval::table3_state(7.5, opt.order >= 0 ? opt.order : 2));
        break;
      case Mode::kEvaluate:
        evaluate(opt);
        break;
    }
    std::cout.flush();
    if (!std::cout) {
      print_error("writing to stdout failed");
      return 1;
    }
    return 0;
  } catch (const UsageError& e) {
    print_error(e.what());
    std::cerr << "\n" << kUsage;
    return kExitInput;
  } catch (const InputError& e) {
    print_error(e.what());
    return kExitInput;
  } catch (const hodyn_eval::CoreError& e) {
    print_error(e.what());
    return kExitCore;
  } catch (const std::exception& e) {
    print_error(e.what());
    return 1;
  }
}
