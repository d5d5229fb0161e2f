// Model file (YAML) -> Model: the loader's reading of the file, names and scopes, parameters,
// inputs, states, variables, equations and outputs (loader.hpp).
#include "model/loader.hpp"

#include <yaml-cpp/depthguard.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <regex>
#include <sstream>

#include "model/functions.hpp"

namespace dualrate::loading {

NumberText number_text(const std::string& text, double& value) {
  static const std::regex number(R"([-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?)");
  static const std::regex special("[-+]?\\.(inf|Inf|INF|nan|NaN|NAN)");
  if (std::regex_match(text, special)) return NumberText::kNotFinite;
  if (!std::regex_match(text, number)) return NumberText::kNotANumber;
  value = std::strtod(text.c_str(), nullptr);
  return std::isfinite(value) ? NumberText::kFinite : NumberText::kNotFinite;
}

Loader::Loader(std::string text, std::string file, std::vector<ParameterOverride> overrides)
    : text_(std::move(text)), file_(std::move(file)), overrides_(std::move(overrides)) {
  std::istringstream in(text_);
  for (std::string line; std::getline(in, line);) lines_.push_back(line);
}

Model Loader::load() {
  YAML::Node root;
  try {
    root = YAML::Load(text_);
  } catch (const YAML::DeepRecursion& e) {
    throw ModelError(at(e.mark), "invalid YAML: nested more than " + std::to_string(e.depth()) + " levels deep");
  } catch (const YAML::Exception& e) {
    const SourceLoc loc = at(e.mark);
    bool tab = false;  // in the indentation of the line the error is on
    if (static_cast<std::size_t>(loc.line) <= lines_.size()) {
      const std::string& line = lines_[loc.line - 1];
      tab = line.substr(0, line.find_first_not_of(" \t")).find('\t') != std::string::npos;
    }
    throw ModelError(loc, "invalid YAML: " + e.msg, tab ? "indent with spaces: YAML does not allow tabs there" : "");
  }
  if (!root || root.IsNull())
    throw ModelError({file_, 1, 1}, "empty model file", "a model needs at least 'name', 'states' and 'equations'");
  if (!root.IsMap())
    throw ModelError(at(root.Mark()), "a model file must be a YAML mapping",
                     "start with 'name: my_model', then 'states:' and 'equations:'");
  model_.file = file_;
  model_.simulation.loc = {file_, 1, 1};
  const auto top = keys(root, kTopKeys, "top level");
  read_name(require(root, top, "name"));
  if (top.count("description")) model_.description = scalar(top.at("description"), "description");
  const bool second_order = top.count("coordinates") > 0;
  check_form(root, top, second_order);

  // Names first (all sections share one namespace), then expressions.
  const auto params = section(top, "parameters");
  const auto tables = section(top, "tables");
  const auto inputs = section(top, "inputs");
  auto vars = section(top, "variables");
  const auto outs = section(top, "outputs");
  std::vector<Entry> slow, fast;
  if (second_order) {
    second_order_states(top, slow, fast);
    force_entries(top, vars);
  } else {
    read_states(top.at("states"), slow, fast);
  }

  for (const auto& e : params) model_.parameters.push_back({define(e, NameKind::kParameter), {}, {}});
  for (const auto& e : inputs) model_.inputs.push_back({define(e, NameKind::kInput), {}, {}});
  for (const auto& e : slow) model_.states.push_back({define(e, state_kind(e, false)), false, {}, {}, {}, {}});
  for (const auto& e : fast) model_.states.push_back({define(e, state_kind(e, true)), true, {}, {}, {}, {}});
  model_.slow_count = slow.size();
  model_.partitioned = partitioned_;
  std::vector<Variable> variables;
  variables.reserve(vars.size());
  for (const auto& e : vars) variables.push_back({define(e, NameKind::kVariable), {}});
  for (const auto& e : outs) model_.outputs.push_back({define(e, NameKind::kOutput), {}});
  for (const auto& e : tables) define(e, NameKind::kTable);

  check_overrides(top);
  read_tables(tables);
  read_parameters(params);
  read_inputs(inputs);
  std::vector<Entry> all_states = slow;
  all_states.insert(all_states.end(), fast.begin(), fast.end());
  read_initial_values(all_states);
  read_variables(vars, variables);
  if (second_order) read_second_order(top);
  if (top.count("equations")) read_equations(top.at("equations"));
  for (std::size_t i = 0; i < outs.size(); ++i) {
    model_.outputs[i].expr = expression(outs[i].key, outs[i].value, dynamic_scope("output '" + outs[i].name + "'"));
    model_.outputs[i].expr_loc = at(outs[i].value);
  }
  if (top.count("simulation")) read_simulation(top.at("simulation"));
  return std::move(model_);
}

// states: either the partition (slow: and fast:, each a mapping of names to initial values)
// or, for a model whose partition `dualrate design` is to propose, that mapping itself: all
// states then run as slow ones, and the schemes that need the partition refuse the model.
void Loader::read_states(const KeyValue& section, std::vector<Entry>& slow, std::vector<Entry>& fast) {
  const YAML::Node& node = section.second;
  const std::string hint =
      "list them under states: slow: and fast:, or as a plain mapping (states: {x: 0, y: 1}) "
      "for `dualrate design` to partition";
  if (!node.IsMap()) keys(node, kStateKeys, "states", section.first);  // throws: states must be a mapping
  if (node.size() == 0) throw ModelError(at(section.first), "the model has no states", hint);
  // A key whose value is a mapping (or slow:/fast: left empty) is the partition's; one with a
  // value, a state's.
  std::vector<YAML::Node> plain, split;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const bool part = it->second.IsMap() || (it->second.IsNull() && it->first.IsScalar() &&
                                             std::count(kStateKeys.begin(), kStateKeys.end(), it->first.Scalar()) > 0);
    (part ? split : plain).push_back(it->first);
  }
  if (!plain.empty() && !split.empty())
    throw ModelError(at(plain.front()), "states mixes the partition (slow:, fast:) with plain state names",
                     "either list every state under slow: or fast:, or give them all as one plain mapping");
  if (!plain.empty()) {
    partitioned_ = false;
    slow = entries(node, "states");
    return;
  }
  const auto states = keys(node, kStateKeys, "states", section.first);
  if (states.count("slow")) slow = entries(states.at("slow").second, "states.slow");
  if (states.count("fast")) fast = entries(states.at("fast").second, "states.fast");
  if (slow.empty() && fast.empty()) throw ModelError(at(section.first), "the model has no states", hint);
}

