// Dual-rate task program for Cortex-M under QEMU (../common/tasks.hpp): the fast task runs in
// the SysTick handler every h, the slow task in the PendSV handler, which the fast task pends
// at each release; the slow task is preempted by the fast one. Priorities use only the top 3
// bits (real M3/M4/M7 parts implement 3 or more): SysTick 0x40, PendSV 0xE0 (the lowest), so
// thread mode, which waits with WFI, runs only when both are idle.
// SysTick reloads every TICK_CYCLES CPU cycles (the board's clock times h unless given).
// Arguments on the semihosting command line: single|multi MACRO EVERY [SLOW_DELAY_TICKS
// [TICK_CYCLES]]; the trace goes to semihosting stdout, then the counts as '#' lines (tasks.hpp).
// Overruns: a fast overrun is a SysTick that became pending again before the fast task ended
// (it runs late, tail-chained; ticks that come while it is still pending are lost and
// counted once); slow overruns and deferred releases are counted by the runtime (dual_rate.hpp's
// policies; a deferred release pends PendSV while it runs, which runs the job right after).
// The single (sequential) run counts each job's instructions (instruction_counter.hpp) and
// prints '# fast_job_instructions MAX TOTAL JOBS' and the same for slow jobs ('unmeasured'
// instead of the numbers when a job ran through a whole SysTick period). The multi run counts
// each handler's own instructions around its job, from the handler's first SysTick read to its
// last (the compiler's prologue and epilogue, a few instructions, fall outside): the SysTick
// handler's at every tick (instruction_counter.hpp's add_unpreempted: also when its job overran),
// PendSV's where no tick came in between; it prints '# fast_handler_instructions MAX' and the
// same for PendSV.
// Thread mode, the background, makes the scenario's calibration writes in the preemptive run
// (task_program.hpp's background_writes).
// Exit status: 0, 1 on bad arguments, 3 when a task reports a fault (or a calibration write
// came late).
#include <cstdint>

#include "task_program.hpp"
#include "vectors.hpp"

namespace {

using namespace dualrate_trace;

using namespace dualrate_cortex_m;
constexpr std::uintptr_t kIcsr = 0xE000ED04, kShpr3 = 0xE000ED20;
constexpr std::uint32_t kPendSvSet = 1u << 28, kPendStSet = 1u << 26;

Tasks tasks(model::kStep);
Recorder recorder;
RunShape shape;
Counts counts;
long slow_delay_ticks = 0;
volatile std::uint32_t ticks_done = 0;
volatile bool finished = false;
volatile int failure = 0;  // 0, or the exit status

HandlerCost fast_handler, slow_handler;

void stop(int status) {
  reg(kSystCsr) = 0;
  if (status != 0) failure = status;
  finished = true;
}

}  // namespace

extern "C" void SysTick_Handler() {
  const std::uint32_t entered = reg(kSystCvr);
  if (finished) return;
  const FastTick tick = run_fast_tick(tasks, counts);
  const std::uint64_t n = tick.n;
  ticks_done = static_cast<std::uint32_t>(n + 1);
  if (tick.status == dualrate::Status::kNonFiniteState) {
    std::fprintf(stderr, "tick %lu: %s\n", static_cast<unsigned long>(n), dualrate::to_string(tick.status));
    stop(3);
    return;
  }
  if (tick.release) reg(kIcsr) = kPendSvSet;
  if (n >= static_cast<std::uint64_t>(shape.macro_steps) * kRatio) {  // the last release
    reg(kSystCsr) = 0;
    if (!tick.release) {
      std::fprintf(stderr, "the last slow release was skipped (slow overrun)\n");
      stop(3);
    }
  }
  if (reg(kSystCsr) & 1u)  // not after the last tick, which stopped SysTick
    fast_handler.add_unpreempted(entered, tick.before, tick.after, reg(kSystCvr), reg(kSystRvr));
  if (reg(kIcsr) & kPendStSet) {
    ++counts.fast_overruns;
    dualrate::report(dualrate::Status::kFastOverrun);
  }
}

extern "C" void PendSV_Handler() {
  const std::uint32_t entered = reg(kSystCvr), ticks_at_entry = ticks_done;
  const std::uint32_t k = tasks.next_job();
  const bool delayed = slow_delay_ticks > 0 && k == static_cast<std::uint32_t>(shape.macro_steps / 2);
  if (delayed)
    while (ticks_done < static_cast<std::uint32_t>(k) * kRatio + 1 + static_cast<std::uint32_t>(slow_delay_ticks)) {
    }
  const std::uint32_t before = reg(kSystCvr);
  const dualrate::Status status = model::slow_task(tasks);
  const std::uint32_t after = reg(kSystCvr);
  ++counts.slow_jobs;
  if (status != dualrate::Status::kOk) {
    std::fprintf(stderr, "slow job %lu: %s\n", static_cast<unsigned long>(k), dualrate::to_string(status));
    stop(3);
    return;
  }
  if (!recorder.record(shape, tasks.row())) {
    std::fprintf(stderr, "trace rows exceed DUALRATE_TRACE_ROWS\n");
    stop(3);
    return;
  }
  if (!delayed && ticks_done == ticks_at_entry && (reg(kSystCsr) & 1u))
    slow_handler.add(entered, before, after, reg(kSystCvr));
  if (k >= static_cast<std::uint32_t>(shape.macro_steps)) stop(0);
}

int main(int argc, char** argv) {
  TaskArguments a;
  if (!read_task_arguments(argc, argv, shape, a)) return 1;
  slow_delay_ticks = a.slow_delay_ticks;
  take_samples_before_start(tasks);
  if (!a.multi) return run_counted_sequential(tasks, recorder, shape, counts, a);
  reg(kShpr3) = (0x40u << 24) | (0xE0u << 16);  // SysTick, PendSV
  tick_until(
      a.tick_cycles, [] { return finished; }, [] { background_writes([] { return ticks_done; }, [] { stop(3); }); });
  take_runtime_counts(tasks, counts);
  fast_handler.report(stdout, "fast_handler_instructions");
  slow_handler.report(stdout, "slow_handler_instructions");
  print_run(recorder, counts, a);
  return failure;
}
