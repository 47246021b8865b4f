// Static registration of the geometric LQR plugin (demo, tests).
#include "hodyn/control/geometric_lqr_plugin.hpp"
#include "hodyn/plugin/registry.hpp"

HODYN_REGISTER_STATIC_PLUGIN(hodyn::control::GeometricLqrPlugin, "lqr");
