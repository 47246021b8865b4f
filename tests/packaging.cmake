# Packaging: hodyn consumed by other CMake projects (README, "Using hodyn from
# another CMake project"). Every case installs this build tree into a scratch
# prefix (or adds the source tree as a subdirectory), then configures, builds
# and runs a downstream project with tests/consumer/run_consumer.cmake.
# Included by tests/CMakeLists.txt (native and ARM Linux builds) and by
# tests/firmware/CMakeLists.txt (bare metal).
#
#   native build, label packaging:
#     consumer_find_package      tests/consumer against the install: core,
#                                plugin, native (-march=native expected on
#                                x86-64 Linux), link, and a robot added with
#                                hodyn_add_robot() by the INSTALLED hodyn-urdf
#                                (no flag but CMAKE_PREFIX_PATH), its
#                                controller flown one step
#     consumer_add_subdirectory  the same through add_subdirectory
#     example_custom_robot       examples/custom_robot, the template project
#   native build with the aarch64 cross compiler and QEMU, label packaging-cross:
#     consumer_host_package_aarch64  tests/consumer cross-built against the
#                                NATIVE install (CMAKE_PREFIX_PATH only; the
#                                installed hodyn-urdf runs here; hodyn::link
#                                must be absent), run under qemu-aarch64
#   ARM Linux cross build, label packaging-cross (and cross):
#     consumer_find_package      cross-built with the same toolchain file
#                                against the install of this (ARM) tree, only
#                                CMAKE_PREFIX_PATH + the host's hodyn-urdf
#                                (HODYN_URDF_EXECUTABLE), run under QEMU
#     consumer_add_subdirectory  the same through add_subdirectory
#   bare-metal build, label packaging-firmware (and firmware):
#     consumer_firmware          tests/consumer_firmware: make_model + inverse
#                                dynamics of the generated aerial manipulator,
#                                linked for this CPU (not run)
# The cross and bare-metal cases need a hodyn-urdf of the build machine:
# HODYN_URDF_EXECUTABLE, by default the native `test` preset's
# build/test/tools/urdf/hodyn-urdf, which scripts/test-cross.sh and
# scripts/test-firmware.sh build first.

set(_packaging_urdf ${PROJECT_SOURCE_DIR}/core/robots/aerial_manipulator/aerial_manipulator.urdf)
set(_packaging_common
  -DHODYN_REPO=${PROJECT_SOURCE_DIR}
  -DHODYN_BUILD_DIR=${PROJECT_BINARY_DIR}
  -DCONFIG=$<CONFIG>
  -DGENERATOR=${CMAKE_GENERATOR}
  -DCONSUMER_WERROR=${HODYN_WERROR})
# The consumer builds with this build's flags for its configuration (CI
# compiles without -g, scripts/test.sh; CMake's own RelWithDebInfo default
# would put -g back into every consumer build: ~40 % of their compile time).
if(CMAKE_BUILD_TYPE)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _packaging_config)
  list(APPEND _packaging_common
    "-DCONFIG_CXX_FLAGS=${CMAKE_CXX_FLAGS_${_packaging_config}}"
    "-DCONFIG_C_FLAGS=${CMAKE_C_FLAGS_${_packaging_config}}")
  unset(_packaging_config)
endif()
set(_packaging_driver ${PROJECT_SOURCE_DIR}/tests/consumer/run_consumer.cmake)
set(_packaging_werror "")
if(HODYN_WERROR)
  set(_packaging_werror " -Werror")
endif()

# The host hodyn-urdf of cross and bare-metal builds.
if(CMAKE_CROSSCOMPILING)
  if(HODYN_URDF_EXECUTABLE)
    set(_packaging_host_urdf "${HODYN_URDF_EXECUTABLE}")
  else()
    set(_packaging_host_urdf "${PROJECT_SOURCE_DIR}/build/test/tools/urdf/hodyn-urdf")
  endif()
endif()

if(HODYN_BAREMETAL)
  # -------------------------------------------------------------------------
  # Bare metal: link a generated model with the installed package.
  # -------------------------------------------------------------------------
  add_test(NAME consumer_firmware
    COMMAND ${CMAKE_COMMAND} ${_packaging_common}
      -DMODE=find_package
      -DCONSUMER_SOURCE_DIR=${PROJECT_SOURCE_DIR}/tests/consumer_firmware
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/consumer_firmware
      -DTOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}
      -DURDF=${_packaging_urdf}
      -DURDF_TOOL=${_packaging_host_urdf}
      -DEXPECT_TARGETS=hodyn::link
      -DEXPECT_NATIVE=none
      -DEXTRA_ARGS=-DCONSUMER_SCALAR=${HODYN_FIRMWARE_SCALAR}
      -DEXECUTABLE=consumer_firmware.elf
      -DRUN=OFF
      -P ${_packaging_driver})
  # The install reads this build tree, which the heap-probe tests rebuild.
  set_tests_properties(consumer_firmware PROPERTIES
    LABELS "packaging-firmware;firmware" TIMEOUT 600 RESOURCE_LOCK hodyn_firmware_build_tree)
  return()
