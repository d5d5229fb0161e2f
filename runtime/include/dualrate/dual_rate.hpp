// Two tasks and their deterministic data transfer for a dual-rate scheme (e.g. Mrabm4).
//
// An executive calls fast() every h, at tick n (t_n = n h), with the inputs sampled at t_n,
// and runs slow() once for every release fast() asks for, at lower priority: the fast task
// may preempt the slow one anywhere. With R = H / h, releases fall on the ticks n = k R.
//
// Transfer, by double buffers indexed by the parity of the macro step, so that neither task
// ever reads what the other is writing:
//  - fast -> slow: at tick k R, before its own step, fast() writes snapshot[k % 2] with
//    the values at t_k (state, round-1 fast state, u(t_k)) and releases slow job k. Job k
//    reads only that slot; the fast task writes it again at tick (k + 2) R, after job k's
//    deadline t_{k+1}.
//  - slow -> fast: job k writes the end points of macro step k + 1 into endpoints[(k+1) % 2]
//    and then marks itself done. At tick (k + 1) R fast() copies them for its macro step
//    (latches) before releasing job k + 1, which writes the other slot.
// So every value each task reads was written at a fixed instant of the tick grid, and the
// result is the same, bit for bit, whatever the interleaving, as long as each slow job ends
// before the next release; the sequential executive (slow job run to completion at its
// release) is the oracle.
//
// Overrun policies (slow job k - 1 still running at the release of job k, t_k), one chosen
// at build time as DualRate's second argument (the generator's --overrun):
//  - kSkip: fast() counts a slow overrun, reports Status::kSlowOverrun, does not release job
//    k (that release is skipped) and keeps the fast rate with the slow state held at the last
//    end point it had (Scheme::hold). The late job's results are used from the next release
//    it lets happen. The slow history then misses t_k: the run is no longer the scheme's.
//  - kDefer: job k is released on time, on the snapshot of t_k, and runs right after job
//    k - 1 ends, so the slow history stays on the tick grid. The fast task needs job k - 1's
//    end points from t_k on: it reports Status::kSlowJobLate, keeps the inputs of its ticks
//    and runs their steps when the end points arrive (outputs late by that many ticks, the
//    state exactly the scheme's). The result stays bit for bit the sequential run's as long as
//    each late job ends before the next release; a job that does not (the fast task would
//    lag a whole macro step) ends the wait: the held-back steps run with held end points, as
//    a counted slow overrun, and the next release is skipped as under kSkip.
// Held inputs (input_hold.hpp): for a model that declares holds, fast() keeps the samples it
// took and gives each tick, and the snapshot of each release, the inputs' polynomial formed
// from them at t_n (the slow job evaluates it over its macro step). A task that sampled its
// inputs before its first tick hands them to input_samples() first.
//
// Fast overruns (a tick that comes while the fast task still runs) are the executive's to
// detect and report (report(Status::kFastOverrun)).
//
// The two tasks may run on two cores (targets/cortex-m/dual_core_main.cpp). What one task
// writes reaches the other through three atomic counters, each written by one task only:
// fast() publishes a release (snapshot, job number) with a store-release of the release count;
// slow() publishes its end points with a store-release of the slot's macro step and then the
// job's end with a store-release of the completed count; each reader loads them with
// load-acquire before it reads what they publish. So every read of a snapshot or end points
// happens after its write (C++ happens-before; on Armv7-M and Armv8-M the compiler emits the
// DMB, or LDA/STL, that makes it hold between cores too), and a slot is written again only
// after a load-acquire saw its reader finish. An executive on another core than the fast task
// calls slow() only after slow_busy() returned true there.
//
// Calibration (calibration.hpp): DualRate's third argument is called at a release, before the
// snapshot, when no slow job runs (AtRelease::at_release(); the generated code's takes a set of
// constants calibrate() computed). Both tasks then use it from that macro step on: the fast
// task's ticks from the release and the slow job it releases (whose end points the fast task
// latches at the next release). A release behind a late or running job leaves it for the next.
//
// Limits of a long run: the tick count is 64 bits wide; the job numbers the two tasks exchange
// are 32 bits (they wrap after 2^32 macro steps: 49.7 days at H = 1 ms) and are only compared
// for equality, by parity (2^32 is even) and by difference, which the wrap keeps; slow() gives
// the scheme the job number k in 64 bits, unwrapped from the 32-bit one (its difference to
// the previous job's; jobs are never 2^32 macro steps apart), so t_k and the start-up stay right.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "fault.hpp"
#include "input_hold.hpp"
#include "status.hpp"

