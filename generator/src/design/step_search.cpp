#include "design/step_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "analysis/stability.hpp"
#include "registry/registry.hpp"

namespace dualrate {

namespace {

// The R10 preferred numbers in [lo, hi], largest first.
std::vector<double> preferred_steps(double hi, double lo) {
  static const double r10[] = {8, 6.3, 5, 4, 3.15, 2.5, 2, 1.6, 1.25, 1};
  std::vector<double> steps;
  for (int e = static_cast<int>(std::ceil(std::log10(hi))); e >= static_cast<int>(std::floor(std::log10(lo))) - 1; --e)
    for (double m : r10) {
      const double h = std::stod(fmt::format("{}e{}", m, e));  // exact decimal, not m * 10^e rounded twice
      if (h <= hi * (1 + 1e-12) && h >= lo) steps.push_back(h);
    }
  return steps;
}

// P / k in [lo, hi], largest first.
std::vector<double> period_steps(double period, double hi, double lo) {
  std::vector<double> steps;
  for (long k = std::max(1L, static_cast<long>(std::ceil(period / hi * (1 - 1e-12)))); period / k >= lo; ++k)
    if (period / static_cast<double>(k) <= hi * (1 + 1e-12)) steps.push_back(period / static_cast<double>(k));
  return steps;
}

// One scheme's runs on one model (with its linearization).
class SchemeRuns {
 public:
  SchemeRuns(const Model& model, const SchemeInfo& info, double t_end, Accurate& accurate,
             const ErrorTolerance& tolerance)
      : model_(model),
        info_(info),
        t_end_(t_end),
        tolerances_(column_tolerances(model, tolerance)),
        core_(model),
        accurate_(accurate),
        scheme_options_(scheme_options_for(model, info)) {}

  GenerateRequest request(double h, int ratio) const {
    GenerateRequest g{info_.identity.name, h, ratio, ScalarType::kDouble, "design"};
    g.t_end = t_end_;
    g.scheme_options = scheme_options_;
    return g;
  }
  SchemeDesign design(double h, int ratio) const { return precompute_scheme(model_, request(h, ratio)); }

  RunOptions options(double h, int ratio, int every, const SchemeDesign& d) const {
    RunOptions run{info_.identity.name, h, accurate_.grid_end(h), every};
    run.ratio = ratio;
    run.scheme_options = scheme_options_;
    run.schedule = d.schedule;
    return run;
  }
  // The run at (h, ratio) with its design d, a row every `every` steps (throws the run's errors).
  Trace run(double h, int ratio, int every, const SchemeDesign& d) const {
    return core_.simulate(options(h, ratio, every, d));
  }
  // A dual-rate run's state and outputs before every fast tick (ReferenceCore::tick_trace: the
  // tasks' state() and outputs(), the slow states interpolated between releases) against the
  // high-accuracy solution there.
  Comparison every_tick(double h, int ratio, const SchemeDesign& d) {
    const Trace ticks = core_.tick_trace(options(h, ratio, 1, d), 1);
    Trace accurate = accurate_.at(h, 1);
    accurate.rows.resize(ticks.rows.size());
    return compare_traces(ticks, accurate, tolerances_);
  }
  int every(double h, int ratio) const {
    return ratio * static_cast<int>(std::max(1L, step_count(t_end_, h) / (ratio * kErrorRows)));
  }

  // The trial of the run at (h, ratio) against the high-accuracy solution, at most kErrorRows
  // samples of it; where that is within the tolerance, at every step (dual-rate: every macro
  // step, then every fast tick), where the transients between samples show (an input's jump, an
  // overshooting mode). Its error is NaN without a design, infinity when the run blows up.
  Trial trial(double h, int ratio) {
    Trial t{h, ratio, 0, 0, 0, {}, false};
    SchemeDesign d;
    try {
      d = design(h, ratio);
    } catch (const std::exception& e) {  // no design at this step (smfe: D below its inner step)
      no_design_ = e.what();
      t.error = t.share = std::numeric_limits<double>::quiet_NaN();
      return t;
    }
    try {
      const int sampled = every(h, ratio);
      Comparison c = compare_traces(run(h, ratio, sampled, d), accurate_.at(h, sampled), tolerances_);
      if (c.share <= 1 && sampled > ratio)
        c = compare_traces(run(h, ratio, ratio, d), accurate_.at(h, ratio), tolerances_);
      if (c.share <= 1 && info_.traits.dual_rate) {
        const Comparison ticks = every_tick(h, ratio, d);
        if (!(ticks.share <= c.share)) c = ticks;
      }
      t.error = std::isfinite(c.max_error) ? c.max_error : kInf;
      t.share = std::isfinite(c.share) ? c.share : kInf;
      if (c.share <= 1) {
        t.time = c.worst_time;
        t.where = column_name(c.worst_column);
        t.absolute = tolerances_[c.worst_column - 1].absolute;
      }
    } catch (const SimulationError&) {
      t.error = t.share = kInf;
    }
    return t;
  }

