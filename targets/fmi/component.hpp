// One FMU instance of a generated model (docs/fmi.md), behind FMI 3.0 (fmi3.cpp) and FMI 2.0
// (fmi2.cpp): its mode, its variables by value reference (the glue's table), co-simulation's
// doStep through the generated step function (or the dual-rate tasks' sequential run), model
// exchange's derivatives, and Scheduled Execution's two task partitions. The model comes from
// the generated glue `fmu_model.hpp` (namespace dualrate_fmu): kSlots instance slots, each with
// its own constants where the model has tunable values, so that instances share nothing. No
// heap: the slots are static.
#pragma once

#include <array>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <utility>

#include "fmu_model.hpp"

namespace dualrate::fmi {

enum class Status { kOk, kWarning, kDiscard, kError, kFatal };
enum class Kind { kCoSimulation, kModelExchange, kScheduledExecution };

// Where the importer's messages go: `emit` (the version's callback, adapted) with the
// importer's environment, when logging is on.
struct Logger {
  void (*emit)(const Logger& log, Status status, const char* category, const char* message) = nullptr;
  void* callback = nullptr;     // the importer's function, cast back by `emit`
  void* environment = nullptr;  // the importer's instance environment
  char instance[128] = "";      // the instance's name (cut to 127 characters)
  bool on = true;
  void name(const char* n) {
    std::strncpy(instance, n, sizeof instance - 1);
    instance[sizeof instance - 1] = '\0';
  }
};

// What the FMI functions call, whatever the slot.
class Instance {
 public:
  virtual ~Instance() = default;
  // Takes the slot for a new instance, or false when another instance has it.
  virtual bool claim() = 0;
  virtual Status instantiate(Kind kind, Logger log) = 0;
  virtual void free() = 0;
  virtual Status reset() = 0;
  virtual Status enter_initialization(double start, bool stop_defined, double stop) = 0;
  virtual Status exit_initialization() = 0;
  virtual Status enter_event_mode() = 0;
  virtual Status enter_step_mode() = 0;
  virtual Status enter_continuous_time_mode() = 0;
  virtual Status terminate() = 0;
  // n_values: the values of the n variables (an array variable has several).
  virtual Status get(const std::uint32_t* vr, std::size_t n, double* values, std::size_t n_values) = 0;
  virtual Status set(const std::uint32_t* vr, std::size_t n, const double* values, std::size_t n_values) = 0;
  virtual Status set_input_rate(std::uint32_t vr, int order, double value) = 0;
  virtual Status do_step(double at, double step) = 0;
  // Scheduled Execution: the model partition of the clock `clock` at time t.
  virtual Status activate(std::uint32_t clock, double t) = 0;
  // A clock's interval (h or H), or a negative number for a value reference that is not a clock.
  virtual double clock_interval(std::uint32_t clock) const = 0;
  virtual Status set_time(double t) = 0;
  virtual Status set_states(const double* x, std::size_t n) = 0;
  virtual Status get_states(double* x, std::size_t n) = 0;
  virtual Status get_derivatives(double* dx, std::size_t n) = 0;
  virtual Status get_nominals(double* x, std::size_t n) = 0;
  virtual std::size_t states() const = 0;
  virtual double time() const = 0;
  // An error status (or a warning's) with its message in the log, for the version's functions.
  virtual Status refuse(const char* format, ...) __attribute__((format(printf, 2, 3))) = 0;
  virtual Status warn(const char* format, ...) __attribute__((format(printf, 2, 3))) = 0;
  virtual bool in_use() const = 0;
};

namespace detail {

// The modes an instance passes through (FMI 3.0's names; FMI 2.0's map onto them).
enum class Mode {
  kInstantiated,
  kInitialization,
  kStep,
  kEvent,
  kContinuousTime,
  kClockActivation,
  kTerminated,
  kError
};

// Whether two times of the instance's grid are the same point (within 1e-9 of a step h or of
// the time, whichever is larger: a sum of decimal steps is off by a few ulps).
inline bool same_time(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::fmax(dualrate_fmu::kStep, std::fabs(b));
}

// A slot's model run: S is the glue's Slot<I>.
template <class S>
class Component final : public Instance {
  using Model = typename S::Model;
  using Scalar = typename Model::Scalar;
  using State = typename Model::State;
  using Input = typename Model::Input;
  using Output = typename Model::Output;
  static constexpr int kStates = Model::kStates;
  static constexpr int kInputs = Model::kInputs;
  static constexpr std::size_t kVariables = sizeof dualrate_fmu::kVariables / sizeof dualrate_fmu::kVariables[0];
  // More steps than this in one doStep is an importer's slip (a communication step in ms read as s).
  static constexpr double kMostSteps = 1e12;

