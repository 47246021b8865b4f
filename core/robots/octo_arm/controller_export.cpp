// octo_arm's controller as a loadable plugin (hodyn-demo --robot octo_arm --plugin PATH).
#include "controller_plugin.hpp"
#include "hodyn/plugin/export.hpp"

HODYN_EXPORT_PLUGIN(octo_arm::FeedbackLinearizationPlugin, "feedback_linearization")
