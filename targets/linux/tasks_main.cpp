// Dual-rate task program for Linux (the host, and aarch64 under qemu-aarch64 for the
// cortex-a53-linux target): runs a generated model's fast and slow tasks (../common/tasks.hpp)
// and writes the slow task's trace to OUT.csv, then the executive's counts to stdout.
// Usage: tasks single|multi|count|ticks MACRO EVERY OUT.csv [SLOW_DELAY_TICKS]
//  - single: the sequential executive, the oracle;
//  - ticks: the same run writing instead the tasks' state and outputs before every EVERY-th
//    fast tick (../common/tasks.hpp's TickRows);
//  - count: the same run without writing its trace, for counting the jobs' instructions
//    (below): formatting the trace would be about five in six of the instructions logged;
//  - multi: two threads, the fast one at SCHED_FIFO priority 80 released every h by an
//    absolute clock_nanosleep on CLOCK_MONOTONIC, the slow one at priority 70 released through
//    a semaphore by the fast task. With two or more processors each thread has one of its
//    own (the paper's two-processor setting: a fast task catching up after the host held it
//    back does not starve the slow one); on one processor the fast task preempts the slow one. Without the privilege
//    for SCHED_FIFO the threads keep the default policy ("# sched_fifo 0"); the results do not depend on it
//    (dual_rate.hpp), the overrun counts may. A fast overrun is a fast job that used more processor time than one
//    period h (CLOCK_THREAD_CPUTIME_ID): a demand no scheduler can fit. How late the fast thread woke is the platform's
//    release latency, not the task's overrun: it is reported apart ("# late_ticks": ticks that began a whole period or
//    more after their release, "# max_latency_ns"); a non-real-time kernel, or a host under emulation, does not bound
//    it. A late fast task runs late; it never skips a tick. Before its first release the fast thread makes a sequential
//    warm-up run of a separate Tasks object for kWarmUpMacroSteps macro steps brings all the task code in (under
//    qemu-aarch64, its translation), as an ECU runs its tasks once before it enables its timers.
//  - SLOW_DELAY_TICKS > 0 makes slow job MACRO / 2 busy-wait until that many ticks have passed
//    since its release (the forced-overrun test).
// With calibration writes (a verify scenario's), a third thread at priority 60, the background,
// makes them in the multi run (the single run's executive makes them itself: tasks.hpp).
// In the single run each job is bracketed by calls of the empty functions
// dualrate_{fast,slow}_job_{begin,end}, and each pair is called once empty first: under
// qemu-aarch64 -singlestep -d exec every executed instruction is logged with its address, so
// the instructions of each job are the lines between its markers, less the empty pair's.
// Exit status: 0, 1 on bad arguments, 3 when a task reports a fault.
#include "tasks.hpp"
#include "realtime.hpp"

#include <semaphore.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace {

using namespace dualrate_trace;
using namespace dualrate_linux;

constexpr long kWarmUpMacroSteps = model::Scheme::kStartupMacroSteps + 2;

Tasks tasks(model::kStep);
Tasks warm_up_tasks(model::kStep);
Recorder recorder;
long late_ticks = 0;
long max_latency_ns = 0;
RunShape shape;
Counts counts;
long slow_delay_ticks = 0;
sem_t slow_release;
#ifdef DUALRATE_TRACE_CALIBRATION
sem_t background_release;
#endif
std::atomic<std::uint64_t> ticks_done{0};
std::atomic<bool> failed{false};
std::atomic<bool> stopping{false};

void warm_up() {
  for (std::uint64_t n = 0; n < static_cast<std::uint64_t>(kWarmUpMacroSteps) * kRatio; ++n) {
    bool release = false;
    if (model::fast_task(warm_up_tasks, inputs_at_tick(warm_up_tasks, n), release) != dualrate::Status::kOk) return;
    if (release && model::slow_task(warm_up_tasks) != dualrate::Status::kOk) return;
  }
}

void fail(const char* what, dualrate::Status status) {
  std::fprintf(stderr, "%s: %s\n", what, dualrate::to_string(status));
  failed = true;
}

void* fast_thread(void*) {
  const long period_ns = std::lround(static_cast<double>(model::kStep) * 1e9);
  warm_up();
  PeriodicRelease release(period_ns);
  const std::uint64_t last = static_cast<std::uint64_t>(shape.macro_steps) * kRatio;
  for (std::uint64_t n = 0; n <= last && !failed; ++n) {
    release.wait();
    const timespec cpu_start = thread_cpu_time();
    if (tasks.slow_busy()) ++counts.preempted_ticks;
    bool go = false;
    const dualrate::Status status = model::fast_task(tasks, inputs_at_tick(tasks, n), go);
    if (elapsed_ns(cpu_start, thread_cpu_time()) > period_ns) {
      ++counts.fast_overruns;
      dualrate::report(dualrate::Status::kFastOverrun);
    }
    if (status == dualrate::Status::kNonFiniteState) fail("fast task", status);
    ++counts.ticks;
    ticks_done.store(n + 1, std::memory_order_release);
    if (go) sem_post(&slow_release);
#ifdef DUALRATE_TRACE_CALIBRATION
    if (go) sem_post(&background_release);
#endif
  }
  late_ticks = release.late_ticks();
  max_latency_ns = release.max_latency_ns();
  stopping = true;
  sem_post(&slow_release);
#ifdef DUALRATE_TRACE_CALIBRATION
  sem_post(&background_release);
#endif
  return nullptr;
}

