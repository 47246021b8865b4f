// hodyn-fc flies octo_arm (added to hodyn-fc by core/robots/hil.cmake, where
// the robot type and its controller plugin are built).
#include <octo_arm_robot.hpp>

#include "hodyn_fc.hpp"

namespace hodyn {
namespace hil_tools {

int run_hodyn_fc_octo_arm(int argc, char** argv) {
  return run_hodyn_fc<octo_arm::Robot>(argc, argv);
}

}  // namespace hil_tools
}  // namespace hodyn
