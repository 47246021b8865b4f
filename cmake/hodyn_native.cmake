# hodyn::native — compile for the instruction set of the machine that builds.
#
# One definition, used by hodyn's own build (the benchmarks with
# HODYN_NATIVE_ARCH=ON link it) and by the installed package (hodynConfig.cmake
# includes this file, so a consumer's hodyn::native is decided with the
# consumer's compiler on the consumer's machine, not frozen at hodyn's build):
#
#   target_link_libraries(my_app PRIVATE hodyn::core hodyn::native)
#
# The options, in INTERFACE_COMPILE_OPTIONS of hodyn::native:
#   GCC / Clang, native Linux build on x86 (x86_64, i686): -march=native
#     (every ISA extension of this CPU, tuned for it: AVX2/FMA, AVX-512 where
#     present — the coefficient lanes of the core widen with it);
#   GCC / Clang, native Linux build on ARM (aarch64, armv7/armv8 32-bit):
#     -mcpu=native (on ARM, -march=native selects the ISA only; -mcpu=native
#     also tunes for the core);
#   only when the compiler accepts the flag (check_cxx_compiler_flag); with
#   g++ also -Wno-maybe-uninitialized -Wno-uninitialized (its false positives
#   inside the AVX-512 intrinsics where Eigen's packet code is inlined);
#   Nothing anywhere else: cross builds (the build machine is not the target:
#   add e.g. -mcpu=cortex-a72 to CMAKE_CXX_FLAGS, docs/cross-linux.md), bare
#   metal (the toolchain's -mcpu/-mfpu already name the core), other systems
#   and compilers (MSVC).
# The binaries then run only on CPUs with the same extensions: use it for
# programs built on the machine that runs them (benchmarks, on-board builds).

include_guard(GLOBAL)
include(CheckCXXCompilerFlag)

# hodyn_native_arch_options(<out-var>): the list above for the current toolchain.
function(hodyn_native_arch_options out)
  set(options)
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("CXX" IN_LIST languages
     AND NOT CMAKE_CROSSCOMPILING
     AND CMAKE_SYSTEM_NAME STREQUAL "Linux"
     AND CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i[3-6]86)$")
      set(flag -march=native)
      set(check HODYN_CXX_ACCEPTS_MARCH_NATIVE)
    elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|armv[78].*|arm)$")
      set(flag -mcpu=native)
      set(check HODYN_CXX_ACCEPTS_MCPU_NATIVE)
    endif()
    if(flag)
      check_cxx_compiler_flag(${flag} ${check})
      if(${check})
        set(options ${flag})
        # g++ 12 reports "(may be) used uninitialized" inside its own AVX-512
        # intrinsics headers wherever Eigen's packet code (GEMM packing,
        # reductions, JacobiSVD) is inlined — false positives that fail a
        # -Werror build on an AVX-512 machine (the README's custom robot
        # example, 2026-11-26); the native code generation is what brings them.
        if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
          list(APPEND options -Wno-maybe-uninitialized -Wno-uninitialized)
        endif()
      endif()
    endif()
  endif()
  set(${out} "${options}" PARENT_SCOPE)
endfunction()

# hodyn_define_native_target(<target>): an INTERFACE library (IMPORTED when
# <target> has a namespace, as in the package config) carrying those options.
function(hodyn_define_native_target target)
  if(TARGET ${target})
    return()
  endif()
  hodyn_native_arch_options(options)
  if(target MATCHES "::")
    add_library(${target} INTERFACE IMPORTED)
  else()
    add_library(${target} INTERFACE)
  endif()
  if(options)
    set_property(TARGET ${target} PROPERTY INTERFACE_COMPILE_OPTIONS ${options})
  endif()
endfunction()
