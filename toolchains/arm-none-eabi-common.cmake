# Shared part of the bare-metal ARM toolchain files (cortex-m7.cmake,
# cortex-m4f.cmake): arm-none-eabi GCC with newlib-nano, no operating system.
# The including file sets HODYN_ARM_CPU_FLAGS (-mcpu/-mfpu/-mfloat-abi) and
# HODYN_BAREMETAL_CPU first.
#
# Debian: apt-get install gcc-arm-none-eabi libstdc++-arm-none-eabi-newlib
# Another prefix: -DHODYN_ARM_TOOLCHAIN_PREFIX=/opt/arm-gnu/bin/arm-none-eabi-

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
# No OS, no crt0 of ours yet at try_compile time: check the compilers by
# building a static library instead of linking an executable.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

if(NOT HODYN_ARM_TOOLCHAIN_PREFIX)
  set(HODYN_ARM_TOOLCHAIN_PREFIX "arm-none-eabi-")
endif()
set(CMAKE_C_COMPILER ${HODYN_ARM_TOOLCHAIN_PREFIX}gcc)
set(CMAKE_CXX_COMPILER ${HODYN_ARM_TOOLCHAIN_PREFIX}g++)
set(CMAKE_ASM_COMPILER ${HODYN_ARM_TOOLCHAIN_PREFIX}gcc)
set(CMAKE_OBJCOPY ${HODYN_ARM_TOOLCHAIN_PREFIX}objcopy CACHE FILEPATH "objcopy of the ARM toolchain")
set(CMAKE_SIZE ${HODYN_ARM_TOOLCHAIN_PREFIX}size CACHE FILEPATH "size of the ARM toolchain")
set(CMAKE_NM ${HODYN_ARM_TOOLCHAIN_PREFIX}nm CACHE FILEPATH "nm of the ARM toolchain")

# Code and data in their own sections (so --gc-sections drops what is unused);
# C++ without exceptions, RTTI or thread-safe statics (no threads, no unwinder).
set(_hodyn_arm_common "${HODYN_ARM_CPU_FLAGS} -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "${_hodyn_arm_common}")
set(CMAKE_CXX_FLAGS_INIT "${_hodyn_arm_common} -fno-exceptions -fno-rtti -fno-threadsafe-statics")
set(CMAKE_ASM_FLAGS_INIT "${HODYN_ARM_CPU_FLAGS}")
# newlib-nano; no nosys/rdimon: the runtime (platform/baremetal) brings its own
# startup and system calls, and deliberately no _sbrk (no heap).
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nano.specs -Wl,--gc-sections")

# Libraries and headers only from the cross sysroot; programs from the host.
set(CMAKE_FIND_ROOT_PATH /usr/lib/arm-none-eabi)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Eigen is header-only and architecture-independent: take the host's package
# file explicitly (an existing Eigen3_DIR is used as is, so the re-rooted
# search above never picks host libraries for anything else).
if(NOT Eigen3_DIR)
  find_file(_hodyn_eigen3_config Eigen3Config.cmake
    PATHS $ENV{EIGEN3_DIR} /usr/share/eigen3/cmake /usr/local/share/eigen3/cmake
          /usr/lib/cmake/eigen3 /usr/local/lib/cmake/eigen3
    NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(_hodyn_eigen3_config)
    get_filename_component(_hodyn_eigen3_dir "${_hodyn_eigen3_config}" DIRECTORY)
    set(Eigen3_DIR "${_hodyn_eigen3_dir}" CACHE PATH "Eigen3's CMake package (host, header-only)")
  endif()
  unset(_hodyn_eigen3_config CACHE)
endif()

# hodyn's own package from CMAKE_PREFIX_PATH, outside the sysroot.
include(${CMAKE_CURRENT_LIST_DIR}/hodyn-package.cmake)

set(HODYN_BAREMETAL_CPU "${HODYN_BAREMETAL_CPU}" CACHE INTERNAL "Bare-metal CPU of the toolchain file")
