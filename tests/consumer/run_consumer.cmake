# Configure, build and run tests/consumer against hodyn. Run with cmake -P.
#
# Required -D variables:
#   MODE                find_package | add_subdirectory
#   HODYN_REPO          hodyn source tree
#   CONSUMER_SOURCE_DIR tests/consumer
#   HODYN_BUILD_DIR     hodyn build tree (installed from in find_package mode)
#   WORK_DIR            scratch directory, wiped first
# Optional: CONFIG, CONFIG_CXX_FLAGS / CONFIG_C_FLAGS (the consumer's
#   CMAKE_<LANG>_FLAGS_<CONFIG>: the calling build's), GENERATOR, CXX_COMPILER,
#   CONSUMER_WERROR,
#   TOOLCHAIN_FILE (cross build: the consumer uses the same toolchain),
#   EMULATOR (runs the consumer; a list with '|' for ';'),
#   URDF (the consumer generates a robot from it), URDF_TOOL (passed as
#   HODYN_URDF_EXECUTABLE; without it an installed package must provide the
#   tool itself), EXPECT_TARGETS, EXPECT_ABSENT (target lists, '|' between
#   them), EXPECT_NATIVE (CONSUMER_EXPECT_* of the consumer),
#   EXECUTABLE (file name the build makes, default consumer), RUN (default ON;
#   OFF: the executable is only linked, as for bare metal), RUN_EXPECT
#   (regular expressions the output of the run must match, '|' between them),
#   EXTRA_ARGS (more configure arguments, '|' between them),
#   ROBOT_ROTORS, ROBOT_ACTUATORS (the URDF's rotor and actuators files: the
#   consumer adds the robot with hodyn_add_robot()), ROBOT_PROGRAMS (ON: and
#   builds its programs), RUN_ALSO (one more program of the build to run with
#   the emulator, words '|'-separated, the first a path relative to the build
#   directory; must exit 0), RUN_ALSO_EXPECT (a regular expression its output
#   must match), RUN_SCRIPT (a bash script run natively after the build as
#   `bash SCRIPT <build dir> ARGS...`, words '|'-separated; must exit 0)
#
# The package is found through CMAKE_PREFIX_PATH alone, also in a cross build:
# the toolchain files look there for hodyn (toolchains/hodyn-package.cmake).
cmake_minimum_required(VERSION 3.25)

