// Size: seed 001 whole: the design by eq. 14 at the initial state and over a calibration range,
// its schedule, the reference step and the analysis hooks.
#include "schemes/smfe/smfe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "numeric/linearization.hpp"
#include "constant_schedule/constant_schedule.hpp"
#include "ir/function_cost.hpp"
#include "model/tunable.hpp"
#include "schemes/smfe/runtime_step.hpp"
#include "schemes/smfe/step_arithmetics.hpp"

namespace dualrate {

using Eigen::MatrixXd;

double smfe_factor(std::complex<double> lambda, double macro_step, double inner_step, int inner_steps) {
  return std::abs(1.0 + (macro_step - inner_steps * inner_step) * lambda) *
         std::pow(std::abs(1.0 + inner_step * lambda), inner_steps);
}

namespace {

// Forward Euler's order, which the stabilized inner steps keep (SchemeTraits::order).
constexpr int kSmfeOrder = 1;

// The largest eq. 14 factor over `lambdas` at N, and the eigenvalue that has it.
double worst(const Eigen::VectorXcd& lambdas, double d, double hs, int n, std::complex<double>& which) {
  double w = 0;
  for (const auto& l : lambdas) {
    const double f = smfe_factor(l, d, hs, n);
    if (!(f <= w)) {
      w = f;
      which = l;
    }
  }
  return w;
}

std::string show(std::complex<double> l) { return fmt::format("{:.6g}{:+.6g}i", l.real(), l.imag()); }

}  // namespace

double smfe_default_inner_step(const Eigen::VectorXcd& fast) {
  if (fast.size() == 0) throw SmfeDesignError("smfe needs fast states: its inner steps stabilise the fast modes");
  Eigen::Index fi = 0;
  fast.cwiseAbs().maxCoeff(&fi);
  const std::complex<double> lf = fast[fi];
  // The best inner step leaves |1 + h_s lambda_f| = |Im lambda_f| / |lambda_f|.
  if (!(lf.real() < 0) || std::abs(lf.imag()) / std::abs(lf) > 1 - 1e-6)
    throw SmfeDesignError(
        fmt::format("the fastest fast eigenvalue {} is (nearly) undamped: no inner step damps it", show(lf)));
  return -lf.real() / std::norm(lf);
}

SmfeDesign smfe_design(const Eigen::VectorXcd& all, const Eigen::VectorXcd& slow, const Eigen::VectorXcd& fast,
                       double macro_step, std::optional<double> inner_step) {
  SmfeDesign d;
  d.macro_step = macro_step;
  d.inner_step = inner_step ? *inner_step : smfe_default_inner_step(fast);
  Eigen::Index fi = 0;
  fast.cwiseAbs().maxCoeff(&fi);
  const std::complex<double> lf = fast[fi];
  const double base = std::abs(1.0 + d.inner_step * lf);
  d.eq17_bound = base > 0 && base < 1 ? std::max(0.0, -std::log(macro_step * std::abs(lf)) / std::log(base)) : 0;
  const double fit = std::ceil(macro_step / d.inner_step) - 1;  // N h_s < D
  const int most = static_cast<int>(std::min<double>(fit, kSmfeMaxInnerSteps));
  Eigen::VectorXcd extremes(slow.size() > 0 ? 2 : 1);
  extremes[0] = lf;
  if (slow.size() > 0) {
    Eigen::Index si = 0;
    slow.cwiseAbs().maxCoeff(&si);
    extremes[1] = slow[si];
  }
  std::complex<double> breaker;
  for (int n = 1; n <= most; ++n) {
    const double w = worst(all, macro_step, d.inner_step, n, breaker);
    std::complex<double> ignored;
    if (d.extremes_inner_steps == 0 && worst(extremes, macro_step, d.inner_step, n, ignored) <= 1 + kStabilityMargin) {
      d.extremes_inner_steps = n;
      d.extremes_worst_factor = w;
      d.extremes_breaker = breaker;
    }
    if (w <= 1 + kStabilityMargin) {
      d.inner_steps = n;
      d.worst_factor = w;
      return d;
    }
  }
  if (most < 1)
    throw SmfeDesignError(fmt::format("the inner step h_s = {:.6g} is not shorter than the macro step D = {:.6g}",
                                      d.inner_step, macro_step));
  throw SmfeDesignError(
      fmt::format("no N with N h_s < D = {:.6g} (h_s = {:.6g}, N <= {}{}) satisfies eq. 14: eigenvalue {} still has "
                  "|1 + (D - N h_s) lambda| |1 + h_s lambda|^N = {:.6g} > 1 at N = {}",
                  macro_step, d.inner_step, most, most < fit ? ", the most a design may take" : "", show(breaker),
                  smfe_factor(breaker, macro_step, d.inner_step, most), most));
}

namespace {

Spectra initial_spectra(const Model& model) {
  const ReferenceModel core(model);
  return spectra(core.jacobian_at(0, core.initial_state(), core.inputs_at(0)), model.slow_count);
}

// Calibration: one design for every point of the calibration range (tunable_box_points), as
// generated code keeps h_s and N fixed: h_s the given one or the smallest of the points' own, N
// the smallest that satisfies eq. 14 at every point with it.
SmfeDesign design_over_range(const Model& model, double macro_step, std::optional<double> inner_step) {
  std::vector<Spectra> points;
  for (const TunablePoint& p : tunable_box_points(model)) points.push_back(initial_spectra(model_at(model, p)));
  double hs = std::numeric_limits<double>::infinity();
  if (inner_step)
    hs = *inner_step;
  else
    for (const Spectra& s : points) hs = std::min(hs, smfe_default_inner_step(s.fast));
  SmfeDesign d = smfe_design(points.front().all, points.front().slow, points.front().fast, macro_step, hs);
  for (const Spectra& s : points)
    d.inner_steps = std::max(d.inner_steps, smfe_design(s.all, s.slow, s.fast, macro_step, hs).inner_steps);
  for (;; ++d.inner_steps) {
    std::complex<double> breaker;
    d.worst_factor = 0;
    for (const Spectra& s : points)
      d.worst_factor = std::max(d.worst_factor, worst(s.all, macro_step, hs, d.inner_steps, breaker));
    if (d.worst_factor <= 1 + kStabilityMargin) return d;
    if ((d.inner_steps + 1) * hs >= macro_step || d.inner_steps + 1 > kSmfeMaxInnerSteps)
      throw SmfeDesignError(
          fmt::format("no N with N h_s < D = {:.6g} (h_s = {:.6g}) satisfies eq. 14 at every point "
                      "of the calibration range; the largest factor at N = {} is {:.6g}",
                      macro_step, hs, d.inner_steps, d.worst_factor));
  }
}

// The option that fixes h_s (SchemeTraits::options).
const char* const kInnerStepOption = "inner_step";

// The file's inner_step when it is the h_s given (no flag overrode it), or null.
const GivenSchemeOption* file_inner_step(const Model& model, std::optional<double> inner_step) {
  for (const GivenSchemeOption& o : model.simulation.scheme_options)
    if (o.name == kInnerStepOption && inner_step == o.value) return &o;
  return nullptr;
}

}  // namespace

SmfeDesign smfe_design_for(const Model& model, double macro_step, std::optional<double> inner_step) {
  try {
    if (has_tunable(model)) return design_over_range(model, macro_step, inner_step);
    const Spectra s = initial_spectra(model);
    return smfe_design(s.all, s.slow, s.fast, macro_step, inner_step);
  } catch (const SmfeDesignError& e) {
    const GivenSchemeOption* file = file_inner_step(model, inner_step);
    throw ModelError(file ? file->loc : model.simulation.loc,
                     fmt::format("smfe at D = {:.6g}: {}", macro_step, e.what()),
                     std::string(file ? "the file's inner_step fixes h_s: another (or none, for smfe's own choice) "
                                        "may have a design; "
                                      : "") +
                         "a longer macro step D (--step) leaves room for more inner steps; " +
                         (file ? "" : "--inner-step (or simulation: scheme_options: inner_step:) sets h_s; ") +
                         "oscillatory or intermediate fast modes suit sp_ll or prk25 better");
  }
}

SmfeOptions smfe_options(const SchemeOptions& given) {
  SmfeOptions o;
  if (const auto it = given.find(kInnerStepOption); it != given.end()) o.inner_step = it->second;
  return o;
}

namespace {

// What precompute chose (SchemeDesign::chosen): h_s at the initial state, or its values at the
// schedule's grid points, and N.
struct SmfeChoice {
  double inner_step = 0;
  int inner_steps = 1;
  std::vector<double> scheduled_inner_steps{};
};

// The own design's N at Jacobian j (smfe_design with the default h_s), or 1 where it has none
// (h_s not shorter than D, or no N stable with it): the scheduled design caps h_s there.
int own_inner_steps(const Spectra& e, double macro_step) {
  try {
    return smfe_design(e.all, e.slow, e.fast, macro_step).inner_steps;
  } catch (const SmfeDesignError&) {
    return 1;
  }
}

// The inner step of N inner steps per macro step D at a Jacobian with fast eigenvalues `fast`:
// min(-Re lambda_f / |lambda_f|^2, D / (N + 1)), the default inner step shortened where N of
// them would not fit in D. SmfeDesignError as smfe_default_inner_step.
double fitted_inner_step(const Eigen::VectorXcd& fast, double macro_step, int inner_steps) {
  return std::min(smfe_default_inner_step(fast), macro_step / (inner_steps + 1));
}

// What the schedule interpolates for N inner steps of macro step D: at a Jacobian, h_s =
// fitted_inner_step and beside it that point's own N (not emitted); the one-step map
// smfe_step_map.
SchedulableScheme scheduled_design(const Model& model, double macro_step, int inner_steps) {
  const std::size_t slow = model.slow_count;
  const SourceLoc where = model.simulation.schedule->loc;
  SchedulableScheme scheme;
  scheme.step = macro_step;
  scheme.order = kSmfeOrder;
  scheme.constants = [=](const OperatingPoint&, const MatrixXd& j) {
    const Spectra e = spectra(j, slow);
    double hs = 0;
    try {
      hs = fitted_inner_step(e.fast, macro_step, inner_steps);
    } catch (const SmfeDesignError& error) {
      throw ModelError(where, fmt::format("smfe at an operating point of the schedule: {}", error.what()),
                       "narrow the schedule's range to where the fast modes are damped, or use sp_ll");
    }
    return std::vector<NamedMatrix>{{"inner_step", MatrixXd::Constant(1, 1, hs), "h_s", {}, {}},
                                    {"own_inner_steps",
                                     MatrixXd::Constant(1, 1, own_inner_steps(e, macro_step)),
                                     "N of the point's own design",
                                     {},
                                     {}}};
  };
  scheme.step_map = [=](const std::vector<NamedMatrix>& c, const OperatingPoint&, const MatrixXd& j) {
    return smfe_step_map(j, macro_step, named(c, "inner_step").value(0, 0), inner_steps);
  };
  scheme.depends_on = jacobian_dependencies(model);
  return scheme;
}

// Scheduled constants: N is the largest the grid points' own designs take (starting from the
// initial state's, the grid redesigned until it holds), raised one at a time while the
// schedule's proof finds a radius above 1 (at most kSmfeScheduleRaises times).
constexpr int kSmfeScheduleRaises = 8;

SchemeDesign precompute_scheduled(const Model& model, const GenerateRequest& request) {
  if (smfe_options(request.scheme_options).inner_step)
    throw ModelError(model.simulation.schedule->loc,
                     "smfe's scheduled constant is its inner step h_s, but its option inner_step fixes it",
                     "leave out --inner-step and simulation.scheme_options.inner_step to schedule h_s, or leave "
                     "out linearization: scheduled");
  SchemeDesign design;
  const double d = request.step;
  const double t_end = request.t_end > 0 ? request.t_end : model.simulation.t_end;
  const ReferenceModel core(model);
  int n = own_inner_steps(spectra(core.jacobian_at(0, core.initial_state(), core.inputs_at(0)), model.slow_count), d);
  int raises = 0;
  ConstantSchedule schedule;
  for (;;) {
    schedule = design_schedule(model, t_end, scheduled_design(model, d, n), true);
    int grid_needs = 1;
    for (const auto& point : schedule.constants)
      grid_needs = std::max(grid_needs, static_cast<int>(named(point, "own_inner_steps").value(0, 0)));
    if (grid_needs > n) {
      n = grid_needs;
      continue;
    }
    if (schedule.worst_relative <= 1 + kStabilityMargin || raises == kSmfeScheduleRaises) break;
    ++n;
    ++raises;
  }
  if (schedule.worst_relative > 1 + kStabilityMargin && !request.allow_unstable)
    design_schedule(model, t_end, scheduled_design(model, d, n), false);  // throws the proof's refusal
  schedule.step = d;
  schedule.iterations = n;
  std::vector<double> hs;
  for (const auto& point : schedule.constants) hs.push_back(named(point, "inner_step").value(0, 0));
  design.evaluations = n + 1;
  design.chosen = SmfeChoice{hs.front(), n, hs};
  design.reals = {
      {"inner_step", hs.front(), "h_s: inner step (s), interpolated over the schedule's grid",
       "smfe: from g_z's fastest eigenvalue at each operating point, at most D / (N + 1) (scheduled_design)", hs}};
  design.integers = {{"inner_steps", "int", n, "N: inner steps per macro step, for the whole grid",
                      "smfe: the largest N the grid points' designs take (precompute_scheduled)"}};
  design.notes =
      fmt::format(
          "h_s computed at the operating points of a grid of scheduling values (simulation: linearization:\n"
          "scheduled) from g_z's fastest eigenvalue, at most D / (N + 1), and interpolated linearly at each\n"
          "macro step; N = {} for the whole grid ({}).\n",
          n,
          raises ? fmt::format("the grid points' designs take {}, raised {} times for the proof", n - raises, raises)
                 : "the largest the grid points' designs take") +
      schedule_summary(schedule);
  design.schedule = std::make_shared<const ConstantSchedule>(std::move(schedule));
  return design;
}

SchemeDesign precompute(const Model& model, const GenerateRequest& request) {
  if (model.simulation.linearization == Linearization::kScheduled) return precompute_scheduled(model, request);
  SchemeDesign design;
  const SmfeOptions options = smfe_options(request.scheme_options);
  const bool given = options.inner_step.has_value();
  const SmfeDesign d = smfe_design_for(model, request.step, options.inner_step);
  design.options[kInnerStepOption] = d.inner_step;
  design.evaluations = d.inner_steps + 1;
  design.chosen = SmfeChoice{d.inner_step, d.inner_steps};
  const std::string origin =
      given ? "smfe: its option inner_step" : "smfe: from g_z's fastest eigenvalue at the initial state (smfe_design)";
  design.reals = {{"inner_step", d.inner_step, "h_s: inner step (s)", origin}};
  design.integers = {{"inner_steps", "int", d.inner_steps, "N: inner steps per macro step",
                      "smfe: the smallest N with eq. 14 <= 1 for every eigenvalue at the initial state (smfe_design)"}};
  design.calibration_checked = has_tunable(model);
  design.notes = fmt::format(
      "Design at the initial state{}: h_s = {:.6g} s{}, N = {} (the smallest N with\n"
      "eq. 14 <= 1 for every eigenvalue; largest factor {:.6g}). Eq. 17's sufficient bound for the fastest\n"
      "eigenvalue: N >= {:.3g}. The paper's two eigenvalues alone would give N = {} (largest factor over all\n"
      "eigenvalues then {:.6g}).",
      design.calibration_checked ? ", at every point of the calibration range (the model's values and a grid of\n"
                                   "the range, docs/calibration.md), fixed for all of them"
                                 : "",
      d.inner_step, given ? " (given)" : " (from g_z's fastest eigenvalue)", d.inner_steps, d.worst_factor,
      d.eq17_bound, d.extremes_inner_steps, d.extremes_worst_factor);
  return design;
}

}  // namespace

std::vector<double> smfe_reference_step(const RightHandSide& f, double t, double macro_step, double inner_step,
                                        int inner_steps, const std::vector<double>& x0) {
  std::vector<double> x = x0, k;
  for (int i = 0; i < inner_steps; ++i) {
    f(t + i * inner_step, x, k);
    for (std::size_t j = 0; j < x.size(); ++j) x[j] += inner_step * k[j];
  }
  f(t + inner_steps * inner_step, x, k);
  const double last = macro_step - inner_steps * inner_step;
  for (std::size_t j = 0; j < x.size(); ++j) x[j] += last * k[j];
  return x;
}

namespace {

// The design for the model's design point, or (a bare Jacobian under analysis) for that Jacobian;
// with scheduled constants, h_s interpolated at each macro step's start and the grid's N; with
// the grid's N alone (verify's schedule_error), h_s as the schedule computes it at a grid point
// (fitted_inner_step) at the Jacobian of each macro step's start: the ideal it interpolates.
ReferenceStep reference(const ReferenceSetup& s, double d) {
  if (s.iterations > 0 && !s.scheduled) {
    return [jacobian = s.jacobian, slow = s.slow, n = s.iterations](const RightHandSide& f, double t, double h,
                                                                    const std::vector<double>& x) {
      double hs = 0;
      try {
        hs = fitted_inner_step(spectra(jacobian(t, x), slow).fast, h, n);
      } catch (const SmfeDesignError& e) {
        throw SimulationError(fmt::format("smfe re-designed at t = {:.6g}: {}", t, e.what()));
      }
      return smfe_reference_step(f, t, h, hs, n, x);
    };
  }
  if (s.scheduled) {
    if (s.iterations < 1) throw SimulationError("smfe's scheduled run needs the grid's N inner steps");
    return [constants = s.scheduled, n = s.iterations, step = s.scheduled_step](
               const RightHandSide& f, double t, double h, const std::vector<double>& x) {
      if (h != step)
        throw SimulationError(
            fmt::format("smfe's scheduled h_s is designed for the macro step {:.17g}, not {:.17g}", step, h));
      return smfe_reference_step(f, t, h, named(constants(t, x), "inner_step").value(0, 0), n, x);
    };
  }
  SmfeDesign design;
  if (s.model) {
    design = smfe_design_for(*s.model, d, smfe_options(s.options).inner_step);
  } else {
    const Spectra e = spectra(s.jacobian(0, {}), s.slow);
    design = smfe_design(e.all, e.slow, e.fast, d, smfe_options(s.options).inner_step);
  }
  return [design](const RightHandSide& f, double t, double h, const std::vector<double>& x) {
    return smfe_reference_step(f, t, h, design.inner_step, design.inner_steps, x);
  };
}

// The macro step in T (runtime_step.hpp): h_s and N the reference core's own design
// (smfe_design_for, the computation the generator makes), or the schedule's.
template <class T>
StepIn<T> reference_in(const ReferenceSetup& s, double d) {
  if (!s.model) throw SimulationError("smfe's exact step needs the model");
  if (s.design && s.design->schedule) {
    std::vector<double> points;
    for (const auto& point : s.design->schedule->constants) points.push_back(named(point, "inner_step").value(0, 0));
    return smfe_step_in<T>(s.design->schedule->iterations, 0, s.design->schedule->grid, points);
  }
  const SmfeDesign design = smfe_design_for(*s.model, d, smfe_options(s.options).inner_step);
  return smfe_step_in<T>(design.inner_steps, design.inner_step);
}

StepCost cost(const Model& model, const GenerateRequest&, const SchemeDesign& design) {
  return smfe_step_cost(model, designed<SmfeChoice>(design).inner_steps, design.schedule.get());
}

// N is chosen anew for each D, and eq. 14 is exact for a linear system (its factors are the
// eigenvalues of the implementation's map; tests/unit/schemes/smfe_test.cpp), so a D is stable when a
// design exists for it. When every eigenvalue lies in the inner step's forward-Euler disk
// |1 + h_s lambda| <= 1, one exists for every D >= 2 h_s (N = the whole inner steps that fit,
// the rest shorter than h_s); otherwise the scan runs from D = 2 h_s to 1000 h_s.
StableStepScan stable_step_scan(const Spectra& s, const SchemeOptions& options, double to) {
  StableStepScan scan;
  const std::optional<double> given = smfe_options(options).inner_step;
  double hs = 0;
  try {
    hs = given ? *given : smfe_default_inner_step(s.fast);
  } catch (const SmfeDesignError&) {
    scan.result = 0;
    return scan;
  }
  if ((1.0 + hs * s.all.array()).abs().maxCoeff() <= 1 + kStabilityMargin) {
    scan.result = std::numeric_limits<double>::infinity();
    scan.bounded = false;
    return scan;
  }
  scan.from = 2 * hs;
  scan.to = std::min(1000 * hs, to);
  scan.stable = [s, hs](double d) {
    try {
      smfe_design(s.all, s.slow, s.fast, d, hs);
      return true;
    } catch (const SmfeDesignError&) {
      return false;
    }
  };
  return scan;
}

// The design at h = D, for analyze (with scheduled constants, whether there is one: the
// schedule shortens h_s where it would not fit).
SchemeAnalysis analyse(const Model& model, double step, const SchemeOptions& options) {
  const std::optional<double> inner_step = smfe_options(options).inner_step;
  if (model.simulation.linearization == Linearization::kScheduled) {
    try {
      smfe_design_for(model, step, inner_step);
    } catch (const ModelError& e) {
      return {"", fmt::format("smfe's own design at the initial state: none ({})\n", e.what())};
    }
  }
  const SmfeDesign d = smfe_design_for(model, step, inner_step);
  const bool extremes_stable = d.extremes_worst_factor <= 1 + kStabilityMargin;
  SchemeAnalysis a;
  a.json = fmt::format(
      ",\"inner_step\":{:.17g},\"inner_steps\":{},\"eq14_largest_factor\":{:.17g},"
      "\"eq17_bound\":{:.6g},\"extremes_inner_steps\":{},\"extremes_largest_factor\":{:.17g},"
      "\"extremes_stable\":{},\"extremes_breaker\":[{:.17g},{:.17g}]",
      d.inner_step, d.inner_steps, d.worst_factor, d.eq17_bound, d.extremes_inner_steps, d.extremes_worst_factor,
      extremes_stable ? "true" : "false", d.extremes_breaker.real(), d.extremes_breaker.imag());
  a.text = fmt::format(
      "smfe design at D = {:.6g}: inner step h_s = {:.6g}, N = {} inner steps (eq. 14 for every "
      "eigenvalue, largest factor {:.6g}); eq. 17's bound N >= {:.3g}; the paper's two "
      "eigenvalues alone give N = {}, at which eigenvalue {:.6g}{:+.6g}i has factor {:.6g}{}\n",
      step, d.inner_step, d.inner_steps, d.worst_factor, d.eq17_bound, d.extremes_inner_steps,
      d.extremes_breaker.real(), d.extremes_breaker.imag(), d.extremes_worst_factor,
      extremes_stable ? "" : " (UNSTABLE)");
  return a;
}

// The design: h_s and N, or their schedule. Its stability along the trajectory is generate's
// check (stability_along_trajectory with design_step_map below).
std::string generate_note(const Model&, const GenerateRequest&, const SchemeDesign& design, const ScenarioTrajectory&) {
  const SmfeChoice& chosen = designed<SmfeChoice>(design);
  const std::vector<double>& scheduled = chosen.scheduled_inner_steps;
  if (!scheduled.empty()) {
    const auto [low, high] = std::minmax_element(scheduled.begin(), scheduled.end());
    return fmt::format("note: smfe with h_s scheduled from {:.6g} to {:.6g} s over the grid, N = {} inner steps\n",
                       *low, *high, chosen.inner_steps);
  }
  return fmt::format("note: smfe h_s = {:.6g} s, N = {} inner steps (eq. 14 at the initial state)\n", chosen.inner_step,
                     chosen.inner_steps);
}

}  // namespace

SchemeInfo smfe_scheme() {
  // N + 1 evaluations per macro step, N chosen per model (verify's float tolerance uses N + 1).
  SchemeInfo s;
  s.identity.name = "smfe";
  s.identity.runtime_class = "dualrate::Smfe";
  s.identity.header = "dualrate/schemes/smfe.hpp";
  s.traits.order = kSmfeOrder;
  s.identity.summary = "stabilized multirate forward Euler, N inner steps of h_s then one of D - N h_s, seed 001";
  s.traits.evaluations = 2;
  s.traits.takes_constants = true;
  s.traits.held_inputs = true;  // at each inner step's time; first order, so design tries the zero hold
  s.hooks.precompute = precompute;
  s.hooks.reference_step = reference;
  s.hooks.float_reference = reference_in<float>;
  s.hooks.double_reference = reference_in<double>;
  s.hooks.cost = cost;
  s.hooks.stable_step_scan = stable_step_scan;
  s.hooks.analyse = analyse;
  s.hooks.generate_note = generate_note;
  s.hooks.design_step_map = [](const SchemeDesign& design, const MatrixXd& j, std::size_t, double macro_step) {
    const SmfeChoice& chosen = designed<SmfeChoice>(design);
    return smfe_step_map(j, macro_step, chosen.inner_step, chosen.inner_steps);
  };
  s.traits.schedulable = true;
  s.traits.options = {{kInnerStepOption,
                       "smfe: the inner step h_s (default: from the fastest fast eigenvalue, dead-beat when it "
                       "is real)"}};
  return s;
}

}  // namespace dualrate