 public:
  bool claim() override {
    bool free = false;
    return claimed_.compare_exchange_strong(free, true);
  }
  Status instantiate(Kind kind, Logger log) override {
    kind_ = kind;
    log_ = log;
    return start();
  }
  void free() override { claimed_.store(false); }
  bool in_use() const override { return claimed_.load(); }
  Status reset() override { return start(); }
  std::size_t states() const override { return kStates; }
  double time() const override { return t_; }

  Status enter_initialization(double start, bool stop_defined, double stop) override {
    if (mode_ != Mode::kInstantiated) return wrong_mode("enter initialization mode");
    if (!std::isfinite(start)) return refuse("the start time %g is not finite", start);
    if (kind_ != Kind::kModelExchange && start != 0)
      return refuse("the start time is %.17g: the generated step counts its time from 0", start);
    if (stop_defined && !(stop >= start))
      return refuse("the stop time %.17g is not after the start %.17g", stop, start);
    t_ = start;
    stop_ = stop_defined ? stop : INFINITY;
    mode_ = Mode::kInitialization;
    return Status::kOk;
  }
  Status exit_initialization() override {
    if (mode_ != Mode::kInitialization) return wrong_mode("exit initialization mode");
    started_ = true;
    run_.start(x_);
    hold_.start(t_, u_);
    mode_ = kind_ == Kind::kCoSimulation    ? Mode::kStep
            : kind_ == Kind::kModelExchange ? Mode::kEvent
                                            : Mode::kClockActivation;
    return Status::kOk;
  }
  Status enter_event_mode() override {
    if (kind_ != Kind::kModelExchange || (mode_ != Mode::kContinuousTime && mode_ != Mode::kEvent))
      return wrong_mode("enter event mode");
    mode_ = Mode::kEvent;
    return Status::kOk;
  }
  Status enter_step_mode() override {
    if (kind_ != Kind::kCoSimulation || mode_ != Mode::kStep) return wrong_mode("enter step mode");
    return Status::kOk;
  }
  Status enter_continuous_time_mode() override {
    if (kind_ != Kind::kModelExchange || mode_ != Mode::kEvent) return wrong_mode("enter continuous-time mode");
    mode_ = Mode::kContinuousTime;
    return Status::kOk;
  }
  Status terminate() override {
    if (mode_ == Mode::kInstantiated || mode_ == Mode::kTerminated) return wrong_mode("terminate");
    mode_ = Mode::kTerminated;
    return Status::kOk;
  }

  Status get(const std::uint32_t* vr, std::size_t n, double* values, std::size_t n_values) override {
    if (mode_ == Mode::kError) return wrong_mode("get a value");
    if (n > 0 && (!vr || !values)) return refuse("get: no value references or no values");
    if (const Status s = check_sizes(vr, n, n_values); s != Status::kOk) return s;
    std::size_t at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Variable v = variable(vr[i]);
      for (int k = 0; k < v.count; ++k) values[at++] = value(v, k);
    }
    return Status::kOk;
  }

  Status set(const std::uint32_t* vr, std::size_t n, const double* values, std::size_t n_values) override {
    if (mode_ == Mode::kError || mode_ == Mode::kTerminated) return wrong_mode("set a value");
    if (n > 0 && (!vr || !values)) return refuse("set: no value references or no values");
    if (const Status s = check_sizes(vr, n, n_values); s != Status::kOk) return s;
    std::size_t at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Variable v = variable(vr[i]);
      const Status s = v.kind == VariableKind::kTunable ? set_tunable(v, values + at) : set_one(v, vr[i], values[at]);
      if (s != Status::kOk) return s;
      at += static_cast<std::size_t>(v.count);
    }
    return Status::kOk;
  }

  Status set_input_rate(std::uint32_t vr, int order, double value) override {
    const Variable v = variable(vr);
    if (v.kind != VariableKind::kInput) return refuse("input derivative: %u is not an input's value reference", vr);
    if (order < 1 || order > 2) return refuse("input derivative: order %d (1 or 2 are taken)", order);
    if (!std::isfinite(value)) return refuse("input derivative of %s: %g is not finite", input_name(v.index), value);
    hold_.give(v.index, order, value);
    return Status::kOk;
  }