SourceLoc Loader::at(const YAML::Mark& m) const {
  if (m.line < 0) return {file_, 1, 1};
  return {file_, m.line + 1, m.column + 1};
}

// The keys of a mapping, each checked against `allowed` and for duplicates.
std::map<std::string, KeyValue> Loader::keys(const YAML::Node& node, const std::vector<std::string>& allowed,
                                             const std::string& where, const YAML::Node& owner) {
  if (!node.IsMap())
    throw ModelError(at(node.IsNull() && owner ? owner : node), where + " must be a mapping",
                     "expected one of: " + join(allowed));
  std::map<std::string, KeyValue> found;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = key_name(it->first, where);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw ModelError(at(it->first), "unknown key '" + key + "' in " + where,
                       did_you_mean(key, allowed, "expected one of: " + join(allowed)));
    if (found.count(key))
      throw ModelError(at(it->first), "duplicate key '" + key + "' in " + where,
                       "first given at line " + std::to_string(at(found.at(key).first).line));
    found[key] = {it->first, it->second};
  }
  return found;
}

std::string Loader::key_name(const YAML::Node& key, const std::string& where) {
  if (!key.IsScalar()) throw ModelError(at(key), "keys in " + where + " must be plain names");
  return key.Scalar();
}

KeyValue Loader::require(const YAML::Node& root, const std::map<std::string, KeyValue>& top, const std::string& key) {
  if (!top.count(key))
    throw ModelError(at(root.size() ? root.begin()->first : root), "missing required key '" + key + "'",
                     "a model needs 'name', 'states' and 'equations' (in second-order form: 'name', "
                     "'coordinates', 'mass' and 'forces')");
  return top.at(key);
}

