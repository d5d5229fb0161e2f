// Building and running the programs verify compares: the host trace program, the trace
// program on a Cortex-M target under QEMU (with its cost figures), and the dual-rate task
// programs in their executives. Internal to verify/.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "targets/cross_target.hpp"
#include "verify/budget.hpp"
#include "verify/calibration_writes.hpp"
#include "verify/result.hpp"

namespace dualrate {

namespace fs = std::filesystem;

// Builds the host trace program into dir/<name> and runs it, writing dir/<csv> (hex floats
// with `hex`); empty on success, else why not.
std::string run_host_trace(const fs::path& dir, const std::vector<std::string>& flags, bool hex,
                           const std::string& name, const std::string& csv, long steps, int every, std::string& script);

// Cross-builds, checks and runs the trace program on `target` under QEMU: writes
// dir/generated.csv and fills the cost figures. Returns why it failed, or empty.
std::string run_on_target(const CrossTarget& target, const fs::path& dir, const std::vector<std::string>& flags,
                          long steps, int every, VerifyResult& r, std::string& script);

// cortex-a53-linux, single-rate schemes: cross-builds targets/linux/trace_main.cpp and runs it
// under qemu-aarch64 back to back (dir/generated.csv, which verify compares with the host's
// trace bit for bit), counted (instructions per step) and as one periodic SCHED_FIFO task whose
// trace must equal the back-to-back one (bit_exact_vs_single; overruns and wake-up latencies
// into r). Returns why it failed, or empty.
std::string run_linux_trace(const CrossTarget& target, const fs::path& dir, const std::vector<std::string>& flags,
                            long steps, int every, VerifyResult& r, std::string& script);

// cortex-a53-linux runs the preemptive executive as SCHED_FIFO threads of qemu-user on a
// shared, non-real-time host, the host as native threads on the same kernel. An overrun there while the fast thread
// also woke a whole period or more late (late_ticks) comes from the host's scheduling (another process, the kernel's
// real-time throttling), not from the code: such a run is repeated, kNoiseAttempts runs in all
// at most, and one that still overruns fails as noise, said so. An overrun with every tick on
// time is the code's and fails at once.
// Every fast job (or periodic step) overran: under qemu-user the emulation runs the step slower
// than real time, which no retry changes and which says nothing about the part.
inline bool slower_than_real_time(const TaskRun& t) {
  return t.ticks.value_or(0) > 0 && t.fast_overruns.value_or(0) >= *t.ticks;
}
inline bool host_scheduling_noise(const TaskRun& t) {
  return t.overran() && t.late_ticks.value_or(0) > 0 && !slower_than_real_time(t);
}

// Dual-rate schemes: the task programs (targets/linux/tasks_main.cpp for the host and
// cortex-a53-linux, targets/cortex-m/tasks_main.cpp for Cortex-M) in their two modes.
// cortex-a53-linux, single-rate: the instructions are counted over at most this many first steps.
constexpr long kLinuxCountedSteps = 200;

struct TaskPlan {
  const CrossTarget* target = nullptr;  // nullptr: the host
  long macro_steps = 0;
  int every = 1;
  long rows = 0;  // capacity for the rows the slow task records (tasks.hpp)
  long slow_delay_ticks = 0;
  int slow_core = 0;  // 1: the slow task on the target's second core (dual_core_main.cpp)
  int icount_shift = kIcountShift;
  long tick_cycles = 0;
  double h = 0;
  int ratio = 1;
  double cpu_hz = 0, cpi = 1;  // the part the budget is for
};

// Builds and runs the dual-rate task programs: on the host the sequential executive (and
// the threaded one for --tasks multi on the host); on a target both of its executives, and
// the host's sequential one for the bit-for-bit comparison. Leaves the trace to compare
// with the reference core in dir/generated.csv, and the sequential run's (with the local
// check's columns) in sequential_trace(dir, plan.target). The tasks' counts into r.task_run,
// which the caller has made.
fs::path sequential_trace(const fs::path& dir, const CrossTarget* target);
std::string run_dual_rate(const TaskPlan& plan, Tasks tasks, const fs::path& dir, const std::vector<std::string>& flags,
                          VerifyResult& r, std::string& script);
// The sequential executive of the task program run_dual_rate built (a Linux target's, else the
// host's) in its ticks mode: the tasks' state and outputs before every `every`-th tick into
// dir/ticks.csv. Returns why it failed, or empty.
std::string run_tick_rows(const TaskPlan& plan, int every, const fs::path& dir, VerifyResult& r, std::string& script);

// The budget of the jobs measured in r on the target's part (slow_job absent for single-rate
// models); r has its fast job counted.
Budget budget_of(const CrossTarget& target, const VerifyResult& r, double h, int ratio, double cpu_hz, double cpi);

// The compile flags of a trace or task program for one model: its header in dir, its namespace;
// for a model with tunable values, the calibration writes (written into dir) that the trace
// programs make.
std::vector<std::string> trace_flags(const fs::path& dir, const std::string& header, const Model& model,
                                     const std::vector<TraceCalibrationWrite>& writes);

// A task program's '# NAME VALUE' count line (ticks, overruns, handler instructions, ...)
// into t; false for any other line.
bool read_task_count(const std::vector<std::string>& words, TaskRun& t);

// The rows a task program's recorder needs for `steps` fast steps at ratio r, a row every
// `every` steps: one per multiple of `every` passed, plus the first and the last (at most one
// per macro step).
long task_trace_rows(long steps, int ratio, int every);

}  // namespace dualrate
