// hodyn-fc — the flight-computer side of the hardware-in-the-loop pair for
// the robots built into hodyn (--robot NAME, --list-robots); the program is
// hodyn_fc.hpp's run_hodyn_fc<Robot>. docs/hil.md describes the pair.
#include "hodyn_fc.hpp"
#include "hil_common.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"

#if defined(HODYN_HIL_OCTO_ARM)
namespace hodyn {
namespace hil_tools {
int run_hodyn_fc_octo_arm(int argc, char** argv);  // fc_octo_arm.cpp (core/robots/hil.cmake)
}  // namespace hil_tools
}  // namespace hodyn
#endif

namespace {

int run_aerial_manipulator(int argc, char** argv) {
  return hodyn::hil_tools::run_hodyn_fc<hodyn::AerialManipulatorRobot>(argc, argv);
}

/// The robots, in --list-robots order; the first is the default.
const hodyn::hil_tools::ToolRobot kRobots[] = {
    {hodyn::AerialManipulatorRobot::kName, &run_aerial_manipulator},
#if defined(HODYN_HIL_OCTO_ARM)
    {"octo_arm", &hodyn::hil_tools::run_hodyn_fc_octo_arm},
#endif
};

}  // namespace

int main(int argc, char** argv) {
  return hodyn::hil_tools::run_robot_tool("hodyn-fc", kRobots, sizeof kRobots / sizeof kRobots[0],
                                          argc, argv);
}
