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
  TunablePoint at_values, centre;
  for (const auto& p : m.parameters)
    if (p.tunable) {
      tunable.push_back(&p);
      at_values[p.name] = p.value;
      centre[p.name] = 0.5 * (p.min + p.max);
    }
  std::vector<TunablePoint> points = {at_values};
  if (tunable.empty()) return points;
  points.push_back(centre);
  if (tunable.size() <= kMaxCornerParameters) {
    for (unsigned long corner = 0; corner < (1ul << tunable.size()); ++corner) {
      TunablePoint p;
      for (std::size_t i = 0; i < tunable.size(); ++i)
        p[tunable[i]->name] = (corner >> i) & 1 ? tunable[i]->max : tunable[i]->min;
      points.push_back(p);
    }
    return points;
  }
  for (const Parameter* t : tunable)
    for (double end : {t->min, t->max}) {
      TunablePoint p = at_values;
      p[t->name] = end;
      points.push_back(p);
    }
  return points;
}

}  // namespace dualrate
