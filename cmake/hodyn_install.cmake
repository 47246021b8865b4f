# Install rules and the CMake package (find_package(hodyn)), included by the
# top-level CMakeLists.txt after every subdirectory, so that the targets below
# exist when they are built here. README, "Using hodyn from another CMake
# project"; the package's contents: cmake/hodynConfig.cmake.in.
#
# <prefix>/include/hodyn/...            headers of every exported target
# <prefix>/bin/hodyn-urdf               the URDF code generator (when built)
# <prefix>/lib/libhodyn_*.a             the compiled libraries (when built)
# <prefix>/lib/cmake/hodyn/
#   hodynConfig.cmake, hodynConfigVersion.cmake
#   hodynTargets.cmake          hodyn::core, hodyn::plugin (header-only,
#                               the same for every architecture)
#   hodynLibraryTargets*.cmake  hodyn::link, hodyn::hil, hodyn::posix (for the
#                               system they were built for only)
#   hodynRobotJsonTargets.cmake hodyn::robot_json (where nlohmann_json is found)
#   hodyn_native.cmake          hodyn::native, decided in the consumer
#   hodyn_urdf.cmake            hodyn_urdf_generate()
# The config defines hodyn::hodyn-urdf itself (IMPORTED, from
# HODYN_URDF_EXECUTABLE or the installed program when it runs on the
# consumer's build machine), and hodyn::native from hodyn_native.cmake: both
# depend on the consumer's machine, so neither is an exported target.
#
#   hodynLibraryTargets*.cmake  also hodyn::feedback_linearization (the
#                               controller; every system) and, on Linux,
#                               hodyn::simulator, hodyn::closed_loop,
#                               hodyn::demo, hodyn::hil_tools (the runtime
#                               hodyn_add_robot() builds a robot's programs on)
#   hodyn_robot.cmake           hodyn_add_robot()
# <prefix>/share/hodyn/plot_closed_loop.py  the demo programs' plot script
# Not exported: the bare-metal runtime (platform/baremetal); the 12-DoF
# robot's plugin registrations (hodyn::feedback_linearization_static: a
# project registers its own robot's, hodyn_add_robot()); the desktop tools
# other than hodyn-urdf, and hodyn::robot_description / hodyn-rotors.
#
# hodyn_installable: a custom target that builds everything these rules
# install (scripts that install a tree without building all of it use it).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Not CMAKE_INSTALL_LIBDIR (lib/<multiarch> under /usr on Debian): the package
# is found at <prefix>/lib/cmake/hodyn whatever the architecture, also by the
# toolchain files (toolchains/hodyn-package.cmake).
set(HODYN_INSTALL_CMAKEDIR "lib/cmake/hodyn"
  CACHE STRING "Install directory of hodyn's CMake package files")
mark_as_advanced(HODYN_INSTALL_CMAKEDIR)

add_custom_target(hodyn_installable)

