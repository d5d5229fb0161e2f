// How an FMU instance advances its generated model in co-simulation (docs/fmi.md): a
// single-rate scheme by its step function, one step h at a time; a dual-rate task form by its
// tasks' sequential run (each tick's fast task, then the slow job it released), whole macro
// steps H at a time. Both take the inputs of a communication step as one polynomial per input
// (dualrate/input_hold.hpp), each step's or tick's from its own start.
#pragma once

#include <cstdint>
#include <optional>

#include <dualrate/runtime.hpp>

namespace dualrate::fmi {

// The polynomial `u` from the later time `at`: the same inputs, re-centred there.
template <class M>
HeldInput<M> recentred(const HeldInput<M>& u, typename M::Time at) {
  HeldInput<M> v = u;
  const auto s = static_cast<typename M::Scalar>(at - u.start);
  v.start = at;
  v.value = u.value + s * (u.rate + s * u.curvature);
  v.rate = u.rate + 2 * s * u.curvature;
  return v;
}

// Step: the glue's struct whose advance(Data&, u) calls the generated step(d, u), with the
// step h as Step::kStep.
template <class M, class Data, class Step>
class SingleRateRun {
 public:
  using State = typename M::State;
  static constexpr bool kStartStates = true;  // whether the run starts from given start values
  static constexpr bool kTasks = false;       // whether it has tasks to schedule (Scheduled Execution)
  void start(const State& x) {
    d_ = Data{};
    d_.x = x;
    fault_ = Status::kOk;
  }
  // Advances `steps` steps h with the inputs `u`; false (the state kept) on a fault.
  bool advance(long steps, const typename M::Input& /*sample*/, const HeldInput<M>& u) {
    for (long i = 0; i < steps; ++i) {
      const typename M::Time t = d_.time(Step::kStep);
      Status s;
      if constexpr (HoldsInputs<M>::value)
        s = Step::advance(d_, recentred(u, t));
      else
        s = Step::advance(d_, u.value);
      if (s != Status::kOk) {
        fault_ = s;
        return false;
      }
    }
    return true;
  }
  State state(const typename M::Input& /*u*/) const { return d_.x; }
  void changed() {}
  double time() const { return static_cast<double>(d_.time(Step::kStep)); }
  const char* fault() const { return to_string(fault_); }

 private:
  Data d_{};
  Status fault_ = Status::kOk;
};

// Tasks: the generated DualRate; Jobs: the glue's struct whose fast(tasks, u, release) and
// slow(tasks) call the generated fast_task and slow_task, with the step h as Jobs::kStep.
template <class M, class Tasks, class Jobs>
class DualRateRun {
 public:
  using State = typename M::State;
  static constexpr bool kStartStates = false;  // the tasks start from the model's initial state
  static constexpr bool kTasks = true;
  void start(const State& /*x*/) {
    tasks_.emplace(Jobs::kStep);
    fault_ = Status::kOk;
    changed();
  }
  bool advance(long ticks, const typename M::Input& /*sample*/, const HeldInput<M>& u) {
    for (long i = 0; i < ticks; ++i) {
      const typename M::Time t = tasks_->time();
      const Status s = tick(*tasks_, HoldsInputs<M>::value ? recentred(u, t).value : u.value);
      if (s != Status::kOk) {
        fault_ = s;
        return false;
      }
    }
    changed();
    return true;
  }
  // The state at the communication point as the scheme's run gives it there: the slow job the
  // next tick releases corrects x_r(t_k) with the inputs now in force, in a copy of the tasks.
  // Kept until the inputs, the constants or the tasks change.
  State state(const typename M::Input& u) const {
    if (ahead_ && ahead_u_ == u) return *ahead_;
    Tasks ahead(*tasks_);
    ahead_ = tick(ahead, u) == Status::kOk ? ahead.row().x : tasks_->state();
    ahead_u_ = u;
    return *ahead_;
  }
  void changed() { ahead_.reset(); }
  double time() const { return static_cast<double>(tasks_->time()); }

  // Scheduled Execution: the fast task of the next tick with the sample u (the state at the
  // tick, before it, in `at`), and the slow job a tick released.
  bool fast(const typename M::Input& u, State& at) {
    at = tasks_->state();
    bool release = false;
    const Status s = Jobs::fast(*tasks_, u, release);
    changed();
    if (s != Status::kOk) fault_ = s;
    return s == Status::kOk;
  }
  bool slow_released() const { return tasks_->slow_busy(); }
  bool slow() {
    const Status s = Jobs::slow(*tasks_);
    changed();
    if (s != Status::kOk) fault_ = s;
    return s == Status::kOk;
  }
  const char* fault() const { return to_string(fault_); }

 private:
  static Status tick(Tasks& tasks, const typename M::Input& u) {
    bool release = false;
    Status s = Jobs::fast(tasks, u, release);
    if (s == Status::kOk && release) s = Jobs::slow(tasks);
    return s;
  }
  std::optional<Tasks> tasks_;
  mutable std::optional<State> ahead_;
  mutable typename M::Input ahead_u_;
  Status fault_ = Status::kOk;
};

}  // namespace dualrate::fmi
