#include "design/design.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "analysis/stability.hpp"
#include "design/model_text.hpp"
#include "model/model.hpp"
#include "schemes/reference_core.hpp"
#include "schemes/registry.hpp"
#include "targets/cross_target.hpp"
#include "verify/verify.hpp"

namespace dualrate {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// m with every input held as `hold` (a Candidate::hold) says; empty: as m holds them.
Model with_holds(const Model& m, const std::string& hold) {
  return hold.empty() ? m : with_every_input_held(m, input_hold_named(hold));
}

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

// The high-accuracy solution at the rows of a run with step h, a row every `every` steps.
class Accurate {
 public:
  Accurate(const ReferenceCore& core, double t_end) : core_(core), t_end_(t_end) {}
  const Trace& at(double h, int every) {
    const auto key = std::make_pair(h, every);
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      // Output steps of at most t_end / 1000 (the integrator's first trial step is the output
      // step, which a stiff model can overflow on), rows at the run's.
      const long sub = std::max(1L, static_cast<long>(std::ceil(h / (t_end_ / 1000) - 1e-9)));
      RunOptions run{kHighAccuracy, h / static_cast<double>(sub), grid_end(h), every * static_cast<int>(sub)};
      it = cache_.emplace(key, core_.simulate(run)).first;
    }
    return it->second;
  }
  double grid_end(double h) const { return static_cast<double>(step_count(t_end_, h)) * h; }

 private:
  const ReferenceCore& core_;
  double t_end_;
  std::map<std::pair<double, int>, Trace> cache_;
};

// One scheme's runs on one model (with its linearization).
class SchemeRuns {
 public:
  SchemeRuns(const Model& model, const SchemeInfo& info, std::string linearization, double t_end, Accurate& accurate)
      : model_(model), info_(info), lin_(std::move(linearization)), t_end_(t_end), core_(model), accurate_(accurate) {}

  GenerateRequest request(double h, int ratio) const {
    GenerateRequest g{info_.name, h, ratio, ScalarType::kDouble, "design"};
    g.t_end = t_end_;
    return g;
  }
  SchemeDesign design(double h, int ratio) const {
    return precompute_scheme(model_, lin_ == "frozen", request(h, ratio));
  }

  // The error of the run at (h, ratio) against the high-accuracy solution; infinity when it
  // blows up.
  double error(double h, int ratio) {
    SchemeDesign d;
    try {
      d = design(h, ratio);
    } catch (const std::exception& e) {  // no design at this step (smfe: D below its inner step)
      no_design_ = e.what();
      return std::numeric_limits<double>::quiet_NaN();
    }
    const long steps = step_count(t_end_, h);
    const int every = ratio * static_cast<int>(std::max(1L, steps / (ratio * kErrorRows)));
    RunOptions run{info_.name, h, accurate_.grid_end(h), every};
    run.ratio = ratio;
    run.frozen_linearization = lin_ == "frozen";
    run.schedule = d.schedule;
    try {
      const Trace trace = core_.simulate(run);
      const double e = compare_traces(trace, accurate_.at(h, every), model_.states.size()).max_error;
      return std::isfinite(e) ? e : kInf;
    } catch (const SimulationError&) {
      return kInf;
    }
  }

  const Model& model() const { return model_; }
  // Why the last step without a design (error NaN) had none.
  const std::string& no_design() const { return no_design_; }

 private:
  std::string no_design_;
  const Model& model_;
  const SchemeInfo& info_;
  std::string lin_;
  double t_end_;
  ReferenceCore core_;
  Accurate& accurate_;
};

