// Shared-library entry point of the feedback-linearization plugin.
#include "hodyn/plugin/export.hpp"
#include "hodyn/control/feedback_linearization_plugin.hpp"

HODYN_EXPORT_PLUGIN(hodyn::control::FeedbackLinearizationPlugin, "feedback_linearization")