  Status do_step(double at, double step) override {
    if (kind_ != Kind::kCoSimulation || mode_ != Mode::kStep) return wrong_mode("do a step");
    const long per = dualrate_fmu::kRatio;
    const double unit = dualrate_fmu::kStep * static_cast<double>(per);
    const double whole = step / unit;
    if (!(whole >= 0.5 && whole <= kMostSteps) || std::fabs(step - std::round(whole) * unit) > 1e-9 * step) {
      if (per > 1)
        return refuse("the communication step %.17g is not a whole number of macro steps H = %.17g (%ld h)", step, unit,
                      per);
      return refuse("the communication step %.17g is not a whole number of steps h = %.17g", step, unit);
    }
    if (!same_time(at, t_)) return refuse("the communication point %.17g is not the instance's time %.17g", at, t_);
    if (at + step > stop_ && !same_time(at + step, stop_))
      return refuse("the step to %.17g goes past the stop time %.17g", at + step, stop_);
    const auto steps = static_cast<std::int64_t>(std::round(whole)) * per;
    const dualrate::HeldInput<Model> u = hold_.over(model_time(), u_, step);
    if (const dualrate::Status s = run_.advance(steps, u); s != dualrate::Status::kOk) {
      mode_ = Mode::kError;
      return refuse("the step from t = %.17g failed: %s (the state is the last good one)", t_, to_string(s));
    }
    steps_ += steps;
    t_ = static_cast<double>(steps_) * dualrate_fmu::kStep;
    return Status::kOk;
  }

  Status activate(std::uint32_t clock, double t) override {
    if (kind_ != Kind::kScheduledExecution || mode_ != Mode::kClockActivation)
      return wrong_mode("activate a model partition");
    const Variable v = variable(clock);
    if (v.kind != VariableKind::kClock) return refuse("activate: %u is not an input clock's value reference", clock);
    if constexpr (S::Run::kTasks) {
      return v.index == 0 ? fast_partition(t) : slow_partition(t);
    } else {
      return refuse("activate: this FMU has no tasks");
    }
  }
  double clock_interval(std::uint32_t clock) const override {
    const Variable v = variable(clock);
    if (v.kind != VariableKind::kClock) return -1;
    return dualrate_fmu::kStep * (v.index == 0 ? 1 : dualrate_fmu::kRatio);
  }

  Status set_time(double t) override {
    if (kind_ != Kind::kModelExchange) return wrong_mode("set the time");
    if (!std::isfinite(t)) return refuse("the time %g is not finite", t);
    t_ = t;
    return Status::kOk;
  }
  Status set_states(const double* x, std::size_t n) override {
    if (kind_ != Kind::kModelExchange || (mode_ != Mode::kContinuousTime && mode_ != Mode::kEvent))
      return wrong_mode("set the continuous states");
    if (n != kStates || !x) return refuse("set the continuous states: %zu given, the model has %d", n, kStates);
    for (int i = 0; i < kStates; ++i)
      if (!std::isfinite(x[i])) return refuse("state %s: %g is not finite", state_name(i), x[i]);
    for (int i = 0; i < kStates; ++i) x_[i] = static_cast<Scalar>(x[i]);
    return Status::kOk;
  }
  Status get_states(double* x, std::size_t n) override {
    if (n != kStates || !x) return refuse("get the continuous states: %zu asked, the model has %d", n, kStates);
    const State s = state();
    for (int i = 0; i < kStates; ++i) x[i] = static_cast<double>(s[i]);
    return Status::kOk;
  }
  Status get_derivatives(double* dx, std::size_t n) override {
    if (n != kStates || !dx) return refuse("get the derivatives: %zu asked, the model has %d", n, kStates);
    const State d = derivatives();
    for (int i = 0; i < kStates; ++i) dx[i] = static_cast<double>(d[i]);
    return Status::kOk;
  }
  Status get_nominals(double* x, std::size_t n) override {
    if (n != kStates || !x) return refuse("get the nominals: %zu asked, the model has %d", n, kStates);
    for (int i = 0; i < kStates; ++i) x[i] = 1;
    return Status::kOk;
  }

  Status refuse(const char* format, ...) override {
    va_list args;
    va_start(args, format);
    log(Status::kError, "logStatusError", format, args);
    va_end(args);
    return Status::kError;
  }
  Status warn(const char* format, ...) override {
    va_list args;
    va_start(args, format);
    log(Status::kWarning, "logStatusWarning", format, args);
    va_end(args);
    return Status::kWarning;
  }

 private:
  void log(Status status, const char* category, const char* format, va_list args) {
    char message[512];
    std::vsnprintf(message, sizeof message, format, args);
    if (log_.on && log_.emit) log_.emit(log_, status, category, message);
  }

