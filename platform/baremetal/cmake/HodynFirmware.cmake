# platform/baremetal/cmake/HodynFirmware.cmake — CMake helpers of the
# bare-metal runtime (included by platform/baremetal/CMakeLists.txt; the
# functions are then visible in the whole project).
#
# hodyn_baremetal_add_board(<name> CPU <cpu> NUM_IRQS <n> LINKER_SCRIPT <file>
#                           SOURCES <board sources...> [DEFINITIONS <defs...>]
#                           [INCLUDES <dirs...>])
#   OBJECT library hodyn_baremetal_<name> (alias hodyn::baremetal::<name>):
#   the runtime + the board; linking it sets -nostartfiles and the board's
#   linker script; INCLUDES are public (the board's own headers). Only created
#   when <cpu> is the toolchain's CPU and, if HODYN_BAREMETAL_BOARDS is set,
#   <name> is in that list.
#
# hodyn_add_firmware(<target> BOARD <name> SOURCES <sources...> [LINK <targets...>])
#   <target>.elf for that board with hodyn's warnings, a map file, and
#   arm-none-eabi-size printed after every link. Returns silently (no target)
#   when the board is not built for this toolchain: check if(TARGET <target>).
#
# hodyn_add_qemu_test(NAME <test> IMAGE <target> MACHINE <qemu machine>
#                     [TIMEOUT <s>] [EXPECT <regex>...] [LABELS <labels...>])
#   Runs the image under qemu-system-arm with semihosting; passes only on exit
#   status 0 and every EXPECT regex found in the output.

set(HODYN_BAREMETAL_DIR ${CMAKE_CURRENT_LIST_DIR}/.. CACHE INTERNAL "")
find_program(HODYN_QEMU_SYSTEM_ARM qemu-system-arm)

set(HODYN_BAREMETAL_BOARDS "" CACHE STRING
  "Board ports to build (e.g. stm32f405); empty: every board of the toolchain's CPU")

function(hodyn_baremetal_add_board name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "CPU;NUM_IRQS;LINKER_SCRIPT"
    "SOURCES;DEFINITIONS;INCLUDES")
  if(NOT arg_CPU STREQUAL HODYN_BAREMETAL_CPU)
    return()
  endif()
  if(HODYN_BAREMETAL_BOARDS AND NOT name IN_LIST HODYN_BAREMETAL_BOARDS)
    return()
  endif()
  set(target hodyn_baremetal_${name})
  add_library(${target} OBJECT ${HODYN_BAREMETAL_RUNTIME_SOURCES} ${arg_SOURCES})
  add_library(hodyn::baremetal::${name} ALIAS ${target})
  target_include_directories(${target} PUBLIC ${HODYN_BAREMETAL_DIR}/include ${arg_INCLUDES})
  target_compile_definitions(${target} PRIVATE
    HODYN_BAREMETAL_NUM_IRQS=${arg_NUM_IRQS} ${arg_DEFINITIONS})
  target_compile_features(${target} PUBLIC cxx_std_17)
  target_link_libraries(${target} PRIVATE hodyn_baremetal_warnings)
  get_filename_component(script_dir ${arg_LINKER_SCRIPT} DIRECTORY)
  target_link_options(${target} INTERFACE
    -nostartfiles
    -L${HODYN_BAREMETAL_DIR}/linker
    -L${script_dir}
    -T${arg_LINKER_SCRIPT})
  set_property(TARGET ${target} PROPERTY HODYN_LINKER_SCRIPTS
    ${arg_LINKER_SCRIPT} ${HODYN_BAREMETAL_DIR}/linker/sections.ld)
  set_property(GLOBAL APPEND PROPERTY HODYN_BAREMETAL_BOARDS ${name})
endfunction()

function(hodyn_add_firmware target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "BOARD" "SOURCES;LINK")
  if(NOT TARGET hodyn_baremetal_${arg_BOARD})
    return()
  endif()
  add_executable(${target} ${arg_SOURCES})
  set_target_properties(${target} PROPERTIES SUFFIX .elf)
  target_link_libraries(${target} PRIVATE hodyn::baremetal::${arg_BOARD} hodyn_warnings ${arg_LINK})
  if(NOT HODYN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  target_link_options(${target} PRIVATE
    -Wl,-Map=$<TARGET_FILE_DIR:${target}>/${target}.map
    -Wl,--print-memory-usage)
  get_target_property(scripts hodyn_baremetal_${arg_BOARD} HODYN_LINKER_SCRIPTS)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${scripts})
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_SIZE} $<TARGET_FILE:${target}>
    VERBATIM)
endfunction()

function(hodyn_add_qemu_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;IMAGE;MACHINE;TIMEOUT" "EXPECT;LABELS")
  if(NOT TARGET ${arg_IMAGE})
    return()
  endif()
  if(NOT HODYN_QEMU_SYSTEM_ARM)
    message(STATUS "hodyn: qemu-system-arm not found, not running ${arg_NAME}")
    return()
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 120)
  endif()
  set(expect_args)
  foreach(regex IN LISTS arg_EXPECT)
    list(APPEND expect_args --expect "${regex}")
  endforeach()
  add_test(NAME ${arg_NAME}
    COMMAND bash ${HODYN_BAREMETAL_DIR}/scripts/run-qemu.sh
      --qemu ${HODYN_QEMU_SYSTEM_ARM} --machine ${arg_MACHINE} --timeout ${arg_TIMEOUT}
      ${expect_args} $<TARGET_FILE:${arg_IMAGE}>)
  # The script's own timeout ends qemu first; ctest's is the backstop.
  math(EXPR ctest_timeout "${arg_TIMEOUT} + 30")
  set_tests_properties(${arg_NAME} PROPERTIES TIMEOUT ${ctest_timeout} LABELS "${arg_LABELS}")
endfunction()
