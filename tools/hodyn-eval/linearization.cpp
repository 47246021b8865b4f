// hodyn-eval --linearize — the geometric linearization ż = A z + B δu of
// issue 17 item 3 (hodyn/linearization.hpp) at the state of the JSON file:
// z = (ξ, δq, δV, δq̇), δu = (δW_prop in the base frame, δτ).
#include <string>

#include "hodyn_eval.hpp"

namespace hodyn_eval {

void run_linearize(const Model& model, const State& state, const InverseData* inverse,
                   LinearizationData& data) {
  // The input exactly as --forward takes it (W_prop / W_prop_body and tau from
  // the state, else the inverse dynamics of the state); A and B read only the
  // order-0 entries, so the result does not depend on the order R.
  hodyn::ForwardDynamicsInput<Tree, kMaxOrder, double> full;
  fill_forward_input(state, inverse, "--linearize", true, true, full);
  hodyn::ForwardDynamicsInput<Tree, 0, double> in;
  in.base_pose = full.base_pose;
  in.base_twist = full.base_twist;
  in.q = full.q;
  in.q_dot = full.q_dot;
  in.base_wrench_frame = full.base_wrench_frame;
  in.base_wrench[0] = full.base_wrench[0];
  in.joint_torque[0] = full.joint_torque[0];
  const hodyn::Status st = hodyn::linearize(model, data, in);
  if (st != hodyn::Status::kOk)
    throw CoreError(std::string("linearization: ") + hodyn::to_string(st));
}

}  // namespace hodyn_eval
