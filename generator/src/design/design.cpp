#include "design/design.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "design/model_text.hpp"
#include "design/step_search.hpp"
#include "model/model.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"
#include "targets/cross_target.hpp"
#include "verify/verify.hpp"

namespace dualrate {

namespace {

// m with every input held as `hold` (a Candidate::hold) says; empty: as m holds them.
Model with_holds(const Model& m, const std::string& hold) {
  return hold.empty() ? m : with_every_input_held(m, input_hold_named(hold));
}

// The instructions of candidate c's step (dual-rate: of a macro step, ratio ticks and a slow
// job) as verify counted them on the target.
std::optional<double> counted_instructions(const VerifyResult& v, const Candidate& c) {
  if (c.dual_rate)
    return v.fast_job && v.slow_job
               ? std::optional<double>(v.fast_job->instructions_mean * c.ratio + v.slow_job->instructions_mean)
               : std::nullopt;
  return v.target_cost && v.target_cost->instructions ? std::optional<double>(v.target_cost->instructions->mean)
                                                      : std::nullopt;
}

// m as candidate c was designed: its inputs' hold and its linearization.
Model as_designed(const Model& m, const Candidate& c) {
  Model designed = with_holds(m, c.hold);
  if (c.linearization) designed.simulation.linearization = *c.linearization;
  return designed;
}

// Candidate c verified on r.target: its instructions and cycles, or why it failed there.
void measure_on_target(const Model& model, Candidate& c, const Design& d, const DesignRequest& r) {
  const CrossTarget* cross = find_cross_target(r.target);
  VerifyOptions v;
  v.generate = {c.scheme, c.step, c.ratio, scalar_type(cross->default_scalar), r.generator_version};
  v.generate.scheme_options = scheme_options_for(model, *find_scheme(c.scheme));
  v.t_end = d.t_end;
  v.target = r.target;
  v.tasks = Tasks::kSingle;
  v.cpu_hz = r.cpu_hz;
  v.cpi = r.cpi;
  const VerifyResult result = verify(model, v);
  if (result.bit_exact_vs_host) c.bit_exact = *result.bit_exact_vs_host ? 1 : 0;
  if (!result.error.empty() || !result.pass) {
    c.target_error = !result.error.empty() ? result.error
                                           : fmt::format(
                                                 "generated code on {} is {:.3g} from the reference core, "
                                                 "above verify's tolerance {:.3g}",
                                                 r.target, result.max_error, result.tolerance);
    return;
  }
  c.budget = result.budget;
  const std::optional<double> per_step = counted_instructions(result, c);
  if (!per_step) return;
  c.instructions_per_step = *per_step;
  if (c.budget) c.cycles_per_second = *per_step * c.budget->cpi / (c.step * c.ratio);
}

// The high-accuracy solution's own error into d: the larger of Odeint's Dormand-Prince 5(4) at tolerances
// 1e-11 and 1e-12 against each other and the candidates' dense solution (`accurate`) against the
// latter, at 200 rows, on the states relative to max(1, max_t |x|); throws std::invalid_argument
// when a state's or output's tolerance is not ten times above that error, measured as the
// tolerance measures it.
void estimate_accurate_error(const Model& model, const ReferenceCore& core, Accurate& accurate, const DesignRequest& r,
                             Design& d) {
  RunOptions loose{kHighAccuracy, d.t_end / 2000, d.t_end, 10};
  loose.reference_tolerance = 1e-11;
  RunOptions tight = loose;
  tight.reference_tolerance = 1e-12;
  const Trace tight_run = core.simulate(tight), loose_run = core.simulate(loose);
  const Trace& dense = accurate.at(loose.step, 10);
  d.accurate_error = std::max(compare_traces(loose_run, tight_run, model.states.size()).max_error,
                              compare_traces(dense, tight_run, model.states.size()).max_error);
  const std::vector<ColumnTolerance> tolerances = column_tolerances(model, r.tolerance);
  const Comparison a = compare_traces(loose_run, tight_run, tolerances);
  const Comparison b = compare_traces(dense, tight_run, tolerances);
  const Comparison& worse = a.share >= b.share ? a : b;
  if (worse.share > 0.1) {
    const std::size_t j = worse.worst_column - 1;
    const std::string name = model.state_and_output_names()[j];
    throw std::invalid_argument(fmt::format(
        "the tolerance of {}, {:g}{}, is below what the high-accuracy solution resolves: its own error there is about "
        "{:.2g} (between Odeint tolerances 1e-11 and 1e-12), and a design is checked against it; ask for {:.2g} or "
        "more",
        name, tolerances[j].value, tolerances[j].absolute ? " (absolute)" : "", worse.max_error, 10 * worse.max_error));
  }
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

// The holds a scheme is searched with (Candidate::hold): those up to its SchemeTraits::hold_degree.
std::vector<std::string> holds_to_try(const Model& m, const SchemeInfo& info) {
  if (!m.inputs_vary()) return {""};
  static const std::vector<std::string> holds{"zero", "linear", "quadratic"};
  return {holds.begin(), holds.begin() + 1 + info.traits.hold_degree};
}

// The candidate of a scheme at the model's linearization, or, when that refuses the model (an
// exact one whose blocks are not constant), at the next one the scheme takes.
Candidate linearized_candidate(const Model& m, const SchemeInfo& info, const Design& d, Accurate& accurate,
                               const DesignRequest& r, double bound) {
  std::optional<Linearization> lin;
  if (!info.traits.linearizations.empty() || info.traits.schedulable) lin = m.simulation.linearization;
  try {
    return scheme_candidate(m, info, lin, d.t_end, accurate, r, bound);
  } catch (const ModelError&) {
    const std::vector<Linearization>& taken = info.traits.linearizations;
    const auto at = std::find(taken.begin(), taken.end(), m.simulation.linearization);
    if (at == taken.end() || std::next(at) == taken.end()) throw;
    Model next = m;
    next.simulation.linearization = *std::next(at);
    return linearized_candidate(next, info, d, accurate, r, bound);
  }
}

// The candidate of one scheme on the partitioned model m, or its refusal with the reason: the
// model lacks the states the scheme needs, or the scheme throws (when the model's linearization
// refuses, after the scheme's other linearizations: SchemeTraits::linearizations).
Candidate candidate_or_refusal(const Model& m, const SchemeInfo& info, const Design& d, Accurate& accurate,
                               const DesignRequest& r, double bound) {
  Candidate c;
  c.scheme = info.identity.name;
  c.dual_rate = info.traits.dual_rate;
  c.status = CandidateStatus::kRefused;
  if (!info.traits.uniform && !d.partitioned) {
    c.reason = "needs the slow/fast partition, and the model has none";
    return c;
  }
  if (info.traits.dual_rate && (m.slow_count == 0 || m.fast_count() == 0)) {
    c.reason = "needs both slow and fast states";
    return c;
  }
  try {
    info.hooks.check_trajectory(m, ScenarioTrajectory(m, d.t_end));
    c = linearized_candidate(m, info, d, accurate, r, bound);
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
    measure_on_target(as_designed(m, c), c, d, r);
    if (!c.target_error.empty()) {
      c.status = CandidateStatus::kFailedOnTarget;
      c.reason = c.target_error;
    } else if (c.budget && !c.budget->schedulable) {
      c.status = CandidateStatus::kNotSchedulable;
      c.reason = c.budget->verdict;
    }
  }
}

// The candidates ranked by status, then by cost those that meet the request and by error the
// rest; the first chosen when it meets the request, the others that do costed against it.
void rank_and_choose(const DesignRequest& r, Design& d) {
  std::stable_sort(d.candidates.begin(), d.candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.status != b.status) return a.status < b.status;
    if (a.meets()) return a.cost() < b.cost();
    const double ea = a.trials.empty() ? kInf : a.error_share, eb = b.trials.empty() ? kInf : b.error_share;
    return ea < eb;
  });
  if (d.candidates.empty() || !d.candidates.front().meets()) return;
  d.choice = 0;
  Candidate& chosen = d.candidates.front();
  chosen.status = CandidateStatus::kChosen;
  chosen.reason =
      "the cheapest that is stable and within the tolerance" + std::string(r.target.empty() ? "" : " and schedulable");
  for (std::size_t i = 1; i < d.candidates.size(); ++i)
    if (d.candidates[i].meets())
      d.candidates[i].reason = fmt::format("costs {:.2f} times the choice", d.candidates[i].cost() / chosen.cost());
}

}  // namespace

