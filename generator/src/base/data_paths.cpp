#include "base/data_paths.hpp"

#include <fmt/format.h>

#include <system_error>

namespace dualrate {
namespace fs = std::filesystem;

namespace {

DataPaths resolve() {
  std::error_code error;
  const fs::path executable = fs::canonical("/proc/self/exe", error);
  if (!error) {
    const fs::path prefix = executable.parent_path().parent_path();
    DataPaths installed{prefix / DUALRATE_INSTALL_INCLUDEDIR, prefix / DUALRATE_INSTALL_DATADIR / "targets",
                        prefix / DUALRATE_INSTALL_LIBDIR / "portable-math", DUALRATE_EIGEN_INCLUDE_DIR, true};
    if (fs::is_directory(installed.targets, error) && fs::is_directory(installed.runtime_include / "dualrate", error))
      return installed;
  }
  return {DUALRATE_RUNTIME_INCLUDE_DIR, DUALRATE_TARGETS_DIR, DUALRATE_PORTABLE_MATH_DIR, DUALRATE_EIGEN_INCLUDE_DIR,
          false};
}

}  // namespace

const DataPaths& data_paths() {
  static const DataPaths paths = resolve();
  return paths;
}

std::string describe(const DataPaths& paths) {
  return fmt::format("{}\n  runtime headers: {}\n  target support:  {}\n  portable math:   {}\n  Eigen:           {}\n",
                     paths.installed ? "installed (found relative to the executable)" : "build tree",
                     paths.runtime_include.string(), paths.targets.string(), paths.portable_math.string(),
                     paths.eigen_include.string());
}

}  // namespace dualrate
