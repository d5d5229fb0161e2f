#include "analysis/stability_along_trajectory.hpp"

#include <fmt/format.h>

#include <functional>
#include <memory>

#include "base/text_io.hpp"
#include "reference/sampled_trajectory.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"

namespace dualrate {

namespace {

// The judgement of the scheme's map at a point's Jacobian, or empty with why not in r.not_judged.
using PointJudge = std::function<MapJudgement(const Eigen::MatrixXd& j)>;

PointJudge point_judge(const Model& model, const std::string& scheme, double h, int ratio, const SchemeOptions& options,
                       double t_end, const SchemeDesign* given, TrajectoryStability& r) {
  const SchemeInfo* info = find_any_scheme(scheme);
  if (!info || !info->traits.takes_constants)
    return [=](const Eigen::MatrixXd& j) { return MapRadius(scheme, j, model.slow_count, ratio, options).judge(h); };
  if (info->traits.schedulable && model.simulation.linearization == Linearization::kScheduled) {
    r.not_judged = "its scheduled constants have their own proof along the trajectory (the schedule's)";
    return {};
  }
  if (!info->hooks.design_step_map) {
    r.not_judged = "its constants are the initial state's and its map at another point is not built";
    return {};
  }
  // Constants of the exact linearization are every point's own; others are the initial state's.
  r.advisory = model.simulation.linearization != Linearization::kExact || !takes(*info, Linearization::kExact);
  std::shared_ptr<const SchemeDesign> owned;
  if (!given) {
    GenerateRequest request{scheme, h, ratio, ScalarType::kDouble, {}};  // the constants alone, no header
    request.scheme_options = options;
    request.t_end = t_end;
    request.allow_unstable = true;  // judged here
    try {
      owned = std::make_shared<const SchemeDesign>(precompute_scheme(model, request));
    } catch (const ModelError& e) {
      r.not_judged = std::string("the scheme has no design here: ") + e.what();
      return {};
    }
    given = owned.get();
  }
  return [owned, given, info, h, slow = model.slow_count](const Eigen::MatrixXd& j) {
    const Eigen::MatrixXd map = info->hooks.design_step_map(*given, j, slow, h);
    return judge_radius(eigenvalues(map).cwiseAbs().maxCoeff(), eigenvalues(j), h, info->traits.order);
  };
}

}  // namespace

TrajectoryStability stability_along_trajectory(const Model& model, const std::string& scheme, double h, int ratio,
                                               const SchemeOptions& options, const ScenarioTrajectory& along,
                                               const SchemeDesign* design) {
  const double t_end = along.t_end();
  TrajectoryStability r;
  if (!(t_end > 0)) {
    r.not_judged = "the scenario has no duration";
    return r;
  }
  const ReferenceCore core(model);
  if (!core.jacobian_varies()) {
    r.not_judged = "the Jacobian is constant";
    return r;
  }
  const PointJudge judge = point_judge(model, scheme, h, ratio, options, t_end, design, r);
  if (!judge) return r;
  const std::vector<TrajectorySample>* trajectory = nullptr;
  try {
    trajectory = &along.samples();
  } catch (const SimulationError& e) {
    r.not_judged = std::string("the reference solution fails: ") + e.what();
    return r;
  }
  r.judged = true;
  for (std::size_t i = 1; i < trajectory->size(); ++i) {
    const TrajectorySample& at = (*trajectory)[i];
    const MapJudgement judged = judge(core.jacobian_at(at.t, at.x, at.u));
    ++r.points;
    if (r.points == 1 || judged.relative > r.worst.relative) {
      r.worst = judged;
      r.t = at.t;
    }
  }
  r.stable = r.worst.relative <= 1 + kStabilityMargin;
  return r;
}

Instability trajectory_instability(const Model& model, const std::string& scheme, double h, int ratio,
                                   const TrajectoryStability& r) {
  const bool dual_rate = find_scheme(scheme)->traits.dual_rate;
  const std::string at =
      fmt::format("{} at h = {:.6g}{}", scheme, h, dual_rate ? fmt::format(", H = {} h", ratio) : "");
  const std::string map = dual_rate ? "macro-step" : "one-step";
  Instability i;
  if (r.worst.growth > 0)
    i.message = fmt::format(
        "{} does not follow {} along the scenario's trajectory, at t = {:.6g}, where the model "
        "grows{}",
        at, model.name, r.t, judgement_text(r.worst, false));
  else if (r.advisory)
    i.message = fmt::format(
        "{} with the initial state's constants is not stable along the scenario's trajectory "
        "of {}: at t = {:.6g} the spectral radius of its {} map (those constants, the model's "
        "linearization there) is {:.12g} > 1 (the worst of {} points to t_end)",
        at, model.name, r.t, map, r.worst.radius, r.points);
  else
    i.message = fmt::format(
        "{} is stable at the initial state of {} but not along the scenario's trajectory: at "
        "t = {:.6g} the spectral radius of its {} map at the model's linearization is {:.12g} > 1 "
        "(the worst of {} points to t_end)",
        at, model.name, r.t, map, r.worst.radius, r.points);
  const std::string mode =
      r.worst.mode_decides
          ? fmt::format("mode {:.6g}{:+.6g}i 1/s decides it there", r.worst.mode.real(), r.worst.mode.imag())
          : fmt::format("its stiffest mode there is {:.6g}{:+.6g}i 1/s", r.worst.mode.real(), r.worst.mode.imag());
  i.hint = r.advisory ? fmt::format(
                            "scheduled constants (linearization: scheduled) follow the trajectory, or take a "
                            "smaller step; {}",
                            mode)
                      : fmt::format(
                            "take a smaller step, or another scheme ('dualrate analyze' reports the worst "
                            "point along the trajectory); {}",
                            mode);
  return i;
}

std::string trajectory_json(const TrajectoryStability& r) {
  if (!r.judged) return fmt::format(",\"along_trajectory\":{{\"judged\":false,\"why\":{}}}", json_string(r.not_judged));
  return fmt::format(
      ",\"along_trajectory\":{{\"judged\":true,\"points\":{},\"stable\":{},\"advisory\":{},"
      "\"worst_t\":{:.17g},\"worst_spectral_radius\":{:.17g},\"worst_relative\":{:.17g},"
      "\"worst_mode\":[{:.17g},{:.17g}]}}",
      r.points, r.stable ? "true" : "false", r.advisory ? "true" : "false", r.t, r.worst.radius, r.worst.relative,
      r.worst.mode.real(), r.worst.mode.imag());
}

std::string trajectory_text(const TrajectoryStability& r, const std::string& scheme) {
  if (!r.judged) return fmt::format("along the scenario's trajectory: not judged ({})\n", r.not_judged);
  return fmt::format(
      "along the scenario's trajectory ({} points to t_end): worst at t = {:.6g}, spectral radius "
      "{:.12g}{}: {}\n",
      r.points, r.t, r.worst.radius, judgement_text(r.worst, r.stable),
      r.stable     ? "stable"
      : r.advisory ? std::string("UNSTABLE (the initial state's constants; generate warns)")
                   : fmt::format("UNSTABLE (generate refuses {} at this step)", scheme));
}

}  // namespace dualrate
