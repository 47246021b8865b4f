// Static registration of the feedback-linearization plugin (firmware, demo).
#include "hodyn/control/feedback_linearization_plugin.hpp"
#include "hodyn/plugin/registry.hpp"

HODYN_REGISTER_STATIC_PLUGIN(hodyn::control::FeedbackLinearizationPlugin, "feedback_linearization");
