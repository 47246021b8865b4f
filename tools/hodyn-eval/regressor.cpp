// hodyn-eval --regressor — the inverse-dynamics regressors of issue 18 item 6
// (hodyn/inverse_dynamics_regressor.hpp, seed 004 Props. 1-2): the model's
// inertial parameters π (hodyn/inertial_parameters.hpp) and Y^(0..R) with
// (Q1^(k); tau^(k)) = Y^(k) π along the state's motion.
#include <string>

#include "hodyn_eval.hpp"

namespace hodyn_eval {

void run_regressor(const Model& model, const State& state, RegressorResults& out) {
  // parse_state refuses applied loads with --regressor; Y has no column for them.
  if (state.has_loads) throw InputError("--regressor: applied loads are not part of Y");
  out.parameters = hodyn::model_parameters(model);
  const hodyn::Status st =
      hodyn::inverse_dynamics_regressor(model, out.data, state.motion, state.order);
  if (st != hodyn::Status::kOk) throw CoreError(std::string("regressor: ") + hodyn::to_string(st));
}

}  // namespace hodyn_eval
