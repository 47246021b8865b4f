# Configure, build and run tests/consumer against hodyn. Run with cmake -P.
#
# Required -D variables:
#   MODE                find_package | add_subdirectory
#   HODYN_REPO          hodyn source tree
#   CONSUMER_SOURCE_DIR tests/consumer
#   HODYN_BUILD_DIR     hodyn build tree (installed from in find_package mode)
#   WORK_DIR            scratch directory, wiped first
# Optional: CONFIG, GENERATOR, CXX_COMPILER, CONSUMER_WERROR,
#   TOOLCHAIN_FILE (cross build: the consumer uses the same toolchain) and
#   EMULATOR (runs the consumer; a list with '|' for ';')
cmake_minimum_required(VERSION 3.25)

foreach(var MODE HODYN_REPO CONSUMER_SOURCE_DIR HODYN_BUILD_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: ${var} is not set")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
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
string(REPLACE "|" ";" emulator "${EMULATOR}")

if(MODE STREQUAL "find_package")
  set(prefix "${WORK_DIR}/prefix")
  run(install ${CMAKE_COMMAND} --install "${HODYN_BUILD_DIR}" --config ${CONFIG}
    --prefix "${prefix}")
  foreach(f include/hodyn/scalar_traits.hpp)
    if(NOT EXISTS "${prefix}/${f}")
      message(FATAL_ERROR "[${MODE}] ${f} was not installed")
    endif()
  endforeach()
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${prefix}")
  if(TOOLCHAIN_FILE)
    # A cross toolchain searches packages only below its sysroot; the prefix
    # is outside it, so the package directory is named explicitly.
    list(APPEND configure_args "-Dhodyn_DIR=${prefix}/lib/cmake/hodyn")
  endif()
elseif(MODE STREQUAL "add_subdirectory")
  list(APPEND configure_args "-DHODYN_SOURCE_DIR=${HODYN_REPO}")
else()
  message(FATAL_ERROR "run_consumer.cmake: unknown MODE '${MODE}'")
endif()

run(configure ${CMAKE_COMMAND} ${configure_args})
run(build ${CMAKE_COMMAND} --build "${WORK_DIR}/build" --config ${CONFIG})

if(EXISTS "${WORK_DIR}/build/${CONFIG}/consumer${CMAKE_EXECUTABLE_SUFFIX}")
  set(exe "${WORK_DIR}/build/${CONFIG}/consumer${CMAKE_EXECUTABLE_SUFFIX}")
else()
  set(exe "${WORK_DIR}/build/consumer${CMAKE_EXECUTABLE_SUFFIX}")
endif()
run(run ${emulator} "${exe}")
message(STATUS "[${MODE}] consumer OK")
