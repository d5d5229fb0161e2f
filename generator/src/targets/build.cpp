#include "targets/build.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "base/data_paths.hpp"
#include "base/process.hpp"
#include "base/text_io.hpp"

namespace dualrate {

namespace fs = std::filesystem;

// Flags both the host and the cross build of a program of generated code use: the product's warnings
// as errors, no contraction into fused multiply-adds, no Eigen vectorization and the portable
// libm (the same fdlibm on both sides), so that the two compute the same IEEE operations in
// the same order.
std::vector<std::string> program_flags(const std::vector<fs::path>& include_dirs) {
  std::vector<std::string> flags = {"-std=c++17",
                                    "-O2",
                                    "-Wall",
                                    "-Wextra",
                                    "-Wpedantic",
                                    "-Wshadow",
                                    "-Wdouble-promotion",
                                    "-Werror",
                                    "-fno-exceptions",
                                    "-fno-rtti",
                                    "-ffp-contract=off",
                                    "-DEIGEN_DONT_VECTORIZE",
                                    "-DDUALRATE_PORTABLE_MATH"};
  for (const auto& d : include_dirs) flags.push_back("-I" + d.string());
  const DataPaths& paths = data_paths();
  flags.insert(flags.end(), {"-I" + (paths.targets / "common").string(), "-I" + paths.runtime_include.string(),
                             "-isystem", paths.eigen_include.string()});
  return flags;
}

// The portable math library `name` (libm, softfp) built for `target` (cmake/PortableMath.cmake).
// softfp exists only for ARM cores without a double-precision FPU: linked whole, its
// correctly rounded __aeabi_* arithmetic replaces libgcc's.
std::string portable_math_library(const std::string& target, const std::string& name) {
  return (data_paths().portable_math / target / "lib" / ("libdualrate_" + name + ".a")).string();
}

std::string missing_portable_math(const std::string& target) {
  const std::string libm = portable_math_library(target, "libm");
  if (fs::exists(libm)) return "";
  return fmt::format(
      "the portable libm for {} is not built ({} is missing): build it with `cmake --build build "
      "--target portable_math_{}`, or everything with scripts/build",
      target, libm, target);
}

// Why the Cortex-M binary `elf` breaks the heap ban (it names a heap function), or empty.
std::string heap_function(const fs::path& elf) {
  const ProcessResult symbols = run_process({"arm-none-eabi-nm", "-C", elf.string()});
  if (symbols.exit_code != 0) return "arm-none-eabi-nm failed: " + symbols.output;
  for (const auto& line : split(symbols.output, '\n')) {
    const std::string name = line.size() > 11 ? line.substr(11) : line;
    for (const char* heap : {"malloc", "calloc", "realloc", "free", "operator new", "operator delete"})
      if (name == heap || name.rfind(std::string(heap) + "(", 0) == 0)
        return "the target binary contains a heap function: " + line;
  }
  return "";
}

// The qemu-system-arm command that runs `elf` on `target` with the semihosting command line `args`.
// QEMU's SSE-200 (mps2-an521) gives its first core no FPU unless asked.
std::vector<std::string> qemu_system(const CrossTarget& target, int shift, const fs::path& elf,
                                     const std::string& args) {
  std::vector<std::string> argv = {"timeout",
                                   "-k",
                                   "5",
                                   "900",
                                   "qemu-system-arm",
                                   "-M",
                                   target.board,
                                   "-icount",
                                   fmt::format("shift={},sleep=off", shift)};
  if (std::string(target.board) == "mps2-an521")
    argv.insert(argv.end(), {"-global", "sse-200.CPU0_FPU=on", "-global", "sse-200.CPU0_DSP=on"});
  argv.insert(argv.end(),
              {"-display", "none", "-serial", "none", "-monitor", "none", "-chardev", "stdio,id=c0",
               "-semihosting-config", "enable=on,target=native,chardev=c0", "-kernel", elf.string(), "-append", args});
  return argv;
}

ProgramOutput split_output(const std::string& output) {
  ProgramOutput out;
  for (const auto& line : split(output, '\n')) {
    if (line[0] == '#')
      out.counts.push_back(split(line.substr(1), ' '));
    else if (line.rfind("t,", 0) == 0 || line.rfind("0x", 0) == 0 || line.rfind("-0x", 0) == 0)
      out.trace += line + "\n";
    else
      out.messages += line + "\n";
  }
  return out;
}

// The arm-none-eabi-g++ command that builds `main_source` with the Cortex-M startup, the
// portable libm (and soft-fp where the core has no double FPU) into `elf` for `target`.
std::vector<std::string> cortex_m_build(const CrossTarget& target, const std::vector<std::string>& flags,
                                        const std::vector<std::string>& defines, const std::string& main_source,
                                        const fs::path& elf) {
  const fs::path board = data_paths().targets / target.board;
  std::vector<std::string> argv = {"arm-none-eabi-g++"};
  for (const auto& f : split(target.cpu_flags, ' ')) argv.push_back(f);
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), defines.begin(), defines.end());
  // -fno-tree-loop-distribute-patterns: Eigen's fixed-size copies stay inline loads and
  // stores instead of calls to picolibc's memcpy, which copies a byte at a time.
  argv.insert(
      argv.end(),
      {"-fno-threadsafe-statics", "-fno-use-cxa-atexit", "-ffunction-sections", "-fdata-sections",
       "-fno-tree-loop-distribute-patterns", "-DDUALRATE_TRACE_HEX", fmt::format("-DDUALRATE_CPU_HZ={}", target.cpu_hz),
       "--specs=picolibc.specs", "--oslib=semihost", "-nostartfiles", "-Wl,--gc-sections", "-T",
       (board / "memory.ld").string(), main_source, (data_paths().targets / "cortex-m" / "startup.cpp").string(),
       portable_math_library(target.name, "libm")});
  const std::string softfp = portable_math_library(target.name, "softfp");
  if (fs::exists(softfp)) argv.insert(argv.end(), {"-Wl,--whole-archive", softfp, "-Wl,--no-whole-archive"});
  argv.insert(argv.end(), {"-o", elf.string()});
  return argv;
}

