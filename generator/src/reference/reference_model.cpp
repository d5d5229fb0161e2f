#include "reference/reference_model.hpp"

#include <boost/numeric/odeint.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <type_traits>

#include "numeric/linearization.hpp"
#include "numeric/fixed_size_solves.hpp"

namespace dualrate {

long step_count(double t_end, double h) { return static_cast<long>(std::ceil(t_end / h - 1e-9)); }

EndTime end_time(double t_end, double h, int stride) {
  const double span = h * stride;
  EndTime e;
  const long strides = step_count(t_end, span);
  e.steps = strides * stride;
  e.above = static_cast<double>(strides) * span;
  e.whole = std::fabs(e.above - t_end) <= 1e-9 * h;
  e.below = e.whole ? e.above : static_cast<double>(strides - 1) * span;
  return e;
}

ReferenceModel::ReferenceModel(const Model& model) : model_(model) {
  int slot = 0;
  slots_[model.time] = slot++;
  for (const auto& x : model.states) slots_[x.symbol] = slot++;
  for (const auto& u : model.inputs) slots_[u.symbol] = slot++;
  for (const auto& p : model.parameters) slots_[p.symbol] = slot++;
  for (const auto& v : model.variables) slots_[v.symbol] = slot++;
  for (const auto& x : model.states) rhs_.emplace_back(model.with_time_terms(x.rhs), slots_);
  for (const auto& y : model.outputs) outputs_.emplace_back(model.with_time_terms(y.expr), slots_);
  if (model.simulation.schedule)
    for (const auto& e : model.simulation.schedule->by) scheduling_.emplace_back(e, slots_);
  for (const auto& v : model.variables) variables_.emplace_back(model.with_time_terms(v.expr), slots_);
  if (model.second_order && !model.second_order->constant_mass) {
    static_assert(kMaxSolvedCoordinates <= kMaxUnrolledSolve, "the float solve transcribes Eigen's unrolled one");
    const SecondOrder& so = *model.second_order;
    for (const auto& row : so.mass)
      for (const auto& entry : row) mass_.emplace_back(model.with_time_terms(entry), slots_);
    for (const auto& f : so.forces) forces_.emplace_back(model.with_time_terms(f), slots_);
    for (const auto& a : so.accelerations) acceleration_slots_.push_back(static_cast<std::size_t>(slots_.at(a)));
  }
  for (std::size_t i = 0; i < model.inputs.size(); ++i)
    signals_.emplace_back(model.with_time_terms(model.input_signal(i)), slots_);
  const GiNaC::matrix j = jacobian(model, state_symbols(model));
  std::set<GiNaC::ex, GiNaC::ex_is_less> moving{model.time};
  for (const auto& x : model.states) moving.insert(x.symbol);
  for (const auto& u : model.inputs) moving.insert(u.symbol);
  for (const auto& v : model.variables) moving.insert(v.symbol);
  std::vector<std::vector<GiNaC::ex>> entries(3);  // column-major: the full Jacobian, its fast block, d/du
  const unsigned first_fast = j.rows() - static_cast<unsigned>(model.fast_count());
  for (unsigned c = 0; c < j.cols(); ++c)
    for (unsigned r = 0; r < j.rows(); ++r) {
      entries[kFullJacobian].push_back(j(r, c));
      if (r >= first_fast && c >= first_fast) entries[kFastBlock].push_back(j(r, c));
      for (auto e = j(r, c).preorder_begin(); e != j(r, c).preorder_end() && !jacobian_varies_; ++e)
        jacobian_varies_ = GiNaC::is_a<GiNaC::symbol>(*e) && moving.count(*e) > 0;
    }
  const GiNaC::matrix ju = jacobian(model, input_symbols(model));
  for (unsigned c = 0; c < ju.cols(); ++c)
    for (unsigned r = 0; r < ju.rows(); ++r) entries[kInputJacobian].push_back(ju(r, c));
  jacobian_ = EvaluatorSet(entries, slots_);
  const GiNaC::exmap variables = model.variable_definitions();
  for (const auto& x : model.states) {
    const GiNaC::ex f = x.rhs.subs(variables);
    std::vector<Evaluator>& rates = parameter_rates_.emplace_back();
    for (const auto& p : model.parameters) {
      const GiNaC::ex rate = f.diff(GiNaC::ex_to<GiNaC::symbol>(p.symbol)) * p.symbol;
      if (!rate.is_zero()) rates.emplace_back(rate, slots_);
    }
    for (const GiNaC::ex& call : table_calls(f)) {
      const GiNaC::symbol value;
      const GiNaC::ex rate =
          f.subs(call == value, GiNaC::subs_options::no_pattern).diff(value).subs(value == call) * call;
      if (!rate.is_zero()) rates.emplace_back(rate, slots_);
    }
  }
}

ReferenceModel::Vector ReferenceModel::parameter_rates(double t, const Vector& x, const Vector& u) const {
  const Vector env = environment(t, x, u);
  Vector rates;
  for (const auto& state : parameter_rates_) {
    double sum = 0;
    for (const Evaluator& rate : state) sum += std::fabs(rate(env.data()));
    rates.push_back(sum);
  }
  return rates;
}

Eigen::MatrixXd ReferenceModel::jacobian_at(double t, const Vector& x, const Vector& u) const {
  return trailing_jacobian_at(t, x, u, static_cast<Eigen::Index>(x.size()));
}

Eigen::MatrixXd ReferenceModel::trailing_jacobian_at(double t, const Vector& x, const Vector& u,
                                                     Eigen::Index size) const {
  const Vector env = environment(t, x, u);
  const auto n = static_cast<Eigen::Index>(x.size());
  const bool fast_block = static_cast<std::size_t>(size * size) == jacobian_.size(kFastBlock);
  const Eigen::Index rows = fast_block ? size : n;
  // One buffer: the nodes' values, then the Jacobian (column-major, as MatrixXd stores it).
  Vector scratch(jacobian_.scratch_size() + static_cast<std::size_t>(rows * rows));
  double* const values = scratch.data() + jacobian_.scratch_size();
  jacobian_.evaluate(fast_block ? kFastBlock : kFullJacobian, env.data(), scratch.data(), values);
  return Eigen::Map<const Eigen::MatrixXd>(values, rows, rows).bottomRightCorner(size, size);
}

Eigen::MatrixXd ReferenceModel::input_jacobian_at(double t, const Vector& x, const Vector& u) const {
  const Vector env = environment(t, x, u);
  const auto n = static_cast<Eigen::Index>(x.size()), inputs = static_cast<Eigen::Index>(u.size());
  Vector scratch(jacobian_.scratch_size() + static_cast<std::size_t>(n * inputs));
  double* const values = scratch.data() + jacobian_.scratch_size();
  jacobian_.evaluate(kInputJacobian, env.data(), scratch.data(), values);
  return Eigen::Map<const Eigen::MatrixXd>(values, n, inputs);
}

ReferenceModel::Vector ReferenceModel::initial_state() const {
  Vector x;
  for (const auto& s : model_.states) x.push_back(s.initial_value);
  return x;
}

namespace {

// e at the slot values env, in their arithmetic (a float evaluation's time terms at the double t).
double evaluate(const Evaluator& e, const std::vector<double>& env, double) { return e(env.data()); }
float evaluate(const Evaluator& e, const std::vector<float>& env, double t) { return e(env.data(), t); }

}  // namespace

template <class T>
std::vector<T> ReferenceModel::slot_values(double t, const std::vector<T>& x, const Vector& u) const {
  std::vector<T> env(slots_.size(), T(0));
  std::size_t slot = 0;
  env[slot++] = static_cast<T>(t);
  for (const T v : x) env[slot++] = v;
  for (const double v : u) env[slot++] = static_cast<T>(v);
  for (const auto& p : model_.parameters) env[slot++] = static_cast<T>(p.value);
  return env;
}

void ReferenceModel::solve_mass_in_float(double t, std::vector<float>& env) const {
  const std::size_t n = forces_.size();
  std::vector<float> mass(n * n, 0.0F), force;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) mass[i * n + j] = mass_[i * n + j](env.data(), t);
  for (const auto& f : forces_) force.push_back(f(env.data(), t));
  const std::vector<float> a = solve_llt_as_runtime(n, mass, force);
  for (std::size_t i = 0; i < n; ++i) env[acceleration_slots_[i]] = a[i];
}