// The search of the largest step within tol among `grid` (largest first), not running the steps
// that are `dearer` (cost more than a candidate found within the tolerance); the index found or
// -1, with the trials appended and why it stopped when it found none (*all_dearer: every step
// left untried was dearer).
long search_steps(SchemeRuns& runs, const std::vector<double>& grid, int ratio, double tol,
                  const std::function<bool(std::size_t)>& dearer, std::vector<Trial>& trials, std::string& why,
                  bool* all_dearer) {
  std::map<std::size_t, double> errors;
  std::vector<std::size_t> finite;  // indices with a finite error, in the order run
  const auto eval = [&](std::size_t k) {
    if (!errors.count(k)) {
      errors[k] = runs.error(grid[k], ratio);
      trials.push_back({grid[k], ratio, errors[k]});
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
    if (e <= tol) return static_cast<long>(k);
    if (std::isnan(e)) {
      why = fmt::format("no design at step {:.4g} or below: {}", grid[k], runs.no_design());
      break;
    }
    if (std::isfinite(e) && plateau(k)) {
      why = fmt::format("its error stays near {:.3g} as the step falls (to {:.4g}): the scheme's own error is above "
                        "the tolerance",
                        e, grid[k]);
      break;
    }
  }
  *all_dearer = k == grid.size() && skipped;
  if (why.empty()) why = fmt::format("no step down to {:.4g} is within the tolerance", grid.back());
  if (!finite.empty()) {
    const std::size_t best = *std::min_element(finite.begin(), finite.end(),
                                               [&](std::size_t a, std::size_t b) { return errors[a] < errors[b]; });
    why += fmt::format(" (the smallest error, {:.3g}, at step {:.4g})", errors[best], grid[best]);
  }
  return -1;
}

// The largest stable step of the scheme at `ratio`, as `analyze` finds it, into c.
void stable_step(const Model& m, const SchemeInfo& info, int ratio, double t_end, Candidate& c) {
  const StabilityReport stability = analyze_stability(m, info.name, t_end / static_cast<double>(kMinSteps), ratio);
  c.max_stable_step = stability.max_stable_step;
  c.stable_bounded = stability.max_stable_step_bounded;
}

// The candidate of one scheme at one ratio (single-rate: 1), searched at the steps where it costs
// less than `bound` (operations per second of a candidate within the tolerance; infinity: none).
Candidate search(SchemeRuns& runs, const SchemeInfo& info, const std::string& lin, int ratio, double t_end,
                 const DesignRequest& r, double bound) {
  Candidate c;
  c.scheme = info.name;
  c.linearization = lin;
  c.dual_rate = info.dual_rate;
  c.ratio = ratio;
  // A dual-rate scheme's scan costs hundreds of macro-step maps (of the states and their
  // derivative histories): only its chosen ratio's is scanned (scheme_candidate), its search
  // starts at t_end / kMinSteps and finds the unstable steps by their runs.
  if (!info.dual_rate) stable_step(runs.model(), info, ratio, t_end, c);
  const std::vector<double> grid =
      design_steps(r, t_end, c.max_stable_step, c.stable_bounded, info.dual_rate ? ratio : 1);
  if (grid.empty()) {
    c.status = "inaccurate";
    const double lo = t_end / static_cast<double>(kMaxSteps);
    c.reason = c.max_stable_step > 0 && c.max_stable_step < lo
                   ? fmt::format("its largest stable step, {:.3g}, takes more than {} steps over the scenario",
                                 c.max_stable_step, kMaxSteps)
                   : std::string("no step to try (none makes whole macro steps over the scenario)");
    return c;
  }
  runs.design(grid.front(), ratio);  // a model the scheme refuses at any step: ModelError
  const double macro = info.dual_rate ? ratio : 1;
  const auto ops_per_second = [&](double h, long& ops) {
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
  const long found = search_steps(runs, grid, ratio, r.tolerance, dearer, c.trials, why, &all_dearer);
  if (found < 0 && all_dearer) {
    c.status = "dearer";
    c.reason = fmt::format("above the tolerance at every step run, and at every step not run costs more than {:.4g} "
                           "operations per second, what a candidate within the tolerance costs",
                           bound);
    return c;
  }
  if (found < 0) {
    c.status = "inaccurate";
    c.reason = why;
    return c;
  }
  std::size_t best = static_cast<std::size_t>(found);
  c.error = c.trials.back().error;
  double best_cost = ops_per_second(grid[best], c.ops_per_step);
  // A scheme whose operations per step fall with the step (smfe: fewer inner steps) can cost
  // less at a smaller one: the next steps are tried while one of the last two saved.
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
    const double e = runs.error(grid[j], ratio);
    c.trials.push_back({grid[j], ratio, e});
    if (!(e <= r.tolerance)) {
      ++misses;
      continue;
    }
    best = j;
    best_cost = cost;
    c.ops_per_step = ops;
    c.error = e;
    misses = 0;
  }
  c.step = grid[best];
  c.ops_per_second = best_cost;
  c.status = "ok";
  return c;
}

void measure_on_target(const Model& model, Candidate& c, const Design& d, const DesignRequest& r) {
  const CrossTarget* cross = find_cross_target(r.target);
  VerifyOptions v;
  v.generate = {c.scheme, c.step, c.ratio, scalar_type(cross->default_scalar), r.generator_version};
  v.frozen = c.linearization == "frozen";
  v.t_end = d.t_end;
  v.target = r.target;
  v.tasks = "single";
  v.cpu_hz = r.cpu_hz;
  v.cpi = r.cpi;
  const VerifyResult result = verify(model, v);
  c.bit_exact = result.bit_exact_vs_host;
  if (!result.error.empty() || !result.pass) {
    c.target_error = !result.error.empty() ? result.error
                                           : fmt::format("generated code on {} is {:.3g} from the reference core, "
                                                         "above verify's tolerance {:.3g}",
                                                         r.target, result.max_error, result.tolerance);
    return;
  }
  c.budget = result.budget;
  const double per_step = c.dual_rate ? result.fast_job.instructions_mean * c.ratio + result.slow_job.instructions_mean
                                      : result.instructions_per_step;
  c.instructions_per_step = per_step;
  if (c.budget) c.cycles_per_second = per_step * c.budget->cpi / (c.step * c.ratio);
}

}  // namespace

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

