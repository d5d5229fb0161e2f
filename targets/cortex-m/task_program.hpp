// What the Cortex-M task programs (tasks_main.cpp on one core, dual_core_main.cpp on two) share:
// their command line, core 0's sleep while the preemptive run goes on, the sequential run and
// the report at the end of either run.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "instruction_counter.hpp"
#include "tasks.hpp"

namespace dualrate_cortex_m {

struct TaskArguments {
  bool multi = false;
  long slow_delay_ticks = 0;
  long long tick_cycles = 0;  // SysTick's period in the board's cycles
};

// single|multi MACRO EVERY [SLOW_DELAY_TICKS [TICK_CYCLES]] into shape and a (TICK_CYCLES by
// default h at the board's clock); false after saying why.
inline bool read_task_arguments(int argc, char** argv, dualrate_trace::RunShape& shape, TaskArguments& a) {
  if (argc < 4 || argc > 6) {
    std::fprintf(stderr, "usage: %s single|multi MACRO EVERY [SLOW_DELAY_TICKS [TICK_CYCLES]]\n",
                 argc > 0 ? argv[0] : "tasks");
    return false;
  }
  a.multi = std::strcmp(argv[1], "multi") == 0;
  shape.macro_steps = std::atol(argv[2]);
  shape.every = std::atol(argv[3]);
  a.slow_delay_ticks = argc >= 5 ? std::atol(argv[4]) : 0;
  const long long default_cycles =
      static_cast<long long>(static_cast<double>(dualrate_trace::model::kStep) * DUALRATE_CPU_HZ + 0.5);
  a.tick_cycles = argc == 6 ? std::atoll(argv[5]) : default_cycles;
  if ((!a.multi && std::strcmp(argv[1], "single") != 0) || shape.macro_steps < 1 || shape.every < 1 ||
      a.slow_delay_ticks < 0 || a.tick_cycles < 2 || a.tick_cycles > 0x1000000) {
    std::fprintf(stderr, "bad arguments\n");
    return false;
  }
  return true;
}

// Starts SysTick every `tick_cycles` processor cycles with its interrupt, then sleeps in WFI
// until finished() (interrupts masked between the test and WFI, which still wakes on them).
// Thread mode, the background, runs background() before the first tick and after each wake-up.
template <class Finished, class Background>
void tick_until(long long tick_cycles, Finished finished, Background background) {
  background();
  reg(kSystRvr) = static_cast<std::uint32_t>(tick_cycles - 1);
  reg(kSystCvr) = 0;
  reg(kSystCsr) = 0x7u;  // processor clock, interrupt, enabled
  for (;;) {
    background();
    __asm__ volatile("cpsid i" ::: "memory");
    if (finished()) break;
    __asm__ volatile("wfi\n\tcpsie i" ::: "memory");
  }
  __asm__ volatile("cpsie i" ::: "memory");
}

// The fast task's job at a tick, in the SysTick handler: the inputs at t_n, the job between
// two SysTick reads (before, after), counted (and as preempting a slow job when one runs).
struct FastTick {
  std::uint64_t n = 0;
  bool release = false;
  dualrate::Status status = dualrate::Status::kOk;
  std::uint32_t before = 0, after = 0;
};
inline FastTick run_fast_tick(dualrate_trace::Tasks& tasks, dualrate_trace::Counts& counts) {
  FastTick f;
  f.n = tasks.ticks();
  if (tasks.slow_busy()) ++counts.preempted_ticks;
  const dualrate_trace::model::Model::Input u = dualrate_trace::inputs_at_tick(tasks, f.n);
  f.before = reg(kSystCvr);
  f.status = dualrate_trace::model::fast_task(tasks, u, f.release);
  f.after = reg(kSystCvr);
  ++counts.ticks;
  return f;
}

// The background of a preemptive run: the scenario's calibration writes, each made in the
// macro step before the release that takes it (trace_calibration.hpp); `late` is called when
// one was computed after that release.
template <class TicksDone, class Late>
void background_writes(TicksDone ticks_done, Late late) {
#ifdef DUALRATE_TRACE_CALIBRATION
  if (!dualrate_trace::poll_release_writes<dualrate_trace::kRatio>(ticks_done)) late();
#else
  (void)ticks_done;
  (void)late;
#endif
}

// The end of either run: the trace (with the local check's columns after the sequential one)
// and the counts.
inline void print_run(const dualrate_trace::Recorder& recorder, const dualrate_trace::Counts& counts,
                      const TaskArguments& a) {
  recorder.print(stdout, dualrate_trace::model::kStep, !a.multi);
  dualrate_trace::print_counts(stdout, counts);
  std::printf("# tick_cycles %lld\n", a.tick_cycles);
}

// The sequential run (the single mode) with each job's instructions counted, and its report;
// its exit status.
inline int run_counted_sequential(dualrate_trace::Tasks& tasks, dualrate_trace::Recorder& recorder,
                                  const dualrate_trace::RunShape& shape, dualrate_trace::Counts& counts,
                                  const TaskArguments& a) {
  JobMeter meter;
  const int status = dualrate_trace::run_sequential(tasks, recorder, shape, counts, meter);
  meter.report(stdout);
  print_run(recorder, counts, a);
  return status;
}

}  // namespace dualrate_cortex_m
