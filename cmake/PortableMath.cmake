# Builds runtime/portable_math for the host and for every cross target whose compiler is
# installed, into ${DUALRATE_PORTABLE_MATH_DIR}/<target>/lib (host: .../host/lib). The cross
# builds are projects of their own configured with the target's toolchain file, so the CPU
# flags stay in toolchains/ only. Target `dualrate_portable_math_all` stands for all of them.
include(ExternalProject)

set(DUALRATE_SOURCES_DIR "${PROJECT_BINARY_DIR}/debian-sources")
set(DUALRATE_PORTABLE_MATH_DIR "${PROJECT_BINARY_DIR}/portable-math")
add_subdirectory(${PROJECT_SOURCE_DIR}/runtime/portable_math ${PROJECT_BINARY_DIR}/portable-math-host)
set_target_properties(dualrate_libm PROPERTIES ARCHIVE_OUTPUT_DIRECTORY "${DUALRATE_PORTABLE_MATH_DIR}/host/lib")
add_custom_target(dualrate_portable_math_all DEPENDS dualrate_libm)

set(portable_math_targets)
if(DUALRATE_CROSS_TARGETS)
  find_program(DUALRATE_ARM_NONE_EABI_GCC arm-none-eabi-gcc)
  if(DUALRATE_ARM_NONE_EABI_GCC)
    list(APPEND portable_math_targets cortex-m3 cortex-m4f cortex-m7 cortex-m33 cortex-m33-dual cortex-m55)
  endif()
  find_program(DUALRATE_AARCH64_LINUX_GNU_GCC aarch64-linux-gnu-gcc)
  if(DUALRATE_AARCH64_LINUX_GNU_GCC)
    list(APPEND portable_math_targets cortex-a53-linux)
  endif()
endif()
foreach(target IN LISTS portable_math_targets)
  ExternalProject_Add(portable_math_${target}
    SOURCE_DIR "${PROJECT_SOURCE_DIR}/runtime/portable_math"
    BINARY_DIR "${PROJECT_BINARY_DIR}/portable-math-${target}"
    INSTALL_DIR "${DUALRATE_PORTABLE_MATH_DIR}/${target}"
    CMAKE_ARGS -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/toolchains/${target}.cmake
               -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=<INSTALL_DIR>
               -DDUALRATE_SOURCES_DIR=${DUALRATE_SOURCES_DIR}
               # ccache where scripts/build uses it (about 12 s of a core per target otherwise)
               -DCMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER}
               -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    BUILD_ALWAYS ON
    USES_TERMINAL_BUILD OFF)
  add_dependencies(dualrate_portable_math_all portable_math_${target})
endforeach()