namespace {

int status_rank(const std::string& s) {
  static const std::vector<std::string> order{"chosen",     "ok",      "dearer", "not schedulable", "failed on target",
                                              "inaccurate", "refused"};
  return static_cast<int>(std::find(order.begin(), order.end(), s) - order.begin());
}

// The candidate of one scheme below `bound` (search): single-rate, its search; dual-rate, the
// cheapest of its ratios.
Candidate scheme_candidate(const Model& m, const SchemeInfo& info, const std::string& lin, double t_end,
                           Accurate& accurate, const DesignRequest& r, double bound) {
  SchemeRuns runs(m, info, lin, t_end, accurate);
  if (!info.dual_rate) return search(runs, info, lin, 1, t_end, r, bound);
  std::optional<Candidate> best;
  std::vector<Trial> trials;
  int worse = 0;
  for (int ratio : kRatios) {
    if (r.progress) r.progress(fmt::format("{}: ratio {}", info.name, ratio));
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
  if (r.progress) r.progress(fmt::format("{}: largest stable step at ratio {}", info.name, best->ratio));
  stable_step(m, info, best->ratio, t_end, *best);
  return *best;
}

// The high-accuracy solution's own error (between Odeint tolerances 1e-11 and 1e-12) into d;
// throws std::invalid_argument when the tolerance asked for is not ten times above it.
void estimate_accurate_error(const Model& model, const DesignRequest& r, Design& d) {
  const ReferenceCore core(model);
  RunOptions loose{kHighAccuracy, d.t_end / 2000, d.t_end, 10};
  loose.reference_tolerance = 1e-11;
  RunOptions tight = loose;
  tight.reference_tolerance = 1e-12;
  d.accurate_error = compare_traces(core.simulate(loose), core.simulate(tight), model.states.size()).max_error;
  if (r.tolerance < 10 * d.accurate_error)
    throw std::invalid_argument(fmt::format(
        "--tolerance {:g} is below what the high-accuracy solution resolves: its own error is about {:.2g} (between "
        "Odeint tolerances 1e-11 and 1e-12), and a design is checked against it; ask for {:.2g} or more",
        r.tolerance, d.accurate_error, 10 * d.accurate_error));
}

// The partition the candidates run on, into d: the file's for a second-order model or when none
// is found, else the proposed one. Returns the model file's text with it.
std::string partitioned_text(const Model& model, const std::string& text, Design& d) {
  d.partition = propose_partition(model, d.t_end);
  if (model.second_order || (!d.partition.found && model.partitioned)) {
    d.partitioned = model.fast_count() > 0;
    for (std::size_t i = model.slow_count; i < model.states.size(); ++i) d.fast.push_back(model.states[i].name);
    return text;
  }
  if (!d.partition.found) return text;
  d.partitioned = true;
  d.fast = d.partition.fast;
  std::string partitioned = with_partition(text, model, d.fast);
  if (!d.partition.agrees) d.states_block = states_block(partitioned);
  return partitioned;
}

// The holds a scheme is searched with (Candidate::hold): those up to its SchemeInfo::hold_degree.
std::vector<std::string> holds_to_try(const Model& m, const SchemeInfo& info) {
  if (!m.inputs_vary()) return {""};
  static const std::vector<std::string> holds{"zero", "linear", "quadratic"};
  return {holds.begin(), holds.begin() + 1 + info.hold_degree};
}

// The candidate of one scheme on the partitioned model m, or its refusal with the reason: the
// model lacks the states the scheme needs, or the scheme throws (an exact linearization that
// refuses is tried frozen first).
Candidate candidate_or_refusal(const Model& m, const SchemeInfo& info, const Design& d, Accurate& accurate,
                               const DesignRequest& r, double bound) {
  Candidate c;
  c.scheme = info.name;
  c.dual_rate = info.dual_rate;
  c.status = "refused";
  if (!info.uniform && !d.partitioned) {
    c.reason = "needs the slow/fast partition, and the model has none";
    return c;
  }
  if (info.dual_rate && (m.slow_count == 0 || m.fast_count() == 0)) {
    c.reason = "needs both slow and fast states";
    return c;
  }
  const bool linearized = info.linearization || info.schedulable;
  std::string lin = linearized ? m.simulation.linearization : "";
  try {
    if (info.check_trajectory) info.check_trajectory(m, d.t_end);
    try {
      c = scheme_candidate(m, info, lin, d.t_end, accurate, r, bound);
    } catch (const ModelError&) {
      // Blocks that are not constant: the exact linearization refuses; frozen ones may do.
      if (lin != "exact" || !info.linearization) throw;
      Model frozen = m;
      frozen.simulation.linearization = lin = "frozen";
      c = scheme_candidate(frozen, info, lin, d.t_end, accurate, r, bound);
    }
  } catch (const ModelError& e) {
    c.reason = e.what();
  } catch (const std::exception& e) {
    c.reason = e.what();
  }
  return c;
}

// Each candidate that meets the request, measured on r.target: "failed on target" or "not
// schedulable" when it does not hold there.
void measure_candidates_on_target(const Model& m, const DesignRequest& r, Design& d) {
  for (Candidate& c : d.candidates) {
    if (!c.meets()) continue;
    if (r.progress) r.progress(fmt::format("{} on {}", c.scheme, r.target));
    Model lm = with_holds(m, c.hold);
    if (!c.linearization.empty()) lm.simulation.linearization = c.linearization;
    measure_on_target(lm, c, d, r);
    if (!c.target_error.empty()) {
      c.status = "failed on target";
      c.reason = c.target_error;
    } else if (c.budget && !c.budget->schedulable) {
      c.status = "not schedulable";
      c.reason = c.budget->verdict;
    }
  }
}

// The candidates ranked by status, then by cost those that meet the request and by error the
// rest; the first chosen when it meets the request, the others that do costed against it.
void rank_and_choose(const DesignRequest& r, Design& d) {
  std::stable_sort(d.candidates.begin(), d.candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (status_rank(a.status) != status_rank(b.status)) return status_rank(a.status) < status_rank(b.status);
    if (a.meets()) return a.cost() < b.cost();
    const double ea = a.trials.empty() ? kInf : a.error, eb = b.trials.empty() ? kInf : b.error;
    return ea < eb;
  });
  if (d.candidates.empty() || !d.candidates.front().meets()) return;
  d.choice = 0;
  Candidate& chosen = d.candidates.front();
  chosen.status = "chosen";
  chosen.reason =
      "the cheapest that is stable and within the tolerance" + std::string(r.target.empty() ? "" : " and schedulable");
  for (std::size_t i = 1; i < d.candidates.size(); ++i)
    if (d.candidates[i].meets())
      d.candidates[i].reason = fmt::format("costs {:.2f} times the choice", d.candidates[i].cost() / chosen.cost());
}

}  // namespace

