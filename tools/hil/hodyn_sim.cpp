// hodyn-sim — the plant side of the hardware-in-the-loop pair for the robots
// built into hodyn (--robot NAME, --list-robots); the program is
// hodyn_sim.hpp's run_hodyn_sim<Robot>. docs/hil.md describes the pair.
#include "hodyn/hil_tools/hodyn_sim.hpp"
#include "hodyn/hil_tools/hil_common.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"

#if defined(HODYN_HIL_OCTO_ARM)
namespace octo_arm {
// hodyn_add_robot(octo_arm) in core/robots: run_hodyn_sim<octo_arm::Robot>.
int run_hil_sim(int argc, char** argv, const char* tool);
}  // namespace octo_arm
#endif

namespace {

int run_aerial_manipulator(int argc, char** argv) {
  return hodyn::hil_tools::run_hodyn_sim<hodyn::AerialManipulatorRobot>(argc, argv);
}

/// The robots, in --list-robots order; the first is the default.
const hodyn::hil_tools::ToolRobot kRobots[] = {
    {hodyn::AerialManipulatorRobot::kName, &run_aerial_manipulator},
#if defined(HODYN_HIL_OCTO_ARM)
    {"octo_arm",
     [](int argc, char** argv) { return octo_arm::run_hil_sim(argc, argv, "hodyn-sim"); }},
#endif
};

}  // namespace

int main(int argc, char** argv) {
  return hodyn::hil_tools::run_robot_tool("hodyn-sim", kRobots, sizeof kRobots / sizeof kRobots[0],
                                          argc, argv);
}
