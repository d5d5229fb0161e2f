#include "reference_core/reference_core.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "constant_schedule/constant_schedule.hpp"
#include "registry/registry.hpp"

namespace dualrate {

namespace {

// Why a run of `scheme` cannot end exactly at t_end, with the end times it can reach.
SimulationError off_grid(const std::string& scheme, double t_end, double h, int stride, const EndTime& e) {
  const std::string unit =
      stride > 1 ? fmt::format("macro steps H = {} h = {}", stride, h * stride) : fmt::format("steps h = {}", h);
  return SimulationError(
      fmt::format("t_end = {} is not a whole number of {} and {} cannot shorten its last "
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
  if (!info || !info->hooks.reference_step) throw SimulationError("the reference core has no scheme '" + scheme + "'");
  ReferenceSetup bare;
  bare.jacobian = [&scheme](double, const std::vector<double>&) -> Eigen::MatrixXd {
    throw SimulationError("scheme_step: " + scheme + " needs the model (its Jacobian)");
  };
  return info->hooks.reference_step(bare, h)(f, t, h, x);
}

namespace {

// The scheme's reference step of size h for the model of `core`, prepared with the options'
// linearization or schedule and inputs (fixed_step, single_step).
ReferenceStep prepared_step(const ReferenceCore& core, const Model& model, const SchemeInfo& info,
                            const RunOptions& options, double h) {
  const bool in_float = options.float_time;
  const auto jacobian = [&core, in_float](double t, const Vector& x) {
    return core.jacobian_at(t, x, core.inputs_at(t, in_float));
  };
  ReferenceSetup setup;
  setup.model = &model;
  setup.slow = model.slow_count;
  setup.jacobian = jacobian;
  setup.linearization = options.linearization.value_or(model.simulation.linearization);
  setup.initial_state = core.initial_state();
  setup.options = options.scheme_options;
  setup.inputs = [&core, in_float](double t) { return core.inputs_at(t, in_float); };
  if (core.holds_inputs()) {
    setup.held_inputs = [&core, h, in_float](double t) {
      return core.held_inputs_of_step<double>(std::lround(t / h), h, in_float);
    };
    setup.input_jacobian = [&core, in_float](double t, const Vector& x) {
      return core.input_jacobian_at(t, x, core.inputs_at(t, in_float));
    };
  }
  if (options.schedule) {
    setup.scheduled = [&core, schedule = options.schedule, in_float](double t, const Vector& x) {
      return interpolate(*schedule, core.scheduling_values(t, x, core.inputs_at(t, in_float)));
    };
    setup.scheduled_step = options.schedule->step;
  }
  setup.iterations = options.schedule ? options.schedule->iterations : options.iterations;
  return info.hooks.reference_step(setup, h);
}

}  // namespace

namespace {

// options' steps of size h, prepared per calibration segment (prepared_step on each core).
std::vector<ReferenceStep> prepared_steps(const ReferenceCores& cores, const SchemeInfo& info,
                                          const RunOptions& options, double h) {
  if (options.schedule && cores.size() > 1)
    throw SimulationError(
        "scheduled constants are designed at the model's values: a calibration write would leave "
        "them stale, and runs with one are not supported");
  std::vector<ReferenceStep> steps;
  for (std::size_t k = 0; k < cores.size(); ++k)
    steps.push_back(prepared_step(cores.core(k), cores.model(k), info, options, h));
  return steps;
}

}  // namespace

void ReferenceCore::fixed_step(const RunOptions& options, Trace& trace) const {
  const SchemeInfo* info = find_any_scheme(options.scheme);
  if (!info || !(info->hooks.reference_step || info->hooks.reference_run))
    throw SimulationError("the reference core has no scheme '" + options.scheme + "'");
  check_input_holds(model(), *info);
  if (info->hooks.reference_run) return grid_run(*info, options, trace);
  const double h = options.step;
  const EndTime end = end_time(options.t_end, h);
  const bool shortened = options.exact_end && !end.whole;
  const double last = shortened ? options.t_end - static_cast<double>(end.steps - 1) * h : h;
  const ReferenceCores cores(*this, model(), options.calibration, h, calibration_stride(options, false));
  const std::vector<ReferenceStep> steps = prepared_steps(cores, *info, options, h);
  const std::vector<ReferenceStep> last_steps = shortened ? prepared_steps(cores, *info, options, last) : steps;
  march(
      end.steps, h, shortened ? options.t_end : static_cast<double>(end.steps) * h, options.every, options.float_time,
      [&](long i, Vector& x) {
        const bool final = i + 1 == end.steps;
        const std::size_t k = cores.index(i);
        const ReferenceCore& core = cores.core(k);
        x = (final ? last_steps : steps)[k](core.holding_step(i, h, options.float_time),
                                            sample_time(i, h, options.float_time), final ? last : h, x);
        return i + 1;
      },
      trace, [&cores](long i) -> const ReferenceModel& { return cores.at(i); }, options.progress);
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::single_step(
    const RunOptions& options) const {
  return [h = options.step, step = single_step_of_length(options)](long i, const Vector& x) { return step(i, x, h); };
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&, double)> ReferenceCore::single_step_of_length(
    const RunOptions& options) const {
  const SchemeInfo* info = find_any_scheme(options.scheme);
  if (!info || !info->hooks.reference_step)
    throw SimulationError("the reference core has no single step of scheme '" + options.scheme + "'");
  check_input_holds(model(), *info);
  const double h = options.step;
  const bool in_float = options.float_time;
  auto cores = std::make_shared<const ReferenceCores>(*this, model(), options.calibration, h,
                                                      calibration_stride(options, false));
  return
      [cores, h, in_float, steps = prepared_steps(*cores, *info, options, h)](long i, const Vector& x, double length) {
        const std::size_t k = cores->index(i);
        const ReferenceCore& core = cores->core(k);
        return steps[k](core.holding_step(i, h, in_float), sample_time(i, h, in_float), length, x);
      };
}

namespace {

// The generator's design of the build options' run is compared with: the one options carry,
// else precompute_scheme's (throws its ModelError or SchemeDesignError). Without a scheme's
// constants, none.
std::shared_ptr<const SchemeDesign> generator_design(const Model& model, const SchemeInfo& info,
                                                     const RunOptions& options) {
  if (!info.traits.takes_constants) return nullptr;
  if (options.design) return options.design;
  if (options.schedule) {  // the run's schedule is the generator's design
    auto design = std::make_shared<SchemeDesign>();
    design->schedule = options.schedule;
    return design;
  }
  GenerateRequest request;
  request.scheme = options.scheme;
  request.step = options.step;
  request.ratio = options.ratio;
  request.scalar = options.float_time ? ScalarType::kFloat : ScalarType::kDouble;
  request.scheme_options = options.scheme_options;
  if (!options.linearization || *options.linearization == model.simulation.linearization)
    return std::make_shared<const SchemeDesign>(precompute_scheme(model, request));
  Model linearized = model;
  linearized.simulation.linearization = *options.linearization;
  return std::make_shared<const SchemeDesign>(precompute_scheme(linearized, request));
}

// Why the float step cannot reproduce the generated code's for this design (empty: it can).
std::string design_difference(const SchemeInfo& info, const SchemeDesign& design, const RunOptions& options) {
  if (design.schedule && !options.schedule)
    return "the run has no schedule of the constants (RunOptions::schedule), which the model's design schedules";
  if (std::string gap = info.hooks.float_reference_gap(design); !gap.empty()) return gap;
  if (!options.float_time && !options.calibration.empty() && !design.recompute.empty())
    return "after a calibration write a double build's target recomputes the design's matrices with the runtime's "
           "exponential, which agrees with the generator's only to rounding (a float build stores both rounded "
           "alike, and its exact step check confirms them)";
  if (!options.float_time && (design.schedule || !design.matrices.empty()) && !info.hooks.double_reference)
    return "in double the reference core's own constants agree with the generator's only to the rounding of two "
           "computations, and it applies them as dense matrices (a float build's exact step check confirms each "
           "entry to within its float rounding and applies it as the generated code does)";
  return "";
}

}  // namespace

std::string ReferenceCore::exact_step_difference(const RunOptions& options) const {
  const SchemeInfo* info = find_any_scheme(options.scheme);
  if (!info ||
      (info->traits.dual_rate ? info->hooks.float_reference_run == nullptr : info->hooks.float_reference == nullptr))
    return "the reference core's " + options.scheme + " step is not written in the runtime's order of operations";
  if (!options.float_time)
    for (const auto& v : model().variables)
      if (v.solved)
        return "the model's mass matrix depends on the coordinates: in double the reference core takes its symbolic "
               "inverse, the generated code factorizes it at run time (a float build's exact step check solves it as "
               "the generated code does)";
  std::shared_ptr<const SchemeDesign> design;
  try {
    design = generator_design(model(), *info, options);
  } catch (const ModelError& e) {
    return std::string("the generator has no design of the model: ") + e.what();
  } catch (const SchemeDesignError& e) {
    return std::string("the generator has no design of the model: ") + e.what();
  }
  return design ? design_difference(*info, *design, options) : "";
}

namespace {

// dx/dt in T, as the reference core (double) or a float build (float) evaluates it.
void derivatives_in(const ReferenceCore& core, double t, const Vector& x, const Vector& u, Vector& dx) {
  core.derivatives(t, x, u, dx);
}
void derivatives_in(const ReferenceCore& core, double t, const std::vector<float>& x, const Vector& u,
                    std::vector<float>& dx) {
  core.float_derivatives(t, x, u, dx);
}

}  // namespace

template <class T>
std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::single_step_in(
    const RunOptions& options, StepIn<T> (*reference)(const ReferenceSetup&, double)) const {
  constexpr bool in_float = std::is_same_v<T, float>;
  ReferenceSetup setup;
  setup.slow = model().slow_count;
  const double h = options.step;
  auto cores = std::make_shared<const ReferenceCores>(*this, model(), options.calibration, h,
                                                      calibration_stride(options, false));
  // A segment after a calibration write steps with the generator's design at its values: the
  // target recomputes those constants in double and stores them as Scalar, which rounds them
  // alike unless the two doubles straddle a Scalar's rounding boundary.
  std::vector<std::shared_ptr<const SchemeDesign>> designs;
  std::vector<StepIn<T>> steps;
  for (std::size_t k = 0; k < cores->size(); ++k) {
    RunOptions segment = options;
    if (k > 0) segment.design = nullptr;
    designs.push_back(generator_design(cores->model(k), *find_any_scheme(options.scheme), segment));
    setup.model = &cores->model(k);
    setup.design = designs.back().get();
    // Where the generator linearizes (sp_ll_blocks: the initial state and inputs, in double).
    setup.jacobian = [core = &cores->core(k)](double, const std::vector<double>&) {
      return core->jacobian_at(0, core->initial_state(), core->inputs_at(0));
    };
    if (cores->core(k).holds_inputs())
      setup.input_jacobian = [core = &cores->core(k)](double, const std::vector<double>&) {
        return core->input_jacobian_at(0, core->initial_state(), core->inputs_at(0));
      };
    steps.push_back(reference(setup, h));
  }
  return [cores, steps, h, designs, compensated = options.compensated](long i, const Vector& kept) {
    const ReferenceCore& core = cores->at(i);
    const Vector x(kept.begin(), kept.begin() + static_cast<long>(core.model().states.size()));
    const StepIn<T>& step = steps[cores->index(i)];
    const Vector u = core.inputs_of_step(i, h, in_float);
    const bool holds = core.holds_inputs();
    const HeldInputs<T> held = holds ? core.template held_inputs_of_step<T>(i, h, in_float) : HeldInputs<T>{};
    ModelIn<T> m;
    m.f = [&core, &u, &held, holds](double t, const std::vector<T>& xs, std::vector<T>& dx) {
      derivatives_in(core, t, xs, holds ? held.at(t) : u, dx);
    };
    m.scheduling_values = [&core, &u](double t, const std::vector<T>& xs) {
      if constexpr (in_float)
        return core.float_scheduling_values(t, xs, u);
      else
        return core.scheduling_values(t, xs, u);
    };
    m.inputs = u;
    m.held = held;
    if (!compensated.empty()) {
      m.compensated = compensated;
      const auto carries = static_cast<std::size_t>(std::count(compensated.begin(), compensated.end(), true));
      if (kept.size() != x.size() + carries)
        throw std::runtime_error("the exact step of a compensated build needs each compensated state's carry");
      m.carry.assign(x.size(), T(0));
      std::size_t c = x.size();
      for (std::size_t j = 0; j < x.size(); ++j)
        if (compensated[j]) m.carry[j] = static_cast<T>(kept[c++]);
    }
    const std::vector<T> next =
        step(m, sample_time(i, h, in_float), static_cast<T>(h), std::vector<T>(x.begin(), x.end()));
    return Vector(next.begin(), next.end());
  };
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::single_step_in_float(
    const RunOptions& options) const {
  const std::string why = exact_step_difference(options);
  if (!why.empty()) throw SimulationError("no float step of the reference core: " + why);
  return single_step_in<float>(options, find_any_scheme(options.scheme)->hooks.float_reference);
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::exact_single_step(
    const RunOptions& options) const {
  if (options.float_time) return single_step_in_float(options);
  const std::string why = exact_step_difference(options);
  if (!why.empty()) throw SimulationError("no exact step of the reference core: " + why);
  const SchemeInfo& info = *find_any_scheme(options.scheme);
  const std::shared_ptr<const SchemeDesign> design = generator_design(model(), info, options);
  if (!design || (design->matrices.empty() && !design->schedule)) return single_step(options);
  return single_step_in<double>(options, info.hooks.double_reference);
}

template <class T>
GridSetupIn<T> ReferenceCore::grid_setup(const RunOptions& options, std::shared_ptr<const ReferenceCore*> active,
                                         std::shared_ptr<const ReferenceCores> cores) const {
  using Values = std::vector<T>;
  const double h = options.step;
  const bool in_float = options.float_time;
  if (!active) active = std::make_shared<const ReferenceCore*>(this);
  GridSetupIn<T> setup;
  setup.slow = model().slow_count;
  setup.h = static_cast<T>(h);
  setup.ratio = options.ratio;
  setup.compensated = options.compensated;
  setup.f = [active, h, in_float](long i, const Values& xs, Values& dx) {
    const ReferenceCore& core = **active;
    derivatives_in(core, sample_time(i, h, in_float), xs, core.inputs_of_step(i, h, in_float), dx);
  };
  // A model with held inputs: tick i's polynomial from the samples of ticks i, i-1 and i-2, at t
  // (formed once per tick: a tick's rounds evaluate it several times).
  struct Formed {
    const ReferenceCore* core = nullptr;
    long tick = -1;
    HeldInputs<T> held;
  };
  auto last = std::make_shared<Formed>();
  setup.held = [active, cores, h, in_float, last](long tick, double t, const Values& xs, Values& dx) {
    const ReferenceCore& core = cores ? cores->at(tick) : **active;
    if (core.holds_inputs()) {
      if (last->core != &core || last->tick != tick)
        *last = {&core, tick, core.template held_inputs_of_step<T>(tick, h, in_float)};
      derivatives_in(core, t, xs, last->held.at(t), dx);
    } else
      derivatives_in(core, t, xs, core.inputs_of_step(tick, h, in_float), dx);
  };
  setup.start = [active, h, in_float](long i, const Values& xs) {
    const ReferenceCore& core = **active;
    const Vector u = core.inputs_of_step(i, h, in_float);
    const bool holds = core.holds_inputs();
    const HeldInputs<T> held = holds ? core.template held_inputs_of_step<T>(i, h, in_float) : HeldInputs<T>{};
    const RightHandSideIn<T> f = [&core, &u, &held, holds](double t, const Values& x, Values& dx) {
      derivatives_in(core, t, x, holds ? held.at(t) : u, dx);
    };
    return rk4_step_in<T>(f, sample_time(i, h, in_float), static_cast<T>(h), xs);
  };
  if (model().detects_jumps())
    setup.jumped = [active, h, in_float](long tick) {
      return (*active)->template input_jumped_at_step<T>(tick, h, in_float);
    };
  return setup;
}

// Multistep and multirate schemes advance on their grid (r steps at a time for the
// multirate ones after their start-up). With calibration writes, each advance from index i
// evaluates the model in effect at i (the history the scheme keeps stays as computed).
void ReferenceCore::grid_run(const SchemeInfo& info, const RunOptions& options, Trace& trace) const {
  const double h = options.step;
  const long n = step_count(options.t_end, h);
  const auto cores = std::make_shared<const ReferenceCores>(*this, model(), options.calibration, h,
                                                            calibration_stride(options, info.traits.dual_rate));
  const auto active = std::make_shared<const ReferenceCore*>(this);
  const GridRun run = info.hooks.reference_run(grid_setup(options, active, cores));
  const EndTime end = end_time(options.t_end, h, run.stride);
  if (options.exact_end && !end.whole) throw off_grid(options.scheme, options.t_end, h, run.stride, end);
  if (n % run.stride != 0)
    throw SimulationError("t_end must be a whole number of slow steps H = " + std::to_string(options.ratio) + " h");
  march(
      n, h, static_cast<double>(n) * h, options.every, options.float_time,
      [&](long i, Vector& x) {
        *active = &cores->at(i);
        return run.advance(i, x);
      },
      trace, [&cores](long i) -> const ReferenceModel& { return cores->at(i); }, options.progress);
}

template <class T>
std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::macro_step_in(
    const RunOptions& options, GridRunIn<T> (*reference_run)(const GridSetupIn<T>&)) const {
  auto cores = std::make_shared<const ReferenceCores>(*this, model(), options.calibration, options.step,
                                                      calibration_stride(options, true));
  const auto active = std::make_shared<const ReferenceCore*>(this);
  GridRunIn<T> run;
  if (reference_run) run = reference_run(grid_setup<T>(options, active, cores));
  if (!run.restore)
    throw SimulationError("the reference core has no macro step from kept values of scheme '" + options.scheme + "'");
  const std::size_t n = model().states.size();
  return [run, n, cores, active](long i, const Vector& kept) {
    if (kept.size() < n) throw SimulationError("fewer kept values than states");
    *active = &cores->at(i);
    const std::vector<T> kept_in(kept.begin(), kept.end());
    run.restore(kept_in);
    std::vector<T> x(kept_in.begin(), kept_in.begin() + static_cast<long>(n));
    run.advance(i, x);
    return Vector(x.begin(), x.end());
  };
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::macro_step(
    const RunOptions& options) const {
  const SchemeInfo* info = find_any_scheme(options.scheme);
  return macro_step_in<double>(options, info ? info->hooks.reference_run : nullptr);
}

std::function<ReferenceCore::Vector(long, const ReferenceCore::Vector&)> ReferenceCore::macro_step_in_float(
    const RunOptions& options) const {
  const std::string why = exact_step_difference(options);
  if (!why.empty()) throw SimulationError("no float macro step of the reference core: " + why);
  const SchemeInfo& info = *find_any_scheme(options.scheme);
  if (!info.traits.dual_rate)
    throw SimulationError("scheme '" + options.scheme + "' is single-rate: its exact step is single_step_in_float's");
  return macro_step_in<float>(options, info.hooks.float_reference_run);
}

template <class T>
Trace ReferenceCore::tick_trace_in(const RunOptions& options, GridRunIn<T> (*reference_run)(const GridSetupIn<T>&),
                                   int every) const {
  const double h = options.step;
  const bool in_float = options.float_time;
  const long n = step_count(options.t_end, h);
  const auto cores =
      std::make_shared<const ReferenceCores>(*this, model(), options.calibration, h, calibration_stride(options, true));
  const auto active = std::make_shared<const ReferenceCore*>(this);
  Trace trace = started(options);
  GridSetupIn<T> setup = grid_setup<T>(options, active, cores);
  setup.each_tick = [&](long tick, const std::vector<T>& x) {
    if (tick >= n || tick % every != 0) return;
    const ReferenceCore& core = cores->at(tick);
    const double t = sample_time(tick, h, in_float);
    const Vector u = core.inputs_of_step(tick, h, in_float);
    Vector row{t};
    row.insert(row.end(), x.begin(), x.end());
    if constexpr (std::is_same_v<T, float>) {
      const std::vector<float> y = core.float_outputs(t, x, u);
      row.insert(row.end(), y.begin(), y.end());
    } else {
      const Vector y = core.outputs(t, x, u);
      row.insert(row.end(), y.begin(), y.end());
    }
    trace.rows.push_back(std::move(row));
  };
  const GridRunIn<T> run = reference_run(setup);
  const Vector x0 = initial_state();
  std::vector<T> x(x0.begin(), x0.end());
  for (long i = 0; i < n;) {
    *active = &cores->at(i);
    i = run.advance(i, x);
  }
  return trace;
}

Trace ReferenceCore::tick_trace(const RunOptions& options, int every) const {
  const SchemeInfo* info = find_any_scheme(options.scheme);
  if (!info || !info->traits.dual_rate)
    throw SimulationError("scheme '" + options.scheme + "' has no dual-rate tasks to trace tick by tick");
  if (!options.float_time) return tick_trace_in<double>(options, info->hooks.reference_run, every);
  const std::string why = exact_step_difference(options);
  if (!why.empty()) throw SimulationError("no float tick trace of the reference core: " + why);
  return tick_trace_in<float>(options, info->hooks.float_reference_run, every);
}

}  // namespace dualrate
