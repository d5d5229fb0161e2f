// Where the generator finds what it builds generated code with: the runtime headers, the
// target support files (startup code, linker scripts, harness programs), the portable math
// libraries per target and Eigen. An installed generator finds them relative to its own
// executable (<prefix>/bin/dualrate: <prefix>/include, <prefix>/share/dualrate/targets,
// <prefix>/lib/dualrate/portable-math), so the prefix can be moved; a generator run from its
// build tree, where that layout does not exist, uses the source and build trees it was built
// from. Eigen is the system's (a dependency of the package, not part of it).
#pragma once

#include <filesystem>
#include <string>

namespace dualrate {

struct DataPaths {
  std::filesystem::path runtime_include;  // holds dualrate/*.hpp
  std::filesystem::path targets;          // common/, cortex-m/, host/, linux/, <board>/memory.ld
  std::filesystem::path portable_math;    // <target>/lib/libdualrate_{libm,softfp}.a
  std::filesystem::path eigen_include;
  bool installed = false;  // found relative to the executable
};

// Resolved once, from the running executable's location.
const DataPaths& data_paths();

// The paths as `dualrate --version` prints them.
std::string describe(const DataPaths& paths);

}  // namespace dualrate
