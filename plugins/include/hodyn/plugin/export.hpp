// hodyn/plugin/export.hpp — exporting a plugin class from a shared library.
//
//   #include "hodyn/plugin/export.hpp"
//   HODYN_EXPORT_PLUGIN(MyController, "my_controller")
//
// defines the C symbol `hodyn_plugin_entry` (abi.h) that a host finds with
// dlsym() after dlopen() of the library. Use it in exactly one .cpp of the
// shared library.
#pragma once

#include "hodyn/plugin/c_adapter.hpp"

#if defined(_WIN32)
#define HODYN_PLUGIN_VISIBLE __declspec(dllexport)
#else
#define HODYN_PLUGIN_VISIBLE __attribute__((visibility("default")))
#endif

#define HODYN_EXPORT_PLUGIN(Type, name_literal)                                      \
  extern "C" HODYN_PLUGIN_VISIBLE const hodyn_plugin_api* hodyn_plugin_entry(void) { \
    return ::hodyn::plugin::plugin_api<Type>(name_literal);                          \
  }