endif()

set(_packaging_cases find_package add_subdirectory)
if(CMAKE_CROSSCOMPILING)
  # -------------------------------------------------------------------------
  # ARM Linux: the consumer is cross-built with the same toolchain file and
  # run under its emulator (a list, passed with '|' for ';').
  # -------------------------------------------------------------------------
  string(REPLACE ";" "|" _emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
  set(_packaging_args
    -DTOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}
    "-DEMULATOR=${_emulator}"
    -DURDF=${_packaging_urdf}
    -DURDF_TOOL=${_packaging_host_urdf}
    -DEXPECT_NATIVE=none)
  set(_packaging_label packaging-cross)
else()
  # -------------------------------------------------------------------------
  # Native.
  # -------------------------------------------------------------------------
  set(_packaging_args -DCXX_COMPILER=${CMAKE_CXX_COMPILER})
  # What hodyn::native must be here (cmake/hodyn_native.cmake, by the rule,
  # not by asking it): -march=native for GCC/Clang on x86-64 Linux, and with
  # GCC -Wno-maybe-uninitialized -Wno-uninitialized after it ('|' between).
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64)$"
     AND CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      list(APPEND _packaging_args "-DEXPECT_NATIVE=-march=native|-Wno-maybe-uninitialized|-Wno-uninitialized")
    else()
      list(APPEND _packaging_args -DEXPECT_NATIVE=-march=native)
    endif()
  endif()
  if(TARGET hodyn-urdf)
    list(APPEND _packaging_args -DURDF=${_packaging_urdf})
  endif()
  set(_packaging_label packaging)
endif()

# What each case must find: the libraries of this build; from the installed
# package also hodyn::robot_json and the generator (hodyn-urdf is built only
# natively, robot_json with the tools); through add_subdirectory (no tools)
# the libraries alone.
set(_packaging_expect_add_subdirectory "hodyn::link|hodyn::hil")
set(_packaging_expect_find_package "hodyn::link|hodyn::hil")
if(CMAKE_CROSSCOMPILING OR TARGET hodyn-urdf)
  string(APPEND _packaging_expect_find_package "|hodyn::hodyn-urdf")
endif()
if(TARGET hodyn_robot_json)
  string(APPEND _packaging_expect_find_package "|hodyn::robot_json")
endif()
if(TARGET hodyn_posix)
  string(APPEND _packaging_expect_find_package "|hodyn::posix")
  string(APPEND _packaging_expect_add_subdirectory "|hodyn::posix")
endif()

# The consumer's robot comes from hodyn_add_robot() (URDF + rotors +
# actuators) and flies its controller one step. Its programs (NAME-demo, -fc,
# -sim) are built and flown from an install natively, by example_flying_robot
# (tests/tools/robot_programs.sh). The cross find_package case built and flew
# them under the emulator too until 2026-11-26; it cost ~3 min of the cross
# suite and moved to a by-hand command (run_consumer.cmake's ROBOT_PROGRAMS /
# RUN_ALSO, docs/cross-linux.md). (That CI run failed on the consumer's own
# controller step, not on the programs: see tests/consumer/main.cpp.)
set(_packaging_robot_dir ${PROJECT_SOURCE_DIR}/core/robots/aerial_manipulator)
foreach(_case IN LISTS _packaging_cases)
  set(_case_args ${_packaging_args} "-DEXPECT_TARGETS=${_packaging_expect_${_case}}")
  list(APPEND _case_args -DROBOT_ROTORS=${_packaging_robot_dir}/rotors.json
    -DROBOT_ACTUATORS=${_packaging_robot_dir}/actuators.json)
  # add_subdirectory builds no tools (hodyn is not the top-level project):
  # the generator is this build's (native) or the host's (cross).
  if(_case STREQUAL "add_subdirectory" AND NOT CMAKE_CROSSCOMPILING AND TARGET hodyn-urdf)
    list(APPEND _case_args -DURDF_TOOL=$<TARGET_FILE:hodyn-urdf>)
  endif()
  add_test(NAME consumer_${_case}
    COMMAND ${CMAKE_COMMAND} ${_packaging_common} ${_case_args}
      -DMODE=${_case}
      -DCONSUMER_SOURCE_DIR=${PROJECT_SOURCE_DIR}/tests/consumer
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/consumer_${_case}
      -P ${_packaging_driver})
  # COST (about its seconds): started early when ctest has no timings of an
  # earlier run (a CI checkout), so it does not run alone at the end.
  set_tests_properties(consumer_${_case} PROPERTIES LABELS ${_packaging_label} TIMEOUT 600 COST 60)
