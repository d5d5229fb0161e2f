# CMake toolchain file: two Cortex-M33 (Armv8-M mainline, FPv5-SP-D16 each) on QEMU's mps2-an521
# (SSE-200). Programs start on core 0; targets/cortex-m/dual_core_main.cpp shows how to start
# core 1. cmake -DCMAKE_TOOLCHAIN_FILE=toolchains/cortex-m33-dual.cmake ...
set(DUALRATE_CPU_FLAGS "-mcpu=cortex-m33 -mthumb -mfpu=fpv5-sp-d16 -mfloat-abi=hard")
set(DUALRATE_TARGET cortex-m33-dual)  # names the portable math built for it (find_package(dualrate))
set(DUALRATE_BOARD mps2-an521)
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
