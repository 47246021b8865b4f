// hodyn-demo flies octo_arm (added to hodyn-demo by core/robots/CMakeLists.txt,
// where the robot type is generated): its closed loop compiled here.
#include <octo_arm_robot.hpp>

#include "demo_flight.hpp"
#include "hodyn/closed_loop/robot_runner.hpp"

namespace hodyn_demo {

int fly_octo_arm(const DemoArgs& args) { return fly<octo_arm::Robot>(args); }

}  // namespace hodyn_demo