// A value given as `key: value`; an empty value is reported at its key.
std::string Loader::scalar(const KeyValue& kv, const std::string& what) {
  if (kv.second.IsNull()) throw ModelError(at(kv.first), what + " is missing");
  if (!kv.second.IsScalar()) throw ModelError(at(kv.second), what + " must be a single value");
  return kv.second.Scalar();
}

// An optional name: value section, in file order.
std::vector<Entry> Loader::section(const std::map<std::string, KeyValue>& top, const std::string& key) {
  if (!top.count(key)) return {};
  return entries(top.at(key).second, key);
}

std::vector<Entry> Loader::entries(const YAML::Node& node, const std::string& where) {
  if (node.IsNull()) return {};
  if (!node.IsMap())
    throw ModelError(at(node), where + " must be a mapping of name: value", "write one entry per line, as in 'R: 1.0'");
  std::vector<Entry> result;
  for (auto it = node.begin(); it != node.end(); ++it)
    result.push_back({key_name(it->first, where), it->first, it->second});
  return result;
}

void Loader::read_name(const KeyValue& kv) {
  const YAML::Node& node = kv.second;
  const std::string name = scalar(kv, "name");
  static const std::regex identifier("[A-Za-z][A-Za-z0-9_]*");
  if (!std::regex_match(name, identifier))
    throw ModelError(at(node), "invalid model name '" + name + "'",
                     "the name is the C++ namespace of the generated code: a letter, then letters, digits or '_'");
  if (cpp_keywords().count(name) || name == "std" || name == "Eigen" || name == "dualrate")
    throw ModelError(at(node), "invalid model name '" + name + "': it is reserved in C++ or by dualrate",
                     "the name is the C++ namespace of the generated code; choose another");
  model_.name = name;
}

bool Loader::is(const std::string& name, NameKind kind) const {
  const auto k = kind_.find(name);
  return k != kind_.end() && k->second == kind;
}

Named Loader::define(const Entry& e, NameKind name_kind) {
  const SourceLoc loc = at(e.key);
  const std::string kind = to_string(name_kind);
  static const std::regex identifier("[A-Za-z][A-Za-z0-9_]*");
  const std::string hint = "names are C identifiers: a letter, then letters, digits or '_'";
  if (!std::regex_match(e.name, identifier)) throw ModelError(loc, "invalid " + kind + " name '" + e.name + "'", hint);
  if (cpp_keywords().count(e.name))
    throw ModelError(loc, "invalid " + kind + " name '" + e.name + "': it is a C++ keyword", "choose another name");
  if (find_model_function(e.name))
    throw ModelError(loc, "invalid " + kind + " name '" + e.name + "': it is a function name", "choose another name");
  if (auto r = reserved_names().find(e.name); r != reserved_names().end())
    throw ModelError(loc, "invalid " + kind + " name '" + e.name + "': reserved because " + r->second,
                     "choose another name");
  if (e.name == model_.name)
    throw ModelError(loc, "invalid " + kind + " name '" + e.name + "': it is the model's name",
                     "the model name is the generated namespace; choose another name");
  if (auto d = defined_.find(e.name); d != defined_.end())
    throw ModelError(loc, "duplicate name '" + e.name + "'",
                     "already defined as " + std::string(to_string(kind_.at(e.name))) + " at line " +
                         std::to_string(d->second.line));
  defined_[e.name] = loc;
  kind_[e.name] = name_kind;
  return {e.name, loc, GiNaC::realsymbol(cpp_name(e.name))};
}

