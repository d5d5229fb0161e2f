# A second build of the host parts into ${PROJECT_BINARY_DIR}/sanitized: clang at -O1 with
# AddressSanitizer and UndefinedBehaviorSanitizer (DUALRATE_SANITIZE) and line tables (a
# finding's stack names file and line; with full debug information quasistatic.cpp took 44 s
# to compile instead of 37 s),
# built as a project of its own with every build of this one. It serves the tests as
#   - a second build of the generator (another compiler, optimisation level and memory layout),
#     whose headers must be the same bytes as this build's (tests/reproducible_generation.sh);
#   - the runtime tests under sanitizers (the generator's unit tests are built there, and run,
#     by scripts/sanitized-unit-tests, not by every build: see tests/CMakeLists.txt);
#   - the libFuzzer harnesses (tests/fuzz).
# Sets DUALRATE_SANITIZED_DIR when clang is there.
include(ExternalProject)
find_program(DUALRATE_CLANG clang)
find_program(DUALRATE_CLANGXX clang++)
if(DUALRATE_CLANG AND DUALRATE_CLANGXX)
  set(DUALRATE_SANITIZED_DIR ${PROJECT_BINARY_DIR}/sanitized)
  ExternalProject_Add(sanitized
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${DUALRATE_SANITIZED_DIR}
    CMAKE_ARGS -DCMAKE_C_COMPILER=${DUALRATE_CLANG} -DCMAKE_CXX_COMPILER=${DUALRATE_CLANGXX}
               -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-O1 -gline-tables-only"
               "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only"
               -DDUALRATE_SANITIZE=ON -DDUALRATE_CROSS_TARGETS=OFF
               # clang's precompiled header is named by its absolute path in every compilation,
               # which ccache does not make relative: with it no compilation of this tree would
               # be taken from the cache in another clone (scripts/ccache-env).
               -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON
               -DCMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER}
               -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target dualrate dualrate_runtime_tests
                                fuzz_expression fuzz_model fuzz_pipeline fuzz_campaign
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON
    USES_TERMINAL_BUILD OFF)
else()
  message(WARNING "clang not found: no sanitized build, so no reproducible-generation or sanitizer tests "
                  "(scripts/deps installs clang)")
endif()
