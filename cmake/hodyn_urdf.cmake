# hodyn_urdf_generate(<target> URDF <file.urdf> NAME <ns> [ROOT <link>])
#
# Runs hodyn-urdf (docs/urdf.md) at build time and creates the INTERFACE
# library <target> (links hodyn::core) whose include directory holds <ns>.hpp
# — namespace <ns> with Tree, make_model<Scalar>(), names and limits — and
# <ns>.json, the same parameters for hodyn::robot_json. Both are regenerated
# when the URDF or the tool changes. <ns> is a C++ identifier.
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
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "URDF;NAME;ROOT" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): unexpected arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_URDF OR NOT arg_NAME)
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): URDF <file> and NAME <ns> are required")
  endif()
  if(NOT arg_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): NAME '${arg_NAME}' is not a C++ identifier")
  endif()
  get_filename_component(urdf "${arg_URDF}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${urdf}")
    message(FATAL_ERROR "hodyn_urdf_generate(${target}): no URDF file ${urdf}")
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
  file(MAKE_DIRECTORY "${out_dir}")
  add_custom_command(
    OUTPUT "${header}" "${parameters}"
    COMMAND "${tool}" ${root_args} --name "${arg_NAME}" --header "${header}"
            --parameters "${parameters}" "${urdf}"
    DEPENDS "${urdf}" ${tool_dependency}
    COMMENT "hodyn-urdf: ${arg_NAME}.hpp from ${arg_URDF}"
    VERBATIM)
  add_custom_target(${target}_generate DEPENDS "${header}" "${parameters}")

  add_library(${target} INTERFACE)
  target_include_directories(${target} INTERFACE "${out_dir}")
  target_link_libraries(${target} INTERFACE hodyn::core)
  # An interface library's dependencies are followed by everything that
  # links it: the header exists before any of its users compiles.
  add_dependencies(${target} ${target}_generate)
  set_target_properties(${target} PROPERTIES
    HODYN_URDF_HEADER "${header}" HODYN_URDF_PARAMETERS "${parameters}")
endfunction()
