// Several models' dual-rate tasks on one Cortex-M core under QEMU, rate-monotonic: a system
// header written by `dualrate verify-system` (DUALRATE_SYSTEM_HEADER) includes the models'
// generated headers and lists them as
//   DUALRATE_SYSTEM_MODELS(X): X(namespace, fast_every, macro_steps, every, fast_irq_priority,
//                                slow_irq_priority)
// with DUALRATE_SYSTEM_TICK_CYCLES the SysTick period of the base tick b (every model's h is
// fast_every b). Each task runs in an external interrupt of its own that the program pends in
// software (model i: fast task dualrate_task_irq<2i>, slow task <2i+1>), at the NVIC priority
// the generator gave it by rate (shorter period, higher priority; top 3 priority bits only);
// SysTick, above them all, is the dispatcher: at each base tick it pends the fast task of
// every model whose tick it is, and the fast task pends its slow task at each release.
// Overruns: a fast task still pending or running at its next tick is a fast overrun (that tick
// is lost); slow overruns and deferred releases are the runtime's (dual_rate.hpp).
// The program counts each task handler's own instructions around its job (where no base tick
// came during it) and the dispatcher's; the jobs themselves are counted in each model's own
// sequential run (tasks_main.cpp). Output: per model a '# model NAME' line, then its '#' lines
// and its trace; then the system's '#' lines. Exit status: 0, or 3 when a task reports a fault.
#include DUALRATE_SYSTEM_HEADER

#include <cstdint>

#include "instruction_counter.hpp"
#include "tasks.hpp"
#include "vectors.hpp"

namespace {

using namespace dualrate_trace;
using namespace dualrate_cortex_m;
constexpr std::uintptr_t kShpr3 = 0xE000ED20, kNvicIser = 0xE000E100, kNvicIspr = 0xE000E200, kNvicIabr = 0xE000E300,
                         kNvicIpr = 0xE000E400;

volatile std::uint32_t dispatches = 0;  // base ticks dispatched so far
volatile int failure = 0;
volatile bool finished = false;

void pend(int irq) { reg(kNvicIspr) = 1u << irq; }
bool pending_or_active(int irq) { return ((reg(kNvicIspr) | reg(kNvicIabr)) >> irq) & 1u; }

// One model's tasks and what the executives record of them.
template <class T>
class ModelRun {
 public:
  ModelRun(const char* name, typename T::Scalar h, long fast_every, long macro_steps, long every)
      : name_(name), fast_every_(fast_every), tasks_(h) {
    shape_.macro_steps = macro_steps;
    shape_.every = every;
  }

  // The dispatcher, at base tick `base`: pends the fast task at its ticks.
  void dispatch(std::uint32_t base, int fast_irq) {
    if (done_ticks_ || base % static_cast<std::uint32_t>(fast_every_) != 0) return;
    if (pending_or_active(fast_irq)) {
      ++counts_.fast_overruns;
      dualrate::report(dualrate::Status::kFastOverrun);
      return;
    }
    pend(fast_irq);
  }

  void fast(int slow_irq) {
    const std::uint32_t dispatched = dispatches;  // read before SysTick: a tick between the two is caught
    const std::uint32_t entered = reg(kSystCvr);
    const std::uint64_t n = tasks_.ticks();
    if (tasks_.slow_busy()) ++counts_.preempted_ticks;
    bool release = false;
    const std::uint32_t before = reg(kSystCvr);
    const dualrate::Status status = tasks_.fast(inputs_at_tick(tasks_, n), release);
    const std::uint32_t after = reg(kSystCvr);
    ++counts_.ticks;
    if (status == dualrate::Status::kNonFiniteState) {
      std::fprintf(stderr, "%s tick %lu: %s\n", name_, static_cast<unsigned long>(n), dualrate::to_string(status));
      failure = 3;
    }
    if (release) pend(slow_irq);
    if (n >= static_cast<std::uint64_t>(shape_.macro_steps) * T::kRatio) {
      done_ticks_ = true;
      if (!release) {
        std::fprintf(stderr, "%s: the last slow release was skipped (slow overrun)\n", name_);
        failure = 3;
      }
    }
    const std::uint32_t left = reg(kSystCvr);
    if (dispatches == dispatched) fast_handler_.add(entered, before, after, left);
  }

  void slow() {
    const std::uint32_t dispatched = dispatches;  // read before SysTick: a tick between the two is caught
    const std::uint32_t entered = reg(kSystCvr);
    const std::uint32_t k = tasks_.next_job();
    const std::uint32_t before = reg(kSystCvr);
    const dualrate::Status status = tasks_.slow();
    const std::uint32_t after = reg(kSystCvr);
    ++counts_.slow_jobs;
    if (status != dualrate::Status::kOk) {
      std::fprintf(stderr, "%s slow job %lu: %s\n", name_, static_cast<unsigned long>(k), dualrate::to_string(status));
      failure = 3;
    }
    if (!recorder_.record(shape_, tasks_.row())) {
      std::fprintf(stderr, "%s: trace rows exceed DUALRATE_TRACE_ROWS\n", name_);
      failure = 3;
    }
    if (k >= static_cast<std::uint32_t>(shape_.macro_steps)) done_jobs_ = true;
    const std::uint32_t left = reg(kSystCvr);
    if (dispatches == dispatched) slow_handler_.add(entered, before, after, left);
  }