# hodyn_install_headers(<include dir>): installs <dir>/hodyn/** (headers only).
function(hodyn_install_headers dir)
  install(DIRECTORY ${dir}/hodyn
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
endfunction()

# ---------------------------------------------------------------------------
# Header-only targets: one export set, the same on every architecture.
# ---------------------------------------------------------------------------
hodyn_install_headers(${PROJECT_SOURCE_DIR}/core/include)
set(_hodyn_interface_targets hodyn_core)
if(TARGET hodyn_plugin)
  set_target_properties(hodyn_plugin PROPERTIES EXPORT_NAME plugin)
  hodyn_install_headers(${PROJECT_SOURCE_DIR}/plugins/include)
  list(APPEND _hodyn_interface_targets hodyn_plugin)
endif()
install(TARGETS ${_hodyn_interface_targets}
  EXPORT hodynTargets
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT hodynTargets
  NAMESPACE hodyn::
  FILE hodynTargets.cmake
  DESTINATION ${HODYN_INSTALL_CMAKEDIR})

# ---------------------------------------------------------------------------
# Compiled libraries: one export set, loaded only by a consumer that targets
# the same system (hodynConfig.cmake). hodyn::hil is header-only but sits on
# hodyn::link.
# ---------------------------------------------------------------------------
set(_hodyn_library_targets)
set(HODYN_PACKAGE_NEEDS_THREADS OFF)
set(_hodyn_library_include_link platform/link/include)
set(_hodyn_library_include_hil platform/hil/include)
set(_hodyn_library_include_posix platform/posix/include)
set(_hodyn_library_include_feedback_linearization plugins/feedback_linearization/include)
set(_hodyn_library_include_simulator platform/simulator/include)
set(_hodyn_library_include_closed_loop platform/closed_loop/include)
set(_hodyn_library_include_demo tools/closed-loop-demo/include)
set(_hodyn_library_include_hil_tools tools/hil/include)
foreach(_lib link hil posix feedback_linearization simulator closed_loop demo hil_tools)
  if(TARGET hodyn_${_lib})
    set_target_properties(hodyn_${_lib} PROPERTIES EXPORT_NAME ${_lib})
    hodyn_install_headers(${PROJECT_SOURCE_DIR}/${_hodyn_library_include_${_lib}})
    unset(_hodyn_library_include_${_lib})
    list(APPEND _hodyn_library_targets hodyn_${_lib})
    get_target_property(_type hodyn_${_lib} TYPE)
    if(NOT _type STREQUAL "INTERFACE_LIBRARY")
      add_dependencies(hodyn_installable hodyn_${_lib})
    endif()
  endif()
endforeach()
if(TARGET hodyn_posix)
  set(HODYN_PACKAGE_NEEDS_THREADS ON)  # hodyn::posix links Threads::Threads
endif()
if(_hodyn_library_targets)
  install(TARGETS ${_hodyn_library_targets}
    EXPORT hodynLibraryTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT hodynLibraryTargets
    NAMESPACE hodyn::
    FILE hodynLibraryTargets.cmake
    DESTINATION ${HODYN_INSTALL_CMAKEDIR})
endif()

# ---------------------------------------------------------------------------
# The URDF code generator (tools/urdf), its CMake function (installed with the
# package files below) and hodyn::robot_json, the desktop loader of the
# parameters JSON it writes (header-only, needs nlohmann_json: its own export
# set, loaded only where nlohmann_json is found).
# ---------------------------------------------------------------------------
if(TARGET hodyn-urdf)
  install(TARGETS hodyn-urdf RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  add_dependencies(hodyn_installable hodyn-urdf)
endif()
# hodyn-rotors (tools/robot-description): checks a rotors.json and writes it as
# a fixed-size header (docs/rotors.md); a program of the build machine.
if(TARGET hodyn-rotors)
  install(TARGETS hodyn-rotors RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  add_dependencies(hodyn_installable hodyn-rotors)
endif()
if(TARGET hodyn_robot_json)
  hodyn_install_headers(${PROJECT_SOURCE_DIR}/tools/urdf/include)
  install(TARGETS hodyn_robot_json EXPORT hodynRobotJsonTargets)
  install(EXPORT hodynRobotJsonTargets
    NAMESPACE hodyn::
    FILE hodynRobotJsonTargets.cmake
    DESTINATION ${HODYN_INSTALL_CMAKEDIR})
endif()

# ---------------------------------------------------------------------------
# Package files.
# ---------------------------------------------------------------------------
set(HODYN_PACKAGE_TARGET_DESCRIPTION "${CMAKE_SYSTEM_NAME} ${CMAKE_SYSTEM_PROCESSOR}")
set(HODYN_PACKAGE_BAREMETAL_CPU "")
if(HODYN_BAREMETAL)
  set(HODYN_PACKAGE_BAREMETAL_CPU "${HODYN_BAREMETAL_CPU}")
  string(APPEND HODYN_PACKAGE_TARGET_DESCRIPTION " (${HODYN_BAREMETAL_CPU})")
endif()
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/hodynConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hodynConfig.cmake
  INSTALL_DESTINATION ${HODYN_INSTALL_CMAKEDIR})

# The version file must not reject a consumer of another bitness (a 32-bit ARM
# cross build against a package installed from a 64-bit build): the
# header-only part serves every architecture, and the config itself decides
# about the compiled libraries.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/hodynConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)

install(FILES
  ${PROJECT_BINARY_DIR}/hodynConfig.cmake
  ${PROJECT_BINARY_DIR}/hodynConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/hodyn_native.cmake
  ${PROJECT_SOURCE_DIR}/cmake/hodyn_urdf.cmake
  ${PROJECT_SOURCE_DIR}/cmake/hodyn_robot.cmake
  DESTINATION ${HODYN_INSTALL_CMAKEDIR})
if(TARGET hodyn_demo)
  install(FILES ${PROJECT_SOURCE_DIR}/tools/closed-loop-demo/plot_closed_loop.py
    DESTINATION ${CMAKE_INSTALL_DATADIR}/hodyn)
endif()

unset(_hodyn_interface_targets)
unset(_hodyn_library_targets)
unset(_lib)
unset(_type)