ExpressionText Loader::text_of(const YAML::Node& key, const YAML::Node& node, const std::string& what) {
  if (node.IsNull()) throw ModelError(at(key), what + " is missing", "write a number or an expression");
  if (!node.IsScalar())
    throw ModelError(at(node),
                     what + " must be a number or an expression, not a " + (node.IsSequence() ? "list" : "mapping"));
  const std::string& s = node.Scalar();
  static const std::regex special("[-+]?\\.(inf|Inf|INF|nan|NaN|NAN)");
  if (std::regex_match(s, special)) throw ModelError(at(node), what + " is not finite", "use a finite number");
  const YAML::Mark m = node.Mark();
  ExpressionText t{s, at(m), false};
  if (m.line >= 0 && static_cast<std::size_t>(m.line) < lines_.size()) {
    const std::string& line = lines_[m.line];
    const auto col = static_cast<std::size_t>(m.column);
    if (line.compare(col, s.size(), s) == 0) {
      t.exact = true;
    } else if (col + 1 <= line.size() && line.compare(col + 1, s.size(), s) == 0) {
      t.loc = t.loc.shifted(1);
      t.exact = true;
    }
  }
  return t;
}

GiNaC::ex Loader::expression(const YAML::Node& key, const YAML::Node& value, const ExpressionScope& scope) {
  return parse_expression(text_of(key, value, scope.what), scope);
}

double Loader::evaluate(const GiNaC::ex& e, const YAML::Node& node, const std::string& what) {
  GiNaC::ex v;
  try {
    v = e.subs(model_.parameter_values()).evalf();
  } catch (const std::exception& ex) {
    throw ModelError(at(node), "cannot evaluate " + what + ": " + ex.what());
  }
  if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
    throw ModelError(at(node), what + " does not evaluate to a real number");
  const double d = GiNaC::ex_to<GiNaC::numeric>(v).to_double();
  if (!std::isfinite(d)) throw ModelError(at(node), what + " is not finite", "use a finite number");
  return d;
}

ExpressionScope Loader::parameter_scope(const std::string& what, std::size_t available) {
  ExpressionScope scope;
  scope.what = what;
  for (std::size_t i = 0; i < model_.parameters.size(); ++i) {
    const auto& p = model_.parameters[i];
    if (i < available)
      scope.allowed[p.name] = p.symbol;
    else
      scope.forbidden[p.name] = "parameter '" + p.name + "' is defined later; move it up";
  }
  for (const auto& t : model_.tables) scope.tables[t->name] = t;
  for (const auto& [name, kind] : kind_)
    if (kind != NameKind::kParameter && kind != NameKind::kTable)
      scope.forbidden[name] =
          "'" + name + "' is a " + to_string(kind) + "; " + what + " may use only numbers and parameters";
  return scope;
}

ExpressionScope Loader::dynamic_scope(const std::string& what) {
  ExpressionScope scope;
  scope.what = what;
  scope.time = &time_ex_;
  for (const auto& t : model_.tables) scope.tables[t->name] = t;
  for (const auto& p : model_.parameters) scope.allowed[p.name] = p.symbol;
  for (const auto& u : model_.inputs) scope.allowed[u.name] = u.symbol;
  for (const auto& x : model_.states) scope.allowed[x.name] = x.symbol;
  for (const auto& v : all_variables_) scope.allowed[v.name] = v.symbol;
  for (const auto& y : model_.outputs)
    scope.forbidden[y.name] = "'" + y.name + "' is an output; to reuse it, make it a variable";
  return scope;
}

