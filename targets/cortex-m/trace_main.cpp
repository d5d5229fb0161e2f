// Cortex-M trace program for a generated model (see ../common/trace.hpp), run under QEMU
// with semihosting: arguments STEPS EVERY come from the semihosting command line, the CSV
// trace goes to semihosting stdout, followed by cost lines that start with '#':
//   # instructions_per_step TOTAL MIN MAX   instructions of the step calls, summed over steps
//   # stack_bytes N                          deepest stack use of one step
//   # calibration_cost INSTRUCTIONS STACK    the most of one calibrate() (calibrated models)
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
    dualrate::Status status = dualrate::Status::kOk;
    const std::uint32_t depth =
        deepest_stack([&] { counts_.count([&] { status = dualrate_trace::step_once(d, u); }); });
    stack_ = depth > stack_ ? depth : stack_;
    return status;
  }

#ifdef DUALRATE_TRACE_CALIBRATION
  // The background's calibrate() between steps (trace.hpp), measured: its most instructions and
  // stack over the run are those of a recalibration.
  dualrate::calibration::Status calibrate() {
    dualrate::calibration::Status status{};
    std::uint64_t n = 0;
    const std::uint32_t depth = deepest_stack(
        [&] { calibration_measured_ = counter_.count([&] { status = dualrate_trace::model::calibrate(); }, n); });
    calibration_instructions_ = n > calibration_instructions_ ? n : calibration_instructions_;
    calibration_stack_ = depth > calibration_stack_ ? depth : calibration_stack_;
    return status;
  }
#endif

  void report(std::FILE* out) const {
    counts_.report(out);
    std::fprintf(out, overflow_ ? "# stack_bytes overflow %lu\n" : "# stack_bytes %lu\n",
                 static_cast<unsigned long>(stack_));
#ifdef DUALRATE_TRACE_CALIBRATION
    if (calibration_measured_)
      std::fprintf(out, "# calibration_cost %llu %lu\n", static_cast<unsigned long long>(calibration_instructions_),
                   static_cast<unsigned long>(calibration_stack_));
#endif
  }

 private:
  // Runs f with the free stack below the caller's painted; the deepest use of it, in bytes.
  template <class F>
  std::uint32_t deepest_stack(F&& f) {
    std::uint32_t* sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    std::uint32_t* const bottom =
        reinterpret_cast<std::uint32_t*>(__stack - reinterpret_cast<std::uintptr_t>(__stack_size));
    for (std::uint32_t* p = bottom; p < sp; ++p) *p = kPaint;
    f();
    const std::uint32_t* p = bottom;
    while (p < sp && *p == kPaint) ++p;
    overflow_ = overflow_ || p == bottom;
    return static_cast<std::uint32_t>(sp - p) * 4u;
  }

  dualrate_cortex_m::StepCounts counts_;
  std::uint32_t stack_ = 0;
  bool overflow_ = false;
#ifdef DUALRATE_TRACE_CALIBRATION
  dualrate_cortex_m::InstructionCounter counter_;
  std::uint64_t calibration_instructions_ = 0;
  std::uint32_t calibration_stack_ = 0;
  bool calibration_measured_ = false;
#endif
};

}  // namespace

int main(int argc, char** argv) {
  CostProbe probe;
  return dualrate_cortex_m::trace_program(argc, argv, probe);
}