  // The error at step h (dual-rate: fast step h, H = ratio h) split: the hold's, the
  // high-accuracy solution with the inputs held as the (fast) steps hold them against the
  // continuous one, and the integration's, the run against that solution; at every step, on the
  // states and outputs, as trial() checks a step within the tolerance.
  std::pair<double, double> error_split(double h, int ratio) const {
    const int rows = ratio;
    RunOptions held{kHighAccuracy, h, accurate_.grid_end(h), rows};
    held.inputs_held = true;
    const Trace accurate_held = core_.simulate(held);
    return {compare_traces(accurate_held, accurate_.at(h, rows), tolerances_).max_error,
            compare_traces(run(h, ratio, rows, design(h, ratio)), accurate_held, tolerances_).max_error};
  }

  const Model& model() const { return model_; }
  // The name of a trace's column of states and outputs (1-based, after the time).
  std::string column_name(std::size_t column) const {
    const std::size_t i = column - 1;
    return i < model_.states.size() ? model_.states[i].name : model_.outputs[i - model_.states.size()].name;
  }
  // Why the last step without a design (error NaN) had none.
  const std::string& no_design() const { return no_design_; }

 private:
  std::string no_design_;
  const Model& model_;
  const SchemeInfo& info_;
  double t_end_;
  std::vector<ColumnTolerance> tolerances_;  // of the states, then the outputs
  ReferenceCore core_;
  Accurate& accurate_;
  SchemeOptions scheme_options_;  // the file's that the scheme takes (scheme_options_for)
};

// The search of the largest step within the tolerance among `grid` (largest first), not running
// the steps that are `dearer` (cost more than a candidate found within the tolerance); the index
// found or -1, with the trials appended and why it stopped when it found none (*all_dearer: every
// step left untried was dearer).
long search_steps(SchemeRuns& runs, const std::vector<double>& grid, int ratio,
                  const std::function<bool(std::size_t)>& dearer, std::vector<Trial>& trials, std::string& why,
                  bool* all_dearer) {
  std::map<std::size_t, double> errors;  // Trial::share
  std::vector<std::size_t> finite;       // indices with a finite error, in the order run
  const auto eval = [&](std::size_t k) {
    if (!errors.count(k)) {
      trials.push_back(runs.trial(grid[k], ratio));
      errors[k] = trials.back().share;
      if (std::isfinite(errors[k])) finite.push_back(k);
    }
    return errors[k];
  };
  // The finite errors at steps from h_k up to 10 h_k, three or more spanning a factor of 2.5,
  // within 1.25 of each other.
  const auto plateau = [&](std::size_t k) {
    double lo = kInf, hi = 0, big = 0;
    int count = 0;
    for (std::size_t i : finite)
      if (grid[i] >= grid[k] && grid[i] <= 10 * grid[k]) {
        lo = std::min(lo, errors[i]);
        hi = std::max(hi, errors[i]);
        big = std::max(big, grid[i]);
        ++count;
      }
    return count >= 3 && hi <= 1.25 * lo && big >= 2.5 * grid[k];
  };
  std::size_t k = 0;
  bool skipped = false;
  for (; k < grid.size(); ++k) {
    if (dearer(k)) {
      skipped = true;
      continue;
    }
    const double e = eval(k);
    if (e <= 1) return static_cast<long>(k);
    if (std::isnan(e)) {
      why = fmt::format("no design at step {:.4g} or below: {}", grid[k], runs.no_design());
      break;
    }
    if (std::isfinite(e) && plateau(k)) {
      why = fmt::format(
          "its error stays near {:.3g} times the tolerance as the step falls (to {:.4g}): the scheme's "
          "own error is above the tolerance",
          e, grid[k]);
      break;
    }
  }
  *all_dearer = k == grid.size() && skipped;
  if (why.empty()) why = fmt::format("no step down to {:.4g} is within the tolerance", grid.back());
  if (!finite.empty()) {
    const std::size_t best = *std::min_element(finite.begin(), finite.end(),
                                               [&](std::size_t a, std::size_t b) { return errors[a] < errors[b]; });
    why += fmt::format(" (the smallest error, {:.3g} times the tolerance, at step {:.4g})", errors[best], grid[best]);
  }
  return -1;
}

// The largest stable step of the scheme at `ratio`, as `analyze` finds it, into c.
void stable_step(const Model& m, const SchemeInfo& info, int ratio, double t_end, Candidate& c) {
  const StabilityReport stability = analyze_stability(m, info.identity.name, t_end / static_cast<double>(kMinSteps),
                                                      ratio, scheme_options_for(m, info));
  c.max_stable_step = stability.max_stable_step;
  c.stable_bounded = stability.max_stable_step_bounded;
}

// Trial t's error into c.
void take_error(const Trial& t, Candidate& c) {
  c.error = t.error;
  c.error_share = t.share;
  c.error_time = t.time;
  c.error_where = t.where;
  c.error_absolute = t.absolute;
}

// From grid[found], the first step within the tolerance, into c: the cheapest step within it, its
// error, operations per step and per second. A scheme whose operations per step fall with the step
// (smfe: fewer inner steps) can cost less at a smaller one: the next steps are tried while one of
// the last two saved.
void cheapest_step(SchemeRuns& runs, const std::vector<double>& grid, std::size_t found, int ratio,
                   const std::function<double(double, long&)>& ops_per_second, Candidate& c) {
  std::size_t best = found;
  double best_cost = ops_per_second(grid[best], c.ops_per_step);
  int misses = 0;
  for (std::size_t j = best + 1; j < grid.size() && misses < 2; ++j) {
    long ops = 0;
    double cost = 0;
    try {
      cost = ops_per_second(grid[j], ops);
    } catch (const std::exception&) {
      break;
    }
    if (cost >= best_cost) {
      ++misses;
      continue;
    }
    c.trials.push_back(runs.trial(grid[j], ratio));
    if (!(c.trials.back().share <= 1)) {
      ++misses;
      continue;
    }
    best = j;
    best_cost = cost;
    c.ops_per_step = ops;
    take_error(c.trials.back(), c);
    misses = 0;
  }
  c.step = grid[best];
  c.ops_per_second = best_cost;
}

// The candidate of one scheme at one ratio (single-rate: 1), searched at the steps where it costs
// less than `bound` (operations per second of a candidate within the tolerance; infinity: none).
Candidate search(SchemeRuns& runs, const SchemeInfo& info, std::optional<Linearization> lin, int ratio, double t_end,
                 const DesignRequest& r, double bound) {
  Candidate c;
  c.scheme = info.identity.name;
  c.linearization = lin;
  c.dual_rate = info.traits.dual_rate;
  c.ratio = ratio;
  // A dual-rate scheme's scan costs hundreds of macro-step maps (of the states and their
  // derivative histories): only its chosen ratio's is scanned (scheme_candidate), its search
  // starts at t_end / kMinSteps and finds the unstable steps by their runs.
  if (!info.traits.dual_rate) stable_step(runs.model(), info, ratio, t_end, c);
  const std::vector<double> grid =
      design_steps(r, t_end, c.max_stable_step, c.stable_bounded, info.traits.dual_rate ? ratio : 1);
  if (grid.empty()) {
    c.status = CandidateStatus::kInaccurate;
    const double lo = t_end / static_cast<double>(kMaxSteps);
    c.reason = c.max_stable_step > 0 && c.max_stable_step < lo
                   ? fmt::format("its largest stable step, {:.3g}, takes more than {} steps over the scenario",
                                 c.max_stable_step, kMaxSteps)
                   : std::string("no step to try (none makes whole macro steps over the scenario)");
    return c;
  }
  runs.design(grid.front(), ratio);  // a model the scheme refuses at any step: ModelError
  const double macro = info.traits.dual_rate ? ratio : 1;
  const std::function<double(double, long&)> ops_per_second = [&](double h, long& ops) {
    ops = step_cost(runs.model(), runs.request(h, ratio), runs.design(h, ratio)).ops.total();
    return static_cast<double>(ops) / (h * macro);
  };
  const auto dearer = [&](std::size_t k) {
    if (!std::isfinite(bound)) return false;
    long ops = 0;
    try {
      return ops_per_second(grid[k], ops) >= bound;
    } catch (const std::exception&) {
      return false;  // no design at this step: the run says so
    }
  };
  std::string why;
  bool all_dearer = false;
  const long found = search_steps(runs, grid, ratio, dearer, c.trials, why, &all_dearer);
  if (found < 0 && all_dearer) {
    c.status = CandidateStatus::kDearer;
    c.reason = fmt::format(
        "above the tolerance at every step run, and at every step not run costs more than {:.4g} "
        "operations per second, what a candidate within the tolerance costs",
        bound);
    return c;
  }
  if (found < 0) {
    c.status = CandidateStatus::kInaccurate;
    c.reason = why;
    return c;
  }
  take_error(c.trials.back(), c);
  cheapest_step(runs, grid, static_cast<std::size_t>(found), ratio, ops_per_second, c);
  c.status = CandidateStatus::kOk;
  return c;
}

}  // namespace

void split_error(const Model& m, const SchemeInfo& info, double t_end, Accurate& accurate,
                 const ErrorTolerance& tolerance, Candidate& c) {
  if (!m.inputs_vary() || !c.meets()) return;
  const SchemeRuns runs(m, info, t_end, accurate, tolerance);
  try {
    std::tie(c.hold_error, c.integration_error) = runs.error_split(c.step, c.dual_rate ? c.ratio : 1);
  } catch (const SimulationError&) {  // measured before: a failure here leaves the split unknown
  }
}

std::vector<double> design_steps(const DesignRequest& r, double t_end, double max_stable_step, bool bounded,
                                 int stride) {
  double hi = t_end / static_cast<double>(kMinSteps);
  if (max_stable_step > 0 && bounded) hi = std::min(hi, max_stable_step);
  const double lo = t_end / static_cast<double>(kMaxSteps);
  std::vector<double> all = r.period ? period_steps(*r.period, hi, lo) : preferred_steps(hi, lo);
  if (stride <= 1) return all;
  std::vector<double> whole;
  for (double h : all)
    if (step_count(t_end, h) % stride == 0) whole.push_back(h);
  return whole;
}

Candidate scheme_candidate(const Model& m, const SchemeInfo& info, std::optional<Linearization> lin, double t_end,
                           Accurate& accurate, const DesignRequest& r, double bound) {
  SchemeRuns runs(m, info, t_end, accurate, r.tolerance);
  if (!info.traits.dual_rate) return search(runs, info, lin, 1, t_end, r, bound);
  std::optional<Candidate> best;
  std::vector<Trial> trials;
  int worse = 0;
  for (int ratio : kRatios) {
    if (r.progress) r.progress(fmt::format("{}: ratio {}", info.identity.name, ratio));
    const double below = best && best->meets() ? std::min(bound, best->ops_per_second) : bound;
    Candidate c = search(runs, info, lin, ratio, t_end, r, below);
    trials.insert(trials.end(), c.trials.begin(), c.trials.end());
    const bool better = c.meets() && (!best || !best->meets() || c.ops_per_second < best->ops_per_second);
    if (better || !best) {
      best = c;
      worse = 0;
    } else if (++worse >= 2 && best->meets()) {
      break;
    }
  }
  best->trials = trials;
  if (!best->meets()) return *best;
  if (r.progress) r.progress(fmt::format("{}: largest stable step at ratio {}", info.identity.name, best->ratio));
  stable_step(m, info, best->ratio, t_end, *best);
  return *best;
}

}  // namespace dualrate
