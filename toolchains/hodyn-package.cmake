# Shared part of every toolchain file (included by linux-gnu-common.cmake and
# arm-none-eabi-common.cmake): find an installed hodyn outside the sysroot.
#
# The toolchains search package configs only below the sysroot
# (CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY), so a hodyn installed in
# /opt/hodyn would not be found by a cross-compiled project. hodyn's package is
# safe to take from anywhere: its headers and interface targets are the same
# for every architecture, and its compiled libraries are defined only for a
# project that targets the system they were built for (hodynConfig.cmake).
# So the prefixes a native build would search for hodyn — CMAKE_PREFIX_PATH,
# as a -D / cache variable, a variable set before project(), or the
# environment variable — are searched for <prefix>/lib/cmake/hodyn (or
# <prefix>/share/hodyn/cmake, or <prefix> itself) here, and the first hit
# becomes hodyn_DIR, which find_package uses as given. Nothing else is taken
# from those prefixes. The cross build of a downstream project therefore needs
# the one flag a native build needs:
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=<hodyn>/toolchains/aarch64-linux-gnu.cmake \
#         -DCMAKE_PREFIX_PATH=/opt/hodyn ...
#
# An explicit hodyn_DIR is kept; a hodyn installed into the sysroot itself is
# found by find_package without either.

if(NOT hodyn_DIR)  # undefined, empty or hodyn_DIR-NOTFOUND
  set(_hodyn_prefixes ${CMAKE_PREFIX_PATH})
  if(DEFINED ENV{CMAKE_PREFIX_PATH})
    cmake_path(CONVERT "$ENV{CMAKE_PREFIX_PATH}" TO_CMAKE_PATH_LIST _hodyn_env_prefixes)
    list(APPEND _hodyn_prefixes ${_hodyn_env_prefixes})
  endif()
  foreach(_hodyn_prefix IN LISTS _hodyn_prefixes)
    foreach(_hodyn_dir lib/cmake/hodyn share/hodyn/cmake .)
      if(EXISTS "${_hodyn_prefix}/${_hodyn_dir}/hodynConfig.cmake")
        cmake_path(SET _hodyn_found NORMALIZE "${_hodyn_prefix}/${_hodyn_dir}")
        string(REGEX REPLACE "/$" "" _hodyn_found "${_hodyn_found}")
        set(hodyn_DIR "${_hodyn_found}" CACHE PATH
          "hodyn's package (architecture-independent; found in CMAKE_PREFIX_PATH by the toolchain file)" FORCE)
        break()
      endif()
    endforeach()
    if(hodyn_DIR)
      break()
    endif()
  endforeach()
  unset(_hodyn_prefixes)
  unset(_hodyn_env_prefixes)
  unset(_hodyn_prefix)
  unset(_hodyn_dir)
  unset(_hodyn_found)
endif()
