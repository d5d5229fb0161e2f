// Cortex-M trace program for a generated model (see ../common/trace.hpp), run under QEMU
// with semihosting: arguments STEPS EVERY come from the semihosting command line, the CSV
// trace goes to semihosting stdout, followed by cost lines that start with '#':
//   # instructions_per_step TOTAL MIN MAX   instructions of the step calls, summed over steps
//   # stack_bytes N                          deepest stack use of one step
// Instructions: instruction_counter.hpp.
// Stack: before each step the free stack below the caller's stack pointer is filled with a
// pattern; after it, the lowest word that no longer holds the pattern marks the depth.
// Exit status as the host program's: 0, 1 on bad arguments, 3 when a step reports a fault.
#include "trace.hpp"

#include <cstdint>
#include <cstdlib>

#include "instruction_counter.hpp"

extern "C" char __stack[], __stack_size[];

namespace {

constexpr std::uint32_t kPaint = 0xC5AC5AC5u;

class CostProbe {
 public:
  dualrate::Status operator()(dualrate_trace::model::Data& d, const dualrate_trace::model::Model::Input& u) {
    std::uint32_t* sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    std::uint32_t* const bottom = reinterpret_cast<std::uint32_t*>(__stack - reinterpret_cast<std::uintptr_t>(__stack_size));
    for (std::uint32_t* p = bottom; p < sp; ++p) *p = kPaint;
    dualrate::Status status = dualrate::Status::kOk;
    std::uint64_t n = 0;
    if (counter_.count([&] { status = dualrate_trace::step_once(d, u); }, n)) {
      total_ += n;
      min_ = n < min_ ? n : min_;
      max_ = n > max_ ? n : max_;
    } else {
      unmeasured_ = true;
    }
    const std::uint32_t* p = bottom;
    while (p < sp && *p == kPaint) ++p;
    const std::uint32_t depth = static_cast<std::uint32_t>(sp - p) * 4u;
    stack_ = depth > stack_ ? depth : stack_;
    overflow_ = overflow_ || p == bottom;
    return status;
  }

  void report(std::FILE* out) const {
    if (unmeasured_)
      std::fprintf(out, "# instructions_per_step unmeasured\n");
    else
      std::fprintf(out, "# instructions_per_step %llu %llu %llu\n", static_cast<unsigned long long>(total_),
                   static_cast<unsigned long long>(min_), static_cast<unsigned long long>(max_));
    std::fprintf(out, overflow_ ? "# stack_bytes overflow %lu\n" : "# stack_bytes %lu\n",
                 static_cast<unsigned long>(stack_));
  }

 private:
  dualrate_cortex_m::InstructionCounter counter_;
  std::uint64_t total_ = 0, min_ = ~0ull, max_ = 0;
  std::uint32_t stack_ = 0;
  bool unmeasured_ = false, overflow_ = false;
};

}  // namespace

int main(int argc, char** argv) {
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
  CostProbe probe;
  const int status = dualrate_trace::run(stdout, steps, every, probe);
  probe.report(stdout);
  return status;
}