endforeach()

# A native build's package used by an aarch64 cross build (what a developer
# with one install on the workstation does): found through CMAKE_PREFIX_PATH
# alone, the installed hodyn-urdf runs here so no HODYN_URDF_EXECUTABLE is
# needed, and the x86-64 libraries (hodyn::link) must NOT be offered to the
# ARM project. Registered where the cross compiler and QEMU are installed.
if(NOT CMAKE_CROSSCOMPILING AND TARGET hodyn-urdf AND CMAKE_SYSTEM_NAME STREQUAL "Linux"
   AND NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  find_program(HODYN_AARCH64_CXX aarch64-linux-gnu-g++)
  find_program(HODYN_QEMU_AARCH64 qemu-aarch64)
  if(HODYN_AARCH64_CXX AND HODYN_QEMU_AARCH64 AND EXISTS /usr/aarch64-linux-gnu)
    add_test(NAME consumer_host_package_aarch64
      COMMAND ${CMAKE_COMMAND} ${_packaging_common}
        -DMODE=find_package
        -DCONSUMER_SOURCE_DIR=${PROJECT_SOURCE_DIR}/tests/consumer
        -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/consumer_host_package_aarch64
        -DTOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/toolchains/aarch64-linux-gnu.cmake
        "-DEMULATOR=${HODYN_QEMU_AARCH64}|-L|/usr/aarch64-linux-gnu"
        -DURDF=${_packaging_urdf}
        "-DEXPECT_TARGETS=hodyn::robot_json|hodyn::hodyn-urdf"
        "-DEXPECT_ABSENT=hodyn::link|hodyn::hil|hodyn::posix"
        -DEXPECT_NATIVE=none
        -P ${_packaging_driver})
    set_tests_properties(consumer_host_package_aarch64 PROPERTIES
      LABELS packaging-cross TIMEOUT 600 COST 20)
  else()
    message(STATUS "hodyn: no aarch64-linux-gnu-g++ / qemu-aarch64 / sysroot: "
      "consumer_host_package_aarch64 is not registered")
  endif()
endif()

# The template project (examples/custom_robot): native, with the installed tool.
if(NOT CMAKE_CROSSCOMPILING AND TARGET hodyn-urdf)
  add_test(NAME example_custom_robot
    COMMAND ${CMAKE_COMMAND} ${_packaging_common}
      -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
      -DMODE=find_package
      -DCONSUMER_SOURCE_DIR=${PROJECT_SOURCE_DIR}/examples/custom_robot
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/example_custom_robot
      "-DEXTRA_ARGS=-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wpedantic -Wshadow -Wdouble-promotion${_packaging_werror}"
      -DEXECUTABLE=custom_robot
      # the URDF's masses: 1.2 + 4 x 0.04 + 0.25 + 0.15 + 0.12 + 0.05 + 0.03 kg
      "-DRUN_EXPECT=5 bodies, 4 joints, 10 dofs, 1.960 kg|PASSED: 0 check"
      -P ${_packaging_driver})
  set_tests_properties(example_custom_robot PROPERTIES LABELS packaging TIMEOUT 600 COST 30)
endif()

# The user's project of docs/your-robot.md, step 10 (examples/flying_robot,
# written by following that page): hodyn_add_robot() against the install,
# then its NAME-demo and NAME-fc / NAME-sim pair fly (tests/tools/robot_programs.sh).
if(NOT CMAKE_CROSSCOMPILING AND TARGET hodyn-urdf AND TARGET hodyn_demo AND TARGET hodyn_hil_tools)
  add_test(NAME example_flying_robot
    COMMAND ${CMAKE_COMMAND} ${_packaging_common}
      -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
      -DMODE=find_package
      -DCONSUMER_SOURCE_DIR=${PROJECT_SOURCE_DIR}/examples/flying_robot
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/example_flying_robot
      -DEXECUTABLE=flying_robot-demo
      -DRUN=OFF
      "-DRUN_SCRIPT=${PROJECT_SOURCE_DIR}/tests/tools/robot_programs.sh|flying_robot"
      -P ${_packaging_driver})
  # The longest packaging case: started early (COST) when ctest has no
  # timings of an earlier run, as the soak is (tests/CMakeLists.txt).
  set_tests_properties(example_flying_robot PROPERTIES LABELS packaging TIMEOUT 900 COST 500)
endif()

unset(_case)
unset(_case_args)
unset(_emulator)
unset(_packaging_args)
unset(_packaging_cases)
unset(_packaging_common)
unset(_packaging_driver)
unset(_packaging_expect_add_subdirectory)
unset(_packaging_expect_find_package)
unset(_packaging_host_urdf)
unset(_packaging_label)
unset(_packaging_robot_dir)
unset(_packaging_urdf)
unset(_packaging_werror)
