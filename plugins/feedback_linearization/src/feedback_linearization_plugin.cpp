// The feedback-linearization plugin module in double precision, and the
// settings (feedback_linearization_plugin_impl.hpp has the module itself).
#include "feedback_linearization_plugin_impl.hpp"

namespace hodyn {
namespace control {

FeedbackLinearizationConfig FeedbackLinearizationSettings::resolved() const {
  FeedbackLinearizationConfig c = config;
  c.position = TrackingGains::from_bandwidth(position_bandwidth, integral_action);
  c.attitude = TrackingGains::from_bandwidth(attitude_bandwidth, integral_action);
  c.joints = TrackingGains::from_bandwidth(joint_bandwidth, integral_action);
  return c;
}

template class BasicFeedbackLinearizationPlugin<AerialManipulatorRobot, double>;

}  // namespace control
}  // namespace hodyn
