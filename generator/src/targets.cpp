#include "targets.hpp"

namespace dualrate {

const std::vector<CrossTarget>& cross_targets() {
  static const std::vector<CrossTarget> all = {
      {"cortex-m3", "mps2-an385", "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft", "double",
       "Cortex-M3, no FPU (software floating point)"},
      {"cortex-m4f", "mps2-an386", "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard", "float",
       "Cortex-M4 with single-precision FPU"},
      {"cortex-m7", "mps2-an500", "-mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard", "double",
       "Cortex-M7 with double-precision FPU"},
      {"cortex-a53-linux", "linux", "-mcpu=cortex-a53", "double", "Cortex-A53, aarch64 Linux (qemu-aarch64)", 0,
       true},
  };
  return all;
}

const CrossTarget* find_cross_target(const std::string& name) {
  for (const auto& t : cross_targets())
    if (name == t.name) return &t;
  return nullptr;
}

std::string unknown_target_message(const std::string& name) {
  std::string known = "host";
  for (const auto& t : cross_targets()) known += std::string(", ") + t.name;
  return "unknown target '" + name + "' (available: " + known + ")";
}

}  // namespace dualrate
