# ctest case UrdfRotors.GenerateRebuildsWhenTheRotorFileChanges (cmake -P):
# hodyn_urdf_generate(... ROTORS f) in a small consumer project
# (rotors_rebuild/CMakeLists.txt) writes <ns>_rotors.hpp; after an edit of f
# the next build writes it again with the new number; after a bad edit the
# build fails and the header of the last good file stays. With ACTUATORS a
# it also writes <ns>_robot.hpp; an edit of a alone regenerates it with a new
# robot id (docs/robot-description.md), a bad edit of a fails the build and
# keeps it.
# -D: TOOL (hodyn-urdf), URDF, ROTORS (a good rotors.json), ACTUATORS (a good
#     actuators.json), WORK, GENERATOR, SOURCE_DIR (tests/urdf), HODYN_URDF_CMAKE.
cmake_minimum_required(VERSION 3.25)

# check(<message> <condition>...): fails the test with <message> unless the
# if() condition holds.
function(check message)
  if(NOT (${ARGN}))
    message(FATAL_ERROR "rotors_rebuild: ${message}")
  endif()
endfunction()

function(build expect_success)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build --target robot_generate
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect_success AND NOT rc EQUAL 0)
    message(FATAL_ERROR "rotors_rebuild: build failed (${rc}):\n${out}\n${err}")
  elseif(NOT expect_success AND rc EQUAL 0)
    message(FATAL_ERROR "rotors_rebuild: build of a bad rotor file succeeded:\n${out}")
  endif()
  set(build_output "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(READ ${ROTORS} good)
set(rotors ${WORK}/rotors.json)
file(WRITE ${rotors} "${good}")
file(READ ${ACTUATORS} good_actuators)
set(actuators ${WORK}/actuators.json)
file(WRITE ${actuators} "${good_actuators}")

execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/rotors_rebuild -B ${WORK}/build
    -G ${GENERATOR} -DHODYN_URDF_CMAKE=${HODYN_URDF_CMAKE} -DHODYN_URDF_EXECUTABLE=${TOOL}
    -DURDF=${URDF} -DROTORS=${rotors} -DACTUATORS=${actuators}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
check("configure failed:\n${out}\n${err}" rc EQUAL 0)
file(READ ${WORK}/build/rotor_header_path.txt header)
check("HODYN_URDF_ROTOR_HEADER is '${header}'" header MATCHES "/rebuilt_rotors.hpp$")
get_filename_component(include_dir ${header} DIRECTORY)

# First build: the four outputs in one include directory.
build(TRUE)
foreach(f rebuilt.hpp rebuilt.json rebuilt_rotors.hpp rebuilt_robot.hpp)
  check("${f} not generated" EXISTS ${include_dir}/${f})
endforeach()
file(READ ${header} text)
check("rotor header not in namespace rebuilt" text MATCHES "namespace rebuilt {")
check("rotor header without the TiltHex c_f 1.1e-05" text MATCHES "1[.]1e-05")
check("rotor header with 1.3e-05 before the edit" NOT text MATCHES "1[.]3e-05")

# An edit of the rotor file alone: the next build regenerates the header.
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)  # a later mtime on any file system
string(REPLACE "\"thrust_coefficient\": 1.1e-05" "\"thrust_coefficient\": 1.3e-05" edited "${good}")
check("could not edit the rotor file" NOT edited STREQUAL good)
file(WRITE ${rotors} "${edited}")
build(TRUE)
file(READ ${header} text)
check("the rotor header was not regenerated after the edit" text MATCHES "1[.]3e-05")
check("the rotor header still holds 1.1e-05 after the edit" NOT text MATCHES "1[.]1e-05")
file(READ ${include_dir}/rebuilt.hpp robot_before)

# A bad edit: the build fails with the tool's one line, the last good
# outputs stay, no temporary file is left.
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
string(REPLACE "\"spin\": 1," "\"spin\": 3," bad "${edited}")
check("could not break the rotor file" NOT bad STREQUAL edited)
file(WRITE ${rotors} "${bad}")
build(FALSE)
check("no error naming rotors[1].spin:\n${build_output}" build_output MATCHES "rotors[[]1[]][.]spin")
file(READ ${header} text)
check("the failed build changed the rotor header" text MATCHES "1[.]3e-05")
file(READ ${include_dir}/rebuilt.hpp robot_after)
check("the failed build changed the robot header" robot_after STREQUAL robot_before)
file(GLOB leftovers ${include_dir}/*tmp*)
check("temporary files left: ${leftovers}" NOT leftovers)

# The robot header: an edit of the actuators file alone regenerates it with
# another id; a bad edit fails the build and keeps it.
file(WRITE ${rotors} "${edited}")
build(TRUE)
file(READ ${WORK}/build/robot_header_path.txt robot_header)
check("HODYN_URDF_ROBOT_HEADER is '${robot_header}'" robot_header MATCHES "/rebuilt_robot.hpp$")
file(READ ${robot_header} robot_text)
string(REGEX MATCH "kId = 0x[0-9a-f]+u" id_before "${robot_text}")
check("no kId in the robot header" id_before)
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
string(REPLACE "\"stiffness\": 50.0" "\"stiffness\": 55.0" stiffer "${good_actuators}")
check("could not edit the actuators file" NOT stiffer STREQUAL good_actuators)
file(WRITE ${actuators} "${stiffer}")
build(TRUE)
file(READ ${robot_header} robot_text)
string(REGEX MATCH "kId = 0x[0-9a-f]+u" id_after "${robot_text}")
check("the robot header was not regenerated after an actuators edit" robot_text MATCHES "55[.]0")
check("the robot id did not change with the stiffness (${id_after})" NOT id_after STREQUAL id_before)
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
string(REPLACE "\"damping\": 0.0" "\"damping\": -1.0" bad_actuators "${stiffer}")
file(WRITE ${actuators} "${bad_actuators}")
build(FALSE)
check("no error naming joints.arm1_joint1.damping:\n${build_output}"
  build_output MATCHES "joints[.]arm1_joint1[.]damping")
file(READ ${robot_header} robot_kept)
check("the failed build changed the robot header" robot_kept STREQUAL robot_text)
message(STATUS "rotors_rebuild: generated, regenerated after an edit, kept after a bad edit; "
  "robot header regenerated with a new id after an actuators edit, kept after a bad one")
