# bench/mujoco.cmake — finds MuJoCo (Debian: libmujoco-dev) for the optional
# MuJoCo baseline and defines the imported target hodyn_bench::mujoco (GLOBAL,
# so tests/ and bench/ can both include this file). Looks for the header and
# the library directly: the Debian 2.2.2 package's mujocoConfig.cmake lists
# /usr/include/libqhull_r/ as an include directory, which does not exist unless
# libqhull-dev is installed, and CMake then refuses to generate.
if(NOT TARGET hodyn_bench::mujoco)
  find_path(HODYN_MUJOCO_INCLUDE_DIR mujoco/mujoco.h)
  find_library(HODYN_MUJOCO_LIBRARY mujoco)
  if(HODYN_MUJOCO_INCLUDE_DIR AND HODYN_MUJOCO_LIBRARY)
    add_library(hodyn_bench::mujoco SHARED IMPORTED GLOBAL)
    set_target_properties(hodyn_bench::mujoco PROPERTIES
      IMPORTED_LOCATION "${HODYN_MUJOCO_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${HODYN_MUJOCO_INCLUDE_DIR}")
  endif()
endif()
