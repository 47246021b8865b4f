// The body both translation units compile (included once by each).
#include <hodyn/hodyn.hpp>

#include "isa_mix.hpp"

namespace {

isa_mix::Report run_here() {
  isa_mix::Report out;
  hodyn::AerialManipulatorModel<double> model;
  if (hodyn::make_aerial_manipulator(model) != hodyn::Status::kOk) return out;
  hodyn::MotionDerivatives<hodyn::AerialManipulatorTree, 5> motion;
  motion.base_pose.translation << 0.3, -0.2, 1.0;
  for (int k = 0; k < 4; ++k) {
    motion.base_twist[static_cast<std::size_t>(k)] << 0.1 * k, -0.2, 0.3, 0.5, -0.1 * k, 0.2;
    for (int i = 0; i < 6; ++i)
      motion.q[static_cast<std::size_t>(k)](i) = 0.1 * (i + 1) - 0.05 * k;
  }
  motion.q[4].setConstant(0.3);
  using Data = hodyn::InverseDynamicsData<hodyn::AerialManipulatorTree, 5>;
  Data data;
  // Called through the instantiation's symbol, not inlined: the copy the
  // linker keeps is the one that runs, as in any call the optimizer does not inline.
  using Call = hodyn::Status (*)(const hodyn::AerialManipulatorModel<double>&, Data&,
                                 const decltype(motion)&, int) noexcept;
  Call volatile call = &hodyn::inverse_dynamics<hodyn::AerialManipulatorTree, 5, double>;
  out.status = static_cast<int>(call(model, data, motion, 2));
  for (int k = 0; k <= 2; ++k)
    for (int i = 0; i < 6; ++i) {
      out.joint_torque[static_cast<std::size_t>(6 * k + i)] = data.joint_torque[static_cast<std::size_t>(k)](i);
      out.base_wrench[static_cast<std::size_t>(6 * k + i)] = data.base_wrench[static_cast<std::size_t>(k)](i);
    }
  out.workspace_bytes = sizeof(data);
  out.max_lane_order = hodyn::detail::max_lane_order<double>();
  return out;
}

}  // namespace