Design design(const Model& model, const std::string& text, const DesignRequest& r) {
  if (r.tolerance.empty()) throw std::invalid_argument("design needs a tolerance: relative, or absolute ones");
  Design d;
  d.model = model.name;
  d.tolerance = r.tolerance;
  d.t_end = model.simulation.t_end;
  d.inputs_sampled_before_start = model.simulation.inputs_sampled_before_start;
  d.target = r.target;
  d.period = r.period;
  d.schemes = r.schemes;
  const auto say = [&r](const std::string& what) {
    if (r.progress) r.progress(what);
  };
  say("the partition");
  const Model m = load_model_text(partitioned_text(model, text, d), model.file, r.parameters);
  const ReferenceCore partitioned_core(m);
  Accurate accurate(partitioned_core, d.t_end);
  say("the high-accuracy solution");
  estimate_accurate_error(m, partitioned_core, accurate, r, d);
  // Without a target, where candidates rank by operations, a step that costs more than a
  // candidate already within the tolerance is not run (branch and bound) unless r.exhaustive; the
  // higher holds, often the cheaper, first. With one they rank by the target's cycles, and every
  // candidate is searched.
  double bound = kInf;
  for (const SchemeInfo* info : schemes()) {
    if (!r.schemes.empty() && std::find(r.schemes.begin(), r.schemes.end(), info->identity.name) == r.schemes.end())
      continue;
    const std::vector<std::string> holds = holds_to_try(m, *info);
    for (auto hold = holds.rbegin(); hold != holds.rend(); ++hold) {
      say(hold->empty() || *hold == "zero" ? info->identity.name
                                           : fmt::format("{}, hold {}", info->identity.name, *hold));
      Candidate c = candidate_or_refusal(with_holds(m, *hold), *info, d, accurate, r, bound);
      c.hold = *hold;
      if (r.target.empty() && !r.exhaustive && c.meets()) bound = std::min(bound, c.ops_per_second);
      d.candidates.push_back(std::move(c));
    }
  }
  if (!r.target.empty()) measure_candidates_on_target(m, r, d);
  rank_and_choose(r, d);
  if (d.choice >= 0) {
    Candidate& chosen = d.candidates[static_cast<std::size_t>(d.choice)];
    split_error(as_designed(m, chosen), *find_scheme(chosen.scheme), d.t_end, accurate, r.tolerance, chosen);
  }
  return d;
}

std::string designed_text(const Design& d, const Candidate& c, const Model& model, const std::string& text) {
  std::vector<std::string> declared;
  for (std::size_t i = model.slow_count; i < model.states.size(); ++i) declared.push_back(model.states[i].name);
  const bool repartition = d.partitioned && !model.second_order && (d.fast != declared || !model.partitioned);
  const std::string partitioned = repartition ? with_partition(text, model, d.fast) : text;
  DesignedSimulation sim{c.scheme, c.step, c.dual_rate ? c.ratio : 1, ""};
  if (c.linearization && *c.linearization != model.simulation.linearization)
    sim.linearization = to_string(*c.linearization);
  sim.without_scheme_options =
      scheme_options_for(model, *find_scheme(c.scheme)).size() < model.simulation.scheme_options.size();
  const std::string simulated = with_simulation(partitioned, sim);
  const Model held = with_holds(model, c.hold);
  bool same = true;
  for (std::size_t i = 0; i < model.inputs.size(); ++i) same = same && held.inputs[i].hold == model.inputs[i].hold;
  return same ? simulated : with_input_holds(simulated, held);
}

}  // namespace dualrate
