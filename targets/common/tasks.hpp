// What the dual-rate task programs share (Cortex-M: ../cortex-m/tasks_main.cpp, Linux and
// host: ../linux/tasks_main.cpp): the trace recorder the slow task fills, the sequential
// executive that is their oracle, and the report lines.
// A run covers MACRO macro steps: ticks 0 ... MACRO r, the last releasing slow job MACRO,
// which ends the run. Slow job k records the row of t_k = k r h when k r passes a multiple
// of EVERY fast steps, and at k = 0 and k = MACRO (the rows the reference core writes).
// DUALRATE_TRACE_ROWS (the most rows a run may record) is set by the build. The sequential
// run's trace also has verify's local-check columns (BasicRecorder's Local); the preemptive
// run's, which must equal it bit for bit in the other columns, has not.
#pragma once

#include "trace_format.hpp"
#include "samples_before_start.hpp"
#include "trace_calibration.hpp"

#include <cstdint>
#include <limits>

#ifndef DUALRATE_TRACE_ROWS
#error "build with -DDUALRATE_TRACE_ROWS=<rows of the run>"
#endif

namespace dualrate_trace {

struct RunShape {
  long macro_steps = 0;
  long every = 1;  // fast steps
};

// The rows the slow task of a model's tasks T (a dualrate::DualRate) records. With Local, the
// sequential executive also gives each row k what the tasks keep at release k (T::kept) and
// the row's state one macro step later is added when row k + 1 comes: the trace then has the
// columns next:<state> and kept:<i> for verify's local check (nan in the last row, which has
// no next row).
template <class T, bool Local = false>
class BasicRecorder {
  using M = typename T::Model;

 public:
  // Called by the slow task after each job; false when the row did not fit.
  bool record(const RunShape& shape, const typename T::Row& row, const typename T::Kept* kept = nullptr) {
    const auto k = static_cast<long>(row.macro);
    if (Local && count_ > 0 && static_cast<long>(macro_[count_ - 1]) + 1 == k) local_[count_ - 1].next = row.x;
    const long n = k * T::kRatio;
    const bool wanted = k == 0 || n / shape.every > (n - T::kRatio) / shape.every || k == shape.macro_steps;
    if (!wanted) return true;
    if (count_ >= DUALRATE_TRACE_ROWS) return false;
    macro_[count_] = static_cast<std::uint32_t>(k);
    x_[count_] = row.x;
    u_[count_] = row.u;
    if (Local) {
      local_[count_].next.setConstant(std::numeric_limits<typename M::Scalar>::quiet_NaN());
      if (kept)
        local_[count_].kept = *kept;
      else
        local_[count_].kept.setConstant(std::numeric_limits<typename M::Scalar>::quiet_NaN());
    }
    ++count_;
    return true;
  }

  // h: the model's step (its Tasks' step()); `local`: with the local check's columns (Local
  // only; a preemptive run, which does not give them, prints without).
  void print(std::FILE* out, typename M::Scalar h, bool local = Local) const {
    using Time = typename M::Time;
    local = Local && local;
    const int kept = local ? T::Kept::RowsAtCompileTime : 0;
    print_model_header<M>(out, local, kept);
    for (long i = 0; i < count_; ++i)
      print_model_row<M>(out, static_cast<Time>(static_cast<long>(macro_[i]) * T::kRatio) * static_cast<Time>(h), x_[i],
                         u_[i], local ? &local_[i].next : nullptr, local_[Local ? i : 0].kept.data(), kept);
  }

