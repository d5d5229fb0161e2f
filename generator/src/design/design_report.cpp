// Design's text (the ranked table, the choice and why each other scheme lost) and JSON.
#include <fmt/format.h>

#include <cmath>

#include "base/text_io.hpp"
#include "design/design.hpp"
#include "verify/trace_comparison.hpp"

namespace dualrate {

namespace {

std::string scheme_label(const Candidate& c) {
  std::string label = !c.linearization || *c.linearization == Linearization::kExact
                          ? c.scheme
                          : c.scheme + " (" + to_string(*c.linearization) + ")";
  return c.hold.empty() || c.hold == "zero" ? label : label + ", hold " + c.hold;
}

std::string number(double v, const char* missing = "-") { return v > 0 ? fmt::format("{:.4g}", v) : missing; }

// Each trial's step and its error's share of the tolerance.
std::string trials_text(const Candidate& c) {
  std::string s;
  for (const Trial& t : c.trials)
    s += fmt::format("{}{}{} ({})", s.empty() ? "" : ", ", fmt::format("{:.4g}", t.step),
                     c.dual_rate ? fmt::format(" r {}", t.ratio) : "",
                     std::isnan(t.share)      ? "no design"
                     : std::isfinite(t.share) ? fmt::format("{:.2g}", t.share)
                                              : "blew up");
  return s;
}

std::string json_absolute(const ErrorTolerance& t) {
  std::string s;
  for (const auto& [name, value] : t.absolute)
    s += fmt::format("{}{}: {:.17g}", s.empty() ? "" : ", ", json_string(name), value);
  return "{" + s + "}";
}

std::string json_number(double v) { return std::isfinite(v) ? fmt::format("{:.17g}", v) : "null"; }

}  // namespace

std::string Design::text() const {
  std::string out = fmt::format(
      "design of {} for an error of at most {} over its scenario (t_end {:g} s; the "
      "high-accuracy solution's own error about {:.1g}){}\n\n",
      model, tolerance_text(tolerance), t_end, accurate_error,
      period ? fmt::format(", steps dividing the period {:g} s", *period) : "");
  out += partition.text();
  if (!states_block.empty()) out += "proposed:\n" + states_block;
  out += "\n";
  const bool on_target = !target.empty();
  out += fmt::format("candidates{}, cheapest first ({}):\n",
                     schemes.empty() ? "" : fmt::format(" (only {}, as asked)", fmt::join(schemes, ", ")),
                     on_target ? "cost: cycles per simulated second on " + target
                               : "cost: arithmetic operations per simulated second, as generated");
  out += fmt::format("  {:<32} {:>10} {:>5} {:>9} {:>10} {:>12} {:>12}{}  {}\n", "scheme", "step", "ratio", "error/tol",
                     "max stable", "ops/step", "ops/s",
                     on_target ? fmt::format(" {:>12} {:>6}", "cycles/s", "util") : "", "status");
  for (const Candidate& c : candidates) {
    const bool has = c.step > 0;
    out += fmt::format("  {:<32} {:>10} {:>5} {:>9} {:>10} {:>12} {:>12}{}  {}\n", scheme_label(c),
                       has ? number(c.step) : "-", c.dual_rate && has ? std::to_string(c.ratio) : "-",
                       has ? fmt::format("{:.2g}", c.error_share) : "-",
                       c.stable_bounded ? number(c.max_stable_step) : "any", has ? std::to_string(c.ops_per_step) : "-",
                       has ? fmt::format("{:.4g}", c.ops_per_second) : "-",
                       on_target ? fmt::format(" {:>12} {:>6}", number(c.cycles_per_second),
                                               c.budget ? fmt::format("{:.2g}%", 100 * c.budget->utilization) : "-")
                                 : "",
                       to_string(c.status));
  }
  out += "\n";
  if (choice >= 0) {
    const Candidate& c = candidates[static_cast<std::size_t>(choice)];
    out += fmt::format(
        "choice: {}, step {:g}{}{}: error {:.2g}{} <= {:g}, checked at every {} on the states and "
        "outputs (largest against its tolerance in {} at t = {:g})\n",
        scheme_label(c), c.step, c.dual_rate ? fmt::format(", ratio {} (H = {:g})", c.ratio, c.step * c.ratio) : "",
        c.linearization ? std::string(", linearization ") + to_string(*c.linearization) : "", c.error,
        c.error_absolute ? " (absolute)" : "", tolerance_of(tolerance, c.error_where),
        c.dual_rate ? "macro step and fast tick" : "step", c.error_where, c.error_time);
    if (c.hold_error >= 0)
      out += fmt::format(
          "  of which the inputs' hold between samples accounts for {:.2g} (the high-accuracy solution "
          "with the inputs held as its steps hold them, against it) and the integration for {:.2g}\n",
          c.hold_error, c.integration_error);
    if (!c.hold.empty() && c.hold != "zero")
      out += inputs_sampled_before_start
                 ? "  the scenario's task took its inputs at t_0 - 2h and t_0 - h before its first step "
                   "(simulation: inputs_before_start: sampled)\n"
                 : "  its first steps hold with the samples taken so far, from t_0 (simulation: inputs_before_start: "
                   "none); a task that samples its inputs before it integrates: inputs_before_start: sampled\n";
  } else {
    out += fmt::format("no scheme meets the request{}\n",
                       candidates.empty() ? "" : "; the closest: " + scheme_label(candidates.front()));
  }
  out += "the others:\n";
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (static_cast<int>(i) != choice)
      out += fmt::format("  {}: {}{}\n", scheme_label(candidates[i]), to_string(candidates[i].status),
                         candidates[i].reason.empty() ? "" : ": " + candidates[i].reason);
  out += "steps tried (error / tolerance):\n";
  for (const Candidate& c : candidates)
    if (!c.trials.empty()) out += fmt::format("  {}: {}\n", scheme_label(c), trials_text(c));
  return out;
}

std::string Design::json() const {
  const auto candidate = [this](const Candidate& c) {
    std::string trials;
    for (const Trial& t : c.trials)
      trials +=
          fmt::format("{}{{\"step\": {}, \"ratio\": {}, \"error\": {}, \"share\": {}}}", trials.empty() ? "" : ", ",
                      json_number(t.step), t.ratio, json_number(t.error), json_number(t.share));
    std::string s = fmt::format(
        "{{\"scheme\": {}, \"linearization\": {}, \"hold\": {}, \"step\": {}, \"ratio\": {}, \"error\": {}, "
        "\"error_share\": {}, \"error_absolute\": {}, \"error_time\": {}, \"error_where\": {}, "
        "\"max_stable_step\": {}, \"stable_bounded\": {}, \"ops_per_step\": {}, \"ops_per_second\": {}, "
        "\"hold_error\": {}, \"integration_error\": {}, \"status\": {}, \"reason\": {}, \"trials\": [{}]",
        json_string(c.scheme), json_string(c.linearization ? to_string(*c.linearization) : ""), json_string(c.hold),
        c.step > 0 ? json_number(c.step) : "null", c.dual_rate ? std::to_string(c.ratio) : "1",
        c.step > 0 ? json_number(c.error) : "null", c.step > 0 ? json_number(c.error_share) : "null", c.error_absolute,
        c.step > 0 ? json_number(c.error_time) : "null", c.step > 0 ? json_string(c.error_where) : "null",
        json_number(c.max_stable_step), c.stable_bounded, c.ops_per_step, json_number(c.ops_per_second),
        c.hold_error >= 0 ? json_number(c.hold_error) : "null",
        c.integration_error >= 0 ? json_number(c.integration_error) : "null", json_string(to_string(c.status)),
        json_string(c.reason), trials);
    if (!target.empty()) {
      s += fmt::format(", \"instructions_per_step\": {}, \"cycles_per_second\": {}, \"bit_exact\": {}",
                       c.instructions_per_step >= 0 ? json_number(c.instructions_per_step) : "null",
                       c.cycles_per_second >= 0 ? json_number(c.cycles_per_second) : "null",
                       c.bit_exact < 0 ? "null"
                       : c.bit_exact   ? "true"
                                       : "false");
      if (c.budget) s += c.budget->json();
    }
    return s + "}";
  };
  std::string list, asked;
  for (const Candidate& c : candidates) list += (list.empty() ? "" : ", ") + candidate(c);
  for (const std::string& s : schemes) asked += (asked.empty() ? "" : ", ") + json_string(s);
  return fmt::format(
      "{{\"model\": {}, \"tolerance\": {}, \"absolute_tolerance\": {}, \"t_end\": {}, "
      "\"accurate_error\": {}, "
      "\"inputs_before_start\": {}, \"target\": {}, \"period\": {}, \"schemes\": {}, \"partition\": {}, "
      "\"candidates\": [{}], \"choice\": {}}}",
      json_string(model), tolerance.relative ? json_number(*tolerance.relative) : "null", json_absolute(tolerance),
      json_number(t_end), json_number(accurate_error), json_string(inputs_sampled_before_start ? "sampled" : "none"),
      target.empty() ? "null" : json_string(target), period ? json_number(*period) : "null",
      schemes.empty() ? "null" : "[" + asked + "]", partition.json(), list,
      choice < 0 ? "null" : candidate(candidates[static_cast<std::size_t>(choice)]));
}

}  // namespace dualrate
