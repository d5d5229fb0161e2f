// What a verify run reports (VerifyResult: its text and JSON).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "base/enum_text.hpp"
#include "base/overrun_handling.hpp"
#include "base/trace.hpp"
#include "verify/tasks.hpp"
#include "model/model.hpp"
#include "verify/accuracy.hpp"
#include "verify/budget.hpp"
#include "verify/local_check.hpp"
#include "verify/output_check.hpp"
#include "verify/trace_comparison.hpp"

namespace dualrate {

// What a tolerance was derived from: the scheme's own bound (double), the float step map's
// share of one step (map_float_tolerance) or the first-order bound of one float step
// (verify_tolerance).
enum class ToleranceBasis { kScheme, kStepMap, kFirstOrder };
inline constexpr std::array<ToleranceBasis, 3> kToleranceBases = {ToleranceBasis::kScheme, ToleranceBasis::kStepMap,
                                                                  ToleranceBasis::kFirstOrder};
constexpr const char* to_string(ToleranceBasis b) {
  switch (b) {
    case ToleranceBasis::kScheme:
      return "scheme";
    case ToleranceBasis::kStepMap:
      return "step map";
    case ToleranceBasis::kFirstOrder:
      return "first order";
  }
  return "";
}
// "" for none: a run that stopped before its tolerance was derived.
inline std::string to_string(const std::optional<ToleranceBasis>& b) { return b ? to_string(*b) : ""; }

// A calibration write of the run's scenario (verify --calibration): when it applies, what it
// sets, and whether it is applied (the reference core's decision, which the generated code's
// recalibrate() matched, or the run has an error) or why not.
struct CalibrationRecord {
  double at = 0;
  long step = 0;
  std::vector<CalibrationValue> set;
  bool applied = false;
  std::string reason;
};

// Dual-rate tasks: their state and outputs before every `every`-th fast tick (DualRate::state()
// and outputs(): what an ECU reads between releases) against the reference core's
// (ReferenceCore::tick_trace), in the build's arithmetic, bit for bit.
struct TickCheck {
  long samples = 0, every = 1, differing = 0;
  double first_differing_time = 0;
  bool pass() const { return samples > 0 && differing == 0; }
};

// The local check (verify/local_check.hpp) of a run: its findings, relative to each state's
// scale as max_error, and what its tolerance was derived from (as
// VerifyResult::tolerance_basis).
struct LocalCheckResult : LocalCheck {
  ToleranceBasis tolerance_basis = ToleranceBasis::kScheme;
};

// A run at another linearization than the exact one (sp_ll's at the initial state, or
// scheduled constants): the generated trace against the re-linearizing reference core's.
struct RelinearizedComparison {
  Linearization linearization = Linearization::kExact;  // the run's
  double max_error = 0;                                 // as VerifyResult::max_error
};

// The instructions of a step under QEMU's instruction counting, over the steps counted.
struct StepInstructions {
  double mean = 0;
  std::optional<long> min;  // not counted on cortex-a53-linux
  long max = 0;
  // The mean per arithmetic operation of a step of `ops_per_step` (0 without an op count).
  double per_op(long ops_per_step) const { return ops_per_step > 0 ? mean / static_cast<double>(ops_per_step) : 0.0; }
};

// A Cortex-M program's sections.
struct SectionSizes {
  long text = 0, data = 0, bss = 0;
};

// A single-rate scheme's code measured on a cross target, each where the target's programs
// measure it.
struct TargetCost {
  std::optional<StepInstructions> instructions;
  std::optional<long> counted_steps;     // cortex-a53-linux: the first steps counted (absent: all)
  std::optional<SectionSizes> sections;  // Cortex-M: the trace program's
  std::optional<long> stack_bytes;       // Cortex-M: the most one step used
};

// The tasks' runs: which executives ran (a dual-rate scheme's tasks, or a single-rate scheme's
// periodic task on cortex-a53-linux) and the counts their programs report.
struct TaskRun {
  Tasks tasks = Tasks::kSingle;
  std::optional<OverrunHandling> overrun_handling;  // dual-rate: a release that finds the slow job running
  std::optional<bool> bit_exact_vs_single;          // its trace equals the sequential executive's bit for bit
  std::optional<long> overruns;                     // slow + fast overruns
  std::optional<long> slow_overruns, fast_overruns, ticks, slow_jobs, preempted_ticks;
  std::optional<long> deferred_releases;    // releases deferred behind a late slow job (defer)
  std::optional<long> longest_wait;         // most ticks the fast task waited for a late job's end points (defer)
  std::optional<int> fast_core, slow_core;  // the cores the tasks ran on, as the task program reports them
  // Two cores under QEMU: ticks that came while the fast task's handler ran and the other core
  // ran within it (emulated cores share one clock; not a fast overrun on the part).
  std::optional<long> shared_overruns;
  std::optional<bool> sched_fifo;      // Linux executives: the threads ran under SCHED_FIFO
  std::optional<long> late_ticks;      // Linux: ticks the fast thread began a period or more late
  std::optional<long> max_latency_ns;  // Linux: the fast thread's worst wake-up latency (platform, not overrun)
  // cortex-a53-linux: preemptive runs repeated because the host's scheduling, not the code,
  // made them overrun (overruns together with late wake-ups; kNoiseAttempts in all at most).
  int noise_retries = 0;
  std::optional<int> icount_shift;  // Cortex-M: QEMU's -icount shift of the runs
  std::optional<long> tick_cycles;  // Cortex-M: SysTick period in board cycles
  // Cortex-M: each task's interrupt handler's own instructions around its jobs (bookkeeping,
  // the release), measured in the preemptive run.
  std::optional<long> fast_handler_instructions, slow_handler_instructions;

