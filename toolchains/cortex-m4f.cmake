# CMake toolchain file: Cortex-M4F (FPv4-SP-D16, single precision in hardware) on QEMU's mps2-an386.
# cmake -DCMAKE_TOOLCHAIN_FILE=toolchains/cortex-m4f.cmake ...
set(DUALRATE_CPU_FLAGS "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
set(DUALRATE_TARGET cortex-m4f)  # names the portable math built for it (find_package(dualrate))
set(DUALRATE_BOARD mps2-an386)
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
