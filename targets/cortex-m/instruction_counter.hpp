// Instructions executed by a piece of code on Cortex-M under QEMU, counted with SysTick at the
// board's clock while QEMU runs with -icount shift=DUALRATE_ICOUNT_SHIFT (every instruction
// then takes 2^shift ns of virtual time): ticks * 1e9 / (DUALRATE_CPU_HZ * 2^shift)
// instructions, minus those of an empty measurement (the SysTick reads themselves). SysTick
// runs free (no interrupt) over its 24 bits: code that runs through a whole period cannot be
// counted. Used by the trace program and by the task programs' sequential executive.
#pragma once

#include <cstdint>
#include <cstdio>

#if !defined(DUALRATE_CPU_HZ) || !defined(DUALRATE_ICOUNT_SHIFT)
#error "build with -DDUALRATE_CPU_HZ=<the board's CPU clock> and -DDUALRATE_ICOUNT_SHIFT=<QEMU's icount shift>"
#endif

namespace dualrate_cortex_m {

inline volatile std::uint32_t& reg(std::uintptr_t address) {
  return *reinterpret_cast<volatile std::uint32_t*>(address);
}
constexpr std::uintptr_t kSystCsr = 0xE000E010, kSystRvr = 0xE000E014, kSystCvr = 0xE000E018;
constexpr std::uint32_t kCountFlag = 1u << 16;

// Instructions in `ticks` SysTick cycles of virtual time (rounded).
inline std::uint64_t instructions_in(std::uint64_t ticks) {
  const std::uint64_t per_tick_den = static_cast<std::uint64_t>(DUALRATE_CPU_HZ) << DUALRATE_ICOUNT_SHIFT;
  return (ticks * 1000000000ull + per_tick_den / 2) / per_tick_den;
}

class InstructionCounter {
 public:
  InstructionCounter() {
    reg(kSystRvr) = 0xFFFFFFu;
    reg(kSystCvr) = 0;
    reg(kSystCsr) = 0x5u;  // processor clock, enabled, no interrupt
    std::uint64_t empty = 0;
    count([] {}, empty);
    overhead_ = empty;
  }

  // Runs f() and sets `instructions` to what it executed; false if SysTick wrapped.
  template <class F>
  bool count(F&& f, std::uint64_t& instructions) const {
    reg(kSystCvr) = 0;
    const std::uint32_t cleared = reg(kSystCsr);  // reading clears COUNTFLAG
    static_cast<void>(cleared);
    __asm__ volatile("" ::: "memory");
    const std::uint32_t start = reg(kSystCvr);
    __asm__ volatile("" ::: "memory");
    f();
    __asm__ volatile("" ::: "memory");
    const std::uint32_t end = reg(kSystCvr);
    const bool wrapped = (reg(kSystCsr) & kCountFlag) != 0;
    __asm__ volatile("" ::: "memory");
    const std::uint64_t counted = instructions_in((start - end) & 0xFFFFFFu);
    instructions = counted > overhead_ ? counted - overhead_ : 0;
    return !wrapped;
  }

 private:
  std::uint64_t overhead_ = 0;
};

// Largest, total and number of the counts of one kind of job.
struct JobCounts {
  std::uint64_t max = 0, total = 0, jobs = 0;
  bool unmeasured = false;
  void add(bool counted, std::uint64_t n) {
    unmeasured = unmeasured || !counted;
    max = n > max ? n : max;
    total += n;
    ++jobs;
  }
};

// A sequential executive's meter (tasks.hpp's run_sequential): counts each job's instructions.
class JobMeter {
 public:
  template <class F>
  void fast(F&& f) {
    measure(fast_, f);
  }
  template <class F>
  void slow(F&& f) {
    measure(slow_, f);
  }

  void report(std::FILE* out) const {
    print(out, "fast_job_instructions", fast_);
    print(out, "slow_job_instructions", slow_);
  }

 private:
  template <class F>
  void measure(JobCounts& c, F& f) {
    std::uint64_t n = 0;
    const bool counted = counter_.count(f, n);
    c.add(counted, n);
  }
  static void print(std::FILE* out, const char* name, const JobCounts& c) {
    if (c.unmeasured)
      std::fprintf(out, "# %s unmeasured\n", name);
    else
      std::fprintf(out, "# %s %llu %llu %llu\n", name, static_cast<unsigned long long>(c.max),
                   static_cast<unsigned long long>(c.total), static_cast<unsigned long long>(c.jobs));
  }

  InstructionCounter counter_;
  JobCounts fast_, slow_;
};

// The most instructions a handler spent outside its job (SysTick cycles converted).
struct HandlerCost {
  std::uint64_t max = 0;
  bool measured = false;
  // entered/left: SysTick's value at the handler's first and last read; before/after: around the job.
  void add(std::uint32_t entered, std::uint32_t before, std::uint32_t after, std::uint32_t left) {
    if (left > entered) return;  // SysTick reloaded in between: a tick came
    const std::uint64_t own = instructions_in(entered - left) - instructions_in(before - after);
    max = own > max ? own : max;
    measured = true;
  }
  // A handler nothing preempts (tasks_main.cpp's SysTick handler), measured even when ticks came
  // during its job (a fast overrun): each of its two pieces around the job is taken modulo the
  // SysTick period (`reload` + 1 cycles), right while each piece is shorter than one period.
  void add_unpreempted(std::uint32_t entered, std::uint32_t before, std::uint32_t after, std::uint32_t left,
                       std::uint32_t reload) {
    const std::uint64_t period = static_cast<std::uint64_t>(reload) + 1;
    const auto elapsed = [period](std::uint32_t from, std::uint32_t to) {
      return (static_cast<std::uint64_t>(from) + period - to) % period;
    };
    const std::uint64_t own = instructions_in(elapsed(entered, before) + elapsed(after, left));
    max = own > max ? own : max;
    measured = true;
  }
  void report(std::FILE* out, const char* name) const {
    if (measured) std::fprintf(out, "# %s %llu\n", name, static_cast<unsigned long long>(max));
  }
};

}  // namespace dualrate_cortex_m
