#include "model/tunable.hpp"

#include <stdexcept>

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

}  // namespace dualrate