namespace dualrate {

enum class OverrunPolicy : std::uint8_t { kSkip, kDefer };

// A job number k in 64 bits from its low 32 bits and the previous job's number (fewer than
// 2^32 macro steps before it).
constexpr std::uint64_t unwrap_job(std::uint64_t previous, std::uint32_t k) noexcept {
  return previous + static_cast<std::uint32_t>(k - static_cast<std::uint32_t>(previous));
}

// The fast task's inputs: those of the ticks whose steps wait for late end points (kDefer;
// `Waiting` of them), and for a model with held inputs the samples it took.
template <class Scheme, int Waiting, bool = HoldsInputs<typename Scheme::Model>::value>
struct TickInputs {
  typename Scheme::StepInput waiting[Waiting]{};
};
template <class Scheme, int Waiting>
struct TickInputs<Scheme, Waiting, true> {
  typename Scheme::StepInput waiting[Waiting]{};
  InputSamples<typename Scheme::Model> samples{};
};

// DualRate's third argument when nothing changes at a release.
struct NothingAtRelease {
  static void at_release() noexcept {}
};

template <class Scheme, OverrunPolicy Policy = OverrunPolicy::kSkip, class AtRelease = NothingAtRelease>
class DualRate {
 public:
  using Model = typename Scheme::Model;
  using Scalar = typename Scheme::Scalar;
  using State = typename Scheme::State;
  using Input = typename Scheme::Input;
  using Output = typename Model::Output;
  using Time = typename Model::Time;
  using StepInput = typename Scheme::StepInput;
  static constexpr int kRatio = Scheme::kRatio;
  static_assert(kRatio >= 1, "dualrate: the rate ratio r = H / h must be a positive integer");

  // What slow job k leaves for the executive: t_k, the state [x_r(t_k); x_e(t_k)] and u(t_k).
  struct Row {
    std::uint64_t macro = 0;  // k
    State x;
    Input u;
  };

  explicit DualRate(Scalar h) noexcept : h_(h) {}
  // A copy made while neither task runs: a checkpoint an executive can run ahead from (an FMU's
  // state at a communication point, docs/fmi.md) without touching this one.
  DualRate(const DualRate& o) noexcept
      : h_(o.h_),
        fast_(o.fast_),
        slow_(o.slow_),
        jobs_{o.jobs_[0], o.jobs_[1]},
        released_count_(o.released_count_.load(std::memory_order_acquire)),
        completed_count_(o.completed_count_.load(std::memory_order_acquire)),
        tick_(o.tick_),
        job_(o.job_),
        inputs_(o.inputs_),
        waiting_(o.waiting_),
        longest_wait_(o.longest_wait_),
        slow_overruns_(o.slow_overruns_),
        deferred_releases_(o.deferred_releases_),
        row_(o.row_) {
    for (int i = 0; i < 2; ++i) {
      snapshot_[i] = o.snapshot_[i];
      ends_[i] = o.ends_[i];
      ends_macro_[i].store(o.ends_macro_[i].load(std::memory_order_acquire), std::memory_order_relaxed);
    }
  }
  DualRate& operator=(const DualRate&) = delete;

