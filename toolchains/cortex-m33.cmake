# CMake toolchain file: Cortex-M33 (Armv8-M mainline, FPv5-SP-D16: single precision in hardware)
# on QEMU's mps2-an505. cmake -DCMAKE_TOOLCHAIN_FILE=toolchains/cortex-m33.cmake ...
set(DUALRATE_CPU_FLAGS "-mcpu=cortex-m33 -mthumb -mfpu=fpv5-sp-d16 -mfloat-abi=hard")
set(DUALRATE_TARGET cortex-m33)  # names the portable math built for it (find_package(dualrate))
set(DUALRATE_BOARD mps2-an505)
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
