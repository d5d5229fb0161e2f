// What verify and verify-system set up alike before they build and run programs: the cross
// target with the part its budget is for, and the directory the programs are built and run in.
// Internal to verify/.
#pragma once

#include <filesystem>
#include <string>

#include "targets/cross_target.hpp"
#include "verify/budget.hpp"

namespace dualrate {

// The cross target named `name` (null: the host, or no such target) and the part its budget is
// for (part_rate: `cpu_hz` and `cpi` where positive, else the target's typical part's; {0, 1}
// on the host).
struct TargetPart {
  const CrossTarget* cross = nullptr;
  PartRate part{0, 1};
};
TargetPart target_part(const std::string& name, double cpu_hz, double cpi);

// The directory a run builds and runs its programs in: `keep_dir` (--keep), created if need be
// and left, or (empty) a new temporary one named after `prefix`, removed with this object.
class WorkDirectory {
 public:
  WorkDirectory(const std::string& keep_dir, const std::string& prefix);
  ~WorkDirectory();
  WorkDirectory(const WorkDirectory&) = delete;
  WorkDirectory& operator=(const WorkDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The kept directory's absolute path, as a result reports it; empty for a temporary one.
  std::string kept() const;

 private:
  bool keep_;
  std::filesystem::path path_;
};

}  // namespace dualrate