template <class T>
std::vector<T> ReferenceModel::environment(double t, const std::vector<T>& x, const Vector& u) const {
  std::vector<T> env = slot_values(t, x, u);
  const std::size_t first = env.size() - variables_.size();
  bool solved = false;
  for (std::size_t k = 0; k < variables_.size(); ++k) {
    if constexpr (std::is_same_v<T, float>) {
      if (model_.variables[k].solved) {
        if (!solved) solve_mass_in_float(t, env);
        solved = true;
        continue;
      }
    }
    env[first + k] = evaluate(variables_[k], env, t);
  }
  return env;
}

ReferenceModel::Vector ReferenceModel::inputs_at(double t, bool in_float) const {
  const Vector x(model_.states.size(), 0.0), u(model_.inputs.size(), 0.0);
  Vector signals;
  if (in_float) {
    const std::vector<float> env = slot_values(t, std::vector<float>(model_.states.size(), 0.0F), u);
    for (const auto& s : signals_) signals.push_back(static_cast<double>(s(env.data(), t)));
  } else {
    const Vector env = environment(t, x, u);
    for (const auto& s : signals_) signals.push_back(s(env.data()));
  }
  return signals;
}

void ReferenceModel::derivatives(double t, const Vector& x, const Vector& u, Vector& dxdt) const {
  const Vector env = environment(t, x, u);
  dxdt.resize(rhs_.size());
  std::vector<std::string> bad;
  for (std::size_t i = 0; i < rhs_.size(); ++i) {
    dxdt[i] = rhs_[i](env.data());
    if (!std::isfinite(dxdt[i])) bad.push_back("d" + model_.states[i].name + "/dt");
  }
  if (bad.empty()) return;
  for (std::size_t i = 0; i < model_.states.size(); ++i)
    if (!std::isfinite(x[i])) bad.push_back(model_.states[i].name);
  for (std::size_t i = 0; i < model_.inputs.size(); ++i)
    if (!std::isfinite(u[i])) bad.push_back("input " + model_.inputs[i].name);
  const std::size_t first_variable = env.size() - variables_.size();
  for (std::size_t i = 0; i < variables_.size(); ++i)
    if (!std::isfinite(env[first_variable + i])) bad.push_back("variable " + model_.variables[i].name);
  std::string names;
  for (const auto& b : bad) names += (names.empty() ? "" : ", ") + b;
  throw SimulationError(fmt::format("non-finite derivative at t = {:.17g}: {}", t, names));
}

