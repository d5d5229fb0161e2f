// dualrate design (design/design.hpp): the table on standard output, progress on a terminal's
// standard error, the chosen design into -o's file.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "base/text_io.hpp"
#include "cli/commands.hpp"
#include "cli/progress_line.hpp"
#include "design/design.hpp"
#include "reference_core/reference_core.hpp"
#include "registry/registry.hpp"
#include "targets/cross_target.hpp"
#include "verify/trace_comparison.hpp"

namespace dualrate::cli {

int DesignCommand::run(const Model& model) {
  const ErrorTolerance tolerance = merged(model.simulation.tolerance, given_tolerance(model, tolerance_));
  if (tolerance.empty())
    throw UsageError(
        fmt::format("design needs the accuracy to design for: --tolerance TOL (as in --tolerance 1e-3), "
                    "or simulation: tolerance: in {} (or absolute ones: --absolute-tolerance NAME=VALUE, "
                    "simulation: absolute_tolerance:)",
                    model.file));
  const std::string target = target_ == "host" ? "" : target_;
  if (!target.empty() && !find_cross_target(target)) throw UsageError(unknown_target_message(target));
  if (target.empty() && (cpu_hz_ > 0 || cpi_ > 0)) throw UsageError("--cpu-hz and --cpi are for --target");
  warn_about_clock(target, cpu_hz_);
  DesignRequest r;
  r.tolerance = tolerance;
  r.generator_version = DUALRATE_VERSION;
  r.target = target;
  r.cpu_hz = cpu_hz_;
  r.cpi = cpi_;
  r.period = period_;
  const std::vector<std::string> known = scheme_names();
  for (const std::string& s : schemes_)
    if (std::find(known.begin(), known.end(), s) == known.end())
      throw UsageError(fmt::format("--schemes: unknown scheme '{}' (known: {})", s, fmt::join(known, " ")));
  r.schemes = schemes_;
  r.exhaustive = exhaustive_;
  r.parameters = parameter_overrides(o_.params);
  ProgressLine line("design " + model.name);
  if (line.shown()) r.progress = [&line](const std::string& what) { line.stage(what); };
  const std::string text = read_file(o_.model_path);
  Design d;
  try {
    d = design(model, text, r);
  } catch (const SimulationError& e) {
    line.clear();
    throw UsageError(fmt::format("the scenario of {} cannot be integrated, so there is nothing to design against: {}",
                                 o_.model_path, e.what()));
  } catch (const std::invalid_argument& e) {
    line.clear();
    throw UsageError(e.what());
  }
  line.clear();
  std::cout << (json_ ? d.json() + "\n" : d.text());
  if (d.choice < 0) return 2;
  if (!out_file_.empty()) {
    write_file(out_file_, designed_text(d, d.candidates[static_cast<std::size_t>(d.choice)], model, text));
    std::cerr << fmt::format("{}: the chosen design -> {}\n", model.name, out_file_);
  }
  return 0;
}

}  // namespace dualrate::cli
