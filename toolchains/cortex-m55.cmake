# CMake toolchain file: Cortex-M55 (Armv8.1-M with the M-profile vector extension (Helium) and a
# double-precision FPU) on QEMU's mps3-an547. cmake -DCMAKE_TOOLCHAIN_FILE=toolchains/cortex-m55.cmake ...
set(DUALRATE_CPU_FLAGS "-mcpu=cortex-m55 -mthumb -mfloat-abi=hard")
set(DUALRATE_TARGET cortex-m55)  # names the portable math built for it (find_package(dualrate))
set(DUALRATE_BOARD mps3-an547)
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
