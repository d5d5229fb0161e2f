#include "fmi/fmu_variables.hpp"

#include <fmt/format.h>

#include <utility>

namespace dualrate {

namespace {

FmuVariable variable(FmuVariable::Kind kind, std::string name, std::uint32_t vr) {
  FmuVariable v;
  v.kind = kind;
  v.name = std::move(name);
  v.value_reference = vr;
  return v;
}

}  // namespace

void add_task_clocks(std::vector<FmuVariable>& variables, double h, int ratio) {
  const auto vr = static_cast<std::uint32_t>(variables.size());
  FmuVariable fast = variable(FmuVariable::Kind::kClock, "fast_task", vr);
  fast.interval = h;
  fast.description = "the fast task's clock: its partition is a tick (read the inputs, step the fast states)";
  FmuVariable slow = variable(FmuVariable::Kind::kClock, "slow_task", vr + 1);
  slow.interval = h * ratio;
  slow.priority = 1;
  slow.description = "the slow task's clock: its partition is the slow job the fast task released at that tick";
  variables.push_back(fast);
  variables.push_back(slow);
}

std::vector<std::string> fmu_tunable_names(const Model& model) {
  std::vector<std::string> names;
  for (const Parameter& p : model.parameters)
    if (p.tunable) names.push_back(p.name);
  for (const auto& t : model.tables)
    if (t->tunable)
      for (std::size_t i = 0; i < t->values.size(); ++i) names.push_back(fmt::format("{}[{}]", t->name, i));
  return names;
}

std::vector<FmuVariable> fmu_variables(const Model& model, ScalarType scalar, bool arrays) {
  using Kind = FmuVariable::Kind;
  std::vector<FmuVariable> v;
  std::uint32_t vr = 0;
  FmuVariable time = variable(Kind::kTime, "time", vr++);
  time.unit = "s";
  time.description = "simulation time";
  v.push_back(time);
  const std::uint32_t first_state = vr;
  for (const State& s : model.states) {
    FmuVariable x = variable(Kind::kState, s.name, vr++);
    x.start = in_scalar(s.initial_value, scalar);
    x.description = s.fast ? "fast state" : "slow state";
    v.push_back(x);
  }
  for (std::size_t i = 0; i < model.states.size(); ++i) {
    FmuVariable d = variable(Kind::kDerivative, "der(" + model.states[i].name + ")", vr++);
    d.derivative_of = first_state + static_cast<std::uint32_t>(i);
    v.push_back(d);
  }
  for (const Input& u : model.inputs) {
    FmuVariable in = variable(Kind::kInput, u.name, vr++);
    in.start = in_scalar(u.default_value, scalar);
    in.unit = u.unit;
    in.description = u.description;
    v.push_back(in);
  }
  for (const Output& y : model.outputs) v.push_back(variable(Kind::kOutput, y.name, vr++));
  for (const Parameter& p : model.parameters) {
    if (!p.tunable) continue;
    const ScalarLimits l = scalar_limits(p.min, p.max, scalar);
    FmuVariable t = variable(Kind::kTunable, p.name, vr++);
    t.start = in_scalar(in_scalar_limits(p.value, l, scalar), scalar);
    t.min = l.min;
    t.max = l.max;
    t.unit = p.unit;
    t.description = p.description;
    v.push_back(t);
  }
  for (const auto& table : model.tables) {
    if (!table->tunable) continue;
    const ScalarLimits l = scalar_limits(table->min, table->max, scalar);
    const auto value = [&](double x) { return in_scalar(in_scalar_limits(x, l, scalar), scalar); };
    if (arrays) {
      FmuVariable t = variable(Kind::kTunable, table->name, vr++);
      for (const double x : table->values) t.array_start.push_back(value(x));
      t.min = l.min;
      t.max = l.max;
      t.description = fmt::format("table {}'s values, first axis outermost", table->name);
      v.push_back(t);
      continue;
    }
    for (std::size_t i = 0; i < table->values.size(); ++i) {
      FmuVariable t = variable(Kind::kTunable, fmt::format("{}[{}]", table->name, i), vr++);
      t.start = value(table->values[i]);
      t.min = l.min;
      t.max = l.max;
      t.description = fmt::format("table {}'s value {}", table->name, i);
      v.push_back(t);
    }
  }
  return v;
}

}  // namespace dualrate