foreach(var MODE HODYN_REPO CONSUMER_SOURCE_DIR HODYN_BUILD_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: ${var} is not set")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()
if(NOT EXECUTABLE)
  set(EXECUTABLE consumer${CMAKE_EXECUTABLE_SUFFIX})
endif()
if(NOT DEFINED RUN)
  set(RUN ON)
endif()

function(run step)
  message(STATUS "[${MODE}] ${step}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "[${MODE}] ${step} failed (${rc})")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(configure_args -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build"
  -DCMAKE_BUILD_TYPE=${CONFIG})
string(TOUPPER "${CONFIG}" config_upper)
foreach(lang CXX C)
  if(DEFINED CONFIG_${lang}_FLAGS)
    list(APPEND configure_args "-DCMAKE_${lang}_FLAGS_${config_upper}=${CONFIG_${lang}_FLAGS}")
  endif()
endforeach()
if(GENERATOR)
  list(APPEND configure_args -G "${GENERATOR}")
endif()
if(CXX_COMPILER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
if(CONSUMER_WERROR)
  list(APPEND configure_args -DCONSUMER_WERROR=ON)
endif()
if(TOOLCHAIN_FILE)
  list(APPEND configure_args "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE}")
endif()
if(URDF)
  list(APPEND configure_args "-DCONSUMER_URDF=${URDF}")
endif()
if(URDF_TOOL)
  if(NOT EXISTS "${URDF_TOOL}")
    message(FATAL_ERROR "[${MODE}] no host hodyn-urdf at ${URDF_TOOL} (HODYN_URDF_EXECUTABLE "
      "of this build; the scripts build it in build/test first)")
  endif()
  list(APPEND configure_args "-DHODYN_URDF_EXECUTABLE=${URDF_TOOL}")
endif()
if(ROBOT_ROTORS)
  list(APPEND configure_args "-DCONSUMER_ROBOT_ROTORS=${ROBOT_ROTORS}")
endif()
if(ROBOT_ACTUATORS)
  list(APPEND configure_args "-DCONSUMER_ROBOT_ACTUATORS=${ROBOT_ACTUATORS}")
endif()
if(ROBOT_PROGRAMS)
  list(APPEND configure_args -DCONSUMER_ROBOT_PROGRAMS=ON)
endif()
if(EXTRA_ARGS)
  string(REPLACE "|" ";" extra_args "${EXTRA_ARGS}")
  list(APPEND configure_args ${extra_args})
endif()
foreach(expectation TARGETS ABSENT NATIVE)  # lists stay '|'-separated here
  if(DEFINED EXPECT_${expectation})
    list(APPEND configure_args "-DCONSUMER_EXPECT_${expectation}=${EXPECT_${expectation}}")
  endif()
endforeach()
string(REPLACE "|" ";" emulator "${EMULATOR}")

if(MODE STREQUAL "find_package")
  set(prefix "${WORK_DIR}/prefix")
  run(install ${CMAKE_COMMAND} --install "${HODYN_BUILD_DIR}" --config ${CONFIG}
    --prefix "${prefix}")
  foreach(f include/hodyn/scalar_traits.hpp include/hodyn/plugin/abi.h
            lib/cmake/hodyn/hodyn_urdf.cmake lib/cmake/hodyn/hodyn_native.cmake)
    if(NOT EXISTS "${prefix}/${f}")
      message(FATAL_ERROR "[${MODE}] ${f} was not installed")
    endif()
  endforeach()
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${prefix}")
elseif(MODE STREQUAL "add_subdirectory")
  list(APPEND configure_args "-DHODYN_SOURCE_DIR=${HODYN_REPO}")
else()
  message(FATAL_ERROR "run_consumer.cmake: unknown MODE '${MODE}'")
endif()

run(configure ${CMAKE_COMMAND} ${configure_args})
run(build ${CMAKE_COMMAND} --build "${WORK_DIR}/build" --config ${CONFIG})

if(EXISTS "${WORK_DIR}/build/${CONFIG}/${EXECUTABLE}")
  set(exe "${WORK_DIR}/build/${CONFIG}/${EXECUTABLE}")
else()
  set(exe "${WORK_DIR}/build/${EXECUTABLE}")
endif()
if(NOT EXISTS "${exe}")
  message(FATAL_ERROR "[${MODE}] the build made no ${exe}")
endif()
if(RUN)
  message(STATUS "[${MODE}] run: ${emulator} ${exe}")
  execute_process(COMMAND ${emulator} "${exe}" RESULT_VARIABLE rc OUTPUT_VARIABLE output
    ERROR_VARIABLE output)
  message("${output}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "[${MODE}] run failed (${rc})")
  endif()
  string(REPLACE "|" ";" expectations "${RUN_EXPECT}")
  foreach(expectation IN LISTS expectations)
    if(NOT output MATCHES "${expectation}")
      message(FATAL_ERROR "[${MODE}] the output does not match '${expectation}'")
    endif()
  endforeach()
else()
  message(STATUS "[${MODE}] ${exe} linked (not run)")
endif()
if(RUN_ALSO)
  string(REPLACE "|" ";" also "${RUN_ALSO}")
  list(POP_FRONT also program)
  message(STATUS "[${MODE}] run: ${emulator} ${program} ${also}")
  execute_process(COMMAND ${emulator} "${WORK_DIR}/build/${program}" ${also}
    WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
  message("${output}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "[${MODE}] ${program} failed (${rc})")
  endif()
  if(RUN_ALSO_EXPECT AND NOT output MATCHES "${RUN_ALSO_EXPECT}")
    message(FATAL_ERROR "[${MODE}] the output of ${program} does not match '${RUN_ALSO_EXPECT}'")
  endif()
endif()
if(RUN_SCRIPT)
  string(REPLACE "|" ";" script "${RUN_SCRIPT}")
  list(POP_FRONT script script_path)
  run(script bash "${script_path}" "${WORK_DIR}/build" ${script})
endif()
message(STATUS "[${MODE}] consumer OK")
