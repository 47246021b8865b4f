# Bare-metal Cortex-M4F with the single-precision FPU (FPv4-SP-D16), e.g.
# STM32F4, or QEMU's mps2-an386. hodyn's scalar: float (double is emulated).
#   cmake --preset firmware-m4f   (cmake/presets/firmware.json)
set(HODYN_ARM_CPU_FLAGS "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb")
set(HODYN_BAREMETAL_CPU cortex-m4)
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
