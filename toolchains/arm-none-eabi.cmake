# Shared part of the Cortex-M toolchain files (cortex-m3.cmake, cortex-m4f.cmake,
# cortex-m7.cmake set DUALRATE_CPU_FLAGS and DUALRATE_BOARD, then include this file).
# Debian's arm-none-eabi-gcc with picolibc; programs link against the board's memory map
# (targets/<board>/memory.ld) and must include targets/cortex-m/startup.cpp, whose path is
# DUALRATE_TARGET_STARTUP. Executables run through plain ctest under qemu-system-arm
# (targets run with toolchains/qemu-run.sh: semihosting output on stdout, exit status passed on).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

get_filename_component(DUALRATE_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(DUALRATE_TARGET_STARTUP "${DUALRATE_ROOT}/targets/cortex-m/startup.cpp")
set(CMAKE_C_FLAGS_INIT "${DUALRATE_CPU_FLAGS} --specs=picolibc.specs -ffunction-sections -fdata-sections -ffp-contract=off")
# -fno-tree-loop-distribute-patterns keeps Eigen's fixed-size copies inline instead of calls
# to picolibc's byte-at-a-time memcpy.
set(CMAKE_CXX_FLAGS_INIT "${CMAKE_C_FLAGS_INIT} -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit -DEIGEN_DONT_VECTORIZE -fno-tree-loop-distribute-patterns")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "--oslib=semihost -nostartfiles -Wl,--gc-sections -T ${DUALRATE_ROOT}/targets/${DUALRATE_BOARD}/memory.ld")
set(CMAKE_CROSSCOMPILING_EMULATOR "${DUALRATE_ROOT}/toolchains/qemu-run.sh;${DUALRATE_BOARD}")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
