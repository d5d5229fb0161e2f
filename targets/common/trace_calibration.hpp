// The calibration writes of a verify scenario as the trace and task programs make them
// (built with -DDUALRATE_TRACE_CALIBRATION="calibration_writes.hpp", the list calibration_writes[]
// in step order that dualrate verify writes), and where a debugger makes its own (the gdb
// test). Included by trace.hpp and tasks.hpp after the model's header.
#pragma once

#ifdef DUALRATE_TRACE_CALIBRATION
#include <cstdio>

namespace dualrate_trace {
// A calibration write of the scenario: `apply` sets its values in a Calibration, before step
// `step` (a dual-rate run's release tick). The list ends with {-1, nullptr}.
struct CalibrationWrite {
  long step;
  void (*apply)(model::Calibration&);
};
}  // namespace dualrate_trace
#include DUALRATE_TRACE_CALIBRATION

namespace dualrate_trace {

// Where a debugger writes into model::calibration and commits as a calibration tool would (the
// gdb test, tests/target/calibration_gdb.sh): before step calibration_window_step (set by the debugger;
// -1: never) the program calls calibration_window(), on which the debugger breaks.
inline volatile long calibration_window_step = -1;
[[gnu::noinline]] inline void calibration_window() { __asm__ volatile(""); }

// measure.calibrate() where the probe measures it (Cortex-M: instructions and stack), else
// model::calibrate().
template <class Measure>
auto calibrate_through(Measure& measure, int) -> decltype(measure.calibrate()) {
  return measure.calibrate();
}
template <class Measure>
dualrate::calibration::Status calibrate_through(Measure&, long) {
  return model::calibrate();
}
struct Unmeasured {};

// The background before step i (a dual-rate run: before release tick i): the scenario's writes
// of that step, each checked by the generated recalibrate() against the values applied so far
// (a refused one changes nothing), the accepted values written to model::calibration and
// committed, and then calibrate(), which also takes what a debugger wrote and committed; the step
// (the release) takes what it computed. Each write's result goes to `log` (when not null) as
// "# calibration INDEX STEP RESULT VALUE". False when accepted writes' constants were not
// computed (calibrate() did not apply them: reported as "# calibration_failed STEP RESULT").
class CalibrationWrites {
 public:
  template <class Measure = Unmeasured>
  bool before_step(long i, std::FILE* log, Measure&& measure = Measure{}) {
    if (i == calibration_window_step) calibration_window();
    bool accepted = false;
    for (; calibration_writes[next_].step == i; ++next_) {
      model::Calibration candidate = applied_;
      calibration_writes[next_].apply(candidate);
      const dualrate::calibration::Status s = model::recalibrate(candidate, scratch_);
      if (log)
        std::fprintf(log, "# calibration %lu %ld %d %d\n", static_cast<unsigned long>(next_), i,
                     static_cast<int>(s.result), static_cast<int>(s.value));
      if (s.applied()) {
        applied_ = candidate;
        accepted = true;
      }
    }
    if (accepted) {
      model::calibration = applied_;
      ++model::calibration_requests.commit;
    }
    const dualrate::calibration::Status s = calibrate_through(measure, 0);
    if (s.applied()) applied_ = model::calibration_applied;
    if (!accepted || s.applied()) return true;
    if (log) std::fprintf(log, "# calibration_failed %ld %d\n", i, static_cast<int>(s.result));
    return false;
  }
  // The step of the next writes not yet made, or -1.
  long next_step() const { return calibration_writes[next_].step; }

 private:
  model::Calibration applied_ = model::calibration;
  model::Constants scratch_{};
  unsigned long next_ = 0;
};
inline CalibrationWrites calibration_writer;

// The background of a preemptive dual-rate run (Cortex-M: thread mode; Linux: a thread):
// the writes that apply at release tick n are made during the macro step before it, once
// tick n - Ratio has ended (its release took the constants before them), and must be
// computed before tick n takes them. ticks_done() is the number of ticks whose fast task has
// ended. Makes the writes that are due; false, said on stderr, when their constants were not computed (the
// release before did not take the set before them) or were computed after tick n had ended
// (exact where the fast task preempts the background on its core: Cortex-M, one core or two;
// on Linux, where they run in parallel, a write later than that shows as a run that differs
// from the sequential one, which verify compares).
template <int Ratio, class TicksDone>
bool poll_release_writes(TicksDone ticks_done) {
  const long n = calibration_writer.next_step();
  if (n < 0 || static_cast<long>(ticks_done()) + Ratio < n + 1) return true;
  const bool computed = calibration_writer.before_step(n, nullptr);
  if (computed && static_cast<long>(ticks_done()) <= n) return true;
  std::fprintf(stderr, "a calibration write was computed after the release that should take it\n");
  return false;
}

}  // namespace dualrate_trace
#endif
