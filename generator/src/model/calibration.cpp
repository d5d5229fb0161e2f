// When calibration writes apply and whether they are applied, and the model at calibrated
// values (model/calibration.hpp).
#include "model/calibration.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace dualrate {

namespace {

// The limits a value of `name` must lie within.
struct Range {
  double min = 0, max = 0;
};

Range range_of(const Model& m, const CalibrationValue& v) {
  for (const auto& p : m.parameters)
    if (p.name == v.name && p.tunable) return {p.min, p.max};
  for (const auto& t : m.tables)
    if (t->name == v.name && t->tunable) return {t->min, t->max};
  throw std::invalid_argument("calibration: '" + v.name + "' is no tunable parameter or table of " + m.name);
}

// Why value i of v may not be written, or "".
std::string refusal(const CalibrationValue& v, std::size_t i, const Range& r) {
  const std::string name = v.table ? fmt::format("{}[{}]", v.name, i) : v.name;
  const double x = v.values[i];
  if (!std::isfinite(x)) return fmt::format("{} = {} is not finite", name, x);
  if (x < r.min) return fmt::format("{} = {} is below its min {}", name, x, r.min);
  if (x > r.max) return fmt::format("{} = {} is above its max {}", name, x, r.max);
  return "";
}

std::string values_text(const CalibrationValue& v) {
  if (!v.table) return fmt::format("{} = {}", v.name, v.values.at(0));
  return fmt::format("{} = [{}]", v.name, fmt::join(v.values, ", "));
}

// Every expression of m with calls of table `from` calling `to` (with_table_calls_to).
void retarget_tables(Model& m, int from, int to) {
  const auto retarget = [from, to](GiNaC::ex& e) { e = with_table_calls_to(e, from, to); };
  for (auto& p : m.parameters) retarget(p.expr);
  for (auto& u : m.inputs) retarget(u.default_expr);
  for (auto& x : m.states) {
    retarget(x.initial_expr);
    retarget(x.rhs);
  }
  for (auto& v : m.variables) retarget(v.expr);
  for (auto& y : m.outputs) retarget(y.expr);
  for (auto& s : m.simulation.inputs) retarget(s.expr);
  if (m.simulation.schedule)
    for (auto& e : m.simulation.schedule->by) retarget(e);
  if (m.second_order) {
    for (auto& row : m.second_order->mass)
      for (auto& e : row) retarget(e);
    for (auto& e : m.second_order->forces) retarget(e);
  }
}

// p's value from its expression at the model's parameter values (as the loader evaluates it);
// NaN where it has none (a pole, a complex value).
double evaluated(const Model& m, const Parameter& p) {
  try {
    const GiNaC::ex v = p.expr.subs(m.parameter_values()).evalf();
    if (GiNaC::is_a<GiNaC::numeric>(v) && GiNaC::ex_to<GiNaC::numeric>(v).is_real())
      return GiNaC::ex_to<GiNaC::numeric>(v).to_double();
  } catch (const std::exception&) {
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

CalibrationValues initial_calibration(const Model& m) {
  CalibrationValues values;
  for (const auto& p : m.parameters)
    if (p.tunable) values[p.name] = {p.value};
  for (const auto& t : m.tables)
    if (t->tunable) values[t->name] = t->values;
  return values;
}

long first_step_at(double at, double h, int stride) {
  const long n = at > 0 ? static_cast<long>(std::ceil(at / h - 1e-9)) : 0;
  const long s = stride > 1 ? stride : 1;
  return (n + s - 1) / s * s;
}

WriteCheck check_write(const Model& m, const CalibrationValues& current, const CalibrationWrite& write) {
  WriteCheck c{false, "", current};
  for (const auto& v : write.set) {
    const Range r = range_of(m, v);
    for (std::size_t i = 0; i < v.values.size(); ++i) {
      c.reason = refusal(v, i, r);
      if (!c.reason.empty()) return c;
    }
  }
  CalibrationValues after = current;
  for (const auto& v : write.set) after[v.name] = v.values;
  const Model calibrated = calibrated_model(m, after);
  for (const auto& p : calibrated.parameters)
    if (!p.tunable && depends_on_tunable(m, p) && !std::isfinite(p.value)) {
      c.reason = fmt::format("derived parameter {} is not finite at these values", p.name);
      return c;
    }
  c.values = std::move(after);
  c.applied = true;
  return c;
}

std::vector<CalibrationEvent> calibration_events(const Model& m, const std::vector<CalibrationWrite>& writes, double h,
                                                 int stride) {
  std::vector<CalibrationEvent> events;
  CalibrationValues values = initial_calibration(m);
  for (std::size_t i = 0; i < writes.size(); ++i) {
    events.push_back({i, first_step_at(writes[i].at, h, stride), check_write(m, values, writes[i])});
    values = events.back().check.values;
  }
  return events;
}

std::vector<CalibrationSegment> calibration_segments(const Model& m, const std::vector<CalibrationWrite>& writes,
                                                     double h, int stride) {
  std::vector<CalibrationSegment> segments;
  const std::vector<CalibrationEvent> events = calibration_events(m, writes, h, stride);
  for (std::size_t i = 0; i < events.size();) {
    std::size_t j = i;
    bool applied = false;  // by any write at this step
    for (; j < events.size() && events[j].step == events[i].step; ++j) applied = applied || events[j].check.applied;
    if (applied) {
      auto model = std::make_shared<const Model>(calibrated_model(m, events[j - 1].check.values));
      segments.push_back({events[i].step, std::move(model)});
    }
    i = j;
  }
  return segments;
}

std::string describe(const CalibrationWrite& write, const CalibrationEvent& event) {
  std::string set;
  for (const auto& v : write.set) set += (set.empty() ? "" : ", ") + values_text(v);
  return fmt::format("at {} (step {}): {} {}", write.at, event.step, set,
                     event.check.applied ? "applied" : "refused: " + event.check.reason);
}

Model calibrated_model(const Model& m, const CalibrationValues& values) {
  Model c = m;
  for (auto& t : c.tables) {
    const auto v = values.find(t->name);
    if (!t->tunable || v == values.end() || v->second == t->values) continue;
    Table replaced = *t;
    replaced.values = v->second;
    const std::shared_ptr<const Table> calibrated = register_table(std::move(replaced));
    retarget_tables(c, t->id, calibrated->id);
    t = calibrated;
  }
  for (auto& p : c.parameters) {
    const auto v = values.find(p.name);
    if (p.tunable && v != values.end()) {
      p.value = v->second.at(0);
      p.expr = GiNaC::numeric(p.value);
    } else if (depends_on_tunable(m, p)) {
      p.value = evaluated(c, p);
    }
  }
  return c;
}

}  // namespace dualrate
