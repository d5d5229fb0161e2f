#include "verify/setup.hpp"

#include <system_error>

#include "base/process.hpp"

namespace dualrate {

namespace fs = std::filesystem;

TargetPart target_part(const std::string& name, double cpu_hz, double cpi) {
  TargetPart t;
  t.cross = find_cross_target(name);
  if (t.cross) t.part = part_rate(*t.cross, cpu_hz, cpi);
  return t;
}

WorkDirectory::WorkDirectory(const std::string& keep_dir, const std::string& prefix)
    : keep_(!keep_dir.empty()), path_(keep_ ? fs::path(keep_dir) : fs::path(make_temp_dir(prefix))) {
  fs::create_directories(path_);
}

WorkDirectory::~WorkDirectory() {
  std::error_code ignored;  // a destructor does not throw; a temporary directory left behind is harmless
  if (!keep_) fs::remove_all(path_, ignored);
}

std::string WorkDirectory::kept() const { return keep_ ? fs::absolute(path_).string() : std::string(); }

}  // namespace dualrate
