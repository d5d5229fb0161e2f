// What the Cortex-M trace programs (trace_main.cpp, and the work-precision peer
// tests/benchmarks/odeint_rk4_trace_main.cpp) share: the instructions of each step counted
// (instruction_counter.hpp), summed, with their minimum and maximum, reported as
//   # instructions_per_step TOTAL MIN MAX
// and their main: arguments STEPS EVERY on the semihosting command line, the trace loop
// (trace.hpp) with a probe that performs each step, then the probe's report.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "instruction_counter.hpp"
#include "trace.hpp"

namespace dualrate_cortex_m {

class StepCounts {
 public:
  // Runs step() and adds its instructions.
  template <class F>
  void count(F&& step) {
    std::uint64_t n = 0;
    if (!counter_.count(step, n)) {
      unmeasured_ = true;
      return;
    }
    total_ += n;
    min_ = n < min_ ? n : min_;
    max_ = n > max_ ? n : max_;
  }

  void report(std::FILE* out) const {
    if (unmeasured_)
      std::fprintf(out, "# instructions_per_step unmeasured\n");
    else
      std::fprintf(out, "# instructions_per_step %llu %llu %llu\n", static_cast<unsigned long long>(total_),
                   static_cast<unsigned long long>(min_), static_cast<unsigned long long>(max_));
  }

 private:
  InstructionCounter counter_;
  std::uint64_t total_ = 0, min_ = ~0ull, max_ = 0;
  bool unmeasured_ = false;
};

// Exit status as the host trace program's: 0, 1 on bad arguments, 3 when a step reports a fault.
template <class Probe>
int trace_program(int argc, char** argv, Probe& probe) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s STEPS EVERY (on the semihosting command line)\n", argc > 0 ? argv[0] : "trace");
    return 1;
  }
  const long steps = std::atol(argv[1]);
  const long every = std::atol(argv[2]);
  if (steps < 0 || every < 1) {
    std::fprintf(stderr, "bad arguments\n");
    return 1;
  }
  const int status = dualrate_trace::run(stdout, steps, every, probe);
  probe.report(stdout);
  return status;
}

}  // namespace dualrate_cortex_m
