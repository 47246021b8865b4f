// The feedback-linearization plugin module in float, for single-precision
// FPUs (Cortex-M4F). Settings and parameters stay double.
#include "hodyn/control/feedback_linearization_plugin_impl.hpp"

namespace hodyn {
namespace control {

template class BasicFeedbackLinearizationPlugin<AerialManipulatorRobot, float>;

}  // namespace control
}  // namespace hodyn
