#include "emit/generation.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "analysis/stability.hpp"
#include "analysis/stability_along_trajectory.hpp"
#include "analysis/stability_over_range.hpp"
#include "constant_schedule/constant_schedule.hpp"
#include "model/tunable.hpp"
#include "registry/registry.hpp"

namespace dualrate {

namespace {

void say(const GenerationRequest& r, const std::string& note) {
  if (r.note) r.note(note);
}

// The scheme's stability at the step over the calibration range (stability_over_range): the
// worst point, when unstable, is an error at the calibration range.
void check_stability_over_range(const Model& model, const GenerateRequest& g, const SchemeDesign& design,
                                const GenerationRequest& request) {
  if (!has_tunable(model)) return;
  const RangeStability r = stability_over_range(model, g.scheme, g.step, g.ratio, g.scheme_options, &design);
  if (r.growing > 0)
    say(request, fmt::format("note: the model itself grows at {} of the {} points of the calibration range checked "
                             "(fastest at {}: a mode at +{:.6g} 1/s), which a calibration there makes unstable "
                             "whatever the scheme; {} is judged there against the model's growth\n",
                             r.growing, r.points, r.growth_where, r.growth, g.scheme));
  if (r.stable) return;
  throw ModelError(calibration_range_loc(model),
                   fmt::format("{} at h = {} is unstable over the calibration range: the one-step map's spectral "
                               "radius (relative to the model's growth where it grows) reaches {:.6g} > 1 at {} (the "
                               "worst of the {} points checked: the model's "
                               "values, a grid of the ranges and a search from its worst points, the tables' extreme "
                               "patterns)",
                               g.scheme, g.step, r.spectral_radius, r.where, r.points),
                   "narrow the tunable values' ranges, or take a smaller step" + request.unstable_hint);
}

// The scheme along the scenario's trajectory, with the constants the header will have.
void check_along_trajectory(const Model& model, const GenerateRequest& g, const SchemeDesign& design,
                            const ScenarioTrajectory& trajectory, const GenerationRequest& request) {
  const TrajectoryStability along =
      stability_along_trajectory(model, g.scheme, g.step, g.ratio, g.scheme_options, trajectory, &design);
  if (along.stable) return;
  const Instability why = trajectory_instability(model, g.scheme, g.step, g.ratio, along);
  if (!along.advisory) throw ModelError(model.simulation.loc, why.message, why.hint + request.unstable_hint);
  say(request, "warning: " + why.message + " (hint: " + why.hint + ")\n");
}

// The scheme's linear stability at the initial state (unscheduled constants: scheduled ones
// are proven stable by the schedule's check over its grid, which precompute makes).
void check_initial_stability(const Model& model, const GenerateRequest& g, const GenerationRequest& request) {
  const bool refuse = !g.allow_unstable;
  const StabilityReport stability = analyze_stability(model, g.scheme, g.step, g.ratio, g.scheme_options,
                                                      refuse ? StepSearch::kWhenUnstable : StepSearch::kNever);
  if (stability.stable || !refuse) return;
  const Instability why = instability(model, stability, g.t_end);
  throw ModelError(model.simulation.loc, why.message, why.hint + request.unstable_hint);
}

}  // namespace

Generation generate_code(const Model& model, const GenerationRequest& request) {
  const GenerateRequest& g = request.request;
  const SchemeInfo* info = find_scheme(g.scheme);
  if (!info) throw std::invalid_argument(fmt::format("no scheme '{}' generates code", g.scheme));
  const bool scheduled = info->traits.schedulable && model.simulation.linearization == Linearization::kScheduled;
  const bool judged = request.judged && !g.allow_unstable && !scheduled;
  Generation out;
  const ScenarioTrajectory trajectory(model, g.t_end);
  if (request.judged && has_tunable(model)) require_finite_derived(model, g.scalar);
  if (request.judged && !scheduled) check_initial_stability(model, g, request);
  // A plant may grow (an unstable airframe): a note; a negative parameter in the growing state's
  // equation (a capacitance, mass or resistance) is more likely a slip: a warning.
  if (const std::string growth = request.judged ? growth_origin(model) : ""; !growth.empty())
    say(request, fmt::format("{}: {} itself grows at its initial state: {}; the scheme is judged against that "
                             "growth\n",
                             growth.find(" < 0") != std::string::npos ? "warning" : "note", model.name, growth));
  if (judged) info->hooks.check_trajectory(model, trajectory);
  out.design = precompute_scheme(model, g);
  if (judged) {
    check_stability_over_range(model, g, out.design, request);
    check_along_trajectory(model, g, out.design, trajectory, request);
  }
  refuse_lost_tunability(model, g, out.design);
  if (request.judged) {
    if (out.design.schedule) say(request, "note: " + schedule_summary(*out.design.schedule));
    say(request, info->hooks.generate_note(model, g, out.design, trajectory));
  }
  out.header = generate_traced_header(model, g, out.design);
  return out;
}

}  // namespace dualrate
