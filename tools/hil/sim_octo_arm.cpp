// hodyn-sim simulates octo_arm (added to hodyn-sim by core/robots/hil.cmake,
// where the robot type is generated).
#include <octo_arm_robot.hpp>

#include "hodyn_sim.hpp"

namespace hodyn {
namespace hil_tools {

int run_hodyn_sim_octo_arm(int argc, char** argv) {
  return run_hodyn_sim<octo_arm::Robot>(argc, argv);
}

}  // namespace hil_tools
}  // namespace hodyn
