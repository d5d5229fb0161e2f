#include "model/tunable.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "base/diagnostics.hpp"

namespace dualrate {

bool has_tunable(const Model& m) {
  for (const auto& p : m.parameters)
    if (p.tunable) return true;
  for (const auto& t : m.tables)
    if (t->tunable) return true;
  return false;
}

SourceLoc calibration_range_loc(const Model& m) {
  for (const auto& p : m.parameters)
    if (p.tunable) return p.range_loc;
  for (const auto& t : m.tables)
    if (t->tunable) return t->range_loc;
  return SourceLoc{m.file, 1, 1};
}

const Table* called_tunable_table(const GiNaC::ex& e) {
  for (auto node = e.preorder_begin(); node != e.preorder_end(); ++node)
    if (is_table_call(*node) && table_call_of(*node).table->tunable) return table_call_of(*node).table.get();
  return nullptr;
}

std::vector<const Parameter*> calibrated_parameters(const Model& m) {
  std::vector<const Parameter*> out;
  for (const auto& p : m.parameters)
    if (p.tunable || depends_on_tunable(m, p)) out.push_back(&p);
  return out;
}

GiNaC::exmap fixed_parameter_values(const Model& m) {
  GiNaC::exmap values;
  for (const auto& p : m.parameters)
    if (!p.tunable && !depends_on_tunable(m, p)) values[p.symbol] = GiNaC::numeric(p.value);
  return values;
}

GiNaC::exmap parameter_values_at(const Model& m, const TunablePoint& point) {
  GiNaC::exmap values;
  for (const auto& p : m.parameters) {
    const auto given = point.find(p.name);
    if (p.tunable) {
      values[p.symbol] = GiNaC::numeric(given == point.end() ? p.value : given->second);
    } else if (depends_on_tunable(m, p)) {
      const GiNaC::ex v = p.expr.subs(values, GiNaC::subs_options::no_pattern).evalf();
      if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
        throw std::runtime_error("parameter '" + p.name + "' is not a real number at a point of the calibration range");
      values[p.symbol] = v;
    } else {
      values[p.symbol] = GiNaC::numeric(p.value);
    }
  }
  return values;
}

Model model_at(const Model& m, const TunablePoint& point) {
  Model at = m;
  const GiNaC::exmap values = parameter_values_at(m, point);
  for (auto& p : at.parameters) p.value = GiNaC::ex_to<GiNaC::numeric>(values.at(p.symbol)).to_double();
  return at;
}

std::vector<TunablePoint> tunable_box_points(const Model& m) {
  std::vector<const Parameter*> tunable;
  TunablePoint at_values;
  for (const auto& p : m.parameters)
    if (p.tunable) {
      tunable.push_back(&p);
      at_values[p.name] = p.value;
    }
  std::vector<TunablePoint> points = {at_values};
  const std::size_t n = tunable.size();
  if (n == 0) return points;
  const auto level = [&](std::size_t i, std::size_t l) {
    const Parameter& p = *tunable[i];
    return l == 0 ? p.min : l == 2 ? p.max : 0.5 * (p.min + p.max);
  };
  if (n <= kMaxCornerParameters) {
    const bool centres = n <= kMaxGridParameters;
    const std::size_t levels = centres ? 3 : 2;
    std::size_t count = 1;
    for (std::size_t i = 0; i < n; ++i) count *= levels;
    for (std::size_t index = 0; index < count; ++index) {
      TunablePoint p;
      std::size_t rest = index;
      for (std::size_t i = 0; i < n; ++i, rest /= levels)
        p[tunable[i]->name] = level(i, centres ? rest % levels : 2 * (rest % levels));
      points.push_back(p);
    }
    if (!centres) {
      TunablePoint centre;
      for (std::size_t i = 0; i < n; ++i) centre[tunable[i]->name] = level(i, 1);
      points.push_back(centre);
    }
    return points;
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t l : {0, 2}) {
      TunablePoint p = at_values;
      p[tunable[i]->name] = level(i, l);
      points.push_back(p);
    }
  return points;
}

std::string CalibrationIdentity::text() const {
  return fmt::format("{} {} {} dualrate {} {}", name_space, scheme, scalar, version, hash);
}

std::string calibration_layout_text(const Model& m, double step, ScalarType scalar) {
  const auto bounds = [scalar](double min, double max) {
    const ScalarLimits l = scalar_limits(min, max, scalar);
    return fmt::format("[{:a},{:a}]", l.min, l.max);
  };
  std::string layout = fmt::format("{} h={:a};", to_string(scalar), step);
  for (const auto& p : m.parameters)
    if (p.tunable) layout += p.name + bounds(p.min, p.max) + ";";
  for (const auto& t : m.tables)
    if (t->tunable) layout += fmt::format("{}[{}]{};", t->name, t->values.size(), bounds(t->min, t->max));
  return layout;
}

namespace {

struct LayoutValue {
  std::size_t position = 0, size = 1;
  double min = 0, max = 0;
};
struct ParsedLayout {
  std::string scalar;
  double step = 0;
  std::vector<std::pair<std::string, LayoutValue>> values;
};

std::optional<ParsedLayout> parse_layout(const std::string& text) {
  static const std::regex head(R"(^(\w+) h=(\S+)$)");
  static const std::regex value(R"(^(\w+)(?:\[(\d+)\])?\[([^,\]]+),([^\]]+)\]$)");
  ParsedLayout out;
  std::istringstream parts(text);
  std::string part;
  std::smatch match;
  if (!std::getline(parts, part, ';') || !std::regex_match(part, match, head)) return std::nullopt;
  out.scalar = match[1];
  out.step = std::strtod(match[2].str().c_str(), nullptr);
  while (std::getline(parts, part, ';')) {
    if (!std::regex_match(part, match, value)) return std::nullopt;
    LayoutValue v{out.values.size(), match[2].matched ? std::stoul(match[2]) : 1,
                  std::strtod(match[3].str().c_str(), nullptr), std::strtod(match[4].str().c_str(), nullptr)};
    out.values.emplace_back(match[1], v);
  }
  return out;
}

const LayoutValue* find_value(const ParsedLayout& l, const std::string& name) {
  for (const auto& [n, v] : l.values)
    if (n == name) return &v;
  return nullptr;
}

}  // namespace

std::vector<std::string> layout_differences(const std::string& program, const std::string& model) {
  const std::optional<ParsedLayout> p = parse_layout(program), m = parse_layout(model);
  if (!p || !m) return {fmt::format("its calibration layout \"{}\" is not one that dualrate writes", program)};
  std::vector<std::string> out;
  if (p->scalar != m->scalar) out.push_back(fmt::format("scalar {} in the program, {} here", p->scalar, m->scalar));
  if (p->step != m->step) out.push_back(fmt::format("step {} in the program, {} here", p->step, m->step));
  for (const auto& [name, want] : m->values) {
    const LayoutValue* got = find_value(*p, name);
    if (!got) {
      out.push_back(fmt::format("{} is not in the program", name));
      continue;
    }
    if (got->position != want.position)
      out.push_back(fmt::format("{} is value {} in the program, {} in the model", name, got->position, want.position));
    if (got->size != want.size)
      out.push_back(fmt::format("{} has {} values in the program, {} in the model", name, got->size, want.size));
    if (got->min != want.min || got->max != want.max)
      out.push_back(fmt::format("{}'s limits are [{}, {}] in the program, [{}, {}] in the model", name, got->min,
                                got->max, want.min, want.max));
  }
  for (const auto& [name, v] : p->values)
    if (!find_value(*m, name)) out.push_back(fmt::format("{} is in the program, not in the model", name));
  return out;
}

CalibrationIdentity calibration_identity(const Model& m, const std::string& name_space, const std::string& scheme,
                                         double step, ScalarType scalar, const std::string& version) {
  const std::string layout = calibration_layout_text(m, step, scalar);
  std::uint32_t hash = 2166136261u;  // FNV-1a
  for (const unsigned char c : layout) hash = (hash ^ c) * 16777619u;
  return {name_space, scheme, to_string(scalar), version, fmt::format("{:08x}", hash)};
}

std::optional<CalibrationIdentity> parse_calibration_identity(const std::string& text) {
  std::istringstream words(text);
  CalibrationIdentity id;
  std::string tool, rest;
  if (!(words >> id.name_space >> id.scheme >> id.scalar >> tool >> id.version >> id.hash) || (words >> rest) ||
      tool != "dualrate")
    return std::nullopt;
  return id;
}

void require_finite_derived_at(const Model& m, const TunablePoint& point, ScalarType scalar) {
  GiNaC::exmap values;
  std::string where;
  for (const auto& p : m.parameters) {
    if (!p.tunable) continue;
    const auto given = point.find(p.name);
    const double v = given == point.end() ? p.value : given->second;
    values[p.symbol] = GiNaC::numeric(v);
    where += fmt::format("{}{} = {}", where.empty() ? "" : ", ", p.name, v);
  }
  for (const auto& p : m.parameters) {
    if (p.tunable) continue;
    if (!depends_on_tunable(m, p)) {
      values[p.symbol] = GiNaC::numeric(p.value);
      continue;
    }
    double v = std::numeric_limits<double>::quiet_NaN();
    try {
      const GiNaC::ex e = p.expr.subs(values, GiNaC::subs_options::no_pattern).evalf();
      if (GiNaC::is_a<GiNaC::numeric>(e) && GiNaC::ex_to<GiNaC::numeric>(e).is_real())
        v = GiNaC::ex_to<GiNaC::numeric>(e).to_double();
    } catch (const std::exception&) {  // a pole (division by zero), an argument outside a function's domain
    }
    if (!std::isfinite(in_scalar(v, scalar)))
      throw ModelError(p.loc,
                       fmt::format("derived parameter '{}' is not finite in {} at {}, a point of the calibration "
                                   "range that generate examines: generated code would refuse a calibration there",
                                   p.name, to_string(scalar), where),
                       "keep its expression finite over the tunable values' limits (narrow them)");
    values[p.symbol] = GiNaC::numeric(v);
  }
}

void require_finite_derived(const Model& m, ScalarType scalar) {
  for (const TunablePoint& point : tunable_box_points(m)) require_finite_derived_at(m, point, scalar);
}

}  // namespace dualrate
