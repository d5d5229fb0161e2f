# CMake toolchain file: Cortex-A53, aarch64 Linux user mode (Debian's aarch64-linux-gnu-gcc,
# glibc), statically linked. Executables run under qemu-aarch64 (no binfmt needed for ctest:
# CMAKE_CROSSCOMPILING_EMULATOR). Double precision is in hardware; -ffp-contract=off keeps
# results bit-identical to the x86 host (no fused multiply-adds).
# cmake -DCMAKE_TOOLCHAIN_FILE=toolchains/cortex-a53-linux.cmake ...
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

set(DUALRATE_CPU_FLAGS "-mcpu=cortex-a53")
set(DUALRATE_TARGET cortex-a53-linux)  # names the portable math built for it (find_package(dualrate))
set(DUALRATE_BOARD linux)
set(CMAKE_C_FLAGS_INIT "${DUALRATE_CPU_FLAGS} -ffp-contract=off")
set(CMAKE_CXX_FLAGS_INIT "${CMAKE_C_FLAGS_INIT} -DEIGEN_DONT_VECTORIZE")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -pthread")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

find_program(DUALRATE_QEMU_AARCH64 qemu-aarch64)
if(DUALRATE_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${DUALRATE_QEMU_AARCH64}")
endif()
