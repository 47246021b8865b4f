# hodyn_urdf_generate(<target> URDF <file.urdf> NAME <ns> [ROOT <link>]
#                     [FIXED_BASE] [HELICAL <joint>=<pitch>...]
#                     [SPHERICAL <j1>,<j2>,<j3>...] [UNIVERSAL <j1>,<j2>...]
#                     [ROTORS <rotors.json> [ACTUATORS <actuators.json>]])
#
# Runs hodyn-urdf (docs/urdf.md) at build time and creates the INTERFACE
# library <target> (links hodyn::core) whose include directory holds <ns>.hpp
# — namespace <ns> with Tree, make_model<Scalar>(), names and limits — and
# <ns>.json, the same parameters for hodyn::robot_json. With ROTORS (a rotor
# description, docs/rotors.md) it also holds <ns>_rotors.hpp — kNumRotors,
# kRotors and make_rotors<Scalar>() in the same namespace <ns>, a header of
# its own that includes only core headers — and <ns>_robot.hpp, the robot type
# <ns>::Robot (model, joint actuators, limits, rotors, name, id;
# docs/robot-description.md). ACTUATORS (only with ROTORS) says how each joint
# is driven; without it every joint is rigid with its URDF effort limit, and a
# joint without a finite one fails the build. All are regenerated together
# when the URDF, the rotor file, the actuators file or the tool changes. <ns>
# is a C++ identifier. Target properties: HODYN_URDF_HEADER,
# HODYN_URDF_PARAMETERS and, with ROTORS, HODYN_URDF_ROTOR_HEADER and
# HODYN_URDF_ROBOT_HEADER (the generated files' paths).
#
# FIXED_BASE runs hodyn-urdf --fixed-base: the root link is welded to the
# world at its URDF pose (a fixed-base arm), so the header's Tree has
# JointKind::kFixedBase at body 0 and ν = q̇ (kNumDofs = kNumJoints); the
# algorithms ignore the base fields of their inputs and base_wrench is the
# wrench the mount exerts on the root (docs/urdf.md, "Fixed-base arms"). Not
# with ROTORS (a flying robot's base floats; the tool refuses the pair).
#
# HELICAL runs hodyn-urdf --helical <joint>=<pitch> for each entry: that
# revolute or continuous URDF joint becomes JointKind::kHelical, a screw
# advancing <pitch> metres per radian along its axis (URDF has no screw
# joint; docs/urdf.md, "Helical joints"). The tool checks the entries.
#
# SPHERICAL runs hodyn-urdf --spherical <j1>,<j2>,<j3> for each entry: that
# chain of three revolute or continuous URDF joints, whose axes meet in one
# point and whose two links between them are massless, becomes one
# JointKind::kSpherical joint about that point (URDF has no ball joint;
# docs/urdf.md, "Spherical joints"). The tool checks the entries. Not with
# ROTORS: the flying runtime does not take ball joints yet.
#
# UNIVERSAL runs hodyn-urdf --universal <j1>,<j2> for each entry: that pair of
# revolute or continuous URDF joints, whose axes meet in one point and are not
# parallel and whose link between them is massless, becomes one
# JointKind::kUniversal (Cardan) joint (docs/urdf.md, "Universal joints"). The
# tool checks the entries. Not with ROTORS, as SPHERICAL.
#
# Which hodyn-urdf runs: the cache variable HODYN_URDF_EXECUTABLE if set (a
# host build of the tool; required when cross-compiling, since the generator
# runs on the build machine); otherwise the imported target hodyn::hodyn-urdf
# of an installed hodyn package (a program of the build machine), or, in a
# native build, the target hodyn-urdf of this build (hodyn's own tools).
#
# Works from the source tree (included by hodyn's top-level CMakeLists.txt) and
# from an installed package: it reads no path but its arguments and the above.

set(HODYN_URDF_EXECUTABLE "" CACHE FILEPATH
  "hodyn-urdf run by hodyn_urdf_generate() (a host executable; needed when cross-compiling)")

