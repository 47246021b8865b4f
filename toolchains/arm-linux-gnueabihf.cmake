# Cross toolchain: 32-bit ARM Linux, hard-float ABI (Debian armhf), e.g. a
# Raspberry Pi 2/3/4 or another Cortex-A board running a 32-bit OS. Debian
# packages: g++-arm-linux-gnueabihf, qemu-user. Preset: cross-armhf
# (docs/cross-linux.md).
#
# Code generation. Debian's armhf baseline (the compiler's default) is
# -march=armv7-a+fp -mfloat-abi=hard -mthumb: VFPv3-D16, no NEON, which also
# runs on the oldest ARMv7 boards. The dynamics are double-precision
# floating-point code, so this toolchain asks for the FPU that every
# Cortex-A7/A15/A17/A53/A72 has instead: -mfpu=neon-vfpv4 (32 double
# registers, fused multiply-add, NEON). Libraries from the sysroot stay at the
# baseline; the ABI (hard-float, AAPCS-VFP) is the same. For a Cortex-A8/A9
# board without VFPv4 set HODYN_ARMHF_FLAGS to
# "-march=armv7-a+fp -mfpu=vfpv3-d16 -mfloat-abi=hard" (the Debian default).
set(HODYN_ARMHF_FLAGS "-march=armv7-a -mfpu=neon-vfpv4 -mfloat-abi=hard -mthumb"
  CACHE STRING "Target CPU flags of the armhf cross build")
# -Wno-psabi: g++ prints a note at every std::vector<Eigen::Matrix> growth
# ("parameter passing ... changed in GCC 7.1"), about calling code built by
# GCC < 7.1; all of hodyn and its libraries are built by one compiler.
set(CMAKE_C_FLAGS_INIT "${HODYN_ARMHF_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${HODYN_ARMHF_FLAGS} -Wno-psabi")

set(HODYN_CROSS_TRIPLE arm-linux-gnueabihf)
set(HODYN_CROSS_PROCESSOR armv7l)
set(HODYN_CROSS_QEMU qemu-arm)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
