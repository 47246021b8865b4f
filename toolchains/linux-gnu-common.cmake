# Shared part of the Debian cross toolchains for ARM Linux
# (aarch64-linux-gnu.cmake, arm-linux-gnueabihf.cmake). Not a toolchain file
# by itself: the including file sets HODYN_CROSS_TRIPLE, HODYN_CROSS_QEMU and
# HODYN_CROSS_PROCESSOR first. See docs/cross-linux.md.
#
# Search policy: programs come from the host, libraries / headers / package
# configs only from the target sysroot /usr/<triple> (Debian's
# libc6-dev-<arch>-cross etc.), so no host (x86-64) library can be picked up.
# The only host files a cross build uses are header-only packages whose
# headers do not depend on the architecture, named explicitly below (and an
# installed hodyn found through CMAKE_PREFIX_PATH, hodyn-package.cmake):
#   - Eigen 3 (libeigen3-dev): its package config /usr/share/eigen3/cmake,
#     which points at /usr/include/eigen3 only;
#   - nlohmann_json (nlohmann-json3-dev): a small config in
#     toolchains/linux-header-only/ that exposes /usr/include/nlohmann alone,
#     not the whole host /usr/include (the upstream config would add
#     /usr/include, where host headers would shadow the target's).
# GoogleTest is built from source (/usr/src/googletest, Debian's googletest
# package) by tests/CMakeLists.txt when CMAKE_CROSSCOMPILING.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${HODYN_CROSS_PROCESSOR})

set(CMAKE_C_COMPILER ${HODYN_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${HODYN_CROSS_TRIPLE}-g++)

set(HODYN_CROSS_SYSROOT /usr/${HODYN_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH ${HODYN_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Header-only host packages: an explicit <Package>_DIR is used as given (it
# is not re-rooted), so only these two configs are read from the host.
if(NOT DEFINED Eigen3_DIR AND EXISTS /usr/share/eigen3/cmake/Eigen3Config.cmake)
  set(Eigen3_DIR /usr/share/eigen3/cmake CACHE PATH "Eigen 3 (header-only, from the host)")
endif()
if(NOT DEFINED nlohmann_json_DIR)
  set(nlohmann_json_DIR ${CMAKE_CURRENT_LIST_DIR}/linux-header-only/nlohmann_json
    CACHE PATH "nlohmann_json (header-only, from the host)")
endif()

# hodyn's own package from CMAKE_PREFIX_PATH, outside the sysroot.
include(${CMAKE_CURRENT_LIST_DIR}/hodyn-package.cmake)

# Run target executables (ctest, gtest_discover_tests) under QEMU user mode;
# -L makes the target's dynamic loader and shared libraries come from the sysroot.
set(CMAKE_CROSSCOMPILING_EMULATOR ${HODYN_CROSS_QEMU};-L;${HODYN_CROSS_SYSROOT})
