#include "fmi/fmu_variables.hpp"

#include <fmt/format.h>

#include <utility>

#include "model/cpp_names.hpp"

namespace dualrate {

namespace {

using Kind = FmuVariable::Kind;

FmuVariable variable(Kind kind, std::string name, std::uint32_t vr, int index) {
  FmuVariable v;
  v.kind = kind;
  v.name = std::move(name);
  v.value_reference = vr;
  v.index = index;
  return v;
}

// The tunable values as variables: one each, or each table's as one array.
void add_tunables(std::vector<FmuVariable>& v, const std::vector<TunableValue>& values, bool arrays) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const TunableValue& t = values[i];
    FmuVariable x = variable(Kind::kTunable, t.name, static_cast<std::uint32_t>(v.size()), static_cast<int>(i));
    x.min = t.min;
    x.max = t.max;
    x.unit = t.unit;
    x.description = t.description;
    if (arrays && !t.table.empty()) {
      x.name = t.table;
      x.description = fmt::format("table {}'s values, first axis outermost", t.table);
      for (; i < values.size() && values[i].table == t.table; ++i) x.array_start.push_back(values[i].start);
      --i;
      x.count = static_cast<int>(x.array_start.size());
    } else {
      x.start = t.start;
    }
    v.push_back(x);
  }
}

}  // namespace

std::vector<TunableValue> tunable_values(const Model& model, ScalarType scalar) {
  std::vector<TunableValue> values;
  for (const Parameter& p : model.parameters) {
    if (!p.tunable) continue;
    const ScalarLimits l = scalar_limits(p.min, p.max, scalar);
    values.push_back({p.name, p.cpp(), "", in_scalar(in_scalar_limits(p.value, l, scalar), scalar), l.min, l.max,
                      p.unit, p.description});
  }
  for (const auto& table : model.tables) {
    if (!table->tunable) continue;
    const ScalarLimits l = scalar_limits(table->min, table->max, scalar);
    for (std::size_t i = 0; i < table->values.size(); ++i)
      values.push_back({fmt::format("{}[{}]", table->name, i), fmt::format("{}[{}]", cpp_name(table->name), i),
                        table->name, in_scalar(in_scalar_limits(table->values[i], l, scalar), scalar), l.min, l.max, "",
                        fmt::format("table {}'s value {}", table->name, i)});
  }
  return values;
}

std::vector<FmuVariable> fmu_variables(const Model& model, const FmuLayout& layout) {
  std::vector<FmuVariable> v;
  const auto next = [&v] { return static_cast<std::uint32_t>(v.size()); };
  FmuVariable time = variable(Kind::kTime, "time", next(), 0);
  time.unit = "s";
  time.description = "simulation time";
  v.push_back(time);
  const std::uint32_t first_state = next();
  for (std::size_t i = 0; i < model.states.size(); ++i) {
    const State& s = model.states[i];
    FmuVariable x = variable(Kind::kState, s.name, next(), static_cast<int>(i));
    if (!layout.calculated_states) x.start = in_scalar(s.initial_value, layout.scalar);
    x.description = s.fast ? "fast state" : "slow state";
    v.push_back(x);
  }
  if (!layout.scheduled)
    for (std::size_t i = 0; i < model.states.size(); ++i) {
      FmuVariable d = variable(Kind::kDerivative, "der(" + model.states[i].name + ")", next(), static_cast<int>(i));
      d.derivative_of = first_state + static_cast<std::uint32_t>(i);
      v.push_back(d);
    }
  for (std::size_t i = 0; i < model.inputs.size(); ++i) {
    const Input& u = model.inputs[i];
    FmuVariable in = variable(Kind::kInput, u.name, next(), static_cast<int>(i));
    in.start = in_scalar(u.default_value, layout.scalar);
    in.unit = u.unit;
    in.description = u.description;
    v.push_back(in);
  }
  for (std::size_t i = 0; i < model.outputs.size(); ++i)
    v.push_back(variable(Kind::kOutput, model.outputs[i].name, next(), static_cast<int>(i)));
  add_tunables(v, tunable_values(model, layout.scalar), layout.arrays);
  if (layout.scheduled) {
    FmuVariable fast = variable(Kind::kClock, "fast_task", next(), 0);
    fast.interval = layout.step;
    fast.description = "the fast task's clock: its partition is a tick (read the inputs, step the fast states)";
    v.push_back(fast);
    FmuVariable slow = variable(Kind::kClock, "slow_task", next(), 1);
    slow.interval = layout.step * layout.ratio;
    slow.priority = 1;
    slow.description = "the slow task's clock: its partition is the slow job the fast task released at that tick";
    v.push_back(slow);
  }
  return v;
}

}  // namespace dualrate
