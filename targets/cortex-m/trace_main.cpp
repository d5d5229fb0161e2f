// Cortex-M trace program for a generated model (see ../common/trace.hpp), run under QEMU
// with semihosting: arguments STEPS EVERY come from the semihosting command line, the CSV
// trace goes to semihosting stdout, followed by cost lines that start with '#':
//   # instructions_per_step TOTAL MIN MAX   instructions of the step calls, summed over steps
//   # stack_bytes N                          deepest stack use of one step
// Instructions are counted with SysTick at the CPU clock while QEMU runs with
// -icount shift=DUALRATE_ICOUNT_SHIFT (every instruction then takes 2^shift ns of virtual
// time): ticks * 1e9 / (DUALRATE_CPU_HZ * 2^shift) instructions, minus the instructions of
// an empty measurement (the SysTick reads themselves). A step that runs through a whole
// SysTick period (2^24 ticks) cannot be counted; the line then says "unmeasured".
// Stack: before each step the free stack below the caller's stack pointer is filled with a
// pattern; after it, the lowest word that no longer holds the pattern marks the depth.
// Exit status as the host program's: 0, 1 on bad arguments, 3 when a step reports a fault.
#include "trace.hpp"

#include <cstdint>
#include <cstdlib>

#ifndef DUALRATE_CPU_HZ
#error "build with -DDUALRATE_CPU_HZ=<the board's CPU clock> and -DDUALRATE_ICOUNT_SHIFT=<QEMU's icount shift>"
#endif

extern "C" char __stack[], __stack_size[];

namespace {

volatile std::uint32_t& reg(std::uintptr_t address) { return *reinterpret_cast<volatile std::uint32_t*>(address); }
constexpr std::uintptr_t kSystCsr = 0xE000E010, kSystRvr = 0xE000E014, kSystCvr = 0xE000E018;
constexpr std::uint32_t kCountFlag = 1u << 16;
constexpr std::uint32_t kPaint = 0xC5AC5AC5u;

class CostProbe {
 public:
  CostProbe() {
    reg(kSystRvr) = 0xFFFFFFu;
    reg(kSystCvr) = 0;
    reg(kSystCsr) = 0x5u;  // processor clock, enabled, no interrupt
    overhead_ = 0;
    std::uint64_t empty = 0;
    ticks([] {}, empty);
    overhead_ = empty;
  }

  dualrate::Status operator()(dualrate_trace::model::Data& d, const dualrate_trace::model::Model::Input& u) {
    std::uint32_t* sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    std::uint32_t* const bottom = reinterpret_cast<std::uint32_t*>(__stack - reinterpret_cast<std::uintptr_t>(__stack_size));
    for (std::uint32_t* p = bottom; p < sp; ++p) *p = kPaint;
    dualrate::Status status = dualrate::Status::kOk;
    std::uint64_t n = 0;
    if (ticks([&] { status = dualrate_trace::step_once(d, u); }, n)) {
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
  // Instructions executed by f() (rounded from SysTick ticks); false if SysTick wrapped.
  template <class F>
  bool ticks(F&& f, std::uint64_t& instructions) {
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
    const std::uint64_t elapsed = (start - end) & 0xFFFFFFu;
    const std::uint64_t per_tick_den = static_cast<std::uint64_t>(DUALRATE_CPU_HZ) << DUALRATE_ICOUNT_SHIFT;
    const std::uint64_t counted = (elapsed * 1000000000ull + per_tick_den / 2) / per_tick_den;
    instructions = counted > overhead_ ? counted - overhead_ : 0;
    return !wrapped;
  }

  std::uint64_t overhead_ = 0, total_ = 0, min_ = ~0ull, max_ = 0;
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
