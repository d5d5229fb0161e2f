// The targets `dualrate verify --target` cross-builds for and runs under QEMU: Cortex-M bare
// metal under qemu-system-arm, Cortex-A as aarch64 Linux user-mode programs under
// qemu-aarch64. The toolchain files toolchains/<name>.cmake carry the same compiler flags
// and QEMU machine (a unit test checks that they agree with this table).
#pragma once

#include <string>
#include <vector>

namespace dualrate {

struct CrossTarget {
  const char* name;       // cortex-m3, cortex-m4f, cortex-m7, cortex-m33, cortex-m33-dual, cortex-m55, cortex-a53-linux
  const char* board;      // folder under targets/ with memory.ld; QEMU machine of the same name
                          // (Linux targets: "linux", the folder of their programs)
  const char* cpu_flags;  // -mcpu/-mfpu/-mfloat-abi, space separated
  const char* default_scalar;  // "double" or "float"
  const char* summary;
  long cpu_hz = 25000000;   // clock of the core and of SysTick on the emulated board
  bool linux_user = false;  // aarch64-linux-gnu-g++ -static, run by qemu-aarch64
  // The real part whose budget verify estimates (--cpu-hz and --cpi override the two numbers):
  // a typical part of this core, its clock, and the cycles per instruction assumed to turn
  // QEMU's instruction counts into cycles (wait states, pipeline stalls: an estimate only).
  const char* part = "";
  double part_hz = 0;
  double cpi = 1;
  // Cycles of one interrupt's entry and exit on the part (stacking, unstacking and, with an
  // FPU, the lazily stacked floating-point context), which QEMU does not count.
  long exception_cycles = 0;
  // Cores the dual-rate tasks run on: 2 puts the slow task on a second core of its own
  // (targets/cortex-m/dual_core_main.cpp); single-rate schemes run on the first.
  int cores = 1;
};

const std::vector<CrossTarget>& cross_targets();
const CrossTarget* find_cross_target(const std::string& name);
// The targets' names joined by `separator`: all, or the Cortex-M ones (bare metal) only.
std::string target_names(bool cortex_m_only, const char* separator);
// "unknown target 'NAME' (available: host, cortex-m3, ...)".
std::string unknown_target_message(const std::string& name);

// -icount shift for instruction counting: each instruction takes 2^shift ns of virtual
// time, 3.2 SysTick ticks at 25 MHz, so counts round exactly and 2^24 ticks hold 5.2 million
// instructions.
constexpr int kIcountShift = 7;

}  // namespace dualrate