  // The fast task's body for tick n = ticks(); sets `release` when a slow job must be released now.
  [[nodiscard]] Status fast(const Input& sample, bool& release) noexcept {
    release = false;
    Status status = Status::kOk;
    const std::uint64_t n = tick_++;
    const StepInput u = step_input(n, sample);
    if constexpr (Policy == OverrunPolicy::kDefer) {
      if (waiting_ > 0) {
        const auto m = static_cast<std::uint32_t>(fast_.tick / kRatio);
        const bool arrived = queued() < 2 && ends_macro_[m % 2].load(std::memory_order_acquire) == m;
        if (!arrived && n % kRatio != 0) {
          hold_back(u);
          return status;
        }
        if (arrived) {
          fast_.ends = ends_[m % 2];
        } else {
          ++slow_overruns_;
          Scheme::hold(fast_.ends);
          status = report(Status::kSlowOverrun);
        }
        for (int i = 0; i < waiting_; ++i) {
          const Status stepped = Scheme::fast_step(fast_, h_, inputs_.waiting[i]);
          if (stepped != Status::kOk) return report(stepped);
        }
        waiting_ = 0;
      }
    }
    if (n % kRatio == 0) {
      const auto k = static_cast<std::uint32_t>(n / kRatio);
      const std::uint32_t released = released_count_.load(std::memory_order_relaxed);  // fast() writes it
      const std::uint32_t busy = queued();
      // A deferred release only behind job k - 1: job k's snapshot slot is then free.
      const bool defer = Policy == OverrunPolicy::kDefer && busy == 1 && jobs_[(released - 1) % 2] + 1 == k;
      if (busy > 0 && !defer) {
        ++slow_overruns_;
        Scheme::hold(fast_.ends);
        status = report(Status::kSlowOverrun);
      } else {
        if (busy == 0) {
          AtRelease::at_release();
          if (ends_macro_[k % 2].load(std::memory_order_acquire) == k)
            fast_.ends = ends_[k % 2];
          else if (n / kRatio >= Scheme::kStartupMacroSteps)
            Scheme::hold(fast_.ends);
        }
        Scheme::snapshot(fast_, u, snapshot_[k % 2]);
        jobs_[released % 2] = k;
        released_count_.store(released + 1, std::memory_order_release);
        release = true;
        if (defer) {
          ++deferred_releases_;
          hold_back(u);
          return report(Status::kSlowJobLate);
        }
      }
    }
    const Status stepped = Scheme::fast_step(fast_, h_, u);
    return stepped != Status::kOk ? report(stepped) : status;
  }