void Loader::check_overrides(const std::map<std::string, KeyValue>& top) {
  std::vector<std::string> names;
  for (const auto& p : model_.parameters) names.push_back(p.name);
  for (const auto& o : overrides_) {
    if (std::find(names.begin(), names.end(), o.name) != names.end()) continue;
    const SourceLoc loc = top.count("parameters") ? at(top.at("parameters").first) : SourceLoc{file_, 1, 1};
    throw ModelError(loc, "--param " + o.name + ": the model has no parameter '" + o.name + "'",
                     names.empty() ? "this model has no parameters section"
                                   : did_you_mean(o.name, names, "its parameters are: " + join(names)));
  }
}

void Loader::read_inputs(const std::vector<Entry>& entries) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    Input& u = model_.inputs[i];
    const KeyValue value =
        entries[i].value.IsMap() ? read_input_mapping(entries[i], u) : KeyValue{entries[i].key, entries[i].value};
    const std::string w = "the default value of input '" + u.name + "'";
    u.default_expr = expression(value.first, value.second, parameter_scope(w, model_.parameters.size()));
    u.default_value = evaluate(u.default_expr, value.second, w);
  }
}

KeyValue Loader::read_input_mapping(const Entry& e, Input& u) {
  const std::string owner = "input '" + u.name + "'";
  const auto k = value_mapping(e, kInputKeys, owner,
                               "as in V: {value: 12, hold: linear, unit: V}; the value is the input's default", u);
  if (k.count("hold")) u.hold = input_hold_named(keyword(k.at("hold"), "hold", owner, {"zero", "linear", "quadratic"}));
  if (k.count("jump")) {
    const auto& [key, node] = k.at("jump");
    const std::string what = "the jump of input '" + u.name + "'";
    u.jump = evaluate(expression(key, node, parameter_scope(what, model_.parameters.size())), node, what);
    if (!(u.jump > 0))
      throw ModelError(at(node), what + " must be positive",
                       "the smallest change between two samples that is a step, in the input's unit, as in jump: 5");
  }
  return k.at("value");
}

void Loader::read_initial_values(const std::vector<Entry>& entries) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    auto& x = model_.states[i];
    const std::string w = "the initial value of state '" + x.name + "'";
    x.initial_expr = expression(entries[i].key, entries[i].value, parameter_scope(w, model_.parameters.size()));
    x.initial_value = evaluate(x.initial_expr, entries[i].value, w);
  }
}

// Parses all variables, then orders them so that each comes after the variables it uses
// (file order otherwise); a cycle is an error.
void Loader::read_variables(const std::vector<Entry>& entries, std::vector<Variable>& variables) {
  all_variables_ = variables;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    variables[i].expr =
        expression(entries[i].key, entries[i].value, dynamic_scope("variable '" + variables[i].name + "'"));
    variables[i].expr_loc = at(entries[i].value);
  }
  enum class Mark { kNew, kActive, kDone };
  std::vector<Mark> mark(variables.size(), Mark::kNew);
  std::vector<std::size_t> path;
  std::function<void(std::size_t)> visit = [&](std::size_t i) {
    if (mark[i] == Mark::kDone) return;
    path.push_back(i);
    if (mark[i] == Mark::kActive) {
      std::vector<std::string> cycle;
      auto first = std::find(path.begin(), path.end(), i);
      for (auto it = first; it != path.end(); ++it) cycle.push_back(variables[*it].name);
      throw ModelError(variables[i].loc, "cyclic variables: " + join(cycle, " -> "),
                       "a variable cannot depend on itself; break the cycle with a state or a parameter");
    }
    mark[i] = Mark::kActive;
    for (std::size_t j = 0; j < variables.size(); ++j)
      if (variables[i].expr.has(variables[j].symbol)) visit(j);
    mark[i] = Mark::kDone;
    path.pop_back();
    model_.variables.push_back(variables[i]);
  };
  for (std::size_t i = 0; i < variables.size(); ++i) visit(i);
}

