// Dual-rate task program for two cores (cortex-m33-dual: QEMU's mps2-an521, two Cortex-M33 in
// an SSE-200): the fast task runs on core 0 in its SysTick handler every h, as in
// tasks_main.cpp; the slow task runs on core 1, which core 0 starts (the SSE-200's INITSVTOR1
// and CPUWAIT registers) before the first tick. The cores share no other state than the
// DualRate object's double buffers and counters (dual_rate.hpp: each snapshot and each end
// point is published with a store-release and read after a load-acquire, the DMB or LDA/STL
// that orders them between cores), and the counts below, each written by one core and read by
// core 0 after the run ended (a load-acquire of `finished`).
// Core 1 waits for a release by polling slow_busy() and runs each job to its end; it is never
// preempted by the fast task, which has a core of its own. A part that should sleep there
// would ring core 1's doorbell (the MHU) at each release and wait with WFI; under QEMU 7.2's
// -icount the two cores asleep at once let the host's clock into the virtual time, so core 1
// polls, with WFE between polls (QEMU: a yield to core 0), and only core 0 sleeps. At the end
// core 1 rings core 0 (MHU1, interrupt 7) to wake it.
// QEMU runs the two cores one after the other on one thread, each until it sleeps or yields,
// its next timer event or the round-robin kick (every 100 ms of virtual time): the virtual time
// is that of both cores' instructions, so the run checks the transfer and the overrun
// detection, not a speed-up, which the budget estimates for the part (two cores: each task
// alone on its own). Core 1 counts its turns (core1_turns); a SysTick handler during which core
// 1 ran has core 1's instructions in its time: it is not counted as the handler's cost, and a
// tick that came during it is counted as '# shared_overruns N', not as a fast overrun (on the
// part, core 1 takes no time from core 0).
// Core 0's thread mode, the background, makes the scenario's calibration writes (as in
// tasks_main.cpp); the release that takes them, on core 0, publishes them to core 1 with the job.
// Arguments, output and exit status as tasks_main.cpp's: single|multi MACRO EVERY
// [SLOW_DELAY_TICKS [TICK_CYCLES]]; the single (sequential) run uses core 0 only. In the multi
// run slow job MACRO / 2 waits on core 1 until SLOW_DELAY_TICKS ticks after its release's
// next tick (a forced late job); the counts add '# slow_core 1' and '# fast_core 0'.
#include <atomic>
#include <cstdint>

#include "task_program.hpp"
#include "vectors.hpp"

namespace {

using namespace dualrate_trace;
using namespace dualrate_cortex_m;

constexpr std::uintptr_t kIcsr = 0xE000ED04, kShpr3 = 0xE000ED20, kCpacr = 0xE000ED88, kShcsr = 0xE000ED24,
                         kNvicIser0 = 0xE000E100;
constexpr std::uint32_t kPendStSet = 1u << 26;
// SSE-200 system control (secure alias) and the MHU that interrupts core 0 (hw/misc/armsse-mhu.c).
constexpr std::uintptr_t kInitSvtor1 = 0x50021114, kCpuWait = 0x50021118;
constexpr std::uintptr_t kMhu1Cpu0IntrSet = 0x50004004, kMhu1Cpu0IntrClr = 0x50004008;
constexpr int kMhu1Irq = 7;

Tasks tasks(model::kStep);
Recorder recorder;
RunShape shape;
Counts counts;
long slow_delay_ticks = 0;
std::atomic<std::uint32_t> ticks_done{0};
std::atomic<bool> finished{false};          // the run ended (either core); publishes the trace and the counts
std::atomic<int> failure{0};                // 0, or the exit status
std::atomic<std::uint32_t> core1_turns{0};  // core 1's polls and jobs: changes whenever core 1 ran
unsigned long shared_overruns = 0;

HandlerCost fast_handler;

// Ends the run from either core; core 1 wakes core 0, which waits with WFI.
void finish(int status, bool on_core1) {
  if (status != 0) failure.store(status, std::memory_order_relaxed);
  finished.store(true, std::memory_order_release);
  if (on_core1) {
    __asm__ volatile("dsb" ::: "memory");
    reg(kMhu1Cpu0IntrSet) = 1u;
  }
}

// Core 1: the slow task, job after job, as they are released.
[[noreturn]] void slow_core() {
  for (;;) {
    core1_turns.fetch_add(1, std::memory_order_relaxed);
    if (finished.load(std::memory_order_acquire) || !tasks.slow_busy()) {
      __asm__ volatile("wfe" ::: "memory");
      continue;
    }
    const std::uint32_t k = tasks.next_job();
    if (slow_delay_ticks > 0 && k == static_cast<std::uint32_t>(shape.macro_steps / 2))
      while (ticks_done.load(std::memory_order_relaxed) <
             k * static_cast<std::uint32_t>(kRatio) + 1 + static_cast<std::uint32_t>(slow_delay_ticks)) {
      }
    const dualrate::Status status = model::slow_task(tasks);
    ++counts.slow_jobs;
    if (status != dualrate::Status::kOk) {
      std::fprintf(stderr, "slow job %lu: %s\n", static_cast<unsigned long>(k), dualrate::to_string(status));
      finish(3, true);
    } else if (!recorder.record(shape, tasks.row())) {
      std::fprintf(stderr, "trace rows exceed DUALRATE_TRACE_ROWS\n");
      finish(3, true);
    } else if (k >= static_cast<std::uint32_t>(shape.macro_steps)) {
      finish(0, true);
    }
  }
}

}  // namespace

