// Single-rate trace program for Linux (cortex-a53-linux, an aarch64 program under qemu-aarch64):
// a generated model's step function as one periodic task, with the trace of ../common/trace.hpp.
// Usage: trace single|periodic|count STEPS EVERY OUT.csv
//  - single: the steps back to back, the oracle (verify compares its trace with the host's bit
//    for bit);
//  - periodic: one thread at SCHED_FIFO priority 80 (memory locked), after a few warm-up steps
//    of a scratch instance (which bring the step's code in), released every h by an
//    absolute clock_nanosleep on CLOCK_MONOTONIC, takes one step per release; its trace must
//    equal the single run's. An overrun is a step that used more processor time than h
//    (CLOCK_THREAD_CPUTIME_ID); how late the thread woke is the platform's latency, reported
//    apart (late_ticks, max_latency_ns) as in tasks_main.cpp. Without the privilege for
//    SCHED_FIFO the thread keeps the default policy ("# sched_fifo 0").
//  - count: the single run with each step bracketed by the fast job's markers (realtime.hpp),
//    for count_jobs.sh (which gives /dev/null as OUT.csv).
// Exit status: 0, 1 on bad arguments, 3 when a step reports a fault.
#include "trace.hpp"
#include "realtime.hpp"

#include <sys/mman.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using namespace dualrate_linux;

struct PeriodicRun {
  std::FILE* out = nullptr;
  long steps = 0, every = 1;
  int status = 0;
  long overruns = 0, late_ticks = 0, max_latency_ns = 0;
};
PeriodicRun periodic;

// Steps a scratch instance a few times, as an ECU runs its task once before it enables its
// timer: under qemu-aarch64 the first run of the step translates its code, which takes longer
// than a step.
constexpr int kWarmUpSteps = 3;

void warm_up() {
  dualrate_trace::model::Data scratch;
  for (int i = 0; i < kWarmUpSteps; ++i)
    if (dualrate_trace::step_once(scratch, dualrate_trace::model::Model::scenario_inputs(
                                               scratch.time(dualrate_trace::model::kStep))) != dualrate::Status::kOk)
      return;
}

void* periodic_thread(void*) {
  const long period_ns = std::lround(static_cast<double>(dualrate_trace::model::kStep) * 1e9);
  warm_up();
  PeriodicRelease release(period_ns);
  periodic.status = dualrate_trace::run(periodic.out, periodic.steps, periodic.every, [&](auto& d, const auto& u) {
    release.wait();
    const timespec cpu_start = thread_cpu_time();
    const dualrate::Status status = dualrate_trace::step_once(d, u);
    if (elapsed_ns(cpu_start, thread_cpu_time()) > period_ns) {
      ++periodic.overruns;
      dualrate::report(dualrate::Status::kFastOverrun);
    }
    return status;
  });
  periodic.late_ticks = release.late_ticks();
  periodic.max_latency_ns = release.max_latency_ns();
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s single|periodic|count STEPS EVERY OUT.csv\n", argv[0]);
    return 1;
  }
  const std::string mode = argv[1];
  const long steps = std::atol(argv[2]), every = std::atol(argv[3]);
  std::FILE* out = std::fopen(argv[4], "w");  // NOLINT(cppcoreguidelines-owning-memory): the harness's trace file
  if (!out || (mode != "single" && mode != "periodic" && mode != "count") || steps < 1 || every < 1) {
    std::fprintf(stderr, "bad arguments\n");
    return 1;
  }
  int status = 0;
  bool fifo = false;
  if (mode == "periodic") {
    mlockall(MCL_CURRENT | MCL_FUTURE);
    periodic.out = out;
    periodic.steps = steps;
    periodic.every = every;
    pthread_t thread{};
    fifo = true;
    if (!start_thread(thread, periodic_thread, 80, 0, fifo)) {
      std::fprintf(stderr, "cannot start the periodic thread\n");
      return 3;
    }
    pthread_join(thread, nullptr);
    status = periodic.status;
  } else if (mode == "count") {
    MarkedJobs meter;
    status = dualrate_trace::run(out, steps, every, [&meter](auto& d, const auto& u) {
      dualrate::Status s = dualrate::Status::kOk;
      meter.fast([&] { s = dualrate_trace::step_once(d, u); });
      return s;
    });
  } else {
    status =
        dualrate_trace::run(out, steps, every, [](auto& d, const auto& u) { return dualrate_trace::step_once(d, u); });
  }
  if (std::fclose(out) != 0) return 1;  // NOLINT(cppcoreguidelines-owning-memory)
  std::printf("# ticks %ld\n# fast_overruns %ld\n# sched_fifo %d\n# late_ticks %ld\n# max_latency_ns %ld\n", steps,
              periodic.overruns, fifo ? 1 : 0, periodic.late_ticks, periodic.max_latency_ns);
  return status;
}