// A model is written either in first-order form (states, equations) or in second-order
// form (coordinates, mass, forces and optionally small), which may add first-order slow
// states (controller integrators, filters) with their equations.
void Loader::check_form(const YAML::Node& root, const std::map<std::string, KeyValue>& top, bool second_order) {
  const std::vector<std::string> other =
      second_order ? std::vector<std::string>{} : std::vector<std::string>{"mass", "forces", "small"};
  if (second_order && top.count("states")) require(root, top, "equations");
  if (second_order && top.count("equations")) require(root, top, "states");
  for (const auto& k : other)
    if (top.count(k))
      throw ModelError(
          at(top.at(k).first),
          "'" + k + (second_order ? "' in a second-order model (it has 'coordinates')" : "' without 'coordinates'"),
          "write a model either in first-order form (states, equations) or in second-order form "
          "(coordinates, mass, forces)");
  for (const auto& k :
       second_order ? std::vector<std::string>{"mass", "forces"} : std::vector<std::string>{"states", "equations"})
    require(root, top, k);
}

NameKind Loader::state_kind(const Entry& e, bool fast) const {
  if (model_.second_order) {
    const auto& c = model_.second_order->coordinates;
    if (std::find(c.begin(), c.end(), e.name) != c.end()) return NameKind::kCoordinate;
    for (const auto& q : c)
      if (e.name == q + "_dot") return NameKind::kVelocity;
  }
  return fast ? NameKind::kFastState : NameKind::kSlowState;
}

void Loader::read_equations(const KeyValue& section) {
  const YAML::Node& node = section.second;
  if (!node.IsMap())
    throw ModelError(at(node.IsNull() ? section.first : node), "equations must be a mapping of state: d(state)/dt",
                     "one line per state, as in 'omega: (torque - b*omega)/J'");
  std::vector<std::string> state_names;
  for (const auto& x : model_.states) state_names.push_back(x.name);
  std::set<std::string> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string name = key_name(it->first, "equations");
    auto x = std::find_if(model_.states.begin(), model_.states.end(), [&](const State& s) { return s.name == name; });
    if (x == model_.states.end()) {
      const std::string kind = kind_.count(name) ? " ('" + name + "' is a " + to_string(kind_.at(name)) + ")" : "";
      throw ModelError(at(it->first), "equation for '" + name + "', which is not a state" + kind,
                       did_you_mean(name, state_names, "equations give d(state)/dt, one per state"));
    }
    if (!seen.insert(name).second) throw ModelError(at(it->first), "duplicate equation for state '" + name + "'");
    if (is(name, NameKind::kCoordinate) || is(name, NameKind::kVelocity))
      throw ModelError(
          at(it->first),
          "equation for '" + name + "', which is a " + to_string(kind_.at(name)) + " of the second-order model",
          "its motion follows from mass and forces; equations are for the added first-order states");
    x->rhs = expression(it->first, it->second, dynamic_scope("the equation of '" + name + "'"));
    x->rhs_loc = at(it->second);
  }
  std::vector<std::string> missing;
  for (const auto& x : model_.states)
    if (!seen.count(x.name) && !is(x.name, NameKind::kCoordinate) && !is(x.name, NameKind::kVelocity))
      missing.push_back(x.name);
  if (!missing.empty())
    throw ModelError(at(section.first),
                     "missing equation" + std::string(missing.size() > 1 ? "s" : "") + " for state" +
                         (missing.size() > 1 ? "s " : " ") + join(missing),
                     "each state needs exactly one equation: its time derivative");
}

}  // namespace dualrate::loading

namespace dualrate {

Model load_model_text(const std::string& text, const std::string& file,
                      const std::vector<ParameterOverride>& overrides) {
  return loading::Loader(text, file, overrides).load();
}

Model load_model_file(const std::string& path, const std::vector<ParameterOverride>& overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError({path, 1, 1}, "cannot read model file", "check the path");
  std::ostringstream s;
  s << in.rdbuf();
  return load_model_text(s.str(), path, overrides);
}

}  // namespace dualrate