#ifdef DUALRATE_TRACE_CALIBRATION
// The background thread: the scenario's calibration writes, each made in the macro step before
// the release that takes it (trace_calibration.hpp), woken by the fast task at each release.
void* background_thread(void*) {
  for (;;) {
    sem_wait(&background_release);
    if (failed || stopping) return nullptr;
    if (!poll_release_writes<kRatio>([] { return ticks_done.load(std::memory_order_acquire); })) failed = true;
  }
}
#endif

void* slow_thread(void*) {
  for (;;) {
    sem_wait(&slow_release);
    if (failed || (stopping && !tasks.slow_busy())) return nullptr;
    const std::uint32_t k = tasks.next_job();
    const std::uint64_t release_tick = std::uint64_t{k} * kRatio;
    if (slow_delay_ticks > 0 && k == shape.macro_steps / 2)
      while (ticks_done.load(std::memory_order_acquire) <
             release_tick + 1 + static_cast<std::uint64_t>(slow_delay_ticks)) {
      }
    const dualrate::Status status = model::slow_task(tasks);
    ++counts.slow_jobs;
    if (status != dualrate::Status::kOk) fail("slow task", status);
    if (!recorder.record(shape, tasks.row())) fail("trace", dualrate::Status::kOk);
    if (static_cast<long>(tasks.row().macro) >= shape.macro_steps) return nullptr;
  }
}

int run_threads(bool& fifo) {
  mlockall(MCL_CURRENT | MCL_FUTURE);
  sem_init(&slow_release, 0, 0);
  pthread_t slow{}, fast{};
  fifo = true;
  const int processors = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
#ifdef DUALRATE_TRACE_CALIBRATION
  sem_init(&background_release, 0, 0);
  poll_release_writes<kRatio>([] { return ticks_done.load(std::memory_order_acquire); });  // those of tick 0
  pthread_t background{};
  if (!start_thread(background, background_thread, 60, processors > 1 ? 1 : 0, fifo)) {
    std::fprintf(stderr, "cannot start the background thread\n");
    return 3;
  }
#endif
  if (!start_thread(slow, slow_thread, 70, processors > 1 ? 1 : 0, fifo) ||
      !start_thread(fast, fast_thread, 80, 0, fifo)) {
    std::fprintf(stderr, "cannot start the task threads\n");
    return 3;
  }
  pthread_join(fast, nullptr);
  pthread_join(slow, nullptr);
#ifdef DUALRATE_TRACE_CALIBRATION
  pthread_join(background, nullptr);
#endif
  take_runtime_counts(tasks, counts);
  return failed ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: %s single|multi|count|ticks MACRO EVERY OUT.csv [SLOW_DELAY_TICKS]\n", argv[0]);
    return 1;
  }
  const bool multi = std::strcmp(argv[1], "multi") == 0, count = std::strcmp(argv[1], "count") == 0,
             ticks = std::strcmp(argv[1], "ticks") == 0;
  shape.macro_steps = std::atol(argv[2]);
  shape.every = std::atol(argv[3]);
  slow_delay_ticks = argc == 6 ? std::atol(argv[5]) : 0;
  std::FILE* out = std::fopen(argv[4], "w");  // NOLINT(cppcoreguidelines-owning-memory): the host harness's trace file
  if (!out || (!multi && !count && !ticks && std::strcmp(argv[1], "single") != 0) || shape.macro_steps < 1 ||
      shape.every < 1 || slow_delay_ticks < 0) {
    std::fprintf(stderr, "bad arguments\n");
    return 1;
  }
  take_samples_before_start(tasks);
  take_samples_before_start(warm_up_tasks);
  bool fifo = false;
  int status = 0;
  if (multi) {
    status = run_threads(fifo);
  } else if (ticks) {
    MarkedJobs meter;
    print_model_header<model::Model>(out);
    const RunShape ends{shape.macro_steps, shape.macro_steps * kRatio};  // the slow task's rows at the ends only
    status = run_sequential(tasks, recorder, ends, counts, meter, TickRows<Tasks>{out, shape});
  } else {
    MarkedJobs meter;
    status = run_sequential(tasks, recorder, shape, counts, meter);
  }
  if (!count && !ticks) recorder.print(out, model::kStep, !multi);
  if (std::fclose(out) != 0) return 1;  // NOLINT(cppcoreguidelines-owning-memory)
  print_counts(stdout, counts);
  std::printf("# sched_fifo %d\n# late_ticks %ld\n# max_latency_ns %ld\n", fifo ? 1 : 0, late_ticks, max_latency_ns);
  return status;
}
