# CMake toolchain file: Cortex-M7 (FPv5-D16, double precision in hardware) on QEMU's mps2-an500.
# cmake -DCMAKE_TOOLCHAIN_FILE=toolchains/cortex-m7.cmake ...
set(DUALRATE_CPU_FLAGS "-mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard")
set(DUALRATE_TARGET cortex-m7)  # names the portable math built for it (find_package(dualrate))
set(DUALRATE_BOARD mps2-an500)
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
