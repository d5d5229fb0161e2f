// What the commands share on the command line: the options every model command takes, the
// settings they resolve, and the hints for mistyped options.
#include "cli/command_line.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "registry/registry.hpp"
#include "targets/cross_target.hpp"
#include "verify/budget.hpp"

namespace dualrate::cli {

GenerateRequest settings_request(const Settings& s, ScalarType scalar) {
  GenerateRequest g{s.scheme, s.step, s.ratio, scalar, DUALRATE_VERSION};
  g.scheme_options = s.scheme_options;
  g.t_end = s.t_end;
  return g;
}

GenerateRequest generate_request(const Settings& s, const Overrides& o) {
  GenerateRequest g = settings_request(s, scalar_type(o.scalar));
  g.overrun_handling = *named(kOverrunHandlings, o.overrun);  // checked by add_overrun
  return g;
}

Settings resolve(const Model& m, const Overrides& o, Use use) {
  Settings s;
  s.scheme = o.scheme.value_or(m.simulation.scheme);
  // Schemes only the reference core runs (SchemeTraits::generated false: the paper forms of
  // seed 004's schemes, whose generated code is their dual-rate task form), and the
  // high-accuracy solution.
  const SchemeInfo* any = find_any_scheme(s.scheme);
  const bool reference_only = (any && !any->traits.generated) || s.scheme == kHighAccuracy;
  const bool reference_core = use == Use::kReferenceCore;
  const bool analysis = use == Use::kAnalysis;
  const bool analysable = any && any->traits.analysable;
  if (!find_scheme(s.scheme) && !(reference_core && reference_only) && !(analysis && analysable)) {
    std::string known;
    for (const auto& n : scheme_names()) known += " " + n;
    for (const SchemeInfo& r : all_schemes())
      if (!r.traits.generated && (reference_core || (analysis && r.traits.analysable)))
        known += std::string(" ") + r.identity.name;
    if (reference_core) known += " " + kHighAccuracy;
    throw UsageError(fmt::format("unknown scheme '{}' (known:{}){}", s.scheme, known,
                                 reference_only ? "; only `simulate` runs it, with the reference core" +
                                                      std::string(analysable ? ", and `analyze`" : "")
                                                : ""));
  }
  try {
    if (any) s.scheme_options = scheme_options_for(m, *any, o.scheme_options);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (!any && !o.scheme_options.empty()) throw UsageError(fmt::format("{} takes no scheme options", s.scheme));
  const SchemeInfo* info = find_scheme(s.scheme);
  if (any && !any->traits.uniform && !m.partitioned) {
    std::vector<std::string> uniform;
    for (const SchemeInfo& r : all_schemes())
      if (r.traits.uniform) uniform.emplace_back(r.identity.name);
    throw ModelError(m.states.front().loc,
                     fmt::format("{} needs the slow/fast partition, and states: gives none", s.scheme),
                     fmt::format("`dualrate design {} --tolerance TOL` proposes one (and a scheme and step); or "
                                 "list the states under states: slow: and fast:, or use a scheme that treats every "
                                 "state alike ({})",
                                 m.file, fmt::join(uniform, ", ")));
  }
  if (info && info->traits.dual_rate && (m.slow_count == 0 || m.fast_count() == 0))
    throw ModelError(m.states.empty() ? SourceLoc{m.file, 1, 1} : m.states.front().loc,
                     fmt::format("{} needs both slow and fast states ({} slow, {} fast): its fast task steps the "
                                 "fast states, its slow task the slow ones",
                                 s.scheme, m.slow_count, m.fast_count()),
                     "list the fast states under states: fast:, or use a single-rate scheme such as rk4");
  if (info && m.simulation.linearization == Linearization::kScheduled) {
    // The file's scheduled linearization is for the schemes that precompute constants; the
    // command line's, for the scheme it asks for.
    const bool asked = o.linearization || !o.schedule_by.empty() || !o.scheme;
    const SourceLoc at = m.simulation.schedule ? m.simulation.schedule->loc : m.simulation.linearization_loc;
    if (!info->traits.schedulable && asked)
      throw ModelError(at, fmt::format("a schedule is given, but {} precomputes no constants to schedule", s.scheme),
                       fmt::format("scheduled constants are for {}; leave out --linearization scheduled and "
                                   "--schedule-by for {}",
                                   fmt::join(scheme_names_with(&SchemeTraits::schedulable), ", "), s.scheme));
  }
  if (!o.step && !m.simulation.step)
    throw UsageError("no step size: give --step or set simulation: step: in " + m.file);
  s.step = o.step ? *o.step : *m.simulation.step;
  s.t_end = o.t_end.value_or(m.simulation.t_end);
  s.ratio = o.ratio.value_or(m.simulation.ratio);
  if (!(s.step > 0) || !std::isfinite(s.step)) throw UsageError("--step must be positive");
  if (!(s.t_end > 0) || !std::isfinite(s.t_end)) throw UsageError("--t-end must be positive");
  if (s.ratio < 1) throw UsageError("--ratio must be a positive integer");
  if (o.every < 1) throw UsageError("--every must be at least 1");
  if (step_count(s.t_end, s.step) > 100000000) throw UsageError("t_end/step exceeds 1e8 steps");
  return s;
}

namespace {

// Each option a scheme declares for itself (SchemeTraits::options), once per name.
void add_scheme_options(CLI::App* cmd, Overrides& o) {
  std::vector<std::string> added;
  for (const SchemeInfo& info : all_schemes())
    for (const SchemeOption& option : info.traits.options) {
      if (std::find(added.begin(), added.end(), option.name) != added.end()) continue;
      added.push_back(option.name);
      cmd->add_option_function<double>(
             option.flag(), [&o, name = option.name](double value) { o.scheme_options[name] = value; },
             option.help + " (overrides simulation.scheme_options." + option.name + ")")
          ->check(CLI::PositiveNumber);
    }
}

}  // namespace

void add_common(CLI::App* cmd, Overrides& o) {
  cmd->add_option("model", o.model_path, "Model file (YAML)")->required();
  cmd->add_option("--scheme", o.scheme, "Integration scheme (default: the model's simulation.scheme)");
  cmd->add_option("--step", o.step, "Base (fast) step h in seconds (default: simulation.step)");
  cmd->add_option("--ratio", o.ratio, "Slow step H = ratio*h, for dual-rate schemes (default: simulation.ratio)");
  cmd->add_option("--linearization", o.linearization,
                  "sp_ll: 'exact' requires constant f_z, g_x, g_z; 'frozen' takes them at the initial state; "
                  "'scheduled' computes its constants over a grid of scheduling values and interpolates them "
                  "(default: simulation.linearization, else exact)")
      ->check(CLI::IsMember(names(kLinearizations)));
  cmd->add_option("--schedule-by", o.schedule_by,
                  "EXPR: a scheduling value of --linearization scheduled, an expression of states and inputs "
                  "(once or twice; auto grid points over the trajectory's range; default: simulation.schedule.by)");
  add_scheme_options(cmd, o);
  cmd->add_option("--param", o.params,
                  "NAME=VALUE: replaces the value of parameter NAME (repeatable); parameters, initial values and "
                  "input signals defined from it follow (default: the file's values)");
}

void add_overrun(CLI::App* cmd, Overrides& o) {
  cmd->add_option("--overrun", o.overrun,
                  "Dual-rate tasks, a slow job still running at the next release: 'skip' that release (the slow "
                  "state held), or 'defer' it until the job ends (the fast task waits for the job's end points; "
                  "exact while each late job ends within the next macro step)")
      ->check(CLI::IsMember(names(kOverrunHandlings)))
      ->capture_default_str();
}

// --param NAME=VALUE, each a finite number for a name given once.

void add_run_length(CLI::App* cmd, Overrides& o, const std::string& every_what) {
  cmd->add_option("--t-end", o.t_end, "End time (default: simulation.t_end)");
  cmd->add_option("--every", o.every, every_what)->capture_default_str();
}

void add_tolerance(CLI::App* cmd, ToleranceOptions& o, const std::string& relative_help) {
  cmd->add_option("--tolerance", o.relative, relative_help);
  cmd->add_option("--absolute-tolerance", o.absolute,
                  "NAME=VALUE: the largest error of state or output NAME, |x - x_accurate| in its own unit, in place "
                  "of --tolerance's relative one (repeatable; default: the model's simulation: absolute_tolerance:)");
}

namespace {

// OPTION NAME=VALUE items, each a finite number (`positive`: above 0) for a name given once.
std::vector<std::pair<std::string, double>> name_values(const std::vector<std::string>& given,
                                                        const std::string& option, bool positive,
                                                        const std::string& example) {
  std::vector<std::pair<std::string, double>> result;
  for (const std::string& g : given) {
    const auto eq = g.find('=');
    const std::string name = g.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : g.substr(eq + 1);
    double v = 0;
    if (name.empty() || !CLI::detail::lexical_cast(value, v) || !std::isfinite(v) || (positive && !(v > 0)))
      throw UsageError(fmt::format("{} '{}': expected NAME=VALUE with a {} number, as in {} {}", option, g,
                                   positive ? "positive" : "finite", option, example));
    for (const auto& r : result)
      if (r.first == name) throw UsageError(fmt::format("{} {} is given twice", option, name));
    result.emplace_back(name, v);
  }
  return result;
}

}  // namespace

ErrorTolerance given_tolerance(const Model& m, const ToleranceOptions& o) {
  ErrorTolerance given;
  if (o.relative && (!(*o.relative > 0) || !std::isfinite(*o.relative)))
    throw UsageError(
        fmt::format("--tolerance must be a positive number, as in --tolerance 1e-3 (given {})", *o.relative));
  given.relative = o.relative;
  given.absolute = name_values(o.absolute, "--absolute-tolerance", true, "V_t=1e-3");
  const std::vector<std::string> names = m.state_and_output_names();
  for (const auto& a : given.absolute)
    if (std::find(names.begin(), names.end(), a.first) == names.end())
      throw UsageError(fmt::format(
          "--absolute-tolerance {}: {} has no state or output of that name ({})", a.first, m.name,
          did_you_mean(a.first, names, "its states and outputs: " + fmt::to_string(fmt::join(names, ", ")))));
  return given;
}

std::vector<ParameterOverride> parameter_overrides(const std::vector<std::string>& given) {
  std::vector<ParameterOverride> result;
  for (const auto& [name, value] : name_values(given, "--param", false, "m_N=0.01")) result.push_back({name, value});
  return result;
}

void apply_linearization(Model& m, const Overrides& o) {
  if (o.linearization) m.simulation.linearization = *named(kLinearizations, *o.linearization);
  if (!o.schedule_by.empty()) {
    if (o.schedule_by.size() > 2)
      throw UsageError(fmt::format("--schedule-by is given {} times; 1 or 2 scheduling values", o.schedule_by.size()));
    ScheduleSpec spec;
    for (const std::string& text : o.schedule_by) {
      const SourceLoc loc{"--schedule-by", 1, 1};
      spec.by.push_back(parse_scheduling_value(m, text, loc));
      spec.by_text.push_back(text);
      spec.by_loc.push_back(loc);
    }
    spec.points.assign(spec.by.size(), {});
    spec.counts.assign(spec.by.size(), 0);
    spec.loc = spec.by_loc.front();
    if (m.simulation.schedule) spec.tolerance = m.simulation.schedule->tolerance;
    m.simulation.schedule = std::move(spec);
  }
  if (m.simulation.linearization == Linearization::kScheduled && !m.simulation.schedule)
    throw UsageError(
        "--linearization scheduled needs the scheduling values: give --schedule-by EXPR (as in "
        "--schedule-by V) or simulation: schedule: by: in " +
        m.file);
}

// Options of the dual-rate tasks, refused for a single-rate scheme.

void require_dual_rate(const CLI::App* cmd, const std::string& option, const std::string& scheme) {
  if (cmd->count(option) == 0 || find_scheme(scheme)->traits.dual_rate) return;
  throw UsageError(
      fmt::format("{} applies to the dual-rate schemes ({}); {} runs both partitions inside one step, "
                  "as one periodic task",
                  option, fmt::join(scheme_names_with(&SchemeTraits::dual_rate), ", "), scheme));
}

// Edit distance (insertions, deletions, substitutions) between a and b.

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string unknown_option_hints(const CLI::App& cmd, const std::string& message) {
  std::string hints;
  const std::size_t colon = message.rfind(": ");
  std::istringstream given(colon == std::string::npos ? "" : message.substr(colon + 2));
  for (std::string arg; given >> arg;) {
    if (arg.rfind("--", 0) != 0) continue;
    const std::string name = arg.substr(0, arg.find('='));
    std::string best;
    std::size_t best_distance = name.size() / 3 + 1;
    for (const CLI::Option* option : cmd.get_options())
      for (const std::string& lname : option->get_lnames()) {
        const std::size_t d = edit_distance(name, "--" + lname);
        if (d < best_distance) best_distance = d, best = "--" + lname;
      }
    if (!best.empty()) hints += fmt::format("\n  hint: {}: did you mean {}?", name, best);
  }
  const std::string path = cmd.get_parent() ? "dualrate " + cmd.get_name() : "dualrate";
  return hints + fmt::format("\n  hint: `{} --help` lists every option with its default", path);
}

void warn_about_clock(const std::string& target, double cpu_hz) {
  const CrossTarget* cross = find_cross_target(target);
  if (!cross || !(cpu_hz > 0)) return;
  const std::string warning = clock_warning(*cross, cpu_hz);
  if (!warning.empty()) std::cerr << "warning: " << warning << "\n";
}

}  // namespace dualrate::cli