function(hodyn_urdf_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "FIXED_BASE" "URDF;NAME;ROOT;ROTORS;ACTUATORS"
    "HELICAL;SPHERICAL;UNIVERSAL")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): unexpected arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_URDF OR NOT arg_NAME)
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): URDF <file> and NAME <ns> are required")
  endif()
  if(NOT arg_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): NAME '${arg_NAME}' is not a C++ identifier")
  endif()
  if(arg_FIXED_BASE AND (DEFINED arg_ROTORS OR "ROTORS" IN_LIST arg_KEYWORDS_MISSING_VALUES))
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): FIXED_BASE is for arms welded to the "
      "world, not with ROTORS (a flying robot's base floats)")
  endif()
  if("HELICAL" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): HELICAL needs <joint>=<pitch> entries")
  endif()
  if("SPHERICAL" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): SPHERICAL needs <j1>,<j2>,<j3> entries")
  endif()
  if("UNIVERSAL" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): UNIVERSAL needs <j1>,<j2> entries")
  endif()
  if(arg_UNIVERSAL AND (DEFINED arg_ROTORS OR "ROTORS" IN_LIST arg_KEYWORDS_MISSING_VALUES))
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): UNIVERSAL is not with ROTORS (the "
      "flying runtime does not take universal joints yet)")
  endif()
  if(arg_SPHERICAL AND (DEFINED arg_ROTORS OR "ROTORS" IN_LIST arg_KEYWORDS_MISSING_VALUES))
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): SPHERICAL is not with ROTORS (the "
      "flying runtime does not take ball joints yet)")
  endif()
  get_filename_component(urdf "${arg_URDF}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${urdf}")
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): no URDF file ${urdf}")
  endif()
  if(DEFINED arg_ROTORS OR "ROTORS" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    if(NOT arg_ROTORS)
      message(FATAL_ERROR "hodyn_urdf_generate(${target}): ROTORS needs a rotors.json file")
    endif()
    get_filename_component(rotors "${arg_ROTORS}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${rotors}")
      message(FATAL_ERROR "hodyn_urdf_generate(${target}): no rotor file ${rotors}")
    endif()
  endif()
  if(DEFINED arg_ACTUATORS OR "ACTUATORS" IN_LIST arg_KEYWORDS_MISSING_VALUES)
    if(NOT arg_ACTUATORS)
      message(FATAL_ERROR "hodyn_urdf_generate(${target}): ACTUATORS needs an actuators.json file")
    endif()
    if(NOT arg_ROTORS)
      message(FATAL_ERROR "hodyn_urdf_generate(${target}): ACTUATORS needs ROTORS (the robot "
        "header needs both)")
    endif()
    get_filename_component(actuators "${arg_ACTUATORS}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${actuators}")
      message(FATAL_ERROR "hodyn_urdf_generate(${target}): no actuators file ${actuators}")
    endif()
  endif()

  if(HODYN_URDF_EXECUTABLE)
    set(tool "${HODYN_URDF_EXECUTABLE}")
    set(tool_dependency "${HODYN_URDF_EXECUTABLE}")
  elseif(TARGET hodyn::hodyn-urdf)  # an installed package's program of the build machine
    set(tool "$<TARGET_FILE:hodyn::hodyn-urdf>")
    set(tool_dependency "$<TARGET_FILE:hodyn::hodyn-urdf>")
  elseif(TARGET hodyn-urdf AND NOT CMAKE_CROSSCOMPILING)
    set(tool "$<TARGET_FILE:hodyn-urdf>")
    set(tool_dependency hodyn-urdf)
  elseif(CMAKE_CROSSCOMPILING)
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): cross-compiling; set "
      "HODYN_URDF_EXECUTABLE to a hodyn-urdf built for the build machine")
  else()
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): no hodyn-urdf (build hodyn's tools, "
      "use an installed hodyn with its tools, or set HODYN_URDF_EXECUTABLE)")
  endif()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/hodyn_urdf/${target}")
  set(header "${out_dir}/${arg_NAME}.hpp")
  set(parameters "${out_dir}/${arg_NAME}.json")
  set(root_args)
  if(arg_ROOT)
    set(root_args --root "${arg_ROOT}")
  endif()
  if(arg_FIXED_BASE)
    list(APPEND root_args --fixed-base)
  endif()
  foreach(helical IN LISTS arg_HELICAL)
    list(APPEND root_args --helical "${helical}")
  endforeach()
  foreach(spherical IN LISTS arg_SPHERICAL)
    list(APPEND root_args --spherical "${spherical}")
  endforeach()
  foreach(universal IN LISTS arg_UNIVERSAL)
    list(APPEND root_args --universal "${universal}")
  endforeach()
  # One run writes every output, all or nothing (docs/urdf.md), so a rotor
  # file change regenerates the robot header too (with the same text).
  set(outputs "${header}" "${parameters}")
  set(rotor_args)
  set(rotor_dependency)
  set(comment "hodyn-urdf: ${arg_NAME}.hpp from ${arg_URDF}")
  if(arg_FIXED_BASE)
    string(APPEND comment " (fixed base)")
  endif()
  if(arg_HELICAL)
    string(APPEND comment " (helical: ${arg_HELICAL})")
  endif()
  if(arg_SPHERICAL)
    string(APPEND comment " (spherical: ${arg_SPHERICAL})")
  endif()
  if(arg_UNIVERSAL)
    string(APPEND comment " (universal: ${arg_UNIVERSAL})")
  endif()
  if(arg_ROTORS)
    set(rotor_header "${out_dir}/${arg_NAME}_rotors.hpp")
    set(robot_header "${out_dir}/${arg_NAME}_robot.hpp")
    list(APPEND outputs "${rotor_header}" "${robot_header}")
    set(rotor_args --rotors "${rotors}" --rotor-header "${rotor_header}"
                   --robot-header "${robot_header}")
    set(rotor_dependency "${rotors}")
    string(APPEND comment ", ${arg_NAME}_rotors.hpp from ${arg_ROTORS}, ${arg_NAME}_robot.hpp")
    if(arg_ACTUATORS)
      list(APPEND rotor_args --actuators "${actuators}")
      list(APPEND rotor_dependency "${actuators}")
      string(APPEND comment " with ${arg_ACTUATORS}")
    endif()
  endif()
  file(MAKE_DIRECTORY "${out_dir}")
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${tool}" ${root_args} --name "${arg_NAME}" --header "${header}"
            --parameters "${parameters}" ${rotor_args} "${urdf}"
    DEPENDS "${urdf}" ${rotor_dependency} ${tool_dependency}
    COMMENT "${comment}"
    VERBATIM)
  add_custom_target(${target}_generate DEPENDS ${outputs})

  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE "${out_dir}")
  target_link_libraries(${target} INTERFACE hodyn::core)
  # An interface library's dependencies are followed by everything that
  # links it: the header exists before any of its users compiles.
  add_dependencies(${target} ${target}_generate)
  set_target_properties(${target} PROPERTIES
    HODYN_URDF_HEADER "${header}" HODYN_URDF_PARAMETERS "${parameters}")
  if(arg_ROTORS)
    set_target_properties(${target} PROPERTIES HODYN_URDF_ROTOR_HEADER "${rotor_header}"
      HODYN_URDF_ROBOT_HEADER "${robot_header}")
  endif()
endfunction()
