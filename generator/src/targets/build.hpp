// Building and running programs of generated code (trace, task and system programs) on the
// host and on the targets, shared by verify and verify-system.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "base/process.hpp"
#include "base/text_io.hpp"
#include "targets/cross_target.hpp"

namespace dualrate {

// Flags both the host and the cross build of a program of generated code use (warnings as
// errors, no FMA contraction, no Eigen vectorization, the portable libm), with include_dirs.
std::vector<std::string> program_flags(const std::vector<std::filesystem::path>& include_dirs);
// The portable math library `name` (libm, softfp) built for `target`.
std::string portable_math_library(const std::string& target, const std::string& name);
// Why programs cannot be built for `target` (host or a cross target's name) here: its portable
// libm was not built (a build of the CLI alone builds the host's only); empty when it can.
std::string missing_portable_math(const std::string& target);
// Why the Cortex-M binary `elf` breaks the heap ban (it names a heap function), or empty.
std::string heap_function(const std::filesystem::path& elf);
// The qemu-system-arm command that runs `elf` on `target` with the semihosting command line `args`.
std::vector<std::string> qemu_system(const CrossTarget& target, int shift, const std::filesystem::path& elf,
                                     const std::string& args);
// The arm-none-eabi-g++ command that builds `main_source` with the Cortex-M startup, the
// portable libm (and soft-fp where the core has no double FPU) into `elf` for `target`.
std::vector<std::string> cortex_m_build(const CrossTarget& target, const std::vector<std::string>& flags,
                                        const std::vector<std::string>& defines, const std::string& main_source,
                                        const std::filesystem::path& elf);

// Runs `argv`, one command that compiles a program's sources (.c, .cpp) and links them with its
// libraries into its -o output, for a program of generated code written into `dir`. Where the
// environment names a compiler launcher (DUALRATE_COMPILER_LAUNCHER, e.g. ccache), each source
// is first compiled alone through it, in `dir` with the paths inside `dir` made relative to it
// (so that a cache's key does not hold the temporary directory's name), then the objects are
// linked.
ProcessResult build_program(const std::vector<std::string>& argv, const std::filesystem::path& dir);

// What a program printed: its CSV trace, its '#' lines split into words, and the rest
// (messages; qemu-system-arm mixes them with the trace).
struct ProgramOutput {
  std::string trace;
  std::vector<std::vector<std::string>> counts;
  std::string messages;
};
ProgramOutput split_output(const std::string& output);

// SysTick cycles of the emulated board for a period of `seconds` at the part's instruction
// rate (cpu_hz / cpi instructions per second, each 2^shift ns under -icount); lowers `shift`
// (unless fixed) while the period would exceed SysTick's 24 bits.
long emulated_tick_cycles(const CrossTarget& target, double seconds, double cpu_hz, double cpi, int& shift,
                          bool shift_fixed);

}  // namespace dualrate
