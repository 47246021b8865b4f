// Shared-library entry point of the geometric LQR plugin.
#include "hodyn/plugin/export.hpp"
#include "hodyn/control/geometric_lqr_plugin.hpp"

HODYN_EXPORT_PLUGIN(hodyn::control::GeometricLqrPlugin, "lqr")
