// hodyn-demo — the closed-loop demo of the robots built into hodyn: the
// feedback-linearization plugin flies a simulated robot (--robot; default the
// 12-DoF aerial manipulator along the Table 3 reference: 1 m circle, yaw ±25°,
// joint half-cosines, 30 s; octo_arm along its own reference,
// docs/closed-loop.md) in one or all scenarios, prints the tracking errors and
// the controller's time per step, and writes a CSV log, PNG plots and, on
// request, a JSON summary. docs/controller.md explains it; docs/state-format.md
// has the command-line contract. The program is hodyn::demo's run_demo
// (hodyn/demo/demo.hpp), the same as every NAME-demo of hodyn_add_robot().
#include "hodyn/demo/demo.hpp"
#include "hodyn/demo/fly.hpp"
#include "hodyn/models/aerial_manipulator_robot.hpp"

#if defined(HODYN_DEMO_OCTO_ARM)
namespace octo_arm {
int fly_demo(const hodyn::demo::DemoArgs& args);  // hodyn_add_robot(octo_arm): core/robots
}
#endif

namespace {

int fly_aerial_manipulator(const hodyn::demo::DemoArgs& args) {
  return hodyn::demo::fly<hodyn::AerialManipulatorRobot>(args);
}

/// The robots this hodyn-demo flies, in --list-robots order; the first is the default.
const hodyn::demo::DemoRobot kRobots[] = {
    {hodyn::AerialManipulatorRobot::kName, &fly_aerial_manipulator},
#if defined(HODYN_DEMO_OCTO_ARM)
    {"octo_arm", &octo_arm::fly_demo},
#endif
};

}  // namespace

int main(int argc, char** argv) {
  hodyn::demo::DemoProgram program;
  program.tool = "hodyn-demo";
  program.robots = kRobots;
  program.num_robots = sizeof kRobots / sizeof kRobots[0];
  program.plot_script = HODYN_DEMO_PLOT_SCRIPT;
  program.python = HODYN_DEMO_PYTHON;
  return hodyn::demo::run_demo(program, argc, argv);
}
