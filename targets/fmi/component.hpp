// One FMU instance of a generated model (docs/fmi.md), behind FMI 3.0 (fmi3.cpp) and FMI 2.0
// (fmi2.cpp): its mode, its variables by value reference, co-simulation's doStep through the
// generated step function (or the dual-rate tasks' sequential run) and model exchange's
// derivatives. The model comes from the generated glue `fmu_model.hpp` (namespace
// dualrate_fmu): kSlots instance slots, each with its own constants where the model has
// tunable values, so that instances share nothing. No heap: the slots are static.
#pragma once

#include <array>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
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
  char instance[128] = "";     // the instance's name (cut to 127 characters)
  bool on = true;
  void name(const char* n) {
    std::strncpy(instance, n, sizeof instance - 1);
    instance[sizeof instance - 1] = '\0';
  }
};

// The value references, in this order (the generator's modelDescription.xml numbers them the
// same way): 0 time, then the states, their derivatives, the inputs, the outputs and the tunable
// values (each tunable parameter, then each tunable table: FMI 3.0's one array variable each,
// FMI 2.0's one variable per value), and with Scheduled Execution the fast and the slow task's
// clocks.
enum class VariableKind { kTime, kState, kDerivative, kInput, kOutput, kTunable, kClock, kUnknown };
struct Variable {
  VariableKind kind = VariableKind::kUnknown;
  int index = 0;  // a tunable's: its first value's among the Calibration's
  int count = 1;  // the values it holds
};

// What the FMI functions call, whatever the slot.
class Instance {
 public:
  virtual ~Instance() = default;
  // `arrays`: a tunable table is one array variable (FMI 3.0), else one variable per value.
  virtual Status instantiate(Kind kind, Logger log, bool arrays) = 0;
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
  // An error status with its message in the log, for the version's functions.
  virtual Status refuse(const char* format, ...) __attribute__((format(printf, 2, 3))) = 0;
  virtual bool in_use() const = 0;
  virtual Kind kind() const = 0;
};