namespace {

bool is_source(const std::string& arg) {
  const auto ends_with = [&](const std::string& suffix) {
    return arg.size() > suffix.size() && arg.compare(arg.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return arg[0] != '-' && (ends_with(".cpp") || ends_with(".c"));
}

bool is_link_only(const std::string& arg) {
  return arg.rfind("-Wl,", 0) == 0 || arg.rfind("--oslib=", 0) == 0 || arg == "-static" || arg == "-nostartfiles" ||
         (arg.size() > 2 && arg.compare(arg.size() - 2, 2, ".a") == 0);
}

}  // namespace

ProcessResult build_program(const std::vector<std::string>& argv, const fs::path& dir) {
  const char* launcher = std::getenv("DUALRATE_COMPILER_LAUNCHER");
  if (!launcher || !*launcher) return run_process(argv);
  const std::string inside = dir.string() + "/";
  const auto relative = [&](const std::string& arg) {
    if (arg == dir.string()) return std::string(".");
    if (arg == "-I" + dir.string()) return std::string("-I.");
    if (arg.rfind("-I" + inside, 0) == 0) return "-I" + arg.substr(2 + inside.size());
    if (arg.rfind(inside, 0) == 0) return arg.substr(inside.size());
    return arg;
  };
  std::vector<std::string> compile = {launcher, argv.at(0)}, link = {argv.at(0)};
  std::vector<std::pair<std::string, std::string>> objects;  // (source, object in dir)
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if ((arg == "-o" || arg == "-T") && i + 1 < argv.size()) {
      link.insert(link.end(), {arg, argv[++i]});
    } else if (is_source(arg)) {
      objects.emplace_back(arg, fmt::format("{}_{}.o", objects.size(), fs::path(arg).stem().string()));
      link.push_back((dir / objects.back().second).string());
    } else {
      link.push_back(arg);
      if (!is_link_only(arg)) compile.push_back(relative(arg));
    }
  }
  for (const auto& [source, object] : objects) {
    std::vector<std::string> one = compile;
    one.insert(one.end(), {"-c", relative(source), "-o", object});
    ProcessResult compiled = run_process(one, dir.string());
    if (compiled.exit_code != 0) return compiled;
  }
  return run_process(link);
}

long emulated_tick_cycles(const CrossTarget& target, double seconds, double cpu_hz, double cpi, int& shift,
                          bool shift_fixed) {
  const double instructions = seconds * cpu_hz / cpi;
  const auto cycles = [&](int s) {
    return std::llround(instructions * std::ldexp(1.0, s) * static_cast<double>(target.cpu_hz) / 1e9);
  };
  if (!shift_fixed)
    while (shift > 0 && cycles(shift) > 0x1000000) --shift;
  return static_cast<long>(cycles(shift));
}

}  // namespace dualrate