extern "C" [[noreturn]] void dualrate_core1_reset() {
#if defined(__ARM_FP)
  reg(kCpacr) |= 0xFu << 20;  // core 1's own SCB: CP10 and CP11, full access
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  reg(kShcsr) |= (1u << 16) | (1u << 17) | (1u << 18);
  slow_core();
}

extern "C" void dualrate_fault_handler();
extern "C" [[noreturn]] void dualrate_default_handler();

namespace {

// Core 1's vector table (its own stack; faults reported as on core 0; no interrupts).
// VTOR takes a table aligned to 128 bytes.
alignas(8) std::uint8_t core1_stack[8192];
using Vector = void (*)();
alignas(128) const Vector core1_vectors[16] = {
    reinterpret_cast<Vector>(core1_stack + sizeof core1_stack),
    dualrate_core1_reset,
    dualrate_default_handler,  // NMI
    dualrate_fault_handler,    // HardFault
    dualrate_fault_handler,    // MemManage
    dualrate_fault_handler,    // BusFault
    dualrate_fault_handler,    // UsageFault
    dualrate_fault_handler,    // SecureFault
    nullptr,
    nullptr,
    nullptr,
    dualrate_default_handler,  // SVCall
    dualrate_default_handler,  // DebugMonitor
    nullptr,
    dualrate_default_handler,  // PendSV
    dualrate_default_handler,  // SysTick
};

void start_core1() {
  reg(kInitSvtor1) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(core1_vectors));
  __asm__ volatile("dsb" ::: "memory");
  reg(kCpuWait) = reg(kCpuWait) & ~2u;
}

}  // namespace

extern "C" void SysTick_Handler() {
  const std::uint32_t entered = reg(kSystCvr);
  const std::uint32_t turns = core1_turns.load(std::memory_order_relaxed);
  if (finished.load(std::memory_order_relaxed)) return;
  const FastTick tick = run_fast_tick(tasks, counts);
  const std::uint64_t n = tick.n;
  ticks_done.store(static_cast<std::uint32_t>(n + 1), std::memory_order_relaxed);
  if (tick.status == dualrate::Status::kNonFiniteState) {
    std::fprintf(stderr, "tick %lu: %s\n", static_cast<unsigned long>(n), dualrate::to_string(tick.status));
    reg(kSystCsr) = 0;
    finish(3, false);
    return;
  }
  if (n >= static_cast<std::uint64_t>(shape.macro_steps) * kRatio) {  // the last release
    reg(kSystCsr) = 0;
    if (!tick.release) {
      std::fprintf(stderr, "the last slow release was skipped (slow overrun)\n");
      finish(3, false);
    }
  }
  const std::uint32_t left = reg(kSystCvr);
  const bool alone = core1_turns.load(std::memory_order_relaxed) == turns;
  if (alone && (reg(kSystCsr) & 1u))  // not after the last tick, which stopped SysTick
    fast_handler.add_unpreempted(entered, tick.before, tick.after, left, reg(kSystRvr));
  if (reg(kIcsr) & kPendStSet) {
    if (!alone) {
      ++shared_overruns;
    } else {
      ++counts.fast_overruns;
      dualrate::report(dualrate::Status::kFastOverrun);
    }
  }
}

// Core 1's "the run ended" doorbell: wakes core 0 from WFI.
extern "C" void dualrate_task_irq7() { reg(kMhu1Cpu0IntrClr) = ~0u; }

int main(int argc, char** argv) {
  TaskArguments a;
  if (!read_task_arguments(argc, argv, shape, a)) return 1;
  slow_delay_ticks = a.slow_delay_ticks;
  take_samples_before_start(tasks);
  if (!a.multi) return run_counted_sequential(tasks, recorder, shape, counts, a);
  reg(kShpr3) = 0x40u << 24;  // SysTick
  reg(kNvicIser0) = 1u << kMhu1Irq;
  start_core1();
  tick_until(
      a.tick_cycles, [] { return finished.load(std::memory_order_acquire); },
      [] {
        background_writes([] { return ticks_done.load(std::memory_order_relaxed); },
                          [] {
                            reg(kSystCsr) = 0;
                            finish(3, false);
                          });
      });
  take_runtime_counts(tasks, counts);
  fast_handler.report(stdout, "fast_handler_instructions");
  std::printf("# fast_core 0\n# slow_core 1\n# shared_overruns %lu\n", shared_overruns);
  print_run(recorder, counts, a);
  return failure.load(std::memory_order_relaxed);
}
