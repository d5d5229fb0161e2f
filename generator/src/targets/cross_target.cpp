#include "targets/cross_target.hpp"

#include "base/diagnostics.hpp"

namespace dualrate {

const std::vector<CrossTarget>& cross_targets() {
  static const std::vector<CrossTarget> all = {
      // Parts: the most common of each core. CPI: Cortex-M3/M4 issue one instruction a cycle
      // but lose cycles to flash wait states (5 at 168 MHz on the STM32F4, hidden in part by its
      // ART accelerator; 2 at 72 MHz on the STM32F1 behind a prefetch buffer), loads (2
      // cycles) and taken branches (2-4): 1.25 assumed. The M7 dual-issues from its caches:
      // 1.0 assumed. Exceptions (ARM's Cortex-M3/M4/M7 technical reference manuals): 12 cycles
      // entry and 12 exit, plus 2 x 17 on FPU cores for the lazily stacked FP context.
      {"cortex-m3", "mps2-an385", "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft", "double",
       "Cortex-M3, no FPU (software floating point)", 25000000, false, "STM32F103", 72e6, 1.25, 24},
      {"cortex-m4f", "mps2-an386", "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard", "float",
       "Cortex-M4 with single-precision FPU", 25000000, false, "STM32F407", 168e6, 1.25, 58},
      {"cortex-m7", "mps2-an500", "-mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard", "double",
       "Cortex-M7 with double-precision FPU", 25000000, false, "STM32F767", 216e6, 1.0, 58},
      // Armv8-M: the Cortex-M33 has the M4's three-stage pipeline and, on the STM32U5, flash
      // behind the ART accelerator (4 wait states at 160 MHz): 1.25 as the M4. The Cortex-M55
      // runs from its tightly coupled memories without wait states: 1.0 as the M7.
      // Exceptions as on the M4, the M55's lazily stacked context one word longer (VPR, the
      // vector predication register): 12 + 12 + 2 x 18.
      {"cortex-m33", "mps2-an505", "-mcpu=cortex-m33 -mthumb -mfpu=fpv5-sp-d16 -mfloat-abi=hard", "float",
       "Cortex-M33 (Armv8-M mainline) with single-precision FPU", 20000000, false, "STM32U585", 160e6, 1.25, 58},
      // Two Cortex-M33 with single-precision FPUs, as in the RP2350 (150 MHz, code from a
      // cached XIP flash or from SRAM: 1.25 as the M4).
      {"cortex-m33-dual", "mps2-an521", "-mcpu=cortex-m33 -mthumb -mfpu=fpv5-sp-d16 -mfloat-abi=hard", "float",
       "two Cortex-M33 (Armv8-M mainline) with single-precision FPUs, the slow task on the second", 20000000, false,
       "RP2350", 150e6, 1.25, 58, 2},
      {"cortex-m55", "mps3-an547", "-mcpu=cortex-m55 -mthumb -mfloat-abi=hard", "double",
       "Cortex-M55 (Armv8.1-M, Helium) with double-precision FPU", 32000000, false, "Alif Ensemble E3 (M55-HP)", 400e6,
       1.0, 60},
      {"cortex-a53-linux", "linux", "-mcpu=cortex-a53", "double", "Cortex-A53, aarch64 Linux (qemu-aarch64)", 0, true,
       "BCM2837 (Raspberry Pi 3)", 1.2e9, 1.0, 0},
  };
  return all;
}

const CrossTarget* find_cross_target(const std::string& name) {
  for (const auto& t : cross_targets())
    if (name == t.name) return &t;
  return nullptr;
}

std::string target_names(bool cortex_m_only, const char* separator) {
  std::string names;
  for (const auto& t : cross_targets())
    if (!cortex_m_only || !t.linux_user) names += (names.empty() ? "" : separator) + std::string(t.name);
  return names;
}

std::string unknown_target_message(const std::string& name) {
  std::vector<std::string> known = {"host"};
  for (const auto& t : cross_targets()) known.emplace_back(t.name);
  const std::string nearest = closest(name, known);
  return "unknown target '" + name + "'" + (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") +
         " (available: host, " + target_names(false, ", ") + ")";
}

}  // namespace dualrate
