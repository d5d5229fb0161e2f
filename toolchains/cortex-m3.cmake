# CMake toolchain file: Cortex-M3 (no FPU, software floating point) on QEMU's mps2-an385.
# cmake -DCMAKE_TOOLCHAIN_FILE=toolchains/cortex-m3.cmake ...
set(DUALRATE_CPU_FLAGS "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft")
set(DUALRATE_TARGET cortex-m3)  # names the portable math built for it (find_package(dualrate))
set(DUALRATE_BOARD mps2-an385)
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
