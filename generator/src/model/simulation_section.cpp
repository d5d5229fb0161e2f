// The loader's simulation section: end time, scheme, step, ratio, linearization, the scheme's
// options and the input signals (loader.hpp).
#include "model/loader.hpp"

#include <fmt/format.h>

#include <cmath>
#include <regex>

namespace dualrate::loading {

namespace {

const char* const kLinearizationHint =
    "exact: the Jacobian blocks must be constant; frozen: taken at the initial state; scheduled: computed over a grid "
    "of scheduling values (simulation: schedule:) and interpolated";

// A list of up to two items: a sequence, or one scalar standing for a list of one.
std::vector<YAML::Node> items(const YAML::Node& node) {
  if (!node.IsSequence()) return {node};
  return {node.begin(), node.end()};
}

bool is_number_list(const YAML::Node& node) {
  if (!node.IsSequence() || node.size() == 0) return false;
  for (const auto& item : node)
    if (!item.IsScalar()) return false;
  return true;
}

}  // namespace

void Loader::read_schedule(const KeyValue& section) {
  ScheduleSpec spec;
  spec.loc = at(section.first);
  const YAML::Node& node = section.second;
  if (!node.IsMap())
    throw ModelError(at(node.IsNull() ? section.first : node), "simulation.schedule must be a mapping",
                     "as in 'schedule: {by: [V], points: auto}'");
  const auto k = keys(node, {"by", "range", "points", "tolerance"}, "simulation.schedule", section.first);
  if (!k.count("by"))
    throw ModelError(at(section.first), "simulation.schedule needs 'by': the scheduling values",
                     "one or two expressions of states and inputs, as in by: [V] or by: [0.5*rho*V^2, alpha]");
  read_schedule_by(k.at("by"), spec);
  if (k.count("range")) read_schedule_range(k.at("range"), spec);
  spec.points.assign(spec.by.size(), {});
  spec.counts.assign(spec.by.size(), 0);
  if (k.count("points")) read_schedule_points(k.at("points"), spec);
  if (k.count("tolerance")) spec.tolerance = positive(k.at("tolerance"), "simulation.schedule.tolerance");
  model_.simulation.schedule = std::move(spec);
}

void Loader::read_schedule_by(const KeyValue& by, ScheduleSpec& spec) {
  if (by.second.IsNull()) throw ModelError(at(by.first), "simulation.schedule.by is empty", "as in by: [V]");
  const std::vector<YAML::Node> by_items = items(by.second);
  if (by_items.empty() || by_items.size() > 2)
    throw ModelError(at(by.second),
                     fmt::format("simulation.schedule.by lists {} values; 1 or 2 are scheduled over", by_items.size()));
  for (const auto& item : by_items) {
    const std::string what = "the scheduling value '" + (item.IsScalar() ? item.Scalar() : std::string("?")) + "'";
    ExpressionScope scope = dynamic_scope(what);
    scope.time = nullptr;
    const GiNaC::ex e = expression(by.first, item, scope);
    check_scheduling_value(model_, e, at(item), what);
    spec.by.push_back(e);
    spec.by_text.push_back(item.Scalar());
    spec.by_loc.push_back(at(item));
  }
}

void Loader::read_schedule_range(const KeyValue& range, ScheduleSpec& spec) {
  const std::size_t n = spec.by.size();
  spec.range_loc = at(range.second);
  std::vector<YAML::Node> ranges =
      is_number_list(range.second) ? std::vector<YAML::Node>{range.second} : items(range.second);
  if (ranges.size() != n)
    throw ModelError(
        at(range.second),
        fmt::format("simulation.schedule.range gives {} ranges for {} scheduling value{}", ranges.size(), n,
                    n == 1 ? "" : "s"),
        n == 1 ? "as in range: [90, 240]" : "one [low, high] per value, as in range: [[90, 240], [0, 0.3]]");
  for (std::size_t d = 0; d < n; ++d) {
    const YAML::Node& r = ranges[d];
    if (!is_number_list(r) || r.size() != 2)
      throw ModelError(at(r), "a range of simulation.schedule is [low, high]", "as in range: [90, 240]");
    const double lo = table_value(r[0], "the low end of the range of '" + spec.by_text[d] + "'");
    const double hi = table_value(r[1], "the high end of the range of '" + spec.by_text[d] + "'");
    if (!(lo < hi))
      throw ModelError(at(r),
                       fmt::format("the range [{:.17g}, {:.17g}] of '{}' is {}", lo, hi, spec.by_text[d],
                                   lo == hi ? "empty" : "reversed"),
                       "the low end comes first and is below the high end");
    spec.range.emplace_back(lo, hi);
  }
}

void Loader::read_schedule_points(const KeyValue& points, ScheduleSpec& spec) {
  const std::size_t n = spec.by.size();
  spec.points_loc = at(points.second);
  if (points.second.IsNull())
    throw ModelError(at(points.first), "simulation.schedule.points is empty",
                     "auto, a number of points, or a list of grid points");
  std::vector<YAML::Node> per_value;
  if (points.second.IsScalar())
    per_value.assign(n, points.second);
  else if (n == 1 && is_number_list(points.second) && points.second.size() != 1)
    per_value = {points.second};
  else
    per_value = items(points.second);
  if (per_value.size() != n)
    throw ModelError(at(points.second),
                     fmt::format("simulation.schedule.points gives {} entries for {} scheduling value{}",
                                 per_value.size(), n, n == 1 ? "" : "s"),
                     n == 1 ? "auto, a number, or the list of grid points, as in points: [90, 150, 240]"
                            : "one entry per value: auto, a number, or a list, as in points: [9, [0, 0.1, 0.3]]");
  for (std::size_t d = 0; d < n; ++d) {
    const YAML::Node& p = per_value[d];
    if (p.IsScalar())
      read_grid_count(p, d, spec);
    else
      read_grid_points(p, d, spec);
  }
}

void Loader::read_grid_count(const YAML::Node& p, std::size_t d, ScheduleSpec& spec) {
  if (p.Scalar() == "auto") return;
  static const std::regex integer("[0-9]{1,4}");
  if (!std::regex_match(p.Scalar(), integer))
    throw ModelError(at(p), "grid points of '" + spec.by_text[d] +
                                "': expected auto, a number of points or a list, not '" + p.Scalar() + "'");
  spec.counts[d] = std::stoi(p.Scalar());
  if (spec.counts[d] < 2)
    throw ModelError(at(p), fmt::format("'{}' is scheduled over {} point{}; a grid has at least 2", spec.by_text[d],
                                        spec.counts[d], spec.counts[d] == 1 ? "" : "s"));
}

void Loader::read_grid_points(const YAML::Node& p, std::size_t d, ScheduleSpec& spec) {
  if (!is_number_list(p))
    throw ModelError(
        at(p), "grid points of '" + spec.by_text[d] + "': expected auto, a number of points or a list of numbers");
  std::vector<double>& grid = spec.points[d];
  for (const auto& v : p) grid.push_back(table_value(v, "a grid point of '" + spec.by_text[d] + "'"));
  if (grid.size() < 2)
    throw ModelError(at(p), "'" + spec.by_text[d] + "' is scheduled over 1 point; a grid has at least 2");
  for (std::size_t i = 1; i < grid.size(); ++i)
    if (!(grid[i] > grid[i - 1]))
      throw ModelError(at(p[i]), fmt::format("grid points of '{}' must increase strictly: {:.17g} follows {:.17g}",
                                             spec.by_text[d], grid[i], grid[i - 1]));
  if (!spec.range.empty() && (grid.front() != spec.range[d].first || grid.back() != spec.range[d].second))
    throw ModelError(at(p),
                     fmt::format("the grid points of '{}' span [{:.17g}, {:.17g}], its range [{:.17g}, {:.17g}]",
                                 spec.by_text[d], grid.front(), grid.back(), spec.range[d].first, spec.range[d].second),
                     "listed points define the range: leave range out, or make its ends the first and last point");
}

double Loader::positive(const KeyValue& kv, const std::string& what) {
  const GiNaC::ex e = expression(kv.first, kv.second, parameter_scope(what, model_.parameters.size()));
  const double v = evaluate(e, kv.second, what);
  if (!(v > 0)) throw ModelError(at(kv.second), what + " must be positive", "got " + kv.second.Scalar());
  return v;
}

void Loader::read_simulation(const KeyValue& section) {
  auto& sim = model_.simulation;
  sim.loc = at(section.first);
  if (section.second.IsNull()) return;
  const auto k = keys(section.second, kSimulationKeys, "simulation", section.first);
  if (k.count("t_end")) sim.t_end = positive(k.at("t_end"), "simulation.t_end");
  if (k.count("step")) sim.step = positive(k.at("step"), "simulation.step");
  if (k.count("tolerance")) sim.tolerance.relative = positive(k.at("tolerance"), "simulation.tolerance");
  if (k.count("absolute_tolerance")) read_absolute_tolerance(k.at("absolute_tolerance"));
  if (k.count("ratio")) {
    const auto& node = k.at("ratio").second;
    const std::string s = scalar(k.at("ratio"), "simulation.ratio");
    static const std::regex integer("[0-9]+");
    if (!std::regex_match(s, integer) || s.size() > 6 || std::stoi(s) < 1)
      throw ModelError(at(node), "simulation.ratio must be a positive integer", "H = ratio * h; got " + s);
    sim.ratio = std::stoi(s);
  }
  if (k.count("scheme")) {
    const auto& node = k.at("scheme").second;
    const std::string s = scalar(k.at("scheme"), "simulation.scheme");
    sim.scheme = s;
    sim.scheme_loc = at(node);
  }
  if (k.count("linearization")) {
    const auto& node = k.at("linearization").second;
    const std::string s = scalar(k.at("linearization"), "simulation.linearization");
    const std::optional<Linearization> given = named(kLinearizations, s);
    if (!given)
      throw ModelError(at(node), "simulation.linearization must be 'exact', 'frozen' or 'scheduled', not '" + s + "'",
                       did_you_mean(s, names(kLinearizations), kLinearizationHint));
    sim.linearization = *given;
    sim.linearization_loc = at(node);
  }
  if (k.count("schedule")) read_schedule(k.at("schedule"));
  if (k.count("scheme_options")) read_scheme_options(k.at("scheme_options"));
  if (sim.linearization == Linearization::kScheduled && !sim.schedule)
    throw ModelError(
        sim.linearization_loc, "linearization: scheduled needs the scheduling values",
        "add 'schedule: by: [EXPR]' to the simulation section (as in by: [V]), or pass --schedule-by EXPR");
  if (k.count("inputs_before_start"))
    sim.inputs_sampled_before_start =
        keyword(k.at("inputs_before_start"), "inputs_before_start", "simulation", {"none", "sampled"}) == "sampled";
  if (k.count("calibration"))
    sim.calibration = read_calibration(model_, file_, k.at("calibration").second, k.at("calibration").first);
  if (k.count("inputs")) {
    std::vector<std::string> input_names;
    for (const auto& u : model_.inputs) input_names.push_back(u.name);
    std::set<std::string> seen;
    for (const auto& e : entries(k.at("inputs").second, "simulation.inputs")) {
      auto u = std::find(input_names.begin(), input_names.end(), e.name);
      if (u == input_names.end())
        throw ModelError(at(e.key), "'" + e.name + "' in simulation.inputs is not an input",
                         did_you_mean(e.name, input_names, "declare it under inputs: with a default value"));
      if (!seen.insert(e.name).second) throw ModelError(at(e.key), "duplicate input signal for '" + e.name + "'");
      ExpressionScope scope = parameter_scope("the signal of input '" + e.name + "'", model_.parameters.size());
      scope.time = &time_ex_;
      sim.inputs.push_back(
          {static_cast<std::size_t>(u - input_names.begin()), expression(e.key, e.value, scope), at(e.value)});
    }
  }
}

void Loader::read_absolute_tolerance(const KeyValue& section) {
  if (!section.second.IsMap())
    throw ModelError(at(section.second.IsNull() ? section.first : section.second),
                     "simulation.absolute_tolerance must be a mapping of states and outputs to tolerances",
                     "in their own units, as in 'absolute_tolerance: {V_t: 1e-3, SOC: 1e-6}'");
  const std::vector<std::string> names = model_.state_and_output_names();
  auto& absolute = model_.simulation.tolerance.absolute;
  for (const auto& e : entries(section.second, "simulation.absolute_tolerance")) {
    if (std::find(names.begin(), names.end(), e.name) == names.end())
      throw ModelError(at(e.key), "'" + e.name + "' in simulation.absolute_tolerance is neither a state nor an output",
                       did_you_mean(e.name, names, "a tolerance is given to a state or an output, in its own unit"));
    for (const auto& [name, value] : absolute)
      if (name == e.name) throw ModelError(at(e.key), "duplicate absolute tolerance for '" + e.name + "'");
    absolute.emplace_back(e.name, positive({e.key, e.value}, "the absolute tolerance of '" + e.name + "'"));
  }
}

// Which options the scheme takes is the registry's to check (check_model_scheme): here, each
// a positive value (an expression of parameters) named once.
void Loader::read_scheme_options(const KeyValue& section) {
  if (!section.second.IsMap())
    throw ModelError(at(section.second.IsNull() ? section.first : section.second),
                     "simulation.scheme_options must be a mapping of the scheme's options to values",
                     "as in 'scheme_options: {inner_step: 0.0005}' for smfe (`dualrate generate --help` lists "
                     "the schemes' options)");
  auto& given = model_.simulation.scheme_options;
  for (const auto& e : entries(section.second, "simulation.scheme_options")) {
    for (const GivenSchemeOption& o : given)
      if (o.name == e.name) throw ModelError(at(e.key), "scheme option '" + e.name + "' given twice");
    given.push_back({e.name, positive({e.key, e.value}, "simulation.scheme_options." + e.name), at(e.key)});
  }
}

}  // namespace dualrate::loading

