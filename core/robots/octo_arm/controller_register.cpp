// octo_arm's controller registered statically as "feedback_linearization":
// the registry keeps one plugin of a name per robot id, so hosts find it with
// plugin_registry().find("feedback_linearization", octo_arm::Robot::kId) next
// to the 12-DoF robot's.
#include "controller_plugin.hpp"
#include "hodyn/plugin/registry.hpp"

HODYN_REGISTER_STATIC_PLUGIN(octo_arm::FeedbackLinearizationPlugin, "feedback_linearization");