void ReferenceModel::check_state(double t, const Vector& x) const {
  std::string names;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) names += (names.empty() ? "" : ", ") + model_.states[i].name;
  if (!names.empty()) throw SimulationError(fmt::format("non-finite state at t = {:.17g}: {}", t, names));
}

ReferenceModel::Vector ReferenceModel::outputs(double t, const Vector& x, const Vector& u) const {
  const Vector env = environment(t, x, u);
  Vector y;
  for (const auto& o : outputs_) y.push_back(o(env.data()));
  return y;
}

std::vector<float> ReferenceModel::float_outputs(double t, const std::vector<float>& x, const Vector& u) const {
  const std::vector<float> env = environment(t, x, u);
  std::vector<float> y;
  for (const auto& o : outputs_) y.push_back(o(env.data(), t));
  return y;
}

ReferenceModel::Vector ReferenceModel::scheduling_values(double t, const Vector& x, const Vector& u) const {
  const Vector env = environment(t, x, u);
  Vector s;
  for (const auto& e : scheduling_) s.push_back(e(env.data()));
  return s;
}

std::vector<float> ReferenceModel::float_scheduling_values(double t, const std::vector<float>& x,
                                                           const Vector& u) const {
  const std::vector<float> env = environment(t, x, u);
  std::vector<float> s;
  for (const auto& e : scheduling_) s.push_back(e(env.data(), t));
  return s;
}

