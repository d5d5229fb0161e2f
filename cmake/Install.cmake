# What `cmake --install` puts in a prefix, and the Debian package (scripts/package) made of it:
#   bin/dualrate                                 the CLI; finds the rest relative to itself
#   include/dualrate/                            the header-only runtime (runtime/CMakeLists.txt)
#   share/dualrate/toolchains/, targets/         toolchain files, startup code, linker scripts,
#                                                the harness programs verify builds
#   lib/dualrate/portable-math/<target>/lib/     libdualrate_libm.a (and libdualrate_softfp.a) per target
#   lib/cmake/dualrate/                          find_package(dualrate): dualrateConfig.cmake
#   share/dualrate/campaign-shard.sbatch         a campaign's shard as a Slurm array task
# (lib is CMAKE_INSTALL_LIBDIR, share CMAKE_INSTALL_DATADIR.)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DUALRATE_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/dualrate")
set(DUALRATE_INSTALL_PORTABLE_MATH "${CMAKE_INSTALL_LIBDIR}/dualrate/portable-math")
set(DUALRATE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/dualrate")

install(TARGETS dualrate EXPORT dualrate_targets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT dualrate_targets NAMESPACE dualrate:: DESTINATION ${DUALRATE_INSTALL_CMAKEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/targets ${PROJECT_SOURCE_DIR}/toolchains
        DESTINATION ${DUALRATE_INSTALL_DATADIR} USE_SOURCE_PERMISSIONS)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/campaign-shard.sbatch DESTINATION ${DUALRATE_INSTALL_DATADIR})
install(DIRECTORY ${DUALRATE_PORTABLE_MATH_DIR}/ DESTINATION ${DUALRATE_INSTALL_PORTABLE_MATH}
        FILES_MATCHING PATTERN "*.a")

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dualrateConfig.cmake.in
  ${PROJECT_BINARY_DIR}/dualrateConfig.cmake
  INSTALL_DESTINATION ${DUALRATE_INSTALL_CMAKEDIR}
  PATH_VARS DUALRATE_INSTALL_DATADIR DUALRATE_INSTALL_PORTABLE_MATH)
# 0.x: a minor version may break what the previous one generated. Architecture-independent:
# a cross build (32-bit Cortex-M) uses the same package, its libraries chosen per target.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dualrateConfigVersion.cmake COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/dualrateConfig.cmake ${PROJECT_BINARY_DIR}/dualrateConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/DualrateGenerate.cmake
        DESTINATION ${DUALRATE_INSTALL_CMAKEDIR})

# The Debian package: cpack -G DEB in the build tree (scripts/package). The CLI's shared
# libraries come from dpkg-shlibdeps; what it runs and compiles with at verify time is listed.
set(CPACK_PACKAGE_NAME dualrate)
set(CPACK_PACKAGE_VENDOR "dualrate")
set(CPACK_PACKAGE_CONTACT "dualrate developers <dualrate@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Code generator and runtime for two-time-scale dynamic systems")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libeigen3-dev (>= 3.3), g++, cmake (>= 3.20)")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "gcc-arm-none-eabi, picolibc-arm-none-eabi, libstdc++-arm-none-eabi-picolibc, qemu-system-arm, g++-aarch64-linux-gnu, qemu-user")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
include(CPack)