 private:
  struct LocalData {
    typename M::State next;
    typename T::Kept kept;
  };
  std::uint32_t macro_[DUALRATE_TRACE_ROWS] = {};
  typename M::State x_[DUALRATE_TRACE_ROWS];
  typename M::Input u_[DUALRATE_TRACE_ROWS];
  LocalData local_[Local ? DUALRATE_TRACE_ROWS : 1];
  long count_ = 0;
};

template <class T>
typename T::Model::Input inputs_at_tick(const T& tasks, std::uint64_t n) {
  using Time = typename T::Model::Time;
  return T::Model::scenario_inputs(static_cast<Time>(n) * static_cast<Time>(tasks.step()));
}

// The executive's counts, printed after the trace as '#' lines.
struct Counts {
  unsigned long ticks = 0;              // fast task runs
  unsigned long slow_jobs = 0;          // slow task runs
  unsigned long slow_overruns = 0;      // slow releases skipped, or late jobs waited for in vain (dual_rate.hpp)
  unsigned long deferred_releases = 0;  // releases deferred behind a late job (OverrunPolicy::kDefer)
  unsigned long longest_wait = 0;       // most ticks the fast task waited for a late job's end points
  unsigned long fast_overruns = 0;      // ticks that came while the fast task still ran
  unsigned long preempted_ticks = 0;    // fast ticks that began while a slow job was running
};

// What the sequential executive does at each tick before the fast task: nothing, or TickRows'.
struct NoTickRows {
  template <class T>
  void operator()(const T&, const typename T::Input&) const {}
};

// The tasks' state and outputs at every `every`-th tick n of a run's ticks 0 ... MACRO r - 1,
// before its fast task (DualRate::state(), outputs() at the sample u_n), as rows of `out`:
// what an ECU reads every tick, which verify compares with the reference core's.
template <class T>
struct TickRows {
  std::FILE* out;
  RunShape shape;
  void operator()(const T& tasks, const typename T::Input& u) const {
    const std::uint64_t n = tasks.ticks();
    if (static_cast<long>(n) < shape.macro_steps * T::kRatio && n % static_cast<std::uint64_t>(shape.every) == 0)
      print_model_row<typename T::Model>(out, tasks.time(), tasks.state(), u);
  }
};

// The sequential executive (the oracle): each tick runs the fast task, and a slow job
// released there runs to completion before the next tick. With calibration writes, those of a
// release tick are made (and reported on stdout) before it: the release takes their constants.
// Returns 0, or 3 with a message on stderr when a task reports a fault or the recorder
// overflows. Counts ticks and slow jobs.
// `meter` runs each job: meter.fast(f) and meter.slow(f) call f() and may measure it;
// `tick_rows(tasks, u)` is called before each fast task with its sample.
template <class T, bool Local, class Meter, class Ticks = NoTickRows>
int run_sequential(T& tasks, BasicRecorder<T, Local>& recorder, const RunShape& shape, Counts& counts, Meter& meter,
                   const Ticks& tick_rows = {}) {
  for (;;) {
    const std::uint64_t n = tasks.ticks();
    bool release = false;
    typename T::Fast at_release{};  // the fast task's state when tick n releases a job (T::kept)
    if (n % T::kRatio == 0) at_release = tasks.fast_state();
#ifdef DUALRATE_TRACE_CALIBRATION
    if (n % T::kRatio == 0) calibration_writer.before_step(static_cast<long>(n), stdout);
#endif
#ifdef EIGEN_RUNTIME_NO_MALLOC
    Eigen::internal::set_is_malloc_allowed(false);
#endif
    dualrate::Status status = dualrate::Status::kOk;
    const typename T::Input u = inputs_at_tick(tasks, n);
    tick_rows(tasks, u);
    meter.fast([&] { status = tasks.fast(u, release); });
    ++counts.ticks;
    if (status == dualrate::Status::kOk && release) {
      meter.slow([&] { status = tasks.slow(); });
      ++counts.slow_jobs;
    }
#ifdef EIGEN_RUNTIME_NO_MALLOC
    Eigen::internal::set_is_malloc_allowed(true);
#endif
    if (status != dualrate::Status::kOk) {
      std::fprintf(stderr, "tick %llu: %s\n", static_cast<unsigned long long>(n), dualrate::to_string(status));
      return 3;
    }
    if (release) {
      const typename T::Kept kept = tasks.kept(at_release);
      if (!recorder.record(shape, tasks.row(), &kept)) {
        std::fprintf(stderr, "trace rows exceed DUALRATE_TRACE_ROWS\n");
        return 3;
      }
      if (static_cast<long>(tasks.row().macro) >= shape.macro_steps) return 0;
    }
  }
}

inline void print_counts(std::FILE* out, const Counts& c) {
  std::fprintf(out,
               "# ticks %lu\n# slow_jobs %lu\n# slow_overruns %lu\n# fast_overruns %lu\n# preempted_ticks %lu\n"
               "# deferred_releases %lu\n# longest_wait %lu\n",
               c.ticks, c.slow_jobs, c.slow_overruns, c.fast_overruns, c.preempted_ticks, c.deferred_releases,
               c.longest_wait);
}

// The runtime's own counts of a run, after it ended.
template <class T>
void take_runtime_counts(const T& tasks, Counts& c) {
  c.slow_overruns = tasks.slow_overruns();
  c.deferred_releases = tasks.deferred_releases();
  c.longest_wait = static_cast<unsigned long>(tasks.longest_wait());
}

#ifdef DUALRATE_MODEL_NS
// Programs built for one model.
using Tasks = model::Tasks;
constexpr int kRatio = model::kRatio;
using Recorder = BasicRecorder<Tasks, true>;
#endif

}  // namespace dualrate_trace