std::vector<std::string> ReferenceModel::columns() const {
  std::vector<std::string> c{"t"};
  for (const auto& x : model_.states) c.push_back(x.name);
  for (const auto& y : model_.outputs) c.push_back(y.name);
  return c;
}

ReferenceModel::Vector ReferenceModel::row(double t, const Vector& x, const Vector& u) const {
  Vector r{t};
  r.insert(r.end(), x.begin(), x.end());
  const Vector y = outputs(t, x, u);
  r.insert(r.end(), y.begin(), y.end());
  return r;
}

Trace ReferenceModel::with_inputs(const Trace& trace) const {
  Trace result = trace;
  for (const auto& u : model_.inputs) result.columns.push_back(u.name);
  for (auto& row : result.rows) {
    const Vector u = inputs_at(row.at(0));
    row.insert(row.end(), u.begin(), u.end());
  }
  return result;
}

Trace ReferenceModel::with_inputs(const Trace& trace, const RunOptions& options) const {
  if (options.calibration.empty()) return with_inputs(trace);
  const CalibratedCores<ReferenceModel> cores(*this, model_, options.calibration, options.step,
                                              calibration_stride(options, false));
  Trace result = trace;
  for (const auto& u : model_.inputs) result.columns.push_back(u.name);
  for (auto& row : result.rows) {
    const Vector u = cores.at(first_step_at(row.at(0), options.step)).inputs_at(row.at(0));
    row.insert(row.end(), u.begin(), u.end());
  }
  return result;
}

double sample_time(long i, double h, bool float_time) {
  if (!float_time) return static_cast<double>(i) * h;
  return static_cast<double>(i) * static_cast<double>(static_cast<float>(h));
}

void ReferenceModel::march(long n, double h, double t_last, int every, bool float_time,
                           const std::function<long(long, Vector&)>& advance, Trace& trace,
                           const std::function<const ReferenceModel&(long)>& at,
                           const std::function<void(double)>& progress) const {
  const auto row_at = [&](long i, double t, const Vector& x) {
    const ReferenceModel& m = at ? at(i) : *this;
    const bool on_grid = t == static_cast<double>(i) * h;
    return m.row(t, x, on_grid ? m.inputs_of_step(i, h, float_time) : m.inputs_at(t));
  };
  Vector x = initial_state();
  check_state(0, x);
  trace.rows.push_back(row_at(0, 0, x));
  for (long i = 0; i < n;) {
    const long next = advance(i, x);
    const double t_next = next == n ? t_last : static_cast<double>(next) * h;
    check_state(t_next, x);
    if (next / every > i / every || next == n) trace.rows.push_back(row_at(next, t_next, x));
    if (progress) progress(t_next);
    i = next;
  }
}

RightHandSide ReferenceModel::holding(Vector u) const {
  return [this, u = std::move(u)](double ts, const Vector& xs, Vector& dx) { derivatives(ts, xs, u, dx); };
}

ReferenceModel::Vector ReferenceModel::inputs_of_step(long i, double h, bool in_float) const {
  return inputs_at(sample_time(i, h, in_float), in_float);
}

template <class T>
HeldInputs<T> ReferenceModel::held_inputs_of_step(long i, double h, bool in_float) const {
  const std::size_t n = model_.inputs.size();
  const long kept = model_.simulation.inputs_sampled_before_start ? 2 : std::clamp<long>(i, 0, 2);
  const Vector now = inputs_of_step(i, h, in_float);
  std::vector<std::vector<T>> samples{std::vector<T>(now.begin(), now.end())};  // u_i, u_{i-1}, u_{i-2}
  for (long j = 1; j <= kept; ++j) {
    const Vector u = inputs_of_step(i - j, h, in_float);
    samples.emplace_back(u.begin(), u.end());
  }
  const T step = static_cast<T>(h);
  HeldInputs<T> held{sample_time(i, h, in_float), samples.front(), std::vector<T>(n, T(0)), std::vector<T>(n, T(0))};
  for (std::size_t k = 0; k < n; ++k) {
    const long order = std::min<long>(static_cast<long>(model_.inputs[k].hold), kept);
    const T u = samples.front()[k];
    if (order == 1) {
      held.rate[k] = (u - samples[1][k]) / step;
    } else if (order == 2) {
      const T p = samples[1][k], q = samples[2][k];
      held.rate[k] = (T(3) * u - T(4) * p + q) / (T(2) * step);
      held.curvature[k] = (u - T(2) * p + q) / (T(2) * step * step);
    }
  }
  return held;
}
template HeldInputs<double> ReferenceModel::held_inputs_of_step(long, double, bool) const;
template HeldInputs<float> ReferenceModel::held_inputs_of_step(long, double, bool) const;