namespace dualrate {

void check_scheduling_value(const Model& m, const GiNaC::ex& e, const SourceLoc& loc, const std::string& what) {
  const GiNaC::ex resolved = m.resolve(e);
  for (const auto& x : m.states)
    if (resolved.has(x.symbol)) return;
  for (const auto& u : m.inputs)
    if (resolved.has(u.symbol)) return;
  throw ModelError(loc, what + " depends on no state or input: it is the same at every step",
                   "schedule over what the fast dynamics change with, as in by: [V] or by: [0.5*rho*V^2]");
}

GiNaC::ex parse_scheduling_value(const Model& m, const std::string& text, const SourceLoc& loc) {
  ExpressionScope scope;
  scope.what = "the scheduling value '" + text + "'";
  for (const auto& t : m.tables) scope.tables[t->name] = t;
  for (const auto& p : m.parameters) scope.allowed[p.name] = p.symbol;
  for (const auto& u : m.inputs) scope.allowed[u.name] = u.symbol;
  for (const auto& x : m.states) scope.allowed[x.name] = x.symbol;
  for (const auto& v : m.variables) scope.allowed[v.name] = v.symbol;
  for (const auto& y : m.outputs)
    scope.forbidden[y.name] = "'" + y.name + "' is an output; to reuse it, make it a variable";
  GiNaC::ex e = parse_expression({text, loc, true}, scope);
  check_scheduling_value(m, e, loc, scope.what);
  return e;
}

}  // namespace dualrate
