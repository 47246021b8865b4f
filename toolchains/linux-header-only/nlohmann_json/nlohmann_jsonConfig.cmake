# nlohmann_json for the ARM Linux cross builds (toolchains/linux-gnu-common.cmake).
# The library is header-only and architecture-independent, so the host's
# headers (Debian nlohmann-json3-dev, /usr/include/nlohmann) are used. Debian's
# own config would put all of /usr/include on the include path, where host
# headers would shadow the target sysroot's; this one exposes a directory that
# holds only a link to /usr/include/nlohmann.
if(TARGET nlohmann_json::nlohmann_json)
  return()
endif()

set(_hodyn_nlohmann_src /usr/include/nlohmann)
if(NOT EXISTS ${_hodyn_nlohmann_src}/json.hpp)
  set(nlohmann_json_FOUND FALSE)
  set(nlohmann_json_NOT_FOUND_MESSAGE
    "${_hodyn_nlohmann_src}/json.hpp not found (install nlohmann-json3-dev)")
  return()
endif()

set(_hodyn_nlohmann_dir ${CMAKE_BINARY_DIR}/host-header-only/nlohmann_json)
file(MAKE_DIRECTORY ${_hodyn_nlohmann_dir})
if(NOT EXISTS ${_hodyn_nlohmann_dir}/nlohmann)
  file(CREATE_LINK ${_hodyn_nlohmann_src} ${_hodyn_nlohmann_dir}/nlohmann SYMBOLIC)
endif()

add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${_hodyn_nlohmann_dir})
unset(_hodyn_nlohmann_src)
unset(_hodyn_nlohmann_dir)