  bool done() const { return done_jobs_; }

  void print(std::FILE* out) {
    std::fprintf(out, "# model %s\n", name_);
    take_runtime_counts(tasks_, counts_);
    fast_handler_.report(out, "fast_handler_instructions");
    slow_handler_.report(out, "slow_handler_instructions");
    print_counts(out, counts_);
    recorder_.print(out, tasks_.step());
  }

 private:
  const char* name_;
  long fast_every_;
  T tasks_;
  BasicRecorder<T> recorder_;
  RunShape shape_;
  Counts counts_;
  HandlerCost fast_handler_, slow_handler_;
  bool done_ticks_ = false;
  bool done_jobs_ = false;
};

#define DUALRATE_SYSTEM_RUN(ns, fast_every, macro_steps, every, fast_priority, slow_priority) \
  ModelRun<ns::Tasks> run_##ns(#ns, ns::kStep, fast_every, macro_steps, every);
DUALRATE_SYSTEM_MODELS(DUALRATE_SYSTEM_RUN)

// The models' entry points, in the order of DUALRATE_SYSTEM_MODELS.
struct Entry {
  void (*dispatch)(std::uint32_t base, int fast_irq);
  void (*fast)(int slow_irq);
  void (*slow)();
  bool (*done)();
  void (*print)();
  std::uint8_t fast_priority, slow_priority;
};
#define DUALRATE_SYSTEM_ENTRY(ns, fast_every, macro_steps, every, fast_priority, slow_priority) \
  {[](std::uint32_t base, int irq) { run_##ns.dispatch(base, irq); },                           \
   [](int irq) { run_##ns.fast(irq); },                                                         \
   [] { run_##ns.slow(); },                                                                     \
   [] { return run_##ns.done(); },                                                              \
   [] { run_##ns.print(stdout); },                                                              \
   fast_priority,                                                                               \
   slow_priority},
const Entry kModels[] = {DUALRATE_SYSTEM_MODELS(DUALRATE_SYSTEM_ENTRY)};
constexpr int kModelCount = static_cast<int>(sizeof kModels / sizeof kModels[0]);
static_assert(kModelCount >= 1 && kModelCount <= 4, "dualrate: the system program runs 1 to 4 models (8 interrupts)");

HandlerCost dispatcher;

void task(int irq) {
  const Entry& m = kModels[irq / 2];
  if (irq % 2 == 0)
    m.fast(irq + 1);
  else
    m.slow();
  bool all = true;
  for (const Entry& e : kModels) all = all && e.done();
  if (all || failure != 0) {
    reg(kSystCsr) = 0;
    finished = true;
  }
}

}  // namespace

extern "C" void SysTick_Handler() {
  const std::uint32_t entered = reg(kSystCvr);
  const std::uint32_t base = dispatches;
  for (int i = 0; i < kModelCount; ++i) kModels[i].dispatch(base, 2 * i);
  dispatches = base + 1;
  dispatcher.add(entered, 0, 0, reg(kSystCvr));
}

extern "C" void dualrate_task_irq0() { task(0); }
extern "C" void dualrate_task_irq1() { task(1); }
extern "C" void dualrate_task_irq2() { task(2); }
extern "C" void dualrate_task_irq3() { task(3); }
extern "C" void dualrate_task_irq4() { task(4); }
extern "C" void dualrate_task_irq5() { task(5); }
extern "C" void dualrate_task_irq6() { task(6); }
extern "C" void dualrate_task_irq7() { task(7); }

int main() {
  for (int i = 0; i < kModelCount; ++i) {
    reinterpret_cast<volatile std::uint8_t*>(kNvicIpr)[2 * i] = kModels[i].fast_priority;
    reinterpret_cast<volatile std::uint8_t*>(kNvicIpr)[2 * i + 1] = kModels[i].slow_priority;
  }
  reg(kNvicIser) = (1u << (2 * kModelCount)) - 1;
  reg(kShpr3) = 0x00u << 24;  // SysTick above every task
  reg(kSystRvr) = static_cast<std::uint32_t>(DUALRATE_SYSTEM_TICK_CYCLES - 1);
  reg(kSystCvr) = 0;
  reg(kSystCsr) = 0x7u;
  for (;;) {  // interrupts masked between the test and WFI, which still wakes on them
    __asm__ volatile("cpsid i" ::: "memory");
    if (finished) break;
    __asm__ volatile("wfi\n\tcpsie i" ::: "memory");
  }
  __asm__ volatile("cpsie i" ::: "memory");
  for (const Entry& m : kModels) m.print();
  dispatcher.report(stdout, "dispatcher_instructions");
  std::printf("# tick_cycles %ld\n", static_cast<long>(DUALRATE_SYSTEM_TICK_CYCLES));
  return failure;
}
