// Static registration of the float feedback-linearization plugin (firmware
// for single-precision FPUs).
#include "hodyn/control/feedback_linearization_plugin.hpp"
#include "hodyn/plugin/registry.hpp"

HODYN_REGISTER_STATIC_PLUGIN(hodyn::control::FeedbackLinearizationPluginFloat,
                             "feedback_linearization_float");
