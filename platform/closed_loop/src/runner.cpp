// The closed loop of the 12-DoF robot, compiled once into the library
// (robot_runner.hpp has the template).
#include "hodyn/closed_loop/robot_runner.hpp"

namespace hodyn {
namespace closed_loop {

template Status run_closed_loop<AerialManipulatorRobot>(const RunOptions&, RunSummary&,
                                                        std::vector<Sample>*);

}  // namespace closed_loop
}  // namespace hodyn