template <class T>
bool ReferenceModel::input_jumped_at_step(long i, double h, bool in_float) const {
  if (i < 1 || !model_.detects_jumps()) return false;
  const Vector now = inputs_of_step(i, h, in_float), before = inputs_of_step(i - 1, h, in_float);
  for (std::size_t k = 0; k < now.size(); ++k) {
    const auto jump = static_cast<T>(model_.inputs[k].jump);
    const T change = static_cast<T>(now[k]) - static_cast<T>(before[k]);
    if (jump > T(0) && (change > jump || change < -jump)) return true;
  }
  return false;
}
template bool ReferenceModel::input_jumped_at_step<double>(long, double, bool) const;
template bool ReferenceModel::input_jumped_at_step<float>(long, double, bool) const;

bool ReferenceModel::holds_inputs() const { return model_.holds_inputs(); }

RightHandSide ReferenceModel::holding_step(long i, double h, bool in_float) const {
  if (!model_.holds_inputs()) return holding(inputs_of_step(i, h, in_float));
  return [this, held = held_inputs_of_step<double>(i, h, in_float)](double ts, const Vector& xs, Vector& dx) {
    derivatives(ts, xs, held.at(ts), dx);
  };
}

template <class T>
std::function<std::vector<T>(double, const std::vector<T>&, const ReferenceModel::Vector&)> ReferenceModel::function_in(
    const std::vector<GiNaC::ex>& expressions) const {
  auto evaluators = std::make_shared<std::vector<Evaluator>>();
  for (const auto& e : expressions) evaluators->emplace_back(model_.with_time_terms(e), slots_);
  return [this, evaluators](double t, const std::vector<T>& x, const Vector& u) {
    const std::vector<T> env = environment(t, x, u);
    std::vector<T> values;
    for (const Evaluator& e : *evaluators) {
      if constexpr (std::is_same_v<T, float>)
        values.push_back(e(env.data(), t));
      else
        values.push_back(e(env.data()));
    }
    return values;
  };
}
template std::function<std::vector<float>(double, const std::vector<float>&, const ReferenceModel::Vector&)>
ReferenceModel::function_in<float>(const std::vector<GiNaC::ex>&) const;
template std::function<std::vector<double>(double, const std::vector<double>&, const ReferenceModel::Vector&)>
ReferenceModel::function_in<double>(const std::vector<GiNaC::ex>&) const;

void ReferenceModel::float_derivatives(double t, const std::vector<float>& x, const Vector& u,
                                       std::vector<float>& dxdt) const {
  const std::vector<float> env = environment(t, x, u);
  dxdt.resize(rhs_.size());
  for (std::size_t i = 0; i < rhs_.size(); ++i) dxdt[i] = rhs_[i](env.data(), t);
}

Trace ReferenceModel::started(const RunOptions& options) const {
  if (!(options.step > 0) || !(options.t_end > 0) || options.every < 1)
    throw SimulationError("step and t_end must be positive and every at least 1");
  Trace trace;
  trace.columns = columns();
  return trace;
}

