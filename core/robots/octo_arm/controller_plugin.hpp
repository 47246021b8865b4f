// octo_arm's feedback-linearization controller: the plugin module
// (plugins/feedback_linearization) built for octo_arm::Robot. Included by
// controller_register.cpp (static registration) and controller_export.cpp
// (the loadable plugin); each instantiates the template once.
#pragma once

#include <octo_arm_robot.hpp>

// The plugin module's template definitions (private to the controller's
// sources: a plugin is built per robot type).
#include "feedback_linearization_plugin_impl.hpp"

namespace octo_arm {

using FeedbackLinearizationPlugin = hodyn::control::BasicFeedbackLinearizationPlugin<Robot, double>;

}  // namespace octo_arm

template class hodyn::control::BasicFeedbackLinearizationPlugin<octo_arm::Robot, double>;