Design design(const Model& model, const std::string& text, const DesignRequest& r) {
  if (!(r.tolerance > 0) || !std::isfinite(r.tolerance))
    throw std::invalid_argument("--tolerance must be a positive number");
  Design d;
  d.model = model.name;
  d.tolerance = r.tolerance;
  d.t_end = model.simulation.t_end;
  d.target = r.target;
  d.period = r.period;
  d.schemes = r.schemes;
  const auto say = [&r](const std::string& what) {
    if (r.progress) r.progress(what);
  };
  say("the high-accuracy solution");
  estimate_accurate_error(model, r, d);
  say("the partition");
  const Model m = load_model_text(partitioned_text(model, text, d), model.file, r.parameters);
  const ReferenceCore partitioned_core(m);
  Accurate accurate(partitioned_core, d.t_end);
  // Without a target, where candidates rank by operations, a step that costs more than a
  // candidate already within the tolerance is not run (branch and bound) unless r.exhaustive; the
  // higher holds, often the cheaper, first. With one they rank by the target's cycles, and every
  // candidate is searched.
  double bound = kInf;
  for (const SchemeInfo* info : schemes()) {
    if (!r.schemes.empty() && std::find(r.schemes.begin(), r.schemes.end(), info->name) == r.schemes.end()) continue;
    const std::vector<std::string> holds = holds_to_try(m, *info);
    for (auto hold = holds.rbegin(); hold != holds.rend(); ++hold) {
      say(hold->empty() || *hold == "zero" ? info->name : fmt::format("{}, hold {}", info->name, *hold));
      Candidate c = candidate_or_refusal(with_holds(m, *hold), *info, d, accurate, r, bound);
      c.hold = *hold;
      if (r.target.empty() && !r.exhaustive && c.meets()) bound = std::min(bound, c.ops_per_second);
      d.candidates.push_back(std::move(c));
    }
  }
  if (!r.target.empty()) measure_candidates_on_target(m, r, d);
  rank_and_choose(r, d);
  return d;
}

std::string designed_text(const Design& d, const Candidate& c, const Model& model, const std::string& text) {
  std::vector<std::string> declared;
  for (std::size_t i = model.slow_count; i < model.states.size(); ++i) declared.push_back(model.states[i].name);
  const bool repartition = d.partitioned && !model.second_order && (d.fast != declared || !model.partitioned);
  const std::string partitioned = repartition ? with_partition(text, model, d.fast) : text;
  DesignedSimulation sim{c.scheme, c.step, c.dual_rate ? c.ratio : 1, ""};
  if (!c.linearization.empty() && c.linearization != model.simulation.linearization) sim.linearization = c.linearization;
  const std::string simulated = with_simulation(partitioned, sim);
  const Model held = with_holds(model, c.hold);
  bool same = true;
  for (std::size_t i = 0; i < model.inputs.size(); ++i) same = same && held.inputs[i].hold == model.inputs[i].hold;
  return same ? simulated : with_input_holds(simulated, held);
}

}  // namespace dualrate