  // The slow task's body: one job, for the oldest release not yet run.
  [[nodiscard]] Status slow() noexcept {
    const std::uint32_t k = next_job();
    job_ = unwrap_job(job_, k);
    const auto& in = snapshot_[k % 2];
    const Status status = Scheme::slow_step(slow_, job_, h_, in, ends_[(k + 1) % 2]);
    ends_macro_[(k + 1) % 2].store(k + 1, std::memory_order_release);
    row_.macro = job_;
    row_.x.template head<Scheme::kSlow>() = slow_.xr;
    row_.x.template tail<Scheme::kFast>() = in.x.template tail<Scheme::kFast>();
    row_.u = input_sample(in.u);
    completed_count_.store(completed_count_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    return status != Status::kOk ? report(status) : status;
  }

  // Read by the slow task's executive after slow() returned (nothing else writes it meanwhile).
  const Row& row() const noexcept { return row_; }
  // Every tick, for the fast task's executive between its calls of fast() (an ECU's outputs at
  // the fast rate): the state [x_r; x_e] at time() = t_n, n the fast steps taken (ticks(), or
  // fewer while steps wait under kDefer). x_e is the fast task's (mrabm4_parallel: the carried
  // track's); x_r the slow state as the scheme defines it between releases (Mrabm4: its end
  // points' interpolation at t_n; in the start-up and a restart, the fast task's RK4), which
  // at a release is the prediction the slow job then corrects (row()). outputs(u, y): the
  // model's outputs at time() from state() and the inputs u sampled at t_n (the sample fast()
  // takes next). verify checks both against the reference core at every tick.
  const State& state() const noexcept { return fast_.x; }
  Time time() const noexcept { return static_cast<Time>(fast_.tick) * static_cast<Time>(h_); }
  void outputs(const Input& u, Output& y) const noexcept { Model::outputs(time(), fast_.x, u, y); }
  // For verification, read by the sequential executive only (tasks.hpp: its trace's local
  // check): the fast task's state, taken before the tick of a release; and, after that
  // release's job k = row().macro returned, everything the tasks keep at release k
  // (Scheme::kept) with `at_release` that fast state.
  using Fast = typename Scheme::Fast;
  using Kept = typename Scheme::Kept;
  const Fast& fast_state() const noexcept { return fast_; }
  Kept kept(const Fast& at_release) const noexcept {
    const std::uint64_t k = row_.macro;
    return Scheme::kept(at_release, ends_[k % 2], ends_[(k + 1) % 2], slow_);
  }
  Scalar step() const noexcept { return h_; }
  // Where an object keeps the fast task's state [x_r; x_e] (the scheme's Fast::x), for a
  // calibration tool that reads it from the program's memory (dualrate a2l --instance).
  static constexpr std::size_t state_offset() noexcept {
    static_assert(std::is_standard_layout<DualRate>::value && std::is_standard_layout<typename Scheme::Fast>::value,
                  "dualrate: a DualRate's offsets need a standard layout");
    return offsetof(DualRate, fast_) + offsetof(typename Scheme::Fast, x);
  }
  // The samples the fast task keeps for a model with held inputs (none without).
  InputSamples<Model>& input_samples() noexcept { return inputs_.samples; }
  std::uint64_t ticks() const noexcept { return tick_; }  // ticks seen; fast steps taken may lag under kDefer
  // The job slow() runs next (valid while slow_busy()).
  std::uint32_t next_job() const noexcept { return jobs_[completed_count_.load(std::memory_order_relaxed) % 2]; }
  bool slow_busy() const noexcept { return queued() > 0; }
  std::uint32_t slow_overruns() const noexcept { return slow_overruns_; }
  std::uint32_t deferred_releases() const noexcept { return deferred_releases_; }
  int longest_wait() const noexcept { return longest_wait_; }  // most ticks the fast task held back (kDefer)

 private:
  // Tick n's inputs: the sample, or with held inputs its polynomial from the samples kept.
  StepInput step_input(std::uint64_t n, const Input& sample) noexcept {
    if constexpr (HoldsInputs<Model>::value) {
      const StepInput held = inputs_.samples.hold(static_cast<Time>(n) * static_cast<Time>(h_), h_, sample);
      inputs_.samples.took(sample);
      return held;
    } else {
      static_cast<void>(n);
      return sample;
    }
  }

  // kDefer: keeps this tick's inputs for the step that waits for late end points.
  void hold_back(const StepInput& u) noexcept {
    inputs_.waiting[waiting_++] = u;
    longest_wait_ = waiting_ > longest_wait_ ? waiting_ : longest_wait_;
  }

  std::uint32_t queued() const noexcept {
    return released_count_.load(std::memory_order_acquire) - completed_count_.load(std::memory_order_acquire);
  }

  Scalar h_;
  typename Scheme::Fast fast_{};
  typename Scheme::Slow slow_{};
  typename Scheme::Snapshot snapshot_[2]{};
  typename Scheme::Endpoints ends_[2]{};
  std::atomic<std::uint32_t> ends_macro_[2] = {0u, 0u};  // the macro step each end-point slot is for (slow() writes)
  // Released jobs in order (at most two not completed, one under kSkip): jobs_[i % 2] is release i's k.
  std::uint32_t jobs_[2] = {0, 0};
  std::atomic<std::uint32_t> released_count_{0};   // written by fast() only
  std::atomic<std::uint32_t> completed_count_{0};  // written by slow() only
  std::uint64_t tick_ = 0;
  std::uint64_t job_ = 0;  // slow() only: the current job's k in 64 bits
  TickInputs<Scheme, Policy == OverrunPolicy::kDefer ? kRatio : 1> inputs_{};  // fast() only
  int waiting_ = 0;
  int longest_wait_ = 0;
  std::uint32_t slow_overruns_ = 0;
  std::uint32_t deferred_releases_ = 0;
  Row row_{};
};

}  // namespace dualrate
