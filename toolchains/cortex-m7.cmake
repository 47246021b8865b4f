# Bare-metal Cortex-M7 with the double-precision FPU (FPv5-D16), e.g. STM32H7,
# or QEMU's mps2-an500. hodyn's scalar: double.
#   cmake --preset firmware-m7   (cmake/presets/firmware.json)
set(HODYN_ARM_CPU_FLAGS "-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard -mthumb")
set(HODYN_BAREMETAL_CPU cortex-m7)
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi-common.cmake)
