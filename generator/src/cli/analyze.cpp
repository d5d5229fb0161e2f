// dualrate analyze.
#include <fmt/format.h>

#include <iostream>

#include "analysis/stability.hpp"
#include "analysis/stability_along_trajectory.hpp"
#include "base/diagnostics.hpp"
#include "base/text_io.hpp"
#include "cli/commands.hpp"
#include "registry/registry.hpp"

namespace dualrate::cli {

int AnalyzeCommand::run(const Model& model) {
  const Settings s = resolve(model, o_, Use::kAnalysis);
  StabilityReport r = analyze_stability(model, s.scheme, s.step, s.ratio, s.scheme_options);
  if (const SchemeInfo* info = find_scheme(s.scheme);
      info && info->traits.schedulable && model.simulation.linearization == Linearization::kScheduled) {
    GenerateRequest g = settings_request(s, ScalarType::kDouble);
    g.allow_unstable = true;  // the analysis reports the largest radius; generate refuses above 1
    const SchemeDesign design = precompute_scheme(model, g);
    r.scheme_analysis.json += ",\"schedule\":" + schedule_json(*design.schedule);
    r.scheme_analysis.text +=
        "With scheduled constants (the lines above are the unscheduled scheme's at the initial state):\n" +
        schedule_summary(*design.schedule);
  }
  if (const SchemeInfo* info = find_scheme(s.scheme);
      info && info->hooks.precompute && model.simulation.linearization == Linearization::kExact) {
    // The analysis linearizes at the initial state whatever the scheme's design needs: say when
    // generate refuses the design this analysis stands for, so that the two agree.
    GenerateRequest g = settings_request(s, ScalarType::kDouble);
    g.allow_unstable = true;
    try {
      precompute_scheme(model, g);
    } catch (const ModelError& e) {
      r.scheme_analysis.json += ",\"refused\":" + json_string(e.what());
      r.scheme_analysis.text +=
          fmt::format("generate refuses {} with these settings: {} (the lines above linearize at the initial state)\n",
                      s.scheme, e.what());
    }
  }
  if (const std::string growth = growth_origin(model); !growth.empty())
    r.scheme_analysis.text += "where it grows: " + growth + "\n";
  const TrajectoryStability along = stability_along_trajectory(model, s.scheme, s.step, s.ratio, s.scheme_options,
                                                               ScenarioTrajectory(model, s.t_end));
  r.scheme_analysis.json += trajectory_json(along);
  r.scheme_analysis.text += trajectory_text(along, s.scheme);
  std::cout << (json_ ? r.json() + "\n" : r.text());
  return 0;
}

}  // namespace dualrate::cli
