// How an FMU instance advances its generated model (docs/fmi.md): a single-rate scheme by its
// step function, one step h at a time; a dual-rate task form by its tasks' sequential run (each
// tick's fast task, then the slow job it released), or tick by tick as Scheduled Execution's
// partitions. Both take the inputs of a communication step as one polynomial per input
// (dualrate/input_hold.hpp), each step's or tick's from its own start.
#pragma once

#include <array>
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

// Co-simulation's inputs over a communication step: each input held as the model declares
// (Model::input_holds: 0 zero, 1 linear, 2 quadratic) through its values at the last
// communication points (Newton's divided differences, so the points may be unevenly spaced),
// or with the derivatives the importer gave for that input and step (FMI 2.0).
template <class M>
class InputHold {
  using Scalar = typename M::Scalar;
  using Input = typename M::Input;
  static constexpr int kInputs = M::kInputs;

 public:
  void start(double t, const Input& u) {
    samples_ = 0;
    take(t, u);
    given_ = {};
  }
  void give(int input, int order, double value) { given_[static_cast<std::size_t>(order - 1)][input] = value; }
  // The polynomial from t over the coming step, with the sample u at t; takes u as the latest.
  HeldInput<M> over(typename M::Time t, const Input& u, double /*step*/) {
    HeldInput<M> held;
    held.start = t;
    held.value = u;
    if constexpr (HoldsInputs<M>::value) {
      const double t0 = static_cast<double>(t);
      if (t0 > times_[0]) {
        take(t0, u);
      } else {
        for (int i = 0; i < kInputs; ++i) values_[0][i] = static_cast<double>(u[i]);  // set again at t0
      }
      for (int i = 0; i < kInputs; ++i) {
        const int order = M::input_holds[static_cast<std::size_t>(i)];
        const auto& rate = given_[0][i];
        const auto& curvature = given_[1][i];
        if (order >= 1 && (rate || curvature)) {
          held.rate[i] = static_cast<Scalar>(rate ? *rate : 0.0);
          held.curvature[i] = order >= 2 && curvature ? static_cast<Scalar>(*curvature / 2) : Scalar(0);
        } else if (order >= 1 && samples_ >= 2) {
          const double d1 = (values_[0][i] - values_[1][i]) / (times_[0] - times_[1]);
          if (order == 1 || samples_ < 3) {
            held.rate[i] = static_cast<Scalar>(d1);
          } else {
            const double d2 = (values_[1][i] - values_[2][i]) / (times_[1] - times_[2]);
            const double dd = (d1 - d2) / (times_[0] - times_[2]);
            held.rate[i] = static_cast<Scalar>(d1 + (times_[0] - times_[1]) * dd);
            held.curvature[i] = static_cast<Scalar>(dd);
          }
        }
      }
      given_ = {};
    }
    return held;
  }

 private:
  void take(double t, const Input& u) {
    for (int k = 2; k > 0; --k) {
      times_[k] = times_[k - 1];
      values_[k] = values_[k - 1];
    }
    times_[0] = t;
    for (int i = 0; i < kInputs; ++i) values_[0][i] = static_cast<double>(u[i]);
    if (samples_ < 3) ++samples_;
  }
  std::array<double, 3> times_{};  // the last communication points, latest first
  std::array<std::array<double, kInputs>, 3> values_{};
  int samples_ = 0;
  // The importer's input derivatives for the coming step, orders 1 and 2, per input.
  std::array<std::array<std::optional<double>, kInputs>, 2> given_{};
};

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
  }
  // Advances `steps` steps h with the inputs `u`; on a fault the state is the last good one.
  Status advance(std::int64_t steps, const HeldInput<M>& u) {
    for (std::int64_t i = 0; i < steps; ++i) {
      Status s;
      if constexpr (HoldsInputs<M>::value)
        s = Step::advance(d_, recentred(u, d_.time(Step::kStep)));
      else
        s = Step::advance(d_, u.value);
      if (s != Status::kOk) return s;
    }
    return Status::kOk;
  }
  State state(const typename M::Input& /*u*/) const { return d_.x; }
  void changed() {}

 private:
  Data d_{};
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
    changed();
  }
  Status advance(std::int64_t ticks, const HeldInput<M>& u) {
    changed();
    for (std::int64_t i = 0; i < ticks; ++i) {
      const typename M::Input sample = HoldsInputs<M>::value ? recentred(u, tasks_->time()).value : u.value;
      if (const Status s = tick(*tasks_, sample); s != Status::kOk) return s;
    }
    return Status::kOk;
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

  // Scheduled Execution, whose partitions never read the look-ahead above: the fast task of the
  // next tick with the sample u (the state at the tick, before its step, in `at`), and the slow
  // job a tick released.
  Status fast(const typename M::Input& u, State& at) {
    at = tasks_->state();
    bool release = false;
    return Jobs::fast(*tasks_, u, release);
  }
  bool slow_released() const { return tasks_->slow_busy(); }
  std::uint64_t released_job() const { return tasks_->next_job(); }  // k: released at t_k = k H
  Status slow() { return Jobs::slow(*tasks_); }

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
};

}  // namespace dualrate::fmi
