#include "schemes/reference_core.hpp"

#include <fmt/format.h>

#include <cmath>

#include "constant_schedule/constant_schedule.hpp"
#include "schemes/registry.hpp"

namespace dualrate {

namespace {

// Why a run of `scheme` cannot end exactly at t_end, with the end times it can reach.
SimulationError off_grid(const std::string& scheme, double t_end, double h, int stride, const EndTime& e) {
  const std::string unit = stride > 1 ? fmt::format("macro steps H = {} h = {}", stride, h * stride)
                                      : fmt::format("steps h = {}", h);
  return SimulationError(fmt::format("t_end = {} is not a whole number of {} and {} cannot shorten its last "
                                     "step; the nearest end times are {:.15g} and {:.15g} (--t-end)",
                                     t_end, unit, scheme, e.below, e.above));
}

}  // namespace

Trace ReferenceCore::simulate(const RunOptions& options) const {
  if (options.scheme == kHighAccuracy) return high_accuracy(options);
  Trace trace = started(options);
  fixed_step(options, trace);
  return trace;
}

namespace {

using Vector = ReferenceCore::Vector;

}  // namespace

std::vector<double> scheme_step(const std::string& scheme, const RightHandSide& f, double t, double h,
                                const std::vector<double>& x) {
  const SchemeInfo* info = find_scheme(scheme);
  if (!info || !info->reference_step) throw SimulationError("the reference core has no scheme '" + scheme + "'");
  ReferenceSetup bare;
  bare.jacobian = [&scheme](double, const std::vector<double>&) -> Eigen::MatrixXd {
    throw SimulationError("scheme_step: " + scheme + " needs the model (its Jacobian)");
  };
  return info->reference_step(bare, h)(f, t, h, x);
}

namespace {

// The scheme's reference step of size h for the model of `core`, prepared with the options'
// linearization or schedule and inputs (fixed_step, single_step).
ReferenceStep prepared_step(const ReferenceCore& core, const Model& model, const SchemeInfo& info,
                            const RunOptions& options, double h) {
  const bool in_float = options.float_time;
  const Eigen::MatrixXd initial = options.frozen_linearization
                                      ? core.jacobian_at(0, core.initial_state(), core.inputs_at(0, in_float))
                                      : Eigen::MatrixXd();
  const auto jacobian = [&core, initial, frozen = options.frozen_linearization, in_float](double t, const Vector& x) {
    return frozen ? initial : core.jacobian_at(t, x, core.inputs_at(t, in_float));
  };
  ReferenceSetup setup{&model, model.slow_count, jacobian, options.scheme_options,
                       [&core, in_float](double t) { return core.inputs_at(t, in_float); }};
  if (options.schedule) {
    setup.scheduled = [&core, schedule = options.schedule, in_float](double t, const Vector& x) {
      return interpolate(*schedule, core.scheduling_values(t, x, core.inputs_at(t, in_float)));
    };
    setup.scheduled_step = options.schedule->step;
  }
  setup.iterations = options.schedule ? options.schedule->iterations : options.iterations;
  return info.reference_step(setup, h);
}

}  // namespace

void ReferenceCore::fixed_step(const RunOptions& options, Trace& trace) const {
  const SchemeInfo* info = find_any_scheme(options.scheme);
  if (!info || !(info->reference_step || info->reference_run))
    throw SimulationError("the reference core has no scheme '" + options.scheme + "'");
  if (info->reference_run) return grid_run(*info, options, trace);
  const double h = options.step;
  const EndTime end = end_time(options.t_end, h);
  const bool shortened = options.exact_end && !end.whole;
  const double last = shortened ? options.t_end - static_cast<double>(end.steps - 1) * h : h;
  const ReferenceStep step = prepared_step(*this, model(), *info, options, h);
  const ReferenceStep last_step = shortened ? prepared_step(*this, model(), *info, options, last) : step;
  march(end.steps, h, shortened ? options.t_end : static_cast<double>(end.steps) * h, options.every,
        [&](long i, Vector& x) {
          const bool final = i + 1 == end.steps;
          x = (final ? last_step : step)(holding(inputs_of_step(i, h, options.float_time)),
                                         sample_time(i, h, options.float_time), final ? last : h, x);
          return i + 1;
        },
        trace);
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::single_step(
    const RunOptions& options) const {
  return [h = options.step, step = single_step_of_length(options)](long i, const Vector& x) { return step(i, x, h); };
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&, double)> ReferenceCore::single_step_of_length(
    const RunOptions& options) const {
  const SchemeInfo* info = find_any_scheme(options.scheme);
  if (!info || !info->reference_step)
    throw SimulationError("the reference core has no single step of scheme '" + options.scheme + "'");
  const double h = options.step;
  const bool in_float = options.float_time;
  return [this, h, in_float, step = prepared_step(*this, model(), *info, options, h)](long i, const Vector& x,
                                                                                     double length) {
    return step(holding(inputs_of_step(i, h, in_float)), sample_time(i, h, in_float), length, x);
  };
}

std::string ReferenceCore::exact_step_difference(const RunOptions& options) const {
  const SchemeInfo* info = find_any_scheme(options.scheme);
  if (!info || !info->float_reference)
    return "the reference core's " + options.scheme + " step is not written in the runtime's order of operations";
  if (!model().tables.empty())
    return "the model has tables, which the reference core interpolates by another computation (Table::evaluate) "
           "than the generated code (dualrate::lookup::table)";
  for (const auto& v : model().variables)
    if (v.solved)
      return "the model's mass matrix depends on the coordinates: the generated code factorizes it at run time, the "
             "reference core takes its symbolic inverse";
  return "";
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::single_step_in_float(
    const RunOptions& options) const {
  const std::string why = exact_step_difference(options);
  if (!why.empty()) throw SimulationError("no float step of the reference core: " + why);
  ReferenceSetup setup;
  setup.model = &model();
  setup.slow = model().slow_count;
  const FloatStep step = find_any_scheme(options.scheme)->float_reference(setup);
  const double h = options.step;
  return [this, step, h](long i, const Vector& x) {
    const Vector u = inputs_of_step(i, h, true);
    const RightHandSideIn<float> f = [this, &u](double t, const std::vector<float>& xs, std::vector<float>& dx) {
      float_derivatives(t, xs, u, dx);
    };
    const std::vector<float> next = step(f, sample_time(i, h, true), static_cast<float>(h),
                                         std::vector<float>(x.begin(), x.end()));
    return Vector(next.begin(), next.end());
  };
}

GridSetup ReferenceCore::grid_setup(const RunOptions& options) const {
  const double h = options.step;
  const bool in_float = options.float_time;
  GridSetup setup;
  setup.slow = model().slow_count;
  setup.h = h;
  setup.ratio = options.ratio;
  setup.f = [this, h, in_float](long i, const Vector& xs, Vector& dx) {
    derivatives(sample_time(i, h, in_float), xs, inputs_of_step(i, h, in_float), dx);
  };
  setup.held = [this, h, in_float](long tick, double t, const Vector& xs, Vector& dx) {
    derivatives(t, xs, inputs_of_step(tick, h, in_float), dx);
  };
  setup.start = [this, h, in_float](long i, const Vector& xs) {
    return rk4_step(holding(inputs_of_step(i, h, in_float)), sample_time(i, h, in_float), h, xs);
  };
  return setup;
}

// Multistep and multirate schemes advance on their grid (r steps at a time for the
// multirate ones after their start-up).
void ReferenceCore::grid_run(const SchemeInfo& info, const RunOptions& options, Trace& trace) const {
  const double h = options.step;
  const long n = step_count(options.t_end, h);
  const GridRun run = info.reference_run(grid_setup(options));
  const EndTime end = end_time(options.t_end, h, run.stride);
  if (options.exact_end && !end.whole) throw off_grid(options.scheme, options.t_end, h, run.stride, end);
  if (n % run.stride != 0)
    throw SimulationError("t_end must be a whole number of slow steps H = " + std::to_string(options.ratio) + " h");
  march(n, h, static_cast<double>(n) * h, options.every, run.advance, trace);
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::macro_step(
    const RunOptions& options) const {
  const SchemeInfo* info = find_any_scheme(options.scheme);
  GridRun run;
  if (info && info->reference_run) run = info->reference_run(grid_setup(options));
  if (!run.restore)
    throw SimulationError("the reference core has no macro step from kept values of scheme '" + options.scheme + "'");
  const std::size_t n = model().states.size();
  return [run, n](long i, const Vector& kept) {
    if (kept.size() < n) throw SimulationError("fewer kept values than states");
    run.restore(kept);
    Vector x(kept.begin(), kept.begin() + static_cast<long>(n));
    run.advance(i, x);
    return x;
  };
}

}  // namespace dualrate