namespace {

// x from a to b by the controlled stepper's steps, the first of at most dt, none longer than
// max_step; returns the step the control would take next (not shortened to end at b). Throws
// SimulationError after 500 rejected steps in a row (as Odeint's integrate_adaptive does), or
// after more than kStepsPerGridStep steps per max_step of the segment: a model too stiff for the
// explicit integrator, whose steps its stability bounds (1e7 1/s over a grid step of 2.5e-3 s
// takes about 7600).
template <class Stepper, class System>
double integrate_segment(Stepper& stepper, System& system, ReferenceModel::Vector& x, double a, double b, double dt,
                         double max_step) {
  namespace odeint = boost::numeric::odeint;
  double t = a, natural = std::min(dt, max_step);
  int rejected = 0;
  long taken = 0;
  constexpr double kStepsPerGridStep = 20000;
  const double allowed = kStepsPerGridStep * std::ceil((b - a) / max_step - 1e-9);
  while (t < b) {
    if (static_cast<double>(++taken) > allowed)
      throw SimulationError(
          fmt::format("reference integration failed: more than {} steps per step of the grid "
                      "({:.6g} s) near t = {:.17g} (too stiff for the explicit integrator)",
                      kStepsPerGridStep, max_step, t));
    const bool last = t + natural >= b;
    double step = last ? b - t : natural;
    if (stepper.try_step(system, x, t, step) == odeint::success) {
      rejected = 0;
      if (last) t = b;  // the shortened step ends at b exactly
      if (!last || step > natural) natural = std::min(step, max_step);
    } else {
      natural = step;
      if (++rejected >= 500)
        throw SimulationError(fmt::format("reference integration failed: 500 rejected steps at t = {:.17g}", t));
    }
  }
  return natural;
}

}  // namespace

// Integrates segment by segment: over each step t_i = i h where the inputs are held over the
// steps or calibration writes change the model at steps, else from row to row. Inside a segment
// (a, b] the inputs are evaluated as on the open interval: at its end their left limit is used,
// so a jump exactly at a segment's end (step(t - b)) takes effect in the next segment instead of
// leaking into this one's last stages. No step is longer than h, so a jump between grid times is
// met by the step-size control (which carries its step from segment to segment).
Trace ReferenceModel::high_accuracy(const RunOptions& options) const {
  namespace odeint = boost::numeric::odeint;
  Trace trace = started(options);
  const double h = options.step;
  const EndTime end = end_time(options.t_end, h);
  const long n = end.steps;
  const double t_last = options.exact_end && !end.whole ? options.t_end : static_cast<double>(n) * h;
  Vector x = initial_state();
  check_state(0, x);
  // Dormand-Prince 5(4): its error estimate weighs the stages at the step's end (unlike
  // RKF78's, whose two stages there cancel in it), so a jump of an input that only they see is
  // caught by the step-size control.
  auto stepper = odeint::make_controlled(options.reference_tolerance, options.reference_tolerance,
                                         odeint::runge_kutta_dopri5<Vector>());
  // Piecewise-constant calibrated values: segment i runs on the model in effect at step i.
  const CalibratedCores<ReferenceModel> cores(*this, model_, options.calibration, h,
                                              calibration_stride(options, false));
  const bool per_step = options.inputs_held || !options.calibration.empty();
  trace.rows.push_back(cores.at(0).row(0, x, cores.at(0).inputs_at(0)));
  double dt = h;
  for (long i = 0; i < n;) {
    const long j = per_step ? i + 1 : std::min(n, (i / options.every + 1) * options.every);
    const double a = static_cast<double>(i) * h, b = j == n ? t_last : static_cast<double>(j) * h;
    const ReferenceModel& core = cores.at(i);
    const RightHandSide held = options.inputs_held ? core.holding_step(i, h, false) : RightHandSide();
    auto system = [&](const Vector& state, Vector& dxdt, double t) {
      if (held)
        held(t, state, dxdt);
      else
        core.derivatives(t, state, core.inputs_at(t < b ? t : std::nextafter(b, a)), dxdt);
    };
    stepper.reset();  // its first stage again: the segment's inputs at a are not the last one's at its end
    dt = integrate_segment(stepper, system, x, a, b, dt, h);
    check_state(b, x);
    const ReferenceModel& next = cores.at(j);
    if (j % options.every == 0 || j == n) trace.rows.push_back(next.row(b, x, next.inputs_at(b)));
    if (options.progress) options.progress(b);
    i = j;
  }
  return trace;
}

}  // namespace dualrate