  // The instance at the model's values: the generator's constants, the initial state and the
  // inputs' start values.
  Status start() {
    calibration_ = dualrate_fmu::model_calibration();
    S::restore();
    x_ = Model::initial_state();
    u_ = Model::default_inputs();
    t_ = 0;
    steps_ = 0;
    stop_ = INFINITY;
    started_ = false;
    Model::outputs(model_time(), x_, u_, y_);
    mode_ = Mode::kInstantiated;
    return Status::kOk;
  }

  Status wrong_mode(const char* what) { return refuse("cannot %s in this mode", what); }

  static Variable variable(std::uint32_t vr) { return vr < kVariables ? dualrate_fmu::kVariables[vr] : Variable{}; }
  // Every value reference known, none a clock, and the values as many as their variables hold.
  Status check_sizes(const std::uint32_t* vr, std::size_t n, std::size_t n_values) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Variable v = variable(vr[i]);
      if (v.kind == VariableKind::kUnknown) return refuse("no variable has the value reference %u", vr[i]);
      if (v.kind == VariableKind::kClock) return refuse("%u is a clock: fmi3GetClock and fmi3SetClock", vr[i]);
      total += static_cast<std::size_t>(v.count);
    }
    if (total != n_values) return refuse("%zu values given for variables that hold %zu", n_values, total);
    return Status::kOk;
  }
  static const char* input_name(int i) { return Model::input_names[static_cast<std::size_t>(i)]; }
  static const char* state_name(int i) { return Model::state_names[static_cast<std::size_t>(i)]; }

  // The state the instance reports: co-simulation's at its communication point once its run
  // started; model exchange's as set; Scheduled Execution's at the last fast tick.
  State state() const {
    const bool running = started_ && (mode_ == Mode::kStep || mode_ == Mode::kTerminated);
    return kind_ == Kind::kCoSimulation && running ? run_.state(u_) : x_;
  }
  typename Model::Time model_time() const { return static_cast<typename Model::Time>(t_); }
  State derivatives() const {
    State d;
    Model::derivatives(model_time(), state(), u_, d);
    return d;
  }
  double value(Variable v, int k) const {
    switch (v.kind) {
      case VariableKind::kTime:
        return t_;
      case VariableKind::kState:
        return static_cast<double>(state()[v.index]);
      case VariableKind::kDerivative:
        return static_cast<double>(derivatives()[v.index]);
      case VariableKind::kInput:
        return static_cast<double>(u_[v.index]);
      case VariableKind::kOutput: {
        if (kind_ == Kind::kScheduledExecution) return static_cast<double>(y_[v.index]);
        Output y;
        Model::outputs(model_time(), state(), u_, y);
        return static_cast<double>(y[v.index]);
      }
      case VariableKind::kTunable:
        return static_cast<double>(dualrate_fmu::tunable(calibration_, v.index + k));
      case VariableKind::kClock:
      case VariableKind::kUnknown:
        break;
    }
    return 0;
  }

  Status set_one(Variable v, std::uint32_t vr, double x) {
    switch (v.kind) {
      case VariableKind::kInput:
        if (!std::isfinite(x)) return refuse("input %s: %g is not finite", input_name(v.index), x);
        u_[v.index] = static_cast<Scalar>(x);
        run_.changed();
        return Status::kOk;
      case VariableKind::kState:
        if (mode_ != Mode::kInstantiated && mode_ != Mode::kInitialization)
          return refuse("state %s is set only before initialization ends (its start value)", state_name(v.index));
        if (!S::Run::kStartStates)
          return refuse("state %s is calculated: the dual-rate tasks start from the model's initial state",
                        state_name(v.index));
        if (!std::isfinite(x)) return refuse("state %s: %g is not finite", state_name(v.index), x);
        x_[v.index] = static_cast<Scalar>(x);
        return Status::kOk;
      case VariableKind::kUnknown:
        return refuse("set: no variable has the value reference %u", vr);
      default:
        return refuse("set: the variable with value reference %u is not settable", vr);
    }
  }

  // A tunable variable's values x[0 .. v.count): the generated recalibrate() checks the new set
  // and recomputes the constants that follow it (sp_ll's exponentials included) into the
  // instance's own, which its next step reads; while Scheduled Execution's tasks run, into the
  // spare set they take whole at their next release. A refused set keeps the previous one.
  Status set_tunable(Variable v, const double* x) {
    if (mode_ == Mode::kContinuousTime) return refuse("a tunable value is set in event mode, not in continuous time");
    dualrate_fmu::Calibration next = calibration_;
    for (int k = 0; k < v.count; ++k) dualrate_fmu::tunable(next, v.index + k) = static_cast<Scalar>(x[k]);
    const bool tasks_run = mode_ == Mode::kClockActivation;
    const dualrate::calibration::Status s = tasks_run ? S::hand_over(next) : S::recalibrate(next);
    if (s.result == dualrate::calibration::Result::kPending)
      return refuse("%s: the last set waits for the tasks' next release; set it again after that release",
                    dualrate_fmu::tunable_name(v.index));
    if (!s.applied()) {
      const int at = s.value;
      if (at >= v.index && at < v.index + v.count)
        return refuse("%s = %.17g is refused (%s; the previous values are kept)", dualrate_fmu::tunable_name(at),
                      x[at - v.index], dualrate::calibration::to_string(s.result));
      return refuse("%s is refused: %s becomes %s (the previous values are kept)", dualrate_fmu::tunable_name(v.index),
                    at >= 0 ? dualrate_fmu::status_value_name(at) : "a constant",
                    dualrate::calibration::to_string(s.result));
    }
    calibration_ = next;
    if (!tasks_run) run_.changed();
    return Status::kOk;
  }

  // Scheduled Execution. The fast partition of tick n: reads u(t_n), gives the state and outputs
  // at t_n, steps the fast states. The slow partition: the job the fast partition released.
  // They may run in two threads: the tasks exchange their data through the runtime's double
  // buffers, the fast partition alone writes the instance's state, outputs and time, and an
  // error is stored atomically.
  Status fast_partition(double t) {
    const double tick = static_cast<double>(steps_) * dualrate_fmu::kStep;
    if (!same_time(t, tick))
      return refuse("the fast task's partition is activated at t = %.17g, its tick is at %.17g", t, tick);
    const dualrate::Status s = run_.fast(u_, x_);
    t_ = tick;
    Model::outputs(model_time(), x_, u_, y_);
    ++steps_;
    return partition_status(s, t, "fast task");
  }
  Status slow_partition(double t) {
    if (!run_.slow_released())
      return refuse(
          "the slow task's partition is activated at t = %.17g with no job released: activate the fast "
          "task's partition of that tick first",
          t);
    const double release =
        static_cast<double>(run_.released_job()) * dualrate_fmu::kStep * static_cast<double>(dualrate_fmu::kRatio);
    if (!same_time(t, release))
      return refuse("the slow task's partition is activated at t = %.17g; the job waiting was released at %.17g", t,
                    release);
    return partition_status(run_.slow(), t, "slow job");
  }
  // An overrun is the runtime's to handle (a skipped or deferred release, counted): a warning.
  Status partition_status(dualrate::Status s, double t, const char* what) {
    switch (s) {
      case dualrate::Status::kOk:
        return Status::kOk;
      case dualrate::Status::kNonFiniteState:
        mode_ = Mode::kError;
        return refuse("the %s at t = %.17g failed: %s", what, t, to_string(s));
      default:
        return warn("the %s at t = %.17g: %s", what, t, to_string(s));
    }
  }

  typename S::Run run_{};
  InputHold<Model> hold_{};
  dualrate_fmu::Calibration calibration_{};
  State x_ = State::Zero();
  Input u_ = Input::Zero();
  Output y_ = Output::Zero();  // Scheduled Execution: the outputs at the last fast tick
  double t_ = 0;
  double stop_ = INFINITY;
  std::int64_t steps_ = 0;  // steps h taken (co-simulation), ticks (Scheduled Execution)
  bool started_ = false;    // initialization ended
  std::atomic<Mode> mode_{Mode::kInstantiated};
  std::atomic<bool> claimed_{false};
  Kind kind_ = Kind::kCoSimulation;
  Logger log_{};
};

template <std::size_t... I>
std::array<Instance*, sizeof...(I)> make_slots(std::index_sequence<I...>) {
  static std::tuple<Component<dualrate_fmu::Slot<static_cast<int>(I)>>...> components;
  return {&std::get<I>(components)...};
}

}  // namespace detail

// The instance slots, each a static Component of its own slot.
inline const std::array<Instance*, dualrate_fmu::kSlots>& slots() {
  static const auto all = detail::make_slots(std::make_index_sequence<dualrate_fmu::kSlots>{});
  return all;
}

// A free slot, claimed (atomically: instances may be made from several threads); null when all
// kSlots are in use. free() gives it back.
inline Instance* claim_slot() {
  for (Instance* i : slots())
    if (i->claim()) return i;
  return nullptr;
}

// The instance behind a handle an importer gives back, or null for one that is not a live
// instance (never made, or freed).
inline Instance* in_use(void* p) {
  for (Instance* i : slots())
    if (i == p && i->in_use()) return i;
  return nullptr;
}

}  // namespace dualrate::fmi