  bool overran() const { return overruns.value_or(0) > 0; }
};

// Cortex-M: the most instructions and stack of one calibrate() over the run (a recalibration).
struct CalibrationCost {
  long instructions = 0, stack_bytes = 0;
};

// What a verify run measured. Each part is present where it was measured.
struct VerifyResult {
  std::string model, scheme, target, scalar;
  long steps = 0;
  double t_end = 0;      // where the run ended: steps h (the first grid time at or past --t-end)
  double max_error = 0;  // max over samples and states of |gen - ref| / max(1, max_t |ref|)
  double tolerance = 0;
  std::optional<ToleranceBasis> tolerance_basis;  // none: the run stopped before its checks
  bool pass = false;
  std::string worst_state;
  double worst_time = 0;
  std::optional<LocalCheckResult> local;
  // The exact step check (verify/local_check.hpp), or why it was not made.
  std::optional<ExactStepCheck> exact_step;
  std::string exact_step_skipped;
  // The outputs' check (verify/output_check.hpp), when the model has outputs and the run was compared.
  std::optional<OutputCheck> outputs;
  // Dual-rate tasks on the host or a Linux target, without calibration writes: every tick.
  std::optional<TickCheck> tick_check;
  std::string error;      // why the run could not be compared, if it could not
  std::string directory;  // where the kept files are (empty when not kept)
  std::optional<RelinearizedComparison> relinearized;
  // The generated trace against the high-accuracy solution, and the second verdict (accurate
  // or not) where a tolerance is given; absent when the run was not compared.
  std::optional<AccuracyCheck> accuracy;
  long ops_per_step = 0;                             // arithmetic operations of one step, counted by the generator
  long ops_bound = 0;                                // its lower bound (StepCost::bound)
  std::vector<std::string> portable_math_functions;  // elementary functions the generated header
                                                     // calls (step and scenario inputs), all
                                                     // computed by the portable libm
  std::optional<bool> bit_exact_vs_host;  // cross targets: the target's trace equals the host build's bit for bit
  std::optional<TargetCost> target_cost;
  std::optional<TaskRun> task_run;
  // Cortex-M and cortex-a53-linux: instructions per job, measured in the sequential run
  // (dual-rate: the fast task's ticks and the slow jobs; single-rate: the steps as the fast
  // task), and the budget.
  std::optional<JobCost> fast_job, slow_job;
  std::optional<Budget> budget;
  std::vector<CalibrationRecord> calibrations;  // the scenario's calibration writes
  std::optional<CalibrationCost> calibration_cost;

  // Both verdicts: the code is the scheme (pass), and the answer is accurate where judged.
  bool pass_all() const { return pass && (!accuracy || accuracy->pass()); }

  // The object `dualrate verify --json` prints, on one line (its schema: result_json.hpp).
  std::string json() const;
  // The lines `dualrate verify` prints without --json.
  std::string text() const;
};

}  // namespace dualrate
