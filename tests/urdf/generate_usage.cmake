# ctest UrdfGenerate.BadArgumentsFailTheConfigure: hodyn_urdf_generate() and
# hodyn_add_robot() refuse bad arguments at configure time with a message
# naming the function, the target and the culprit (docs/robustness.md, "CMake
# functions"). Each case configures a tiny project (no language) that
# includes the function's file and calls it once; the configure must fail and
# its output hold the expected words. The last hodyn_urdf_generate() case has
# good arguments and no hodyn-urdf, so it fails only at the tool lookup: the
# checks before it let good arguments through.
#
#   cmake -DHODYN_CMAKE_DIR=<repo>/cmake -DWORK=<dir> -P generate_usage.cmake
cmake_minimum_required(VERSION 3.16)
foreach(v HODYN_CMAKE_DIR WORK)
  if(NOT ${v})
    message(FATAL_ERROR "generate_usage.cmake: -D${v}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/x.urdf" "<robot name=\"x\"/>\n")
file(WRITE "${WORK}/r.json" "{}\n")
file(WRITE "${WORK}/a.json" "{}\n")

set(failures 0)
set(index 0)
# expect_refused(<file to include> <call> <expected words>)
function(expect_refused include call words)
  math(EXPR i "${index} + 1")
  set(index ${i} PARENT_SCOPE)
  set(dir "${WORK}/case${i}")
  file(WRITE "${dir}/CMakeLists.txt"
    "cmake_minimum_required(VERSION 3.16)\nproject(t NONE)\n"
    "include(${HODYN_CMAKE_DIR}/${include})\n${call}\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${dir}" -B "${dir}/build"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  # CMake wraps long messages; compare with the line breaks and indents gone.
  string(REGEX REPLACE "[ \t\r\n]+" " " text "${out} ${err}")
  string(FIND "${text}" "${words}" at)
  if(rc EQUAL 0 OR at EQUAL -1)
    message(SEND_ERROR "FAIL ${call}: exit ${rc}, expected a failure with '${words}':\n${err}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  else()
    message(STATUS "ok   ${call}: ${words}")
  endif()
endfunction()

set(u hodyn_urdf.cmake)
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME 2bad)"
  "hodyn_urdf_generate(m): NAME '2bad' is not a C++ identifier")
expect_refused(${u} "hodyn_urdf_generate(m NAME good)"
  "hodyn_urdf_generate(m): URDF <file> and NAME <ns> are required")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/missing.urdf NAME good)"
  "hodyn_urdf_generate(m): no URDF file ${WORK}/missing.urdf")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good ROTORS)"
  "hodyn_urdf_generate(m): ROTORS needs a rotors.json file")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good ROTORS ${WORK}/no.json)"
  "hodyn_urdf_generate(m): no rotor file ${WORK}/no.json")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good ACTUATORS ${WORK}/a.json)"
  "hodyn_urdf_generate(m): ACTUATORS needs ROTORS")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good HELICAL)"
  "hodyn_urdf_generate(m): HELICAL needs <joint>=<pitch> entries")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good SPHERICAL)"
  "hodyn_urdf_generate(m): SPHERICAL needs <j1>,<j2>,<j3> entries")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good SPHERICAL a,b,c ROTORS ${WORK}/r.json)"
  "hodyn_urdf_generate(m): SPHERICAL is not with ROTORS (the flying runtime does not take ball joints yet)")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good UNIVERSAL)"
  "hodyn_urdf_generate(m): UNIVERSAL needs <j1>,<j2> entries")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good UNIVERSAL a,b ROTORS ${WORK}/r.json)"
  "hodyn_urdf_generate(m): UNIVERSAL is not with ROTORS (the flying runtime does not take universal joints yet)")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good BOGUS)"
  "hodyn_urdf_generate(m): unexpected arguments BOGUS")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good)"
  "hodyn_urdf_generate(m): no hodyn-urdf")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good FIXED_BASE HELICAL s=0.01)"
  "hodyn_urdf_generate(m): no hodyn-urdf")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good SPHERICAL a,b,c d,e,f)"
  "hodyn_urdf_generate(m): no hodyn-urdf")
expect_refused(${u} "hodyn_urdf_generate(m URDF ${WORK}/x.urdf NAME good UNIVERSAL a,b c,d SPHERICAL e,f,g)"
  "hodyn_urdf_generate(m): no hodyn-urdf")
set(r hodyn_robot.cmake)
expect_refused(${r} "hodyn_add_robot(2bad URDF ${WORK}/x.urdf ROTORS ${WORK}/r.json)"
  "hodyn_add_robot(2bad): the name is not a C++ identifier")
expect_refused(${r} "hodyn_add_robot(r URDF ${WORK}/x.urdf)"
  "hodyn_add_robot(r): URDF <file> and ROTORS <rotors.json> are required")
expect_refused(${r} "hodyn_add_robot(r URDF ${WORK}/x.urdf ROTORS ${WORK}/r.json EXTRA)"
  "hodyn_add_robot(r): unexpected arguments EXTRA")

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} failure(s)")
endif()
message(STATUS "0 failure(s)")
