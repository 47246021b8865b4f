# Cross toolchain: 64-bit ARM Linux (aarch64 / ARMv8-A), e.g. Raspberry Pi 4/5
# and NVIDIA Jetson running a 64-bit OS. Debian packages:
# g++-aarch64-linux-gnu, qemu-user. Preset: cross-aarch64 (docs/cross-linux.md).
#
# Code generation: the compiler's default, generic ARMv8-A (runs on every
# 64-bit ARM core; FP and Advanced SIMD are part of the base ISA). For a
# specific board add e.g. -mcpu=cortex-a72 (Pi 4), -mcpu=cortex-a76 (Pi 5) or
# -mcpu=cortex-a78ae (Jetson Orin) to CMAKE_CXX_FLAGS.
set(HODYN_CROSS_TRIPLE aarch64-linux-gnu)
set(HODYN_CROSS_PROCESSOR aarch64)
set(HODYN_CROSS_QEMU qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/linux-gnu-common.cmake)
