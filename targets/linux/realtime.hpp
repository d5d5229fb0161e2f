// What the Linux programs of generated code (tasks_main.cpp: the dual-rate tasks, trace_main.cpp:
// a single-rate scheme as one periodic task) share: time arithmetic on timespec, threads started
// at a SCHED_FIFO priority on one processor, and the empty marker functions that bracket each
// job of a counting run (count_jobs.sh counts the instructions between them under qemu-aarch64).
#pragma once

#include <pthread.h>
#include <sched.h>
#include <time.h>

namespace dualrate_linux {

constexpr long kNanoseconds = 1000000000L;

inline void add_ns(timespec& t, long ns) {
  t.tv_nsec += ns;
  while (t.tv_nsec >= kNanoseconds) {
    t.tv_nsec -= kNanoseconds;
    ++t.tv_sec;
  }
}

inline long elapsed_ns(const timespec& from, const timespec& to) {
  return (to.tv_sec - from.tv_sec) * kNanoseconds + (to.tv_nsec - from.tv_nsec);
}

// Starts `body` on `processor` at SCHED_FIFO `priority`; without the privilege for it (or when
// `fifo` is already false) at the default policy, and then sets `fifo` false. False when no
// thread could be started.
inline bool start_thread(pthread_t& thread, void* (*body)(void*), int priority, int processor, bool& fifo) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  cpu_set_t cpu;
  CPU_ZERO(&cpu);
  CPU_SET(processor, &cpu);
  pthread_attr_setaffinity_np(&attr, sizeof cpu, &cpu);
  sched_param param{};
  param.sched_priority = priority;
  if (fifo && (pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED) != 0 ||
               pthread_attr_setschedpolicy(&attr, SCHED_FIFO) != 0 || pthread_attr_setschedparam(&attr, &param) != 0))
    fifo = false;
  int rc = pthread_create(&thread, &attr, body, nullptr);
  if (rc != 0 && fifo) {
    fifo = false;
    pthread_attr_destroy(&attr);
    pthread_attr_init(&attr);
    pthread_attr_setaffinity_np(&attr, sizeof cpu, &cpu);
    rc = pthread_create(&thread, &attr, body, nullptr);
  }
  pthread_attr_destroy(&attr);
  return rc == 0;
}

// A periodic release every `period_ns` on CLOCK_MONOTONIC: wait() sleeps until the next
// release (absolute, so that lateness does not accumulate) and measures how late the thread
// woke; ticks that began a whole period or more after their release are counted as late.
class PeriodicRelease {
 public:
  explicit PeriodicRelease(long period_ns) : period_ns_(period_ns) {
    clock_gettime(CLOCK_MONOTONIC, &release_);
    add_ns(release_, period_ns_);
  }
  void wait() {
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &release_, nullptr) != 0) {
    }
    timespec woke{};
    clock_gettime(CLOCK_MONOTONIC, &woke);
    const long latency = elapsed_ns(release_, woke);
    max_latency_ns_ = latency > max_latency_ns_ ? latency : max_latency_ns_;
    if (latency >= period_ns_) ++late_ticks_;
    add_ns(release_, period_ns_);
  }
  long late_ticks() const { return late_ticks_; }
  long max_latency_ns() const { return max_latency_ns_; }

 private:
  long period_ns_;
  timespec release_{};
  long late_ticks_ = 0, max_latency_ns_ = 0;
};

// Processor time of the calling thread, to tell a job that overran its period (it used more
// than one period of processor time) from one that was released late.
inline timespec thread_cpu_time() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t;
}

}  // namespace dualrate_linux

extern "C" {
__attribute__((noinline)) inline void dualrate_fast_job_begin() { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) inline void dualrate_fast_job_end() { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) inline void dualrate_slow_job_begin() { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) inline void dualrate_slow_job_end() { __asm__ volatile("" ::: "memory"); }
}

namespace dualrate_linux {

// A job meter (tasks.hpp's run_sequential, trace_main.cpp) that brackets each job by its
// markers, after one empty pair of each (the markers' own instructions).
struct MarkedJobs {
  MarkedJobs() {
    dualrate_fast_job_begin();
    dualrate_fast_job_end();
    dualrate_slow_job_begin();
    dualrate_slow_job_end();
  }
  template <class F>
  void fast(F&& f) {
    dualrate_fast_job_begin();
    f();
    dualrate_fast_job_end();
  }
  template <class F>
  void slow(F&& f) {
    dualrate_slow_job_begin();
    f();
    dualrate_slow_job_end();
  }
};

}  // namespace dualrate_linux
