// Cortex-M trace program for a generated model (see ../common/trace.hpp), run under QEMU
// with semihosting: arguments STEPS EVERY come from the semihosting command line, the CSV
// trace goes to semihosting stdout, followed by cost lines that start with '#':
//   # instructions_per_step TOTAL MIN MAX   instructions of the step calls, summed over steps
//   # stack_bytes N                          deepest stack use of one step
// Instructions: instruction_counter.hpp.
// Stack: before each step the free stack below the caller's stack pointer is filled with a
// pattern; after it, the lowest word that no longer holds the pattern marks the depth.
// Exit status as the host program's: 0, 1 on bad arguments, 3 when a step reports a fault.
#include <cstdint>

#include "step_counts.hpp"

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
    counts_.count([&] { status = dualrate_trace::step_once(d, u); });
    const std::uint32_t* p = bottom;
    while (p < sp && *p == kPaint) ++p;
    const std::uint32_t depth = static_cast<std::uint32_t>(sp - p) * 4u;
    stack_ = depth > stack_ ? depth : stack_;
    overflow_ = overflow_ || p == bottom;
    return status;
  }

  void report(std::FILE* out) const {
    counts_.report(out);
    std::fprintf(out, overflow_ ? "# stack_bytes overflow %lu\n" : "# stack_bytes %lu\n",
                 static_cast<unsigned long>(stack_));
  }

 private:
  dualrate_cortex_m::StepCounts counts_;
  std::uint32_t stack_ = 0;
  bool overflow_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  CostProbe probe;
  return dualrate_cortex_m::trace_program(argc, argv, probe);
}