namespace detail {

// The modes an instance passes through (FMI 3.0's names; FMI 2.0's map onto them).
enum class Mode {
  kFree,
  kInstantiated,
  kInitialization,
  kStep,
  kEvent,
  kContinuousTime,
  kClockActivation,
  kTerminated,
  kError
};

template <class M>
constexpr bool holds_inputs() {
  return dualrate::HoldsInputs<M>::value;
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
  static constexpr int kOutputs = Model::kOutputs;
  static constexpr int kTunables = dualrate_fmu::kTunables;
  static constexpr std::uint32_t kFirstInput = 1 + 2 * kStates;
  static constexpr std::uint32_t kFirstOutput = kFirstInput + kInputs;
  static constexpr std::uint32_t kFirstTunable = kFirstOutput + kOutputs;

 public:
  Status instantiate(Kind kind, Logger log, bool arrays) override {
    kind_ = kind;
    arrays_ = arrays;
    log_ = std::move(log);
    return start();
  }
  void free() override { mode_ = Mode::kFree; }
  Status reset() override { return start(); }
  bool in_use() const override { return mode_ != Mode::kFree; }
  Kind kind() const override { return kind_; }
  std::size_t states() const override { return kStates; }
  double time() const override { return static_cast<double>(t_); }

  Status enter_initialization(double start, bool stop_defined, double stop) override {
    if (mode_ != Mode::kInstantiated) return wrong_mode("enter initialization mode");
    if (!std::isfinite(start)) return refuse("the start time %g is not finite", start);
    if (kind_ != Kind::kModelExchange && start != 0)
      return refuse("the start time is %.17g: the generated step counts its time from 0", start);
    if (stop_defined && stop < start) return refuse("the stop time %.17g is before the start %.17g", stop, start);
    t_ = start;
    mode_ = Mode::kInitialization;
    return Status::kOk;
  }
  Status exit_initialization() override {
    if (mode_ != Mode::kInitialization) return wrong_mode("exit initialization mode");
    start_run();
    mode_ = kind_ == Kind::kCoSimulation     ? Mode::kStep
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
    if (mode_ == Mode::kFree || mode_ == Mode::kInstantiated || mode_ == Mode::kTerminated)
      return wrong_mode("terminate");
    mode_ = Mode::kTerminated;
    return Status::kOk;
  }

  Status get(const std::uint32_t* vr, std::size_t n, double* values, std::size_t n_values) override {
    if (mode_ == Mode::kFree || mode_ == Mode::kError) return wrong_mode("get a value");
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
    if (mode_ == Mode::kFree || mode_ == Mode::kError || mode_ == Mode::kTerminated) return wrong_mode("set a value");
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
    given_[static_cast<std::size_t>(order - 1)][v.index] = value;
    given_set_[static_cast<std::size_t>(order - 1)] = true;
    return Status::kOk;
  }

  Status do_step(double at, double step) override {
    if (kind_ != Kind::kCoSimulation || mode_ != Mode::kStep) return wrong_mode("do a step");
    const double h = static_cast<double>(dualrate_fmu::kStep);
    const long per = dualrate_fmu::kRatio;
    const double whole = step / (h * static_cast<double>(per));
    const long k = std::lround(whole);
    // A communication step is taken as k macro steps when it is within 1e-9 of one of them
    // relatively (a sum of decimal steps is off by a few ulps of the time).
    if (!(step > 0) || k < 1 || std::fabs(whole - static_cast<double>(k)) > 1e-9 * static_cast<double>(k)) {
      if (per > 1)
        return refuse("the communication step %.17g is not a whole number of macro steps H = %.17g (%ld h)", step,
                      h * static_cast<double>(per), per);
      return refuse("the communication step %.17g is not a whole number of steps h = %.17g", step, h);
    }
    if (std::fabs(at - t_) > 1e-9 * std::fmax(h, std::fabs(t_)))
      return refuse("the communication point %.17g is not the instance's time %.17g", at, t_);
    if (!run_.advance(k * per, u_, hold(step))) {
      mode_ = Mode::kError;
      return refuse("the step from t = %.17g failed: %s (the state is the last good one)", t_, run_.fault());
    }
    given_set_ = {false, false};
    t_ = run_.time();
    return Status::kOk;
  }

  Status activate(std::uint32_t clock, double t) override {
    if (kind_ != Kind::kScheduledExecution || mode_ != Mode::kClockActivation)
      return wrong_mode("activate a model partition");
    if constexpr (S::Run::kTasks) {
      const double h = static_cast<double>(dualrate_fmu::kStep);
      if (clock == fast_clock()) {
        const double tick = run_.time();
        if (std::fabs(t - tick) > 1e-9 * std::fmax(h, std::fabs(tick)))
          return refuse("the fast task's partition is activated at t = %.17g, its tick is at %.17g", t, tick);
        if (!run_.fast(u_, x_)) {
          mode_ = Mode::kError;
          return refuse("the fast task at t = %.17g failed: %s", t, run_.fault());
        }
        t_ = tick;
        Model::outputs(model_time(), x_, u_, y_);
        return Status::kOk;
      }
      if (clock == fast_clock() + 1) {
        if (!run_.slow_released())
          return refuse("the slow task's partition is activated at t = %.17g with no job released: activate the fast "
                        "task's partition of that tick first",
                        t);
        if (!run_.slow()) {
          mode_ = Mode::kError;
          return refuse("the slow job at t = %.17g failed: %s", t, run_.fault());
        }
        return Status::kOk;
      }
    }
    return refuse("activate: %u is not an input clock's value reference", clock);
  }
  double clock_interval(std::uint32_t clock) const override {
    const double h = static_cast<double>(dualrate_fmu::kStep);
    if (kind_ != Kind::kScheduledExecution) return -1;
    if (clock == fast_clock()) return h;
    if (clock == fast_clock() + 1) return h * dualrate_fmu::kRatio;
    return -1;
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
      if (!std::isfinite(x[i])) return refuse("state %s: %g is not finite", Model::state_names[i], x[i]);
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
    char message[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, sizeof message, format, args);
    va_end(args);
    if (log_.on && log_.emit) log_.emit(log_, Status::kError, "logStatusError", message);
    return Status::kError;
  }

 private:
  // The instance at the model's values: its constants, state and inputs.
  Status start() {
    // At the model's values the constants are the generator's, as in the header.
    calibration_ = dualrate_fmu::model_calibration();
    S::restore();
    x_ = Model::initial_state();
    u_ = Model::default_inputs();
    t_ = 0;
    Model::outputs(model_time(), x_, u_, y_);
    samples_ = 0;
    given_set_ = {false, false};
    started_ = false;
    mode_ = Mode::kInstantiated;
    return Status::kOk;
  }
  void start_run() {
    started_ = true;
    run_.start(x_);
    past_[0] = past_[1] = u_;
  }

  Status wrong_mode(const char* what) { return refuse("cannot %s in this mode", what); }
  bool running_tasks() const { return mode_ == Mode::kClockActivation; }

  Variable variable(std::uint32_t vr) const {
    if (vr == 0) return {VariableKind::kTime, 0};
    if (vr <= kStates) return {VariableKind::kState, static_cast<int>(vr - 1)};
    if (vr < kFirstInput) return {VariableKind::kDerivative, static_cast<int>(vr - 1 - kStates)};
    if (vr < kFirstOutput) return {VariableKind::kInput, static_cast<int>(vr - kFirstInput)};
    if (vr < kFirstTunable) return {VariableKind::kOutput, static_cast<int>(vr - kFirstOutput)};
    if (vr < fast_clock()) {
      const auto t = static_cast<int>(vr - kFirstTunable);
      if (!arrays_) return {VariableKind::kTunable, t};
      return {VariableKind::kTunable, dualrate_fmu::tunable_first[t], dualrate_fmu::tunable_count[t]};
    }
    if (kind_ == Kind::kScheduledExecution && vr <= fast_clock() + 1)
      return {VariableKind::kClock, static_cast<int>(vr - fast_clock())};
    return {};
  }
  // The fast task's clock (the slow task's is the next value reference).
  std::uint32_t fast_clock() const {
    return kFirstTunable + static_cast<std::uint32_t>(arrays_ ? dualrate_fmu::kTunableVariables : kTunables);
  }
  // Every value reference known and the values as many as their variables hold.
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

  // Whether co-simulation's run started (initialization ended), so that its state is the run's.
  bool running() const { return started_ && (mode_ == Mode::kStep || mode_ == Mode::kTerminated); }
  // The state the instance reports: co-simulation's at its communication point, model
  // exchange's as set, Scheduled Execution's at the last fast tick.
  State state() const { return kind_ == Kind::kCoSimulation && running() ? run_.state(u_) : x_; }
  typename Model::Time model_time() const { return static_cast<typename Model::Time>(t_); }
  State derivatives() const {
    State d;
    Model::derivatives(model_time(), state(), u_, d);
    return d;
  }
  double value(Variable v, int k) const {
    switch (v.kind) {
      case VariableKind::kTime: return t_;
      case VariableKind::kState: return static_cast<double>(state()[v.index]);
      case VariableKind::kDerivative: return static_cast<double>(derivatives()[v.index]);
      case VariableKind::kInput: return static_cast<double>(u_[v.index]);
      case VariableKind::kOutput: {
        if (kind_ == Kind::kScheduledExecution) return static_cast<double>(y_[v.index]);
        Output y;
        Model::outputs(model_time(), state(), u_, y);
        return static_cast<double>(y[v.index]);
      }
      case VariableKind::kTunable:
        return static_cast<double>(dualrate_fmu::tunable(calibration_, v.index + k));
      case VariableKind::kClock:
      case VariableKind::kUnknown: break;
    }
    return 0;
  }

  Status set_one(Variable v, std::uint32_t vr, double x) {
    switch (v.kind) {
      case VariableKind::kInput:
        if (!std::isfinite(x)) return refuse("input %s: %g is not finite", input_name(v.index), x);
        u_[v.index] = static_cast<Scalar>(x);
        return Status::kOk;
      case VariableKind::kState:
        if (mode_ != Mode::kInstantiated && mode_ != Mode::kInitialization)
          return refuse("state %s is set only before initialization ends (its start value)",
                        Model::state_names[static_cast<std::size_t>(v.index)]);
        if (!std::isfinite(x))
          return refuse("state %s: %g is not finite", Model::state_names[static_cast<std::size_t>(v.index)], x);
        if (!S::Run::kStartStates)
          return refuse("state %s starts at the model's value: the dual-rate tasks start from it",
                        Model::state_names[static_cast<std::size_t>(v.index)]);
        x_[v.index] = static_cast<Scalar>(x);
        return Status::kOk;
      case VariableKind::kUnknown: return refuse("set: no variable has the value reference %u", vr);
      default: return refuse("set: the variable with value reference %u is not settable", vr);
    }
  }

  // A tunable variable's values x[0 .. v.count): the generated recalibrate() checks the new set
  // and recomputes the constants that follow it (sp_ll's exponentials included); the step reads
  // them from its next start. A refused set keeps the previous one.
  Status set_tunable(Variable v, const double* x) {
    if (mode_ == Mode::kContinuousTime) return refuse("a tunable value is set in event mode, not in continuous time");
    dualrate_fmu::Calibration next = calibration_;
    for (int k = 0; k < v.count; ++k) dualrate_fmu::tunable(next, v.index + k) = static_cast<Scalar>(x[k]);
    // Scheduled Execution's tasks may be running: the set goes through the hand-over, which the
    // tasks take at their next release.
    const dualrate::calibration::Status s =
        kind_ == Kind::kScheduledExecution && running_tasks() ? S::hand_over(next) : S::recalibrate(next);
    if (!s.applied()) {
      const int at = s.value;
      const bool given = at >= v.index && at < v.index + v.count;
      return refuse("%s = %.17g is refused (%s; the previous values are kept)",
                    at >= 0 ? dualrate_fmu::status_value_name(at) : dualrate_fmu::tunable_name(v.index),
                    given ? x[at - v.index] : x[0], dualrate::calibration::to_string(s.result));
    }
    calibration_ = next;
    run_.changed();
    return Status::kOk;
  }

  // The inputs over the next communication step of length `step`: each held as the model
  // declares (0 zero, 1 linear, 2 quadratic) through the samples at the communication points,
  // or with the derivatives the importer gave for this step.
  dualrate::HeldInput<Model> hold(double step) {
    dualrate::HeldInput<Model> u;
    u.start = model_time();
    u.value = u_;
    if constexpr (holds_inputs<Model>()) {
      const Scalar d = static_cast<Scalar>(step);
      for (int i = 0; i < kInputs; ++i) {
        const int order = Model::input_holds[static_cast<std::size_t>(i)];
        if (given_set_[0]) {
          u.rate[i] = order >= 1 ? static_cast<Scalar>(given_[0][i]) : Scalar(0);
          u.curvature[i] = order >= 2 && given_set_[1] ? static_cast<Scalar>(given_[1][i] / 2) : Scalar(0);
        } else if (order == 1 && samples_ >= 1) {
          u.rate[i] = (u_[i] - past_[0][i]) / d;
        } else if (order == 2 && samples_ >= 2) {
          u.rate[i] = (3 * u_[i] - 4 * past_[0][i] + past_[1][i]) / (2 * d);
          u.curvature[i] = (u_[i] - 2 * past_[0][i] + past_[1][i]) / (2 * d * d);
        } else if (order == 2 && samples_ == 1) {
          u.rate[i] = (u_[i] - past_[0][i]) / d;
        }
      }
      past_[1] = past_[0];
      past_[0] = u_;
      if (samples_ < 2) ++samples_;
      given_[0].fill(0);
      given_[1].fill(0);
    }
    (void)step;
    return u;
  }

  typename S::Run run_{};
  dualrate_fmu::Calibration calibration_{};
  State x_ = State::Zero();
  Input u_ = Input::Zero();
  Output y_ = Output::Zero();  // Scheduled Execution: the outputs at the last fast tick
  std::array<Input, 2> past_{};  // the inputs at the last two communication points
  std::array<std::array<double, kInputs>, 2> given_{};  // the importer's input derivatives, orders 1 and 2
  std::array<bool, 2> given_set_{};
  int samples_ = 0;
  double t_ = 0;
  Mode mode_ = Mode::kFree;
  Kind kind_ = Kind::kCoSimulation;
  bool arrays_ = false;
  bool started_ = false;
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

// A free slot for a new instance, claimed with `claim` (its instantiate) while no other thread
// claims one; null when all kSlots are in use.
template <class Claim>
Instance* claim_slot(Claim&& claim) {
  static std::mutex claiming;
  const std::lock_guard<std::mutex> lock(claiming);
  for (Instance* i : slots())
    if (!i->in_use()) return claim(*i) ? i : nullptr;
  return nullptr;
}

// Whether `p` is one of the slots in use (a handle an importer gives back).
inline Instance* in_use(void* p) {
  for (Instance* i : slots())
    if (i == p && i->in_use()) return i;
  return nullptr;
}

}  // namespace dualrate::fmi
